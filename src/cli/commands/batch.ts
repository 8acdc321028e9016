/**
 * `dxbin batch FILE|-`: many commands in one process, for scripts. Each line of FILE is one job:
 * a JSON array of arguments (`["rootsig","validate","a.cso"]`) or an object
 * `{"id": any, "args": [...]}`. Each job's answer is one NDJSON line on stdout:
 * `{"line", "id"?, "exit", "stdout", "stderr"}`. A failing job never stops the others; the exit
 * status is the worst job's.
 */
import { S, FORMAT_VERSION } from '../schema.js';
import type { OnceCommand } from '../command.js';
import { InputError } from '../errors.js';
import { worstExit, type ExitCode } from '../exit.js';
import { readInput } from '../io.js';
import { captureStreams } from '../streams.js';
import { utf8 } from './shared.js';

/** Parses one batch line into arguments; undefined for a blank line. */
export function batchJob(line: string, where: string, at: number): { id?: unknown; args: string[] } | undefined {
  if (line.trim() === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new InputError(where, 'foreign', `line ${at}: not JSON`, { field: `line ${at}` });
  }
  const args = Array.isArray(v) ? v : (v as { args?: unknown })?.args;
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new InputError(where, 'foreign', `line ${at}: a job is an array of strings or {"args": [...]}`, { field: `line ${at}` });
  if (args[0] === 'batch') throw new InputError(where, 'foreign', `line ${at}: batch jobs cannot run batch`, { field: `line ${at}` });
  return { ...(Array.isArray(v) ? {} : { id: (v as { id?: unknown }).id }), args };
}

export const batch: OnceCommand = {
  kind: 'once',
  path: ['batch'],
  description: 'run the jobs of an NDJSON file (one JSON array of arguments per line) in one process; one NDJSON answer per job',
  examples: [`printf '%s\\n' '["hash","--check","a.cso"]' '["rootsig","validate","b.cso","--json"]' | dxbin batch -`],
  schema: { line: S.int, id: {}, exit: { enum: [0, 1, 2] }, stdout: S.str, stderr: S.str },
  define: (c) => c.argument('<jobs>', 'NDJSON file of jobs, or - for standard input'),
  async run(args, _o, streams, run) {
    const where = args[0] as string;
    const lines = utf8(await readInput(where, streams)).split(/\r?\n/);
    const codes: ExitCode[] = [];
    for (let i = 0; i < lines.length; i++) {
      let job;
      try {
        job = batchJob(lines[i]!, where, i + 1);
      } catch (e) {
        const message = (e as Error).message;
        streams.err(`dxbin: ${message}`);
        await streams.write(`${JSON.stringify({ formatVersion: FORMAT_VERSION, line: i + 1, exit: 2, stdout: '', stderr: `dxbin: ${message}\n` })}\n`);
        codes.push(2);
        continue;
      }
      if (!job) continue;
      const captured = captureStreams();
      const exit = await run(job.args, captured);
      codes.push(exit);
      await streams.write(`${JSON.stringify({ formatVersion: FORMAT_VERSION, line: i + 1, ...(job.id !== undefined ? { id: job.id } : {}), exit, stdout: captured.stdout(), stderr: captured.stderr() })}\n`);
    }
    return worstExit(codes);
  },
};
