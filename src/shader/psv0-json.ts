/**
 * The JSON form of PSV0 (docs/formats/psv0.md): the typed description with enum values spelled
 * by name where the tables know them (numbers otherwise), byte arrays as hex, and read-only
 * helpers (`version`, element `name`, `entryFunction`) that the reader ignores. Lossless.
 */
import type { EnumTable } from '../../codecs/enum-table.js';
import { PSV_RECORDS } from '../../codecs/psv0.js';
import { DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { tableNames } from '../bytes/strings.js';
import { enumName } from '../json/vocabulary.js';
import { checkPsv0Shape, psvVersionOf, type Psv0, type PsvElement, type PsvFields, type PsvResource } from './psv0.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
function fromHex(path: string, value: unknown): Uint8Array {
  if (typeof value !== 'string' || !/^([0-9a-f]{2})*$/i.test(value)) throw new DescriptionError('bad-type', path, 'expected a hex string');
  return Uint8Array.from(value.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
}

function enumValue(table: EnumTable, path: string, value: unknown): number {
  if (typeof value === 'number') return value;
  const hit = table.values.find(([n]) => n === value);
  if (!hit) throw new DescriptionError('bad-name', path, `${quoted(value)} is not a ${table.type} name`);
  return hit[1];
}

/** The fields the rows give an enum type (shaderStage, resType, resKind, semanticKind), by key: spelled by name. */
const NAMED: Record<string, EnumTable> = {};
for (const def of PSV_RECORDS) for (const f of def.fields) if (typeof f.type === 'object' && 'enum' in f.type) NAMED[f.key] = f.type.enum;

function fieldsToJson(f: PsvFields): Record<string, Json> {
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, NAMED[k] ? enumName(NAMED[k], v) : v]));
}
function fieldsFromJson(path: string, o: unknown, skip: readonly string[] = []): PsvFields {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new DescriptionError('bad-type', path, 'expected an object');
  const out: PsvFields = {};
  for (const [k, v] of Object.entries(o)) {
    if (skip.includes(k)) continue;
    out[k] = NAMED[k] ? enumValue(NAMED[k], `${path}.${k}`, v) : (v as number);
  }
  return out;
}

/**
 * Typed PSV0 -> JSON value.
 * @throws {DescriptionError} bad-type for a description that is not an object
 */
export function psv0ToJson(psv: Psv0): Record<string, Json> {
  checkPsv0Shape(psv);
  // names are read-only helpers: each offset decoded once, long ones cut (many elements may share one string)
  const names = psv.stringTable ? tableNames(psv.stringTable) : undefined;
  const element = (e: PsvElement): Json => ({ ...fieldsToJson(e), ...(names && e.semanticName ? { name: names(e.semanticName) ?? null } : {}) });
  const out: Record<string, Json> = {
    version: psvVersionOf(psv.runtimeInfoSize),
    runtimeInfoSize: psv.runtimeInfoSize,
    info: fieldsToJson(psv.info),
  };
  if (psv.stageInfo) out.stageInfo = fieldsToJson(psv.stageInfo);
  if (psv.stageRaw) out.stageRaw = { union: toHex(psv.stageRaw.union), word26: psv.stageRaw.word26 };
  if (psv.runtimeInfoTail.byteLength) out.runtimeInfoTail = toHex(psv.runtimeInfoTail);
  out.resourceSize = psv.resourceSize;
  out.resources = psv.resources.map((r) => {
    const { tail, ...rest } = r;
    return { ...fieldsToJson(rest as unknown as PsvFields), ...(tail ? { tail: toHex(tail) } : {}) };
  });
  if (psv.stringTable) {
    out.stringTable = toHex(psv.stringTable);
    if (psv.info.entryFunctionName !== undefined) out.entryFunction = names!(psv.info.entryFunctionName) ?? null;
    out.semanticIndexes = psv.semanticIndexes ?? [];
    out.elementSize = psv.elementSize ?? 0;
    out.inputElements = (psv.inputElements ?? []).map(element);
    out.outputElements = (psv.outputElements ?? []).map(element);
    out.patchConstOrPrimElements = (psv.patchConstOrPrimElements ?? []).map(element);
    if (psv.elementTails) out.elementTails = psv.elementTails.map(toHex);
    out.dependencies = (psv.dependencies ?? []).map((d) => ({ key: d.key, stream: d.stream, dwords: d.dwords }));
  }
  if (psv.trailing.byteLength) out.trailing = toHex(psv.trailing);
  return out;
}

/** JSON value -> typed PSV0 (read-only helpers ignored). @throws {DescriptionError} */
export function psv0FromJson(json: unknown): Psv0 {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DescriptionError('bad-type', '$', 'expected an object');
  const j = json as Record<string, unknown>;
  const list = (key: string): unknown[] => {
    const v = j[key] ?? [];
    if (!Array.isArray(v)) throw new DescriptionError('bad-type', `$.${key}`, 'expected an array');
    return v;
  };
  const psv: Psv0 = {
    runtimeInfoSize: j.runtimeInfoSize as number,
    info: fieldsFromJson('$.info', j.info),
    runtimeInfoTail: j.runtimeInfoTail === undefined ? new Uint8Array(0) : fromHex('$.runtimeInfoTail', j.runtimeInfoTail),
    resourceSize: (j.resourceSize as number) ?? 0,
    resources: list('resources').map((r, i) => {
      const f = fieldsFromJson(`$.resources[${i}]`, r, ['tail']);
      const tail = (r as Record<string, unknown>).tail;
      return { ...(f as unknown as PsvResource), ...(tail !== undefined ? { tail: fromHex(`$.resources[${i}].tail`, tail) } : {}) };
    }),
    trailing: j.trailing === undefined ? new Uint8Array(0) : fromHex('$.trailing', j.trailing),
  };
  if (j.stageInfo !== undefined) psv.stageInfo = fieldsFromJson('$.stageInfo', j.stageInfo);
  if (j.stageRaw !== undefined) {
    const raw = j.stageRaw as Record<string, unknown>;
    psv.stageRaw = { union: fromHex('$.stageRaw.union', raw.union), word26: raw.word26 as number };
  }
  if (j.stringTable !== undefined) {
    psv.stringTable = fromHex('$.stringTable', j.stringTable);
    psv.semanticIndexes = list('semanticIndexes') as number[];
    psv.elementSize = (j.elementSize as number) ?? 0;
    psv.inputElements = list('inputElements').map((e, i) => fieldsFromJson(`$.inputElements[${i}]`, e, ['name']));
    psv.outputElements = list('outputElements').map((e, i) => fieldsFromJson(`$.outputElements[${i}]`, e, ['name']));
    psv.patchConstOrPrimElements = list('patchConstOrPrimElements').map((e, i) => fieldsFromJson(`$.patchConstOrPrimElements[${i}]`, e, ['name']));
    if (j.elementTails !== undefined) psv.elementTails = list('elementTails').map((t, i) => fromHex(`$.elementTails[${i}]`, t));
    psv.dependencies = list('dependencies') as Psv0['dependencies'];
  }
  return psv;
}
