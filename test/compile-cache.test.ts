/**
 * The compiled-code cache of the built CLI on Node < 22.1 (src/cli/compile-cache.ts, issue 27):
 * chunks load and link as Node would load them, a run's caches are written at its end and taken
 * by the next run, a cache of other bytes (same length) or a damaged one is never used, an unsafe
 * or unusable folder means no cache, and the built CLI prints the same bytes with the cache cold,
 * warm, off and unwritable.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDirectory, chunkLoader } from '../src/cli/compile-cache.js';
import { builtCli } from './helpers/built-cli.js';
import { CORPUS } from './helpers/corpus.js';

const Module = createRequire(import.meta.url)('node:module') as object;
const scope = { module: { constructor: Module }, dynamicImport: (s: string) => import(s) };
const posix = process.platform !== 'win32';

/** A folder of chunks as rollup writes them: a.cjs requires ./b.cjs and imports a package dynamically. */
function chunks(bValue = 41): string {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-cc-'));
  writeFileSync(
    join(dir, 'a.cjs'),
    `'use strict';\nvar b = require('./b.cjs');\nvar path = require('node:path');\nexports.answer = function () { return b.value + 1; };\nexports.base = path.basename(__filename);\nexports.again = function () { return require('./b.cjs') === b; };\nexports.later = function () { return (typeof __dxbinImport === 'function' ? __dxbinImport : function (s) { return import(s); })('node:path').then(function (m) { return m.sep; }); };\n`,
  );
  writeFileSync(join(dir, 'b.cjs'), `'use strict';\nexports.value = ${bValue};\n`);
  return dir;
}

test('chunks link as Node links them; the caches a run makes are taken by the next run', async () => {
  const dir = chunks();
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-cc-cache-'));
  const first = chunkLoader(scope, cache);
  const a = first.require('./a.cjs', dir) as { answer(): number; base: string; again(): boolean; later(): Promise<string> };
  assert.is(a.answer(), 42);
  assert.is(a.base, 'a.cjs');
  assert.ok(a.again(), 'one module per chunk');
  assert.is(await a.later(), join('x', 'y').slice(1, 2), "import() through the entry's");
  assert.equal(first.loads.map((l) => l.cached), [false, false]);
  assert.equal(readdirSync(cache), [], 'nothing written before the end of the run');
  first.flush();
  assert.is(readdirSync(cache).length, 2);
  const second = chunkLoader(scope, cache);
  assert.is((second.require('./a.cjs', dir) as { answer(): number }).answer(), 42);
  assert.equal(second.loads.map((l) => l.cached), [true, true], 'both caches taken');
  second.flush();
  assert.is(readdirSync(cache).length, 2, 'no temp file left');
});

test('a cache is used only for the very bytes it was made from; a damaged one is not used', () => {
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-cc-cache-'));
  const dir = chunks(41);
  const one = chunkLoader(scope, cache);
  one.require('./a.cjs', dir);
  one.flush();
  // the same names and lengths, other bytes: 41 -> 51
  const other = chunks(51);
  const two = chunkLoader(scope, cache);
  assert.is((two.require('./a.cjs', other) as { answer(): number }).answer(), 52);
  assert.equal(two.loads.map((l) => l.cached), [true, false], 'a.cjs unchanged, b.cjs changed');
  two.flush();
  for (const f of readdirSync(cache)) {
    const b = readFileSync(join(cache, f));
    for (const at of [b.length - 5, b.length - 40]) b.writeUInt8(b.readUInt8(at) ^ 0xff, at);
    writeFileSync(join(cache, f), b);
  }
  const three = chunkLoader(scope, cache);
  assert.is((three.require('./a.cjs', other) as { answer(): number }).answer(), 52, 'damaged caches change no result');
  writeFileSync(join(cache, readdirSync(cache)[0]!), 'short');
  assert.is((chunkLoader(scope, cache).require('./a.cjs', other) as { answer(): number }).answer(), 52);
});

test('cache folder: NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE turns it off, an unsafe folder is not used', () => {
  const root = mkdtempSync(join(tmpdir(), 'dxbin-cc-root-'));
  const dir = cacheDirectory({ NODE_COMPILE_CACHE: root });
  assert.ok(dir?.startsWith(root), String(dir));
  assert.is(cacheDirectory({ NODE_COMPILE_CACHE: root }), dir, 'the same folder again');
  assert.is(cacheDirectory({ NODE_COMPILE_CACHE: root, NODE_DISABLE_COMPILE_CACHE: '1' }), undefined);
  const file = join(root, 'a-file');
  writeFileSync(file, '');
  assert.is(cacheDirectory({ NODE_COMPILE_CACHE: file }), undefined, 'under a file: no cache');
  if (posix) {
    chmodSync(dir!, 0o777);
    assert.is(cacheDirectory({ NODE_COMPILE_CACHE: root }), undefined, 'a folder others can write to');
    const elsewhere = mkdtempSync(join(tmpdir(), 'dxbin-cc-link-'));
    const linked = mkdtempSync(join(tmpdir(), 'dxbin-cc-root-'));
    mkdirSync(join(elsewhere, 'x'), { mode: 0o700 });
    symlinkSync(join(elsewhere, 'x'), join(linked, readdirSync(root).find((n) => n.startsWith('dxbin-compile-cache'))!));
    assert.is(cacheDirectory({ NODE_COMPILE_CACHE: linked }), undefined, 'a link is not followed');
  }
});

test('the built CLI: the same bytes with the cache cold, warm, off and unwritable; worker threads start', async () => {
  const cli = await builtCli();
  const rs = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');
  const root = mkdtempSync(join(tmpdir(), 'dxbin-cc-cli-'));
  const env = (extra: Record<string, string>) => {
    const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
    delete e.NODE_DISABLE_COMPILE_CACHE;
    if (extra.NODE_DISABLE_COMPILE_CACHE) e.NODE_DISABLE_COMPILE_CACHE = extra.NODE_DISABLE_COMPILE_CACHE;
    return e;
  };
  const decode = (extra: Record<string, string>) => {
    const r = spawnSync(process.execPath, [cli, 'rootsig', 'decode', rs], { encoding: 'utf8', env: env(extra) });
    assert.is(r.status, 0, r.stderr);
    assert.is(r.stderr, '');
    return r.stdout;
  };
  const cold = decode({ NODE_COMPILE_CACHE: root });
  assert.match(cold, /"version": "1.1"/);
  const made = readdirSync(root).find((n) => n.startsWith('dxbin-compile-cache'));
  const cached = readdirSync(join(root, made!));
  assert.ok(cached.some((f) => /^main-.*\.cache$/.test(f)) && cached.some((f) => /^rootsig-decode-.*\.cache$/.test(f)), cached.join(' '));
  assert.is(decode({ NODE_COMPILE_CACHE: root }), cold, 'warm');
  const off = mkdtempSync(join(tmpdir(), 'dxbin-cc-off-'));
  assert.is(decode({ NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: '1' }), cold, 'off');
  assert.equal(readdirSync(off), [], 'off: nothing written');
  const file = join(off, 'not-a-folder');
  writeFileSync(file, '');
  assert.is(decode({ NODE_COMPILE_CACHE: file }), cold, 'unwritable');
  if (posix && process.getuid?.() !== 0) {
    const ro = mkdtempSync(join(tmpdir(), 'dxbin-cc-ro-'));
    chmodSync(ro, 0o500);
    assert.is(decode({ NODE_COMPILE_CACHE: ro }), cold, 'read-only');
  }
  // --jobs: worker threads start from the main chunk, which Node loads itself there
  const out = mkdtempSync(join(tmpdir(), 'dxbin-cc-jobs-'));
  const r = spawnSync(process.execPath, [cli, 'rootsig', 'decode', rs, join(CORPUS, 'rootsig/brawler__RootSignatureDefinition__BC6H_BC7_COMPRESSION__SERIALIZED_ROOT_SIGNATURE_VERSION_1_0.dxbc'), '--jobs', '2', '--out-dir', out], { encoding: 'utf8', env: env({ NODE_COMPILE_CACHE: root }) });
  assert.is(r.status, 0, r.stderr);
  assert.equal(readdirSync(out).length, 2);
});

test.run();
