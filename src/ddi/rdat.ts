/**
 * Reading node I/O from the RDAT part of DXIL libraries, and the D3D12DDI_NODE_OUTPUT_0108
 * descriptions the runtime builds from it (docs/formats/ddi.md). Parts are found by type, tables
 * indexed by the stride in their header, every reference bounds-checked.
 */
import {
  DXIL_COMPONENT_TYPE,
  FUNCTION_INFO,
  NODE_ATTRIB_KIND,
  NODE_FUNC_ATTRIB_KIND,
  NODE_LAUNCH_TYPE,
  NODE_SHADER_INFO,
  NULL_REF,
  RDAT_PART_TYPE,
  RDAT_RECORD_SIZE,
  RDAT_VERSION,
  SHADER_KIND_NODE,
} from '../../codecs/rdat.js';
import { NODE_IO_KIND_MASK, NODE_IO_RECORD_FLAGS_MASK, WORK_GRAPH_LIMITS } from '../../codecs/ddi.js';
import { DecodeError } from '../bytes/errors.js';
import { ByteReader } from '../bytes/reader.js';
import type { DdiObject } from './image.js';

interface Table {
  at: number;
  count: number;
  stride: number;
}

/** Budgets against hostile RDAT parts (docs/limits.md). */
export interface RdatOptions {
  /**
   * Most records produced by `nodes()`: each node output and each attribute read counts one
   * (default: the part's size in bytes + 64). Tables may share records (DXC deduplicates them),
   * so a hostile part could otherwise name one list of n outputs from each of F functions.
   */
  maxRecords?: number;
}

export class RdatReader {
  private readonly r: ByteReader;
  private readonly parts = new Map<number, { at: number; size: number }>();
  private readonly maxRecords: number;
  private records = 0;

  /** @param base absolute offset of the RDAT data in the file, for messages */
  constructor(bytes: Uint8Array, base = 0, options: RdatOptions = {}) {
    this.r = new ByteReader(bytes, base);
    this.maxRecords = options.maxRecords ?? bytes.byteLength + 64;
    const version = this.r.u32(0, 'RDAT.version');
    if (version !== RDAT_VERSION) throw new DecodeError('unsupported-version', base, 'RDAT.version', `RDAT version 0x${version.toString(16)}, expected 0x10`);
    const count = this.r.u32(4, 'RDAT.partCount');
    this.r.needArray(8, count, 4, 'RDAT.partOffsets');
    for (let i = 0; i < count; i++) {
      const at = this.r.u32(8 + 4 * i, `RDAT.partOffsets[${i}]`);
      const type = this.r.u32(at, `RDAT.parts[${i}].type`);
      const size = this.r.u32(at + 4, `RDAT.parts[${i}].size`);
      this.r.need(at + 8, size, `RDAT.parts[${i}]`);
      this.parts.set(type, { at: at + 8, size });
    }
  }

  private table(type: number, minimumStride: number, name: string): Table {
    const part = this.parts.get(type);
    if (!part) return { at: 0, count: 0, stride: minimumStride };
    const count = this.r.u32(part.at, `RDAT.${name}.recordCount`);
    const stride = this.r.u32(part.at + 4, `RDAT.${name}.recordStride`);
    if (stride < minimumStride) throw new DecodeError('truncated', part.at + 4, `RDAT.${name}.recordStride`, `stride ${stride} is shorter than the ${minimumStride}-byte record`);
    this.r.needArray(part.at + 8, count, stride, `RDAT.${name}`);
    return { at: part.at + 8, count, stride };
  }

  private record(t: Table, index: number, name: string): number {
    if (index >= t.count) throw new DecodeError('bad-offset', t.at, `RDAT.${name}[${index}]`, `record ${index} of a ${t.count}-record table`);
    return t.at + index * t.stride;
  }

  string(offset: number, path: string): string {
    const part = this.parts.get(RDAT_PART_TYPE.StringBuffer);
    if (!part || offset >= part.size) throw new DecodeError('bad-offset', part?.at ?? 0, path, `string offset ${offset} outside the string buffer`);
    const bytes: number[] = [];
    for (let i = part.at + offset; ; i++) {
      if (i >= part.at + part.size) throw new DecodeError('truncated', i, path, 'string without NUL terminator');
      const b = this.r.slice(i, 1, path)[0]!;
      if (b === 0) break;
      bytes.push(b);
    }
    return new TextDecoder().decode(Uint8Array.from(bytes));
  }

  private spendList(list: number[], at: number, path: string): number[] {
    this.spend(list.length, at, path);
    return list;
  }

  /** An index-array reference: element i holds the count, elements i+1.. the values. Null = empty. */
  indexArray(ref: number, path: string): number[] {
    if (ref === NULL_REF) return [];
    const part = this.parts.get(RDAT_PART_TYPE.IndexArrays);
    const words = part ? part.size / 4 : 0;
    if (!part || ref >= words) throw new DecodeError('bad-offset', part?.at ?? 0, path, `index array ${ref} outside the ${words}-element part`);
    const n = this.r.u32(part.at + ref * 4, path);
    if (n > words - ref - 1) throw new DecodeError('count-exceeds-data', part.at + ref * 4, path, `${n} elements, only ${words - ref - 1} left`);
    return Array.from({ length: n }, (_, i) => this.r.u32(part.at + (ref + 1 + i) * 4, `${path}[${i}]`));
  }

  private spend(n: number, at: number, path: string): void {
    this.records += n;
    if (this.records > this.maxRecords) {
      throw new DecodeError('limit-exceeded', this.r.base + at, path, `more than maxRecords = ${this.maxRecords} records from a ${this.r.length}-byte RDAT part (shared lists fan out)`);
    }
  }

  /** Every node shader of the library with its outputs as the runtime's DDI descriptions. */
  nodes(): NodeReport[] {
    this.records = 0;
    const functions = this.table(RDAT_PART_TYPE.FunctionTable, RDAT_RECORD_SIZE.FunctionInfo, 'FunctionTable');
    const infos = this.table(RDAT_PART_TYPE.NodeShaderInfoTable, RDAT_RECORD_SIZE.NodeShaderInfo, 'NodeShaderInfoTable');
    const ioNodes = this.table(RDAT_PART_TYPE.IONodeTable, RDAT_RECORD_SIZE.IONode, 'IONodeTable');
    const ioAttribs = this.table(RDAT_PART_TYPE.NodeShaderIOAttribTable, RDAT_RECORD_SIZE.NodeShaderIOAttrib, 'NodeShaderIOAttribTable');
    const funcAttribs = this.table(RDAT_PART_TYPE.NodeShaderFuncAttribTable, RDAT_RECORD_SIZE.NodeShaderFuncAttrib, 'NodeShaderFuncAttribTable');
    const nodeIds = this.table(RDAT_PART_TYPE.NodeIDTable, RDAT_RECORD_SIZE.NodeID, 'NodeIDTable');
    const nodeId = (ref: number, path: string) => {
      const at = this.record(nodeIds, ref, 'NodeIDTable');
      return { Name: this.string(this.r.u32(at, `${path}.Name`), `${path}.Name`), ArrayIndex: this.r.u32(at + 4, `${path}.Index`) };
    };
    const attribs = (t: Table, ref: number, path: string) =>
      this.spendList(this.indexArray(ref, path), t.at, path).map((i) => {
        const at = this.record(t, i, path);
        return { kind: this.r.u32(at, `${path}[${i}].kind`), value: this.r.u32(at + 4, `${path}[${i}].value`), at };
      });

    const out: NodeReport[] = [];
    if (functions.stride < RDAT_RECORD_SIZE.FunctionInfo2) return out;
    for (let f = 0; f < functions.count; f++) {
      const at = this.record(functions, f, 'FunctionTable');
      const path = `RDAT.FunctionTable[${f}]`;
      if (this.r.u32(at + FUNCTION_INFO.shaderKind, `${path}.ShaderKind`) !== SHADER_KIND_NODE) continue;
      const infoRef = this.r.u32(at + FUNCTION_INFO.nodeShaderInfo, `${path}.NodeShaderInfo`);
      const info = this.record(infos, infoRef, 'NodeShaderInfoTable');
      const ip = `RDAT.NodeShaderInfoTable[${infoRef}]`;
      const launch = this.r.u32(info + NODE_SHADER_INFO.launchType, `${ip}.LaunchType`);
      const fattrs = attribs(funcAttribs, this.r.u32(info + NODE_SHADER_INFO.attribs, `${ip}.Attribs`), `${ip}.Attribs`);
      const idAttr = fattrs.find((a) => a.kind === NODE_FUNC_ATTRIB_KIND.ID);
      const exportName = this.string(this.r.u32(at + FUNCTION_INFO.unmangledName, `${path}.UnmangledName`), `${path}.UnmangledName`);
      const outputs = this.spendList(this.indexArray(this.r.u32(info + NODE_SHADER_INFO.outputs, `${ip}.Outputs`), `${ip}.Outputs`), info, `${ip}.Outputs`).map((ioRef, index): DdiObject => {
        const io = this.record(ioNodes, ioRef, 'IONodeTable');
        const op = `RDAT.IONodeTable[${ioRef}]`;
        const flagsAndKind = this.r.u32(io, `${op}.IOFlagsAndKind`);
        const a = new Map(attribs(ioAttribs, this.r.u32(io + 4, `${op}.Attribs`), `${op}.Attribs`).map((x) => [x.kind, x]));
        const arraySize = a.get(NODE_ATTRIB_KIND.OutputArraySize)?.value ?? 0;
        const grid = a.get(NODE_ATTRIB_KIND.RecordDispatchGrid);
        const shared = a.get(NODE_ATTRIB_KIND.MaxRecordsSharedWith);
        const maxRecords = a.get(NODE_ATTRIB_KIND.MaxRecords);
        return {
          FinalName: a.has(NODE_ATTRIB_KIND.OutputID) ? nodeId(a.get(NODE_ATTRIB_KIND.OutputID)!.value, `${op}.OutputID`) : { Name: '', ArrayIndex: 0 },
          OutputIndex: index,
          NodeIOKind: flagsAndKind & NODE_IO_KIND_MASK,
          NodeIOFlags: flagsAndKind & NODE_IO_RECORD_FLAGS_MASK,
          RecordSizeInBytes: a.get(NODE_ATTRIB_KIND.RecordSizeInBytes)?.value ?? 0,
          bAllowSparseNodes: (a.get(NODE_ATTRIB_KIND.AllowSparseNodes)?.value ?? 0) !== 0 || arraySize === WORK_GRAPH_LIMITS.unboundedArraySize ? 1 : 0,
          pRecordDispatchGrid: grid
            ? { ByteOffset: grid.value & 0xffff, NumComponents: (grid.value >>> 16) & 3, b16BitsPerComponent: (grid.value >>> 18) === DXIL_COMPONENT_TYPE.U16 ? 1 : 0 }
            : null,
          // DXIL's default for an output without [MaxRecords] or [MaxRecordsSharedWith] is 1
          pMaxRecords: maxRecords ? maxRecords.value : shared ? null : 1,
          pMaxRecordsSharedWithOutputIndex: shared && !maxRecords ? shared.value : null,
          ArraySize: arraySize === 0 ? 1 : arraySize,
          pOutputs: null,
        };
      });
      out.push({
        exportName,
        id: idAttr ? nodeId(idAttr.value, `${ip}.ID`) : { Name: exportName, ArrayIndex: 0 },
        launch: NODE_LAUNCH_TYPE[launch as 1 | 2 | 3] ?? `launch type ${launch}`,
        outputs,
      });
    }
    return out;
  }
}

export interface NodeReport {
  /** The function's export name. */
  exportName: string;
  /** The node ID ([NodeID], else the function name with index 0). */
  id: { Name: string; ArrayIndex: number };
  launch: string;
  /** D3D12DDI_NODE_OUTPUT_0108 per output, in declaration order (pOutputs NULL: targets are known only in a state object). */
  outputs: DdiObject[];
}
