/**
 * Little-endian u32/u16 loads and stores on a Uint8Array at an offset the caller has checked.
 * The hot codecs use these instead of a DataView: creating a DataView per call costs more than
 * reading a whole RTS0 record, and byte loads compile to the same few instructions.
 */

/** The u32 at `at`. */
export function getU32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** Stores the low 32 bits of `value` at `at`. */
export function setU32(out: Uint8Array, at: number, value: number): void {
  out[at] = value;
  out[at + 1] = value >>> 8;
  out[at + 2] = value >>> 16;
  out[at + 3] = value >>> 24;
}

/** Stores the low 16 bits of `value` at `at`. */
export function setU16(out: Uint8Array, at: number, value: number): void {
  out[at] = value;
  out[at + 1] = value >>> 8;
}
