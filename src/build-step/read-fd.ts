/**
 * The bytes of an open regular file, up to the size fstat gave (as readFileSync reads one): a file
 * that shrank meanwhile ends early, one that grew is read no further. A size of 0 is what procfs
 * and sysfs files report whatever they hold (`/proc/self/status`): such a file is read to its end,
 * as readFileSync reads it, but no further than `limit` + 1 bytes (a caller refuses more than
 * `limit`), so it is never taken for an empty file. The one read loop of the CLI's inputs and of
 * response files.
 */
import { readSync } from 'node:fs';

export function readOpenFile(fd: number, size: number, limit = size): Buffer {
  if (size === 0 && limit > 0) return readToEnd(fd, limit + 1);
  const buf = Buffer.allocUnsafe(size);
  let done = 0;
  while (done < buf.byteLength) {
    const n = readSync(fd, buf, done, buf.byteLength - done, null);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}

/** A file of unknown size read to its end, at most `most` bytes. */
function readToEnd(fd: number, most: number): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  while (total < most) {
    const chunk = Buffer.allocUnsafe(Math.min(64 << 10, most - total));
    const n = readSync(fd, chunk, 0, chunk.byteLength, null);
    if (n === 0) break;
    parts.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(parts, total);
}
