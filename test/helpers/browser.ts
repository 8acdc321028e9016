/**
 * Headless Chromium for browser tests: Debian's `chromium` (apt-get install chromium) driven by
 * playwright-core, which downloads no browser of its own. Tests use `requires('chromium',
 * chromiumMissing())` from ./requires.ts so that a machine without it reports a skip.
 */
import { chromium, type Browser } from 'playwright-core';
import { existsSync } from 'node:fs';

/** The Chromium executable: DXBIN_CHROMIUM, else Debian's. */
export const CHROMIUM = process.env.DXBIN_CHROMIUM ?? '/usr/bin/chromium';

/** Undefined when Chromium can be launched, else why not. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install chromium)`;
}

/** Launches headless Chromium with the flags this closed network needs; close it when done. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
