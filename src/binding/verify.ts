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
  HEAP_INDEXING_RULES,
  LOCAL_ROOT_SIGNATURE_FLAG,
  NOT_VERIFIABLE_STAGES,
  ROOT_DESCRIPTOR_REFUSES,
  STAGE_VISIBILITY,
  VISIBILITY_ALL,
  type BindingViolationCode,
  type HeapIndexingCode,
} from '../../codecs/binding-rules.js';
import { PSV_RESOURCE_CLASS } from '../../codecs/psv0.js';
import { RANGE_TYPES, SAMPLER, UNBOUNDED_DESCRIPTORS, type RegisterClass as ClassName } from '../../codecs/root-signature.js';
import { flag } from '../../codecs/enum-table.js';
import { SHADER_FEATURE_INFO1 } from '../../codecs/shader-flags.js';
import { ROOT_SIGNATURE_FLAGS } from '../../codecs/root-signature.js';
import { DescriptionError, fillMessage, kindOf } from '../bytes/errors.js';
import { containerRootSignature } from '../root-signature/input.js';
import { KEYS, parameterPath, parameterTypeRow, rangePath, rootPath, samplerPath } from '../root-signature/rows.js';
import type { DescriptorTableParameter, RootConstantsParameter, RootDescriptorParameter, RootSignature } from '../root-signature/types.js';
import { validateRootSignature } from '../root-signature/validate.js';
import { checkBindings, readShader, type ShaderBinding, type ShaderFeatures, type ShaderInfo } from '../shader/shader.js';
import { expectObject } from '../bytes/check.js';
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

/**
 * Intervals of one class, space and visibility, sorted by first register, with a max-tree of
 * their last registers: both lookups are O(log n) (a walk over the intervals per binding was
 * O(bindings x ranges)).
 */
class IntervalSet {
  private items: Interval[] = [];
  /** tree[size + i] = items[i].ub; tree[k] = max of its children; -1 for empty leaves. */
  private tree: Float64Array = new Float64Array(0);
  private size = 0;
  private sorted = true;

  add(it: Interval): void {
    this.items.push(it);
    this.sorted = false;
  }

  private index(): void {
    if (this.sorted) return;
    this.items.sort((a, b) => a.lb - b.lb);
    let size = 1;
    while (size < this.items.length) size *= 2;
    this.size = size;
    this.tree = new Float64Array(2 * size).fill(-1);
    this.items.forEach((x, i) => (this.tree[size + i] = x.ub));
    for (let k = size - 1; k >= 1; k--) this.tree[k] = Math.max(this.tree[2 * k]!, this.tree[2 * k + 1]!);
    this.sorted = true;
  }

  /** Items with lb <= `lb` are items[0, count). */
  private countUpTo(lb: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[mid]!.lb <= lb) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The last (rightmost = true) or first index below `end` whose ub >= `ub`, or -1. */
  private find(end: number, ub: number, rightmost: boolean): number {
    const t = this.tree;
    const go = (k: number, from: number, to: number): number => {
      if (from >= end || t[k]! < ub) return -1;
      if (to - from === 1) return from;
      const mid = (from + to) >> 1;
      if (rightmost) {
        const r = go(2 * k + 1, mid, to);
        return r >= 0 ? r : go(2 * k, from, mid);
      }
      const l = go(2 * k, from, mid);
      return l >= 0 ? l : go(2 * k + 1, mid, to);
    };
    return this.items.length === 0 ? -1 : go(1, 0, this.size);
  }

  /** The interval that contains [lb, ub] with the greatest first register, or undefined. */
  containing(lb: number, ub: number): Interval | undefined {
    this.index();
    const j = this.find(this.countUpTo(lb), ub, true);
    return j < 0 ? undefined : this.items[j];
  }

  /** The first interval (by first register) that meets [lb, ub], for naming a near miss. */
  meeting(lb: number, ub: number): Interval | undefined {
    this.index();
    const j = this.find(this.countUpTo(ub), lb, false);
    return j < 0 ? undefined : this.items[j];
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

/**
 * Checks a shader's feature flags (its SFI0 words) at `path`: each an integer 0..4294967295, as
 * the part stores them (verify and suggest read them alike; a -1 or 2^32 + bit was taken by `&`).
 * @throws {DescriptionError} bad-type naming the word
 */
export function checkFeatures(features: unknown, path: string): asserts features is ShaderFeatures {
  expectObject(features, path);
  for (const key of ['featureInfo1', 'featureInfo2'] as const) {
    const v = features[key];
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff)) throw new DescriptionError('bad-type', `${path}.${key}`, `expected an integer 0..4294967295, got ${kindOf(v)}${typeof v === 'number' ? ` ${v}` : ''}`);
  }
}

/**
 * A shader kind (DXIL::ShaderKind, PSV0's numbering) given by a caller: an integer 0..4294967295
 * (a kind no row names is checked with every visibility, as before). NaN, 1.5 and -1 were taken
 * and checked as a stage without a visibility of its own: a verdict for no shader.
 * @throws {DescriptionError} bad-type for a non-number, out-of-range for another number
 */
export function checkStage(stage: unknown, path: string): asserts stage is number {
  if (typeof stage === 'number' && Number.isInteger(stage) && stage >= 0 && stage <= 0xffffffff) return;
  throw new DescriptionError(typeof stage === 'number' ? 'out-of-range' : 'bad-type', path, `expected a shader kind (an integer 0..4294967295), got ${kindOf(stage)}${typeof stage === 'number' ? ` ${stage}` : ''}`);
}

/** The heap-indexing rules with their bits: a FeatureInfo1 bit that needs a root signature flag. */
export const HEAP_RULES = HEAP_INDEXING_RULES.map((r) => ({ ...r, feature: flag(SHADER_FEATURE_INFO1, r.feature), rootFlag: flag(ROOT_SIGNATURE_FLAGS, r.rootFlag) }));

/**
 * The runtime's descriptor-heap rule: each heap the shader indexes (FeatureInfo1) needs its
 * DIRECTLY_INDEXED flag in the root signature; the codes of the rules broken, in the runtime's order.
 */
export function heapIndexingViolations(featureInfo1: number, rootFlags: number): HeapIndexingCode[] {
  return HEAP_RULES.filter((r) => featureInfo1 & r.feature && !(rootFlags & r.rootFlag)).map((r) => r.code);
}

/** Why a stage's bindings are not verifiable: a library or ray-tracing stage; a container without PSV0 (pipeline verification says it too). */
const LIBRARY_REASON = 'a DXIL library or ray-tracing shader: its bindings are checked against root signatures when the pipeline is built';
export const NO_PSV0_REASON = 'the container has no PSV0 part, so its bindings are not known';

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
  checkStage(info.stage, 'shader.stage');
  const row = STAGE_VISIBILITY.find((s) => s.stage === info.stage);
  const visibility = row?.visibility ?? VISIBILITY_ALL;
  const result = (verdict: VerifyResult['verdict'], violations: BindingViolation[] = [], reason?: string): VerifyResult => ({ verdict, ...(reason ? { reason } : {}), stage: info.stage, visibility, violations, coverage: [] });
  if (NOT_VERIFIABLE_STAGES.includes(info.stage)) return result('not-verifiable', [], LIBRARY_REASON);
  // undefined: no PSV0 (readShader's word for it); anything else is checked as bindings (a null was taken as none)
  if (info.bindings === undefined) return result('not-verifiable', [], NO_PSV0_REASON);
  const rs = rootSignature ?? containerRootSignature(info.container)?.rootSignature;
  if (!rs) return result('not-verifiable', [], 'no root signature given and the container has no RTS0 part');
  return verifyBindings(info.stage, info.bindings, rs, info.features);
}

/**
 * The check itself, on a stage (DXIL::ShaderKind), bindings in the shader's order (PSV order
 * for DXIL: CBVs, samplers, SRVs, UAVs) and the shader's feature flags (its SFI0 part; absent:
 * none), against which the runtime checks the descriptor-heap flags of the root signature.
 * @throws {DescriptionError} bad-type (`bindings` not an array, `features` not flags), or a description that is not one (checkDescription)
 */
export function verifyBindings(stage: number, bindings: readonly ShaderBinding[], rs: RootSignature, features?: ShaderFeatures): VerifyResult {
  checkStage(stage, 'stage');
  checkBindings(bindings, 'bindings');
  checkDescription(rs);
  if (features !== undefined) checkFeatures(features, 'features');
  const row = STAGE_VISIBILITY.find((s) => s.stage === stage);
  const visibility = row?.visibility ?? VISIBILITY_ALL;
  const coverage: VerifyResult['coverage'] = [];
  const result = (verdict: VerifyResult['verdict'], violations: BindingViolation[] = [], reason?: string): VerifyResult => ({ verdict, ...(reason ? { reason } : {}), stage, visibility, violations, coverage });
  if (NOT_VERIFIABLE_STAGES.includes(stage)) return result('not-verifiable', [], LIBRARY_REASON);
  if (rs.flags & LOCAL_ROOT_SIGNATURE_FLAG) return result('not-verifiable', [], 'a local root signature (LOCAL_ROOT_SIGNATURE) is not checked against a single shader');

  const violations: BindingViolation[] = [];
  // Step 1: the root signature itself, with DXC's rules.
  for (const v of validateRootSignature(rs, { target: 'dxc' })) violations.push({ code: 'root-signature-invalid', message: v.message, path: v.path });
  // The runtime's descriptor-heap flags, before the bindings (as the runtime orders them).
  for (const code of heapIndexingViolations(features?.featureInfo1 ?? 0, rs.flags)) violations.push({ code, message: message(code, {}), path: rootPath(KEYS.HEADER.flags) });

  // Step 2: each binding in the shader's order.
  const sets = rootSignatureIntervals(rs);
  let hasBindings = false;
  for (const b of bindings) {
    const cls = PSV_RESOURCE_CLASS[b.resType];
    if (cls === undefined) continue;
    hasBindings = true;
    // DXC's arithmetic is unsigned 32-bit: a LowerBound above its UpperBound gives a count that
    // wraps and a last register below the first; DXC's set lookup then finds a range only when one
    // holds every register from UpperBound to LowerBound (docs/formats/psv0.md).
    const num = b.upperBound === 0xffffffff ? 1 : (b.upperBound - b.lowerBound + 1) >>> 0;
    const lb = b.lowerBound;
    const last = (lb + num - 1) >>> 0;
    const [lo, hi] = last < lb ? [last, lb] : [lb, last];
    const all = sets.get(`${cls}/${b.space}/${VISIBILITY_ALL}`);
    const own = visibility === VISIBILITY_ALL ? undefined : sets.get(`${cls}/${b.space}/${visibility}`);
    const hit = all?.containing(lo, hi) ?? own?.containing(lo, hi);
    if (!hit) {
      const near = all?.meeting(lo, hi) ?? own?.meeting(lo, hi);
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
