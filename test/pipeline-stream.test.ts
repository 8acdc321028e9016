/**
 * Pipeline state streams: every subobject type's layout, default and image bytes against the C++
 * compiler with Debian's DirectX-Headers (directx-headers-dev: d3dx12.h's
 * CD3DX12_PIPELINE_STATE_STREAM_* types) for x64 and x86; round trips through images and JSON;
 * hostile images.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ABIS, type Abi } from '../codecs/ddi.js';
import { TARGETS } from '../src/fuzz/targets.js';
import { PIPELINE_STATE_SUBOBJECT_TYPE, PIPELINE_STRUCTS, SUBOBJECTS, subobjectStructName } from '../codecs/pipeline.js';
import { enumerator } from '../codecs/enum-table.js';
import { structLayout } from '../src/ddi/index.js';
import { encodeImage } from '../src/ddi/image.js';
import { decodeStream, encodeStream, streamFromJson, streamToJson, subobjectDefault, type Subobject } from '../src/pipeline/stream.js';
import { Budget, DxbinError, LimitError, pipelineFromJson, printableJson } from '../src/index.js';
import { ROOT } from './helpers/corpus.js';
import { printIndented, writeJsonText } from '../src/cli/commands/pipeline.js';
import { probeBytes, probeNumbers } from './helpers/gcc-probe.js';
import { randomDdi } from './helpers/ddi-random.js';
import { missingCompiler, missingPath, requires } from './helpers/requires.js';

const HEADERS = ['-std=c++17', '-Wno-invalid-offsetof', '-I/usr/include/wsl/stubs', '-I/usr/include', `-I${join(ROOT, 'test/probes')}`];
/** The real headers, then the mirror of the three subobjects Debian's 1.606 lacks. `private` is opened for offsetof(pssInner). */
const PRELUDE = '#define private public\n#include <wsl/winadapter.h>\n#include <directx/d3dx12.h>\n#undef private\n#include "pipeline-mirror.h"\n#include <stddef.h>\n';
/** Subobject types newer than Debian's headers (their values: DirectX-Headers 1.618). */
const NEWER = new Set(['RASTERIZER1', 'RASTERIZER2', 'SERIALIZED_ROOT_SIGNATURE']);
const MIRRORED = new Set(['D3D12_RASTERIZER_DESC1', 'D3D12_RASTERIZER_DESC2', 'D3D12_SERIALIZED_ROOT_SIGNATURE_DESC']);
/** The CD3DX12_PIPELINE_STATE_STREAM_* type of a subobject row (d3dx12.h). */
const cppOf = (row: (typeof SUBOBJECTS)[number]) => row.cpp ?? subobjectStructName(row.type);

for (const abi of ABIS) {
  const m = abi === 'x86' ? '-m32' : '-m64';
  const withGxx = requires(`g++${abi === 'x86' ? ' and 32-bit libraries (g++-multilib)' : ''} and DirectX-Headers (directx-headers-dev)`, missingCompiler('g++', [m]) ?? missingPath('/usr/include/directx/d3dx12.h', '/usr/include/wsl/winadapter.h'));

  withGxx(`g++ ${abi}: every CD3DX12_PIPELINE_STATE_STREAM_* subobject type has dxbin's size, alignment and inner offset`, () => {
    const entries: [string, string][] = [];
    for (const row of SUBOBJECTS) {
      entries.push([`${row.type} size`, `sizeof(${cppOf(row)})`], [`${row.type} align`, `alignof(${cppOf(row)})`], [`${row.type} inner`, `offsetof(${cppOf(row)}, pssInner)`]);
      if (!NEWER.has(row.type)) entries.push([`${row.type} value`, `D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_${row.type}`]);
    }
    const seen = probeNumbers('g++', [m, ...HEADERS], PRELUDE, entries);
    for (const row of SUBOBJECTS) {
      const layout = structLayout(subobjectStructName(row.type), abi);
      assert.is(seen.get(`${row.type} size`), layout.size, `${cppOf(row)} size`);
      assert.is(seen.get(`${row.type} align`), layout.align, `${cppOf(row)} align`);
      assert.is(seen.get(`${row.type} inner`), layout.fields[1]!.offset, `${cppOf(row)} inner offset`);
      if (!NEWER.has(row.type)) assert.is(seen.get(`${row.type} value`), typeValue(row.type), `D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_${row.type}`);
    }
  });

  withGxx(`g++ ${abi}: every struct a stream holds has dxbin's size and field offsets (d3d12.h; mirror for the three newer than Debian's)`, () => {
    const structs = [...PIPELINE_STRUCTS, structLayout('D3D12_PIPELINE_STATE_STREAM_DESC', abi)];
    const entries: [string, string][] = [];
    for (const s of structs) {
      entries.push([`${s.name} sizeof`, `sizeof(${s.name})`]);
      for (const f of s.fields) entries.push([`${s.name} ${f.name} offset`, `offsetof(${s.name}, ${f.name})`], [`${s.name} ${f.name} size`, `sizeof(((${s.name}*)0)->${f.name})`]);
    }
    const seen = probeNumbers('g++', [m, ...HEADERS], PRELUDE, entries);
    for (const s of structs) {
      const layout = structLayout(s.name, abi);
      assert.is(seen.get(`${s.name} sizeof`), layout.size, `${s.name} size`);
      for (const f of layout.fields) {
        assert.is(seen.get(`${s.name} ${f.name} offset`), f.offset, `${s.name}.${f.name} offset`);
        assert.is(seen.get(`${s.name} ${f.name} size`), f.size, `${s.name}.${f.name} size`);
      }
    }
    assert.ok(MIRRORED.size === 3);
  });

  withGxx(`g++ ${abi}: a stream holding every subobject type, built by the compiler as a static image, equals encodeStream's bytes`, () => {
    const bytes = probeBytes('g++', [m, ...HEADERS], `${PRELUDE}\n${IMAGE_CPP}`, 'dxbin_image');
    const ours = encodeStream(streamFromJson(EVERY_TYPE), abi);
    // the C++ object ends padded to its alignment; the image ends with its last byte
    assert.ok(bytes.length >= ours.length && bytes.length - ours.length < 8, `${bytes.length} vs ${ours.length} bytes`);
    assert.equal([...bytes.subarray(ours.length)].filter((b) => b !== 0), []);
    assert.equal([...ours], [...bytes.subarray(0, ours.length)]);
    assert.equal(streamToJson(decodeStream(ours, abi)), EVERY_TYPE);
  });

  // Defaults are values of d3dx12.h's constructors: the compiler cannot fold them into static data,
  // so the probe is run. This kernel may not run 32-bit programs; then x86 defaults are skipped
  // (the x86 layout and bytes of every type are checked by the gcc -S probes above).
  const runs = missingCompiler('g++', [m]) ?? missingPath('/usr/include/directx/d3dx12.h') ?? cannotRun(m);
  const withRun = runs === undefined ? test : (name: string) => (console.log(`skipped: ${name}: ${runs}`), test.skip(name, () => {}));
  withRun(`g++ ${abi}: a default-constructed subobject of every type has encodeStream's bytes for subobjectDefault`, () => {
    const out = runProbe(m, `${PRELUDE}#include <stdio.h>\n#include <string.h>\n#include <new>\ntemplate <class T> void dump(const char *name) {\n  alignas(16) unsigned char buf[sizeof(T)];\n  memset(buf, 0, sizeof buf);\n  new (buf) T();\n  printf("%s ", name);\n  for (size_t i = 0; i < sizeof buf; i++) printf("%02x", buf[i]);\n  printf("\\n");\n}\nint main() {\n${SUBOBJECTS.map((r) => `  dump<${cppOf(r)}>("${r.type}");`).join('\n')}\n  return 0;\n}\n`);
    const seen = new Map(out.trim().split('\n').map((l) => l.split(' ') as [string, string]));
    for (const row of SUBOBJECTS) {
      const image = encodeImage(subobjectStructName(row.type), { Type: typeValue(row.type), Inner: subobjectDefault(row.type) }, abi);
      // padding is whatever the constructor left there (x86 copies a stack temporary): compared as zero
      assert.is(hex(image), hex(unpadded(fromHex(seen.get(row.type)!), subobjectStructName(row.type), abi)), `${cppOf(row)} default`);
    }
  });
}

const SUBOBJECT_VALUES = new Map<string, number>(PIPELINE_STATE_SUBOBJECT_TYPE.values.map(([n, v]) => [n, v]));
const typeValue = (type: string) => enumerator(PIPELINE_STATE_SUBOBJECT_TYPE, type);

const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => Number.parseInt(x, 16));
/** `bytes` with every byte outside the fields of `struct` (padding, by dxbin's layout) zeroed. */
function unpadded(bytes: Uint8Array, struct: string, abi: Abi): Uint8Array {
  const keep = new Uint8Array(bytes.length);
  const mark = (name: string, at: number) => {
    for (const f of structLayout(name, abi).fields) {
      const t = f.type.kind === 'array' ? f.type.of : f.type;
      const n = f.type.kind === 'array' ? f.type.count : 1;
      for (let i = 0; i < n; i++) {
        const o = at + f.offset + (i * f.size) / n;
        if (t.kind === 'struct') mark(t.struct, o);
        else keep.fill(1, o, o + f.size / n);
      }
    }
  };
  mark(struct, 0);
  return bytes.map((b, i) => (keep[i] ? b : 0));
}
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

function cannotRun(m: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-run-'));
  try {
    writeFileSync(join(dir, 'p.c'), 'int main(void) { return 0; }\n');
    const built = spawnSync('gcc', [m, join(dir, 'p.c'), '-o', join(dir, 'p')], { stdio: 'ignore' });
    if (built.status !== 0) return `gcc ${m} cannot link a program`;
    const ran = spawnSync(join(dir, 'p'), [], { stdio: 'ignore' });
    return ran.status === 0 ? undefined : `this kernel does not run ${m} programs (${ran.error?.message ?? `exit ${ran.status}`})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runProbe(m: string, src: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-probe-'));
  try {
    writeFileSync(join(dir, 'p.cpp'), src);
    execFileSync('g++', [m, ...HEADERS, join(dir, 'p.cpp'), '-o', join(dir, 'p')], { stdio: 'pipe' });
    return execFileSync(join(dir, 'p'), { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the every-type stream

const STENCIL_A = { StencilFailOp: 'INCR', StencilDepthFailOp: 'DECR', StencilPassOp: 'REPLACE', StencilFunc: 'EQUAL' };
const STENCIL_B = { StencilFailOp: 'KEEP', StencilDepthFailOp: 'ZERO', StencilPassOp: 'INVERT', StencilFunc: 'NEVER' };
const DEPTH = { DepthEnable: 1, DepthWriteMask: 'ZERO', DepthFunc: 'GREATER', StencilEnable: 1, StencilReadMask: 15, StencilWriteMask: 240, FrontFace: STENCIL_A, BackFace: STENCIL_B };
const RT0 = { BlendEnable: 1, LogicOpEnable: 0, SrcBlend: 'SRC_ALPHA', DestBlend: 'INV_SRC_ALPHA', BlendOp: 'ADD', SrcBlendAlpha: 'ONE', DestBlendAlpha: 'ZERO', BlendOpAlpha: 'MAX', LogicOp: 'NOOP', RenderTargetWriteMask: ['RED', 'GREEN', 'BLUE', 'ALPHA'] };
const RTN = { BlendEnable: 0, LogicOpEnable: 1, SrcBlend: 'ONE', DestBlend: 'ZERO', BlendOp: 'ADD', SrcBlendAlpha: 'ONE', DestBlendAlpha: 'ZERO', BlendOpAlpha: 'ADD', LogicOp: 'XOR', RenderTargetWriteMask: ['RED', 'GREEN'] };
const code = (hexText: string) => ({ pShaderBytecode: hexText || null, BytecodeLength: hexText.length / 2 });
/** One subobject of each type, in the JSON form; IMAGE_CPP builds the same stream in C++. */
const EVERY_TYPE = [
  { Type: 'ROOT_SIGNATURE', Inner: 0x1234 },
  { Type: 'VS', Inner: code('44584243') },
  { Type: 'PS', Inner: code('010203') },
  { Type: 'DS', Inner: code('') },
  { Type: 'HS', Inner: code('09') },
  { Type: 'GS', Inner: code('') },
  { Type: 'CS', Inner: code('0708') },
  {
    Type: 'STREAM_OUTPUT',
    Inner: {
      pSODeclaration: [
        { Stream: 0, SemanticName: 'SV_Position', SemanticIndex: 0, StartComponent: 0, ComponentCount: 4, OutputSlot: 0 },
        { Stream: 1, SemanticName: 'TEXCOORD', SemanticIndex: 2, StartComponent: 1, ComponentCount: 3, OutputSlot: 1 },
      ],
      NumEntries: 2,
      pBufferStrides: [16, 12],
      NumStrides: 2,
      RasterizedStream: 0,
    },
  },
  { Type: 'BLEND', Inner: { AlphaToCoverageEnable: 1, IndependentBlendEnable: 1, RenderTarget: [RT0, RTN, RTN, RTN, RTN, RTN, RTN, RTN] } },
  { Type: 'SAMPLE_MASK', Inner: 0xff0f },
  { Type: 'RASTERIZER', Inner: { FillMode: 'WIREFRAME', CullMode: 'FRONT', FrontCounterClockwise: 1, DepthBias: -3, DepthBiasClamp: 0.5, SlopeScaledDepthBias: 1.25, DepthClipEnable: 0, MultisampleEnable: 1, AntialiasedLineEnable: 1, ForcedSampleCount: 4, ConservativeRaster: 'ON' } },
  { Type: 'DEPTH_STENCIL', Inner: DEPTH },
  {
    Type: 'INPUT_LAYOUT',
    Inner: {
      pInputElementDescs: [
        { SemanticName: 'POSITION', SemanticIndex: 0, Format: 'R32G32B32_FLOAT', InputSlot: 0, AlignedByteOffset: 0, InputSlotClass: 'PER_VERTEX_DATA', InstanceDataStepRate: 0 },
        { SemanticName: 'TEXCOORD', SemanticIndex: 1, Format: 'R16G16_UNORM', InputSlot: 1, AlignedByteOffset: 12, InputSlotClass: 'PER_INSTANCE_DATA', InstanceDataStepRate: 2 },
      ],
      NumElements: 2,
    },
  },
  { Type: 'IB_STRIP_CUT_VALUE', Inner: '0xFFFF' },
  { Type: 'PRIMITIVE_TOPOLOGY', Inner: 'TRIANGLE' },
  { Type: 'RENDER_TARGET_FORMATS', Inner: { RTFormats: ['R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN'], NumRenderTargets: 2 } },
  { Type: 'DEPTH_STENCIL_FORMAT', Inner: 'D32_FLOAT' },
  { Type: 'SAMPLE_DESC', Inner: { Count: 4, Quality: 1 } },
  { Type: 'NODE_MASK', Inner: 1 },
  { Type: 'CACHED_PSO', Inner: { pCachedBlob: 'c0c1c2c3c4', CachedBlobSizeInBytes: 5 } },
  { Type: 'FLAGS', Inner: ['TOOL_DEBUG'] },
  { Type: 'DEPTH_STENCIL1', Inner: { ...DEPTH, DepthBoundsTestEnable: 1 } },
  { Type: 'VIEW_INSTANCING', Inner: { ViewInstanceCount: 2, pViewInstanceLocations: [{ ViewportArrayIndex: 0, RenderTargetArrayIndex: 1 }, { ViewportArrayIndex: 2, RenderTargetArrayIndex: 3 }], Flags: ['ENABLE_VIEW_INSTANCE_MASKING'] } },
  { Type: 'AS', Inner: code('0506') },
  { Type: 'MS', Inner: code('0a0b0c') },
  {
    Type: 'DEPTH_STENCIL2',
    Inner: {
      DepthEnable: 1,
      DepthWriteMask: 'ALL',
      DepthFunc: 'LESS_EQUAL',
      StencilEnable: 1,
      FrontFace: { StencilFailOp: 'INCR_SAT', StencilDepthFailOp: 'DECR_SAT', StencilPassOp: 'KEEP', StencilFunc: 'ALWAYS', StencilReadMask: 0x11, StencilWriteMask: 0x22 },
      BackFace: { StencilFailOp: 'ZERO', StencilDepthFailOp: 'ZERO', StencilPassOp: 'ZERO', StencilFunc: 'LESS', StencilReadMask: 0x33, StencilWriteMask: 0x44 },
      DepthBoundsTestEnable: 1,
    },
  },
  { Type: 'RASTERIZER1', Inner: { FillMode: 'SOLID', CullMode: 'NONE', FrontCounterClockwise: 0, DepthBias: 2.5, DepthBiasClamp: -1, SlopeScaledDepthBias: 0.25, DepthClipEnable: 1, MultisampleEnable: 0, AntialiasedLineEnable: 1, ForcedSampleCount: 8, ConservativeRaster: 'OFF' } },
  { Type: 'RASTERIZER2', Inner: { FillMode: 'WIREFRAME', CullMode: 'BACK', FrontCounterClockwise: 1, DepthBias: -0.5, DepthBiasClamp: 0, SlopeScaledDepthBias: 2, DepthClipEnable: 0, LineRasterizationMode: 'QUADRILATERAL_WIDE', ForcedSampleCount: 0, ConservativeRaster: 'ON' } },
  { Type: 'SERIALIZED_ROOT_SIGNATURE', Inner: { pSerializedBlob: '525453300100', SerializedBlobSizeInBytes: 6 } },
];

/**
 * The same stream as a static C++ object: the stream description, the subobjects (each checked to
 * have its CD3DX12 type's size and alignment), then what they point at in the order an image
 * places it (breadth first: the subobjects' pointers, then the semantic names of their entries).
 */
const IMAGE_CPP = String.raw`
template <class I, int T> struct alignas(void *) SO { D3D12_PIPELINE_STATE_SUBOBJECT_TYPE t; I i; };
#define CHECK(I, T, X) static_assert(sizeof(SO<I, T>) == sizeof(X) && alignof(SO<I, T>) == alignof(X), #X);
CHECK(ID3D12RootSignature *, 0, CD3DX12_PIPELINE_STATE_STREAM_ROOT_SIGNATURE)
CHECK(D3D12_SHADER_BYTECODE, 1, CD3DX12_PIPELINE_STATE_STREAM_VS)
CHECK(D3D12_STREAM_OUTPUT_DESC, 7, CD3DX12_PIPELINE_STATE_STREAM_STREAM_OUTPUT)
CHECK(D3D12_BLEND_DESC, 8, CD3DX12_PIPELINE_STATE_STREAM_BLEND_DESC)
CHECK(UINT, 9, CD3DX12_PIPELINE_STATE_STREAM_SAMPLE_MASK)
CHECK(D3D12_RASTERIZER_DESC, 10, CD3DX12_PIPELINE_STATE_STREAM_RASTERIZER)
CHECK(D3D12_DEPTH_STENCIL_DESC, 11, CD3DX12_PIPELINE_STATE_STREAM_DEPTH_STENCIL)
CHECK(D3D12_INPUT_LAYOUT_DESC, 12, CD3DX12_PIPELINE_STATE_STREAM_INPUT_LAYOUT)
CHECK(D3D12_RT_FORMAT_ARRAY, 15, CD3DX12_PIPELINE_STATE_STREAM_RENDER_TARGET_FORMATS)
CHECK(DXGI_SAMPLE_DESC, 17, CD3DX12_PIPELINE_STATE_STREAM_SAMPLE_DESC)
CHECK(D3D12_CACHED_PIPELINE_STATE, 19, CD3DX12_PIPELINE_STATE_STREAM_CACHED_PSO)
CHECK(D3D12_DEPTH_STENCIL_DESC1, 21, CD3DX12_PIPELINE_STATE_STREAM_DEPTH_STENCIL1)
CHECK(D3D12_VIEW_INSTANCING_DESC, 22, CD3DX12_PIPELINE_STATE_STREAM_VIEW_INSTANCING)
CHECK(D3D12_DEPTH_STENCIL_DESC2, 26, CD3DX12_PIPELINE_STATE_STREAM_DEPTH_STENCIL2)
CHECK(D3D12_RASTERIZER_DESC1, 27, CD3DX12_PIPELINE_STATE_STREAM_RASTERIZER1)
CHECK(D3D12_RASTERIZER_DESC2, 28, CD3DX12_PIPELINE_STATE_STREAM_RASTERIZER2)
CHECK(D3D12_SERIALIZED_ROOT_SIGNATURE_DESC, 29, CD3DX12_PIPELINE_STATE_STREAM_SERIALIZED_ROOT_SIGNATURE)
typedef D3D12_PIPELINE_STATE_SUBOBJECT_TYPE T_;
struct Stream {
  SO<ID3D12RootSignature *, 0> rs;
  SO<D3D12_SHADER_BYTECODE, 1> vs; SO<D3D12_SHADER_BYTECODE, 2> ps; SO<D3D12_SHADER_BYTECODE, 3> ds;
  SO<D3D12_SHADER_BYTECODE, 4> hs; SO<D3D12_SHADER_BYTECODE, 5> gs; SO<D3D12_SHADER_BYTECODE, 6> cs;
  SO<D3D12_STREAM_OUTPUT_DESC, 7> so; SO<D3D12_BLEND_DESC, 8> blend; SO<UINT, 9> mask;
  SO<D3D12_RASTERIZER_DESC, 10> raster; SO<D3D12_DEPTH_STENCIL_DESC, 11> depth; SO<D3D12_INPUT_LAYOUT_DESC, 12> il;
  SO<D3D12_INDEX_BUFFER_STRIP_CUT_VALUE, 13> cut; SO<D3D12_PRIMITIVE_TOPOLOGY_TYPE, 14> topo; SO<D3D12_RT_FORMAT_ARRAY, 15> rtv;
  SO<DXGI_FORMAT, 16> dsv; SO<DXGI_SAMPLE_DESC, 17> sample; SO<UINT, 18> node; SO<D3D12_CACHED_PIPELINE_STATE, 19> cached;
  SO<D3D12_PIPELINE_STATE_FLAGS, 20> flags; SO<D3D12_DEPTH_STENCIL_DESC1, 21> depth1; SO<D3D12_VIEW_INSTANCING_DESC, 22> vi;
  SO<D3D12_SHADER_BYTECODE, 24> as; SO<D3D12_SHADER_BYTECODE, 25> ms; SO<D3D12_DEPTH_STENCIL_DESC2, 26> depth2;
  SO<D3D12_RASTERIZER_DESC1, 27> raster1; SO<D3D12_RASTERIZER_DESC2, 28> raster2; SO<D3D12_SERIALIZED_ROOT_SIGNATURE_DESC, 29> srs;
};
struct Image {
  D3D12_PIPELINE_STATE_STREAM_DESC desc;
  Stream stream;
  unsigned char vs[4], ps[3], hs[1], cs[2];
  D3D12_SO_DECLARATION_ENTRY so[2];
  UINT strides[2];
  D3D12_INPUT_ELEMENT_DESC il[2];
  unsigned char cached[5];
  D3D12_VIEW_INSTANCE_LOCATION vi[2];
  unsigned char as[2], ms[3], srs[6];
  char so0[12], so1[9], il0[9], il1[9];
};
extern Image dxbin_image;
#define DS_A {D3D12_STENCIL_OP_INCR, D3D12_STENCIL_OP_DECR, D3D12_STENCIL_OP_REPLACE, D3D12_COMPARISON_FUNC_EQUAL}
#define DS_B {D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_ZERO, D3D12_STENCIL_OP_INVERT, D3D12_COMPARISON_FUNC_NEVER}
#define RTN {FALSE, TRUE, D3D12_BLEND_ONE, D3D12_BLEND_ZERO, D3D12_BLEND_OP_ADD, D3D12_BLEND_ONE, D3D12_BLEND_ZERO, D3D12_BLEND_OP_ADD, D3D12_LOGIC_OP_XOR, 3}
Image dxbin_image = {
  {sizeof(Stream), &dxbin_image.stream},
  {
    {T_(0), (ID3D12RootSignature *)0x1234},
    {T_(1), {dxbin_image.vs, 4}}, {T_(2), {dxbin_image.ps, 3}}, {T_(3), {nullptr, 0}},
    {T_(4), {dxbin_image.hs, 1}}, {T_(5), {nullptr, 0}}, {T_(6), {dxbin_image.cs, 2}},
    {T_(7), {dxbin_image.so, 2, dxbin_image.strides, 2, 0}},
    {T_(8), {TRUE, TRUE, {{TRUE, FALSE, D3D12_BLEND_SRC_ALPHA, D3D12_BLEND_INV_SRC_ALPHA, D3D12_BLEND_OP_ADD, D3D12_BLEND_ONE, D3D12_BLEND_ZERO, D3D12_BLEND_OP_MAX, D3D12_LOGIC_OP_NOOP, 15}, RTN, RTN, RTN, RTN, RTN, RTN, RTN}}},
    {T_(9), 0xff0f},
    {T_(10), {D3D12_FILL_MODE_WIREFRAME, D3D12_CULL_MODE_FRONT, TRUE, -3, 0.5f, 1.25f, FALSE, TRUE, TRUE, 4, D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON}},
    {T_(11), {TRUE, D3D12_DEPTH_WRITE_MASK_ZERO, D3D12_COMPARISON_FUNC_GREATER, TRUE, 15, 240, DS_A, DS_B}},
    {T_(12), {dxbin_image.il, 2}},
    {T_(13), D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF}, {T_(14), D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE},
    {T_(15), {{DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R16G16B16A16_FLOAT}, 2}},
    {T_(16), DXGI_FORMAT_D32_FLOAT}, {T_(17), {4, 1}}, {T_(18), 1}, {T_(19), {dxbin_image.cached, 5}},
    {T_(20), D3D12_PIPELINE_STATE_FLAG_TOOL_DEBUG},
    {T_(21), {TRUE, D3D12_DEPTH_WRITE_MASK_ZERO, D3D12_COMPARISON_FUNC_GREATER, TRUE, 15, 240, DS_A, DS_B, TRUE}},
    {T_(22), {2, dxbin_image.vi, D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING}},
    {T_(24), {dxbin_image.as, 2}}, {T_(25), {dxbin_image.ms, 3}},
    {T_(26), {TRUE, D3D12_DEPTH_WRITE_MASK_ALL, D3D12_COMPARISON_FUNC_LESS_EQUAL, TRUE,
      {D3D12_STENCIL_OP_INCR_SAT, D3D12_STENCIL_OP_DECR_SAT, D3D12_STENCIL_OP_KEEP, D3D12_COMPARISON_FUNC_ALWAYS, 0x11, 0x22},
      {D3D12_STENCIL_OP_ZERO, D3D12_STENCIL_OP_ZERO, D3D12_STENCIL_OP_ZERO, D3D12_COMPARISON_FUNC_LESS, 0x33, 0x44}, TRUE}},
    {T_(27), {D3D12_FILL_MODE_SOLID, D3D12_CULL_MODE_NONE, FALSE, 2.5f, -1.0f, 0.25f, TRUE, FALSE, TRUE, 8, D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF}},
    {T_(28), {D3D12_FILL_MODE_WIREFRAME, D3D12_CULL_MODE_BACK, TRUE, -0.5f, 0.0f, 2.0f, FALSE, (D3D12_LINE_RASTERIZATION_MODE)2, 0, D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON}},
    {T_(29), {dxbin_image.srs, 6}},
  },
  {0x44, 0x58, 0x42, 0x43}, {1, 2, 3}, {9}, {7, 8},
  {{0, dxbin_image.so0, 0, 0, 4, 0}, {1, dxbin_image.so1, 2, 1, 3, 1}},
  {16, 12},
  {{dxbin_image.il0, 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
   {dxbin_image.il1, 1, DXGI_FORMAT_R16G16_UNORM, 1, 12, D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 2}},
  {0xc0, 0xc1, 0xc2, 0xc3, 0xc4},
  {{0, 1}, {2, 3}},
  {5, 6}, {10, 11, 12}, {0x52, 0x54, 0x53, 0x30, 1, 0},
  "SV_Position", "TEXCOORD", "POSITION", "TEXCOORD",
};
`;

// ---------------------------------------------------------------- round trips and hostile images

for (const abi of ABIS) {
  test(`${abi}: random streams survive image and JSON round trips`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fffffff }), (seed) => {
        const desc = randomDdi('D3D12_PIPELINE_STATE_STREAM_DESC', seed);
        // each type once (Changed 2026-12-04: a stream holding a type twice is refused, as the runtime refuses it)
        const once = new Set<number>();
        const list = ((desc.pPipelineStateSubobjectStream ?? []) as { Type: number; Inner: never }[]).filter((o) => !once.has(o.Type) && once.add(o.Type)).map((o) => ({ type: [...SUBOBJECT_VALUES].find(([, v]) => v === o.Type)![0], inner: o.Inner }));
        const image = encodeStream(list, abi);
        const back = decodeStream(image, abi);
        const json = JSON.parse(JSON.stringify(streamToJson(list)));
        assert.equal(JSON.parse(JSON.stringify(streamToJson(back))), json);
        assert.equal(encodeStream(back, abi), image);
        assert.equal(encodeStream(streamFromJson(json), abi), image);
      }),
      { numRuns: 150 },
    );
  });

  test(`${abi}: hostile stream images get typed errors`, () => {
    const good = encodeStream(streamFromJson(EVERY_TYPE), abi);
    const ps = abi === 'x64' ? 8 : 4;
    const refuse = (bytes: Uint8Array, code: string) => {
      try {
        decodeStream(bytes, abi);
        assert.unreachable(`decoded ${hex(bytes.subarray(0, 32))}`);
      } catch (e) {
        assert.instance(e, DxbinError);
        assert.is((e as DxbinError).code, code);
      }
    };
    const set32 = (at: number, v: number) => {
      const b = good.slice();
      new DataView(b.buffer).setUint32(at, v, true);
      return b;
    };
    refuse(set32(2 * ps, 23), 'bad-offset'); // type 23 is none
    refuse(set32(0, 3), 'truncated'); // 3 bytes of stream: no room for a type
    refuse(set32(0, 0x7fffffff), 'truncated'); // a stream past the image
    refuse(good.subarray(0, good.length - 3), 'truncated'); // the last semantic name lost its NUL
    refuse(set32(ps, good.length + 8), 'bad-offset');
    // every object decoded is charged to the one work budget
    try {
      decodeStream(good, abi, { budget: Budget.for(good.length, { maxResolved: 10 }) });
      assert.unreachable('budget');
    } catch (e) {
      assert.instance(e, LimitError);
    }
  });
}

test('subobject types: one row each, every D3D12_PIPELINE_STATE_SUBOBJECT_TYPE but MAX_VALID and the unused 23', () => {
  assert.is(SUBOBJECTS.length, 29);
  assert.equal(EVERY_TYPE.map((s) => s.Type), SUBOBJECTS.map((r) => r.type));
  const decoded: Subobject[] = streamFromJson(EVERY_TYPE);
  assert.is(decoded.length, 29);
  // the defaults CD3DX12 gives (d3dx12.h): a few by hand
  assert.is(subobjectDefault('SAMPLE_MASK'), 0xffffffff);
  assert.equal(subobjectDefault('SAMPLE_DESC'), { Count: 1, Quality: 0 });
  assert.is((subobjectDefault('RASTERIZER') as { CullMode: number }).CullMode, 3);
  assert.is((subobjectDefault('DEPTH_STENCIL') as { DepthFunc: number }).DepthFunc, 2);
});

test('fuzz finding: two input layouts over one array, of different lengths: refused since 2026-12-04 (a stream holding INPUT_LAYOUT twice is ambiguous; the runtime refuses it), the target gives the typed error', () => {
  // Changed 2026-12-04 (hostile round 8): the image was decoded, and its two INPUT_LAYOUT lists
  // (one address, NumElements 3 and 2) came back as copies; D3DX12ParsePipelineStream refuses a
  // subobject type twice (E_INVALIDARG), so decodeStream does, naming the second and its offset
  const data = readFileSync(new URL('./fixtures/fuzz/pipeline-stream-shared-pointees.bin', import.meta.url));
  const target = TARGETS.find((t) => t.name === 'pipeline-stream')!;
  const abi = ABIS[data[0]! & 1]!;
  for (const run of [() => decodeStream(data.subarray(1), abi), () => target.run(new Uint8Array(data))]) {
    let e: unknown;
    try {
      run();
    } catch (x) {
      e = x;
    }
    assert.instance(e, DxbinError);
    assert.is((e as DxbinError).code, 'duplicate-part');
    assert.match((e as DxbinError).path, /^pPipelineStateSubobjectStream\[\d+\]\.Type$/);
    assert.match((e as DxbinError).message, 'a second INPUT_LAYOUT subobject');
  }
});

test('pipeline decode prints JSON.stringify(json, null, 2) in whole lines, never the text whole: the same text for any JSON value and any piece size (fast-check)', async () => {
  const printed = async (v: unknown, chunk: number) => {
    const pieces: string[] = [];
    await printIndented(v, async (t) => void pieces.push(t), chunk);
    return { text: pieces.map((t) => `${t}\n`).join(''), pieces };
  };
  await fc.assert(
    fc.asyncProperty(fc.jsonValue(), fc.integer({ min: 1, max: 64 }), async (v, chunk) => {
      const { text } = await printed(v, chunk);
      return text === `${JSON.stringify(v, null, 2)}\n`;
    }),
    { numRuns: 3000, seed: 26 },
  );
  // values JSON.stringify writes as null or leaves out, empty containers, an object with toJSON
  const odd = [undefined, () => 1, NaN, -0, {}, [], { a: undefined, b: [undefined, {}], c: new Date(0), d: { e: [] } }];
  assert.is((await printed(odd, 5)).text, `${JSON.stringify(odd, null, 2)}\n`);
  // a decoded stream of 3000 input elements: the same text as one JSON.stringify, in pieces of about the piece size
  const json = streamToJson([{ type: 'INPUT_LAYOUT', inner: { pInputElementDescs: Array.from({ length: 3000 }, (_, i) => ({ SemanticName: `N${i}`, SemanticIndex: 0, Format: 6, InputSlot: 0, AlignedByteOffset: i, InputSlotClass: 0, InstanceDataStepRate: 0 })), NumElements: 3000 } }]);
  const { text, pieces } = await printed(json, 4096);
  assert.is(text, `${JSON.stringify(json, null, 2)}\n`);
  assert.ok(pieces.length > text.length / 8192 && Math.max(...pieces.map((p) => p.length)) < 8192, `${pieces.length} pieces`);
});

test('pipeline decode --json writes printableJson of its answer in pieces cut between items, never the text whole: the same text for any JSON value (with the characters printableJson escapes) and any piece size (fast-check)', async () => {
  const written = async (v: unknown, chunk: number) => {
    const pieces: string[] = [];
    await writeJsonText(v, async (t) => void pieces.push(t), chunk);
    return { text: pieces.join(''), pieces };
  };
  const unit = fc.constantFrom('a', 'Z', '"', '\\', '\n', '\u0000', '\u007f', '\u0085', '\u009f', '\u00a0', '\u2028', '\u2029', '\u202e', '\u2066', '\ufeff', '\ud800', '\udc00', 'é', '😀');
  await fc.assert(
    fc.asyncProperty(fc.jsonValue({ stringUnit: unit }), fc.integer({ min: 1, max: 64 }), async (v, chunk) => (await written(v, chunk)).text === printableJson(v)),
    { numRuns: 3000, seed: 26 },
  );
  const odd = [undefined, () => 1, NaN, -0, Infinity, {}, [], { a: undefined, b: [undefined, {}], c: new Date(0), d: { e: [] }, '\u2028': '\u0085' }];
  assert.is((await written(odd, 5)).text, printableJson(odd));
  // a decoded stream of 3000 input elements: the one text, in pieces of about the piece size
  const json = streamToJson([{ type: 'INPUT_LAYOUT', inner: { pInputElementDescs: Array.from({ length: 3000 }, (_, i) => ({ SemanticName: `N${i}${i % 7 ? '' : '\u0085'}`, SemanticIndex: 0, Format: 6, InputSlot: 0, AlignedByteOffset: i, InputSlotClass: 0, InstanceDataStepRate: 0 })), NumElements: 3000 } }]);
  const { text, pieces } = await written({ ok: true, subobjects: json }, 4096);
  assert.is(text, printableJson({ ok: true, subobjects: json }));
  assert.ok(pieces.length > text.length / 8192 && Math.max(...pieces.map((p) => p.length)) < 8192, `${pieces.length} pieces`);
});

test('dxbin pipeline decode --json: each line is printableJson of the answer the runner printed before it was streamed (corpus shaders, every type, 30,000 elements; one file, several, --jobs 2, stdin)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-pdec-'));
  try {
    const corpusFile = (p: string) => new Uint8Array(readFileSync(join(ROOT, 'corpus', p)));
    const basic = (layout: unknown[]) => ({ VS: 'shaders/dxtk12/BasicEffect_VSBasic.dxbc', PS: 'shaders/dxtk12/BasicEffect_PSBasic.dxbc', InputLayout: layout, PrimitiveTopologyType: 'TRIANGLE', RTVFormats: ['R8G8B8A8_UNORM'], DSVFormat: 'D32_FLOAT' });
    const names = [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }, { SemanticName: 'NOR\u0085MAL\u00a0', Format: 'R32G32B32_FLOAT', AlignedByteOffset: 12 }];
    const many = Array.from({ length: 30000 }, (_, i) => ({ SemanticName: `N${i}${i % 7 ? '' : '\u0099'}`, Format: 'R32G32B32_FLOAT', AlignedByteOffset: i % 1024 }));
    const images: [string, Abi, Uint8Array][] = [
      ['basic-x64.bin', 'x64', encodeStream(pipelineFromJson(basic(names), { read: corpusFile }).subobjects, 'x64')],
      ['basic-x86.bin', 'x86', encodeStream(pipelineFromJson(basic(names), { read: corpusFile }).subobjects, 'x86')],
      ['every-x64.bin', 'x64', encodeStream(streamFromJson(EVERY_TYPE), 'x64')],
      ['every-x86.bin', 'x86', encodeStream(streamFromJson(EVERY_TYPE), 'x86')],
      ['many-x64.bin', 'x64', encodeStream(pipelineFromJson(basic(many), { read: corpusFile }).subobjects, 'x64')],
    ];
    for (const [name, , bytes] of images) writeFileSync(join(dir, name), bytes);
    // the files by their absolute paths (the answer names the file as given): tsx is found from ROOT
    const line = (file: string, abi: Abi, bytes: Uint8Array) => `${printableJson({ formatVersion: 2, file, ok: true, abi, subobjects: streamToJson(decodeStream(bytes, abi)) })}\n`;
    const cli = (args: string[], input?: Uint8Array) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'pipeline', 'decode', ...args, '--json'], { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 64 << 20 });
    for (const [name, abi, bytes] of images) {
      const r = cli([join(dir, name), '--abi', abi]);
      assert.is(r.status, 0, r.stderr);
      assert.ok(r.stdout === line(join(dir, name), abi, bytes), `${name}: ${r.stdout.length} characters, expected ${line(join(dir, name), abi, bytes).length}`);
    }
    const x64 = images.filter(([, abi]) => abi === 'x64');
    const expected = x64.map(([name, abi, bytes]) => line(join(dir, name), abi, bytes)).join('');
    for (const extra of [[], ['--jobs', '2']]) {
      const r = cli([...x64.map(([name]) => join(dir, name)), '--abi', 'x64', ...extra]);
      assert.is(r.status, 0, r.stderr);
      assert.ok(r.stdout === expected, `several ${extra.join(' ')}: ${r.stdout.length} characters, expected ${expected.length}`);
    }
    const r = cli(['-', '--abi', 'x86'], images[1]![2]);
    assert.is(r.stdout, line('-', 'x86', images[1]![2]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
