/**
 * Root signature version conversion rules (docs/formats/rts0.md, conversion), one row per semantics. src/root-signature/
 * convert.ts applies them; nothing else decides a conversion value.
 *
 * Flags added when converting up from 1.0 are the ones that keep 1.0's meaning ("everything
 * volatile"). Conversion down drops range and root-descriptor flags (1.1 -> 1.0) and sampler flags
 * (1.2 -> 1.1/1.0).
 *
 * Decisions on UNVERIFIED runtime behaviour (docs/decisions.md), made here and tested in test/convert.test.ts:
 *
 * 1. runtime, 1.0 -> 1.1, SAMPLER ranges: DESCRIPTORS_VOLATILE (0x1), not vkd3d's 0x3.
 *    Why: samplers point at no data, so a DATA_* flag has no 1.0 meaning to keep; the runtime's own
 *    validation (mirrored by DXC's rule "sampler descriptor ranges can't specify DATA_* flags")
 *    would reject a 0x3 sampler range, and DXC, whose validator up-converts every 1.0 signature
 *    before checking it, stores 0x1. A converter that produced descriptions its own validator
 *    rejects would be wrong, so 0x1 is the only consistent choice.
 * 2. runtime, 1.0/1.1 -> 1.2, static sampler Flags: 0 (NONE), as vkd3d-proton does; 1.0/1.1 have
 *    no sampler flags, and 0 keeps the meaning of every field (a _UINT border colour keeps its value).
 * 3. d3dx12, conversion up: the helper (D3DX12SerializeVersionedRootSignature) never converts up;
 *    it passes a lower-version description through. Asked to convert up anyway, it follows the
 *    runtime rows. Conversion down follows the helper exactly, including its E_INVALIDARG on a
 *    1.2 sampler with any flag other than UINT_BORDER_COLOR.
 * 4. vkd3d knows only 1.0 and 1.1; for 1.2 its rows are vkd3d-proton's (flags dropped / 0).
 */

import { flag } from './enum-table.js';
import { DESCRIPTOR_RANGE_FLAGS, ROOT_DESCRIPTOR_FLAGS, SAMPLER_FLAGS } from './root-signature.js';

/** Whose conversion rules to follow: the D3D12 runtime, vkd3d, or the d3dx12 helper. */
export type ConversionSemantics = 'runtime' | 'vkd3d' | 'd3dx12';
/** Every conversion semantics, for choices. */
export const CONVERSION_SEMANTICS: readonly ConversionSemantics[] = ['runtime', 'vkd3d', 'd3dx12'];

export interface ConversionRules {
  /** 1.0 -> 1.1+: flags stored for CBV/SRV/UAV ranges. */
  readonly upRangeFlags: number;
  /** 1.0 -> 1.1+: flags stored for sampler ranges. */
  readonly upSamplerRangeFlags: number;
  /** 1.0 -> 1.1+: flags stored for root CBV/SRV/UAV. */
  readonly upRootDescriptorFlags: number;
  /** 1.0/1.1 -> 1.2: static sampler flags. */
  readonly upSamplerFlags: number;
  /** 1.2 -> 1.1/1.0: sampler flag bits that make the conversion fail (0: none, flags are dropped). */
  readonly downSamplerFlagsRefused: number;
  /** Source of the behaviour, for reports and docs. */
  readonly after: string;
}

const DESCRIPTORS_VOLATILE = flag(DESCRIPTOR_RANGE_FLAGS, 'DESCRIPTORS_VOLATILE');
const DATA_VOLATILE = flag(DESCRIPTOR_RANGE_FLAGS, 'DATA_VOLATILE');
const ROOT_DATA_VOLATILE = flag(ROOT_DESCRIPTOR_FLAGS, 'DATA_VOLATILE');
const UINT_BORDER_COLOR = flag(SAMPLER_FLAGS, 'UINT_BORDER_COLOR');

export const CONVERSION_RULES: Readonly<Record<ConversionSemantics, ConversionRules>> = {
  runtime: {
    upRangeFlags: DESCRIPTORS_VOLATILE | DATA_VOLATILE,
    upSamplerRangeFlags: DESCRIPTORS_VOLATILE,
    upRootDescriptorFlags: ROOT_DATA_VOLATILE,
    upSamplerFlags: 0,
    downSamplerFlagsRefused: 0,
    after: 'ID3D12VersionedRootSignatureDeserializer::GetRootSignatureDescAtVersion',
  },
  vkd3d: {
    upRangeFlags: DESCRIPTORS_VOLATILE | DATA_VOLATILE,
    upSamplerRangeFlags: DESCRIPTORS_VOLATILE | DATA_VOLATILE,
    upRootDescriptorFlags: ROOT_DATA_VOLATILE,
    upSamplerFlags: 0,
    downSamplerFlagsRefused: 0,
    after: 'vkd3d_shader_convert_root_signature (1.2: vkd3d-proton)',
  },
  d3dx12: {
    upRangeFlags: DESCRIPTORS_VOLATILE | DATA_VOLATILE,
    upSamplerRangeFlags: DESCRIPTORS_VOLATILE,
    upRootDescriptorFlags: ROOT_DATA_VOLATILE,
    upSamplerFlags: 0,
    downSamplerFlagsRefused: ~UINT_BORDER_COLOR >>> 0,
    after: 'D3DX12SerializeVersionedRootSignature (d3dx12_root_signature.h)',
  },
};
