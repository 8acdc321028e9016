/**
 * The hostile-input rounds' table runner (test/hostile-fresh.test.ts, test/hostile-round3.test.ts):
 * every input is run and judged, and a table fails with the list of all inputs that did not give
 * what they must, not the first.
 */
import * as assert from 'uvu/assert';
import { DxbinError } from '../../src/index.js';

/** What an input must give: a typed error (one of its codes, and a path it names), or a value the check accepts. */
export type Want = { code: string | string[]; path?: RegExp } | ((value: any) => boolean | string);
export type Case = [name: string, input: () => unknown, want: Want];

/** Runs every input; fails with the list of those that did not give what they must (all of them, not the first). */
export function table(cases: Case[]) {
  const broke: string[] = [];
  for (const [name, input, want] of cases) {
    const problem = judge(input, want);
    if (problem) broke.push(`${name}: ${problem}`);
  }
  assert.equal(broke, [], `${broke.length} of ${cases.length} inputs:\n${broke.join('\n')}`);
}

export function judge(input: () => unknown, want: Want): string | undefined {
  let value: unknown;
  let error: unknown;
  try {
    value = input();
  } catch (e) {
    error = e;
  }
  if (typeof want === 'function') {
    if (error !== undefined) return `threw ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`;
    let ok: boolean | string;
    try {
      ok = want(value);
    } catch (e) {
      return `the answer could not be checked: ${String(e)}`;
    }
    return ok === true ? undefined : typeof ok === 'string' ? ok : `wrong answer: ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))?.slice(0, 200)}`;
  }
  if (error === undefined) return `no error (gave ${typeof value})`;
  if (!(error instanceof DxbinError)) return `a raw ${(error as Error).constructor?.name}: ${(error as Error).message}`;
  const codes = typeof want.code === 'string' ? [want.code] : want.code;
  if (!codes.includes(error.code)) return `${error.code}, not ${codes.join('/')}: ${error.message}`;
  if (want.path && !want.path.test(error.path)) return `path ${error.path}, not ${String(want.path)}`;
  return undefined;
}
