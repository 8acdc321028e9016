/**
 * The checkout as `npm pack` makes it, for tests that install dxbin as a user would
 * (`npm install dxbin-VERSION.tgz`): the package's files are copied to a private folder (with this
 * checkout's node_modules linked in, for the build tools), which `npm pack` builds there (prepack)
 * and packs; the checkout's own dist/ is never touched, so tests running meanwhile are not either.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './corpus.js';

/** npm's own CLI, beside this node (npm_execpath when run through npm). */
export const NPM = [process.env.npm_execpath, join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js')].find((p) => p && p.endsWith('.js') && existsSync(p));

/** Runs npm with the quiet settings tests use; throws with its output on failure. */
export function npm(args: readonly string[], cwd: string, what: string): string {
  if (!NPM) throw new Error(`npm's CLI not found beside ${process.execPath}`);
  const r = spawnSync(process.execPath, [NPM, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    maxBuffer: 1 << 26,
    timeout: 900_000,
  });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** What the build reads (package.json "files" come from it). */
const SOURCES = ['package.json', 'package-lock.json', 'rollup.config.mjs', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'codecs', 'src', 'scripts', 'schema', 'docs', 'types'];

/** Packs this checkout into `into` (a folder); returns the tarball's path. */
export function packCheckout(into: string): string {
  const stage = join(into, 'checkout');
  mkdirSync(stage, { recursive: true });
  for (const f of SOURCES) if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(stage, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  const out = npm(['pack', '--json', '--pack-destination', into], stage, 'npm pack');
  const report = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return join(into, report[0]!.filename);
}
