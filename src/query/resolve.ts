/**
 * Bulk operations over resolved query buffers, run by the active kernels (WASM SIMD, WASM scalar
 * or JS; identical results): timestamp durations with flags and a summary, field-wise sums and
 * deltas, SO overflow, binary occlusion, and vkd3d-proton's gather-and-sum of virtual queries.
 */
import { QUERY_MAP_ENTRY, QUERY_TYPES, type QueryType } from '../../codecs/query.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import type { QueryKernels } from './kernels/api.js';
import { activeKernels } from './kernels/loader.js';
import { alignedView, checkDisjoint, queryTypeOf, RANGE_KEYS, recordRange, type RecordRange } from './types.js';
import { expectArray, expectBytes, expectKnownKeys, expectObject, expectObjects, kindOf } from '../bytes/check.js';

/**
 * The kernels a call runs: the caller's (an object with the operation `method`) or the active ones.
 * @throws {DescriptionError} bad-type (path `path`) for kernels that are not an object with that method
 */
function kernelsFor(given: unknown, method: keyof QueryKernels, path: string): QueryKernels {
  if (given === undefined) return activeKernels();
  if (typeof given === 'object' && given !== null && typeof (given as Record<string, unknown>)[method] === 'function') return given as QueryKernels;
  throw new DescriptionError('bad-type', path, `expected query kernels (an object with ${method}()), got ${kindOf(given)}`);
}

/**
 * `out` given to timestampDurations: three Uint8Arrays, ticks and ns 8-byte aligned, none sharing
 * bytes with another or the input; the views as read once (a getter's next answer is never the one written).
 */
function checkOut(out: unknown, bytes: Uint8Array): NonNullable<DurationOptions['out']> {
  expectObject(out, 'options.out');
  const views: [string, Uint8Array][] = [];
  const given = {} as NonNullable<DurationOptions['out']>;
  for (const key of ['ticks', 'ns', 'flags'] as const) {
    const v = (given[key] = out[key] as Uint8Array);
    const path = `options.out.${key}`;
    expectBytes(v, path);
    // ticks and ns are read back as BigUint64Array and Float64Array views: 8-byte aligned
    if (key !== 'flags' && v.byteOffset % 8) throw new DescriptionError('bad-type', path, 'expected an 8-byte aligned view');
    views.push([path, v]);
  }
  checkDisjoint([bytes], views);
  return given;
}

/** What timestampDurations reads: the timestamps' place, the queue's frequency, pairs or marks, and where to write. */
export interface DurationOptions extends RecordRange {
  /** Ticks per second (ID3D12CommandQueue::GetTimestampFrequency). */
  frequency: number;
  /** [begin, end] pairs (default), or consecutive marks: duration i = t[i+1] - t[i]. */
  pairs?: boolean;
  kernels?: QueryKernels;
  /** Write into these (e.g. views of WASM memory from WasmKernels.allocate). */
  out?: { ticks: Uint8Array; ns: Uint8Array; flags: Uint8Array };
}

/** Timestamp durations: exact ticks, nanoseconds and a flag per duration. */
export interface Durations {
  count: number;
  /** Exact end - begin; 0 where flagged. */
  ticks: BigUint64Array;
  /** ticks * (1e9 / frequency), one rounding; NaN where flagged. */
  ns: Float64Array;
  /** 0, DURATION_FLAGS.NOT_ISSUED or DURATION_FLAGS.END_BEFORE_BEGIN per duration. */
  flags: Uint8Array;
}

/** The keys of timestampDurations' options (module-internal: src/inspect/timings.ts adds its own). */
export const DURATION_KEYS: readonly string[] = ['offset', 'count', 'frequency', 'pairs', 'out', 'kernels'];

/** Durations of timestamp pairs or marks in a buffer of TIMESTAMP results. */
export function timestampDurations(bytes: Uint8Array, options: DurationOptions): Durations {
  expectObject(options, 'options');
  // each value read once: a getter's second answer is never the one checked (offset and count: recordRange)
  const { frequency, pairs = true, kernels, out: outGiven } = options;
  if (!(frequency > 0) || !Number.isFinite(frequency) || !Number.isFinite(1e9 / frequency)) throw new DescriptionError('out-of-range', 'frequency', `a timestamp frequency is a positive number of Hz, got ${frequency}`);
  const { offset, count: stamps } = recordRange(bytes, 8, options, 'TIMESTAMP', 'bytes', 'options', DURATION_KEYS);
  const outChecked = outGiven === undefined ? undefined : checkOut(outGiven, bytes);
  if (typeof pairs !== 'boolean') throw new DescriptionError('bad-type', 'options.pairs', `expected a boolean, got ${kindOf(pairs)}`);
  if (pairs && stamps % 2 !== 0) throw new DecodeError('truncated', offset + stamps * 8, 'TIMESTAMP', `${stamps} timestamps do not make whole [begin, end] pairs`);
  const count = pairs ? stamps / 2 : Math.max(0, stamps - 1);
  const k = kernelsFor(kernels, 'durations', 'options.kernels');
  const out = outChecked ?? { ticks: new Uint8Array(count * 8), ns: new Uint8Array(count * 8), flags: new Uint8Array(count) };
  if (out.ticks.byteLength < count * 8 || out.ns.byteLength < count * 8 || out.flags.byteLength < count) {
    throw new DescriptionError('out-of-range', 'out', `outputs are too small for ${count} durations`);
  }
  k.durations(alignedView(bytes, offset, stamps * 8), count, !pairs, 1e9 / frequency, out.ticks, out.ns, out.flags);
  return {
    count,
    ticks: new BigUint64Array(out.ticks.buffer, out.ticks.byteOffset, count),
    ns: new Float64Array(out.ns.buffer, out.ns.byteOffset, count),
    flags: out.flags.subarray(0, count),
  };
}

/** Durations at a glance: how many are valid and flagged, and the minimum, median, 99th percentile and maximum in nanoseconds. */
export interface DurationSummary {
  valid: number;
  flagged: number;
  min: number;
  median: number;
  p99: number;
  max: number;
}

/** min / median / p99 / max (nearest rank) over the unflagged durations, in ns. */
export function summarizeDurations(d: Durations): DurationSummary {
  expectObject(d, 'durations');
  if (!(d.ns instanceof Float64Array)) throw new DescriptionError('bad-type', 'durations.ns', `expected a Float64Array, got ${kindOf(d.ns)}`);
  expectBytes(d.flags, 'durations.flags');
  if (!Number.isSafeInteger(d.count) || d.count < 0 || d.count > d.flags.length || d.count > (d.ns as Float64Array).length) {
    throw new DescriptionError('out-of-range', 'durations.count', `${String(d.count)} durations, but ns holds ${(d.ns as Float64Array).length} and flags ${d.flags.length}`);
  }
  const valid = new Float64Array(d.count);
  let n = 0;
  for (let i = 0; i < d.count; i++) if (d.flags[i] === 0) valid[n++] = d.ns[i]!;
  const sorted = valid.subarray(0, n).sort();
  const rank = (p: number) => (n === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * n) - 1)]!);
  return { valid: n, flagged: d.count - n, min: n ? sorted[0]! : NaN, median: rank(0.5), p99: rank(0.99), max: n ? sorted[n - 1]! : NaN };
}

/** Query types whose results are all u64 counters (sums and deltas make sense). */
const COUNTER_TYPES = new Set(['OCCLUSION', 'PIPELINE_STATISTICS', 'PIPELINE_STATISTICS1', 'SO_STATISTICS_STREAM0', 'SO_STATISTICS_STREAM1', 'SO_STATISTICS_STREAM2', 'SO_STATISTICS_STREAM3']);

function counterType(type: QueryType | string | number): QueryType {
  const q = queryTypeOf(type);
  if (!COUNTER_TYPES.has(q.name)) {
    throw new DescriptionError('out-of-range', 'type', `${q.name} results are not counters; sums and deltas take ${QUERY_TYPES.filter((t) => COUNTER_TYPES.has(t.name)).map((t) => t.cli).join(', ')}`);
  }
  return q;
}

/** Field-wise sum (mod 2^64) of N results: field name -> total. */
export function sumQueryResults(bytes: Uint8Array, type: QueryType | string | number, range: RecordRange & { kernels?: QueryKernels } = {}): Record<string, bigint> {
  const q = counterType(type);
  const { offset, count } = recordRange(bytes, q.result.size, range, q.name, 'bytes', 'range', RANGE_KEYS);
  const fields = q.result.fields.length;
  const out = new Uint8Array(fields * 8);
  kernelsFor(range.kernels, 'sumRecords', 'range.kernels').sumRecords(alignedView(bytes, offset, count * q.result.size), count, fields, out);
  const sums = new BigUint64Array(out.buffer);
  return Object.fromEntries(q.result.fields.map((f, i) => [f.name, sums[i]!]));
}

/** Field-wise a - b (mod 2^64) of two equally long result buffers, as packed results. */
export function deltaQueryResults(a: Uint8Array, b: Uint8Array, type: QueryType | string | number, kernels?: QueryKernels): Uint8Array {
  const q = counterType(type);
  const ra = recordRange(a, q.result.size, {}, `${q.name} (a)`, 'a', 'range', RANGE_KEYS);
  const rb = recordRange(b, q.result.size, {}, `${q.name} (b)`, 'b', 'range', RANGE_KEYS);
  if (ra.count !== rb.count) throw new DecodeError('count-exceeds-data', 0, q.name, `a holds ${ra.count} results, b ${rb.count}`);
  const words = (ra.count * q.result.size) / 8;
  const out = new Uint8Array(words * 8);
  kernelsFor(kernels, 'subtract', 'kernels').subtract(alignedView(a, 0, words * 8), alignedView(b, 0, words * 8), words, out);
  return out;
}

/** Per SO_STATISTICS result: 1 when the stream overflowed (PrimitivesStorageNeeded > NumPrimitivesWritten). */
export function soOverflow(bytes: Uint8Array, range: RecordRange & { kernels?: QueryKernels } = {}): { flags: Uint8Array; overflowed: number } {
  const { offset, count } = recordRange(bytes, 16, range, 'SO_STATISTICS', 'bytes', 'range', RANGE_KEYS);
  const flags = new Uint8Array(count);
  const overflowed = kernelsFor(range.kernels, 'soOverflow', 'range.kernels').soOverflow(alignedView(bytes, offset, count * 16), count, flags);
  return { flags, overflowed };
}

/** OCCLUSION counts as BINARY_OCCLUSION results (0 or 1), and how many are visible. */
export function occlusionToBinary(bytes: Uint8Array, range: RecordRange & { kernels?: QueryKernels } = {}): { values: BigUint64Array; visible: number } {
  const { offset, count } = recordRange(bytes, 8, range, 'OCCLUSION', 'bytes', 'range', RANGE_KEYS);
  const out = new Uint8Array(count * 8);
  const visible = kernelsFor(range.kernels, 'binaryOcclusion', 'range.kernels').binaryOcclusion(alignedView(bytes, offset, count * 8), count, out);
  return { values: new BigUint64Array(out.buffer), visible };
}

/** One entry of vkd3d-proton's virtual query map: destination and source indices and the next entry of its chain. */
export interface QueryMapEntry {
  dstIndex: number;
  srcIndex: number;
  /** Index of the next entry of the chain, or 0xFFFFFFFF. */
  next: number;
}

/**
 * vkd3d-proton's gather: `map` (entries, or their 12-byte packed form) lists for each D3D12 query
 * (the first `heads` entries) the virtual query results to sum; `src` holds those results packed
 * as the query type's struct. Returns `dstCount` packed results (queries not named stay zero).
 */
export function gatherVirtualQueries(
  src: Uint8Array,
  type: QueryType | string | number,
  map: Uint8Array | QueryMapEntry[],
  options: { heads: number; dstCount: number; kernels?: QueryKernels },
): Uint8Array {
  const q = counterType(type);
  const { count: srcCount } = recordRange(src, q.result.size, {}, `${q.name} (virtual)`, 'src', 'range', RANGE_KEYS);
  expectObject(options, 'options');
  expectKnownKeys(options, ['heads', 'dstCount', 'kernels'], 'options');
  // each value read once: a getter's second answer is never the one checked
  const { heads, dstCount, kernels } = options;
  const packed = Array.isArray(map) ? packQueryMap(map) : map;
  expectBytes(packed, 'map');
  if (packed.byteLength % QUERY_MAP_ENTRY.size !== 0) throw new DecodeError('truncated', packed.byteLength, 'map', `a query map is a whole number of ${QUERY_MAP_ENTRY.size}-byte entries`);
  const mapCount = packed.byteLength / QUERY_MAP_ENTRY.size;
  if (!Number.isInteger(heads) || heads < 0 || heads > mapCount) throw new DescriptionError('out-of-range', 'heads', `${typeof heads === 'number' ? `${heads} heads` : `heads: ${kindOf(heads)}`}, the map has ${mapCount} entries`);
  if (!Number.isSafeInteger(dstCount) || dstCount < 0) throw new DescriptionError('out-of-range', 'dstCount', `${typeof dstCount === 'number' ? dstCount : kindOf(dstCount)} is not a count of results`);
  // destination indices are u32 and the results are one buffer: at most what one typed array holds (2^31 - 1 bytes, as a part's size)
  if (dstCount * q.result.size > 0x7fffffff) throw new DescriptionError('out-of-range', 'dstCount', 'more than 2^31 - 1 bytes of results');
  const dst = new Uint8Array(dstCount * q.result.size);
  const status = kernelsFor(kernels, 'gatherSum', 'options.kernels').gatherSum(alignedView(src, 0, src.byteLength - (src.byteLength % 8)), srcCount, q.result.size / 8, alignedView(packed, 0, packed.byteLength), mapCount, heads, dst, dstCount);
  if (status !== 0) {
    const entry = status - 1;
    throw new DecodeError('bad-offset', entry * QUERY_MAP_ENTRY.size, `map[${entry}]`, 'index out of range, or a chain that loops');
  }
  return dst;
}

/** A query map entry's keys, in their packed order. */
const QUERY_MAP_KEYS = ['dstIndex', 'srcIndex', 'next'] as const;

/**
 * Query map entries as their packed 12-byte form.
 * @throws {DescriptionError} bad-type when `entries` is not an array of objects
 */
export function packQueryMap(entries: QueryMapEntry[]): Uint8Array {
  expectArray(entries, 'entries');
  expectObjects(entries, 'entries');
  const out = new Uint8Array(entries.length * QUERY_MAP_ENTRY.size);
  const v = new DataView(out.buffer);
  entries.forEach((e, i) => {
    expectKnownKeys(e, QUERY_MAP_KEYS, `entries[${i}]`);
    for (const key of QUERY_MAP_KEYS) {
      const x: unknown = e[key];
      if (!(Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0xffffffff)) throw new DescriptionError(x === undefined ? 'missing-key' : 'out-of-range', `entries[${i}].${key}`, 'expected a u32 (0..4294967295)');
    }
    v.setUint32(i * 12, e.dstIndex, true);
    v.setUint32(i * 12 + 4, e.srcIndex, true);
    v.setUint32(i * 12 + 8, e.next, true);
  });
  return out;
}
