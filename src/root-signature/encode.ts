/**
 * RTS0 writer in the canonical order every Microsoft serializer uses (docs/formats/rts0.md):
 * header, parameter records, each parameter's payload in order (a table's ranges right after its
 * header), static samplers last.
 *
 * The size is computed first, so the output is allocated once at its exact size and every offset
 * is known before it is written. This file lays out the blocks with the structure offsets from the
 * codecs/ rows; each record is checked and written by its version's generated writer
 * (records.generated.ts, `npm run gen`). Error paths are built only when an error is thrown.
 */
import type { RootSignatureVersion } from '../../codecs/root-signature.js';
import { DescriptionError } from '../bytes/errors.js';
import { setU32 } from '../bytes/le.js';
import { allocBytes } from '../bytes/pool.js';
import { ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import {
  fieldPath,
  parameterPath as parameterPathOf,
  PARAMETERS_KEY as PARAMETERS_ROW_KEY,
  PAYLOAD_BY_TYPE as PAYLOAD_BY_TYPE_ROW,
  PAYLOAD_KEY,
  byVersion,
  recordLayout,
  rangePath as rangePathOf,
  rootPath as rootPathOf,
  samplerPath as samplerPathOf,
  SAMPLERS_KEY as SAMPLERS_ROW_KEY,
  VERSION_KEY as VERSION_ROW_KEY,
  PARAMETER_TYPE_KEY,
} from './rows.js';
import { expectObject } from '../bytes/check.js';
import { checkNanBits } from '../bytes/f32.js';
import { isSamplerF32, unknownVersion } from './check.js';
import { u32Error, type Fields, type PathOf } from './record-support.js';
import { RECORD_WRITERS } from './records.generated.js';
import type { RootSignature } from './types.js';

/**
 * Encodes a typed description in the canonical layout. Numbers only: text spellings belong to the JSON form.
 * The result may be a view of a buffer shared with other results (src/bytes/pool.ts): read it
 * through the view or its byteOffset, and slice() it before transferring its buffer.
 * @throws {DescriptionError} bad-type (also a description that is not an object), out-of-range (also an unknown version), not-representable (a value the version has no field for); a sampler's nanBits as checkNanBits (src/bytes/f32.ts) refuses them
 */
export function encodeRootSignature(rs: RootSignature): Uint8Array {
  const version = (rs as unknown as Fields | null)?.[VERSION_KEY];
  // any other number (negative, fractional, past the last version) finds no writer in the packed array
  const writer = typeof version === 'number' ? WRITERS[version] : undefined;
  if (writer === undefined) {
    expectObject(rs, ROOT_SIGNATURE_PART); // null, undefined, a number: bad-type, not a version
    throw unknownVersion(version);
  }
  return writer(rs as unknown as Fields);
}

// ---------------------------------------------------------------- writers built from the rows

// The rows' keys as module constants: read once at load, not through the imports per record.
const PARAMETERS_KEY = PARAMETERS_ROW_KEY;
const PAYLOAD_BY_TYPE = PAYLOAD_BY_TYPE_ROW;
const SAMPLERS_KEY = SAMPLERS_ROW_KEY;
const VERSION_KEY = VERSION_ROW_KEY;
const put32 = setU32;
const alloc = allocBytes;
type Writer = (rs: Fields) => Uint8Array;

/** The payload key of a parameter type, undefined for anything that is not a known type value. */
function payloadOf(type: unknown): string | undefined {
  return typeof type === 'number' && type >= 0 && type < PAYLOAD_BY_TYPE.length ? PAYLOAD_BY_TYPE[type] : undefined;
}
const { TABLE: TABLE_PAYLOAD, CONSTANTS: CONSTANTS_PAYLOAD, DESCRIPTOR: DESCRIPTOR_PAYLOAD } = PAYLOAD_KEY;

function makeWriter(v: RootSignatureVersion): Writer {
  const { headerSize, parameterSize, tableSize, rangeSize, constantsSize, descriptorSize, samplerSize, versionAt, numParametersAt, parametersAt, numSamplersAt, samplersAt, payloadAt, rangeCountAt, rangesAt } = recordLayout(v);
  const { writeHeader, writeParameter, writeRange, writeConstants, writeDescriptor, writeSampler } = RECORD_WRITERS[v]!;

  return (rs) => {
    const parameters = rs[PARAMETERS_KEY];
    const samplers = rs[SAMPLERS_KEY];
    if (!Array.isArray(parameters)) throw new DescriptionError('bad-type', rootPathOf(PARAMETERS_KEY), 'expected an array');
    if (!Array.isArray(samplers)) throw new DescriptionError('bad-type', rootPathOf(SAMPLERS_KEY), 'expected an array');
    const count = parameters.length;

    // sizes first: the output is allocated once
    let size = headerSize + count * parameterSize;
    for (let i = 0; i < count; i++) {
      const p = parameters[i] as Fields;
      if (typeof p !== 'object' || p === null) throw new DescriptionError('bad-type', parameterPath(i, 0), 'expected an object');
      const key = payloadOf(p[PARAMETER_TYPE_KEY]);
      if (key === TABLE_PAYLOAD) {
        const ranges = p[TABLE_PAYLOAD];
        if (!Array.isArray(ranges)) throw new DescriptionError('bad-type', payloadPath(i, key), 'expected an array');
        size += tableSize + ranges.length * rangeSize;
      } else if (key === CONSTANTS_PAYLOAD) size += constantsSize;
      else if (key !== undefined) size += descriptorSize;
      else {
        const type = p[PARAMETER_TYPE_KEY];
        const at = fieldPath(parameterPath(i, 0), PARAMETER_TYPE_KEY);
        if (typeof type !== 'number' || type >>> 0 !== type) u32Error(type, at);
        throw new DescriptionError('out-of-range', at, `unknown parameter type ${String(type)}`);
      }
    }
    const samplersOffset = size;
    size += samplers.length * samplerSize;

    const view = alloc(size);
    put32(view, versionAt, v);
    put32(view, numParametersAt, count);
    put32(view, parametersAt, headerSize);
    put32(view, numSamplersAt, samplers.length);
    put32(view, samplersAt, samplersOffset);
    writeHeader(view, 0, rs, rootPath, 0, 0);

    let end = headerSize + count * parameterSize;
    for (let i = 0; i < count; i++) {
      const p = parameters[i] as Fields;
      const rec = headerSize + i * parameterSize;
      writeParameter(view, rec, p, parameterPath, i, 0);
      put32(view, rec + payloadAt, end);
      const key = payloadOf(p[PARAMETER_TYPE_KEY])!;
      if (key === TABLE_PAYLOAD) {
        const ranges = p[TABLE_PAYLOAD] as unknown[];
        put32(view, end + rangeCountAt, ranges.length);
        put32(view, end + rangesAt, end + tableSize);
        end += tableSize;
        for (let j = 0; j < ranges.length; j++) {
          const r = ranges[j] as Fields;
          if (typeof r !== 'object' || r === null) throw new DescriptionError('bad-type', rangePath(i, j), 'expected an object');
          writeRange(view, end, r, rangePath, i, j);
          end += rangeSize;
        }
      } else {
        const isConstants = key === CONSTANTS_PAYLOAD;
        const b = (isConstants ? p[CONSTANTS_PAYLOAD] : p[DESCRIPTOR_PAYLOAD]) as Fields;
        const path = isConstants ? constantsPath : descriptorPath;
        if (typeof b !== 'object' || b === null) throw new DescriptionError('bad-type', path(i, 0), 'expected an object');
        if (isConstants) {
          writeConstants(view, end, b, path, i, 0);
          end += constantsSize;
        } else {
          writeDescriptor(view, end, b, path, i, 0);
          end += descriptorSize;
        }
      }
    }
    for (let k = 0; k < samplers.length; k++) {
      const s = samplers[k] as Fields;
      if (typeof s !== 'object' || s === null) throw new DescriptionError('bad-type', samplerPath(k, 0), 'expected an object');
      writeSampler(view, end, s, samplerPath, k, 0);
      // a NaN's kept bits were written as they are: only the bits of a NaN, for a field that is NaN (after the fields' own checks)
      if (s.nanBits !== undefined) checkNanBits(s, isSamplerF32, samplerPath(k, 0));
      end += samplerSize;
    }
    return view;
  };
}

/** Error paths, built only when an error is thrown. */
const rootPath: PathOf = () => ROOT_SIGNATURE_PART;
const parameterPath: PathOf = (i) => parameterPathOf(i);
const payloadPath = (i: number, key: string) => fieldPath(parameterPathOf(i), key);
const rangePath: PathOf = (i, j) => rangePathOf(parameterPathOf(i), j);
const constantsPath: PathOf = (i) => payloadPath(i, CONSTANTS_PAYLOAD);
const descriptorPath: PathOf = (i) => payloadPath(i, DESCRIPTOR_PAYLOAD);
const samplerPath: PathOf = (k) => samplerPathOf(k);

/** The writer of each stored version number, indexed by it (a non-integer number finds none). */
const WRITERS = byVersion(makeWriter);
