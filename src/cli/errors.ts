import { DxbinError } from '../bytes/errors.js';

/** CLI outcomes that are not the input's fault: exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A check that ran and said no (e.g. `hash --check` on a wrong digest): exit status 1. */
export class CheckFailed extends Error {
  override name = 'CheckFailed';
}

export const EXIT = { ok: 0, badInput: 1, usage: 2 } as const;

/** A DxbinError raised while working on one input file: exit status 1, the file named. */
export class InputFailure extends Error {
  constructor(
    readonly file: string,
    override readonly cause: DxbinError,
  ) {
    super(cause.message);
  }
}

/** Runs `work` on `file`, tagging input errors with the file name (errors that name their own file pass as they are). */
export function onFile<T>(file: string, work: () => T, selfLocating: (e: DxbinError) => boolean = () => false): T {
  try {
    return work();
  } catch (e) {
    throw e instanceof DxbinError && !selfLocating(e) ? new InputFailure(file, e) : e;
  }
}
