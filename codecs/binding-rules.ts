/**
 * Shader bindings vs a root signature, as DXC's root-signature verifier decides it
 * (docs/binding-verification.md): stage -> visibility and DENY flag, the coverage rules and
 * DXC's messages, one row each. src/binding/verify.ts expands them.
 */

/** Stage (DXIL::ShaderKind) -> the visibility whose parameters count besides ALL, and its DENY flag. */
export const STAGE_VISIBILITY: readonly { readonly stage: number; readonly visibility: number; readonly deny: number }[] = [
  { stage: 0, visibility: 5, deny: 0x20 }, // pixel
  { stage: 1, visibility: 1, deny: 0x2 }, // vertex
  { stage: 2, visibility: 4, deny: 0x10 }, // geometry
  { stage: 3, visibility: 2, deny: 0x4 }, // hull
  { stage: 4, visibility: 3, deny: 0x8 }, // domain
  { stage: 13, visibility: 7, deny: 0x200 }, // mesh
  { stage: 14, visibility: 6, deny: 0x100 }, // amplification
];
/** Every other stage (compute, library, ray tracing, node) sees only ALL and has no DENY flag. */
export const VISIBILITY_ALL = 0;

/** Stages whose bindings cannot be checked against a root signature from the container alone. */
export const NOT_VERIFIABLE_STAGES: readonly number[] = [6, 7, 8, 9, 10, 11, 12, 15];
/** D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE: a local root signature is not checked against one shader. */
export const LOCAL_ROOT_SIGNATURE_FLAG = 0x80;

/** Register-class words of DXC's "not fully bound" message (range-type order: SRV, UAV, CBV, Sampler). */
export const CLASS_WORD = ['SRV', 'UAV', 'CBV', 'sampler'] as const;

/** Which interval kinds may hold which PSV resource types (a missing type: any kind). */
export const ROOT_DESCRIPTOR_REFUSES: Readonly<Record<number, BindingViolationCode>> = {
  3: 'typed-srv-on-root-descriptor',
  6: 'typed-uav-on-root-descriptor',
  9: 'counter-uav-on-root-descriptor',
};

/**
 * The runtime's words when a shader indexes a descriptor heap that the root signature does not
 * open for direct indexing (the D3D12 runtime's root-signature verifier; DXC does not check this).
 */
const RESOURCE_HEAP_MESSAGE = 'Shader uses resource descriptor heap indexing, but root signature is missing the D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED flag.';
const SAMPLER_HEAP_MESSAGE = 'Shader uses sampler descriptor heap indexing, but root signature is missing the D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED flag.';

/**
 * SM 6.6 dynamic resources: a shader feature bit (codecs/shader-flags.ts, FeatureInfo1) that needs a
 * root signature flag (codecs/root-signature.ts ROOT_SIGNATURE_FLAGS), checked before the bindings,
 * as the runtime checks it for shaders and for each export of a DXIL library.
 */
export const HEAP_INDEXING_RULES: readonly { readonly feature: string; readonly rootFlag: string; readonly code: HeapIndexingCode }[] = [
  { feature: 'ResourceDescriptorHeapIndexing', rootFlag: 'CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED', code: 'resource-heap-not-indexable' },
  { feature: 'SamplerDescriptorHeapIndexing', rootFlag: 'SAMPLER_HEAP_DIRECTLY_INDEXED', code: 'sampler-heap-not-indexable' },
];

/** The codes of the descriptor-heap rules (shared by shader and state-object verification). */
export type HeapIndexingCode = 'resource-heap-not-indexable' | 'sampler-heap-not-indexable';

/** Stable codes of the binding verification rules. */
export type BindingViolationCode =
  | 'root-signature-invalid'
  | 'not-fully-bound'
  | 'typed-srv-on-root-descriptor'
  | 'typed-uav-on-root-descriptor'
  | 'counter-uav-on-root-descriptor'
  | HeapIndexingCode
  | 'stage-denied';

/**
 * DXC's messages ({placeholders} filled from the binding). The double space before "SRV or UAV"
 * is DXC's. DXC stops at the first; dxbin reports every violation in DXC's order.
 */
export const BINDING_RULES: readonly { readonly code: BindingViolationCode; readonly message: string }[] = [
  { code: 'root-signature-invalid', message: '{message}' },
  { code: 'not-fully-bound', message: 'Shader {cls} descriptor range (RegisterSpace={space}, NumDescriptors={num}, BaseShaderRegister={base}) is not fully bound in root signature.' },
  {
    code: 'typed-srv-on-root-descriptor',
    message: 'A Shader is declaring a resource object as a texture using a register mapped to a root descriptor SRV (RegisterSpace={space}, ShaderRegister={base}).  SRV or UAV root descriptors can only be Raw or Structured buffers.',
  },
  {
    code: 'typed-uav-on-root-descriptor',
    message: 'A shader is declaring a typed UAV using a register mapped to a root descriptor UAV (RegisterSpace={space}, ShaderRegister={base}).  SRV or UAV root descriptors can only be Raw or Structured buffers.',
  },
  {
    code: 'counter-uav-on-root-descriptor',
    message: 'A Shader is declaring a structured UAV with counter using a register mapped to a root descriptor UAV (RegisterSpace={space}, ShaderRegister={base}).  SRV or UAV root descriptors can only be Raw or Structured buffers.',
  },
  { code: 'resource-heap-not-indexable', message: RESOURCE_HEAP_MESSAGE },
  { code: 'sampler-heap-not-indexable', message: SAMPLER_HEAP_MESSAGE },
  { code: 'stage-denied', message: 'Shader has root bindings but root signature uses a DENY flag to disallow root binding access to the shader stage.' },
];

/** DXC's wrapper line when full container validation finds the mismatch. */
export const INCOMPATIBLE_MESSAGE = 'Root Signature in DXIL container is not compatible with shader.';
