/**
 * Memory images of DDI structs, for both ABIs. A struct with pointers is written as a
 * relocatable image (docs/ddi-images.md): the struct at offset 0, everything it points at after
 * it, each pointer stored as the target's offset from the image start (0 = NULL), strings as
 * NUL-terminated UTF-16LE. A C harness loads it by adding the image's base address to every
 * non-zero pointer. Objects reached twice are written once; decoding gives back the same
 * object for the same offset, so shared and cyclic references survive.
 */
import type { Abi, FieldType, Pointee } from '../../codecs/ddi.js';
import { limitKeys, budgetOf, type Budget, type Where } from '../bytes/budget.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { ByteReader } from '../bytes/reader.js';
import { expectBytes, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { pointerSize, refuseUnknownKeys, structLayout } from './layout.js';
import { f32Bits, f32FromBits } from '../bytes/f32.js';

/**
 * A decoded value. FLOAT fields are numbers, or "0x..." bit strings for NaN and infinities (kept
 * bit for bit); `bytes` pointees are Uint8Arrays; arrays of scalars are number arrays.
 */
export type DdiValue = number | string | null | number[] | Uint8Array | DdiObject | DdiObject[] | DdiValue[];
/** A DDI struct as data: each field by its C name (nested structs as objects, pointers as what they point to or null). */
export interface DdiObject {
  [field: string]: DdiValue;
}

// ---------------------------------------------------------------- encode

interface Pending {
  at: number; // where the pointer is
  target: Pointee;
  value: DdiValue;
  path: PathLike;
}

/**
 * Where a value is, spelled when an error needs it: inside a list an element's path and its
 * fields' are a node each (its owner and its index or name), not a string each, so the pointers
 * an encode queues (one per pointer field of every element) hold no text.
 */
class PathNode {
  constructor(
    readonly up: PathLike,
    readonly key: string | number,
  ) {}
}
type PathLike = string | PathNode;
/** `up.key` or `up[key]`: a string under a string, else a node. */
const child = (up: PathLike, key: string | number): PathLike => (typeof up === 'string' && typeof key === 'string' ? `${up}.${key}` : new PathNode(up, key));
/** The path as text. */
function pathText(path: PathLike): string {
  const keys: (string | number)[] = [];
  let at = path;
  while (typeof at !== 'string') {
    keys.push(at.key);
    at = at.up;
  }
  let out = at;
  for (let i = keys.length - 1; i >= 0; i--) out += typeof keys[i] === 'number' ? `[${keys[i]}]` : `.${keys[i]}`;
  return out;
}

const F32 = new DataView(new ArrayBuffer(4));
/** A FLOAT value floatBits takes without an error (so the path it would name is not needed). */
function isF32(v: unknown): boolean {
  if (typeof v === 'string') return /^0x[0-9a-f]{1,8}$/i.test(v);
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  F32.setFloat32(0, v, true);
  return (F32.getUint32(0, true) & 0x7f800000) !== 0x7f800000;
}
/** The binary32 bits of a FLOAT value (a number, rounded as C does, or a "0x..." bit string). */
export function floatBits(v: unknown, path: string): number {
  if (typeof v === 'string' && /^0x[0-9a-f]{1,8}$/i.test(v)) return Number.parseInt(v.slice(2), 16);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', path, `expected a number or a "0x..." bit pattern, got ${quoted(v)}`);
  const bits = f32Bits(v);
  if ((bits & 0x7f800000) === 0x7f800000) throw new DescriptionError('out-of-range', path, `${v} is beyond the binary32 range`);
  return bits;
}
/** A FLOAT's value from its bits: the number, or "0x..." for NaN and infinities. */
export function floatValue(bits: number): number | string {
  if ((bits & 0x7f800000) === 0x7f800000) return `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
  return f32FromBits(bits);
}

/** Bytes of a stream pointee: the sum of its elements' sizes (each is pointer-aligned, so packed). */
function streamSize(to: Extract<Pointee, { kind: 'stream' }>, items: unknown, abi: Abi, path: string): number {
  if (!Array.isArray(items)) throw new DescriptionError('bad-type', path, 'expected a list of subobjects');
  let size = 0;
  items.forEach((item, i) => {
    const struct = typeof item === 'object' && item !== null ? to.cases[(item as DdiObject)[to.by] as number] : undefined;
    if (!struct) throw new DescriptionError('out-of-range', `${path}[${i}].${to.by}`, `${quoted((item as DdiObject | null)?.[to.by])} is no subobject type`);
    size += structLayout(struct, abi).size;
  });
  return size;
}

/**
 * The relocatable memory image of a struct value for an ABI (docs/ddi-images.md); throws DescriptionError naming the field.
 * @throws {DescriptionError} unknown-key for a key of an object that is no field of its struct (a misspelled field is never dropped)
 * @throws {DescriptionError} bad-type for a bytes field whose Uint8Array is detached (its buffer transferred away)
 */
export function encodeImage(struct: string, value: DdiObject, abi: Abi): Uint8Array {
  const ps = pointerSize(abi);
  const root = structLayout(struct, abi);
  let buf = new Uint8Array(Math.max(64, root.size * 2));
  let dv = new DataView(buf.buffer);
  let end = root.size;
  /** Values placed, by object: where, and what they were written as (one object is one thing in the image). */
  const placed = new Map<object, { at: number; as: string }>();
  // the queued pointers as four lists, not an object each (one per pointer field of every element)
  const qAt: number[] = [];
  const qTarget: Pointee[] = [];
  const qValue: DdiValue[] = [];
  const qPath: PathLike[] = [];
  const grow = (need: number) => {
    if (need <= buf.byteLength) return;
    const bigger = new Uint8Array(Math.max(need, buf.byteLength * 2));
    bigger.set(buf);
    buf = bigger;
    dv = new DataView(buf.buffer);
  };
  const alloc = (size: number, align: number) => {
    const at = Math.ceil(end / align) * align;
    end = at + size;
    grow(end);
    return at;
  };
  const writeU = (at: number, size: number, v: number) => {
    const d = dv;
    if (size === 1) d.setUint8(at, v);
    else if (size === 2) d.setUint16(at, v, true);
    else if (size === 4) d.setUint32(at, v >>> 0, true);
    else d.setBigUint64(at, BigInt(v), true);
  };

  const writeStruct = (name: string, at: number, obj: DdiValue, path: PathLike) => {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new DescriptionError('bad-type', pathText(path), `expected a ${name} object`);
    const layout = structLayout(name, abi);
    refuseUnknownKeys(layout, obj, () => pathText(path)); // a misspelled field is refused, not left out of the image
    for (const f of layout.fields) {
      const v = (obj as DdiObject)[f.name];
      if (f.type.kind !== 'struct' && f.type.kind !== 'array' && f.type.kind !== 'ptr') {
        writeScalar(f.type, at + f.offset, f.size, v, path, f.name);
        continue;
      }
      const fp = child(path, f.name);
      if (f.type.kind === 'struct') writeStruct(f.type.struct, at + f.offset, v ?? null, fp);
      else if (f.type.kind === 'array') {
        const of = f.type.of;
        const one = f.size / f.type.count;
        if (!Array.isArray(v) || v.length !== f.type.count) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', pathText(fp), `expected a list of ${f.type.count}`);
        (v as DdiValue[]).forEach((item, i) => (of.kind === 'struct' ? writeStruct(of.struct, at + f.offset + i * one, item, child(fp, i)) : writeScalar(of, at + f.offset + i * one, one, item, child(fp, i))));
      } else if (f.type.kind === 'ptr') {
        if (v === null || v === undefined) {
          if (f.type.optional === false) throw new DescriptionError('missing-key', pathText(fp), `${f.name} may not be NULL`);
          continue;
        }
        const to = f.type.to.kind === 'select' ? selectTarget(f.type.to, obj as DdiObject, pathText(fp)) : f.type.to;
        // a view of a transferred buffer reads as 0 bytes: refused, not written as an empty run (or blamed on the count)
        if (to.kind === 'bytes' && v instanceof Uint8Array) expectBytes(v, pathText(fp));
        // the image says only the count field: a list of another length would be cut or overrun
        const count = to.kind === 'bytes' || to.kind === 'uints' || to.kind === 'struct' ? to.count?.field : undefined;
        if (count !== undefined && (Array.isArray(v) || v instanceof Uint8Array) && (obj as DdiObject)[count] !== v.length) {
          throw new DescriptionError('out-of-range', pathText(fp), `${v.length} ${to.kind === 'bytes' ? 'bytes' : 'items'}, but ${count} is ${quoted((obj as DdiObject)[count])}`);
        }
        if (to.kind === 'stream') {
          const size = streamSize(to, v, abi, pathText(fp));
          if ((obj as DdiObject)[to.size.field] !== size) throw new DescriptionError('out-of-range', pathText(fp), `the subobjects take ${size} bytes, but ${to.size.field} is ${quoted((obj as DdiObject)[to.size.field])}`);
        }
        qAt.push(at + f.offset);
        qTarget.push(to);
        qValue.push(v);
        qPath.push(fp);
      }
    }
  };

  /** Writes a scalar field; its path (`up` and `key`, or `up` alone) is spelled only for an error. */
  function writeScalar(type: FieldType, at: number, size: number, v: DdiValue | undefined, up: PathLike, key?: string | number): void {
    const where = () => pathText(key === undefined ? up : child(up, key));
    if (type.kind === 'FLOAT') return writeU(at, 4, floatBits(v, isF32(v) ? '' : where()));
    if (type.kind === 'INT') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) throw new DescriptionError(v === undefined ? 'missing-key' : 'out-of-range', where(), `expected an integer -2147483648..2147483647, got ${quoted(v)}`);
      return writeU(at, 4, v >>> 0);
    }
    const max = size === 1 ? 0xff : size === 2 ? 0xffff : size === 4 ? 0xffffffff : Number.MAX_SAFE_INTEGER;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) throw new DescriptionError(v === undefined ? 'missing-key' : 'out-of-range', where(), `expected an integer 0..${max}, got ${quoted(v)}`);
    writeU(at, size, v);
  }

  const place = (p: Pending): number => {
    const t = p.target;
    const key = typeof p.value === 'object' && p.value !== null ? p.value : undefined;
    if (key === value) throw new DescriptionError('not-representable', pathText(p.path), 'a pointer to the image\'s root cannot be told from NULL (offset 0)');
    const as = t.kind === 'struct' ? `${t.struct}${t.count ? '[]' : ''}` : t.kind;
    const had = key ? placed.get(key) : undefined;
    if (had) {
      // the image holds the value once, as what it was first written as: a pointer that reads it as another thing would find other bytes there
      if (had.as !== as && !(Array.isArray(key) && key.length === 0)) throw new DescriptionError('not-representable', pathText(p.path), `already placed as ${had.as}, not ${as}`);
      return had.at;
    }
    let at: number;
    if (t.kind === 'wstring') {
      if (typeof p.value !== 'string') throw new DescriptionError('bad-type', pathText(p.path), 'expected a string');
      at = alloc((p.value.length + 1) * 2, 2);
      for (let i = 0; i < p.value.length; i++) writeU(at + 2 * i, 2, p.value.charCodeAt(i));
    } else if (t.kind === 'uint') {
      const list = t.count === 1 && typeof p.value === 'number' ? [p.value] : p.value;
      if (!Array.isArray(list) || list.length !== t.count) throw new DescriptionError('bad-type', pathText(p.path), `expected ${t.count === 1 ? 'a number' : `${t.count} numbers`}`);
      at = alloc(4 * t.count, 4);
      (list as number[]).forEach((n, i) => {
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new DescriptionError('out-of-range', pathText(child(p.path, i)), 'expected a UINT');
        writeU(at + 4 * i, 4, n);
      });
    } else if (t.kind === 'cstring') {
      if (typeof p.value !== 'string') throw new DescriptionError('bad-type', pathText(p.path), 'expected a string');
      const text = p.value;
      at = alloc(text.length + 1, 1);
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0 || c > 0xff) throw new DescriptionError('not-representable', pathText(p.path), `character ${i} (U+${c.toString(16).padStart(4, '0')}) is not an 8-bit character of a NUL-terminated string`);
        buf[at + i] = c;
      }
    } else if (t.kind === 'bytes') {
      if (!(p.value instanceof Uint8Array)) throw new DescriptionError('bad-type', pathText(p.path), 'expected bytes');
      at = alloc(p.value.byteLength, 1);
      buf.set(p.value, at);
    } else if (t.kind === 'uints') {
      const list = p.value;
      if (!Array.isArray(list)) throw new DescriptionError('bad-type', pathText(p.path), 'expected a list of numbers');
      at = alloc(4 * list.length, 4);
      (list as DdiValue[]).forEach((n, i) => writeScalar({ kind: 'UINT' }, at + 4 * i, 4, n, child(p.path, i)));
    } else if (t.kind === 'stream') {
      const items = p.value as DdiObject[];
      at = alloc(streamSize(t, items, abi, pathText(p.path)), ps);
      let o = at;
      items.forEach((item, i) => {
        const struct = t.cases[item[t.by] as number]!;
        writeStruct(struct, o, item, child(p.path, i));
        o += structLayout(struct, abi).size;
      });
    } else if (t.kind === 'struct') {
      const layout = structLayout(t.struct, abi);
      const items = t.count ? p.value : [p.value];
      if (!Array.isArray(items)) throw new DescriptionError('bad-type', pathText(p.path), `expected an array of ${t.struct}`);
      at = alloc(layout.size * items.length, layout.align);
      items.forEach((item, i) => writeStruct(t.struct, at + i * layout.size, item as DdiValue, t.count ? child(p.path, i) : p.path));
    } else throw new DescriptionError('bad-type', pathText(p.path), 'unresolved union pointer');
    if (key) placed.set(key, { at, as });
    return at;
  };

  writeStruct(root.name, 0, value, root.name);
  for (let i = 0; i < qAt.length; i++) {
    const p: Pending = { at: qAt[i]!, target: qTarget[i]!, value: qValue[i]!, path: qPath[i]! };
    const at = place(p);
    if (ps === 8) dv.setBigUint64(p.at, BigInt(at), true);
    else dv.setUint32(p.at, at, true);
  }
  return buf.slice(0, end);
}

function selectTarget(to: Extract<Pointee, { kind: 'select' }>, obj: DdiObject, path: string): Pointee {
  const by = obj[to.by];
  const struct = typeof by === 'number' ? to.cases[by] : undefined;
  if (!struct) throw new DescriptionError('out-of-range', path, `${to.by} ${quoted(by)} selects no pointee`);
  return { kind: 'struct', struct };
}

// ---------------------------------------------------------------- decode

/**
 * The work budget of a decode (docs/limits.md): every struct, string character, array element and
 * byte run decoded is charged to it as `resolve` (default 8 x image bytes, at least 1024).
 */
export interface DecodeImageOptions {
  /** Most `resolve` units (struct bytes, string characters, array elements) decoded, when no `budget` is given (default 8 x image bytes, at least 1024). */
  maxResolved?: number;
  /** @deprecated Taken as `maxResolved` (the one budget counts objects and characters together). */
  maxObjects?: number;
  /** @deprecated Taken as `maxResolved` (the one budget counts objects and characters together). */
  maxStringChars?: number;
  /** The call's work budget: each struct byte, string character and array element decoded is charged to it as `resolve`. */
  budget?: Budget;
}

interface StructTask {
  name: string;
  at: number;
  path: string;
  obj: DdiObject;
}

/**
 * The elements of one list or stream still to fill, one at a time: a list of n elements is one
 * task (its objects made and charged when the list is read), not n tasks with a path string each,
 * so what the walk holds beyond the decoded values stays in proportion to the nesting.
 */
interface ListTask {
  list: DdiObject[];
  next: number;
  /** Where the next element starts. */
  at: number;
  path: string;
  /** The elements' struct and size (a list), or undefined: each element's type field names it (a stream). */
  name?: string;
  size?: number;
  cases?: Readonly<Record<number, string>>;
}

/**
 * `bytes` a Uint8Array whose buffer is not detached (src/bytes/check.ts expectBytes, the one
 * check): a view of a transferred buffer reads as 0 bytes and no DataView can be made of it.
 * @throws {DescriptionError} bad-type when `bytes` is not a Uint8Array or its buffer is detached
 */

/**
 * Decodes the image of `struct`. Iterative (an explicit stack in place of recursion), so a long
 * linked list (pNext chains) cannot exhaust the call stack; objects and characters are budgeted.
 */
export function decodeImage(struct: string, bytes: Uint8Array, abi: Abi, options: DecodeImageOptions = {}): DdiObject {
  expectOptionKeys(options, limitKeys('maxObjects', 'maxStringChars'));
  expectBytes(bytes, 'bytes');
  const r = new ByteReader(bytes);
  const ps = pointerSize(abi);
  const memo = new Map<string, DdiValue>();
  // the one work budget; the deprecated maxObjects / maxStringChars only set its resolve limit
  const maxResolved = options.maxResolved ?? (options.maxObjects !== undefined || options.maxStringChars !== undefined ? (options.maxObjects ?? 0) + (options.maxStringChars ?? 0) : undefined);
  const budget = budgetOf({ budget: options.budget, maxResolved }, bytes.byteLength);
  const spend = (n: number, at: number, path: Where) => budget.charge('resolve', n, path, at);
  /** A pointer-sized word: a pointer (within 32 bits: an offset in the image) or a SIZE_T (within 2^53). */
  const readWord = (at: number, path: string, sizeT: boolean): number => {
    if (ps === 4) return r.u32(at, path);
    const lo = r.u32(at, path);
    const hi = r.u32(at + 4, path);
    if (hi > (sizeT ? 0x1fffff : 0)) throw new DecodeError('bad-offset', at, path, `${sizeT ? 'SIZE_T' : 'pointer'} 0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')} is ${sizeT ? 'beyond 2^53' : 'outside the image'}`);
    return hi * 0x100000000 + lo;
  };
  // Structs still to fill, in the order a recursive walk would visit them (top of stack first).
  const stack: (StructTask | ListTask)[] = [];

  /**
   * The object for `name` at `at`: the memoized one, or a new one queued for filling. Only a
   * struct a pointer names by itself is shared by address (`pointee`). The writer places whole
   * pointed-at values, so anything inside another value is that value's own object: an embedded
   * struct (a field of struct type, `embedded`) and an element of a list or stream (`element`,
   * owned by its list, which is shared by address and length). A pointer into the middle of
   * another value, or two lists of different lengths over one array, come back as copies of equal
   * value (both found by dxbin fuzz ddi-image).
   */
  const structAt = (name: string, at: number, path: string, later: (StructTask | ListTask)[], kind: 'pointee' | 'embedded' = 'pointee'): DdiObject => {
    const layout = structLayout(name, abi);
    r.need(at, layout.size, path);
    const key = kind === 'pointee' ? `${name}@${at}` : '';
    const seen = kind === 'pointee' ? memo.get(key) : undefined;
    if (seen) return seen as DdiObject;
    // a struct pointed at costs its bytes (an embedded one is inside its owner's): distinct objects stay in proportion to the image
    if (kind !== 'embedded') spend(layout.size, at, path);
    const obj: DdiObject = {};
    if (kind === 'pointee') memo.set(key, obj);
    later.push({ name, at, path, obj });
    return obj;
  };

  const scalar = (type: FieldType, o: number, size: number, fp: string): DdiValue => {
    if (type.kind === 'FLOAT') return floatValue(r.u32(o, fp));
    if (type.kind === 'INT') return r.u32(o, fp) | 0;
    if (type.kind === 'SIZE_T' || type.kind === 'interface') return readWord(o, fp, true);
    return size === 1 ? r.slice(o, 1, fp)[0]! : size === 2 ? r.u16(o, fp) : r.u32(o, fp);
  };
  /** A count field of the struct at `at`: the decoded value, or read now when it comes after its pointer. */
  const countOf = (owner: DdiObject, field: string, task: StructTask): unknown => {
    if (owner[field] !== undefined) return owner[field];
    const f = structLayout(task.name, abi).fields.find((x) => x.name === field);
    return f ? scalar(f.type, task.at + f.offset, f.size, `${task.path}.${field}`) : undefined;
  };
  let current: StructTask | undefined;

  const fill = (task: StructTask, later: (StructTask | ListTask)[]): void => {
    const { obj, at, path } = task;
    current = task;
    for (const f of structLayout(task.name, abi).fields) {
      const fp = `${path}.${f.name}`;
      const o = at + f.offset;
      if (f.type.kind === 'struct') obj[f.name] = structAt(f.type.struct, o, fp, later, 'embedded');
      else if (f.type.kind === 'array') {
        const of = f.type.of;
        const one = f.size / f.type.count;
        obj[f.name] = Array.from({ length: f.type.count }, (_, i) => (of.kind === 'struct' ? structAt(of.struct, o + i * one, `${fp}[${i}]`, later, 'embedded') : scalar(of, o + i * one, one, `${fp}[${i}]`))) as DdiValue;
      } else if (f.type.kind === 'ptr') {
        const target = readWord(o, fp, false);
        if (target === 0) {
          if (f.type.optional === false) throw new DecodeError('bad-offset', o, fp, `${f.name} may not be NULL`);
          obj[f.name] = null;
          continue;
        }
        const to = f.type.to.kind === 'select' ? selectPointee(f.type.to, obj, o, fp) : f.type.to;
        obj[f.name] = readPointee(to, target, obj, fp, o, later);
      } else obj[f.name] = scalar(f.type, o, f.size, fp);
    }
  };

  const selectPointee = (to: Extract<Pointee, { kind: 'select' }>, obj: DdiObject, at: number, path: string): Pointee => {
    const struct = to.cases[obj[to.by] as number];
    if (!struct) throw new DecodeError('bad-offset', at, path, `${to.by} ${String(obj[to.by])} selects no pointee`);
    return { kind: 'struct', struct };
  };

  const readPointee = (to: Pointee, at: number, owner: DdiObject, path: string, ptrAt: number, later: (StructTask | ListTask)[]): DdiValue => {
    // an empty array may point at the very end; anything else must start inside the image
    const countField = to.kind === 'bytes' || to.kind === 'uints' || (to.kind === 'struct' && to.count) ? to.count!.field : to.kind === 'stream' ? to.size.field : undefined;
    const count = countField === undefined ? undefined : countOf(owner, countField, current!);
    const emptyArray = count === 0;
    if (at > bytes.byteLength || (at === bytes.byteLength && !emptyArray)) {
      throw new DecodeError('bad-offset', ptrAt, path, `pointer ${at} is past the end of the ${bytes.byteLength}-byte image`);
    }
    if (to.kind === 'wstring' || to.kind === 'cstring') {
      // NUL-terminated UTF-16LE (wstring) or 8-bit characters (cstring)
      const wide = to.kind === 'wstring';
      const key = `${to.kind}@${at}`;
      if (memo.has(key)) return memo.get(key)!;
      spend(1, at, path);
      let end = at;
      const nul = `${path} (no NUL terminator)`;
      while ((wide ? r.u16(end, nul) : r.slice(end, 1, nul)[0]) !== 0) {
        end += wide ? 2 : 1;
        spend(1, at, path); // names overlapping in one long string (D2)
      }
      let s = '';
      for (let i = at; i < end; i += wide ? 2 : 1) s += String.fromCharCode(wide ? bytes[i]! | (bytes[i + 1]! << 8) : bytes[i]!);
      memo.set(key, s);
      return s;
    }
    if (to.kind === 'bytes' || to.kind === 'uints') {
      if (typeof count !== 'number') throw new DecodeError('bad-offset', ptrAt, path, `count field ${countField} is missing`);
      const key = `${to.kind}[${count}]@${at}`;
      if (memo.has(key)) return memo.get(key)!;
      if (to.kind === 'bytes') {
        r.need(at, count, path);
        spend(1 + count, at, path);
        const out = bytes.slice(at, at + count);
        memo.set(key, out);
        return out;
      }
      r.needArray(at, count, 4, path);
      spend(1 + count, at, path);
      const list = Array.from({ length: count }, (_, i) => r.u32(at + 4 * i, `${path}[${i}]`));
      memo.set(key, list);
      return list;
    }
    if (to.kind === 'stream') {
      if (typeof count !== 'number') throw new DecodeError('bad-offset', ptrAt, path, `size field ${countField} is missing`);
      const key = `stream[${count}]@${at}`;
      if (memo.has(key)) return memo.get(key)!;
      r.need(at, count, path);
      const list: DdiObject[] = [];
      memo.set(key, list);
      let o = 0;
      while (o < count) {
        const ip = `${path}[${list.length}]`;
        if (count - o < 4) throw new DecodeError('truncated', at + o, ip, `${count - o} bytes left in the stream, too few for a subobject type`);
        const type = r.u32(at + o, `${ip}.${to.by}`);
        const struct = to.cases[type];
        if (!struct) throw new DecodeError('bad-offset', at + o, `${ip}.${to.by}`, `${type} is no subobject type`);
        const size = structLayout(struct, abi).size;
        if (o + size > count) throw new DecodeError('truncated', at + o, ip, `a ${size}-byte subobject at ${o} runs past the ${count}-byte stream`);
        spend(size, at + o, ip);
        list.push({});
        o += size;
      }
      if (list.length) later.push({ list, next: 0, at, path, cases: to.cases });
      return list;
    }
    if (to.kind === 'uint') {
      spend(to.count, at, path);
      r.need(at, 4 * to.count, path);
      const values = Array.from({ length: to.count }, (_, i) => r.u32(at + 4 * i, `${path}[${i}]`));
      return to.count === 1 ? values[0]! : values;
    }
    if (to.kind === 'struct') {
      if (!to.count) return structAt(to.struct, at, path, later);
      const n = count;
      const layout = structLayout(to.struct, abi);
      if (typeof n !== 'number') throw new DecodeError('bad-offset', ptrAt, path, `count field ${to.count.field} is missing`);
      r.needArray(at, n, layout.size, path);
      const key = `${to.struct}[${n}]@${at}`;
      if (memo.has(key)) return memo.get(key)!;
      spend(n, at, path); // the list's elements (lists of many lengths over one array fan out)
      const list: DdiObject[] = [];
      memo.set(key, list);
      for (let i = 0; i < n; i++) {
        spend(layout.size, at + i * layout.size, () => `${path}[${i}]`);
        list.push({});
      }
      if (n) later.push({ list, next: 0, at, path, name: to.struct, size: layout.size });
      return list;
    }
    throw new DecodeError('bad-offset', ptrAt, path, 'unresolved union pointer');
  };

  const name = structLayout(struct, abi).name;
  const root = structAt(name, 0, name, stack);
  const later: StructTask[] = [];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if ('list' in top) {
      // the list's next element; the list stays on the stack under the element's own children until its last one
      const i = top.next++;
      if (top.next >= top.list.length) stack.pop();
      const name = top.name ?? top.cases![r.u32(top.at, top.path)]!;
      const at = top.at;
      top.at += top.size ?? structLayout(name, abi).size;
      fill({ name, at, path: `${top.path}[${i}]`, obj: top.list[i]! }, later);
    } else fill(stack.pop() as StructTask, later);
    // children go on the stack so that the first one is filled next, as in a depth-first walk
    for (let i = later.length - 1; i >= 0; i--) stack.push(later[i]!);
    later.length = 0;
  }
  return root;
}
