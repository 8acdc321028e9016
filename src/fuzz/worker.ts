/**
 * The fuzzing loop of one job, in a worker thread: pick a corpus input, mutate it, run it through
 * the target, keep it when it reaches new coverage. Before each run the input is copied into
 * shared memory and a shared counter is bumped, so the watchdog in the main thread can see a hung
 * input and save it even though this thread never returns.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import * as plainTargets from './targets.js';
import * as plainMutator from './mutate.js';
import * as plainErrors from '../bytes/errors.js';
import type { FuzzTarget, Outcome } from './targets.js';
import type { MutationKind } from './mutate.js';
import { Features, answerKey } from './features.js';

export interface WorkerInit {
  target: string;
  seed: number;
  corpus: Uint8Array[];
  /** Instrumented build folder, or undefined (no coverage counters). */
  coverageDir?: string;
  counters: number;
  /** Int32Array over: [0] execs, [1] stop flag, [2] current input length, [3] 1 once started (modules loaded). */
  control: SharedArrayBuffer;
  /** The current input's bytes. */
  current: SharedArrayBuffer;
  maxLen: number;
  /** Test hook: a module whose `plant(targets)` replaces a target (the planted-bug build). */
  plant?: string;
}

export type WorkerMessage =
  | { type: 'ready'; features: number }
  | { type: 'new'; data: Uint8Array; features: number }
  | { type: 'finding'; data: Uint8Array; finding: NonNullable<Outcome['finding']>; error: string; frame: string }
  | { type: 'done' };

async function main(init: WorkerInit): Promise<void> {
  const counters = new Uint8Array(Math.max(1, init.counters));
  (globalThis as { __dxbinCov?: Uint8Array }).__dxbinCov = counters;
  // with coverage, the instrumented copy of the same modules (their own DxbinError class)
  const base = init.coverageDir ? pathToFileURL(join(init.coverageDir, 'src', 'fuzz') + '/').href : undefined;
  const targets = base ? ((await import(`${base}targets.js`)) as typeof plainTargets) : plainTargets;
  const mutator = base ? ((await import(`${base}mutate.js`)) as typeof plainMutator) : plainMutator;
  const errors = base ? ((await import(`${base}../bytes/errors.js`)) as typeof plainErrors) : plainErrors;
  let target: FuzzTarget = targets.fuzzTarget(init.target);
  if (init.plant) target = ((await import(init.plant)) as { plant(t: FuzzTarget): FuzzTarget }).plant(target);
  const control = new Int32Array(init.control);
  const current = new Uint8Array(init.current);
  const features = new Features(counters);
  const kind = target.kind as MutationKind;
  const rnd = new mutator.Random(init.seed);
  const corpus = init.corpus.slice();
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  Atomics.store(control, 3, 1);

  const runAndRecord = (data: Uint8Array): { outcome: Outcome; fresh: boolean } => {
    const n = Math.min(data.byteLength, current.byteLength);
    current.set(data.subarray(0, n));
    Atomics.store(control, 2, n);
    Atomics.add(control, 0, 1);
    let answer = 'ok';
    let outcome: Outcome;
    // the output and resource oracles (CPU time and heap growth per byte the input stands for)
    const meter = target.resources ? targets.startMeter() : undefined;
    try {
      outcome = { outputSize: target.run(data) };
      outcome = targets.boundsFinding(target, data, outcome.outputSize, meter) ?? outcome;
    } catch (e) {
      answer = answerKey(e);
      outcome = e instanceof errors.DxbinError ? (targets.boundsFinding(target, data, 0, meter) ?? { outputSize: 0 }) : targets.runOne({ ...target, resources: undefined, run: () => { throw e; } }, data);
    }
    return { outcome, fresh: features.record(answer) };
  };

  for (const s of corpus) {
    const { outcome } = runAndRecord(s);
    if (outcome.finding) post({ type: 'finding', data: s, finding: outcome.finding, error: outcome.error!, frame: outcome.frame! });
  }
  post({ type: 'ready', features: features.count });
  if (corpus.length === 0) corpus.push(new Uint8Array(0));
  let since = 0;
  while (Atomics.load(control, 1) === 0) {
    let data = corpus[rnd.below(corpus.length)]!;
    const stack = 1 + rnd.below(rnd.chance(4) ? 8 : 2);
    for (let k = 0; k < stack; k++) data = mutator.mutateInput(data, kind, rnd.next());
    if (data.byteLength > init.maxLen) data = data.subarray(0, init.maxLen);
    const { outcome, fresh } = runAndRecord(data);
    if (outcome.finding) post({ type: 'finding', data, finding: outcome.finding, error: outcome.error!, frame: outcome.frame! });
    else if (fresh) {
      corpus.push(data);
      post({ type: 'new', data, features: features.count });
    }
    // let messages out now and then (the loop is synchronous)
    if (++since >= 512) {
      since = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  post({ type: 'done' });
}

if (parentPort && workerData) void main(workerData as WorkerInit);
