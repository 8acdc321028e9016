/**
 * Whole-pipeline verification against vkd3d's CreateGraphicsPipelineState (libvkd3d 1.2 on Mesa's
 * lavapipe, through test/native/vkd3d-pipeline.c): DirectXTK's DXBC vertex and pixel shaders with
 * their own root signatures, vkd3d's DXBC tessellation and geometry shaders, stream output from
 * the vertex, domain and geometry shader (VK_EXT_transform_feedback, which lavapipe has), and
 * mutations of them. Both sides see the same pipeline: the harness request is made from the
 * subobject values dxbin decoded the description into.
 *
 * Each case names the rule and the source that fixes it (codecs/pipeline-rules.ts). Where vkd3d
 * checks the same rule the verdicts must agree. Where vkd3d 1.2 does not check it (it ignores root
 * signature DENY flags, makes up a binding a shader needs when the root signature has no
 * descriptors at all, does not match the input layout against the vertex shader's inputs nor any
 * stage's outputs against the next one's inputs, takes any format it has a Vulkan format for, does
 * not pair hull and domain shaders: their presence, control point counts, domains; compiles a
 * shader of another stage into the GS slot; and checks no stream-output entry: it decorates the
 * outputs an entry names and skips the rest) the case records the disagreement as expected: dxbin
 * refuses, vkd3d creates the pipeline. Should vkd3d start refusing one, the test fails and the
 * case moves to the agreeing ones. vkd3d 1.2 reads no DXIL, so a DXIL stage is refused whatever
 * dxbin says (recorded once); a case where both fit but the D3D12 runtime's debug layer refuses
 * names the message (a rule dxbin lacks); a case where dxbin's refusal itself is in doubt says
 * why. Mesh pipelines cannot be made here (vkd3d 1.2 has no ID3D12Device2, lavapipe no
 * VK_EXT_mesh_shader): one test asserts that, to fail when it stops being so.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pipelineFromJson, pipelineValue, type Pipeline } from '../src/pipeline/desc.js';
import { verifyPipeline } from '../src/pipeline/verify.js';
import { encodeRootSignature, readRootSignatureSource, rootSignatureContainer } from '../src/index.js';
import type { PipelineRuleCode, PipelineRuleSource } from '../codecs/pipeline-rules.js';
import { ROOT } from './helpers/corpus.js';
import { requires } from './helpers/requires.js';
import { vkd3dCreatePipelines, vkd3dPipelineMissing, vkd3dVulkanInfo, type HarnessPipeline } from './helpers/vkd3d-pipeline.js';

const t = requires('libvkd3d with a Vulkan device (libvkd3d-dev, libvulkan-dev, mesa-vulkan-drivers)', vkd3dPipelineMissing());

const corpusFile = (p: string) => new Uint8Array(readFileSync(join(ROOT, 'corpus', p)));
const DXTK = 'shaders/dxtk12';

/** Root signatures made in the test from DirectXTK's BasicEffect one (decoded and encoded by dxbin; vkd3d parses them itself). */
const BASIC_RS = readRootSignatureSource(corpusFile('rootsig/dxtk12__BasicEffect_PSBasic.rts0')).rootSignature;
const withFlags = (flags: number) => encodeRootSignature({ ...BASIC_RS, flags } as never);
const MADE: Record<string, Uint8Array> = {
  // D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS (0x20) on a root signature whose parameters the pixel shader uses
  'made/deny-pixel.rts0': withFlags(BASIC_RS.flags | 0x20),
  // without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT (0x1)
  'made/no-ia.rts0': withFlags(BASIC_RS.flags & ~1),
};
// vkd3d's empty root signature with the flags its stream-output tests ask for (test_line_tessellation, test_vertex_id)
const EMPTY_RS = readRootSignatureSource(corpusFile('rootsig/vkd3d__empty_rootsig.dxbc')).rootSignature;
// D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT (0x1) | D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT (0x40)
MADE['made/ia-so.rts0'] = encodeRootSignature({ ...EMPTY_RS, flags: EMPTY_RS.flags | 0x1 | 0x40 } as never);
// vkd3d's test_clip_distance root signature (tests/d3d12.c at the corpus commit): a root CBV b0 for each of the vertex,
// hull, domain and geometry shaders, ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
const cbv = (shaderVisibility: number) => ({ parameterType: 2, shaderVisibility, descriptor: { shaderRegister: 0, registerSpace: 0, flags: 0 } });
const clipRs = (gsVisibility: number, flags = 0x1) => encodeRootSignature({ version: 1, flags, parameters: [cbv(1), cbv(2), cbv(3), cbv(gsVisibility)], staticSamplers: [] } as never);
MADE['made/clip-distance.rts0'] = clipRs(4); // D3D12_SHADER_VISIBILITY_GEOMETRY
MADE['made/clip-distance-pixel.rts0'] = clipRs(5); // the geometry shader's b0 given to D3D12_SHADER_VISIBILITY_PIXEL instead
MADE['made/clip-distance-deny-gs.rts0'] = clipRs(4, 0x1 | 0x10); // and D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS
const read = (p: string) => MADE[p] ?? corpusFile(p);

const BASIC = {
  VS: `${DXTK}/BasicEffect_VSBasic.dxbc`,
  PS: `${DXTK}/BasicEffect_PSBasic.dxbc`,
  InputLayout: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }],
  PrimitiveTopologyType: 'TRIANGLE',
  RTVFormats: ['R8G8B8A8_UNORM'],
  DSVFormat: 'D32_FLOAT',
};
const TEXCOORD = (index: number, offset: number) => ({ SemanticName: 'TEXCOORD', SemanticIndex: index, Format: 'R32G32_FLOAT', AlignedByteOffset: offset });
const ALPHA_TEST = { ...BASIC, VS: `${DXTK}/AlphaTestEffect_VSAlphaTest.dxbc`, PS: `${DXTK}/AlphaTestEffect_PSAlphaTestEqNe.dxbc`, InputLayout: [BASIC.InputLayout[0], TEXCOORD(0, 12)] };
const DUAL = { ...BASIC, VS: `${DXTK}/DualTextureEffect_VSDualTexture.dxbc`, PS: `${DXTK}/DualTextureEffect_PSDualTexture.dxbc`, InputLayout: [BASIC.InputLayout[0], TEXCOORD(0, 12), TEXCOORD(1, 20)] };

const V24 = 'shaders/vkd3d-2024';
const VKD3D = 'shaders/vkd3d';
const PROTON = 'shaders/vkd3d-proton';
/** vkd3d's line tessellation vertex shader and the input layout of its test (positions, colours, the two factors per vertex). */
const LINE_VS = {
  pRootSignature: 'rootsig/vkd3d__ia_rootsig.dxbc',
  VS: `${VKD3D}/d3d12__test_line_tessellation__vs_code.dxbc`,
  InputLayout: [
    { SemanticName: 'SV_Position', Format: 'R32G32B32A32_FLOAT' },
    { SemanticName: 'COLOR', Format: 'R32G32B32_FLOAT', AlignedByteOffset: 16 },
    { SemanticName: 'LINE_DENSITY', Format: 'R32_FLOAT', AlignedByteOffset: 28 },
    { SemanticName: 'LINE_DETAIL', Format: 'R32_FLOAT', AlignedByteOffset: 32 },
  ],
};
const NOP_TESS = {
  pRootSignature: 'rootsig/vkd3d__empty_rootsig.dxbc',
  VS: `${V24}/d3d12__test_nop_tessellation_shaders__vs_code.dxbc`,
  HS: `${V24}/d3d12__test_nop_tessellation_shaders__hs_code.dxbc`,
  DS: `${V24}/d3d12__test_nop_tessellation_shaders__ds_code.dxbc`,
  PS: `${V24}/d3d12__test_nop_tessellation_shaders__ps_code.dxbc`,
  PrimitiveTopologyType: 'PATCH',
  RTVFormats: ['R8G8B8A8_UNORM'],
};
const LINE_TESS = { ...NOP_TESS, ...LINE_VS };

/** vkd3d's test_layered_rendering: VS, GS (SV_RenderTargetArrayIndex from the vertex's LAYER) and PS, its input layout. */
const LAYERED = {
  pRootSignature: 'rootsig/vkd3d__ia_rootsig.dxbc',
  VS: `${VKD3D}/d3d12__test_layered_rendering__vs_code.dxbc`,
  GS: `${VKD3D}/d3d12__test_layered_rendering__gs_code.dxbc`,
  PS: `${VKD3D}/d3d12__test_layered_rendering__ps_code.dxbc`,
  InputLayout: [
    { SemanticName: 'COLOR', Format: 'R8G8B8A8_UNORM' },
    { SemanticName: 'SV_POSITION', Format: 'R32G32B32A32_FLOAT', AlignedByteOffset: 4 },
    { SemanticName: 'LAYER', Format: 'R32_UINT', AlignedByteOffset: 20 },
  ],
  PrimitiveTopologyType: 'TRIANGLE',
  RTVFormats: ['R8G8B8A8_UNORM'],
};
/** vkd3d's test_ps_layer: a point-list GS between a VS of SV_VertexID and a PS reading SV_RenderTargetArrayIndex; the empty root signature, no input layout. */
const PS_LAYER = {
  pRootSignature: 'rootsig/vkd3d__empty_rootsig.dxbc',
  VS: `${VKD3D}/d3d12__test_ps_layer__vs_code.dxbc`,
  GS: `${VKD3D}/d3d12__test_ps_layer__gs_code.dxbc`,
  PS: `${VKD3D}/d3d12__test_ps_layer__ps_code.dxbc`,
  PrimitiveTopologyType: 'POINT',
  RTVFormats: ['R8G8B8A8_UNORM'],
};
/** vkd3d's test_clip_distance with its geometry shader: VS and GS reading a root CBV each, positions and clip distances from two slots, no PS. */
const CLIP = {
  pRootSignature: 'made/clip-distance.rts0',
  VS: `${VKD3D}/d3d12__test_clip_distance__vs_code.dxbc`,
  GS: `${VKD3D}/d3d12__test_clip_distance__gs_code.dxbc`,
  InputLayout: [
    { SemanticName: 'POSITION', Format: 'R32G32_FLOAT' },
    { SemanticName: 'CLIP_DISTANCE', Format: 'R32_FLOAT', InputSlot: 1 },
    { SemanticName: 'CLIP_DISTANCE', SemanticIndex: 1, Format: 'R32_FLOAT', InputSlot: 1, AlignedByteOffset: 4 },
  ],
  PrimitiveTopologyType: 'TRIANGLE',
  RTVFormats: ['R8G8B8A8_UNORM'],
};
/** D3D12_SO_NO_RASTERIZED_STREAM */
const NO_RASTERIZED = 0xffffffff;
const SO = (SemanticName: string, more: Record<string, unknown> = {}) => ({ SemanticName, ComponentCount: 4, ...more });
/** vkd3d-proton's stream-output vertex shader (SV_VertexID in, SV_Position out) alone, as vkd3d's test_vertex_id streams out: no PS, nothing rasterized. */
const SO_VS = {
  pRootSignature: 'made/ia-so.rts0',
  VS: `${PROTON}/d3d12_streamout__vs_code.dxbc`,
  PrimitiveTopologyType: 'POINT',
  StreamOutput: { pSODeclaration: [SO('SV_Position')], pBufferStrides: [16], RasterizedStream: NO_RASTERIZED },
};
/** vkd3d's test_line_tessellation as it runs: VS, HS, DS streaming out the domain shader's three outputs, no PS. */
const SO_LINE_TESS = {
  ...without(LINE_TESS, 'PS'),
  pRootSignature: 'made/ia-so.rts0',
  HS: `${VKD3D}/d3d12__test_line_tessellation__hs_code.dxbc`,
  DS: `${VKD3D}/d3d12__test_line_tessellation__ds_code.dxbc`,
  RTVFormats: [],
  StreamOutput: { pSODeclaration: [SO('SV_POSITION'), SO('COLOR'), SO('PRIMITIVE_ID')], pBufferStrides: [48], RasterizedStream: NO_RASTERIZED },
};
/** The layered-rendering pipeline streaming out its geometry shader's colour and position (and rasterizing stream 0). */
const SO_LAYERED = { ...LAYERED, pRootSignature: 'made/ia-so.rts0', StreamOutput: { pSODeclaration: [SO('COLOR'), SO('SV_Position')], pBufferStrides: [32] } };
const soWith = (base: Record<string, unknown>, entries: Record<string, unknown>[], more: Record<string, unknown> = {}) => ({
  ...base,
  StreamOutput: { ...(base.StreamOutput as Record<string, unknown>), pSODeclaration: entries, ...more },
});

/** The description without the given keys (no such stage). */
function without(json: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const out = { ...json };
  for (const k of keys) delete out[k];
  return out;
}

interface Case {
  name: string;
  json: Record<string, unknown>;
  /** A change no pipeline description can spell (the JSON form refuses it), made on the subobjects. */
  mutate?: (p: Pipeline) => void;
  /** dxbin's error codes (none: the pipeline fits; warnings are not errors). */
  dxbin: PipelineRuleCode[];
  /**
   * Whether vkd3d 1.2 checks the rule: agree, or is more lenient (an expected disagreement), or
   * cannot read the shader at all (`no-dxil`: vkd3d 1.2 has no DXIL front end and refuses, whatever
   * dxbin says; recorded so the DXIL geometry shaders are seen to go unchecked).
   */
  vkd3d: 'agrees' | 'more-lenient' | 'no-dxil';
  /**
   * Where both agree and the D3D12 runtime (the debug layer's message, d3d12sdklayers.h) would
   * still refuse: a rule dxbin does not have yet. The case asserts today's verdicts, so that
   * gaining the rule makes it fail and move.
   */
  runtimeRefuses?: string;
  /**
   * Where dxbin refuses for a reason this test doubts (no source says the runtime refuses it
   * either): recorded as a disagreement, with the doubt, and reported rather than mended.
   */
  dxbinDoubt?: string;
  /** The case needs stream output on the Vulkan device (VK_EXT_transform_feedback): else vkd3d answers E_NOTIMPL. */
  transformFeedback?: boolean;
  /** The source that fixes the rule (the row's `source`), and where vkd3d stands. */
  source: PipelineRuleSource | 'both fit';
  why: string;
}

const CASES: Case[] = [
  // the corpus: DirectXTK's pipelines fit on both sides
  { name: 'BasicEffect VS + PS, their own root signature', json: BASIC, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'DirectXTK draws with it' },
  { name: 'BasicEffect VS + PS, the effect\'s RTS0 as pRootSignature', json: { ...BASIC, pRootSignature: 'rootsig/dxtk12__BasicEffect_PSBasic.rts0' }, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'DirectXTK draws with it' },
  { name: 'BasicEffect (no fog) VS + PS', json: { ...BASIC, VS: `${DXTK}/BasicEffect_VSBasicNoFog.dxbc`, PS: `${DXTK}/BasicEffect_PSBasicNoFog.dxbc` }, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'DirectXTK draws with it' },
  { name: 'AlphaTestEffect VS + PS', json: ALPHA_TEST, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'DirectXTK draws with it' },
  { name: 'DualTextureEffect VS + PS', json: DUAL, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'DirectXTK draws with it' },
  { name: 'BasicEffect with no render target: the pixel shader\'s SV_Target0 is discarded (a warning)', json: { ...BASIC, RTVFormats: [] }, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'D3D12 allows a pixel shader output without a render target (ps-target-unbound warns)' },
  // wrong render target state: vkd3d's d3d12_pipeline_state_init_graphics checks these
  {
    name: 'a format set past NumRenderTargets',
    json: BASIC,
    mutate: (p) => {
      p.subobjects.find((s) => s.type === 'RENDER_TARGET_FORMATS')!.inner = { RTFormats: [28, 28, 0, 0, 0, 0, 0, 0], NumRenderTargets: 1 } as never;
    },
    dxbin: ['rtv-format-inactive'],
    vkd3d: 'agrees',
    source: 'vkd3d',
    why: '"Format must be set to DXGI_FORMAT_UNKNOWN for inactive render targets."',
  },
  {
    name: 'NumRenderTargets 9',
    json: BASIC,
    mutate: (p) => {
      p.subobjects.find((s) => s.type === 'RENDER_TARGET_FORMATS')!.inner = { RTFormats: [28, 28, 28, 28, 28, 28, 28, 28], NumRenderTargets: 9 } as never;
    },
    dxbin: ['render-target-count'],
    vkd3d: 'more-lenient',
    source: 'd3d12-docs',
    why: 'D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT is 8; vkd3d 1.2 creates the pipeline (it uses the 8 formats there are)',
  },
  // formats: vkd3d 1.2 refuses a format it has no Vulkan format for (its "Invalid ... format" messages); that a
  // format has no render-target, depth or vertex-buffer use is D3D12's format support, which vkd3d 1.2 does not consult
  { name: 'a render target format vkd3d has no Vulkan format for (R1_UNORM)', json: { ...BASIC, RTVFormats: ['R1_UNORM'] }, dxbin: ['rtv-format'], vkd3d: 'agrees', source: 'vkd3d', why: 'vkd3d: "Invalid RTV format"' },
  { name: 'a DSV format vkd3d has no Vulkan format for (R1_UNORM)', json: { ...BASIC, DSVFormat: 'R1_UNORM' }, dxbin: ['dsv-format'], vkd3d: 'agrees', source: 'vkd3d', why: 'vkd3d: "Invalid DSV format"' },
  { name: 'an input element format vkd3d has no Vulkan format for (R1_UNORM)', json: { ...BASIC, InputLayout: [{ SemanticName: 'SV_Position', Format: 'R1_UNORM' }] }, dxbin: ['input-element-format'], vkd3d: 'agrees', source: 'vkd3d', why: 'vkd3d: "Invalid input element format"' },
  { name: 'a depth format as a render target format', json: { ...BASIC, RTVFormats: ['D32_FLOAT'] }, dxbin: ['rtv-format'], vkd3d: 'more-lenient', source: 'vkd3d', why: 'D32_FLOAT has a Vulkan format, so vkd3d 1.2 takes it; D3D12\'s format support gives it no render-target use' },
  { name: 'a colour format as DSVFormat', json: { ...BASIC, DSVFormat: 'R8G8B8A8_UNORM' }, dxbin: ['dsv-format'], vkd3d: 'more-lenient', source: 'vkd3d', why: 'R8G8B8A8_UNORM has a Vulkan format, so vkd3d 1.2 takes it; it is no depth-stencil format' },
  // the input assembler
  { name: 'an input layout without ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', json: { ...BASIC, pRootSignature: 'made/no-ia.rts0' }, dxbin: ['input-layout-not-allowed'], vkd3d: 'agrees', source: 'vkd3d', why: 'vkd3d: "Input layout is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT."' },
  { name: 'a block-compressed input element format', json: { ...BASIC, InputLayout: [{ SemanticName: 'SV_Position', Format: 'BC1_UNORM' }] }, dxbin: ['input-element-format'], vkd3d: 'more-lenient', source: 'vkd3d', why: 'BC1_UNORM has a Vulkan format, so vkd3d 1.2 takes it; D3D12\'s format support gives it no vertex-buffer use' },
  {
    name: 'an input element missing (AlphaTest without TEXCOORD0)',
    json: { ...ALPHA_TEST, InputLayout: [BASIC.InputLayout[0]] },
    dxbin: ['input-layout-missing-element'],
    vkd3d: 'more-lenient',
    source: 'd3d-runtime',
    why: 'the D3D runtime\'s "Vertex Shader - Input Assembler linkage error"; vkd3d 1.2 maps only the elements given (an unread element is a warning there) and does not look for the vertex shader\'s inputs',
  },
  // the root signature against the stages' bindings (DXC's root-signature verifier per stage)
  {
    name: 'a root signature missing the bindings (RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT) only)',
    json: { ...BASIC, pRootSignature: 'rootsig/vkd3d__ia_rootsig.dxbc' },
    dxbin: ['binding'],
    vkd3d: 'more-lenient',
    source: 'dxc',
    why: 'DXC: a resource the shader uses must be bound by the root signature; vkd3d-shader 1.2 refuses a missing binding only when the root signature has descriptors (see the geometry shader\'s CBV below): for one without any it makes up a binding and creates the pipeline',
  },
  {
    name: 'DENY_PIXEL_SHADER_ROOT_ACCESS while the pixel shader uses the root signature',
    json: { ...BASIC, pRootSignature: 'made/deny-pixel.rts0' },
    dxbin: ['binding'],
    vkd3d: 'more-lenient',
    source: 'dxc',
    why: 'DXC: a denied stage may not use root parameters; vkd3d 1.2 ignores the root signature flags it does not implement ("Ignoring root signature flags")',
  },
  // tessellation (DXBC hull and domain shaders of vkd3d's and vkd3d-proton's tests)
  { name: 'vkd3d\'s nop tessellation pipeline (VS, HS, DS, PS) with the empty root signature', json: NOP_TESS, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'vkd3d\'s test_nop_tessellation_shaders draws with it' },
  { name: 'hull and domain shaders with the TRIANGLE topology type', json: { ...NOP_TESS, PrimitiveTopologyType: 'TRIANGLE' }, dxbin: ['patch-topology'], vkd3d: 'agrees', source: 'vkd3d', why: 'vkd3d: "D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH must be used with tessellation shaders."' },
  { name: 'a hull shader without a domain shader', json: without(NOP_TESS, 'DS'), dxbin: ['hs-ds-pair'], vkd3d: 'more-lenient', source: 'd3d-runtime', why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH; vkd3d 1.2 creates the pipeline' },
  { name: 'a domain shader without a hull shader', json: without(NOP_TESS, 'HS'), dxbin: ['hs-ds-pair'], vkd3d: 'more-lenient', source: 'd3d-runtime', why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH; vkd3d 1.2 creates the pipeline' },
  {
    name: 'a hull shader outputting 1 control point before a domain shader taking 4 (isoline)',
    json: without({ ...LINE_TESS, HS: `${VKD3D}/d3d12__test_line_tessellation__hs_code.dxbc`, DS: `${PROTON}/ds_topology_line_code_dxbc.dxbc` }, 'PS'),
    dxbin: ['hs-ds-control-points'], vkd3d: 'more-lenient', source: 'd3d-runtime', why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_HS_DS_CONTROL_POINT_COUNT_MISMATCH; vkd3d 1.2 creates the pipeline',
  },
  {
    name: 'an isoline hull shader before a quad domain shader (4 control points each)',
    json: without({ ...LINE_TESS, HS: `${PROTON}/hs_topology_line_code_dxbc.dxbc`, DS: `${VKD3D}/d3d12__test_tessellation_dcl_index_range__ds_code.dxbc` }, 'PS'),
    dxbin: ['hs-ds-domain'], vkd3d: 'more-lenient', source: 'd3d-runtime', why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_HS_DS_TESSELLATOR_DOMAIN_MISMATCH; vkd3d 1.2 creates the pipeline',
  },
  // geometry shaders (DXBC ones of vkd3d's tests; vkd3d 1.2 compiles them to SPIR-V when the pipeline is created)
  { name: 'vkd3d\'s layered rendering pipeline (VS, GS writing SV_RenderTargetArrayIndex, PS)', json: LAYERED, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'vkd3d\'s test_layered_rendering draws with it' },
  { name: 'vkd3d\'s ps_layer pipeline (point-list GS, PS reading SV_RenderTargetArrayIndex), the empty root signature', json: PS_LAYER, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'vkd3d\'s test_ps_layer draws with it' },
  { name: 'vkd3d\'s clip-distance VS and GS (a root CBV each), no PS', json: CLIP, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'vkd3d 1.2\'s test_clip_distance draws with them' },
  { name: 'vkd3d\'s clip-distance pipeline with tessellation before the geometry shader (VS, HS, DS, GS)', json: { ...CLIP, HS: `${VKD3D}/d3d12__test_clip_distance__hs_code.dxbc`, DS: `${VKD3D}/d3d12__test_clip_distance__ds_code.dxbc`, PrimitiveTopologyType: 'PATCH' }, dxbin: [], vkd3d: 'agrees', source: 'both fit', why: 'vkd3d\'s test_clip_distance draws with it' },
  {
    name: 'the geometry shader\'s root CBV b0 visible to the pixel shader only',
    json: { ...CLIP, pRootSignature: 'made/clip-distance-pixel.rts0' },
    dxbin: ['binding'],
    vkd3d: 'agrees',
    source: 'dxc',
    why: 'DXC: a resource the geometry shader uses must be bound by a parameter visible to it; vkd3d-shader 1.2: "Could not find descriptor binding for type 0x2, space 0, register 0, shader type 0x2" (E_FAIL), as the root signature has descriptors, none for the GS',
  },
  {
    name: 'DENY_GEOMETRY_SHADER_ROOT_ACCESS while the geometry shader reads a root CBV',
    json: { ...CLIP, pRootSignature: 'made/clip-distance-deny-gs.rts0' },
    dxbin: ['binding'],
    vkd3d: 'more-lenient',
    source: 'dxc',
    why: 'DXC: a denied stage may not use root parameters; vkd3d 1.2 ignores the root signature flags it does not implement ("Ignoring root signature flags")',
  },
  {
    name: 'a geometry shader reading inputs the vertex shader does not write (vkd3d-proton\'s gs_mismatch_ref after the layered VS; its SV_POSITION is in v0, the VS writes o1)',
    json: without({ ...LAYERED, GS: `${PROTON}/gs_mismatch_ref_code_dxbc.dxbc` }, 'PS'),
    dxbin: ['linkage-register', 'linkage-missing'],
    vkd3d: 'more-lenient',
    source: 'd3d-runtime',
    why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND; vkd3d 1.2 compiles each stage on its own and does not compare signatures',
  },
  {
    name: 'a pixel shader reading SV_Position and SV_RenderTargetArrayIndex in other registers than the geometry shader writes them (layered GS, ps_layer PS)',
    json: { ...LAYERED, PS: PS_LAYER.PS },
    dxbin: ['linkage-register'],
    vkd3d: 'more-lenient',
    source: 'd3d-runtime',
    why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_SHADER_LINKAGE_REGISTERINDEX; vkd3d 1.2 does not compare signatures',
  },
  {
    name: 'a vertex shader in the GS slot',
    json: { ...LAYERED, GS: LAYERED.VS },
    // and the linkage that follows: the VS's inputs (no system values) read as the GS's
    dxbin: ['shader-stage-mismatch', 'linkage-system-value'],
    vkd3d: 'more-lenient',
    source: 'd3d12-docs',
    why: 'D3D12_GRAPHICS_PIPELINE_STATE_DESC.GS takes a geometry shader; vkd3d 1.2 compiles the bytecode with its own (vertex) execution model and makes a VkShaderModule of it for the geometry stage, which no one checks until a draw',
  },
  {
    name: 'a point-list geometry shader with the TRIANGLE topology type (ps_layer)',
    json: { ...PS_LAYER, PrimitiveTopologyType: 'TRIANGLE' },
    dxbin: ['gs-input-primitive'],
    vkd3d: 'more-lenient',
    source: 'd3d-runtime',
    why: 'the runtime\'s CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH (681): the GS\'s dcl_inputprimitive point does not take triangles; vkd3d 1.2 passes the topology type to Vulkan only at draw time',
  },
  {
    name: 'vkd3d\'s clip-distance pipeline with tessellation before a point-list geometry shader (ps_layer\'s GS after triangles of the quad domain)',
    json: { ...CLIP, HS: `${VKD3D}/d3d12__test_clip_distance__hs_code.dxbc`, DS: `${VKD3D}/d3d12__test_clip_distance__ds_code.dxbc`, GS: PS_LAYER.GS, PrimitiveTopologyType: 'PATCH' },
    // and the GS's inputs, which the domain shader does not write
    dxbin: ['linkage-missing', 'gs-input-primitive'],
    vkd3d: 'more-lenient',
    source: 'd3d-runtime',
    why: 'GS_INPUT_PRIMITIVE_MISMATCH: with tessellation the GS takes the tessellator\'s output primitive (dcl_tessellator_output_primitive triangle_cw here; the functional spec 22.3.6 and 8.15); vkd3d 1.2 compiles each stage on its own',
  },
  {
    name: 'vkd3d-proton\'s DXIL geometry shader of the same layered-rendering test between the DXBC VS and PS',
    json: { ...LAYERED, GS: `${PROTON}/d3d12_geometry_shader__test_layered_rendering__gs_code_dxil.dxil` },
    dxbin: [],
    vkd3d: 'no-dxil',
    source: 'both fit',
    why: 'dxbin reads its ISG1/OSG1 and finds the linkage whole; vkd3d 1.2 reads DXBC only (vkd3d_shader_scan of a DXIL container fails) and refuses, so no DXIL stage is checked against vkd3d here',
  },
  // stream output (vkd3d's and vkd3d-proton's stream-output pipelines, then the shapes verify.ts refuses)
  { name: 'stream output from a vertex shader alone (SV_Position, stride 16, D3D12_SO_NO_RASTERIZED_STREAM)', json: SO_VS, dxbin: [], vkd3d: 'agrees', transformFeedback: true, source: 'both fit', why: 'vkd3d\'s stream-output tests (test_vertex_id) create it' },
  { name: 'stream output from a domain shader (vkd3d\'s test_line_tessellation: SV_POSITION, COLOR, PRIMITIVE_ID, stride 48)', json: SO_LINE_TESS, dxbin: [], vkd3d: 'agrees', transformFeedback: true, source: 'both fit', why: 'vkd3d\'s test_line_tessellation streams it out' },
  { name: 'stream output from a geometry shader (layered rendering: COLOR and SV_Position of stream 0, rasterized)', json: SO_LAYERED, dxbin: [], vkd3d: 'agrees', transformFeedback: true, source: 'both fit', why: 'stream output of the last stage before the rasterizer, which is the GS' },
  {
    name: 'stream output without ALLOW_STREAM_OUTPUT (the empty root signature)',
    json: { ...SO_VS, pRootSignature: 'rootsig/vkd3d__empty_rootsig.dxbc' },
    dxbin: ['stream-output-not-allowed'],
    vkd3d: 'agrees',
    source: 'vkd3d',
    why: 'vkd3d: "Stream output is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT." (its test_create_graphics_pipeline_state asks the same)',
  },
  {
    name: 'stream output with a root signature of ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT only, after a geometry shader',
    json: { ...SO_LAYERED, pRootSignature: 'rootsig/vkd3d__ia_rootsig.dxbc' },
    dxbin: ['stream-output-not-allowed'],
    vkd3d: 'agrees',
    source: 'vkd3d',
    why: 'vkd3d: "Stream output is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT."',
  },
  {
    name: 'a stream-output entry with OutputSlot 4',
    json: soWith(SO_VS, [SO('SV_Position', { OutputSlot: 4 })]),
    dxbin: ['stream-output-entry'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'D3D12_SO_DECLARATION_ENTRY.OutputSlot is 0..3 (D3D12_SO_BUFFER_SLOT_COUNT; the runtime\'s CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSLOT); vkd3d 1.2 writes it as the SPIR-V XfbBuffer decoration unchecked',
  },
  {
    name: 'a stream-output entry of Stream 4',
    json: soWith(SO_LAYERED, [SO('COLOR', { Stream: 4 })]),
    // and, as the GS has no stream 4, the entry names no output of it
    dxbin: ['stream-output-entry', 'stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'Stream is 0..3 (D3D12_SO_STREAM_COUNT; CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAM); vkd3d 1.2 matches entries to outputs by stream and name and skips one that matches nothing',
  },
  {
    name: 'a stream-output entry of Stream 1 from a vertex shader alone',
    json: soWith(SO_VS, [SO('SV_Position', { Stream: 1 })]),
    // and, as the vertex shader has stream 0 only, the entry names no output of it
    dxbin: ['stream-output-entry', 'stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'only a geometry shader makes streams 1..3 (the D3D11.3 functional spec 14.1, 14.3: without one, a declaration for stream 0 only); vkd3d 1.2 matches the entry to no output and skips it',
  },
  {
    name: 'a stream-output entry of components 1..4 (StartComponent 1, ComponentCount 4)',
    json: soWith(SO_VS, [SO('SV_Position', { StartComponent: 1 })]),
    dxbin: ['stream-output-entry'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'StartComponent + ComponentCount is at most 4 (CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTARTCOMPONENTANDCOMPONENTCOUNT); vkd3d 1.2 says "Unhandled component range" and leaves the output out of the stream',
  },
  {
    name: 'a stream-output entry of ComponentCount 0',
    json: soWith(SO_VS, [SO('SV_Position', { ComponentCount: 0 })]),
    dxbin: ['stream-output-entry'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'ComponentCount is 1..4 (CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDCOMPONENTCOUNT); vkd3d 1.2 decorates the output with a zero-sized place',
  },
  {
    name: 'RasterizedStream 4 (neither a stream nor D3D12_SO_NO_RASTERIZED_STREAM)',
    json: soWith(SO_LAYERED, SO_LAYERED.StreamOutput.pSODeclaration, { RasterizedStream: 4 }),
    // and the pixel shader's inputs, looked for in stream 4, are not there
    dxbin: ['stream-output-entry', 'linkage-missing'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'RasterizedStream is 0..3 or D3D12_SO_NO_RASTERIZED_STREAM (CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAMTORASTERIZER); vkd3d 1.2 passes a nonzero stream to VK_EXT_transform_feedback\'s rasterization stream select, and on a device without that feature (lavapipe) says "Rasterization stream select is not supported" and rasterizes stream 0',
  },
  // the entries against the last stage before the rasterizer (the signature rules)
  {
    name: 'a stream-output entry naming an output the vertex shader does not have (COLOR)',
    json: soWith(SO_VS, [SO('SV_Position'), SO('COLOR')], { pBufferStrides: [32] }),
    dxbin: ['stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'an entry names an output of the stage (CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_MISSINGSEMANTIC); vkd3d 1.2 decorates the outputs that match an entry and skips entries that match none',
  },
  {
    name: 'a stream-output entry naming the vertex shader\'s LAYER while a geometry shader follows it',
    json: soWith(SO_LAYERED, [SO('LAYER', { ComponentCount: 1 })]),
    dxbin: ['stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'stream output takes the last stage before the rasterizer (the GS, which writes SV_RenderTargetArrayIndex, not LAYER); vkd3d 1.2 gives the entries to the GS only, as D3D12 does, and skips the one that matches nothing',
  },
  {
    name: 'a stream-output entry naming LINE_DETAIL, which the vertex and hull shaders write and the domain shader does not',
    json: soWith(SO_LINE_TESS, [SO('SV_POSITION'), SO('LINE_DETAIL', { ComponentCount: 1 })]),
    dxbin: ['stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'with tessellation and no GS the domain shader is the last stage before the rasterizer (MISSINGSEMANTIC); vkd3d 1.2 gives the entries to the domain shader only and skips the one that matches nothing',
  },
  {
    name: 'a stream-output entry of 4 components of SV_RenderTargetArrayIndex, which the geometry shader writes as 1',
    json: soWith(SO_LAYERED, [SO('SV_RenderTargetArrayIndex')]),
    dxbin: ['stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'the components streamed out are among those the output declares (CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_MASKMISMATCH); vkd3d 1.2 says "Unhandled component range" and leaves it out',
  },
  {
    name: 'a stream-output entry of Stream 1 where the geometry shader writes stream 0 only',
    json: soWith(SO_LAYERED, [SO('COLOR', { Stream: 1 })]),
    dxbin: ['stream-output-signature'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'an entry names an output of its stream (MISSINGSEMANTIC); vkd3d 1.2 matches none and skips it',
  },
  {
    name: 'RasterizedStream 1 where the geometry shader writes stream 0 only: the pixel shader\'s COLOR comes from nowhere',
    json: soWith(SO_LAYERED, SO_LAYERED.StreamOutput.pSODeclaration, { RasterizedStream: 1 }),
    dxbin: ['linkage-missing'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d-runtime',
    why: 'the pixel shader links to the rasterized stream\'s outputs (SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND); vkd3d 1.2 on lavapipe cannot select a rasterization stream and rasterizes stream 0',
  },
  {
    name: 'D3D12_SO_NO_RASTERIZED_STREAM with a pixel shader after the geometry shader',
    json: soWith(SO_LAYERED, SO_LAYERED.StreamOutput.pSODeclaration, { RasterizedStream: NO_RASTERIZED }),
    // and the warning that the pixel shader never runs (stream-output-not-rasterized)
    dxbin: [],
    vkd3d: 'agrees',
    transformFeedback: true,
    source: 'd3d12-docs',
    why: 'no stream need go to the rasterizer (the D3D11.3 functional spec 14.3, StreamToRasterizer), and then nothing reaches the pixel shader, whose inputs are linked to no stream; vkd3d 1.2 turns on rasterizer discard and creates the pipeline',
  },
  // the stream-output declaration as a whole (the runtime's CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_* messages)
  {
    name: 'a buffer stride of 8 for an entry of 16 bytes',
    json: { ...SO_VS, StreamOutput: { ...SO_VS.StreamOutput, pBufferStrides: [8] } },
    dxbin: ['stream-output-stride'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d-runtime',
    why: 'CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSTREAMSTRIDE (86): a stride holds at least the bytes of its slot\'s entries (the functional spec 14.3); vkd3d 1.2 writes the stride into the XfbStride decoration unchecked',
  },
  {
    name: 'a buffer stride of 18 (not a multiple of 4)',
    json: { ...SO_VS, StreamOutput: { ...SO_VS.StreamOutput, pBufferStrides: [18] } },
    dxbin: ['stream-output-stride'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d-runtime',
    why: 'INVALIDOUTPUTSTREAMSTRIDE: the D3D11 runtime refuses a stride that is not a multiple of 4 (Wine\'s validate_stream_output_entries, whose tests run on Windows); vkd3d 1.2 writes it into XfbStride unchecked',
  },
  {
    name: 'the same output streamed out twice',
    json: soWith(SO_VS, [SO('SV_Position'), SO('SV_Position')], { pBufferStrides: [32] }),
    dxbin: ['stream-output-repeated'],
    vkd3d: 'more-lenient',
    transformFeedback: true,
    source: 'd3d-runtime',
    why: 'CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_REPEATEDOUTPUT (85): an output component goes to stream output once per stream; vkd3d 1.2 decorates the output for the first matching entry only',
  },
  {
    name: 'two entries of one output, components x and yzw (each once)',
    json: { ...SO_VS, StreamOutput: { ...SO_VS.StreamOutput, pSODeclaration: [SO('SV_Position', { ComponentCount: 1 }), SO('SV_Position', { StartComponent: 1, ComponentCount: 3 })] } },
    dxbin: [],
    vkd3d: 'agrees',
    transformFeedback: true,
    source: 'both fit',
    why: 'the same output register in several entries is allowed while their components do not overlap (the functional spec 14.3, RegisterMask)',
  },
];

const isContainer = (b: Uint8Array) => b[0] === 0x44 && b[1] === 0x58 && b[2] === 0x42 && b[3] === 0x43; // DXBC

/** The harness's request from the pipeline's subobject values; the root signature container vkd3d parses. */
function harnessPipeline(c: Case, p: Pipeline): HarnessPipeline {
  const rsPath = c.json.pRootSignature as string | undefined;
  const rsBytes = rsPath ? read(rsPath) : read(c.json.VS as string);
  const il = pipelineValue(p, 'INPUT_LAYOUT') as { pInputElementDescs: { SemanticName: string; SemanticIndex: number; Format: number; InputSlot: number; AlignedByteOffset: number }[] | null };
  const rtv = pipelineValue(p, 'RENDER_TARGET_FORMATS') as { RTFormats: number[]; NumRenderTargets: number };
  const sample = pipelineValue(p, 'SAMPLE_DESC') as { Count: number; Quality: number };
  const so = pipelineValue(p, 'STREAM_OUTPUT') as {
    pSODeclaration: { Stream: number; SemanticName: string | null; SemanticIndex: number; StartComponent: number; ComponentCount: number; OutputSlot: number }[] | null;
    pBufferStrides: number[] | null;
    RasterizedStream: number;
  };
  return {
    rootSignature: isContainer(rsBytes) ? rsBytes : rootSignatureContainer(rsBytes).slice(),
    VS: read(c.json.VS as string),
    ...Object.fromEntries((['PS', 'HS', 'DS', 'GS'] as const).filter((k) => c.json[k]).map((k) => [k, read(c.json[k] as string)])),
    topologyType: pipelineValue(p, 'PRIMITIVE_TOPOLOGY') as number,
    numRenderTargets: rtv.NumRenderTargets,
    rtvFormats: rtv.RTFormats,
    dsvFormat: pipelineValue(p, 'DEPTH_STENCIL_FORMAT') as number,
    sampleCount: sample.Count,
    sampleQuality: sample.Quality,
    inputLayout: il.pInputElementDescs ?? [],
    streamOutput: {
      entries: (so.pSODeclaration ?? []).map((e) => {
        if (e.SemanticName === null) throw new Error(`${c.name}: a gap entry cannot go to vkd3d 1.2 (it would read the NULL name)`);
        return e as typeof e & { SemanticName: string };
      }),
      strides: so.pBufferStrides ?? [],
      rasterizedStream: so.RasterizedStream,
    },
  };
}

let answers: string[] | undefined;
const pipelines = CASES.map((c) => {
  const p = pipelineFromJson(c.json, { read });
  c.mutate?.(p);
  return p;
});
const vkd3d = () => (answers ??= vkd3dCreatePipelines(CASES.map((c, i) => harnessPipeline(c, pipelines[i]!))));

const LABEL = { 'more-lenient': 'expected disagreement: vkd3d 1.2 is more lenient', 'no-dxil': 'expected disagreement: vkd3d 1.2 reads no DXIL' } as const;
CASES.forEach((c, i) => {
  const label = c.vkd3d === 'agrees' ? (c.dxbin.length ? 'both refuse' : c.runtimeRefuses ? `both fit, the D3D12 runtime refuses (${c.runtimeRefuses})` : 'both fit') : c.dxbinDoubt ? `disagreement, dxbin's verdict in doubt (${c.dxbinDoubt})` : LABEL[c.vkd3d];
  t(`${c.name}: ${label} (${c.source}: ${c.why})`, () => {
    if (c.transformFeedback) assert.ok(vkd3dVulkanInfo().transformFeedback, `the Vulkan device under vkd3d (${vkd3dVulkanInfo().device}) has no transformFeedback: vkd3d 1.2 answers E_NOTIMPL to any stream output`);
    const r = verifyPipeline(pipelines[i]!);
    const errors = [...new Set(r.violations.filter((v) => v.severity === 'error').map((v) => v.code))];
    assert.equal(errors, c.dxbin, JSON.stringify(r.violations.map((v) => v.message)));
    assert.is(r.verdict, c.dxbin.length ? 'does-not-fit' : 'fits');
    const vk = vkd3d()[i]!;
    // a refusal of CreateGraphicsPipelineState itself (E_INVALIDARG), not of the root signature or the request
    assert.ok(vk === 'ok' || /^0x[0-9a-f]{8}$/.test(vk), `vkd3d answered ${vk}`);
    if (c.vkd3d === 'agrees') assert.is(vk === 'ok', r.verdict === 'fits', `vkd3d answered ${vk}, dxbin ${r.verdict}`);
    else if (c.vkd3d === 'no-dxil') assert.is.not(vk, 'ok', `vkd3d now creates a pipeline with a DXIL stage: give "${c.name}" its verdict`);
    else {
      // recorded, not passed: dxbin refuses what vkd3d 1.2 creates
      assert.is(r.verdict, 'does-not-fit');
      assert.is(vk, 'ok', `vkd3d now refuses (${vk}): move "${c.name}" to the agreeing cases`);
    }
  });
});

t('the Vulkan device under vkd3d 1.2: stream output, no mesh pipelines', () => {
  const vk = vkd3dVulkanInfo();
  // the stream-output cases above need VK_EXT_transform_feedback (vkd3d 1.2 answers E_NOTIMPL without it)
  assert.ok(vk.extensions.includes('VK_EXT_transform_feedback') && vk.transformFeedback, `${vk.device}: ${JSON.stringify(vk)}`);
  assert.ok(vk.geometryShader, `${vk.device} has no geometryShader`);
  // Mesh pipelines (AS/MS/PS) go through ID3D12Device2::CreatePipelineState, which vkd3d 1.2 does not have (its
  // d3d12.idl stops at ID3D12Device1), and Mesa 22.3's lavapipe lists no VK_EXT_mesh_shader: nothing to compare
  // verifyPipeline's mesh verdicts with here. Should either appear, this fails: add mesh cases to the harness.
  assert.not.ok(vk.device2 && (vk.extensions.includes('VK_EXT_mesh_shader') || vk.extensions.includes('VK_NV_mesh_shader')), `mesh pipelines can be created now (${JSON.stringify(vk)}): add AS/MS/PS cases`);
  assert.not.ok(vk.device2, 'vkd3d now has ID3D12Device2: its CreatePipelineState takes pipeline state streams (mesh pipelines where the device has VK_EXT_mesh_shader)');
});

test('dxbin verify --pipeline gives the library\'s verdict on every case a description can spell (one run, exit 1 for the refused)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-pipeline-vkd3d-'));
  try {
    const abs = (p: string) => {
      if (!MADE[p]) return join(ROOT, 'corpus', p);
      const file = join(dir, p.replace('/', '-'));
      writeFileSync(file, MADE[p]);
      return file;
    };
    const spelled = CASES.map((c, i) => ({ c, i })).filter(({ c }) => !c.mutate);
    const files = spelled.map(({ c, i }) => {
      const json: Record<string, unknown> = { ...c.json };
      for (const k of ['VS', 'PS', 'HS', 'DS', 'GS', 'pRootSignature']) if (typeof json[k] === 'string') json[k] = abs(json[k] as string);
      const file = join(dir, `case-${i}.json`);
      writeFileSync(file, JSON.stringify(json));
      return file;
    });
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'verify', '--pipeline', '--json', ...files], { encoding: 'utf8', cwd: ROOT });
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { verdict: string });
    assert.is(lines.length, files.length, r.stderr);
    assert.equal(lines.map((l) => l.verdict), spelled.map(({ c }) => (c.dxbin.length ? 'does-not-fit' : 'fits')));
    assert.is(r.status, spelled.some(({ c }) => c.dxbin.length) ? 1 : 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
