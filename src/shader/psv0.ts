/**
 * PSV0 decode and encode, versions 0-4 (docs/formats/psv0.md). The version is implied by the
 * sizes the part declares; every byte is kept (larger-than-known records keep their tails, a
 * stage union with bytes DXC would not write stays raw, bytes after the walk stay as `trailing`),
 * so decode -> encode gives the input back.
 */
import { readOnce } from '../bytes/once.js';
import { readNul } from '../bytes/strings.js';
import { limitKeys, Budget, budgetOf } from '../bytes/budget.js';
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
import { DecodeError, DescriptionError, kindOf } from '../bytes/errors.js';
import { expectArray, expectDense, expectBytes, expectKnownKeys, expectObject, expectObjects, expectOffset, expectOptionKeys, expectOptions } from '../bytes/check.js';
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
  expectBytes(data, 'bytes'); // the path ByteReader's check names
  expectOptionKeys(options as unknown, ['base', 'stage']);
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
  for (let i = 0; i < psv.resources.length; i++) if (psv.resources[i]!.tail !== undefined) expectBytes(psv.resources[i]!.tail, `PSV0.resources[${i}].tail`);
  if (psv.stringTable !== undefined) expectBytes(psv.stringTable, 'PSV0.stringTable');
  for (const key of ['inputElements', 'outputElements', 'patchConstOrPrimElements', 'dependencies'] as const) records(psv[key], `PSV0.${key}`);
  // for loops and expectDense, not forEach: a hole is refused where it is, in the time the
  // elements given take (forEach walked a sparse array of length 2^32 - 1 for minutes)
  if (psv.semanticIndexes !== undefined) {
    expectArray(psv.semanticIndexes, 'PSV0.semanticIndexes');
    expectDense(psv.semanticIndexes, 'PSV0.semanticIndexes');
  }
  for (let i = 0; i < (psv.dependencies?.length ?? 0); i++) {
    expectArray(psv.dependencies![i]!.dwords, `PSV0.dependencies[${i}].dwords`);
    expectDense(psv.dependencies![i]!.dwords, `PSV0.dependencies[${i}].dwords`);
  }
  if (psv.elementTails !== undefined) {
    expectArray(psv.elementTails, 'PSV0.elementTails');
    for (let i = 0; i < psv.elementTails.length; i++) expectBytes(psv.elementTails[i], `PSV0.elementTails[${i}]`);
  }
}

/** Options of encodePsv0: the shader stage when the description does not say, and the work budget. */
export interface EncodePsv0Options {
  /** The shader kind from the DXIL program header; needed to name a v0 part's stage union (v0 stores no stage). */
  stage?: number;
  /**
   * The call's work budget (docs/limits.md): every byte written is charged to it as `resolve`
   * before the part is made; by default one for the description's own bytes (each byte array
   * counted once, however many records share it).
   */
  budget?: Budget;
  /** Most `resolve` units (bytes written) when no `budget` is given (default 8 x the description's own bytes, at least 1024). */
  maxResolved?: number;
}

/**
 * Typed description -> PSV0 part data. Everything the description declares is checked before
 * the part is made: every declared size is backed by the bytes it implies (a record size past the
 * known record by each record's tail, a runtime-info size by `runtimeInfoTail`), and the bytes
 * written are charged to the work budget, so that records sharing one tail cannot make a part
 * out of proportion to the description.
 * @throws {DescriptionError} a field out of range, a count that disagrees with the lists, a tail
 *   that is not the size a declared size implies, dependency blocks that disagree with the
 *   runtime info; bad-type for a description that is not an object
 * @throws {LimitError} limit-exceeded (`resolve`, `maxResolved`) when the bytes written pass the budget, naming the first record whose tail another record shares (else `PSV0`)
 */
export function encodePsv0(psv: Psv0, options: EncodePsv0Options = {}): Uint8Array {
  psv = readOnce(psv, 3); // read once (src/bytes/once.ts): the description checked is the one written
  checkPsv0Shape(psv);
  expectOptionKeys(options as unknown, limitKeys('stage'));
  if (options.stage !== undefined) expectOffset(options.stage, 'options.stage');
  const S = checkValue('PSV0.runtimeInfoSize', psv.runtimeInfoSize, 0xffffffff);
  if (S < PSV_MIN_SIZE.runtimeInfo) throw new DescriptionError('out-of-range', 'PSV0.runtimeInfoSize', `at least ${PSV_MIN_SIZE.runtimeInfo}`);
  const version = psvVersionOf(S);
  // The plan: every value checked and every size known, nothing of a declared size made yet.
  // `own` counts a record tail's bytes once, however many records hold it; `shared` names the
  // first record holding a tail an earlier one holds (where a budget runs out)
  const seen = new Set<Uint8Array>();
  let shared: string | undefined;
  const own = (b: Uint8Array, path: string): number => (seen.has(b) ? ((shared ??= path), 0) : (seen.add(b), b.byteLength));
  const known = knownRuntimeInfo(S);
  // the runtime info's bytes past the version's are the tail, which holds them: a size of 2^32 - 1 needs as many bytes given
  if (psv.runtimeInfoTail.byteLength !== S - known) throw new DescriptionError('out-of-range', 'PSV0.runtimeInfoTail', `runtime info of ${S} bytes needs ${S - known} tail bytes`);
  let size = 8 + S; // runtimeInfoSize, the runtime info, resourceCount
  let input = 8 + known + psv.runtimeInfoTail.byteLength;
  const info = { ...psv.info };
  if (version >= 1) {
    info.sigInputElements = psv.inputElements?.length ?? info.sigInputElements ?? 0;
    info.sigOutputElements = psv.outputElements?.length ?? info.sigOutputElements ?? 0;
    info.sigPatchConstOrPrimElements = psv.patchConstOrPrimElements?.length ?? info.sigPatchConstOrPrimElements ?? 0;
  }
  const infoDef = PSV_RUNTIME_INFO[version]!;
  checkRow(infoDef, info, 'PSV0.info');
  const stage = version >= 1 ? info.shaderStage : options.stage;
  let stageView: { def: RecordDef; row: Row } | undefined;
  // the union is one or the other (decodePsv0 gives one): with both, stageRaw was dropped silently
  if (psv.stageInfo !== undefined && psv.stageRaw !== undefined) throw new DescriptionError('out-of-range', 'PSV0.stageRaw', 'both stageInfo and stageRaw are given: the stage union is one of them');
  if (psv.stageInfo) {
    const view = stageViewRecord(stage, version);
    if (!view) throw new DescriptionError('missing-key', 'PSV0.stageRaw', 'the stage is not known (PSV0 v0 without a stage): give the union raw');
    expectKnownKeys(psv.stageInfo, keysOf(view), 'PSV0.stageInfo', { form: `the ${view.name} of this stage` }); // a key of no field was dropped
    const row = withZeros(psv.stageInfo, keysOf(view));
    checkRow(view, row, 'PSV0.stageInfo');
    stageView = { def: view, row };
  } else if (psv.stageRaw) {
    if (psv.stageRaw.union.byteLength !== 16) throw new DescriptionError('out-of-range', 'PSV0.stageRaw.union', 'the union has 16 bytes');
    if (version >= 1) checkValue('PSV0.stageRaw.word26', psv.stageRaw.word26, 0xffff);
  }
  const R = psv.resources.length;
  let B = 0;
  const resourceDef = psvResourceRecord(psv.resourceSize);
  const resourceRows: Row[] = [];
  if (R > 0) {
    B = checkValue('PSV0.resourceSize', psv.resourceSize, 0xffffffff);
    if (B < PSV_MIN_SIZE.resource) throw new DescriptionError('out-of-range', 'PSV0.resourceSize', `at least ${PSV_MIN_SIZE.resource}`);
    const keys = keysOf(resourceDef);
    const tailBytes = B - resourceDef.size;
    for (let i = 0; i < R; i++) {
      const res = psv.resources[i]!;
      // each record's tail holds its bytes past the known fields: a record size of 2^31 needs as many bytes in every tail
      if ((res.tail?.byteLength ?? 0) !== tailBytes) throw new DescriptionError('out-of-range', `PSV0.resources[${i}].tail`, `records of ${B} bytes need ${tailBytes} tail bytes`);
      const row = withZeros(res as unknown as Row, keys);
      checkRow(resourceDef, row, `PSV0.resources[${i}]`);
      resourceRows.push(row);
      input += resourceDef.size + (res.tail ? own(res.tail, `PSV0.resources[${i}].tail`) : 0);
    }
    size += 4 + R * B;
    input += 4;
  }
  const sig = S >= PSV_SIGNATURES_FROM_SIZE;
  const table = psv.stringTable ?? NO_BYTES;
  const indexes = psv.semanticIndexes ?? [];
  const lists = [psv.inputElements ?? [], psv.outputElements ?? [], psv.patchConstOrPrimElements ?? []];
  const n = lists[0]!.length + lists[1]!.length + lists[2]!.length;
  let E = 0;
  const elementRows: Row[] = [];
  const layout = sig ? dependencyLayout(info, psv.stageInfo, psv.stageRaw) : [];
  const blocks = psv.dependencies ?? [];
  if (sig) {
    if (table.byteLength % 4 !== 0) throw new DescriptionError('out-of-range', 'PSV0.stringTable', `${table.byteLength} bytes: DXC reads only string tables whose size is a multiple of 4`);
    // a for loop, not forEach: a hole is a missing index, never one left out of a count that says it
    for (let i = 0; i < indexes.length; i++) checkValue(`PSV0.semanticIndexes[${i}]`, indexes[i], 0xffffffff);
    size += 8 + table.byteLength + 4 * indexes.length;
    input += 8 + table.byteLength + 4 * indexes.length;
    const tails = psv.elementTails ?? [];
    if (n > 0) {
      E = checkValue('PSV0.elementSize', psv.elementSize, 0xffffffff);
      if (E < PSV_MIN_SIZE.element) throw new DescriptionError('out-of-range', 'PSV0.elementSize', `at least ${PSV_MIN_SIZE.element}`);
      const elementKeys = keysOf(PSV_ELEMENT);
      const tailBytes = E - PSV_ELEMENT.size;
      let k = 0;
      for (let l = 0; l < 3; l++) {
        const list = lists[l]!;
        for (let i = 0; i < list.length; i++, k++) {
          const row = withZeros(list[i]!, elementKeys);
          checkRow(PSV_ELEMENT, row, `${LIST_PATHS[l]}[${i}]`);
          elementRows.push(row);
          const tail = tails[k];
          if (tailBytes > 0 && tail?.byteLength !== tailBytes) throw new DescriptionError('out-of-range', `PSV0.elementTails[${k}]`, `elements of ${E} bytes need ${tailBytes} tail bytes`);
          input += PSV_ELEMENT.size + (tailBytes > 0 ? own(tail!, `PSV0.elementTails[${k}]`) : 0);
        }
      }
      size += 4 + n * E;
      input += 4;
    }
    // a tail no element takes would be dropped: the list has one per element, or none when elements have no tail
    if (tails.length !== 0 && tails.length !== (E > PSV_ELEMENT.size ? n : 0)) throw new DescriptionError('out-of-range', 'PSV0.elementTails', `${tails.length} tails for ${n} elements of ${E} bytes`);
    if (blocks.length !== layout.length) throw new DescriptionError('out-of-range', 'PSV0.dependencies', `the runtime info implies ${layout.length} dependency blocks, ${blocks.length} given`);
    for (let i = 0; i < layout.length; i++) {
      const want = layout[i]!;
      const b = blocks[i]!;
      if (b.key !== want.key || b.stream !== want.stream || b.dwords.length !== want.size) {
        throw new DescriptionError('out-of-range', `PSV0.dependencies[${i}]`, `expected ${want.key} stream ${want.stream} of ${want.size} dwords`);
      }
      for (let j = 0; j < want.size; j++) checkValue(`PSV0.dependencies[${i}].dwords[${j}]`, b.dwords[j], 0xffffffff);
      size += 4 * want.size;
      input += 4 * want.size;
    }
  }
  size += psv.trailing.byteLength;
  input += psv.trailing.byteLength;
  // The bytes written, charged before the part is made: within 8x the description's own bytes
  // by default; only records sharing a tail write more (the first that shares one is named).
  budgetOf(options, input).charge('resolve', size, shared ?? 'PSV0');

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  const u32 = (value: number): void => {
    view.setUint32(at, value >>> 0, true);
    at += 4;
  };
  const bytes = (b: Uint8Array): void => {
    out.set(b, at);
    at += b.byteLength;
  };
  u32(S);
  const ri = new DataView(out.buffer, at, S);
  writeRecord(infoDef, info, ri, 0);
  if (stageView) writeRecord(stageView.def, stageView.row, ri, 0);
  else if (psv.stageRaw) {
    out.set(psv.stageRaw.union, at);
    if (version >= 1) ri.setUint16(26, psv.stageRaw.word26, true);
  }
  out.set(psv.runtimeInfoTail, at + known);
  at += S;
  u32(R);
  if (R > 0) {
    u32(B);
    for (let i = 0; i < R; i++) {
      writeRecord(resourceDef, resourceRows[i]!, view, at);
      const tail = psv.resources[i]!.tail;
      if (tail) out.set(tail, at + resourceDef.size);
      at += B;
    }
  }
  if (sig) {
    u32(table.byteLength);
    bytes(table);
    u32(indexes.length);
    for (let i = 0; i < indexes.length; i++) u32(indexes[i]!);
    if (n > 0) {
      u32(E);
      for (let k = 0; k < n; k++) {
        writeRecord(PSV_ELEMENT, elementRows[k]!, view, at);
        if (E > PSV_ELEMENT.size) out.set(psv.elementTails![k]!, at + PSV_ELEMENT.size);
        at += E;
      }
    }
    for (let i = 0; i < layout.length; i++) {
      const dwords = blocks[i]!.dwords;
      for (let j = 0; j < dwords.length; j++) u32(dwords[j]!);
    }
  }
  bytes(psv.trailing);
  return out;
}

const NO_BYTES = new Uint8Array(0);

/**
 * The NUL-terminated string at `offset` of a PSV string table, or undefined when `offset` is no
 * whole number inside it.
 * @throws {DescriptionError} bad-type when `table` is not bytes or `offset` not a number
 */
export function psvString(table: Uint8Array | undefined, offset: number): string | undefined {
  if (table === undefined || table === null) return undefined;
  expectBytes(table, 'table');
  if (typeof offset !== 'number') throw new DescriptionError('bad-type', 'offset', `expected a number, got ${kindOf(offset)}`);
  // a whole offset inside the table: 1.5 read the string at 1 (the reads truncate it)
  if (!Number.isInteger(offset) || offset < 0 || offset >= table.byteLength) return undefined;
  return readNul(table, offset, Budget.for(table.byteLength), 'PSV0.stringTable').text;
}
