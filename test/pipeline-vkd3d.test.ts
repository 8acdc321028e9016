/**
 * Whole-pipeline verification against vkd3d's CreateGraphicsPipelineState (libvkd3d 1.2 on Mesa's
 * lavapipe, through test/native/vkd3d-pipeline.c): DirectXTK's DXBC vertex and pixel shaders with
 * their own root signatures, vkd3d's DXBC tessellation shaders, and mutations of them. Both sides
 * see the same pipeline: the harness request is made from the subobject values dxbin decoded the
 * description into.
 *
 * Each case names the rule and the source that fixes it (codecs/pipeline-rules.ts). Where vkd3d
 * checks the same rule the verdicts must agree. Where vkd3d 1.2 does not check it (it ignores root
 * signature DENY flags, does not map every binding, does not match the input layout against the
 * vertex shader's inputs, takes any format it has a Vulkan format for, and does not pair hull and
 * domain shaders: their presence, control point counts, domains) the case records the
 * disagreement as expected: dxbin refuses, vkd3d creates the pipeline. Should vkd3d start refusing
 * one, the test fails and the case moves to the agreeing ones.
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
import { vkd3dCreatePipelines, vkd3dPipelineMissing, type HarnessPipeline } from './helpers/vkd3d-pipeline.js';

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
  /** Whether vkd3d 1.2 checks the rule: agree, or is more lenient (an expected disagreement). */
  vkd3d: 'agrees' | 'more-lenient';
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
    why: 'DXC: a resource the shader uses must be bound by the root signature; vkd3d 1.2 compiles the shaders with whatever descriptor mapping it finds and creates the pipeline',
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
];

const isContainer = (b: Uint8Array) => b[0] === 0x44 && b[1] === 0x58 && b[2] === 0x42 && b[3] === 0x43; // DXBC

/** The harness's request from the pipeline's subobject values; the root signature container vkd3d parses. */
function harnessPipeline(c: Case, p: Pipeline): HarnessPipeline {
  const rsPath = c.json.pRootSignature as string | undefined;
  const rsBytes = rsPath ? read(rsPath) : read(c.json.VS as string);
  const il = pipelineValue(p, 'INPUT_LAYOUT') as { pInputElementDescs: { SemanticName: string; SemanticIndex: number; Format: number; InputSlot: number; AlignedByteOffset: number }[] | null };
  const rtv = pipelineValue(p, 'RENDER_TARGET_FORMATS') as { RTFormats: number[]; NumRenderTargets: number };
  const sample = pipelineValue(p, 'SAMPLE_DESC') as { Count: number; Quality: number };
  return {
    rootSignature: isContainer(rsBytes) ? rsBytes : rootSignatureContainer(rsBytes).slice(),
    VS: read(c.json.VS as string),
    ...Object.fromEntries((['PS', 'HS', 'DS'] as const).filter((k) => c.json[k]).map((k) => [k, read(c.json[k] as string)])),
    topologyType: pipelineValue(p, 'PRIMITIVE_TOPOLOGY') as number,
    numRenderTargets: rtv.NumRenderTargets,
    rtvFormats: rtv.RTFormats,
    dsvFormat: pipelineValue(p, 'DEPTH_STENCIL_FORMAT') as number,
    sampleCount: sample.Count,
    sampleQuality: sample.Quality,
    inputLayout: il.pInputElementDescs ?? [],
  };
}

let answers: string[] | undefined;
const pipelines = CASES.map((c) => {
  const p = pipelineFromJson(c.json, { read });
  c.mutate?.(p);
  return p;
});
const vkd3d = () => (answers ??= vkd3dCreatePipelines(CASES.map((c, i) => harnessPipeline(c, pipelines[i]!))));

CASES.forEach((c, i) => {
  const label = c.vkd3d === 'agrees' ? (c.dxbin.length ? 'both refuse' : 'both fit') : 'expected disagreement: vkd3d 1.2 is more lenient';
  t(`${c.name}: ${label} (${c.source}: ${c.why})`, () => {
    const r = verifyPipeline(pipelines[i]!);
    const errors = [...new Set(r.violations.filter((v) => v.severity === 'error').map((v) => v.code))];
    assert.equal(errors, c.dxbin, JSON.stringify(r.violations.map((v) => v.message)));
    assert.is(r.verdict, c.dxbin.length ? 'does-not-fit' : 'fits');
    const vk = vkd3d()[i]!;
    // a refusal of CreateGraphicsPipelineState itself (E_INVALIDARG), not of the root signature or the request
    assert.ok(vk === 'ok' || /^0x[0-9a-f]{8}$/.test(vk), `vkd3d answered ${vk}`);
    if (c.vkd3d === 'agrees') assert.is(vk === 'ok', r.verdict === 'fits', `vkd3d answered ${vk}, dxbin ${r.verdict}`);
    else {
      // recorded, not passed: dxbin refuses what vkd3d 1.2 creates
      assert.is(r.verdict, 'does-not-fit');
      assert.is(vk, 'ok', `vkd3d now refuses (${vk}): move "${c.name}" to the agreeing cases`);
    }
  });
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
      for (const k of ['VS', 'PS', 'HS', 'DS', 'pRootSignature']) if (typeof json[k] === 'string') json[k] = abs(json[k] as string);
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
