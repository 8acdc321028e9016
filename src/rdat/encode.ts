/**
 * Description -> RDAT bytes (docs/formats/rdat.md): records are rows (codecs/rdat.ts) checked by
 * recordFromJson and written by writeRecord (src/rows/record.ts), their references stored into
 * the pools here. Pools
 * are written as described; a field whose ref still resolves to its value keeps the ref (so an
 * unedited description gives back its bytes), any other value is found in the pool or appended.
 */
import { NULL_REF, RDAT_PART_TYPE, RDAT_TABLES, RDAT_VERSION, type RdatTableName } from '../../codecs/rdat.js';
import { recordFromJson, writeRecord, type RefStore, type Row, type Stored } from '../rows/record.js';
import { DescriptionError, kindOf } from '../bytes/errors.js';
import { expectArray, expectNumber, expectObject, expectObjects, expectString } from '../bytes/check.js';
import { ByteWriter } from '../bytes/writer.js';
import { tableNames, type TableNames } from '../bytes/strings.js';
import { layoutForStride } from './decode.js';
import { hexBytes } from './hex.js';
import type { RdatDescription, RdatRecord, RdatRefs, RdatTable } from './types.js';

const UTF8 = new TextEncoder();
const PART_NAMES = new Map<string, number>([
  ['StringBuffer', RDAT_PART_TYPE.StringBuffer],
  ['IndexArrays', RDAT_PART_TYPE.IndexArrays],
  ['RawBytes', RDAT_PART_TYPE.RawBytes],
  ...(Object.keys(RDAT_TABLES) as RdatTableName[]).map((n) => [n, RDAT_TABLES[n].part] as const),
]);

function u32(value: unknown, path: string): number {
  expectNumber(value, path);
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new DescriptionError('out-of-range', path, `${value} is not a u32`);
  return value;
}

/** The pools while records are written: existing bytes, lookups built once, appended values. */
class Pools {
  strings: number[];
  arrays: number[];
  raw: number[];
  private stringIndex?: Map<string, number>;
  private arrayIndex?: Map<string, number>;
  private rawIndex = new Map<string, number>();

  /** The described pool's strings, through the one string reader (each end found in one pass, each offset decoded once). */
  private readonly described: TableNames;
  private readonly describedSize: number;
  private readonly appended = new Map<number, string>();

  constructor(strings: Uint8Array, arrays: number[], raw: Uint8Array) {
    this.strings = Array.from(strings);
    this.arrays = arrays;
    this.raw = Array.from(raw);
    this.described = tableNames(strings, strings.byteLength + 1);
    this.describedSize = strings.byteLength;
  }

  /** The string at `offset` of the pool, or undefined outside it or where no NUL ends it. */
  private stringAt(offset: number): string | undefined {
    if (!Number.isInteger(offset) || offset < 0) return undefined;
    if (offset < this.describedSize) return this.described.endOf(offset) < 0 ? undefined : this.described(offset);
    // a string appended while writing (a description names no offset inside one)
    return this.appended.get(offset);
  }

  /** Whether index array `ref` holds string offsets that read as `values` (a string array unchanged). */
  stringsAt(ref: unknown, values: readonly unknown[]): boolean {
    if (typeof ref !== 'number' || this.arrays[ref] !== values.length) return false;
    return values.every((v, i) => this.stringAt(this.arrays[ref + 1 + i]!) === v);
  }

  string(value: string, ref: unknown): number {
    if (typeof ref === 'number' && this.stringAt(ref) === value) return ref;
    if (!this.stringIndex) {
      this.stringIndex = new Map();
      for (let start = 0, end = this.described.endOf(0); end >= 0; start = end + 1, end = this.described.endOf(start)) {
        const s = this.described(start)!;
        if (!this.stringIndex.has(s)) this.stringIndex.set(s, start);
      }
    }
    let at = this.stringIndex.get(value);
    if (at === undefined) {
      at = this.strings.length;
      for (const b of UTF8.encode(value)) this.strings.push(b);
      this.strings.push(0);
      this.stringIndex.set(value, at);
      this.appended.set(at, value);
    }
    return at;
  }

  array(values: readonly number[], ref: unknown): number {
    if (typeof ref === 'number' && this.arrays[ref] === values.length && values.every((v, i) => this.arrays[ref + 1 + i] === v)) return ref;
    const key = values.join(',');
    if (!this.arrayIndex) {
      this.arrayIndex = new Map();
      for (let i = 0; i < this.arrays.length; ) {
        const n = this.arrays[i]!;
        if (n > this.arrays.length - i - 1) break;
        const k = this.arrays.slice(i + 1, i + 1 + n).join(',');
        if (!this.arrayIndex.has(k)) this.arrayIndex.set(k, i);
        i += n + 1;
      }
    }
    let at = this.arrayIndex.get(key);
    if (at === undefined) {
      at = this.arrays.length;
      this.arrays.push(values.length);
      for (const v of values) this.arrays.push(v);
      this.arrayIndex.set(key, at);
    }
    return at;
  }

  bytes(hex: string, ref: unknown, path: string): [number, number] {
    const data = hexBytes(hex, path);
    if (Array.isArray(ref) && ref.length === 2) {
      const [o, n] = ref as [number, number];
      if (n === data.length && o + n <= this.raw.length && data.every((b, i) => this.raw[o + i] === b)) return [o, n];
    }
    let at = this.rawIndex.get(hex.toLowerCase());
    if (at === undefined) {
      at = this.raw.length;
      for (const b of data) this.raw.push(b);
      while (this.raw.length % 4) this.raw.push(0);
      this.rawIndex.set(hex.toLowerCase(), at);
    }
    return [at, data.length];
  }
}

/** The pools as the row writer sees them: a reference value -> its stored word(s) (the record's `refs` kept when they still resolve). */
class PoolStore implements RefStore {
  refs: RdatRefs = {};
  constructor(private readonly pools: Pools) {}

  store(field: { key: string }, type: { ref: string }, value: unknown, path: string): Stored {
    const pools = this.pools;
    const ref = this.refs[field.key];
    switch (type.ref) {
      case 'string':
        expectString(value, path);
        return pools.string(value, ref);
      case 'record':
        return value === null ? NULL_REF : u32(value, path);
      case 'bytes':
        expectString(value, path);
        return pools.bytes(value, ref, path);
      default: {
        if (value === null) return NULL_REF;
        expectArray(value, path);
        if (type.ref === 'stringArray' && pools.stringsAt(ref, value)) return ref as number;
        const values = type.ref === 'stringArray'
          ? value.map((s, i) => {
              expectString(s, `${path}[${i}]`);
              return pools.string(s, undefined);
            })
          : value.map((v, i) => u32(v, `${path}[${i}]`));
        // A string array keeps its ref only when the strings' offsets are still the stored ones.
        return pools.array(values, ref);
      }
    }
  }
}

function writeTable(table: RdatTable, pools: Pools, path: string): Uint8Array {
  const stride = u32(table.stride, `${path}.stride`);
  const layout = layoutForStride(table.type, stride);
  if (!layout) throw new DescriptionError('out-of-range', `${path}.stride`, `stride ${stride} is shorter than any ${table.type} record`);
  expectArray(table.records, `${path}.records`);
  const out = new Uint8Array(8 + table.records.length * stride);
  const view = new DataView(out.buffer);
  view.setUint32(0, table.records.length, true);
  view.setUint32(4, stride, true);
  const store = new PoolStore(pools);
  table.records.forEach((rec, k) => {
    const rp = `${path}.records[${k}]`;
    expectObject(rec, rp);
    const row: Row = recordFromJson(layout, rec, rp);
    store.refs = (rec.refs ?? {}) as RdatRefs;
    const start = 8 + k * stride;
    writeRecord(layout, row, view, start, store, rp);
    const tail = rec.tail === undefined ? new Uint8Array(stride - layout.size) : hexBytes(String(rec.tail), `${rp}.tail`);
    if (tail.length !== stride - layout.size) throw new DescriptionError('out-of-range', `${rp}.tail`, `${tail.length} bytes; the stride leaves ${stride - layout.size}`);
    out.set(tail, start + layout.size);
  });
  return out;
}

const words = (values: readonly number[]) => {
  const out = new ByteWriter(4 * values.length + 16);
  for (const v of values) out.u32(v);
  return out.finish();
};

const pad4 = (bytes: number[]) => {
  while (bytes.length % 4) bytes.push(0);
  return Uint8Array.from(bytes);
};

/**
 * Encodes an RDAT description (from decodeRdat, possibly edited).
 * @throws {DescriptionError} a value of the wrong type or range, an unknown name or part type
 */
export function encodeRdat(description: RdatDescription): Uint8Array {
  expectObject(description, 'rdat');
  expectArray(description.parts, 'rdat.parts');
  expectObjects(description.parts, 'rdat.parts');
  const version = u32(description.version ?? RDAT_VERSION, 'rdat.version');
  const find = (type: string) => description.parts.find((p) => p.type === type) as Record<string, unknown> | undefined;
  const sb = find('StringBuffer');
  const stringBytes = !sb ? new Uint8Array() : sb.hex !== undefined ? hexBytes(String(sb.hex), 'rdat.StringBuffer.hex') : (expectArray(sb.strings, 'rdat.StringBuffer.strings'), UTF8.encode((sb.strings as string[]).join('\0')));
  const ia = find('IndexArrays');
  const arrays = ia ? (expectArray(ia.values, 'rdat.IndexArrays.values'), ia.values.map((v, i) => u32(v, `rdat.IndexArrays.values[${i}]`))) : [];
  const rb = find('RawBytes');
  const pools = new Pools(stringBytes, arrays, rb ? hexBytes(String(rb.hex), 'rdat.RawBytes.hex') : new Uint8Array());
  const stringsGiven = stringBytes.length;
  // Tables first: they may append to the pools.
  const tables = description.parts.map((p, i) => {
    expectObject(p, `rdat.parts[${i}]`);
    return typeof p.type === 'string' && p.type in RDAT_TABLES ? writeTable(p as RdatTable, pools, `rdat.parts[${i}]`) : undefined;
  });
  const data = description.parts.map((p, i): [number, Uint8Array] => {
    const path = `rdat.parts[${i}]`;
    if (tables[i]) return [PART_NAMES.get(p.type as string)!, tables[i]!];
    if (p.type === 'StringBuffer') return [RDAT_PART_TYPE.StringBuffer, pools.strings.length === stringsGiven ? Uint8Array.from(pools.strings) : pad4(pools.strings)];
    if (p.type === 'IndexArrays') return [RDAT_PART_TYPE.IndexArrays, words(pools.arrays)];
    if (p.type === 'RawBytes') return [RDAT_PART_TYPE.RawBytes, Uint8Array.from(pools.raw)];
    if (typeof p.type === 'number') return [u32(p.type, `${path}.type`), hexBytes(String((p as { hex?: unknown }).hex), `${path}.hex`)];
    throw new DescriptionError('bad-name', `${path}.type`, `${kindOf(p.type)} "${String(p.type)}" is not a part type`);
  });
  // A pool the description lacks but the records needed (values appended to it) is added at the end.
  if (!sb && pools.strings.length) data.push([RDAT_PART_TYPE.StringBuffer, pad4(pools.strings)]);
  if (!ia && pools.arrays.length) data.push([RDAT_PART_TYPE.IndexArrays, words(pools.arrays)]);
  if (!rb && pools.raw.length) data.push([RDAT_PART_TYPE.RawBytes, Uint8Array.from(pools.raw)]);
  const w = new ByteWriter();
  w.u32(version);
  w.u32(data.length);
  let at = 8 + 4 * data.length;
  for (const [, d] of data) {
    w.u32(at);
    at += 8 + d.length;
  }
  for (const [type, d] of data) {
    w.u32(type);
    w.u32(d.length);
    w.bytes(d);
  }
  return w.finish();
}

