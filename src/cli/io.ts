/** File input and output for the CLI: reads whole files, writes atomically, never over an input. */
import { closeSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from './errors.js';

export function readInput(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Writes `data` to `out` through a temporary file in the same folder and a rename, so a reader
 * never sees a half-written file and a failure leaves the old file in place. Refuses to write
 * over any of `inputs`.
 */
export function writeOutputAtomically(out: string, data: Uint8Array | string, inputs: readonly string[]): void {
  const target = canonicalPath(out);
  for (const input of inputs) {
    if (canonicalPath(input) === target) throw new UsageError(`refusing to overwrite the input ${input}; choose another -o`);
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, target);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* nothing was created */
    }
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
