/**
 * The hot loops behind bulk query resolve, as one interface with three implementations: WASM with
 * SIMD, WASM without, and plain JS (the reference). Arguments are byte views; every u64 is
 * little-endian and 8-byte aligned within its view. Results are identical on all three.
 */

export type KernelName = 'simd' | 'scalar' | 'js';

export interface QueryKernels {
  readonly name: KernelName;
  /**
   * `count` timestamp durations: from `count` [begin, end] pairs, or with `consecutive` from
   * `count + 1` marks. Writes ticks (u64), ns (f64) and a flag byte per duration.
   */
  durations(input: Uint8Array, count: number, consecutive: boolean, scale: number, ticks: Uint8Array, ns: Uint8Array, flags: Uint8Array): void;
  sumRecords(input: Uint8Array, records: number, fields: number, out: Uint8Array): void;
  subtract(a: Uint8Array, b: Uint8Array, words: number, out: Uint8Array): void;
  soOverflow(input: Uint8Array, records: number, flags: Uint8Array): number;
  binaryOcclusion(input: Uint8Array, count: number, out: Uint8Array): number;
  /** 0, or 1 + the map entry index with a bad index or a cycle. */
  gatherSum(src: Uint8Array, srcCount: number, fields: number, map: Uint8Array, mapCount: number, heads: number, dst: Uint8Array, dstCount: number): number;
}
