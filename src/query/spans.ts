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

export interface QuerySpanOptions extends RecordRange {
  /** Record only spans that overlap [from, to) (default: the whole buffer). */
  window?: { from: number; to: number };
}

/**
 * Records the spans of packed results of `type`.
 * @throws {DecodeError} as decodeQueryResults for the same range
 */
export function querySpans(bytes: Uint8Array, type: QueryType | string | number, rec: SpanRecorder, options: QuerySpanOptions = {}): void {
  const q = queryTypeOf(type);
  const { offset, count } = recordRange(bytes, q.result.size, options, q.name);
  const from = Math.max(0, options.window?.from ?? 0);
  const to = Math.min(bytes.byteLength, options.window?.to ?? bytes.byteLength);
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
