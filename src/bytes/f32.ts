/** IEEE-754 binary32 bit patterns of numbers and back (NaN payloads kept by the callers that need them). */
import { expectObject } from './check.js';
import { DescriptionError } from './errors.js';

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
  // an own entry only, as checkNanBits checks them (not one a prototype gives)
  const kept = record.nanBits as WithNanBits | null | undefined;
  const nan = kept != null && Object.hasOwn(kept, key) ? kept[key] : undefined;
  return typeof nan === 'number' ? nan : f32Bits(value);
}

/**
 * A record's `nanBits` (see WithNanBits), checked where a description is taken (the encoders' and
 * the JSON writers' guards, RTS0's samplers and the rows' f32 fields alike), so that what is
 * written is the value: each entry the bits of a NaN (exponent all ones, fraction not zero) as an
 * unsigned 32-bit integer, for a key `isF32` names as an f32 field of the record whose value is
 * NaN. Anything else would be written as another value (bits 0x3f800000 for a NaN field read back
 * as 1), or dropped (bits for a field that is not NaN). Costs nothing when there is no `nanBits`.
 * @throws {DescriptionError} bad-type at `<path>.nanBits` when it is not an object; not-representable at `<path>.nanBits.<key>` naming the entry
 */
export function checkNanBits(values: WithNanBits, isF32: (key: string) => boolean, path: string): void {
  const nanBits = values.nanBits;
  if (nanBits === undefined) return;
  const at = `${path}.nanBits`;
  expectObject(nanBits, at);
  // every own key, enumerable or not: nanBitsOf reads any own entry
  for (const key of Object.getOwnPropertyNames(nanBits)) {
    const bits = nanBits[key];
    // an f32 field (a key of the record's, never a prototype member) that is NaN; a u32 whose
    // exponent is all ones and fraction not zero
    if (!isF32(key) || values[key] === values[key] || typeof bits !== 'number' || bits >>> 0 !== bits || (bits & 0x7f800000) !== 0x7f800000 || !(bits & 0x7fffff)) {
      throw new DescriptionError('not-representable', `${at}.${key}`, "expected a NaN's bits as a u32, for an f32 field that is NaN");
    }
  }
}
