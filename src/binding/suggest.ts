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
import { STAGE_VISIBILITY } from '../../codecs/binding-rules.js';
import { PSV_RESOURCE_CLASS } from '../../codecs/psv0.js';
import { DESCRIPTOR_RANGE_OFFSET_APPEND, LIMITS, UNBOUNDED_DESCRIPTORS } from '../../codecs/root-signature.js';
import { DescriptionError } from '../bytes/errors.js';
import { PARAMETERS_KEY, rootPath } from '../root-signature/rows.js';
import type { DescriptorRange, RootParameter, RootSignature } from '../root-signature/types.js';
import type { ShaderBinding } from '../shader/shader.js';

/** What suggest needs of a shader: its stage and its bindings. */
export interface SuggestInput {
  stage: number;
  /** Undefined (a DXIL shader without PSV0) is refused. */
  bindings?: readonly ShaderBinding[];
}

/** Options of the root signature suggestion: whether to use root descriptors where they fit. */
export interface SuggestOptions {
  /** Prefer root CBVs and root SRV/UAV buffers where the rules allow (within the 64-DWORD limit). */
  rootDescriptors?: boolean;
}

/** ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT, set when a vertex shader is among the inputs. */
const ALLOW_IA = 0x1;
const VERTEX = 1;
/** Types a root SRV/UAV may hold (raw and structured buffers, no counter). */
const ROOT_BUFFER_TYPES: Readonly<Record<number, 3 | 4>> = { 4: 3, 5: 3, 7: 4, 8: 4 };
const CBV = 2;
const SAMPLER_CLASS = 3;

/** The root cost of a signature in DWORDs (table 1, constants their count, root descriptor 2). */
export function rootCost(rs: RootSignature): number {
  return rs.parameters.reduce((n, p) => n + (p.parameterType === 0 ? 1 : p.parameterType === 1 ? p.constants.num32BitValues : 2), 0);
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
 * @throws {DescriptionError} out-of-range when the bindings cannot fit any root signature
 */
export function suggestRootSignature(shaders: readonly SuggestInput[], options: SuggestOptions = {}): RootSignature {
  // Union of registers per class and space: overlapping or adjacent bindings merge into one run
  // (with rootDescriptors only overlapping ones, so single buffers stay candidates for root descriptors).
  const touch = options.rootDescriptors ? 0 : 1;
  const byKey = new Map<string, Run[]>();
  for (const [i, s] of shaders.entries()) {
    if (!s.bindings) throw new DescriptionError('missing-key', `shaders[${i}].bindings`, 'the bindings of this shader are not known (a DXIL container without PSV0)');
    for (const [j, b] of s.bindings.entries()) {
      const cls = PSV_RESOURCE_CLASS[b.resType];
      if (cls === undefined) continue;
      if (b.space >= LIMITS.systemReservedRegisterSpaceFirst) {
        throw new DescriptionError('out-of-range', `shaders[${i}].bindings[${j}].space`, `register space 0x${b.space.toString(16)} is reserved for the system; no root signature can cover it`);
      }
      const key = `${cls}/${b.space}`;
      let runs = byKey.get(key);
      if (!runs) byKey.set(key, (runs = []));
      runs.push({ cls, space: b.space, lb: b.lowerBound, ub: b.upperBound, types: new Set([b.resType]) });
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
  // Deterministic order: class (CBV, SRV, UAV, Sampler as HLSL writers usually list them), space, register.
  const classOrder = [1, 2, 0, 3]; // SRV, UAV, CBV, Sampler -> positions
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
      const type = r.cls === 2 ? (r.types.size === 1 && r.types.has(CBV) ? 2 : undefined) : r.types.size === 1 ? ROOT_BUFFER_TYPES[[...r.types][0]!] : undefined;
      if (single && type !== undefined && cost + 2 + tables <= LIMITS.maxRootCost) {
        parameters.push({ parameterType: type, shaderVisibility: 0, descriptor: { shaderRegister: r.lb, registerSpace: r.space, flags: 0 } });
        cost += 2;
      } else rest.push(r);
    }
  } else rest.push(...runs);

  for (const samplers of [false, true]) {
    const group = rest.filter((r) => (r.cls === SAMPLER_CLASS) === samplers);
    if (group.length === 0) continue;
    const bounded = group.filter((r) => r.ub !== 0xffffffff);
    const unbounded = group.filter((r) => r.ub === 0xffffffff);
    const tables: Run[][] = [[...bounded, ...unbounded.slice(0, 1)], ...unbounded.slice(1).map((r) => [r])];
    for (const t of tables) parameters.push({ parameterType: 0, shaderVisibility: 0, ranges: t.map(rangeOf) });
  }
  const stages = new Set(shaders.map((s) => s.stage));
  let flags = stages.has(VERTEX) ? ALLOW_IA : 0;
  for (const row of STAGE_VISIBILITY) if (!stages.has(row.stage)) flags |= row.deny;
  const rs: RootSignature = { version: 2, flags, parameters, staticSamplers: [] };
  if (rootCost(rs) > LIMITS.maxRootCost) throw new DescriptionError('out-of-range', rootPath(PARAMETERS_KEY), `the bindings need ${rootCost(rs)} DWORDs of root arguments, more than ${LIMITS.maxRootCost}`);
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
