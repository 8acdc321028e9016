/**
 * Views of the codecs/ RTS0 rows that every consumer needs, computed once at load: the data fields
 * of a record (those the typed description holds, as opposed to counts and offsets), the key of a
 * row, and the version list as text.
 */
import { ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import {
  CONSTANTS,
  DESCRIPTOR,
  HEADER,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  SAMPLER,
  ROOT_SIGNATURE_VERSIONS,
  TABLE,
  type FieldKind,
  type FieldRow,
  type RecordRow,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { record as rowRecord, type FieldType, type RecordDef } from '../../codecs/rows.js';
import type { RootParameter } from './types.js';

/** A field of a record with its key (the description's property and the JSON key). */
export interface KeyedField {
  readonly key: string;
  readonly row: FieldRow;
}

const STRUCTURE = new Set(['version', 'count', 'offset']);

/** The fields the typed description holds, in storage order (counts, offsets and the version left out). */
export function dataFields(record: RecordRow): KeyedField[] {
  return Object.entries(record.fields)
    .filter(([, row]) => typeof row.kind !== 'string' || !STRUCTURE.has(row.kind))
    .map(([key, row]) => ({ key, row }));
}

/** The key of a row in its record. */
export function keyOf(record: RecordRow, row: FieldRow): string {
  const hit = Object.entries(record.fields).find(([, r]) => r === row);
  if (!hit) throw new Error('dxbin internal: row not in record');
  return hit[0];
}

/** A parameter's type key (`parameterType`), which picks its payload. */
export const PARAMETER_TYPE_KEY = keyOf(PARAMETER, PARAMETER.fields.parameterType);

/** The key of the field of `kind` locating array `of` (`count` or `offset`). */
export function structureKey(record: RecordRow, kind: 'count' | 'offset', of: string): string {
  const hit = Object.entries(record.fields).find(([, r]) => r.kind === kind && r.of === of);
  if (!hit) throw new Error(`dxbin internal: no ${kind} of ${of}`);
  return hit[0];
}

/** The description keys of the header's two arrays (`parameters`, `staticSamplers`), in storage order. */
export const [PARAMETERS_KEY, SAMPLERS_KEY] = Object.values(HEADER.fields)
  .filter((r) => r.kind === 'count')
  .map((r) => r.of!) as [string, string];

/** The header field that holds the version, and its key. */
export const VERSION_KEY = keyOf(HEADER, HEADER.fields.version);

/** "1, 2, 3": the stored version numbers, for messages. */
export const KNOWN_VERSIONS = ROOT_SIGNATURE_VERSIONS.map((v) => v.value).join(', ');

/**
 * `make(v)` of every stored version, indexed by the version number (the holes filled so the
 * array stays packed): the codec's readers and writers are found with one indexed load.
 */
export function byVersion<T>(make: (v: RootSignatureVersion) => T): (T | undefined)[] {
  const out: (T | undefined)[] = [];
  for (const { value } of ROOT_SIGNATURE_VERSIONS) out[value] = make(value);
  for (let i = 0; i < out.length; i++) out[i] ??= undefined;
  return out;
}

/** Payload key by parameter type value, undefined for a value no type has (an array: an indexed load per parameter). */
export const PAYLOAD_BY_TYPE: readonly (string | undefined)[] = Array.from({ length: Math.max(...PARAMETER_TYPES.map((t) => t.value)) + 1 }, (_, i) => parameterTypeRow(i)?.payload);

/**
 * The record sizes and structural offsets (counts, offsets, the version and parameter type words)
 * the codec's reader and writer of version `v` work with, looked up in the rows once per version.
 */
export function recordLayout(v: RootSignatureVersion) {
  const at = (record: RecordRow, key: string) => record.fields[key]!.at[v]!;
  return {
    headerSize: HEADER.sizes[v],
    parameterSize: PARAMETER.sizes[v],
    tableSize: TABLE.sizes[v],
    rangeSize: RANGE.sizes[v],
    constantsSize: CONSTANTS.sizes[v],
    descriptorSize: DESCRIPTOR.sizes[v],
    samplerSize: SAMPLER.sizes[v],
    versionAt: at(HEADER, VERSION_KEY),
    numParametersAt: at(HEADER, structureKey(HEADER, 'count', PARAMETERS_KEY)),
    parametersAt: at(HEADER, structureKey(HEADER, 'offset', PARAMETERS_KEY)),
    numSamplersAt: at(HEADER, structureKey(HEADER, 'count', SAMPLERS_KEY)),
    samplersAt: at(HEADER, structureKey(HEADER, 'offset', SAMPLERS_KEY)),
    parameterTypeAt: at(PARAMETER, PARAMETER_TYPE_KEY),
    payloadAt: at(PARAMETER, structureKey(PARAMETER, 'offset', PAYLOAD_OF)),
    rangeCountAt: at(TABLE, structureKey(TABLE, 'count', PAYLOAD_KEY.TABLE)),
    rangesAt: at(TABLE, structureKey(TABLE, 'offset', PAYLOAD_KEY.TABLE)),
  };
}

/** The name of a version ("1.1"). */
export function versionName(version: RootSignatureVersion): string {
  return ROOT_SIGNATURE_VERSIONS.find((v) => v.value === version)!.name;
}

/** The parameter type row of a value, or undefined. */
export function parameterTypeRow(value: number): (typeof PARAMETER_TYPES)[number] | undefined {
  return PARAMETER_TYPES.find((t) => t.value === value);
}

/**
 * What the root parameter's payload offset locates (`payload`, its row's `of`): the name that
 * marks a record as one whose payload record its type row picks.
 */
export const PAYLOAD_OF = PARAMETER.fields.payloadOffset.of;

let payloadKeyList: readonly string[] | undefined;
/** The payload keys of the parameter types (`ranges`, `constants`, `descriptor`), each once, in row order (made on first use: only the JSON reader needs them). */
export const payloadKeys = (): readonly string[] => (payloadKeyList ??= [...new Set(PARAMETER_TYPES.map((t) => t.payload))]);

type ParameterTypeRow = (typeof PARAMETER_TYPES)[number];
/** The parameter type rows whose payload is record R (`DESCRIPTOR`: CBV, SRV, UAV), in row order. */
export function parameterTypesOf<R extends ParameterTypeRow['record']>(record: R): Extract<ParameterTypeRow, { record: R }>[] {
  return PARAMETER_TYPES.filter((t): t is Extract<ParameterTypeRow, { record: R }> => t.record === record);
}

/**
 * The root cost in DWORDs of parameter `p` of type row `type`: the row's `dwords`, or the value of
 * the payload field it names (the constants' num32BitValues).
 */
export function parameterCost(type: ParameterTypeRow, p: RootParameter): number {
  const dwords = type.dwords;
  return typeof dwords === 'number' ? dwords : (p as unknown as Record<string, Record<string, number>>)[type.payload]![dwords]!;
}

/** The payload key of the parameter types whose payload is record R (TABLE: `ranges`). */
export const PAYLOAD_KEY = Object.fromEntries(PARAMETER_TYPES.map((t) => [t.record, t.payload])) as {
  readonly [R in ParameterTypeRow['record']]: Extract<ParameterTypeRow, { record: R }>['payload'];
};

/**
 * A record's field keys as values (`KEYS.RANGE.rangeType` is 'rangeType'): code names a field as
 * a property the compiler checks against the row, never as a string of its own.
 */
function keysOf<F extends Readonly<Record<string, FieldRow>>>(record: RecordRow<F>): { readonly [K in keyof F]: K } {
  return Object.fromEntries(Object.keys(record.fields).map((k) => [k, k])) as { readonly [K in keyof F]: K };
}
/** The field keys of every record (pure: an app that reads none leaves them out). */
export const KEYS = {
  HEADER: /* @__PURE__ */ keysOf(HEADER),
  PARAMETER: /* @__PURE__ */ keysOf(PARAMETER),
  RANGE: /* @__PURE__ */ keysOf(RANGE),
  CONSTANTS: /* @__PURE__ */ keysOf(CONSTANTS),
  DESCRIPTOR: /* @__PURE__ */ keysOf(DESCRIPTOR),
  SAMPLER: /* @__PURE__ */ keysOf(SAMPLER),
} as const;

/** Paths of the description's parts as errors and byte maps spell them: `RTS0.parameters[2]`, `….ranges[0]`. */
export const parameterPath = (i: number, at: string = ROOT_SIGNATURE_PART): string => `${at}.${PARAMETERS_KEY}[${i}]`;
export const samplerPath = (k: number, at: string = ROOT_SIGNATURE_PART): string => `${at}.${SAMPLERS_KEY}[${k}]`;
export const rangePath = (parameter: string, j: number): string => `${parameter}.${PAYLOAD_KEY.TABLE}[${j}]`;
/** A field or payload of the record at `record` (`….parameterType`, `….ranges`) by its key. */
export const fieldPath = (record: string, key: string): string => `${record}.${key}`;
/**
 * A descriptor table's header record (range count and offset): it has no key in the description
 * (its ranges are the parameter's payload), so errors and byte maps name it `table`.
 */
export const tablePath = (parameter: string): string => `${parameter}.table`;
/** A field of the description's root (`RTS0.flags`, `RTS0.parameters`). */
export const rootPath = (key: string, at: string = ROOT_SIGNATURE_PART): string => `${at}.${key}`;

/**
 * A record as `version` stores it, in the row vocabulary every fixed-layout record is written in
 * (codecs/rows.ts): the fields the version stores, at its offsets, in a record of its size; each
 * a `u32` (an enumeration or flag word named through its table) or an `f32`. The layout is all it
 * says: JSON defaults and spellings, HLSL keywords and the summary stay on the codecs/ rows. The
 * generated readers and writers (scripts/gen-rts0-records.ts) and the generic interpreter
 * (src/rows/record.ts) read the records through it.
 */
export function recordDefAt(row: RecordRow, version: RootSignatureVersion): RecordDef {
  const fields = Object.entries(row.fields).flatMap(([key, f]) => {
    const at = f.at[version];
    return at === null ? [] : [{ key, at, type: rowType(f.kind) }];
  });
  return rowRecord(row.type, row.sizes[version], fields);
}

/** A field kind as a row type: structure words (version, counts, offsets) are plain u32s. */
function rowType(kind: FieldKind): FieldType {
  if (kind === 'f32') return 'f32';
  if (typeof kind === 'string') return 'u32';
  if ('values' in kind) return { enum: kind, width: 'u32' };
  // a flag table's bits are values (0x10000); a row's are bit indices
  return { flags: kind.bits.map(([name, value]) => ({ bit: 31 - Math.clz32(value), name })), width: 'u32' };
}
