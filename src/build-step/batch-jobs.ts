/**
 * One line of a `dxbin batch` file read as a job (src/cli/commands/batch.ts runs them): a JSON
 * array of argument strings, or `{"id": scalar, "args": [...]}`. Pure, so the fuzzer drives it
 * directly (src/fuzz/targets.ts, `batch-stream`).
 */
import { InputError } from './errors.js';
import { quoted } from '../index.js';
import { LONE_SURROGATE } from './work-requests.js';

/** The keys of a job object. */
const JOB_KEYS = new Set(['id', 'args']);

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
  const unpaired = args.findIndex((a: string) => LONE_SURROGATE.test(a));
  if (unpaired >= 0) throw new InputError(where, 'foreign', `line ${at}: argument ${unpaired} (args[${unpaired}]) holds a lone surrogate, which no file name or option can`, { field: `line ${at}` });
  // a key a job does not have (a misspelt "arsg", a "cwd" it would not honour) is refused, never dropped
  const unknown = Array.isArray(v) ? undefined : Object.keys(v as object).find((k) => !JOB_KEYS.has(k));
  if (unknown !== undefined) throw new InputError(where, 'foreign', `line ${at}: unknown key ${quoted(unknown)} in a job (allowed: id, args)`, { field: `line ${at}` });
  // no command: the help text would answer a 3-byte `[]` with 10 KB, for every such line (as a worker's `{}`)
  if (args.length === 0) throw new InputError(where, 'foreign', `line ${at}: a job with no arguments names no command (dxbin help lists them)`, { field: `line ${at}` });
  if (args[0] === 'batch') throw new InputError(where, 'foreign', `line ${at}: batch jobs cannot run batch`, { field: `line ${at}` });
  const id = Array.isArray(v) ? undefined : (v as { id?: unknown }).id;
  // an id is echoed back: only scalars, so no shape of it can make the answer fail to print
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'boolean') throw new InputError(where, 'foreign', `line ${at}: id is a string, number, boolean or null`, { field: `line ${at}` });
  return { ...(Array.isArray(v) ? {} : { id }), args };
}
