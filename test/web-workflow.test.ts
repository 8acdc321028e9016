/**
 * The web inspector by keyboard alone, and the query view's numbers and recoveries, in headless
 * Chromium (test/helpers/web-page.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { chromiumMissing } from './helpers/browser.js';
import { CORPUS } from './helpers/corpus.js';
import { requires } from './helpers/requires.js';
import { closeInspectors, openInspector as open } from './helpers/web-page.js';
import { byteMap, formatNs } from '../src/inspect/index.js';
import { summarizeDurations, timestampDurations } from '../src/query/index.js';
import { stamps } from './helpers/stamps.js';

const t = requires('chromium', chromiumMissing());
const SHADER = 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc';

async function tabTo(page: Page, selector: string): Promise<number> {
  for (let i = 1; i <= 60; i++) {
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
  await closeInspectors();
});

test.run();
