/**
 * RTS0 reader (docs/formats/rts0.md): follows offsets wherever they point (any block order, shared
 * arrays, gaps and trailing bytes are accepted), checks every array against the bytes before
 * allocating, and keeps unknown enum values and flag bits.
 *
 * One reader per version is built from the codecs/ rows at load: each record's fields become
 * arrays of keys and offsets, read in a plain loop. Every record is bounds-checked as a whole, so
 * no field read can fail; error paths are built only when an error is thrown.
 */
import {
  CONSTANTS,
  DESCRIPTOR,
  HEADER,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  ROOT_SIGNATURE_VERSIONS,
  SAMPLER,
  TABLE,
  versionRow,
  type RecordRow,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { DecodeError } from '../bytes/errors.js';
import { QUIET_NAN_BITS as QUIET_NAN } from '../bytes/f32.js';
import { getU32 } from '../bytes/le.js';
import { ByteReader } from '../bytes/reader.js';
import { KNOWN_VERSIONS, PARAMETERS_KEY as PARAMETERS_ROW_KEY, SAMPLERS_KEY as SAMPLERS_ROW_KEY, VERSION_KEY as VERSION_ROW_KEY, dataFields, keyOf, structureKey } from './rows.js';
import type { RootParameter, RootSignature, StaticSampler } from './types.js';

// Imported values as module constants: read once at load, not through the imports per record.
const PARAMETERS_KEY = PARAMETERS_ROW_KEY;
const SAMPLERS_KEY = SAMPLERS_ROW_KEY;
const VERSION_KEY = VERSION_ROW_KEY;
const QUIET_NAN_BITS = QUIET_NAN;

/** Where the blocks of a decoded RTS0 part were. */
export interface RootSignatureLayout {
  size: number;
  parametersOffset: number;
  staticSamplersOffset: number;
  payloadOffsets: number[];
  /** Per parameter: the range array offset of a table, undefined otherwise. */
  rangeOffsets: (number | undefined)[];
}

/** Options of decodeRootSignature and readRootSignature. */
export interface DecodeRootSignatureOptions {
  /** Absolute offset of the part's first byte in the file, for error messages. */
  base?: number;
  /** Path prefix for error messages. */
  path?: string;
}

/**
 * Decodes an RTS0 part (the data after the part header).
 * @throws {DecodeError} truncated, bad-offset, count-exceeds-data, unsupported-version, unknown-parameter-type, limit-exceeded
 */
export function decodeRootSignature(bytes: Uint8Array, options: DecodeRootSignatureOptions = {}): RootSignature {
  return readRootSignature(bytes, options).rootSignature;
}

/**
 * Decodes an RTS0 part and says where its blocks were.
 * @throws {DecodeError} as decodeRootSignature
 */
export function readRootSignature(
  bytes: Uint8Array,
  options: DecodeRootSignatureOptions = {},
): { rootSignature: RootSignature; layout: RootSignatureLayout } {
  const at = options.path ?? 'RTS0';
  const base = options.base ?? 0;
  if (bytes.byteLength < HEADER_SIZE) new ByteReader(bytes, base).need(0, HEADER_SIZE, `${at}.header`);
  const version = getU32(bytes, VERSION_AT);
  const row = versionRow(version);
  if (!row) throw new DecodeError('unsupported-version', base, `${at}.${VERSION_KEY}`, `unknown root signature version ${version} (known: ${KNOWN_VERSIONS})`);
  return READERS[row.value](bytes, base, at);
}

// ---------------------------------------------------------------- readers built from the rows

type Reader = (bytes: Uint8Array, base: number, at: string) => { rootSignature: RootSignature; layout: RootSignatureLayout };
type Fields = Record<string, number>;

const HEADER_SIZE = Math.min(...ROOT_SIGNATURE_VERSIONS.map((v) => HEADER.sizes[v.value]));
const VERSION_AT = HEADER.fields.version.at[ROOT_SIGNATURE_VERSIONS[0]!.value]!;

/** A record's data fields at one version: keys, offsets (null: not stored), f32 or u32, defaults. */
interface RecordPlan {
  readonly size: number;
  readonly keys: readonly string[];
  readonly offsets: readonly (number | null)[];
  readonly f32: readonly boolean[];
  readonly defaults: readonly number[];
}

function plan(record: RecordRow, v: RootSignatureVersion): RecordPlan {
  const fields = dataFields(record);
  return {
    size: record.sizes[v],
    keys: fields.map((f) => f.key),
    offsets: fields.map((f) => f.row.at[v]),
    f32: fields.map((f) => f.row.kind === 'f32'),
    defaults: fields.map((f) => f.row.default ?? 0),
  };
}

/**
 * An object with every data key of a record, in storage order. Objects are made by spreading one
 * of these at a site of their own per record kind, so every object of a kind has one hidden class
 * from the start and the stores below never change it.
 */
function template(p: RecordPlan, extra: readonly string[] = []): Fields {
  const t: Record<string, unknown> = {};
  const keys = [...p.keys, ...extra];
  // null then a double then 0 leaves every field in V8's most general representation, so storing
  // any number later (a small integer, 0xFFFFFFFF, an f32) never changes the hidden class
  for (const key of keys) t[key] = null;
  for (const key of keys) t[key] = 0.5;
  for (const key of keys) t[key] = 0;
  return t as Fields;
}

/*
 * readSmall<Kind> / readLarge<Kind>: read a record's data fields into `out` (the record lies inside
 * the bytes: checked by the caller). Unrolled: each field position is its own store site, and every
 * record kind has its own textual copy (small: header, parameter, constants, descriptor; large:
 * range, sampler), so each site's inline cache sees one key and one hidden class per version
 * instead of going megamorphic across kinds. The keys and offsets still come from the rows' plan;
 * the copies differ only in name. Fields past the unrolled positions are read in a loop.
 */
/** The header record's copy (see above). */
function readSmallHeader(view: DataView, at: number, p: RecordPlan, out: Fields): Fields {
  const k = p.keys;
  const n = k.length;
  if (n === 0) return out;
  out[k[0]!] = value(view, at, p, 0);
  if (n === 1) return out;
  out[k[1]!] = value(view, at, p, 1);
  if (n === 2) return out;
  out[k[2]!] = value(view, at, p, 2);
  for (let i = 3; i < n; i++) out[k[i]!] = value(view, at, p, i);
  return out;
}

/** The parameter record's copy (see above). */
function readSmallParameter(view: DataView, at: number, p: RecordPlan, out: Fields): Fields {
  const k = p.keys;
  const n = k.length;
  if (n === 0) return out;
  out[k[0]!] = value(view, at, p, 0);
  if (n === 1) return out;
  out[k[1]!] = value(view, at, p, 1);
  if (n === 2) return out;
  out[k[2]!] = value(view, at, p, 2);
  for (let i = 3; i < n; i++) out[k[i]!] = value(view, at, p, i);
  return out;
}

/** The constants record's copy (see above). */
function readSmallConstants(view: DataView, at: number, p: RecordPlan, out: Fields): Fields {
  const k = p.keys;
  const n = k.length;
  if (n === 0) return out;
  out[k[0]!] = value(view, at, p, 0);
  if (n === 1) return out;
  out[k[1]!] = value(view, at, p, 1);
  if (n === 2) return out;
  out[k[2]!] = value(view, at, p, 2);
  for (let i = 3; i < n; i++) out[k[i]!] = value(view, at, p, i);
  return out;
}

/** The descriptor record's copy (see above). */
function readSmallDescriptor(view: DataView, at: number, p: RecordPlan, out: Fields): Fields {
  const k = p.keys;
  const n = k.length;
  if (n === 0) return out;
  out[k[0]!] = value(view, at, p, 0);
  if (n === 1) return out;
  out[k[1]!] = value(view, at, p, 1);
  if (n === 2) return out;
  out[k[2]!] = value(view, at, p, 2);
  for (let i = 3; i < n; i++) out[k[i]!] = value(view, at, p, i);
  return out;
}

/** The range record's copy (see above). */
function readLargeRange(view: DataView, at: number, p: RecordPlan, out: Fields): Fields {
  const k = p.keys;
  const n = k.length;
  if (n === 0) return out;
  out[k[0]!] = value(view, at, p, 0);
  if (n === 1) return out;
  out[k[1]!] = value(view, at, p, 1);
  if (n === 2) return out;
  out[k[2]!] = value(view, at, p, 2);
  if (n === 3) return out;
  out[k[3]!] = value(view, at, p, 3);
  if (n === 4) return out;
  out[k[4]!] = value(view, at, p, 4);
  if (n === 5) return out;
  out[k[5]!] = value(view, at, p, 5);
  if (n === 6) return out;
  out[k[6]!] = value(view, at, p, 6);
  if (n === 7) return out;
  out[k[7]!] = value(view, at, p, 7);
  if (n === 8) return out;
  out[k[8]!] = value(view, at, p, 8);
  if (n === 9) return out;
  out[k[9]!] = value(view, at, p, 9);
  if (n === 10) return out;
  out[k[10]!] = value(view, at, p, 10);
  if (n === 11) return out;
  out[k[11]!] = value(view, at, p, 11);
  if (n === 12) return out;
  out[k[12]!] = value(view, at, p, 12);
  if (n === 13) return out;
  out[k[13]!] = value(view, at, p, 13);
  for (let i = 14; i < n; i++) out[k[i]!] = value(view, at, p, i);
  return out;
}

/** The sampler record's copy (see above). */
function readLargeSampler(view: DataView, at: number, p: RecordPlan, out: Fields): Fields {
  const k = p.keys;
  const n = k.length;
  if (n === 0) return out;
  out[k[0]!] = value(view, at, p, 0);
  if (n === 1) return out;
  out[k[1]!] = value(view, at, p, 1);
  if (n === 2) return out;
  out[k[2]!] = value(view, at, p, 2);
  if (n === 3) return out;
  out[k[3]!] = value(view, at, p, 3);
  if (n === 4) return out;
  out[k[4]!] = value(view, at, p, 4);
  if (n === 5) return out;
  out[k[5]!] = value(view, at, p, 5);
  if (n === 6) return out;
  out[k[6]!] = value(view, at, p, 6);
  if (n === 7) return out;
  out[k[7]!] = value(view, at, p, 7);
  if (n === 8) return out;
  out[k[8]!] = value(view, at, p, 8);
  if (n === 9) return out;
  out[k[9]!] = value(view, at, p, 9);
  if (n === 10) return out;
  out[k[10]!] = value(view, at, p, 10);
  if (n === 11) return out;
  out[k[11]!] = value(view, at, p, 11);
  if (n === 12) return out;
  out[k[12]!] = value(view, at, p, 12);
  if (n === 13) return out;
  out[k[13]!] = value(view, at, p, 13);
  for (let i = 14; i < n; i++) out[k[i]!] = value(view, at, p, i);
  return out;
}

function value(view: DataView, at: number, p: RecordPlan, i: number): number {
  const o = p.offsets[i]!;
  return o === null ? p.defaults[i]! : p.f32[i] ? view.getFloat32(at + o, true) : view.getUint32(at + o, true);
}

/** An offset of a structural field (count or offset) at one version. */
function offsetOf(record: RecordRow, key: string, v: RootSignatureVersion): number {
  return record.fields[key]!.at[v]!;
}

/** Payload key by parameter type value (an array, not a Map: an indexed load per parameter). */
const PAYLOAD_BY_TYPE: (string | undefined)[] = Array.from({ length: Math.max(...PARAMETER_TYPES.map((t) => t.value)) + 1 }, (_, i) => PARAMETER_TYPES.find((t) => t.value === i)?.payload);
const [TABLE_PAYLOAD, CONSTANTS_PAYLOAD, DESCRIPTOR_PAYLOAD] = ['DESCRIPTOR_TABLE', '32BIT_CONSTANTS', 'CBV'].map((n) => PARAMETER_TYPES.find((t) => t.name === n)!.payload);
const PARAMETER_TYPE_KEY = keyOf(PARAMETER, PARAMETER.fields.parameterType);

function makeReader(v: RootSignatureVersion): Reader {
  const numParametersAt = offsetOf(HEADER, structureKey(HEADER, 'count', PARAMETERS_KEY), v);
  const parametersAt = offsetOf(HEADER, structureKey(HEADER, 'offset', PARAMETERS_KEY), v);
  const numSamplersAt = offsetOf(HEADER, structureKey(HEADER, 'count', SAMPLERS_KEY), v);
  const samplersAt = offsetOf(HEADER, structureKey(HEADER, 'offset', SAMPLERS_KEY), v);
  const header = plan(HEADER, v);
  const parameter = plan(PARAMETER, v);
  const payloadAt = offsetOf(PARAMETER, structureKey(PARAMETER, 'offset', 'payload'), v);
  const parameterTypeAt = PARAMETER.fields.parameterType.at[v]!;
  const table = TABLE.sizes[v];
  const rangeCountAt = offsetOf(TABLE, structureKey(TABLE, 'count', TABLE_PAYLOAD!), v);
  const rangesAt = offsetOf(TABLE, structureKey(TABLE, 'offset', TABLE_PAYLOAD!), v);
  const range = plan(RANGE, v);
  const constants = plan(CONSTANTS, v);
  const descriptor = plan(DESCRIPTOR, v);
  const sampler = plan(SAMPLER, v);
  const headerTemplate = { [VERSION_KEY]: v, ...template(header), [PARAMETERS_KEY]: [] as unknown, [SAMPLERS_KEY]: [] as unknown };
  const tableTemplate = template(parameter, [TABLE_PAYLOAD!]);
  const constantsParameterTemplate = template(parameter, [CONSTANTS_PAYLOAD!]);
  const descriptorParameterTemplate = template(parameter, [DESCRIPTOR_PAYLOAD!]);
  const rangeTemplate = template(range);
  const constantsTemplate = template(constants);
  const descriptorTemplate = template(descriptor);
  const samplerTemplate = template(sampler);
  const floats = sampler.keys.filter((_, i) => sampler.f32[i] && sampler.offsets[i] !== null);
  const floatOffsets = floats.map((k) => sampler.offsets[sampler.keys.indexOf(k)]!);

  return (bytes, base, at) => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = bytes.byteLength;

    const numParameters = view.getUint32(numParametersAt, true);
    const parametersOffset = view.getUint32(parametersAt, true);
    const numStaticSamplers = view.getUint32(numSamplersAt, true);
    const staticSamplersOffset = view.getUint32(samplersAt, true);
    if (!arrayFits(length, parametersOffset, numParameters, parameter.size)) new ByteReader(bytes, base).needArray(parametersOffset, numParameters, parameter.size, `${at}.${PARAMETERS_KEY}`);
    if (!arrayFits(length, staticSamplersOffset, numStaticSamplers, sampler.size)) new ByteReader(bytes, base).needArray(staticSamplersOffset, numStaticSamplers, sampler.size, `${at}.${SAMPLERS_KEY}`);
    const top = readSmallHeader(view, 0, header, { ...headerTemplate } as Fields);

    // Arrays may be shared between tables; bound the records decoded by the input's size so that a
    // small hostile blob cannot make a huge description.
    let budget = Math.floor(length / 4) + 1;

    const parameters: RootParameter[] = [];
    const payloadOffsets: number[] = [];
    const rangeOffsets: (number | undefined)[] = [];
    for (let i = 0; i < numParameters; i++) {
      const rec = parametersOffset + i * parameter.size;
      const type = view.getUint32(rec + parameterTypeAt, true);
      const payload = view.getUint32(rec + payloadAt, true);
      const key = type < PAYLOAD_BY_TYPE.length ? PAYLOAD_BY_TYPE[type] : undefined;
      if (key === undefined) {
        throw new DecodeError('unknown-parameter-type', base + rec, `${parameterPath(at, i)}.${PARAMETER_TYPE_KEY}`, `unknown parameter type ${type}: its payload layout is not defined`);
      }
      payloadOffsets.push(payload);
      let out: Fields;
      if (key === TABLE_PAYLOAD) {
        out = readSmallParameter(view, rec, parameter, { ...tableTemplate });
        if (payload > length || table > length - payload) new ByteReader(bytes, base).need(payload, table, `${parameterPath(at, i)}.table`);
        const count = view.getUint32(payload + rangeCountAt, true);
        const rangesOffset = view.getUint32(payload + rangesAt, true);
        if (!arrayFits(length, rangesOffset, count, range.size)) new ByteReader(bytes, base).needArray(rangesOffset, count, range.size, `${parameterPath(at, i)}.${key}`);
        budget -= count;
        if (budget < 0) throw new DecodeError('limit-exceeded', base + rangesOffset, `${parameterPath(at, i)}.${key}`, `more records than a ${length}-byte part can hold without sharing`);
        rangeOffsets.push(rangesOffset);
        const ranges: Fields[] = new Array(count);
        for (let j = 0; j < count; j++) ranges[j] = readLargeRange(view, rangesOffset + j * range.size, range, { ...rangeTemplate });
        out[key] = ranges as never;
      } else {
        const isConstants = key === CONSTANTS_PAYLOAD;
        const body = isConstants ? constants : descriptor;
        if (payload > length || body.size > length - payload) new ByteReader(bytes, base).need(payload, body.size, `${parameterPath(at, i)}.${key}`);
        rangeOffsets.push(undefined);
        out = readSmallParameter(view, rec, parameter, isConstants ? { ...constantsParameterTemplate } : { ...descriptorParameterTemplate });
        out[key] = (isConstants ? readSmallConstants(view, payload, body, { ...constantsTemplate }) : readSmallDescriptor(view, payload, body, { ...descriptorTemplate })) as never;
      }
      parameters.push(out as unknown as RootParameter);
    }

    const staticSamplers: StaticSampler[] = new Array(numStaticSamplers);
    for (let k = 0; k < numStaticSamplers; k++) {
      const rec = staticSamplersOffset + k * sampler.size;
      const s = readLargeSampler(view, rec, sampler, { ...samplerTemplate }) as unknown as StaticSampler;
      for (let f = 0; f < floats.length; f++) {
        const value = (s as unknown as Fields)[floats[f]!]!;
        if (value !== value) {
          const bits = view.getUint32(rec + floatOffsets[f]!, true);
          if (bits !== QUIET_NAN_BITS) ((s.nanBits ??= {}) as Fields)[floats[f]!] = bits;
        }
      }
      staticSamplers[k] = s;
    }

    top[PARAMETERS_KEY] = parameters as never;
    top[SAMPLERS_KEY] = staticSamplers as never;
    const rootSignature = top as unknown as RootSignature;
    return {
      rootSignature,
      layout: { size: length, parametersOffset, staticSamplersOffset, payloadOffsets, rangeOffsets },
    };
  };
}

/** Whether `count` records of `size` bytes fit at `offset` (ByteReader.needArray throws the error). */
function arrayFits(length: number, offset: number, count: number, size: number): boolean {
  return offset <= length && count * size <= length - offset;
}

/** The path of a parameter, built only for an error. */
function parameterPath(at: string, i: number): string {
  return `${at}.${PARAMETERS_KEY}[${i}]`;
}

const READERS = Object.fromEntries(ROOT_SIGNATURE_VERSIONS.map((v) => [v.value, makeReader(v.value)])) as Record<RootSignatureVersion, Reader>;
