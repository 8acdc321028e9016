/**
 * Does a root signature fit a shader? DXC's root-signature verifier (docs/binding-verification.md)
 * applied to the bindings of DXIL (PSV0) and DXBC (declarations) shaders alike: the root
 * signature's own validity, then each binding in the shader's order, then the DENY flag. DXC
 * stops at the first problem; this reports every one, in DXC's order and words, with the binding
 * and the root parameter concerned.
 */
import {
  BINDING_RULES,
  CLASS_WORD,
  LOCAL_ROOT_SIGNATURE_FLAG,
  NOT_VERIFIABLE_STAGES,
  ROOT_DESCRIPTOR_REFUSES,
  STAGE_VISIBILITY,
  VISIBILITY_ALL,
  type BindingViolationCode,
} from '../../codecs/binding-rules.js';
import { PSV_RESOURCE_CLASS } from '../../codecs/psv0.js';
import { RANGE_TYPES, SAMPLER, UNBOUNDED_DESCRIPTORS, type RegisterClass as ClassName } from '../../codecs/root-signature.js';
import { fillMessage } from '../bytes/errors.js';
import { containerRootSignature } from '../root-signature/input.js';
import { KEYS, parameterPath, parameterTypeRow, rangePath, rootPath, samplerPath } from '../root-signature/rows.js';
import type { DescriptorTableParameter, RootConstantsParameter, RootDescriptorParameter, RootSignature } from '../root-signature/types.js';
import { validateRootSignature } from '../root-signature/validate.js';
import { readShader, type ShaderBinding, type ShaderInfo } from '../shader/shader.js';
import { expectArray, expectObject } from '../bytes/check.js';
import { checkDescription } from '../root-signature/check.js';

export type { BindingViolationCode };

/** A shader binding the root signature does not satisfy (or a root signature that is itself invalid). */
export interface BindingViolation {
  code: BindingViolationCode;
  /** DXC's message. */
  message: string;
  /** The shader binding concerned (absent for root-signature problems and... never for DENY). */
  binding?: ShaderBinding;
  /** Path of the root parameter, static sampler or field concerned (`RTS0.parameters[3]`, `RTS0.flags`). */
  path?: string;
}

/** The outcome of verifyRootSignature: every violation, in DXC's order. */
export interface VerifyResult {
  /** `fits`, `does-not-fit`, or `not-verifiable` (with `reason`). */
  verdict: 'fits' | 'does-not-fit' | 'not-verifiable';
  reason?: string;
  /** DXIL::ShaderKind of the shader. */
  stage: number;
  /** The visibility whose parameters count besides ALL (0 = ALL only). */
  visibility: number;
  violations: BindingViolation[];
  /** Each covered binding with the root parameter or static sampler that covers it. */
  coverage: { binding: ShaderBinding; path: string }[];
}

/** Where a register interval of the root signature comes from. */
interface Interval {
  lb: number;
  ub: number;
  rootDescriptor: boolean;
  path: string;
}

/** Intervals of one class, space and visibility, sorted by first register, with prefix maxima of ub. */
class IntervalSet {
  private items: Interval[] = [];
  private maxUb: number[] = [];
  private sorted = true;

  add(it: Interval): void {
    this.items.push(it);
    this.sorted = false;
  }

  /** The interval that contains [lb, ub], or undefined. */
  containing(lb: number, ub: number): Interval | undefined {
    if (!this.sorted) {
      this.items.sort((a, b) => a.lb - b.lb);
      let m = -1;
      this.maxUb = this.items.map((x) => (m = Math.max(m, x.ub)));
      this.sorted = true;
    }
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[mid]!.lb <= lb) lo = mid + 1;
      else hi = mid;
    }
    for (let j = lo - 1; j >= 0 && this.maxUb[j]! >= ub; j--) if (this.items[j]!.ub >= ub) return this.items[j];
    return undefined;
  }

  /** The first interval (by first register) that meets [lb, ub], for naming a near miss. */
  meeting(lb: number, ub: number): Interval | undefined {
    return this.items.find((x) => x.lb <= ub && lb <= x.ub);
  }
}

/** Register class -> its number (the range-type numbering PSV_RESOURCE_CLASS uses), from the vocabulary rows. */
const CLASS = new Map<ClassName, number>(RANGE_TYPES.map((t) => [t.name, t.value]));
const SAMPLER_CLASS = CLASS.get(SAMPLER.registerClass!)!;

/**
 * The register intervals of a root signature by `class/space/visibility`.
 * @throws {DescriptionError} for a description that is not one (checkDescription)
 */
export function rootSignatureIntervals(rs: RootSignature): Map<string, IntervalSet> {
  checkDescription(rs);
  const sets = new Map<string, IntervalSet>();
  const add = (cls: number | undefined, space: number, visibility: number, it: Interval) => {
    const key = `${cls}/${space}/${visibility}`;
    let set = sets.get(key);
    if (!set) sets.set(key, (set = new IntervalSet()));
    set.add(it);
  };
  rs.parameters.forEach((p, i) => {
    const path = parameterPath(i);
    const type = parameterTypeRow(p.parameterType);
    if (type?.record === 'TABLE') {
      (p as DescriptorTableParameter).ranges.forEach((r, j) => {
        if (r.numDescriptors === 0) return;
        const ub = r.numDescriptors === UNBOUNDED_DESCRIPTORS ? 0xffffffff : Math.min(0xffffffff, r.baseShaderRegister + r.numDescriptors - 1);
        add(r.rangeType, r.registerSpace, p.shaderVisibility, { lb: r.baseShaderRegister, ub, rootDescriptor: false, path: rangePath(path, j) });
      });
    } else if (type?.record === 'CONSTANTS') {
      const { constants } = p as RootConstantsParameter;
      add(CLASS.get(type.registerClass)!, constants.registerSpace, p.shaderVisibility, { lb: constants.shaderRegister, ub: constants.shaderRegister, rootDescriptor: false, path });
    } else {
      // a root descriptor (a type no row has: no class, an interval no binding looks up)
      const { descriptor } = p as RootDescriptorParameter;
      if (type === undefined && (typeof descriptor !== 'object' || descriptor === null)) return; // nor a descriptor: no interval at all
      const cls = type?.record === 'DESCRIPTOR' ? CLASS.get(type.registerClass) : undefined;
      add(cls, descriptor.registerSpace, p.shaderVisibility, { lb: descriptor.shaderRegister, ub: descriptor.shaderRegister, rootDescriptor: true, path });
    }
  });
  rs.staticSamplers.forEach((s, k) => add(SAMPLER_CLASS, s.registerSpace, s.shaderVisibility, { lb: s.shaderRegister, ub: s.shaderRegister, rootDescriptor: false, path: samplerPath(k) }));
  return sets;
}

const message = (code: BindingViolationCode, values: Record<string, string | number>) => fillMessage(BINDING_RULES.find((r) => r.code === code)!.message, values);

/**
 * Checks a shader's bindings against a root signature (the shader container's own RTS0 when none
 * is given).
 * @param shader container bytes or a ShaderInfo from readShader
 * @throws {DecodeError} malformed container, PSV0, token stream or RTS0
 * @throws {DescriptionError} bad-type when `shader` is neither; as verifyBindings for `rootSignature`
 */
export function verifyRootSignature(shader: Uint8Array | ShaderInfo, rootSignature?: RootSignature): VerifyResult {
  if (!(shader instanceof Uint8Array)) expectObject(shader, 'shader');
  const info = shader instanceof Uint8Array ? readShader(shader) : shader;
  const row = STAGE_VISIBILITY.find((s) => s.stage === info.stage);
  const visibility = row?.visibility ?? VISIBILITY_ALL;
  const result = (verdict: VerifyResult['verdict'], violations: BindingViolation[] = [], reason?: string): VerifyResult => ({ verdict, ...(reason ? { reason } : {}), stage: info.stage, visibility, violations, coverage: [] });
  if (NOT_VERIFIABLE_STAGES.includes(info.stage)) return result('not-verifiable', [], 'a DXIL library or ray-tracing shader: its bindings are checked against root signatures when the pipeline is built');
  if (!info.bindings) return result('not-verifiable', [], 'the container has no PSV0 part, so its bindings are not known');
  const rs = rootSignature ?? containerRootSignature(info.container)?.rootSignature;
  if (!rs) return result('not-verifiable', [], 'no root signature given and the container has no RTS0 part');
  return verifyBindings(info.stage, info.bindings, rs);
}

/**
 * The check itself, on a stage (DXIL::ShaderKind) and bindings in the shader's order (PSV order
 * for DXIL: CBVs, samplers, SRVs, UAVs).
 * @throws {DescriptionError} bad-type (`bindings` not an array), or a description that is not one (checkDescription)
 */
export function verifyBindings(stage: number, bindings: readonly ShaderBinding[], rs: RootSignature): VerifyResult {
  expectArray(bindings, 'bindings');
  checkDescription(rs);
  const row = STAGE_VISIBILITY.find((s) => s.stage === stage);
  const visibility = row?.visibility ?? VISIBILITY_ALL;
  const coverage: VerifyResult['coverage'] = [];
  const result = (verdict: VerifyResult['verdict'], violations: BindingViolation[] = [], reason?: string): VerifyResult => ({ verdict, ...(reason ? { reason } : {}), stage, visibility, violations, coverage });
  if (NOT_VERIFIABLE_STAGES.includes(stage)) return result('not-verifiable', [], 'a DXIL library or ray-tracing shader: its bindings are checked against root signatures when the pipeline is built');
  if (rs.flags & LOCAL_ROOT_SIGNATURE_FLAG) return result('not-verifiable', [], 'a local root signature (LOCAL_ROOT_SIGNATURE) is not checked against a single shader');

  const violations: BindingViolation[] = [];
  // Step 1: the root signature itself, with DXC's rules.
  for (const v of validateRootSignature(rs, { target: 'dxc' })) violations.push({ code: 'root-signature-invalid', message: v.message, path: v.path });

  // Step 2: each binding in the shader's order.
  const sets = rootSignatureIntervals(rs);
  let hasBindings = false;
  for (const b of bindings) {
    const cls = PSV_RESOURCE_CLASS[b.resType];
    if (cls === undefined) continue;
    hasBindings = true;
    const num = b.upperBound === 0xffffffff ? 1 : b.upperBound - b.lowerBound + 1;
    const lb = b.lowerBound;
    const ub = lb + num - 1;
    const all = sets.get(`${cls}/${b.space}/${VISIBILITY_ALL}`);
    const own = visibility === VISIBILITY_ALL ? undefined : sets.get(`${cls}/${b.space}/${visibility}`);
    const hit = all?.containing(lb, ub) ?? own?.containing(lb, ub);
    if (!hit) {
      const near = all?.meeting(lb, ub) ?? own?.meeting(lb, ub);
      violations.push({ code: 'not-fully-bound', message: message('not-fully-bound', { cls: CLASS_WORD[cls]!, space: b.space, num, base: lb }), binding: b, ...(near ? { path: near.path } : {}) });
      continue;
    }
    coverage.push({ binding: b, path: hit.path });
    const refused = hit.rootDescriptor ? ROOT_DESCRIPTOR_REFUSES[b.resType] : undefined;
    if (refused) violations.push({ code: refused, message: message(refused, { space: b.space, base: lb }), binding: b, path: hit.path });
  }

  // Step 3: DENY.
  if (row && hasBindings && rs.flags & row.deny) violations.push({ code: 'stage-denied', message: message('stage-denied', {}), path: rootPath(KEYS.HEADER.flags) });
  return result(violations.length ? 'does-not-fit' : 'fits', violations);
}
