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
}

const sizes = (files: Uint8Array[]) => ({
  min: files.reduce((n, b) => n + b.byteLength, 0) / 1024,
  gzip: files.reduce((n, b) => n + gzipSync(b, { level: 9 }).byteLength, 0) / 1024,
});

/** Builds the library into a scratch node_modules/dxbin and measures every case with both bundlers. */
export async function measureBundles(): Promise<Measured[]> {
  const work = mkdtempSync(join(tmpdir(), 'dxbin-bundle-'));
  try {
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
      out.push({ name: c.name, bundler: 'esbuild', ...sizes(e.outputFiles.map((f) => f.contents)), analysis });
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
  if (process.argv.includes('--analyze')) for (const r of rows) if (r.analysis) console.log(`\n${r.name}${r.analysis}`);
}
