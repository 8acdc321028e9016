/**
 * What an app pays for dxbin, with real app builds (esbuild and Vite) against the library's ES
 * build (scripts/bundle-size.ts): each import within its budget, and the table in docs/library.md
 * the same measurement (within 0.3 KiB: bundler output is not byte-stable across machines).
 *
 * Budgets are issue 29's where met. Not yet met (docs/library.md says so in its table): HLSL
 * compile/print (goal 80 / 24 KiB; esbuild 83.7 / 24.7, Vite 83.1 / 24.0 at this commit) and the
 * whole library (goal 250 / 70; 268 / 87.5 and 267 / 84.6): their budgets here are the current
 * size and a little room, so that growth fails while the goal is open.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CASES, DOC, measureBundles, tableNumbers, type Measured } from '../scripts/bundle-size.js';
import { ROOT } from './helpers/corpus.js';

const BUDGETS: Record<number, { min: number; gzip: number }> = {
  0: { min: 30, gzip: 9.3 }, // goal 30 / 9: 28.8 / 8.7 before the one text boundary (issue 26) reached the decoders' messages, 29.9 / 9.1 after; not met
  1: { min: 87, gzip: 26 }, // goal 80 / 24, not yet met (84.9 / 25.2)
  2: CASES[2]!.goal, // query kernels: 25 / 9
  3: { min: 375, gzip: 122 }, // goal 250 / 70, not yet met: 367.5 / 118.9 with issue 28's parts and issue 31's pipelines
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
