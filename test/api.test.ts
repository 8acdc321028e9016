/** The public API surface is deliberate: a change to it shows in the checked-in report. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_POINTS, apiReport } from '../scripts/api-report.js';
import { ROOT } from './helpers/corpus.js';

const report = apiReport();

test('api/dxbin.api.md is the surface of the entry points (after a deliberate change: npx tsx scripts/api-report.ts)', () => {
  const committed = readFileSync(join(ROOT, 'api/dxbin.api.md'), 'utf8');
  const a = committed.trimEnd().split('\n');
  const b = report.trimEnd().split('\n');
  const added = b.filter((l) => !a.includes(l));
  const removed = a.filter((l) => !b.includes(l));
  assert.equal({ added, removed }, { added: [], removed: [] });
  assert.is(committed.trimEnd(), report.trimEnd());
});

test('every root export has a doc comment', () => {
  const root = report.slice(report.indexOf('## dxbin\n'), report.indexOf('## dxbin/'));
  assert.equal(root.split('\n').filter((l) => l.endsWith('(undocumented)')), []);
});

test('package.json exports every entry point the report covers', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  for (const entry of Object.keys(ENTRY_POINTS)) {
    const key = entry === 'dxbin' ? '.' : `./${entry.slice('dxbin/'.length)}`;
    assert.ok(key in pkg.exports, `package.json exports ${key}`);
  }
});

test.run();
