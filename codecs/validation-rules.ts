/**
 * Root signature validation rules (docs/formats/rts0.md, validation): one row a rule, a tuple of
 * its rule number, stable code, the targets that apply it, and the message, worded as DXC and the
 * D3D12 debug layer word it (validationRule reads a row by code). `{name}` placeholders are
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
import { rowsBy } from './enum-table.js';

/** Whose rules a validation applies: DXC's validator, the D3D12 runtime's, or every rule (above). */
export type ValidationTarget = 'runtime' | 'dxc' | 'all';
/** Every validation target, for choices. */
export const VALIDATION_TARGETS: readonly ValidationTarget[] = ['runtime', 'dxc', 'all'];

/** A rule of VALIDATION_RULES, its columns by name. */
export interface ValidationRule {
  readonly rule: number;
  readonly code: string;
  readonly targets: readonly Exclude<ValidationTarget, 'all'>[];
  readonly message: string;
}
/** One rule: [rule number, code, targets, message]. */
type ValidationRuleRow = readonly [rule: number, code: string, targets: ValidationRule['targets'], message: string];

const both = ['runtime', 'dxc'] as const;

export const VALIDATION_RULES = [
  [1, 'root-flags-unsupported', both, 'Unsupported bit-flag set (root signature flags {hex}).'],
  [2, 'parameter-type-unsupported', both, 'Unsupported ParameterType value {value} (root parameter {parameter})'],
  [3, 'shader-visibility-unsupported', both, 'Unsupported ShaderVisibility value {value} ({where}).'],
  [4, 'range-type-unsupported', both, 'Unsupported RangeType value {value} (descriptor table slot [{slot}], root parameter [{parameter}]).'],
  [5, 'table-mixes-samplers', both, 'Samplers cannot be mixed with other resource types in a descriptor table (root parameter [{parameter}]).'],
  [6, 'range-empty', both, 'NumDescriptors cannot be 0 (descriptor table slot [{slot}], root parameter [{parameter}]).'],
  [7, 'append-after-unbounded', both, 'Cannot append range with implicit lower bound after an unbounded range (descriptor table slot [{slot}], root parameter [{parameter}]).'],
  [8, 'register-range-overflow', both, 'Overflow for shader register range: BaseShaderRegister={base}, NumDescriptor={count}; (descriptor table slot [{slot}], root parameter [{parameter}]).'],
  [9, 'descriptor-range-overflow', both, 'Overflow for descriptor range (descriptor table slot [{slot}], root parameter [{parameter}])'],
  [10, 'range-flags-unsupported', both, 'Unsupported bit-flag set (descriptor range flags {hex}).'],
  [11, 'sampler-range-data-flags', both, "Sampler descriptor ranges can't specify DATA_* flags since there is no data pointed to by samplers (descriptor range flags {hex})."],
  [12, 'range-multiple-data-flags', both, 'Descriptor range flags cannot specify more than one DATA_* flag at a time (descriptor range flags {hex}).'],
  [13, 'range-volatile-data-static', both, "Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with the DATA_STATIC flag at the same time (descriptor range flags {hex}). DATA_STATIC_WHILE_SET_AT_EXECUTE is fine to combine with DESCRIPTORS_VOLATILE, since DESCRIPTORS_VOLATILE still requires descriptors don't change during execution. "],
  [14, 'range-volatile-keeping-bounds-checks', ['runtime'], 'Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS (descriptor range flags {hex}).'],
  [15, 'root-descriptor-flags-unsupported', both, 'Unsupported bit-flag set (root descriptor flags {hex}).'],
  [16, 'root-descriptor-multiple-data-flags', both, 'Root descriptor flags cannot specify more than one DATA_* flag at a time (root descriptor flags {count}).'],
  [17, 'register-space-reserved', both, '{Where} specifies RegisterSpace={spaceHex}, which is invalid since RegisterSpace values in the range [fffffff0,ffffffff] are reserved for system use.'],
  [18, 'register-overlap', both, 'Shader register range of type {type} {this} overlaps with another shader register range {other}.'],
  [19, 'sampler-filter-unrecognized', both, 'Static sampler: Filter unrecognized.'],
  [20, 'sampler-address-unrecognized', both, 'Static sampler: {field} unrecognized.'],
  [21, 'sampler-mip-lod-bias-range', both, 'Static sampler: MipLODBias must be in the range [-16 to 15.99].  {value} specified (static sampler [{sampler}]).'],
  [22, 'sampler-max-anisotropy-range', both, 'Static sampler: MaxAnisotropy must be in the range [0 to 16].  {value} specified.'],
  [23, 'sampler-comparison-func-unrecognized', both, 'Static sampler: ComparisonFunc unrecognized.'],
  [24, 'sampler-lod-nan', both, 'Static sampler: {field} must be in the range [-INF to +INF].  NaN specified (static sampler [{sampler}]).'],
  [25, 'sampler-border-color-unrecognized', ['runtime'], 'Static sampler: BorderColor unrecognized ({value}) (static sampler [{sampler}]).'],
  [26, 'sampler-flags-unsupported', ['runtime'], 'Unsupported bit-flag set (static sampler flags {hex}) (static sampler [{sampler}]).'],
  [27, 'root-cost-exceeded', ['runtime'], 'Root signature cost {cost} exceeds maximum allowed cost 64.'],
  [28, 'shader-register-max', [], 'ShaderRegister 0xffffffff is not a usable register ({where}).'],
  [29, 'local-flag-in-global', ['dxc'], 'LOCAL_ROOT_SIGNATURE flag used in global root signature.'],
] as const satisfies readonly ValidationRuleRow[];

/** Stable codes of the root signature validation rules. */
export type ValidationCode = (typeof VALIDATION_RULES)[number][1];

/** The row of a rule code. */
const ruleByCode = /* @__PURE__ */ rowsBy(VALIDATION_RULES, 1);
export function validationRule(code: ValidationCode): ValidationRule {
  const [rule, , targets, message] = ruleByCode(code)!;
  return { rule, code, targets, message };
}

/** Root signature flag bits each target accepts (rule 1). */
export const VALID_ROOT_FLAGS: Readonly<Record<ValidationTarget, number>> = { runtime: 0xfff, dxc: 0x80000fff, all: 0xfff };
