/**
 * Builds one of the vkd3d harnesses in test/native (libvkd3d-shader does the work) with the system's
 * C compiler and `pkg-config libvkd3d-shader` into a temporary folder, and checks that it answers
 * `version`. Shared by the differential harness (vkd3d.ts) and the descriptor scan (vkd3d-scan.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './corpus.js';

/** The built program's path, or the reason it cannot be built (no compiler, no libvkd3d-dev). */
export type Built = { path?: string; missing?: string };

/**
 * Compiles `test/native/<name>.c`.
 * @param name the source's base name, also the program's name
 * @param tmpPrefix the temporary folder's name prefix
 * @param label how the "does not run" reason names the program
 * @returns the program's path, or why it is missing
 */
export function buildVkd3dHarness(name: string, tmpPrefix: string, label: string): Built {
  const source = `test/native/${name}.c`;
  const flags = spawnSync('pkg-config', ['--cflags', '--libs', 'libvkd3d-shader'], { encoding: 'utf8' });
  if (flags.error) return { missing: 'pkg-config not found (apt-get install pkg-config libvkd3d-dev)' };
  if (flags.status !== 0) return { missing: 'pkg-config knows no libvkd3d-shader (apt-get install libvkd3d-dev)' };
  const out = join(mkdtempSync(join(tmpdir(), tmpPrefix)), name);
  const cc = process.env.CC ?? 'cc';
  const r = spawnSync(cc, ['-O1', '-std=gnu11', '-Wall', '-o', out, join(ROOT, source), ...flags.stdout.trim().split(/\s+/)], { encoding: 'utf8' });
  if (r.error) return { missing: `${cc} not found (apt-get install gcc)` };
  if (r.status !== 0) return { missing: `${cc} could not build ${source}: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}` };
  const v = spawnSync(out, [], { input: 'version\n', encoding: 'utf8' });
  if (v.status !== 0 || !v.stdout.startsWith('ok ')) return { missing: `${label} does not run: ${v.stderr || v.stdout}` };
  return { path: out };
}
