/**
 * DXC's RDAT part (runtime data of DXIL libraries): its part types and every record table as rows
 * of codecs/rows.ts (docs/formats/rdat.md). src/rdat reads and writes the records through the one
 * row interpreter (src/rows/record.ts) and resolves their references into the pools.
 */
import { enumerator, enumTable, namesByValue, type EnumTable } from './enum-table.js';
import { PSV_RESOURCE_KIND, SHADER_KIND as PSV_SHADER_KIND } from './psv0.js';
import { sequential, type Field, type RecordDef, type RefType, type Scalar, type SequentialField } from './rows.js';

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

/** DXIL::ShaderKind::Node (the one table is codecs/psv0.ts SHADER_KIND). */
export const SHADER_KIND_NODE = enumerator(PSV_SHADER_KIND, 'Node');
export const NULL_REF = 0xffffffff;

/**
 * hlsl::RDAT::NodeAttribKind: the kind of a NodeShaderIOAttrib record, which picks the union
 * field after it. Checked against DXC's include/dxc/DxilContainer/RDAT_LibraryTypes.inl
 * (microsoft/DirectXShaderCompiler, the NodeAttribKind enum and the NodeShaderIOAttrib table):
 * there kind 9 is MaxRecordsPerNode, a u32 like MaxRecords, and LastValue follows it. The union
 * row below (case 9) reads that field; until this table named 9 too, a decoded record of kind 9
 * had no AttribKindName beside its number and a description spelling it by name was refused.
 */
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
  MaxRecordsPerNode: 9,
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

/** hlsl::DXIL::NodeLaunchType. */
export const NODE_LAUNCH_TYPE_TABLE = enumTable('hlsl::DXIL::NodeLaunchType', '', [['Invalid', 0], ['Broadcasting', 1], ['Coalescing', 2], ['Thread', 3]]);
const launchTypeName = /* @__PURE__ */ namesByValue(NODE_LAUNCH_TYPE_TABLE);
/** The launch word (`[Shader("node")] [NodeLaunch("...")]`) of a launch type value: the table's name in lower case; undefined for Invalid (0) and values the table lacks. */
export const nodeLaunchWord = (value: number): string | undefined => (value === 0 ? undefined : launchTypeName(value)?.toLowerCase());

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

/** One table: its part type and its record layouts (codecs/rows.ts records), oldest first; the stride picks the newest that fits. */
export interface RdatTableRow {
  readonly part: number;
  readonly layouts: readonly RecordDef[];
}

type Extra = { of?: RdatTableName; enum?: EnumTable };
/** A field of an RDAT record, in the row vocabulary: a plain integer, an enumerated u32, or a reference into a pool or table. */
const f = (key: string, kind: Scalar | RefType['ref'], extra: Extra = {}): SequentialField => ({
  key,
  type: extra.enum ? { enum: extra.enum, width: 'u32' } : kind === 'u8' || kind === 'u16' || kind === 'u32' || kind === 'u64' || kind === 'i32' ? kind : { ref: kind, ...(extra.of ? { of: extra.of } : {}) },
});
/** The union at the end of a record: `size` bytes picked by field `by`. */
const union = (by: string, size: number, cases: Readonly<Record<number, readonly SequentialField[]>>): SequentialField => ({
  key: 'union',
  type: { union: { by, size, cases: cases as Readonly<Record<number, readonly Field[]>> } },
});

/** hlsl::DXIL::ResourceClass. */
export const RESOURCE_CLASS_TABLE = enumTable('hlsl::DXIL::ResourceClass', '', [['SRV', 0], ['UAV', 1], ['CBuffer', 2], ['Sampler', 3], ['Invalid', 4]]);
/** hlsl::DXIL::HitGroupType. */
export const HIT_GROUP_TYPE_TABLE = enumTable('hlsl::DXIL::HitGroupType', '', [['Triangle', 0], ['ProceduralPrimitive', 1]]);
/** hlsl::DXIL::SubobjectKind: the D3D12_STATE_SUBOBJECT_TYPE values a library can declare. */
export const SUBOBJECT_KIND_TABLE = enumTable('hlsl::DXIL::SubobjectKind', '', [
  ['StateObjectConfig', 0],
  ['GlobalRootSignature', 1],
  ['LocalRootSignature', 2],
  ['SubobjectToExportsAssociation', 8],
  ['RaytracingShaderConfig', 9],
  ['RaytracingPipelineConfig', 10],
  ['HitGroup', 11],
  ['RaytracingPipelineConfig1', 12],
]);
/** hlsl::DXIL::ShaderKind's name by value (the one table is codecs/psv0.ts SHADER_KIND), its index made on first use. */
export const shaderKindName = /* @__PURE__ */ namesByValue(PSV_SHADER_KIND);
/** hlsl::DXIL::HitGroupType's name by value (from HIT_GROUP_TYPE_TABLE), its index made on first use. */
export const hitGroupTypeName = /* @__PURE__ */ namesByValue(HIT_GROUP_TYPE_TABLE);
/** hlsl::DXIL::StateObjectFlags bits. */
export const STATE_OBJECT_FLAGS = { AllowLocalDependenciesOnExternalDefinitions: 1, AllowExternalDependenciesOnLocalDefinitions: 2, AllowStateObjectAdditions: 4 } as const;
/** hlsl::DXIL::RaytracingPipelineFlags bits. */
export const RAYTRACING_PIPELINE_FLAGS = { SkipTriangles: 0x100, SkipProceduralPrimitives: 0x200 } as const;
/** hlsl::RDAT::DxilResourceFlag bits. */
export const RESOURCE_FLAGS = { UAVGloballyCoherent: 1, UAVCounter: 2, UAVRasterizerOrderedView: 4, DynamicIndexing: 8, Atomics64Use: 16 } as const;

/** hlsl::RDAT::NodeFuncAttribKind (from NODE_FUNC_ATTRIB_KIND). */
export const FUNC_ATTRIB_KIND_TABLE = enumTable('hlsl::RDAT::NodeFuncAttribKind', '', Object.entries(NODE_FUNC_ATTRIB_KIND));
/** hlsl::RDAT::NodeAttribKind (from NODE_ATTRIB_KIND). */
export const IO_ATTRIB_KIND_TABLE = enumTable('hlsl::RDAT::NodeAttribKind', '', Object.entries(NODE_ATTRIB_KIND));

const FUNCTION_INFO_FIELDS = [
  f('Name', 'string'),
  f('UnmangledName', 'string'),
  f('Resources', 'recordArray', { of: 'ResourceTable' }),
  f('FunctionDependencies', 'stringArray'),
  f('ShaderKind', 'u32', { enum: PSV_SHADER_KIND }),
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
    layouts: [
      sequential('RuntimeDataResourceInfo', [
        f('Class', 'u32', { enum: RESOURCE_CLASS_TABLE }), f('Kind', 'u32', { enum: PSV_RESOURCE_KIND }), f('ID', 'u32'), f('Space', 'u32'),
        f('LowerBound', 'u32'), f('UpperBound', 'u32'), f('Name', 'string'), f('Flags', 'u32'),
      ]),
    ],
  },
  FunctionTable: {
    part: RDAT_PART_TYPE.FunctionTable,
    layouts: [
      sequential('RuntimeDataFunctionInfo', FUNCTION_INFO_FIELDS),
      sequential('RuntimeDataFunctionInfo2', [
        ...FUNCTION_INFO_FIELDS,
        f('MinimumExpectedWaveLaneCount', 'u8'),
        f('MaximumExpectedWaveLaneCount', 'u8'),
        f('ShaderFlags', 'u16'),
        union('ShaderKind', 4, { 15: [f('Node', 'record', { of: 'NodeShaderInfoTable' })], 16: [f('RawShaderRef', 'u32')] }),
      ]),
    ],
  },
  SubobjectTable: {
    part: RDAT_PART_TYPE.SubobjectTable,
    layouts: [
      sequential('RuntimeDataSubobjectInfo', [
        f('Kind', 'u32', { enum: SUBOBJECT_KIND_TABLE }),
        f('Name', 'string'),
        union('Kind', 16, {
          0: [f('Flags', 'u32')],
          1: [f('RootSignature', 'bytes')],
          2: [f('RootSignature', 'bytes')],
          8: [f('Subobject', 'string'), f('Exports', 'stringArray')],
          9: [f('MaxPayloadSizeInBytes', 'u32'), f('MaxAttributeSizeInBytes', 'u32')],
          10: [f('MaxTraceRecursionDepth', 'u32')],
          11: [f('Type', 'u32', { enum: HIT_GROUP_TYPE_TABLE }), f('AnyHit', 'string'), f('ClosestHit', 'string'), f('Intersection', 'string')],
          12: [f('MaxTraceRecursionDepth', 'u32'), f('Flags', 'u32')],
        }),
      ]),
    ],
  },
  NodeIDTable: { part: RDAT_PART_TYPE.NodeIDTable, layouts: [sequential('NodeID', [f('Name', 'string'), f('Index', 'u32')])] },
  NodeShaderFuncAttribTable: {
    part: RDAT_PART_TYPE.NodeShaderFuncAttribTable,
    layouts: [
      sequential('NodeShaderFuncAttrib', [
        f('AttribKind', 'u32', { enum: FUNC_ATTRIB_KIND_TABLE }),
        union('AttribKind', 4, {
          1: [f('ID', 'record', { of: 'NodeIDTable' })],
          2: [f('NumThreads', 'indexArray')],
          3: [f('ShareInputOf', 'record', { of: 'NodeIDTable' })],
          4: [f('DispatchGrid', 'indexArray')],
          5: [f('MaxRecursionDepth', 'u32')],
          6: [f('LocalRootArgumentsTableIndex', 'u32')],
          7: [f('MaxDispatchGrid', 'indexArray')],
        }),
      ]),
    ],
  },
  NodeShaderIOAttribTable: {
    part: RDAT_PART_TYPE.NodeShaderIOAttribTable,
    layouts: [
      sequential('NodeShaderIOAttrib', [
        f('AttribKind', 'u32', { enum: IO_ATTRIB_KIND_TABLE }),
        union('AttribKind', 4, {
          1: [f('OutputID', 'record', { of: 'NodeIDTable' })],
          2: [f('MaxRecords', 'u32')],
          3: [f('MaxRecordsSharedWith', 'u32')],
          4: [f('RecordSizeInBytes', 'u32')],
          5: [f('ByteOffset', 'u16'), f('ComponentNumAndType', 'u16')],
          6: [f('OutputArraySize', 'u32')],
          7: [f('AllowSparseNodes', 'u32')],
          8: [f('RecordAlignmentInBytes', 'u32')],
          // DXC's RDAT_LibraryTypes.inl: NodeAttribKind::MaxRecordsPerNode (9), a u32
          9: [f('MaxRecordsPerNode', 'u32')],
        }),
      ]),
    ],
  },
  IONodeTable: {
    part: RDAT_PART_TYPE.IONodeTable,
    layouts: [sequential('IONode', [f('IOFlagsAndKind', 'u32'), f('Attribs', 'recordArray', { of: 'NodeShaderIOAttribTable' })])],
  },
  NodeShaderInfoTable: {
    part: RDAT_PART_TYPE.NodeShaderInfoTable,
    layouts: [
      sequential('NodeShaderInfo', [
        f('LaunchType', 'u32', { enum: NODE_LAUNCH_TYPE_TABLE }),
        f('GroupSharedBytesUsed', 'u32'),
        f('Attribs', 'recordArray', { of: 'NodeShaderFuncAttribTable' }),
        f('Outputs', 'recordArray', { of: 'IONodeTable' }),
        f('Inputs', 'recordArray', { of: 'IONodeTable' }),
      ]),
    ],
  },
} as const satisfies Record<RdatTableName, RdatTableRow>;

/** The pool parts (not tables) by name. */
export const RDAT_POOLS = { StringBuffer: RDAT_PART_TYPE.StringBuffer, IndexArrays: RDAT_PART_TYPE.IndexArrays, RawBytes: RDAT_PART_TYPE.RawBytes } as const;
