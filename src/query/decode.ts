/**
 * Exact decode and encode of query results: one result to named fields, or N packed results to
 * caller-sized columns (a BigUint64Array per field, filled through 32-bit halves, no BigInt per
 * value). `toFloat64` gives a Float64Array view of a column for callers that accept rounding
 * above 2^53.
 */
import type { QueryType, ResultField } from '../../codecs/query.js';
import { DescriptionError } from '../bytes/errors.js';
import { Budget } from '../bytes/budget.js';
import { readRecord, RowReader } from '../rows/record.js';
import { checkDisjoint, queryTypeOf, RANGE_KEYS, recordRange, type RecordRange } from './types.js';
import { pathKey, quoted } from '../bytes/text.js';
import { expectAttached, expectBytes, expectObject, expectObjects, kindOf } from '../bytes/check.js';

/** Query results as columns: for each field of the result struct, the values of every result. */
export interface QueryColumns {
  type: QueryType;
  count: number;
  /** D3D12 field name (dotted for nested: FrameRate.Numerator) -> values. */
  columns: Record<string, BigUint64Array>;
}

/** One result at `offset`: field name -> exact value (the struct's rows read by src/rows/record.ts). */
export function decodeQueryResult(bytes: Uint8Array, type: QueryType | string | number, offset = 0): Record<string, bigint> {
  const q = queryTypeOf(type);
  expectBytes(bytes, 'bytes');
  recordRange(bytes, q.result.size, { offset, count: 1 }, q.name, 'bytes', 'range', RANGE_KEYS);
  const row = readRecord(q.result.record, new RowReader(bytes, 0, Budget.for(q.result.size)), offset, q.name, undefined, 'plain');
  const out: Record<string, bigint> = {};
  for (const f of q.result.fields) out[f.name] = BigInt(row[f.name] as number | bigint);
  return out;
}

/** The keys of decodeQueryResults' range. */
const DECODE_KEYS: readonly string[] = ['offset', 'count', 'into'];

/** N packed results (as ResolveQueryData writes them) into columns; `into` reuses caller columns. */
export function decodeQueryResults(
  bytes: Uint8Array,
  type: QueryType | string | number,
  range: RecordRange & { into?: Record<string, BigUint64Array> } = {},
): QueryColumns {
  const q = queryTypeOf(type);
  expectBytes(bytes, 'bytes');
  const { offset, count } = recordRange(bytes, q.result.size, range, q.name, 'bytes', 'range', DECODE_KEYS);
  const into = range.into === undefined ? undefined : checkInto(range.into, q, bytes);
  const words = q.result.size / 4;
  const src = new DataView(bytes.buffer, bytes.byteOffset + offset, count * q.result.size);
  const columns: Record<string, BigUint64Array> = {};
  for (const f of q.result.fields) {
    const column = into?.get(f.name) ?? new BigUint64Array(count);
    if (column.length < count) throw new DescriptionError('out-of-range', `range.into.${f.name}`, `column holds ${column.length} values, ${count} needed`);
    fillColumn(src, words, f, count, new Uint32Array(column.buffer, column.byteOffset, count * 2));
    columns[f.name] = column;
  }
  return { type: q, count, columns };
}

/**
 * `bytes` a Uint8Array whose buffer is not detached (src/bytes/check.ts expectBytes, the one
 * check). Not in src/query/types.ts: the query kernels bundle has no room for it
 * (test/bundle-size.test.ts).
 * @throws {DescriptionError} bad-type when `bytes` is not a Uint8Array or its buffer is detached
 */

/** A check that a key names a field of `q` (unknown-key at `path` otherwise: a misspelled key would read or write nothing). */
function fieldCheck(q: QueryType): (key: string, path: string) => void {
  const names = new Set(q.result.fields.map((f) => f.name));
  return (key, path) => {
    if (!names.has(key)) throw new DescriptionError('unknown-key', path, `no field ${quoted(key)} in ${q.name}`);
  };
}

/**
 * Caller columns: each a BigUint64Array of a field the type has, none sharing bytes with another
 * or with the input; the columns as read once (a getter's next answer is never the one written).
 */
function checkInto(into: unknown, q: QueryType, bytes: Uint8Array): Map<string, BigUint64Array> {
  expectObject(into, 'range.into');
  const field = fieldCheck(q);
  const columns: [string, ArrayBufferView][] = [];
  const given = new Map<string, BigUint64Array>();
  for (const [name, column] of Object.entries(into)) {
    const path = `range.into${pathKey(name)}`;
    field(name, path);
    if (column === undefined) continue;
    if (!(column instanceof BigUint64Array)) throw new DescriptionError('bad-type', path, `expected a BigUint64Array, got ${kindOf(column)}`);
    // a transferred column reads as 0 values: no room to write (and no view of it can be made)
    expectAttached(column, path);
    columns.push([path, column]);
    given.set(name, column);
  }
  checkDisjoint([bytes], columns);
  return given;
}

function fillColumn(src: DataView, words: number, f: ResultField, count: number, out: Uint32Array): void {
  const stride = words * 4;
  for (let i = 0, at = f.offset; i < count; i++, at += stride) {
    out[2 * i] = src.getUint32(at, true);
    out[2 * i + 1] = f.size === 8 ? src.getUint32(at + 4, true) : 0;
  }
}

/** A column as doubles (exact up to 2^53, rounded to nearest above). */
export function toFloat64(column: BigUint64Array): Float64Array {
  if (!(column instanceof BigUint64Array)) throw new DescriptionError('bad-type', 'column', `expected a BigUint64Array, got ${kindOf(column)}`);
  expectAttached(column, 'column');
  const halves = new Uint32Array(column.buffer, column.byteOffset, column.length * 2);
  const out = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) out[i] = halves[2 * i + 1]! * 4294967296 + halves[2 * i]!;
  return out;
}

/** Columns (or per-result records) back to packed bytes; padding is written as zero. */
export function encodeQueryResults(type: QueryType | string | number, data: Record<string, ArrayLike<bigint>> | Record<string, bigint>[]): Uint8Array {
  const q = queryTypeOf(type);
  if (!Array.isArray(data)) expectObject(data, 'data');
  const records = Array.isArray(data);
  if (records) expectObjects(data, 'data');
  // every key a field of the type (a misspelled one wrote nothing), every column an array or typed array (its length real)
  const unknown = fieldCheck(q);
  if (records) (data as Record<string, unknown>[]).forEach((r, i) => Object.keys(r).forEach((k) => unknown(k, `data[${i}]${pathKey(k)}`)));
  else
    for (const [k, column] of Object.entries(data)) {
      unknown(k, `data${pathKey(k)}`);
      if (column !== undefined && !Array.isArray(column) && !(column instanceof BigUint64Array || column instanceof BigInt64Array)) throw new DescriptionError('bad-type', `data${pathKey(k)}`, `expected an array of bigints, got ${kindOf(column)}`);
      // a transferred column reads as 0 values: encoded as none, without a word
      if (ArrayBuffer.isView(column)) expectAttached(column, `data${pathKey(k)}`);
    }
  const count = records ? data.length : Math.max(0, ...q.result.fields.map((f) => (data as Record<string, ArrayLike<bigint>>)[f.name]?.length ?? 0));
  const out = new Uint8Array(count * q.result.size);
  const view = new DataView(out.buffer);
  for (const f of q.result.fields) {
    for (let i = 0; i < count; i++) {
      const value = records ? (data as Record<string, bigint>[])[i]![f.name] : (data as Record<string, ArrayLike<bigint>>)[f.name]?.[i];
      if (value === undefined) throw new DescriptionError('missing-key', `${records ? `[${i}]` : ''}${f.name}`, `no value for ${f.name}`);
      const max = f.size === 8 ? 0xffffffffffffffffn : 0xffffffffn;
      if (typeof value !== 'bigint' || value < 0n || value > max) throw new DescriptionError('out-of-range', `${f.name}[${i}]`, `${String(value)} does not fit in ${f.size * 8} bits`);
      const at = i * q.result.size + f.offset;
      view.setUint32(at, Number(value & 0xffffffffn), true);
      if (f.size === 8) view.setUint32(at + 4, Number(value >> 32n), true);
    }
  }
  return out;
}
