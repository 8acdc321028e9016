/**
 * The pipeline JSON form (docs/formats/pipeline.md): a D3D12_GRAPHICS_PIPELINE_STATE_DESC or
 * D3D12_COMPUTE_PIPELINE_STATE_DESC (mesh pipelines through the stream's AS and MS) with D3D12's
 * field names, one key per subobject type (`SUBOBJECTS[].key`). Enums by name without the
 * prefix; shader bytecode (`VS` ... `CS`), `pRootSignature` (the serialized root signature) and
 * `CachedPSO` as file paths relative to the JSON file; a list where D3D12 has a pointer and a
 * count (`InputLayout`, `RTVFormats`, `StreamOutput.pSODeclaration`, ...). Anything left out
 * holds what CD3DX12 gives it: a missing key or field takes the default of the
 * CD3DX12_PIPELINE_STATE_STREAM_* type (d3dx12.h), zero where d3dx12 gives none.
 */
import type { FieldType, StructDef } from '../../codecs/ddi.js';
import { SUBOBJECTS, subobjectStructName, type SubobjectRow } from '../../codecs/pipeline.js';
import { Budget } from '../bytes/budget.js';
import { DescriptionError } from '../bytes/errors.js';
import { pathKey, printable, quoted } from '../bytes/text.js';
import { expectDense, expectFunction, expectObject, expectOptionKeys, expectOptions, isDetached, kindOf } from '../bytes/check.js';
import { type DdiObject, type DdiValue } from '../ddi/image.js';
import { bytesToHex, ddiFromJsonFilling, ddiToJson } from '../ddi/json.js';
import { jsonExtent } from '../json/vocabulary.js';
import { structDef } from '../ddi/layout.js';
import { checkedSubobjects, subobjectDefault, subobjectRow, zeroValue, type Subobject } from './stream.js';

/** Graphics (VS ... PS), compute (CS) or mesh (AS, MS). */
export type PipelineKind = 'graphics' | 'compute' | 'mesh';

/** A pipeline read from its JSON form: its subobjects in the order of the keys, and the files named. */
export interface Pipeline {
  kind: PipelineKind;
  subobjects: Subobject[];
  /** The path each file-valued key gave (`VS`, `pRootSignature`, `CachedPSO`...). */
  files: Record<string, string>;
}

/** Options of pipelineFromJson. */
export interface PipelineFromJsonOptions {
  /** Reads a file the description names (its path as written, relative to the JSON file). */
  read: (path: string) => Uint8Array;
  /** The call's work budget (default: one for the JSON's size). */
  budget?: Budget;
}

/** Every key of the pipeline JSON form, in row order. */
export const PIPELINE_KEYS: readonly string[] = SUBOBJECTS.map((r) => r.key);
/** The keys whose value is a file path (shaders, pRootSignature, CachedPSO). */
export const PIPELINE_FILE_KEYS: readonly string[] = SUBOBJECTS.filter((r) => shapeOf(r).kind === 'file').map((r) => r.key);

/** How a subobject's inner value is spelled in the pipeline JSON form. */
export type Shape =
  /** A struct of bytes and their size: a file path. */
  | { kind: 'file'; bytes: string; size: string }
  /** A struct of a pointer and its count: the list. */
  | { kind: 'list'; list: string; count: string; struct: string }
  /** A fixed array and how many of it are used: the used ones as a list. */
  | { kind: 'prefix'; array: string; count: string; length: number; of: FieldType }
  /** Anything else: the DDI JSON form, each pointer-and-count pair as the list alone. */
  | { kind: 'value' };

/** The shape of a subobject type's value (from its inner struct's fields). */
export function shapeOf(row: SubobjectRow): Shape {
  if (row.inner.kind !== 'struct') return { kind: 'value' };
  const [a, b, ...rest] = structDef(row.inner.struct).fields;
  if (!a || !b || rest.length) return { kind: 'value' };
  if (a.type.kind === 'ptr' && a.type.to.kind === 'bytes' && a.type.to.count.field === b.name) return { kind: 'file', bytes: a.name, size: b.name };
  if (a.type.kind === 'ptr' && a.type.to.kind === 'struct' && a.type.to.count?.field === b.name) return { kind: 'list', list: a.name, count: b.name, struct: a.type.to.struct };
  if (a.type.kind === 'array' && b.type.kind === 'UINT') return { kind: 'prefix', array: a.name, count: b.name, length: a.type.count, of: a.type.of };
  return { kind: 'value' };
}

/** Pointer fields of `def` with the count field that sizes them. */
function countedPointers(def: StructDef): { ptr: string; count: string }[] {
  const out: { ptr: string; count: string }[] = [];
  for (const f of def.fields) {
    if (f.type.kind !== 'ptr') continue;
    const to = f.type.to;
    if ((to.kind === 'struct' && to.count) || to.kind === 'uints') out.push({ ptr: f.name, count: to.count!.field });
  }
  return out;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `given` over `base`: objects key by key, lists item by item (a shorter list keeps the rest of
 * `base`'s items: `BlendState.RenderTarget` with one entry sets render target 0).
 */
function over(base: unknown, given: unknown, budget: Budget, path: string): unknown {
  if (given === undefined) return base;
  budget.charge('resolve', 1, path);
  if (isPlain(base) && isPlain(given)) {
    const out: Record<string, unknown> = { ...base };
    budget.enter(path);
    try {
      for (const [k, v] of Object.entries(given)) {
        // the base's own keys only (not toString, constructor, __proto__); any other key is kept as an
        // own key, even __proto__ (an assignment would set the prototype and lose it), for the DDI reader to refuse by name
        if (Object.hasOwn(base, k)) out[k] = over(base[k], v, budget, `${path}${pathKey(k)}`);
        else Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
      }
    } finally {
      budget.leave();
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(given)) {
    expectDense(given, path); // before any walk: a sparse list of 2^32 - 1 is refused at its first hole
    if (given.length > base.length) return given; // checked against the row's length by the reader
    budget.enter(path);
    try {
      return base.map((b, i) => (i < given.length ? over(b, given[i], budget, `${path}[${i}]`) : b));
    } finally {
      budget.leave();
    }
  }
  return given;
}

/** The default of a row in the DDI JSON form. */
function defaultJson(row: SubobjectRow): unknown {
  const json = ddiToJson(subobjectStructName(row.type), { Type: 0, Inner: row.default === undefined ? zeroValue(row.inner) : subobjectDefault(row.type) }) as { Inner: unknown };
  return json.Inner;
}

const zeroItems = new Map<string, Record<string, unknown>>();
/** Lists whose items read their missing fields from a zero struct (ddiFromJsonFilling), by list. */
type Fill = Map<readonly unknown[], Readonly<Record<string, unknown>>>;

/**
 * Each item of a list of `struct` over the zero-initialized struct (fields left out are 0 or
 * NULL). Where the zero struct holds no object or list (nothing for `over` to merge into), the
 * list itself is kept and entered in `fill`: ddiFromJsonFilling reads each item's missing fields
 * from the zero struct as it goes, so no merged copy of the list is made; the budget is charged
 * as `over` charges it.
 */
function itemsOver(struct: string, list: readonly unknown[], budget: Budget, path: string, fill: Fill): readonly unknown[] {
  expectDense(list, path);
  let zero = zeroItems.get(struct);
  if (zero === undefined) zeroItems.set(struct, (zero = ddiToJson(struct, zeroValue({ kind: 'struct', struct }) as DdiObject) as Record<string, unknown>));
  const flat = Object.values(zero).every((v) => typeof v !== 'object' || v === null);
  if (!flat || (fill.has(list) && fill.get(list) !== zero)) return list.map((item, i) => (isPlain(item) ? over(zero, item, budget, `${path}[${i}]`) : item));
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isPlain(item)) continue;
    // over(zero, item): one for the item, one level deeper, one for each of its keys the zero struct has
    const at = () => `${path}[${i}]`;
    budget.charge('resolve', 1, at);
    budget.enter(at);
    try {
      for (const [k, v] of Object.entries(item)) if (v !== undefined && Object.hasOwn(zero, k)) budget.charge('resolve', 1, () => `${at()}${pathKey(k)}`);
    } finally {
      budget.leave();
    }
  }
  fill.set(list, zero);
  return list;
}

/** The kind of a pipeline from its stages. */
export function pipelineKind(subobjects: readonly Subobject[]): PipelineKind {
  subobjects = checkedSubobjects(subobjects);
  const types = new Set(subobjects.map((s) => s.type));
  if (types.has('CS')) return 'compute';
  if (types.has('AS') || types.has('MS')) return 'mesh';
  return 'graphics';
}

/**
 * A pipeline from its JSON form, each file it names read through `options.read`.
 * @throws {DescriptionError} an unknown key or field, a value its row refuses, two keys setting the same state (DepthStencilState and DepthStencilState1), a file that cannot be read
 */
export function pipelineFromJson(json: unknown, options: PipelineFromJsonOptions): Pipeline {
  expectOptionKeys(options, ['read', 'budget']);
  expectObject(json, 'pipeline');
  expectFunction(options?.read, 'options.read');
  const budget = options.budget ?? Budget.for(jsonExtent(json));
  const subobjects: Subobject[] = [];
  const files: Record<string, string> = {};
  const groups = new Map<string, string>();
  for (const [key, given] of Object.entries(json)) {
    const path = `pipeline${pathKey(key)}`;
    if (key === '$schema') continue;
    const row = SUBOBJECTS.find((r) => r.key === key);
    if (!row) throw new DescriptionError('unknown-key', path, `a pipeline has no ${quoted(key)} (known: ${PIPELINE_KEYS.join(', ')})`);
    if (row.group) {
      const other = groups.get(row.group);
      if (other) throw new DescriptionError('out-of-range', path, `${key} and ${other} both set the ${row.group} state; give one`);
      groups.set(row.group, key);
    }
    const shape = shapeOf(row);
    const fill: Fill = new Map();
    let inner: unknown;
    if (shape.kind === 'file') {
      if (typeof given !== 'string' || given === '') throw new DescriptionError('bad-type', path, `expected a file path (relative to the JSON file), got ${quoted(given)}`);
      let bytes: Uint8Array;
      try {
        bytes = options.read(given);
      } catch (e) {
        if (e instanceof DescriptionError || (e as { code?: unknown } | null)?.code === 'limit-exceeded') throw e;
        throw new DescriptionError('bad-name', path, `cannot read ${quoted(given)}: ${readerWords(e)}`);
      }
      if (!(bytes instanceof Uint8Array)) throw new DescriptionError('bad-type', path, `options.read gave ${kindOf(bytes)} for ${quoted(given)}, not bytes`);
      // a transferred buffer reads as 0 bytes: an empty file, without a word
      if (isDetached(bytes)) throw new DescriptionError('bad-type', path, `options.read gave a detached buffer for ${quoted(given)}`);
      budget.chargeRead(bytes.byteLength, path);
      files[key] = given;
      inner = { [shape.bytes]: bytes.byteLength ? bytesToHex(bytes) : null, [shape.size]: bytes.byteLength };
    } else if (shape.kind === 'list') {
      if (!Array.isArray(given)) throw new DescriptionError('bad-type', path, `expected a list of ${shape.struct}`);
      inner = { [shape.list]: given.length ? itemsOver(shape.struct, given, budget, path, fill) : null, [shape.count]: given.length };
    } else if (shape.kind === 'prefix') {
      if (!Array.isArray(given) || given.length > shape.length) throw new DescriptionError(Array.isArray(given) ? 'out-of-range' : 'bad-type', path, `expected a list of at most ${shape.length}`);
      const zero = shape.of.kind === 'enum' ? shape.of.table.values.find(([, v]) => v === 0)?.[0] ?? 0 : 0;
      inner = { [shape.array]: Array.from({ length: shape.length }, (_, i) => (i < given.length ? given[i] : zero)), [shape.count]: given.length };
    } else {
      inner = over(defaultJson(row), given, budget, path);
      if (row.inner.kind === 'struct' && isPlain(inner)) {
        const withCounts: Record<string, unknown> = { ...inner };
        for (const { ptr, count } of countedPointers(structDef(row.inner.struct))) {
          if (Object.hasOwn(given as Record<string, unknown>, count)) throw new DescriptionError('unknown-key', `${path}.${count}`, `${count} is the length of ${ptr}: give the list only`);
          const list = withCounts[ptr];
          if (list !== null && list !== undefined && !Array.isArray(list)) throw new DescriptionError('bad-type', `${path}.${ptr}`, 'expected a list');
          withCounts[count] = Array.isArray(list) ? list.length : 0;
          if (Array.isArray(list) && list.length === 0) withCounts[ptr] = null;
          const item = structDef(row.inner.struct).fields.find((f) => f.name === ptr)!.type;
          if (Array.isArray(list) && list.length && item.kind === 'ptr' && item.to.kind === 'struct') withCounts[ptr] = itemsOver(item.to.struct, list, budget, `${path}.${ptr}`, fill);
        }
        inner = withCounts;
      }
    }
    let value: DdiObject;
    try {
      value = ddiFromJsonFilling(subobjectStructName(row.type), { Type: row.type, Inner: inner }, fill);
    } catch (e) {
      if (e instanceof DescriptionError) throw new DescriptionError(e.code, e.path.replace(/^CD3DX12_PIPELINE_STATE_STREAM_\w+\.Inner/, path), e.detail);
      throw e;
    }
    subobjects.push({ type: row.type, inner: value.Inner! });
  }
  return { kind: pipelineKind(subobjects), subobjects, files };
}

/** The most characters of a reader's error message a `cannot read` message repeats. */
const READER_WORDS = 200;

/**
 * What `options.read` threw, as words for a message: an Error's message, a string, else its kind.
 * Escaped and cut (a file system message repeats the path, which the input chose: a newline or
 * 10,000 characters of it).
 */
function readerWords(e: unknown): string {
  const words = e instanceof Error ? String(e.message) : typeof e === 'string' ? e : kindOf(e);
  return printable(words.length > READER_WORDS ? `${words.slice(0, READER_WORDS)}…(+${words.length - READER_WORDS} characters)` : words);
}

/** A file the pipeline JSON form names, with the bytes to write there. */
export interface PipelineFile {
  key: string;
  path: string;
  bytes: Uint8Array;
}

/**
 * The pipeline JSON form of a stream's subobjects; `path(key)` names the file for each
 * file-valued key (`VS` -> `pipeline.VS.bin`).
 * @throws {DescriptionError} not-representable for a type given twice, render-target formats past NumRenderTargets, or a count without its list
 */
export function pipelineToJson(subobjects: readonly Subobject[], options: { path: (key: string) => string }): { json: Record<string, unknown>; files: PipelineFile[] } {
  subobjects = checkedSubobjects(subobjects);
  expectOptionKeys(options, ['path']);
  expectFunction(options?.path, 'options.path');
  const json: Record<string, unknown> = {};
  const files: PipelineFile[] = [];
  subobjects.forEach((s, i) => {
    const row = subobjectRow(s.type);
    const where = `subobjects[${i}]`;
    if (row.key in json) throw new DescriptionError('not-representable', where, `a second ${row.type} subobject: the pipeline JSON form has one ${row.key}`);
    const shape = shapeOf(row);
    const inner = s.inner as DdiObject;
    if (shape.kind !== 'value') expectObject(inner, `${where}.inner`);
    if (shape.kind === 'file') {
      const bytes = (inner[shape.bytes] as Uint8Array | null) ?? new Uint8Array(0);
      if (bytes.byteLength === 0 && inner[shape.size] !== 0) throw nullWithCount(where, shape.bytes, shape.size, inner);
      const path = options.path(row.key);
      if (typeof path !== 'string' || path === '') throw new DescriptionError('bad-type', `${where}.path`, `options.path gave ${kindOf(path)} for ${row.key}, not a path`);
      if (!(bytes instanceof Uint8Array)) throw new DescriptionError('bad-type', `${where}.inner.${shape.bytes}`, `expected bytes, got ${kindOf(bytes)}`);
      files.push({ key: row.key, path, bytes });
      json[row.key] = path;
      return;
    }
    const full = (ddiToJson(subobjectStructName(row.type), { Type: 0, Inner: s.inner }) as { Inner: unknown }).Inner;
    if (shape.kind === 'list') {
      const list = (full as Record<string, unknown>)[shape.list];
      if (list === null && inner[shape.count] !== 0) throw nullWithCount(where, shape.list, shape.count, inner);
      json[row.key] = list ?? [];
    } else if (shape.kind === 'prefix') {
      const n = inner[shape.count] as number;
      const all = (full as Record<string, unknown[]>)[shape.array]!;
      const rest = (inner[shape.array] as number[]).slice(Math.min(n, shape.length));
      if (n > shape.length || rest.some((v) => v !== 0)) throw new DescriptionError('not-representable', where, `${shape.count} ${n} with formats set past it`);
      json[row.key] = all.slice(0, n);
    } else if (row.inner.kind === 'struct') {
      const obj = { ...(full as Record<string, unknown>) };
      for (const { ptr, count } of countedPointers(structDef(row.inner.struct))) {
        if (obj[ptr] === null && inner[count] !== 0) throw nullWithCount(where, ptr, count, inner);
        obj[ptr] = obj[ptr] ?? [];
        delete obj[count];
      }
      json[row.key] = obj;
    } else json[row.key] = full;
  });
  return { json, files };
}

/** A pointer NULL with a count that is not 0: the JSON form, a list or a path, cannot say it. */
const nullWithCount = (where: string, ptr: string, count: string, inner: DdiObject) => new DescriptionError('not-representable', where, `${ptr} is NULL but ${count} is ${String(inner[count])}`);

/** The value a pipeline gives a subobject type: its own, else the CD3DX12 default. */
export function pipelineValue(pipeline: Pick<Pipeline, 'subobjects'>, type: string): DdiValue {
  expectObject(pipeline, 'pipeline');
  const subobjects = checkedSubobjects(pipeline.subobjects, 'pipeline.subobjects');
  const row = subobjectRow(type);
  const hit = subobjects.find((s) => s.type === row.type);
  return hit ? hit.inner : subobjectDefault(type);
}
