/**
 * The skip rule for tests that need something outside Node (a system package, a browser, a C
 * compiler). `npm test` on a machine without it reports `skipped: <reason>` and does not fail;
 * with DXBIN_REQUIRE_ALL=1 (set by .ci/run, which installs everything) a missing requirement is a
 * failure instead, so CI runs every test.
 *
 *   const t = requires('vkd3d', vkd3dMissing());   // reason string, or undefined when present
 *   t('vkd3d agrees on ...', () => { ... });
 */
import { test } from 'uvu';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when every requirement must be met (CI). */
export const REQUIRE_ALL = process.env.DXBIN_REQUIRE_ALL === '1';

const skipTest = test.skip;
type TestFn = (name: string, fn: () => unknown) => void;

/**
 * A `test` function for tests that need `what`: the real one when `missing` is undefined, one that
 * records a skip (or, under DXBIN_REQUIRE_ALL=1, a failure) naming the reason otherwise.
 */
export function requires(what: string, missing: string | undefined): TestFn {
  if (missing === undefined) return (name, fn) => test(name, fn as () => void);
  if (REQUIRE_ALL) {
    return (name) =>
      test(name, () => {
        throw new Error(`${what} is required (DXBIN_REQUIRE_ALL=1) but missing: ${missing}`);
      });
  }
  return (name) => {
    console.log(`skipped: ${name}: needs ${what}: ${missing}`);
    skipTest(name, () => {});
  };
}

/** Undefined when `command args` runs and exits 0, else why not. */
export function missingCommand(command: string, args: string[] = ['--version']): string | undefined {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  if (r.error) return `${command} not found`;
  return r.status === 0 ? undefined : `${command} ${args.join(' ')} exited ${r.status}`;
}

/** Undefined when every path exists, else the first missing one. */
export function missingPath(...paths: string[]): string | undefined {
  const p = paths.find((x) => !existsSync(x));
  return p === undefined ? undefined : `${p} does not exist`;
}

/**
 * Undefined when `compiler flags` builds and links a program (e.g. `gcc -m32` needs gcc-multilib),
 * else why not.
 */
export function missingCompiler(compiler: string, flags: string[] = []): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-cc-'));
  try {
    const file = join(dir, compiler.includes('++') ? 'probe.cpp' : 'probe.c');
    writeFileSync(file, '#include <stdio.h>\nint main(void) { return puts("") < 0; }\n');
    const r = spawnSync(compiler, [...flags, file, '-o', join(dir, 'probe')], { encoding: 'utf8' });
    if (r.error) return `${compiler} not found`;
    if (r.status !== 0) return `${compiler} ${flags.join(' ')} cannot build a program: ${r.stderr.trim().split('\n')[0]}`;
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
