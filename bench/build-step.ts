/**
 * Bench family `build-step`: the per-file cost of dxbin as a build step. One `dxbin hash --check`
 * call over 1,000 corpus shaders against separate calls (one process per file, sampled on 50
 * files so the bench stays short). Goal: one call at least 100x cheaper per file. Runs the
 * rollup-built CLI with plain node, as users do. Prints a table; `--json` one object per line:
 * {"case", "impl", "median_ns" (per file), "bytes" (mean file size), "files"}.
 *
 * Case `build-step-convert` (issue 21): `rootsig convert --out-dir` over 10,000 root signatures
 * against 1,000 (goal: per file at most 1.2x), and against the I/O floor, a plain Node script that
 * reads each input, writes it to a temp file and renames it into place (goal: at most 3x per
 * file); `dxbin batch` (one job per file) and the persistent worker (one request per file) likewise.
 * DXBIN_BENCH_BIG sets the large count (default 10,000; the small one is a tenth).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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

// ---- build-step-convert: rootsig convert into an output folder, at two sizes, and the I/O floor
const BIG = Number(process.env.DXBIN_BENCH_BIG ?? 10_000);
const SMALL = Math.max(1, Math.round(BIG / 10));
const sigs = readdirSync(join(CORPUS, 'rootsig')).filter((f) => f.endsWith('.dxbc')).sort().map((f) => join(CORPUS, 'rootsig', f));
function inputsOf(n: number): string {
  const d = join(dir, `rs${n}`);
  mkdirSync(d);
  for (let i = 0; i < n; i++) copyFileSync(sigs[i % sigs.length]!, join(d, `r${String(i).padStart(5, '0')}.dxbc`));
  return d;
}
const convertDirs = { [BIG]: inputsOf(BIG), [SMALL]: inputsOf(SMALL) } as Record<number, string>;
const outOf = (impl: string, n: number) => join(dir, `out-${impl}-${n}`);
const convertRows: Result[] = [];
const timed = (impl: string, n: number, f: () => void) => {
  const t = process.hrtime.bigint();
  f();
  const r: Result = { case: 'build-step-convert', impl: `${impl}-${n}`, median_ns: Math.round(Number(process.hrtime.bigint() - t) / n), bytes: 0, files: n };
  convertRows.push(r);
  if (json) console.log(JSON.stringify(r));
};
const listOf = (n: number) => readdirSync(convertDirs[n]!).sort().map((f) => join(convertDirs[n]!, f));
const floorScript = `const fs = require('node:fs'), path = require('node:path'); const [dir, out] = process.argv.slice(1); fs.mkdirSync(out, { recursive: true });
for (const f of fs.readdirSync(dir).sort()) { const b = fs.readFileSync(path.join(dir, f)); const tmp = path.join(out, '.' + f + '.tmp'); fs.writeFileSync(tmp, b); fs.renameSync(tmp, path.join(out, f)); }`;
function spawnOk(args: string[], input?: string): void {
  const r = spawnSync(process.execPath, args, { input, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'], maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`node ${args.slice(0, 3).join(' ')} exited ${r.status}`);
}
for (const n of [SMALL, BIG]) {
  timed('dxbin-convert-one-call', n, () => call(['rootsig', 'convert', `${convertDirs[n]}/*.dxbc`, '--to', '1.2', '--no-progress', '--out-dir', outOf('one', n)]));
  timed('node-read-write-rename', n, () => spawnOk(['-e', floorScript, convertDirs[n]!, outOf('floor', n)]));
  const jobs = listOf(n).map((f, i) => JSON.stringify(['rootsig', 'convert', f, '--to', '1.2', '-o', join(outOf('batch', n), `r${i}.dxbc`)])).join('\n');
  mkdirSync(outOf('batch', n));
  timed('dxbin-batch', n, () => spawnOk([cli, 'batch', '-'], jobs));
  const requests = listOf(n).map((f, i) => JSON.stringify({ arguments: ['rootsig', 'convert', f, '--to', '1.2', '-o', join(outOf('worker', n), `r${i}.dxbc`)], requestId: i + 1 })).join('\n');
  mkdirSync(outOf('worker', n));
  timed('dxbin-worker', n, () => spawnOk([cli, '--persistent_worker'], requests));
}

rmSync(dir, { recursive: true, force: true });
if (!json) {
  const per = (impl: string, n: number) => convertRows.find((r) => r.impl === `${impl}-${n}`)!.median_ns;
  const floor = per('node-read-write-rename', BIG);
  console.log(`build-step-convert: rootsig convert of ${BIG} and ${SMALL} root signatures into a folder; per-file cost`);
  for (const r of convertRows) console.log(`  ${r.impl.padEnd(30)} ${(r.median_ns / 1e6).toFixed(3).padStart(10)} ms/file   ${(r.median_ns / floor).toFixed(2).padStart(8)}x the I/O floor`);
  for (const impl of ['dxbin-convert-one-call', 'dxbin-batch', 'dxbin-worker']) {
    console.log(`  ${impl}: ${BIG} files cost ${(per(impl, BIG) / per(impl, SMALL)).toFixed(2)}x per file what ${SMALL} cost (goal <= 1.2x); ${(per(impl, BIG) / floor).toFixed(2)}x the I/O floor per file (goal <= 3x)`);
  }
}
if (!json) {
  const one = results.find((r) => r.impl === 'dxbin-one-call')!.median_ns;
  console.log(`build-step: ${FILES} corpus shaders, hash --check; per-file cost (median)`);
  for (const r of results) console.log(`  ${r.impl.padEnd(22)} ${(r.median_ns / 1e6).toFixed(3).padStart(10)} ms/file   ${(r.median_ns / one).toFixed(1).padStart(8)}x one call`);
  const per = results.find((r) => r.impl === 'dxbin-per-file')!.median_ns;
  console.log(`  one call is ${(per / one).toFixed(0)}x cheaper per file than a process per file (goal: at least 100x)`);
}
