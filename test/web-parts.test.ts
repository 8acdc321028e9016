/**
 * The web inspector's part panels and bindings view in headless Chromium (test/helpers/web-page.ts):
 * every part's panel shows what `dxbin inspect --json` prints for it, opening one selects its bytes,
 * the bindings view's verdicts are the library's verify (a shader against a fitting and a
 * non-fitting root signature file; a DXIL library's state object), names from the file are text.
 * The model behind the panels (web/part-json.ts) is checked in Node first.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { compileRootSignatureBlob, computeContainerDigest, findPart, parseContainer, printable, readRootSignatureSource, shaderOf, verifyRootSignature, verifyStateObject, writeContainer } from '../src/index.js';
import { drawnLeaves, FIRST_ROWS, NESTED_ROWS, partSummary, valueText } from '../web/part-json.js';
import { stateObjectViolationText, violationText } from '../web/panels/bindings.js';
import { chromiumMissing } from './helpers/browser.js';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { PAYLOADS } from './helpers/markup.js';
import { requires } from './helpers/requires.js';
import { closeInspectors, openInspector } from './helpers/web-page.js';

const t = requires('chromium', chromiumMissing());
const DXBC = 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc';
const DXIL = 'shaders/brawler/PSODefinition__TEST_PSO__PIXEL_SHADER_BYTECODE.dxil';
const RDEF = 'shaders/vkd3d-2024/hlsl_d3d12__test_blob_part.dxbc';
const LIBRARY = 'shaders/vkd3d-proton/basic_code_dxil.dxil';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `dxbin inspect --json` of corpus files, one answer per file. */
function inspectJson(files: readonly string[]): Record<string, unknown>[] {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'inspect', '--json', ...files.map((f) => join(CORPUS, f))], { encoding: 'utf8', cwd: ROOT });
  assert.is(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Opens every part panel and reads each one's `data-path` cells. */
async function panelCells(page: Page): Promise<{ part: string; summary: string; cells: Record<string, string> }[]> {
  const n = await page.locator('#part-panels > details').count();
  for (let i = 0; i < n; i++) await page.click(`#part-panels > details[data-index="${i}"] > summary`);
  await page.waitForFunction((k) => document.querySelectorAll('#part-panels > details[data-drawn="1"]').length === k, n);
  return page.$$eval('#part-panels > details', (panels) =>
    panels.map((p) => ({
      part: (p as HTMLElement).dataset.part!,
      summary: p.querySelector('summary')!.textContent!,
      cells: Object.fromEntries(Array.from(p.querySelectorAll<HTMLElement>('[data-path]')).filter((e) => e.tagName !== 'TABLE').map((e) => [e.dataset.path!, e.textContent!])),
    })),
  );
}

async function load(page: Page, file: string, bytes?: Uint8Array): Promise<void> {
  const loads = Number((await page.getAttribute('body', 'data-loads')) ?? 0);
  if (bytes) {
    const dir = mkdtempSync(join(tmpdir(), 'dxbin-parts-'));
    writeFileSync(join(dir, file), bytes);
    await page.setInputFiles('#file', join(dir, file));
  } else await page.setInputFiles('#file', join(CORPUS, file));
  await page.waitForSelector(`body[data-loads="${loads + 1}"]`);
}

async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

/** A root signature file compiled from HLSL text. */
function rsFile(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, compileRootSignatureBlob(text, { version: 2 }));
  return path;
}

test('the panel model: control characters and markup as escaped text, long arrays drawn in part, a summary per kind', () => {
  assert.is(valueText('A\x1b[2J<script>\x07'), 'A\\x1b[2J<script>\\x07');
  assert.is(valueText('line 1\n\tline 2\x00'), 'line 1\n\tline 2\\x00');
  assert.is(valueText(['a', 1, null]), 'a, 1, null');
  assert.is(valueText([]), '[]');
  assert.is(valueText(new Uint8Array([0, 255])), '00ff');
  const many = Array.from({ length: FIRST_ROWS + 5 }, (_, i) => ({ v: i, inner: Array.from({ length: NESTED_ROWS + 1 }, (_, k) => ({ k })) }));
  const leaves = drawnLeaves({ name: 'X', kind: 'k', size: 1, rows: many });
  assert.ok(leaves.has(`rows[${FIRST_ROWS - 1}].v`) && !leaves.has(`rows[${FIRST_ROWS}].v`));
  assert.ok(leaves.has(`rows[0].inner[${NESTED_ROWS - 1}].k`) && !leaves.has(`rows[0].inner[${NESTED_ROWS}].k`));
  assert.not.ok(leaves.has('name'));
  assert.is(partSummary({ name: 'I\x01GN', kind: 'signature', size: 96, elements: [{}, {}] }), 'I\\x01GN: signature, 2 elements, 96 bytes');
});

t('a panel per part of a DXBC, a DXIL shader and a DXBC with RDEF and unknown parts: each shows inspect --json\'s decode; opening one selects its bytes', async () => {
  const files = [DXBC, DXIL, RDEF, LIBRARY];
  const answers = inspectJson(files);
  const { page, problems } = await openInspector();
  for (const [f, file] of files.entries()) {
    await load(page, file);
    const bytes = new Uint8Array(readFileSync(join(CORPUS, file)));
    const c = parseContainer(bytes);
    const parts = answers[f]!.parts as { name: string; offset: number; size: number; decode: Record<string, unknown> }[];
    const panels = await panelCells(page);
    assert.equal(panels.map((p) => p.part), c.parts.map((p) => p.name), file);
    for (const [i, p] of parts.entries()) {
      // RDAT: inspect --json gives the library it declares beside the parts
      const decode = p.name === 'RDAT' ? { name: 'RDAT', kind: 'runtime-data', size: p.size, ...(answers[f]!.library as Record<string, unknown>) } : p.decode;
      const expected = Object.fromEntries(drawnLeaves(decode));
      assert.ok(Object.keys(expected).length > 0 || p.size === 0, `${file} ${p.name}: nothing to compare`);
      assert.equal(panels[i]!.cells, expected, `${file} part ${i} ${p.name}`);
      assert.ok(panels[i]!.summary.startsWith(`${i}. ${p.name}: ${String(decode.kind)}`), panels[i]!.summary);
    }
    // the last panel opened selected its part's bytes (header and data)
    const last = parts.length - 1;
    assert.is(await page.getAttribute('#selection-info', 'data-length'), String(8 + parts[last]!.size));
    assert.is(await page.getAttribute('#hex', 'aria-activedescendant'), `hx-${parts[last]!.offset}`);
  }
  // the DXBC's decoded kinds, all from rows (not bytes): signatures, instructions, root signature
  await load(page, DXBC);
  assert.equal(await page.$$eval('#part-panels > details', (d) => d.map((x) => (x as HTMLElement).dataset.kind)), ['signature', 'signature', 'tokens', 'root-signature']);
  // a row of a table selects that record's bytes: ISGN element 1 (24 bytes after the first)
  await page.click('#part-panels > details[data-index="0"] > summary');
  await page.click('#part-panels > details[data-index="0"] button[aria-label="bytes of elements[1]"]');
  const isgn = parseContainer(new Uint8Array(readFileSync(join(CORPUS, DXBC)))).layout.partOffsets[0]! + 8;
  assert.is(await page.getAttribute('#selection-info', 'data-length'), '24');
  assert.is(await page.getAttribute('#hex', 'aria-activedescendant'), `hx-${isgn + 8 + 24}`);
  assert.equal(problems, []);
  await page.context().close();
});

t('bindings view: a DXBC and a DXIL shader against a fitting and a non-fitting root signature file give verify\'s verdict and violations', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-rs-'));
  const { page, problems } = await openInspector();
  const cases = [
    { shader: DXBC, fits: 'DescriptorTable(SRV(t0)), DescriptorTable(Sampler(s0)), CBV(b0)', misses: 'CBV(b0)' },
    { shader: 'shaders/brawler/PSODefinition_BC7_ENCODE_BLOCK__BC7_ENCODE_BLOCK__COMPUTE_SHADER_BYTECODE.dxil', fits: 'CBV(b0), CBV(b1), DescriptorTable(SRV(t0, numDescriptors = 2), UAV(u0))', misses: 'RootConstants(num32BitConstants = 1, b7)' },
  ];
  for (const c of cases) {
    await load(page, c.shader);
    const shader = shaderOf(parseContainer(new Uint8Array(readFileSync(join(CORPUS, c.shader)))));
    await page.waitForSelector('#bindings-view:not([hidden])');
    // the bindings as verify reads them
    const bindings = await page.$$eval('#bindings-table [data-path$=".registers"]', (e) => e.map((x) => x.textContent));
    assert.is(bindings.length, shader.bindings!.length);
    const own = findPart(shader.container, 'RTS0') ? verifyRootSignature(shader).verdict : 'none';
    assert.is(await page.getAttribute('#bindings-verdict', 'data-verdict'), own);
    const verdicts: string[] = [];
    for (const [name, text] of [['fits.rts0', c.fits], ['misses.rts0', c.misses]] as const) {
      const file = rsFile(dir, name, text);
      const r = verifyRootSignature(shader, readRootSignatureSource(readFileSync(file)).rootSignature);
      verdicts.push(r.verdict);
      const done = Number((await page.getAttribute('body', 'data-verified')) ?? 0);
      await page.setInputFiles('#verify-rootsig', file);
      await page.waitForSelector(`body[data-verified="${done + 1}"]`);
      assert.is(await page.getAttribute('#bindings-verdict', 'data-verdict'), r.verdict, `${c.shader} ${name}`);
      assert.match((await page.textContent('#bindings-verdict')) ?? '', name);
      assert.equal(await page.locator('#bindings-verdict-violations li').allTextContents(), r.violations.map(violationText));
    }
    assert.equal(verdicts, ['fits', 'does-not-fit'], `${c.shader}: the two files are a fitting and a non-fitting one`);
  }
  // a file that holds no root signature is a message, not a verdict
  writeFileSync(join(dir, 'junk.rts0'), new Uint8Array([1, 2, 3]));
  await page.setInputFiles('#verify-rootsig', join(dir, 'junk.rts0'));
  await page.waitForSelector('#bindings-verdict[data-verdict="error"]');
  assert.equal(problems, []);
  await page.context().close();
});

t('bindings view of a DXIL library: the state object verdict from its own subobjects, then with a global root signature file', async () => {
  const bytes = new Uint8Array(readFileSync(join(CORPUS, LIBRARY)));
  const { page, problems } = await openInspector();
  await load(page, LIBRARY);
  const name = LIBRARY.split('/').pop()!;
  const alone = verifyStateObject([{ name, bytes }]);
  assert.is(alone.verdict, 'does-not-fit');
  assert.is(await page.getAttribute('#bindings-verdict', 'data-verdict'), alone.verdict);
  assert.equal(await page.locator('#bindings-verdict-violations li').allTextContents(), alone.violations.map(stateObjectViolationText));
  assert.equal(await page.$$eval('#bindings-exports [data-path$=".fits"]', (e) => e.map((x) => x.textContent)), alone.exports.map((e) => String(e.fits)));
  assert.match((await page.textContent('#bindings-source')) ?? '', 'DXIL library');
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-rs-'));
  const file = rsFile(dir, 'global.rts0', 'DescriptorTable(UAV(u0, numDescriptors = unbounded))');
  const withGlobal = verifyStateObject([{ name, bytes }], { globalRootSignature: { name: 'global.rts0', rootSignature: readRootSignatureSource(readFileSync(file)).rootSignature } });
  await page.setInputFiles('#verify-rootsig', file);
  await page.waitForSelector('body[data-verified="1"]');
  assert.is(await page.getAttribute('#bindings-verdict', 'data-verdict'), withGlobal.verdict);
  assert.is(withGlobal.verdict, 'fits');
  assert.equal(await page.locator('#bindings-verdict-violations li').allTextContents(), []);
  assert.equal(await page.$$eval('#bindings-exports [data-path$=".globalRootSignature"]', (e) => e.map((x) => x.textContent)), withGlobal.exports.map((e) => e.globalRootSignature ?? ''));
  assert.equal(problems, []);
  await page.context().close();
});

t('a hostile semantic name (control characters, <script>) is text in its panel; panels and bindings by keyboard; axe finds nothing serious', async () => {
  const name = `\x1b[31m${PAYLOADS[0]}\x07${PAYLOADS[1]}`;
  const text = new TextEncoder().encode(`${name}\0`);
  const isgn = new Uint8Array(8 + 24 + text.byteLength);
  const v = new DataView(isgn.buffer);
  v.setUint32(0, 1, true); // one element
  v.setUint32(4, 8, true);
  v.setUint32(8, 32, true); // its name's offset
  v.setUint32(20, 3, true); // float32
  v.setUint8(28, 0xf);
  isgn.set(text, 32);
  const bytes = writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'ISGN', data: isgn }] });
  bytes.set(computeContainerDigest(bytes), 4);
  const { page, problems } = await openInspector();
  await load(page, `${PAYLOADS[1]}.dxbc`, bytes);
  const [panel] = await panelCells(page);
  assert.is(panel!.cells['elements[0].semanticName'], printable(name));
  assert.match(panel!.cells['elements[0].semanticName']!, '\\x1b[31m<script>');
  assert.equal(await page.evaluate(() => [(window as unknown as { __pwned?: number }).__pwned, document.querySelectorAll('#part-panels script, #part-panels img').length]), [undefined, 0]);
  // keyboard: a part's summary opens it by Enter, its row button selects the element's bytes
  await load(page, DXBC);
  await page.focus('#part-panels > details[data-index="0"] > summary');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#part-panels > details[data-index="0"][data-drawn="1"]');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'ISGN decoded');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'bytes of header');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.is(await page.getAttribute('#selection-info', 'data-length'), '24');
  // axe with panels open, a shader's bindings and a library's state object
  await panelCells(page);
  assert.equal(await axe(page), [], 'shader with its panels open');
  await load(page, LIBRARY);
  await panelCells(page);
  assert.equal(await axe(page), [], 'library with its panels open');
  assert.equal(problems, []);
  await page.context().close();
});

test.after(async () => {
  await closeInspectors();
});

test.run();
