/**
 * Byte map of packed query results (codecs/query.ts result structs' rows, mapped by the row
 * interpreter's recordSpans: fields and padding per result, bytes before `offset` and after the last whole result as gaps). A buffer of a million
 * results is tens of millions of spans, so callers may ask for a window: only results that
 * overlap [from, to) are recorded. See src/bytes/spans.ts.
 */
import type { QueryType } from '../../codecs/query.js';
import { Budget } from '../bytes/budget.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { readRecord, recordSpans, RowReader } from '../rows/record.js';
import { queryTypeOf, recordRange, type RecordRange } from './types.js';
import { DescriptionError } from '../bytes/errors.js';
import { expectBytes, expectObject, expectOffset } from '../bytes/check.js';

export interface QuerySpanOptions extends RecordRange {
  /** Record only spans that overlap [from, to) (default: the whole buffer); an absent end is open (from 0, to the end). */
  window?: { from?: number; to?: number };
}

/**
 * A window [from, to) of `length` bytes as given (each end a whole number from 0, `from` at most
 * `to`, compared as given; an end past the bytes is cut to them); an absent end is open. A NaN or 1.5 end
 * gave an empty map or rows at fractional offsets.
 * @throws {DescriptionError} bad-type for an end that is no whole number, out-of-range for `from` past `to`
 */
export function byteWindow(window: unknown, length: number, path: string, names: readonly [string, string] = ['from', 'to']): { from: number; to: number } {
  if (window === undefined) return { from: 0, to: length };
  expectObject(window, path);
  const end = (key: string, absent: number): number => {
    const v = window[key];
    if (v === undefined) return absent;
    expectOffset(v, `${path}.${key}`);
    return v;
  };
  // ends compared as given (an absent end is open), then cut to the bytes: {from: 32} and
  // {from: 32, to: 64} of 16 bytes are the same empty window
  const from = end(names[0], 0);
  const to = end(names[1], Infinity);
  if (from > to) throw new DescriptionError('out-of-range', `${path}.${names[0]}`, `the window starts at ${from}, after its end ${to}`);
  return { from: Math.min(from, length), to: Math.min(to, length) };
}

/** The keys of querySpans' options. */
const SPAN_KEYS: readonly string[] = ['offset', 'count', 'window'];

/**
 * Records the spans of packed results of `type`.
 * @throws {DecodeError} as decodeQueryResults for the same range
 */
export function querySpans(bytes: Uint8Array, type: QueryType | string | number, rec: SpanRecorder, options: QuerySpanOptions = {}): void {
  const q = queryTypeOf(type);
  expectBytes(bytes, 'bytes');
  const { offset, count } = recordRange(bytes, q.result.size, options, q.name, 'bytes', 'options', SPAN_KEYS);
  const window = byteWindow(options.window, bytes.byteLength, 'options.window');
  const from = window.from;
  const to = window.to;
  const rows = new RowReader(bytes, 0, Budget.for(bytes.byteLength));
  const size = q.result.size;
  const end = offset + count * size;
  const first = Math.max(0, Math.floor((from - offset) / size));
  const last = Math.min(count, Math.ceil((to - offset) / size));
  if (from < offset) rec.add('gap', from, Math.min(offset, to) - from, 'before the first result');
  for (let i = first; i < last; i++) {
    const at = offset + i * size;
    const path = `${q.cli}[${i}]`;
    recordSpans(q.result.record, readRecord(q.result.record, rows, at, path, undefined, 'plain'), rec, 0, at, path);
  }
  if (to > end) rec.add('gap', Math.max(end, from), to - Math.max(end, from), 'after the last whole result');
}
