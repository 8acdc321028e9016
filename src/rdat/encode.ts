/**
 * Description -> RDAT bytes (docs/formats/rdat.md): records are rows (codecs/rdat.ts) checked by
 * recordFromJson and written by writeRecord (src/rows/record.ts), their references stored into
 * the pools here. Pools
 * are written as described; a field whose ref still resolves to its value keeps the ref (so an
 * unedited description gives back its bytes), any other value is found in the pool or appended.
 */
import { NULL_REF, RDAT_PART_TYPE, RDAT_VERSION, type RdatTableName } from '../../codecs/rdat.js';
import type { RecordDef } from '../../codecs/rows.js';
import { quoted } from '../bytes/text.js';
import { recordFromJson, writeRecord, type RefStore, type Row, type Stored } from '../rows/record.js';
import { DescriptionError } from '../bytes/errors.js';
import { budgetOf, WORK_KINDS, type Budget, type WorkLimits } from '../bytes/budget.js';
import { expectKnownKeys, expectObject, expectOptions, expectString } from '../bytes/check.js';
import { ByteWriter } from '../bytes/writer.js';
import { tableNames, type TableNames } from '../bytes/strings.js';
import { checkedParts, checkedRefs, checkRecordKeys, denseArray, isTableName, MAX_PART_BYTES, PART_NAMES, u32 } from './check.js';
import { layoutForStride } from './decode.js';
import { hexBytes } from './hex.js';
import type { RdatDescription, RdatRecord, RdatRefs, RdatTable } from './types.js';

const UTF8 = new TextEncoder();

/** Options of encodeRdat: the work budget (docs/limits.md). */
export interface RdatEncodeOptions extends WorkLimits {
  /**
   * The call's work budget: every table's bytes (records x stride) are charged to it as `resolve`
   * before the table is made; by default `Budget.for(the description's own bytes, these limits)`,
   * where a record object counts its stride once however many places of the records hold it, and
   * the pools count their bytes (8 x that + 1024). A description built from decodeRdat or JSON
   * holds each record once and always fits; one that repeats a record object is refused past
   * eight times its own bytes.
   */
  budget?: Budget;
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

  /** Runs already stored, by their hex text and the ref given: records sharing one string (in memory) parse and compare it once. */
  private readonly bytesDone = new Map<string, Map<string, [number, number]>>();

  /** Whether a record stored a byte run (an empty one too: the decoder reads it only in a RawBytes part). */
  rawUsed = false;

  bytes(hex: string, ref: unknown, path: string): [number, number] {
    this.rawUsed = true;
    const key = Array.isArray(ref) && ref.length === 2 ? `${String(ref[0])},${String(ref[1])}` : '';
    let done = this.bytesDone.get(hex);
    const hit = done?.get(key);
    if (hit) return hit;
    const out = this.storeBytes(hex, ref, path);
    if (!done) this.bytesDone.set(hex, (done = new Map()));
    done.set(key, out);
    return out;
  }

  private storeBytes(hex: string, ref: unknown, path: string): [number, number] {
    const data = hexBytes(hex, path);
    if (Array.isArray(ref) && ref.length === 2) {
      const [o, n] = ref as [unknown, unknown];
      // a stored run kept only where it lies in the pool and holds these bytes (an offset of -5 or 1.5 is none)
      if (n === data.length && Number.isInteger(o) && (o as number) >= 0 && (o as number) + n <= this.raw.length && data.every((b, i) => this.raw[(o as number) + i] === b)) return [o as number, n];
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
        expectPoolString(value, path);
        return pools.string(value, ref);
      case 'record':
        return value === null ? NULL_REF : u32(value, path);
      case 'bytes':
        expectString(value, path);
        return pools.bytes(value, ref, path);
      default: {
        if (value === null) return NULL_REF;
        // records sharing one array (decodeRdat's sharedArrays gives one per stored list) store it
        // once: the pools only grow, so the same array and ref give the same words again
        const key = `${type.ref} ${typeof ref === 'number' ? ref : '-'}`;
        let done = this.lists.get(value);
        const hit = done?.get(key);
        if (hit !== undefined) return hit;
        const out = this.storeList(type.ref, value, ref, path);
        if (!done) this.lists.set(value, (done = new Map()));
        done.set(key, out);
        return out;
      }
    }
  }

  /** Arrays already stored, by the array and the kind and ref they were stored with. */
  private readonly lists = new Map<unknown, Map<string, Stored>>();

  private storeList(kind: string, value: unknown, ref: unknown, path: string): Stored {
    const pools = this.pools;
    const list = denseArray(value, path, (MAX_PART_BYTES >>> 2) - 1, '4 bytes');
    if (kind === 'stringArray' && pools.stringsAt(ref, list)) return ref as number;
    const values = kind === 'stringArray'
      ? list.map((s, i) => {
          expectString(s, `${path}[${i}]`);
          expectPoolString(s, `${path}[${i}]`);
          return pools.string(s, undefined);
        })
      : list.map((v, i) => u32(v, `${path}[${i}]`));
    // A string array keeps its ref only when the strings' offsets are still the stored ones.
    return pools.array(values, ref);
  }
}

/** The keys a record of `layout` may hold (checkRecordKeys: any other would be dropped, so it is refused); a name beside an enumerated value must name it. */
function checkKeys(layout: RecordDef, rec: Record<string, unknown>, row: Row, path: string): void {
  checkRecordKeys(layout, rec, row, path, () => `a ${layout.name} record${union(layout, row)}`);
}

/** ` of kind N` for a record whose union a field picks (the keys allowed depend on it). */
function union(layout: RecordDef, row: Row): string {
  const u = layout.fields.find((f) => typeof f.type === 'object' && 'union' in f.type)?.type as { union: { by: string } } | undefined;
  return u ? ` of ${u.union.by} ${quoted(row[u.union.by])}` : '';
}

/** The keys of a part by its type: any other would be dropped (a misspelled `strings` made an empty pool), so it is refused; so are `strings` and `hex` together. */
function checkPartKeys(p: Record<string, unknown>, path: string): void {
  const allowed = isTableName(p.type) ? TABLE_KEYS : p.type === 'StringBuffer' ? STRING_BUFFER_KEYS : p.type === 'IndexArrays' ? INDEX_ARRAYS_KEYS : HEX_KEYS;
  expectKnownKeys(p, allowed, path, { form: () => `a ${quoted(p.type)} part`, undefinedIsAbsent: true });
  if (p.type === 'StringBuffer' && p.hex !== undefined && p.strings !== undefined) throw new DescriptionError('unknown-key', `${path}.strings`, 'a StringBuffer is given by `strings` or by `hex`, not both (one would be lost)');
}
const TABLE_KEYS = ['type', 'stride', 'records'];
const DESCRIPTION_KEYS = ['version', 'parts'];
/** The WorkLimits options (`maxResolved`, ...), one per work kind. */
const LIMIT_OPTIONS = (): string[] => Object.values(WORK_KINDS).map((k) => k.option);
const STRING_BUFFER_KEYS = ['type', 'strings', 'hex'];
const INDEX_ARRAYS_KEYS = ['type', 'values'];
const HEX_KEYS = ['type', 'hex'];

/** A table part's stride and records, checked (the stride names a layout; the records fit the part, without holes). */
function tableOf(table: Record<string, unknown>, name: RdatTableName, path: string): { stride: number; layout: RecordDef; records: readonly unknown[] } {
  const stride = u32(table.stride, `${path}.stride`);
  const layout = layoutForStride(name, stride);
  if (!layout) throw new DescriptionError('out-of-range', `${path}.stride`, `stride ${stride} is shorter than any ${name} record`);
  // the size first: the records' bytes must fit the part (a u32 size), before any loop over them
  const records = denseArray(table.records, `${path}.records`, Math.floor((MAX_PART_BYTES - 8) / stride), `${stride} bytes`);
  return { stride, layout, records };
}

/**
 * A table's own bytes: for each record object once (however many places hold it), its layout's
 * bytes and the tail it gives. A tail it does not give is zero-filled up to the stride: that is
 * made, not given, so a stride of 4 GB on one record is charged as 4 GB of work, not owned.
 */
function ownTableBytes(stride: number, layout: RecordDef, records: readonly unknown[]): number {
  const seen = new Set<unknown>();
  let own = 8;
  for (const r of records) {
    if (seen.has(r)) continue;
    seen.add(r);
    const tail = (r as { tail?: unknown } | null)?.tail;
    own += layout.size + (typeof tail === 'string' ? Math.min(tail.length >>> 1, stride - layout.size) : 0);
  }
  return own;
}

function writeTable(table: ReturnType<typeof tableOf>, pools: Pools, budget: Budget, path: string): Uint8Array {
  const { stride, layout, records } = table;
  // the bytes written charged before they are made: a record object repeated 10^7 times is refused, not a 440 MB table
  budget.charge('resolve', 8 + records.length * stride, `${path}.records`);
  const out = new Uint8Array(8 + records.length * stride);
  const view = new DataView(out.buffer);
  view.setUint32(0, records.length, true);
  view.setUint32(4, stride, true);
  const store = new PoolStore(pools);
  records.forEach((rec, k) => {
    const rp = `${path}.records[${k}]`;
    expectObject(rec, rp);
    const row: Row = recordFromJson(layout, rec, rp);
    checkKeys(layout, rec, row, rp);
    // the stored references checked here, where they are taken: a plain object of the record's pool fields, numbers ([offset, size] for bytes)
    store.refs = checkedRefs(layout, row, rec.refs, `${rp}.refs`, () => `the refs of a ${layout.name} record${union(layout, row)}`);
    const start = 8 + k * stride;
    writeRecord(layout, row, view, start, store, rp);
    const tail = rec.tail === undefined ? new Uint8Array(stride - layout.size) : hexBytes(rec.tail, `${rp}.tail`);
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

/** The StringBuffer of a description's `strings` (joined by NUL as UTF-8): strings only, no holes, within a part's size. */
function stringBuffer(strings: unknown, path: string): Uint8Array {
  const list = denseArray(strings, path, MAX_PART_BYTES, '1 byte or more');
  const encoded: Uint8Array[] = [];
  let size = 0;
  list.forEach((s, i) => {
    expectString(s, `${path}[${i}]`);
    expectPoolString(s, `${path}[${i}]`);
    const b = UTF8.encode(s);
    size += b.byteLength + (i > 0 ? 1 : 0);
    if (size > MAX_PART_BYTES) throw new DescriptionError('out-of-range', `${path}[${i}]`, `the strings so far take ${size} bytes; a part holds at most ${MAX_PART_BYTES}`);
    encoded.push(b);
  });
  const out = new Uint8Array(size);
  let at = 0;
  encoded.forEach((b, i) => {
    if (i > 0) at++; // the NUL between strings (the array is zeroed)
    out.set(b, at);
    at += b.byteLength;
  });
  return out;
}

const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Refuses (not-representable) a string the StringBuffer cannot hold as given: a NUL ends a
 * stored string (`a\0b` read back as `a`, and a `strings` entry became two), and UTF-8 has no
 * lone surrogate (TextEncoder wrote U+FFFD). Both were written without a word.
 */
function expectPoolString(s: string, path: string): void {
  const nul = s.indexOf('\0');
  if (nul >= 0) throw new DescriptionError('not-representable', path, `a NUL at character ${nul}: the StringBuffer ends a string at NUL, so it would read back as ${quoted(s.slice(0, nul))}`);
  const lone = LONE_SURROGATE.exec(s);
  if (lone) throw new DescriptionError('not-representable', path, `a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at character ${lone.index}: UTF-8 cannot hold it (it would be written as U+FFFD)`);
}

const pad4 = (bytes: number[]) => {
  while (bytes.length % 4) bytes.push(0);
  return Uint8Array.from(bytes);
};

/**
 * Encodes an RDAT description (from decodeRdat, possibly edited).
 * @throws {DescriptionError} a value of the wrong type or range, an unknown name or part type; a hole or an array longer than a part stores; unknown-key for a key that would not be written (a record's or its `refs`'); bad-type for `refs` that is no plain object of numbers (`[offset, size]` for bytes); bad-name for a `<field>Name` that does not name its value; ambiguous-name for a second part of one type; out-of-range (`rdat.version`) for a version other than 0x10; bad-type for options that are not a plain object
 * @throws {LimitError} limit-exceeded (`resolve`, `maxResolved`) when the tables' bytes pass the budget (a record object repeated past eight times the description's own bytes), naming the table's records
 */
export function encodeRdat(description: RdatDescription, options?: RdatEncodeOptions): Uint8Array {
  // the parts checked once: objects, no holes, each type once (a second StringBuffer was ignored, a second table written)
  const { parts, byType } = checkedParts(description, 'rdat');
  // a misspelt key (`verison`, `bugdet`) would be read as absent: the default taken without a word
  expectKnownKeys(description, DESCRIPTION_KEYS, 'rdat', { form: 'an RDAT description', undefinedIsAbsent: true });
  expectOptions(options as unknown);
  if (options) expectKnownKeys(options, (key) => key === 'budget' || LIMIT_OPTIONS().includes(key), 'options', { form: 'the options of encodeRdat', names: () => ['budget', ...LIMIT_OPTIONS()] });
  parts.forEach((p, i) => checkPartKeys(p, `rdat.parts[${i}]`));
  // absent: the one version; null is a value given (JSON's), refused as u32 refuses it, not taken for absent
  const version = u32(description.version === undefined ? RDAT_VERSION : description.version, 'rdat.version');
  // the one version decodeRdat reads (DXC writes no other): any other made bytes no reader takes
  if (version !== RDAT_VERSION) throw new DescriptionError('out-of-range', 'rdat.version', `RDAT version ${version} (0x${version.toString(16)}); the version is 16 (0x10), the one DXC writes and decodeRdat reads`);
  const find = (type: string) => {
    const i = byType.get(type);
    return i === undefined ? undefined : { part: parts[i]!, path: `rdat.parts[${i}]` };
  };
  const sb = find('StringBuffer');
  const stringBytes = !sb ? new Uint8Array() : sb.part.hex !== undefined ? hexBytes(sb.part.hex, `${sb.path}.hex`) : stringBuffer(sb.part.strings, `${sb.path}.strings`);
  const ia = find('IndexArrays');
  const arrays = ia ? denseArray(ia.part.values, `${ia.path}.values`, MAX_PART_BYTES >>> 2, '4 bytes').map((v, i) => u32(v, `${ia.path}.values[${i}]`)) : [];
  const rb = find('RawBytes');
  const pools = new Pools(stringBytes, arrays, rb ? hexBytes(rb.part.hex, `${rb.path}.hex`) : new Uint8Array());
  const stringsGiven = stringBytes.length;
  const checked = parts.map((p, i) => (isTableName(p.type) ? tableOf(p, p.type, `rdat.parts[${i}]`) : undefined));
  let own = 8 + stringBytes.length + 4 * arrays.length + pools.raw.length;
  for (const t of checked) if (t) own += ownTableBytes(t.stride, t.layout, t.records);
  const budget = budgetOf(options, own);
  // Tables first: they may append to the pools.
  const tables = checked.map((t, i) => (t ? writeTable(t, pools, budget, `rdat.parts[${i}]`) : undefined));
  const data = parts.map((p, i): [number, Uint8Array] => {
    const path = `rdat.parts[${i}]`;
    if (tables[i]) return [PART_NAMES.get(p.type as string)!, tables[i]!];
    if (p.type === 'StringBuffer') return [RDAT_PART_TYPE.StringBuffer, pools.strings.length === stringsGiven ? Uint8Array.from(pools.strings) : pad4(pools.strings)];
    if (p.type === 'IndexArrays') return [RDAT_PART_TYPE.IndexArrays, words(pools.arrays)];
    if (p.type === 'RawBytes') return [RDAT_PART_TYPE.RawBytes, Uint8Array.from(pools.raw)];
    // checkedParts let through only the names above and opaque part numbers
    return [p.type as number, hexBytes(p.hex, `${path}.hex`)];
  });
  // A pool the description lacks but the records needed (values appended to it) is added at the end.
  if (!sb && pools.strings.length) data.push([RDAT_PART_TYPE.StringBuffer, pad4(pools.strings)]);
  if (!ia && pools.arrays.length) data.push([RDAT_PART_TYPE.IndexArrays, words(pools.arrays)]);
  if (!rb && (pools.raw.length || pools.rawUsed)) data.push([RDAT_PART_TYPE.RawBytes, Uint8Array.from(pools.raw)]);
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

