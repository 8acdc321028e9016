/**
 * RTS0 writer in the canonical order every Microsoft serializer uses (spec §2.7): header,
 * parameter records, each parameter's payload in order (a table's ranges right after its header),
 * static samplers last; offsets back-patched.
 */
import {
  DESCRIPTOR_RANGE_FIELDS,
  F32_FIELDS,
  ROOT_CONSTANTS_FIELDS,
  ROOT_DESCRIPTOR_FIELDS,
  RTS0_HEADER_SIZE,
  STATIC_SAMPLER_FIELDS,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { DescriptionError } from '../bytes/errors.js';
import { ByteWriter } from '../bytes/writer.js';
import { f32Bits } from '../bytes/f32.js';
import { versionInfo } from './decode.js';
import type { RootSignature } from './types.js';

/**
 * Encodes a typed description in the canonical layout. Numbers only: text spellings belong to the JSON form.
 * @throws {DescriptionError} bad-type, out-of-range, not-representable (flags the version cannot store)
 */
export function encodeRootSignature(rs: RootSignature): Uint8Array {
  const info = versionInfo(rs.version);
  if (!info) throw new DescriptionError('out-of-range', 'RTS0.version', `unknown root signature version ${String(rs.version)} (known: 1, 2, 3)`);
  const v = rs.version as RootSignatureVersion;
  const numParameters = count(rs.parameters, 'RTS0.parameters');
  const numStaticSamplers = count(rs.staticSamplers, 'RTS0.staticSamplers');
  const w = new ByteWriter(RTS0_HEADER_SIZE + 64 * (numParameters + numStaticSamplers));
  w.u32(v);
  w.u32(numParameters);
  w.u32(RTS0_HEADER_SIZE);
  w.u32(numStaticSamplers);
  const samplersOffsetAt = w.placeholderU32();
  w.u32(u32(rs.flags, 'RTS0.flags'));

  const payloadAt: number[] = [];
  rs.parameters.forEach((param, i) => {
    const p = `RTS0.parameters[${i}]`;
    w.u32(u32(param.parameterType, `${p}.parameterType`));
    w.u32(u32(param.shaderVisibility, `${p}.shaderVisibility`));
    payloadAt.push(w.placeholderU32());
  });
  rs.parameters.forEach((param, i) => {
    const p = `RTS0.parameters[${i}]`;
    w.patchU32(payloadAt[i]!, w.position);
    switch (param.parameterType) {
      case 0:
        w.u32(count(param.ranges, `${p}.ranges`));
        w.u32(w.position + 4);
        param.ranges.forEach((range, j) => writeRecord(w, v, DESCRIPTOR_RANGE_FIELDS[v], range, `${p}.ranges[${j}]`));
        break;
      case 1:
        writeRecord(w, v, ROOT_CONSTANTS_FIELDS, param.constants, `${p}.constants`);
        break;
      case 2:
      case 3:
      case 4:
        writeRecord(w, v, ROOT_DESCRIPTOR_FIELDS[v], param.descriptor, `${p}.descriptor`);
        break;
      default:
        throw new DescriptionError('out-of-range', `${p}.parameterType`, `unknown parameter type ${String((param as { parameterType: unknown }).parameterType)}`);
    }
  });
  w.patchU32(samplersOffsetAt, w.position);
  rs.staticSamplers.forEach((sampler, k) => {
    const s = `RTS0.staticSamplers[${k}]`;
    const values: Record<string, unknown> = { ...sampler };
    for (const name of F32_FIELDS) {
      const value = values[name];
      if (typeof value !== 'number') throw new DescriptionError('bad-type', `${s}.${name}`, 'expected a number');
      const nan = sampler.nanBits?.[name as 'minLOD'];
      values[name] = Number.isNaN(value) && nan !== undefined ? nan : f32Bits(value);
    }
    writeRecord(w, v, STATIC_SAMPLER_FIELDS[v], values, s, true);
  });
  return w.finish();
}

/**
 * Writes the fields a version stores. A `flags` value that the version has no room for must be 0:
 * dropping it silently would lose information (conversion is a separate, reported step).
 */
function writeRecord(
  w: ByteWriter,
  version: RootSignatureVersion,
  fields: readonly (readonly [string, number])[],
  record: object,
  path: string,
  floatsAreBits = false,
): void {
  const values = record as Record<string, unknown>;
  for (const [name] of fields) {
    const value = values[name];
    w.u32(floatsAreBits && F32_FIELDS.has(name) ? (value as number) : u32(value, `${path}.${name}`));
  }
  if ('flags' in values && !fields.some(([name]) => name === 'flags') && values.flags !== 0 && values.flags !== undefined) {
    throw new DescriptionError('not-representable', `${path}.flags`, `flags ${String(values.flags)} cannot be stored in a version ${versionInfo(version)!.name} root signature`);
  }
}

function count(list: unknown, path: string): number {
  if (!Array.isArray(list)) throw new DescriptionError('bad-type', path, 'expected an array');
  return list.length;
}

/** The typed description holds numbers only: coercion from text belongs to the JSON layer. */
function u32(value: unknown, path: string): number {
  if (typeof value === 'number' && value >>> 0 === value) return value;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new DescriptionError('bad-type', path, `expected an unsigned 32-bit integer, got ${shown(value)}`);
  throw new DescriptionError('out-of-range', path, `${value} does not fit in 32 bits`);
}

function shown(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return String(typeof value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
