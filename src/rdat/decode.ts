/**
 * RDAT bytes -> description (docs/formats/rdat.md). The records are rows (codecs/rdat.ts) read by
 * the one row interpreter (src/rows/record.ts readRecord) in the rows' JSON form (recordToJson:
 * an enumerated field's number with `<key>Name` beside it, as parts give); this file walks the
 * framing (header, parts, pools, table counts and strides) and resolves the records' references
 * into the pools. Every table is read by its stored stride, every reference bounds-checked; bad input is a DecodeError
 * naming the byte offset and field. Parts must lie end to end after the offset table, as DXC
 * writes them, so that the description keeps every byte.
 */
import { NULL_REF, RDAT_PART_TYPE, RDAT_TABLES, RDAT_VERSION, type RdatTableName } from '../../codecs/rdat.js';
import type { RecordDef } from '../../codecs/rows.js';
import { readRecord, recordToJson, RowReader, type RefResolver, type Stored } from '../rows/record.js';
import { DecodeError } from '../bytes/errors.js';
import { limitKeys, budgetOf } from '../bytes/budget.js';
import { expectBytes, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { ByteReader } from '../bytes/reader.js';
import { tableNames } from '../bytes/strings.js';
import { toHex } from './hex.js';
import { expectBase, PART_NAMES } from './check.js';
import type { RdatDecodeOptions, RdatDescription, RdatPartDescription, RdatRecord, RdatRefs, RdatValue } from './types.js';

const TABLE_BY_PART = new Map<number, RdatTableName>((Object.keys(RDAT_TABLES) as RdatTableName[]).map((name) => [RDAT_TABLES[name].part, name]));
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const NAMES_BY_TYPE = new Map<number, string>(Array.from(PART_NAMES, ([name, type]) => [type, name]));
/** ` (FunctionTable)` for a part type dxbin names. */
const partName = (type: number) => (NAMES_BY_TYPE.has(type) ? ` (${NAMES_BY_TYPE.get(type)})` : '');

/** The record layout a table's stride picks: the newest whose size fits. */
export function layoutForStride(table: RdatTableName, stride: number): RecordDef | undefined {
  let hit: RecordDef | undefined;
  for (const layout of RDAT_TABLES[table].layouts) if (layout.size <= stride) hit = layout;
  return hit;
}

/** Stored size of a record layout (fields and union). */
export function recordSize(layout: RecordDef): number {
  return layout.size;
}

/** A part of an RDAT blob: its type, where its data starts (relative to the blob) and its size. */
export interface RdatPartAt {
  type: number;
  at: number;
  size: number;
}
type PartAt = RdatPartAt;

/**
 * The header checks and part table of an RDAT blob (version, parts end to end, no type twice).
 * @throws {DecodeError} malformed bytes
 */
export function rdatParts(bytes: Uint8Array, base = 0): RdatPartAt[] {
  expectBytes(bytes, 'bytes');
  expectBase(base);
  return rdatPartsOf(new ByteReader(bytes, base), bytes.byteLength);
}

function rdatPartsOf(r: ByteReader, length: number): RdatPartAt[] {
  const base = r.base;
  const version = r.u32(0, 'RDAT.version');
  if (version !== RDAT_VERSION) throw new DecodeError('unsupported-version', base, 'RDAT.version', `RDAT version 0x${version.toString(16)}, expected 0x10`);
  const count = r.u32(4, 'RDAT.partCount');
  r.needArray(8, count, 4, 'RDAT.partOffsets');
  const parts: RdatPartAt[] = [];
  const types = new Map<number, number>(); // part type -> where its part starts
  let next = 8 + 4 * count;
  for (let i = 0; i < count; i++) {
    const at = r.u32(8 + 4 * i, `RDAT.partOffsets[${i}]`);
    if (at !== next) throw new DecodeError('part-layout', base + 8 + 4 * i, `RDAT.partOffsets[${i}]`, `part ${i} starts at ${at}; parts lie end to end, so it must start at ${next}`);
    const type = r.u32(at, `RDAT.parts[${i}].type`);
    const size = r.u32(at + 4, `RDAT.parts[${i}].size`);
    r.need(at + 8, size, `RDAT.parts[${i}]`);
    const first = types.get(type);
    // DXC's reader (DxilRuntimeReflection.inl InitFromRDAT) keeps the last part of a type: one would be ignored
    if (first !== undefined) throw new DecodeError('duplicate-part', base + at, `RDAT.parts[${i}].type`, `a second part of type ${type}${partName(type)} at byte ${base + at}; the first is at byte ${base + first} (DXC's reader would keep the last, dxbin refuses the ambiguity)`);
    types.set(type, at);
    parts.push({ type, at: at + 8, size });
    next = at + 8 + size;
  }
  if (next !== length) throw new DecodeError('part-layout', base + next, 'RDAT', `${length - next} bytes after the last part`);
  return parts;
}

/**
 * Decodes an RDAT part's data.
 * @param base absolute offset of `bytes[0]` in the caller's file, for messages
 * @throws {DecodeError} malformed bytes
 * @throws {DescriptionError} bad-type: options that are not an object, a `base` that is no whole number from 0, bytes that are no Uint8Array or whose buffer is detached
 * @throws {LimitError} limit-exceeded past the budget's `resolve` kind (`maxResolved`: shared references fan out)
 */
export function decodeRdat(bytes: Uint8Array, base = 0, options: RdatDecodeOptions = {}): RdatDescription {
  expectBytes(bytes, 'bytes');
  expectBase(base);
  expectOptionKeys(options, limitKeys('sharedArrays'));
  const r = new ByteReader(bytes, base);
  const budget = budgetOf(options, bytes.byteLength);
  const spend = (n: number, at: number, path: string) => budget.charge('resolve', n, path, base + at);
  // one array per stored index array when asked (records naming one list share it)
  const shared = options.sharedArrays === true ? new Map<string, RdatValue>() : undefined;
  const parts = rdatPartsOf(r, bytes.byteLength);
  const pool = (type: number) => parts.find((p) => p.type === type);
  const strings = pool(RDAT_PART_TYPE.StringBuffer);
  const arrays = pool(RDAT_PART_TYPE.IndexArrays);
  const raw = pool(RDAT_PART_TYPE.RawBytes);
  const arrayWords = arrays ? Math.floor(arrays.size / 4) : 0;
  const tableCounts = new Map<RdatTableName, number>();
  for (const p of parts) {
    const name = TABLE_BY_PART.get(p.type);
    if (name && p.size >= 8) tableCounts.set(name, r.u32(p.at, `RDAT.${name}.recordCount`));
  }

  const names = strings ? tableNames(bytes.subarray(strings.at, strings.at + strings.size), Infinity) : undefined;
  const string = (offset: number, path: string, at: number): string => {
    if (!strings || !names || offset >= strings.size) throw new DecodeError('bad-offset', base + at, path, `string offset ${offset} outside the ${strings?.size ?? 0}-byte string buffer`);
    if (names.endOf(offset) < 0) throw new DecodeError('truncated', base + strings.at + offset, path, 'string without NUL terminator');
    const s = names(offset)!;
    spend(s.length + 1, at, path);
    return s;
  };
  const indexArray = (ref: number, path: string, at: number): number[] => {
    if (!arrays || ref >= arrayWords) throw new DecodeError('bad-offset', base + at, path, `index array ${ref} outside the ${arrayWords}-element IndexArrays part`);
    const n = r.u32(arrays.at + 4 * ref, path);
    if (n > arrayWords - ref - 1) throw new DecodeError('count-exceeds-data', base + arrays.at + 4 * ref, path, `${n} elements, only ${arrayWords - ref - 1} left`);
    spend(n + 1, at, path);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = r.u32(arrays.at + 4 * (ref + 1 + i), path);
    return out;
  };
  const recordIndex = (table: RdatTableName, index: number, path: string, at: number) => {
    const n = tableCounts.get(table) ?? 0;
    if (index >= n) throw new DecodeError('bad-offset', base + at, path, `record ${index} of the ${n}-record ${table}`);
  };

  // the records' references, resolved into the pools (the stored ones kept in `refs` for the writer)
  let refs: RdatRefs = {};
  const resolver: RefResolver = {
    resolve(field, type, stored: Stored, at, path): RdatValue {
      const key = field.key;
      if (type.ref === 'string') {
        refs[key] = stored as number;
        return string(stored as number, path, at);
      }
      if (type.ref === 'bytes') {
        const [offset, size] = stored as readonly [number, number];
        if (!raw || offset > raw.size || size > raw.size - offset) throw new DecodeError('bad-offset', base + at, path, `bytes ${offset}+${size} outside the ${raw?.size ?? 0}-byte RawBytes part`);
        refs[key] = [offset, size];
        spend(2 * size, at, path);
        return toHex(bytes.subarray(raw.at + offset, raw.at + offset + size));
      }
      const v = stored as number;
      if (v === NULL_REF) return null;
      if (type.ref === 'record') {
        recordIndex(type.of as RdatTableName, v, path, at);
        return v;
      }
      refs[key] = v;
      if (!shared) return arrayField(type.ref, type.of as RdatTableName | undefined, v, path, at);
      // sharedArrays: records naming one stored list share one array, resolved once
      const sharedKey = `${type.ref} ${type.of ?? ''} ${v}`;
      const seen = shared.get(sharedKey);
      if (seen) {
        spend(1, at, path);
        return seen;
      }
      const value = arrayField(type.ref, type.of as RdatTableName | undefined, v, path, at);
      shared.set(sharedKey, value);
      return value;
    },
  };
  const arrayField = (ref: string, of: RdatTableName | undefined, v: number, path: string, at: number): RdatValue => {
    const values = indexArray(v, path, at);
    if (ref === 'stringArray') return values.map((o, i) => string(o, `${path}[${i}]`, at));
    if (ref === 'recordArray') values.forEach((x, i) => recordIndex(of!, x, `${path}[${i}]`, at));
    return values;
  };
  const rows = new RowReader(bytes, base, budget, resolver);

  const readTable = (name: RdatTableName, p: PartAt, i: number): RdatPartDescription => {
    const n = r.u32(p.at, `RDAT.${name}.recordCount`);
    const stride = r.u32(p.at + 4, `RDAT.${name}.recordStride`);
    const layout = layoutForStride(name, stride);
    if (!layout) throw new DecodeError('truncated', base + p.at + 4, `RDAT.${name}.recordStride`, `stride ${stride} is shorter than the ${RDAT_TABLES[name].layouts[0]!.size}-byte record`);
    r.needArray(p.at + 8, n, stride, `RDAT.${name}`);
    if (8 + n * stride !== p.size) throw new DecodeError('part-layout', base + p.at, `RDAT.parts[${i}]`, `a ${p.size}-byte part holds ${n} records of ${stride} bytes (${8 + n * stride} bytes)`);
    const size = layout.size;
    const records: RdatRecord[] = [];
    for (let k = 0; k < n; k++) {
      const start = p.at + 8 + k * stride;
      refs = {};
      const rec = recordToJson(readRecord(layout, rows, start, `RDAT.${name}[${k}]`)) as RdatRecord;
      if (stride > size) {
        const tail = bytes.subarray(start + size, start + stride);
        if (tail.some((b) => b !== 0)) rec.tail = toHex(tail);
      }
      if (Object.keys(refs).length) rec.refs = refs;
      records.push(rec);
    }
    return { type: name, stride, records };
  };

  const out: RdatPartDescription[] = parts.map((p, i) => {
    const data = bytes.subarray(p.at, p.at + p.size);
    if (p.type === RDAT_PART_TYPE.StringBuffer) {
      try {
        return { type: 'StringBuffer', strings: UTF8.decode(data).split('\0') };
      } catch {
        return { type: 'StringBuffer', hex: toHex(data) };
      }
    }
    if (p.type === RDAT_PART_TYPE.IndexArrays) {
      if (p.size % 4 !== 0) throw new DecodeError('part-layout', base + p.at - 4, `RDAT.parts[${i}].size`, `IndexArrays of ${p.size} bytes, not whole u32 words`);
      return { type: 'IndexArrays', values: Array.from({ length: p.size / 4 }, (_, k) => r.u32(p.at + 4 * k, `RDAT.IndexArrays[${k}]`)) };
    }
    if (p.type === RDAT_PART_TYPE.RawBytes) return { type: 'RawBytes', hex: toHex(data) };
    const table = TABLE_BY_PART.get(p.type);
    if (table) return readTable(table, p, i);
    return { type: p.type, hex: toHex(data) };
  });
  return { version: RDAT_VERSION, parts: out };
}
