/**
 * Rules read from the sources themselves (src/, web/, codecs/), so that a kind of bug cannot come
 * back in a new place (issue 26):
 *
 * - No spread into a call: `f(...x)`, `push(...x)`, `Math.max(...x)`, `String.fromCharCode(...x)`,
 *   `new C(...x)`. Each argument goes on the stack, so an input-sized array throws RangeError past
 *   the engine's argument limit (about 120,000 in V8) and costs a stack copy before that. Array
 *   literals (`[...a, ...b]`) are allowed: they copy linearly and have no argument limit. The
 *   allowlist names the few spreads of fixed size (rows of codecs/ tables, a tuple) with reasons.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return sources(p);
      return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
    });
}

function parsed(dirs: readonly string[]): { file: string; sf: ts.SourceFile }[] {
  return dirs.flatMap((d) => sources(join(ROOT, d))).map((p) => ({ file: relative(ROOT, p), sf: ts.createSourceFile(p, readFileSync(p, 'utf8'), ts.ScriptTarget.Latest, true) }));
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (c) => walk(c, visit));
}

const line = (sf: ts.SourceFile, n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;

/** Spreads into calls of a fixed size: `file` and the spread's text -> why it cannot grow with the input. */
const FIXED_SPREADS: Record<string, string> = {
  'src/root-signature/decode.ts ...ROOT_SIGNATURE_VERSIONS.map((v) => HEADER.sizes[v.value])': 'one per row of the versions table in codecs/',
  'src/root-signature/rows.ts ...PARAMETER_TYPES.map((t) => t.value)': 'one per parameter-type row in codecs/',
  'src/root-signature/validate.ts ...TEXTURE_ADDRESS_MODE.values.map(([, v]) => v)': 'one per address-mode row in codecs/ (min and max)',
  'src/query/decode.ts ...q.result.fields.map((f) => (data as Record<string, ArrayLike<bigint>>)[f.name]?.length ?? 0)': 'one per field of a query result struct row (at most 11)',
  'src/ddi/spans.ts ...queue[i]!': 'a three-element tuple (struct, offset, path)',
  'src/fuzz/seeds.ts ...container.subarray(at, at + 4)': 'four bytes of a FourCC',
};

test('no spread of an array into a call in src/, web/ or codecs/ (fixed-size ones listed with reasons)', () => {
  const hits: string[] = [];
  const used = new Set<string>();
  let spreads = 0;
  for (const { file, sf } of parsed(['src', 'web', 'codecs'])) {
    walk(sf, (n) => {
      if (!ts.isSpreadElement(n)) return;
      spreads++;
      const p = n.parent;
      if (!(ts.isCallExpression(p) || ts.isNewExpression(p))) return;
      const key = `${file} ${n.getText(sf)}`;
      if (key in FIXED_SPREADS) used.add(key);
      else hits.push(`${file}:${line(sf, n)}: ${p.getText(sf).slice(0, 100)}`);
    });
  }
  assert.ok(spreads > 50, `only ${spreads} spreads seen: is the walker reading the sources?`);
  assert.equal(hits, [], 'spread into a call: use a loop (or list a fixed-size one in FIXED_SPREADS with its reason)');
  assert.equal(Object.keys(FIXED_SPREADS).filter((k) => !used.has(k)), [], 'allowlisted spreads that no longer exist');
});

test('the spread walker finds what it bans (a planted example)', () => {
  const sf = ts.createSourceFile('x.ts', 'out.push(...xs); Math.max(...ys); const a = [...xs];', ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  walk(sf, (n) => {
    if (ts.isSpreadElement(n) && (ts.isCallExpression(n.parent) || ts.isNewExpression(n.parent))) found.push(n.getText(sf));
  });
  assert.equal(found, ['...xs', '...ys']);
});

test.run();
