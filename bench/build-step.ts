/**
 * Bench family `build-step`: dxbin as a build step (issue 27), each row the median of at least
 * three runs, the compared rows run side by side (interleaved round by round) in one run, shown as
 * ratios. Runs the CLI as users run it: the rollup-built bundle (test/helpers/built-cli.ts, built
 * as dist/cli.cjs is) with plain node.
 *
 * - `build-step-startup`: one process per file, as Make and Ninja start them. `dxbin rootsig
 *   decode FILE` (a root signature container, JSON to stdout) against `node -e 0` (goal: at most
 *   1.3x) and against vkd3d-compiler compiling a small SM5 compute shader to SPIR-V, a native
 *   tool's process per file (vkd3d-compiler 1.2 has no root signature command; Debian package
 *   vkd3d-compiler; without it the row says so).
 * - `build-step-convert`: `rootsig convert --to 1.2` of 10,000 root signatures into a folder, per
 *   file, against the I/O floor, a plain Node script that reads each input, writes it to a temp
 *   file and renames it into place (goal: at most 3x): one call over a glob, `dxbin batch` (one
 *   job per file) and the persistent worker (one request per file; multiplex, and singleplex: one
 *   request at a time). The same at a tenth of the size, for issue 21's scaling goal (per file, the
 *   large run at most 1.2x the small one).
 * - `build-step-hash`: `hash --check` over 1,000 corpus shaders in one call against one process
 *   per file (sampled), issue 21's "at least 100x cheaper per file".
 *
 * Prints a table; `--json` one object per line: {"case", "impl", "median_ns" (per file or per
 * process), "runs", "files", "vs" (ratio to the case's baseline row), "vs_min", "vs_max"}.
 * DXBIN_BENCH_BIG sets the large count (default 10,000), DXBIN_BENCH_STARTUP_RUNS the process
 * rounds (default 11), DXBIN_BENCH_RUNS the rounds of the per-file cases (default 3).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../test/helpers/built-cli.js';
import { CORPUS } from '../test/helpers/corpus.js';

const json = process.argv.includes('--json');
const RUNS = Math.max(3, Number(process.env.DXBIN_BENCH_RUNS ?? 3));
const STARTUP_RUNS = Math.max(3, Number(process.env.DXBIN_BENCH_STARTUP_RUNS ?? 11));
const BIG = Number(process.env.DXBIN_BENCH_BIG ?? 10_000);
const SMALL = Math.max(1, Math.round(BIG / 10));
const HASH_FILES = Number(process.env.DXBIN_BENCH_FILES ?? 1000);
const HASH_SAMPLED = Number(process.env.DXBIN_BENCH_SAMPLED ?? 10);

const cli = await builtCli();
const dir = mkdtempSync(join(tmpdir(), 'dxbin-bench-build-'));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

interface Row {
  case: string;
  impl: string;
  median_ns: number;
  runs: number;
  files: number;
  vs?: number;
  vs_min?: number;
  vs_max?: number;
  note?: string;
}
const rows: Row[] = [];

/** Wall time of one process, in ns; a status other than 0 (or 1, a failed check, where allowed) is a broken bench. */
function timeProcess(command: string, args: readonly string[], input?: string): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(command, args, { input, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  const ns = Number(process.hrtime.bigint() - t);
  if (r.status !== 0) throw new Error(`${command} ${args.slice(0, 4).join(' ')} exited ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 500)}`);
  return ns;
}

/**
 * Runs every impl once per round (round-robin, so load changes hit all alike), `runs` rounds;
 * rows: each impl's median per `per` (files), and its ratio to the first impl (median of the
 * rounds' ratios, with their range).
 */
function sideBySide(kase: string, per: number, runs: number, impls: readonly { impl: string; run: (round: number) => number; note?: string }[]): void {
  const times = impls.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) impls.forEach((x, i) => times[i]!.push(x.run(round) / per));
  const base = times[0]!;
  impls.forEach((x, i) => {
    const ratios = times[i]!.map((t, r) => t / base[r]!);
    const row: Row = { case: kase, impl: x.impl, median_ns: Math.round(median(times[i]!)), runs, files: per, vs: median(ratios), vs_min: Math.min(...ratios), vs_max: Math.max(...ratios), ...(x.note ? { note: x.note } : {}) };
    rows.push(row);
    if (json) console.log(JSON.stringify(row));
  });
}

// ---- build-step-startup: one process per file ------------------------------------------------
const rootsig = join(CORPUS, 'rootsig', 'vkd3d__descriptor_table_flags_rootsig1.dxbc');
const shader = join(CORPUS, 'shaders', 'vkd3d', 'd3d12__cs_1_group_code.dxbc');
const vkd3d = spawnSync('vkd3d-compiler', ['-o', '/dev/null', shader]).status === 0;
timeProcess(process.execPath, [cli, 'rootsig', 'decode', rootsig]); // warm the page cache
sideBySide('build-step-startup', 1, STARTUP_RUNS, [
  { impl: 'node-e-0', run: () => timeProcess(process.execPath, ['-e', '0']) },
  { impl: 'dxbin-rootsig-decode', run: () => timeProcess(process.execPath, [cli, 'rootsig', 'decode', rootsig]) },
  ...(vkd3d ? [{ impl: 'vkd3d-compiler-cs-to-spirv', run: () => timeProcess('vkd3d-compiler', ['-o', '/dev/null', shader]) }] : []),
]);
if (!vkd3d) {
  const row: Row = { case: 'build-step-startup', impl: 'vkd3d-compiler-cs-to-spirv', median_ns: 0, runs: 0, files: 0, note: 'not measured: vkd3d-compiler is not installed (Debian package vkd3d-compiler)' };
  rows.push(row);
  if (json) console.log(JSON.stringify(row));
}

// ---- build-step-convert: per file, against the I/O floor ------------------------------------
// the corpus's root signatures that convert (its deliberately broken ones, named *invalid*, are left out)
const sigs = readdirSync(join(CORPUS, 'rootsig')).filter((f) => f.endsWith('.dxbc') && !f.includes('invalid')).sort().map((f) => join(CORPUS, 'rootsig', f));
function inputsOf(n: number): { folder: string; files: string[] } {
  const folder = join(dir, `rs${n}`);
  mkdirSync(folder);
  const files = Array.from({ length: n }, (_, i) => {
    const f = join(folder, `r${String(i).padStart(5, '0')}.dxbc`);
    copyFileSync(sigs[i % sigs.length]!, f);
    return f;
  });
  return { folder, files };
}
/** A fresh, empty output folder for one run of one impl (removed after the run, outside the timing). */
const fresh = (impl: string, n: number, round: number) => {
  const out = join(dir, `out-${impl}-${n}-${round}`);
  mkdirSync(out);
  return out;
};
const timedInto = (impl: string, n: number, round: number, f: (out: string) => number) => {
  const out = fresh(impl, n, round);
  try {
    return f(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};
const floorScript = `const fs = require('node:fs'), path = require('node:path'); const [dir, out] = process.argv.slice(1);
for (const f of fs.readdirSync(dir).sort()) { const b = fs.readFileSync(path.join(dir, f)); const tmp = path.join(out, '.' + f + '.tmp'); fs.writeFileSync(tmp, b); fs.renameSync(tmp, path.join(out, f)); }`;
const convertArgs = ['rootsig', 'convert', '--to', '1.2'];
for (const n of [SMALL, BIG]) {
  const { folder, files } = inputsOf(n);
  const jobs = (out: string) => files.map((f, i) => JSON.stringify([...convertArgs, f, '-o', join(out, `r${i}.dxbc`)])).join('\n');
  const requests = (out: string, multiplex: boolean) => files.map((f, i) => JSON.stringify({ arguments: [...convertArgs, f, '-o', join(out, `r${i}.dxbc`)], requestId: multiplex ? i + 1 : 0 })).join('\n');
  sideBySide(`build-step-convert-${n}`, n, RUNS, [
    { impl: 'node-read-write-rename', run: (r) => timedInto('floor', n, r, (out) => timeProcess(process.execPath, ['-e', floorScript, folder, out])) },
    { impl: 'dxbin-convert-one-call', run: (r) => timedInto('one', n, r, (out) => timeProcess(process.execPath, [cli, ...convertArgs, `${folder}/*.dxbc`, '--no-progress', '--out-dir', out])) },
    { impl: 'dxbin-batch', run: (r) => timedInto('batch', n, r, (out) => timeProcess(process.execPath, [cli, 'batch', '-'], jobs(out))) },
    { impl: 'dxbin-worker-multiplex', run: (r) => timedInto('worker', n, r, (out) => timeProcess(process.execPath, [cli, '--persistent_worker'], requests(out, true))) },
    { impl: 'dxbin-worker-singleplex', run: (r) => timedInto('single', n, r, (out) => timeProcess(process.execPath, [cli, '--persistent_worker'], requests(out, false))) },
  ]);
}

// ---- build-step-hash: one call against a process per file ------------------------------------
const shaders: string[] = [];
for (const family of readdirSync(join(CORPUS, 'shaders')).sort()) for (const name of readdirSync(join(CORPUS, 'shaders', family)).sort()) shaders.push(join(CORPUS, 'shaders', family, name));
const hashDir = join(dir, 'hash');
mkdirSync(hashDir);
const hashFiles = Array.from({ length: HASH_FILES }, (_, i) => {
  const f = join(hashDir, `s${String(i).padStart(4, '0')}.cso`);
  copyFileSync(shaders[i % shaders.length]!, f);
  return f;
});
const sample = Array.from({ length: HASH_SAMPLED }, (_, i) => hashFiles[Math.floor((i * HASH_FILES) / HASH_SAMPLED)]!);
const hashOk = (args: string[]) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'hash', '--check', ...args], { stdio: 'ignore' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`dxbin hash exited ${r.status}`);
  return Number(process.hrtime.bigint() - t);
};
sideBySide('build-step-hash', 1, RUNS, [
  { impl: 'dxbin-one-call', run: () => hashOk([`${hashDir}/*.cso`]) / HASH_FILES },
  { impl: 'dxbin-per-file', run: () => median(sample.map((f) => hashOk([f]))) },
]);

rmSync(dir, { recursive: true, force: true });

if (!json) {
  const ms = (ns: number) => `${(ns / 1e6).toFixed(3).padStart(9)} ms`;
  const x = (r: Row) => (r.vs === undefined ? '' : `${r.vs.toFixed(2).padStart(7)}x [${r.vs_min!.toFixed(2)}-${r.vs_max!.toFixed(2)}]`);
  let last = '';
  for (const r of rows) {
    if (r.case !== last) {
      last = r.case;
      const base = rows.find((b) => b.case === r.case)!;
      console.log(`${r.case}: median of ${r.runs} runs side by side, ${r.files === 1 ? 'per process' : `per file (${r.files} files)`}; ratio to ${base.impl}`);
    }
    console.log(`  ${r.impl.padEnd(28)} ${r.runs ? ms(r.median_ns) : '        -'}  ${x(r)}${r.note ? `  ${r.note}` : ''}`);
  }
  const row = (kase: string, impl: string) => rows.find((r) => r.case === kase && r.impl === impl);
  const decode = row('build-step-startup', 'dxbin-rootsig-decode')!;
  console.log(`\ngoals (issue 27): rootsig decode process ${decode.vs!.toFixed(2)}x node -e 0 (goal <= 1.3x)`);
  for (const impl of ['dxbin-convert-one-call', 'dxbin-batch', 'dxbin-worker-multiplex', 'dxbin-worker-singleplex']) {
    const big = row(`build-step-convert-${BIG}`, impl)!;
    const small = row(`build-step-convert-${SMALL}`, impl)!;
    console.log(`  ${impl}: ${big.vs!.toFixed(2)}x the I/O floor per file at ${BIG} files (goal <= 3x); ${(big.median_ns / small.median_ns).toFixed(2)}x per file what ${SMALL} cost (goal <= 1.2x)`);
  }
  const hash = row('build-step-hash', 'dxbin-per-file')!;
  console.log(`  hash --check: one call is ${hash.vs!.toFixed(0)}x cheaper per file than a process per file (goal: at least 100x)`);
}
