/**
 * The fuzzing engine: jobs in worker threads, a scheduler in the main thread that keeps time,
 * reports progress, stops at the budget and acts as the watchdog (a hung synchronous decoder
 * never lets a timer of its own thread fire, so the timer is here), and libFuzzer's file
 * conventions for what it finds (docs/fuzzing.md).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { answerKey, Features } from './features.js';
import { expectArray, expectBytes, expectFunction, expectNumber, expectObject, expectString } from '../bytes/check.js';
import { coverageBuild } from './instrument.js';
import { printable } from '../bytes/text.js';
import { seedInputs } from './seeds.js';
import { fuzzTarget, runOne, type FuzzTarget } from './targets.js';
import type { WorkerInit, WorkerMessage } from './worker.js';

/** Content hash naming corpus and finding files (SHA-1 hex, as libFuzzer). */
export const contentHash = (data: Uint8Array): string => {
  expectBytes(data, 'data');
  return createHash('sha1').update(data).digest('hex');
};

// ---------------------------------------------------------------- scheduler

/** What the scheduler needs of a running job. */
export interface JobHandle {
  /** Inputs started so far (a shared counter the job bumps before each input). */
  execs(): number;
  /** False while the job is still starting (loading modules): the watchdog waits for it. */
  started?(): boolean;
  /** The job is stuck on one input longer than the timeout: kill it (and start another). */
  hung(): void;
  /** The budget is spent: stop. */
  stop(): void;
}

/** A progress report of a running campaign: the target, the time, executions and findings so far. */
export interface Progress {
  target: string;
  elapsedMs: number;
  execs: number;
  execsPerSecond: number;
  features: number;
  corpus: number;
  crashes: number;
  timeouts: number;
  /** Milliseconds left, from the time budget or the runs budget at the current rate (undefined while unknown). */
  remainingMs?: number;
  /** 0..1 of the budget. */
  fraction: number;
}

/** How a campaign's jobs are scheduled: time or runs, the per-input timeout, and when to stop. */
export interface ScheduleOptions {
  timeMs?: number;
  runs?: number;
  /** Per-input timeout: a job whose counter does not move for this long is hung. */
  timeoutMs: number;
  /** How often to report progress. */
  progressMs: number;
  /** Scheduler tick (watchdog resolution). */
  tickMs?: number;
  /** Ends the run early when it returns true (e.g. after a first finding). */
  until?: () => boolean;
}

/**
 * Runs the clock over a set of jobs until the time or runs budget is spent; uses the global
 * timers and Date.now, so @sinonjs/fake-timers can drive it in tests.
 */
export function schedule(
  jobs: () => readonly JobHandle[],
  options: ScheduleOptions,
  stats: () => Omit<Progress, 'elapsedMs' | 'execsPerSecond' | 'remainingMs' | 'fraction'>,
  onProgress: (p: Progress) => void,
): Promise<Progress> {
  // checked here, not in the timer callback, where a TypeError would escape as an uncaught exception
  expectFunction(jobs, 'jobs');
  expectObject(options, 'options');
  expectFunction(stats, 'stats');
  expectFunction(onProgress, 'onProgress');
  if (options.until !== undefined) expectFunction(options.until, 'options.until');
  const start = Date.now();
  const seen = new Map<JobHandle, { execs: number; at: number }>();
  let lastReport = start;
  return new Promise((resolve) => {
    const progress = (now: number): Progress => {
      const st = stats();
      const execs = st.execs;
      const elapsedMs = now - start;
      const execsPerSecond = elapsedMs > 0 ? (execs * 1000) / elapsedMs : 0;
      let remainingMs: number | undefined;
      let fraction = 0;
      if (options.timeMs !== undefined) {
        remainingMs = Math.max(0, options.timeMs - elapsedMs);
        fraction = Math.min(1, elapsedMs / options.timeMs);
      }
      if (options.runs !== undefined) {
        const byRuns = execsPerSecond > 0 ? ((options.runs - execs) * 1000) / execsPerSecond : undefined;
        const f = Math.min(1, execs / options.runs);
        if (f > fraction) fraction = f;
        if (byRuns !== undefined) remainingMs = remainingMs === undefined ? Math.max(0, byRuns) : Math.min(remainingMs, Math.max(0, byRuns));
      }
      return { ...st, elapsedMs, execsPerSecond, remainingMs, fraction };
    };
    const tick = () => {
      const now = Date.now();
      for (const job of jobs()) {
        if (job.started && !job.started()) continue;
        const n = job.execs();
        const s = seen.get(job);
        if (!s || s.execs !== n) seen.set(job, { execs: n, at: now });
        else if (now - s.at > options.timeoutMs) {
          seen.delete(job);
          job.hung();
        }
      }
      const p = progress(now);
      const done = (options.timeMs !== undefined && p.elapsedMs >= options.timeMs) || (options.runs !== undefined && p.execs >= options.runs) || (options.until?.() ?? false);
      if (done || now - lastReport >= options.progressMs) {
        lastReport = now;
        onProgress(p);
      }
      if (done) {
        clearInterval(timer);
        for (const job of jobs()) job.stop();
        resolve(p);
      }
    };
    const timer = setInterval(tick, options.tickMs ?? 50);
  });
}

// ---------------------------------------------------------------- engine

/** A fuzz campaign: targets, time or runs, seed, shard, corpus and findings folders. */
export interface FuzzOptions {
  targets: string[];
  /** Time budget in ms for all targets together (split evenly), or `runs` inputs per target. */
  timeMs?: number;
  runs?: number;
  seed?: number;
  /** Corpus folder: read as seeds, new coverage written back (one subfolder per target). */
  corpusDir?: string;
  /** Findings folder (crash-<sha1>, timeout-<sha1>, with a .txt each). */
  outDir?: string;
  jobs?: number;
  shard?: { index: number; count: number };
  timeoutMs?: number;
  progressMs?: number;
  /** Longest input generated. */
  maxLen?: number;
  /** Use the coverage build (default true when available). */
  coverage?: boolean;
  /** Test hook: module replacing the target with a planted-bug build (`plant(target)`). */
  plant?: string;
  /** Stop a target's run at its first crash (as libFuzzer does by default); default false: keep going. */
  stopOnCrash?: boolean;
  /** Stop a target's run at its first timeout or oom (libFuzzer stops there too); default false: keep going. */
  stopOnTimeout?: boolean;
  /** Called with progress about once a second. */
  onProgress?: (p: Progress) => void;
}

/** One finding: the target, what kind of failure, the error and its top frame, and where the input was written. */
export interface Finding {
  target: string;
  kind: 'crash' | 'oracle' | 'output-size' | 'resource' | 'timeout' | 'oom';
  error: string;
  frame: string;
  file?: string;
  size: number;
  originalSize: number;
  /** Inputs run before it was found (all jobs of its target). */
  afterExecs: number;
  reproduce: string;
}

/** What one target of a campaign did: executions, time, speed, coverage and findings. */
export interface TargetSummary {
  target: string;
  execs: number;
  seconds: number;
  execsPerSecond: number;
  features: number;
  corpus: number;
  crashes: number;
  timeouts: number;
  coverage: 'counters' | 'answers';
}

/** What a campaign did: its seed and shard, each target's summary, and every finding. */
export interface FuzzSummary {
  seed: number;
  shard?: { index: number; count: number };
  targets: TargetSummary[];
  findings: Finding[];
}

/** Shard i of n takes every n-th seed (and seeds its jobs from i), deterministically. */
export function shardOf<T>(items: readonly T[], shard?: { index: number; count: number }): T[] {
  expectArray(items, 'items');
  if (shard !== undefined) expectObject(shard, 'shard');
  if (!shard || shard.count <= 1) return items.slice();
  return items.filter((_, k) => k % shard.count === shard.index);
}

/** Inputs of a folder (every regular file), sorted by name for determinism. */
export function readCorpus(dir: string): Uint8Array[] {
  expectString(dir, 'dir');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((n) => !n.endsWith('.txt') && statSync(join(dir, n)).isFile())
    .map((n) => new Uint8Array(readFileSync(join(dir, n))));
}

/** Shrinks `data` while `same(candidate)` holds: chunk removal, halving down to single bytes. */
export function minimize(data: Uint8Array, same: (d: Uint8Array) => boolean, maxAttempts = 4000): Uint8Array {
  expectBytes(data, 'data');
  expectFunction(same, 'same');
  expectNumber(maxAttempts, 'maxAttempts');
  const steps = shrinkSteps(data, maxAttempts);
  for (let step = steps.next(false); ; ) {
    if (step.done) return step.value;
    step = steps.next(same(step.value));
  }
}

/**
 * The one shrinking walk of minimize (and fuzz --against's asynchronous minimizer): yields each
 * candidate, is sent back whether it still shows the same thing, returns the smallest kept.
 */
export function* shrinkSteps(data: Uint8Array, maxAttempts: number): Generator<Uint8Array, Uint8Array, boolean> {
  let best = data;
  let attempts = 0;
  for (let chunk = Math.max(1, best.byteLength >> 1); chunk >= 1 && attempts < maxAttempts; chunk >>= 1) {
    for (let at = 0; at < best.byteLength && attempts < maxAttempts; ) {
      const cand = new Uint8Array(best.byteLength - Math.min(chunk, best.byteLength - at));
      cand.set(best.subarray(0, at));
      cand.set(best.subarray(at + chunk), at);
      attempts++;
      if (yield cand) best = cand;
      else at += chunk;
    }
  }
  return best;
}

/** The worker module: next to this one in the sources, `fuzz-worker.js` in dist (this module may sit in dist/chunks). */
function workerModule(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./worker.ts', import.meta.url);
  for (const candidate of ['./worker.js', './fuzz-worker.js', '../fuzz-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(url)) return url;
  }
  return new URL('./fuzz-worker.js', import.meta.url);
}

/** A job's worker; from the TypeScript sources (tsx) it first registers tsx's loader in the worker. */
function newWorker(url: URL, init: WorkerInit): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: 384 };
  if (!url.href.endsWith('.ts')) return new Worker(url, { workerData: init, resourceLimits });
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData: init, resourceLimits });
}

async function plantedTarget(name: string, plant?: string): Promise<FuzzTarget> {
  const t = fuzzTarget(name);
  return plant ? ((await import(plant)) as { plant(t: FuzzTarget): FuzzTarget }).plant(t) : t;
}

/** Runs the campaign; resolves with its summary. Findings are written to outDir when given. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  expectObject(options, 'options');
  expectArray(options.targets, 'options.targets');
  for (const name of options.targets) fuzzTarget(name); // unknown names refused before the coverage build
  const seed = options.seed ?? 1;
  const jobsPerTarget = Math.max(1, options.jobs ?? 1);
  const build = options.coverage === false ? undefined : await coverageBuild();
  const summary: FuzzSummary = { seed, ...(options.shard ? { shard: options.shard } : {}), targets: [], findings: [] };
  const perTargetMs = options.timeMs !== undefined ? options.timeMs / options.targets.length : undefined;
  const workerUrl = workerModule();
  for (const [ti, name] of options.targets.entries()) {
    const target = await plantedTarget(name, options.plant);
    const corpusDir = options.corpusDir ? join(options.corpusDir, name) : undefined;
    const corpus = shardOf([...seedInputs(name), ...(corpusDir ? readCorpus(corpusDir) : [])], options.shard);
    const known = new Set(corpus.map(contentHash));
    const keys = new Set<string>();
    let features = 0;
    let crashes = 0;
    let timeouts = 0;
    let retiredExecs = 0;
    const live = new Set<{ worker: Worker; control: Int32Array; current: Uint8Array; handle: JobHandle }>();
    const save = (prefix: string, data: Uint8Array, text: string): string | undefined => {
      if (!options.outDir) return undefined;
      mkdirSync(options.outDir, { recursive: true });
      const file = join(options.outDir, `${prefix}-${contentHash(data)}`);
      writeFileSync(file, data);
      // the text quotes an exception the input caused: escaped as the terminal's lines are
      writeFileSync(`${file}.txt`, printable(text, { lines: true }));
      return file;
    };
    const execsSoFar = () => retiredExecs + [...live].reduce((n, j) => n + Atomics.load(j.control, 0), 0);
    const report = (kind: Finding['kind'], data: Uint8Array, error: string, frame: string) => {
      const key = `${name}|${kind === 'timeout' ? 'timeout' : error.split(':')[0]}|${frame}`;
      if (keys.has(key)) return;
      keys.add(key);
      let small = data;
      // a slow or heavy input is saved as found: minimizing would run it thousands of times
      if (kind !== 'timeout' && kind !== 'oom' && kind !== 'resource') {
        const again = runOne(target, data);
        if (again.finding === kind && again.frame === frame) small = minimize(data, (d) => {
          const o = runOne(target, d);
          return o.finding === kind && o.frame === frame;
        });
      }
      if (kind === 'timeout' || kind === 'oom') timeouts++;
      else crashes++;
      const prefix = kind === 'timeout' ? 'timeout' : kind === 'oom' ? 'oom' : kind === 'resource' ? 'slow' : 'crash';
      const file = save(prefix, small, `${name}: ${kind}: ${error}\nframe: ${frame}\noriginal size ${data.byteLength}, minimized ${small.byteLength}\n`);
      summary.findings.push({
        target: name, kind, error, frame, file, size: small.byteLength, originalSize: data.byteLength, afterExecs: execsSoFar(),
        reproduce: `npx dxbin fuzz ${name} --reproduce ${file ?? `${prefix}-${contentHash(small)}`}`,
      });
    };
    const startJob = (j: number, generation: number) => {
      const control = new Int32Array(new SharedArrayBuffer(16));
      const current = new Uint8Array(new SharedArrayBuffer(options.maxLen ?? 1 << 16));
      const init: WorkerInit = {
        target: name, seed: (seed * 7919 + (options.shard?.index ?? 0) * 104729 + ti * 613 + j * 31 + generation * 7) >>> 0,
        corpus, coverageDir: build?.dir, counters: build?.counters ?? 0, control: control.buffer as SharedArrayBuffer, current: current.buffer as SharedArrayBuffer,
        maxLen: options.maxLen ?? 1 << 16, plant: options.plant,
      };
      const worker = newWorker(workerUrl, init);
      const job = { worker, control, current, handle: undefined as unknown as JobHandle };
      const lastInput = () => current.slice(0, Atomics.load(control, 2));
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        retiredExecs += Atomics.load(control, 0);
        live.delete(job);
      };
      job.handle = {
        execs: () => Atomics.load(control, 0),
        started: () => Atomics.load(control, 3) === 1,
        hung: () => {
          report('timeout', lastInput(), `no answer within ${options.timeoutMs ?? 2000} ms`, `${name} timeout`);
          end();
          void worker.terminate();
          startJob(j, generation + 1);
        },
        stop: () => {
          Atomics.store(control, 1, 1);
        },
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready' || m.type === 'new') features = Math.max(features, m.features);
        if (m.type === 'new') {
          const h = contentHash(m.data);
          if (!known.has(h)) {
            known.add(h);
            if (corpusDir) {
              mkdirSync(corpusDir, { recursive: true });
              writeFileSync(join(corpusDir, h), m.data);
            }
          }
        } else if (m.type === 'finding') report(m.finding, m.data, m.error, m.frame);
      });
      worker.on('error', (e: Error & { code?: string }) => {
        if (ended) return;
        if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          report('oom', lastInput(), 'heap over the limit on one input', `${name} heap`);
          end();
          startJob(j, generation + 1);
        } else {
          report('crash', lastInput(), `${e.name}: ${e.message}`, `${name} worker`);
          end();
        }
      });
      worker.on('exit', end);
      live.add(job);
    };
    for (let j = 0; j < jobsPerTarget; j++) startJob(j, 0);
    const t0 = Date.now();
    const final = await schedule(
      () => [...live].map((j) => j.handle),
      { timeMs: perTargetMs, runs: options.runs, timeoutMs: options.timeoutMs ?? 2000, progressMs: options.progressMs ?? 1000, until: () => ((options.stopOnCrash ?? false) && crashes > 0) || ((options.stopOnTimeout ?? false) && timeouts > 0) },
      () => ({ target: name, execs: execsSoFar(), features, corpus: known.size, crashes, timeouts }),
      (p) => options.onProgress?.(p),
    );
    await Promise.all([...live].map((j) => new Promise<void>((resolve) => {
      const t = setTimeout(() => void j.worker.terminate(), 2000);
      j.worker.once('exit', () => (clearTimeout(t), resolve()));
    })));
    const seconds = (Date.now() - t0) / 1000;
    const execs = execsSoFar();
    void final;
    summary.targets.push({ target: name, execs, seconds, execsPerSecond: seconds > 0 ? Math.round(execs / seconds) : 0, features, corpus: known.size, crashes, timeouts, coverage: build ? 'counters' : 'answers' });
  }
  return summary;
}

/** libFuzzer-style merge: inputs of `dirs` that add coverage (smallest first) written into `into`. */
export async function mergeCorpora(target: string, dirs: string[], into: string): Promise<{ read: number; kept: number }> {
  fuzzTarget(target);
  expectArray(dirs, 'dirs');
  dirs.forEach((d, i) => expectString(d, `dirs[${i}]`));
  expectString(into, 'into');
  const build = await coverageBuild();
  const counters = new Uint8Array(Math.max(1, build?.counters ?? 0));
  (globalThis as { __dxbinCov?: Uint8Array }).__dxbinCov = counters;
  const t = build ? ((await import(pathToFileURL(join(build.dir, 'src', 'fuzz', 'targets.js')).href)) as { fuzzTarget: typeof fuzzTarget }).fuzzTarget(target) : fuzzTarget(target);
  const inputs = dirs.flatMap((d) => readCorpus(d)).sort((a, b) => a.byteLength - b.byteLength);
  const features = new Features(counters);
  mkdirSync(into, { recursive: true });
  const kept = new Set<string>();
  for (const data of inputs) {
    let answer = 'ok';
    try {
      t.run(data);
    } catch (e) {
      answer = answerKey(e);
    }
    if (features.record(answer)) {
      const h = contentHash(data);
      if (!kept.has(h)) writeFileSync(join(into, h), data);
      kept.add(h);
    }
  }
  return { read: inputs.length, kept: kept.size };
}
