/** The process's standard streams (with backpressure and a quiet end on EPIPE), or captured ones for batch jobs and workers. */
import { writeSync } from 'node:fs';
import type { Streams } from './io.js';
import { removeOwnTemps } from './io.js';

/** Every chunk, joined; past `maxBytes` a RangeError (readInput names the input). */
async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes = Infinity): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const c of chunks) {
    total += c.byteLength;
    if (total > maxBytes) throw new RangeError(`more than ${maxBytes} bytes`);
    parts.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
  }
  const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

let epipeInstalled = false;
/** A reader went away (`dxbin ... | head`): stop quietly, exit 0, leave no temp file. */
function quietOnEpipe(): void {
  if (epipeInstalled) return;
  epipeInstalled = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') endOnEpipe();
    throw e;
  });
}

/** A reader went away: as quietOnEpipe. */
function endOnEpipe(): never {
  removeOwnTemps();
  process.exit(0);
}

/**
 * Writes `chunk` to file descriptor 1 with write(2), as Node's stdout stream itself does for files,
 * and for pipes and terminals on Linux, without setting the stream up (node:stream and its
 * modules cost a one-file build step's process more than its own work, issue 27). Returns the part
 * not written when the descriptor would block (a non-blocking pipe): from then on the stream
 * writes, so the order of what is written stays. Not for a Windows console, which the stream
 * writes as UTF-16.
 */
let direct: boolean | undefined;
function writeDirect(chunk: string | Uint8Array): Uint8Array | undefined {
  const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
  let done = 0;
  try {
    while (done < b.byteLength) done += writeSync(1, b, done, b.byteLength - done);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') endOnEpipe();
    if (code !== 'EAGAIN') throw e;
    direct = false;
    return b.subarray(done);
  }
}

/**
 * The process's stdin, stdout and stderr, each opened when first used (a build step writing its
 * output to a file never sets up a stdout stream, and one printing to stdout writes it directly).
 */
export function processStreams(): Streams {
  return {
    async write(chunk) {
      direct ??= process.platform !== 'win32' || process.stdout.isTTY !== true;
      const rest = direct ? writeDirect(chunk) : chunk;
      if (rest === undefined) return;
      quietOnEpipe();
      if (!process.stdout.write(rest)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
    },
    err: (line) => void process.stderr.write(`${line}\n`),
    readStdin: (maxBytes) => collect(process.stdin, maxBytes),
    stdinChunks: () => process.stdin,
    get stdoutIsTTY() {
      return process.stdout.isTTY === true;
    },
    get stderrIsTTY() {
      return process.stderr.isTTY === true;
    },
    get progress() {
      return process.stderr;
    },
  };
}

/** Streams that keep what is written (stdout as bytes, stderr as text); stdin is the given bytes. */
export interface CapturedStreams extends Streams {
  stdout(): string;
  stderr(): string;
  /** True when more than the limit was written (what came after it was dropped). */
  overflowed(): boolean;
}

/** The largest answer (stdout and stderr together) of a batch job or worker request (docs/limits.md). */
export const MAX_ANSWER_BYTES = 64 << 20;

/**
 * Captured streams, for `dxbin batch`, the persistent worker and worker threads. At most `limit`
 * bytes are kept (stdout and stderr together); more sets `overflowed()` and is dropped, so one
 * huge answer never outgrows a string.
 */
export function captureStreams(stdin: Uint8Array = new Uint8Array(0), limit = Infinity): CapturedStreams {
  const out: Buffer[] = [];
  const errs: string[] = [];
  let size = 0;
  let over = false;
  const room = (n: number) => {
    if (over || size + n > limit) {
      over = true;
      return false;
    }
    size += n;
    return true;
  };
  return {
    async write(chunk) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      if (room(b.byteLength)) out.push(b);
    },
    err: (line) => {
      if (room(Buffer.byteLength(line) + 1)) errs.push(`${line}\n`);
    },
    readStdin: async (maxBytes = Infinity) => {
      if (stdin.byteLength > maxBytes) throw new RangeError(`more than ${maxBytes} bytes`);
      return stdin;
    },
    async *stdinChunks() {
      yield stdin;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => errs.join(''),
    overflowed: () => over,
  };
}
