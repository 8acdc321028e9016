/**
 * The JSON form of a root signature (documented in docs/json-form.md, schema in
 * schema/root-signature.schema.json): the typed description with D3D12 names for enum values and
 * flags, numbers where a value has no name. Lossless both ways.
 */
import {
  COMPARISON_FUNC,
  DESCRIPTOR_RANGE_FLAGS,
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  DESCRIPTOR_RANGE_TYPE,
  FILTER,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_PARAMETER_TYPE,
  ROOT_SIGNATURE_FLAGS,
  ROOT_SIGNATURE_VERSIONS,
  SAMPLER_FLAGS,
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
  UNBOUNDED_DESCRIPTORS,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';
import { DescriptionError } from '../bytes/errors.js';
import { f32Bits, f32FromBits } from '../bytes/f32.js';
import { enumName, enumValue, flagNames, flagValue, u32FromJson as u32 } from '../json/vocabulary.js';
import type { DescriptorRange, RootParameter, RootSignature, SamplerFloatField, StaticSampler } from './types.js';

export const APPEND_NAME = 'APPEND';
export const UNBOUNDED_NAME = 'UNBOUNDED';

type Json = unknown;
type JsonObject = Record<string, Json>;

// ---------------------------------------------------------------- description -> JSON

/** The JSON form of a description: D3D12 names for enum values and flags, lossless. */
export function rootSignatureToJson(rs: RootSignature): JsonObject {
  const hasFlags = rs.version >= 2;
  return {
    version: ROOT_SIGNATURE_VERSIONS.find((v) => v.value === rs.version)!.name,
    flags: flagNames(ROOT_SIGNATURE_FLAGS, rs.flags),
    parameters: rs.parameters.map((p) => parameterToJson(p, hasFlags)),
    staticSamplers: rs.staticSamplers.map((s) => samplerToJson(s, rs.version === 3)),
  };
}

function parameterToJson(p: RootParameter, hasFlags: boolean): JsonObject {
  const head = { parameterType: enumName(ROOT_PARAMETER_TYPE, p.parameterType), shaderVisibility: enumName(SHADER_VISIBILITY, p.shaderVisibility) };
  switch (p.parameterType) {
    case 0:
      return { ...head, ranges: p.ranges.map((r) => rangeToJson(r, hasFlags)) };
    case 1:
      return { ...head, constants: { ...p.constants } };
    default:
      return {
        ...head,
        descriptor: {
          shaderRegister: p.descriptor.shaderRegister,
          registerSpace: p.descriptor.registerSpace,
          ...(hasFlags ? { flags: flagNames(ROOT_DESCRIPTOR_FLAGS, p.descriptor.flags) } : {}),
        },
      };
  }
}

function rangeToJson(r: DescriptorRange, hasFlags: boolean): JsonObject {
  return {
    rangeType: enumName(DESCRIPTOR_RANGE_TYPE, r.rangeType),
    numDescriptors: r.numDescriptors === UNBOUNDED_DESCRIPTORS ? UNBOUNDED_NAME : r.numDescriptors,
    baseShaderRegister: r.baseShaderRegister,
    registerSpace: r.registerSpace,
    ...(hasFlags ? { flags: flagNames(DESCRIPTOR_RANGE_FLAGS, r.flags) } : {}),
    offsetInDescriptorsFromTableStart: r.offsetInDescriptorsFromTableStart === DESCRIPTOR_RANGE_OFFSET_APPEND ? APPEND_NAME : r.offsetInDescriptorsFromTableStart,
  };
}

function samplerToJson(s: StaticSampler, hasFlags: boolean): JsonObject {
  const float = (field: SamplerFloatField) => floatToJson(s[field], s.nanBits?.[field]);
  return {
    filter: enumName(FILTER, s.filter),
    addressU: enumName(TEXTURE_ADDRESS_MODE, s.addressU),
    addressV: enumName(TEXTURE_ADDRESS_MODE, s.addressV),
    addressW: enumName(TEXTURE_ADDRESS_MODE, s.addressW),
    mipLODBias: float('mipLODBias'),
    maxAnisotropy: s.maxAnisotropy,
    comparisonFunc: enumName(COMPARISON_FUNC, s.comparisonFunc),
    borderColor: enumName(STATIC_BORDER_COLOR, s.borderColor),
    minLOD: float('minLOD'),
    maxLOD: float('maxLOD'),
    shaderRegister: s.shaderRegister,
    registerSpace: s.registerSpace,
    shaderVisibility: enumName(SHADER_VISIBILITY, s.shaderVisibility),
    ...(hasFlags ? { flags: flagNames(SAMPLER_FLAGS, s.flags) } : {}),
  };
}

/**
 * A float as JSON: a number when JSON keeps it exactly (the shortest decimal that reads back as
 * the same f32), otherwise a string: "Infinity", "-Infinity", "-0", or a NaN's bits "0x7fc00000".
 */
export function floatToJson(value: number, nanBits?: number): number | string {
  if (Number.isNaN(value)) return `0x${(nanBits ?? f32Bits(value)).toString(16).padStart(8, '0')}`;
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return value;
}

// ---------------------------------------------------------------- JSON -> description

/**
 * The description a JSON form stands for (names or numbers, "0x..." strings for u32 values).
 * @throws {DescriptionError} unknown-key, missing-key, bad-type, bad-name, out-of-range, not-representable
 */
export function rootSignatureFromJson(json: Json): RootSignature {
  const o = object(json, '$', ['version', 'flags', 'parameters', 'staticSamplers'], ['version']);
  const versionEntry = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === o.version || v.value === o.version);
  if (!versionEntry) throw new DescriptionError('out-of-range', '$.version', `expected "1.0", "1.1" or "1.2", got ${JSON.stringify(o.version)}`);
  const version = versionEntry.value as RootSignatureVersion;
  return {
    version,
    flags: flagValue(ROOT_SIGNATURE_FLAGS, o.flags, '$.flags'),
    parameters: array(o.parameters, '$.parameters').map((p, i) => parameterFromJson(p, version, `$.parameters[${i}]`)),
    staticSamplers: array(o.staticSamplers, '$.staticSamplers').map((s, i) => samplerFromJson(s, version, `$.staticSamplers[${i}]`)),
  };
}

function parameterFromJson(json: Json, version: RootSignatureVersion, path: string): RootParameter {
  const head = object(json, path, ['parameterType', 'shaderVisibility', 'ranges', 'constants', 'descriptor'], ['parameterType']);
  const parameterType = enumValue(ROOT_PARAMETER_TYPE, head.parameterType, `${path}.parameterType`);
  const shaderVisibility = head.shaderVisibility === undefined ? 0 : enumValue(SHADER_VISIBILITY, head.shaderVisibility, `${path}.shaderVisibility`);
  const payloadKey = parameterType === 0 ? 'ranges' : parameterType === 1 ? 'constants' : 'descriptor';
  for (const key of ['ranges', 'constants', 'descriptor']) {
    if (key !== payloadKey && head[key] !== undefined) throw new DescriptionError('unknown-key', `${path}.${key}`, `a ${String(enumName(ROOT_PARAMETER_TYPE, parameterType))} parameter has no "${key}"`);
  }
  if (head[payloadKey] === undefined) throw new DescriptionError('missing-key', `${path}.${payloadKey}`, `a ${String(enumName(ROOT_PARAMETER_TYPE, parameterType))} parameter needs "${payloadKey}"`);
  if (parameterType === 0) {
    return { parameterType: 0, shaderVisibility, ranges: array(head.ranges, `${path}.ranges`).map((r, j) => rangeFromJson(r, version, `${path}.ranges[${j}]`)) };
  }
  if (parameterType === 1) {
    const c = object(head.constants, `${path}.constants`, ['shaderRegister', 'registerSpace', 'num32BitValues'], ['shaderRegister', 'num32BitValues']);
    return {
      parameterType: 1,
      shaderVisibility,
      constants: {
        shaderRegister: u32(c.shaderRegister, `${path}.constants.shaderRegister`),
        registerSpace: optionalU32(c.registerSpace, `${path}.constants.registerSpace`),
        num32BitValues: u32(c.num32BitValues, `${path}.constants.num32BitValues`),
      },
    };
  }
  if (parameterType > 4) throw new DescriptionError('out-of-range', `${path}.parameterType`, `unknown parameter type ${parameterType}: its payload layout is not defined`);
  const d = object(head.descriptor, `${path}.descriptor`, ['shaderRegister', 'registerSpace', 'flags'], ['shaderRegister']);
  return {
    parameterType: parameterType as 2 | 3 | 4,
    shaderVisibility,
    descriptor: {
      shaderRegister: u32(d.shaderRegister, `${path}.descriptor.shaderRegister`),
      registerSpace: optionalU32(d.registerSpace, `${path}.descriptor.registerSpace`),
      flags: versionedFlags(flagValue(ROOT_DESCRIPTOR_FLAGS, d.flags, `${path}.descriptor.flags`), version >= 2, `${path}.descriptor.flags`),
    },
  };
}

function rangeFromJson(json: Json, version: RootSignatureVersion, path: string): DescriptorRange {
  const r = object(
    json,
    path,
    ['rangeType', 'numDescriptors', 'baseShaderRegister', 'registerSpace', 'flags', 'offsetInDescriptorsFromTableStart'],
    ['rangeType', 'baseShaderRegister'],
  );
  return {
    rangeType: enumValue(DESCRIPTOR_RANGE_TYPE, r.rangeType, `${path}.rangeType`),
    numDescriptors: r.numDescriptors === undefined ? 1 : r.numDescriptors === UNBOUNDED_NAME ? UNBOUNDED_DESCRIPTORS : u32(r.numDescriptors, `${path}.numDescriptors`),
    baseShaderRegister: u32(r.baseShaderRegister, `${path}.baseShaderRegister`),
    registerSpace: optionalU32(r.registerSpace, `${path}.registerSpace`),
    flags: versionedFlags(flagValue(DESCRIPTOR_RANGE_FLAGS, r.flags, `${path}.flags`), version >= 2, `${path}.flags`),
    offsetInDescriptorsFromTableStart:
      r.offsetInDescriptorsFromTableStart === undefined || r.offsetInDescriptorsFromTableStart === APPEND_NAME
        ? DESCRIPTOR_RANGE_OFFSET_APPEND
        : u32(r.offsetInDescriptorsFromTableStart, `${path}.offsetInDescriptorsFromTableStart`),
  };
}

const SAMPLER_KEYS = [
  'filter', 'addressU', 'addressV', 'addressW', 'mipLODBias', 'maxAnisotropy', 'comparisonFunc', 'borderColor',
  'minLOD', 'maxLOD', 'shaderRegister', 'registerSpace', 'shaderVisibility', 'flags',
];

function samplerFromJson(json: Json, version: RootSignatureVersion, path: string): StaticSampler {
  const s = object(json, path, SAMPLER_KEYS, SAMPLER_KEYS.filter((k) => k !== 'flags'));
  const sampler: StaticSampler = {
    filter: enumValue(FILTER, s.filter, `${path}.filter`),
    addressU: enumValue(TEXTURE_ADDRESS_MODE, s.addressU, `${path}.addressU`),
    addressV: enumValue(TEXTURE_ADDRESS_MODE, s.addressV, `${path}.addressV`),
    addressW: enumValue(TEXTURE_ADDRESS_MODE, s.addressW, `${path}.addressW`),
    mipLODBias: 0,
    maxAnisotropy: u32(s.maxAnisotropy, `${path}.maxAnisotropy`),
    comparisonFunc: enumValue(COMPARISON_FUNC, s.comparisonFunc, `${path}.comparisonFunc`),
    borderColor: enumValue(STATIC_BORDER_COLOR, s.borderColor, `${path}.borderColor`),
    minLOD: 0,
    maxLOD: 0,
    shaderRegister: u32(s.shaderRegister, `${path}.shaderRegister`),
    registerSpace: u32(s.registerSpace, `${path}.registerSpace`),
    shaderVisibility: enumValue(SHADER_VISIBILITY, s.shaderVisibility, `${path}.shaderVisibility`),
    flags: versionedFlags(flagValue(SAMPLER_FLAGS, s.flags, `${path}.flags`), version === 3, `${path}.flags`),
  };
  for (const field of ['mipLODBias', 'minLOD', 'maxLOD'] as const) {
    const { value, nanBits } = floatFromJson(s[field], `${path}.${field}`);
    sampler[field] = value;
    if (nanBits !== undefined) (sampler.nanBits ??= {})[field] = nanBits;
  }
  return sampler;
}

/** Reads a float written by floatToJson (or any number, rounded to f32 as the field stores it). */
export function floatFromJson(json: Json, path: string): { value: number; nanBits?: number } {
  if (typeof json === 'number') return { value: Math.fround(json) };
  if (json === 'Infinity') return { value: Infinity };
  if (json === '-Infinity') return { value: -Infinity };
  if (json === '-0') return { value: -0 };
  if (json === 'NaN') return { value: NaN };
  if (typeof json === 'string' && /^0x[0-9a-f]{8}$/i.test(json)) {
    const bits = Number.parseInt(json.slice(2), 16);
    const value = f32FromBits(bits);
    return Number.isNaN(value) && bits !== 0x7fc00000 ? { value, nanBits: bits } : { value };
  }
  throw new DescriptionError('bad-type', path, `expected a number, "Infinity", "-Infinity", "-0" or f32 bits "0x........", got ${JSON.stringify(json)}`);
}

function versionedFlags(value: number, stored: boolean, path: string): number {
  if (!stored && value !== 0) throw new DescriptionError('not-representable', path, 'this version stores no flags here; convert the root signature to a later version first');
  return value;
}

function optionalU32(json: Json, path: string): number {
  return json === undefined ? 0 : u32(json, path);
}

function object(json: Json, path: string, allowed: readonly string[], required: readonly string[]): JsonObject {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DescriptionError('bad-type', path, 'expected an object');
  const o = json as JsonObject;
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw new DescriptionError('unknown-key', `${path}.${key}`, `unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  }
  for (const key of required) if (o[key] === undefined) throw new DescriptionError('missing-key', `${path}.${key}`, `"${key}" is required`);
  return o;
}

function array(json: Json, path: string): Json[] {
  if (json === undefined) return [];
  if (!Array.isArray(json)) throw new DescriptionError('bad-type', path, 'expected an array');
  return json;
}
