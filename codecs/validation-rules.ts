/**
 * Root signature validation rules (docs/formats/rts0.md, validation): stable code, rule number, which targets apply it,
 * and the message, worded as DXC and the D3D12 debug layer word it. `{name}` placeholders are
 * filled by src/root-signature/validate.ts.
 *
 * Targets: `dxc` is DXC's validator (lib/DxilRootSignature, run on every root signature it
 * compiles or embeds); `runtime` is what D3D12 rejects at CreateRootSignature, per the docs and the
 * debug layer. `all` applies every rule, LLVM's stricter ones included.
 *
 * Decisions on UNVERIFIED runtime rules (recorded in docs/decisions.md):
 * - #1 runtime mask is d3d12.h's 0xFFF; 0x80000000 is DXC-internal (not in the public header).
 * - #14 runtime rejects DESCRIPTORS_VOLATILE with DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS:
 *   the second flag declares the descriptors static, the first declares them volatile; LLVM rejects
 *   the pair too. DXC does not check it.
 * - #19 runtime accepts the MIN_MAG_ANISOTROPIC_MIP_POINT family (defined in current d3d12.h); DXC
 *   knows only the other 36 filters.
 * - #25 runtime rejects border colours outside the enumeration (DXC does not check).
 * - #26 runtime rejects 1.2 sampler flags outside UINT_BORDER_COLOR | NON_NORMALIZED_COORDINATES;
 *   rules for combining them are not known, so none are invented.
 * - #27 runtime rejects a root cost over 64 DWORDs (documented limit, enforced at creation).
 * - #28 (ShaderRegister 0xFFFFFFFF) is LLVM's alone: only target `all` applies it.
 * - #29 needs to know that the signature is used as a global one: option `global`.
 */

export type ValidationTarget = 'runtime' | 'dxc' | 'all';
/** Every validation target, for choices. */
export const VALIDATION_TARGETS: readonly ValidationTarget[] = ['runtime', 'dxc', 'all'];

export interface ValidationRule {
  readonly rule: number;
  readonly code: string;
  readonly targets: readonly Exclude<ValidationTarget, 'all'>[];
  readonly message: string;
}

const both = ['runtime', 'dxc'] as const;

export const VALIDATION_RULES = [
  { rule: 1, code: 'root-flags-unsupported', targets: both, message: 'Unsupported bit-flag set (root signature flags {hex}).' },
  { rule: 2, code: 'parameter-type-unsupported', targets: both, message: 'Unsupported ParameterType value {value} (root parameter {parameter})' },
  { rule: 3, code: 'shader-visibility-unsupported', targets: both, message: 'Unsupported ShaderVisibility value {value} ({where}).' },
  { rule: 4, code: 'range-type-unsupported', targets: both, message: 'Unsupported RangeType value {value} (descriptor table slot [{slot}], root parameter [{parameter}]).' },
  { rule: 5, code: 'table-mixes-samplers', targets: both, message: 'Samplers cannot be mixed with other resource types in a descriptor table (root parameter [{parameter}]).' },
  { rule: 6, code: 'range-empty', targets: both, message: 'NumDescriptors cannot be 0 (descriptor table slot [{slot}], root parameter [{parameter}]).' },
  { rule: 7, code: 'append-after-unbounded', targets: both, message: 'Cannot append range with implicit lower bound after an unbounded range (descriptor table slot [{slot}], root parameter [{parameter}]).' },
  { rule: 8, code: 'register-range-overflow', targets: both, message: 'Overflow for shader register range: BaseShaderRegister={base}, NumDescriptor={count}; (descriptor table slot [{slot}], root parameter [{parameter}]).' },
  { rule: 9, code: 'descriptor-range-overflow', targets: both, message: 'Overflow for descriptor range (descriptor table slot [{slot}], root parameter [{parameter}])' },
  { rule: 10, code: 'range-flags-unsupported', targets: both, message: 'Unsupported bit-flag set (descriptor range flags {hex}).' },
  { rule: 11, code: 'sampler-range-data-flags', targets: both, message: "Sampler descriptor ranges can't specify DATA_* flags since there is no data pointed to by samplers (descriptor range flags {hex})." },
  { rule: 12, code: 'range-multiple-data-flags', targets: both, message: 'Descriptor range flags cannot specify more than one DATA_* flag at a time (descriptor range flags {hex}).' },
  { rule: 13, code: 'range-volatile-data-static', targets: both, message: "Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with the DATA_STATIC flag at the same time (descriptor range flags {hex}). DATA_STATIC_WHILE_SET_AT_EXECUTE is fine to combine with DESCRIPTORS_VOLATILE, since DESCRIPTORS_VOLATILE still requires descriptors don't change during execution. " },
  { rule: 14, code: 'range-volatile-keeping-bounds-checks', targets: ['runtime'], message: 'Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS (descriptor range flags {hex}).' },
  { rule: 15, code: 'root-descriptor-flags-unsupported', targets: both, message: 'Unsupported bit-flag set (root descriptor flags {hex}).' },
  { rule: 16, code: 'root-descriptor-multiple-data-flags', targets: both, message: 'Root descriptor flags cannot specify more than one DATA_* flag at a time (root descriptor flags {count}).' },
  { rule: 17, code: 'register-space-reserved', targets: both, message: '{Where} specifies RegisterSpace={spaceHex}, which is invalid since RegisterSpace values in the range [fffffff0,ffffffff] are reserved for system use.' },
  { rule: 18, code: 'register-overlap', targets: both, message: 'Shader register range of type {type} {this} overlaps with another shader register range {other}.' },
  { rule: 19, code: 'sampler-filter-unrecognized', targets: both, message: 'Static sampler: Filter unrecognized.' },
  { rule: 20, code: 'sampler-address-unrecognized', targets: both, message: 'Static sampler: {field} unrecognized.' },
  { rule: 21, code: 'sampler-mip-lod-bias-range', targets: both, message: 'Static sampler: MipLODBias must be in the range [-16 to 15.99].  {value} specified (static sampler [{sampler}]).' },
  { rule: 22, code: 'sampler-max-anisotropy-range', targets: both, message: 'Static sampler: MaxAnisotropy must be in the range [0 to 16].  {value} specified.' },
  { rule: 23, code: 'sampler-comparison-func-unrecognized', targets: both, message: 'Static sampler: ComparisonFunc unrecognized.' },
  { rule: 24, code: 'sampler-lod-nan', targets: both, message: 'Static sampler: {field} must be in the range [-INF to +INF].  NaN specified (static sampler [{sampler}]).' },
  { rule: 25, code: 'sampler-border-color-unrecognized', targets: ['runtime'], message: 'Static sampler: BorderColor unrecognized ({value}) (static sampler [{sampler}]).' },
  { rule: 26, code: 'sampler-flags-unsupported', targets: ['runtime'], message: 'Unsupported bit-flag set (static sampler flags {hex}) (static sampler [{sampler}]).' },
  { rule: 27, code: 'root-cost-exceeded', targets: ['runtime'], message: 'Root signature cost {cost} exceeds maximum allowed cost 64.' },
  { rule: 28, code: 'shader-register-max', targets: [], message: 'ShaderRegister 0xffffffff is not a usable register ({where}).' },
  { rule: 29, code: 'local-flag-in-global', targets: ['dxc'], message: 'LOCAL_ROOT_SIGNATURE flag used in global root signature.' },
] as const satisfies readonly ValidationRule[];

/** Stable codes of the root signature validation rules. */
export type ValidationCode = (typeof VALIDATION_RULES)[number]['code'];

/** Root signature flag bits each target accepts (rule 1). */
export const VALID_ROOT_FLAGS: Readonly<Record<ValidationTarget, number>> = { runtime: 0xfff, dxc: 0x80000fff, all: 0xfff };
