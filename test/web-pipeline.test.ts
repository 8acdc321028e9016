/** The web inspector shows a pipeline's verdict: a description and its files chosen together. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumMissing } from './helpers/browser.js';
import { CORPUS } from './helpers/corpus.js';
import { requires } from './helpers/requires.js';
import { closeInspectors, openInspector } from './helpers/web-page.js';

const t = requires('chromium', chromiumMissing());

t('a DirectXTK pipeline fits; with a root signature lacking the input-layout flag it does not, with the runtime\'s words', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-web-pipeline-'));
  copyFileSync(join(CORPUS, 'shaders/dxtk12/BasicEffect_VSBasic.dxbc'), join(dir, 'vs.dxbc'));
  copyFileSync(join(CORPUS, 'shaders/dxtk12/BasicEffect_PSBasic.dxbc'), join(dir, 'ps.dxbc'));
  copyFileSync(join(CORPUS, 'rootsig/dxtk12__GenerateMips_DegammaInPlace.rts0'), join(dir, 'mips.rts0'));
  const base = { VS: 'shaders/vs.dxbc', PS: 'ps.dxbc', InputLayout: [{ SemanticName: 'SV_Position', Format: 'R32G32B32_FLOAT' }], RTVFormats: ['R8G8B8A8_UNORM'] };
  writeFileSync(join(dir, 'good.json'), JSON.stringify(base));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...base, pRootSignature: 'mips.rts0' }));
  const { page, problems } = await openInspector();
  await page.setInputFiles('#pipeline-files', ['good.json', 'vs.dxbc', 'ps.dxbc'].map((f) => join(dir, f)));
  await page.waitForFunction(() => document.getElementById('pipeline-verdict')!.textContent !== '');
  assert.match(await page.textContent('#pipeline-verdict') ?? '', /good\.json: graphics pipeline fits \(VS, PS; root signature from VS/);
  // no error; the signatures are checked (decoded from the shaders' parts), so the 3-component
  // position the vertex shader reads as 4 is listed as the runtime's well-defined case, a warning
  const fine = await page.locator('#pipeline-violations li').allTextContents();
  assert.equal(fine.filter((x) => x.startsWith('error')), [], fine.join('\n'));
  assert.ok(fine.some((x) => x.startsWith('warning input-layout-components InputLayout[0].Format')), fine.join('\n'));
  assert.match(await page.textContent('#pipeline-verdict') ?? '', /signatures checked/);
  await page.setInputFiles('#pipeline-files', ['bad.json', 'vs.dxbc', 'ps.dxbc', 'mips.rts0'].map((f) => join(dir, f)));
  await page.waitForFunction(() => document.getElementById('pipeline-verdict')!.textContent!.startsWith('bad.json'));
  assert.match(await page.textContent('#pipeline-verdict') ?? '', /does not fit/);
  const items = await page.locator('#pipeline-violations li').allTextContents();
  assert.ok(items.some((x) => x === 'error input-layout-not-allowed InputLayout: Input layout is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT.'), items.join('\n'));
  await page.setInputFiles('#pipeline-files', [join(dir, 'vs.dxbc')]);
  await page.waitForFunction(() => document.getElementById('pipeline-verdict')!.textContent!.includes('choose the pipeline description'));
  assert.equal(problems, []);
});

test.after(async () => {
  await closeInspectors();
});

test.run();
