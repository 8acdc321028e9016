/**
 * The typed description of a root signature: D3D12_VERSIONED_ROOT_SIGNATURE_DESC with camelCase
 * field names and raw numbers (unknown enum values and flag bits are kept as they are).
 */
import type { RootSignatureVersion } from '../../codecs/root-signature.js';

export type { RootSignatureVersion };

export interface DescriptorRange {
  rangeType: number;
  numDescriptors: number;
  baseShaderRegister: number;
  registerSpace: number;
  /** D3D12_DESCRIPTOR_RANGE_FLAGS; not stored in version 1.0 (always 0 there). */
  flags: number;
  offsetInDescriptorsFromTableStart: number;
}

export interface DescriptorTableParameter {
  parameterType: 0;
  shaderVisibility: number;
  ranges: DescriptorRange[];
}

export interface RootConstants {
  shaderRegister: number;
  registerSpace: number;
  num32BitValues: number;
}

export interface RootConstantsParameter {
  parameterType: 1;
  shaderVisibility: number;
  constants: RootConstants;
}

export interface RootDescriptor {
  shaderRegister: number;
  registerSpace: number;
  /** D3D12_ROOT_DESCRIPTOR_FLAGS; not stored in version 1.0 (always 0 there). */
  flags: number;
}

export interface RootDescriptorParameter {
  /** 2 CBV, 3 SRV, 4 UAV. */
  parameterType: 2 | 3 | 4;
  shaderVisibility: number;
  descriptor: RootDescriptor;
}

export type RootParameter = DescriptorTableParameter | RootConstantsParameter | RootDescriptorParameter;

/** The f32 fields of a static sampler. */
export type SamplerFloatField = 'mipLODBias' | 'minLOD' | 'maxLOD';

export interface StaticSampler {
  filter: number;
  addressU: number;
  addressV: number;
  addressW: number;
  mipLODBias: number;
  maxAnisotropy: number;
  comparisonFunc: number;
  borderColor: number;
  minLOD: number;
  maxLOD: number;
  shaderRegister: number;
  registerSpace: number;
  shaderVisibility: number;
  /** D3D12_SAMPLER_FLAGS; stored from version 1.2 on (always 0 before). */
  flags: number;
  /** Bit patterns of NaN float fields whose payload is not the default quiet NaN, so they survive. */
  nanBits?: Partial<Record<SamplerFloatField, number>>;
}

export interface RootSignature {
  version: RootSignatureVersion;
  flags: number;
  parameters: RootParameter[];
  staticSamplers: StaticSampler[];
}
