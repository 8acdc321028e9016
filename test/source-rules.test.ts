/**
 * Rules read from the sources themselves (src/, web/, codecs/), so that a kind of bug cannot come
 * back in a new place (issue 26):
 *
 * - No spread into a call: `f(...x)`, `push(...x)`, `Math.max(...x)`, `String.fromCharCode(...x)`,
 *   `new C(...x)`. Each argument goes on the stack, so an input-sized array throws RangeError past
 *   the engine's argument limit (about 120,000 in V8) and costs a stack copy before that. Array
 *   literals (`[...a, ...b]`) are allowed: they copy linearly and have no argument limit. The
 *   allowlist names the few spreads of fixed size (rows of codecs/ tables, a tuple) with reasons.
 * - Every test registered: nothing follows a test file's `test.run()` (uvu never runs a test added
 *   after it; two files had tests that never ran).
 * - One text boundary: in the files that print (the CLI, library listings, hex dumps, the HLSL
 *   printer, node outputs), a template string interpolating an input-derived name (`.name`,
 *   `.Name`, `.exportName`, `file`, ...) must pass it through `printable`, `hlslIdentifier` (or a
 *   function built on them) on the way, or be listed with the reason it is not input or not text.
 *   A heuristic by property name: it catches the usual shape of the bug, not every one.
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

/** The files that print text (terminal lines, generated HLSL, diagnostics, depfiles, listings). */
const PRINTING = /^src\/(cli\/|build-step\/|inspect\/|rdat\/(library|edit|state-object)\.ts$|root-signature\/hlsl\/printer\.ts$|ddi\/nodes\.ts$)/;
/** Names that come from input where they are interpolated. */
const INPUT_NAME = /(^|\.)(name|Name|exportName|mangledName|semanticName|file|subobject|Subobject|export|Exports|ClosestHit|AnyHit|Intersection|UnmangledName)$/;
/** Calls that are the boundary (or built on it): an interpolation anywhere inside one is escaped. */
const BOUNDARY = new Set(['printable', 'printableJson', 'hlslIdentifier', 'printableText', 'fourCcText', 'depfilePath', 'escapeText', 'escapeHtml', 'printRootSignatureDefine']);
/** Interpolations of a name that needs no escaping: `file expression` -> why. */
const NOT_INPUT_TEXT: Record<string, string> = {
  'src/cli/commands/ddi.ts layout.name': 'a structure name from the rows of codecs/ddi.ts',
  'src/cli/commands/ddi.ts f.name': 'a field name from the rows of codecs/ddi.ts',
  'src/cli/commands/ddi.ts name': 'the structure name typeName() took from codecs/ddi.ts',
  'src/cli/commands/library-rootsig.ts s.name': 'a violation path in --json only (printableJson escapes it)',
  'src/cli/commands/library-rootsig.ts target.name': 'a version name from codecs/root-signature.ts',
  'src/cli/commands/rootsig-convert.ts target.name': 'a version name from codecs/root-signature.ts',
  'src/cli/commands/query.ts name': 'a result field name from codecs/query.ts',
  'src/cli/errors.ts d.file': 'diagnosticText makes the file and field printable first',
  'src/build-step/errors.ts file': 'Error.message of InputError; the CLI prints file and detail through formatDiagnostic',
  'src/cli/glob.ts e.name': 'a path handed to the file system, not printed',
  'src/cli/paths.ts name': 'joinAsSystem builds a path handed to the file system, not printed',
  'src/cli/compile-cache.ts file': 'the compile cache\'s temp path, handed to the file system, not printed',
  'src/rdat/state-object.ts name': 'a map key, not text',
  'src/root-signature/hlsl/printer.ts name': 'checked by hlslIdentifier at the entry of printRootSignatureDefine',
};

function insideBoundary(n: ts.Node, sf: ts.SourceFile): boolean {
  for (let p: ts.Node | undefined = n.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isCallExpression(p)) {
      const callee = p.expression.getText(sf).split('.').pop()!;
      if (BOUNDARY.has(callee)) return true;
    }
    if (ts.isFunctionLike(p)) return false;
  }
  return false;
}

test('the text boundary: printing files interpolate input names only through printable / hlslIdentifier (heuristic, listed exceptions)', () => {
  const hits: string[] = [];
  const used = new Set<string>();
  let seen = 0;
  for (const { file, sf } of parsed(['src'])) {
    if (!PRINTING.test(file)) continue;
    walk(sf, (n) => {
      if (!ts.isTemplateSpan(n)) return;
      const text = n.expression.getText(sf);
      if (!INPUT_NAME.test(text)) return;
      seen++;
      if (insideBoundary(n.expression, sf)) return;
      const key = `${file} ${text}`;
      if (key in NOT_INPUT_TEXT) used.add(key);
      else hits.push(`${file}:${line(sf, n)}: \${${text}} in ${n.parent.getText(sf).slice(0, 90)}`);
    });
  }
  assert.ok(seen > 20, `only ${seen} interpolated names seen: is the walker reading the sources?`);
  assert.equal(hits, [], 'an input name printed without printable()/hlslIdentifier() (or list it in NOT_INPUT_TEXT with why)');
  assert.equal(Object.keys(NOT_INPUT_TEXT).filter((k) => !used.has(k)), [], 'listed exceptions that no longer occur');
});

test('the boundary walker flags a raw name and passes an escaped one (planted)', () => {
  const sf = ts.createSourceFile('x.ts', 'print(`export ${e.name}`); print(`export ${printable(e.name)}`); err(printable(`${s.name}: x`));', ts.ScriptTarget.Latest, true);
  const raw: string[] = [];
  walk(sf, (n) => {
    if (ts.isTemplateSpan(n) && INPUT_NAME.test(n.expression.getText(sf)) && !insideBoundary(n.expression, sf)) raw.push(n.expression.getText(sf));
  });
  assert.equal(raw, ['e.name']);
});


/**
 * Values quoted in error messages (issue 26, test/hostile-new-surfaces.test.ts): a template
 * interpolating `JSON.stringify(...)` inside `new ...Error(...)` in the library walks the value
 * whole (a 100,000-deep one overflowed the stack, an 870 KB name made an 870 KB message); such a
 * value goes through `quoted` (src/bytes/text.ts) instead. `file JSON.stringify(argument)` -> why.
 */
const STRINGIFY_IN_ERRORS: Record<string, string> = {
  'src/root-signature/hlsl/source.ts k': 'a key of the virtual tree the caller wrote',
};

test('no JSON.stringify of a value inside an error message in src/ outside the CLI (quoted instead; listed exceptions)', () => {
  const hits: string[] = [];
  const used = new Set<string>();
  let errors = 0;
  for (const { file, sf } of parsed(['src'])) {
    if (file.startsWith('src/cli/')) continue;
    walk(sf, (n) => {
      if (!ts.isNewExpression(n) || !/Error$/.test(n.expression.getText(sf))) return;
      errors++;
      walk(n, (m) => {
        if (!ts.isCallExpression(m) || m.expression.getText(sf) !== 'JSON.stringify' || !ts.isTemplateSpan(m.parent)) return;
        const key = `${file} ${m.arguments[0]?.getText(sf) ?? ''}`;
        if (key in STRINGIFY_IN_ERRORS) used.add(key);
        else hits.push(`${file}:${line(sf, m)}: ${m.getText(sf)}`);
      });
    });
  }
  assert.ok(errors > 100, `only ${errors} errors seen: is the walker reading the sources?`);
  assert.equal(hits, [], 'JSON.stringify of a value in an error message: use quoted() (src/bytes/text.ts), or list it in STRINGIFY_IN_ERRORS with why');
  assert.equal(Object.keys(STRINGIFY_IN_ERRORS).filter((k) => !used.has(k)), [], 'listed exceptions that no longer occur');
});


/**
 * One work budget: a `limit-exceeded` error is made only by src/bytes/budget.ts (its LimitError),
 * so no surface keeps a private counter of its own. Listed: the places that carry the budget's
 * LimitError on in another class, with reasons.
 */
const LIMIT_WRAPPERS: Record<string, string> = {
  'src/root-signature/hlsl/preprocessor/context.ts': "HlslError('limit-exceeded') carries the budget's LimitError (its `limit`) at file:line:column",
};

/** `new XError('limit-exceeded', ...)` in a file: the lines. */
function limitErrorsMade(sf: ts.SourceFile): number[] {
  const lines: number[] = [];
  walk(sf, (n) => {
    if (!ts.isNewExpression(n) || !n.arguments) return;
    if (n.arguments.some((a) => ts.isStringLiteralLike(a) && a.text === 'limit-exceeded')) lines.push(line(sf, n));
  });
  return lines;
}

test("one work budget: no 'limit-exceeded' error is made outside src/bytes/budget.ts (no private counters)", () => {
  const hits: string[] = [];
  const used = new Set<string>();
  for (const { file, sf } of parsed(['src', 'web', 'codecs'])) {
    if (file === 'src/bytes/budget.ts') continue;
    const made = limitErrorsMade(sf);
    if (made.length === 0) continue;
    if (file in LIMIT_WRAPPERS) used.add(file);
    else hits.push(...made.map((l) => `${file}:${l}`));
  }
  assert.equal(hits, [], "a private limit: charge the work budget (src/bytes/budget.ts) with a kind from codecs/limits.ts instead");
  assert.equal(Object.keys(LIMIT_WRAPPERS).filter((k) => !used.has(k)), [], 'listed wrappers that no longer make one');
});

test('the limit walker finds a private counter (planted)', () => {
  const sf = ts.createSourceFile('x.ts', "if (++n > max) throw new DecodeError('limit-exceeded', at, path, 'too many');\nthrow new LimitError('resolve', 1, 'maxResolved', 'p');", ts.ScriptTarget.Latest, true);
  assert.equal(limitErrorsMade(sf), [1]);
});

/** Lines of `sf` that look for a NUL byte themselves: `x.indexOf(0, ...)` / `x.indexOf(0)`. */
function nulScans(sf: ts.SourceFile): number[] {
  const lines: number[] = [];
  walk(sf, (n) => {
    if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression) || n.expression.name.text !== 'indexOf') return;
    const first = n.arguments[0];
    if (first && ts.isNumericLiteral(first) && Number(first.text) === 0) lines.push(line(sf, n));
  });
  return lines;
}

test('one string reader: no NUL-terminated string is scanned for outside src/bytes/strings.ts (readNul, tableNames)', () => {
  const hits: string[] = [];
  for (const { file, sf } of parsed(['src', 'web', 'codecs'])) {
    if (file === 'src/bytes/strings.ts') continue;
    hits.push(...nulScans(sf).map((l) => `${file}:${l}`));
  }
  assert.equal(hits, [], 'read NUL-terminated strings through src/bytes/strings.ts (each end found once)');
});

test('the NUL-scan walker finds one (planted)', () => {
  const sf = ts.createSourceFile('x.ts', 'const end = pool.indexOf(0, offset);\nconst i = names.indexOf(name);', ts.ScriptTarget.Latest, true);
  assert.equal(nulScans(sf), [1]);
});


/** Top-level statements of a test file after its first `X.run()` that are not runs themselves (tests registered there never run). */
function afterRun(sf: ts.SourceFile): number[] {
  const isRun = (st: ts.Statement) => ts.isExpressionStatement(st) && ts.isCallExpression(st.expression) && ts.isPropertyAccessExpression(st.expression.expression) && st.expression.expression.name.text === 'run';
  const first = sf.statements.findIndex(isRun);
  return first < 0 ? [] : sf.statements.slice(first + 1).filter((st) => !isRun(st)).map((st) => line(sf, st));
}

test('every test is registered: nothing in a test file comes after its test.run() (uvu never runs a test added later)', () => {
  const hits: string[] = [];
  for (const { file, sf } of parsed(['test']).filter((f) => f.file.endsWith('.test.ts'))) hits.push(...afterRun(sf).map((l) => `${file}:${l}`));
  assert.equal(hits, [], 'move test.run() to the end of the file');
});

test('the after-run walker finds a late test (planted)', () => {
  const sf = ts.createSourceFile('x.test.ts', "test('a', () => {});\ntest.run();\ntest('late', () => {});\n", ts.ScriptTarget.Latest, true);
  assert.equal(afterRun(sf), [3]);
});

test.run();
