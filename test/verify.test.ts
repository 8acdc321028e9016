/**
 * verifyRootSignature: DXC's own expectations (ValidationTest.cpp's root-signature cases, bindings
 * written by hand from each test's HLSL), the worked examples of docs/binding-verification.md on
 * real corpus bytes, and the corpus report (every shader that carries RTS0, against it).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compileRootSignature,
  containerRootSignature,
  parseContainer,
  readRootSignatureSource,
  readShader,
  shaderOf,
  verifyBindings,
  verifyRootSignature,
  type RootSignature,
  type ShaderBinding,
} from '../src/index.js';
import { corpusFile, corpusFiles } from './helpers/corpus.js';

const U = 0xffffffff;
const b = (resType: number, space: number, lowerBound: number, upperBound: number): ShaderBinding => ({ resType, space, lowerBound, upperBound, offset: 0 });
const CBV = 2, SAMPLER = 1, SRV_TYPED = 3, SRV_STRUCT = 5, UAV_TYPED = 6, UAV_STRUCT = 8;
const PS = 0, VS = 1;
const rs = (text: string) => compileRootSignature(text, { version: 2 });

// ValidationTest.cpp's twenty-one root-signature cases. `float c` is CBV b0; arrays give their ranges;
// `[]` gives an unbounded upper bound. PSV order: CBVs, samplers, SRVs, UAVs.
const TABLE = [b(CBV, 5, 2, 5), b(SAMPLER, 0, 0, 4), b(SRV_TYPED, 3, 1, 8), b(UAV_TYPED, 17, 33, 38)];
const UNBOUNDED = [b(CBV, 5, 2, U), b(SAMPLER, 0, 0, U), b(SRV_TYPED, 3, 1, U), b(UAV_TYPED, 17, 33, U)];
const T = (ranges: string, sampler = 'Sampler(s0, numDescriptors=5)') => `DescriptorTable(${ranges}), DescriptorTable(${sampler})`;
const DXC_CASES: [name: string, stage: number, bindings: ShaderBinding[], rs: string, fits: boolean, message?: string][] = [
  ['WhenRootSigMismatchThenFail', VS, [b(CBV, 0, 0, 0)], '', false],
  ['WhenRootSigCompatThenSucceed', VS, [], 'RootConstants(b0, num32BitConstants = 1)', true],
  ['WhenRootSigMatchShaderSucceed_RootConstVis', VS, [b(CBV, 0, 0, 0)], 'RootConstants(b0, visibility = SHADER_VISIBILITY_VERTEX, num32BitConstants = 1)', true],
  ['WhenRootSigMatchShaderFail_RootConstVis', VS, [b(CBV, 0, 0, 0)], 'RootConstants(b0, visibility = SHADER_VISIBILITY_PIXEL, num32BitConstants = 1)', false],
  ['WhenRootSigMatchShaderSucceed_RootCBV', VS, [b(CBV, 5, 2, 2)], 'CBV(b2, space = 5)', true],
  ['WhenRootSigMatchShaderFail_RootCBV_Range', VS, [b(CBV, 5, 0, 0)], 'CBV(b2, space = 5)', false],
  ['WhenRootSigMatchShaderFail_RootCBV_Space', VS, [b(CBV, 7, 2, 2)], 'CBV(b2, space = 5)', false],
  ['WhenRootSigMatchShaderSucceed_RootSRV', PS, [b(SRV_STRUCT, 3, 1, 1)], 'SRV(t1, space = 3)', true],
  ['WhenRootSigMatchShaderFail_RootSRV_ResType', PS, [b(SRV_STRUCT, 3, 1, 1)], 'UAV(u1, space = 3)', false],
  ['WhenRootSigMatchShaderSucceed_RootUAV', PS, [b(UAV_STRUCT, 3, 1, 1)], 'UAV(u1, space = 3)', true],
  ['WhenRootSigMatchShaderSucceed_DescTable', PS, TABLE, T('SRV(t1,space=3,numDescriptors=8), CBV(b2,space=5,numDescriptors=4), UAV(u33,space=17,numDescriptors=6)'), true],
  ['WhenRootSigMatchShaderSucceed_DescTable_GoodRange', PS, TABLE, T('SRV(t0,space=3,numDescriptors=20), CBV(b2,space=5,numDescriptors=4), UAV(u33,space=17,numDescriptors=6)'), true],
  ['WhenRootSigMatchShaderSucceed_DescTable_Unbounded', PS, TABLE, T('CBV(b2,space=5,numDescriptors=4), SRV(t1,space=3,numDescriptors=8), UAV(u10,space=17,numDescriptors=unbounded)'), true],
  ['WhenRootSigMatchShaderFail_DescTable_Range1', PS, TABLE, T('CBV(b2,space=5,numDescriptors=4), SRV(t2,space=3,numDescriptors=8), UAV(u33,space=17,numDescriptors=6)'), false,
    'Shader SRV descriptor range (RegisterSpace=3, NumDescriptors=8, BaseShaderRegister=1) is not fully bound in root signature.'],
  ['WhenRootSigMatchShaderFail_DescTable_Range2', PS, TABLE, T('SRV(t2,space=3,numDescriptors=8), CBV(b20,space=5,numDescriptors=4), UAV(u33,space=17,numDescriptors=6)'), false],
  ['WhenRootSigMatchShaderFail_DescTable_Range3', PS, TABLE, T('CBV(b2,space=5,numDescriptors=4), SRV(t1,space=3,numDescriptors=8), UAV(u33,space=17,numDescriptors=5)'), false],
  ['WhenRootSigMatchShaderFail_DescTable_Space', PS, TABLE, T('SRV(t2,space=3,numDescriptors=8), CBV(b2,space=5,numDescriptors=4), UAV(u33,space=0,numDescriptors=6)'), false],
  ['WhenRootSigMatchShaderSucceed_Unbounded', PS, UNBOUNDED, 'DescriptorTable( CBV(b2,space=5,numDescriptors=1)), DescriptorTable( SRV(t1,space=3,numDescriptors=unbounded)), DescriptorTable( UAV(u10,space=17,numDescriptors=100)), DescriptorTable(Sampler(s0, numDescriptors=5))', true],
  ['WhenRootSigMatchShaderFail_Unbounded1', PS, UNBOUNDED, 'DescriptorTable( CBV(b3,space=5,numDescriptors=1)), DescriptorTable( SRV(t1,space=3,numDescriptors=unbounded)), DescriptorTable( UAV(u10,space=17,numDescriptors=unbounded)), DescriptorTable( Sampler(s0, numDescriptors=5))', false],
  ['WhenRootSigMatchShaderFail_Unbounded2', PS, UNBOUNDED, 'DescriptorTable( CBV(b2,space=5,numDescriptors=1)), DescriptorTable( SRV(t1,space=3,numDescriptors=unbounded)), DescriptorTable( UAV(u10,space=17,numDescriptors=unbounded)), DescriptorTable( Sampler(s5, numDescriptors=unbounded))', false],
  ['WhenRootSigMatchShaderFail_Unbounded3', PS, UNBOUNDED, 'DescriptorTable( CBV(b2,space=5,numDescriptors=1)), DescriptorTable( SRV(t1,space=3,numDescriptors=unbounded)), DescriptorTable( UAV(u10,space=17,numDescriptors=7)), DescriptorTable(Sampler(s0, numDescriptors=5))', false],
];
for (const [name, stage, bindings, text, fits, message] of DXC_CASES) {
  test(`DXC ${name}: ${fits ? 'fits' : 'does not fit'}`, () => {
    const r = verifyBindings(stage, bindings, rs(text));
    assert.is(r.verdict, fits ? 'fits' : 'does-not-fit', JSON.stringify(r.violations));
    if (message) assert.is(r.violations[0]!.message, message);
  });
}

// tools/clang/test/DXC/NonUniform.hlsl (ps_6_0: Texture1D tex[5] : t3, SamplerState SS[3] : s2) and
// Inputs/smoke.hlsl (vs_6_0 with a global `int g`: CBV b0; its root signature "CBV(b0)").
const NON_UNIFORM = [b(SAMPLER, 0, 2, 4), b(SRV_TYPED, 0, 3, 7)];
const NON_UNIFORM_RS = 'DescriptorTable(SRV(t3, numDescriptors=5)), DescriptorTable(Sampler(s2, numDescriptors=3))';
const SMOKE = [b(CBV, 0, 0, 0)];
const FILECHECK_CASES: [name: string, stage: number, bindings: ShaderBinding[], rs: string, message?: string][] = [
  ['NonUniform.cso /verifyrootsignature NonUniformRootSig.cso', PS, NON_UNIFORM, NON_UNIFORM_RS],
  ['smoke.cso /verifyrootsignature rootsig.cso', VS, SMOKE, 'CBV(b0)'],
  ['NonUniformNoRootSig.cso /verifyrootsignature rootsig.cso (RS_MISMATCH)', PS, NON_UNIFORM, 'CBV(b0)', 'Shader sampler descriptor range (RegisterSpace=0, NumDescriptors=3, BaseShaderRegister=2) is not fully bound in root signature.'],
  ['norootsignature.cso /verifyrootsignature NonUniformRootSig.cso (RS_MISMATCH2)', VS, SMOKE, NON_UNIFORM_RS, 'Shader CBV descriptor range (RegisterSpace=0, NumDescriptors=1, BaseShaderRegister=0) is not fully bound in root signature.'],
];
for (const [name, stage, bindings, text, message] of FILECHECK_CASES) {
  test(`DXC NonUniform.hlsl ${name}: ${message ? 'fails with its FileCheck message' : 'succeeds'}`, () => {
    const r = verifyBindings(stage, bindings, rs(text));
    if (!message) assert.is(r.verdict, 'fits', JSON.stringify(r.violations));
    else assert.is(r.violations[0]!.message, message);
  });
}

test('every violation is reported in DXC order (DXC stops at the first): DescTable_Space', () => {
  const r = verifyBindings(PS, TABLE, rs(T('SRV(t2,space=3,numDescriptors=8), CBV(b2,space=5,numDescriptors=4), UAV(u33,space=0,numDescriptors=6)')));
  assert.equal(r.violations.map((v) => v.message), [
    'Shader SRV descriptor range (RegisterSpace=3, NumDescriptors=8, BaseShaderRegister=1) is not fully bound in root signature.',
    'Shader UAV descriptor range (RegisterSpace=17, NumDescriptors=6, BaseShaderRegister=33) is not fully bound in root signature.',
  ]);
  assert.is(r.violations[0]!.path, 'RTS0.parameters[0].ranges[0]'); // the range that only partly covers t1..t8
  assert.is(r.violations[1]!.path, undefined);
});

const brawler = (name: string) => readShader(corpusFile(`shaders/brawler/${name}`));
const brawlerRs = (name: string) => readRootSignatureSource(corpusFile(`rootsig/brawler__RootSignatureDefinition__${name}.dxbc`)).rootSignature;

test('E1: every BC7 compute shader fits BC6H_BC7_COMPRESSION 1.0 and 1.1', () => {
  const shaders = corpusFiles('shaders/brawler').filter((f) => f.name.includes('BC7'));
  assert.is(shaders.length, 8);
  for (const version of ['1_0', '1_1']) {
    for (const f of shaders) {
      const r = verifyRootSignature(readShader(f.bytes), brawlerRs(`BC6H_BC7_COMPRESSION__SERIALIZED_ROOT_SIGNATURE_VERSION_${version}`));
      assert.is(r.verdict, 'fits', f.name);
      assert.is(r.visibility, 0);
    }
  }
  const r = verifyRootSignature(brawler('PSODefinition_BC7_ENCODE_BLOCK__BC7_ENCODE_BLOCK__COMPUTE_SHADER_BYTECODE.dxil'), brawlerRs('BC6H_BC7_COMPRESSION__SERIALIZED_ROOT_SIGNATURE_VERSION_1_0'));
  assert.equal(r.coverage.map((c) => c.path), ['RTS0.parameters[3]', 'RTS0.parameters[4]', 'RTS0.parameters[0].ranges[0]', 'RTS0.parameters[1].ranges[0]', 'RTS0.parameters[2].ranges[0]']);
});

const TEST_RS = 'TEST_ROOT_SIGNATURE__SERIALIZED_ROOT_SIGNATURE_VERSION_1_1_2';
const PIXEL = 'PSODefinition__TEST_PSO__PIXEL_SHADER_BYTECODE.dxil';
const VERTEX = 'PSODefinition__TEST_PSO__VERTEX_SHADER_BYTECODE.dxil';

test('E2: the TEST_PSO pixel and vertex shaders fit TEST_ROOT_SIGNATURE', () => {
  const p = verifyRootSignature(brawler(PIXEL), brawlerRs(TEST_RS));
  assert.is(p.verdict, 'fits');
  assert.is(p.visibility, 5);
  assert.equal(p.coverage.map((c) => c.path), ['RTS0.parameters[0]']);
  const v = verifyRootSignature(brawler(VERTEX), brawlerRs(TEST_RS));
  assert.is(v.verdict, 'fits');
  assert.equal(v.coverage.map((c) => c.path), ['RTS0.parameters[2]']);
});

test("E2': the pixel shader does not fit DEFERRED_GEOMETRY_RASTER (b2 unbound); the vertex shader does", () => {
  const other = brawlerRs('DEFERRED_GEOMETRY_RASTER__SERIALIZED_ROOT_SIGNATURE_VERSION_1_0');
  const p = verifyRootSignature(brawler(PIXEL), other);
  assert.is(p.verdict, 'does-not-fit');
  assert.equal(p.violations.map((v) => [v.code, v.message]), [
    ['not-fully-bound', 'Shader CBV descriptor range (RegisterSpace=0, NumDescriptors=1, BaseShaderRegister=2) is not fully bound in root signature.'],
  ]);
  assert.is(verifyRootSignature(brawler(VERTEX), other).verdict, 'fits');
});

test('DENY: TEST_ROOT_SIGNATURE with DENY_PIXEL refuses the pixel shader though its CBV is covered', () => {
  const denied: RootSignature = { ...brawlerRs(TEST_RS), flags: brawlerRs(TEST_RS).flags | 0x20 };
  const r = verifyRootSignature(brawler(PIXEL), denied);
  assert.equal(r.violations.map((v) => [v.code, v.path]), [['stage-denied', 'RTS0.flags']]);
  assert.is(r.violations[0]!.message, 'Shader has root bindings but root signature uses a DENY flag to disallow root binding access to the shader stage.');
  assert.is(verifyRootSignature(brawler(VERTEX), denied).verdict, 'fits');
  // A shader with no bindings passes any DENY flag; compute has none.
  assert.is(verifyBindings(PS, [], denied).verdict, 'fits');
});

const vkd3dProton = (name: string) => readShader(corpusFile(`shaders/vkd3d-proton/${name}`));

test('root-descriptor rules on byte_offset_descriptors (SRV t0-t5, UAV u0-u6 of every kind)', () => {
  const s = vkd3dProton('byte_offset_descriptors_code_dxil.dxil');
  const roots = verifyRootSignature(s, rs('SRV(t0), SRV(t1), SRV(t2), SRV(t3), SRV(t4), SRV(t5), UAV(u0), UAV(u1), UAV(u2), UAV(u3), UAV(u4), UAV(u5), UAV(u6)'));
  assert.equal(roots.violations.map((v) => [v.code, v.binding!.lowerBound, v.path]), [
    ['typed-srv-on-root-descriptor', 2, 'RTS0.parameters[2]'],
    ['typed-srv-on-root-descriptor', 5, 'RTS0.parameters[5]'],
    ['counter-uav-on-root-descriptor', 0, 'RTS0.parameters[6]'],
    ['typed-uav-on-root-descriptor', 2, 'RTS0.parameters[8]'],
    ['counter-uav-on-root-descriptor', 3, 'RTS0.parameters[9]'],
    ['typed-uav-on-root-descriptor', 5, 'RTS0.parameters[11]'],
  ]);
  assert.is(roots.violations[0]!.message, 'A Shader is declaring a resource object as a texture using a register mapped to a root descriptor SRV (RegisterSpace=0, ShaderRegister=2).  SRV or UAV root descriptors can only be Raw or Structured buffers.');
  assert.is(roots.violations[2]!.message, 'A Shader is declaring a structured UAV with counter using a register mapped to a root descriptor UAV (RegisterSpace=0, ShaderRegister=0).  SRV or UAV root descriptors can only be Raw or Structured buffers.');
  assert.is(roots.violations[3]!.message, 'A shader is declaring a typed UAV using a register mapped to a root descriptor UAV (RegisterSpace=0, ShaderRegister=2).  SRV or UAV root descriptors can only be Raw or Structured buffers.');
  const mixed = rs('SRV(t0), SRV(t1), SRV(t3), SRV(t4), UAV(u1), UAV(u4), UAV(u6), DescriptorTable(SRV(t2), SRV(t5), UAV(u0), UAV(u2, numDescriptors = 2), UAV(u5))');
  assert.is(verifyRootSignature(s, mixed).verdict, 'fits');
  assert.is(verifyRootSignature(s, rs('DescriptorTable(SRV(t0, numDescriptors = 6), UAV(u0, numDescriptors = 7))')).verdict, 'fits');
  const pixelOnly = verifyRootSignature(s, rs('DescriptorTable(SRV(t0, numDescriptors = 6), UAV(u0, numDescriptors = 7), visibility = SHADER_VISIBILITY_PIXEL)'));
  assert.is(pixelOnly.violations[0]!.message, 'Shader SRV descriptor range (RegisterSpace=0, NumDescriptors=1, BaseShaderRegister=0) is not fully bound in root signature.');
  assert.is(pixelOnly.violations.length, 13);
  const split = verifyRootSignature(vkd3dProton('uav_counters_null_behavior_code_dxil.dxil'), rs('DescriptorTable(UAV(u0, numDescriptors = 2), UAV(u2, numDescriptors = 2))'));
  assert.equal(split.violations.map((v) => v.message), ['Shader UAV descriptor range (RegisterSpace=0, NumDescriptors=4, BaseShaderRegister=0) is not fully bound in root signature.']);
});

test('not verifiable: no root signature, local root signatures, libraries', () => {
  const s = brawler(PIXEL);
  assert.is(verifyRootSignature(s).verdict, 'not-verifiable');
  assert.match(verifyRootSignature(s).reason!, /no RTS0/);
  const local: RootSignature = { version: 2, flags: 0x80, parameters: [], staticSamplers: [] };
  assert.is(verifyRootSignature(s, local).verdict, 'not-verifiable');
  assert.is(verifyBindings(6, [], brawlerRs(TEST_RS)).verdict, 'not-verifiable');
});

test('an invalid root signature is reported with DXC validation messages before the bindings', () => {
  const overlap: RootSignature = rs('CBV(b2)');
  overlap.parameters.push({ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 2, registerSpace: 0, num32BitValues: 1 } });
  const r = verifyBindings(PS, [b(CBV, 0, 2, 2)], overlap);
  assert.is(r.violations[0]!.code, 'root-signature-invalid');
  assert.match(r.violations[0]!.message, /overlaps/);
});

// The corpus report. All 820 corpus shaders that carry RTS0 are fxc DXBC (docs/binding-verification.md):
// 561 with a 1.0 and 259 with a 1.1 root signature; 356 pixel, 448 vertex, 14 compute, 2 geometry
// shaders; 47 without any binding. Expectation: all fit. Nothing proves that fxc checked them when it
// embedded them; the expectation rests on the hand-read spot check below (every binding and the
// parameter covering it), on the root-descriptor count test below, and on the cross-checks, which show the verifier does
// refuse these same shaders when their root signature is emptied or denies their stage.
const withRts = corpusFiles('shaders').flatMap((f) => {
  const c = parseContainer(f.bytes, { mode: 'lenient' });
  return c.parts.some((p) => p.name === 'RTS0') ? [{ name: f.name, shader: shaderOf(c), rs: containerRootSignature(c)!.rootSignature }] : [];
});

test('corpus report: 820 shaders carry RTS0; all 820 fit it, 0 do not', () => {
  assert.is(withRts.length, 820);
  const misfits = withRts.filter((x) => verifyRootSignature(x.shader).verdict !== 'fits').map((x) => x.name);
  assert.equal(misfits, []);
});

test('corpus spot check by hand: AlphaTestEffect_PSAlphaTestEqNe_2 (pixel; CBV b0, s0, t0)', () => {
  // Read from `dxbin inspect`: P0 root CBV b0 (ALL), P1 PIXEL table SRV t0, P2 PIXEL table sampler s0,
  // flags deny hull/domain/geometry only. b0 -> P0 (CBVs may use root descriptors), s0 -> P2, t0 -> P1
  // (a table, so a texture is fine); pixel is not denied.
  const x = withRts.find((w) => w.name === 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe_2.dxbc')!;
  const r = verifyRootSignature(x.shader);
  assert.equal(r.coverage.map((c) => c.path), ['RTS0.parameters[0]', 'RTS0.parameters[2].ranges[0]', 'RTS0.parameters[1].ranges[0]']);
  // The same shader as if it were a vertex shader: the PIXEL tables no longer count.
  assert.equal(verifyBindings(VS, x.shader.bindings!, x.rs).violations.map((v) => v.code), ['not-fully-bound', 'not-fully-bound']);
});

test('corpus: where a root SRV/UAV covers a binding (8 shaders), the binding is a raw or structured buffer', () => {
  let shaders = 0;
  for (const x of withRts) {
    const viaRoot = verifyRootSignature(x.shader).coverage.filter((c) => {
      const m = /^RTS0\.parameters\[(\d+)\]$/.exec(c.path);
      return m && x.rs.parameters[Number(m[1])]!.parameterType >= 3;
    });
    if (viaRoot.length) shaders++;
    for (const c of viaRoot) assert.ok([4, 5, 7, 8].includes(c.binding.resType), `${x.name}: ${c.binding.resType}`);
  }
  assert.is(shaders, 8);
});

test('corpus cross-checks: an empty root signature fits only the 47 shaders without bindings; DENY for the own stage breaks every graphics shader with bindings', () => {
  const empty: RootSignature = { version: 2, flags: 0, parameters: [], staticSamplers: [] };
  let fitEmpty = 0;
  let denied = 0;
  for (const x of withRts) {
    const r = verifyRootSignature(x.shader, empty);
    if (r.verdict === 'fits') fitEmpty++;
    else assert.is(r.violations.length, x.shader.bindings!.length, x.name);
    const deny = { 0: 0x20, 1: 0x2, 2: 0x10 }[x.shader.stage as 0 | 1 | 2];
    if (deny === undefined) continue;
    const d = verifyRootSignature(x.shader, { ...x.rs, flags: x.rs.flags | deny });
    if (d.verdict !== 'fits') {
      denied++;
      assert.equal(d.violations.map((v) => v.code), ['stage-denied'], x.name);
    }
  }
  assert.is(fitEmpty, 47);
  assert.is(denied, withRts.filter((x) => x.shader.stage !== 5 && x.shader.bindings!.length > 0).length);
});

test.run();
