/** CLI outcomes that are not the input's fault: exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A check that ran and said no (e.g. `hash --check` on a wrong digest): exit status 1. */
export class CheckFailed extends Error {
  override name = 'CheckFailed';
}

export const EXIT = { ok: 0, badInput: 1, usage: 2 } as const;
