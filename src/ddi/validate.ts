/**
 * Validation of the documented constraints on DDI structures (docs/formats/ddi.md), with codes
 * from codecs/ddi.ts, the path of the offending value, and every violation reported.
 * The order of a pOutputs target list is never assumed (AddToStateObject prepends).
 */
import {
  ddiValidationMessage,
  EMPTY_OUTPUT_KINDS,
  NODE_IO_KIND,
  NODE_OUTPUT_KINDS,
  PRESERVE_LOCAL_ACCESS,
  RENDER_PASS_BEGINNING_ACCESS_TYPE,
  RENDER_PASS_ENDING_ACCESS_TYPE,
  WORK_GRAPH_LIMITS,
  type DdiValidationCode,
} from '../../codecs/ddi.js';
import type { EnumTable } from '../../codecs/enum-table.js';
import { DescriptionError, fillMessage } from '../bytes/errors.js';
import { expectArray, expectKnownKeys, expectObject } from '../bytes/check.js';
import { enumName, enumValue, u32FromJson } from '../json/vocabulary.js';
import type { DdiObject } from './image.js';
import { structDef } from './layout.js';

/** One broken DDI rule: its code, the path of the field, and the message. */
export interface DdiViolation {
  code: DdiValidationCode;
  path: string;
  message: string;
}

class Report {
  readonly violations: DdiViolation[] = [];
  add(code: DdiValidationCode, path: string, values: Record<string, string | number> = {}) {
    this.violations.push({ code, path, message: fillMessage(ddiValidationMessage(code), values) });
  }
}

/** Validates a structure (and everything it points at) of the named type. Iterative: no recursion on the input's depth. */
export function validateDdi(struct: string, value: DdiObject): DdiViolation[] {
  const report = new Report();
  const seen = new Set<object>();
  interface Frame {
    name: string;
    fields: ReturnType<typeof structDef>['fields'];
    obj: DdiObject;
    path: string;
    i: number;
    items?: DdiObject[];
    k: number;
    target: string;
    fp: string;
  }
  const stack: Frame[] = [];
  const enter = (name: string, obj: DdiObject, path: string) => {
    if (seen.has(obj)) return;
    seen.add(obj);
    stack.push({ name, fields: structDef(name).fields, obj, path, i: 0, k: 0, target: '', fp: '' });
  };
  const rootName = structDef(struct).name;
  expectObject(value, rootName);
  enter(rootName, value, rootName);
  while (stack.length > 0) {
    const fr = stack[stack.length - 1]!;
    if (fr.items) {
      if (fr.k < fr.items.length) {
        const k = fr.k++;
        const item = fr.items[k];
        if (item && typeof item === 'object') enter(fr.target, item, `${fr.fp}[${k}]`);
        continue;
      }
      fr.items = undefined;
    }
    if (fr.i < fr.fields.length) {
      const f = fr.fields[fr.i++]!;
      const obj = fr.obj;
      const v = obj[f.name];
      const fp = `${fr.path}.${f.name}`;
      if (f.type.kind === 'enum' && typeof v === 'number' && !f.type.table.values.some(([, x]) => x === v)) {
        report.add('enum-out-of-range', fp, { field: f.name, value: v, type: f.type.table.type });
      }
      if (f.type.kind === 'struct' && v && typeof v === 'object' && !Array.isArray(v)) enter(f.type.struct, v as DdiObject, fp);
      if (f.type.kind === 'ptr' && v && typeof v === 'object') {
        const to = f.type.to;
        const target = to.kind === 'struct' ? to.struct : to.kind === 'select' ? to.cases[obj[to.by] as number] : undefined;
        if (!target) continue;
        if (Array.isArray(v)) Object.assign(fr, { items: v as DdiObject[], k: 0, target, fp });
        else enter(target, v as DdiObject, fp);
      }
      continue;
    }
    stack.pop();
    structChecks(fr.name, fr.obj, fr.path, report);
  }
  return report.violations;
}

/** The rules about one structure's own fields, checked after everything it points at (as the walk always did). */
function structChecks(name: string, obj: DdiObject, path: string, report: Report): void {
  if (name === 'D3D12DDI_NODE_OUTPUT_0108') nodeOutput(obj, path, report);
  if (name === 'D3D12DDI_RECORD_DISPATCH_GRID_0108' && ((obj.NumComponents as number) < 1 || (obj.NumComponents as number) > 3)) {
    report.add('dispatch-grid-components', `${path}.NumComponents`, { value: obj.NumComponents as number });
  }
  if (name.endsWith('_LAUNCH_NODE_PROPERTIES_0108')) {
    const outputs = obj.pOutputs;
    outputList(Array.isArray(outputs) ? (outputs as DdiObject[]) : [], `${path}.pOutputs`, report);
    for (const g of ['pDispatchGrid', 'pMaxDispatchGrid']) {
      const grid = obj[g];
      // a grid that is not a list of numbers cannot come from ddiFromJson or decodeImage; skip it rather than throw
      if (!Array.isArray(grid) || !grid.every((c) => typeof c === 'number')) continue;
      const g3 = grid as number[];
      if (g3.some((c) => c > WORK_GRAPH_LIMITS.maxDispatchGridComponent) || g3.reduce((a, b) => a * b, 1) > WORK_GRAPH_LIMITS.maxDispatchGridProduct) {
        report.add('dispatch-grid-limit', `${path}.${g}`, { value: `(${g3.join(', ')})` });
      }
    }
  }
}

function nodeOutput(o: DdiObject, path: string, report: Report): void {
  const kind = o.NodeIOKind as number;
  if (!NODE_OUTPUT_KINDS.has(kind)) report.add('output-kind', `${path}.NodeIOKind`, { value: String(enumName(NODE_IO_KIND, kind)) });
  const size = o.ArraySize as number;
  if (size === 0) report.add('array-size-zero', `${path}.ArraySize`);
  if (size === WORK_GRAPH_LIMITS.unboundedArraySize && !o.bAllowSparseNodes) report.add('unbounded-without-sparse', `${path}.ArraySize`);
  if (o.RecordSizeInBytes === 0 && !EMPTY_OUTPUT_KINDS.has(kind)) report.add('record-size-zero', `${path}.RecordSizeInBytes`);
  if ((o.pMaxRecords === null) === (o.pMaxRecordsSharedWithOutputIndex === null)) report.add('max-records-exactly-one', `${path}.pMaxRecords`);
}

/** OutputIndex equals the position; a shared budget names another output that has its own. */
function outputList(outputs: DdiObject[], path: string, report: Report): void {
  outputs.forEach((o, i) => {
    if (o.OutputIndex !== i) report.add('output-index', `${path}[${i}].OutputIndex`, { value: o.OutputIndex as number, position: i });
    const shared = o.pMaxRecordsSharedWithOutputIndex;
    if (typeof shared === 'number') {
      const owner = outputs[shared];
      if (!owner || shared === i) report.add('shared-index-unknown', `${path}[${i}].pMaxRecordsSharedWithOutputIndex`, { value: shared });
      else if (owner.pMaxRecords === null) report.add('shared-index-without-budget', `${path}[${i}].pMaxRecordsSharedWithOutputIndex`, { value: shared });
    }
  });
}

/** A render pass's beginning or ending access on one surface: its type value, and the PRESERVE_LOCAL parameters. */
export interface RenderPassAccess {
  Type: number;
  PreserveLocal?: { AdditionalWidth: number; AdditionalHeight: number };
}
/** One render pass on one surface: how it begins and ends. */
export interface RenderPass {
  BeginningAccess: RenderPassAccess;
  EndingAccess: RenderPassAccess;
}

/** A sequence of render passes on one surface: PRESERVE_LOCAL rules (docs/formats/ddi.md). */
export function validateRenderPasses(passes: RenderPass[]): DdiViolation[] {
  expectArray(passes, 'passes');
  passes.forEach((pass, i) => {
    expectObject(pass, `passes[${i}]`);
    expectObject(pass.BeginningAccess, `passes[${i}].BeginningAccess`);
    expectObject(pass.EndingAccess, `passes[${i}].EndingAccess`);
  });
  const report = new Report();
  const local = (t: number) => t >= PRESERVE_LOCAL_ACCESS.RENDER && t <= PRESERVE_LOCAL_ACCESS.UAV;
  const border = (a: RenderPassAccess) => `${a.PreserveLocal?.AdditionalWidth ?? 0}x${a.PreserveLocal?.AdditionalHeight ?? 0}`;
  passes.forEach((pass, i) => {
    for (const [side, table] of [['BeginningAccess', RENDER_PASS_BEGINNING_ACCESS_TYPE], ['EndingAccess', RENDER_PASS_ENDING_ACCESS_TYPE]] as const) {
      const a = pass[side];
      if (!table.values.some(([, v]) => v === a.Type)) report.add('enum-out-of-range', `passes[${i}].${side}.Type`, { field: 'Type', value: a.Type, type: table.type });
      if (a.Type === PRESERVE_LOCAL_ACCESS.RENDER && border(a) !== '0x0') report.add('preserve-local-render-border', `passes[${i}].${side}.PreserveLocal`, { value: border(a) });
    }
    const end = pass.EndingAccess;
    if (!local(end.Type)) return;
    const next = passes[i + 1];
    const endName = String(enumName(RENDER_PASS_ENDING_ACCESS_TYPE, end.Type));
    if (!next) {
      report.add('preserve-local-at-end', `passes[${i}].EndingAccess.Type`, { ending: endName });
      return;
    }
    const begin = next.BeginningAccess;
    if (begin.Type !== end.Type) {
      report.add('preserve-local-unpaired', `passes[${i + 1}].BeginningAccess.Type`, { pass: i, ending: endName, next: i + 1, beginning: String(enumName(RENDER_PASS_BEGINNING_ACCESS_TYPE, begin.Type)) });
    } else if (border(begin) !== border(end)) {
      report.add('preserve-local-parameters-differ', `passes[${i + 1}].BeginningAccess.PreserveLocal`, { pass: i, ending: border(end), next: i + 1, beginning: border(begin) });
    }
  });
  return report.violations;
}

/**
 * The JSON form of a render pass sequence: {"passes": [{BeginningAccess, EndingAccess}]} with type
 * names, each access {Type, PreserveLocal?: {AdditionalWidth?, AdditionalHeight?}} (UINTs, 0 when
 * left out). Only these keys.
 * @throws {DescriptionError} bad-type, missing-key, unknown-key, bad-name (a type name), out-of-range
 */
export function renderPassesFromJson(json: unknown): RenderPass[] {
  const passes = (json as { passes?: unknown })?.passes;
  if (!Array.isArray(passes)) throw new DescriptionError('bad-type', '$.passes', 'expected {"passes": [...]}');
  expectKnownKeys(json as object, ['passes'], '$'); // a misspelt key would be read as absent
  return passes.map((p, i) => {
    const at = `$.passes[${i}]`;
    expectObject(p, at);
    expectKnownKeys(p, ['BeginningAccess', 'EndingAccess'], at);
    const access = (side: 'BeginningAccess' | 'EndingAccess', table: EnumTable): RenderPassAccess => {
      const a = p[side];
      const path = `${at}.${side}`;
      if (a === undefined || a === null) throw new DescriptionError('missing-key', path, 'required');
      expectObject(a, path);
      expectKnownKeys(a, ['Type', 'PreserveLocal'], path);
      const type = enumValue(table, a.Type, `${path}.Type`);
      const pl = a.PreserveLocal;
      if (pl === undefined || pl === null) return { Type: type };
      expectObject(pl, `${path}.PreserveLocal`);
      expectKnownKeys(pl, ['AdditionalWidth', 'AdditionalHeight'], `${path}.PreserveLocal`);
      const uint = (k: 'AdditionalWidth' | 'AdditionalHeight') => (pl[k] === undefined ? 0 : u32FromJson(pl[k], `${path}.PreserveLocal.${k}`));
      return { Type: type, PreserveLocal: { AdditionalWidth: uint('AdditionalWidth'), AdditionalHeight: uint('AdditionalHeight') } };
    };
    return { BeginningAccess: access('BeginningAccess', RENDER_PASS_BEGINNING_ACCESS_TYPE), EndingAccess: access('EndingAccess', RENDER_PASS_ENDING_ACCESS_TYPE) };
  });
}
