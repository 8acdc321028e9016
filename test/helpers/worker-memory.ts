/**
 * Run as a child process by test/worker-memory.test.ts: serves one WorkRequest read from the file
 * named by argv[2] (in 64 KiB chunks, as stdin brings it from a pipe, or argv[4] bytes at a time) through the persistent worker, with
 * the real command line (`real`) or a command that does nothing (`stub`: framing and parsing
 * only), and prints the peak resident memory it added, in bytes, as JSON. A small request is
 * served first so that modules and the worker's own code are loaded before the baseline.
 */
import { readFileSync } from 'node:fs';
import { servePersistentWorker } from '../../src/cli/persistent-worker.js';
import { runExpanded } from '../../src/cli/program.js';
import { captureStreams } from '../../src/cli/streams.js';

const request = readFileSync(process.argv[2]!);
const command = process.argv[3] === 'stub' ? async () => 0 as const : runExpanded;
const step = Number(process.argv[4] ?? 65536);
async function* chunks(b: Uint8Array) {
  for (let i = 0; i < b.length; i += step) yield b.subarray(i, i + step);
}
const warm = Buffer.from(`${JSON.stringify({ arguments: ['hash', '/nonexistent/warm-up'], requestId: 1 })}\n`);
await servePersistentWorker([], chunks(warm), captureStreams(), command);
(globalThis as { gc?: () => void }).gc?.();
const before = process.resourceUsage().maxRSS * 1024;
const out = captureStreams();
await servePersistentWorker([], chunks(request), out, command);
const after = process.resourceUsage().maxRSS * 1024;
const answer = JSON.parse(out.stdout().split('\n')[0]!) as { exitCode: number; output: string };
process.stdout.write(`${JSON.stringify({ added: after - before, exitCode: answer.exitCode, outputChars: answer.output.length })}\n`);
