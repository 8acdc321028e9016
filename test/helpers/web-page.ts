/**
 * The web inspector in headless Chromium from file://: built once per test file into a temporary
 * folder; pages at 1280x720 with the CSP bypassed (so tests may inject axe-core) and the file
 * chooser intercepted from the start.
 */
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FileChooser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { ROOT } from './corpus.js';

let site = '';
let browser: Browser | undefined;

/** A fresh page of the inspector, ready; `chooser` resolves when the page opens its file chooser. */
export async function openInspector(scheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; problems: string[]; chooser: Promise<FileChooser> }> {
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

/** Closes the browser of openInspector. */
export async function closeInspectors(): Promise<void> {
  await browser?.close();
  browser = undefined;
}
