/** DXC's RDAT part (runtime data of DXIL libraries), as far as node I/O needs it (docs/formats/ddi.md). */
import { PSV_RESOURCE_KIND, SHADER_KIND as PSV_SHADER_KIND } from './psv0.js';

export const RDAT_VERSION = 0x10;

export const RDAT_PART_TYPE = {
  StringBuffer: 1,
  IndexArrays: 2,
  ResourceTable: 3,
  FunctionTable: 4,
  RawBytes: 5,
  SubobjectTable: 6,
  NodeIDTable: 7,
  NodeShaderIOAttribTable: 8,
  NodeShaderFuncAttribTable: 9,
  IONodeTable: 10,
  NodeShaderInfoTable: 11,
} as const;

/** Record sizes DXC writes; a table's stride may be larger (newer records), never smaller. */
export const RDAT_RECORD_SIZE = {
  FunctionInfo: 44,
  FunctionInfo2: 52,
  NodeShaderInfo: 20,
  IONode: 8,
  NodeShaderIOAttrib: 8,
  NodeShaderFuncAttrib: 8,
  NodeID: 8,
} as const;

/** Field offsets within records. */
export const FUNCTION_INFO = { name: 0, unmangledName: 4, shaderKind: 16, shaderFlags: 46, nodeShaderInfo: 48 } as const;
export const NODE_SHADER_INFO = { launchType: 0, groupSharedBytesUsed: 4, attribs: 8, outputs: 12, inputs: 16 } as const;
export const SHADER_KIND_NODE = 15;
export const NULL_REF = 0xffffffff;

export const NODE_ATTRIB_KIND = {
  None: 0,
  OutputID: 1,
  MaxRecords: 2,
  MaxRecordsSharedWith: 3,
  RecordSizeInBytes: 4,
  RecordDispatchGrid: 5,
  OutputArraySize: 6,
  AllowSparseNodes: 7,
  RecordAlignmentInBytes: 8,
} as const;

export const NODE_FUNC_ATTRIB_KIND = {
  None: 0,
  ID: 1,
  NumThreads: 2,
  ShareInputOf: 3,
  DispatchGrid: 4,
  MaxRecursionDepth: 5,
  LocalRootArgumentsTableIndex: 6,
  MaxDispatchGrid: 7,
} as const;

/** DXIL component types in RecordDispatchGrid (bits 2..15 of ComponentNumAndType). */
export const DXIL_COMPONENT_TYPE = { U16: 3, U32: 5 } as const;

export const NODE_LAUNCH_TYPE = { 1: 'broadcasting', 2: 'coalescing', 3: 'thread' } as const;

// ---------------------------------------------------------------- every table, one row per field
// (docs/formats/rdat.md). The RDAT part is a header (version, part count, part offsets) and
// parts laid end to end, each `type, size, data`. Three parts are pools (StringBuffer: NUL-ended
// UTF-8 strings; IndexArrays: u32 arrays stored as `count, values...`; RawBytes: byte runs); the
// others are tables `recordCount, recordStride, records`. Fields refer into the pools by offset
// (strings, bytes) or index (index arrays), and into tables by record index.

/** The tables of RDAT_TABLES. */
export type RdatTableName =
  | 'ResourceTable'
  | 'FunctionTable'
  | 'SubobjectTable'
  | 'NodeIDTable'
  | 'NodeShaderFuncAttribTable'
  | 'NodeShaderIOAttribTable'
  | 'IONodeTable'
  | 'NodeShaderInfoTable';

/** How a record field is stored and what it refers to. */
export type RdatFieldKind =
  | 'u32'
  | 'u16'
  | 'u8'
  | 'string' // u32 offset into the StringBuffer
  | 'stringArray' // u32 index of an index array whose values are string offsets (0xffffffff: none)
  | 'indexArray' // u32 index of an index array of plain values (0xffffffff: none)
  | 'recordArray' // u32 index of an index array of record indices into table `of`
  | 'record' // u32 record index into table `of` (0xffffffff: none)
  | 'bytes'; // u32 offset and u32 size of a run in RawBytes (8 bytes)

/** One field of a record: its name (the JSON key), storage kind, and the enumeration naming its values. */
export interface RdatField {
  readonly name: string;
  readonly kind: RdatFieldKind;
  /** For `record` and `recordArray`: the table referred to. */
  readonly of?: RdatTableName;
  /** Names of the values of an enumerated u32 (kept as a number when a value has no name). */
  readonly names?: Readonly<Record<number, string>>;
}

/** A union after the fixed fields: `size` bytes whose layout the field `by` picks. */
export interface RdatUnion {
  readonly by: string;
  readonly size: number;
  /** Cases by the value of `by`; a value without a case keeps the union as u32 words. */
  readonly cases: Readonly<Record<number, readonly RdatField[]>>;
}

/** One record layout: its fields in storage order, and a union at the end. */
export interface RdatRecordRow {
  readonly record: string;
  readonly fields: readonly RdatField[];
  readonly union?: RdatUnion;
}

/** A table: its part type and its record layouts, oldest first; the stride picks the newest that fits. */
export interface RdatTableRow {
  readonly part: number;
  readonly layouts: readonly RdatRecordRow[];
}

const f = (name: string, kind: RdatFieldKind, extra: { of?: RdatTableName; names?: Readonly<Record<number, string>> } = {}): RdatField => ({ name, kind, ...extra });

/** hlsl::DXIL::ResourceClass. */
export const RESOURCE_CLASS: Readonly<Record<number, string>> = { 0: 'SRV', 1: 'UAV', 2: 'CBuffer', 3: 'Sampler', 4: 'Invalid' };
/** hlsl::DXIL::ResourceKind by value: the one table is codecs/psv0.ts PSV_RESOURCE_KIND. */
export const RESOURCE_KIND: Readonly<Record<number, string>> = Object.fromEntries(PSV_RESOURCE_KIND.values.map(([name, value]) => [value, name]));
/** hlsl::DXIL::ShaderKind by value: the one table is codecs/psv0.ts SHADER_KIND. */
export const SHADER_KIND: Readonly<Record<number, string>> = Object.fromEntries(PSV_SHADER_KIND.values.map(([name, value]) => [value, name]));
/** hlsl::DXIL::SubobjectKind: the D3D12_STATE_SUBOBJECT_TYPE values a library can declare. */
export const SUBOBJECT_KIND = {
  StateObjectConfig: 0,
  GlobalRootSignature: 1,
  LocalRootSignature: 2,
  SubobjectToExportsAssociation: 8,
  RaytracingShaderConfig: 9,
  RaytracingPipelineConfig: 10,
  HitGroup: 11,
  RaytracingPipelineConfig1: 12,
} as const;
export type SubobjectKindName = keyof typeof SUBOBJECT_KIND;
const SUBOBJECT_KIND_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(SUBOBJECT_KIND).map(([n, v]) => [v, n]));
/** hlsl::DXIL::HitGroupType. */
export const HIT_GROUP_TYPE: Readonly<Record<number, string>> = { 0: 'Triangle', 1: 'ProceduralPrimitive' };
/** hlsl::DXIL::StateObjectFlags bits. */
export const STATE_OBJECT_FLAGS = { AllowLocalDependenciesOnExternalDefinitions: 1, AllowExternalDependenciesOnLocalDefinitions: 2, AllowStateObjectAdditions: 4 } as const;
/** hlsl::DXIL::RaytracingPipelineFlags bits. */
export const RAYTRACING_PIPELINE_FLAGS = { SkipTriangles: 0x100, SkipProceduralPrimitives: 0x200 } as const;
/** hlsl::RDAT::DxilResourceFlag bits. */
export const RESOURCE_FLAGS = { UAVGloballyCoherent: 1, UAVCounter: 2, UAVRasterizerOrderedView: 4, DynamicIndexing: 8, Atomics64Use: 16 } as const;

const FUNC_ATTRIB_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(NODE_FUNC_ATTRIB_KIND).map(([n, v]) => [v, n]));
const IO_ATTRIB_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(NODE_ATTRIB_KIND).map(([n, v]) => [v, n]));

const FUNCTION_INFO_FIELDS = [
  f('Name', 'string'),
  f('UnmangledName', 'string'),
  f('Resources', 'recordArray', { of: 'ResourceTable' }),
  f('FunctionDependencies', 'stringArray'),
  f('ShaderKind', 'u32', { names: SHADER_KIND }),
  f('PayloadSizeInBytes', 'u32'),
  f('AttributeSizeInBytes', 'u32'),
  f('FeatureInfo1', 'u32'),
  f('FeatureInfo2', 'u32'),
  f('ShaderStageFlag', 'u32'),
  f('MinShaderTarget', 'u32'),
];

/** Every table DXC writes for libraries, by name. */
export const RDAT_TABLES = {
  ResourceTable: {
    part: RDAT_PART_TYPE.ResourceTable,
    layouts: [{
      record: 'RuntimeDataResourceInfo',
      fields: [
        f('Class', 'u32', { names: RESOURCE_CLASS }), f('Kind', 'u32', { names: RESOURCE_KIND }), f('ID', 'u32'), f('Space', 'u32'),
        f('LowerBound', 'u32'), f('UpperBound', 'u32'), f('Name', 'string'), f('Flags', 'u32'),
      ],
    }],
  },
  FunctionTable: {
    part: RDAT_PART_TYPE.FunctionTable,
    layouts: [
      { record: 'RuntimeDataFunctionInfo', fields: FUNCTION_INFO_FIELDS },
      {
        record: 'RuntimeDataFunctionInfo2',
        fields: [...FUNCTION_INFO_FIELDS, f('MinimumExpectedWaveLaneCount', 'u8'), f('MaximumExpectedWaveLaneCount', 'u8'), f('ShaderFlags', 'u16')],
        union: { by: 'ShaderKind', size: 4, cases: { 15: [f('Node', 'record', { of: 'NodeShaderInfoTable' })], 16: [f('RawShaderRef', 'u32')] } },
      },
    ],
  },
  SubobjectTable: {
    part: RDAT_PART_TYPE.SubobjectTable,
    layouts: [{
      record: 'RuntimeDataSubobjectInfo',
      fields: [f('Kind', 'u32', { names: SUBOBJECT_KIND_NAMES }), f('Name', 'string')],
      union: {
        by: 'Kind',
        size: 16,
        cases: {
          0: [f('Flags', 'u32')],
          1: [f('RootSignature', 'bytes')],
          2: [f('RootSignature', 'bytes')],
          8: [f('Subobject', 'string'), f('Exports', 'stringArray')],
          9: [f('MaxPayloadSizeInBytes', 'u32'), f('MaxAttributeSizeInBytes', 'u32')],
          10: [f('MaxTraceRecursionDepth', 'u32')],
          11: [f('Type', 'u32', { names: HIT_GROUP_TYPE }), f('AnyHit', 'string'), f('ClosestHit', 'string'), f('Intersection', 'string')],
          12: [f('MaxTraceRecursionDepth', 'u32'), f('Flags', 'u32')],
        },
      },
    }],
  },
  NodeIDTable: { part: RDAT_PART_TYPE.NodeIDTable, layouts: [{ record: 'NodeID', fields: [f('Name', 'string'), f('Index', 'u32')] }] },
  NodeShaderFuncAttribTable: {
    part: RDAT_PART_TYPE.NodeShaderFuncAttribTable,
    layouts: [{
      record: 'NodeShaderFuncAttrib',
      fields: [f('AttribKind', 'u32', { names: FUNC_ATTRIB_NAMES })],
      union: {
        by: 'AttribKind',
        size: 4,
        cases: {
          1: [f('ID', 'record', { of: 'NodeIDTable' })],
          2: [f('NumThreads', 'indexArray')],
          3: [f('ShareInputOf', 'record', { of: 'NodeIDTable' })],
          4: [f('DispatchGrid', 'indexArray')],
          5: [f('MaxRecursionDepth', 'u32')],
          6: [f('LocalRootArgumentsTableIndex', 'u32')],
          7: [f('MaxDispatchGrid', 'indexArray')],
        },
      },
    }],
  },
  NodeShaderIOAttribTable: {
    part: RDAT_PART_TYPE.NodeShaderIOAttribTable,
    layouts: [{
      record: 'NodeShaderIOAttrib',
      fields: [f('AttribKind', 'u32', { names: IO_ATTRIB_NAMES })],
      union: {
        by: 'AttribKind',
        size: 4,
        cases: {
          1: [f('OutputID', 'record', { of: 'NodeIDTable' })],
          2: [f('MaxRecords', 'u32')],
          3: [f('MaxRecordsSharedWith', 'u32')],
          4: [f('RecordSizeInBytes', 'u32')],
          5: [f('ByteOffset', 'u16'), f('ComponentNumAndType', 'u16')],
          6: [f('OutputArraySize', 'u32')],
          7: [f('AllowSparseNodes', 'u32')],
          8: [f('RecordAlignmentInBytes', 'u32')],
          9: [f('MaxRecordsPerNode', 'u32')],
        },
      },
    }],
  },
  IONodeTable: {
    part: RDAT_PART_TYPE.IONodeTable,
    layouts: [{ record: 'IONode', fields: [f('IOFlagsAndKind', 'u32'), f('Attribs', 'recordArray', { of: 'NodeShaderIOAttribTable' })] }],
  },
  NodeShaderInfoTable: {
    part: RDAT_PART_TYPE.NodeShaderInfoTable,
    layouts: [{
      record: 'NodeShaderInfo',
      fields: [
        f('LaunchType', 'u32', { names: { 0: 'Invalid', 1: 'Broadcasting', 2: 'Coalescing', 3: 'Thread' } }),
        f('GroupSharedBytesUsed', 'u32'),
        f('Attribs', 'recordArray', { of: 'NodeShaderFuncAttribTable' }),
        f('Outputs', 'recordArray', { of: 'IONodeTable' }),
        f('Inputs', 'recordArray', { of: 'IONodeTable' }),
      ],
    }],
  },
} as const satisfies Record<RdatTableName, RdatTableRow>;
/** The table names (RDAT_TABLES' keys, checked by its `satisfies`). */

/** The pool parts (not tables) by name. */
export const RDAT_POOLS = { StringBuffer: RDAT_PART_TYPE.StringBuffer, IndexArrays: RDAT_PART_TYPE.IndexArrays, RawBytes: RDAT_PART_TYPE.RawBytes } as const;

/** Stored size of a field kind in bytes. */
export const RDAT_FIELD_SIZE: Readonly<Record<RdatFieldKind, number>> = {
  u32: 4, u16: 2, u8: 1, string: 4, stringArray: 4, indexArray: 4, recordArray: 4, record: 4, bytes: 8,
};
