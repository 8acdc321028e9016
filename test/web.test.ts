/**
 * The web inspector in headless Chromium: built into a temporary folder, served by a static file
 * server on 127.0.0.1 (no other request allowed), driven like a user (drop, file input, clicks,
 * hover, downloads). Screenshots go to a temporary folder named in the output.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { convertRootSignature, encodeRootSignature, parseContainer, printRootSignature, readRootSignatureSource, withRootSignature, writeEdited } from '../src/index.js';
import { byteMap, hexHtml } from '../src/inspect/index.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { PAYLOADS, hostileContainer, hostileHlsl, hostileJson } from './helpers/markup.js';
import { requires } from './helpers/requires.js';
import { stamps } from './helpers/stamps.js';

const t = requires('chromium', chromiumMissing());
const SHADER = 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc';
const RS11 = 'rootsig/brawler__RootSignatureDefinition__DEFERRED_GEOMETRY_RASTER__SERIALIZED_ROOT_SIGNATURE_VERSION_1_1.dxbc';

let site = '';
let shots = '';
let server: Server | undefined;
let origin = '';
let browser: Browser | undefined;
/** Extra response header (a stricter CSP) for the next page loads. */
let extraCsp: string | undefined;

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

async function setup(): Promise<void> {
  if (browser) return;
  site = mkdtempSync(join(tmpdir(), 'dxbin-site-'));
  shots = mkdtempSync(join(tmpdir(), 'dxbin-shots-'));
  const built = spawnSync(process.execPath, [join(ROOT, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.web.config.mjs'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DXBIN_SITE_DIR: site } });
  assert.is(built.status, 0, built.stderr);
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = readFileSync(join(site, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', ...(extraCsp ? { 'content-security-policy': extraCsp } : {}) });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchChromium();
  console.log(`screenshots: ${shots}`);
}

interface Opened {
  page: Page;
  problems: string[];
  foreign: string[];
}

async function open(): Promise<Opened> {
  await setup();
  const context = await browser!.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await page.goto(`${origin}/index.html`);
  await page.waitForSelector('body[data-ready="1"]');
  return { page, problems, foreign };
}

/** Drops `bytes` as a file named `name` onto the page, as a user's drag and drop does. */
async function drop(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.evaluate(
    ({ name, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { name, data: [...bytes] },
  );
}

const corpus = (name: string) => new Uint8Array(readFileSync(join(CORPUS, name)));

t('a dropped corpus shader: parts table, digest, HLSL text, tree click highlights bytes, hover names the byte', async () => {
  const { page, problems, foreign } = await open();
  const bytes = corpus(SHADER);
  await drop(page, 'AlphaTest.cso', bytes);
  await page.waitForSelector('#container-view:not([hidden])');
  const container = parseContainer(bytes);
  const fourccs = await page.$$eval('#parts tbody td.fourcc', (tds) => tds.map((td) => td.textContent));
  assert.equal(fourccs, container.parts.map((p) => p.name));
  assert.is(await page.getAttribute('#digest', 'data-status'), 'valid');
  const { rootSignature } = readRootSignatureSource(bytes);
  assert.is(await page.textContent('#hlsl-out'), printRootSignature(rootSignature, { multiline: true }));
  await page.waitForSelector('#validation .target[data-target="runtime"]');
  assert.match((await page.textContent('#validation')) ?? '', 'runtime: valid');
  // go to the field's offset, Enter in the hex view: the structure tree shows its node (hex -> tree)
  const map = byteMap(bytes);
  const field = map.spans.find((s) => s.path === 'RTS0.parameters[0].parameterType')!;
  await page.fill('#goto', String(field.offset));
  await page.press('#goto', 'Enter');
  await page.press('#hex', 'Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'tree');
  assert.is(await page.$eval('#tree .node.active', (e) => (e as HTMLElement).dataset.path), 'RTS0.parameters[0].parameterType');
  // Enter on the tree node: its 4 bytes are selected (tree -> hex)
  await page.press('#tree', 'Enter');
  assert.equal(await page.$$eval('.hex .b.sel', (els) => els.map((e) => Number((e as HTMLElement).dataset.o))), [0, 1, 2, 3].map((i) => field.offset + i));
  // hover the field's second byte
  await page.hover(`.hex .b[data-o="${field.offset + 1}"]`);
  const info = (await page.textContent('#hex-info')) ?? '';
  assert.match(info, `byte ${field.offset + 1} (0x${(field.offset + 1).toString(16)}): RTS0.parameters[0].parameterType = ${String(field.value)} (0x${(field.value as number).toString(16)}) ${field.name}`);
  assert.match(info, 'container.parts[');
  // the root signature tree: open parameters[0] and its ranges by their toggles; a range node selects that range's record
  const range = map.spans.find((s) => s.kind === 'record' && s.path === 'RTS0.parameters[0].ranges[0]')!;
  await page.click('#rs-tree .node[data-path="RTS0.parameters[0]"] .twisty');
  await page.click('#rs-tree .node[data-path="RTS0.parameters[0].ranges"] .twisty');
  await page.click('#rs-tree .node[data-path="RTS0.parameters[0].ranges[0]"]');
  assert.equal(await page.$$eval('.hex .b.sel', (els) => els.map((e) => Number((e as HTMLElement).dataset.o))), Array.from({ length: range.size }, (_, i) => range.offset + i));
  // hover a header byte: the digest
  await page.evaluate(() => (document.getElementById('hex')!.scrollTop = 0));
  await page.waitForSelector('.hex .b[data-o="6"]');
  await page.hover('.hex .b[data-o="6"]');
  assert.match((await page.textContent('#hex-info')) ?? '', 'container.header.digest');
  await page.screenshot({ path: join(shots, 'shader.png'), fullPage: true });
  assert.equal(problems, []);
  assert.equal(foreign, []);
  await page.context().close();
});

t('a wrong digest: shown invalid, fixed and downloaded', async () => {
  const { page, problems } = await open();
  const good = corpus(SHADER);
  const bad = good.slice();
  bad[4]! ^= 0x01;
  await drop(page, 'broken.cso', bad);
  await page.waitForSelector('#container-view:not([hidden])');
  assert.is(await page.getAttribute('#digest', 'data-status'), 'invalid');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#fix')]);
  assert.is(download.suggestedFilename(), 'broken.fixed.cso');
  assert.equal([...new Uint8Array(readFileSync((await download.path())!))], [...good]);
  assert.equal(problems, []);
  await page.context().close();
});

t('convert 1.1 -> 1.0: the loss report and the downloaded bytes are the library\'s', async () => {
  const { page, problems } = await open();
  const bytes = corpus(RS11);
  const file = join(mkdtempSync(join(tmpdir(), 'dxbin-in-')), 'rs11.dxbc');
  writeFileSync(file, bytes);
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#rootsig-view:not([hidden])');
  await page.selectOption('#convert-to', '1.0');
  await page.click('#convert');
  await page.waitForSelector('#download-converted:not([hidden])');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-converted')]);
  assert.is(download.suggestedFilename(), 'rs11.v1.0.dxbc');
  const got = new Uint8Array(readFileSync((await download.path())!));
  const source = readRootSignatureSource(bytes);
  const { rootSignature, report } = convertRootSignature(source.rootSignature, 1);
  const expected = writeEdited(withRootSignature(source.container!, encodeRootSignature(rootSignature)), source.container!, bytes);
  assert.equal([...got], [...expected]);
  assert.is(readRootSignatureSource(got).rootSignature.version, 1);
  assert.match((await page.textContent('#report')) ?? '', `${report.lossless ? 'lossless' : 'LOSSY'}: ${report.added.length} added, ${report.dropped.length} dropped`);
  await page.screenshot({ path: join(shots, 'convert.png'), fullPage: true });
  assert.equal(problems, []);
  await page.context().close();
});

t('pasted root signature text compiles in the page', async () => {
  const { page, problems } = await open();
  await page.fill('#hlsl', 'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), CBV(b0), DescriptorTable(SRV(t0, numDescriptors = 4))');
  await page.selectOption('#hlsl-version', '1.0');
  await page.click('#compile');
  await page.waitForSelector('#rootsig-view:not([hidden])');
  assert.is(await page.getAttribute('#digest', 'data-status'), 'valid');
  assert.is(await page.textContent('#json-out'), '', 'the JSON text is made when its section opens');
  await page.click('#json-box summary');
  // the details element's toggle event is a queued task: wait for the text, whatever the load
  await page.waitForFunction(() => (document.querySelector('#json-out')?.textContent ?? '') !== '');
  assert.match((await page.textContent('#json-out')) ?? '', '"version": "1.0"');
  assert.match((await page.textContent('#hlsl-out')) ?? '', 'SRV(t0, numDescriptors = 4)');
  assert.equal(problems, []);
  await page.context().close();
});

t("the compile box preprocesses as DXC: the issue's #ifdef example gives CBV(b0) with -D A and CBV(b1) without", async () => {
  const { page, problems } = await open();
  await page.fill('#hlsl', '#ifdef A\n#define RS "CBV(b0)"\n#else\n#define RS "CBV(b1)"\n#endif\n');
  await page.fill('#hlsl-define', 'RS');
  for (const [flags, want] of [['-D A', 'CBV(b0)'], ['', 'CBV(b1)'], ['-D A -U A', 'CBV(b1)']] as const) {
    await page.fill('#hlsl-flags', flags);
    await page.click('#compile');
    await page.waitForFunction((w) => document.querySelector('#hlsl-out')?.textContent?.includes(w), want);
    assert.match((await page.textContent('#hlsl-out')) ?? '', want, `flags '${flags}'`);
  }
  await page.fill('#hlsl-define', '');
  await page.fill('#hlsl-flags', '');
  await page.fill('#hlsl', '#error no root signature here\n');
  await page.click('#compile');
  await page.waitForFunction(() => /no root signature here/.test(document.body.textContent ?? ''));
  assert.match((await page.textContent('body')) ?? '', 'pasted.hlsl:1:2: error: no root signature here');
  assert.equal(problems, []);
  await page.context().close();
});

t('a timestamp buffer: histogram bars, intervals, virtualized table, hex of a result', async () => {
  const { page, problems } = await open();
  await page.selectOption('#mode', 'query');
  await page.fill('#frequency', '1000000');
  await drop(page, 'stamps.bin', stamps(500));
  await page.waitForSelector('#query-view:not([hidden])');
  assert.is(await page.$$eval('#pictures rect.bar', (r) => r.length), 40);
  assert.is(await page.$$eval('#pictures rect.interval', (r) => r.length), 500);
  const rows = await page.$$eval('#query-table tbody tr', (r) => r.length);
  assert.ok(rows > 5 && rows < 60, `${rows} rows rendered of 1000`);
  assert.equal(await page.$$eval('#query-table tbody tr:first-child td', (tds) => tds.map((td) => td.textContent)), ['0', '1000000', '10 µs'], 'the pair\'s duration on its begin row');
  await page.hover('.hex .b[data-o="9"]');
  assert.match((await page.textContent('#hex-info')) ?? '', 'timestamp[1].Value = 1000010');
  // more pairs than pixels: binned columns, still 40 bars; 1,000,000 rows (taller than a browser
  // lets an element be) still scroll to the last result
  const many = join(mkdtempSync(join(tmpdir(), 'dxbin-in-')), 'many.bin');
  writeFileSync(many, stamps(500000));
  await page.setInputFiles('#file', many);
  await page.waitForFunction(() => document.getElementById('summary')!.textContent!.startsWith('many.bin') && document.querySelectorAll('#pictures rect.column').length > 0);
  assert.is(await page.$$eval('#pictures rect.bar', (r) => r.length), 40);
  assert.is(await page.$$eval('#pictures rect.interval', (r) => r.length), 0);
  await page.evaluate(() => {
    const box = document.getElementById('query-table')!;
    box.scrollTop = box.scrollHeight;
    box.dispatchEvent(new Event('scroll'));
  });
  await page.waitForFunction(() => [...document.querySelectorAll('#query-table tbody tr td:first-child')].some((td) => td.textContent === '999999'));
  const lastRow = await page.$$eval('#query-table tbody tr:last-child td', (tds) => tds.map((td) => td.textContent));
  assert.equal(lastRow, ['999999', String(1_000_000 + 499999 * 100 + 10 + (499999 % 13)), '']);
  // and the hex view reaches the last byte
  await page.evaluate(() => {
    const hex = document.getElementById('hex')!;
    hex.scrollTop = hex.scrollHeight;
    hex.dispatchEvent(new Event('scroll'));
  });
  await page.waitForSelector(`.hex .b[data-o="${500000 * 16 - 1}"]`);
  await page.screenshot({ path: join(shots, 'timestamps.png'), fullPage: true });
  assert.equal(problems, []);
  await page.context().close();
});

t('hostile names and strings are text: nothing runs, no element is made from them', async () => {
  const { page, problems } = await open();
  await drop(page, `${PAYLOADS[1]}.dxbc`, hostileContainer());
  await page.waitForSelector('#container-view:not([hidden])');
  const names = await page.$$eval('#parts tbody td.fourcc', (tds) => tds.map((td) => td.textContent));
  assert.equal(names.slice(0, 2), ['<scr', '"><i']);
  const tree = (await page.textContent('#tree')) ?? '';
  for (const p of PAYLOADS) assert.match(tree, JSON.stringify(p));
  assert.match((await page.textContent('#summary')) ?? '', PAYLOADS[1]);
  await drop(page, `${PAYLOADS[0]}.json`, new TextEncoder().encode(hostileJson()));
  await page.waitForFunction(() => document.getElementById('status')!.classList.contains('error'));
  assert.match((await page.textContent('#status')) ?? '', '<script>');
  await page.fill('#hlsl', hostileHlsl());
  await page.click('#compile');
  await page.waitForFunction(() => /error|expected|unexpected/i.test(document.getElementById('status')!.textContent ?? ''));
  await page.waitForTimeout(200);
  const verdict = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: number }).__pwned,
    scripts: document.scripts.length,
    made: document.querySelectorAll('img, iframe, object, embed, svg[onload], a[href^="javascript"]').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
  }));
  assert.equal(verdict, { pwned: undefined, scripts: 1, made: 0, handlers: 0 });
  await page.screenshot({ path: join(shots, 'hostile.png'), fullPage: true });
  // inspect --html of the same file, opened in the browser
  const html = join(shots, 'hostile.html');
  const bytes = hostileContainer();
  writeFileSync(html, hexHtml(bytes, byteMap(bytes, { mode: 'lenient' }), `${PAYLOADS[0]}.dxbc`));
  const other = await page.context().newPage();
  await other.goto(`file://${html}`);
  const page2 = await other.evaluate(() => ({ pwned: (window as unknown as { __pwned?: number }).__pwned, scripts: document.scripts.length, imgs: document.images.length, title: document.title }));
  assert.equal(page2, { pwned: undefined, scripts: 0, imgs: 0, title: `${PAYLOADS[0]}.dxbc` });
  assert.equal(problems, []);
  await page.context().close();
});

t('without wasm-unsafe-eval the JS kernels serve and the page still works', async () => {
  extraCsp = "script-src 'self'";
  try {
    const { page } = await open();
    assert.is(await page.getAttribute('body', 'data-kernels'), 'js');
    await page.selectOption('#mode', 'query');
    await drop(page, 'stamps.bin', stamps(100));
    await page.waitForSelector('#query-view:not([hidden])');
    assert.is(await page.$$eval('#pictures rect.bar', (r) => r.length), 40);
    assert.match((await page.textContent('#query-info')) ?? '', 'kernels: js');
    await page.context().close();
  } finally {
    extraCsp = undefined;
  }
  const { page } = await open();
  assert.ok(['simd', 'scalar'].includes((await page.getAttribute('body', 'data-kernels')) ?? ''), 'WASM kernels under the page\'s own CSP');
  await page.context().close();
});

test.after(async () => {
  await browser?.close();
  server?.close();
});

test.run();
