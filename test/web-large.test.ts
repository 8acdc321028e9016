/**
 * The web inspector on many and large inputs in headless Chromium (test/helpers/web-page.ts): every
 * corpus root signature, and a large one of which only what is in view is in the DOM.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRootSignature, printRootSignature, readRootSignatureSource, rootSignatureContainer, rootSignatureFromJson } from '../src/index.js';
import { corpusFiles } from './helpers/corpus.js';
import { byteMap } from '../src/inspect/index.js';
import { chromiumMissing } from './helpers/browser.js';
import { requires } from './helpers/requires.js';
import { closeInspectors, openInspector as open } from './helpers/web-page.js';

const t = requires('chromium', chromiumMissing());

t('every corpus root signature reads in the page: its HLSL text, validation and hex view', async () => {
  const { page, problems } = await open();
  const files = [...corpusFiles('rootsig'), ...corpusFiles('shaders')].filter((f) => {
    try {
      readRootSignatureSource(f.bytes, 'lenient');
      return true;
    } catch {
      return false;
    }
  });
  assert.ok(files.length > 300, `${files.length} files`);
  // one round trip: the page is driven file by file from inside (drop, wait for the summary, read)
  const seen = await page.evaluate(async (list) => {
    const out: { hlsl: string; targets: number; bytes: number }[] = [];
    const summary = document.getElementById('summary')!;
    for (const [i, [name, b64]] of list.entries()) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const label = `${i}-${name}`;
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], label));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      // validation follows the first paint
      while (!summary.textContent!.startsWith(`${label}:`) || document.querySelectorAll('#validation .target').length !== 2) await new Promise((r) => setTimeout(r, 0));
      out.push({ hlsl: document.getElementById('hlsl-out')!.textContent!, targets: document.querySelectorAll('#validation .target').length, bytes: document.querySelectorAll('.hex .b').length });
    }
    return out;
  }, files.map((f) => [f.name.replace(/^.*\//, ''), Buffer.from(f.bytes).toString('base64')] as [string, string]));
  files.forEach((f, i) => {
    const { rootSignature } = readRootSignatureSource(f.bytes, 'lenient');
    assert.is(seen[i]!.hlsl, printRootSignature(rootSignature, { multiline: true }), f.name);
    assert.is(seen[i]!.targets, 2, f.name);
    assert.ok(seen[i]!.bytes > 0, f.name);
  });
  assert.equal(problems, []);
  await page.context().close();
});

/** A version 1.0 root signature with one descriptor table of `n` SRV ranges, as a container. */
function manyRanges(n: number): Uint8Array {
  const ranges = Array.from({ length: n }, (_, i) => ({ rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: i, registerSpace: 0, offsetInDescriptorsFromTableStart: 'APPEND' }));
  return rootSignatureContainer(encodeRootSignature(rootSignatureFromJson({ version: '1.0', flags: [], parameters: [{ parameterType: 'DESCRIPTOR_TABLE', shaderVisibility: 'ALL', ranges }], staticSamplers: [] })));
}

t('a root signature of 20,000 ranges: trees, hex view and texts draw only what is in view; the last range is reached by keyboard', async () => {
  const { page, problems } = await open();
  const n = 20000;
  const bytes = manyRanges(n);
  const file = join(mkdtempSync(join(tmpdir(), 'dxbin-in-')), 'many.dxbc');
  writeFileSync(file, bytes);
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#rootsig-view:not([hidden])');
  await page.waitForSelector('#validation .target');
  const counts = await page.evaluate(() => ({
    tree: document.querySelectorAll('#tree .node').length,
    rsTree: document.querySelectorAll('#rs-tree .node').length,
    hexRows: document.querySelectorAll('#hex .r').length,
    all: document.querySelectorAll('*').length,
    hlslLines: Number(document.getElementById('hlsl-out')!.dataset.lines),
    hlslShown: document.getElementById('hlsl-out')!.textContent!.split('\n').length,
  }));
  assert.ok(counts.tree > 5 && counts.tree < 80, `${counts.tree} byte tree rows drawn`);
  assert.ok(counts.rsTree > 3 && counts.rsTree < 40, `${counts.rsTree} root signature tree rows drawn`);
  assert.ok(counts.hexRows > 5 && counts.hexRows < 100, `${counts.hexRows} hex rows drawn of ${Math.ceil(bytes.byteLength / 16)}`);
  assert.ok(counts.hlslLines > n && counts.hlslShown < 200, `HLSL: ${counts.hlslShown} of ${counts.hlslLines} lines drawn`);
  assert.ok(counts.all < 3000, `${counts.all} elements in the page`);
  // keyboard: into the ranges array of the byte tree, then End: the last range, still few rows drawn
  const last = byteMap(bytes).spans.filter((s) => s.path.startsWith(`RTS0.parameters[0].ranges[${n - 1}]`));
  await page.fill('#goto', String(last[1]!.offset));
  await page.press('#goto', 'Enter');
  await page.press('#hex', 'Enter');
  assert.is(await page.$eval('#tree .node.active', (e) => (e as HTMLElement).dataset.path), last[1]!.path);
  await page.keyboard.press('ArrowLeft'); // to the range record
  await page.keyboard.press('ArrowLeft'); // collapse it
  await page.keyboard.press('ArrowLeft'); // to the ranges array
  assert.is(await page.$eval('#tree .node.active', (e) => (e as HTMLElement).dataset.path), 'RTS0.parameters[0].ranges');
  await page.keyboard.press('ArrowLeft'); // collapse: 20,000 rows fewer
  await page.keyboard.press('ArrowRight'); // expand again
  await page.keyboard.press('End');
  assert.match((await page.$eval('#tree .node.active', (e) => (e as HTMLElement).dataset.path)) ?? '', /^RTS0|container/);
  assert.ok((await page.$$eval('#tree .node', (e) => e.length)) < 80);
  assert.equal(problems, []);
  await page.context().close();
});

test.after(async () => {
  await closeInspectors();
});

test.run();
