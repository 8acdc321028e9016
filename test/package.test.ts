/**
 * The package as a user gets it: `npm pack` (which builds, through prepack), the tarball installed
 * in a fresh temporary project, then every way of loading it: ES module import and CommonJS
 * require of every export, TypeScript `.cts` and `.mts` consumers (tsc --noEmit, node16
 * resolution, no skipLibCheck), `npx dxbin --version`, the WebAssembly kernels of the installed
 * copy, and "are the types wrong" (attw) on the tarball. Also what the tarball holds and not.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers/corpus.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
/** The library's entry points: every export with code (not JSON files, not declarations alone). */
const ENTRIES = Object.entries(pkg.exports)
  .filter(([, v]) => typeof v === 'object' && v !== null && 'import' in v)
  .map(([k]) => k);
const specifier = (key: string) => (key === '.' ? 'dxbin' : `dxbin/${key.slice(2)}`);

/** npm's own CLI, beside this node (npm_execpath when run through npm). */
const NPM = [process.env.npm_execpath, join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js')].find((p) => p && p.endsWith('.js') && existsSync(p))!;

function run(command: string, args: string[], cwd: string, what: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }, maxBuffer: 1 << 26 });
  if (r.status !== 0) assert.unreachable(`${what} failed (exit ${r.status ?? r.signal}): ${command} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r;
}
const npm = (args: string[], cwd: string, what: string) => run(process.execPath, [NPM, ...args], cwd, what);

const work = mkdtempSync(join(tmpdir(), 'dxbin-package-'));
let tarball = '';
const consumer = join(work, 'consumer');

test('npm pack builds the package (prepack) and the tarball holds what consumers load, and nothing else', () => {
  assert.ok(NPM, `npm's CLI not found beside ${process.execPath}`);
  assert.is(pkg.scripts.prepare, undefined, 'no prepare script: installs do not rebuild');
  assert.is(pkg.scripts.prepack, 'npm run build');
  const r = npm(['pack', '--json', '--pack-destination', work], ROOT, 'npm pack');
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, report[0]!.filename);
  const files = report[0]!.files.map((f) => f.path).sort();
  for (const must of ['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'bin/dxbin.cjs', 'dist/cli.cjs', 'dist/index.js', 'dist/cjs/index.js', 'dist/cjs/package.json', 'schema/root-signature.schema.json']) {
    assert.ok(files.includes(must), `the tarball holds ${must}`);
  }
  const stray = files.filter((f) => f.startsWith('codecs/') || f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.ts') && !f.endsWith('.d.ts') || f.endsWith('.map'));
  assert.equal(stray, [], 'no sources, tests or source maps in the tarball');
  // every relative link of the README points at a file the tarball has
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)#]+)/g)].map((m) => m[1]!);
  assert.ok(links.length > 0, 'the README links to docs');
  for (const link of links) assert.ok(files.includes(link), `README link ${link} is shipped`);
  // one copy of the library in the ES build (one file per module under dist/lib); the CLI is its
  // own CommonJS bundle (dist/cli.cjs, commands in dist/cli/), built apart so it starts fast
  const lib = files.filter((f) => f.startsWith('dist/lib/') && f.endsWith('.js')).map((f) => readFileSync(join(ROOT, f), 'utf8'));
  const marker = 'function decodeRootSignature(';
  assert.is(lib.filter((text) => text.includes(marker)).length, 1, `${marker} exists once in the ES build`);
  assert.is(readdirSync(join(ROOT, 'dist/cli')).map((f) => readFileSync(join(ROOT, 'dist/cli', f), 'utf8')).filter((text) => text.includes(marker)).length, 1, `${marker} exists once in the CLI bundle`);
  assert.not.match(readFileSync(join(ROOT, 'dist/cli.cjs'), 'utf8'), marker, 'dist/cli.cjs itself holds no command code');
  assert.ok(files.some((f) => /^dist\/cli\/rootsig-decode-[^/]+\.cjs$/.test(f)), 'a chunk per command');
});

test('the tarball installs in a fresh project; import and require load every export', () => {
  assert.ok(tarball, 'packed');
  mkdirSync(consumer, { recursive: true });
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'], consumer, 'npm install of the tarball');
  const lines = ENTRIES.map((k) => `  ${JSON.stringify(k)}: Object.keys(await import(${JSON.stringify(specifier(k))})).sort(),`);
  writeFileSync(join(consumer, 'esm.mjs'), `const names = {\n${lines.join('\n')}\n};\nconsole.log(JSON.stringify(names));\n`);
  const req = ENTRIES.map((k) => `  ${JSON.stringify(k)}: Object.keys(require(${JSON.stringify(specifier(k))})).filter((n) => n !== '__esModule').sort(),`);
  writeFileSync(join(consumer, 'cjs.cjs'), `const names = {\n${req.join('\n')}\n};\nconsole.log(JSON.stringify(names));\n`);
  const esm = JSON.parse(run(process.execPath, ['esm.mjs'], consumer, 'ES module import').stdout) as Record<string, string[]>;
  const cjs = JSON.parse(run(process.execPath, ['cjs.cjs'], consumer, 'CommonJS require').stdout) as Record<string, string[]>;
  for (const k of ENTRIES) {
    assert.ok(esm[k]!.length > 0, `${specifier(k)} exports something`);
    assert.equal(cjs[k], esm[k], `require(${JSON.stringify(specifier(k))}) gives the names import gives`);
  }
  assert.ok(esm['.']!.includes('parseContainer') && esm['.']!.includes('DecodeError'), 'the root export');
  // a real decode through each module system
  const decode = `const blob = Uint8Array.from(${JSON.stringify([...readFileSync(join(ROOT, 'corpus/rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc'))])});`;
  writeFileSync(join(consumer, 'decode.cjs'), `${decode}\nconst d = require('dxbin');\nconsole.log(d.printRootSignature(d.readRootSignatureSource(blob).rootSignature));\nlet e; try { d.parseContainer(blob.subarray(0, 10)); } catch (x) { e = x; }\nconsole.log(e instanceof d.DecodeError, e.code);\n`);
  writeFileSync(join(consumer, 'decode.mjs'), `${decode}\nimport * as d from 'dxbin';\nconsole.log(d.printRootSignature(d.readRootSignatureSource(blob).rootSignature));\nlet e; try { d.parseContainer(blob.subarray(0, 10)); } catch (x) { e = x; }\nconsole.log(e instanceof d.DecodeError, e.code);\n`);
  const a = run(process.execPath, ['decode.cjs'], consumer, 'CommonJS decode').stdout;
  const b = run(process.execPath, ['decode.mjs'], consumer, 'ES module decode').stdout;
  assert.is(a, b, 'both module systems print the same');
  assert.match(a, /DescriptorTable\(/, 'the root signature printed as HLSL');
  assert.match(a, /\ntrue truncated\n$/, 'a typed DecodeError');
});

test('TypeScript .cts and .mts consumers type-check against the installed declarations (node16, no skipLibCheck)', () => {
  assert.ok(existsSync(join(consumer, 'node_modules/dxbin/package.json')), 'installed');
  writeFileSync(
    join(consumer, 'cjs-consumer.cts'),
    `import dxbin = require('dxbin');\nimport query = require('dxbin/query');\nimport type { RootSignature } from 'dxbin';\nconst rs: RootSignature = { version: 2, flags: 0, parameters: [], staticSamplers: [] };\nexport const blob: Uint8Array = dxbin.rootSignatureContainer(dxbin.encodeRootSignature(rs));\nexport const simd: boolean = query.kernelsAvailable('simd');\n`,
  );
  writeFileSync(
    join(consumer, 'esm-consumer.mts'),
    `import { encodeRootSignature, rootSignatureContainer, DecodeError, type RootSignature } from 'dxbin';\nimport { kernelsAvailable } from 'dxbin/query';\nconst rs: RootSignature = { version: 2, flags: 0, parameters: [], staticSamplers: [] };\nexport const blob: Uint8Array = rootSignatureContainer(encodeRootSignature(rs));\nexport const simd: boolean = kernelsAvailable('simd');\nexport const isError = (e: unknown): e is DecodeError => e instanceof DecodeError;\n`,
  );
  writeFileSync(
    join(consumer, 'plugin-consumer.mts'),
    `/// <reference types="dxbin/rollup-modules" />\nimport dxbin, { type RootSignatureModule } from 'dxbin/rollup';\nimport rs, { blob } from './root.rs.hlsl';\nimport bindless from './bindless.hlsl?define=RS&version=1.1&rootsig';\nimport shader from './shader.cso?rootsig';\nexport const plugin: { name: string } = dxbin({ version: '1.1', validate: true });\nexport const a: Uint8Array = blob;\nexport const b: RootSignatureModule = rs;\nexport const c: string = bindless.hlsl;\nexport const d: string[] = shader.parts.map((p) => p.name);\n`,
  );
  writeFileSync(join(consumer, 'wrong.mts'), `import { encodeRootSignature } from 'dxbin';\nexport const x: string = encodeRootSignature({ version: 2, flags: 0, parameters: [], staticSamplers: [] });\n`);
  const options = { module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, skipLibCheck: false, types: [] };
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['cjs-consumer.cts', 'esm-consumer.mts', 'plugin-consumer.mts'] }));
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], consumer, 'tsc --noEmit on the .cts and .mts consumers');
  // and the check can fail: a wrong type is reported against the installed declarations
  writeFileSync(join(consumer, 'tsconfig.wrong.json'), JSON.stringify({ compilerOptions: options, files: ['wrong.mts'] }));
  const wrong = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.wrong.json'], { cwd: consumer, encoding: 'utf8' });
  assert.is(wrong.status, 2, 'tsc rejects a wrong use');
  assert.match(wrong.stdout, /TS2322: Type 'Uint8Array.*' is not assignable to type 'string'/);
});

test('npx dxbin --version runs the installed command; its WebAssembly kernels give the JS results', () => {
  const v = run(process.execPath, [join(dirname(NPM), 'npx-cli.js'), '--no-install', 'dxbin', '--version'], consumer, 'npx dxbin --version');
  assert.is(v.stdout.trim(), pkg.version);
  writeFileSync(
    join(consumer, 'kernels.mjs'),
    `import { kernels, kernelsAvailable, sumQueryResults } from 'dxbin/query';\nconst where = import.meta.resolve('dxbin/query');\nconst bytes = new Uint8Array(64 * 8 * 11);\nfor (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) & 0xff;\nconst sums = (k) => Object.values(sumQueryResults(bytes, 'pipeline-statistics', { kernels: kernels(k) })).map(String).join(',');\nconsole.log(JSON.stringify({ where, simd: kernelsAvailable('simd'), scalar: kernelsAvailable('scalar'), js: sums('js'), wasmSimd: sums('simd'), wasmScalar: sums('scalar') }));\n`,
  );
  const out = JSON.parse(run(process.execPath, ['kernels.mjs'], consumer, 'the WASM kernels').stdout) as Record<string, string | boolean>;
  assert.ok(String(out.where).includes('/consumer/node_modules/dxbin/'), `loaded from the installed copy: ${out.where}`);
  assert.ok(out.simd && out.scalar, 'this Node runs both WASM builds');
  assert.is(out.wasmSimd, out.js, 'SIMD kernels = JS');
  assert.is(out.wasmScalar, out.js, 'scalar kernels = JS');
});

test('are the types wrong (attw, node16 and bundler resolution) finds no problem in the tarball', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'node16', '--format', 'json'], { cwd: work, encoding: 'utf8' });
  const report = JSON.parse(r.stdout) as { analysis: { problems?: { kind: string; entrypoint: string; resolutionKind: string }[]; entrypoints: Record<string, unknown> } };
  const problems = (report.analysis.problems ?? []).filter((p) => p.resolutionKind !== 'node10');
  assert.equal(problems, [], 'attw problems');
  const checked = Object.keys(report.analysis.entrypoints);
  for (const e of ENTRIES) assert.ok(checked.includes(e), `attw checked ${e}`);
  assert.is(r.status, 0, `attw exit status: ${r.stderr}`);
});

test.run();
