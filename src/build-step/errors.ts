/**
 * The errors of the build-step protocols (src/build-step/): a command line that is wrong
 * (UsageError, exit 2) and an input the CLI cannot use (InputError, exit 1), with errno codes put
 * in words. The CLI's error contract (src/cli/errors.ts) formats them; the fuzz targets that drive
 * these protocols accept them as typed answers.
 */

/** The command line is wrong: exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Why an input could not be used at all. */
export type InputErrorCode = 'not-found' | 'not-readable' | 'is-directory' | 'foreign' | 'no-part' | 'partial-record' | 'not-writable' | 'io';

/** An input (or output) the CLI cannot use: missing, unreadable, a directory, not the kind of file expected. Exit 1. */
export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly file: string,
    readonly code: InputErrorCode,
    /** What is wrong, in words (no errno codes). */
    readonly detail: string,
    /** Field and absolute byte offset, when there is one. */
    readonly at?: { field: string; offset?: number },
  ) {
    super(`${file}: ${detail}`);
  }
}

/** Words for the errno codes users meet; the code itself is never shown. */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a folder in the path is a file',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EBUSY: 'the file is busy',
  EIO: 'input/output error',
  EXDEV: 'the temporary file and the output are on different devices',
  ENXIO: 'no such device or address',
};

/** A system error in words, without its errno code. */
export function errnoWords(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && ERRNO_WORDS[code] !== undefined) return ERRNO_WORDS[code]!;
  if (code !== undefined) return 'system error';
  return e instanceof Error ? e.message : String(e);
}
