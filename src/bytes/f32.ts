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
