/**
 * The JSON vocabulary shared by the JSON forms (root signatures, DDI structures, rows). Names for raw
 * values, from the codecs/ tables: an enum value prints as its D3D12 enumerator name
 * without the type prefix, or as the number when it has no name; flags print as a list of names
 * plus one number for bits without a name; a binary32 float as a number, or a string where JSON
 * cannot hold it.
 */
import type { EnumTable, FlagTable } from '../../codecs/enum-table.js';
import { DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { f32Bits, f32FromBits, QUIET_NAN_BITS } from '../bytes/f32.js';

/** The D3D12 name of an enum value without its prefix, or the number when it has none. */
export function enumName(table: EnumTable, value: number): string | number {
  for (const [name, v] of table.values) if (v === value) return name;
  return value;
}

/** An enum value from JSON: a name (with or without the prefix) or a number. @throws {DescriptionError} bad-name, bad-type */
export function enumValue(table: EnumTable, given: unknown, path: string): number {
  if (typeof given === 'number') return u32FromJson(given, path);
  if (typeof given === 'string') {
    const bare = given.startsWith(table.prefix) ? given.slice(table.prefix.length) : given;
    for (const [name, v] of table.values) if (name === bare) return v;
    throw new DescriptionError('bad-name', path, `${quoted(given)} is not a ${table.type} name`);
  }
  throw new DescriptionError('bad-type', path, `expected a ${table.type} name or a number`);
}

/** Flag names of a value, plus one number for bits without a name. */
export function flagNames(table: FlagTable, value: number): (string | number)[] {
  const out: (string | number)[] = [];
  let rest = value >>> 0;
  for (const [name, bit] of table.bits) {
    if ((rest & bit) === bit) {
      out.push(name);
      rest = (rest & ~bit) >>> 0;
    }
  }
  if (rest !== 0) out.push(rest);
  return out;
}

/** Flags from JSON: a list of names and numbers OR-ed together, or one number. @throws {DescriptionError} */
export function flagValue(table: FlagTable, given: unknown, path: string): number {
  if (given === undefined) return 0;
  if (typeof given === 'number') return u32FromJson(given, path);
  if (!Array.isArray(given)) throw new DescriptionError('bad-type', path, `expected a list of ${table.type} names`);
  let value = 0;
  given.forEach((item, i) => {
    const at = `${path}[${i}]`;
    if (typeof item === 'number') value = (value | u32FromJson(item, at)) >>> 0;
    else if (typeof item === 'string') {
      const bare = item.startsWith(table.prefix) ? item.slice(table.prefix.length) : item;
      const bit = bare === 'NONE' ? 0 : table.bits.find(([name]) => name === bare)?.[1];
      if (bit === undefined) throw new DescriptionError('bad-name', at, `${quoted(item)} is not a ${table.type} name`);
      value = (value | bit) >>> 0;
    } else throw new DescriptionError('bad-type', at, 'expected a flag name or a number');
  });
  return value;
}

/** An unsigned 32-bit integer from JSON, given as a number or a "0x..." string (coercion lives here only). */
export function u32FromJson(given: unknown, path: string): number {
  const value = typeof given === 'string' && /^0x[0-9a-f]{1,8}$/i.test(given) ? Number.parseInt(given.slice(2), 16) : given;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new DescriptionError('bad-type', path, `expected an unsigned 32-bit integer, got ${quoted(given)}`);
  if (value < 0 || value > 0xffffffff) throw new DescriptionError('out-of-range', path, `${value} does not fit in 32 bits`);
  return value;
}

/** Parses JSON text. @throws {DescriptionError} bad-json on a syntax error */
export function parseJsonText(text: string, path = '$'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new DescriptionError('bad-json', path, (e as Error).message);
  }
}

/**
 * About how many characters `value` takes as JSON text (each string's length, each number, key
 * and bracket counted), walked with an explicit stack: the size of a parsed value to make a
 * budget from (`Budget.for`), for a value of any depth (JSON.stringify recurses and overflows the
 * stack on a 100,000-deep list). An object met twice (shared, or a cycle) counts once; stops
 * counting past `cap`.
 */
export function jsonExtent(value: unknown, cap = 2 ** 31): number {
  let n = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length && n <= cap) {
    const v = stack.pop();
    if (typeof v === 'string') n += v.length + 2;
    else if (typeof v !== 'object' || v === null) n += 4;
    else if (seen.has(v)) continue;
    else if ((seen.add(v), Array.isArray(v))) {
      n += 2 + v.length;
      // up to the first hole only: a sparse array of length 2^32 - 1 holds nothing, and pushing its
      // holes would grow the stack past what the heap can hold (the readers refuse the hole itself)
      for (let i = 0; i < v.length && i in v; i++) stack.push(v[i]);
    } else {
      for (const [k, x] of Object.entries(v)) {
        n += k.length + 4;
        stack.push(x);
      }
      n += 2;
    }
  }
  return n;
}

/** The largest finite binary32 (FLT_MAX), as the refusal of a number past it names it. */
const F32_MAX = 3.4028234663852886e38;

/**
 * A float as JSON: a number when JSON keeps it exactly (the shortest decimal that reads back as
 * the same f32), otherwise a string: "Infinity", "-Infinity", "-0", or a NaN's bits "0x7fc00000".
 */
export function floatToJson(value: number, nanBits?: number): number | string {
  if (Number.isNaN(value)) return `0x${(nanBits ?? f32Bits(value)).toString(16).padStart(8, '0')}`;
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return value;
}

/**
 * Reads a float written by floatToJson, or any number rounded to the nearest f32 as the field
 * stores it (1.1 is 1.100000023841858). A finite number past the binary32 range (1e40, beyond
 * FLT_MAX's half step) is refused, as the DDI JSON form refuses it: it would be stored as an
 * infinity no one wrote; an infinity is spelled "Infinity" or "-Infinity" (or by its bits).
 * @throws {DescriptionError} out-of-range at `path` for a finite number past binary32; bad-type for a value that is no float's spelling
 */
export function floatFromJson(json: unknown, path: string): { value: number; nanBits?: number } {
  if (typeof json === 'number') {
    const value = Math.fround(json);
    if (value === Infinity || value === -Infinity) {
      // a JS caller's own infinity is that infinity; a finite number only rounded to one
      if (Number.isFinite(json)) throw new DescriptionError('out-of-range', path, `${json} is beyond the binary32 range (at most ${F32_MAX} either way); an infinity is written "Infinity" or "-Infinity"`);
    }
    return { value };
  }
  if (json === 'Infinity') return { value: Infinity };
  if (json === '-Infinity') return { value: -Infinity };
  if (json === '-0') return { value: -0 };
  if (json === 'NaN') return { value: NaN };
  if (typeof json === 'string' && /^0x[0-9a-f]{8}$/i.test(json)) {
    const bits = Number.parseInt(json.slice(2), 16);
    const value = f32FromBits(bits);
    return Number.isNaN(value) && bits !== QUIET_NAN_BITS ? { value, nanBits: bits } : { value };
  }
  throw new DescriptionError('bad-type', path, `expected a number, "Infinity", "-Infinity", "-0" or f32 bits "0x........", got ${quoted(json)}`);
}
