/** Parsing of the fuzzing options shared by the CLI and the Jazzer/CI entry points. */
import { DescriptionError } from '../bytes/errors.js';
import { expectObject, expectString } from '../bytes/check.js';

/** `60s`, `5m`, `2h`, `1500ms` or plain seconds -> milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  expectString(text, 'text');
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

/**
 * The shard this process runs: `--shard i/n`, else `JOB_COMPLETION_INDEX` (a Kubernetes Indexed
 * Job) with `DXBIN_SHARD_COUNT`; undefined when neither is set.
 * @throws {DescriptionError} bad-type (not `i/n`) or out-of-range (not 0 <= i < n) at `shard`, or at
 *   `DXBIN_SHARD_COUNT` / `JOB_COMPLETION_INDEX` when the shard comes from the environment
 */
export function parseShard(option: string | undefined, env: Readonly<Record<string, string | undefined>> = {}): { index: number; count: number } | undefined {
  expectObject(env, 'env');
  let index: number;
  let count: number;
  if (option !== undefined) {
    expectString(option, 'shard');
    const m = /^(\d+)\/(\d+)$/.exec(option);
    if (!m) throw new DescriptionError('bad-type', 'shard', `--shard takes i/n (e.g. 0/4), got ${option}`);
    index = Number(m[1]);
    count = Number(m[2]);
  } else if (env.JOB_COMPLETION_INDEX !== undefined && env.DXBIN_SHARD_COUNT !== undefined) {
    index = Number(env.JOB_COMPLETION_INDEX);
    count = Number(env.DXBIN_SHARD_COUNT);
  } else return undefined;
  if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index < 0 || index >= count) {
    const path = option !== undefined ? 'shard' : !Number.isInteger(count) || count < 1 ? 'DXBIN_SHARD_COUNT' : 'JOB_COMPLETION_INDEX';
    throw new DescriptionError('out-of-range', path, `shard ${index}/${count}: need 0 <= i < n`);
  }
  return { index, count };
}
