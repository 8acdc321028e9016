/**
 * The bytes of an open regular file, up to the size fstat gave (as readFileSync reads one): a file
 * that shrank meanwhile ends early, one that grew is read no further. The one read loop of the
 * CLI's inputs and of response files.
 */
import { readSync } from 'node:fs';

export function readOpenFile(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let done = 0;
  while (done < buf.byteLength) {
    const n = readSync(fd, buf, done, buf.byteLength - done, null);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}
