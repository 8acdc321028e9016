/**
 * The web inspector on a large timestamp buffer, in headless Chromium: the time from the file's
 * bytes being in the page to the decoded table, the duration histogram and the binned timeline
 * (the page measures it with performance.now() and shows it in #timing). Builds the page into a
 * temporary folder, loads it from file:// and picks the buffer with the file input. Prints a table;
 * `--json` one {"case", "impl", "median_ns", "bytes"} object per line. DXBIN_BENCH_PAIRS (default
 * 1e6 [begin, end] pairs), DXBIN_BENCH_RUNS (default 3). Needs /usr/bin/chromium.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumMissing, launchChromium } from '../test/helpers/browser.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const json = process.argv.includes('--json');
const PAIRS = Number(process.env.DXBIN_BENCH_PAIRS ?? 1e6);
const RUNS = Number(process.env.DXBIN_BENCH_RUNS ?? 3);

const missing = chromiumMissing();
if (missing) {
  console.log(`skipped: ${missing}`);
  process.exit(0);
}
const site = mkdtempSync(join(tmpdir(), 'dxbin-site-'));
const built = spawnSync(process.execPath, [join(root, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.web.config.mjs'], { cwd: root, encoding: 'utf8', env: { ...process.env, DXBIN_SITE_DIR: site } });
if (built.status !== 0) throw new Error(built.stderr);

// pairs: begin i*1000 ticks, duration 100..356 ticks
const stamps = new BigUint64Array(PAIRS * 2);
for (let i = 0; i < PAIRS; i++) {
  stamps[2 * i] = BigInt(i * 1000);
  stamps[2 * i + 1] = BigInt(i * 1000 + 100 + ((i * 7919) & 255));
}
const file = join(mkdtempSync(join(tmpdir(), 'dxbin-bench-')), 'stamps.bin');
writeFileSync(file, new Uint8Array(stamps.buffer));

const browser = await launchChromium();
const results: { case: string; impl: string; median_ns: number; bytes: number }[] = [];
for (const kernels of ['wasm', 'js'] as const) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage();
    await page.goto(`file://${join(site, 'index.html')}`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.selectOption('#mode', 'query');
    await page.fill('#frequency', '10000000');
    if (kernels === 'js') await page.evaluate(() => window.dispatchEvent(new CustomEvent('dxbin-kernels', { detail: 'js' })));
    await page.setInputFiles('#file', file);
    await page.waitForSelector('#timing[data-ms]', { timeout: 120000 });
    times.push(Number(await page.getAttribute('#timing', 'data-ms')));
    await page.close();
  }
  times.sort((a, b) => a - b);
  results.push({ case: `page decode + histogram + timeline, ${PAIRS} pairs`, impl: kernels, median_ns: Math.round(times[Math.floor(times.length / 2)]! * 1e6), bytes: PAIRS * 16 });
}
await browser.close();
if (json) for (const r of results) console.log(JSON.stringify(r));
else {
  console.log('case | kernels | median ms | MB/s');
  for (const r of results) console.log(`${r.case} | ${r.impl} | ${(r.median_ns / 1e6).toFixed(1)} | ${(r.bytes / (r.median_ns / 1e9) / 1e6).toFixed(0)}`);
}
