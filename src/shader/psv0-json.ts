/**
 * The JSON form of PSV0 (docs/formats/psv0.md): each record in the rows' JSON form (src/rows/
 * record.ts rowToJson and recordFromJson, the form parts have: an enumerated field's number with
 * `<key>Name` beside it), byte arrays as hex, and read-only helpers (`version`, element `name`,
 * `entryFunction`, the `...Name` keys) that the reader writes nothing of, each naming its value
 * when given (a name that disagrees is refused, bad-name). Lossless.
 */
import { PSV_ELEMENT, PSV_MIN_SIZE, PSV_RUNTIME_INFO, PSV_STAGE_VIEWS, psvResourceRecord } from '../../codecs/psv0.js';
import type { RecordDef } from '../../codecs/rows.js';
import { DescriptionError } from '../bytes/errors.js';
import { expectDense, expectKnownKeys, expectObject } from '../bytes/check.js';
import { tableNames } from '../bytes/strings.js';
import { quoted } from '../bytes/text.js';
import { hex, hexToBytes, recordFromJson, recordToJson, rowToJson, type Row } from '../rows/record.js';
import { checkPsv0Shape, keysOf, psvVersionOf, stageViewRecord, withZeros, type Psv0, type PsvElement, type PsvFields, type PsvResource } from './psv0.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const fromHex = (path: string, value: unknown): Uint8Array => hexToBytes(value, undefined, path);
const toHex = hex;

/**
 * A record of the typed description from its JSON form: recordFromJson (values checked, names
 * to values), then the stored keys only. A key the description leaves out stays out (the encoder
 * writes 0 for it); a resource's `tail` is the caller's.
 */
function fromJson(def: RecordDef, path: string, json: unknown, extra: readonly string[] = []): PsvFields {
  expectObject(json, path);
  const given = json as Record<string, unknown>;
  const keys = keysOf(def);
  onlyKeys(given, path, knownKeys(def), extra);
  const row = recordFromJson(def, withZeros(given, keys), path);
  const out: PsvFields = {};
  for (const k of keys) if (given[k] !== undefined) out[k] = row[k] as number;
  return out;
}

/** The keys a record's JSON form may hold: its stored keys and the names psv0ToJson writes beside them. */
const KNOWN = new WeakMap<RecordDef, ReadonlySet<string>>();
function knownKeys(def: RecordDef): ReadonlySet<string> {
  let known = KNOWN.get(def);
  if (!known) KNOWN.set(def, (known = new Set(keysOf(def).flatMap((k) => [k, `${k}Name`, `${k}Names`]))));
  return known;
}

/**
 * Refuses a key the form does not have (the one check: expectKnownKeys, unknown-key, the key
 * escaped in the path): a misspelt one (`"shaderStge"`, `"trailng"`) was ignored, its value
 * written as 0 or left out, silently.
 */
function onlyKeys(given: Record<string, unknown>, path: string, known: ReadonlySet<string>, extra: readonly string[] = []): void {
  expectKnownKeys(given, extra.length === 0 ? known : (k) => known.has(k) || extra.includes(k), path, extra.length === 0 ? undefined : { names: () => [...known, ...extra] });
}

/** A declared size of the JSON form: an integer min..4294967295 (as encodePsv0 checks it), else DescriptionError at `path`. */
function sizeField(v: unknown, path: string, min: number): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= 0xffffffff) return v + 0;
  throw new DescriptionError(typeof v === 'number' ? 'out-of-range' : v === undefined ? 'missing-key' : 'bad-type', path, `expected an integer ${min}..4294967295, got ${quoted(v)}`);
}

/** The keys of PSV0 v0's stage views, every stage's (made on first use). */
let V0_STAGE_KEYS: ReadonlySet<string> | undefined;
const v0StageKeys = (): ReadonlySet<string> => (V0_STAGE_KEYS ??= new Set(PSV_STAGE_VIEWS.flatMap((v) => keysOf(v.records[0]!))));

const TOP_KEYS: ReadonlySet<string> = new Set(['version', 'runtimeInfoSize', 'info', 'stageInfo', 'stageRaw', 'runtimeInfoTail', 'resourceSize', 'resources', 'stringTable', 'entryFunction', 'semanticIndexes', 'elementSize', 'inputElements', 'outputElements', 'patchConstOrPrimElements', 'elementTails', 'dependencies', 'trailing']);
const RAW_KEYS: ReadonlySet<string> = new Set(['union', 'word26']);
const DEPENDENCY_KEYS: ReadonlySet<string> = new Set(['key', 'stream', 'dwords']);

/**
 * Typed PSV0 -> JSON value.
 * @throws {DescriptionError} bad-type for a description that is not an object
 */
export function psv0ToJson(psv: Psv0): Record<string, Json> {
  checkPsv0Shape(psv);
  const version = psvVersionOf(psv.runtimeInfoSize);
  const record = (def: RecordDef, row: object, path: string): Record<string, Json> => rowToJson(def, row as Row, path) as Record<string, Json>;
  // names are read-only helpers: each offset decoded once, long ones cut (many elements may share one string)
  const names = psv.stringTable ? tableNames(psv.stringTable) : undefined;
  const element = (list: string) => (e: PsvElement, i: number): Json => ({ ...record(PSV_ELEMENT, e, `PSV0.${list}[${i}]`), ...(names && e.semanticName ? { name: names(e.semanticName) ?? null } : {}) });
  const out: Record<string, Json> = {
    version,
    runtimeInfoSize: psv.runtimeInfoSize,
    info: record(PSV_RUNTIME_INFO[version]!, psv.info, 'PSV0.info'),
  };
  // the stage views have plain integers only: their JSON form is the row's
  if (psv.stageInfo) out.stageInfo = recordToJson(Object.fromEntries(Object.entries(psv.stageInfo).map(([k, v]) => [k, v === 0 ? 0 : v]))) as Record<string, Json>; // a -0 is 0 here
  if (psv.stageRaw) out.stageRaw = { union: toHex(psv.stageRaw.union), word26: psv.stageRaw.word26 };
  if (psv.runtimeInfoTail.byteLength) out.runtimeInfoTail = toHex(psv.runtimeInfoTail);
  out.resourceSize = psv.resourceSize;
  const resource = psvResourceRecord(psv.resourceSize);
  out.resources = psv.resources.map((r, i) => {
    const { tail, ...rest } = r;
    return { ...record(resource, rest, `PSV0.resources[${i}]`), ...(tail ? { tail: toHex(tail) } : {}) };
  });
  if (psv.stringTable) {
    out.stringTable = toHex(psv.stringTable);
    if (psv.info.entryFunctionName !== undefined) out.entryFunction = names!(psv.info.entryFunctionName) ?? null;
    out.semanticIndexes = psv.semanticIndexes ?? [];
    out.elementSize = psv.elementSize ?? 0;
    out.inputElements = (psv.inputElements ?? []).map(element('inputElements'));
    out.outputElements = (psv.outputElements ?? []).map(element('outputElements'));
    out.patchConstOrPrimElements = (psv.patchConstOrPrimElements ?? []).map(element('patchConstOrPrimElements'));
    if (psv.elementTails) out.elementTails = psv.elementTails.map(toHex);
    out.dependencies = (psv.dependencies ?? []).map((d) => ({ key: d.key, stream: d.stream, dwords: d.dwords }));
  }
  if (psv.trailing.byteLength) out.trailing = toHex(psv.trailing);
  return out;
}

/**
 * JSON value -> typed PSV0 (read-only helpers ignored). A v0 part has no stage byte: its
 * `stageInfo` keys must be keys of some stage's view, its values kept as given (encodePsv0,
 * which is told the stage, checks them and the keys against that stage's view).
 * @throws {DescriptionError}
 */
export function psv0FromJson(json: unknown): Psv0 {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DescriptionError('bad-type', '$', 'expected an object');
  const j = json as Record<string, unknown>;
  onlyKeys(j, '$', TOP_KEYS);
  const list = (key: string): unknown[] => {
    const v = j[key] ?? [];
    if (!Array.isArray(v)) throw new DescriptionError('bad-type', `$.${key}`, 'expected an array');
    expectDense(v, `$.${key}`); // before map, which walks a sparse array of length 2^32 - 1 for minutes
    return v;
  };
  // the sizes choose the records the keys are checked against: checked first (a size of "24" or
  // -0 would pick version 0's records and name their keys unknown, not the size wrong)
  const size = sizeField(j.runtimeInfoSize, '$.runtimeInfoSize', PSV_MIN_SIZE.runtimeInfo);
  const version = psvVersionOf(size);
  // `version` is the helper of runtimeInfoSize: one that disagrees (an edit of it alone) was ignored
  if (j.version !== undefined && j.version !== version) throw new DescriptionError('out-of-range', '$.version', `${quoted(j.version)} is not the version runtimeInfoSize ${size} stands for (${version}): edit runtimeInfoSize, and give version as it follows or not at all`);
  const info = fromJson(PSV_RUNTIME_INFO[version]!, '$.info', j.info);
  const given = list('resources');
  const resourceSize = given.length > 0 ? sizeField(j.resourceSize, '$.resourceSize', PSV_MIN_SIZE.resource) : ((j.resourceSize as number) ?? 0);
  const resource = psvResourceRecord(resourceSize);
  const psv: Psv0 = {
    runtimeInfoSize: size,
    info,
    runtimeInfoTail: j.runtimeInfoTail === undefined ? new Uint8Array(0) : fromHex('$.runtimeInfoTail', j.runtimeInfoTail),
    resourceSize,
    resources: given.map((r, i) => {
      const f = fromJson(resource, `$.resources[${i}]`, r, ['tail']);
      const tail = (r as Record<string, unknown>).tail;
      return { ...(f as unknown as PsvResource), ...(tail !== undefined ? { tail: fromHex(`$.resources[${i}].tail`, tail) } : {}) };
    }),
    trailing: j.trailing === undefined ? new Uint8Array(0) : fromHex('$.trailing', j.trailing),
  };
  if (j.stageInfo !== undefined) {
    const view = stageViewRecord(version >= 1 ? info.shaderStage : undefined, version);
    if (!view) {
      // v0 stores no stage: the keys of any stage's view (encodePsv0, told the stage, checks its own); a misspelt one was kept and dropped
      expectObject(j.stageInfo, '$.stageInfo');
      expectKnownKeys(j.stageInfo, v0StageKeys(), '$.stageInfo', { form: 'a v0 stage view (any stage)' });
    }
    psv.stageInfo = view ? fromJson(view, '$.stageInfo', j.stageInfo) : { ...(j.stageInfo as PsvFields) };
  }
  if (j.stageRaw !== undefined) {
    expectObject(j.stageRaw, '$.stageRaw');
    const raw = j.stageRaw;
    onlyKeys(raw, '$.stageRaw', RAW_KEYS);
    psv.stageRaw = { union: fromHex('$.stageRaw.union', raw.union), word26: raw.word26 as number };
  }
  if (j.stringTable !== undefined) {
    psv.stringTable = fromHex('$.stringTable', j.stringTable);
    psv.semanticIndexes = list('semanticIndexes') as number[];
    psv.elementSize = (j.elementSize as number) ?? 0;
    psv.inputElements = list('inputElements').map((e, i) => fromJson(PSV_ELEMENT, `$.inputElements[${i}]`, e, ['name']));
    psv.outputElements = list('outputElements').map((e, i) => fromJson(PSV_ELEMENT, `$.outputElements[${i}]`, e, ['name']));
    psv.patchConstOrPrimElements = list('patchConstOrPrimElements').map((e, i) => fromJson(PSV_ELEMENT, `$.patchConstOrPrimElements[${i}]`, e, ['name']));
    if (j.elementTails !== undefined) psv.elementTails = list('elementTails').map((t, i) => fromHex(`$.elementTails[${i}]`, t));
    // the read-only names (entryFunction, an element's name) name what their offsets hold, as
    // psv0ToJson writes them (cut, or whole): one that disagrees (an edit of the name alone) was
    // ignored while the offset was written
    const cut = tableNames(psv.stringTable);
    const whole = tableNames(psv.stringTable, Infinity);
    const named = (given: unknown, offset: unknown, path: string) => {
      if (given === undefined) return;
      const at = typeof offset === 'number' ? offset : -1;
      const want = cut(at) ?? null;
      if (given !== want && given !== (whole(at) ?? null)) throw new DescriptionError('bad-name', path, `${quoted(given)} does not name what the string table holds at ${quoted(offset)} (${quoted(want)}): edit the offset or the table, and give the name as psv0ToJson writes it or not at all`);
    };
    named(j.entryFunction, info.entryFunctionName, '$.entryFunction');
    for (const key of ['inputElements', 'outputElements', 'patchConstOrPrimElements'] as const) {
      const given = list(key);
      psv[key]!.forEach((e, i) => {
        const name = (given[i] as Record<string, unknown>).name;
        if (name !== undefined && !e.semanticName) throw new DescriptionError('bad-name', `$.${key}[${i}].name`, `${quoted(name)} names no string: the element's semanticName is 0`);
        if (e.semanticName) named(name, e.semanticName, `$.${key}[${i}].name`);
      });
    }
    psv.dependencies = list('dependencies') as Psv0['dependencies'];
    for (let i = 0; i < psv.dependencies!.length; i++) {
      const d = psv.dependencies![i];
      if (typeof d === 'object' && d !== null && !Array.isArray(d)) onlyKeys(d as unknown as Record<string, unknown>, `$.dependencies[${i}]`, DEPENDENCY_KEYS);
    }
  }
  return psv;
}
