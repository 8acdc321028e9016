/**
 * `dxbin batch FILE|-`: many commands in one process, for scripts. Each line of FILE is one job:
 * a JSON array of arguments (`["rootsig","validate","a.cso"]`) or an object
 * `{"id": any, "args": [...]}`. Each job's answer is one NDJSON line on stdout:
 * `{"line", "id"?, "exit", "stdout", "stderr"}`. A failing job never stops the others; the exit
 * status is the worst job's. Every line that is not blank gets exactly one answer: a line that is
 * not a job (not JSON, a stray quote, an `id` that is not a string, number, boolean or null) gets
 * an error answer (exit 2); an answer over --max-answer-bytes is cut and becomes an error (exit 1).
 * Jobs' arguments expand `@file` response files as a command line does.
 */
import { printableJson } from '../../index.js';
import { S, FORMAT_VERSION } from '../schema.js';
import type { OnceCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { worstExit, type ExitCode } from '../exit.js';
import { OutputLedger, readInput } from '../io.js';
import { MAX_ANSWER_BYTES, captureStreams } from '../streams.js';
import { batchJob } from '../../build-step/batch-jobs.js';

/** The --max-answer-bytes value. */
function answerLimit(text: string | undefined): number {
  if (text === undefined) return MAX_ANSWER_BYTES;
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--max-answer-bytes takes a whole number from 1, got ${text}`);
  return Number(text);
}
import { utf8 } from './shared.js';

export const batch: OnceCommand = {
  kind: 'once',
  path: ['batch'],
  description: 'run the jobs of an NDJSON file (one JSON array of arguments per line) in one process; one NDJSON answer per job',
  examples: [`printf '%s\\n' '["hash","--check","a.cso"]' '["rootsig","validate","b.cso","--json"]' | dxbin batch -`],
  schema: { line: S.int, id: {}, exit: { enum: [0, 1, 2] }, stdout: S.str, stderr: S.str },
  define: (c) =>
    c
      .argument('<jobs>', 'NDJSON file of jobs, or - for standard input')
      .option('--max-answer-bytes <n>', "largest job answer (stdout and stderr together); a larger one is cut and is the job's error", String(MAX_ANSWER_BYTES)),
  async run(args, o, streams, run) {
    const limit = answerLimit((o as { maxAnswerBytes?: string }).maxAnswerBytes);
    const where = args[0] as string;
    const lines = utf8(await readInput(where, streams)).split(/\r?\n/);
    const codes: ExitCode[] = [];
    // one file per job: the jobs file and each job's outputs are refused as another job's output
    const outputs = new OutputLedger(where);
    for (let i = 0; i < lines.length; i++) {
      let job;
      try {
        job = batchJob(lines[i]!, where, i + 1);
      } catch (e) {
        const message = (e as Error).message;
        streams.err(`dxbin: ${message}`);
        await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, line: i + 1, exit: 2, stdout: '', stderr: `dxbin: ${message}\n` })}\n`);
        codes.push(2);
        continue;
      }
      if (!job) continue;
      outputs.job = `line ${i + 1}`;
      const captured = Object.assign(captureStreams(new Uint8Array(0), limit), { outputs });
      let exit = await run(job.args, captured);
      let stdout = captured.stdout();
      let stderr = captured.stderr();
      if (captured.overflowed()) {
        const message = `dxbin: line ${i + 1}: the answer is over ${limit} bytes; cut (write large outputs to files with -o)`;
        streams.err(message);
        stdout = '';
        stderr = `${stderr.slice(0, 4096)}${message}\n`;
        exit = worstExit([exit, 1]);
      }
      codes.push(exit);
      await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, line: i + 1, ...(job.id !== undefined ? { id: job.id } : {}), exit, stdout, stderr })}\n`);
    }
    return worstExit(codes);
  },
};
