/**
 * Shader feature flags, one row per bit: the 64-bit value of a container's SFI0 part (DXC's
 * DFCC_FeatureInfo) and of an RDAT function record's FeatureInfo1 (bits 0-31) and FeatureInfo2
 * (bits 32-63). Bit numbers and names are DXC's ShaderFeatureInfo_* constants (LLVM's
 * SHADER_FEATURE_FLAG rows in DXContainerConstants.def agree on bits 0-30); bits 40 and up are
 * DXC's OptFeatureInfo_* flags, which describe a function rather than require a feature
 * (docs/formats/container.md, "SFI0"). Decoders name bits from these rows; the binding rules use
 * the descriptor-heap rows (codecs/binding-rules.ts).
 */
import { flagTable, type FlagTable } from './enum-table.js';

/** One feature bit: its position in the 64-bit value, its name as LLVM's obj2yaml spells it (`dxc`: DXC's ShaderFeatureInfo_ spelling where it differs), and the shader model that introduced it. */
export interface ShaderFeatureFlagRow {
  readonly bit: number;
  readonly name: string;
  /** DXC's spelling (ShaderFeatureInfo_NAME), where it differs from `name`. */
  readonly dxc?: string;
  /** The shader model that introduced the flag ('6.0' for the flags carried over from DXBC). */
  readonly since: string;
  /** Set for the optional-information bits (40 and up): not a feature the device must have. */
  readonly optional?: true;
}

/** The DXIL shader feature flags (SFI0 bits): bit, name, DXC's spelling where it differs, and the shader model that added it. */
export const SHADER_FEATURE_FLAGS: readonly ShaderFeatureFlagRow[] = [
  { bit: 0, name: 'Doubles', since: '6.0' },
  { bit: 1, name: 'ComputeShadersPlusRawAndStructuredBuffers', dxc: 'ComputeShadersPlusRawAndStructuredBuffersViaShader4X', since: '6.0' },
  { bit: 2, name: 'UAVsAtEveryStage', since: '6.0' },
  { bit: 3, name: 'Max64UAVs', dxc: '64UAVs', since: '6.0' },
  { bit: 4, name: 'MinimumPrecision', since: '6.0' },
  { bit: 5, name: 'DX11_1_DoubleExtensions', dxc: '11_1_DoubleExtensions', since: '6.0' },
  { bit: 6, name: 'DX11_1_ShaderExtensions', dxc: '11_1_ShaderExtensions', since: '6.0' },
  { bit: 7, name: 'LEVEL9ComparisonFiltering', since: '6.0' },
  { bit: 8, name: 'TiledResources', since: '6.0' },
  { bit: 9, name: 'StencilRef', since: '6.0' },
  { bit: 10, name: 'InnerCoverage', since: '6.0' },
  { bit: 11, name: 'TypedUAVLoadAdditionalFormats', since: '6.0' },
  { bit: 12, name: 'ROVs', since: '6.0' },
  { bit: 13, name: 'ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer', since: '6.0' },
  { bit: 14, name: 'WaveOps', since: '6.0' },
  { bit: 15, name: 'Int64Ops', since: '6.0' },
  { bit: 16, name: 'ViewID', since: '6.1' },
  { bit: 17, name: 'Barycentrics', since: '6.1' },
  { bit: 18, name: 'NativeLowPrecision', since: '6.2' },
  { bit: 19, name: 'ShadingRate', since: '6.4' },
  { bit: 20, name: 'Raytracing_Tier_1_1', since: '6.5' },
  { bit: 21, name: 'SamplerFeedback', since: '6.5' },
  { bit: 22, name: 'AtomicInt64OnTypedResource', since: '6.6' },
  { bit: 23, name: 'AtomicInt64OnGroupShared', since: '6.6' },
  { bit: 24, name: 'DerivativesInMeshAndAmpShaders', since: '6.6' },
  { bit: 25, name: 'ResourceDescriptorHeapIndexing', since: '6.6' },
  { bit: 26, name: 'SamplerDescriptorHeapIndexing', since: '6.6' },
  { bit: 27, name: 'WaveMMA', since: '6.9' },
  { bit: 28, name: 'AtomicInt64OnHeapResource', since: '6.6' },
  { bit: 29, name: 'AdvancedTextureOps', since: '6.7' },
  { bit: 30, name: 'WriteableMSAATextures', since: '6.7' },
  { bit: 31, name: 'SampleCmpGradientOrBias', since: '6.8' },
  { bit: 32, name: 'ExtendedCommandInfo', since: '6.8' },
  { bit: 40, name: 'UsesDerivatives', since: '6.8', optional: true },
  { bit: 41, name: 'RequiresGroup', since: '6.8', optional: true },
];

/** The rows of one 32-bit half as a flag table (FeatureInfo1: bits 0-31, FeatureInfo2: bits 32-63). */
function half(type: string, from: number): FlagTable {
  return flagTable(
    type,
    '',
    SHADER_FEATURE_FLAGS.filter((r) => r.bit >= from && r.bit < from + 32).map((r) => [r.name, 2 ** (r.bit - from)] as const),
  );
}

/** Bits 0-31 (SFI0 bytes 0-3, RDAT FeatureInfo1), by name. */
export const SHADER_FEATURE_INFO1 = half('ShaderFeatureInfo (FeatureInfo1)', 0);
/** Bits 32-63 (SFI0 bytes 4-7, RDAT FeatureInfo2), by name. */
export const SHADER_FEATURE_INFO2 = half('ShaderFeatureInfo (FeatureInfo2)', 32);
