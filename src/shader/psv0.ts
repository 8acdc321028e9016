/**
 * PSV0 decode and encode, versions 0-4 (docs/formats/psv0.md). The version is implied by the
 * sizes the part declares; every byte is kept (larger-than-known records keep their tails, a
 * stage union with bytes DXC would not write stays raw, bytes after the walk stay as `trailing`),
 * so decode -> encode gives the input back.
 */
import { readNul } from '../bytes/strings.js';
import { Budget } from '../bytes/budget.js';
import {
  PSV_DEPENDENCY_BLOCKS,
  PSV_ELEMENT,
  PSV_MIN_SIZE,
  PSV_RUNTIME_INFO,
  PSV_SIGNATURES_FROM_SIZE,
  PSV_STAGE_VIEWS,
  PSV_VERSIONS,
  psvResourceRecord,
  type PsvVersion,
} from '../../codecs/psv0.js';
import type { RecordDef } from '../../codecs/rows.js';
import { checkRow, readRecord, RowReader, writeRecord, type Row } from '../rows/record.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { expectArray, expectBytes, expectObject, expectObjects, expectOffset, expectOptions } from '../bytes/check.js';
import { ByteReader } from '../bytes/reader.js';

/** PSV0 runtime-info fields by name, as read (the stage's view among them). */
export type PsvFields = Record<string, number>;

/** A PSV0 resource binding. */
export interface PsvResource {
  resType: number;
  space: number;
  lowerBound: number;
  upperBound: number;
  /** Stored only when the record size is 24 or more (PSV 2+). */
  resKind?: number;
  resFlags?: number;
  /** Bytes of a larger-than-known record after the known fields. */
  tail?: Uint8Array;
}

/** A PSV0 signature element. */
export interface PsvElement extends PsvFields {}

/** One PSV0 dependency table (view ID or input/output dependencies). */
export interface PsvDependencyBlock {
  key: (typeof PSV_DEPENDENCY_BLOCKS)[number]['key'];
  /** GS output stream (0 for every other stage). */
  stream: number;
  dwords: number[];
}

/** A decoded PSV0 part (pipeline state validation): runtime info, resources, signature elements, dependency tables. */
export interface Psv0 {
  /** Declared runtime-info size (24, 36, 48, 52, 56 or larger). */
  runtimeInfoSize: number;
  /** Runtime-info fields the size holds, outside the stage union (codecs/psv0.ts PSV_RUNTIME_INFO). */
  info: PsvFields;
  /** The stage union as named fields (when the stage is known and the bytes are what DXC writes). */
  stageInfo?: PsvFields;
  /** Otherwise the union's 16 bytes and (v1+) the u16 at 26, raw. */
  stageRaw?: { union: Uint8Array; word26: number };
  /** Runtime-info bytes past the size of the version the size implies (past 56 bytes, or between two versions' sizes). */
  runtimeInfoTail: Uint8Array;
  /** Declared resource record size; 0 when there are no resources (the size is not stored then). */
  resourceSize: number;
  resources: PsvResource[];
  /** PSV 1+: string table bytes, semantic index table, signature elements and dependency data. */
  stringTable?: Uint8Array;
  semanticIndexes?: number[];
  /** Declared element size; 0 when there are no elements (not stored then). */
  elementSize?: number;
  inputElements?: PsvElement[];
  outputElements?: PsvElement[];
  patchConstOrPrimElements?: PsvElement[];
  elementTails?: Uint8Array[];
  dependencies?: PsvDependencyBlock[];
  /** Bytes after the end of the structure (DXC's validator rejects them; its reader ignores them). */
  trailing: Uint8Array;
}

/** Options of decodePsv0: absolute base offset for errors, and the shader stage when the part does not say. */
export interface DecodePsv0Options {
  /** Absolute offset of the part data in the caller's bytes (for error offsets). */
  base?: number;
  /** The shader kind from the DXIL program header; needed for v0 parts (no stage byte). */
  stage?: number;
}

/** The PSV version a runtime-info size implies. */
export function psvVersionOf(runtimeInfoSize: number): PsvVersion {
  let v: PsvVersion = 0;
  for (const row of PSV_VERSIONS) if (runtimeInfoSize >= row.runtimeInfoSize) v = row.version;
  return v;
}

/** The bytes of runtime info the version a size implies names (24, 36, 48, 52 or 56): the rest is `runtimeInfoTail`. */
export function knownRuntimeInfo(runtimeInfoSize: number): number {
  return PSV_VERSIONS.find((v) => v.version === psvVersionOf(runtimeInfoSize))!.runtimeInfoSize;
}

/** The stage view of the union for a stage at a version (the rows of codecs/psv0.ts PSV_STAGE_VIEWS), or undefined for an unknown stage. */
export function stageViewRecord(stage: number | undefined, version: PsvVersion): RecordDef | undefined {
  if (stage === undefined) return undefined;
  return (PSV_STAGE_VIEWS.find((v) => v.stages.includes(stage)) ?? EMPTY_VIEW).records[version];
}
const EMPTY_VIEW = { records: PSV_VERSIONS.map((v) => ({ name: 'StageInfo', size: 16, fields: [] }) as RecordDef) };

/** A row with 0 for every key of `keys` the description leaves out (stage views, resources and elements default to zero). */
export function withZeros(row: Record<string, unknown>, keys: readonly string[]): Row {
  const out: Row = { ...row };
  for (const k of keys) if (out[k] === undefined) out[k] = 0;
  return out;
}
/** The keys a record's typed description holds: its fields', a packed word's subfields instead of the word. */
const KEYS = new WeakMap<RecordDef, readonly string[]>();
/** The stored keys of a record (a packed word's subfields in its place), made once per record definition. */
export function keysOf(def: RecordDef): readonly string[] {
  let keys = KEYS.get(def);
  if (!keys) KEYS.set(def, (keys = def.fields.flatMap((f) => (typeof f.type === 'object' && 'packed' in f.type ? f.type.subfields.map((x) => x.key) : [f.key]))));
  return keys;
}
const LIST_PATHS = ['PSV0.inputElements', 'PSV0.outputElements', 'PSV0.patchConstOrPrimElements'] as const;

const dw = (vectors: number) => (vectors + 7) >> 3;

/** The dependency blocks a runtime info implies, in storage order, with their sizes in dwords. */
export function dependencyLayout(info: PsvFields, stageInfo: PsvFields | undefined, stageRaw: Psv0['stageRaw']): { key: PsvDependencyBlock['key']; stream: number; size: number }[] {
  const stage = info.shaderStage!;
  const pcv = stageInfo ? (stageInfo.sigPatchConstOrPrimVectors ?? 0) : stage === 3 || stage === 4 || stage === 13 ? (stageRaw?.word26 ?? 0) & 0xff : 0;
  const vectors = { input: info.sigInputVectors!, patchConst: pcv } as const;
  const outputs = [info.sigOutputVectors0!, info.sigOutputVectors1!, info.sigOutputVectors2!, info.sigOutputVectors3!];
  const out: { key: PsvDependencyBlock['key']; stream: number; size: number }[] = [];
  for (const b of PSV_DEPENDENCY_BLOCKS) {
    if (b.needsViewId && !info.usesViewID) continue;
    if (b.stages === 'not-mesh' ? stage === 13 : b.stages !== 'all-but-none' && !(b.stages as readonly number[]).includes(stage)) continue;
    const streams = b.perStream ? (stage === 2 ? 4 : 1) : 1;
    for (let s = 0; s < streams; s++) {
      const cols = b.cols === 'output' ? outputs[s]! : vectors.patchConst;
      const rows = b.rows === null ? 1 : vectors[b.rows] * 4;
      if (cols === 0 || rows === 0) continue;
      out.push({ key: b.key, stream: s, size: rows * dw(cols) });
    }
  }
  return out;
}

/**
 * PSV0 part data -> typed description.
 * @throws {DecodeError} truncated, bad-offset, count-exceeds-data, unsupported-version (sizes below DXC's minimums)
 */
export function decodePsv0(data: Uint8Array, options: DecodePsv0Options = {}): Psv0 {
  expectOptions(options as unknown);
  for (const key of ['base', 'stage'] as const) if (options[key] !== undefined) expectOffset(options[key], `options.${key}`);
  const r = new ByteReader(data, options.base ?? 0);
  const rows = new RowReader(data, options.base ?? 0, Budget.for(data.byteLength));
  const S = r.u32(0, 'PSV0.runtimeInfoSize');
  if (S < PSV_MIN_SIZE.runtimeInfo) throw new DecodeError('unsupported-version', r.base, 'PSV0.runtimeInfoSize', `runtime info of ${S} bytes, at least ${PSV_MIN_SIZE.runtimeInfo} expected`);
  r.need(4, S, 'PSV0.runtimeInfo');
  const version = psvVersionOf(S);
  const info = readRecord(PSV_RUNTIME_INFO[version]!, rows, 4, 'PSV0.runtimeInfo', undefined, 'plain') as PsvFields;
  const stage = version >= 1 ? info.shaderStage : options.stage;
  const psv: Psv0 = { runtimeInfoSize: S, info, runtimeInfoTail: data.slice(4 + knownRuntimeInfo(S), 4 + S), resourceSize: 0, resources: [], trailing: new Uint8Array(0) };
  // The stage union: named when re-encoding the view gives the same bytes, raw otherwise.
  const view = stageViewRecord(stage, version);
  const word26 = version >= 1 ? (rows.scalar('u16', 4 + 26, 'PSV0.runtimeInfo') as number) : 0;
  const union = data.slice(4, 20);
  if (view) {
    const stageInfo = readRecord(view, rows, 4, 'PSV0.runtimeInfo', undefined, 'plain') as PsvFields;
    const again = encodeStageView(view, stageInfo);
    if (equal(again.union, union) && again.word26 === word26) psv.stageInfo = stageInfo;
  }
  if (!psv.stageInfo) psv.stageRaw = { union, word26 };

  let at = 4 + S;
  const R = r.u32(at, 'PSV0.resourceCount');
  at += 4;
  if (R > 0) {
    const B = r.u32(at, 'PSV0.resourceSize');
    if (B < PSV_MIN_SIZE.resource) throw new DecodeError('unsupported-version', r.base + at, 'PSV0.resourceSize', `resource records of ${B} bytes, at least ${PSV_MIN_SIZE.resource} expected`);
    at += 4;
    r.needArray(at, R, B, 'PSV0.resources');
    psv.resourceSize = B;
    const def = psvResourceRecord(B);
    for (let i = 0; i < R; i++) {
      const res = readRecord(def, rows, at, 'PSV0.resources', undefined, 'plain') as unknown as PsvResource;
      if (B > def.size) res.tail = data.slice(at + def.size, at + B);
      psv.resources.push(res);
      at += B;
    }
  }
  if (S >= PSV_SIGNATURES_FROM_SIZE) {
    const T = r.u32(at, 'PSV0.stringTableSize');
    // DXC's reader (DxilPipelineStateValidation::ReadOrWrite) fails unless the size is a multiple of 4.
    if (T % 4 !== 0) throw new DecodeError('bad-offset', r.base + at, 'PSV0.stringTableSize', `a string table of ${T} bytes: DXC reads only sizes that are a multiple of 4`);
    at += 4;
    psv.stringTable = r.slice(at, T, 'PSV0.stringTable').slice();
    at += T;
    const I = r.u32(at, 'PSV0.semanticIndexCount');
    at += 4;
    r.needArray(at, I, 4, 'PSV0.semanticIndexes');
    psv.semanticIndexes = words(data, at, I);
    at += 4 * I;
    const counts = [info.sigInputElements!, info.sigOutputElements!, info.sigPatchConstOrPrimElements!];
    const n = counts[0]! + counts[1]! + counts[2]!;
    psv.elementSize = 0;
    psv.inputElements = [];
    psv.outputElements = [];
    psv.patchConstOrPrimElements = [];
    if (n > 0) {
      const E = r.u32(at, 'PSV0.elementSize');
      if (E < PSV_MIN_SIZE.element) throw new DecodeError('unsupported-version', r.base + at, 'PSV0.elementSize', `signature elements of ${E} bytes, at least ${PSV_MIN_SIZE.element} expected`);
      at += 4;
      r.needArray(at, n, E, 'PSV0.elements');
      psv.elementSize = E;
      const lists = [psv.inputElements, psv.outputElements, psv.patchConstOrPrimElements];
      for (let l = 0; l < 3; l++) {
        for (let i = 0; i < counts[l]!; i++) {
          lists[l]!.push(readRecord(PSV_ELEMENT, rows, at, LIST_PATHS[l]!, undefined, 'plain') as PsvElement);
          if (E > PSV_ELEMENT.size) (psv.elementTails ??= []).push(data.slice(at + PSV_ELEMENT.size, at + E));
          at += E;
        }
      }
    }
    psv.dependencies = [];
    for (const b of dependencyLayout(info, psv.stageInfo, psv.stageRaw)) {
      r.needArray(at, b.size, 4, `PSV0.dependencies.${b.key}[${b.stream}]`);
      psv.dependencies.push({ key: b.key, stream: b.stream, dwords: words(data, at, b.size) });
      at += 4 * b.size;
    }
  }
  psv.trailing = data.slice(at);
  return psv;
}

/** `n` u32 words at `at` (bounds checked by the walk). */
function words(data: Uint8Array, at: number, n: number): number[] {
  const view = new DataView(data.buffer, data.byteOffset + at, 4 * n);
  const out = new Array<number>(n);
  for (let k = 0; k < n; k++) out[k] = view.getUint32(4 * k, true);
  return out;
}

function encodeStageView(view: RecordDef, values: PsvFields): { union: Uint8Array; word26: number } {
  const area = new Uint8Array(28);
  const v = new DataView(area.buffer);
  writeRecord(view, withZeros(values, keysOf(view)), v, 0);
  return { union: area.slice(0, 16), word26: v.getUint16(26, true) };
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
}

function checkValue(path: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new DescriptionError(typeof value === 'number' ? 'out-of-range' : value === undefined ? 'missing-key' : 'bad-type', path, `expected an integer 0..${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * The shape psv0ToJson and encodePsv0 walk (what decodePsv0 returns): objects, arrays of objects and bytes where
 * they belong, so the walk reads no property of undefined.
 * @throws {DescriptionError} bad-type naming the field
 */
export function checkPsv0Shape(psv: Psv0): void {
  expectObject(psv, 'PSV0');
  expectObject(psv.info, 'PSV0.info');
  if (psv.stageInfo !== undefined) expectObject(psv.stageInfo, 'PSV0.stageInfo');
  if (psv.stageRaw !== undefined) {
    expectObject(psv.stageRaw, 'PSV0.stageRaw');
    expectBytes(psv.stageRaw.union, 'PSV0.stageRaw.union');
  }
  expectBytes(psv.runtimeInfoTail, 'PSV0.runtimeInfoTail');
  expectBytes(psv.trailing, 'PSV0.trailing');
  const records = (value: unknown, path: string) => {
    if (value === undefined) return;
    expectArray(value, path);
    expectObjects(value, path);
  };
  if (psv.resources === undefined) throw new DescriptionError('missing-key', 'PSV0.resources', 'required');
  records(psv.resources, 'PSV0.resources');
  psv.resources.forEach((r, i) => r.tail !== undefined && expectBytes(r.tail, `PSV0.resources[${i}].tail`));
  if (psv.stringTable !== undefined) expectBytes(psv.stringTable, 'PSV0.stringTable');
  for (const key of ['inputElements', 'outputElements', 'patchConstOrPrimElements', 'dependencies'] as const) records(psv[key], `PSV0.${key}`);
  if (psv.semanticIndexes !== undefined) expectArray(psv.semanticIndexes, 'PSV0.semanticIndexes');
  psv.dependencies?.forEach((d, i) => expectArray(d.dwords, `PSV0.dependencies[${i}].dwords`));
  if (psv.elementTails !== undefined) {
    expectArray(psv.elementTails, 'PSV0.elementTails');
    psv.elementTails.forEach((t, i) => expectBytes(t, `PSV0.elementTails[${i}]`));
  }
}

/**
 * Typed description -> PSV0 part data.
 * @throws {DescriptionError} a field out of range, a count that disagrees with the lists, dependency
 *   blocks that disagree with the runtime info; bad-type for a description that is not an object
 */
export function encodePsv0(psv: Psv0, options: { stage?: number } = {}): Uint8Array {
  checkPsv0Shape(psv);
  expectOptions(options as unknown);
  if (options.stage !== undefined) expectOffset(options.stage, 'options.stage');
  const S = checkValue('PSV0.runtimeInfoSize', psv.runtimeInfoSize, 0xffffffff);
  if (S < PSV_MIN_SIZE.runtimeInfo) throw new DescriptionError('out-of-range', 'PSV0.runtimeInfoSize', `at least ${PSV_MIN_SIZE.runtimeInfo}`);
  const version = psvVersionOf(S);
  const chunks: Uint8Array[] = [];
  const u32 = (value: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, value >>> 0, true);
    chunks.push(b);
  };
  u32(S);
  const ri = new Uint8Array(S);
  const rv = new DataView(ri.buffer);
  const info = { ...psv.info };
  if (version >= 1) {
    info.sigInputElements = psv.inputElements?.length ?? info.sigInputElements ?? 0;
    info.sigOutputElements = psv.outputElements?.length ?? info.sigOutputElements ?? 0;
    info.sigPatchConstOrPrimElements = psv.patchConstOrPrimElements?.length ?? info.sigPatchConstOrPrimElements ?? 0;
  }
  const infoDef = PSV_RUNTIME_INFO[version]!;
  checkRow(infoDef, info, 'PSV0.info');
  writeRecord(infoDef, info, rv, 0);
  const stage = version >= 1 ? info.shaderStage : options.stage;
  if (psv.stageInfo) {
    const view = stageViewRecord(stage, version);
    if (!view) throw new DescriptionError('missing-key', 'PSV0.stageRaw', 'the stage is not known (PSV0 v0 without a stage): give the union raw');
    const row = withZeros(psv.stageInfo, keysOf(view));
    checkRow(view, row, 'PSV0.stageInfo');
    writeRecord(view, row, rv, 0);
  } else if (psv.stageRaw) {
    if (psv.stageRaw.union.byteLength !== 16) throw new DescriptionError('out-of-range', 'PSV0.stageRaw.union', 'the union has 16 bytes');
    ri.set(psv.stageRaw.union, 0);
    if (version >= 1) rv.setUint16(26, checkValue('PSV0.stageRaw.word26', psv.stageRaw.word26, 0xffff), true);
  }
  const known = knownRuntimeInfo(S);
  if (S > known) {
    if (psv.runtimeInfoTail.byteLength !== S - known) throw new DescriptionError('out-of-range', 'PSV0.runtimeInfoTail', `runtime info of ${S} bytes needs ${S - known} tail bytes`);
    ri.set(psv.runtimeInfoTail, known);
  }
  chunks.push(ri);
  u32(psv.resources.length);
  if (psv.resources.length > 0) {
    const B = checkValue('PSV0.resourceSize', psv.resourceSize, 0xffffffff);
    if (B < PSV_MIN_SIZE.resource) throw new DescriptionError('out-of-range', 'PSV0.resourceSize', `at least ${PSV_MIN_SIZE.resource}`);
    u32(B);
    const def = psvResourceRecord(B);
    const known = def.size;
    const keys = keysOf(def);
    psv.resources.forEach((res, i) => {
      const rec = new Uint8Array(B);
      const row = withZeros(res as unknown as Row, keys);
      checkRow(def, row, `PSV0.resources[${i}]`);
      writeRecord(def, row, new DataView(rec.buffer), 0);
      if (B > known) {
        if (res.tail?.byteLength !== B - known) throw new DescriptionError('out-of-range', `PSV0.resources[${i}].tail`, `records of ${B} bytes need ${B - known} tail bytes`);
        rec.set(res.tail, known);
      }
      chunks.push(rec);
    });
  }
  if (S >= PSV_SIGNATURES_FROM_SIZE) {
    const table = psv.stringTable ?? new Uint8Array(0);
    expectBytes(table, 'PSV0.stringTable');
    if (table.byteLength % 4 !== 0) throw new DescriptionError('out-of-range', 'PSV0.stringTable', `${table.byteLength} bytes: DXC reads only string tables whose size is a multiple of 4`);
    u32(table.byteLength);
    chunks.push(table);
    const indexes = psv.semanticIndexes ?? [];
    u32(indexes.length);
    indexes.forEach((x, i) => u32(checkValue(`PSV0.semanticIndexes[${i}]`, x, 0xffffffff)));
    const lists = [psv.inputElements ?? [], psv.outputElements ?? [], psv.patchConstOrPrimElements ?? []];
    const n = lists[0]!.length + lists[1]!.length + lists[2]!.length;
    if (n > 0) {
      const E = checkValue('PSV0.elementSize', psv.elementSize, 0xffffffff);
      if (E < PSV_MIN_SIZE.element) throw new DescriptionError('out-of-range', 'PSV0.elementSize', `at least ${PSV_MIN_SIZE.element}`);
      u32(E);
      let k = 0;
      const elementKeys = keysOf(PSV_ELEMENT);
      const names = ['inputElements', 'outputElements', 'patchConstOrPrimElements'];
      lists.forEach((list, l) =>
        list.forEach((e, i) => {
          const rec = new Uint8Array(E);
          const row = withZeros(e, elementKeys);
          checkRow(PSV_ELEMENT, row, `PSV0.${names[l]}[${i}]`);
          writeRecord(PSV_ELEMENT, row, new DataView(rec.buffer), 0);
          if (E > PSV_ELEMENT.size) {
            const tail = psv.elementTails?.[k];
            if (tail?.byteLength !== E - PSV_ELEMENT.size) throw new DescriptionError('out-of-range', `PSV0.elementTails[${k}]`, `elements of ${E} bytes need ${E - PSV_ELEMENT.size} tail bytes`);
            rec.set(tail, PSV_ELEMENT.size);
          }
          k++;
          chunks.push(rec);
        }),
      );
    }
    const layout = dependencyLayout(info, psv.stageInfo, psv.stageRaw);
    const blocks = psv.dependencies ?? [];
    if (blocks.length !== layout.length) throw new DescriptionError('out-of-range', 'PSV0.dependencies', `the runtime info implies ${layout.length} dependency blocks, ${blocks.length} given`);
    layout.forEach((want, i) => {
      const b = blocks[i]!;
      if (b.key !== want.key || b.stream !== want.stream || b.dwords.length !== want.size) {
        throw new DescriptionError('out-of-range', `PSV0.dependencies[${i}]`, `expected ${want.key} stream ${want.stream} of ${want.size} dwords`);
      }
      b.dwords.forEach((x, j) => u32(checkValue(`PSV0.dependencies[${i}].dwords[${j}]`, x, 0xffffffff)));
    });
  }
  chunks.push(psv.trailing);
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The NUL-terminated string at `offset` of a PSV string table, or undefined when outside. */
export function psvString(table: Uint8Array | undefined, offset: number): string | undefined {
  if (table === undefined || table === null) return undefined;
  expectBytes(table, 'table');
  if (!(offset >= 0) || offset >= table.byteLength) return undefined;
  return readNul(table, offset, Budget.for(table.byteLength), 'PSV0.stringTable').text;
}
