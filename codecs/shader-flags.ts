/**
 * SFI0 shader feature flags: one row per bit of the 64-bit feature word (bit index, DXC/LLVM
 * spelling as LLVM's DXContainerConstants.def and DXC's DxilContainer.h name them). The SFI0 part
 * and anything that names feature bits read this table (docs/formats/parts.md).
 */
import type { BitRow } from './rows.js';

/** ShaderFeatureInfo bits of the SFI0 part (u64), by bit index. */
export const SHADER_FEATURE_FLAGS: readonly BitRow[] = [
  { bit: 0, name: 'Doubles' },
  { bit: 1, name: 'ComputeShadersPlusRawAndStructuredBuffers' },
  { bit: 2, name: 'UAVsAtEveryStage' },
  { bit: 3, name: 'Max64UAVs' },
  { bit: 4, name: 'MinimumPrecision' },
  { bit: 5, name: 'DX11_1_DoubleExtensions' },
  { bit: 6, name: 'DX11_1_ShaderExtensions' },
  { bit: 7, name: 'LEVEL9ComparisonFiltering' },
  { bit: 8, name: 'TiledResources' },
  { bit: 9, name: 'StencilRef' },
  { bit: 10, name: 'InnerCoverage' },
  { bit: 11, name: 'TypedUAVLoadAdditionalFormats' },
  { bit: 12, name: 'ROVs' },
  { bit: 13, name: 'ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer' },
  { bit: 14, name: 'WaveOps' },
  { bit: 15, name: 'Int64Ops' },
  { bit: 16, name: 'ViewID' },
  { bit: 17, name: 'Barycentrics' },
  { bit: 18, name: 'NativeLowPrecision' },
  { bit: 19, name: 'ShadingRate' },
  { bit: 20, name: 'Raytracing_Tier_1_1' },
  { bit: 21, name: 'SamplerFeedback' },
  { bit: 22, name: 'AtomicInt64OnTypedResource' },
  { bit: 23, name: 'AtomicInt64OnGroupShared' },
  { bit: 24, name: 'DerivativesInMeshAndAmpShaders' },
  { bit: 25, name: 'ResourceDescriptorHeapIndexing' },
  { bit: 26, name: 'SamplerDescriptorHeapIndexing' },
  { bit: 27, name: 'RESERVED' },
  { bit: 28, name: 'AtomicInt64OnHeapResource' },
  { bit: 29, name: 'AdvancedTextureOps' },
  { bit: 30, name: 'WriteableMSAATextures' },
  // LLVM 19 names bit 31 NextUnusedBit (its end marker); DXC (SM 6.8) gives it and bit 32 meanings.
  { bit: 31, name: 'SampleCmpGradientOrBias' },
  { bit: 32, name: 'ExtendedCommandInfo' },
];
