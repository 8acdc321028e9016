/**
 * dxbin in a browser: a page built by Vite from the package's sources, served twice, once with a
 * strict Content-Security-Policy (`script-src 'self'`, no 'wasm-unsafe-eval', as in extensions and
 * hardened web tools) and once without. In both, headless Chromium decodes and prints a root
 * signature and resolves query results in bulk; under the CSP the WebAssembly kernels are refused,
 * so the page runs the JS kernels, kernelsAvailable says false and the reason names the refusal.
 * The results equal Node's. Needs Chromium (test/helpers/browser.ts); otherwise skipped.
 */
import * as assert from 'uvu/assert';
import { test as uvu } from 'uvu';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import { printRootSignature, readRootSignatureSource, rootSignatureToJson } from '../src/index.js';
import { kernels, sumQueryResults, timestampDurations } from '../src/query/index.js';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { requires } from './helpers/requires.js';

const test = requires('chromium', chromiumMissing());
const BLOB = 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc';

/** The work the page does, also run in Node for the expected values (plain JS, no DOM). */
const WORK = `
export function work(dxbin, query, bytes) {
  const { rootSignature } = dxbin.readRootSignatureSource(bytes);
  const n = 4096;
  const stamps = new BigUint64Array(2 * n);
  for (let i = 0; i < n; i++) { stamps[2 * i] = BigInt(i) * 1000n + 7n; stamps[2 * i + 1] = stamps[2 * i] + BigInt((i * 7919) % 977); }
  const d = query.timestampDurations(new Uint8Array(stamps.buffer), { frequency: 1e9 });
  const ns = new BigUint64Array(d.ns.buffer, d.ns.byteOffset, n);
  let total = 0n; for (const x of ns) total += x;
  const stats = new Uint8Array(11 * 8 * 300);
  for (let i = 0; i < stats.length; i++) stats[i] = (i * 31 + 5) & 0xff;
  const sums = Object.fromEntries(Object.entries(query.sumQueryResults(stats, 'pipeline-statistics')).map(([k, v]) => [k, String(v)]));
  return { hlsl: dxbin.printRootSignature(rootSignature), json: dxbin.rootSignatureToJson(rootSignature), durations: String(total), sums };
}
`;

let server: Server | undefined;
let base = '';

/** Builds the page with Vite (dxbin and dxbin/query from src/) and serves it, with a CSP when the URL asks. */
async function servePage(): Promise<void> {
  const app = mkdtempSync(join(tmpdir(), 'dxbin-browser-'));
  writeFileSync(join(app, 'work.js'), WORK);
  writeFileSync(
    join(app, 'main.js'),
    `import * as dxbin from 'dxbin';\nimport * as query from 'dxbin/query';\nimport { work } from './work.js';\n(async () => {\n  try {\n    const bytes = new Uint8Array(await (await fetch('/blob.dxbc')).arrayBuffer());\n    const result = work(dxbin, query, bytes);\n    window.__dxbin = { ...result, active: query.activeKernels().name, simd: query.kernelsAvailable('simd'), scalar: query.kernelsAvailable('scalar'), reason: query.kernelsUnavailableReason('simd') ?? null };\n  } catch (e) {\n    window.__dxbin = { error: String(e && e.stack || e) };\n  }\n})();\n`,
  );
  writeFileSync(join(app, 'index.html'), '<!doctype html>\n<html><head><script type="module" src="./main.js"></script></head><body></body></html>\n');
  mkdirSync(join(app, 'out'));
  await build({
    root: app,
    logLevel: 'silent',
    configFile: false,
    resolve: { alias: [{ find: /^dxbin\/query$/, replacement: join(ROOT, 'src/query/index.ts') }, { find: /^dxbin$/, replacement: join(ROOT, 'src/index.ts') }] },
    build: { outDir: join(app, 'out'), emptyOutDir: true, modulePreload: { polyfill: false } },
  });
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.dxbc': 'application/octet-stream' };
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = url.pathname === '/blob.dxbc' ? join(CORPUS, BLOB) : join(app, 'out', normalize(url.pathname === '/' ? '/index.html' : url.pathname));
    try {
      const body = readFileSync(file);
      const headers: Record<string, string> = { 'content-type': types[extname(file)] ?? 'application/octet-stream' };
      if (url.searchParams.has('csp') && extname(file) === '.html') headers['content-security-policy'] = "script-src 'self'";
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

interface PageResult {
  hlsl: string;
  json: unknown;
  durations: string;
  sums: Record<string, string>;
  active: string;
  simd: boolean;
  scalar: boolean;
  reason: string | null;
  error?: string;
}

async function load(path: string): Promise<{ result: PageResult; console: string[] }> {
  if (!server) await servePage();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const messages: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    await page.goto(`${base}${path}`);
    await page.waitForFunction(() => (window as unknown as { __dxbin?: unknown }).__dxbin !== undefined, undefined, { timeout: 60_000 });
    const result = (await page.evaluate(() => (window as unknown as { __dxbin: unknown }).__dxbin)) as PageResult;
    return { result, console: messages };
  } finally {
    await browser.close();
  }
}

/** What Node computes for the same work with the JS kernels. */
async function expected(): Promise<Omit<PageResult, 'active' | 'simd' | 'scalar' | 'reason'>> {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-browser-work-'));
  writeFileSync(join(dir, 'work.mjs'), WORK);
  const { work } = (await import(join(dir, 'work.mjs'))) as { work: (a: unknown, b: unknown, c: Uint8Array) => Omit<PageResult, 'active' | 'simd' | 'scalar' | 'reason'> };
  const js = kernels('js');
  const query = {
    timestampDurations: (b: Uint8Array, o: { frequency: number }) => timestampDurations(b, { ...o, kernels: js }),
    sumQueryResults: (b: Uint8Array, t: string) => sumQueryResults(b, t, { kernels: js }),
  };
  return work({ readRootSignatureSource, printRootSignature, rootSignatureToJson }, query, new Uint8Array(readFileSync(join(CORPUS, BLOB))));
}

test('without a CSP: the page decodes, prints and resolves on the SIMD WebAssembly kernels, as Node does', async () => {
  const { result } = await load('/');
  assert.is(result.error, undefined, result.error);
  assert.is(result.active, 'simd', 'the SIMD kernels run');
  assert.ok(result.simd && result.scalar, 'kernelsAvailable');
  assert.is(result.reason, null);
  const want = await expected();
  assert.is(result.hlsl, want.hlsl, 'printed root signature');
  assert.equal(result.json, want.json, 'JSON form');
  assert.is(result.durations, want.durations, 'bulk durations');
  assert.equal(result.sums, want.sums, 'bulk sums');
});

test("under script-src 'self': WebAssembly is refused, the page falls back to JS with the reason, and gives the same results", async () => {
  const { result } = await load('/?csp');
  assert.is(result.error, undefined, result.error);
  assert.is(result.active, 'js', 'the JS kernels run');
  assert.is(result.simd, false, "kernelsAvailable('simd') tells the truth");
  assert.is(result.scalar, false, "kernelsAvailable('scalar') tells the truth");
  assert.match(result.reason ?? '', /compiling the simd WebAssembly kernels failed \(CompileError: .*\); a Content-Security-Policy without 'wasm-unsafe-eval'/, result.reason ?? 'no reason');
  const want = await expected();
  assert.is(result.hlsl, want.hlsl, 'printed root signature');
  assert.equal(result.json, want.json, 'JSON form');
  assert.is(result.durations, want.durations, 'bulk durations');
  assert.equal(result.sums, want.sums, 'bulk sums');
});

uvu.after(() => {
  server?.close();
});

uvu.run();
