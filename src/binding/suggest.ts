/**
 * `suggestRootSignature(shaders)`: a version 1.1 root signature that covers the bindings of every
 * given shader under the rules of verify.ts, with the lowest root cost in DWORDs, then the fewest
 * parameters (docs/binding-verification.md, "Suggesting a root signature").
 *
 * Every parameter has visibility ALL: a table costs one DWORD whatever it holds and whoever sees
 * it, so one table for CBVs/SRVs/UAVs and one for samplers is the cheapest cover (samplers cannot
 * share a table with the others). An unbounded range must end its table (a range after it would
 * need an offset that cannot be computed), so each unbounded range beyond the first of its kind
 * opens a table of its own. `rootDescriptors` moves single CBVs and single raw/structured buffers
 * into root descriptors (2 DWORDs each) while the cost stays within 64 DWORDs: faster to bind, not
 * cheaper. Static samplers are never suggested (their state is not in the shader).
 */
import { ROOT_DESCRIPTOR_REFUSES, STAGE_VISIBILITY } from '../../codecs/binding-rules.js';
import { enumerator, flag } from '../../codecs/enum-table.js';
import { PSV_RESOURCE_CLASS, SHADER_KIND } from '../../codecs/psv0.js';
import {
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  DESCRIPTOR_RANGE_TYPE,
  LIMITS,
  RANGE_TYPES,
  ROOT_SIGNATURE_FLAGS,
  SHADER_VISIBILITY,
  UNBOUNDED_DESCRIPTORS,
  versionNamed,
  type RegisterClass,
} from '../../codecs/root-signature.js';
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectObject, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { checkDescription } from '../root-signature/check.js';
import { PARAMETERS_KEY, parameterCost, parameterTypeRow, parameterTypesOf, rootPath } from '../root-signature/rows.js';
import type { DescriptorRange, RootParameter, RootSignature } from '../root-signature/types.js';
import { checkBindings, type ShaderBinding, type ShaderFeatures } from '../shader/shader.js';
import { HEAP_RULES, checkFeatures, checkStage } from './verify.js';

/** What suggest needs of a shader: its stage and its bindings. */
export interface SuggestInput {
  stage: number;
  /** Undefined (a DXIL shader without PSV0) is refused. */
  bindings?: readonly ShaderBinding[];
  /** The shader's feature flags (its SFI0 part): a shader that indexes a descriptor heap gets that heap's DIRECTLY_INDEXED flag. */
  features?: ShaderFeatures;
}

/** Options of the root signature suggestion: whether to use root descriptors where they fit. */
export interface SuggestOptions {
  /** Prefer root CBVs and root SRV/UAV buffers where the rules allow (within the 64-DWORD limit). */
  rootDescriptors?: boolean;
}

/** ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT, set when a vertex shader is among the inputs. */
const ALLOW_IA = flag(ROOT_SIGNATURE_FLAGS, 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT');
const VERTEX = enumerator(SHADER_KIND, 'Vertex');
const ALL = enumerator(SHADER_VISIBILITY, 'ALL');
/** The version suggested. */
const VERSION = versionNamed('1.1')!;
/** Register classes are numbered as range types (PSV_RESOURCE_CLASS). */
const SAMPLER_CLASS = enumerator(DESCRIPTOR_RANGE_TYPE, 'SAMPLER');
const [TABLE] = parameterTypesOf('TABLE');
const ROOT_DESCRIPTORS = parameterTypesOf('DESCRIPTOR');
/** Register class -> the root descriptor parameter type of that class (CBV, SRV, UAV; none for samplers). */
const ROOT_DESCRIPTOR_TYPE = new Map(RANGE_TYPES.flatMap((c) => ROOT_DESCRIPTORS.filter((t) => t.registerClass === c.name).map((t) => [c.value as number, t.value] as const)));
/** The order of classes in the suggestion (CBV, SRV, UAV, Sampler, as HLSL writers usually list them): class -> position. */
const CLASS_ORDER: readonly RegisterClass[] = ['CBV', 'SRV', 'UAV', 'SAMPLER'];
const classOrder = RANGE_TYPES.map((t) => CLASS_ORDER.indexOf(t.name));

/**
 * The root cost of a signature in DWORDs (the type rows' `dwords`: table 1, constants their count,
 * root descriptor 2; a type no row has counts as a root descriptor).
 * @throws {DescriptionError} bad-type, missing-key or out-of-range when `rs` is not a typed description (checkDescription)
 */
export function rootCost(rs: RootSignature): number {
  checkDescription(rs);
  return costOf(rs);
}

/** rootCost without the description check (for descriptions built here). */
function costOf(rs: RootSignature): number {
  return rs.parameters.reduce((n, p) => n + parameterCost(parameterTypeRow(p.parameterType) ?? ROOT_DESCRIPTORS[0]!, p), 0);
}

interface Run {
  cls: number;
  space: number;
  lb: number;
  /** Inclusive; 0xFFFFFFFF = unbounded. */
  ub: number;
  /** The bindings merged into it (for root-descriptor eligibility). */
  types: Set<number>;
}

/**
 * The cheapest root signature (1.1) that every shader's bindings fit.
 * @throws {DescriptionError} out-of-range when the bindings cannot fit any root signature; bad-type when `shaders` is not an array of objects with arrays of binding objects, or `options` not an object
 */
export function suggestRootSignature(shaders: readonly SuggestInput[], options: SuggestOptions = {}): RootSignature {
  expectArray(shaders, 'shaders');
  expectOptionKeys(options, ['rootDescriptors']);
  // Union of registers per class and space: overlapping or adjacent bindings merge into one run
  // (with rootDescriptors only overlapping ones, so single buffers stay candidates for root descriptors).
  const touch = options.rootDescriptors ? 0 : 1;
  const byKey = new Map<string, Run[]>();
  for (const [i, s] of shaders.entries()) {
    expectObject(s, `shaders[${i}]`);
    checkStage(s.stage, `shaders[${i}].stage`);
    if (!s.bindings) throw new DescriptionError('missing-key', `shaders[${i}].bindings`, 'the bindings of this shader are not known (a DXIL container without PSV0)');
    checkBindings(s.bindings, `shaders[${i}].bindings`);
    for (const [j, b] of s.bindings.entries()) {
      const cls = PSV_RESOURCE_CLASS[b.resType];
      if (cls === undefined) continue;
      if (b.space >= LIMITS.systemReservedRegisterSpaceFirst) {
        throw new DescriptionError('out-of-range', `shaders[${i}].bindings[${j}].space`, `register space 0x${b.space.toString(16)} is reserved for the system; no root signature can cover it`);
      }
      const key = `${cls}/${b.space}`;
      let runs = byKey.get(key);
      if (!runs) byKey.set(key, (runs = []));
      // a first register above the last one is covered, as DXC checks it, by a range holding both (verify.ts)
      const [lb, ub] = b.upperBound !== 0xffffffff && b.upperBound < b.lowerBound ? [b.upperBound, b.lowerBound] : [b.lowerBound, b.upperBound];
      runs.push({ cls, space: b.space, lb, ub, types: new Set([b.resType]) });
    }
  }
  const runs: Run[] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.lb - b.lb || a.ub - b.ub);
    let cur: Run | undefined;
    for (const r of list) {
      if (cur && (cur.ub === 0xffffffff || r.lb <= cur.ub + touch)) {
        cur.ub = Math.max(cur.ub, r.ub);
        for (const t of r.types) cur.types.add(t);
      } else {
        cur = { ...r, types: new Set(r.types) };
        runs.push(cur);
      }
    }
  }
  // A run of 2^32 - 1 registers has the count that means unbounded (and, ending at the last
  // register or not, an unbounded range from its first register covers it): make it one.
  for (const r of runs) if (r.ub - r.lb + 1 >= UNBOUNDED_DESCRIPTORS) r.ub = 0xffffffff;
  // Deterministic order: class (CLASS_ORDER), space, register.
  runs.sort((a, b) => classOrder[a.cls]! - classOrder[b.cls]! || a.space - b.space || a.lb - b.lb);

  const parameters: RootParameter[] = [];
  // Tables needed if every run stayed in a table: an upper bound of what remains after root descriptors.
  const tablesFor = (samplers: boolean) => {
    const group = runs.filter((r) => (r.cls === SAMPLER_CLASS) === samplers);
    return group.length === 0 ? 0 : Math.max(1, group.filter((r) => r.ub === 0xffffffff).length);
  };
  const tables = tablesFor(false) + tablesFor(true);
  let cost = 0;
  const rest: Run[] = [];
  if (options.rootDescriptors) {
    for (const r of runs) {
      const single = r.lb === r.ub;
      // one resource type, one a root descriptor accepts (verify.ts: no typed SRV/UAV, no counter UAV)
      const type = r.types.size === 1 && ROOT_DESCRIPTOR_REFUSES[[...r.types][0]!] === undefined ? ROOT_DESCRIPTOR_TYPE.get(r.cls) : undefined;
      if (single && type !== undefined && cost + 2 + tables <= LIMITS.maxRootCost) {
        parameters.push({ parameterType: type, shaderVisibility: ALL, descriptor: { shaderRegister: r.lb, registerSpace: r.space, flags: 0 } });
        cost += 2;
      } else rest.push(r);
    }
  } else for (const r of runs) rest.push(r);

  for (const samplers of [false, true]) {
    const group = rest.filter((r) => (r.cls === SAMPLER_CLASS) === samplers);
    if (group.length === 0) continue;
    const bounded = group.filter((r) => r.ub !== 0xffffffff);
    const unbounded = group.filter((r) => r.ub === 0xffffffff);
    // Ranges append one after another: a table holds at most 2^32 descriptors (DXC's overflow rule), so
    // a run that would pass that opens the next table; the first unbounded range ends the last one.
    const tables: Run[][] = [];
    let table: Run[] = [];
    let used = 0;
    for (const r of bounded) {
      const n = r.ub - r.lb + 1;
      if (table.length > 0 && used + n - 1 > 0xffffffff) {
        tables.push(table);
        table = [];
        used = 0;
      }
      table.push(r);
      used += n;
    }
    const [first, ...others] = unbounded;
    if (first && used > 0xffffffff) others.unshift(first);
    else if (first) table.push(first);
    if (table.length > 0) tables.push(table);
    for (const r of others) tables.push([r]);
    for (const t of tables) parameters.push({ parameterType: TABLE!.value, shaderVisibility: ALL, ranges: t.map(rangeOf) });
  }
  const stages = new Set(shaders.map((s) => s.stage));
  let flags = stages.has(VERTEX) ? ALLOW_IA : 0;
  for (const row of STAGE_VISIBILITY) if (!stages.has(row.stage)) flags |= row.deny;
  // SM 6.6 dynamic resources: the heaps a shader indexes open for direct indexing (verify.ts checks it)
  for (const [i, s] of shaders.entries()) {
    if (s.features === undefined) continue;
    checkFeatures(s.features, `shaders[${i}].features`);
    for (const r of HEAP_RULES) if (s.features.featureInfo1 & r.feature) flags |= r.rootFlag;
  }
  const rs: RootSignature = { version: VERSION, flags, parameters, staticSamplers: [] };
  if (costOf(rs) > LIMITS.maxRootCost) throw new DescriptionError('out-of-range', rootPath(PARAMETERS_KEY), `the bindings need ${costOf(rs)} DWORDs of root arguments, more than ${LIMITS.maxRootCost}`);
  return rs;
}

function rangeOf(r: Run): DescriptorRange {
  return {
    rangeType: r.cls,
    numDescriptors: r.ub === 0xffffffff ? UNBOUNDED_DESCRIPTORS : r.ub - r.lb + 1,
    baseShaderRegister: r.lb,
    registerSpace: r.space,
    flags: 0,
    offsetInDescriptorsFromTableStart: DESCRIPTOR_RANGE_OFFSET_APPEND,
  };
}
