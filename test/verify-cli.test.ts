/** `dxbin verify`, `inspect` bindings, `embed --verify` and `rootsig compile --verify` as build steps call them. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS, ROOT } from './helpers/corpus.js';

function dxbin(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const work = mkdtempSync(join(tmpdir(), 'dxbin-verify-'));
const PIXEL = join(CORPUS, 'shaders/brawler/PSODefinition__TEST_PSO__PIXEL_SHADER_BYTECODE.dxil');
const VERTEX = join(CORPUS, 'shaders/brawler/PSODefinition__TEST_PSO__VERTEX_SHADER_BYTECODE.dxil');
const TEST_RS = join(CORPUS, 'rootsig/brawler__RootSignatureDefinition__TEST_ROOT_SIGNATURE__SERIALIZED_ROOT_SIGNATURE_VERSION_1_1_2.dxbc');
const OTHER_RS = join(CORPUS, 'rootsig/brawler__RootSignatureDefinition__DEFERRED_GEOMETRY_RASTER__SERIALIZED_ROOT_SIGNATURE_VERSION_1_0.dxbc');
const DXBC = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe_2.dxbc');

test('verify: many shaders, exit 0 when all fit', () => {
  const r = dxbin('verify', PIXEL, VERTEX, '--rootsig', TEST_RS);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'PIXEL_SHADER_BYTECODE.dxil: Pixel shader fits the root signature (1 binding)');
  assert.match(r.stdout, 'VERTEX_SHADER_BYTECODE.dxil: Vertex shader fits');
});

test("verify: the shader's own RTS0 by default (DXBC)", () => {
  const r = dxbin('verify', DXBC);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'fits the root signature (3 bindings)');
});

test('verify: exit 1 and one line per violation in DXC words (once, on stderr) when one does not fit', () => {
  const r = dxbin('verify', VERTEX, PIXEL, '--rootsig', OTHER_RS);
  assert.is(r.status, 1);
  assert.match(r.stdout, 'Vertex shader fits');
  assert.match(r.stdout, 'Pixel shader does not fit the root signature');
  assert.not.match(r.stdout, 'not fully bound', 'the violation is printed once, on stderr (issue 29)');
  // one diagnostic per violation, naming the shader, in either style
  assert.match(r.stderr, 'PIXEL_SHADER_BYTECODE.dxil: CBV b2: Shader CBV descriptor range (RegisterSpace=0, NumDescriptors=1, BaseShaderRegister=2) is not fully bound in root signature.');
  assert.is(r.stderr.trimEnd().split('\n').length, 1);
  assert.not.match(r.stderr, 'VERTEX');
  const msvc = dxbin('verify', VERTEX, PIXEL, '--rootsig', OTHER_RS, '--diagnostics-format', 'msvc');
  assert.match(msvc.stderr, /PIXEL_SHADER_BYTECODE\.dxil: error not-fully-bound: CBV b2: Shader CBV/);
});

test('verify --json: one object per shader', () => {
  const r = dxbin('verify', VERTEX, PIXEL, '--rootsig', OTHER_RS, '--json');
  assert.is(r.status, 1);
  const [v, j] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.is(v.verdict, 'fits');
  assert.equal(v.coverage[0].path, 'RTS0.parameters[0]');
  assert.is(j.verdict, 'does-not-fit');
  assert.is(j.stage, 'Pixel');
  assert.equal(j.violations[0].binding, { type: 'CBV', space: 0, lowerBound: 2, upperBound: 2 });
});

test('verify: a shader without RTS0 and no --rootsig is not verifiable (exit 0, said so)', () => {
  const r = dxbin('verify', PIXEL);
  assert.is(r.status, 0);
  assert.match(r.stdout, 'not verifiable (no root signature given');
});

test('verify: bad input names the file, exit 1', () => {
  const r = dxbin('verify', TEST_RS);
  assert.is(r.status, 1);
  assert.match(r.stderr, 'TEST_ROOT_SIGNATURE');
  assert.match(r.stderr, 'no shader program');
  const rsIsShader = dxbin('verify', PIXEL, '--rootsig', DXBC.replace('.dxbc', '.missing'));
  assert.is(rsIsShader.status, 1);
  assert.match(rsIsShader.stderr, '.missing');
});

test('inspect lists the bindings of DXIL and DXBC shaders', () => {
  const d = dxbin('inspect', PIXEL);
  assert.match(d.stdout, 'shader: Pixel, DXIL SM 6.0, 1 binding (PSV0 v1)\n    CBV b2');
  const x = dxbin('inspect', DXBC);
  assert.match(x.stdout, 'shader: Pixel, DXBC SM 5.1, 3 bindings (declarations)\n    CBV b0\n    Sampler s0\n    SRVTyped t0');
  const j = JSON.parse(dxbin('inspect', PIXEL, '--json').stdout.trim());
  assert.is(j.shader.psv0.version, 1);
  assert.is(j.shader.bindings[0].type, 'CBV');
});

test('embed --verify refuses a root signature that does not fit (nothing written); without --verify it embeds', () => {
  const out = join(work, 'refused.dxil');
  const r = dxbin('embed', PIXEL, '--rs', OTHER_RS, '-o', out, '--verify');
  assert.is(r.status, 1);
  assert.match(r.stderr, 'does not fit; nothing written');
  assert.match(r.stderr, 'BaseShaderRegister=2');
  assert.not.ok(existsSync(out));
  const ok = join(work, 'fits.dxil');
  assert.is(dxbin('embed', PIXEL, '--rs', TEST_RS, '-o', ok, '--verify').status, 0);
  assert.is(dxbin('verify', ok).status, 0);
  assert.is(dxbin('embed', PIXEL, '--rs', OTHER_RS, '-o', join(work, 'unchecked.dxil')).status, 0);
});

test('rootsig compile --verify SHADER... refuses a text that does not fit', () => {
  const out = join(work, 'rs.dxbc');
  const bad = dxbin('rootsig', 'compile', 'CBV(b0)', '--version', '1.1', '-o', out, '--verify', PIXEL, VERTEX);
  assert.is(bad.status, 1);
  assert.match(bad.stderr, 'PIXEL_SHADER_BYTECODE.dxil: Pixel shader does not fit');
  assert.not.match(bad.stderr, 'VERTEX_SHADER_BYTECODE.dxil: Vertex');
  assert.not.ok(existsSync(out));
  const good = dxbin('rootsig', 'compile', 'CBV(b0), RootConstants(b2, num32BitConstants = 3)', '--version', '1.1', '-o', out, '--verify', PIXEL, VERTEX);
  assert.is(good.status, 0, good.stderr);
  assert.ok(existsSync(out));
});

test.run();
