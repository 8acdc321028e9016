/**
 * A caller's description read once (docs/limits.md, "Read once"): the plain objects and arrays of
 * `value` copied, each own enumerable value read one time, so a getter that gives another value on
 * its second read (a type checked as PS and written as VS, a count checked as 1 and laid out as
 * 2^40) cannot make a check and the work after it see two inputs. Anything else (typed arrays,
 * Maps, functions, class instances, Budgets) is kept as given. Sharing and cycles are kept (one
 * copy per object); an array is copied up to its first hole with its length, so the hole stays
 * for the entry's own check (expectDense names it) and a sparse array of 2^32 - 1 costs one step.
 * Iterative: nesting costs no stack. A getter that throws throws its own error to the caller.
 */
import type { Budget } from './budget.js';

const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
};

/**
 * `value` with its plain objects and arrays copied, each value read once.
 * @param depth how many levels are copied (1: `value` itself; its values below are kept as given), what the entry's checks read
 * @param budget charged `resolve` 1 for each value read, when given (the call's budget)
 */
export function readOnce<T>(value: T, depth = Infinity, budget?: Budget, path = 'input'): T {
  if (typeof value !== 'object' || value === null || !(Array.isArray(value) || isPlain(value))) return value;
  const copies = new Map<object, unknown>();
  const work: [object, Record<string, unknown> | unknown[], number][] = [];
  const copyOf = (v: unknown, level: number): unknown => {
    if (typeof v !== 'object' || v === null || level > depth) return v;
    const known = copies.get(v);
    if (known !== undefined) return known;
    if (!Array.isArray(v) && !isPlain(v)) return v;
    const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : Object.create(Object.getPrototypeOf(v) as object | null);
    copies.set(v, out);
    work.push([v, out, level]);
    return out;
  };
  const root = copyOf(value, 1) as T;
  while (work.length > 0) {
    const [src, out, level] = work.pop()!;
    if (Array.isArray(src)) {
      const list = out as unknown[];
      const n = src.length;
      for (let i = 0; i < n && i in src; i++) {
        budget?.charge('resolve', 1, path);
        list[i] = copyOf(src[i], level + 1);
      }
      list.length = n;
    } else {
      for (const key of Object.keys(src)) {
        budget?.charge('resolve', 1, path);
        // defined, not assigned: an own "__proto__" (JSON.parse makes one) stays a key for the entry's key check
        Object.defineProperty(out, key, { value: copyOf((src as Record<string, unknown>)[key], level + 1), writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return root;
}
