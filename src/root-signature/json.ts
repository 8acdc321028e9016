/**
 * The JSON form of a root signature (documented in docs/json-form.md, schema in
 * schema/root-signature.schema.json): the typed description with D3D12 names for enum values and
 * flags, numbers where a value has no name. Lossless both ways.
 */
import {
  CONSTANTS,
  DESCRIPTOR,
  HEADER,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  ROOT_PARAMETER_TYPE,
  ROOT_SIGNATURE_VERSIONS,
  SAMPLER,
  stores,
  versionNamed,
  type RecordRow,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { expectDense, expectKnownKeys } from '../bytes/check.js';
import { enumName, enumValue, flagNames, flagValue, floatFromJson, floatToJson, u32FromJson as u32 } from '../json/vocabulary.js';
import { PARAMETERS_KEY, PAYLOAD_KEY, SAMPLERS_KEY, VERSION_KEY, PARAMETER_TYPE_KEY, dataFields, parameterPath, parameterTypeRow, payloadKeys, versionName } from './rows.js';
import { checkDescription } from './check.js';
import type { RootParameter, RootSignature } from './types.js';
import type { RootSignatureJson } from './json-types.generated.js';

type Json = unknown;
type JsonObject = Record<string, Json>;
type Fields = Record<string, unknown>;

// ---------------------------------------------------------------- description -> JSON

/**
 * The JSON form of a description: D3D12 names for enum values and flags, lossless.
 * @throws {DescriptionError} bad-type, missing-key or out-of-range (the version) for a description that is not one (checkDescription); out-of-range for an unknown parameter type (its payload has no JSON form)
 */
export function rootSignatureToJson(rs: RootSignature): RootSignatureJson {
  const v = checkDescription(rs);
  const values = rs as unknown as Fields;
  // the shape the rows give is RootSignatureJson's (both generated from the same rows; test/json-form.test.ts)
  const json: JsonObject = {
    [VERSION_KEY]: versionName(v),
    ...recordToJson(HEADER, values, v),
    [PARAMETERS_KEY]: rs.parameters.map((p, i) => parameterToJson(p as unknown as Fields, v, parameterPath(i))),
    [SAMPLERS_KEY]: rs.staticSamplers.map((s) => recordToJson(SAMPLER, s as unknown as Fields, v)),
  };
  return json as unknown as RootSignatureJson;
}

function parameterToJson(p: Fields, v: RootSignatureVersion, path: string): JsonObject {
  const type = p[PARAMETER_TYPE_KEY];
  // as rootSignatureFromJson and the encoder: the JSON form has no payload for an unknown type
  if (parameterTypeRow(type as number) === undefined) throw new DescriptionError('out-of-range', `${path}.${PARAMETER_TYPE_KEY}`, `unknown parameter type ${String(type)}: its payload layout is not defined`);
  const payload = payloadOf(type);
  const body = p[payload];
  return {
    ...recordToJson(PARAMETER, p, v),
    [payload]: payload === TABLE_PAYLOAD ? (body as Fields[]).map((r) => recordToJson(RANGE, r, v)) : recordToJson(payload === CONSTANTS_PAYLOAD ? CONSTANTS : DESCRIPTOR, body as Fields, v),
  };
}

/** The fields a version stores, in storage order, each as its kind spells it. */
function recordToJson(record: RecordRow, values: Fields, v: RootSignatureVersion): JsonObject {
  const out: JsonObject = {};
  for (const { key, row } of dataFields(record)) {
    if (!stores(row, v)) continue;
    const value = values[key] as number;
    const kind = row.kind;
    if (kind === 'f32') out[key] = floatToJson(value, (values.nanBits as Record<string, number> | undefined)?.[key]);
    else if (typeof kind !== 'string') out[key] = 'bits' in kind ? flagNames(kind, value) : enumName(kind, value);
    else out[key] = row.special && value === row.special.value ? row.special.json : value;
  }
  return out;
}

// ---------------------------------------------------------------- JSON -> description

/**
 * The description a JSON form stands for (names or numbers, "0x..." strings for u32 values).
 * @throws {DescriptionError} unknown-key, missing-key, bad-type, bad-name, out-of-range, not-representable
 */
export function rootSignatureFromJson(json: Json): RootSignature {
  const o = object(json, '$', [VERSION_KEY, ...keysOf(HEADER), PARAMETERS_KEY, SAMPLERS_KEY], [VERSION_KEY]);
  const version = versionNamed(o[VERSION_KEY]);
  if (version === undefined) throw new DescriptionError('out-of-range', `$.${VERSION_KEY}`, `expected ${versionChoices()}, got ${quoted(o[VERSION_KEY])}`);
  return {
    [VERSION_KEY]: version,
    ...readRecord(HEADER, o, version, '$'),
    [PARAMETERS_KEY]: array(o[PARAMETERS_KEY], `$.${PARAMETERS_KEY}`).map((p, i) => parameterFromJson(p, version, `$.${PARAMETERS_KEY}[${i}]`)),
    [SAMPLERS_KEY]: array(o[SAMPLERS_KEY], `$.${SAMPLERS_KEY}`).map((s, i) => recordFromJson(SAMPLER, s, version, `$.${SAMPLERS_KEY}[${i}]`)),
  } as unknown as RootSignature;
}

function parameterFromJson(json: Json, version: RootSignatureVersion, path: string): RootParameter {
  const head = object(json, path, [...keysOf(PARAMETER), ...payloadKeys()], requiredOf(PARAMETER));
  const fields = readRecord(PARAMETER, head, version, path);
  const parameterType = fields[PARAMETER_TYPE_KEY]!;
  const payloadKey = payloadOf(parameterType);
  const typeName = String(enumName(ROOT_PARAMETER_TYPE, parameterType));
  for (const key of payloadKeys()) {
    if (key !== payloadKey && head[key] !== undefined) throw new DescriptionError('unknown-key', `${path}.${key}`, `a ${typeName} parameter has no ${quoted(key)}`);
  }
  if (head[payloadKey] === undefined) throw new DescriptionError('missing-key', `${path}.${payloadKey}`, `a ${typeName} parameter needs "${payloadKey}"`);
  const at = `${path}.${payloadKey}`;
  let payload: unknown;
  if (payloadKey === TABLE_PAYLOAD) payload = array(head[payloadKey], at).map((r, j) => recordFromJson(RANGE, r, version, `${at}[${j}]`));
  else if (payloadKey === CONSTANTS_PAYLOAD) payload = recordFromJson(CONSTANTS, head[payloadKey], version, at);
  else {
    if (parameterTypeRow(parameterType) === undefined) throw new DescriptionError('out-of-range', `${path}.${PARAMETER_TYPE_KEY}`, `unknown parameter type ${parameterType}: its payload layout is not defined`);
    payload = recordFromJson(DESCRIPTOR, head[payloadKey], version, at);
  }
  return { ...fields, [payloadKey]: payload } as unknown as RootParameter;
}

/** A record of the JSON form: only its keys, the required ones present, each value read by its kind. */
function recordFromJson(record: RecordRow, json: Json, version: RootSignatureVersion, path: string): Record<string, number> {
  return readRecord(record, object(json, path, keysOf(record), requiredOf(record)), version, path);
}

function readRecord(record: RecordRow, o: JsonObject, version: RootSignatureVersion, path: string): Record<string, number> {
  const out: Record<string, number> = {};
  let nanBits: Record<string, number> | undefined;
  for (const { key, row } of dataFields(record)) {
    const at = `${path}.${key}`;
    const given = o[key];
    const kind = row.kind;
    let value: number;
    if (kind === 'f32') {
      const f = floatFromJson(given, at);
      value = f.value;
      if (f.nanBits !== undefined) (nanBits ??= {})[key] = f.nanBits;
    } else if (typeof kind !== 'string' && 'bits' in kind) value = flagValue(kind, given, at);
    else if (given === undefined) value = row.default!;
    else if (typeof kind !== 'string') value = enumValue(kind, given, at);
    else value = row.special && given === row.special.json ? row.special.value : u32(given, at);
    if (!stores(row, version) && value !== (row.default ?? 0)) {
      throw new DescriptionError('not-representable', at, `this version stores no ${key} here; convert the root signature to a later version first`);
    }
    out[key] = value;
  }
  if (nanBits) (out as Record<string, unknown>).nanBits = nanBits;
  return out;
}

const keysOf = (record: RecordRow) => dataFields(record).map((f) => f.key);
const requiredOf = (record: RecordRow) => dataFields(record).filter((f) => f.row.default === undefined).map((f) => f.key);
const payloadOf = (type: unknown) => PARAMETER_TYPES.find((t) => t.value === type)?.payload ?? DESCRIPTOR_PAYLOAD;
const { TABLE: TABLE_PAYLOAD, CONSTANTS: CONSTANTS_PAYLOAD, DESCRIPTOR: DESCRIPTOR_PAYLOAD } = PAYLOAD_KEY;
/** The version names as a sentence's list (`"1.0", "1.1" or "1.2"`), for the error only. */
const versionChoices = () => ROOT_SIGNATURE_VERSIONS.map((v, i, all) => `${i === 0 ? '' : i === all.length - 1 ? ' or ' : ', '}"${v.name}"`).join('');

function object(json: Json, path: string, allowed: readonly string[], required: readonly string[]): JsonObject {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DescriptionError('bad-type', path, 'expected an object');
  const o = json as JsonObject;
  expectKnownKeys(o, allowed, path); // a misspelt key would be read as absent
  for (const key of required) if (o[key] === undefined) throw new DescriptionError('missing-key', `${path}.${key}`, `"${key}" is required`);
  return o;
}

function array(json: Json, path: string): Json[] {
  if (json === undefined) return [];
  if (!Array.isArray(json)) throw new DescriptionError('bad-type', path, 'expected an array');
  // no holes (map skipped them: a sparse list came back as a sparse description)
  expectDense(json, path);
  return json;
}
