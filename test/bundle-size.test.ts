/**
 * What an app pays for dxbin, with real app builds (esbuild and Vite) against the library's ES
 * build (scripts/bundle-size.ts): each import within its budget, and the table in docs/library.md
 * the same measurement (within 0.3 KiB: bundler output is not byte-stable across machines).
 *
 * Budgets are issue 29's where met: root signature only, root signature + HLSL compile/print
 * and query kernels (esbuild 25.1 / 8.99, 68.5 / 23.4 and 22.0 / 9.0 KiB on the afternoon of
 * 2026-12-02, the first and third with 15 and 2 bytes of gzip to spare, the third 23 since QUERY_TYPE is built in a pure call,
 * and 30 on 2026-12-03 with a detached buffer refused in every kernel and base64 read by atob alone, then
 * missed by the unknown-key check of the options and met again with the WASM one character per byte (below); the HLSL case went from
 * 72.0 / 24.45 to under its goal when the digest's inlined WASM became a module written at load
 * from MD5's step table). Not met (docs/library.md says so in its table, and why
 * no string table can meet it), so its budget here is the current size and a little room, so that
 * growth fails unless it is chosen: the whole library (goal 250 / 70; esbuild 388.8 / 132.5, Vite
 * 387.2 / 127.4 on 2026-12-03).
 * `npx tsx scripts/bundle-size.ts --analyze` prints what each bundle holds, module by module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CASES, DOC, measureBundles, tableNumbers, type Measured } from '../scripts/bundle-size.js';
import { ROOT } from './helpers/corpus.js';

const BUDGETS: Record<number, { min: number; gzip: number }> = {
  // root signature only: goal 30 / 9. Met on 2026-12-02 with 15 bytes of gzip to spare, missed on 2026-12-03 by 189
  // bytes (the fifth hostile-input round's checks in parseContainer and the part lookups), met again on 2026-12-03
  // (evening) with 65 to spare: readRootSignatureSource reads its own parse without checking its shape again (one
  // check, at the public boundary), printable makes its classes from shared pieces, and the detached-buffer check
  // moved into expectBytes (the one byte-argument check) with shorter words
  0: CASES[0]!.goal,
  1: CASES[1]!.goal, // + HLSL compile/print: 80 / 24 (esbuild 23.0 KiB gzip; 24.45 with the digest's inlined WASM, 25.1 before the budget cuts)
  // query kernels: goal 25 / 9, met until 2026-12-03 (evening, 9186 B gzip with a detached buffer refused), missed
  // by the unknown-key check of every operation's options (+0.6 KiB: 9841 B), met again on 2026-12-03 (night,
  // 8975 B) with the WASM inlined one character per byte instead of base64 (scripts/build-wasm.mjs)
  2: CASES[2]!.goal,
  // goal 250 / 70, not met: 367.5 / 125.3. It was 350.4 / 118.9 at the start of 2026-12-02 (morning) and
  // 359.3 / 122.1 at the start of the afternoon; what the growth bought: that morning's hostile-input
  // mends (+1.6 / +0.6), stream-output and GS input primitive rules (+5 / +1.7), the nanBits check
  // (+0.4 / +0.2) and memory work (+1.9 / +0.7); the afternoon's float range and row nanBits checks
  // with encodePsv0's planning pass (+1.5 / +0.7), the third hostile-input round with its literal
  // decoder (+3.7 / +1.4), describeLibrary's names and references (+1.8 / +0.6) and the rest (+1.2 / +0.5)
  // and on 2026-12-03 388.8 / 132.5 (+21 / +7 in all): the fifth hostile-input round (raw keys in paths, detached
  // buffers, RDAT's description boundary, PSV0/part/container/DDI argument checks) and presumed locations after #line
  // 388.4 / 132.8 on 2026-12-03 (evening) after four helpers' merges; 391.4 / 133.9 with the sixth hostile-input
  // round (encodeRdat's string and key checks, work limits refused), #pragma GCC poison, _Pragma and -E as DXC;
  // 391.5 / 133.0 with the WASM inlined one character per byte (2026-12-03, night), 396.1 / 134.5 after the seventh
  // hostile-input round (plain options objects, refs and FunctionTable keys checked, bounded quotes), the build-step
  // round (pipeline-stream holes and keys) and the return-type check of -E (+4.6 / +1.5); 400.6 / 136.2 after the
  // eighth (every RDAT table's record keys, one subobject type a stream, the rows' names checked, option names,
  // readOnce at the description entries: +4.5 / +1.7)
  3: { min: 404, gzip: 139 },
};

let rows: Measured[] = [];

test('measure: the library built, each app built with esbuild and Vite', async () => {
  rows = await measureBundles();
  assert.is(rows.length, CASES.length * 2);
  for (const r of rows) assert.ok(r.min > 1 && r.gzip > 0.5 && r.gzip < r.min, `${r.bundler} ${r.name}: ${r.min} / ${r.gzip}`);
});

test('each import within its budget, with both bundlers', () => {
  assert.ok(rows.length > 0, 'measured');
  for (const [i, c] of CASES.entries()) {
    for (const r of rows.filter((x) => x.name === c.name)) {
      const b = BUDGETS[i]!;
      assert.ok(r.min <= b.min, `${r.bundler}, ${c.name}: ${r.min.toFixed(1)} KiB minified, budget ${b.min}`);
      assert.ok(r.gzip <= b.gzip, `${r.bundler}, ${c.name}: ${r.gzip.toFixed(1)} KiB gzip, budget ${b.gzip}`);
    }
  }
  // the split is real: a decode-only app is far smaller than one that also compiles
  const e = (i: number) => rows.find((r) => r.name === CASES[i]!.name && r.bundler === 'esbuild')!;
  assert.ok(e(0).min * 2 < e(1).min, `${e(0).min} vs ${e(1).min}`);
});

test(`the table in ${DOC} is this measurement (npx tsx scripts/bundle-size.ts rewrites it)`, () => {
  assert.ok(rows.length > 0, 'measured');
  const shown = tableNumbers(readFileSync(join(ROOT, DOC), 'utf8'));
  assert.is(shown.length, CASES.length, 'one row per case');
  for (const [i, c] of CASES.entries()) {
    const e = rows.find((r) => r.name === c.name && r.bundler === 'esbuild')!;
    const v = rows.find((r) => r.name === c.name && r.bundler === 'vite')!;
    const now = [e.min, e.gzip, v.min, v.gzip];
    for (const [k, n] of now.entries()) assert.ok(Math.abs(n - shown[i]![k]!) <= 0.3, `${c.name}: shown ${shown[i]![k]}, measured ${n.toFixed(1)} KiB (run npx tsx scripts/bundle-size.ts)`);
  }
});

test.run();
