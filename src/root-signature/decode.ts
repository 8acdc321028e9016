/**
 * RTS0 reader (docs/formats/rts0.md): follows offsets wherever they point (any block order, shared
 * arrays, gaps and trailing bytes are accepted), checks every array against the bytes before
 * allocating, and keeps unknown enum values and flag bits.
 *
 * This file walks the blocks (header, parameters, payloads, samplers), with the structure offsets
 * taken from the codecs/ rows per version at load; each record is read by its version's generated
 * reader (records.generated.ts, made from the same rows by `npm run gen`), which returns an object
 * literal. Every record is bounds-checked as a whole before it is read, so no field read can fail;
 * error paths are built only when an error is thrown.
 */
import {
  HEADER,
  ROOT_SIGNATURE_VERSIONS,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { chargeOne, givenBudget, type Budget } from '../bytes/budget.js';
import { RESOLVE_WORK } from '../../codecs/limits.js';
import { DecodeError } from '../bytes/errors.js';
import { expectBytes, expectOptions } from '../bytes/check.js';
import { getU32 } from '../bytes/le.js';
import { ByteReader } from '../bytes/reader.js';
import { ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import {
  fieldPath,
  KNOWN_VERSIONS,
  PARAMETERS_KEY as PARAMETERS_ROW_KEY,
  PAYLOAD_BY_TYPE as PAYLOAD_BY_TYPE_ROW,
  PAYLOAD_KEY,
  byVersion,
  recordLayout,
  parameterPath,
  rootPath,
  SAMPLERS_KEY as SAMPLERS_ROW_KEY,
  tablePath,
  VERSION_KEY as VERSION_ROW_KEY,
  PARAMETER_TYPE_KEY,
} from './rows.js';
import { RECORD_READERS } from './records.generated.js';
import type { RootSignature } from './types.js';

// Imported values as module constants: read once at load, not through the imports per record.
const PARAMETERS_KEY = PARAMETERS_ROW_KEY;
const PAYLOAD_BY_TYPE = PAYLOAD_BY_TYPE_ROW;
const SAMPLERS_KEY = SAMPLERS_ROW_KEY;
const VERSION_KEY = VERSION_ROW_KEY;
const u32 = getU32;
/** The default `resolve` limit is never below this many units per part byte (codecs/limits.ts). */
const RESOLVE_PER_BYTE = RESOLVE_WORK.perInputByte;

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
  /**
   * The call's work budget: each range record a table resolves is charged to it as `resolve`, at
   * its size in bytes (tables may share one range array). Without it, one for the part's size
   * (8 x its bytes, at least 1024; `maxResolved` sets the limit).
   */
  budget?: Budget;
  /** The `resolve` limit when no `budget` is given (docs/limits.md). */
  maxResolved?: number;
}

/**
 * Decodes an RTS0 part (the data after the part header).
 * @throws {DecodeError} truncated, bad-offset, count-exceeds-data, unsupported-version, unknown-parameter-type
 * @throws {LimitError} limit-exceeded: tables sharing range arrays resolve more than the budget's `resolve`
 * @throws {DescriptionError} bad-type when `bytes` is not a Uint8Array
 */
export function decodeRootSignature(bytes: Uint8Array, options: DecodeRootSignatureOptions = {}): RootSignature {
  return read(bytes, options, undefined);
}

/**
 * Decodes an RTS0 part and says where its blocks were.
 * @throws {DecodeError} as decodeRootSignature
 * @throws {LimitError} as decodeRootSignature
 * @throws {DescriptionError} as decodeRootSignature
 */
export function readRootSignature(
  bytes: Uint8Array,
  options: DecodeRootSignatureOptions = {},
): { rootSignature: RootSignature; layout: RootSignatureLayout } {
  const layout: RootSignatureLayout = { size: 0, parametersOffset: 0, staticSamplersOffset: 0, payloadOffsets: [], rangeOffsets: [] };
  return { rootSignature: read(bytes, options, layout), layout };
}

function read(bytes: Uint8Array, options: DecodeRootSignatureOptions, layout: RootSignatureLayout | undefined): RootSignature {
  if (typeof options !== 'object' || options === null) expectOptions(options as unknown); // one typeof on the fast path
  const at = options.path ?? ROOT_SIGNATURE_PART;
  const base = options.base ?? 0;
  expectBytes(bytes, at); // null, an ArrayBuffer, ...: bad-type
  if (bytes.byteLength < HEADER_SIZE) new ByteReader(bytes, base).need(0, HEADER_SIZE, `${at}.header`);
  const version = u32(bytes, VERSION_AT);
  const reader = version < READERS.length ? READERS[version] : undefined;
  if (reader === undefined) throw new DecodeError('unsupported-version', base, rootPath(VERSION_KEY, at), `unknown root signature version ${version} (known: ${KNOWN_VERSIONS})`);
  return reader(bytes, base, at, layout, options);
}

// ---------------------------------------------------------------- readers built from the rows

/** Reads a part of one version; fills `layout` when given (decodeRootSignature does without). */
type Reader = (bytes: Uint8Array, base: number, at: string, layout: RootSignatureLayout | undefined, options: DecodeRootSignatureOptions) => RootSignature;
type Fields = { [key: string]: unknown };

const HEADER_SIZE = Math.min(...ROOT_SIGNATURE_VERSIONS.map((v) => HEADER.sizes[v.value]));
const VERSION_AT = HEADER.fields.version.at[ROOT_SIGNATURE_VERSIONS[0]!.value]!;


const { TABLE: TABLE_PAYLOAD, CONSTANTS: CONSTANTS_PAYLOAD, DESCRIPTOR: DESCRIPTOR_PAYLOAD } = PAYLOAD_KEY;

function makeReader(v: RootSignatureVersion): Reader {
  const { numParametersAt, parametersAt, numSamplersAt, samplersAt, parameterSize, payloadAt, parameterTypeAt, tableSize: table, rangeCountAt, rangesAt, rangeSize, constantsSize, descriptorSize, samplerSize, headerSize } = recordLayout(v);
  const { readHeader, readParameter, readRange, readConstants, readDescriptor, readSampler } = RECORD_READERS[v]!;
  const readTableParameter = readParameter[TABLE_PAYLOAD]!;
  const readConstantsParameter = readParameter[CONSTANTS_PAYLOAD]!;
  const readDescriptorParameter = readParameter[DESCRIPTOR_PAYLOAD]!;

  return (bytes, base, at, layout, options) => {
    const length = bytes.byteLength;
    // read() checked the smallest header of all versions; this version's may be larger
    if (length < headerSize) new ByteReader(bytes, base).need(0, headerSize, `${at}.header`);

    const numParameters = u32(bytes, numParametersAt);
    const parametersOffset = u32(bytes, parametersAt);
    const numStaticSamplers = u32(bytes, numSamplersAt);
    const staticSamplersOffset = u32(bytes, samplersAt);
    if (!arrayFits(length, parametersOffset, numParameters, parameterSize)) new ByteReader(bytes, base).needArray(parametersOffset, numParameters, parameterSize, rootPath(PARAMETERS_KEY, at));
    if (!arrayFits(length, staticSamplersOffset, numStaticSamplers, samplerSize)) new ByteReader(bytes, base).needArray(staticSamplersOffset, numStaticSamplers, samplerSize, rootPath(SAMPLERS_KEY, at));

    // Arrays may be shared between tables: the work budget bounds the range records resolved by
    // the input's size. The caller's budget is charged per table; without one, the charges add up
    // in `deferred` and are charged to the part's one-kind budget (chargeOne: the limit
    // Budget.for(part bytes, options) gives `resolve`) once they could reach it (never below 8 x
    // the part's bytes unless `maxResolved` is given), so a decode on the hot path makes no Budget.
    const budget = options.budget !== undefined ? givenBudget(options.budget) : undefined;
    const unchecked = options.maxResolved !== undefined ? -1 : RESOLVE_PER_BYTE * length;
    let deferred = 0;

    const parameters: Fields[] = [];
    for (let i = 0; i < numParameters; i++) {
      const rec = parametersOffset + i * parameterSize;
      const type = u32(bytes, rec + parameterTypeAt);
      const payload = u32(bytes, rec + payloadAt);
      const key = type < PAYLOAD_BY_TYPE.length ? PAYLOAD_BY_TYPE[type] : undefined;
      if (key === undefined) {
        throw new DecodeError('unknown-parameter-type', base + rec, fieldPath(parameterPath(i, at), PARAMETER_TYPE_KEY), `unknown parameter type ${type}: its payload layout is not defined`);
      }
      layout?.payloadOffsets.push(payload);
      if (key === TABLE_PAYLOAD) {
        if (payload > length || table > length - payload) new ByteReader(bytes, base).need(payload, table, tablePath(parameterPath(i, at)));
        const count = u32(bytes, payload + rangeCountAt);
        const rangesOffset = u32(bytes, payload + rangesAt);
        if (!arrayFits(length, rangesOffset, count, rangeSize)) new ByteReader(bytes, base).needArray(rangesOffset, count, rangeSize, fieldPath(parameterPath(i, at), key));
        if (budget === undefined) {
          if ((deferred += count * rangeSize) > unchecked) chargeOne('resolve', RESOLVE_WORK, deferred, length, options, () => fieldPath(parameterPath(i, at), key), base + rangesOffset);
        } else if (count > 0) budget.charge('resolve', count * rangeSize, () => fieldPath(parameterPath(i, at), key), base + rangesOffset);
        layout?.rangeOffsets.push(rangesOffset);
        const ranges: Fields[] = new Array(count);
        for (let j = 0; j < count; j++) ranges[j] = readRange(bytes, rangesOffset + j * rangeSize);
        parameters.push(readTableParameter(bytes, rec, ranges));
      } else {
        const isConstants = key === CONSTANTS_PAYLOAD;
        const size = isConstants ? constantsSize : descriptorSize;
        if (payload > length || size > length - payload) new ByteReader(bytes, base).need(payload, size, fieldPath(parameterPath(i, at), key));
        layout?.rangeOffsets.push(undefined);
        parameters.push(isConstants ? readConstantsParameter(bytes, rec, readConstants(bytes, payload)) : readDescriptorParameter(bytes, rec, readDescriptor(bytes, payload)));
      }
    }

    const staticSamplers: Fields[] = new Array(numStaticSamplers);
    for (let k = 0; k < numStaticSamplers; k++) staticSamplers[k] = readSampler(bytes, staticSamplersOffset + k * samplerSize);

    if (layout) {
      layout.size = length;
      layout.parametersOffset = parametersOffset;
      layout.staticSamplersOffset = staticSamplersOffset;
    }
    return readHeader(bytes, 0, parameters, staticSamplers) as unknown as RootSignature;
  };
}

/** Whether `count` records of `size` bytes fit at `offset` (ByteReader.needArray throws the error). */
function arrayFits(length: number, offset: number, count: number, size: number): boolean {
  return offset <= length && count * size <= length - offset;
}

/** The reader of each stored version number, indexed by it (an array: one indexed load per decode). */
const READERS = byVersion(makeReader);
