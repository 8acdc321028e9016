/**
 * Node I/O of DXIL libraries as the D3D12DDI_NODE_OUTPUT_0108 descriptions the runtime builds
 * from the RDAT part (docs/formats/ddi.md). Read through src/rdat (the one RDAT reader: its
 * bounds checks, its string reader, its `resolve` budget); this file only maps decoded records to
 * DDI values. Functions may share one output list (DXC deduplicates records), so every output and
 * node produced is charged to the call's `produce` budget: what `nodes()` returns, and what is
 * printed from it, stays within a fixed multiple of the input.
 */
import { DXIL_COMPONENT_TYPE, FUNC_ATTRIB_KIND_TABLE, IO_ATTRIB_KIND_TABLE, NODE_ATTRIB_KIND, NODE_FUNC_ATTRIB_KIND, NODE_LAUNCH_TYPE_TABLE, nodeLaunchWord, NULL_REF, RDAT_PART_TYPE, SHADER_KIND_NODE, type RdatTableName } from '../../codecs/rdat.js';
import { SHADER_KIND } from '../../codecs/psv0.js';
import type { EnumTable } from '../../codecs/enum-table.js';
import { enumValue } from '../json/vocabulary.js';
import { NODE_IO_KIND_MASK, NODE_IO_RECORD_FLAGS_MASK, WORK_GRAPH_LIMITS } from '../../codecs/ddi.js';
import { limitKeys, budgetOf, type Budget, type WorkLimits } from '../bytes/budget.js';
import { expectBytes, expectOffset, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { DecodeError } from '../bytes/errors.js';
import { tableNames, type TableNames } from '../bytes/strings.js';
import { decodeRdat, rdatParts, type RdatPartAt } from '../rdat/decode.js';
import type { RdatDescription, RdatRecord, RdatTable } from '../rdat/types.js';
import type { DdiObject } from './image.js';

/** Budgets against hostile RDAT parts (docs/limits.md): the work limits, or a budget to charge. */
export interface RdatOptions extends WorkLimits {
  /** The call's budget (`resolve` while decoding, `produce` per node and output); default Budget.for(RDAT bytes, these limits). */
  budget?: Budget;
  /**
   * Most node outputs and attributes produced: kept for callers of earlier versions, it sets
   * `maxProducedChars` to `maxRecords x OUTPUT_CHARS`.
   * @deprecated use maxProducedChars
   */
  maxRecords?: number;
}

/** What one node output or node counts against the `produce` budget, besides its names (its JSON is about this long). */
export const OUTPUT_CHARS = 256;

/** One work-graph node of a DXIL library: its export, node ID, launch type and D3D12DDI_NODE_OUTPUT_0108 outputs. */
export interface NodeReport {
  /** The function's export name. */
  exportName: string;
  /** The node ID ([NodeID], else the function name with index 0). */
  id: { Name: string; ArrayIndex: number };
  launch: string;
  /** D3D12DDI_NODE_OUTPUT_0108 per output, in declaration order (pOutputs NULL: targets are known only in a state object). */
  outputs: DdiObject[];
}

/**
 * An enumerated field of a record as its value, read as describeLibrary reads one (src/rdat/library.ts):
 * the stored number (a decoded record; named by the table or not) or a name of the table (a
 * description that spells it in place). The names a decoded record holds beside (`<key>Name`) are
 * not read. @throws {DescriptionError} bad-name for a name the table lacks, bad-type for anything else
 */
const kindOf = (rec: RdatRecord, key: string, table: EnumTable, path: string): number => enumValue(table, rec[key], `${path}.${key}`);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const list = (v: unknown): readonly number[] => (Array.isArray(v) ? (v as number[]) : []);

/** The RDAT part of a DXIL library read for node outputs (a view of src/rdat's decoder). */
export class RdatReader {
  private readonly bytes: Uint8Array;
  private readonly base: number;
  private readonly options: RdatOptions;
  private readonly partAt: Map<number, RdatPartAt>;
  private names: TableNames | undefined;

  /**
   * @param base absolute offset of the RDAT data in the file, for messages
   * @throws {DecodeError} a malformed RDAT header or part table
   * @throws {DescriptionError} bad-type for arguments of the wrong type
   */
  constructor(bytes: Uint8Array, base = 0, options: RdatOptions = {}) {
    expectBytes(bytes, 'bytes');
    expectOffset(base, 'base');
    expectOptionKeys(options, limitKeys('maxRecords'));
    this.bytes = bytes;
    this.base = base;
    this.options = options;
    this.partAt = new Map(rdatParts(bytes, base).map((p) => [p.type, p]));
  }

  /** The NUL-terminated string at `offset` of the StringBuffer part. */
  string(offset: number, path: string): string {
    const part = this.partAt.get(RDAT_PART_TYPE.StringBuffer);
    if (!part || !(offset >= 0 && offset < part.size)) throw new DecodeError('bad-offset', this.base + (part?.at ?? 0), path, `string offset ${offset} outside the string buffer`);
    this.names ??= tableNames(this.bytes.subarray(part.at, part.at + part.size), Infinity);
    if (this.names.endOf(offset) < 0) throw new DecodeError('truncated', this.base + part.at + offset, path, 'string without NUL terminator');
    return this.names(offset)!;
  }

  /** An index-array reference: element i holds the count, elements i+1.. the values. Null = empty. */
  indexArray(ref: number, path: string): number[] {
    if (ref === NULL_REF) return [];
    const part = this.partAt.get(RDAT_PART_TYPE.IndexArrays);
    const words = part ? Math.floor(part.size / 4) : 0;
    if (!part || !(ref >= 0 && ref < words)) throw new DecodeError('bad-offset', this.base + (part?.at ?? 0), path, `index array ${ref} outside the ${words}-element part`);
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + part.at, words * 4);
    const n = view.getUint32(ref * 4, true);
    if (n > words - ref - 1) throw new DecodeError('count-exceeds-data', this.base + part.at + ref * 4, path, `${n} elements, only ${words - ref - 1} left`);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = view.getUint32((ref + 1 + i) * 4, true);
    return out;
  }

  /** Every node shader of the library with its outputs as the runtime's DDI descriptions. */
  nodes(): NodeReport[] {
    const o = this.options;
    const limits: WorkLimits = o.maxRecords !== undefined && o.maxProducedChars === undefined ? { ...o, maxProducedChars: o.maxRecords * OUTPUT_CHARS } : o;
    const budget = budgetOf({ ...limits, budget: o.budget }, this.bytes.byteLength);
    return nodeReports(decodeRdat(this.bytes, this.base, { budget }), budget, this.base);
  }
}

/**
 * Node reports from an RDAT description, charging `budget` for what they hold. Enumerated fields
 * (ShaderKind, AttribKind, LaunchType) are read as describeLibrary reads them: a stored number or
 * a name of the field's table.
 * @throws {DescriptionError} bad-name, bad-type for an enumerated field that is neither (its path named)
 */
export function nodeReports(rdat: RdatDescription, budget: Budget, base = 0): NodeReport[] {
  const tables = new Map<string, RdatRecord[]>();
  for (const p of rdat.parts) if (typeof p.type === 'string' && 'records' in p) tables.set(p.type, (p as RdatTable).records);
  const table = (name: RdatTableName) => tables.get(name) ?? [];
  const functions = table('FunctionTable');
  const infos = table('NodeShaderInfoTable');
  const ioNodes = table('IONodeTable');
  const ioAttribs = table('NodeShaderIOAttribTable');
  const funcAttribs = table('NodeShaderFuncAttribTable');
  const nodeIds = table('NodeIDTable');
  const nodeId = (ref: number, path: string) => {
    const rec = nodeIds[ref];
    if (!rec) throw new DecodeError('bad-offset', base, path, `record ${ref} of the ${nodeIds.length}-record NodeIDTable`);
    return { Name: String(rec.Name ?? ''), ArrayIndex: num(rec.Index) };
  };
  const out: NodeReport[] = [];
  functions.forEach((f, i) => {
    const path = `RDAT.FunctionTable[${i}]`;
    if (kindOf(f, 'ShaderKind', SHADER_KIND, path) !== SHADER_KIND_NODE || typeof f.Node !== 'number') return;
    const info = infos[f.Node]!; // decodeRdat checked the index
    const ip = `RDAT.NodeShaderInfoTable[${f.Node}]`;
    let id: { Name: string; ArrayIndex: number } | undefined;
    for (const a of list(info.Attribs)) {
      const rec = funcAttribs[a]!;
      if (kindOf(rec, 'AttribKind', FUNC_ATTRIB_KIND_TABLE, `RDAT.NodeShaderFuncAttribTable[${a}]`) === NODE_FUNC_ATTRIB_KIND.ID && typeof rec.ID === 'number') {
        id = nodeId(rec.ID, `${ip}.Attribs`);
        break;
      }
    }
    const exportName = String(f.UnmangledName ?? '');
    budget.charge('produce', OUTPUT_CHARS + 2 * exportName.length + (id?.Name.length ?? 0), path);
    const outputs = list(info.Outputs).map((ioRef, index): DdiObject => {
      const op = `RDAT.IONodeTable[${ioRef}]`;
      const io = ioNodes[ioRef]!;
      const flagsAndKind = num(io.IOFlagsAndKind);
      // the attributes by kind value; each kind's value is the union field of the kind's name
      const a = new Map<number, RdatRecord>();
      for (const k of list(io.Attribs)) {
        const rec = ioAttribs[k]!;
        a.set(kindOf(rec, 'AttribKind', IO_ATTRIB_KIND_TABLE, `RDAT.NodeShaderIOAttribTable[${k}]`), rec);
      }
      const attrib = (kind: keyof typeof NODE_ATTRIB_KIND) => a.get(NODE_ATTRIB_KIND[kind]);
      const value = (kind: keyof typeof NODE_ATTRIB_KIND) => num(attrib(kind)?.[kind]);
      const arraySize = value('OutputArraySize');
      const grid = attrib('RecordDispatchGrid');
      const gridType = num(grid?.ComponentNumAndType);
      const shared = attrib('MaxRecordsSharedWith') !== undefined;
      const maxRecords = attrib('MaxRecords') !== undefined;
      const output = attrib('OutputID');
      if (output && typeof output.OutputID !== 'number') throw new DecodeError('bad-offset', base, `${op}.OutputID`, 'an OutputID attribute naming no NodeID record');
      const finalName = output ? nodeId(output.OutputID as number, `${op}.OutputID`) : { Name: '', ArrayIndex: 0 };
      budget.charge('produce', OUTPUT_CHARS + finalName.Name.length, op);
      return {
        FinalName: finalName,
        OutputIndex: index,
        NodeIOKind: flagsAndKind & NODE_IO_KIND_MASK,
        NodeIOFlags: flagsAndKind & NODE_IO_RECORD_FLAGS_MASK,
        RecordSizeInBytes: value('RecordSizeInBytes'),
        bAllowSparseNodes: value('AllowSparseNodes') !== 0 || arraySize === WORK_GRAPH_LIMITS.unboundedArraySize ? 1 : 0,
        pRecordDispatchGrid: grid ? { ByteOffset: num(grid.ByteOffset), NumComponents: gridType & 3, b16BitsPerComponent: gridType >>> 2 === DXIL_COMPONENT_TYPE.U16 ? 1 : 0 } : null,
        // DXIL's default for an output without [MaxRecords] or [MaxRecordsSharedWith] is 1
        pMaxRecords: maxRecords ? value('MaxRecords') : shared ? null : 1,
        pMaxRecordsSharedWithOutputIndex: shared && !maxRecords ? value('MaxRecordsSharedWith') : null,
        ArraySize: arraySize === 0 ? 1 : arraySize,
        pOutputs: null,
      };
    });
    const launch = kindOf(info, 'LaunchType', NODE_LAUNCH_TYPE_TABLE, ip);
    out.push({
      exportName,
      id: id ?? { Name: exportName, ArrayIndex: 0 },
      launch: nodeLaunchWord(launch) ?? `launch type ${launch}`,
      outputs,
    });
  });
  return out;
}
