/**
 * dxbin/rollup: a small app imports a root signature from a #define of an HLSL file (with an
 * #include), a .rs.hlsl file of root signature text and a compiled shader; rollup and Vite build it,
 * the test imports what they wrote and compares with what the library gives for the same inputs.
 * A broken HLSL import fails each build with the right file:line:column.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rollup } from 'rollup';
import { build as viteBuild } from 'vite';
import dxbin from '../src/rollup/index.js';
import { compileRootSignatureBlob, parseContainer, printRootSignature, readRootSignatureSource, rootSignatureToJson, toHex } from '../src/index.js';
import { CORPUS } from './helpers/corpus.js';

const app = mkdtempSync(join(tmpdir(), 'dxbin-app-'));
mkdirSync(join(app, 'shaders'));
writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
const COMMON = '// shared pieces\n#define SRV_TABLE "DescriptorTable(UAV(u1, numDescriptors = 4), " \\\n  "SRV(t0, numDescriptors = unbounded))"\n';
const BINDLESS = '#include "common.hlsli"\n#define BindlessRS "RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED), " \\\n  SRV_TABLE ", CBV(b0)"\nfloat4 main() : SV_Target { return 0; }\n';
const ROOT_RS = '// a root signature file\nRootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT),\nRootConstants(num32BitConstants = 4, b1),\nStaticSampler(s0, filter = FILTER_MIN_MAG_MIP_LINEAR)\n';
const SHADER = 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc';
writeFileSync(join(app, 'shaders/common.hlsli'), COMMON);
writeFileSync(join(app, 'shaders/bindless.hlsl'), BINDLESS);
writeFileSync(join(app, 'root.rs.hlsl'), ROOT_RS);
copyFileSync(join(CORPUS, SHADER), join(app, 'shaders/effect.cso'));
writeFileSync(
  join(app, 'main.js'),
  `import bindless from './shaders/bindless.hlsl?define=BindlessRS&version=1.1&rootsig';\nimport { blob as rootBlob, hlsl as rootHlsl, json as rootJson } from './root.rs.hlsl';\nimport effect from './shaders/effect.cso?rootsig';\nglobalThis.__dxbinApp = { bindless, root: { blob: rootBlob, hlsl: rootHlsl, json: rootJson }, effect };\nif (typeof document !== 'undefined') document.body.textContent = bindless.hlsl;\n`,
);
writeFileSync(join(app, 'index.html'), '<!doctype html>\n<html><body><script type="module" src="./main.js"></script></body></html>\n');
// the broken app: a syntax error inside an included file, and a validation error
writeFileSync(join(app, 'shaders/broken.hlsli'), '// line 1\n#define BROKEN_TABLE "DescriptorTable(SRV(t0, numDescriptors = 2)," \\\n  " CBV(b0, spaec = 1))"\n');
writeFileSync(join(app, 'shaders/broken.hlsl'), '#include "broken.hlsli"\n#define BrokenRS BROKEN_TABLE\n');
writeFileSync(join(app, 'broken.js'), `import rs from './shaders/broken.hlsl?define=BrokenRS&rootsig';\nglobalThis.__dxbinBroken = rs;\n`);

interface AppResult {
  bindless: { blob: Uint8Array; rawBlob: Uint8Array; json: unknown; hlsl: string; version: string };
  root: { blob: Uint8Array; hlsl: string; json: unknown };
  effect: { parts: { name: string; offset: number; size: number }[]; digest: { status: string; stored: string; computed: string }; rootSignature: { hlsl: string; blob: Uint8Array } | null };
}

/** Imports a built bundle and returns what the app stored. */
async function runBuilt(file: string): Promise<AppResult> {
  delete (globalThis as { __dxbinApp?: unknown }).__dxbinApp;
  await import(`${pathToFileURL(file).href}?t=${Date.now()}`);
  const r = (globalThis as { __dxbinApp?: AppResult }).__dxbinApp;
  assert.ok(r, `${file} ran and stored its results`);
  return r!;
}

/** What the library itself gives for the app's inputs (the expected values). */
function expected() {
  const bindlessText = '"RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED), " "DescriptorTable(UAV(u1, numDescriptors = 4), " "SRV(t0, numDescriptors = unbounded))" ", CBV(b0)"'.replace(/" "|"/g, '');
  const bindless = compileRootSignatureBlob(bindlessText, { version: 2 });
  const root = compileRootSignatureBlob(ROOT_RS.replace(/\/\/[^\n]*/g, '').replace(/\n/g, ' '), { version: 2 });
  const shaderBytes = new Uint8Array(readFileSyncBytes(join(CORPUS, SHADER)));
  const container = parseContainer(shaderBytes);
  const rs = readRootSignatureSource(shaderBytes).rootSignature;
  return { bindless, root, container, shaderHlsl: printRootSignature(rs), bindlessJson: rootSignatureToJson(readRootSignatureSource(bindless).rootSignature) };
}
import { readFileSync as readFileSyncBytes } from 'node:fs';

function check(result: AppResult, builder: string) {
  const want = expected();
  assert.is(toHex(result.bindless.blob), toHex(want.bindless), `${builder}: the #define (through #include) compiles to the library's bytes`);
  assert.ok(result.bindless.blob instanceof Uint8Array, `${builder}: blob is a Uint8Array`);
  assert.is(result.bindless.version, '1.1');
  assert.equal(result.bindless.json, want.bindlessJson, `${builder}: JSON form`);
  assert.match(result.bindless.hlsl, /^RootFlags\(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED\), DescriptorTable\(UAV\(u1, numDescriptors = 4\), SRV\(t0, numDescriptors = unbounded\)/, `${builder}: HLSL text`);
  assert.is(toHex(result.root.blob), toHex(want.root), `${builder}: the .rs.hlsl file`);
  assert.equal(result.effect.parts.map((p) => p.name), want.container.parts.map((p) => p.name), `${builder}: the shader's parts`);
  assert.equal(result.effect.parts.map((p) => p.size), want.container.parts.map((p) => p.data.byteLength));
  assert.is(result.effect.digest.status, 'valid', `${builder}: digest status`);
  assert.is(result.effect.rootSignature?.hlsl, want.shaderHlsl, `${builder}: the shader's root signature`);
}

/** The first error a build throws. */
async function buildError(run: () => Promise<unknown>): Promise<Error & { loc?: { file?: string; line: number; column: number }; id?: string }> {
  try {
    await run();
  } catch (e) {
    return e as Error;
  }
  assert.unreachable('the build of the broken app succeeded');
  throw new Error('unreachable');
}

const BROKEN_AT = { file: join(app, 'shaders/broken.hlsli'), line: 3, column: 13 };

test('rollup builds the app; the bundle holds the compiled root signatures and the shader info', async () => {
  const watched: string[] = [];
  const plugin = dxbin();
  const bundle = await rollup({
    input: join(app, 'main.js'),
    plugins: [plugin, { name: 'watch-spy', buildEnd() { watched.push(...this.getWatchFiles()); } }],
    onwarn: () => {},
  });
  await bundle.write({ dir: join(app, 'out-rollup'), format: 'es', entryFileNames: 'main.js' });
  await bundle.close();
  check(await runBuilt(join(app, 'out-rollup/main.js')), 'rollup');
  assert.ok(watched.includes(join(app, 'shaders/common.hlsli')), `the #include'd file is watched: ${watched.join(', ')}`);
});

test('rollup: a broken HLSL import fails the build at the HLSL file, line and column', async () => {
  const e = await buildError(async () => rollup({ input: join(app, 'broken.js'), plugins: [dxbin()] }));
  assert.equal({ file: e.loc?.file, line: e.loc?.line, column: e.loc?.column }, BROKEN_AT, e.message);
  assert.match(e.message, /broken\.hlsli:3:13: error: root signature error - /, e.message);
});

test('rollup: validation and version are options (and query parameters)', async () => {
  writeFileSync(join(app, 'invalid.rs.hlsl'), 'CBV(b0), CBV(b0)\n');
  writeFileSync(join(app, 'invalid.js'), `import { blob, version } from './invalid.rs.hlsl';\nglobalThis.__dxbinApp = { bindless: { blob, version } };\n`);
  const e = await buildError(async () => rollup({ input: join(app, 'invalid.js'), plugins: [dxbin()] }));
  assert.match(e.message, /overlaps with another shader register range/, 'validated by default');
  writeFileSync(join(app, 'typo.rs.hlsl'), '/* two lines */ CBV(b0),\n  SRV(t0, spaec = 1)\n');
  writeFileSync(join(app, 'typo.js'), `import rs from './typo.rs.hlsl';\nglobalThis.__dxbinApp = rs;\n`);
  const typo = await buildError(async () => rollup({ input: join(app, 'typo.js'), plugins: [dxbin()] }));
  assert.equal(typo.loc, { file: join(app, 'typo.rs.hlsl'), line: 2, column: 11 }, `a .rs.hlsl error is located in it: ${typo.message}`);
  writeFileSync(join(app, 'v13.js'), `import rs from './invalid.rs.hlsl?version=1.3';\nglobalThis.__dxbinApp = rs;\n`);
  const v13 = await buildError(async () => rollup({ input: join(app, 'v13.js'), plugins: [dxbin()] }));
  assert.match(v13.message, /version=1\.3: a root signature version is one of 1\.0, 1\.1, 1\.2/, v13.message);
  const bundle = await rollup({ input: join(app, 'invalid.js'), plugins: [dxbin({ validate: false, version: '1.0' })] });
  await bundle.write({ dir: join(app, 'out-invalid'), format: 'es', entryFileNames: 'main.js' });
  const r = await runBuilt(join(app, 'out-invalid/main.js'));
  assert.is(r.bindless.version, '1.0', 'version option');
  assert.is(toHex(r.bindless.blob), toHex(compileRootSignatureBlob('CBV(b0), CBV(b0)', { version: 1, validate: false })));
});

test("rollup: the branch DXC would take (the issue's #ifdef example): &D= per import, defines as an option; a diamond of guarded headers is read once each", async () => {
  writeFileSync(join(app, 'shaders/branch.hlsl'), '#ifdef A\n#define RS "CBV(b0)"\n#else\n#define RS "CBV(b1)"\n#endif\n');
  for (let i = 0; i < 12; i++) writeFileSync(join(app, `shaders/d${i}.hlsli`), `#pragma once\n#include "d${i + 1}.hlsli"\n#include "d${i + 1}.hlsli"\n`);
  writeFileSync(join(app, 'shaders/d12.hlsli'), '#ifndef D12\n#define D12\n#define DEEP "SRV(t5)"\n#endif\n');
  writeFileSync(join(app, 'shaders/diamond.rs.hlsl'), '#include "d0.hlsli"\n#if defined(D12) && __HLSL_VERSION >= 2021\nCBV(b2), DEEP\n#else\n#error not taken\n#endif\n');
  writeFileSync(join(app, 'branch.js'), `import a from './shaders/branch.hlsl?define=RS&D=A&rootsig';\nimport b from './shaders/branch.hlsl?define=RS&rootsig';\nimport d from './shaders/diamond.rs.hlsl';\nglobalThis.__dxbinBranch = { a: a.blob, b: b.blob, d: d.blob };\n`);
  const build = async (options: Parameters<typeof dxbin>[0]) => {
    const watched: string[] = [];
    const bundle = await rollup({ input: join(app, 'branch.js'), plugins: [dxbin(options), { name: 'watch-spy', buildEnd() { watched.push(...this.getWatchFiles()); } }] });
    await bundle.write({ dir: join(app, 'out-branch'), format: 'es', entryFileNames: 'main.js' });
    await bundle.close();
    delete (globalThis as { __dxbinBranch?: unknown }).__dxbinBranch;
    await import(`${pathToFileURL(join(app, 'out-branch/main.js')).href}?t=${Date.now()}`);
    return { r: (globalThis as unknown as { __dxbinBranch: Record<string, Uint8Array> }).__dxbinBranch, watched };
  };
  const { r, watched } = await build({});
  assert.is(toHex(r.a!), toHex(compileRootSignatureBlob('CBV(b0)', { version: 2 })), '&D=A takes the #ifdef branch');
  assert.is(toHex(r.b!), toHex(compileRootSignatureBlob('CBV(b1)', { version: 2 })), 'without it, the #else');
  assert.is(toHex(r.d!), toHex(compileRootSignatureBlob('CBV(b2), SRV(t5)', { version: 2 })), 'a .rs.hlsl file is its taken text');
  for (let i = 0; i <= 12; i++) assert.ok(watched.includes(join(app, `shaders/d${i}.hlsli`)), `d${i}.hlsli is watched`);
  const withOption = await build({ defines: ['A'] });
  assert.is(toHex(withOption.r.b!), toHex(compileRootSignatureBlob('CBV(b0)', { version: 2 })), 'the defines option applies to every import');
});

test('Vite builds the app (index.html); the built script holds the same modules', async () => {
  await viteBuild({ root: app, logLevel: 'silent', configFile: false, plugins: [dxbin()], build: { outDir: join(app, 'out-vite'), emptyOutDir: true, minify: false, modulePreload: { polyfill: false } } });
  const assets = readdirSync(join(app, 'out-vite/assets')).filter((f) => f.endsWith('.js'));
  assert.is(assets.length, 1, `one script: ${assets.join(', ')}`);
  check(await runBuilt(join(app, 'out-vite/assets', assets[0]!)), 'vite');
});

test('Vite: a broken HLSL import fails the build at the HLSL file, line and column', async () => {
  const e = await buildError(() =>
    viteBuild({ root: app, logLevel: 'silent', configFile: false, plugins: [dxbin()], build: { outDir: join(app, 'out-vite-broken'), rollupOptions: { input: join(app, 'broken.js') } } }),
  );
  const text = `${e.message}\n${JSON.stringify(e.loc ?? null)}`;
  assert.match(text, /broken\.hlsli:3:13/, text);
});

test.run();
