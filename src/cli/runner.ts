/**
 * Runs a `files` command over many inputs in one process: in order on this thread, or on worker
 * threads with --jobs N (results still printed in input order, so the output is the same bytes
 * either way). One text block or one NDJSON object per input; a failing input never stops or
 * corrupts the others; the exit status is the worst input's. A progress bar goes to stderr when
 * it is a terminal and there are several inputs.
 */
import type { Worker } from 'node:worker_threads';
import { WORKER_THREAD_FLAG } from './thread.js';
import { cpus } from 'node:os';
import { startProgress } from './progress.js';
import type { FileCommand, FileCommonOptions, RunContext } from './command.js';
import { CheckFailed, InputError, UsageError, diagnosticOf, formatDiagnostic, outcomeOf } from './errors.js';
import { EXIT, exitCode, worstExit, type ExitCode } from './exit.js';
import { checkOutputs, claimOutputs, holdSignalCleanup, inputLimit, noteOutputDir, openOutput, readInput, readNamedInput, withFsync, writeOutput, type Streams } from './io.js';
import { dirname, resolve } from 'node:path';
import { ensureOutDir, ensureOutputDirs, expandInputs, isPattern, planOutputs } from './paths.js';
import { captureStreams } from './streams.js';
import { FORMAT_VERSION } from './schema.js';
import { printable, printableJson } from '../index.js';

/** The parsed --jobs value (1 when absent). */
export function jobCount(text: string | undefined): number {
  if (text === undefined) return 1;
  if (text === 'auto') return Math.max(1, cpus().length);
  if (!/^[1-9]\d{0,3}$/.test(text)) throw new UsageError(`--jobs takes a whole number from 1 (or auto), got ${text}`);
  return Number(text);
}

/** Runs `spec` on one input and prints its answer to `streams`; returns its exit status. */
export async function runOne(
  spec: FileCommand,
  file: string,
  output: string | undefined,
  args: readonly string[],
  options: Record<string, unknown> & FileCommonOptions,
  outerStreams: Streams,
): Promise<ExitCode> {
  const json = options.json === true;
  const streams = withFsync(outerStreams, options.fsync);
  const ctx: RunContext<Record<string, unknown>> = {
    options,
    args,
    streams,
    output,
    // the terminal sink: whatever a command prints, no control character reaches the terminal raw
    // (names are escaped where they are put into a line, so that none starts a line of its own)
    print: async (line) => {
      if (!json) await streams.write(`${printable(line, { lines: true })}\n`);
    },
    read: async (f, how) => (how?.named ? readNamedInput(f, inputLimit(options.maxInput)) : readInput(f, streams, inputLimit(options.maxInput))),
    write: (out, data, inputs) => writeOutput(out, data, inputs, streams),
    open: (out, inputs) => openOutput(out, inputs, streams),
  };
  try {
    const result = await spec.run(file, ctx);
    if (json && result !== undefined) await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, file, ok: true, ...result })}\n`);
    return EXIT.ok;
  } catch (e) {
    const outcome = outcomeOf(e);
    const diagnostic = diagnosticOf(e, file);
    if (outcome === undefined) {
      diagnostic.message = `internal error: ${diagnostic.message}`;
      if (process.env.DXBIN_DEBUG) streams.err(String((e as Error).stack));
    }
    if (e instanceof CheckFailed && e.diagnostics?.length) for (const d of e.diagnostics) streams.err(formatDiagnostic({ file, ...d }, options.diagnosticsFormat));
    else streams.err(formatDiagnostic(diagnostic, options.diagnosticsFormat));
    if (json) {
      const partial = e instanceof CheckFailed ? (e.result ?? {}) : {};
      await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, file, ok: false, ...partial, error: diagnostic })}\n`);
    }
    return outcome === undefined ? EXIT.failed : exitCode(outcome);
  }
}

let workerEntry: URL | undefined;
/** The module worker threads start from (the CLI's entry point, which runs `workerMain` off the main thread). */
export function setWorkerEntry(url: URL): void {
  workerEntry = url;
}

/**
 * A worker thread running the CLI's entry point. From dist/ the entry is JavaScript and starts as
 * is. From source under tsx (npm start, developers) it is a .ts file: tsx on Node 20 installs its
 * loader on the main thread only, so the worker first registers tsx's hooks (tsx/esm/api, the
 * package that runs the parent) and then imports the entry.
 */
function startWorker(entry: URL, { Worker }: typeof import('node:worker_threads')): Worker {
  const workerData = { dxbinWorker: true };
  const argv = [WORKER_THREAD_FLAG];
  if (!/\.[cm]?ts$/.test(entry.pathname)) return new Worker(entry, { workerData, argv });
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData, argv });
}

interface WorkerJob {
  id: number;
  path: readonly string[];
  file: string;
  output: string | undefined;
  args: readonly string[];
  options: Record<string, unknown>;
}
interface WorkerAnswer {
  id: number;
  exit: ExitCode;
  stdout: string;
  stderr: string;
}

/** Worker thread side: runs jobs posted by the main thread with captured streams. */
export function serveJobs(port: import('node:worker_threads').MessagePort, find: (path: readonly string[]) => Promise<FileCommand>): void {
  port.on('message', async (job: WorkerJob) => {
    const streams = captureStreams();
    const exit = await runOne(await find(job.path), job.file, job.output, job.args, job.options, streams);
    const answer: WorkerAnswer = { id: job.id, exit, stdout: streams.stdout(), stderr: streams.stderr() };
    port.postMessage(answer);
  });
}

/** The longest input name tried (Windows' extended paths; Linux refuses past 4096 bytes). */
export const MAX_PATH_CHARS = 32767;

/** Runs a `files` command on every input; returns the worst exit status. */
export async function runFiles(
  spec: FileCommand,
  args: readonly string[],
  patterns: readonly string[],
  options: Record<string, unknown> & FileCommonOptions,
  streams: Streams,
): Promise<ExitCode> {
  const jobs = jobCount(options.jobs);
  const codes: ExitCode[] = [];
  // a name longer than any path a system opens is refused before any path work (glob, resolve,
  // stat) copies it: a 20 MB argument costs one short message, not copies of itself
  const openable: string[] = [];
  for (const p of patterns) {
    if (p.length <= MAX_PATH_CHARS) {
      openable.push(p);
      continue;
    }
    const shown = `${p.slice(0, 256)}…(+${p.length - 256} chars)`;
    const d = diagnosticOf(new InputError(shown, 'not-found', `a file name of ${p.length} characters: longer than any path the system opens (${MAX_PATH_CHARS})`));
    streams.err(formatDiagnostic(d, options.diagnosticsFormat));
    if (options.json) await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, file: shown, ok: false, error: d })}\n`);
    codes.push(EXIT.failed);
  }
  const expanded = expandInputs(openable);
  const inputs: string[] = [];
  for (const e of expanded) {
    if (e.files.length === 0) {
      const d = diagnosticOf(new InputError(e.pattern, 'not-found', 'no file matches this pattern'));
      streams.err(formatDiagnostic(d, options.diagnosticsFormat));
      if (options.json) await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, file: e.pattern, ok: false, error: d })}\n`);
      codes.push(EXIT.failed);
    }
    for (const f of e.files) inputs.push(f);
  }
  if (inputs.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  const writes = spec.writes ? { required: spec.writes.required, ext: spec.writes.ext(options) } : undefined;
  const outputs = planOutputs(inputs, options, writes);
  spec.check?.(options, args, inputs);
  // every output against the others and every input, by identity (links, other spellings), before any input runs
  const named = (keys: readonly string[] | undefined, flag: (k: string) => string) =>
    (keys ?? []).flatMap((k) => (typeof options[k] === 'string' ? [{ path: options[k] as string, as: flag(k) }] : []));
  const optionFlag = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  checkOutputs(
    outputs.flatMap((o, i) => (o === undefined ? [] : [{ path: o, as: `output of ${inputs[i]}` }])).concat(named(spec.extraOutputs, optionFlag)),
    inputs.map((path) => ({ path, as: 'input' })).concat(named(spec.extraInputs, optionFlag)),
  );
  ensureOutDir(options.outDir);
  if (options.output !== undefined && isPattern(options.output)) ensureOutputDirs(outputs);
  // in a batch, every output is claimed here, before any runs: threads write their own and never see the ledger
  claimOutputs([...outputs, ...named(spec.extraOutputs, optionFlag).map((n) => n.path)], streams);
  // the main thread knows every output folder, so a signal removes worker threads' temp files too
  for (const dir of new Set(outputs.flatMap((o) => (o === undefined || o === '-' ? [] : [dirname(resolve(o))])))) noteOutputDir(dir);

  const bar = inputs.length > 1 && options.progress !== false && !options.json ? await startProgress(inputs.length, streams.progress) : undefined;
  try {
    const parallel = jobs > 1 && inputs.length > 1 && workerEntry !== undefined && !spec.streams && !inputs.includes('-');
    if (!parallel) {
      for (let i = 0; i < inputs.length; i++) {
        codes.push(await runOne(spec, inputs[i]!, outputs[i], args, options, streams));
        bar?.tick();
      }
    } else {
      for (const c of await runOnWorkers(spec, inputs, outputs, args, options, streams, Math.min(jobs, inputs.length), () => bar?.tick())) codes.push(c);
    }
  } finally {
    bar?.stop();
  }
  return worstExit(codes);
}

async function runOnWorkers(
  spec: FileCommand,
  inputs: readonly string[],
  outputs: readonly (string | undefined)[],
  args: readonly string[],
  options: Record<string, unknown>,
  streams: Streams,
  n: number,
  tick: () => void,
): Promise<ExitCode[]> {
  const answers: (WorkerAnswer | undefined)[] = new Array(inputs.length);
  let flushed = 0;
  // one flush at a time: two workers answering while a write waits would otherwise print one
  // answer twice and skip the next (seen under load); each answer is claimed before its write
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> =>
    (flushing = flushing.then(async () => {
      while (flushed < inputs.length && answers[flushed] !== undefined) {
        const a = answers[flushed++]!;
        if (a.stdout) await streams.write(a.stdout);
        if (a.stderr) for (const line of a.stderr.replace(/\n$/, '').split('\n')) streams.err(line);
      }
    }));
  let next = 0;
  // workers write temp files next to their outputs: a signal meanwhile removes them (by pid) from here
  for (const out of outputs) if (out !== undefined && out !== '-') noteOutputDir(dirname(resolve(out)));
  const release = holdSignalCleanup();
  // node:worker_threads is loaded by runs that start threads only
  const threads = await import('node:worker_threads');
  const workers = Array.from({ length: n }, () => startWorker(workerEntry!, threads));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolveWorker, rejectWorker) => {
            const post = () => {
              if (next >= inputs.length) {
                resolveWorker();
                return;
              }
              const id = next++;
              const job: WorkerJob = { id, path: spec.path, file: inputs[id]!, output: outputs[id], args, options };
              w.postMessage(job);
            };
            w.on('message', (a: WorkerAnswer) => {
              answers[a.id] = a;
              tick();
              flush().then(post, rejectWorker);
            });
            w.on('error', rejectWorker);
            post();
          }),
      ),
    );
    await flush();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    release();
  }
  return answers.map((a) => a!.exit);
}
