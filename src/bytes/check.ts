/**
 * Guards at the public entries: an argument of the wrong type (null, undefined, a number where
 * bytes or a description belong) becomes a DescriptionError `bad-type` naming the argument, never
 * a TypeError from the first property read. Each guard is one instanceof/typeof test when the
 * argument is right (small enough to be inlined where it is called).
 */
import { DescriptionError, kindOf } from './errors.js';
import { pathKey, quoted } from './text.js';

export { kindOf };


/**
 * Throws DescriptionError bad-type at `path` unless `value` is a Uint8Array (a Buffer, or one from
 * another realm, is one).
 */
export function expectBytes(value: unknown, path: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array) && Object.prototype.toString.call(value) !== '[object Uint8Array]') throw new DescriptionError('bad-type', path, `expected a Uint8Array, got ${kindOf(value)}`);
  // a view whose buffer was transferred away reads as empty and no DataView of it can be made (a raw
  // TypeError in a decoder or a kernel, or an empty part): refused here, so no byte argument can be one
  expectAttached(value as Uint8Array, path);
}

/** bad-type (DETACHED) at `path` when `view`'s buffer is detached: for the views expectBytes does not take (a column of another typed array). */
export function expectAttached(view: ArrayBufferView, path: string): void {
  if (isDetached(view)) throw new DescriptionError('bad-type', path, DETACHED);
}

/** The words of every detached-buffer refusal. */
export const DETACHED = 'a detached buffer';

/**
 * True when `view`'s buffer is detached (transferred away): its length reads 0 and no view of the
 * buffer can be made. The one such check of the library; the buffer is looked at only when the
 * length reads 0 (reading .buffer allocates).
 */
export function isDetached(view: ArrayBufferView): boolean {
  if (view.byteLength) return false;
  try {
    new Uint8Array(view.buffer); // a view of a detached buffer cannot be made
    return false;
  } catch {
    return true;
  }
}

/**
 * Throws DescriptionError missing-key at `path[i]` for the first hole of `values` (an index it does
 * not hold): call it before map/forEach/for-of over a caller's array, which skip holes or read
 * them as undefined, and which walk a sparse array of length 2^32 - 1 for minutes. Stops at the
 * first hole, so it costs no more than the elements the array really holds.
 */
export function expectDense(values: readonly unknown[], path: string): void {
  for (let i = 0; i < values.length; i++) if (!(i in values)) throw new DescriptionError('missing-key', `${path}[${i}]`, `a hole in an array of ${values.length}`);
}

/** The keys a form has, for expectKnownKeys: a set or list of names, or a test of one name. */
export type KnownKeys = ReadonlySet<string> | readonly string[] | ((key: string) => boolean);

/** How expectKnownKeys words its refusal and which keys it passes over. */
export interface KnownKeysOptions {
  /** The form, for the message (`D3D12_BLEND_DESC`, `a FunctionTable record of ShaderKind 15`); a function is called only for the error. */
  form?: string | (() => string);
  /** The names the message lists when `known` is a test (a set's or list's own names by default). */
  names?: () => Iterable<string>;
  /** A key whose value is undefined is as absent (nothing of it would be lost): a typed description's `{ x: undefined }`. */
  undefinedIsAbsent?: boolean;
}

/** The most characters of allowed names a refusal lists before it counts the rest. */
const NAMES_SHOWN = 240;

/**
 * The one check of "a key the form does not have": throws DescriptionError unknown-key for the
 * first own key of `obj` that `known` does not hold, at `path` + pathKey(key) (`.name`, or
 * `["..."]` escaped and cut), its detail `unknown key "<key>" in <form> (allowed: a, b, ...)`.
 * A misspelt key would otherwise be read as absent and its value lost without a word. Only own
 * keys are looked at (Object.keys) and `known` is asked by Set.has / includes / the caller's
 * test, never by `in` or a property read: `__proto__` (an own key through JSON.parse),
 * `constructor` and `toString` are unknown keys like any other.
 * @param path the object's path, or a function that spells it (called only for the error)
 * @throws {DescriptionError} unknown-key naming the key
 */
export function expectKnownKeys(obj: object, known: KnownKeys, path: string | (() => string), options?: KnownKeysOptions): void {
  const test = typeof known === 'function' ? known : Array.isArray(known) ? undefined : (known as ReadonlySet<string>);
  for (const key of Object.keys(obj)) {
    if (typeof test === 'function' ? test(key) : test ? test.has(key) : (known as readonly string[]).includes(key)) continue;
    if (options?.undefinedIsAbsent && (obj as Record<string, unknown>)[key] === undefined) continue;
    throw unknownKey(key, known, path, options);
  }
}

function unknownKey(key: string, known: KnownKeys, path: string | (() => string), options: KnownKeysOptions | undefined): DescriptionError {
  const form = typeof options?.form === 'function' ? options.form() : options?.form;
  const names = options?.names ? options.names() : typeof known === 'function' ? [] : known;
  let list = '';
  let more = 0;
  for (const n of names) {
    if (list.length > NAMES_SHOWN) more++;
    else list += `${list ? ', ' : ''}${n}`;
  }
  const allowed = list ? ` (allowed: ${list}${more ? `, and ${more} more` : ''})` : '';
  return new DescriptionError('unknown-key', `${typeof path === 'string' ? path : path()}${pathKey(key)}`, `unknown key ${quoted(key)}${form ? ` in ${form}` : ''}${allowed}`);
}

/** Throws DescriptionError bad-type at `path` unless `value` is a non-null object (not an array). */
export function expectObject(value: unknown, path: string): asserts value is Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
  throw new DescriptionError('bad-type', path, `expected an object, got ${kindOf(value)}`);
}

/** Throws DescriptionError bad-type at `path` unless `value` is an array. */
export function expectArray(value: unknown, path: string): asserts value is readonly unknown[] {
  if (Array.isArray(value)) return;
  throw new DescriptionError('bad-type', path, `expected an array, got ${kindOf(value)}`);
}

/**
 * Throws DescriptionError bad-type at `path[i]` for the first element of `values` that is not an
 * object (not null, not an array); the path is built only then, not per element.
 */
export function expectObjects(values: readonly unknown[], path: string): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) expectObject(v, `${path}[${i}]`);
  }
}

/**
 * Throws DescriptionError bad-type at `path` unless `value` is undefined (options left out) or a
 * plain object (its prototype Object.prototype or null): an options argument. An array, a Map, a
 * Date, a typed array, a RegExp, a class instance or an object inheriting keys (read as options,
 * but not its own keys, which expectKnownKeys checks) is refused.
 */
export function expectOptions(value: unknown, path = 'options'): asserts value is Record<string, unknown> | undefined {
  if (value === undefined || (value !== null && (Object.getPrototypeOf(value) ?? Object.prototype) === Object.prototype)) return;
  throw new DescriptionError('bad-type', path, `expected an options object, got ${kindOf(value)}`);
}

/**
 * expectOptions, and its own keys among the entry's `keys` (an undefined value is as absent): a
 * misspelt option (`{ bsae: 16 }`, `{ replce: true }`) was read as absent, its default taken
 * without a word. (Its own function: the root-signature-only bundle's entries keep expectOptions.)
 * @throws {DescriptionError} bad-type (expectOptions); unknown-key naming the key
 */
export function expectOptionKeys(value: unknown, keys: readonly string[], path = 'options'): asserts value is Record<string, unknown> | undefined {
  expectOptions(value, path);
  if (value !== undefined) expectKnownKeys(value as object, keys, path, { form: 'the options', undefinedIsAbsent: true });
}

/** Throws DescriptionError bad-type at `path` unless `value` is a string. */
export function expectString(value: unknown, path: string): asserts value is string {
  if (typeof value === 'string') return;
  throw new DescriptionError('bad-type', path, `expected a string, got ${kindOf(value)}`);
}

/** Throws DescriptionError bad-type at `path` unless `value` is a function. */
export function expectFunction(value: unknown, path: string): asserts value is (...args: never[]) => unknown {
  if (typeof value === 'function') return;
  throw new DescriptionError('bad-type', path, `expected a function, got ${kindOf(value)}`);
}

/** Throws DescriptionError bad-type at `path` unless `value` is a number (NaN and infinities included). */
export function expectNumber(value: unknown, path: string): asserts value is number {
  if (typeof value === 'number') return;
  throw new DescriptionError('bad-type', path, `expected a number, got ${kindOf(value)}`);
}

/** Throws DescriptionError bad-type at `path` unless `value` is a whole number from 0 (a byte offset or count in an options object). */
export function expectOffset(value: unknown, path: string): asserts value is number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return;
  throw new DescriptionError('bad-type', path, `expected a whole number from 0, got ${kindOf(value)}`);
}
