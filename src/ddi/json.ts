/**
 * The JSON form of DDI structures: C field names, enum values by name (numbers where a value has
 * no name), flags as name lists, pointers as nested values (null for NULL). An object reached more
 * than once carries "$id" where it first appears and is written {"$ref": id} afterwards, so shared
 * targets and cycles (a node that outputs to itself) survive.
 */
import type { FieldType, Pointee } from '../../codecs/ddi.js';
import { limitKeys, budgetOf, type Budget } from '../bytes/budget.js';
import { DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { expectBytes, expectDense, expectKnownKeys, expectObject, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { enumName, enumValue, flagNames, flagValue } from '../json/vocabulary.js';
import { floatBits, floatValue, type DdiObject, type DdiValue } from './image.js';
import { refuseUnknownKeys, structDef } from './layout.js';
import { bytesHex } from '../bytes/hex.js';
import { hexToBytes } from '../rows/record.js';

type Json = unknown;

function pointeeStruct(to: Pointee, owner: DdiObject): string | undefined {
  if (to.kind === 'struct') return to.struct;
  if (to.kind === 'select') return to.cases[owner[to.by] as number];
  return undefined;
}

/** Bytes as lower-case hex (the JSON form of a `bytes` pointee). */
export const bytesToHex = bytesHex;
/** Bytes from hex (the rows' reader: one hex reader). @throws {DescriptionError} bad-type for anything but an even run of hex digits */
export const bytesFromHex = (j: unknown, path: string): Uint8Array => hexToBytes(j, undefined, path);

/** The struct of one stream element from its tag (a number, or a name of the tag field's enum). */
/** Own and enumerable: the keys a spread copies. */
const ownKey = Object.prototype.propertyIsEnumerable;

/** The tag of a stream item (its `by` field), if it is an object. */
const streamTag = (item: unknown, by: string): unknown => (typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[by] : undefined);

function streamCase(to: Extract<Pointee, { kind: 'stream' }>, tag: unknown, path: string): { struct: string; value: number } {
  const first = Object.values(to.cases)[0]!;
  const field = structDef(first).fields.find((f) => f.name === to.by)!;
  const value = field.type.kind === 'enum' ? enumValue(field.type.table, tag, path) : typeof tag === 'number' ? tag : NaN;
  const struct = to.cases[value];
  if (!struct) throw new DescriptionError('out-of-range', path, `${quoted(tag)} is no subobject type`);
  return { struct, value };
}

/** Options of ddiToJson (docs/limits.md). */
export interface DdiToJsonOptions {
  /**
   * Deepest nesting of the JSON written (default 1000). JSON.stringify and most JSON readers
   * recurse, so a linked list thousands of entries long is refused here with a typed error.
   */
  maxDepth?: number;
  /** The call's work budget: its `depth` limit bounds the nesting (else one with `maxDepth`). */
  budget?: Budget;
}

const SCALAR_MAX = { UINT: 0xffffffff, BOOL: 0xffffffff, UINT16: 0xffff, UINT8: 0xff } as const;

/**
 * The JSON form of a decoded structure. Iterative (an explicit stack), objects reached twice
 * are written once with "$id" (a string) and then as {"$ref"}.
 * @throws {LimitError} limit-exceeded: nesting deeper than the budget's `depth` (`maxDepth`, default 1000)
 * @throws {DescriptionError} unknown-key for a key of an object that is no field of its struct (a misspelled field is never dropped)
 * @throws {DescriptionError} bad-type for a bytes field that is not a Uint8Array or whose buffer is detached
 */
export function ddiToJson(struct: string, value: DdiObject, options: DdiToJsonOptions = {}): Json {
  expectOptionKeys(options, limitKeys('maxDepth'));
  const rootName = structDef(struct).name;
  expectObject(value, rootName);
  const budget = budgetOf(options, 0);
  const counts = new Map<object, number>();
  const pending: DdiValue[] = [value];
  while (pending.length > 0) {
    const v = pending.pop()!;
    if (typeof v !== 'object' || v === null || v instanceof Uint8Array) continue;
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n > 1) continue;
    if (Array.isArray(v)) for (const x of v as DdiValue[]) pending.push(x);
    else for (const x of Object.values(v)) pending.push(x);
  }
  const ids = new Map<object, string>();
  interface Task {
    name: string;
    obj: DdiObject;
    depth: number;
    path: string;
    set: (j: Json) => void;
  }
  /** The items of one list still to write, one at a time (as ddiFromJson's ListTask): one task for the list, not one per item. */
  interface ListTask {
    /** The items' struct, or the stream pointee whose tag field names each item's struct. */
    of: string | Extract<Pointee, { kind: 'stream' }>;
    items: readonly DdiObject[];
    list: Json[];
    next: number;
    depth: number;
    path: string;
  }
  const stack: (Task | ListTask)[] = [];
  let result: Json = null;
  stack.push({ name: rootName, obj: value, depth: 1, path: rootName, set: (j) => (result = j) });
  const later: (Task | ListTask)[] = [];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    let t: Task;
    if ('items' in top) {
      // the list's next item; the list stays on the stack under the item's own children until its last item
      const i = top.next++;
      if (top.next >= top.items.length) stack.pop();
      const obj = top.items[i]!;
      const list = top.list;
      t = { name: typeof top.of === 'string' ? top.of : (top.of.cases[obj[top.of.by] as number] ?? ''), obj, depth: top.depth, path: `${top.path}[${i}]`, set: (j) => (list[i] = j) };
    } else t = stack.pop() as Task;
    budget.checkDepth(t.depth, t.path); // JSON nesting: the budget's depth (maxDepth)
    const obj = t.obj;
    expectObject(obj, t.path); // a struct (embedded or pointed at) that is not an object
    if (ids.has(obj)) {
      t.set({ $ref: ids.get(obj) });
      continue;
    }
    const def = structDef(t.name);
    refuseUnknownKeys(def, obj, t.path); // a misspelled field is refused, not left out of the JSON
    const out: Record<string, Json> = {};
    if ((counts.get(obj) ?? 0) > 1) {
      const id = String(ids.size + 1);
      ids.set(obj, id);
      out.$id = id;
    }
    t.set(out);
    for (const f of def.fields) {
      const v = obj[f.name] ?? null;
      const type = f.type;
      const fp = `${t.path}.${f.name}`;
      switch (type.kind) {
        case 'enum':
          out[f.name] = enumName(type.table, v as number);
          break;
        case 'flags':
          out[f.name] = flagNames(type.table, v as number);
          break;
        case 'struct':
          out[f.name] = null;
          later.push({ name: type.struct, obj: v as DdiObject, depth: t.depth + 1, path: fp, set: (j) => (out[f.name] = j) });
          break;
        case 'array': {
          const of = type.of;
          const items = Array.isArray(v) ? (v as DdiValue[]) : [];
          const list: Json[] = new Array(items.length).fill(null);
          out[f.name] = list;
          items.forEach((item, i) => {
            if (of.kind === 'struct') later.push({ name: of.struct, obj: item as DdiObject, depth: t.depth + 2, path: `${fp}[${i}]`, set: (j) => (list[i] = j) });
            else list[i] = of.kind === 'enum' ? enumName(of.table, item as number) : of.kind === 'flags' ? flagNames(of.table, item as number) : (item as Json);
          });
          break;
        }
        case 'ptr': {
          out[f.name] = v as Json;
          if (v === null) break;
          if (type.to.kind === 'bytes') {
            expectBytes(v, fp); // a view of a transferred buffer reads as no bytes: refused, not written as ""
            out[f.name] = bytesToHex(v);
            break;
          }
          if (type.to.kind === 'stream') {
            const to = type.to;
            const items = v as DdiObject[];
            if (!Array.isArray(items)) throw new DescriptionError('bad-type', fp, 'expected a list of subobjects');
            const list: Json[] = new Array(items.length).fill(null);
            out[f.name] = list;
            if (items.length) later.push({ of: to, items, list, next: 0, depth: t.depth + 2, path: fp });
            break;
          }
          const s = pointeeStruct(type.to, obj);
          if (!s) break;
          if (Array.isArray(v)) {
            if (ids.has(v)) {
              out[f.name] = { $ref: ids.get(v) };
              break;
            }
            const list: Json[] = new Array((v as DdiObject[]).length).fill(null);
            out[f.name] = list;
            if ((v as DdiObject[]).length) later.push({ of: s, items: v as DdiObject[], list, next: 0, depth: t.depth + 2, path: fp });
          } else {
            out[f.name] = null;
            later.push({ name: s, obj: v as DdiObject, depth: t.depth + 1, path: fp, set: (j) => (out[f.name] = j) });
          }
          break;
        }
        default:
          out[f.name] = v as Json;
      }
    }
    for (let i = later.length - 1; i >= 0; i--) stack.push(later[i]!);
    later.length = 0;
  }
  return result;
}

/** The one key of a reference. */
const REF_KEYS: readonly string[] = ['$ref'];

/**
 * A structure from its JSON form. Iterative (an explicit stack): nesting depth is bounded only by
 * the input's size. Every value is type-checked: numbers in their C type's range, strings where
 * the C field is a string, UINT arrays of the declared length.
 * @throws {DescriptionError} unknown-key for a key that is no field (nor "$id"); bad-type for a "$id" that is not a string
 */
export function ddiFromJson(struct: string, json: Json): DdiObject {
  return ddiFromJsonFilling(struct, json, undefined);
}

/**
 * ddiFromJson, where each object item of a list in `fill` (by the list's identity) takes the
 * value of `fill`'s object for each field it does not have as its own (the pipeline JSON form's
 * list items over their zero-initialized struct, src/pipeline/desc.ts): as if each item were
 * `{ ...zero, ...item }`, without making that copy of the list.
 */
export function ddiFromJsonFilling(struct: string, json: Json, fill: ReadonlyMap<readonly Json[], Readonly<Record<string, Json>>> | undefined): DdiObject {
  /** Objects by "$id", with the structure each was read as (a "$ref" names one of the same structure only). */
  const byId = new Map<string, { obj: DdiObject; name: string }>();
  interface Task {
    name: string;
    j: Json;
    path: string;
    set: (o: DdiObject) => void;
  }
  /**
   * The items of one list, filled one at a time (item `next` is the next): a list of n items is
   * one task, not n tasks with a path string and a setter each, so what the walk holds beyond the
   * values made stays in proportion to the nesting, not to the lists' lengths.
   */
  interface ListTask {
    /** The items' struct, or the stream pointee that names each item's struct by its tag. */
    of: string | Extract<Pointee, { kind: 'stream' }>;
    items: readonly Json[];
    list: DdiObject[];
    next: number;
    path: string;
  }
  const stack: (Task | ListTask)[] = [];
  const later: (Task | ListTask)[] = [];
  let result: DdiObject | undefined;
  const rootName = structDef(struct).name;
  stack.push({ name: rootName, j: json, path: rootName, set: (o) => (result = o) });

  const integer = (j: Json, max: number, path: string): number => {
    if (typeof j !== 'number' || !Number.isInteger(j)) throw new DescriptionError('bad-type', path, `expected an integer 0..${max}, got ${quoted(j)}`);
    if (j < 0 || j > max) throw new DescriptionError('out-of-range', path, `expected an integer 0..${max}, got ${j}`);
    return j;
  };
  const value = (type: FieldType, j: Json, owner: DdiObject, path: string, set: (v: DdiValue) => void): void => {
    switch (type.kind) {
      case 'enum':
        return set(enumValue(type.table, j, path));
      case 'flags':
        return set(flagValue(type.table, j ?? [], path));
      case 'struct':
        set(null);
        later.push({ name: type.struct, j, path, set });
        return;
      case 'array': {
        if (!Array.isArray(j) || j.length !== type.count) throw new DescriptionError(j === undefined ? 'missing-key' : 'bad-type', path, `expected a list of ${type.count}`);
        expectDense(j, path);
        const list: DdiValue[] = new Array(j.length).fill(null);
        set(list);
        const of = type.of;
        j.forEach((item, i) => value(of, item, owner, `${path}[${i}]`, (v) => (list[i] = v)));
        return;
      }
      case 'FLOAT':
        floatBits(j, path); // checks it
        return set(typeof j === 'string' ? floatValue(Number.parseInt(j.slice(2), 16)) : (j as number));
      case 'INT':
        if (typeof j !== 'number' || !Number.isInteger(j)) throw new DescriptionError(j === undefined ? 'missing-key' : 'bad-type', path, `expected an integer, got ${quoted(j)}`);
        if (j < -0x80000000 || j > 0x7fffffff) throw new DescriptionError('out-of-range', path, `expected an integer -2147483648..2147483647, got ${j}`);
        return set(j);
      case 'SIZE_T':
      case 'interface':
        if (j === undefined) throw new DescriptionError('missing-key', path, 'required');
        return set(integer(j, Number.MAX_SAFE_INTEGER, path));
      case 'ptr': {
        if (j === null || j === undefined) return set(null);
        const to = type.to;
        if (to.kind === 'cstring' || to.kind === 'wstring') {
          if (typeof j !== 'string') throw new DescriptionError('bad-type', path, `expected a string, got ${quoted(j)}`);
          // eslint-disable-next-line no-control-regex
          if (to.kind === 'cstring' && /[^\u0001-\u00ff]/.test(j)) throw new DescriptionError('not-representable', path, 'an 8-bit NUL-terminated string (LPCSTR) holds characters U+0001 to U+00FF only');
          return set(j);
        }
        if (to.kind === 'bytes') return set(bytesFromHex(j, path));
        if (to.kind === 'uints') {
          if (!Array.isArray(j)) throw new DescriptionError('bad-type', path, 'expected a list of numbers');
          expectDense(j, path);
          return set(j.map((x, i) => integer(x, 0xffffffff, `${path}[${i}]`)));
        }
        if (to.kind === 'stream') {
          if (!Array.isArray(j)) throw new DescriptionError('bad-type', path, 'expected a list of subobjects');
          expectDense(j, path); // a sparse list of 2^32 - 1 would be allocated whole below
          const list: DdiObject[] = new Array(j.length).fill(null);
          set(list);
          // every item's tag is checked before any item is read, as the walk always has
          for (let i = 0; i < j.length; i++) streamCase(to, streamTag(j[i], to.by), `${path}[${i}].${to.by}`);
          if (j.length) later.push({ of: to, items: j, list, next: 0, path });
          return;
        }
        const s = pointeeStruct(to, owner);
        if (to.kind === 'uint') {
          if (to.count === 1 && !Array.isArray(j)) return set(integer(j, 0xffffffff, path));
          if (!Array.isArray(j) || j.length !== to.count) throw new DescriptionError('bad-type', path, `expected ${to.count === 1 ? 'a number' : `an array of ${to.count} numbers`}, got ${quoted(j)}`);
          expectDense(j, path);
          return set(j.map((x, i) => integer(x, 0xffffffff, `${path}[${i}]`)));
        }
        if (!s) throw new DescriptionError('out-of-range', path, 'the pointer\'s type is chosen by a value that selects none');
        if (Array.isArray(j)) {
          expectDense(j, path);
          const list: DdiObject[] = new Array(j.length).fill(null);
          set(list);
          if (j.length) later.push({ of: s, items: j, list, next: 0, path });
          return;
        }
        set(null);
        later.push({ name: s, j, path, set });
        return;
      }
      default:
        if (j === undefined) throw new DescriptionError('missing-key', path, 'required');
        return set(integer(j, SCALAR_MAX[type.kind], path));
    }
  };

  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    let name: string, j: Json, path: string, set: (o: DdiObject) => void;
    let base: Readonly<Record<string, Json>> | undefined;
    if ('items' in top) {
      base = fill?.get(top.items);
      // the list's next item; the list stays on the stack under the item's own children until its last item
      const i = top.next++;
      if (top.next >= top.items.length) stack.pop();
      j = top.items[i];
      path = `${top.path}[${i}]`;
      name = typeof top.of === 'string' ? top.of : streamCase(top.of, streamTag(j, top.of.by), `${path}.${top.of.by}`).struct;
      const list = top.list;
      set = (o) => (list[i] = o);
    } else {
      stack.pop();
      ({ name, j, path, set } = top);
    }
    if (typeof j !== 'object' || j === null || Array.isArray(j)) throw new DescriptionError('bad-type', path, `expected a ${name} object`);
    const o = j as Record<string, Json>;
    const def = structDef(name);
    if (typeof o.$ref === 'string') {
      const hit = byId.get(o.$ref);
      if (!hit) throw new DescriptionError('bad-name', `${path}.$ref`, `no object with "$id": ${quoted(o.$ref)} before this point`);
      // one object is one structure: a reference that reads it as another would place it once as the first, so the image's second reader finds other fields there
      if (hit.name !== def.name) throw new DescriptionError('bad-type', `${path}.$ref`, `a ${hit.name}, not a ${def.name}`);
      // a reference is the named object: a field beside it (`{"$ref": "1", "VersionAdded": 5}`) was dropped
      expectKnownKeys(o, REF_KEYS, path, { form: 'a "$ref" object (the object it names holds the fields)', undefinedIsAbsent: true });
      set(hit.obj);
      continue;
    }
    refuseUnknownKeys(def, o, path, '$id');
    // "$id" is what ddiToJson writes, a string: any other value would be dropped, and a "$ref" to it found nowhere
    if (o.$id !== undefined && typeof o.$id !== 'string') throw new DescriptionError('bad-type', `${path}.$id`, `expected a string, got ${quoted(o.$id)}`);
    const obj: DdiObject = {};
    if (typeof o.$id === 'string') {
      if (byId.has(o.$id)) throw new DescriptionError('bad-name', `${path}.$id`, 'given twice');
      byId.set(o.$id, { obj, name: def.name });
    }
    set(obj);
    for (const f of def.fields) value(f.type, base && (o[f.name] === undefined || !ownKey.call(o, f.name)) ? base[f.name] : o[f.name], obj, `${path}.${f.name}`, (v) => (obj[f.name] = v));
    for (let i = later.length - 1; i >= 0; i--) stack.push(later[i]!);
    later.length = 0;
  }
  return result!;
}
