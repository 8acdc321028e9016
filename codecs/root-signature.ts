/**
 * RTS0 root signatures: versions, enumerations, flag bits and record layouts
 * (spec: root-signature-and-container.md §2). src/root-signature reads and writes from these.
 */
import { enumTable, flagTable } from './enum-table.js';

/** D3D_ROOT_SIGNATURE_VERSION as stored in the RTS0 header. */
export const ROOT_SIGNATURE_VERSIONS = [
  { value: 1, name: '1.0', rangeSize: 20, rootDescriptorSize: 8, staticSamplerSize: 52 },
  { value: 2, name: '1.1', rangeSize: 24, rootDescriptorSize: 12, staticSamplerSize: 52 },
  { value: 3, name: '1.2', rangeSize: 24, rootDescriptorSize: 12, staticSamplerSize: 56 },
] as const;
export type RootSignatureVersion = (typeof ROOT_SIGNATURE_VERSIONS)[number]['value'];
export type RootSignatureVersionName = (typeof ROOT_SIGNATURE_VERSIONS)[number]['name'];

/** Fixed-size records: field name, byte offset. Every field is a u32 unless listed in F32_FIELDS. */
export const RTS0_HEADER = [
  ['version', 0],
  ['numParameters', 4],
  ['parametersOffset', 8],
  ['numStaticSamplers', 12],
  ['staticSamplersOffset', 16],
  ['flags', 20],
] as const;
export const RTS0_HEADER_SIZE = 24;

export const ROOT_PARAMETER_RECORD = [
  ['parameterType', 0],
  ['shaderVisibility', 4],
  ['payloadOffset', 8],
] as const;
export const ROOT_PARAMETER_RECORD_SIZE = 12;

export const DESCRIPTOR_TABLE_HEADER = [
  ['numDescriptorRanges', 0],
  ['descriptorRangesOffset', 4],
] as const;
export const DESCRIPTOR_TABLE_HEADER_SIZE = 8;

/** Version 1.0 has no flags; from 1.1 on, flags sit before the offset. */
export const DESCRIPTOR_RANGE_FIELDS = {
  1: [['rangeType', 0], ['numDescriptors', 4], ['baseShaderRegister', 8], ['registerSpace', 12], ['offsetInDescriptorsFromTableStart', 16]],
  2: [['rangeType', 0], ['numDescriptors', 4], ['baseShaderRegister', 8], ['registerSpace', 12], ['flags', 16], ['offsetInDescriptorsFromTableStart', 20]],
  3: [['rangeType', 0], ['numDescriptors', 4], ['baseShaderRegister', 8], ['registerSpace', 12], ['flags', 16], ['offsetInDescriptorsFromTableStart', 20]],
} as const;

export const ROOT_CONSTANTS_FIELDS = [['shaderRegister', 0], ['registerSpace', 4], ['num32BitValues', 8]] as const;
export const ROOT_CONSTANTS_SIZE = 12;

export const ROOT_DESCRIPTOR_FIELDS = {
  1: [['shaderRegister', 0], ['registerSpace', 4]],
  2: [['shaderRegister', 0], ['registerSpace', 4], ['flags', 8]],
  3: [['shaderRegister', 0], ['registerSpace', 4], ['flags', 8]],
} as const;

const STATIC_SAMPLER_BASE = [
  ['filter', 0], ['addressU', 4], ['addressV', 8], ['addressW', 12], ['mipLODBias', 16],
  ['maxAnisotropy', 20], ['comparisonFunc', 24], ['borderColor', 28], ['minLOD', 32], ['maxLOD', 36],
  ['shaderRegister', 40], ['registerSpace', 44], ['shaderVisibility', 48],
] as const;
export const STATIC_SAMPLER_FIELDS = {
  1: STATIC_SAMPLER_BASE,
  2: STATIC_SAMPLER_BASE,
  3: [...STATIC_SAMPLER_BASE, ['flags', 52]],
} as const;
/** Static sampler fields stored as IEEE-754 binary32. */
export const F32_FIELDS: ReadonlySet<string> = new Set(['mipLODBias', 'minLOD', 'maxLOD']);

/** Special u32 values. */
export const DESCRIPTOR_RANGE_OFFSET_APPEND = 0xffffffff;
export const UNBOUNDED_DESCRIPTORS = 0xffffffff;

export const ROOT_PARAMETER_TYPE = enumTable('D3D12_ROOT_PARAMETER_TYPE', 'D3D12_ROOT_PARAMETER_TYPE_', [
  ['DESCRIPTOR_TABLE', 0], ['32BIT_CONSTANTS', 1], ['CBV', 2], ['SRV', 3], ['UAV', 4],
]);
export const PARAMETER_TYPE = { DESCRIPTOR_TABLE: 0, CONSTANTS: 1, CBV: 2, SRV: 3, UAV: 4 } as const;

export const DESCRIPTOR_RANGE_TYPE = enumTable('D3D12_DESCRIPTOR_RANGE_TYPE', 'D3D12_DESCRIPTOR_RANGE_TYPE_', [
  ['SRV', 0], ['UAV', 1], ['CBV', 2], ['SAMPLER', 3],
]);

export const SHADER_VISIBILITY = enumTable('D3D12_SHADER_VISIBILITY', 'D3D12_SHADER_VISIBILITY_', [
  ['ALL', 0], ['VERTEX', 1], ['HULL', 2], ['DOMAIN', 3], ['GEOMETRY', 4], ['PIXEL', 5], ['AMPLIFICATION', 6], ['MESH', 7],
]);

export const ROOT_SIGNATURE_FLAGS = flagTable('D3D12_ROOT_SIGNATURE_FLAGS', 'D3D12_ROOT_SIGNATURE_FLAG_', [
  ['ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', 0x1],
  ['DENY_VERTEX_SHADER_ROOT_ACCESS', 0x2],
  ['DENY_HULL_SHADER_ROOT_ACCESS', 0x4],
  ['DENY_DOMAIN_SHADER_ROOT_ACCESS', 0x8],
  ['DENY_GEOMETRY_SHADER_ROOT_ACCESS', 0x10],
  ['DENY_PIXEL_SHADER_ROOT_ACCESS', 0x20],
  ['ALLOW_STREAM_OUTPUT', 0x40],
  ['LOCAL_ROOT_SIGNATURE', 0x80],
  ['DENY_AMPLIFICATION_SHADER_ROOT_ACCESS', 0x100],
  ['DENY_MESH_SHADER_ROOT_ACCESS', 0x200],
  ['CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED', 0x400],
  ['SAMPLER_HEAP_DIRECTLY_INDEXED', 0x800],
]);

export const DESCRIPTOR_RANGE_FLAGS = flagTable('D3D12_DESCRIPTOR_RANGE_FLAGS', 'D3D12_DESCRIPTOR_RANGE_FLAG_', [
  ['DESCRIPTORS_VOLATILE', 0x1],
  ['DATA_VOLATILE', 0x2],
  ['DATA_STATIC_WHILE_SET_AT_EXECUTE', 0x4],
  ['DATA_STATIC', 0x8],
  ['DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS', 0x10000],
]);

export const ROOT_DESCRIPTOR_FLAGS = flagTable('D3D12_ROOT_DESCRIPTOR_FLAGS', 'D3D12_ROOT_DESCRIPTOR_FLAG_', [
  ['DATA_VOLATILE', 0x2],
  ['DATA_STATIC_WHILE_SET_AT_EXECUTE', 0x4],
  ['DATA_STATIC', 0x8],
]);

export const SAMPLER_FLAGS = flagTable('D3D12_SAMPLER_FLAGS', 'D3D12_SAMPLER_FLAG_', [
  ['UINT_BORDER_COLOR', 0x1],
  ['NON_NORMALIZED_COORDINATES', 0x2],
]);

/** D3D12_FILTER: the 40 defined values (the MIN_MAG_ANISOTROPIC_MIP_POINT family is in newer headers only). */
const FILTER_BASES = [
  ['MIN_MAG_MIP_POINT', 0x00], ['MIN_MAG_POINT_MIP_LINEAR', 0x01], ['MIN_POINT_MAG_LINEAR_MIP_POINT', 0x04],
  ['MIN_POINT_MAG_MIP_LINEAR', 0x05], ['MIN_LINEAR_MAG_MIP_POINT', 0x10], ['MIN_LINEAR_MAG_POINT_MIP_LINEAR', 0x11],
  ['MIN_MAG_LINEAR_MIP_POINT', 0x14], ['MIN_MAG_MIP_LINEAR', 0x15], ['MIN_MAG_ANISOTROPIC_MIP_POINT', 0x54], ['ANISOTROPIC', 0x55],
] as const;
const FILTER_REDUCTIONS = [['', 0x000], ['COMPARISON_', 0x080], ['MINIMUM_', 0x100], ['MAXIMUM_', 0x180]] as const;
export const FILTER = enumTable(
  'D3D12_FILTER',
  'D3D12_FILTER_',
  FILTER_REDUCTIONS.flatMap(([reduction, bits]) => FILTER_BASES.map(([base, v]) => [reduction + base, v | bits] as const)),
);
/** Filters newer than DXC's tables (no HLSL keyword, rejected by DXC's validator). */
export const FILTERS_UNKNOWN_TO_DXC: ReadonlySet<number> = new Set([0x54, 0xd4, 0x154, 0x1d4]);
export const FILTER_REDUCTION_COMPARISON = 1;
export function filterReduction(filter: number): number {
  return (filter >>> 7) & 3;
}

export const TEXTURE_ADDRESS_MODE = enumTable('D3D12_TEXTURE_ADDRESS_MODE', 'D3D12_TEXTURE_ADDRESS_MODE_', [
  ['WRAP', 1], ['MIRROR', 2], ['CLAMP', 3], ['BORDER', 4], ['MIRROR_ONCE', 5],
]);

export const COMPARISON_FUNC = enumTable('D3D12_COMPARISON_FUNC', 'D3D12_COMPARISON_FUNC_', [
  ['NONE', 0], ['NEVER', 1], ['LESS', 2], ['EQUAL', 3], ['LESS_EQUAL', 4], ['GREATER', 5], ['NOT_EQUAL', 6], ['GREATER_EQUAL', 7], ['ALWAYS', 8],
]);

export const STATIC_BORDER_COLOR = enumTable('D3D12_STATIC_BORDER_COLOR', 'D3D12_STATIC_BORDER_COLOR_', [
  ['TRANSPARENT_BLACK', 0], ['OPAQUE_BLACK', 1], ['OPAQUE_WHITE', 2], ['OPAQUE_BLACK_UINT', 3], ['OPAQUE_WHITE_UINT', 4],
]);

/** Limits from d3d12.h used by validation. */
export const LIMITS = {
  maxRootCost: 64,
  mipLodBiasMin: -16.0,
  mipLodBiasMax: 15.99,
  maxAnisotropy: 16,
  systemReservedRegisterSpaceFirst: 0xfffffff0,
} as const;
