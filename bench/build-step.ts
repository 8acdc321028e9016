/**
 * Bench family `build-step`: the per-file cost of dxbin as a build step. One `dxbin hash --check`
 * call over 1,000 corpus shaders against separate calls (one process per file, sampled on 50
 * files so the bench stays short). Goal: one call at least 100x cheaper per file. Runs the
 * rollup-built CLI with plain node, as users do. Prints a table; `--json` one object per line:
 * {"case", "impl", "median_ns" (per file), "bytes" (mean file size), "files"}.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../test/helpers/built-cli.js';
import { CORPUS } from '../test/helpers/corpus.js';

const json = process.argv.includes('--json');
const FILES = Number(process.env.DXBIN_BENCH_FILES ?? 1000);
const SAMPLED = Number(process.env.DXBIN_BENCH_SAMPLED ?? 50);

const cli = await builtCli();
const dir = mkdtempSync(join(tmpdir(), 'dxbin-bench-build-'));
const all: string[] = [];
for (const family of readdirSync(join(CORPUS, 'shaders')).sort()) for (const name of readdirSync(join(CORPUS, 'shaders', family)).sort()) all.push(join(CORPUS, 'shaders', family, name));
const files = Array.from({ length: FILES }, (_, i) => {
  const f = join(dir, `s${String(i).padStart(4, '0')}.cso`);
  copyFileSync(all[i % all.length]!, f);
  return f;
});
const meanBytes = Math.round(files.reduce((n, f) => n + statSync(f).size, 0) / files.length);

function call(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: 'ignore' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`dxbin ${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t);
}

interface Result {
  case: string;
  impl: string;
  median_ns: number;
  bytes: number;
  files: number;
}
const results: Result[] = [];
function report(r: Result): void {
  results.push(r);
  if (json) console.log(JSON.stringify(r));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

// one call over every file (glob expanded by dxbin): three runs after a warm-up
call(['hash', '--check', `${dir}/*.cso`]);
report({ case: 'build-step', impl: 'dxbin-one-call', median_ns: Math.round(median([0, 1, 2].map(() => call(['hash', '--check', `${dir}/*.cso`]))) / FILES), bytes: meanBytes, files: FILES });
report({ case: 'build-step', impl: 'dxbin-one-call-jobs2', median_ns: Math.round(median([0, 1, 2].map(() => call(['hash', '--check', '--jobs', '2', `${dir}/*.cso`]))) / FILES), bytes: meanBytes, files: FILES });
// one process per file, on an evenly spaced sample
const sample = Array.from({ length: SAMPLED }, (_, i) => files[Math.floor((i * FILES) / SAMPLED)]!);
report({ case: 'build-step', impl: 'dxbin-per-file', median_ns: Math.round(median(sample.map((f) => call(['hash', '--check', f])))), bytes: meanBytes, files: SAMPLED });
// the floor of a process: node starting and exiting
report({ case: 'build-step', impl: 'node-e-0', median_ns: Math.round(median(sample.slice(0, 10).map(() => { const t = process.hrtime.bigint(); spawnSync(process.execPath, ['-e', '0']); return Number(process.hrtime.bigint() - t); }))), bytes: 0, files: 10 });

rmSync(dir, { recursive: true, force: true });
if (!json) {
  const one = results.find((r) => r.impl === 'dxbin-one-call')!.median_ns;
  console.log(`build-step: ${FILES} corpus shaders, hash --check; per-file cost (median)`);
  for (const r of results) console.log(`  ${r.impl.padEnd(22)} ${(r.median_ns / 1e6).toFixed(3).padStart(10)} ms/file   ${(r.median_ns / one).toFixed(1).padStart(8)}x one call`);
  const per = results.find((r) => r.impl === 'dxbin-per-file')!.median_ns;
  console.log(`  one call is ${(per / one).toFixed(0)}x cheaper per file than a process per file (goal: at least 100x)`);
}
