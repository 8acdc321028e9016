/**
 * The vkd3d differential oracle (shared/oracle): built once per run into a temporary folder
 * (shared/ is read-only in CI), and its seeded random root-signature generator.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './corpus.js';

export const SHARED_ORACLE = process.env.DXBIN_SHARED ? join(process.env.DXBIN_SHARED, 'oracle') : join(ROOT, '..', 'shared', 'oracle');

let built: string | undefined;

/** Path of a working vkd3d-oracle binary; throws with the reason when it cannot be built. */
export function oracleBinary(): string {
  if (built) return built;
  if (process.env.DXBIN_ORACLE) return (built = process.env.DXBIN_ORACLE);
  if (!existsSync(join(SHARED_ORACLE, 'build.sh'))) throw new Error(`no oracle sources at ${SHARED_ORACLE} (set DXBIN_SHARED to the shared/ folder)`);
  const out = join(mkdtempSync(join(tmpdir(), 'dxbin-oracle-')), 'vkd3d-oracle');
  try {
    execFileSync('sh', [join(SHARED_ORACLE, 'build.sh'), out], { stdio: 'pipe' });
  } catch (e) {
    throw new Error(`building the vkd3d oracle failed (apt-get install -y libvkd3d-dev pkg-config gcc): ${String((e as { stderr?: Buffer }).stderr ?? e)}`);
  }
  return (built = out);
}

export function oracle(args: string[], input?: Uint8Array): { status: number; stdout: string } {
  try {
    const stdout = execFileSync(oracleBinary(), args, { input, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, VKD3D_SHADER_DEBUG: 'none' } });
    return { status: 0, stdout: stdout.toString('utf8') };
  } catch (e) {
    const err = e as { status?: number; stdout?: Buffer };
    return { status: err.status ?? -1, stdout: err.stdout?.toString('utf8') ?? '' };
  }
}

export interface GeneratedItem {
  name: string;
  dxbc: Uint8Array;
  rts0: Uint8Array;
  json: Record<string, unknown>;
  to10?: Record<string, unknown>;
  to11?: Record<string, unknown>;
}

/** Runs gen_random_rootsigs.py (items made and checked by vkd3d) and loads what it wrote. */
export function generate(seed: number, count: number, versions: string, extra: string[] = []): GeneratedItem[] {
  const out = join(tmpdir(), `dxbin-gen-${process.pid}-${seed}-${versions.replace(/[^0-9]/g, '')}`);
  mkdirSync(out, { recursive: true });
  execFileSync(
    'python3',
    [join(SHARED_ORACLE, 'gen_random_rootsigs.py'), '--seed', String(seed), '--count', String(count), '--versions', versions, '--raw', '--out', out, '--oracle', oracleBinary(), ...extra],
    { stdio: 'pipe' },
  );
  const names = readdirSync(out).filter((f) => f.endsWith('.dxbc')).map((f) => f.slice(0, -5)).sort();
  const load = (f: string) => (existsSync(join(out, f)) ? JSON.parse(readFileSync(join(out, f), 'utf8')) : undefined);
  return names.map((name) => ({
    name,
    dxbc: new Uint8Array(readFileSync(join(out, `${name}.dxbc`))),
    rts0: new Uint8Array(readFileSync(join(out, `${name}.rts0`))),
    json: load(`${name}.json`),
    to10: load(`${name}.to10.json`),
    to11: load(`${name}.to11.json`),
  }));
}
