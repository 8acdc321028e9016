/**
 * Seed inputs per target, built from dxbin's own writers (no files needed, so the published
 * package can fuzz and `--export-seeds` can hand them to other engines). `--corpus DIR` adds more.
 */
import { queryResolveSeeds } from './query-recipe.js';
import { linkageBytes } from './linkage.js';
import { ABIS, STRUCTS } from '../../codecs/ddi.js';
import { QUERY_TYPES } from '../../codecs/query.js';
import { NULL_REF, RDAT_PART_TYPE, RDAT_VERSION, SHADER_KIND_NODE } from '../../codecs/rdat.js';
import { writeContainer, rootSignatureContainer } from '../container/write.js';
import { encodeImage } from '../ddi/image.js';
import { encodeRdat } from '../rdat/encode.js';
import { ddiToJson } from '../ddi/json.js';
import { encodeRootSignature } from '../root-signature/encode.js';
import { compileRootSignature } from '../root-signature/hlsl/compile.js';
import { printRootSignatureDefine } from '../root-signature/hlsl/printer.js';
import { programSeeds } from './hlsl-generator.js';
import { rootSignatureToJson } from '../root-signature/json.js';
import type { RootSignature } from '../root-signature/types.js';
import { Random } from './mutate.js';
import { SEED_RDEF_CLASSES, seedRdefPart } from './rdef-seed.js';
import { decodePart, partToJson } from '../parts/part.js';
import { encodeStream } from '../pipeline/stream.js';
import { pipelineFromJson } from '../pipeline/desc.js';
import { PSV_ELEMENT, PSV_ELEMENT_SIZE, PSV_RUNTIME_INFO } from '../../codecs/psv0.js';
import { encodePsv0, keysOf, type Psv0 } from '../shader/psv0.js';

/** Root signatures in the language, covering every clause. */
export const SEED_ROOT_SIGNATURES: readonly string[] = [
  'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), CBV(b0)',
  'DescriptorTable(SRV(t0, numDescriptors = 4), UAV(u1, space = 2, flags = DESCRIPTORS_VOLATILE), CBV(b3, offset = 8)), RootConstants(num32BitConstants = 3, b1, visibility = SHADER_VISIBILITY_PIXEL)',
  'DescriptorTable(Sampler(s0, numDescriptors = unbounded)), StaticSampler(s1, filter = FILTER_MIN_MAG_MIP_LINEAR, addressU = TEXTURE_ADDRESS_CLAMP, mipLODBias = -1.5, maxAnisotropy = 8, comparisonFunc = COMPARISON_LESS, borderColor = STATIC_BORDER_COLOR_OPAQUE_WHITE, minLOD = 1, maxLOD = 10)',
  'SRV(t2, flags = DATA_STATIC), UAV(u3, space = 1, visibility = SHADER_VISIBILITY_VERTEX), DescriptorTable(CBV(b0, numDescriptors = 2, flags = DATA_VOLATILE), SRV(t0, offset = DESCRIPTOR_RANGE_OFFSET_APPEND), visibility = SHADER_VISIBILITY_GEOMETRY)',
  'RootFlags(LOCAL_ROOT_SIGNATURE), RootConstants(num32BitConstants = 1, b0), DescriptorTable(visibility = SHADER_VISIBILITY_ALL)',
];

function rootSignatures(): RootSignature[] {
  const out: RootSignature[] = [];
  for (const text of SEED_ROOT_SIGNATURES) for (const version of [1, 2, 3] as const) {
    try {
      out.push(compileRootSignature(text, { version, validate: false }));
    } catch {
      // a clause the version cannot say (flags in 1.0): not a seed for that version
    }
  }
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** A small RDAT part with `functions` node functions and `outputs` outputs each (shared info record). */
export function seedRdat(functions: number, outputs: number): Uint8Array {
  const table = (count: number, stride: number, record: (i: number) => number[]) => {
    const words = [count, stride];
    for (let i = 0; i < count; i++) {
      const r = record(i);
      for (let w = 0; w < stride / 4; w++) words.push(r[w] ?? 0);
    }
    return words;
  };
  const parts: [number, number[]][] = [
    [RDAT_PART_TYPE.StringBuffer, [0x00000066, 0x0000006e]],
    [RDAT_PART_TYPE.IndexArrays, [outputs, ...Array.from({ length: outputs }, () => 0), 2, 0, 1]],
    [RDAT_PART_TYPE.FunctionTable, table(functions, 52, () => [0, 0, 0, 0, SHADER_KIND_NODE, 0, 0, 0, 0, 0, 0, 0, 0])],
    [RDAT_PART_TYPE.NodeShaderInfoTable, table(1, 20, () => [1, 0, NULL_REF, 0, NULL_REF])],
    [RDAT_PART_TYPE.IONodeTable, table(1, 8, () => [6, outputs + 1])],
    [RDAT_PART_TYPE.NodeShaderIOAttribTable, table(2, 8, (i) => (i === 0 ? [2, 4] : [4, 16]))],
    [RDAT_PART_TYPE.NodeIDTable, table(1, 8, () => [4, 0])],
  ];
  const words: number[] = [RDAT_VERSION, parts.length];
  let at = 8 + 4 * parts.length;
  for (const [, data] of parts) {
    words.push(at);
    at += 8 + 4 * data.length;
  }
  for (const [type, data] of parts) {
    words.push(type, 4 * data.length);
    for (const w of data) words.push(w);
  }
  return new Uint8Array(Uint32Array.from(words.map((w) => w >>> 0)).buffer);
}

/** A small ray-tracing library's RDAT part: strings, index arrays, raw bytes, resources, functions, subobjects. */
export function seedRdatLibrary(): Uint8Array {
  return encodeRdat({
    version: RDAT_VERSION,
    parts: [
      { type: 'StringBuffer', strings: [''] },
      { type: 'ResourceTable', stride: 32, records: [{ Class: 'SRV', Kind: 'RTAccelerationStructure', ID: 0, Space: 0, LowerBound: 0, UpperBound: 0, Name: 'AS', Flags: 0 }] },
      { type: 'FunctionTable', stride: 44, records: [{ Name: 'RayGen', UnmangledName: 'RayGen', Resources: [0], FunctionDependencies: null, ShaderKind: 'RayGeneration', PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 128, MinShaderTarget: 0x70063 }] },
      { type: 'IndexArrays', values: [] },
      { type: 'RawBytes', hex: '' },
      {
        type: 'SubobjectTable',
        stride: 24,
        records: [
          { Kind: 'GlobalRootSignature', Name: 'grs', RootSignature: '020000000100000018000000000000003000000000000000040000000000000024000000000000000000000000000000' },
          { Kind: 'SubobjectToExportsAssociation', Name: 'a', Subobject: 'grs', Exports: ['RayGen'] },
          { Kind: 'HitGroup', Name: 'hg', Type: 'Triangle', AnyHit: '', ClosestHit: 'RayGen', Intersection: '' },
        ],
      },
    ],
  });
}

/** A plausible value of a DDI struct (every pointer set where it can be). */
function ddiValue(struct: string, r: Random, depth = 0): Record<string, unknown> {
  const def = STRUCTS.find((s) => s.name === struct)!;
  const o: Record<string, unknown> = {};
  for (const f of def.fields) {
    const t = f.type;
    if (t.kind === 'enum') o[f.name] = t.table.values[r.below(t.table.values.length)]![1];
    else if (t.kind === 'flags') o[f.name] = 0;
    else if (t.kind === 'struct') o[f.name] = ddiValue(t.struct, r, depth + 1);
    else if (t.kind === 'ptr') {
      const to = t.to;
      if (to.kind === 'wstring') o[f.name] = ['Node', 'N', 'Output'][r.below(3)];
      else if (to.kind === 'uint') o[f.name] = to.count === 1 ? r.below(4) : Array.from({ length: to.count }, () => 1 + r.below(4));
      else if (depth > 1 && t.optional !== false) o[f.name] = null;
      else if (to.kind === 'struct' && to.count) o[f.name] = Array.from({ length: Number(o[to.count.field] ?? 0) }, () => ddiValue(to.struct, r, depth + 1));
      else if (to.kind === 'struct') o[f.name] = ddiValue(to.struct, r, depth + 1);
      else if (to.kind === 'select') {
        const s = to.cases[o[to.by] as number];
        o[f.name] = s ? ddiValue(s, r, depth + 1) : null;
      } else o[f.name] = null;
    } else o[f.name] = f.name.startsWith('Num') ? 1 + r.below(2) : r.below(3);
  }
  return o;
}

/** Pipeline descriptions, one group of keys each (their files are generated from the paths). */
const PIPELINE_SEEDS: Record<string, unknown>[] = [
  { VS: 'vs.cso', PS: 'ps.cso', pRootSignature: 'rs.bin', InputLayout: [{ SemanticName: 'POSITION', Format: 'R32G32B32_FLOAT' }, { SemanticName: 'TEXCOORD', Format: 'R32G32_FLOAT', AlignedByteOffset: 12 }] },
  { RTVFormats: ['R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT'], DSVFormat: 'D32_FLOAT', SampleDesc: { Count: 4, Quality: 0 }, SampleMask: 255, PrimitiveTopologyType: 'TRIANGLE' },
  { BlendState: { IndependentBlendEnable: 1, RenderTarget: [{ BlendEnable: 1, SrcBlend: 'SRC1_COLOR' }, { LogicOpEnable: 1, LogicOp: 'XOR' }] }, RasterizerState1: { DepthBias: 1.5, CullMode: 'NONE' } },
  { GS: 'gs.cso', StreamOutput: { pSODeclaration: [{ SemanticName: 'SV_Position', ComponentCount: 4 }, { SemanticName: null, ComponentCount: 2, OutputSlot: 1 }], pBufferStrides: [16, 8], RasterizedStream: 0 } },
  { DepthStencilState2: { StencilEnable: 1, FrontFace: { StencilPassOp: 'INCR', StencilReadMask: 15 } }, ViewInstancingDesc: { pViewInstanceLocations: [{ ViewportArrayIndex: 1 }, { RenderTargetArrayIndex: 2 }] }, Flags: ['TOOL_DEBUG'], CachedPSO: 'cache.bin', NodeMask: 1, IBStripCutValue: '0xFFFF' },
];

/** Programs over virtual trees (see targets.ts virtualTree): conditionals, macros, guarded and looping includes. */
const PREPROCESSOR_SEEDS = [
  '#include "rs.hlsli"\n#if defined(A) && (B + 1) * 2 > 3\n#define RS RS_A\n#elif !defined(C)\n#define RS RS_C\n#else\n#define RS "CBV(b9)"\n#endif\n[RootSignature(RS)]\nvoid main() {}\n//@ file rs.hlsli\n#pragma once\n#define STR(x) #x\n#define XSTR(x) STR(x)\n#define CAT(a, b) a##b\n#define RS_A XSTR(CBV(CAT(b, 1))) ", " "SRV(t0)"\n#define RS_C "DescriptorTable(UAV(u0))"\n//@ D A\n//@ D B=2\n',
  '#include "a/a/a/h.h"\n#include <h.h>\n#define V(...) __VA_ARGS__\n#define RS V("CBV(b0)", "SRV(t1)")\n//@ link a .\n//@ file h.h\n#ifndef H_GUARD\n#define H_GUARD\n#define X 1\n#endif\n//@ file inc/h.h\n#include "../h.h"\n',
  '#if 0\n#include "missing.h"\n#error not here\n#else\n/* #define RS "bad" */\n#define RS "RootConstants(num32BitConstants=4, b2)" \\\n  ", CBV(b3)"\n#endif\n#line 100 "other.hlsl"\n#if __LINE__ != 100 || 1 / 1 != 1\n#error line\n#endif\n//@ U NOPE\n',
];

/** The preprocess target's seeds: pragmas as directives and _Pragma (in macros, stringized, with escapes), #line, character constants in #if. */
const PRAGMA_SEEDS = [
  '#pragma once\n#pragma pack(push, 1)\n#define P(x) _Pragma(#x) after\nint a; P(message("hi")) int b;\n_Pragma("STDC FP_CONTRACT ON") c\n#line 40 "x.hlsl"\n#if \'a\' == 97 && \'\\n\' == 10 && \'\\x41\' == 65\n#pragma warning(disable: 4000)\nok\n#endif\n  #  pragma   foo   bar  \n',
  '#define H #pragma not_a_directive\nH\nx H\n#define E(x) x\nE(#pragma two)\n"a\\n#pragma s"\n#define Q _Pragma("q") _Pragma("q2")\nQ Q\n#pragma\n# /**/ pragma   c\n#pra\\\ngma d\n_Pragma("e\\\\n#pragma f")\n_Pragma("\\"quoted\\" \\\\ back")\n',
  '#define RS "CBV(b0)"\n#pragma dxbin root_signature\n#line 7\n#if \'\\0\' == 0 && \'\\377\' < 0 && L\'x\' == 120\n#define OK 1\n#endif\n#line 1 "a\\\\b.hlsl"\n_Pragma("message(\\"m\\")") [RootSignature(RS)] void main() {}\n#pragma include_alias("a.h", "b.h")\n#ifdef OK\n#pragma def_ok __LINE__ __FILE__\n#endif\n',
  '#include "p.h"\n#pragma once\nP1 P2\n//@ file p.h\n#pragma once\n#define P1 _Pragma("one") 1\n#define P2 _Pragma(\\\n"two") 2\n#if \'ab\' == 24930\n#pragma multichar\n#endif\n',
];

/** Seeds for one target. */
export function seedInputs(target: string): Uint8Array[] {
  const rss = rootSignatures();
  switch (target) {
    case 'container-strict':
    case 'container-lenient':
      return [
        ...rss.slice(0, 6).map((rs) => rootSignatureContainer(encodeRootSignature(rs))),
        writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'SFI0', data: new Uint8Array(8) }, { name: 'RTS0', data: encodeRootSignature(rss[1]!) }, { name: 'RDAT', data: seedRdat(1, 2) }] }),
      ];
    case 'rts0':
    case 'convert':
      return rss.map((rs) => encodeRootSignature(rs));
    case 'json':
      return rss.map((rs) => utf8(JSON.stringify(rootSignatureToJson(rs))));
    case 'text-boundary':
      return [utf8('plain_name'), utf8('rs\n#include "x.h"\n\x1b[2J\u202e'), Uint8Array.of(0x00, 0xd8, 0x41, 0x00, 0x0a, 0x00, 0x3d, 0xd8, 0x00, 0xde, 0x85, 0x00)];
    case 'hlsl-string':
      return SEED_ROOT_SIGNATURES.map(utf8);
    case 'hlsl-file':
      return [
        ...rss.slice(0, 4).map((rs) => utf8(printRootSignatureDefine('RS', rs, { multiline: true }))),
        utf8(`#define T(r) "DescriptorTable(" #r ")"\n#define RS "CBV(b0), " "SRV(t1)"\n[RootSignature(RS)]\n[numthreads(1, 1, 1)]\nvoid main() {}\n`),
        utf8(`#define F(a, b) a, b\n#define RS F(CBV(b0), UAV(u1))\n[RootSignature("RootConstants(num32BitConstants = 1, b2)")]\nfloat4 main(float4 p : SV_Position) : SV_Target { return p; }\n`),
      ];
    case 'hlsl-preprocess':
    case 'rollup-load':
      return PREPROCESSOR_SEEDS.map(utf8);
    case 'preprocess':
      return [...PRAGMA_SEEDS, ...PREPROCESSOR_SEEDS].map(utf8);
    case 'hlsl-generated':
      return programSeeds();
    case 'json-generated':
      // each form x shape once, with a key, a size and an item byte
      return Array.from({ length: 18 }, (_, i) => Uint8Array.of(i, i * 5, 0x40 + i, i % 4, i));
    case 'query':
      return QUERY_TYPES.map((q, i) => {
        const r = new Random(i + 1);
        const b = new Uint8Array(1 + q.result.size * 3);
        b[0] = i;
        for (let k = 1; k < b.byteLength; k++) b[k] = r.chance(3) ? r.below(256) : 0;
        return b;
      });
    case 'query-resolve':
      return queryResolveSeeds();
    case 'ddi-image':
      return STRUCTS.flatMap((s, i) =>
        ABIS.map((abi) => {
          const image = encodeImage(s.name, ddiValue(s.name, new Random(i + 7)) as never, abi);
          const b = new Uint8Array(1 + image.byteLength);
          b[0] = i | (abi === 'x86' ? 0x20 : 0);
          b.set(image, 1);
          return b;
        }),
      );
    case 'pipeline-stream':
      return ABIS.flatMap((abi, a) =>
        [PIPELINE_SEEDS.slice(0, 2), PIPELINE_SEEDS].map((list) => {
          const image = encodeStream(pipelineFromJson(mergeSeeds(list), { read: (p) => utf8(p) }).subobjects, abi);
          const b = new Uint8Array(1 + image.byteLength);
          b[0] = a;
          b.set(image, 1);
          return b;
        }),
      );
    case 'pipeline-json':
      return [utf8(JSON.stringify(mergeSeeds(PIPELINE_SEEDS))), ...PIPELINE_SEEDS.map((p) => utf8(JSON.stringify(p)))];
    case 'pipeline-linkage': {
      // vkd3d's nop tessellation pipeline as signatures (tri domain, 3 control points; linked), and a mesh pipeline with equal payloads
      const pos = ['SV_Position', 0, 1, 0, 0, 15, 15] as const;
      const red = ['COLOR', 0, 0, 0, 1, 1, 1] as const;
      const tri = [['SV_TessFactor', 0, 13, 0, 0, 1, 1], ['SV_TessFactor', 1, 13, 0, 1, 1, 1], ['SV_TessFactor', 2, 13, 0, 2, 1, 1], ['SV_InsideTessFactor', 0, 14, 0, 3, 1, 1], ['ARG', 0, 0, 0, 4, 7, 7]] as const;
      return [
        linkageBytes(false, [{ outputs: [pos, red] }, { info: { inputControlPointCount: 3, outputControlPointCount: 3, tessellatorDomain: 2 }, inputs: [pos, red], outputs: [pos, red], extra: tri }, { info: { inputControlPointCount: 3, tessellatorDomain: 2 }, inputs: [pos, red], outputs: [pos, red], extra: tri }, { inputs: [pos, red], outputs: [['SV_Target', 0, 64, 0, 0, 15, 0]] }]),
        linkageBytes(true, [{ info: { payloadSizeInBytes: 12 } }, { info: { payloadSizeInBytes: 12 }, outputs: [pos], extra: [['COLOR', 0, 0, 0, 0, 15, 0]] }, { inputs: [pos, ['COLOR', 0, 0, 0, 0, 15, 15]], outputs: [['SV_Target', 0, 64, 0, 0, 15, 0]] }]),
        // a triangle GS writing position and colour to stream 0 and colour to stream 1, streaming colour out: stream 1 rasterized, and none
        ...([1, 0xffffffff] as const).map((rasterized) =>
          linkageBytes(false, [{ outputs: [pos, red] }, { info: { inputPrimitive: 3 }, inputs: [pos, red], outputs: [pos, red, ['COLOR', 0, 0, 0, 1, 15, 0, 1]] }, { inputs: [red], outputs: [['SV_Target', 0, 64, 0, 0, 15, 0]] }], { tessellation: false, topology: 'TRIANGLE', rasterized, entries: [{ name: 'COLOR', count: 1 }, { name: 'COLOR', stream: 1, count: 4 }] }),
        ),
      ];
    }
    case 'ddi-json':
      return STRUCTS.map((s, i) => utf8(JSON.stringify({ type: i, value: ddiToJson(s.name, ddiValue(s.name, new Random(i + 11)) as never) })));
    case 'rdat-codec':
    case 'rdat-library':
      return [seedRdatLibrary()];
    case 'rdat':
      return [seedRdat(1, 1), seedRdat(2, 3), seedRdat(3, 0)];
    case 'psv0':
      return seedShaders().dxil.map((c) => {
        const view = new DataView(c.buffer, c.byteOffset, c.byteLength);
        const at = view.getUint32(36, true); // second part: PSV0
        const part = c.subarray(at + 8, at + 8 + view.getUint32(at + 4, true));
        const out = new Uint8Array(1 + part.byteLength);
        out[0] = view.getUint32(view.getUint32(32, true) + 8, true) >>> 16;
        out.set(part, 1);
        return out;
      });
    case 'shader':
    case 'parts':
      return [...seedShaders().dxil, ...seedShaders().dxbc];
    case 'part':
      return seedParts();
    case 'part-json':
      // each part seed in its JSON form (SRCI's sources stay as the decode gives them)
      return seedParts().flatMap((s) => {
        const name = PART_FUZZ_NAMES[s[0]!]!;
        try {
          return [utf8(JSON.stringify(partToJson(decodePart(name, s.subarray(1)))))];
        } catch {
          return []; // a seed the part reader refuses (the part target's answer) has no JSON form
        }
      });
    case 'digest':
      return [Uint8Array.from([0, 0, 64, 0, ...utf8('DXBC')]), Uint8Array.from([3, 0x45, 0x10, 0x40, 1, 2, 3]), Uint8Array.from([5, 0x81, 0x37, 0, 0xff]), Uint8Array.from([1, 0x20, 0, 0])];
    case 'verify':
    case 'suggest':
      return [...seedShaders().dxil, ...seedShaders().dxbc].flatMap((c) => rss.slice(0, 4).map((rs) => withRts0(c, encodeRootSignature(rs))));
    case 'worker-stream':
      return [
        utf8('{"arguments":["hash","--check","a.cso"],"requestId":1}\n{"arguments":["@p.params"],"requestId":2,"verbosity":10}\n{"requestId":1,"cancel":true}\n'),
        utf8('{ "arguments": [\n  "rootsig", "convert", "--to", "1.0", "-o", "o.cso", "@@lit"\n ],\n "sandboxDir": "s", "requestId": 0 }{"arguments":["--param-file-format=shell","@x"]}'),
        // proto3 JSON spellings: int32 as decimal strings, null as the default
        utf8('{"arguments":["inspect","a.cso"],"requestId":"5","verbosity":"10","sandboxDir":null}\n{"requestId":"5","cancel":true}\n'),
      ];
    case 'param-file':
      return [utf8("rootsig\0compile\0--file\0src/my shader.hlsl\0-D\0NAME=it's\0\0x\ny"), utf8("'a b'\nc\n'it'\\''s'\n--file=a b.hlsl\n")];
    case 'batch-stream':
      return [
        utf8('["hash","--check","a.cso"]\n{"id":"two","args":["inspect","@jobs.params"]}\n\n{"id":3,"args":["--param-file-format","msbuild","@r.rsp"]}\n'),
        utf8(`["rootsig","validate","x.cso"]\r\n{"id":null,"args":["--flagfile=f","'a b'"]}\n`),
      ];
    case 'against-answer':
      return [
        'parse ok 2 0 1 2 0 1 0 0 0\nserialize ok 44584243\nconvert 1.0 ok 1 0 1 2 0 1 0 0 0\n',
        'parse error -3 invalid\n',
        '\ndxbin-crash SIGSEGV read-past-end 0x3\n/lib/libvkd3d-shader.so.1(+0x9330)[0x7f00]\ndxbin-crash-end\n',
      ].map((t) => new TextEncoder().encode(t));
    default:
      return [];
  }
}

/** What seedDxilShader puts in its PSV0 part. */
export interface SeedDxilOptions {
  /** DXIL::ShaderKind (0 pixel ... 5 compute). */
  stage?: number;
  /** PSV0 resources: [resType, space, lowerBound, upperBound]. */
  resources?: readonly (readonly [number, number, number, number])[];
  /** String table bytes (padded with NULs to a multiple of 4). */
  strings?: Uint8Array;
  /** Semantic-name offsets of the input elements (at most 255). */
  elementNames?: readonly number[];
}

/** A DXIL shader container (program header, PSV0 v1) as dxbin reads it, built with encodePsv0. */
export function seedDxilShader(o: SeedDxilOptions = {}): Uint8Array {
  const stage = o.stage ?? 5;
  const strings = o.strings ?? new Uint8Array(0);
  const table = new Uint8Array((strings.byteLength + 3) & ~3);
  table.set(strings);
  const info: Record<string, number> = {};
  for (const f of PSV_RUNTIME_INFO[1]!.fields) info[f.key] = 0;
  info.shaderStage = stage;
  info.minimumWaveLaneCount = 0;
  info.maximumWaveLaneCount = 0xffffffff;
  const psv: Psv0 = {
    runtimeInfoSize: 36,
    info,
    stageRaw: { union: new Uint8Array(16), word26: 0 },
    runtimeInfoTail: new Uint8Array(0),
    resourceSize: 16,
    resources: (o.resources ?? []).map(([resType, space, lowerBound, upperBound]) => ({ resType, space, lowerBound, upperBound })),
    stringTable: table,
    semanticIndexes: [0],
    elementSize: PSV_ELEMENT_SIZE,
    inputElements: (o.elementNames ?? []).map((semanticName) => Object.fromEntries(keysOf(PSV_ELEMENT).map((key) => [key, key === 'semanticName' ? semanticName : key === 'rows' ? 1 : 0]))),
    outputElements: [],
    patchConstOrPrimElements: [],
    dependencies: [],
    trailing: new Uint8Array(0),
  };
  const program = new Uint8Array(24);
  new DataView(program.buffer).setUint32(0, (stage << 16) | 0x60, true);
  return writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'DXIL', data: program }, { name: 'PSV0', data: encodePsv0(psv) }] }).slice();
}

/**
 * A DXBC SM 5.0 container: `cbuffers` dcl_constantbuffer b0.. in SHEX and an RDEF whose binding
 * records all name the string at `names` (one string each when `names` is an array).
 */
export function seedDxbcShader(cbuffers: number, names: string | readonly string[]): Uint8Array {
  const words = [0x00000050, 2 + 4 * cbuffers];
  for (let i = 0; i < cbuffers; i++) words.push((0x59 | (4 << 24)) >>> 0, (8 << 12) | (2 << 20), i, 16);
  const shex = new Uint8Array(words.length * 4);
  words.forEach((w, i) => new DataView(shex.buffer).setUint32(i * 4, w >>> 0, true));
  const list = typeof names === 'string' ? [names] : names;
  const encoded = list.map((n) => utf8(`${n}\0`));
  const header = 28;
  const recordsAt = header;
  let at = recordsAt + 32 * cbuffers;
  const nameAt = encoded.map((b) => {
    const here = at;
    at += b.byteLength;
    return here;
  });
  const rdef = new Uint8Array(at);
  const v = new DataView(rdef.buffer);
  v.setUint32(8, cbuffers, true);
  v.setUint32(12, recordsAt, true);
  rdef[16] = 0;
  rdef[17] = 5;
  for (let i = 0; i < cbuffers; i++) {
    const r = recordsAt + 32 * i;
    v.setUint32(r, nameAt[i % nameAt.length]!, true);
    v.setUint32(r + 4, 0, true); // D3D_SIT_CBUFFER
    v.setUint32(r + 20, i, true);
    v.setUint32(r + 24, 1, true);
  }
  encoded.forEach((b, i) => rdef.set(b, nameAt[i]!));
  return writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDEF', data: rdef }, { name: 'SHEX', data: shex }] }).slice();
}

/** Small DXIL and DXBC shader containers covering every register class, a long name, a bound pair the wrong way round. */
function seedShaders(): { dxil: Uint8Array[]; dxbc: Uint8Array[] } {
  const names = utf8('\0TEXCOORD\0SV_Position\0main\0');
  return {
    dxil: [
      seedDxilShader({ stage: 5, resources: [[2, 0, 0, 0], [1, 0, 0, 3], [3, 0, 0, 0xffffffff], [5, 1, 2, 2], [9, 0, 1, 1]] }),
      seedDxilShader({ stage: 0, resources: [[4, 0, 1, 1], [6, 2, 5, 3]], strings: names, elementNames: [1, 10, 1] }),
      seedDxilShader({ stage: 1, resources: [[2, 0, 3, 3]], strings: names, elementNames: [10] }),
    ],
    dxbc: [seedDxbcShader(3, 'cb'), seedDxbcShader(2, ['a', 'bb'])],
  };
}

/** `container` with an RTS0 part appended. */
function withRts0(container: Uint8Array, rts0: Uint8Array): Uint8Array {
  const view = new DataView(container.buffer, container.byteOffset, container.byteLength);
  const count = view.getUint32(28, true);
  const parts = Array.from({ length: count }, (_, i) => {
    const at = view.getUint32(32 + 4 * i, true);
    const name = String.fromCharCode(...container.subarray(at, at + 4));
    return { name, data: container.slice(at + 8, at + 8 + view.getUint32(at + 4, true)) };
  });
  return writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [...parts, { name: 'RTS0', data: rts0 }] }).slice();
}

/** The FourCCs the `part` target feeds (byte 0 of its input picks one). */
export const PART_FUZZ_NAMES: readonly string[] = ['ISGN', 'OSGN', 'OSG5', 'PCSG', 'ISG1', 'OSG1', 'PSG1', 'SFI0', 'HASH', 'ILDN', 'VERS', 'DXIL', 'STAT', 'RDEF', 'SHEX', 'SRCI'];

/** Little-endian u32 words and bytes as one array. */
function le(...items: (number | readonly number[] | Uint8Array)[]): number[] {
  const out: number[] = [];
  for (const x of items) {
    if (typeof x === 'number') out.push(x & 0xff, (x >>> 8) & 0xff, (x >>> 16) & 0xff, x >>> 24);
    else for (const b of x) out.push(b);
  }
  return out;
}

/** One generated part of each kind the `part` target reads (byte 0 = its index in PART_FUZZ_NAMES). */
function seedParts(): Uint8Array[] {
  const strings = [...utf8('TEXCOORD\0SV_Position\0\0\0')];
  const signature = (size: number, stream: boolean) => {
    const el = (name: number, index: number, sv: number) => {
      const body = le(name, index, sv, 3, index, [0x0f, 0x03, 0, 0]);
      const full = [...(stream ? le(index) : []), ...body, ...(size === 32 ? le(1) : [])];
      return full;
    };
    const strAt = 8 + 2 * size;
    return [...le(2, 8), ...el(strAt, 0, 0), ...el(strAt + 9, 1, 1), ...strings];
  };
  const rdefStrings = [...utf8('cb\0tex\0dxbin\0\0')];
  const rdef = [...le(1, 28, 1, 52, 0xfffe0500, 0, 84), ...le(84, 0, 0, 16, 0, 0), ...le(87, 2, 5, 4, 0xffffffff, 0, 1, 12), ...rdefStrings];
  const bytes: Record<string, number[]> = {
    ISGN: signature(24, false),
    OSGN: signature(24, false),
    PCSG: signature(24, false),
    OSG5: signature(28, true),
    ISG1: signature(32, true),
    OSG1: signature(32, true),
    PSG1: signature(32, true),
    SFI0: le(0x02000011, 1),
    HASH: le(1, [0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04, 0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e]),
    ILDN: le([0, 0, 5, 0], utf8('a.pdb'), [0, 0, 0]),
    VERS: le([1, 0, 8, 0], 0, 42, 8, utf8('abc\0' + '1.0\0')),
    DXIL: le(0x00050060, 8, utf8('DXIL'), 0x0100, 16, 8, [0x42, 0x43, 0xc0, 0xde, 0x35, 0x14, 0, 0]),
    STAT: le(0x00050060, 8, utf8('DXIL'), 0x0100, 16, 8, [0x42, 0x43, 0xc0, 0xde, 0x35, 0x14, 0, 0]),
    RDEF: rdef,
    SHEX: le(0x00050050, 6, 0x0100086a, 0x0200009b, 1, 0x0100003e),
    SRCI: le(36, [0, 0, 1, 0], 28, [0, 0, 2, 0], 0, 8, 2, utf8('T\0x\0E\0m\0')),
  };
  const seeds = PART_FUZZ_NAMES.map((name, i) => Uint8Array.from([i, ...bytes[name]!]));
  // RDEFs with variables, struct types and members, and SM 5.0 classes (sub types, base classes,
  // interface tables): the walk over types that mutation of the seed above cannot reach
  for (const rdefPart of [seedRdefPart(), seedRdefPart(SEED_RDEF_CLASSES)]) {
    const withIndex = new Uint8Array(rdefPart.byteLength + 1);
    withIndex[0] = PART_FUZZ_NAMES.indexOf('RDEF');
    withIndex.set(rdefPart, 1);
    seeds.push(withIndex);
  }
  return seeds;
}

/** The members of several seed objects in one (later ones win), by a loop: no spread into a call. */
function mergeSeeds(list: readonly object[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of list) Object.assign(out, o);
  return out;
}
