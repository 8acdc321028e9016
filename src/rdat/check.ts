/**
 * The checks of RDAT's public boundary, shared by the decoder, the encoder and the library
 * readers (docs/formats/rdat.md): u32 fields, arrays without holes and within what the format can
 * store (the size checked before any loop over the elements), and one part per type in a
 * description. Every refusal is a DescriptionError naming the field; text from input passes
 * `quoted`.
 */
import { RDAT_PART_TYPE, RDAT_TABLES, type RdatTableName } from '../../codecs/rdat.js';
import type { EnumTable } from '../../codecs/enum-table.js';
import type { Field, RecordDef } from '../../codecs/rows.js';
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectDense, expectKnownKeys, expectObject, expectOffset } from '../bytes/check.js';
import { enumName } from '../json/vocabulary.js';
import { quoted } from '../bytes/text.js';
import { unionCase, type Row } from '../rows/record.js';
import type { RdatRefs } from './types.js';

/** The most bytes a part holds: its size is a u32 (and so is every offset in the RDAT part). */
export const MAX_PART_BYTES = 0xffffffff;

/**
 * `value` as a u32 field: missing-key for a missing one (undefined), bad-type for anything but a
 * number ("3" is text, not 3), out-of-range for a number that is no whole number in 0..2^32-1.
 */
export function u32(value: unknown, path: string): number {
  if (value === undefined) throw new DescriptionError('missing-key', path, 'expected an unsigned 32-bit integer, got nothing');
  if (typeof value !== 'number') throw new DescriptionError('bad-type', path, `expected an unsigned 32-bit integer, got ${quoted(value)}`);
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new DescriptionError('out-of-range', path, `${quoted(value)} is not an unsigned 32-bit integer`);
  return value;
}

/**
 * `value` as an array of at most `max` elements with no holes: the length is checked first (an
 * array of length 2^32-1 with nothing in it costs one comparison), then each index up to the
 * first hole, so the walk is never longer than the elements the array really holds.
 * @param size what one element costs in bytes, for the message
 * @throws {DescriptionError} bad-type (not an array), missing-key (a hole, naming its index: expectDense, the library's one check of holes), out-of-range (too long)
 */
export function denseArray(value: unknown, path: string, max: number, size: string): readonly unknown[] {
  expectArray(value, path);
  if (value.length > max) throw new DescriptionError('out-of-range', path, `${value.length} elements; an RDAT part holds at most ${max} (${size} each, in a part of at most ${MAX_PART_BYTES} bytes)`);
  expectDense(value, path);
  return value;
}

/** The keys a record's JSON form may hold, and its enumerated fields (each may have `<key>Name` beside it). */
export interface RecordKeys {
  allowed: ReadonlySet<string>;
  names: readonly (readonly [string, EnumTable])[];
}

/**
 * The keys a record of `layout` may hold in the JSON form: its fields, the union case its
 * selector picks in `row` (stored values) and `<union>Rest`, the names beside enumerated fields,
 * `refs` and `tail`. The one list of encodeRdat's key check and describeLibrary's: any other key
 * would be lost (or read as a field it is not), so it is refused.
 */
export function recordKeys(layout: RecordDef, row: Row): RecordKeys {
  const allowed = new Set<string>(['refs', 'tail']);
  const names: [string, EnumTable][] = [];
  const add = (fields: readonly Field[]) => {
    for (const f of fields) {
      const t = f.type;
      if (typeof t === 'object' && 'union' in t) {
        add(unionCase(t, row));
        allowed.add(`${f.key}Rest`);
        continue;
      }
      allowed.add(f.key);
      if (typeof t === 'object' && 'enum' in t) {
        allowed.add(`${f.key}Name`);
        names.push([f.key, t.enum]);
      }
    }
  };
  add(layout.fields);
  return { allowed, names };
}

/**
 * The one check of a record's keys, encodeRdat's and describeLibrary's: its keys are the ones
 * recordKeys gives for `row` (any other would be lost, or read as a field it is not), and a
 * `<field>Name` beside an enumerated value (the decoder's helper) names that value: an edit of the
 * name alone (`"ShaderKindName": "Pixel"` beside 7, a spelling the table lacks) would be lost.
 * @param row the record's stored values as far as the union's selector (encodeRdat: the record's row)
 * @param valueOf the stored value of enumerated field `key`, read only for a `<key>Name` given (by default `row[key]`)
 * @returns the keys and enumerated fields (recordKeys)
 * @throws {DescriptionError} unknown-key naming the key; bad-name at `<path>.<key>Name`
 */
export function checkRecordKeys(layout: RecordDef, rec: Record<string, unknown>, row: Row, path: string, form: () => string, valueOf: (key: string, table: EnumTable) => unknown = (key) => row[key]): RecordKeys {
  const keys = recordKeys(layout, row);
  expectKnownKeys(rec, keys.allowed, path, { form, undefinedIsAbsent: true });
  for (const [key, table] of keys.names) {
    const given = rec[`${key}Name`];
    if (given === undefined) continue;
    const value = valueOf(key, table);
    const name = enumName(table, value as number);
    if (given !== name) throw new DescriptionError('bad-name', `${path}.${key}Name`, `${quoted(given)} does not name ${key} ${quoted(value)}${typeof name === 'string' ? ` (${name})` : ''}: edit ${key} itself, and give ${key}Name as it names the value or not at all`);
  }
  return keys;
}

/**
 * A record's `refs` as encodeRdat takes them: absent, or a plain object whose keys are the
 * record's pool references for `row` (its string, list and bytes fields; a record index has none)
 * and whose values are what decodeRdat gives: a number (the stored offset or index; one that does
 * not hold the value is not kept) or, for bytes, `[offset, size]`; an undefined value is as absent.
 * Anything else was taken without a word: `refs: 5` or a Map read as no refs, a misspelt key's or
 * a string offset's ref lost.
 * @param form the record form, for the message (called only for the error)
 * @throws {DescriptionError} bad-type at `path` or at its key; unknown-key naming the key
 */
export function checkedRefs(layout: RecordDef, row: Row, refs: unknown, path: string, form: () => string): RdatRefs {
  if (refs === undefined) return {};
  if (typeof refs !== 'object' || refs === null || (Object.getPrototypeOf(refs) ?? Object.prototype) !== Object.prototype) {
    throw new DescriptionError('bad-type', path, `expected a plain object of stored references by field, got ${refs !== null && typeof refs === 'object' && !Array.isArray(refs) ? 'an object of another prototype (a Map, a class instance)' : quoted(refs)}`);
  }
  const bytes = refFields(layout.fields, row, new Map());
  expectKnownKeys(refs, (key) => bytes.has(key), path, { form, names: () => bytes.keys(), undefinedIsAbsent: true });
  for (const [key, v] of Object.entries(refs)) {
    if (v === undefined) continue;
    if (!bytes.get(key)) {
      if (typeof v !== 'number') throw new DescriptionError('bad-type', `${path}.${key}`, `expected a number (the stored offset or index), got ${quoted(v)}`);
    } else if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number') {
      throw new DescriptionError('bad-type', `${path}.${key}`, `expected [offset, size] (two numbers: the stored byte run), got ${quoted(v)}`);
    }
  }
  return refs as RdatRefs;
}

/** The fields of a record made of `row` that refs may name (pool references), each true for a byte run; a union's as its selector picks them. */
function refFields(fields: readonly Field[], row: Row, out: Map<string, boolean>): Map<string, boolean> {
  for (const f of fields) {
    const t = f.type;
    if (typeof t !== 'object') continue;
    if ('union' in t) refFields(unionCase(t, row), row, out);
    else if ('ref' in t && t.ref !== 'record') out.set(f.key, t.ref === 'bytes');
  }
  return out;
}

/** The part types by name: the pools and the tables. */
export const PART_NAMES: ReadonlyMap<string, number> = new Map<string, number>([
  ['StringBuffer', RDAT_PART_TYPE.StringBuffer],
  ['IndexArrays', RDAT_PART_TYPE.IndexArrays],
  ['RawBytes', RDAT_PART_TYPE.RawBytes],
  ...(Object.keys(RDAT_TABLES) as RdatTableName[]).map((n) => [n, RDAT_TABLES[n].part] as const),
]);
const NAME_OF_TYPE = new Map<number, string>(Array.from(PART_NAMES, ([name, type]) => [type, name]));

/** Whether `name` names a record table (an own key of RDAT_TABLES: not "constructor" nor "__proto__"). */
export const isTableName = (name: unknown): name is RdatTableName => typeof name === 'string' && Object.hasOwn(RDAT_TABLES, name);

/** A description's parts checked once: an array of objects without holes, one part per type. */
export interface CheckedParts {
  parts: readonly Record<string, unknown>[];
  /** The part of a type by its name (pools and tables) or number (opaque parts), and its index. */
  byType: ReadonlyMap<string | number, number>;
}

/**
 * The parts of an RDAT description: at most as many as the part can store (12 bytes each), each
 * an object, each type at most once. DXC's reader (DxilRuntimeReflection.inl InitFromRDAT) keeps
 * the last part of a type and dxbin's decoder refuses a second one; a description with two is
 * ambiguous and refused, naming both, never read by its first or last. An opaque part given by
 * number must not be a type dxbin names (it is written by name, its pool or table checked).
 * @throws {DescriptionError} bad-type, out-of-range; bad-name for a part type that is neither; ambiguous-name for a second part of a type
 */
export function checkedParts(rdat: unknown, path = 'rdat'): CheckedParts {
  expectObject(rdat, path);
  const parts = denseArray(rdat.parts, `${path}.parts`, Math.floor((MAX_PART_BYTES - 8) / 12), '12 bytes');
  const byType = new Map<string | number, number>();
  const numbers = new Map<number, number>();
  parts.forEach((p, i) => {
    const at = `${path}.parts[${i}]`;
    expectObject(p, at);
    const type = p.type;
    let number: number;
    if (typeof type === 'string' && PART_NAMES.has(type)) number = PART_NAMES.get(type)!;
    else if (typeof type === 'number') {
      number = u32(type, `${at}.type`);
      const name = NAME_OF_TYPE.get(number);
      if (name !== undefined) throw new DescriptionError('bad-name', `${at}.type`, `part type ${number} is the ${name}: give it by name ("type": "${name}") with its ${isTableName(name) ? 'stride and records' : 'contents'}, not as opaque bytes`);
    } else throw new DescriptionError('bad-name', `${at}.type`, `${quoted(type)} is not a part type (a name: ${Array.from(PART_NAMES.keys()).join(', ')}; or the number of an opaque part)`);
    const first = numbers.get(number);
    if (first !== undefined) throw new DescriptionError('ambiguous-name', `${at}.type`, `a second part of type ${quoted(type)} (part type ${number}): ${path}.parts[${first}] is one; DXC's reader keeps the last, so one of them would be ignored: give each part once`);
    numbers.set(number, i);
    byType.set(type, i);
  });
  return { parts: parts as readonly Record<string, unknown>[], byType };
}


/** The `base` argument of a decoder: a whole number from 0 (the absolute offset of the bytes' first byte). */
export function expectBase(value: unknown, path = 'base'): asserts value is number {
  expectOffset(value, path);
}
