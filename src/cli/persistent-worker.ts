/**
 * Bazel's JSON persistent-worker protocol (`dxbin ... --persistent_worker`), as Bazel's "Creating
 * persistent workers" describes it. WorkRequests `{"arguments": [...], "requestId": n,
 * "sandboxDir"?, "verbosity"?, "cancel"?}` arrive on stdin (JSON objects one after another); each
 * runs as a dxbin command line (the worker's own arguments first; `@file` response files expanded)
 * and exactly one WorkResponse `{"exitCode", "output", "requestId"}` per request goes to stdout, one
 * per line; nothing else is written there. The command's stdout and stderr go into `output`.
 *
 * - Framing is linear: each byte is looked at once, whatever the chunking. A request that is not
 *   JSON (text outside an object, a string broken by a newline, a stray quote) is answered with an
 *   error response (exit 2; its requestId when one can be read) and the stream goes on at the next
 *   line; a request over MAX_REQUEST_BYTES is answered with an error, never buffered whole.
 * - Multiplex requests (requestId > 0) run concurrently, up to `--jobs N` of the worker's own
 *   arguments (default: one per core), started in arrival order, on this thread (their file I/O
 *   overlaps; their decoding does not); singleplex ones (requestId 0) one at a time.
 * - `{"requestId": n, "cancel": true}`: a request not yet started is answered once with
 *   `wasCancelled: true` and never runs; one already running finishes and gets its normal response;
 *   a cancel for an unknown or answered request gets no response (the protocol's rule).
 * - Fields are read as the proto3 JSON mapping of WorkRequest gives them (parseWorkRequest):
 *   `requestId` and `verbosity` as a JSON number or a decimal string, null as the default; a field
 *   of another type is an error response naming it (exit 2), not read as its default. An error
 *   response is not sent for an id that is waiting or running (its request's response is the one;
 *   the repeat is noted on stderr, as a repeated request is).
 * - `sandboxDir`: the request runs with that folder as working directory (relative paths resolve
 *   there); such requests run alone, as the working directory belongs to the whole process.
 * - `verbosity` >= 10 (bazel --worker_verbose): `output` also names the request, its command line
 *   and working directory.
 * - An answer over MAX_ANSWER_BYTES is cut and turned into an error (exit 1), never a crash.
 */
import { exitCode as exitOf, type ExitCode } from './exit.js';
import { InputError, UsageError, diagnosticOf, formatDiagnostic, outcomeOf } from './errors.js';
import { errnoWords } from '../build-step/errors.js';
import { printable } from '../index.js';
import { expandResponseFiles } from '../build-step/argfiles.js';
import { MAX_ANSWER_BYTES, captureStreams } from './streams.js';
import { RequestFramer, framePieces, parseWorkRequest, responseLine, type Frame, type WorkRequest } from '../build-step/work-requests.js';
import type { Streams } from './io.js';
import { jobCount } from './runner.js';
import { forgetRealFolders } from './io.js';

/** The most bytes of stdin decoded at once. */
const DECODE_BYTES = 256 << 10;

/**
 * The worker's own options, taken out of its arguments: `--jobs N` (concurrent multiplex requests;
 * default: one per core) and `--param-file-format F` (how its requests' @files are split; a
 * request's own comes after it and wins; argfiles.ts keeps it in a worker's expanded arguments).
 */
export function takeWorkerOptions(prefix: readonly string[]): { jobs: number; rest: string[]; format: string[] } {
  const rest: string[] = [];
  const format: string[] = [];
  let jobs = jobCount('auto');
  for (let i = 0; i < prefix.length; i++) {
    const a = prefix[i]!;
    if (a === '--jobs' || a === '-j') jobs = jobCount(prefix[++i]);
    else if (a.startsWith('--jobs=')) jobs = jobCount(a.slice(7));
    else if (a.startsWith('--param-file-format=')) format.splice(0, format.length, a);
    else if (a === '--param-file-format' && i + 1 < prefix.length) format.splice(0, format.length, a, prefix[++i]!);
    else rest.push(a);
  }
  return { jobs, rest, format };
}

/** Serves WorkRequests until stdin ends. `runCommand` runs one expanded command line with captured streams. */
export async function servePersistentWorker(
  prefix: readonly string[],
  input: AsyncIterable<Uint8Array | string>,
  streams: Streams,
  runCommand: (argv: readonly string[], streams: Streams) => Promise<ExitCode>,
  limits: { maxRequestBytes?: number; maxAnswerBytes?: number } = {},
): Promise<ExitCode> {
  const { jobs, rest, format } = takeWorkerOptions(prefix);
  const maxAnswer = limits.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const framer = new RequestFramer(limits.maxRequestBytes);
  const decoder = new TextDecoder();
  /** Requests waiting to start, in arrival order, and the ids of those waiting or running. */
  const queue: WorkRequest[] = [];
  let head = 0;
  const pending = new Map<number, 'queued' | 'running' | 'cancelled'>();
  let running = 0;
  let exclusive = false;
  let writes = Promise.resolve();
  let idle: (() => void) | undefined;
  const answer = (line: string) => {
    writes = writes.then(() => streams.write(line));
  };

  const execute = async (req: WorkRequest): Promise<void> => {
    const captured = captureStreams(new Uint8Array(0), maxAnswer);
    let exitCode: number;
    const home = process.cwd();
    try {
      if (req.sandboxDir !== undefined) {
        try {
          process.chdir(req.sandboxDir);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          throw new InputError(req.sandboxDir, code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : 'not-readable', `cannot enter the request's sandboxDir: ${errnoWords(e)}`, { field: 'sandboxDir' });
        }
        forgetRealFolders();
      }
      // the request chose these words: one escaped line (a newline in an argument made a line of its own)
      if (req.verbosity >= 10) captured.err(printable(`dxbin worker: request ${req.requestId} in ${process.cwd()}: dxbin ${[...rest, ...req.arguments].join(' ')}`));
      const argv = [...rest, ...expandResponseFiles([...format, ...req.arguments])];
      // a worker inside the worker would serve the request's empty stdin and answer 0 for nothing
      // no command: the help text would answer a 2-byte `{}` with 2 KB, for every such request
      if (argv.length === 0) throw new UsageError('a request with no arguments names no command (dxbin help lists them)');
      if (argv.includes('--persistent_worker')) throw new UsageError('a request cannot start a persistent worker (--persistent_worker in its arguments or its response files)');
      exitCode = await runCommand(argv, captured);
    } catch (e) {
      // what the command line of a request does before it runs (its sandboxDir, its response
      // files) is reported as the CLI reports it: one escaped line, exit 2 for a usage error
      const outcome = outcomeOf(e);
      const d = diagnosticOf(e);
      if (outcome === undefined) d.message = `internal error: ${d.message}`;
      captured.err(formatDiagnostic(d));
      exitCode = outcome === undefined ? 1 : exitOf(outcome);
    } finally {
      if (req.sandboxDir !== undefined) process.chdir(home);
    }
    let output = captured.stdout() + captured.stderr();
    if (captured.overflowed()) {
      output = `${output.slice(0, 4096)}\ndxbin: the answer is over ${maxAnswer} bytes; cut (write large outputs to files with -o)\n`;
      exitCode = Math.max(exitCode, 1);
    }
    answer(responseLine(req.requestId, { exitCode, output }));
  };

  const pump = () => {
    while (head < queue.length && !exclusive) {
      const req = queue[head]!;
      const alone = req.requestId === 0 || req.sandboxDir !== undefined;
      if (pending.get(req.requestId) === 'cancelled') {
        head++;
        pending.delete(req.requestId);
        continue;
      }
      if (alone ? running > 0 : running >= jobs) break;
      head++;
      running++;
      if (alone) exclusive = true;
      pending.set(req.requestId, 'running');
      void execute(req).finally(() => {
        running--;
        if (alone) exclusive = false;
        pending.delete(req.requestId);
        pump();
        if (running === 0 && head >= queue.length) idle?.();
      });
    }
    // the queue's consumed head is dropped now and then, so it stays proportional to what waits
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
  };

  /** The error response of a request that is not one; none when its id is waiting or running (that request's own response is the one). */
  const refuse = (requestId: number, error: string) => {
    if (requestId !== 0 && pending.has(requestId)) {
      streams.err(`dxbin: persistent worker: request ${requestId} is already in progress; a repeat that is no request (${error}) was ignored`);
      return;
    }
    answer(responseLine(requestId, { exitCode: 2, output: `dxbin: persistent worker: ${error}\n` }));
  };

  const accept = (frame: Frame) => {
    if ('error' in frame) {
      refuse(frame.requestId ?? 0, frame.error);
      return;
    }
    const req = parseWorkRequest(framePieces(frame));
    if ('error' in req) {
      refuse(req.requestId, req.error);
      return;
    }
    if (req.cancel) {
      if (pending.get(req.requestId) === 'queued') {
        pending.set(req.requestId, 'cancelled');
        answer(responseLine(req.requestId, { wasCancelled: true }));
      }
      return;
    }
    if (req.requestId !== 0 && pending.has(req.requestId)) {
      // its one response is the first request's; this one is noted where Bazel keeps worker logs
      streams.err(`dxbin: persistent worker: request ${req.requestId} is already in progress; the repeat was ignored`);
      return;
    }
    if (req.requestId !== 0) pending.set(req.requestId, 'queued');
    queue.push(req);
    pump();
  };

  for await (const chunk of input) {
    if (typeof chunk === 'string') for (const f of framer.push(chunk)) accept(f);
    // decoded at most DECODE_BYTES at a time: a larger decode comes back as an external string of
    // two bytes a character (twice the request's size when the framer keeps it)
    else for (let at = 0; at < chunk.byteLength; at += DECODE_BYTES) for (const f of framer.push(decoder.decode(chunk.subarray(at, at + DECODE_BYTES), { stream: true }))) accept(f);
  }
  for (const f of framer.push(decoder.decode())) accept(f);
  for (const f of framer.end()) accept(f);
  if (running > 0 || head < queue.length) await new Promise<void>((r) => (idle = r));
  await writes;
  return 0;
}
