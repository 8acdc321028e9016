/** IEEE-754 binary32 bit patterns of numbers and back (NaN payloads kept by the callers that need them). */

/** The bits of the default quiet NaN, what a JS NaN becomes in a Float32Array. */
export const QUIET_NAN_BITS = 0x7fc00000;

/** f32 bit pattern of a number (rounds to nearest binary32). */
export function f32Bits(value: number): number {
  scratchF32[0] = value;
  return scratchU32[0]!;
}

/** The number an f32 bit pattern stands for. */
export function f32FromBits(bits: number): number {
  scratchU32[0] = bits >>> 0;
  return scratchF32[0]!;
}

const scratchF32 = new Float32Array(1);
const scratchU32 = new Uint32Array(scratchF32.buffer);

/**
 * A record holding f32 fields: the bits of each NaN a number cannot carry (any NaN but the
 * default quiet one) are kept in `nanBits` by the field's key (codecs/rows.ts FloatScalar; RTS0's
 * samplers), so that writing gives the same bytes back.
 */
export type WithNanBits = { [key: string]: unknown };

/** Keeps `bits`, read for f32 field `key` of `record`, in its `nanBits` when they are a NaN a number cannot carry. */
export function keepNanBitsOf(record: WithNanBits, key: string, bits: number): void {
  // a NaN's exponent is all ones and its fraction not zero
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0 && bits >>> 0 !== QUIET_NAN_BITS) ((record.nanBits ??= {}) as WithNanBits)[key] = bits >>> 0;
}

/** The bits to store for a NaN f32 field: the record's `nanBits` for it when it has them, else the quiet NaN. */
export function nanBitsOf(value: number, record: WithNanBits, key: string): number {
  const nan = (record.nanBits as WithNanBits | undefined)?.[key];
  return typeof nan === 'number' ? nan : f32Bits(value);
}
