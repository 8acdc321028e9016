/**
 * The web inspector's accessibility and layout in headless Chromium (test/helpers/web-page.ts):
 * axe-core (npm) injected with the CSP bypassed; a serious or critical violation fails; the layout
 * at 1280x720 in light and dark.
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
import { createRequire } from 'node:module';
import { stamps } from './helpers/stamps.js';

const t = requires('chromium', chromiumMissing());
const SHADER = 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

/** Presses Tab until `selector` has the focus (at most 40 times); the number of presses. */t('layout at 1280x720: structure | hex | details side by side, the page does not scroll, hover does not move the hex view; light and dark from prefers-color-scheme', async () => {
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
test.after(async () => {
  await closeInspectors();
});

test.run();
