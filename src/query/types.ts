/** Finding query types by the names users write, and the byte checks every operation shares. */
import { QUERY_TYPES, RESOLVE_OFFSET_ALIGNMENT, type QueryType } from '../../codecs/query.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { expectBytes, expectKnownKeys, expectOptions, kindOf } from '../bytes/check.js';

/** `timestamp`, `TIMESTAMP`, `D3D12_QUERY_TYPE_TIMESTAMP` or 2. */
export function queryType(given: string | number): QueryType {
  if (typeof given !== 'string' && typeof given !== 'number') throw new DescriptionError('bad-type', 'type', `expected a query type name or value, got ${kindOf(given)}`);
  const key = typeof given === 'string' ? given.replace(/^D3D12_QUERY_TYPE_/i, '').toUpperCase().replace(/-/g, '_') : given;
  const hit = QUERY_TYPES.find((q) => q.value === key || q.name === key);
  // the name given is not shown: escaping it (src/bytes/text.ts quoted) would not fit the query kernels bundle's budget, and
  // JSON.stringify leaves U+2028 and bidi controls raw and is unbounded; the caller has it, the known names are listed
  if (!hit) throw new DescriptionError('bad-name', 'type', `unknown query type (known: ${QUERY_TYPES.map((q) => q.cli).join(', ')})`);
  return hit;
}

/**
 * A query type given as a QUERY_TYPES row, a name or a value (what every operation takes).
 * @throws {DescriptionError} bad-name for an unknown name or value, bad-type for anything else (an object that is no QUERY_TYPES row)
 */
export function queryTypeOf(type: QueryType | string | number): QueryType {
  if (typeof type !== 'object') return queryType(type);
  if (type !== null && (QUERY_TYPES as readonly unknown[]).includes(type)) return type;
  // a row of another copy of the library (its ES and CommonJS builds in one program): our row of that
  // name and layout size. Any other object is refused: its own fields were read with no offsets
  const given = type as { name?: unknown; result?: { size?: unknown } } | null;
  const row = typeof given?.name === 'string' ? QUERY_TYPES.find((q) => q.name === given.name) : undefined;
  if (row && given!.result?.size === row.result.size) return row;
  throw new DescriptionError('bad-type', 'type', `expected a query type (a QUERY_TYPES row, name or value), got ${kindOf(type)}`);
}

/** The keys of a range with the kernels that run it (what sumQueryResults, soOverflow and occlusionToBinary take). */
export const RANGE_KEYS: readonly string[] = ['offset', 'count', 'kernels'];

/** Which results of a buffer: from a byte offset, how many. */
export interface RecordRange {
  /** Byte offset of the first result; a multiple of 8, as ResolveQueryData requires. */
  offset?: number;
  /** Number of results; default: every whole result after `offset`. */
  count?: number;
}

/**
 * Checks a range of packed results and returns where it is; a DecodeError names what is wrong.
 * `arg` names the bytes argument and `rangeArg` the range in a DescriptionError bad-type for the
 * wrong type of either.
 */
export function recordRange(bytes: Uint8Array, size: number, range: RecordRange, what: string, arg: string, rangeArg: string, keys: readonly string[]): { offset: number; count: number } {
  expectBytes(bytes, arg);
  expectOptions(range, rangeArg);
  // a misspelt key (`{ ofset: 8 }`, `{ pair: false }`) would be read as absent: a default taken without a word
  expectKnownKeys(range, keys, rangeArg);
  // each value read once: a getter's second answer is never the one checked
  const given = { offset: range.offset, count: range.count };
  for (const k of ['offset', 'count'] as const) if (given[k] !== undefined && typeof given[k] !== 'number') throw new DescriptionError('bad-type', `${rangeArg}.${k}`, `expected a number, got ${kindOf(given[k])}`);
  const offset = given.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset % RESOLVE_OFFSET_ALIGNMENT !== 0) {
    throw new DecodeError('bad-offset', offset, `${what}.offset`, `offset ${offset} is not a multiple of ${RESOLVE_OFFSET_ALIGNMENT} (ResolveQueryData's AlignedDestinationBufferOffset)`);
  }
  if (offset > bytes.byteLength) throw new DecodeError('bad-offset', offset, `${what}.offset`, `offset ${offset} is past the end (${bytes.byteLength} bytes)`);
  const count = given.count ?? Math.floor((bytes.byteLength - offset) / size);
  if (!Number.isSafeInteger(count) || count < 0) throw new DecodeError('count-exceeds-data', offset, `${what}.count`, `bad count ${count}`);
  if (count * size > bytes.byteLength - offset) {
    throw new DecodeError('count-exceeds-data', offset, what, `${count} results of ${size} bytes need ${count * size} bytes, only ${bytes.byteLength - offset} left`);
  }
  return { offset, count };
}

/**
 * Refuses outputs that share bytes with each other or with the inputs (a later write would
 * change what an earlier one wrote or what is still to be read): `views` in order, each with its
 * path; the first that meets one before it (or an input) is named, DescriptionError out-of-range.
 */
export function checkDisjoint(inputs: readonly ArrayBufferView[], outputs: readonly (readonly [string, ArrayBufferView])[]): void {
  const seen: ArrayBufferView[] = [...inputs];
  for (const [path, v] of outputs) {
    for (const w of seen) if (v.buffer === w.buffer && v.byteLength && w.byteLength && v.byteOffset < w.byteOffset + w.byteLength && w.byteOffset < v.byteOffset + v.byteLength) throw new DescriptionError('out-of-range', path, 'shares bytes with an input or another output');
    seen.push(v);
  }
}

/** The bytes [offset, offset + length) as an 8-byte-aligned view (copied only when misaligned). */
export function alignedView(bytes: Uint8Array, offset: number, length: number): Uint8Array {
  const view = bytes.subarray(offset, offset + length);
  return view.byteOffset % 8 === 0 ? view : view.slice();
}

/** The spellings of every query type the CLI and `queryType` accept, from the codecs table. */
export function queryTypeNames(): string[] {
  return QUERY_TYPES.map((q) => q.cli);
}
