/**
 * rootsig suggest: for every corpus shader the suggestion fits (verify) and passes DXC's validation
 * rules (and the runtime's); it is never costlier than what the shader's authors wrote; several
 * shaders share one; --root-descriptors moves single buffers and CBVs to root descriptors.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  DescriptionError,
  containerRootSignature,
  decodeRootSignature,
  parseContainer,
  printRootSignature,
  readShader,
  rootCost,
  rootSignaturePart,
  shaderOf,
  suggestRootSignature,
  validateRootSignature,
  verifyBindings,
  verifyRootSignature,
  type ShaderInfo,
} from '../src/index.js';
import { CORPUS, ROOT, corpusFile, corpusFiles } from './helpers/corpus.js';

const shaders: { name: string; shader: ShaderInfo }[] = corpusFiles('shaders').flatMap((f) => {
  const c = parseContainer(f.bytes, { mode: 'lenient' });
  try {
    const shader = shaderOf(c);
    return shader.bindings ? [{ name: f.name, shader }] : [];
  } catch {
    return [];
  }
});

for (const rootDescriptors of [false, true]) {
  test(`every corpus shader (2006) fits its suggestion${rootDescriptors ? ' with --root-descriptors' : ''}, which DXC's and the runtime's rules accept`, () => {
    assert.is(shaders.length, 2006);
    for (const { name, shader } of shaders) {
      const rs = suggestRootSignature([shader], { rootDescriptors });
      assert.is(verifyRootSignature(shader, rs).verdict, 'fits', name);
      assert.equal(validateRootSignature(rs, { target: 'dxc' }), [], name);
      assert.equal(validateRootSignature(rs, { target: 'runtime' }), [], name);
      assert.is(rs.version, 2);
      assert.ok(rootCost(rs) <= 64);
    }
  });
}

test('the suggestion never costs more than the root signature the shader was built with (820 shaders)', () => {
  let compared = 0;
  let cheaper = 0;
  for (const { name, shader } of shaders) {
    const own = containerRootSignature(shader.container)?.rootSignature;
    if (!own) continue;
    compared++;
    const rs = suggestRootSignature([shader]);
    // The authors may use static samplers (0 DWORDs); the suggestion never invents sampler state.
    const ownCost = rootCost(own) + (own.staticSamplers.length && shader.bindings!.some((b) => b.resType === 1) ? 1 : 0);
    assert.ok(rootCost(rs) <= ownCost, `${name}: suggested ${rootCost(rs)} > own ${ownCost}: ${printRootSignature(rs)}`);
    if (rootCost(rs) < rootCost(own)) cheaper++;
  }
  assert.is(compared, 820);
  assert.ok(cheaper > 0);
});

test('one suggestion for several shaders: the TEST_PSO vertex and pixel shaders share one table (cost 1)', () => {
  const vs = readShader(corpusFile('shaders/brawler/PSODefinition__TEST_PSO__VERTEX_SHADER_BYTECODE.dxil'));
  const ps = readShader(corpusFile('shaders/brawler/PSODefinition__TEST_PSO__PIXEL_SHADER_BYTECODE.dxil'));
  const rs = suggestRootSignature([vs, ps]);
  assert.is(printRootSignature(rs), 'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_HULL_SHADER_ROOT_ACCESS | DENY_DOMAIN_SHADER_ROOT_ACCESS | DENY_GEOMETRY_SHADER_ROOT_ACCESS | DENY_AMPLIFICATION_SHADER_ROOT_ACCESS | DENY_MESH_SHADER_ROOT_ACCESS), DescriptorTable(CBV(b0), CBV(b2))');
  assert.is(verifyRootSignature(vs, rs).verdict, 'fits');
  assert.is(verifyRootSignature(ps, rs).verdict, 'fits');
  const all = shaders.filter((s) => s.name.includes('/brawler/')).map((s) => s.shader);
  const shared = suggestRootSignature(all);
  for (const s of all) assert.is(verifyRootSignature(s, shared).verdict, 'fits');
  assert.equal(validateRootSignature(shared, { target: 'dxc' }), []);
});

test('--root-descriptors: raw/structured buffers and CBVs become root descriptors, textures, typed and counter UAVs stay in a table', () => {
  const s = readShader(corpusFile('shaders/vkd3d-proton/byte_offset_descriptors_code_dxil.dxil'));
  const rs = suggestRootSignature([s], { rootDescriptors: true });
  assert.match(printRootSignature(rs), 'SRV(t0), SRV(t1), SRV(t3), SRV(t4), UAV(u1), UAV(u4), UAV(u6), DescriptorTable(SRV(t2), SRV(t5), UAV(u0), UAV(u2), UAV(u3), UAV(u5))');
  assert.is(rootCost(rs), 15);
  assert.is(rootCost(suggestRootSignature([s])), 1);
});

test('unbounded ranges each end a table; samplers get their own table', () => {
  const b = (resType: number, space: number, lowerBound: number, upperBound: number) => ({ resType, space, lowerBound, upperBound, offset: 0 });
  const bindings = [b(2, 0, 0, 0), b(1, 0, 0, 0), b(3, 1, 0, 0xffffffff), b(3, 2, 0, 0xffffffff), b(3, 0, 5, 5), b(1, 3, 0, 0xffffffff)];
  const rs = suggestRootSignature([{ stage: 0, bindings }]);
  assert.is(printRootSignature(rs), 'RootFlags(DENY_VERTEX_SHADER_ROOT_ACCESS | DENY_HULL_SHADER_ROOT_ACCESS | DENY_DOMAIN_SHADER_ROOT_ACCESS | DENY_GEOMETRY_SHADER_ROOT_ACCESS | DENY_AMPLIFICATION_SHADER_ROOT_ACCESS | DENY_MESH_SHADER_ROOT_ACCESS), DescriptorTable(CBV(b0), SRV(t5), SRV(t0, numDescriptors = unbounded, space = 1)), DescriptorTable(SRV(t0, numDescriptors = unbounded, space = 2)), DescriptorTable(Sampler(s0), Sampler(s0, numDescriptors = unbounded, space = 3))');
  assert.equal(validateRootSignature(rs, { target: 'dxc' }), []);
  assert.is(verifyBindings(0, bindings, rs).verdict, 'fits');
});

test('property: any bindings of any stages get a suggestion that DXC accepts and that every shader fits (reserved spaces refused)', () => {
  const binding = fc
    .record({
      resType: fc.integer({ min: 0, max: 10 }),
      space: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(0xffffffef), fc.constant(0xfffffff0)),
      lowerBound: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(0xfffffff0)),
      len: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(-1)),
    })
    .map(({ len, ...b }) => ({ ...b, offset: 0, upperBound: len < 0 ? 0xffffffff : Math.min(0xfffffffe, b.lowerBound + len) }));
  const shader = fc.record({ stage: fc.constantFrom(0, 1, 2, 3, 4, 5, 13, 14), bindings: fc.array(binding, { maxLength: 12 }) });
  fc.assert(
    fc.property(fc.array(shader, { minLength: 1, maxLength: 3 }), fc.boolean(), (list, rootDescriptors) => {
      const reserved = list.some((s) => s.bindings.some((b) => b.resType >= 1 && b.resType <= 9 && b.space >= 0xfffffff0));
      let rs;
      try {
        rs = suggestRootSignature(list, { rootDescriptors });
      } catch (e) {
        assert.ok(reserved && e instanceof DescriptionError && e.code === 'out-of-range', String(e));
        return;
      }
      assert.not.ok(reserved);
      assert.equal(validateRootSignature(rs, { target: 'dxc' }), [], printRootSignature(rs));
      for (const s of list) assert.is(verifyBindings(s.stage, s.bindings, rs).verdict, 'fits', printRootSignature(rs));
    }),
    { numRuns: 2000, seed: 14 },
  );
});

function dxbin(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('dxbin rootsig suggest prints HLSL and writes the blob, which verify accepts', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'dxbin-suggest-')), 'rs.dxbc');
  const vs = join(CORPUS, 'shaders/brawler/PSODefinition__TEST_PSO__VERTEX_SHADER_BYTECODE.dxil');
  const ps = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe_2.dxbc');
  const r = dxbin('rootsig', 'suggest', vs, ps, '-o', out);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'DescriptorTable(CBV(b0), SRV(t0)), DescriptorTable(Sampler(s0))');
  assert.ok(existsSync(out));
  const written = decodeRootSignature(rootSignaturePart(parseContainer(new Uint8Array(readFileSync(out)))));
  assert.is(written.version, 2);
  assert.is(dxbin('verify', vs, ps, '--rootsig', out).status, 0);
  const lib = dxbin('rootsig', 'suggest', join(CORPUS, 'rootsig/brawler__RootSignatureDefinition__TEST_ROOT_SIGNATURE__SERIALIZED_ROOT_SIGNATURE_VERSION_1_1_2.dxbc'));
  assert.is(lib.status, 1);
});

test.run();
