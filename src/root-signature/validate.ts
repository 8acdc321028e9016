/**
 * Root signature validation: every rule of codecs/validation-rules.ts that the target applies,
 * all violations reported (DXC stops at the first), each with its code, path and message.
 */
import {
  COMPARISON_FUNC,
  DESCRIPTOR_RANGE_FLAGS,
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  FILTER,
  FILTERS_UNKNOWN_TO_DXC,
  FILTER_REDUCTION_COMPARISON,
  LIMITS,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_SIGNATURE_FLAGS,
  SAMPLER,
  SAMPLER_FLAGS,
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
  UNBOUNDED_DESCRIPTORS,
  RANGE_TYPES,
  VERSIONS,
  filterReduction,
  type RegisterClass,
} from '../../codecs/root-signature.js';
import { flag } from '../../codecs/enum-table.js';
import { VALID_ROOT_FLAGS, validationRule, type ValidationCode, type ValidationTarget } from '../../codecs/validation-rules.js';
import { fillMessage } from '../bytes/errors.js';
import { checkDescription } from './check.js';
import { expectOptions } from '../bytes/check.js';
import { convertRootSignature } from './convert.js';
import { KEYS, fieldPath, PARAMETERS_KEY, PAYLOAD_KEY, dataFields, parameterCost, parameterPath, parameterTypeRow, rangePath, rootPath, samplerPath } from './rows.js';
import type { DescriptorTableParameter, RootConstantsParameter, RootDescriptorParameter, RootSignature } from './types.js';

/** A broken validation rule: stable code, rule number, field path, message in DXC's words. */
export interface Violation {
  code: ValidationCode;
  rule: number;
  path: string;
  message: string;
}

/** Options of validateRootSignature: the target whose rules apply, and whether the signature is global. */
export interface ValidateOptions {
  target?: ValidationTarget;
  /** The signature is used as a global root signature (rule 29). */
  global?: boolean;
}

const bit = (name: string) => flag(DESCRIPTOR_RANGE_FLAGS, name);
const DATA_FLAGS = bit('DATA_VOLATILE') | bit('DATA_STATIC_WHILE_SET_AT_EXECUTE') | bit('DATA_STATIC');
const ROOT_DATA_FLAGS = ['DATA_VOLATILE', 'DATA_STATIC_WHILE_SET_AT_EXECUTE', 'DATA_STATIC'].reduce((m, n) => m | flag(ROOT_DESCRIPTOR_FLAGS, n), 0);
const DESCRIPTORS_VOLATILE = bit('DESCRIPTORS_VOLATILE');
const DATA_STATIC = bit('DATA_STATIC');
const KEEPING_BOUNDS_CHECKS = bit('DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS');
const LOCAL_ROOT_SIGNATURE = flag(ROOT_SIGNATURE_FLAGS, 'LOCAL_ROOT_SIGNATURE');
/** Range type -> register class (the overlap rule's class), from the vocabulary rows. */
const RANGE_CLASS = new Map<number, RegisterClass>(RANGE_TYPES.map((t) => [t.value, t.name]));
const SAMPLER_RANGE = RANGE_TYPES.find((t) => t.name === 'SAMPLER')!.value;
const STATIC_SAMPLER_CLASS = RANGE_CLASS.get(SAMPLER_RANGE)!;
/** The static sampler's address mode fields (U, V, W), from the rows. */
const ADDRESS_KEYS = dataFields(SAMPLER)
  .filter((f) => f.row.kind === TEXTURE_ADDRESS_MODE)
  .map((f) => f.key as keyof (typeof SAMPLER)['fields']);
/** The address modes' range, from TEXTURE_ADDRESS_MODE (DXC checks that a mode lies within it). */
const ADDRESS_MODE_MIN = Math.min(...TEXTURE_ADDRESS_MODE.values.map(([, v]) => v));
const ADDRESS_MODE_MAX = Math.max(...TEXTURE_ADDRESS_MODE.values.map(([, v]) => v));
/** A key as DXC's messages spell the field: minLOD -> MinLOD. */
const dxcFieldName = (key: string) => key[0]!.toUpperCase() + key.slice(1);
const [H, P, R, C, D, S] = [KEYS.HEADER, KEYS.PARAMETER, KEYS.RANGE, KEYS.CONSTANTS, KEYS.DESCRIPTOR, KEYS.SAMPLER];
const VISIBILITY_COUNT = SHADER_VISIBILITY.values.length;
const MIP_LOD_BIAS_MAX = Math.fround(LIMITS.mipLodBiasMax);
const hex = (n: number) => (n >>> 0).toString(16);
const visName = (v: number) => (v < VISIBILITY_COUNT ? SHADER_VISIBILITY.values[v]![0] : 'unknown');

/**
 * Applies every rule of codecs/validation-rules.ts that the target applies and returns all
 * violations (empty: valid). Never throws on a well-typed description.
 * @throws {DescriptionError} bad-type, missing-key or out-of-range (the version) for a description that is not one (checkDescription)
 */
export function validateRootSignature(input: RootSignature, options: ValidateOptions = {}): Violation[] {
  expectOptions(options);
  const target = options.target ?? 'runtime';
  const applies = (code: ValidationCode) => {
    const rule = validationRule(code);
    return target === 'all' || (rule.targets as readonly string[]).includes(target);
  };
  const out: Violation[] = [];
  const report = (code: ValidationCode, path: string, values: Record<string, string | number>) => {
    if (!applies(code)) return;
    const rule = validationRule(code);
    const message = fillMessage(rule.message, values);
    out.push({ code, rule: rule.rule, path, message });
  };
  // As DXC does, check 1.0 signatures in their 1.1 form (flags that keep 1.0's meaning).
  const as = VERSIONS[checkDescription(input)].validatedAs;
  const rs = input.version === as ? input : convertRootSignature(input, as).rootSignature;

  if ((rs.flags & ~VALID_ROOT_FLAGS[target]) >>> 0) report('root-flags-unsupported', rootPath(H.flags), { hex: hex(rs.flags) });
  if (options.global && rs.flags & LOCAL_ROOT_SIGNATURE) report('local-flag-in-global', rootPath(H.flags), {});

  const overlaps = new OverlapChecker();
  let cost = 0;
  rs.parameters.forEach((p, i) => {
    const at = parameterPath(i);
    if (p.shaderVisibility >= VISIBILITY_COUNT) report('shader-visibility-unsupported', `${at}.${P.shaderVisibility}`, { value: p.shaderVisibility, where: `root parameter [${i}]` });
    const type = parameterTypeRow(p.parameterType);
    /** Root constants' or a root descriptor's register (rule 28), space (17) and overlap (18). */
    const rootRecord = (rec: { shaderRegister: number; registerSpace: number }, key: string, registerKey: string, cls: string) => {
      registerMax(rec.shaderRegister, fieldPath(fieldPath(at, key), registerKey), `root parameter [${i}]`);
      spaceAndOverlap(rec.registerSpace, fieldPath(at, key), `Root parameter [${i}]`, () =>
        overlaps.add({ kind: 'root', parameter: i, slot: -1, cls, visibility: p.shaderVisibility, space: rec.registerSpace, lb: rec.shaderRegister, count: 1 }),
      );
    };
    switch (type?.record) {
      case 'TABLE': {
        const t = p as DescriptorTableParameter;
        cost += parameterCost(type, t);
        let hasSamplers = false;
        let hasResources = false;
        let mixReported = false;
        let appendStart = 0; // may pass 2^32 after an unbounded range
        t.ranges.forEach((r, j) => {
          const rp = rangePath(at, j);
          const where = { slot: j, parameter: i };
          if (r.rangeType === SAMPLER_RANGE) hasSamplers = true;
          else if (RANGE_CLASS.has(r.rangeType)) hasResources = true;
          else report('range-type-unsupported', `${rp}.${R.rangeType}`, { value: r.rangeType, ...where });
          if (hasSamplers && hasResources && !mixReported) {
            report('table-mixes-samplers', rp, { parameter: i });
            mixReported = true;
          }
          if (r.numDescriptors === 0) report('range-empty', `${rp}.${R.numDescriptors}`, where);
          const start = r.offsetInDescriptorsFromTableStart === DESCRIPTOR_RANGE_OFFSET_APPEND ? appendStart : r.offsetInDescriptorsFromTableStart;
          if (start > 0xffffffff) report('append-after-unbounded', `${rp}.${R.offsetInDescriptorsFromTableStart}`, where);
          if (r.numDescriptors !== UNBOUNDED_DESCRIPTORS) {
            if (r.baseShaderRegister + r.numDescriptors - 1 > 0xffffffff) {
              report('register-range-overflow', rp, { base: r.baseShaderRegister, count: r.numDescriptors, ...where });
            }
            if (start <= 0xffffffff && start + r.numDescriptors - 1 > 0xffffffff) report('descriptor-range-overflow', rp, where); // past an unbounded range, rule 7 already said it
            appendStart = start + r.numDescriptors;
          } else appendStart = 0x100000000;

          const flags = r.flags >>> 0;
          if (flags & ~DESCRIPTOR_RANGE_FLAGS.validMask) report('range-flags-unsupported', `${rp}.${R.flags}`, { hex: hex(flags) });
          if (r.rangeType === SAMPLER_RANGE) {
            if (flags & DATA_FLAGS) report('sampler-range-data-flags', `${rp}.${R.flags}`, { hex: hex(flags) });
          } else {
            if (bitCount(flags & DATA_FLAGS) > 1) report('range-multiple-data-flags', `${rp}.${R.flags}`, { hex: hex(flags) });
            if (flags & DATA_STATIC && flags & DESCRIPTORS_VOLATILE) report('range-volatile-data-static', `${rp}.${R.flags}`, { hex: hex(flags) });
          }
          if (flags & DESCRIPTORS_VOLATILE && flags & KEEPING_BOUNDS_CHECKS) report('range-volatile-keeping-bounds-checks', `${rp}.${R.flags}`, { hex: hex(flags) });
          spaceAndOverlap(r.registerSpace, rp, `Root parameter [${i}] descriptor table entry [${j}]`, () =>
            RANGE_CLASS.has(r.rangeType)
              ? overlaps.add({ kind: 'table', parameter: i, slot: j, cls: RANGE_CLASS.get(r.rangeType)!, visibility: t.shaderVisibility, space: r.registerSpace, lb: r.baseShaderRegister, count: r.numDescriptors })
              : undefined,
          );
        });
        break;
      }
      case 'CONSTANTS': {
        const c = p as RootConstantsParameter;
        cost += parameterCost(type, c);
        rootRecord(c.constants, PAYLOAD_KEY.CONSTANTS, C.shaderRegister, type.registerClass);
        break;
      }
      case 'DESCRIPTOR': {
        const d = p as RootDescriptorParameter;
        cost += parameterCost(type, d);
        const flags = d.descriptor.flags >>> 0;
        if (flags & ~ROOT_DESCRIPTOR_FLAGS.validMask) report('root-descriptor-flags-unsupported', fieldPath(fieldPath(at, PAYLOAD_KEY.DESCRIPTOR), D.flags), { hex: hex(flags) });
        if (bitCount(flags & ROOT_DATA_FLAGS) > 1) report('root-descriptor-multiple-data-flags', fieldPath(fieldPath(at, PAYLOAD_KEY.DESCRIPTOR), D.flags), { count: bitCount(flags & ROOT_DATA_FLAGS) }); // DXC prints the count
        rootRecord(d.descriptor, PAYLOAD_KEY.DESCRIPTOR, D.shaderRegister, type.registerClass);
        break;
      }
      default:
        report('parameter-type-unsupported', `${at}.${P.parameterType}`, { value: (p as { parameterType: number }).parameterType, parameter: i });
    }
  });

  const knownFilters = new Set(FILTER.values.map(([, v]) => v).filter((v) => target !== 'dxc' || !FILTERS_UNKNOWN_TO_DXC.has(v)));
  rs.staticSamplers.forEach((s, k) => {
    const at = samplerPath(k);
    const sampler = { sampler: k };
    if (s.shaderVisibility >= VISIBILITY_COUNT) report('shader-visibility-unsupported', `${at}.${S.shaderVisibility}`, { value: s.shaderVisibility, where: `static sampler [${k}]` });
    if (!knownFilters.has(s.filter)) report('sampler-filter-unrecognized', `${at}.${S.filter}`, { hex: `0x${hex(s.filter)}`, ...sampler });
    for (const field of ADDRESS_KEYS) {
      if (s[field] < ADDRESS_MODE_MIN || s[field] > ADDRESS_MODE_MAX) report('sampler-address-unrecognized', `${at}.${field}`, { field: dxcFieldName(field), value: s[field], ...sampler });
    }
    if (Number.isNaN(s.mipLODBias) || s.mipLODBias < LIMITS.mipLodBiasMin || s.mipLODBias > MIP_LOD_BIAS_MAX) {
      report('sampler-mip-lod-bias-range', `${at}.${S.mipLODBias}`, { value: String(s.mipLODBias), ...sampler });
    }
    if (s.maxAnisotropy > LIMITS.maxAnisotropy) report('sampler-max-anisotropy-range', `${at}.${S.maxAnisotropy}`, { value: s.maxAnisotropy, ...sampler });
    const isComparison = knownFilters.has(s.filter) && filterReduction(s.filter) === FILTER_REDUCTION_COMPARISON;
    if (isComparison && (s.comparisonFunc < 1 || s.comparisonFunc >= COMPARISON_FUNC.values.length)) {
      report('sampler-comparison-func-unrecognized', `${at}.${S.comparisonFunc}`, { value: s.comparisonFunc, ...sampler });
    }
    if (Number.isNaN(s.minLOD)) report('sampler-lod-nan', `${at}.${S.minLOD}`, { field: dxcFieldName(S.minLOD), ...sampler });
    if (Number.isNaN(s.maxLOD)) report('sampler-lod-nan', `${at}.${S.maxLOD}`, { field: dxcFieldName(S.maxLOD), ...sampler });
    if (s.borderColor >= STATIC_BORDER_COLOR.values.length) report('sampler-border-color-unrecognized', `${at}.${S.borderColor}`, { value: s.borderColor, ...sampler });
    if (s.flags & ~SAMPLER_FLAGS.validMask) report('sampler-flags-unsupported', `${at}.${S.flags}`, { hex: hex(s.flags), ...sampler });
    registerMax(s.shaderRegister, `${at}.${S.shaderRegister}`, `static sampler [${k}]`);
    spaceAndOverlap(s.registerSpace, at, `Static sampler [${k}]`, () =>
      overlaps.add({ kind: 'sampler', parameter: k, slot: -1, cls: STATIC_SAMPLER_CLASS, visibility: s.shaderVisibility, space: s.registerSpace, lb: s.shaderRegister, count: 1 }),
    );
  });

  if (cost > LIMITS.maxRootCost) report('root-cost-exceeded', rootPath(PARAMETERS_KEY), { cost });
  return out;

  function registerMax(register: number, path: string, where: string) {
    if (register === 0xffffffff) report('shader-register-max', path, { where });
  }

  /** `path`: the range, constants, descriptor or sampler record (each calls its space registerSpace). */
  function spaceAndOverlap(space: number, path: string, where: string, add: () => Record<string, string> | undefined) {
    if (space >= LIMITS.systemReservedRegisterSpaceFirst) report('register-space-reserved', `${path}.${R.registerSpace}`, { Where: where, spaceHex: hex(space) });
    const conflict = add();
    if (conflict) report('register-overlap', path, conflict);
  }
}

interface Interval {
  kind: 'table' | 'root' | 'sampler';
  parameter: number;
  slot: number;
  cls: string;
  visibility: number;
  space: number;
  lb: number;
  count: number;
}

/**
 * Register intervals per (class, space, visibility): rule 18 as DXC applies it. An interval
 * conflicts with the first earlier one of its class and space whose registers meet its own and
 * whose visibility is the same or ALL (either side). Each (class, space, visibility) group keeps
 * a segment tree over the 32-bit register range, so a check costs O(32), not a scan of every
 * earlier interval (8,000 root CBVs were 52 s).
 */
class OverlapChecker {
  private readonly seen: (Interval & { ub: number })[] = [];
  private readonly groups = new Map<string, RegisterTree>();

  /** Adds an interval; returns the message values of the first conflict, if any. */
  add(interval: Interval): Record<string, string> | undefined {
    if (interval.visibility >= VISIBILITY_COUNT) return undefined;
    const ub = interval.count === UNBOUNDED_DESCRIPTORS ? 0xffffffff : Math.min(0xffffffff, interval.lb + interval.count - 1);
    if (ub < interval.lb) return undefined; // NumDescriptors 0 (rule 6) holds no register to overlap
    const it = { ...interval, ub };
    const group = (visibility: number) => `${it.cls}/${it.space}/${visibility}`;
    let first = Infinity;
    const visibilities = it.visibility === 0 ? Array.from({ length: VISIBILITY_COUNT }, (_, v) => v) : [it.visibility, 0];
    for (const v of visibilities) first = Math.min(first, this.groups.get(group(v))?.firstMeeting(it.lb, it.ub) ?? Infinity);
    const index = this.seen.length;
    this.seen.push(it);
    let tree = this.groups.get(group(it.visibility));
    if (!tree) this.groups.set(group(it.visibility), (tree = new RegisterTree()));
    tree.insert(it.lb, it.ub, index);
    if (first === Infinity) return undefined;
    const other = this.seen[first]!;
    // DXC names the other range's visibility as the group it was found in, and ALL whenever the new
    // range is visible to ALL (it searches every group then but keeps printing its own visibility)
    return { type: it.cls, this: describe(it), other: describe(other, it.visibility === 0 ? 0 : other.visibility, 'root parameter[') };
  }
}

interface TreeNode {
  /** Smallest index of an interval covering this node's whole span. */
  cover: number;
  /** Smallest index of an interval meeting any part of this node's span. */
  any: number;
  left?: TreeNode;
  right?: TreeNode;
}

/**
 * Intervals of [0, 2^32) tagged with increasing indices; finds the smallest index among those
 * meeting a query interval. Nodes are created on demand (at most ~64 per insertion).
 */
class RegisterTree {
  private readonly root: TreeNode = { cover: Infinity, any: Infinity };

  insert(lb: number, ub: number, index: number): void {
    const go = (node: TreeNode, lo: number, hi: number): void => {
      if (index < node.any) node.any = index;
      if (lb <= lo && hi <= ub) {
        if (index < node.cover) node.cover = index;
        return;
      }
      const mid = Math.floor((lo + hi) / 2);
      if (lb <= mid) go((node.left ??= { cover: Infinity, any: Infinity }), lo, mid);
      if (ub > mid) go((node.right ??= { cover: Infinity, any: Infinity }), mid + 1, hi);
    };
    go(this.root, 0, 0xffffffff);
  }

  firstMeeting(lb: number, ub: number): number {
    const go = (node: TreeNode | undefined, lo: number, hi: number): number => {
      if (!node) return Infinity;
      if (lb <= lo && hi <= ub) return node.any;
      let best = node.cover; // covers all of this span, so it meets the query's part of it
      const mid = Math.floor((lo + hi) / 2);
      if (lb <= mid) best = Math.min(best, go(node.left, lo, mid));
      if (ub > mid) best = Math.min(best, go(node.right, mid + 1, hi));
      return best;
    };
    return go(this.root, 0, 0xffffffff);
  }
}

/** DXC's words for a range; the other range of a conflict spells a table slot `root parameter[i]` (no space), as DXC does. */
function describe(i: Interval, visibility = i.visibility, tableParameter = 'root parameter ['): string {
  const vis = visName(visibility);
  if (i.kind === 'table') return `(${tableParameter}${i.parameter}], visibility ${vis}, descriptor table slot [${i.slot}])`;
  if (i.kind === 'sampler') return `(static sampler [${i.parameter}], visibility ${vis})`;
  return `(root parameter [${i.parameter}], visibility ${vis})`;
}

function bitCount(n: number): number {
  let c = 0;
  for (let v = n >>> 0; v; v &= v - 1) c++;
  return c;
}
