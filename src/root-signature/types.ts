/**
 * The typed description of a root signature: D3D12_VERSIONED_ROOT_SIGNATURE_DESC with camelCase
 * field names and raw numbers (unknown enum values and flag bits are kept as they are).
 */
import type { CONSTANTS, DESCRIPTOR, FieldValues, RANGE, RootSignatureVersion, SAMPLER } from '../../codecs/root-signature.js';

export type { RootSignatureVersion };

/** D3D12_DESCRIPTOR_RANGE1 (fields: codecs RANGE); `flags` is 0 in version 1.0, which has none. */
export interface DescriptorRange extends FieldValues<typeof RANGE> {}

/** A descriptor table root parameter. */
export interface DescriptorTableParameter {
  parameterType: 0;
  shaderVisibility: number;
  ranges: DescriptorRange[];
}

/** D3D12_ROOT_CONSTANTS (fields: codecs CONSTANTS). */
export interface RootConstants extends FieldValues<typeof CONSTANTS> {}

/** A root constants parameter. */
export interface RootConstantsParameter {
  parameterType: 1;
  shaderVisibility: number;
  constants: RootConstants;
}

/** D3D12_ROOT_DESCRIPTOR1 (fields: codecs DESCRIPTOR); `flags` is 0 in version 1.0, which has none. */
export interface RootDescriptor extends FieldValues<typeof DESCRIPTOR> {}

/** A root CBV, SRV or UAV parameter. */
export interface RootDescriptorParameter {
  /** 2 CBV, 3 SRV, 4 UAV. */
  parameterType: 2 | 3 | 4;
  shaderVisibility: number;
  descriptor: RootDescriptor;
}

/** A root parameter, discriminated by parameterType. */
export type RootParameter = DescriptorTableParameter | RootConstantsParameter | RootDescriptorParameter;

/** The f32 fields of a static sampler. */
export type SamplerFloatField = { [K in keyof SamplerFields]: SamplerFields[K]['kind'] extends 'f32' ? K : never }[keyof SamplerFields];
type SamplerFields = (typeof SAMPLER)['fields'];

/** D3D12_STATIC_SAMPLER_DESC1 (fields: codecs SAMPLER); `flags` is 0 before version 1.2. */
export interface StaticSampler extends FieldValues<typeof SAMPLER> {
  /** Bit patterns of NaN float fields whose payload is not the default quiet NaN, so they survive. */
  nanBits?: Partial<Record<SamplerFloatField, number>>;
}

/** D3D12_VERSIONED_ROOT_SIGNATURE_DESC: version, flags, parameters and static samplers. */
export interface RootSignature {
  version: RootSignatureVersion;
  flags: number;
  parameters: RootParameter[];
  staticSamplers: StaticSampler[];
}
