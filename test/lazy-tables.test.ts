/**
 * Small tables made on first use, not at import (codecs/enum-table.ts rowsBy and namesByValue):
 * the digest's step tables (src/container/digest-md5.ts md5StepTables), codecs/rdat.ts's names by
 * value. Each is watched in a fresh process: the calls of the builders the tables were made with
 * (Uint8Array.from, Object.fromEntries) that the module itself makes are counted at import and on
 * first use. What they answer is checked against the tables they view.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FUNC_ATTRIB_KIND_TABLE, HIT_GROUP_TYPE_TABLE, NODE_LAUNCH_TYPE_TABLE, hitGroupTypeName, nodeLaunchWord, shaderKindName } from '../codecs/rdat.js';
import { SHADER_KIND } from '../codecs/psv0.js';
import { namesByValue } from '../codecs/enum-table.js';
import { MD5_K, md5Shift, md5StepTables, md5Word } from '../src/container/digest-md5.js';
import { ROOT } from './helpers/corpus.js';

/** Runs `body` (an ES module's text, `url(path)` giving a repository file's URL) in a fresh process under tsx; its stdout as JSON. */
function fresh(body: string): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-lazy-'));
  try {
    const file = join(dir, 'probe.mjs');
    writeFileSync(file, `const url = (p) => ${JSON.stringify(pathToFileURL(ROOT).href)} + '/' + p;\n${body}`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', cwd: ROOT });
    assert.is(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, number>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the digest: importing digest.ts builds no step table; the JS digest builds both on its first call and never again', () => {
  // only calls made by the digest's own modules are counted (their imports may build tables of their own)
  const n = fresh(`
    let built = 0;
    const own = () => /container[\\/]digest(-md5)?\.ts/.test(new Error().stack.split('\\n')[3] ?? '');
    const from = Uint8Array.from;
    Uint8Array.from = function (...a) { if (own()) built++; return from.apply(this, a); };
    const d = await import(url('src/container/digest.ts'));
    const atImport = built;
    const out = new Uint8Array(16);
    d.modifiedMd5JsInto(new Uint8Array(100), out);
    const first = built - atImport;
    d.modifiedMd5JsInto(new Uint8Array(100), out);
    console.log(JSON.stringify({ atImport, first, again: built - atImport - first }));
  `);
  assert.equal(n, { atImport: 0, first: 2, again: 0 });
});

test('the digest step tables are md5Word and md5Shift of every step, one object', () => {
  const t = md5StepTables();
  assert.is(md5StepTables(), t);
  assert.equal([...t.word], Array.from(MD5_K, (_, i) => md5Word(i)));
  assert.equal([...t.shift], Array.from(MD5_K, (_, i) => md5Shift(i)));
  assert.equal([...t.word.subarray(16, 20)], [1, 6, 11, 0]);
  assert.equal([...t.shift.subarray(60, 64)], [6, 10, 15, 21]);
});

test('codecs/rdat.ts: importing it builds no names-by-value view (no Object.fromEntries of its own, no Map); the first look-up builds its index', () => {
  // the record rows (codecs/rows.ts sequential) are built at import and may use both: only calls
  // made by codecs/rdat.ts itself, its views, are counted
  const n = fresh(`
    let entries = 0, maps = 0;
    const own = () => /codecs[\\/]rdat\.ts/.test(new Error().stack.split('\\n')[3] ?? '');
    const fromEntries = Object.fromEntries;
    Object.fromEntries = function (...a) { if (own()) entries++; return fromEntries.apply(this, a); };
    const M = Map;
    globalThis.Map = class extends M { constructor(...a) { maps++; super(...a); } };
    await import(url('codecs/enum-table.ts'));
    await import(url('codecs/psv0.ts'));
    await import(url('codecs/rows.ts'));
    const [e0, m0] = [entries, maps];
    const rdat = await import(url('codecs/rdat.ts'));
    const atImport = entries - e0 + maps - m0;
    rdat.shaderKindName(15);
    rdat.shaderKindName(7);
    const firstLookUp = maps - m0;
    console.log(JSON.stringify({ atImport, firstLookUp }));
  `);
  assert.equal(n, { atImport: 0, firstLookUp: 1 });
});

test('the names by value answer what the tables say: every value, values the tables lack, launch words in lower case without Invalid', () => {
  for (const [name, value] of SHADER_KIND.values) assert.is(shaderKindName(value), name);
  for (const [name, value] of HIT_GROUP_TYPE_TABLE.values) assert.is(hitGroupTypeName(value), name);
  assert.equal([shaderKindName(17), shaderKindName(-1), hitGroupTypeName(2)], [undefined, undefined, undefined]);
  assert.equal([0, 1, 2, 3, 4].map(nodeLaunchWord), [undefined, 'broadcasting', 'coalescing', 'thread', undefined]);
  assert.is(NODE_LAUNCH_TYPE_TABLE.values.length, 4);
  // a view of any table: the first name of a value, as the table lists it
  const names = namesByValue(FUNC_ATTRIB_KIND_TABLE);
  for (const [name, value] of FUNC_ATTRIB_KIND_TABLE.values) assert.is(names(value), name);
});

test.run();
