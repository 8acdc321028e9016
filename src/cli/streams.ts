/** The process's standard streams (with backpressure and a quiet end on EPIPE), or captured ones for batch jobs and workers. */
import { once } from 'node:events';
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
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') {
      removeOwnTemps();
      process.exit(0);
    }
    throw e;
  });
}

/** The process's stdin, stdout and stderr. */
export function processStreams(): Streams {
  quietOnEpipe();
  return {
    async write(chunk) {
      if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    },
    err: (line) => void process.stderr.write(`${line}\n`),
    readStdin: (maxBytes) => collect(process.stdin, maxBytes),
    stdinChunks: () => process.stdin,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    progress: process.stderr,
  };
}

/** Streams that keep what is written (stdout as bytes, stderr as text); stdin is the given bytes. */
export interface CapturedStreams extends Streams {
  stdout(): string;
  stderr(): string;
}

/** Captured streams, for `dxbin batch`, the persistent worker and worker threads. */
export function captureStreams(stdin: Uint8Array = new Uint8Array(0)): CapturedStreams {
  const out: Buffer[] = [];
  let err = '';
  return {
    async write(chunk) {
      out.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    },
    err: (line) => {
      err += `${line}\n`;
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
    stderr: () => err,
  };
}
