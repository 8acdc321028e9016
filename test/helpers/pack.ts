/**
 * The checkout as `npm pack` makes it, for tests that install dxbin as a user would
 * (`npm install dxbin-VERSION.tgz`): the package's files are copied to a private folder (with this
 * checkout's node_modules linked in, for the build tools), which `npm pack` builds there (prepack)
 * and packs; the checkout's own dist/ is never touched, so tests running meanwhile are not either.
 * The tarball is kept in node_modules/.cache/dxbin-test/packs/ under a digest of the files it is
 * built from, so test files (and runs) with the same sources pack once; one that finds another
 * packing waits for it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
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
const SOURCES = ['package.json', 'package-lock.json', 'rollup.config.mjs', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin', 'native', 'codecs', 'src', 'scripts', 'schema', 'docs', 'types'];

/** A digest of every file the build reads (a changed source is a new pack). */
function sourcesDigest(): string {
  const h = createHash('sha256');
  const walk = (rel: string) => {
    const full = join(ROOT, rel);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) for (const n of readdirSync(full).sort()) walk(join(rel, n));
    else h.update(`${rel}\0`).update(readFileSync(full)).update('\0');
  };
  for (const f of SOURCES) walk(f);
  return h.digest('hex').slice(0, 16);
}

/** Packs this checkout (or finds the pack of the same sources); returns the tarball's path, copied into `into`. */
export function packCheckout(into: string): string {
  const packs = join(ROOT, 'node_modules/.cache/dxbin-test/packs');
  const done = join(packs, sourcesDigest());
  const lock = `${done}.lock`;
  mkdirSync(packs, { recursive: true });
  mkdirSync(into, { recursive: true });
  for (let waited = 0; !existsSync(done); waited++) {
    try {
      mkdirSync(lock);
    } catch {
      // another test process is packing the same sources: wait for it (up to 15 minutes)
      if (waited > 900) throw new Error(`${lock} held for 15 minutes; remove it if no test is running`);
      spawnSync('sleep', ['1']);
      continue;
    }
    try {
      const work = `${done}.work`;
      rmSync(work, { recursive: true, force: true });
      buildPack(work);
      renameSync(work, done);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  const name = readdirSync(done).find((f) => f.endsWith('.tgz'))!;
  copyFileSync(join(done, name), join(into, name));
  return join(into, name);
}

/** `npm pack` of a private copy of the checkout, the tarball left in `into`. */
function buildPack(into: string): void {
  const stage = join(into, 'checkout');
  mkdirSync(stage, { recursive: true });
  for (const f of SOURCES) if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(stage, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  npm(['pack', '--pack-destination', into], stage, 'npm pack');
  rmSync(stage, { recursive: true, force: true });
}
