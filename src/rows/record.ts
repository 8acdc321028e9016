/**
 * The one interpreter of codecs/rows.ts: any `RecordDef` is read, written, turned into its JSON
 * form and back, mapped to byte spans and mutated by the functions here. Every read goes through
 * `RowReader.need` (one bounds check) and charges the call's work budget (`resolve`: one per
 * record, one per string byte looked at).
 */
import { SCALAR_SIZE, fieldWidth, type Field, type FieldType, type FloatScalar, type RecordDef, type RefType, type Scalar, type SubField, type UnionType } from '../../codecs/rows.js';
import { Budget, type Where } from '../bytes/budget.js';
import { DecodeError, DescriptionError, kindOf } from '../bytes/errors.js';
import { expectObject } from '../bytes/check.js';
import { readNul } from '../bytes/strings.js';
import { enumName, enumValue, floatFromJson, floatToJson } from '../json/vocabulary.js';
import { checkNanBits, f32Bits, f32FromBits, keepNanBitsOf, nanBitsOf } from '../bytes/f32.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { bytesHex } from '../bytes/hex.js';
import { quoted } from '../bytes/text.js';

/** A decoded record: field keys (and the derived `<key>Name`, `<key>Names`, `<key>Offset`, subfield keys) to values. */
export type Row = Record<string, unknown>;

/** The bytes a record is read from: one bounds check, one budget. */
export class RowReader {
  readonly view: DataView;
  /**
   * @param bytes  the data (a part's data); offsets are relative to its first byte
   * @param base   absolute offset of bytes[0], for messages and spans
   * @param budget the call's work budget
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly base: number,
    readonly budget: Budget,
    /** Resolves reference fields (RefType); without one a reference reads as its stored word(s). */
    readonly refs?: RefResolver,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Throws truncated unless [offset, offset + size) lies inside the bytes. */
  need(offset: number, size: number, path: string): void {
    if (!(offset >= 0) || offset > this.bytes.byteLength || size > this.bytes.byteLength - offset) {
      throw new DecodeError('truncated', this.base + Math.max(0, Math.min(offset, this.bytes.byteLength)), path, `needs ${size} byte${size === 1 ? '' : 's'} at ${offset}, the data has ${this.bytes.byteLength}`);
    }
  }

  /** Charges `n` resolved elements to the budget. */
  charge(n: number, where: Where): void {
    this.budget.charge('resolve', n, where, undefined);
  }

  scalar(t: Scalar | FloatScalar, at: number, path: string): number | bigint {
    this.need(at, SCALAR_SIZE[t], path);
    return scalarAt(this.view, t, at);
  }
}

/** What a reference field stores: a u32, or offset and size for `bytes`. */
export type Stored = number | readonly [offset: number, size: number];

/** A format's pools as readRecord sees them: a reference field's stored word(s) -> its value. */
export interface RefResolver {
  /**
   * @param at data offset of the field (for messages: add the reader's base)
   * @throws {DecodeError} a reference outside its pool or table
   */
  resolve(field: Field, type: RefType, stored: Stored, at: number, path: string): unknown;
}

/** A format's pools as writeRecord sees them: a reference field's value -> the word(s) to store. */
export interface RefStore {
  /** @throws {DescriptionError} a value of the wrong type for the reference */
  store(field: Field, type: RefType, value: unknown, path: string): Stored;
}

/**
 * What a row holds beside the stored values: `derived` (default) names beside (`<key>Name`,
 * `<key>Names`, subfields), the row recordToJson turns into the JSON form; `plain` stored values
 * only (PSV0's typed description; rowToJson gives its JSON form).
 */
export type RowStyle = 'derived' | 'plain';

const UTF8 = new TextDecoder();

const widthOf = (t: FieldType): Scalar | FloatScalar | undefined => (typeof t === 'string' ? (t === 'fourcc' ? undefined : t) : 'width' in t ? t.width : 'packed' in t ? t.packed : undefined);

/** Reads a scalar whose bounds the record's own check covered. */
function scalarAt(v: DataView, t: Scalar | FloatScalar, at: number): number | bigint {
  switch (t) {
    case 'f32':
      return v.getFloat32(at, true);
    case 'u8':
      return v.getUint8(at);
    case 'u16':
      return v.getUint16(at, true);
    case 'u32':
      return v.getUint32(at, true);
    case 'i32':
      return v.getInt32(at, true);
    case 'u64':
      return v.getBigUint64(at, true);
  }
}

/** Where a record's bytes went: fixed slots and inline strings, as [start, end) relative to the data. */
export type Extent = readonly [start: number, end: number];

/**
 * Reads one record at `at`. `extents` (when given) receives the byte ranges the record's fixed
 * slots occupy. Strings are views: inline ones and those read through an offset stay in the
 * part's kept bytes, which is where they are written back from. `style` says what the row holds
 * beside the stored values (RowStyle). Reference fields go through the reader's resolver.
 * @throws {DecodeError} truncated, bad-offset for a string offset outside the data (and what the resolver throws)
 * @throws {LimitError} limit-exceeded when the budget runs out
 */
export function readRecord(def: RecordDef, r: RowReader, at: number, path: string, extents?: Extent[], style: RowStyle = 'derived'): Row {
  r.need(at, def.size, path);
  r.charge(1, path);
  const out: Row = {};
  readFields(def.fields, r, at, at + def.size, path, out, extents, style);
  return out;
}

function readFields(fields: readonly Field[], r: RowReader, at: number, end: number, path: string, out: Row, extents: Extent[] | undefined, style: RowStyle): void {
  let cursor = end;
  for (const f of fields) {
    const t = f.type;
    const fAt = f.at === 'after' ? cursor : at + f.at;
    if (typeof t === 'string' && t !== 'fourcc') {
      // the common case: a plain integer inside the record's checked bytes (no path built)
      const v = (out[f.key] = scalarAt(r.view, t, fAt));
      if (v !== v) keepNanBitsOf(out, f.key, r.view.getUint32(fAt, true)); // an f32 NaN's payload
      extents?.push([fAt, fAt + SCALAR_SIZE[t]]);
      continue;
    }
    if (typeof t === 'object' && 'packed' in t) {
      const v = scalarAt(r.view, t.packed, fAt);
      extents?.push([fAt, fAt + SCALAR_SIZE[t.packed]]);
      for (const s of t.subfields) out[s.key] = subfieldOf(v, s);
      if (style === 'derived') deriveNames(t, f.key, v, out);
      continue;
    }
    const fp = `${path}.${f.key}`;
    if (typeof t === 'object' && 'ref' in t) {
      const stored: Stored = t.ref === 'bytes' ? [r.view.getUint32(fAt, true), r.view.getUint32(fAt + 4, true)] : r.view.getUint32(fAt, true);
      extents?.push([fAt, fAt + (t.ref === 'bytes' ? 8 : 4)]);
      out[f.key] = r.refs ? r.refs.resolve(f, t, stored, fAt, fp) : stored;
      continue;
    }
    if (typeof t === 'object' && 'union' in t) {
      readUnion(fields, t, r, fAt, path, out, extents, style, f.key);
      continue;
    }
    if (typeof t === 'object' && 'string' in t) {
      if (t.string === 'table-offset') {
        const offset = r.scalar('u32', fAt, fp) as number;
        extents?.push([fAt, fAt + 4]);
        if (offset >= r.bytes.byteLength) throw new DecodeError('bad-offset', r.base + fAt, fp, `string offset ${offset} is outside the ${r.bytes.byteLength} bytes of the data`);
        out[f.key] = readNul(r.bytes, offset, r.budget, fp).text;
        out[`${f.key}Offset`] = offset;
        continue;
      }
      if (t.string === 'nul') {
        if (fAt >= r.bytes.byteLength) {
          out[f.key] = '';
          continue;
        }
        const s = readNul(r.bytes, fAt, r.budget, fp);
        out[f.key] = s.text;
        cursor = s.end + (s.terminated ? 1 : 0);
        continue;
      }
      const n = out[t.count] as number;
      r.need(fAt, n, fp);
      r.charge(n, fp);
      out[f.key] = UTF8.decode(r.bytes.subarray(fAt, fAt + n));
      cursor = fAt + n;
      continue;
    }
    if (t === 'fourcc') {
      r.need(fAt, 4, fp);
      const b = r.bytes;
      out[f.key] = String.fromCharCode(b[fAt]!, b[fAt + 1]!, b[fAt + 2]!, b[fAt + 3]!);
      extents?.push([fAt, fAt + 4]);
      continue;
    }
    if ('bytes' in t) {
      r.need(fAt, t.bytes, fp);
      const b = r.bytes.slice(fAt, fAt + t.bytes);
      out[f.key] = b;
      extents?.push([fAt, fAt + t.bytes]);
      continue;
    }
    const w = widthOf(t)!;
    const v = r.scalar(w, fAt, fp);
    extents?.push([fAt, fAt + SCALAR_SIZE[w]]);
    out[f.key] = v;
    if (style === 'derived') deriveNames(t, f.key, v, out);
  }
}

/**
 * What a `derived` row holds beside an integer field's stored value `v`: `<key>Name` of an enum
 * value the table names, `<key>Names` of flag bits, subfields (of a word that keeps them) and the
 * names of enumerated subfields.
 */
function deriveNames(t: FieldType, key: string, v: number | bigint, out: Row): void {
  if (typeof t !== 'object') return;
  if ('enum' in t) {
    const name = enumName(t.enum, Number(v));
    if (typeof name === 'string') out[`${key}Name`] = name;
  } else if ('flags' in t) out[`${key}Names`] = flagNames(t.flags, v);
  else if ('subfields' in t) {
    const keep = !('packed' in t);
    for (const s of t.subfields) {
      const sv = subfieldOf(v, s);
      if (keep) out[s.key] = sv;
      if (s.enum) {
        const name = enumName(s.enum, sv);
        if (typeof name === 'string') out[`${s.key}Name`] = name;
      }
    }
  }
}

/** The stored value of the field a union is picked by (a scalar or enum of the same field list). */
function unionSelector(fields: readonly Field[], u: UnionType, view: DataView, recordAt: number): number | undefined {
  const by = fields.find((x) => x.key === u.union.by);
  const w = by && typeof by.at === 'number' ? widthOf(by.type) : undefined;
  return w === undefined || w === 'u64' ? undefined : (scalarAt(view, w, recordAt + (by!.at as number)) as number);
}

/** Where a union's case ends (bytes from the union's start). */
const caseEnd = (fields: readonly Field[]) => fields.reduce((n, f) => Math.max(n, (f.at as number) + (fieldWidth(f.type) ?? 0)), 0);

function readUnion(fields: readonly Field[], t: UnionType, r: RowReader, fAt: number, path: string, out: Row, extents: Extent[] | undefined, style: RowStyle, key: string): void {
  const recordAt = fAt - (fields.find((x) => x.type === t)!.at as number);
  const chosen = t.union.cases[unionSelector(fields, t, r.view, recordAt) ?? -1] ?? [];
  readFields(chosen, r, fAt, fAt + t.union.size, path, out, extents, style);
  const rest = r.bytes.subarray(fAt + caseEnd(chosen), fAt + t.union.size);
  if (rest.some((b) => b !== 0)) out[`${key}Rest`] = rest.slice();
}

const subfieldOf = (v: number | bigint, s: SubField): number =>
  typeof v === 'number' && s.shift + s.width <= 32 ? (s.width === 32 ? v >>> 0 : (v >>> s.shift) & ((1 << s.width) - 1)) : Number((BigInt(v) >> BigInt(s.shift)) & ((1n << BigInt(s.width)) - 1n));

/** The names of the set bits of `v` in table order; bits the table lacks as `bitN`. */
export function flagNames(table: readonly { bit: number; name: string }[], v: number | bigint): string[] {
  const value = BigInt(v);
  const names: string[] = [];
  let rest = value;
  for (const { bit, name } of table) {
    const m = 1n << BigInt(bit);
    if (value & m) {
      names.push(name);
      rest &= ~m;
    }
  }
  for (let bit = 0; rest !== 0n && bit < 64; bit++) {
    const m = 1n << BigInt(bit);
    if (rest & m) {
      names.push(`bit${bit}`);
      rest &= ~m;
    }
  }
  return names;
}

/** The value a field writes: the word with its subfields put back, for subfield types. */
function wordOf(f: Field, row: Row): number | bigint {
  const t = f.type;
  if (typeof t === 'object' && 'packed' in t) {
    let w = 0n;
    for (const s of t.subfields) w |= (BigInt(row[s.key] as number) & ((1n << BigInt(s.width)) - 1n)) << BigInt(s.shift);
    return t.packed === 'u64' ? w : Number(w);
  }
  const v = row[f.key] as number | bigint;
  if (typeof t !== 'object' || !('subfields' in t)) return v;
  let w = BigInt(v);
  for (const s of t.subfields) {
    const sv = row[s.key];
    if (typeof sv !== 'number') continue;
    const mask = ((1n << BigInt(s.width)) - 1n) << BigInt(s.shift);
    w = (w & ~mask) | ((BigInt(sv) << BigInt(s.shift)) & mask);
  }
  return typeof v === 'bigint' ? w : Number(w);
}

/**
 * Writes a record's fixed slots into `out` at `at` (inline strings and the strings an offset
 * points at are not written here: they are part of the kept bytes, src/parts/). Reference fields
 * store what `refs` gives for their values; a union writes the case its selector picks and then
 * `<key>Rest` (zeros when absent). The row holds stored values (recordFromJson's or readRecord's
 * `derived`/`plain` rows).
 * A NaN's kept bits (`nanBits`) are written as they are: a row from anywhere but those readers
 * is checked first (checkRow, which checks them as src/bytes/f32.ts checkNanBits does).
 * @throws {DescriptionError} what `refs` throws for a reference value
 */
export function writeRecord(def: RecordDef, row: Row, out: DataView, at: number, refs?: RefStore, path: string = def.name): void {
  writeFields(def.fields, row, out, at, refs, path);
}

/** The fields of the case of union `t` that `row`'s selector picks (none for a selector that is no case). */
export function unionCase(t: UnionType, row: Row): readonly Field[] {
  const by = row[t.union.by];
  return t.union.cases[typeof by === 'number' ? by : -1] ?? [];
}

/**
 * Whether a key is an f32 field of the record `fields` make of `row` (a union's fields as its
 * selector in `row` picks them): the keys the one nanBits check takes (checkRow, rowToJson).
 * Made only for a row with `nanBits`.
 */
function f32KeysOf(fields: readonly Field[], row: Row): (key: string) => boolean {
  const keys = new Set<string>();
  const walk = (list: readonly Field[]): void => {
    for (const f of list) {
      const t = f.type;
      if (t === 'f32') keys.add(f.key);
      else if (typeof t === 'object' && 'union' in t) {
        walk(unionCase(t, row)); // nested as the definition is, not the input
      }
    }
  };
  walk(fields);
  return (key) => keys.has(key);
}

function writeFields(fields: readonly Field[], row: Row, out: DataView, at: number, refs: RefStore | undefined, path: string): void {
  for (const f of fields) {
    if (f.at === 'after') continue;
    const t = f.type;
    const o = at + f.at;
    if (typeof t === 'object' && 'string' in t) {
      if (t.string === 'table-offset') out.setUint32(o, row[`${f.key}Offset`] as number, true);
      continue;
    }
    if (typeof t === 'object' && 'ref' in t) {
      const value = row[f.key];
      const stored = refs ? refs.store(f, t, value, `${path}.${f.key}`) : (value as Stored);
      if (typeof stored === 'number') out.setUint32(o, stored >>> 0, true);
      else {
        out.setUint32(o, stored[0] >>> 0, true);
        out.setUint32(o + 4, stored[1] >>> 0, true);
      }
      continue;
    }
    if (typeof t === 'object' && 'union' in t) {
      const chosen = unionCase(t, row);
      writeFields(chosen, row, out, o, refs, path);
      const rest = row[`${f.key}Rest`] as Uint8Array | undefined;
      const from = caseEnd(chosen);
      for (let i = from; i < t.union.size; i++) out.setUint8(o + i, rest?.[i - from] ?? 0);
      continue;
    }
    if (t === 'fourcc') {
      const s = row[f.key] as string;
      for (let i = 0; i < 4; i++) out.setUint8(o + i, s.charCodeAt(i) & 0xff);
      continue;
    }
    if (typeof t === 'object' && 'bytes' in t) {
      const b = row[f.key] as Uint8Array;
      for (let i = 0; i < t.bytes; i++) out.setUint8(o + i, b[i] ?? 0);
      continue;
    }
    if (t === 'f32') {
      const x = row[f.key] as number;
      out.setUint32(o, x === x ? f32Bits(x) : nanBitsOf(x, row, f.key), true);
      continue;
    }
    const w = widthOf(t)!;
    const v = wordOf(f, row);
    switch (w) {
      case 'u8':
        out.setUint8(o, Number(v));
        break;
      case 'u16':
        out.setUint16(o, Number(v), true);
        break;
      case 'u32':
        out.setUint32(o, Number(v) >>> 0, true);
        break;
      case 'i32':
        out.setInt32(o, Number(v), true);
        break;
      case 'u64':
        out.setBigUint64(o, BigInt(v), true);
        break;
    }
  }
}

/**
 * The byte ranges writeRecord writes for a record at `at` (relative to the data), pushed to `out`:
 * the same fixed slots a read's `extents` receives (inline strings and a union's rest are the
 * kept bytes'), so a writer can check that records and kept bytes tile a part before writing.
 */
export function recordExtents(def: RecordDef, row: Row, at: number, out: Extent[]): Extent[] {
  extentFields(def.fields, row, at, out);
  return out;
}

function extentFields(fields: readonly Field[], row: Row, at: number, out: Extent[]): void {
  for (const f of fields) {
    if (f.at === 'after') continue;
    const t = f.type;
    const o = at + f.at;
    if (typeof t === 'object' && 'union' in t) {
      extentFields(unionCase(t, row), row, o, out);
      continue;
    }
    const w = fieldWidth(t); // undefined: an inline string (the kept bytes')
    if (w !== undefined) out.push([o, o + w]);
  }
}

/** Lowercase hex of bytes: the JSON forms' byte runs. */
export const hex = bytesHex;

/**
 * A record's JSON form: integers as numbers (a u64 past 2^53 as a decimal string), byte fields as
 * hex, names beside; a float JSON cannot hold (NaN, an infinity, -0: only f32 fields hold them)
 * as floatToJson spells it, a NaN with the bits `nanBits` kept for it (which is left out).
 * @throws {DescriptionError} bad-type for a row that is not an object; `nanBits` that are not a
 *   NaN's bits for a field whose value is NaN (src/bytes/f32.ts checkNanBits: they would be spelled
 *   as another value, 0x3f800000 reading back as 1)
 */
export function recordToJson(row: Row): Record<string, unknown> {
  expectRow(row);
  const out: Record<string, unknown> = {};
  const nanBits = row.nanBits;
  // without the definition, a field whose value is NaN is an f32 field (no other holds a NaN)
  if (nanBits !== undefined) checkNanBits(row, ANY_KEY, 'row');
  for (const [k, v] of Object.entries(row)) {
    let j: unknown;
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) {
      // a NaN's kept bits: an own number of nanBits only (not an inherited `constructor`)
      const bits = nanBits && Object.hasOwn(nanBits, k) ? (nanBits as Row)[k] : undefined;
      j = floatToJson(v, typeof bits === 'number' ? bits : undefined);
    } else if (k === 'nanBits') continue;
    else j = typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v instanceof Uint8Array ? hex(v) : v;
    // a key "__proto__" (a row from a JSON text keeps it as its own key) is a key here too, not the prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value: j, enumerable: true, writable: true, configurable: true });
    else out[k] = j;
  }
  return out;
}

const ANY_KEY = (): boolean => true;

/** A row argument of the JSON writers: an object. @throws {DescriptionError} bad-type */
function expectRow(row: unknown): asserts row is Row {
  expectObject(ArrayBuffer.isView(row) ? [] : row, 'row'); // bytes are no record (their indexes would be its keys)
}

/**
 * The JSON form of a row of stored values only (a `plain` read, a typed description such as
 * PSV0's): the names a `derived` read puts beside them added, then recordToJson, so it is the
 * form a `derived` read of the same bytes gives. Values that are not integers are left as given.
 * @throws {DescriptionError} bad-type for a row that is not an object; not-representable at
 *   `<path>.nanBits.<key>` for `nanBits` that are not a NaN's bits for an f32 field of `def` that is NaN
 */
export function rowToJson(def: RecordDef, row: Row, path: string = def.name): Record<string, unknown> {
  expectRow(row);
  if (row.nanBits !== undefined) checkNanBits(row, f32KeysOf(def.fields, row), path);
  const out: Row = { ...row };
  const named = (fields: readonly Field[]) => {
    for (const f of fields) {
      const t = f.type;
      if (typeof t === 'object' && 'union' in t) {
        named(unionCase(t, row));
        continue;
      }
      const packed = typeof t === 'object' && 'packed' in t;
      // an integer field's -0 is 0 (recordToJson spells a -0 as the float it can only be in an f32 field)
      if (t !== 'f32') for (const k of packed ? t.subfields.map((x) => x.key) : [f.key]) if (out[k] === 0) out[k] = 0;
      if (packed && !t.subfields.every((x) => Number.isInteger(row[x.key]))) continue;
      const v = packed ? wordOf(f, row) : row[f.key];
      if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') deriveNames(t, f.key, v, out);
    }
  };
  named(def.fields);
  return recordToJson(out);
}

const LIMIT: Readonly<Record<Scalar, [number, number]>> = { u8: [0, 0xff], u16: [0, 0xffff], u32: [0, 0xffffffff], i32: [-0x80000000, 0x7fffffff], u64: [0, Number.MAX_SAFE_INTEGER] };

/** A packed subfield's value: an integer that fits its bits. */
function subfieldInt(v: unknown, s: SubField, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', path, `expected an integer, got ${kindOf(v)}`);
  const hi = 2 ** s.width - 1;
  if (v < 0 || v > hi) throw new DescriptionError('out-of-range', path, `${v} is outside 0..${hi}`);
  return v;
}

function jsonInt(v: unknown, w: Scalar, path: string): number | bigint {
  if (w === 'u64' && typeof v === 'string' && /^\d{1,20}$/.test(v)) {
    const b = BigInt(v);
    if (b < 1n << 64n) return b;
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', path, `expected an integer, got ${kindOf(v)}`);
  const [lo, hi] = LIMIT[w];
  if (v < lo || v > hi) throw new DescriptionError('out-of-range', path, `${v} is outside ${lo}..${hi}`);
  return w === 'u64' ? BigInt(v) : v + 0; // + 0: an integer is never -0 (recordToJson spells -0 as a float)
}

/**
 * A record from its JSON form: the written values are read and checked (names, which are derived,
 * must name their values: checkGivenNames); `<key>Offset` for strings read through an offset.
 * @throws {DescriptionError} bad-type, missing-key, out-of-range naming the field; bad-name for a name beside a value that does not name it
 */
export function recordFromJson(def: RecordDef, json: unknown, path: string): Row {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DescriptionError('bad-type', path, `expected an object, got ${kindOf(json)}`);
  const j = json as Record<string, unknown>;
  const out: Row = { ...j };
  if (out.nanBits !== undefined) delete out.nanBits; // a NaN's bits are in its spelling (recordToJson)
  fieldsFromJson(def.fields, j, out, path);
  return out;
}

/** Bytes of hex text (either case; `n` bytes when given). @throws {DescriptionError} bad-type for other text */
export function hexToBytes(s: unknown, n: number | undefined, path: string): Uint8Array {
  if (typeof s !== 'string' || s.length % 2 !== 0 || (n !== undefined && s.length !== 2 * n) || !/^[0-9a-fA-F]*$/.test(s)) {
    throw new DescriptionError('bad-type', path, n === undefined ? 'expected bytes as hex' : `expected ${n} bytes as hex`);
  }
  return Uint8Array.from({ length: s.length / 2 }, (_, i) => parseInt(s.slice(2 * i, 2 * i + 2), 16));
}

function fieldsFromJson(fields: readonly Field[], j: Record<string, unknown>, out: Row, path: string): void {
  for (const f of fields) {
    const t = f.type;
    const fp = `${path}.${f.key}`;
    if (typeof t === 'object' && 'ref' in t) {
      // the value's shape here, in field order; the format's RefStore finds or adds it in its pools
      const v = j[f.key];
      const ok = t.ref === 'string' || t.ref === 'bytes' ? typeof v === 'string' : t.ref === 'record' ? v === null || typeof v === 'number' : v === null || Array.isArray(v);
      if (!ok) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', fp, `expected ${t.ref === 'string' ? 'a string' : t.ref === 'bytes' ? 'bytes as hex' : t.ref === 'record' ? 'a record index or null' : 'an array or null'}, got ${kindOf(v)}`);
      continue;
    }
    if (typeof t === 'object' && 'union' in t) {
      const chosen = unionCase(t, out);
      fieldsFromJson(chosen, j, out, path);
      const rest = j[`${f.key}Rest`];
      if (rest !== undefined) {
        const left = t.union.size - caseEnd(chosen);
        const b = hexToBytes(rest, undefined, `${fp}Rest`);
        if (b.byteLength !== left) throw new DescriptionError('out-of-range', `${fp}Rest`, `${b.byteLength} bytes; the union leaves ${left}`);
        out[`${f.key}Rest`] = b;
      }
      continue;
    }
    if (typeof t === 'object' && 'string' in t) {
      if (t.string === 'table-offset') out[`${f.key}Offset`] = jsonInt(j[`${f.key}Offset`], 'u32', `${fp}Offset`);
      else if (typeof j[f.key] !== 'string') throw new DescriptionError('bad-type', fp, `expected a string, got ${kindOf(j[f.key])}`);
      continue;
    }
    if (t === 'fourcc') {
      const s = j[f.key];
      if (typeof s !== 'string' || s.length !== 4) throw new DescriptionError('bad-type', fp, `expected four characters, got ${kindOf(s)}`);
      continue;
    }
    if (typeof t === 'object' && 'bytes' in t) {
      out[f.key] = hexToBytes(j[f.key], t.bytes, fp);
      continue;
    }
    if (typeof t === 'object' && 'packed' in t) {
      for (const s of t.subfields) out[s.key] = subfieldInt(j[s.key], s, `${path}.${s.key}`);
      continue;
    }
    if (t === 'f32') {
      if (j[f.key] === undefined) throw new DescriptionError('missing-key', fp, 'expected a number');
      const x = floatFromJson(j[f.key], fp);
      out[f.key] = x.value;
      if (x.nanBits !== undefined) ((out.nanBits ??= {}) as Row)[f.key] = x.nanBits;
      continue;
    }
    const w = widthOf(t) as Scalar; // an integer: f32 went above
    const given = j[f.key];
    // an enum value may be given by name (a description written by hand)
    out[f.key] = typeof t === 'object' && 'enum' in t && typeof given === 'string' ? enumValue(t.enum, given, fp) : jsonInt(given, w, fp);
    if (typeof t === 'object' && 'subfields' in t) {
      for (const s of t.subfields) if (j[s.key] !== undefined) out[s.key] = jsonInt(j[s.key], s.width > 16 ? 'u32' : 'u16', `${path}.${s.key}`);
    }
    checkGivenNames(t, f.key, out[f.key] as number | bigint, j, path);
  }
}

/**
 * The names a JSON form gives beside an integer field (`<key>Name`, `<key>Names`, an enumerated
 * subfield's `<sub>Name`) name its value, as a read of the value would derive them: a name that
 * disagrees (a `shaderStageName` "Pixel" beside 5, a name left stale by an edit of the value) is
 * ambiguous, and was taken for display while the value was written.
 * @throws {DescriptionError} bad-name at the name's key
 */
function checkGivenNames(t: FieldType, key: string, v: number | bigint, j: Record<string, unknown>, path: string): void {
  if (typeof t !== 'object' || !('enum' in t || 'flags' in t || 'subfields' in t)) return;
  const derived: Row = {};
  deriveNames(t, key, v, derived);
  const names = 'enum' in t ? [`${key}Name`] : 'flags' in t ? [`${key}Names`] : t.subfields.filter((x) => x.enum).map((x) => `${x.key}Name`);
  for (const k of names) {
    const given = j[k];
    if (given === undefined) continue;
    const want = derived[k];
    const same = Array.isArray(want) ? Array.isArray(given) && given.length === want.length && want.every((n, i) => given[i] === n) : given === want;
    if (!same) throw new DescriptionError('bad-name', `${path}.${k}`, `${quoted(given)} does not name ${key} ${String(v)}${want === undefined ? ' (its table has no name for it)' : ` (${Array.isArray(want) ? want.join('|') || 'no flags' : String(want)})`}: edit ${key} itself, and give ${k} as it names the value or not at all`);
  }
}

/** How recordSpans maps a record. */
export interface RecordSpanOptions {
  /** Whether a `record` span covers the record (default true; false for a view over bytes another record maps). */
  readonly record?: boolean;
  /** A field's label beside its value (a string an offset names), by key. */
  readonly label?: Readonly<Record<string, (value: number) => string | undefined>>;
}

/** Records the byte spans of a record read at `at` (data offset; `base` makes them absolute). */
export function recordSpans(def: RecordDef, row: Row, rec: SpanRecorder, base: number, at: number, path: string, options: RecordSpanOptions = {}): void {
  if (options.record !== false) rec.add('record', base + at, def.size, path, undefined, def.name);
  spanFields(def.fields, row, rec, base, at, path, options);
}

function spanFields(fields: readonly Field[], row: Row, rec: SpanRecorder, base: number, at: number, path: string, options: RecordSpanOptions): void {
  for (const f of fields) {
    const t = f.type;
    const fp = `${path}.${f.key}`;
    const v = row[f.key];
    if (typeof t === 'object' && 'ref' in t) {
      // the stored words (a row read without a resolver)
      const o = base + at + (f.at as number);
      if (Array.isArray(v)) {
        rec.field(o, 4, `${fp}.Offset`, v[0] as number);
        rec.field(o + 4, 4, `${fp}.Size`, v[1] as number);
      } else rec.field(o, 4, fp, typeof v === 'number' ? v : undefined);
      continue;
    }
    if (typeof t === 'object' && 'union' in t) {
      const chosen = unionCase(t, row);
      const o = at + (f.at as number);
      spanFields(chosen, row, rec, base, o, path, options);
      const used = caseEnd(chosen);
      if (used < t.union.size) rec.add('padding', base + o + used, t.union.size - used, `${path} (${f.key} rest)`);
      continue;
    }
    if (typeof t === 'object' && 'packed' in t) {
      // bit fields sharing a slot: one span naming each
      const o = base + at + (f.at as number);
      const word = wordOf(f, row);
      rec.field(o, SCALAR_SIZE[t.packed], `${path}.{${t.subfields.map((s) => s.key).join(',')}}`, word, t.subfields.map((s) => `${s.key}=${String(row[s.key])}`).join(' '));
      continue;
    }
    if (t === 'f32') {
      // the stored word, named by the float as the JSON form spells it
      const x = v as number;
      const bits = x === x ? f32Bits(x) : nanBitsOf(x, row, f.key);
      rec.field(base + at + (f.at as number), 4, fp, bits, String(floatToJson(x, bits)));
      continue;
    }
    if (typeof t === 'object' && 'string' in t) {
      if (t.string === 'table-offset') {
        rec.field(base + at + (f.at as number), 4, fp, row[`${f.key}Offset`] as number, v as string);
        continue;
      }
      continue; // inline strings are kept bytes (mapped as the part's kept data)
    }
    const o = base + at + (f.at as number);
    const width = fieldWidth(t)!;
    if (f.reserved) {
      rec.add('padding', o, width, fp);
      continue;
    }
    const label = options.label?.[f.key];
    const named = typeof t === 'object' && 'enum' in t ? enumName(t.enum, Number(v)) : undefined;
    const name =
      label !== undefined ? label(Number(v)) : typeof named === 'string' ? named : typeof t === 'object' && 'flags' in t ? flagNames(t.flags, v as number | bigint).join('|') : undefined;
    rec.field(o, width, fp, v instanceof Uint8Array ? hex(v) : (v as number | bigint | string), name);
  }
}

/** A copy of `row` with one fixed integer field set to a value drawn from `random` (the fuzz mutator's step). */
export function mutateRecord(def: RecordDef, row: Row, random: () => number): Row {
  const ints = def.fields.filter((f) => widthOf(f.type) !== undefined);
  if (ints.length === 0) return row;
  const f = ints[Math.floor(random() * ints.length)]!;
  const pt = f.type;
  if (typeof pt === 'object' && 'packed' in pt) {
    const s = pt.subfields[Math.floor(random() * pt.subfields.length)]!;
    return { ...row, [s.key]: Math.floor(random() * 2 ** s.width) };
  }
  if (pt === 'f32') {
    // the binary32 as 0, a NaN with a payload, or with one bit flipped (a NaN keeps its bits)
    const x = row[f.key] as number;
    const pick = Math.floor(random() * 4);
    const bits = pick === 0 ? 0 : pick === 1 ? 0x7fa00001 : ((x === x ? f32Bits(x) : nanBitsOf(x, row, f.key)) ^ (1 << Math.floor(random() * 32))) >>> 0;
    const out: Row = { ...row, [f.key]: f32FromBits(bits) };
    const kept = { ...(row.nanBits as Row | undefined) };
    delete kept[f.key];
    out.nanBits = kept;
    keepNanBitsOf(out, f.key, bits);
    if (Object.keys(kept).length === 0) delete out.nanBits;
    return out;
  }
  const w = widthOf(f.type)!;
  const bitsN = SCALAR_SIZE[w] * 8;
  const pick = Math.floor(random() * 4);
  const r32 = Math.floor(random() * 0x100000000);
  let v: number | bigint;
  if (w === 'u64') v = pick === 0 ? 0n : pick === 1 ? (1n << 64n) - 1n : BigInt(row[f.key] as bigint) ^ (1n << BigInt(r32 % 64));
  else {
    const max = w === 'i32' ? 0x7fffffff : 2 ** bitsN - 1;
    v = pick === 0 ? 0 : pick === 1 ? max : (Number(row[f.key]) ^ (1 << (r32 % bitsN))) >>> 0;
    if (w === 'i32') v = v | 0;
    else v = Math.min(Number(v), max);
  }
  const out = { ...row, [f.key]: v };
  // subfields follow the word
  const t = f.type;
  if (typeof t === 'object' && 'subfields' in t) for (const s of t.subfields) out[s.key] = subfieldOf(v, s);
  return out;
}

/**
 * Checks that `row` holds what `writeRecord` writes for `def` (numbers or bigints for integers,
 * four characters for a FourCC, bytes for byte fields, `<key>Offset` for strings read through an
 * offset, `nanBits` a NaN's bits for each f32 field that is NaN: src/bytes/f32.ts checkNanBits).
 * @throws {DescriptionError} bad-type or out-of-range naming the field; not-representable naming a `nanBits` entry
 */
export function checkRow(def: RecordDef, row: unknown, path: string): asserts row is Row {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new DescriptionError('bad-type', path, `expected a record, got ${kindOf(row)}`);
  checkFields(def.fields, row as Row, path);
  if ((row as Row).nanBits !== undefined) checkNanBits(row as Row, f32KeysOf(def.fields, row as Row), path);
}

function checkFields(fields: readonly Field[], r: Row, path: string): void {
  for (const f of fields) {
    if (f.at === 'after') continue;
    const t = f.type;
    const fp = `${path}.${f.key}`;
    if (typeof t === 'object' && 'ref' in t) continue;
    if (typeof t === 'object' && 'union' in t) {
      checkFields(unionCase(t, r), r, path);
      continue;
    }
    if (typeof t === 'object' && 'string' in t) {
      if (t.string === 'table-offset') jsonInt(r[`${f.key}Offset`], 'u32', `${fp}Offset`);
      continue;
    }
    const v = r[f.key];
    if (t === 'fourcc') {
      if (typeof v !== 'string' || v.length !== 4) throw new DescriptionError('bad-type', fp, `expected four characters, got ${kindOf(v)}`);
      continue;
    }
    if (typeof t === 'object' && 'bytes' in t) {
      if (!(v instanceof Uint8Array) || v.byteLength !== t.bytes) throw new DescriptionError('bad-type', fp, `expected ${t.bytes} bytes, got ${kindOf(v)}`);
      continue;
    }
    if (typeof t === 'object' && 'packed' in t) {
      for (const s of t.subfields) subfieldInt(r[s.key], s, `${path}.${s.key}`);
      continue;
    }
    if (t === 'f32') {
      if (typeof v !== 'number') throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', fp, `expected a number, got ${kindOf(v)}`);
      continue;
    }
    const w = widthOf(t) as Scalar; // an integer: f32 went above
    if (typeof v === 'bigint') {
      if (v < 0n || v >= 1n << BigInt(SCALAR_SIZE[w] * 8)) throw new DescriptionError('out-of-range', fp, `${v} does not fit ${w}`);
    } else jsonInt(v, w, fp);
    if (typeof t === 'object' && 'subfields' in t) for (const s of t.subfields) if (r[s.key] !== undefined) jsonInt(r[s.key], 'u32', `${path}.${s.key}`);
  }
}
