// What an app pays for importing dxbin: the library's ES build (libraryEsBuild of rollup.config.mjs)
// is installed as node_modules/dxbin of a scratch app, and real app builds are measured: esbuild
// (bundle, minify) and Vite (a production build of an index.html), each import below, minified and
// gzip -9 sizes of the script. test/bundle-size.test.ts holds the budgets and checks that the table
// in docs/library.md is this measurement; `npx tsx scripts/bundle-size.ts` measures and rewrites it
// (`--analyze` also prints what each esbuild bundle holds, module by module).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One app: what it imports, and the budget issue 29 set (KiB, minified and gzip). */
export interface BundleCase {
  name: string;
  code: string;
  goal: { min: number; gzip: number };
}

export const CASES: readonly BundleCase[] = [
  {
    name: 'root signature only (readRootSignatureSource, rootSignatureToJson)',
    code: "import { readRootSignatureSource, rootSignatureToJson } from 'dxbin';\nglobalThis.f = (b) => rootSignatureToJson(readRootSignatureSource(b).rootSignature);\n",
    goal: { min: 30, gzip: 9 },
  },
  {
    name: 'root signature + HLSL compile/print (+ compileRootSignatureBlob, printRootSignature)',
    code: "import { readRootSignatureSource, compileRootSignatureBlob, printRootSignature } from 'dxbin';\nglobalThis.f = (b) => printRootSignature(readRootSignatureSource(b).rootSignature);\nglobalThis.g = compileRootSignatureBlob;\n",
    goal: { min: 80, gzip: 24 },
  },
  {
    name: 'query kernels (timestampDurations, summarizeDurations, sumQueryResults, deltaQueryResults, soOverflow, occlusionToBinary, gatherVirtualQueries, kernels; WASM inlined)',
    code: "import { timestampDurations, summarizeDurations, sumQueryResults, deltaQueryResults, soOverflow, occlusionToBinary, gatherVirtualQueries, kernels } from 'dxbin/query';\nglobalThis.q = { timestampDurations, summarizeDurations, sumQueryResults, deltaQueryResults, soOverflow, occlusionToBinary, gatherVirtualQueries, kernels };\n",
    goal: { min: 25, gzip: 9 },
  },
  {
    name: 'whole library (import * from dxbin, dxbin/query, dxbin/ddi)',
    code: "import * as a from 'dxbin';\nimport * as q from 'dxbin/query';\nimport * as d from 'dxbin/ddi';\nglobalThis.x = { a, q, d };\n",
    goal: { min: 250, gzip: 70 },
  },
];

export interface Measured {
  name: string;
  bundler: 'esbuild' | 'vite';
  min: number;
  gzip: number;
  /** esbuild rows: what the bundle holds, module by module, biggest first (esbuild's analyzeMetafile). */
  analysis?: string;
  /** esbuild rows: the same bundle with every string literal and template text emptied (stringFree). */
  withoutStrings?: { min: number; gzip: number };
}

/**
 * The sizes of a bundle with every string literal and template text replaced by an empty one: a
 * lower bound for any way of keeping strings out of a bundle (a message table, codes in place of
 * names), since what is left is code and property names.
 */
export async function stringFree(code: string): Promise<{ min: number; gzip: number }> {
  const { default: ts } = await import('typescript');
  const sf = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const spans: [number, number][] = [];
  const visit = (n: import('typescript').Node): void => {
    const k = n.kind;
    if (k === ts.SyntaxKind.StringLiteral || k === ts.SyntaxKind.NoSubstitutionTemplateLiteral) spans.push([n.getStart(sf), n.getEnd()]);
    else if (k === ts.SyntaxKind.TemplateHead || k === ts.SyntaxKind.TemplateMiddle || k === ts.SyntaxKind.TemplateTail) spans.push([n.getStart(sf) + 1, n.getEnd() - (k === ts.SyntaxKind.TemplateTail ? 1 : 2)]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  spans.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [s, e] of spans) {
    if (s < at) continue;
    const lit = code[s] === '"' || code[s] === "'" || code[s] === '`';
    parts.push(code.slice(at, s), lit ? code[s]! + code[s]! : '');
    at = e;
  }
  parts.push(code.slice(at));
  return sizes([new TextEncoder().encode(parts.join(''))]);
}

const sizes = (files: Uint8Array[]) => ({
  min: files.reduce((n, b) => n + b.byteLength, 0) / 1024,
  gzip: files.reduce((n, b) => n + gzipSync(b, { level: 9 }).byteLength, 0) / 1024,
});

/** The library's ES build installed as WORK/node_modules/dxbin. */
async function buildLibrary(work: string): Promise<void> {
  const pkgDir = join(work, 'node_modules', 'dxbin');
  mkdirSync(pkgDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name: 'dxbin', version: pkg.version, type: 'module', sideEffects: pkg.sideEffects, exports: pkg.exports }));
  const { rollup } = await import('rollup');
  const { libraryEsBuild } = (await import(new URL('../rollup.config.mjs', import.meta.url).href)) as { libraryEsBuild: (dir: string) => import('rollup').RollupOptions & { output: import('rollup').OutputOptions } };
  const cwd = process.cwd();
  process.chdir(ROOT); // the config's paths are relative to the repository
  try {
    const config = libraryEsBuild(join(pkgDir, 'dist'));
    const bundle = await rollup({ ...config, onwarn: () => {} });
    await bundle.write(config.output);
    await bundle.close();
  } finally {
    process.chdir(cwd);
  }
}

/** Builds the library into a scratch node_modules/dxbin and measures every case with both bundlers. */
export async function measureBundles(): Promise<Measured[]> {
  const work = mkdtempSync(join(tmpdir(), 'dxbin-bundle-'));
  try {
    await buildLibrary(work);
    const esbuild = await import('esbuild');
    const { build: vite } = await import('vite');
    const out: Measured[] = [];
    for (const [i, c] of CASES.entries()) {
      const app = join(work, `app${i}`);
      mkdirSync(app);
      writeFileSync(join(app, 'main.js'), c.code);
      writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title><script type="module" src="./main.js"></script>\n');
      const e = await esbuild.build({ entryPoints: [join(app, 'main.js')], absWorkingDir: work, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent', metafile: true, outdir: join(app, 'out') });
      const analysis = await esbuild.analyzeMetafile(e.metafile, { color: false });
      const withoutStrings = await stringFree(e.outputFiles.map((f) => f.text).join('\n'));
      out.push({ name: c.name, bundler: 'esbuild', ...sizes(e.outputFiles.map((f) => f.contents)), analysis, withoutStrings });
      const dist = join(app, 'dist');
      await vite({ root: app, logLevel: 'silent', configFile: false, build: { outDir: dist, minify: true, modulePreload: false, emptyOutDir: true } });
      const assets = join(dist, 'assets');
      out.push({ name: c.name, bundler: 'vite', ...sizes(readdirSync(assets).filter((f) => f.endsWith('.js')).map((f) => new Uint8Array(readFileSync(join(assets, f))))) });
    }
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The value exports of src/index.ts by its section comments (`// ---- name`), for --sections. */
export async function indexSections(): Promise<Map<string, string[]>> {
  const { default: ts } = await import('typescript');
  const text = readFileSync(join(ROOT, 'src/index.ts'), 'utf8');
  const sf = ts.createSourceFile('index.ts', text, ts.ScriptTarget.Latest, true);
  const out = new Map<string, string[]>();
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || st.isTypeOnly || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
    const before = text.slice(0, st.getStart(sf));
    const heading = [...before.matchAll(/^\/\/ -{8,} (.+)$/gm)].pop()?.[1] ?? 'top';
    const names = out.get(heading) ?? [];
    for (const e of st.exportClause.elements) if (!e.isTypeOnly) names.push(e.name.text);
    out.set(heading, names);
  }
  return out;
}

/**
 * What each section of src/index.ts adds to the whole library: the whole library's esbuild size
 * less the size of an app importing everything but that section's exports (what dropping the section
 * would save; sections share modules, so the savings do not add up to the whole).
 */
export async function sectionCosts(): Promise<{ section: string; exports: number; min: number; gzip: number }[]> {
  const work = mkdtempSync(join(tmpdir(), 'dxbin-sections-'));
  try {
    await buildLibrary(work);
    const esbuild = await import('esbuild');
    const size = async (code: string) => {
      writeFileSync(join(work, 'main.js'), code);
      const e = await esbuild.build({ entryPoints: [join(work, 'main.js')], absWorkingDir: work, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent', outdir: join(work, 'out') });
      return sizes(e.outputFiles.map((f) => f.contents));
    };
    const sections = await indexSections();
    const app = (skip: string | undefined) => {
      const names = [...sections].filter(([k]) => k !== skip).flatMap(([, v]) => v);
      return `import { ${names.join(', ')} } from 'dxbin';\nimport * as q from 'dxbin/query';\nimport * as d from 'dxbin/ddi';\nglobalThis.x = { ${names.join(', ')}, q, d };\n`;
    };
    const whole = await size(app(undefined));
    const out = [];
    for (const [section, names] of sections) {
      const less = await size(app(section));
      out.push({ section, exports: names.length, min: whole.min - less.min, gzip: whole.gzip - less.gzip });
    }
    const noQuery = await size(app(undefined).replace("import * as q from 'dxbin/query';\n", '').replace(', q, d', ', d'));
    const noDdi = await size(app(undefined).replace("import * as d from 'dxbin/ddi';\n", '').replace(', q, d', ', q'));
    out.push({ section: 'dxbin/query', exports: 0, min: whole.min - noQuery.min, gzip: whole.gzip - noQuery.gzip });
    out.push({ section: 'dxbin/ddi', exports: 0, min: whole.min - noDdi.min, gzip: whole.gzip - noDdi.gzip });
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const TABLE_START = '<!-- bundle-size: written by scripts/bundle-size.ts, checked by test/bundle-size.test.ts -->';
export const TABLE_END = '<!-- /bundle-size -->';

/** The table of docs/library.md for a measurement. */
export function bundleTable(rows: readonly Measured[]): string {
  const kib = (n: number) => `${n.toFixed(1)} KiB`;
  const lines = ['| import | esbuild min / gzip | Vite min / gzip | goal (issue 29) | met |', '| --- | ---: | ---: | ---: | --- |'];
  for (const c of CASES) {
    const e = rows.find((r) => r.name === c.name && r.bundler === 'esbuild')!;
    const v = rows.find((r) => r.name === c.name && r.bundler === 'vite')!;
    const met = Math.max(e.min, v.min) <= c.goal.min && Math.max(e.gzip, v.gzip) <= c.goal.gzip;
    lines.push(`| ${c.name} | ${kib(e.min)} / ${kib(e.gzip)} | ${kib(v.min)} / ${kib(v.gzip)} | ${c.goal.min} / ${c.goal.gzip} KiB | ${met ? 'yes' : 'no'} |`);
  }
  return [TABLE_START, ...lines, TABLE_END].join('\n');
}

/** The numbers of the table in a text: [min, gzip] per bundler per case, in table order. */
export function tableNumbers(text: string): number[][] {
  const a = text.indexOf(TABLE_START);
  const b = text.indexOf(TABLE_END);
  if (a < 0 || b < a) return [];
  return text.slice(a, b).split('\n').slice(3).filter((l) => l.startsWith('|')).map((l) => [...l.matchAll(/([\d.]+) KiB/g)].slice(0, 4).map((m) => Number(m[1])));
}

export const DOC = 'docs/library.md';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await measureBundles();
  const path = join(ROOT, DOC);
  const text = readFileSync(path, 'utf8');
  const a = text.indexOf(TABLE_START);
  const b = text.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error(`${DOC} has no bundle-size markers`);
  writeFileSync(path, text.slice(0, a) + bundleTable(rows) + text.slice(b + TABLE_END.length));
  console.log(bundleTable(rows));
  // --analyze: what each esbuild bundle holds, module by module, biggest first
  if (process.argv.includes('--sections')) {
    console.log('\nwhat each section adds to the whole library (esbuild, KiB min / gzip):');
    for (const c of await sectionCosts()) console.log(`  ${c.section}${c.exports ? ` (${c.exports} exports)` : ''}: ${c.min.toFixed(1)} / ${c.gzip.toFixed(1)}`);
  }
  if (process.argv.includes('--analyze')) {
    for (const r of rows) if (r.analysis) console.log(`\n${r.name}${r.analysis}`);
    for (const r of rows) if (r.withoutStrings) console.log(`${r.name}: ${r.min.toFixed(1)} / ${r.gzip.toFixed(1)} KiB; with every string emptied ${r.withoutStrings.min.toFixed(1)} / ${r.withoutStrings.gzip.toFixed(1)} KiB`);
  }
}
