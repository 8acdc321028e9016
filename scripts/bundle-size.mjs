// Bundle sizes a browser app pays for dxbin: Vite (production, minified) builds small apps that
// import from the built package (npm run build first) and this prints the size of the script each
// gets, raw and gzipped. The README's table comes from this script.
//     npm run build && node scripts/bundle-size.mjs
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CASES = {
  'root signature only (readRootSignatureSource, rootSignatureToJson)': `import { readRootSignatureSource, rootSignatureToJson } from 'dxbin';\nexport const f = (b) => rootSignatureToJson(readRootSignatureSource(b).rootSignature);`,
  'root signature + HLSL compile/print': `import { readRootSignatureSource, compileRootSignatureBlob, printRootSignature } from 'dxbin';\nexport const f = (b) => printRootSignature(readRootSignatureSource(b).rootSignature);\nexport const g = compileRootSignatureBlob;`,
  'query kernels (dxbin/query, WASM inlined)': `import * as q from 'dxbin/query';\nexport { q };`,
  'whole library (dxbin, dxbin/query, dxbin/ddi)': `import * as a from 'dxbin';\nimport * as q from 'dxbin/query';\nimport * as d from 'dxbin/ddi';\nexport { a, q, d };`,
};
const alias = [
  { find: /^dxbin\/query$/, replacement: join(root, 'dist/query.js') },
  { find: /^dxbin\/ddi$/, replacement: join(root, 'dist/ddi.js') },
  { find: /^dxbin$/, replacement: join(root, 'dist/index.js') },
];
const rows = [];
for (const [name, code] of Object.entries(CASES)) {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-size-'));
  writeFileSync(join(dir, 'entry.js'), code);
  await build({ root: dir, logLevel: 'silent', configFile: false, resolve: { alias }, build: { outDir: join(dir, 'out'), minify: true, lib: { entry: join(dir, 'entry.js'), formats: ['es'], fileName: 'entry' } } });
  const files = readdirSync(join(dir, 'out')).filter((f) => /\.m?js$/.test(f));
  const bytes = files.map((f) => readFileSync(join(dir, 'out', f))).reduce((n, b) => ({ raw: n.raw + b.length, gz: n.gz + gzipSync(b, { level: 9 }).length }), { raw: 0, gz: 0 });
  rows.push({ name, ...bytes });
}
console.log('| import | minified | gzip |\n| --- | ---: | ---: |');
for (const r of rows) console.log(`| ${r.name} | ${(r.raw / 1024).toFixed(1)} KiB | ${(r.gz / 1024).toFixed(1)} KiB |`);
