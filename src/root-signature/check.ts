/**
 * The guard every public function taking a typed description runs first (encodeRootSignature has
 * its own, inside its writers): the description is an object of a known version, its arrays are
 * arrays and their elements objects, and each parameter of a known type has its payload (a table's
 * `ranges` array, or the constants/descriptor object), and every field its version stores holds
 * what the encoder stores (an unsigned 32-bit integer, or any number in an f32 field; a sampler's
 * `nanBits` the bits of a NaN for each of its NaN f32 fields, src/bytes/f32.ts checkNanBits). Anything
 * else is a DescriptionError naming the field (the encoder's message), never a TypeError or a
 * stack overflow from deep inside a walk. Which values are valid (enum values, flags) is the
 * callers' to judge.
 */
import { HEADER, PARAMETER, PARAMETER_TYPES, RANGE, RECORDS, ROOT_SIGNATURE_VERSIONS, SAMPLER, stores, versionRow, type RecordRow, type RootSignatureVersion } from '../../codecs/root-signature.js';
import { ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectObject } from '../bytes/check.js';
import { checkNanBits } from '../bytes/f32.js';
import { notNumber, notU32 } from './record-support.js';
import { KNOWN_VERSIONS, PARAMETER_TYPE_KEY, PARAMETERS_KEY, SAMPLERS_KEY, VERSION_KEY, dataFields, fieldPath, parameterPath, rangePath, rootPath, samplerPath } from './rows.js';
import type { RootSignature } from './types.js';

/** The error for a `version` that is no version row: out-of-range at `path` (`RTS0.version`). */
export function unknownVersion(version: unknown, path: string = rootPath(VERSION_KEY)): DescriptionError {
  return new DescriptionError('out-of-range', path, `unknown root signature version ${String(version)} (known: ${KNOWN_VERSIONS})`);
}

/** `version` as a version number, or DescriptionError out-of-range at `path`. */
export function checkVersion(version: unknown, path: string = rootPath(VERSION_KEY)): RootSignatureVersion {
  const row = versionRow(version);
  if (row === undefined) throw unknownVersion(version, path);
  return row.value;
}

/** Payload key, whether it is an array (a table's ranges) and its record, by parameter type value. */
const PAYLOADS = new Map<unknown, { key: string; array: boolean; record: RecordRow }>(
  PARAMETER_TYPES.map((t) => [t.value, { key: t.payload, array: t.record === 'TABLE', record: t.record === 'TABLE' ? RANGE : RECORDS[t.record] }]),
);

/** Per version and record, the data fields it stores (numbers in a description) and which are f32. */
const NUMBER_KEYS = new Map<RootSignatureVersion, Map<RecordRow, readonly { key: string; f32: boolean }[]>>(
  ROOT_SIGNATURE_VERSIONS.map(({ value: v }) => [
    v,
    new Map(
      Object.values(RECORDS).map((r) => [
        r as RecordRow,
        dataFields(r)
          .filter((f) => stores(f.row, v))
          .map((f) => ({ key: f.key, f32: f.row.kind === 'f32' })),
      ]),
    ),
  ]),
);

/**
 * The record's stored fields hold what the encoder would store: any number in an f32 field, an
 * unsigned 32-bit integer in the others (a field the version does not store may be left out).
 */
function numbers(values: Record<string, unknown>, record: RecordRow, version: RootSignatureVersion, path: string): void {
  for (const { key, f32 } of NUMBER_KEYS.get(version)!.get(record)!) {
    const value = values[key];
    if (f32 ? typeof value !== 'number' : !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffffffff)) {
      if (f32) notNumber(path, key);
      notU32(value, path, key);
    }
  }
}

/**
 * Whether `key` names an f32 field of a static sampler (no prototype member is a row of kind
 * f32): what the one nanBits check (src/bytes/f32.ts checkNanBits) asks of a sampler's `nanBits`.
 */
export const isSamplerF32 = (key: string): boolean => (SAMPLER.fields as Record<string, { kind?: unknown } | undefined>)[key]?.kind === 'f32';

/**
 * Checks the shape of a typed description (see the file comment) and returns its version.
 * @throws {DescriptionError} bad-type (not an object, an array, a number or an integer), missing-key (a parameter's payload), out-of-range (the version, a field outside 32 bits); for a sampler's nanBits, src/bytes/f32.ts checkNanBits's
 */
export function checkDescription(rs: RootSignature, at: string = ROOT_SIGNATURE_PART): RootSignatureVersion {
  expectObject(rs, at);
  const version = checkVersion((rs as unknown as Record<string, unknown>)[VERSION_KEY], rootPath(VERSION_KEY, at));
  numbers(rs as unknown as Record<string, unknown>, HEADER, version, at);
  const parameters = (rs as unknown as Record<string, unknown>)[PARAMETERS_KEY];
  const samplers = (rs as unknown as Record<string, unknown>)[SAMPLERS_KEY];
  expectArray(parameters, rootPath(PARAMETERS_KEY, at));
  expectArray(samplers, rootPath(SAMPLERS_KEY, at));
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    const path = parameterPath(i, at);
    expectObject(p, path);
    numbers(p, PARAMETER, version, path);
    const payload = PAYLOADS.get(p[PARAMETER_TYPE_KEY]);
    if (payload === undefined) continue; // an unknown type: the caller reports it in its own terms
    const value = p[payload.key];
    const where = fieldPath(path, payload.key);
    if (value === undefined) throw new DescriptionError('missing-key', where, `a parameter of type ${String(p[PARAMETER_TYPE_KEY])} needs its ${payload.key}`);
    if (!payload.array) {
      expectObject(value, where);
      numbers(value, payload.record, version, where);
    } else {
      expectArray(value, where);
      for (let j = 0; j < value.length; j++) {
        const range = value[j];
        expectObject(range, rangePath(path, j));
        numbers(range, payload.record, version, rangePath(path, j));
      }
    }
  }
  for (let k = 0; k < samplers.length; k++) {
    const s = samplers[k];
    expectObject(s, samplerPath(k, at));
    numbers(s, SAMPLER, version, samplerPath(k, at));
    checkNanBits(s, isSamplerF32, samplerPath(k, at));
  }
  return version;
}
