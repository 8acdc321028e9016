/**
 * RTS0 writer in the canonical order every Microsoft serializer uses (docs/formats/rts0.md):
 * header, parameter records, each parameter's payload in order (a table's ranges right after its
 * header), static samplers last.
 *
 * One writer per version is built from the codecs/ rows at load. The size is computed first, so
 * the output is allocated once at its exact size and every offset is known before it is written;
 * error paths are built only when an error is thrown.
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
import { DescriptionError } from '../bytes/errors.js';
import { f32Bits } from '../bytes/f32.js';
import { setF32, setU32 } from '../bytes/le.js';
import { allocBytes } from '../bytes/pool.js';
import { KNOWN_VERSIONS, PARAMETERS_KEY as PARAMETERS_ROW_KEY, SAMPLERS_KEY as SAMPLERS_ROW_KEY, VERSION_KEY as VERSION_ROW_KEY, dataFields, keyOf, structureKey, versionName } from './rows.js';
import type { RootSignature } from './types.js';

/**
 * Encodes a typed description in the canonical layout. Numbers only: text spellings belong to the JSON form.
 * The result may be a view of a buffer shared with other results (src/bytes/pool.ts): read it
 * through the view or its byteOffset, and slice() it before transferring its buffer.
 * @throws {DescriptionError} bad-type, out-of-range, not-representable (a value the version has no field for)
 */
export function encodeRootSignature(rs: RootSignature): Uint8Array {
  const row = versionRow((rs as unknown as Fields)[VERSION_KEY]);
  if (!row) throw new DescriptionError('out-of-range', `RTS0.${VERSION_KEY}`, `unknown root signature version ${String(rs.version)} (known: ${KNOWN_VERSIONS})`);
  return WRITERS[row.value](rs as unknown as Fields);
}

// ---------------------------------------------------------------- writers built from the rows

type Fields = { [key: string]: unknown };
// The rows' keys as module constants: read once at load, not through the imports per record.
const PARAMETERS_KEY = PARAMETERS_ROW_KEY;
const SAMPLERS_KEY = SAMPLERS_ROW_KEY;
const VERSION_KEY = VERSION_ROW_KEY;
type Writer = (rs: Fields) => Uint8Array;

interface RecordPlan {
  readonly size: number;
  readonly keys: readonly string[];
  readonly offsets: readonly number[];
  readonly f32: readonly boolean[];
  /** Keys the version does not store: their value must be 0 (or absent). */
  readonly absent: readonly string[];
  /** The version's name, for messages. */
  readonly version: string;
}

function plan(record: RecordRow, v: RootSignatureVersion): RecordPlan {
  const stored = dataFields(record).filter((f) => f.row.at[v] !== null);
  return {
    size: record.sizes[v],
    keys: stored.map((f) => f.key),
    offsets: stored.map((f) => f.row.at[v]!),
    f32: stored.map((f) => f.row.kind === 'f32'),
    absent: dataFields(record)
      .filter((f) => f.row.at[v] === null)
      .map((f) => f.key),
    version: versionName(v),
  };
}

/** Payload key by parameter type value (an array, not a Map: an indexed load per parameter). */
const PAYLOAD_BY_TYPE: (string | undefined)[] = Array.from({ length: Math.max(...PARAMETER_TYPES.map((t) => t.value)) + 1 }, (_, i) => PARAMETER_TYPES.find((t) => t.value === i)?.payload);
/** The payload key of a parameter type, undefined for anything that is not a known type value. */
function payloadOf(type: unknown): string | undefined {
  return typeof type === 'number' && type >= 0 && type < PAYLOAD_BY_TYPE.length ? PAYLOAD_BY_TYPE[type] : undefined;
}
const TABLE_PAYLOAD = PARAMETER_TYPES.find((t) => t.name === 'DESCRIPTOR_TABLE')!.payload;
const CONSTANTS_PAYLOAD = PARAMETER_TYPES.find((t) => t.name === '32BIT_CONSTANTS')!.payload;
const DESCRIPTOR_PAYLOAD = PARAMETER_TYPES.find((t) => t.name === 'CBV')!.payload;
const PARAMETER_TYPE_KEY = keyOf(PARAMETER, PARAMETER.fields.parameterType);

function makeWriter(v: RootSignatureVersion): Writer {
  const at = (record: RecordRow, key: string) => record.fields[key]!.at[v]!;
  const headerSize = HEADER.sizes[v];
  const header = plan(HEADER, v);
  const versionAt = at(HEADER, VERSION_KEY);
  const numParametersAt = at(HEADER, structureKey(HEADER, 'count', PARAMETERS_KEY));
  const parametersAt = at(HEADER, structureKey(HEADER, 'offset', PARAMETERS_KEY));
  const numSamplersAt = at(HEADER, structureKey(HEADER, 'count', SAMPLERS_KEY));
  const samplersAt = at(HEADER, structureKey(HEADER, 'offset', SAMPLERS_KEY));
  const parameter = plan(PARAMETER, v);
  const payloadAt = at(PARAMETER, structureKey(PARAMETER, 'offset', 'payload'));
  const tableSize = TABLE.sizes[v];
  const rangeCountAt = at(TABLE, structureKey(TABLE, 'count', TABLE_PAYLOAD));
  const rangesAt = at(TABLE, structureKey(TABLE, 'offset', TABLE_PAYLOAD));
  const range = plan(RANGE, v);
  const constants = plan(CONSTANTS, v);
  const descriptor = plan(DESCRIPTOR, v);
  const sampler = plan(SAMPLER, v);

  return (rs) => {
    const parameters = rs[PARAMETERS_KEY];
    const samplers = rs[SAMPLERS_KEY];
    if (!Array.isArray(parameters)) throw new DescriptionError('bad-type', `RTS0.${PARAMETERS_KEY}`, 'expected an array');
    if (!Array.isArray(samplers)) throw new DescriptionError('bad-type', `RTS0.${SAMPLERS_KEY}`, 'expected an array');
    const count = parameters.length;

    // sizes first: the output is allocated once
    let size = headerSize + count * parameter.size;
    for (let i = 0; i < count; i++) {
      const p = parameters[i] as Fields;
      if (typeof p !== 'object' || p === null) throw new DescriptionError('bad-type', parameterPath(i, 0), 'expected an object');
      const key = payloadOf(p[PARAMETER_TYPE_KEY]);
      if (key === TABLE_PAYLOAD) {
        const ranges = p[key];
        if (!Array.isArray(ranges)) throw new DescriptionError('bad-type', payloadPath(i, key), 'expected an array');
        size += tableSize + ranges.length * range.size;
      } else if (key === CONSTANTS_PAYLOAD) size += constants.size;
      else if (key !== undefined) size += descriptor.size;
      else {
        const type = p[PARAMETER_TYPE_KEY];
        const at = `${parameterPath(i, 0)}.${PARAMETER_TYPE_KEY}`;
        if (typeof type !== 'number' || type >>> 0 !== type) u32Error(type, at);
        throw new DescriptionError('out-of-range', at, `unknown parameter type ${String(type)}`);
      }
    }
    const samplersOffset = size;
    size += samplers.length * sampler.size;

    const view = allocBytes(size);
    setU32(view, versionAt, v);
    setU32(view, numParametersAt, count);
    setU32(view, parametersAt, headerSize);
    setU32(view, numSamplersAt, samplers.length);
    setU32(view, samplersAt, samplersOffset);
    writeSmallHeader(view, 0, header, rs, rootPath, 0, 0);

    let end = headerSize + count * parameter.size;
    for (let i = 0; i < count; i++) {
      const p = parameters[i] as Fields;
      const rec = headerSize + i * parameter.size;
      writeSmallParameter(view, rec, parameter, p, parameterPath, i, 0);
      setU32(view, rec + payloadAt, end);
      const key = payloadOf(p[PARAMETER_TYPE_KEY])!;
      if (key === TABLE_PAYLOAD) {
        const ranges = p[key] as unknown[];
        setU32(view, end + rangeCountAt, ranges.length);
        setU32(view, end + rangesAt, end + tableSize);
        end += tableSize;
        for (let j = 0; j < ranges.length; j++) {
          const r = ranges[j] as Fields;
          if (typeof r !== 'object' || r === null) throw new DescriptionError('bad-type', rangePath(i, j), 'expected an object');
          writeLargeRange(view, end, range, r, rangePath, i, j);
          end += range.size;
        }
      } else {
        const isConstants = key === CONSTANTS_PAYLOAD;
        const body = isConstants ? constants : descriptor;
        const b = p[key] as Fields;
        const path = isConstants ? constantsPath : descriptorPath;
        if (typeof b !== 'object' || b === null) throw new DescriptionError('bad-type', path(i, 0), 'expected an object');
        if (isConstants) writeSmallConstants(view, end, body, b, path, i, 0);
        else writeSmallDescriptor(view, end, body, b, path, i, 0);
        end += body.size;
      }
    }
    for (let k = 0; k < samplers.length; k++) {
      const s = samplers[k] as Fields;
      if (typeof s !== 'object' || s === null) throw new DescriptionError('bad-type', samplerPath(k, 0), 'expected an object');
      writeLargeSampler(view, end, sampler, s, samplerPath, k, 0);
      end += sampler.size;
    }
    return view;
  };
}

/*
 * writeSmall<Kind> / writeLarge<Kind>: write a record's stored fields after checking each value.
 * Unrolled like the reader, with one textual copy per record kind (small: header, parameter,
 * constants, descriptor; large: range, sampler), so each load site's inline cache sees one key and
 * one hidden class per version. Keys and offsets still come from the rows' plan.
 */

/** The header record's copy (see above). */
function writeSmallHeader(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  const k = p.keys;
  const n = k.length;
  if (n > 0) put(view, offset, p, values, 0, values[k[0]!], path, i, j);
  if (n > 1) put(view, offset, p, values, 1, values[k[1]!], path, i, j);
  if (n > 2) put(view, offset, p, values, 2, values[k[2]!], path, i, j);
  for (let f = 3; f < n; f++) put(view, offset, p, values, f, values[k[f]!], path, i, j);
  if (p.absent.length > 0) checkAbsent(p, values, path, i, j);
}

/** The parameter record's copy (see above). */
function writeSmallParameter(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  const k = p.keys;
  const n = k.length;
  if (n > 0) put(view, offset, p, values, 0, values[k[0]!], path, i, j);
  if (n > 1) put(view, offset, p, values, 1, values[k[1]!], path, i, j);
  if (n > 2) put(view, offset, p, values, 2, values[k[2]!], path, i, j);
  for (let f = 3; f < n; f++) put(view, offset, p, values, f, values[k[f]!], path, i, j);
  if (p.absent.length > 0) checkAbsent(p, values, path, i, j);
}

/** The constants record's copy (see above). */
function writeSmallConstants(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  const k = p.keys;
  const n = k.length;
  if (n > 0) put(view, offset, p, values, 0, values[k[0]!], path, i, j);
  if (n > 1) put(view, offset, p, values, 1, values[k[1]!], path, i, j);
  if (n > 2) put(view, offset, p, values, 2, values[k[2]!], path, i, j);
  for (let f = 3; f < n; f++) put(view, offset, p, values, f, values[k[f]!], path, i, j);
  if (p.absent.length > 0) checkAbsent(p, values, path, i, j);
}

/** The descriptor record's copy (see above). */
function writeSmallDescriptor(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  const k = p.keys;
  const n = k.length;
  if (n > 0) put(view, offset, p, values, 0, values[k[0]!], path, i, j);
  if (n > 1) put(view, offset, p, values, 1, values[k[1]!], path, i, j);
  if (n > 2) put(view, offset, p, values, 2, values[k[2]!], path, i, j);
  for (let f = 3; f < n; f++) put(view, offset, p, values, f, values[k[f]!], path, i, j);
  if (p.absent.length > 0) checkAbsent(p, values, path, i, j);
}

/** The range record's copy (see above). */
function writeLargeRange(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  const k = p.keys;
  const n = k.length;
  if (n > 0) put(view, offset, p, values, 0, values[k[0]!], path, i, j);
  if (n > 1) put(view, offset, p, values, 1, values[k[1]!], path, i, j);
  if (n > 2) put(view, offset, p, values, 2, values[k[2]!], path, i, j);
  if (n > 3) put(view, offset, p, values, 3, values[k[3]!], path, i, j);
  if (n > 4) put(view, offset, p, values, 4, values[k[4]!], path, i, j);
  if (n > 5) put(view, offset, p, values, 5, values[k[5]!], path, i, j);
  if (n > 6) put(view, offset, p, values, 6, values[k[6]!], path, i, j);
  if (n > 7) put(view, offset, p, values, 7, values[k[7]!], path, i, j);
  if (n > 8) put(view, offset, p, values, 8, values[k[8]!], path, i, j);
  if (n > 9) put(view, offset, p, values, 9, values[k[9]!], path, i, j);
  if (n > 10) put(view, offset, p, values, 10, values[k[10]!], path, i, j);
  if (n > 11) put(view, offset, p, values, 11, values[k[11]!], path, i, j);
  if (n > 12) put(view, offset, p, values, 12, values[k[12]!], path, i, j);
  if (n > 13) put(view, offset, p, values, 13, values[k[13]!], path, i, j);
  for (let f = 14; f < n; f++) put(view, offset, p, values, f, values[k[f]!], path, i, j);
  if (p.absent.length > 0) checkAbsent(p, values, path, i, j);
}

/** The sampler record's copy (see above). */
function writeLargeSampler(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  const k = p.keys;
  const n = k.length;
  if (n > 0) put(view, offset, p, values, 0, values[k[0]!], path, i, j);
  if (n > 1) put(view, offset, p, values, 1, values[k[1]!], path, i, j);
  if (n > 2) put(view, offset, p, values, 2, values[k[2]!], path, i, j);
  if (n > 3) put(view, offset, p, values, 3, values[k[3]!], path, i, j);
  if (n > 4) put(view, offset, p, values, 4, values[k[4]!], path, i, j);
  if (n > 5) put(view, offset, p, values, 5, values[k[5]!], path, i, j);
  if (n > 6) put(view, offset, p, values, 6, values[k[6]!], path, i, j);
  if (n > 7) put(view, offset, p, values, 7, values[k[7]!], path, i, j);
  if (n > 8) put(view, offset, p, values, 8, values[k[8]!], path, i, j);
  if (n > 9) put(view, offset, p, values, 9, values[k[9]!], path, i, j);
  if (n > 10) put(view, offset, p, values, 10, values[k[10]!], path, i, j);
  if (n > 11) put(view, offset, p, values, 11, values[k[11]!], path, i, j);
  if (n > 12) put(view, offset, p, values, 12, values[k[12]!], path, i, j);
  if (n > 13) put(view, offset, p, values, 13, values[k[13]!], path, i, j);
  for (let f = 14; f < n; f++) put(view, offset, p, values, f, values[k[f]!], path, i, j);
  if (p.absent.length > 0) checkAbsent(p, values, path, i, j);
}

/** Checks and writes field `f` of a record. */
function put(view: Uint8Array, offset: number, p: RecordPlan, values: Fields, f: number, value: unknown, path: PathOf, i: number, j: number): void {
  const at = offset + p.offsets[f]!;
  if (p.f32[f]) {
    if (typeof value !== 'number') throw new DescriptionError('bad-type', `${path(i, j)}.${p.keys[f]}`, 'expected a number');
    if (value === value) setF32(view, at, value);
    else {
      const nan = (values.nanBits as Fields | undefined)?.[p.keys[f]!];
      setU32(view, at, typeof nan === 'number' ? nan : f32Bits(value));
    }
  } else {
    if (typeof value !== 'number' || value >>> 0 !== value) u32Error(value, `${path(i, j)}.${p.keys[f]}`);
    setU32(view, at, value as number);
  }
}

/** A field the version does not store must be 0 or absent: dropping it would lose information. */
function checkAbsent(p: RecordPlan, values: Fields, path: PathOf, i: number, j: number): void {
  for (const key of p.absent) {
    const value = values[key];
    if (value !== 0 && value !== undefined) {
      throw new DescriptionError('not-representable', `${path(i, j)}.${key}`, `${key} ${String(value)} cannot be stored in a version ${p.version} root signature`);
    }
  }
}

/** Error paths, built only when an error is thrown. */
type PathOf = (i: number, j: number) => string;
const rootPath: PathOf = () => 'RTS0';
const parameterPath: PathOf = (i) => `RTS0.${PARAMETERS_KEY}[${i}]`;
const payloadPath = (i: number, key: string) => `${parameterPath(i, 0)}.${key}`;
const rangePath: PathOf = (i, j) => `${payloadPath(i, TABLE_PAYLOAD)}[${j}]`;
const constantsPath: PathOf = (i) => payloadPath(i, CONSTANTS_PAYLOAD);
const descriptorPath: PathOf = (i) => payloadPath(i, DESCRIPTOR_PAYLOAD);
const samplerPath: PathOf = (k) => `RTS0.${SAMPLERS_KEY}[${k}]`;

const WRITERS = Object.fromEntries(ROOT_SIGNATURE_VERSIONS.map((v) => [v.value, makeWriter(v.value)])) as Record<RootSignatureVersion, Writer>;

/** The typed description holds numbers only: coercion from text belongs to the JSON layer. */
function u32Error(value: unknown, path: string): never {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new DescriptionError('bad-type', path, `expected an unsigned 32-bit integer, got ${shown(value)}`);
  throw new DescriptionError('out-of-range', path, `${value} does not fit in 32 bits`);
}

function shown(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
