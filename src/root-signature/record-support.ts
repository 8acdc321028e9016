/**
 * What the generated record readers and writers (records.generated.ts) call: the errors for a
 * wrong value (messages name the field's path, built only when thrown), and the f32 load and store
 * that keep NaN payloads.
 */
import { DescriptionError } from '../bytes/errors.js';
import { getU32 } from '../bytes/le.js';
import { keepNanBitsOf, nanBitsOf } from '../bytes/f32.js';

/** A record of the typed description, by key. */
export type Fields = { [key: string]: unknown };
/** The path of record (i, j), built only for an error. */
export type PathOf = (i: number, j: number) => string;

/** A u32 field holds something else. */
export function notU32(value: unknown, path: string, key: string): never {
  return u32Error(value, `${path}.${key}`);
}

/** An f32 field holds something that is not a number. */
export function notNumber(path: string, key: string): never {
  throw new DescriptionError('bad-type', `${path}.${key}`, 'expected a number');
}

/** A field the version does not store holds something other than 0: dropping it would lose information. */
export function notStored(value: unknown, path: string, key: string, version: string): never {
  throw new DescriptionError('not-representable', `${path}.${key}`, `${key} ${String(value)} cannot be stored in a version ${version} root signature`);
}

/**
 * A record read with a NaN among its f32 fields keeps the bits of each NaN that is not the default
 * quiet NaN in `nanBits` (key: the field's key), so that encoding gives the same bytes back.
 */
export function keepNanBits(b: Uint8Array, o: number, record: Fields, keys: readonly string[], offsets: readonly number[]): void {
  for (let f = 0; f < keys.length; f++) keepNanBitsOf(record, keys[f]!, getU32(b, o + offsets[f]!));
}

/** The bits to store for a NaN f32 field (src/bytes/f32.ts nanBitsOf). */
export const nanBits = nanBitsOf;

/**
 * The typed description holds numbers only: coercion from text belongs to the JSON layer.
 * @throws {DescriptionError} bad-type (not an integer), out-of-range (an integer outside 32 bits)
 */
export function u32Error(value: unknown, path: string): never {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new DescriptionError('bad-type', path, `expected an unsigned 32-bit integer, got ${shown(value)}`);
  throw new DescriptionError('out-of-range', path, `${value} does not fit in 32 bits`);
}

function shown(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
