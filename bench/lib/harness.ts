/**
 * The one bench harness every family (bench/<family>.ts) uses: contenders run in interleaved
 * rounds (each round times every contender once, the order rotating), natives included through a
 * persistent child process, so load changes hit all of them alike; results are checked equal to
 * dxbin's before anything is timed; ratios are medians of per-round ratios.
 *
 * Output: a table, or with `--json` one object per line:
 * {"case", "impl", "median_ns", "bytes", "records", "ns_per_record", "vs_dxbin", "vs_dxbin_min",
 *  "vs_dxbin_max", "rounds", "sample"}. `median_ns` is the median time of one pass over `bytes`
 * (`records` records); `vs_dxbin` is the median over rounds of this impl's time per record divided
 * by the baseline's (dxbin's) in the same round: above 1, dxbin is that many times faster.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const JSON_OUTPUT = process.argv.includes('--json');
/** Rounds per case (DXBIN_BENCH_ROUNDS, default 11). */
export const ROUNDS = Number(process.env.DXBIN_BENCH_ROUNDS ?? 11);
/** Target milliseconds of one timed pass (DXBIN_BENCH_PASS_MS, default 12). */
const PASS_MS = Number(process.env.DXBIN_BENCH_PASS_MS ?? 12);

export interface Contender {
  impl: string;
  /** Report under this case instead (same rounds, so the ratio to the baseline stays exact). */
  case?: string;
  /** Records and bytes one pass covers (a sampled peer covers fewer: reported per record). */
  records: number;
  bytes: number;
  /** True when this contender runs on a sample of the case's records. */
  sample?: boolean;
  /** Runs `reps` passes; returns the elapsed nanoseconds (natives time themselves). */
  pass(reps: number): number | Promise<number>;
  /** Throws (or returns a reason) when this contender's result differs from dxbin's. */
  check?(): void | string | Promise<void | string>;
}

export interface Row {
  case: string;
  impl: string;
  median_ns: number;
  bytes: number;
  records: number;
  ns_per_record: number;
  vs_dxbin: number;
  vs_dxbin_min: number;
  vs_dxbin_max: number;
  rounds: number;
  sample: boolean;
}

/** Times a synchronous pass with the high-resolution clock. */
export function timed(run: () => unknown): (reps: number) => number {
  return (reps) => {
    const t = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) run();
    return Number(process.hrtime.bigint() - t);
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Checks, calibrates and times the contenders of one case in interleaved rounds. The first
 * contender is the baseline of `vs_dxbin`. A contender whose check fails is reported and left out.
 */
export async function runCase(kase: string, contenders: Contender[], rounds = ROUNDS): Promise<Row[]> {
  const live: { c: Contender; reps: number; times: number[] }[] = [];
  for (const c of contenders) {
    let problem: string | void;
    try {
      problem = await c.check?.();
    } catch (e) {
      problem = (e as Error).message;
    }
    if (problem) {
      note(`${kase} ${c.impl}: left out, its result differs from dxbin's (${problem})`);
      continue;
    }
    // warm-up (JIT tiers, caches), then reps so one pass takes about PASS_MS
    let reps = 1;
    let ns = await c.pass(1);
    const warm = performance.now();
    while (performance.now() - warm < 3 * PASS_MS) ns = Math.min(ns, await c.pass(1));
    reps = Math.max(1, Math.round((PASS_MS * 1e6) / Math.max(ns, 1)));
    live.push({ c, reps, times: [] });
  }
  const base = live[0];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < live.length; i++) {
      const x = live[(i + r) % live.length]!;
      x.times.push((await x.c.pass(x.reps)) / x.reps);
    }
  }
  const rows: Row[] = live.map((x) => {
    const ratios = x.times.map((t, r) => t / x.c.records / (base!.times[r]! / base!.c.records));
    const m = median(x.times);
    return {
      case: x.c.case ?? kase,
      impl: x.c.impl,
      median_ns: Math.round(m),
      bytes: x.c.bytes,
      records: x.c.records,
      ns_per_record: Number((m / x.c.records).toPrecision(4)),
      vs_dxbin: Number(median(ratios).toPrecision(3)),
      vs_dxbin_min: Number(Math.min(...ratios).toPrecision(3)),
      vs_dxbin_max: Number(Math.max(...ratios).toPrecision(3)),
      rounds,
      sample: !!x.c.sample,
    };
  });
  const cases = [...new Set(rows.map((r) => r.case))];
  for (const k of cases) report(rows.filter((r) => r.case === k), rows[0]!);
  return rows;
}

/** Prints rows: JSON lines with --json, else a table. */
export function report(rows: Row[], base: Row = rows[0]!): void {
  if (JSON_OUTPUT) {
    for (const row of rows) console.log(JSON.stringify(row));
    return;
  }
  if (!rows.length) return;
  const of = base.case === rows[0]!.case ? base.impl : `${base.impl} of ${base.case}`;
  console.log(`\n${rows[0]!.case}  (${rows[0]!.rounds} interleaved rounds; x = time per record / ${of}'s, median of per-round ratios [min-max])`);
  console.log(`${'impl'.padEnd(22)} ${'per record'.padStart(12)} ${'MB/s'.padStart(9)} ${'records'.padStart(9)}  ${'x'.padStart(10)}  range`);
  for (const r of rows) {
    const per = r.ns_per_record >= 1e6 ? `${(r.ns_per_record / 1e6).toFixed(2)} ms` : r.ns_per_record >= 1e3 ? `${(r.ns_per_record / 1e3).toFixed(2)} us` : `${r.ns_per_record.toFixed(1)} ns`;
    console.log(
      `${r.impl.padEnd(22)} ${per.padStart(12)} ${((r.bytes / r.median_ns) * 1e3).toFixed(0).padStart(9)} ${String(r.records).padStart(9)}${r.sample ? '*' : ' '} ${r.vs_dxbin.toFixed(3).padStart(10)}  ${r.vs_dxbin_min.toFixed(2)}-${r.vs_dxbin_max.toFixed(2)}`,
    );
  }
  if (rows.some((r) => r.sample)) console.log('* on a sample of the records, compared per record');
}

/** A line for the reader (on stderr with --json, so the JSON lines stay clean). */
export function note(line: string): void {
  if (JSON_OUTPUT) console.error(line);
  else console.log(line);
}

/** A native helper driven over stdin: one command line in, one answer line out. */
export class NativeProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void; command: string }[] = [];

  constructor(exe: string, args: string[]) {
    this.child = spawn(exe, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.waiting.shift()?.resolve(line);
      }
    });
    this.child.stderr.on('data', (d) => process.stderr.write(d));
    this.child.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`native helper exited (${code}) during "${w.command}"`));
    });
  }

  ask(command: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, command });
      this.child.stdin.write(`${command}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}

let buildDir: string | undefined;
/** A temporary folder for native builds (never inside the repository). */
export function nativeBuildDir(): string {
  return (buildDir ??= mkdtempSync(join(tmpdir(), 'dxbin-bench-')));
}

/**
 * Compiles bench/native/<file> with gcc into the temporary folder; `pkg` names a pkg-config
 * package it needs. Returns the executable, or the reason it cannot be built (printed).
 */
export function buildNative(source: string, name: string, pkg?: { name: string; debian: string }): { exe: string } | { skipped: string } {
  const skip = (why: string) => {
    note(`${name} native baseline: skipped (${why})`);
    return { skipped: why };
  };
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
  } catch {
    return skip('gcc is not installed');
  }
  let cflags: string[] = [];
  let libs: string[] = [];
  if (pkg) {
    try {
      cflags = execFileSync('pkg-config', ['--cflags', pkg.name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/).filter(Boolean);
      libs = execFileSync('pkg-config', ['--libs', pkg.name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/).filter(Boolean);
    } catch {
      return skip(`${pkg.name} not found by pkg-config (Debian: apt-get install ${pkg.debian})`);
    }
  }
  const exe = join(nativeBuildDir(), name);
  try {
    execFileSync('gcc', ['-O3', ...cflags, '-o', exe, source, ...libs], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    return skip(`gcc failed: ${String((e as { stderr?: Buffer }).stderr ?? e).split('\n')[0]}`);
  }
  return { exe };
}
