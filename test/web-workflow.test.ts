/**
 * The web inspector by keyboard alone, axe-core on each view, the layout at 1280x720 and the query
 * view's numbers and recoveries, in headless Chromium: the page is
 * built into a temporary folder and loaded from file://. axe-core (npm) is injected with the CSP
 * bypassed for that script only; a serious or critical violation fails the test.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FileChooser, Page } from 'playwright-core';
import { byteMap } from '../src/inspect/index.js';
import { summarizeDurations, timestampDurations } from '../src/query/index.js';
import { formatNs } from '../src/inspect/index.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { requires } from './helpers/requires.js';
import { stamps } from './helpers/stamps.js';

const t = requires('chromium', chromiumMissing());
const SHADER = 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let site = '';
let browser: Browser | undefined;

async function open(scheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; problems: string[]; chooser: Promise<FileChooser> }> {
  if (!browser) {
    site = mkdtempSync(join(tmpdir(), 'dxbin-site-'));
    const built = spawnSync(process.execPath, [join(ROOT, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.web.config.mjs'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DXBIN_SITE_DIR: site } });
    assert.is(built.status, 0, built.stderr);
    browser = await launchChromium();
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, bypassCSP: true, colorScheme: scheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // listening from the start turns on the chooser's interception before any key is pressed
  // (waitForEvent right before the key races with it)
  const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
  await page.goto(`file://${join(site, 'index.html')}`);
  await page.waitForSelector('body[data-ready="1"]');
  return { page, problems, chooser };
}

/** axe-core's serious and critical violations on the page as it is now. */
async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

/** Presses Tab until `selector` has the focus (at most 40 times); the number of presses. */
async function tabTo(page: Page, selector: string): Promise<number> {
  for (let i = 1; i <= 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return i;
  }
  throw new Error(`${selector} not reached by Tab`);
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const active = (page: Page, tree: string) => page.$eval(`#${tree} .node.active`, (e) => (e as HTMLElement).dataset.path ?? '');

t('by keyboard alone: open a file, walk the tree, follow to the hex view and back, inspect, go to, find, copy', async () => {
  const { page, problems, chooser: chosen } = await open();
  const bytes = new Uint8Array(readFileSync(join(CORPUS, SHADER)));
  const file = join(mkdtempSync(join(tmpdir(), 'dxbin-in-')), 'shader.cso');
  writeFileSync(file, bytes);
  // the file chooser: the Open button is the first stop and Enter opens it
  assert.is(await tabTo(page, '#open'), 1);
  await page.keyboard.press('Enter');
  await (await chosen).setFiles(file);
  await page.waitForSelector('body[data-loaded="shader.cso"]');
  // the structure tree: arrows move, Right opens, Left goes to the parent
  await tabTo(page, '#tree');
  assert.is(await active(page, 'tree'), 'container.header');
  await page.keyboard.press('ArrowDown');
  assert.is(await active(page, 'tree'), 'container.header.magic');
  await page.keyboard.press('ArrowLeft');
  assert.is(await active(page, 'tree'), 'container.header');
  await page.keyboard.press('ArrowLeft'); // collapse
  assert.is(await page.$eval('#tree .node.active', (e) => e.getAttribute('aria-expanded')), 'false');
  await page.keyboard.press('ArrowDown');
  assert.is(await active(page, 'tree'), 'container.partOffsets');
  await page.keyboard.press('ArrowDown');
  assert.is(await active(page, 'tree'), 'container.partOffsets[0]');
  // Enter follows the node to its bytes: the hex view has the focus, cursor and selection on them
  await page.keyboard.press('Enter');
  assert.is(await focused(page), 'hex');
  assert.is(await page.getAttribute('#hex', 'aria-activedescendant'), 'hx-32');
  assert.equal(await page.$$eval('#hex .b.sel', (e) => e.map((x) => (x as HTMLElement).dataset.o)), ['32', '33', '34', '35']);
  // arrows move the cursor; the data inspector follows it
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.is(await page.getAttribute('#hex', 'aria-activedescendant'), 'hx-49');
  assert.is(await page.$eval('#inspector tr[data-type="u8"] td:last-child', (e) => e.textContent), `${bytes[49]} (0x${bytes[49]!.toString(16).padStart(2, '0')})`);
  // Shift extends the selection, its length is shown
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  assert.is(await page.getAttribute('#selection-info', 'data-length'), '3');
  // Enter goes back to the structure: the field holding the cursor
  await page.keyboard.press('Enter');
  assert.is(await focused(page), 'tree');
  const at51 = byteMap(bytes).spans.filter((s) => s.offset <= 51 && 51 < s.offset + s.size).pop()!;
  assert.is(await active(page, 'tree'), at51.path);
  // go to an offset and search, by keyboard
  await tabTo(page, '#goto');
  await page.keyboard.type('0x40');
  await page.keyboard.press('Enter');
  assert.is(await focused(page), 'hex');
  assert.is(await page.getAttribute('#hex', 'aria-activedescendant'), 'hx-64');
  await tabTo(page, '#find');
  await page.keyboard.type('RTS0');
  await tabTo(page, '#find-kind');
  await page.keyboard.press('ArrowDown'); // text
  await page.keyboard.press('Tab');
  assert.is(await focused(page), 'find-next');
  await page.keyboard.press('Enter');
  const rts0 = Buffer.from(bytes).indexOf('RTS0');
  assert.equal(await page.$$eval('#hex .b.sel', (e) => e.map((x) => Number((x as HTMLElement).dataset.o))), [0, 1, 2, 3].map((i) => rts0 + i));
  await page.keyboard.press('Tab');
  assert.is(await focused(page), 'copy-hex');
  await page.keyboard.press('Enter');
  assert.is(await page.inputValue('#copy-out'), '52 54 53 30');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.match(await page.inputValue('#copy-out'), /^const unsigned char shader\[4\] = \{\n {4}0x52, 0x54, 0x53, 0x30,\n\};$/);
  // the splitter resizes by arrows
  await tabTo(page, '#split-left');
  await page.keyboard.press('ArrowRight');
  assert.is(await page.getAttribute('#split-left', 'aria-valuenow'), '316');
  // the root signature tree, by keyboard: RTS0 > version
  await tabTo(page, '#rs-tree');
  assert.is(await active(page, 'rs-tree'), 'RTS0');
  await page.keyboard.press('ArrowDown');
  assert.is(await active(page, 'rs-tree'), 'RTS0.version');
  await page.keyboard.press('Enter');
  assert.is(await focused(page), 'hex');
  // the HLSL box has a label, and compiles by keyboard
  assert.is(await page.$eval('#hlsl', (e) => (e as HTMLTextAreaElement).labels?.[0]?.textContent), 'HLSL root signature');
  await tabTo(page, '#hlsl');
  await page.keyboard.type('CBV(b0), SRV(t1)');
  await tabTo(page, '#compile');
  await page.keyboard.press('Enter');
  await page.waitForSelector('body[data-loaded="pasted.rs.dxbc"]');
  assert.match((await page.textContent('#hlsl-out')) ?? '', 'SRV(t1)');
  assert.equal(problems, []);
  await page.context().close();
});

t('layout at 1280x720: structure | hex | details side by side, the page does not scroll, hover does not move the hex view; light and dark from prefers-color-scheme', async () => {
  const backgrounds: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    const { page, problems } = await open(scheme);
    await page.setInputFiles('#file', join(CORPUS, SHADER));
    await page.waitForSelector('#validation .target');
    const box = (sel: string) => page.$eval(sel, (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    const tree = await box('#tree');
    const hex = await box('#hex');
    const details = await box('#details-pane');
    const inspector = await box('#inspector');
    assert.ok(tree.right <= hex.left && hex.right <= details.left, `side by side: ${JSON.stringify({ tree, hex, details })}`);
    for (const [name, r] of Object.entries({ tree, hex, details, inspector })) assert.ok(r.top >= 0 && r.bottom <= 720 && r.left >= 0 && r.right <= 1280, `${name} inside 1280x720: ${JSON.stringify(r)}`);
    assert.ok(hex.bottom - hex.top > 400, 'the hex view takes the height');
    assert.equal(await page.evaluate(() => [document.scrollingElement!.scrollHeight, document.scrollingElement!.scrollWidth]), [720, 1280]);
    // a hex row is one line: 16 bytes and their text fit the pane
    const rowHeights = await page.$$eval('#hex .r', (rows) => [...new Set(rows.map((r) => r.getBoundingClientRect().height))]);
    assert.equal(rowHeights, [18]);
    const lastByte = await box('#hex .r:first-child .a');
    assert.ok(lastByte.right <= hex.right, 'no row is wider than the pane');
    // hovering bytes changes the info text, never the hex view's place or size
    await page.hover('#hex .b[data-o="5"]');
    const before = await box('#hex');
    await page.hover('#hex .b[data-o="200"]');
    assert.equal(await box('#hex'), before);
    assert.equal(before, hex);
    backgrounds.push(await page.evaluate(() => getComputedStyle(document.querySelector('.pane')!).backgroundColor));
    assert.equal(problems, []);
    await page.context().close();
  }
  assert.is.not(backgrounds[0], backgrounds[1], 'dark differs from light');
});

t('axe-core: no serious or critical violation on the empty page, a shader, its JSON, a query buffer, in light and dark', async () => {
  for (const scheme of ['light', 'dark'] as const) {
    const { page, problems } = await open(scheme);
    assert.equal(await axe(page), [], `${scheme}: empty page`);
    const dir = mkdtempSync(join(tmpdir(), 'dxbin-in-'));
    writeFileSync(join(dir, 'shader.cso'), readFileSync(join(CORPUS, SHADER)));
    await page.setInputFiles('#file', join(dir, 'shader.cso'));
    await page.waitForSelector('#validation .target');
    await page.click('#tree .node[data-path="container.header.digest"]');
    assert.equal(await axe(page), [], `${scheme}: shader`);
    await page.click('#json-box summary');
    assert.equal(await axe(page), [], `${scheme}: JSON open`);
    await page.selectOption('#mode', 'query');
    writeFileSync(join(dir, 'stamps.bin'), stamps(300));
    await page.setInputFiles('#file', join(dir, 'stamps.bin'));
    await page.waitForSelector('body[data-loaded="stamps.bin"]');
    assert.equal(await axe(page), [], `${scheme}: query buffer`);
    await page.selectOption('#mode', 'auto');
    await page.setInputFiles('#file', join(dir, 'stamps.bin'));
    await page.waitForSelector('#query-warning:not([hidden])');
    assert.equal(await axe(page), [], `${scheme}: unrecognised file`);
    // the check itself sees a violation: a button with no name
    await page.evaluate(() => document.body.appendChild(document.createElement('button')));
    assert.match((await axe(page)).join('\n'), 'critical button-name');
    assert.equal(problems, []);
    await page.context().close();
  }
});

t('query view: durations column, median/p99/mean, axes with units; frequency 0 then a valid one recovers; lines reset per file; unrecognised and truncated files', async () => {
  const { page, problems } = await open();
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-in-'));
  const buffer = stamps(300);
  writeFileSync(join(dir, 'stamps.bin'), buffer);
  await page.selectOption('#mode', 'query');
  await page.fill('#frequency', '1000000');
  await page.setInputFiles('#file', join(dir, 'stamps.bin'));
  await page.waitForSelector('#query-view:not([hidden])');
  const d = timestampDurations(buffer, { frequency: 1e6 });
  const want = summarizeDurations(d);
  let sum = 0;
  for (let i = 0; i < d.count; i++) sum += d.ns[i]!;
  assert.is(await page.textContent('#query-stats'), `${want.valid} valid durations: median ${formatNs(want.median)}, p99 ${formatNs(want.p99)}, mean ${formatNs(sum / d.count)}`);
  assert.equal(await page.$$eval('#query-table thead th', (e) => e.map((x) => x.textContent)), ['#', 'Value', 'duration (pair)']);
  assert.equal(await page.$$eval('#query-table tbody tr:nth-child(-n+4)', (rows) => rows.map((r) => r.lastElementChild!.textContent)), [formatNs(d.ns[0]!), '', formatNs(d.ns[1]!), '']);
  // axes: tick labels with units under the histogram and the timeline, counts on the y axis
  const ticks = await page.$$eval('#pictures .histogram text.tick', (e) => e.map((x) => x.textContent ?? ''));
  assert.equal(ticks.filter((x) => /^[0-9.]+ (ns|µs|ms|s)$/.test(x)).length, 3, ticks.join(' | '));
  assert.equal(ticks.filter((x) => /^[0-9]+$/.test(x)).length, 3, ticks.join(' | '));
  assert.is(await page.$$eval('#pictures .timeline text.tick', (e) => e.length), 3);
  // a frequency of 0: an error; then a valid frequency reads the file again
  await page.fill('#frequency', '0');
  await page.press('#frequency', 'Enter');
  await page.dispatchEvent('#frequency', 'change');
  await page.waitForFunction(() => document.getElementById('status')!.classList.contains('error'));
  assert.match((await page.textContent('#status')) ?? '', 'frequency');
  await page.fill('#frequency', '2000000');
  await page.dispatchEvent('#frequency', 'change');
  await page.waitForFunction(() => !document.getElementById('status')!.classList.contains('error'));
  assert.match((await page.textContent('#query-stats')) ?? '', `median ${formatNs(want.median / 2)}`);
  // hover text of this file, then another file: the lines start empty
  await page.hover('#hex .b[data-o="9"]');
  assert.match((await page.textContent('#hex-info')) ?? '', 'timestamp[1].Value');
  // an unrecognised file in auto mode: read as timestamps, with a warning
  await page.mouse.move(5, 5); // off the hex view, so no hover describes the next file's byte
  await page.selectOption('#mode', 'auto');
  writeFileSync(join(dir, 'noise.bin'), Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 255));
  await page.setInputFiles('#file', join(dir, 'noise.bin'));
  await page.waitForSelector('body[data-loaded="noise.bin"]');
  assert.is(await page.textContent('#hex-info'), '');
  assert.match((await page.textContent('#query-warning')) ?? '', 'noise.bin is not a container or a root signature: read as TIMESTAMP');
  assert.is(await page.isHidden('#query-warning'), false);
  // a truncated container: the error, and still its bytes in the hex view
  const shader = new Uint8Array(readFileSync(join(CORPUS, SHADER)));
  writeFileSync(join(dir, 'cut.cso'), shader.subarray(0, 100));
  await page.setInputFiles('#file', join(dir, 'cut.cso'));
  await page.waitForSelector('body[data-loaded="cut.cso"]');
  assert.is(await page.isHidden('#query-warning'), true);
  assert.ok(await page.evaluate(() => document.getElementById('status')!.classList.contains('error')), 'an error is shown');
  assert.is(await page.$$eval('#hex .b', (e) => e.length), 100);
  assert.is(await page.textContent('#query-stats'), '');
  assert.equal(problems, []);
  await page.context().close();
});

test.after(async () => {
  await browser?.close();
});

test.run();
