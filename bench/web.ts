/**
 * The web inspector's first render, in headless Chromium (playwright-core and Debian's
 * /usr/bin/chromium): the page is built into a temporary folder, loaded from file://, and given a
 * file with the file input; the page measures with performance.now() from the file's bytes being in
 * the page to the views drawn and laid out (body[data-render-ms]; root signature validation follows
 * the first paint and is timed on its own, body[data-validate-ms]). Cases:
 *   - root signatures of 5,000 and 500,000 descriptor ranges (goal: 5,000 under 1 s, 500,000 at most
 *     120x that: linear),
 *   - a 64 MB timestamp buffer (4M [begin, end] pairs; goal under 1.5 s), with the WASM kernels and
 *     the JS fallback.
 * Prints a table; `--json` one {"case", "impl", "median_ns", "bytes"} object per line.
 * DXBIN_BENCH_RUNS (default 3; the 500,000-range case runs once), DXBIN_BENCH_PAIRS (default 4M).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { encodeRootSignature, rootSignatureContainer, rootSignatureFromJson } from '../src/index.js';
import { chromiumMissing, launchChromium } from '../test/helpers/browser.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const json = process.argv.includes('--json');
const PAIRS = Number(process.env.DXBIN_BENCH_PAIRS ?? 4 * 1024 * 1024);
const RUNS = Number(process.env.DXBIN_BENCH_RUNS ?? 3);

const missing = chromiumMissing();
if (missing) {
  console.log(`skipped: ${missing}`);
  process.exit(0);
}
const site = mkdtempSync(join(tmpdir(), 'dxbin-site-'));
const built = spawnSync(process.execPath, [join(root, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.web.config.mjs'], { cwd: root, encoding: 'utf8', env: { ...process.env, DXBIN_SITE_DIR: site } });
if (built.status !== 0) throw new Error(built.stderr);
const work = mkdtempSync(join(tmpdir(), 'dxbin-bench-'));

/** A version 1.0 root signature with one descriptor table of `n` SRV ranges, as a container. */
function rootSignatureFile(n: number): string {
  const ranges = Array.from({ length: n }, (_, i) => ({ rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: i, registerSpace: 0, offsetInDescriptorsFromTableStart: 'APPEND' }));
  const description = rootSignatureFromJson({ version: '1.0', flags: [], parameters: [{ parameterType: 'DESCRIPTOR_TABLE', shaderVisibility: 'ALL', ranges }], staticSamplers: [] });
  const file = join(work, `ranges-${n}.dxbc`);
  writeFileSync(file, rootSignatureContainer(encodeRootSignature(description)));
  return file;
}

/** Timestamp pairs: begin i*1000 ticks, duration 100..355 ticks. */
function stampsFile(pairs: number): string {
  const stamps = new BigUint64Array(pairs * 2);
  for (let i = 0; i < pairs; i++) {
    stamps[2 * i] = BigInt(i * 1000);
    stamps[2 * i + 1] = BigInt(i * 1000 + 100 + ((i * 7919) & 255));
  }
  const file = join(work, 'stamps.bin');
  writeFileSync(file, new Uint8Array(stamps.buffer));
  return file;
}

interface Result {
  case: string;
  impl: string;
  median_ns: number;
  bytes: number;
  validate_ns?: number;
}

/** The page's render time (and validation time, for root signatures) for `file`, median of `runs`. */
async function measure(browser: Browser, file: string, bytes: number, runs: number, setup: { mode: string; kernels?: 'js' }): Promise<{ render: number; validate?: number }> {
  const render: number[] = [];
  const validate: number[] = [];
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`file://${join(site, 'index.html')}`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.selectOption('#mode', setup.mode);
    if (setup.kernels) await page.evaluate((k) => window.dispatchEvent(new CustomEvent('dxbin-kernels', { detail: k })), setup.kernels);
    await page.setInputFiles('#file', file);
    await page.waitForSelector('body[data-loads="1"]', { timeout: 600_000 });
    render.push(Number(await page.getAttribute('body', 'data-render-ms')));
    if (setup.mode === 'rootsig') {
      await page.waitForSelector('body[data-validated="1"]', { timeout: 600_000 });
      validate.push(Number(await page.getAttribute('body', 'data-validate-ms')));
    }
    if (!json) console.error(`  ${file.replace(/^.*\//, '')} ${setup.kernels ?? ''}: ${await page.getAttribute('body', 'data-render-steps')}`);
    await page.close();
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  void bytes;
  return { render: median(render), ...(validate.length ? { validate: median(validate) } : {}) };
}

const browser = await launchChromium();
const results: Result[] = [];
for (const n of [5000, 500000]) {
  const file = rootSignatureFile(n);
  const bytes = 88 + n * 20;
  const m = await measure(browser, file, bytes, n > 5000 ? 1 : RUNS, { mode: 'rootsig' });
  results.push({ case: `web first render, root signature with ${n} ranges`, impl: 'page', median_ns: Math.round(m.render * 1e6), bytes, validate_ns: Math.round((m.validate ?? 0) * 1e6) });
}
const stamps = stampsFile(PAIRS);
for (const kernels of [undefined, 'js'] as const) {
  const m = await measure(browser, stamps, PAIRS * 16, RUNS, { mode: 'query', ...(kernels ? { kernels } : {}) });
  results.push({ case: `web first render, ${(PAIRS * 16) / 2 ** 20} MB timestamp buffer`, impl: kernels ?? 'wasm', median_ns: Math.round(m.render * 1e6), bytes: PAIRS * 16 });
}
await browser.close();

const small = results[0]!;
const large = results[1]!;
const goals = [
  { what: 'root signature, 5,000 ranges', value: `${(small.median_ns / 1e6).toFixed(0)} ms`, goal: '< 1000 ms', met: small.median_ns < 1e9 },
  { what: 'root signature, 500,000 / 5,000 ranges', value: `${(large.median_ns / small.median_ns).toFixed(1)}x`, goal: '<= 120x', met: large.median_ns <= 120 * small.median_ns },
  ...results.slice(2).map((r) => ({ what: `64 MB timestamps (${r.impl})`, value: `${(r.median_ns / 1e6).toFixed(0)} ms`, goal: '< 1500 ms', met: r.median_ns < 1.5e9 })),
];
if (json) for (const r of results) console.log(JSON.stringify(r));
else {
  console.log('case | impl | first render ms | validation ms (after the first paint) | MB/s');
  for (const r of results) console.log(`${r.case} | ${r.impl} | ${(r.median_ns / 1e6).toFixed(1)} | ${r.validate_ns ? (r.validate_ns / 1e6).toFixed(1) : '-'} | ${(r.bytes / (r.median_ns / 1e9) / 1e6).toFixed(0)}`);
  console.log('\ngoal | this run | goal | met');
  for (const g of goals) console.log(`${g.what} | ${g.value} | ${g.goal} | ${g.met ? 'yes' : 'no'}`);
}
