/**
 * Whole-pipeline verification: DirectXTK's pipelines fit; every rule of codecs/pipeline-rules.ts
 * refuses a pipeline that breaks it; which public source fixes each rule; shader records of local
 * root signatures; the CLI (`verify --pipeline`, `rootsig record-layout`, `verify LIB --record-size`).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PIPELINE_RULES, type PipelineRuleCode } from '../codecs/pipeline-rules.js';
import { pipelineFromJson, type Pipeline } from '../src/pipeline/desc.js';
import { verifyPipeline, verifySignatures, type SignatureElement, type StageSignatures } from '../src/pipeline/verify.js';
import { recordSizeProblem, shaderRecordLayout } from '../src/pipeline/record.js';
import { stageSignaturesFromParts } from '../src/pipeline/signatures.js';
import { linkageBytes, linkageCase } from '../src/fuzz/linkage.js';
import { encodeRootSignature, readRootSignatureSource } from '../src/index.js';
import { ROOT } from './helpers/corpus.js';
import { spawnSync } from 'node:child_process';

/** The CLI from source, as test/verify-cli.test.ts runs it. */
async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const corpus = (p: string) => readFileSync(join(ROOT, 'corpus', p));
const pipe = (json: Record<string, unknown>): Pipeline => pipelineFromJson(json, { read: corpus });
const codes = (p: Pipeline) => verifyPipeline(p).violations.map((v) => v.code);

const DXTK = 'shaders/dxtk12';
const BASIC = {
  VS: `${DXTK}/BasicEffect_VSBasic.dxbc`,
  PS: `${DXTK}/BasicEffect_PSBasic.dxbc`,
  InputLayout: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }],
  PrimitiveTopologyType: 'TRIANGLE',
  RTVFormats: ['R8G8B8A8_UNORM'],
  DSVFormat: 'D32_FLOAT',
};
const NO_IA_RS = 'rootsig/dxtk12__GenerateMips_DegammaInPlace.rts0'; // DENY_VERTEX/PIXEL, no ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
const VKD3D = 'shaders/vkd3d';

// ---------------------------------------------------------------- the corpus

/** DirectXTK's vertex and pixel shaders of one effect, with the root signature they carry or the effect's RTS0 given as pRootSignature. */
const DXTK_PIPELINES: [string, string, string | undefined][] = [
  ['BasicEffect_VSBasic.dxbc', 'BasicEffect_PSBasic.dxbc', undefined],
  ['BasicEffect_VSBasicNoFog.dxbc', 'BasicEffect_PSBasicNoFog.dxbc', undefined],
  ['BasicEffect_VSBasic.dxbc', 'BasicEffect_PSBasic.dxbc', 'rootsig/dxtk12__BasicEffect_PSBasic.rts0'],
  ['AlphaTestEffect_VSAlphaTest.dxbc', 'AlphaTestEffect_PSAlphaTestEqNe.dxbc', undefined],
  ['AlphaTestEffect_VSAlphaTest.dxbc', 'AlphaTestEffect_PSAlphaTestEqNe.dxbc', 'rootsig/dxtk12__AlphaTestEffect_PSAlphaTestEqNe.rts0'],
  ['DualTextureEffect_VSDualTexture.dxbc', 'DualTextureEffect_PSDualTexture.dxbc', undefined],
];
/** DirectXTK's input layouts (VertexPosition, VertexPositionTexture, VertexPositionDualTexture: positions as R32G32B32_FLOAT). */
const DXTK_LAYOUT: Record<string, unknown[]> = {
  Basic: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }],
  AlphaTest: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }, { SemanticName: 'TEXCOORD', Format: 'R32G32_FLOAT', AlignedByteOffset: 12 }],
  DualTexture: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }, { SemanticName: 'TEXCOORD', Format: 'R32G32_FLOAT', AlignedByteOffset: 12 }, { SemanticName: 'TEXCOORD', SemanticIndex: 1, Format: 'R32G32_FLOAT', AlignedByteOffset: 20 }],
};
const layoutOf = (vs: string) => DXTK_LAYOUT[/^(\w+?)Effect/.exec(vs)![1]!]!;
for (const [vs, ps, rs] of DXTK_PIPELINES) {
  test(`DirectXTK ${vs} + ${ps}${rs ? ` with ${rs}` : ' (their own root signature)'} fits`, () => {
    const r = verifyPipeline(pipe({ ...BASIC, InputLayout: layoutOf(vs), VS: `${DXTK}/${vs}`, PS: `${DXTK}/${ps}`, ...(rs ? { pRootSignature: rs } : {}) }));
    // errors none; once a signature decoder is the default, the float3-as-float4 warning joins (see below)
    assert.equal(r.violations.filter((v) => v.severity === 'error'), []);
    assert.is(r.verdict, 'fits');
    assert.is(r.rootSignature, rs ? 'pRootSignature' : 'VS');
    assert.equal(r.stages.map((s) => [s.key, s.bindings]), [['VS', 'fits'], ['PS', 'fits']]);
  });
}

/**
 * The signatures of DirectXTK's shaders, transcribed from the corpus containers' ISGN/OSGN parts
 * (semantic, system value, component type float32, register, mask, read/never-written mask), run
 * through the signature rules: they link, and the R32G32B32_FLOAT positions the shaders read as
 * float4 are the runtime's well-defined case (a warning, not an error).
 */
const T = (name: string, index: number, sv: number, register: number, mask: number, rw: number): SignatureElement => ({ semanticName: name, semanticIndex: index, systemValue: sv, componentType: 3, register, mask, readWriteMask: rw, stream: 0 });
const DXTK_SIGNATURES: Record<string, StageSignatures> = {
  'BasicEffect_VSBasic.dxbc': { inputs: [T('SV_Position', 0, 0, 0, 15, 15)], outputs: [T('COLOR', 0, 0, 0, 15, 0), T('COLOR', 1, 0, 1, 15, 0), T('SV_Position', 0, 1, 2, 15, 0)] },
  'BasicEffect_PSBasic.dxbc': { inputs: [T('COLOR', 0, 0, 0, 15, 15), T('COLOR', 1, 0, 1, 15, 8)], outputs: [T('SV_Target', 0, 0, 0, 15, 0)] },
  'AlphaTestEffect_VSAlphaTest.dxbc': { inputs: [T('SV_Position', 0, 0, 0, 15, 15), T('TEXCOORD', 0, 0, 1, 3, 3)], outputs: [T('COLOR', 0, 0, 0, 15, 0), T('COLOR', 1, 0, 1, 15, 0), T('TEXCOORD', 0, 0, 2, 3, 12), T('SV_Position', 0, 1, 3, 15, 0)] },
  'AlphaTestEffect_PSAlphaTestEqNe.dxbc': { inputs: [T('COLOR', 0, 0, 0, 15, 15), T('COLOR', 1, 0, 1, 15, 8), T('TEXCOORD', 0, 0, 2, 3, 3)], outputs: [T('SV_Target', 0, 0, 0, 15, 0)] },
  'DualTextureEffect_VSDualTexture.dxbc': { inputs: [T('SV_Position', 0, 0, 0, 15, 15), T('TEXCOORD', 0, 0, 1, 3, 3), T('TEXCOORD', 1, 0, 2, 3, 3)], outputs: [T('COLOR', 0, 0, 0, 15, 0), T('COLOR', 1, 0, 1, 15, 0), T('TEXCOORD', 0, 0, 2, 3, 12), T('TEXCOORD', 1, 0, 2, 12, 3), T('SV_Position', 0, 1, 3, 15, 0)] },
  'DualTextureEffect_PSDualTexture.dxbc': { inputs: [T('COLOR', 0, 0, 0, 15, 15), T('COLOR', 1, 0, 1, 15, 8), T('TEXCOORD', 0, 0, 2, 3, 3), T('TEXCOORD', 1, 0, 2, 12, 12)], outputs: [T('SV_Target', 0, 0, 0, 15, 0)] },
};
for (const [vs, ps] of DXTK_PIPELINES.filter(([v, p, rs]) => !rs && DXTK_SIGNATURES[v] && DXTK_SIGNATURES[p])) {
  test(`DirectXTK ${vs} + ${ps}: their signatures link; the float3 position read as float4 is only a warning`, () => {
    const r = verifyPipeline(pipe({ ...BASIC, InputLayout: layoutOf(vs), VS: `${DXTK}/${vs}`, PS: `${DXTK}/${ps}` }), { signatures: (_info, key) => DXTK_SIGNATURES[key === 'VS' ? vs : ps] });
    assert.is(r.signatures, 'checked');
    assert.is(r.verdict, 'fits');
    assert.equal(r.violations.map((v) => [v.severity, v.code, v.path]), [['warning', 'input-layout-components', 'InputLayout[0].Format']]);
  });
}

// ---------------------------------------------------------------- one refusal per rule

const el = (semanticName: string, semanticIndex: number, register: number, mask: number, more: Partial<SignatureElement> = {}): SignatureElement => ({ semanticName, semanticIndex, systemValue: 0, componentType: 3, register, mask, readWriteMask: mask, stream: 0, ...more });
const FAKE = (json: Record<string, unknown>) => pipelineFromJson(json, { read: () => Uint8Array.of(0x44) });
const sigCodes = (json: Record<string, unknown>, sig: Partial<Record<'VS' | 'PS' | 'GS' | 'MS', StageSignatures>>) => verifySignatures(FAKE(json), sig).map((v) => v.code);
const VS_OUT: StageSignatures = { inputs: [el('POSITION', 0, 0, 0b111)], outputs: [el('SV_Position', 0, 0, 0xf, { systemValue: 1 }), el('TEXCOORD', 0, 1, 0b11)] };
const GRAPHICS = { VS: 'vs', PS: 'ps', InputLayout: [{ SemanticName: 'POSITION', Format: 'R32G32B32_FLOAT' }], RTVFormats: ['R8G8B8A8_UNORM'] };

const mutate = (p: Pipeline, type: string, inner: unknown) => {
  p.subobjects.find((s) => s.type === type)!.inner = inner as never;
  return p;
};

// tessellation and mesh linkage: real shaders of vkd3d's and vkd3d-proton's tests
const PROTON = 'shaders/vkd3d-proton';
const V24 = 'shaders/vkd3d-2024';
const TESS = { PrimitiveTopologyType: 'PATCH', RTVFormats: ['R8G8B8A8_UNORM'] };
/** sv: tessellation factors of the tri domain (D3D_NAME 13 edge, 14 inside), one scalar each. */
const TRI_FACTORS = [el('SV_TessFactor', 0, 0, 1, { systemValue: 13 }), el('SV_TessFactor', 1, 1, 1, { systemValue: 13 }), el('SV_TessFactor', 2, 2, 1, { systemValue: 13 }), el('SV_InsideTessFactor', 0, 3, 1, { systemValue: 14 })];
const TRI = { inputControlPointCount: 3, outputControlPointCount: 3, tessellatorDomain: 2 };
const HS_TRI: StageSignatures = { inputs: [], outputs: [], patchConstants: [...TRI_FACTORS, el('ARG', 0, 4, 0b111)], stageInfo: TRI };
const DS_TRI = (patchConstants: SignatureElement[]): StageSignatures => ({ inputs: [], outputs: [], patchConstants, stageInfo: { inputControlPointCount: 3, tessellatorDomain: 2 } });
const TESS_JSON = { ...GRAPHICS, HS: 'hs', DS: 'ds', PrimitiveTopologyType: 'PATCH' };

// stream output as a whole and the geometry shader's input primitive (the cases of their rules; more in their own tests below)
const SO = (SemanticName: string | null, more: Record<string, unknown> = {}) => ({ SemanticName, ComponentCount: 4, ...more });
const soCodes = (StreamOutput: Record<string, unknown>) => codes(pipe({ ...BASIC, StreamOutput }));
/** D3D12_SO_NO_RASTERIZED_STREAM */
const NO_RASTERIZED = 0xffffffff;
/** vkd3d's test_ps_layer: a point-list GS (dcl_inputprimitive point) between a VS of SV_VertexID and a PS; the empty root signature. */
const PS_LAYER = { pRootSignature: 'rootsig/vkd3d__empty_rootsig.dxbc', VS: `${VKD3D}/d3d12__test_ps_layer__vs_code.dxbc`, GS: `${VKD3D}/d3d12__test_ps_layer__gs_code.dxbc`, PS: `${VKD3D}/d3d12__test_ps_layer__ps_code.dxbc`, PrimitiveTopologyType: 'POINT', RTVFormats: ['R8G8B8A8_UNORM'] };
const STREAM_OUTPUT_CASES = {
  'stream-output-repeated': () => soCodes({ pSODeclaration: [SO('SV_Position', { ComponentCount: 2 }), SO('SV_Position', { StartComponent: 1, ComponentCount: 2 })] }),
  'stream-output-slot-streams': () => codes(pipe({ ...PS_LAYER, StreamOutput: { pSODeclaration: [SO('SV_Position'), SO('COLOR', { Stream: 1 })] } })),
  'stream-output-only-gaps': () => soCodes({ pSODeclaration: [SO('SV_Position'), SO(null, { OutputSlot: 1 })] }),
  'stream-output-size': () => soCodes({ pSODeclaration: Array.from({ length: 33 }, (_, i) => SO('TEXCOORD', { SemanticIndex: i })) }),
  'stream-output-num-strides': () => soCodes({ pSODeclaration: [SO('SV_Position')], pBufferStrides: [16, 16, 16, 16, 16] }),
  'stream-output-stride': () => soCodes({ pSODeclaration: [SO('SV_Position')], pBufferStrides: [8] }),
  'stream-output-not-rasterized': () => soCodes({ pSODeclaration: [SO('SV_Position')], pBufferStrides: [16], RasterizedStream: NO_RASTERIZED }),
  'gs-input-primitive': () => codes(pipe({ ...PS_LAYER, PrimitiveTopologyType: 'TRIANGLE' })),
} satisfies Partial<Record<PipelineRuleCode, () => PipelineRuleCode[]>>;

/** For every rule: a pipeline that breaks it (and nothing in the rule's own words is invented). */
const CASES: Record<PipelineRuleCode, () => PipelineRuleCode[]> = {
  ...STREAM_OUTPUT_CASES,
  'stages-mixed': () => codes(pipe({ ...BASIC, CS: `${VKD3D}/d3d12__cs_1_group_code.dxbc` })),
  'vertex-shader-missing': () => codes(pipe({ PS: BASIC.PS })),
  'mesh-shader-missing': () => codes(pipe({ AS: 'shaders/vkd3d-proton/as_simple_code_dxil.dxil', PS: BASIC.PS })),
  'compute-shader-missing': () => codes({ kind: 'compute', subobjects: [], files: {} }),
  'shader-stage-mismatch': () => codes(pipe({ ...BASIC, VS: BASIC.PS })),
  'root-signature-missing': () => codes(pipe({ VS: `${VKD3D}/d3d12__test_depth_clip__vs_code.dxbc`, PS: `${VKD3D}/d3d12__gather4_code.dxbc` })),
  'root-signature-differs': () => codes(pipe({ ...BASIC, PS: `${DXTK}/DualTextureEffect_PSDualTexture.dxbc` })),
  'root-signature-local': () => codes(pipe({ ...BASIC, pRootSignature: 'rootsig/vkd3d-proton__local_root_signature_code_dxil__LRS0.rts0' })),
  binding: () => codes(pipe({ ...BASIC, pRootSignature: NO_IA_RS })),
  'input-layout-not-allowed': () => codes(pipe({ ...BASIC, pRootSignature: NO_IA_RS })),
  'input-element-format': () => codes(pipe({ ...BASIC, InputLayout: [{ SemanticName: 'SV_Position', Format: 'BC1_UNORM' }] })),
  'input-slot': () => codes(pipe({ ...BASIC, InputLayout: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT', InputSlot: 32 }] })),
  'input-element-count': () => codes(pipe({ ...BASIC, InputLayout: Array.from({ length: 33 }, (_, i) => ({ SemanticName: 'TEXCOORD', SemanticIndex: i, Format: 'R32_FLOAT' })) })),
  'patch-topology': () => codes(pipe({ ...BASIC, HS: `${VKD3D}/d3d12__hs_cb_code.dxbc`, DS: `${VKD3D}/d3d12__test_domain_shader_inputs__ds_code.dxbc` })),
  'stream-output-not-allowed': () => codes(pipe({ ...BASIC, StreamOutput: { pSODeclaration: [{ SemanticName: 'SV_Position', ComponentCount: 4 }] } })),
  'stream-output-entry': () => codes(pipe({ ...BASIC, StreamOutput: { pSODeclaration: [{ SemanticName: 'SV_Position', StartComponent: 1, ComponentCount: 4 }] } })),
  'rtv-format-inactive': () => codes(mutate(pipe(BASIC), 'RENDER_TARGET_FORMATS', { RTFormats: [28, 28, 0, 0, 0, 0, 0, 0], NumRenderTargets: 1 })),
  'render-target-count': () => codes(mutate(pipe(BASIC), 'RENDER_TARGET_FORMATS', { RTFormats: [28, 28, 28, 28, 28, 28, 28, 28], NumRenderTargets: 9 })),
  'rtv-format': () => codes(pipe({ ...BASIC, RTVFormats: ['D32_FLOAT'] })),
  'dsv-format': () => codes(pipe({ ...BASIC, DSVFormat: 'R8G8B8A8_UNORM' })),
  'blend-and-logic-op': () => codes(pipe({ ...BASIC, BlendState: { RenderTarget: [{ BlendEnable: 1, LogicOpEnable: 1 }] } })),
  'logic-op-independent-blend': () => codes(pipe({ ...BASIC, BlendState: { IndependentBlendEnable: 1, RenderTarget: [{ LogicOpEnable: 1 }] } })),
  'dual-source-render-targets': () => codes(pipe({ ...BASIC, RTVFormats: ['R8G8B8A8_UNORM', 'R8G8B8A8_UNORM'], BlendState: { RenderTarget: [{ BlendEnable: 1, SrcBlend: 'SRC1_COLOR' }] } })),
  'dual-source-blend-enable': () => codes(pipe({ ...BASIC, BlendState: { IndependentBlendEnable: 1, RenderTarget: [{ BlendEnable: 1, DestBlend: 'INV_SRC1_ALPHA' }, { BlendEnable: 1 }] } })),
  'sample-count': () => codes(pipe({ ...BASIC, SampleDesc: { Count: 3 } })),
  'sample-quality': () => codes(pipe({ ...BASIC, SampleDesc: { Count: 1, Quality: 1 } })),
  'forced-sample-count': () => codes(pipe({ ...BASIC, RasterizerState: { ForcedSampleCount: 3 } })),
  'input-layout-missing-element': () => sigCodes(GRAPHICS, { VS: { inputs: [el('POSITION', 0, 0, 0b111), el('TEXCOORD', 0, 1, 0b11)], outputs: [] } }),
  'input-layout-type': () => sigCodes(GRAPHICS, { VS: { inputs: [el('POSITION', 0, 0, 0b111, { componentType: 1 })], outputs: [] } }),
  'input-layout-components': () => sigCodes({ ...GRAPHICS, InputLayout: [{ SemanticName: 'POSITION', Format: 'R32G32_FLOAT' }] }, { VS: { inputs: [el('POSITION', 0, 0, 0b111)], outputs: [] } }),
  'linkage-missing': () => sigCodes(GRAPHICS, { VS: VS_OUT, PS: { inputs: [el('COLOR', 0, 2, 0xf)], outputs: [] } }),
  'linkage-register': () => sigCodes(GRAPHICS, { VS: VS_OUT, PS: { inputs: [el('TEXCOORD', 0, 2, 0b11)], outputs: [] } }),
  'linkage-mask': () => sigCodes(GRAPHICS, { VS: VS_OUT, PS: { inputs: [el('TEXCOORD', 0, 1, 0b111)], outputs: [] } }),
  'linkage-system-value': () => sigCodes(GRAPHICS, { VS: VS_OUT, PS: { inputs: [el('SV_Position', 0, 0, 0xf, { systemValue: 0 })], outputs: [] } }),
  'linkage-type': () => sigCodes(GRAPHICS, { VS: VS_OUT, PS: { inputs: [el('TEXCOORD', 0, 1, 0b11, { componentType: 1 })], outputs: [] } }),
  'ps-target-unbound': () => sigCodes(GRAPHICS, { PS: { inputs: [], outputs: [el('SV_Target', 1, 1, 0xf, { systemValue: 64 })] } }),
  'ps-target-type': () => sigCodes(GRAPHICS, { PS: { inputs: [], outputs: [el('SV_Target', 0, 0, 0xf, { systemValue: 64, componentType: 1 })] } }),
  'depth-output-dsv': () => sigCodes(GRAPHICS, { PS: { inputs: [], outputs: [el('SV_Depth', 0, 0xffffffff, 1, { systemValue: 65 })] } }),
  'stencil-output-dsv': () => sigCodes({ ...GRAPHICS, DSVFormat: 'D32_FLOAT' }, { PS: { inputs: [], outputs: [el('SV_StencilRef', 0, 0xffffffff, 1, { systemValue: 69, componentType: 1 })] } }),
  'stream-output-signature': () => sigCodes({ ...GRAPHICS, GS: 'gs', StreamOutput: { pSODeclaration: [{ SemanticName: 'TEXCOORD', SemanticIndex: 3, ComponentCount: 2 }] } }, { GS: { inputs: [], outputs: [el('TEXCOORD', 0, 1, 0b11)] } }),
  'hs-ds-pair': () => codes(pipe({ ...BASIC, PrimitiveTopologyType: 'PATCH', HS: `${V24}/d3d12__test_nop_tessellation_shaders__hs_code.dxbc` })),
  // vkd3d's line-tessellation hull shader (1 output control point) before vkd3d-proton's isoline domain shader (4)
  'hs-ds-control-points': () => codes(pipe({ ...TESS, VS: `${VKD3D}/d3d12__test_line_tessellation__vs_code.dxbc`, HS: `${VKD3D}/d3d12__test_line_tessellation__hs_code.dxbc`, DS: `${PROTON}/ds_topology_line_code_dxbc.dxbc` })),
  // an isoline hull shader before a quad domain shader, 4 control points each
  'hs-ds-domain': () => codes(pipe({ ...TESS, VS: `${VKD3D}/d3d12__test_line_tessellation__vs_code.dxbc`, HS: `${PROTON}/hs_topology_line_code_dxbc.dxbc`, DS: `${VKD3D}/d3d12__test_quad_tessellation__ds_code.dxbc` })),
  'tess-factors': () => sigCodes(TESS_JSON, { HS: { ...HS_TRI, patchConstants: TRI_FACTORS.slice(1) } } as never),
  // vkd3d-proton's interface-mismatch shaders: ds_mismatch_1 reads ARG0..2 as patch constants, hs_mismatch_ref writes them per control point
  'patch-constant-missing': () => codes(pipe({ ...TESS, VS: `${PROTON}/vs_mismatch_code_dxil.dxil`, HS: `${PROTON}/hs_mismatch_ref_code_dxil.dxil`, DS: `${PROTON}/ds_mismatch_1_code_dxil.dxil` })),
  'patch-constant-register': () => sigCodes(TESS_JSON, { HS: HS_TRI, DS: DS_TRI([el('ARG', 0, 5, 0b111)]) } as never),
  'patch-constant-mask': () => sigCodes(TESS_JSON, { HS: HS_TRI, DS: DS_TRI([el('ARG', 0, 4, 0xf)]) } as never),
  'patch-constant-system-value': () => sigCodes(TESS_JSON, { HS: HS_TRI, DS: DS_TRI([el('SV_InsideTessFactor', 0, 3, 1, { systemValue: 0 })]) } as never),
  'patch-constant-type': () => sigCodes(TESS_JSON, { HS: HS_TRI, DS: DS_TRI([el('ARG', 0, 4, 0b111, { componentType: 1 })]) } as never),
  // vkd3d-proton's as_simple (16-byte payload) before the 4-byte payload of ms_execute_indirect_state_payload
  'payload-size': () => codes(pipe({ AS: `${PROTON}/as_simple_code_dxil.dxil`, MS: `${PROTON}/ms_execute_indirect_state_payload_code_dxil.dxil`, PS: `${PROTON}/ps_green_code_dxil.dxil`, RTVFormats: ['R8G8B8A8_UNORM'] })),
};

for (const [code, severity, source] of PIPELINE_RULES) {
  test(`rule ${code} (${severity}, ${source}): refuses its case`, () => {
    const seen = CASES[code]();
    assert.ok(seen.includes(code), `${code} not in ${JSON.stringify(seen)}`);
  });
}

test('a pipeline consistent in every signature rule has no signature violations', () => {
  const ps: StageSignatures = { inputs: [el('SV_Position', 0, 0, 0xf, { systemValue: 1 }), el('TEXCOORD', 0, 1, 0b1)], outputs: [el('SV_Target', 0, 0, 0xf, { systemValue: 64 }), el('SV_Depth', 0, 0xffffffff, 1, { systemValue: 65 })] };
  assert.equal(sigCodes({ ...GRAPHICS, DSVFormat: 'D32_FLOAT' }, { VS: VS_OUT, PS: ps }), []);
  // system-generated inputs (SV_VertexID, SV_IsFrontFace) need no element and no output
  assert.equal(sigCodes(GRAPHICS, { VS: { inputs: [el('POSITION', 0, 0, 0b111), el('SV_VertexID', 0, 1, 1, { systemValue: 6, componentType: 1 })], outputs: VS_OUT.outputs }, PS: { inputs: [el('SV_IsFrontFace', 0, 2, 1, { systemValue: 9, componentType: 1 })], outputs: [] } }), []);
  // DXBC's OSGN names SV_Target and SV_Depth with system value 0: known by the name
  assert.equal(sigCodes(GRAPHICS, { PS: { inputs: [], outputs: [el('SV_Target', 1, 1, 0xf), el('SV_Depth', 0, 0xffffffff, 1)] } }), ['ps-target-unbound', 'depth-output-dsv']);
  // verifyPipeline runs them through its one plug-in point
  const r = verifyPipeline(pipe(BASIC), { signatures: (_info, key) => (key === 'VS' ? { inputs: [el('SV_Position', 0, 0, 0b111, { systemValue: 0 }), el('NORMAL', 0, 1, 0b111)], outputs: [] } : { inputs: [], outputs: [] }) });
  assert.equal(r.violations.map((v) => v.code), ['input-layout-missing-element']);
  assert.is(r.signatures, 'checked');
  assert.is(r.verdict, 'does-not-fit');
});

const TESS_RULES = new Set<string>(['hs-ds-pair', 'hs-ds-control-points', 'hs-ds-domain', 'tess-factors', 'patch-constant-missing', 'patch-constant-register', 'patch-constant-mask', 'patch-constant-system-value', 'patch-constant-type', 'payload-size', 'linkage-missing', 'linkage-register', 'linkage-mask', 'linkage-system-value', 'linkage-type']);

test('vkd3d\'s nop tessellation pipeline (DXBC VS, HS, DS, PS) fits with vkd3d\'s empty root signature: control points, domain, tessellation factors and patch constants link', () => {
  const r = verifyPipeline(pipe({ ...TESS, pRootSignature: 'rootsig/vkd3d__empty_rootsig.dxbc', VS: `${V24}/d3d12__test_nop_tessellation_shaders__vs_code.dxbc`, HS: `${V24}/d3d12__test_nop_tessellation_shaders__hs_code.dxbc`, DS: `${V24}/d3d12__test_nop_tessellation_shaders__ds_code.dxbc`, PS: `${V24}/d3d12__test_nop_tessellation_shaders__ps_code.dxbc` }));
  assert.is(r.signatures, 'checked');
  assert.equal(r.violations, []);
  assert.is(r.verdict, 'fits');
});

test('vkd3d-proton\'s quad tessellation pipeline (DXIL VS, HS, DS) fits with a root signature holding the hull shader\'s b0; PSV0 gives the counts and the domain', () => {
  const rs = encodeRootSignature({ version: 1, flags: 1, staticSamplers: [], parameters: [{ parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 0, registerSpace: 0, flags: 0 } }] } as never);
  const read = (p: string) => (p === 'rs.rts0' ? rs : corpus(p));
  const json = { ...TESS, pRootSignature: 'rs.rts0', InputLayout: [{ SemanticName: 'POSITION', Format: 'R32G32B32A32_FLOAT' }], VS: `${PROTON}/quad_tess_vs_code_dxil.dxil`, HS: `${PROTON}/quad_tess_hs_cw_code_dxil.dxil`, DS: `${PROTON}/quad_tess_ds_code_dxil.dxil` };
  const r = verifyPipeline(pipelineFromJson(json, { read }));
  assert.equal(r.violations, []);
  assert.is(r.verdict, 'fits');
  // the clockwise and counter-clockwise hull shaders, and the ones reading 5 or 3 input control points, all output 4
  for (const hs of ['quad_tess_hs_ccw_code_dxil.dxil', 'quad_tess_hs_ccw_overcount_input_code_dxil.dxil', 'quad_tess_hs_cw_undercount_input_code_dxil.dxil']) {
    const v = verifyPipeline(pipelineFromJson({ ...json, HS: `${PROTON}/${hs}` }, { read })).violations;
    assert.equal(v.filter((x) => TESS_RULES.has(x.code)), [], hs);
  }
});

test('vkd3d-proton\'s interface-mismatch shaders: the reference VS, HS, DS, PS link per control point, hs_mismatch_1 and ds_mismatch_1 through patch constants', () => {
  const ref = { ...TESS, InputLayout: [{ SemanticName: 'POSITION', Format: 'R32G32B32A32_FLOAT' }], RTVFormats: ['R8G8B8A8_UNORM', 'R8G8_UNORM', 'R32G32B32A32_UINT'], VS: `${PROTON}/vs_mismatch_code_dxil.dxil`, HS: `${PROTON}/hs_mismatch_ref_code_dxil.dxil`, DS: `${PROTON}/ds_mismatch_ref_code_dxil.dxil`, PS: `${PROTON}/ps_mismatch_ref_code_dxil.dxil` };
  const linkage = (json: Record<string, unknown>) => verifyPipeline(pipe(json)).violations.filter((v) => TESS_RULES.has(v.code) || v.code.startsWith('ps-target'));
  assert.equal(linkage(ref), []);
  assert.equal(linkage({ ...ref, HS: `${PROTON}/hs_mismatch_1_code_dxil.dxil`, DS: `${PROTON}/ds_mismatch_1_code_dxil.dxil` }), []);
  assert.equal(linkage({ ...ref, HS: `${PROTON}/hs_mismatch_1_code_dxil.dxil` }).map((v) => v.code), ['linkage-missing', 'linkage-missing', 'linkage-missing']);
});

/** Hull and domain shader pairs vkd3d's d3d12.c draws with (DXBC, tessellation declarations for the counts and the domain). */
const VKD3D_TESS_PAIRS = ['test_hull_shader_relative_addressing', 'test_line_tessellation', 'test_domain_shader_inputs', 'test_hull_shader_control_point_phase', 'test_hull_shader_fork_phase', 'test_hull_shader_patch_constant_inputs', 'test_tessellation_dcl_index_range', 'test_tessellation_primitive_id', 'test_clip_distance'];
for (const name of VKD3D_TESS_PAIRS) {
  test(`vkd3d ${name}: its hull and domain shaders link (no tessellation rule fires)`, () => {
    const r = verifyPipeline(pipe({ ...TESS, VS: `${VKD3D}/d3d12__test_line_tessellation__vs_code.dxbc`, HS: `${VKD3D}/d3d12__${name}__hs_code.dxbc`, DS: `${VKD3D}/d3d12__${name}__ds_code.dxbc` }));
    assert.equal(r.violations.filter((v) => TESS_RULES.has(v.code) && v.stage === 'DS'), []);
    assert.equal(r.violations.filter((v) => v.code === 'tess-factors' || v.code.startsWith('hs-ds')), []);
  });
}

test('vkd3d-proton\'s amplification and mesh shaders with equal payloads (16 and 16, 4 and 4) fit the payload rule; the mesh shader\'s PSG1 is its primitive outputs, linked to the pixel shader', () => {
  for (const [as, ms] of [['as_simple_code_dxil.dxil', 'ms_payload_code_dxil.dxil'], ['as_execute_indirect_state_code_dxil.dxil', 'ms_execute_indirect_state_payload_code_dxil.dxil']] as const) {
    const r = verifyPipeline(pipe({ AS: `${PROTON}/${as}`, MS: `${PROTON}/${ms}`, PS: `${PROTON}/ps_green_code_dxil.dxil`, RTVFormats: ['R8G8B8A8_UNORM'] }));
    assert.is(r.kind, 'mesh');
    assert.equal(r.violations.filter((v) => v.code === 'payload-size'), [], as);
  }
  const json = { MS: 'ms', PS: 'ps', RTVFormats: ['R8G8B8A8_UNORM'] };
  const ms: StageSignatures = { inputs: [], outputs: [el('SV_Position', 0, 0, 0xf, { systemValue: 1 })], primitiveOutputs: [el('UV_COLOR', 0, 0, 0xf)], stageInfo: { payloadSizeInBytes: 16 } };
  assert.equal(sigCodes(json, { MS: ms, PS: { inputs: [el('UV_COLOR', 0, 0, 0xf)], outputs: [] } }), []);
  assert.equal(sigCodes(json, { MS: ms, PS: { inputs: [el('UV_COLOR', 1, 1, 0xf)], outputs: [] } }), ['linkage-missing']);
  const parts = [{ name: 'ISG1', elements: [] }, { name: 'OSG1', elements: [] }, { name: 'PSG1', elements: [{ semanticName: 'UV_COLOR', semanticIndex: 0, systemValue: 0, componentType: 3, register: 0, mask: 15, rwMask: 0 }] }];
  assert.equal(Object.keys(stageSignaturesFromParts(parts, 13)!), ['inputs', 'outputs', 'primitiveOutputs']);
  assert.equal(Object.keys(stageSignaturesFromParts(parts, 3)!), ['inputs', 'outputs', 'patchConstants']);
});

test('payloads without their pair: a mesh shader with a 16-byte payload and no amplification shader fits (no public source refuses it, docs/formats/pipeline.md); an amplification shader with a payload before a mesh shader that declares none is a size mismatch', () => {
  // vkd3d-proton's ms_payload declares 16 bytes in PSV0 (the shader the payload-size case above pairs with as_simple)
  const alone = { pRootSignature: 'rootsig/vkd3d__empty_rootsig.dxbc', MS: `${PROTON}/ms_payload_code_dxil.dxil`, PS: `${PROTON}/ps_green_code_dxil.dxil`, RTVFormats: ['R8G8B8A8_UNORM'] };
  const r = verifyPipeline(pipe(alone));
  assert.equal([r.kind, r.verdict, r.signatures, r.violations], ['mesh', 'fits', 'checked', []]);
  // the same through verifySignatures: a payload size with no AS stage is no violation
  const ms: StageSignatures = { inputs: [], outputs: [], stageInfo: { payloadSizeInBytes: 16 } };
  assert.equal(sigCodes({ MS: 'ms', PS: 'ps' }, { MS: ms }), []);
  // the converse: as_simple dispatches 16 bytes, ms_empty and ms_culling declare none (PSV0 0)
  for (const m of ['ms_empty_code_dxil.dxil', 'ms_culling_code_dxil.dxil']) {
    // (ms_culling also reads a resource the empty root signature lacks: a binding violation beside)
    const v = verifyPipeline(pipe({ ...alone, AS: `${PROTON}/as_simple_code_dxil.dxil`, MS: `${PROTON}/${m}` })).violations.filter((x) => x.code !== 'binding');
    assert.equal(v.map((x) => [x.code, x.severity, x.stage]), [['payload-size', 'error', 'MS']], m);
    assert.match(v[0]!.message, /payload is 16 bytes, the mesh shader's 0/);
  }
});

test('tessellation factors by domain: a quad hull shader declares 4 and 2, an isoline one 2 and 0; a domain shader reads no more and none of another domain', () => {
  const f = (sv: number, i: number) => el(sv % 2 ? 'SV_TessFactor' : 'SV_InsideTessFactor', i, i, 1, { systemValue: sv });
  const quad = [f(11, 0), f(11, 1), f(11, 2), f(11, 3), f(12, 4), f(12, 5)];
  const hs = (patchConstants: SignatureElement[], tessellatorDomain: number): StageSignatures => ({ inputs: [], outputs: [], patchConstants, stageInfo: { outputControlPointCount: 4, tessellatorDomain } });
  const ds = (patchConstants: SignatureElement[], tessellatorDomain: number): StageSignatures => ({ inputs: [], outputs: [], patchConstants, stageInfo: { inputControlPointCount: 4, tessellatorDomain } });
  assert.equal(sigCodes(TESS_JSON, { HS: hs(quad, 3), DS: ds(quad.slice(0, 4), 3) } as never), []);
  assert.equal(sigCodes(TESS_JSON, { HS: hs([f(15, 0), f(16, 1)], 1), DS: ds([f(15, 0)], 1) } as never), []);
  assert.equal(sigCodes(TESS_JSON, { HS: hs(quad.slice(0, 5), 3) } as never), ['tess-factors']);
  assert.equal(sigCodes(TESS_JSON, { HS: hs([...quad, f(13, 6)], 3) } as never), ['tess-factors']);
  // a domain shader written for the tri domain after a quad hull shader: the domain rule, and no patch-constant noise for its tri factor
  assert.equal(sigCodes(TESS_JSON, { HS: hs(quad, 3), DS: ds([f(13, 0)], 2) } as never), ['hs-ds-domain']);
  // a tri domain shader reading a quad factor
  assert.equal(sigCodes(TESS_JSON, { DS: ds([f(11, 0)], 2) } as never), ['tess-factors']);
  // the shapes are checked at the boundary: a typed error, not a TypeError or a string read as a list
  assert.throws(() => verifySignatures(FAKE(TESS_JSON), { HS: { ...hs(quad, 3), patchConstants: 'SV_TessFactor' } } as never), /signatures\.HS\.patchConstants/);
  assert.throws(() => verifySignatures(FAKE(TESS_JSON), { HS: { ...hs(quad, 3), stageInfo: { tessellatorDomain: '3' } } } as never), /signatures\.HS\.stageInfo\.tessellatorDomain/);
  const v = verifySignatures(FAKE(TESS_JSON), { HS: hs(quad.slice(0, 5), 3) } as never)[0]!;
  assert.is(v.message, 'Hull Shader: the quad domain takes 4 SV_TessFactor and 2 SV_InsideTessFactor value(s) in the patch-constant signature; it declares 4 and 1');
  assert.is(v.source, 'dxc');
});

test('decoded signature parts (rows as the part decoder gives them) become a stage\'s signatures, and run the rules', () => {
  const row = (semanticName: string, register: number, mask: number, systemValue = 0, componentType = 3) => ({ semanticName, semanticIndex: 0, systemValue, componentType, register, mask, rwMask: mask, reserved: 0 });
  const vs = stageSignaturesFromParts([
    { name: 'ISGN', elements: [row('POSITION', 0, 0b111)] },
    { name: 'OSGN', elements: [row('SV_Position', 0, 0xf, 1), row('TEXCOORD', 1, 0b11)] },
    { name: 'RDEF', elements: [] },
  ])!;
  const ps = stageSignaturesFromParts([{ name: 'ISG1', elements: [{ ...row('TEXCOORD', 1, 0b111), stream: 0, minPrecision: 0 }] }, { name: 'OSG1', elements: [{ ...row('SV_Target', 0, 0xf, 64), stream: 0 }] }])!;
  assert.equal(vs.inputs[0], { semanticName: 'POSITION', semanticIndex: 0, systemValue: 0, componentType: 3, register: 0, mask: 7, readWriteMask: 7, stream: 0 });
  assert.is(stageSignaturesFromParts([{ name: 'RDEF', elements: [] }]), undefined);
  assert.equal(verifySignatures(FAKE(GRAPHICS), { VS: vs, PS: ps }).map((v) => v.code), ['linkage-mask']);
  assert.throws(() => stageSignaturesFromParts([{ name: 'ISGN', elements: [{ semanticName: 7 }] }]), /semanticName/);
  assert.throws(() => stageSignaturesFromParts([{ name: 'ISGN', elements: [] }, { name: 'ISG1', elements: [] }]), /ambiguous/);
});

// ---------------------------------------------------------------- stream output as a whole, the GS input primitive

/** The description without the given keys; with StreamOutput fields changed. */
const without = (json: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(json).filter(([k]) => !keys.includes(k)));
const soWith = (json: Record<string, unknown>, more: Record<string, unknown>) => ({ ...json, StreamOutput: { ...(json.StreamOutput as Record<string, unknown>), ...more } });
const soViolations = (StreamOutput: Record<string, unknown>, more: Record<string, unknown> = {}) => verifyPipeline(pipe({ ...BASIC, ...more, StreamOutput })).violations.filter((v) => v.code.startsWith('stream-output') && v.code !== 'stream-output-not-allowed' && v.code !== 'stream-output-signature');
const soErrors = (StreamOutput: Record<string, unknown>, more: Record<string, unknown> = {}) => soViolations(StreamOutput, more).filter((v) => v.severity === 'error').map((v) => v.code);

test('D3D12_SO_NO_RASTERIZED_STREAM: no stream reaches the pixel shader, so its inputs are not linked (a warning says it never runs); a stream that is rasterized still links', () => {
  const json = { ...GRAPHICS, GS: 'gs', StreamOutput: { pSODeclaration: [SO('TEXCOORD', { ComponentCount: 2 })], pBufferStrides: [8], RasterizedStream: NO_RASTERIZED } };
  // the geometry shader writes TEXCOORD0 to stream 0 and COLOR0 to stream 1; the pixel shader reads COLOR0
  const gs: StageSignatures = { inputs: [], outputs: [el('TEXCOORD', 0, 0, 0b11), el('COLOR', 0, 0, 0xf, { stream: 1 })] };
  const ps: StageSignatures = { inputs: [el('COLOR', 0, 0, 0xf)], outputs: [] };
  assert.equal(sigCodes(json, { GS: gs, PS: ps }), []);
  assert.equal(sigCodes(soWith(json, { RasterizedStream: 0 }), { GS: gs, PS: ps }), ['linkage-missing']);
  assert.equal(sigCodes(soWith(json, { RasterizedStream: 1 }), { GS: gs, PS: ps }), []);
  // the vertex shader streaming out alone before the pixel shader: nothing rasterized either
  assert.equal(sigCodes({ ...GRAPHICS, StreamOutput: { pSODeclaration: [SO('TEXCOORD', { ComponentCount: 2 })], RasterizedStream: NO_RASTERIZED } }, { VS: VS_OUT, PS: ps }), []);
  assert.equal(sigCodes({ ...GRAPHICS, StreamOutput: { pSODeclaration: [SO('TEXCOORD', { ComponentCount: 2 })], RasterizedStream: 0 } }, { VS: VS_OUT, PS: ps }), ['linkage-missing']);
  // the warning comes with a pixel shader and without signatures; none without a pixel shader
  const warned = soViolations({ pSODeclaration: [SO('SV_Position')], RasterizedStream: NO_RASTERIZED });
  assert.equal(warned.map((v) => [v.code, v.severity, v.path]), [['stream-output-not-rasterized', 'warning', 'StreamOutput.RasterizedStream']]);
  assert.equal(verifyPipeline(pipe({ ...without(BASIC, 'PS'), StreamOutput: { pSODeclaration: [SO('SV_Position')], RasterizedStream: NO_RASTERIZED } })).violations.filter((v) => v.code === 'stream-output-not-rasterized'), []);
});

test('stream output: an output component once per stream (other components of it, other streams, any case of the name), a slot of one stream, gaps', () => {
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position', { ComponentCount: 1 }), SO('SV_Position', { StartComponent: 1, ComponentCount: 3 })] }), []);
  const repeated = soViolations({ pSODeclaration: [SO('SV_Position', { ComponentCount: 2 }), SO(null, { ComponentCount: 2 }), SO('sv_position', { StartComponent: 1, ComponentCount: 3 })] });
  assert.equal(repeated.map((v) => [v.code, v.path]), [['stream-output-repeated', 'StreamOutput.pSODeclaration[2]']]);
  assert.is(repeated[0]!.message, 'pSODeclaration[2] streams component(s) y of sv_position/0 in stream 0, which pSODeclaration[0] streams already: an output component goes to stream output once per stream (REPEATEDOUTPUT)');
  // the same output in two streams of a geometry shader, each to its own slot; streams 1..3 need a geometry shader
  assert.equal(soErrors({ pSODeclaration: [SO('COLOR'), SO('COLOR', { Stream: 1, OutputSlot: 1 })] }, PS_LAYER), []);
  assert.equal(soErrors({ pSODeclaration: [SO('COLOR'), SO('TEXCOORD', { Stream: 1 })] }, PS_LAYER), ['stream-output-slot-streams']);
  const noGs = soViolations({ pSODeclaration: [SO('COLOR'), SO('COLOR', { Stream: 1, OutputSlot: 1 })] });
  assert.equal(noGs.map((v) => [v.code, v.path]), [['stream-output-entry', 'StreamOutput.pSODeclaration[1]']]);
  assert.match(noGs[0]!.message, /Stream 1 without a geometry shader/);
  // a gap skips any number of components; it starts at 0 and has no semantic index (INVALIDGAPDEFINITION)
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position'), SO(null, { ComponentCount: 8 }), SO('COLOR')], pBufferStrides: [64] }), []);
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position'), SO(null, { StartComponent: 1, ComponentCount: 2 })] }), ['stream-output-entry']);
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position'), SO(null, { SemanticIndex: 1 })] }), ['stream-output-entry']);
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position'), SO(null, { ComponentCount: 0 })] }), ['stream-output-entry']);
  // a slot whose entries are all gaps, in the stream that writes it
  const gaps = soViolations({ pSODeclaration: [SO('COLOR', { Stream: 1 }), SO(null, { Stream: 1, OutputSlot: 2 })] }, PS_LAYER);
  assert.equal(gaps.map((v) => v.message), ['the entries of stream 1 for OutputSlot 2 are all gaps (CANTHAVEONLYGAPS)']);
  // an entry out of range counts toward nothing else
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position'), SO('SV_Position', { OutputSlot: 4 })] }), ['stream-output-entry']);
});

test('stream output: 128 components a stream, 512 bytes a slot; strides (when given) for every slot used, at least its bytes with gaps, a multiple of 4, at most 2048; NumStrides at most 4', () => {
  const texcoords = (n: number, more: Record<string, unknown> = {}, from = 0) => Array.from({ length: n }, (_, i) => SO('TEXCOORD', { SemanticIndex: from + i, ...more }));
  // 32 entries of 4 components: 128 components, 512 bytes, the limits exactly
  assert.equal(soErrors({ pSODeclaration: texcoords(32), pBufferStrides: [512] }), []);
  assert.equal(soViolations({ pSODeclaration: [...texcoords(32), SO('COLOR', { ComponentCount: 1, OutputSlot: 1 })] }).map((v) => v.message), ['the declaration of stream 0 is 129 components, more than D3D12_SO_OUTPUT_COMPONENT_COUNT (128 a stream)']);
  assert.equal(soViolations({ pSODeclaration: [...texcoords(32), SO(null, { ComponentCount: 1 })] }).map((v) => v.code), ['stream-output-size', 'stream-output-size']);
  // 128 components of stream 0 and 128 of stream 1 (each to its own slots) fit
  assert.equal(soErrors({ pSODeclaration: [...texcoords(16), ...texcoords(16, { OutputSlot: 1 }, 16), ...texcoords(16, { Stream: 1, OutputSlot: 2 }), ...texcoords(16, { Stream: 1, OutputSlot: 3 }, 16)] }, PS_LAYER), []);
  // strides: the entries of a slot with their gaps
  const decl = [SO('SV_Position'), SO(null, { ComponentCount: 2 }), SO('COLOR', { OutputSlot: 1, ComponentCount: 3 })];
  assert.equal(soErrors({ pSODeclaration: decl, pBufferStrides: [24, 12] }), []);
  assert.equal(soErrors({ pSODeclaration: decl, pBufferStrides: [2048, 2048] }), []);
  const stride = (pBufferStrides: number[]) => soViolations({ pSODeclaration: decl, pBufferStrides }).map((v) => [v.path, v.message]);
  assert.equal(stride([20, 12]), [['StreamOutput.pBufferStrides[0]', 'OutputSlot 0: pBufferStrides[0] 20 is less than the 24 bytes its entries take (INVALIDOUTPUTSTREAMSTRIDE)']]);
  assert.equal(stride([24, 14]), [['StreamOutput.pBufferStrides[1]', 'OutputSlot 1: pBufferStrides[1] 14 is not a multiple of 4 (INVALIDOUTPUTSTREAMSTRIDE)']]);
  assert.equal(stride([2052, 12]), [['StreamOutput.pBufferStrides[0]', 'OutputSlot 0: pBufferStrides[0] 2052 is more than D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES (2048) (INVALIDOUTPUTSTREAMSTRIDE)']]);
  assert.equal(stride([24]), [['StreamOutput.NumStrides', 'OutputSlot 1: no stride: NumStrides 1 gives none for a slot the entries use (INVALIDOUTPUTSTREAMSTRIDE)']]);
  // no strides: not checked; a stride for a slot no entry uses: not refused
  assert.equal(soErrors({ pSODeclaration: decl }), []);
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position')], pBufferStrides: [16, 4] }), []);
  assert.equal(soErrors({ pSODeclaration: [SO('SV_Position')], pBufferStrides: [16, 16, 16, 16, 16] }), ['stream-output-num-strides']);
  // the vkd3d harness's own stream-output pipelines keep fitting
  assert.equal(soErrors({ pSODeclaration: [SO('SV_POSITION'), SO('COLOR'), SO('PRIMITIVE_ID')], pBufferStrides: [48] }), []);
});

test('the geometry shader\'s input primitive against PrimitiveTopologyType (vkd3d-proton\'s gs_topology shaders, DXBC and DXIL) and against the tessellator\'s output primitive', () => {
  const TYPES = ['POINT', 'LINE', 'TRIANGLE', 'PATCH'] as const;
  // each shader's dcl_inputprimitive / PSV0 InputPrimitive and the one topology type that feeds it
  const SHADERS: [string, (typeof TYPES)[number]][] = [['point', 'POINT'], ['line', 'LINE'], ['line_adj', 'LINE'], ['triangle', 'TRIANGLE'], ['triangle_adj', 'TRIANGLE']];
  for (const [name, fits] of SHADERS) {
    for (const format of ['dxbc', 'dxil']) {
      for (const type of TYPES) {
        const r = verifyPipeline(pipe({ ...PS_LAYER, GS: `${PROTON}/gs_topology_${name}_code_${format}.${format}`, PrimitiveTopologyType: type }));
        const hit = r.violations.filter((v) => v.code === 'gs-input-primitive');
        assert.is(hit.length, type === fits ? 0 : 1, `${name} ${format} ${type}`);
        if (hit.length) assert.is(hit[0]!.message, `the geometry shader takes ${name} input primitives, but PrimitiveTopologyType gives ${type} (GS_INPUT_PRIMITIVE_MISMATCH)`);
      }
    }
  }
  // the ps_layer pipeline as vkd3d's test draws it fits
  assert.equal(codes(pipe(PS_LAYER)), []);
  // tessellation: vkd3d's clip-distance hull shader makes triangles (quad domain, triangle_cw), its GS takes triangles
  const CLIP_TESS = { VS: `${VKD3D}/d3d12__test_clip_distance__vs_code.dxbc`, HS: `${VKD3D}/d3d12__test_clip_distance__hs_code.dxbc`, DS: `${VKD3D}/d3d12__test_clip_distance__ds_code.dxbc`, GS: `${VKD3D}/d3d12__test_clip_distance__gs_code.dxbc`, PrimitiveTopologyType: 'PATCH' };
  const gsRule = (json: Record<string, unknown>) => verifyPipeline(pipe(json)).violations.filter((v) => v.code === 'gs-input-primitive').map((v) => v.message);
  assert.equal(gsRule(CLIP_TESS), []);
  assert.equal(gsRule({ ...CLIP_TESS, GS: `${PROTON}/gs_topology_point_code_dxbc.dxbc` }), ['the geometry shader takes point input primitives, but the tessellator gives triangle_cw primitives (the hull shader\'s output primitive) (GS_INPUT_PRIMITIVE_MISMATCH)']);
  // no adjacency out of the tessellator: a triangle_adj GS after triangles is refused
  assert.equal(gsRule({ ...CLIP_TESS, GS: `${PROTON}/gs_topology_triangle_adj_code_dxil.dxil` }).length, 1);
  // vkd3d's line-tessellation hull shader makes lines
  assert.equal(gsRule({ ...CLIP_TESS, HS: `${VKD3D}/d3d12__test_line_tessellation__hs_code.dxbc`, DS: `${VKD3D}/d3d12__test_line_tessellation__ds_code.dxbc`, GS: `${PROTON}/gs_topology_line_code_dxbc.dxbc` }), []);
  // facts given through the plug-in point; an unknown primitive is not checked
  const json = { ...GRAPHICS, GS: 'gs', PrimitiveTopologyType: 'LINE' };
  const gs = (inputPrimitive?: number): StageSignatures => ({ inputs: [], outputs: [], stageInfo: inputPrimitive === undefined ? {} : { inputPrimitive } });
  assert.equal(sigCodes(json, { GS: gs(6) }), []);
  assert.equal(sigCodes(json, { GS: gs(3) }), ['gs-input-primitive']);
  assert.equal(sigCodes(json, { GS: gs(8) }), ['gs-input-primitive']);
  assert.equal(sigCodes({ ...json, PrimitiveTopologyType: 'PATCH' }, { GS: gs(39) }), []);
  assert.equal(sigCodes(json, { GS: gs() }), []);
  assert.equal(sigCodes(json, { GS: gs(0) }), []);
  assert.throws(() => verifySignatures(FAKE(json), { GS: { inputs: [], outputs: [], stageInfo: { inputPrimitive: 'line' } } } as never), /signatures\.GS\.stageInfo\.inputPrimitive/);
});

test('the pipeline-linkage fuzz generator writes and reads back a geometry-shader pipeline: streams of GS outputs, input primitive, stream-output entries, rasterized stream', () => {
  const pos = ['SV_Position', 0, 1, 0, 0, 15, 15] as const;
  const color = (stream: number) => ['COLOR', 0, 0, 0, 1, 15, 15, stream] as const;
  const bytes = linkageBytes(false, [{ outputs: [pos, color(0)] }, { info: { inputPrimitive: 6 }, inputs: [pos, color(0)], outputs: [pos, color(2)] }, { inputs: [color(0)] }], { tessellation: false, topology: 'LINE', rasterized: 0xffffffff, entries: [{ name: 'COLOR', stream: 2, start: 1, count: 3 }] });
  const c = linkageCase(bytes);
  assert.equal(Object.keys(c.signatures), ['VS', 'GS', 'PS']);
  assert.equal(c.signatures.GS!.outputs.map((o) => o.stream), [0, 2]);
  assert.equal(c.signatures.VS!.outputs.map((o) => o.stream), [0, 0]);
  assert.equal(c.signatures.GS!.stageInfo, { inputPrimitive: 6 });
  assert.equal(c.json.PrimitiveTopologyType, 'LINE');
  assert.equal(c.json.StreamOutput, { pSODeclaration: [{ SemanticName: 'COLOR', SemanticIndex: 0, Stream: 2, StartComponent: 1, ComponentCount: 3 }], RasterizedStream: 0xffffffff });
  // the pixel shader's COLOR is in no rasterized stream: none is rasterized, so nothing is linked
  const p = pipelineFromJson(c.json, { read: (x) => new TextEncoder().encode(x) });
  assert.equal(verifySignatures(p, c.signatures).map((v) => v.code), []);
  assert.equal(verifySignatures(p, { ...c.signatures, GS: { ...c.signatures.GS!, stageInfo: { inputPrimitive: 3 } } }).map((v) => v.code), ['gs-input-primitive']);
  // the tessellation and mesh shapes read as before (no GS flag)
  assert.equal(Object.keys(linkageCase(linkageBytes(false, [{}, {}, {}, {}])).signatures), ['VS', 'HS', 'DS', 'PS']);
  assert.equal(Object.keys(linkageCase(linkageBytes(true, [{}, {}, {}])).signatures), ['AS', 'MS', 'PS']);
});

/**
 * Which public source fixes each rule (the rows' `source`, said here once more so that a change
 * of either is seen): D3D12's documentation of CreateGraphicsPipelineState and the structs it
 * takes; the D3D runtime's signature-linkage messages; DXC's signature-linkage and root-signature
 * rules; vkd3d's d3d12_pipeline_state_init_graphics (libs/vkd3d/state.c).
 */
const STREAM_OUTPUT_SOURCES = {
  'stream-output-repeated': 'd3d-runtime', // CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_REPEATEDOUTPUT (85); D3D11.3 functional spec 14.3 (RegisterMask)
  'stream-output-slot-streams': 'd3d12-docs', // D3D11.3 functional spec 13.5.1, 14.1: a buffer takes one stream
  'stream-output-only-gaps': 'd3d-runtime', // CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_CANTHAVEONLYGAPS (89)
  'stream-output-size': 'd3d12-docs', // D3D12_SO_OUTPUT_COMPONENT_COUNT, D3D12_SO_BUFFER_MAX_WRITE_WINDOW_IN_BYTES; functional spec 14.1
  'stream-output-num-strides': 'd3d-runtime', // CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDNUMSTRIDES (287)
  'stream-output-stride': 'd3d-runtime', // CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSTREAMSTRIDE (86); functional spec 14.3
  'stream-output-not-rasterized': 'd3d12-docs', // functional spec 14.3 (StreamToRasterizer), 15.2
  'gs-input-primitive': 'd3d-runtime', // CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH (681); functional spec 22.3.6
} satisfies Partial<Record<PipelineRuleCode, string>>;
const SOURCES: Record<PipelineRuleCode, string> = {
  ...STREAM_OUTPUT_SOURCES,
  'stages-mixed': 'd3d12-docs', // D3D12_GRAPHICS/COMPUTE_PIPELINE_STATE_DESC members; mesh pipelines: the mesh shader spec
  'vertex-shader-missing': 'd3d12-docs',
  'mesh-shader-missing': 'd3d12-docs',
  'compute-shader-missing': 'd3d12-docs',
  'shader-stage-mismatch': 'd3d12-docs',
  'root-signature-missing': 'vkd3d', // "Root signature is NULL."
  'root-signature-differs': 'd3d12-docs', // Specifying Root Signatures in HLSL
  'root-signature-local': 'd3d12-docs', // DirectX Raytracing: local root signatures
  binding: 'dxc', // DXC's root-signature verifier, per stage (src/binding/verify.ts)
  'input-layout-not-allowed': 'vkd3d',
  'input-element-format': 'vkd3d',
  'input-slot': 'vkd3d',
  'input-element-count': 'd3d12-docs',
  'patch-topology': 'vkd3d',
  'stream-output-not-allowed': 'vkd3d',
  'stream-output-entry': 'd3d12-docs', // D3D12_SO_DECLARATION_ENTRY
  'rtv-format-inactive': 'vkd3d',
  'render-target-count': 'd3d12-docs',
  'rtv-format': 'vkd3d',
  'dsv-format': 'vkd3d',
  'blend-and-logic-op': 'vkd3d',
  'logic-op-independent-blend': 'vkd3d',
  'dual-source-render-targets': 'vkd3d',
  'dual-source-blend-enable': 'vkd3d',
  'sample-count': 'd3d12-docs', // DXGI_SAMPLE_DESC
  'sample-quality': 'd3d12-docs',
  'forced-sample-count': 'd3d12-docs', // D3D12_RASTERIZER_DESC.ForcedSampleCount
  'input-layout-missing-element': 'd3d-runtime',
  'input-layout-type': 'd3d-runtime',
  'input-layout-components': 'd3d-runtime',
  'linkage-missing': 'd3d-runtime',
  'linkage-register': 'd3d-runtime',
  'linkage-mask': 'd3d-runtime',
  'linkage-system-value': 'dxc',
  'linkage-type': 'dxc',
  'ps-target-unbound': 'd3d12-docs',
  'ps-target-type': 'd3d12-docs',
  'depth-output-dsv': 'd3d12-docs',
  'stencil-output-dsv': 'd3d12-docs',
  'stream-output-signature': 'd3d12-docs',
  'hs-ds-pair': 'd3d-runtime', // D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH (d3d12sdklayers.h)
  'hs-ds-control-points': 'd3d-runtime', // ..._HS_DS_CONTROL_POINT_COUNT_MISMATCH
  'hs-ds-domain': 'd3d-runtime', // ..._HS_DS_TESSELLATOR_DOMAIN_MISMATCH
  'tess-factors': 'dxc', // DXC's validator: SmTessFactorForDomain, SmInsideTessFactorForDomain (rows, columns by domain)
  'patch-constant-missing': 'd3d-runtime', // ..._SHADER_LINKAGE_HS_DS_SIGNATURE_MISMATCH
  'patch-constant-register': 'd3d-runtime',
  'patch-constant-mask': 'd3d-runtime',
  'patch-constant-system-value': 'd3d-runtime',
  'patch-constant-type': 'dxc', // DXC's signature linkage compares component types, as linkage-type
  'payload-size': 'd3d-runtime', // D3D12_MESSAGE_ID_CREATEMESHSHADER_MISMATCHEDASMSPAYLOADSIZE; PSV0 PayloadSizeInBytes
};
test('each rule names the source that fixes it', () => {
  assert.equal(Object.fromEntries(PIPELINE_RULES.map(([code, , source]) => [code, source])), SOURCES);
});

// ---------------------------------------------------------------- shader records

test('shader record layout: identifier, then constants at 4, descriptors and tables at 8; stride a multiple of 32', () => {
  const lrs0 = shaderRecordLayout(readRootSignatureSource(corpus('rootsig/vkd3d-proton__local_root_signature_code_dxil__LRS0.rts0')).rootSignature);
  assert.is(lrs0.local, true);
  assert.equal(lrs0.fields.map((f) => [f.type, f.offset, f.size]), [['IDENTIFIER', 0, 32], ['UAV', 32, 8], ['32BIT_CONSTANTS', 40, 4], ['32BIT_CONSTANTS', 44, 4]]);
  assert.is(lrs0.recordSize, 48);
  assert.is(lrs0.stride, 64);
  const rs = { version: 2, flags: 0x80, staticSamplers: [], parameters: [
    { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 0, registerSpace: 0, num32BitValues: 3 } },
    { parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 1, registerSpace: 0, flags: 0 } },
    { parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff }] },
    { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 2, registerSpace: 0, num32BitValues: 1 } },
  ] } as never;
  const l = shaderRecordLayout(rs);
  // 32 + 12 = 44, the CBV's address aligned to 48, the table's handle at 56, one constant at 64
  assert.equal(l.fields.map((f) => f.offset), [0, 32, 48, 56, 64]);
  assert.is(l.recordSize, 68);
  assert.is(l.stride, 96);
  assert.is(recordSizeProblem(l, 96), undefined);
  assert.match(recordSizeProblem(l, 64)!, /less than the 68 bytes/);
  assert.match(recordSizeProblem(l, 80)!, /multiple of D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT/);
  assert.match(recordSizeProblem(l, 4128)!, /exceeds D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE/);
  const big = shaderRecordLayout({ ...(rs as object), parameters: [{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 0, registerSpace: 0, num32BitValues: 1020 } }] } as never);
  assert.is(big.stride, 4128);
  assert.is(big.fitsMaxStride, false);
});

// ---------------------------------------------------------------- the CLI

test('CLI: verify --pipeline exit 0 for a fitting pipeline, 1 with the violations; rootsig record-layout; verify LIB --record-size; pipeline encode/decode', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-pipeline-'));
  try {
    const good = join(dir, 'good.json');
    const rel = (p: string) => join(ROOT, 'corpus', p);
    writeFileSync(good, JSON.stringify({ ...BASIC, VS: rel(BASIC.VS), PS: rel(BASIC.PS) }));
    writeFileSync(join(dir, 'rs.rts0'), corpus(NO_IA_RS));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...BASIC, VS: rel(BASIC.VS), PS: rel(BASIC.PS), pRootSignature: 'rs.rts0' }));
    const ok = await runCli(['verify', '--pipeline', good]);
    assert.is(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /graphics pipeline fits \(VS, PS; root signature from VS/);
    const no = await runCli(['verify', '--pipeline', bad, '--json']);
    assert.is(no.code, 1);
    const j = JSON.parse(no.stdout.trim());
    assert.is(j.verdict, 'does-not-fit');
    assert.ok(j.violations.some((v: { code: string }) => v.code === 'input-layout-not-allowed'));
    const missing = await runCli(['verify', '--pipeline', join(dir, 'nope.json')]);
    assert.is(missing.code, 1);
    const layout = await runCli(['rootsig', 'record-layout', rel('rootsig/vkd3d-proton__local_root_signature_code_dxil__LRS0.rts0')]);
    assert.is(layout.code, 0, layout.stderr);
    assert.match(layout.stdout, /shader record of 48 bytes, table stride 64/);
    assert.match(layout.stdout, /\s32\s+8\s+RTS0\.parameters\[0\] UAV: D3D12_GPU_VIRTUAL_ADDRESS \(u0 space 1\)/);
    const lib = rel('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil');
    assert.is((await runCli(['verify', lib, '--record-size', '64'])).code, 0);
    const small = await runCli(['verify', lib, '--record-size', '32']);
    assert.is(small.code, 1);
    assert.match(small.stdout, /LRS0: records need 48 bytes \(stride 64\); 32 does not fit/);
    assert.is((await runCli(['verify', lib, '--record-size', 'x'])).code, 2);
    // pipeline encode (a description) -> decode (the stream's JSON form) -> encode gives the same image
    const image = join(dir, 'stream.bin');
    const enc = await runCli(['pipeline', 'encode', good, '--abi', 'x86', '-o', image]);
    assert.is(enc.code, 0, enc.stderr);
    const dec = await runCli(['pipeline', 'decode', image, '--abi', 'x86']);
    assert.is(dec.code, 0, dec.stderr);
    assert.equal(JSON.parse(dec.stdout).map((s: { Type: string }) => s.Type), ['VS', 'PS', 'INPUT_LAYOUT', 'PRIMITIVE_TOPOLOGY', 'RENDER_TARGET_FORMATS', 'DEPTH_STENCIL_FORMAT']);
    writeFileSync(join(dir, 'stream.json'), dec.stdout);
    assert.is((await runCli(['pipeline', 'encode', join(dir, 'stream.json'), '--abi', 'x86', '-o', join(dir, 'again.bin')])).code, 0);
    assert.equal(readFileSync(join(dir, 'again.bin')), readFileSync(image));
    assert.is((await runCli(['pipeline', 'decode', image, '--abi', 'x64'])).code, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
