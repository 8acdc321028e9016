/**
 * Bazel's JSON persistent-worker protocol (`dxbin --persistent_worker`): WorkRequests
 * `{"arguments": [...], "requestId": n}` arrive on stdin (JSON objects one after another), each
 * runs as a dxbin command line (arguments `@file` are flag files, one argument per line), and one
 * WorkResponse `{"exitCode", "output", "requestId"}` per request goes to stdout, one per line.
 * The command's own stdout and stderr go into `output`; nothing else is written to stdout.
 */
import { readFileSync } from 'node:fs';
import type { ExitCode } from './exit.js';
import { captureStreams } from './streams.js';
import type { Streams } from './io.js';

/** Splits a stream of concatenated JSON objects; returns the complete ones and the rest. */
export function splitJsonObjects(text: string): { objects: string[]; rest: string } {
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let consumed = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      objects.push(text.slice(start, i + 1));
      consumed = i + 1;
    }
  }
  return { objects, rest: depth === 0 ? '' : text.slice(start >= consumed ? start : consumed) };
}

/** Expands `@flagfile` arguments (Bazel passes long argument lists that way). */
export function expandFlagFiles(args: readonly string[], read: (path: string) => string = (p) => readFileSync(p, 'utf8')): string[] {
  return args.flatMap((a) => (a.startsWith('@') && !a.startsWith('@@') ? read(a.slice(1)).split(/\r?\n/).filter((l) => l !== '') : [a.startsWith('@@') ? a.slice(1) : a]));
}

/** Serves WorkRequests until stdin ends. `runCommand` runs one command line with captured streams. */
export async function servePersistentWorker(
  prefix: readonly string[],
  input: AsyncIterable<Uint8Array | string>,
  streams: Streams,
  runCommand: (argv: readonly string[], streams: Streams) => Promise<ExitCode>,
): Promise<ExitCode> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const { objects, rest } = splitJsonObjects(text);
    text = rest;
    for (const o of objects) {
      let request: { arguments?: unknown; requestId?: number };
      try {
        request = JSON.parse(o) as typeof request;
      } catch {
        streams.err('dxbin: persistent worker: a request that is not JSON was ignored');
        continue;
      }
      const captured = captureStreams();
      let exitCode: number;
      try {
        const args = Array.isArray(request.arguments) ? expandFlagFiles(request.arguments.map(String)) : [];
        exitCode = await runCommand([...prefix, ...args], captured);
      } catch (e) {
        captured.err(`dxbin: ${(e as Error).message}`);
        exitCode = 1;
      }
      const response = { exitCode, output: captured.stdout() + captured.stderr(), ...(request.requestId ? { requestId: request.requestId } : {}) };
      await streams.write(`${JSON.stringify(response)}\n`);
    }
  }
  return 0;
}
