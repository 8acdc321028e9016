/**
 * The row vocabulary every fixed-layout record is written in: one row per field naming its key
 * (TS property = JSON key), its byte offset, its type and, where the format is versioned, the
 * version it appeared in. `src/rows/` interprets any `RecordDef`: read, write, JSON form, byte-map
 * spans and a fuzz mutator (docs/formats/parts.md). Tables only: nothing here imports from src/.
 */
import type { EnumTable } from './enum-table.js';

/** Integer widths a field may have. `u64` decodes to a bigint. */
export type Scalar = 'u8' | 'u16' | 'u32' | 'u64' | 'i32';

/**
 * An IEEE-754 binary32 (`f32`): decodes to a number. A NaN whose bits are not the default quiet
 * NaN keeps them in the row's `nanBits` (by the field's key), so writing gives the same bytes
 * back; the JSON form spells a float JSON cannot hold as "Infinity", "-Infinity", "-0" or its
 * bits "0x7fc00001". A plain field only (never an enumeration's or a bit field's word).
 */
export type FloatScalar = 'f32';

/** Bytes each scalar takes. */
export const SCALAR_SIZE: Readonly<Record<Scalar | FloatScalar, number>> = { u8: 1, u16: 2, u32: 4, u64: 8, i32: 4, f32: 4 };

/** One named bit of a flag word (bit index, so 64-bit words work): `{ bit, name }`. */
export interface BitRow {
  readonly bit: number;
  readonly name: string;
}

/** A bit field inside an integer: `key` gets `(value >> shift) & (2^width - 1)`, named through `enum` when given. */
export interface SubField {
  readonly key: string;
  readonly shift: number;
  readonly width: number;
  readonly enum?: EnumTable;
}

/** What a field holds. */
export type FieldType =
  /** A plain integer. */
  | Scalar
  /** A binary32 float (FloatScalar). */
  | FloatScalar
  /** An integer named through an enumeration (`<key>Name` beside it in the JSON form). */
  | { readonly enum: EnumTable; readonly width: Scalar }
  /** Flag bits named through a bit table (`<key>Names` beside it). */
  | { readonly flags: readonly BitRow[]; readonly width: Scalar }
  /** An integer whose bit fields are named (`subfields` decoded beside it; the word is what is written). */
  | { readonly width: Scalar; readonly subfields: readonly SubField[] }
  /**
   * An integer that is only its bit fields: the subfields are decoded, the word is not kept (the
   * field's key names the slot in the byte map); every bit belongs to one subfield, so the word
   * written is the subfields put together.
   */
  | { readonly packed: Scalar; readonly subfields: readonly SubField[] }
  /** Four ASCII bytes. */
  | 'fourcc'
  /** `n` bytes kept as they are (a digest). */
  | { readonly bytes: number }
  /**
   * A string: `table-offset` is a u32 offset from the record's `base` (the part start) to a
   * NUL-terminated string; `nul` is a NUL-terminated string at this offset; `counted` is `count`
   * (another field's key) bytes at this offset. A table-offset field decodes to the string under
   * `key` and the offset under `<key>Offset`; the offset is what is written (the strings live in
   * the part's kept bytes).
   */
  | { readonly string: 'table-offset' }
  | { readonly string: 'nul' }
  | { readonly string: 'counted'; readonly count: string }
  /** A reference into one of the format's pools or tables (RDAT), resolved by the format's resolver (RefType). */
  | RefType
  /** A union: `size` bytes whose fields the stored value of field `by` picks (UnionType). */
  | UnionType;

/**
 * A reference: a u32 (an offset and a size for `bytes`) that the format's pools resolve. `string`:
 * an offset into a string pool; `stringArray`, `indexArray`, `recordArray`: the index of an index
 * array (of string offsets, plain values, record indices into table `of`); `record`: a record
 * index into table `of`; `bytes`: offset and size of a run in a byte pool. 0xffffffff is "none"
 * for all but `string` and `bytes`. The interpreter reads and writes the stored words; the
 * resolver (src/rows/record.ts RefResolver / RefStore) turns them into values and back.
 */
export interface RefType {
  readonly ref: 'string' | 'stringArray' | 'indexArray' | 'recordArray' | 'record' | 'bytes';
  readonly of?: string;
}

/**
 * A union of `size` bytes: the cases by the stored value of the field `by` (of the same record),
 * each case's fields with offsets from the union's start. A value with no case, and bytes past a
 * case's fields, are kept as `<key>Rest` when not all zero.
 */
export interface UnionType {
  readonly union: { readonly by: string; readonly size: number; readonly cases: Readonly<Record<number, readonly Field[]>> };
}

/** One field of a record. */
export interface Field {
  readonly key: string;
  readonly type: FieldType;
  /** Byte offset inside the record; a string of type `nul` or `counted` may follow the previous string (`'after'`). */
  readonly at: number | 'after';
  /** First version of the format that stores the field (versioned formats only). */
  readonly since?: number;
  /** Bytes a layout reserves (written back as read, shown as padding in the byte map). */
  readonly reserved?: boolean;
}

/** A fixed-layout record. */
export interface RecordDef {
  /** The C name (DXC / LLVM spelling). */
  readonly name: string;
  /** Bytes of the fixed part (strings of type `nul`/`counted` may run past it). */
  readonly size: number;
  readonly fields: readonly Field[];
}

/** A record from its rows (checks at load that fixed fields fit inside `size`). */
export function record(name: string, size: number, fields: readonly Field[]): RecordDef {
  for (const f of fields) {
    const width = fieldWidth(f.type);
    if (typeof f.at === 'number' && width !== undefined && f.at + width > size) throw new Error(`${name}.${f.key} at ${f.at} runs past ${size} bytes`);
    const t = f.type;
    if (typeof t === 'object' && 'packed' in t) {
      let covered = 0n;
      for (const s of t.subfields) covered |= ((1n << BigInt(s.width)) - 1n) << BigInt(s.shift);
      if (covered !== (1n << BigInt(8 * SCALAR_SIZE[t.packed])) - 1n) throw new Error(`${name}.${f.key}: the subfields leave bits of the ${t.packed} unnamed`);
    }
  }
  return { name, size, fields };
}

/**
 * The record a versioned format stores at `version`: the rows whose `since` is at most `version`,
 * in a record of `size` bytes (one row list serves every version; a version is a filter of it).
 */
export function versioned(name: string, size: number, fields: readonly Field[], version: number): RecordDef {
  return record(name, size, fields.filter((f) => (f.since ?? 0) <= version));
}

/** Bytes a field's own slot takes, or undefined for strings read through an offset or of variable length. */
export function fieldWidth(t: FieldType): number | undefined {
  if (typeof t === 'string') return t === 'fourcc' ? 4 : SCALAR_SIZE[t];
  if ('bytes' in t) return t.bytes;
  if ('string' in t) return t.string === 'table-offset' ? 4 : undefined;
  if ('ref' in t) return t.ref === 'bytes' ? 8 : 4;
  if ('union' in t) return t.union.size;
  return SCALAR_SIZE['packed' in t ? t.packed : t.width];
}

/**
 * A record whose fields lie end to end in the order given (no offsets written in the rows: each
 * field's offset is the sum of the widths before it; a union's case fields likewise from the
 * union's start). `fields` rows may omit `at`.
 */
export function sequential(name: string, fields: readonly SequentialField[]): RecordDef {
  const place = (list: readonly SequentialField[]): Field[] => {
    let at = 0;
    return list.map((f) => {
      const t: FieldType = typeof f.type === 'object' && 'union' in f.type
        ? { union: { ...f.type.union, cases: Object.fromEntries(Object.entries(f.type.union.cases).map(([k, v]) => [k, place(v)])) } }
        : f.type;
      const placed: Field = { ...f, type: t, at };
      at += fieldWidth(t) ?? 0;
      return placed;
    });
  };
  const placed = place(fields);
  const last = placed[placed.length - 1];
  return record(name, last ? (last.at as number) + (fieldWidth(last.type) ?? 0) : 0, placed);
}
/** A row of `sequential`: a field without its offset. */
export type SequentialField = Omit<Field, 'at'>;

/** A bit table from `[bit, name]` pairs. */
export function bits(rows: readonly (readonly [number, string])[]): readonly BitRow[] {
  return rows.map(([bit, name]) => ({ bit, name }));
}
