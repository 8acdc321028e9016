/**
 * MD5's 64 steps as data (RFC 1321; docs/formats/container.md): the one description of the
 * compression function that every digest backend is made from. The JS digest (digest.ts) loops
 * over it; the WebAssembly digest (digest-wasm.ts) writes the steps out unrolled, scalar and SIMD,
 * from it when it loads. Step i (round r = i >> 4) computes, with (a, b, c, d) rotating by one
 * place per step: a = b + rotl(a + F_r(b, c, d) + K[i] + x[md5Word(i)], md5Shift(i)).
 */

/** The additive constants K[0..64), as signed 32-bit words. */
export const MD5_K = Int32Array.of(
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
  0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
  0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
  0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
  0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
  0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
  0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
  0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
);

/** Rotation amounts: four per round, repeating over the round's 16 steps. */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/** The rotation of step i. */
export const md5Shift = (i: number): number => SHIFTS[((i >> 2) & 12) | (i & 3)]!;

/** The message word step i adds: i, 5i + 1, 3i + 5, 7i (mod 16) in rounds 0..3. */
export const md5Word = (i: number): number => ((i >> 4 === 0 ? i : i >> 4 === 1 ? 5 * i + 1 : i >> 4 === 2 ? 3 * i + 5 : 7 * i) & 15);

/** Per step, the message word and the rotation (md5Word, md5Shift) as byte tables for a loop. */
export interface Md5StepTables {
  readonly word: Uint8Array;
  readonly shift: Uint8Array;
}
let stepTables: Md5StepTables | undefined;
/** The step tables, made on first use (not at import: only the JS digest loops over them). */
export function md5StepTables(): Md5StepTables {
  return (stepTables ??= { word: Uint8Array.from(MD5_K, (_, i) => md5Word(i)), shift: Uint8Array.from(MD5_K, (_, i) => md5Shift(i)) });
}

/** MD5's initial state (a, b, c, d). */
export const MD5_IV = Int32Array.of(0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476);
