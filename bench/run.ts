/**
 * `npm run bench [-- FAMILY...] [--json]`: runs every case family, bench/<family>.ts (each a
 * standalone script printing a table, or with --json one {"case","impl","median_ns","bytes",...}
 * object per line), one after another in fresh processes, and prints how long each took.
 * The whole run is meant to finish in under 2 minutes on a 2-core machine.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const wanted = args.filter((a) => !a.startsWith('--'));
const families = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .filter((f) => wanted.length === 0 || wanted.includes(f))
  .sort();
const unknown = wanted.filter((w) => !families.includes(w));
if (unknown.length) {
  console.error(`bench: no family ${unknown.join(', ')} (bench/<family>.ts)`);
  process.exit(2);
}

const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
const start = performance.now();
let failed = 0;
for (const family of families) {
  const t = performance.now();
  if (!json) log(`\n==== ${family} (bench/${family}.ts)`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${family}.ts`), ...(json ? ['--json'] : [])], { stdio: 'inherit' });
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  if (r.status !== 0) {
    failed++;
    log(`bench/${family}.ts failed (exit ${r.status ?? r.signal}) after ${seconds} s`);
  } else log(`---- ${family}: ${seconds} s`);
}
log(`\nbench: ${families.length} families in ${((performance.now() - start) / 1000).toFixed(1)} s${failed ? `, ${failed} failed` : ''}`);
process.exit(failed ? 1 : 0);
