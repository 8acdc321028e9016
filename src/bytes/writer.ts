/** Growable little-endian writer with back-patching of fields written before their value is known. */

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private end = 0;

  /** @param initialCapacity bytes to reserve; anything not a positive finite number means the default */
  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity > 16 && initialCapacity < 0x7fffffff ? Math.ceil(initialCapacity) : initialCapacity > 0 ? 16 : 256);
    this.view = new DataView(this.buf.buffer);
  }

  /** Bytes written so far (the current end). */
  get position(): number {
    return this.end;
  }

  private reserve(extra: number): void {
    const needed = this.end + extra;
    if (needed <= this.buf.byteLength) return;
    let capacity = Math.max(16, this.buf.byteLength * 2);
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.buf.subarray(0, this.end));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  u16(value: number): void {
    this.reserve(2);
    this.view.setUint16(this.end, value, true);
    this.end += 2;
  }

  u32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.end, value >>> 0, true);
    this.end += 4;
  }

  bytes(data: Uint8Array): void {
    this.reserve(data.byteLength);
    this.buf.set(data, this.end);
    this.end += data.byteLength;
  }

  zeros(count: number): void {
    this.reserve(count);
    this.buf.fill(0, this.end, this.end + count);
    this.end += count;
  }

  /** Writes a u32 placeholder and returns its position for `patchU32`. */
  placeholderU32(): number {
    const at = this.end;
    this.u32(0);
    return at;
  }

  patchU32(at: number, value: number): void {
    if (at < 0 || at + 4 > this.end) throw new RangeError(`patch at ${at} outside the ${this.end} bytes written`);
    this.view.setUint32(at, value >>> 0, true);
  }

  /** A copy of the bytes written. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.end);
  }
}
