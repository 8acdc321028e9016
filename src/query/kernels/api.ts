/**
 * The hot loops behind bulk query resolve, as one interface with three implementations: WASM with
 * SIMD, WASM without, and plain JS (the reference). Arguments are byte views; every u64 is
 * little-endian and 8-byte aligned within its view. Results are identical on all three.
 */

export type KernelName = 'simd' | 'scalar' | 'js';

/** The bulk resolve operations, one implementation each for WebAssembly SIMD, scalar WebAssembly and JS, with the same results. */
export interface QueryKernels {
  readonly name: KernelName;
  /**
   * `count` timestamp durations: from `count` [begin, end] pairs, or with `consecutive` from
   * `count + 1` marks. Writes ticks (u64), ns (f64) and a flag byte per duration.
   */
  durations(input: Uint8Array, count: number, consecutive: boolean, scale: number, ticks: Uint8Array, ns: Uint8Array, flags: Uint8Array): void;
  /** Sums `records` records of `fields` u64 fields each into `out` (`fields` u64 sums, wrapping at 2^64). */
  sumRecords(input: Uint8Array, records: number, fields: number, out: Uint8Array): void;
  /** `a - b` for `words` u64 words into `out`, wrapping at 2^64. */
  subtract(a: Uint8Array, b: Uint8Array, words: number, out: Uint8Array): void;
  /** For `records` D3D12_QUERY_DATA_SO_STATISTICS: a flag byte per record, 1 where PrimitivesStorageNeeded exceeds NumPrimitivesWritten; returns how many overflowed. */
  soOverflow(input: Uint8Array, records: number, flags: Uint8Array): number;
  /** `count` occlusion counts as BINARY_OCCLUSION results (u64 0 or 1) into `out`; returns how many are 1. */
  binaryOcclusion(input: Uint8Array, count: number, out: Uint8Array): number;
  /** 0, or 1 + the map entry index with a bad index or a cycle. */
  gatherSum(src: Uint8Array, srcCount: number, fields: number, map: Uint8Array, mapCount: number, heads: number, dst: Uint8Array, dstCount: number): number;
}
