/** The pipeline JSON form: D3D12 names, CD3DX12 defaults, files, lists; to and from streams; the schema. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ABIS } from '../codecs/ddi.js';
import { DescriptionError } from '../src/index.js';
import { pipelineFromJson, pipelineToJson, pipelineValue } from '../src/pipeline/desc.js';
import { pipelineJsonSchema } from '../src/pipeline/schema.js';
import { decodeStream, encodeStream, subobjectDefault } from '../src/pipeline/stream.js';
import { ROOT } from './helpers/corpus.js';

const committed = JSON.parse(readFileSync(join(ROOT, 'schema/pipeline.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(committed);

const FILES: Record<string, Uint8Array> = { 'vs.cso': Uint8Array.of(1, 2, 3), 'ps.cso': Uint8Array.of(4, 5), 'rs.bin': Uint8Array.of(0x52, 0x54, 0x53, 0x30) };
const read = (path: string) => {
  const hit = FILES[path];
  if (!hit) throw new Error(`no such file ${path}`);
  return hit;
};

const GRAPHICS = {
  pRootSignature: 'rs.bin',
  VS: 'vs.cso',
  PS: 'ps.cso',
  InputLayout: [
    { SemanticName: 'POSITION', Format: 'R32G32B32_FLOAT' },
    { SemanticName: 'TEXCOORD', SemanticIndex: 0, Format: 'R32G32_FLOAT', AlignedByteOffset: 12 },
  ],
  RasterizerState: { CullMode: 'NONE' },
  BlendState: { RenderTarget: [{ BlendEnable: 1, SrcBlend: 'SRC_ALPHA', DestBlend: 'INV_SRC_ALPHA' }] },
  PrimitiveTopologyType: 'TRIANGLE',
  RTVFormats: ['R8G8B8A8_UNORM'],
  DSVFormat: 'D32_FLOAT',
};

test('the committed schema is the one built from codecs/pipeline.ts (npm run schema), and a description validates', () => {
  assert.equal(committed, pipelineJsonSchema());
  assert.ok(validate(GRAPHICS), JSON.stringify(validate.errors));
  assert.not.ok(validate({ ...GRAPHICS, VertexShader: 'vs.cso' }), 'unknown key');
  assert.not.ok(validate({ ...GRAPHICS, RTVFormats: Array(9).fill('UNKNOWN') }), 'nine render targets');
  assert.not.ok(validate({ ...GRAPHICS, RasterizerState: { CullMode: 'SIDEWAYS' } }), 'bad enum name');
});

test('a graphics description: keys become subobjects; files read; left-out fields take the CD3DX12 defaults', () => {
  const p = pipelineFromJson(GRAPHICS, { read });
  assert.is(p.kind, 'graphics');
  assert.equal(p.files, { pRootSignature: 'rs.bin', VS: 'vs.cso', PS: 'ps.cso' });
  assert.equal(p.subobjects.map((s) => s.type), ['SERIALIZED_ROOT_SIGNATURE', 'VS', 'PS', 'INPUT_LAYOUT', 'RASTERIZER', 'BLEND', 'PRIMITIVE_TOPOLOGY', 'RENDER_TARGET_FORMATS', 'DEPTH_STENCIL_FORMAT']);
  const vs = p.subobjects[1]!.inner as { pShaderBytecode: Uint8Array; BytecodeLength: number };
  assert.equal([...vs.pShaderBytecode], [1, 2, 3]);
  assert.is(vs.BytecodeLength, 3);
  const raster = pipelineValue(p, 'RASTERIZER') as Record<string, unknown>;
  assert.equal(raster, { ...(subobjectDefault('RASTERIZER') as object), CullMode: 1 });
  const blend = pipelineValue(p, 'BLEND') as { RenderTarget: Record<string, unknown>[] };
  assert.is(blend.RenderTarget[0]!.SrcBlend, 5);
  assert.is(blend.RenderTarget[0]!.BlendOp, 1, 'BlendOp from the default');
  assert.equal(blend.RenderTarget[1], (subobjectDefault('BLEND') as typeof blend).RenderTarget[1]);
  const il = pipelineValue(p, 'INPUT_LAYOUT') as { NumElements: number; pInputElementDescs: Record<string, unknown>[] };
  assert.is(il.NumElements, 2);
  assert.equal(il.pInputElementDescs[0], { SemanticName: 'POSITION', SemanticIndex: 0, Format: 6, InputSlot: 0, AlignedByteOffset: 0, InputSlotClass: 0, InstanceDataStepRate: 0 });
  const rtv = pipelineValue(p, 'RENDER_TARGET_FORMATS') as { RTFormats: number[]; NumRenderTargets: number };
  assert.equal(rtv, { RTFormats: [28, 0, 0, 0, 0, 0, 0, 0], NumRenderTargets: 1 });
  // not given: the default of the stream type
  assert.equal(pipelineValue(p, 'SAMPLE_DESC'), { Count: 1, Quality: 0 });
  assert.is(pipelineValue(p, 'SAMPLE_MASK'), 0xffffffff);
});

for (const abi of ABIS) {
  test(`${abi}: description -> stream image -> description gives the same keys, lists and files`, () => {
    const p = pipelineFromJson(GRAPHICS, { read });
    const image = encodeStream(p.subobjects, abi);
    const back = pipelineToJson(decodeStream(image, abi), { path: (key) => `out.${key}.bin` });
    assert.equal(back.files.map((f) => [f.key, f.path, [...f.bytes]]), [['pRootSignature', 'out.pRootSignature.bin', [0x52, 0x54, 0x53, 0x30]], ['VS', 'out.VS.bin', [1, 2, 3]], ['PS', 'out.PS.bin', [4, 5]]]);
    assert.equal(back.json.InputLayout, [
      { SemanticName: 'POSITION', SemanticIndex: 0, Format: 'R32G32B32_FLOAT', InputSlot: 0, AlignedByteOffset: 0, InputSlotClass: 'PER_VERTEX_DATA', InstanceDataStepRate: 0 },
      { SemanticName: 'TEXCOORD', SemanticIndex: 0, Format: 'R32G32_FLOAT', InputSlot: 0, AlignedByteOffset: 12, InputSlotClass: 'PER_VERTEX_DATA', InstanceDataStepRate: 0 },
    ]);
    assert.equal(back.json.RTVFormats, ['R8G8B8A8_UNORM']);
    assert.is(back.json.DSVFormat, 'D32_FLOAT');
    // and again: the written description reads back to the same image
    const files = Object.fromEntries(back.files.map((f) => [f.path, f.bytes]));
    const again = pipelineFromJson(back.json, { read: (path) => files[path]! });
    assert.equal(encodeStream(again.subobjects, abi), image);
  });
}

test('stream output and view instancing: lists without their counts', () => {
  const p = pipelineFromJson({ VS: 'vs.cso', GS: 'ps.cso', StreamOutput: { pSODeclaration: [{ SemanticName: 'POSITION', ComponentCount: 4 }], pBufferStrides: [16] }, ViewInstancingDesc: { pViewInstanceLocations: [{ ViewportArrayIndex: 1 }] } }, { read });
  const so = pipelineValue(p, 'STREAM_OUTPUT') as Record<string, unknown>;
  assert.is(so.NumEntries, 1);
  assert.is(so.NumStrides, 1);
  assert.equal(so.pBufferStrides, [16]);
  const vi = pipelineValue(p, 'VIEW_INSTANCING') as Record<string, unknown>;
  assert.is(vi.ViewInstanceCount, 1);
  assert.equal(vi.pViewInstanceLocations, [{ ViewportArrayIndex: 1, RenderTargetArrayIndex: 0 }]);
  assert.is(pipelineFromJson({ CS: 'vs.cso' }, { read }).kind, 'compute');
  assert.is(pipelineFromJson({ MS: 'vs.cso', PS: 'ps.cso' }, { read }).kind, 'mesh');
});

test('refused descriptions: typed errors with the key', () => {
  const refuse = (json: unknown, code: string, path: RegExp) => {
    try {
      pipelineFromJson(json, { read });
      assert.unreachable(JSON.stringify(json));
    } catch (e) {
      assert.instance(e, DescriptionError);
      assert.is((e as DescriptionError).code, code, (e as Error).message);
      assert.match((e as DescriptionError).path, path);
    }
  };
  refuse({ VertexShader: 'vs.cso' }, 'unknown-key', /VertexShader/);
  refuse({ VS: 'missing.cso' }, 'bad-name', /pipeline\.VS/);
  refuse({ VS: 42 }, 'bad-type', /pipeline\.VS/);
  refuse({ DepthStencilState: {}, DepthStencilState1: {} }, 'out-of-range', /DepthStencilState1/);
  refuse({ RasterizerState: { CullMode: 'SIDEWAYS' } }, 'bad-name', /RasterizerState\.CullMode/);
  refuse({ RasterizerState: { Cull: 'NONE' } }, 'unknown-key', /RasterizerState\.Cull/);
  refuse({ RTVFormats: Array(9).fill('UNKNOWN') }, 'out-of-range', /RTVFormats/);
  refuse({ StreamOutput: { pSODeclaration: [], NumEntries: 0 } }, 'unknown-key', /NumEntries/);
  refuse({ InputLayout: [{ SemanticName: 'P\u0100', Format: 'R32_FLOAT' }] }, 'not-representable', /./);
  refuse({ RasterizerState: { DepthBiasClamp: 1e39 } }, 'out-of-range', /DepthBiasClamp/);
  refuse([], 'bad-type', /pipeline/);
});

test('pipelineToJson refuses what the form cannot say', () => {
  // Changed 2026-12-04: a type twice is refused by the stream's one check (ambiguous-name: the runtime refuses such a stream), before the form is made
  assert.throws(() => pipelineToJson([{ type: 'VS', inner: { pShaderBytecode: null, BytecodeLength: 0 } }, { type: 'VS', inner: { pShaderBytecode: null, BytecodeLength: 0 } }], { path: (k) => k }), (e: unknown) => e instanceof DescriptionError && e.code === 'ambiguous-name' && e.path === 'subobjects[1].type');
  assert.throws(() => pipelineToJson([{ type: 'RENDER_TARGET_FORMATS', inner: { RTFormats: [28, 28, 0, 0, 0, 0, 0, 0], NumRenderTargets: 1 } }], { path: (k) => k }), (e: unknown) => e instanceof DescriptionError && e.code === 'not-representable');
});

test.run();
