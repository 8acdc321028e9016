/**
 * RTS0 reader: follows offsets wherever they point (any block order, shared arrays, gaps and
 * trailing bytes are accepted), checks every array against the bytes before allocating, and keeps
 * unknown enum values and flag bits.
 */
import {
  DESCRIPTOR_RANGE_FIELDS,
  DESCRIPTOR_TABLE_HEADER,
  ROOT_PARAMETER_RECORD,
  RTS0_HEADER,
  DESCRIPTOR_TABLE_HEADER_SIZE,
  F32_FIELDS,
  PARAMETER_TYPE,
  ROOT_CONSTANTS_FIELDS,
  ROOT_CONSTANTS_SIZE,
  ROOT_DESCRIPTOR_FIELDS,
  ROOT_PARAMETER_RECORD_SIZE,
  ROOT_SIGNATURE_VERSIONS,
  RTS0_HEADER_SIZE,
  STATIC_SAMPLER_FIELDS,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { DecodeError } from '../bytes/errors.js';
import { ByteReader } from '../bytes/reader.js';
import type { DescriptorRange, RootParameter, RootSignature, StaticSampler } from './types.js';

/** Where the blocks of a decoded RTS0 part were. */
export interface RootSignatureLayout {
  size: number;
  parametersOffset: number;
  staticSamplersOffset: number;
  payloadOffsets: number[];
  /** Per parameter: the range array offset of a table, undefined otherwise. */
  rangeOffsets: (number | undefined)[];
}

export interface DecodeRootSignatureOptions {
  /** Absolute offset of the part's first byte in the file, for error messages. */
  base?: number;
  /** Path prefix for error messages. */
  path?: string;
}

const QUIET_NAN_BITS = 0x7fc00000;

export function versionInfo(version: number) {
  return ROOT_SIGNATURE_VERSIONS.find((v) => v.value === version);
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
  const r = new ByteReader(bytes, options.base ?? 0);
  r.need(0, RTS0_HEADER_SIZE, `${at}.header`);
  const { version, numParameters, parametersOffset, numStaticSamplers, staticSamplersOffset, flags } = readRecord(r, 0, RTS0_HEADER, at) as Record<(typeof RTS0_HEADER)[number][0], number>;
  const info = versionInfo(version);
  if (!info) throw new DecodeError('unsupported-version', r.base, `${at}.version`, `unknown root signature version ${version} (known: 1, 2, 3)`);
  const v = version as RootSignatureVersion;

  r.needArray(parametersOffset, numParameters, ROOT_PARAMETER_RECORD_SIZE, `${at}.parameters`);
  r.needArray(staticSamplersOffset, numStaticSamplers, info.staticSamplerSize, `${at}.staticSamplers`);

  // Arrays may be shared between tables; bound the records decoded by the input's size so that a
  // small hostile blob cannot make a huge description.
  let budget = Math.floor(bytes.byteLength / 4) + 1;
  const spend = (count: number, offset: number, path: string) => {
    budget -= count;
    if (budget < 0) throw new DecodeError('limit-exceeded', r.base + offset, path, `more records than a ${bytes.byteLength}-byte part can hold without sharing`);
  };

  const parameters: RootParameter[] = [];
  const payloadOffsets: number[] = [];
  const rangeOffsets: (number | undefined)[] = [];
  for (let i = 0; i < numParameters; i++) {
    const rec = parametersOffset + i * ROOT_PARAMETER_RECORD_SIZE;
    const p = `${at}.parameters[${i}]`;
    const { parameterType, shaderVisibility, payloadOffset: payload } = readRecord(r, rec, ROOT_PARAMETER_RECORD, p) as Record<(typeof ROOT_PARAMETER_RECORD)[number][0], number>;
    payloadOffsets.push(payload);
    if (parameterType === PARAMETER_TYPE.DESCRIPTOR_TABLE) {
      r.need(payload, DESCRIPTOR_TABLE_HEADER_SIZE, `${p}.table`);
      const table = readRecord(r, payload, DESCRIPTOR_TABLE_HEADER, p);
      const count = table.numDescriptorRanges!;
      const rangesOffset = table.descriptorRangesOffset!;
      r.needArray(rangesOffset, count, info.rangeSize, `${p}.ranges`);
      spend(count, rangesOffset, `${p}.ranges`);
      rangeOffsets.push(rangesOffset);
      const ranges: DescriptorRange[] = [];
      for (let j = 0; j < count; j++) {
        const f = readRecord(r, rangesOffset + j * info.rangeSize, DESCRIPTOR_RANGE_FIELDS[v], `${p}.ranges[${j}]`);
        ranges.push({
          rangeType: f.rangeType!,
          numDescriptors: f.numDescriptors!,
          baseShaderRegister: f.baseShaderRegister!,
          registerSpace: f.registerSpace!,
          flags: f.flags ?? 0,
          offsetInDescriptorsFromTableStart: f.offsetInDescriptorsFromTableStart!,
        });
      }
      parameters.push({ parameterType: 0, shaderVisibility, ranges });
    } else if (parameterType === PARAMETER_TYPE.CONSTANTS) {
      r.need(payload, ROOT_CONSTANTS_SIZE, `${p}.constants`);
      const f = readRecord(r, payload, ROOT_CONSTANTS_FIELDS, `${p}.constants`);
      rangeOffsets.push(undefined);
      parameters.push({
        parameterType: 1,
        shaderVisibility,
        constants: { shaderRegister: f.shaderRegister!, registerSpace: f.registerSpace!, num32BitValues: f.num32BitValues! },
      });
    } else if (parameterType === PARAMETER_TYPE.CBV || parameterType === PARAMETER_TYPE.SRV || parameterType === PARAMETER_TYPE.UAV) {
      r.need(payload, info.rootDescriptorSize, `${p}.descriptor`);
      const f = readRecord(r, payload, ROOT_DESCRIPTOR_FIELDS[v], `${p}.descriptor`);
      rangeOffsets.push(undefined);
      parameters.push({
        parameterType,
        shaderVisibility,
        descriptor: { shaderRegister: f.shaderRegister!, registerSpace: f.registerSpace!, flags: f.flags ?? 0 },
      });
    } else {
      throw new DecodeError('unknown-parameter-type', r.base + rec, `${p}.parameterType`, `unknown parameter type ${parameterType}: its payload layout is not defined`);
    }
  }

  const staticSamplers: StaticSampler[] = [];
  for (let k = 0; k < numStaticSamplers; k++) {
    const s = `${at}.staticSamplers[${k}]`;
    const base = staticSamplersOffset + k * info.staticSamplerSize;
    const f = readRecord(r, base, STATIC_SAMPLER_FIELDS[v], s);
    const sampler: StaticSampler = {
      filter: f.filter!,
      addressU: f.addressU!,
      addressV: f.addressV!,
      addressW: f.addressW!,
      mipLODBias: f.mipLODBias!,
      maxAnisotropy: f.maxAnisotropy!,
      comparisonFunc: f.comparisonFunc!,
      borderColor: f.borderColor!,
      minLOD: f.minLOD!,
      maxLOD: f.maxLOD!,
      shaderRegister: f.shaderRegister!,
      registerSpace: f.registerSpace!,
      shaderVisibility: f.shaderVisibility!,
      flags: f.flags ?? 0,
    };
    for (const [name, offset] of STATIC_SAMPLER_FIELDS[v]) {
      if (!F32_FIELDS.has(name)) continue;
      const bits = r.u32(base + offset, `${s}.${name}`);
      if (Number.isNaN(f[name]) && bits !== QUIET_NAN_BITS) (sampler.nanBits ??= {})[name as 'minLOD'] = bits;
    }
    staticSamplers.push(sampler);
  }

  return {
    rootSignature: { version: v, flags, parameters, staticSamplers },
    layout: { size: bytes.byteLength, parametersOffset, staticSamplersOffset, payloadOffsets, rangeOffsets },
  };
}

/** Reads a fixed record described by a codecs/ field table into name -> value. */
function readRecord(r: ByteReader, base: number, fields: readonly (readonly [string, number])[], path: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, offset] of fields) {
    out[name] = F32_FIELDS.has(name) ? r.f32(base + offset, `${path}.${name}`) : r.u32(base + offset, `${path}.${name}`);
  }
  return out;
}
