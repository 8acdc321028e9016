/**
 * Offset-addressed little-endian reader. Every bounds failure is a DecodeError that names the
 * absolute byte offset (view position + base) and the field path.
 */
import { DecodeError } from './errors.js';
import { expectBytes } from './check.js';

export class ByteReader {
  /** A DataView over the same bytes (offsets relative to bytes[0]). */
  readonly view: DataView;

  /**
   * @param bytes the data; offsets passed to the methods are relative to its first byte
   * @param base  absolute offset of bytes[0] in the file, used in error messages
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly base = 0,
  ) {
    expectBytes(bytes, 'bytes'); // null, an ArrayBuffer, ...: bad-type
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.byteLength;
  }

  /** Throws unless `size` bytes starting at `offset` lie inside the data. */
  need(offset: number, size: number, path: string): void {
    if (offset > this.length || size > this.length - offset) {
      throw new DecodeError(
        'truncated',
        this.base + offset,
        path,
        `needs ${size} byte${size === 1 ? '' : 's'}, only ${Math.max(0, this.length - offset)} left`,
      );
    }
  }

  /**
   * Throws unless an array of `count` records of `recordSize` bytes fits at `offset`.
   * Call before allocating anything sized by `count`. An empty array fits at any offset up to the end.
   */
  needArray(offset: number, count: number, recordSize: number, path: string): void {
    if (offset > this.length) {
      throw new DecodeError('bad-offset', this.base + offset, path, `offset ${offset} is past the end (${this.length} bytes)`);
    }
    const bytes = count * recordSize; // u32 x small constant: exact in a double
    if (bytes > this.length - offset) {
      throw new DecodeError(
        'count-exceeds-data',
        this.base + offset,
        path,
        `${count} record${count === 1 ? '' : 's'} of ${recordSize} bytes need${count === 1 ? 's' : ''} ${bytes} bytes, only ${this.length - offset} left`,
      );
    }
  }

  u16(offset: number, path: string): number {
    this.need(offset, 2, path);
    return this.view.getUint16(offset, true);
  }

  u32(offset: number, path: string): number {
    this.need(offset, 4, path);
    return this.view.getUint32(offset, true);
  }

  f32(offset: number, path: string): number {
    this.need(offset, 4, path);
    return this.view.getFloat32(offset, true);
  }

  /** The raw bit pattern of an f32 field (keeps NaN payloads). */
  f32Bits(offset: number, path: string): number {
    return this.u32(offset, path);
  }

  slice(offset: number, size: number, path: string): Uint8Array {
    this.need(offset, size, path);
    return this.bytes.subarray(offset, offset + size);
  }

  fourCC(offset: number, path: string): string {
    const b = this.slice(offset, 4, path);
    return String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!);
  }
}
