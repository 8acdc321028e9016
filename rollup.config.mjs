// One build for every consumer. The entries are read from package.json "exports": each export whose
// types are dist/types/src/<path>.d.ts is built from src/<path>.ts, so a new subpath export
// (dxbin/query, dxbin/ddi, ...) is built without touching this file.
//   - ES modules: dist/<name>.js over one file per module in dist/lib/ (libraryEsBuild), and
//     dist/fuzz-worker.js for the CLI's fuzzer.
//   - The CLI: dist/cli.cjs, a CommonJS bundle with a chunk per command in dist/cli/ (scripts/cli-bundle.mjs).
//   - CommonJS: dist/cjs/<name>.js (dist/cjs/package.json says "type": "commonjs").
// Declarations come from tsc (tsconfig.build.json); scripts/dual-types.mjs copies them for the
// require condition.
import typescript from '@rollup/plugin-typescript';
import { readFileSync, rmSync } from 'node:fs';
import { cliBundle } from './scripts/cli-bundle.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** { name: source } for every export with types under dist/types/src/. */
export function entriesFromExports(exportsField) {
  const entries = {};
  for (const [key, value] of Object.entries(exportsField)) {
    const types = typeof value === 'object' ? (value.types ?? value.import?.types) : undefined;
    const m = typeof types === 'string' ? /^\.\/dist\/types\/(src\/.+)\.d\.ts$/.exec(types) : null;
    if (!m) continue;
    const name = key === '.' ? 'index' : key.slice(2).replace(/\//g, '-');
    entries[name] = `${m[1]}.ts`;
  }
  return entries;
}

// a clean dist/ each build: no stale chunk from an earlier build can end up in the tarball
// (a plugin of the first build, not a statement here, so that importing this file, as
// test/bundle-size.test.ts does for libraryEsBuild, removes nothing)
const cleanDist = () => ({ name: 'clean-dist', buildStart: () => rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true }) });

const entries = entriesFromExports(pkg.exports);
// typescript and tsx: loaded by dxbin fuzz only when it runs from a checkout (docs/fuzzing.md)
const external = [/^node:/, ...Object.keys(pkg.dependencies ?? {}), 'typescript', /^tsx/];
const ts = () =>
  typescript({
    tsconfig: './tsconfig.json',
    compilerOptions: { noEmit: false, declaration: false, sourceMap: false },
    include: ['codecs/**/*.ts', 'src/**/*.ts'],
    exclude: ['src/query/assembly/**', 'src/container/assembly/**'],
  });

/**
 * The library's ES modules, one file per source module (DIR/lib/...) under entry files named after
 * the exports (DIR/index.js, DIR/query.js, ...): a bundler then drops every module an app does not
 * import (sideEffects: false works per module), where merged chunks made an app that decodes root
 * signatures carry whatever shared a chunk with the decoder. test/bundle-size.test.ts builds it too.
 */
export function libraryEsBuild(dir = 'dist') {
  return {
    input: { ...entries, 'fuzz-worker': 'src/fuzz/worker.ts' },
    output: {
      dir,
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: '.',
      entryFileNames: (chunk) => (chunk.isEntry && chunk.name in entries ? '[name].js' : chunk.name === 'fuzz-worker' ? 'lib/src/fuzz/worker.js' : 'lib/[name].js'),
    },
    external,
    plugins: [ts()],
  };
}

export default [
  { ...libraryEsBuild('dist'), plugins: [cleanDist(), ts()] },
  {
    // fuzz-worker: the worker thread module of dxbin fuzz for the CLI, found one folder up from
    // dist/cli/ (the library's engine finds its own worker next to it in dist/lib/)
    input: { 'fuzz-worker': 'src/fuzz/worker.ts' },
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    external,
    plugins: [ts()],
  },
  {
    input: entries,
    output: { dir: 'dist/cjs', format: 'cjs', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', exports: 'named', interop: 'auto' },
    external,
    plugins: [ts()],
  },
  // ---- the dxbin command (issue 27) -------------------------------------------------------------
  cliBundle({ dir: 'dist', external, plugins: [ts()] }),
];
