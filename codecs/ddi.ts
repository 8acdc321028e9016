/**
 * DDI and feature structures (docs/formats/ddi.md): enums, flags, and every struct as a
 * list of C-typed fields. Offsets and sizes for x64 and x86 are computed from these by the
 * MSVC/Windows layout rules in src/ddi/layout.ts (and checked against gcc in test/ddi.test.ts).
 */
import { enumTable, flagTable, rowsBy, type EnumTable, type FlagTable } from './enum-table.js';

export const NODE_IO_FLAGS = flagTable('D3D12DDI_NODE_IO_FLAGS_0108', 'D3D12DDI_NODE_IO_FLAG_', [
  ['INPUT', 0x1],
  ['OUTPUT', 0x2],
  ['READ_WRITE', 0x4],
  ['EMPTY_RECORD', 0x8],
  ['NODE_ARRAY', 0x10],
  ['DISPATCH_RECORD', 0x60],
  ['GROUP_RECORD', 0x40],
  ['THREAD_RECORD', 0x20],
  ['TRACK_RW_INPUT_SHARING', 0x100],
  ['GLOBALLY_COHERENT', 0x200],
]);
export const NODE_IO_KIND_MASK = 0x7f;
export const NODE_IO_RECORD_FLAGS_MASK = 0x300;

/** Each kind is an OR of NODE_IO_FLAGS (docs/formats/ddi.md). */
const F = { INPUT: 0x1, OUTPUT: 0x2, READ_WRITE: 0x4, EMPTY_RECORD: 0x8, NODE_ARRAY: 0x10, THREAD: 0x20, GROUP: 0x40, DISPATCH: 0x60 } as const;
export const NODE_IO_KIND = enumTable('D3D12DDI_NODE_IO_KIND_0108', 'D3D12DDI_NODE_IO_KIND_', [
  ['INVALID', 0],
  ['EMPTY_INPUT', F.EMPTY_RECORD | F.INPUT],
  ['NODE_OUTPUT', F.READ_WRITE | F.OUTPUT],
  ['NODE_OUTPUT_ARRAY', F.READ_WRITE | F.OUTPUT | F.NODE_ARRAY],
  ['EMPTY_OUTPUT', F.EMPTY_RECORD | F.OUTPUT],
  ['EMPTY_OUTPUT_ARRAY', F.EMPTY_RECORD | F.OUTPUT | F.NODE_ARRAY],
  ['DISPATCH_NODE_INPUT_RECORD', F.INPUT | F.DISPATCH],
  ['GROUP_NODE_INPUT_RECORDS', F.INPUT | F.GROUP],
  ['THREAD_NODE_INPUT_RECORD', F.INPUT | F.THREAD],
  ['READ_WRITE_DISPATCH_NODE_INPUT_RECORD', F.READ_WRITE | F.INPUT | F.DISPATCH],
  ['READ_WRITE_GROUP_NODE_INPUT_RECORDS', F.READ_WRITE | F.INPUT | F.GROUP],
  ['READ_WRITE_THREAD_NODE_INPUT_RECORD', F.READ_WRITE | F.INPUT | F.THREAD],
  ['GROUP_NODE_OUTPUT_RECORDS', F.READ_WRITE | F.OUTPUT | F.GROUP],
  ['THREAD_NODE_OUTPUT_RECORDS', F.READ_WRITE | F.OUTPUT | F.THREAD],
]);
/** The kinds a D3D12DDI_NODE_OUTPUT_0108 may have. */
export const NODE_OUTPUT_KINDS: ReadonlySet<number> = new Set([0x06, 0x16, 0x0a, 0x1a]);
export const EMPTY_OUTPUT_KINDS: ReadonlySet<number> = new Set([0x0a, 0x1a]);

export const NODE_TYPE = enumTable('D3D12DDI_NODE_TYPE_0108', 'D3D12DDI_NODE_TYPE_', [['SHADER', 0], ['PROGRAM', 1]]);
export const NODE_PROPERTIES_TYPE = enumTable('D3D12DDI_NODE_PROPERTIES_TYPE_0108', 'D3D12DDI_NODE_PROPERTIES_TYPE_', [
  ['BROADCASTING_LAUNCH', 1], ['COALESCING_LAUNCH', 2], ['THREAD_LAUNCH', 3],
]);

// 0..6 in declaration order, matching the API enums (the explicit DDI values are not documented: docs/formats/ddi.md)
const access = (third: string): [string, number][] =>
  [['DISCARD', 0], ['PRESERVE', 1], [third, 2], ['NO_ACCESS', 3], ['PRESERVE_LOCAL_RENDER', 4], ['PRESERVE_LOCAL_SRV', 5], ['PRESERVE_LOCAL_UAV', 6]];
export const RENDER_PASS_BEGINNING_ACCESS_TYPE = enumTable('D3D12DDI_RENDER_PASS_BEGINNING_ACCESS_TYPE_0053', 'D3D12DDI_RENDER_PASS_BEGINNING_ACCESS_TYPE_', access('CLEAR'));
export const RENDER_PASS_ENDING_ACCESS_TYPE = enumTable('D3D12DDI_RENDER_PASS_ENDING_ACCESS_TYPE_0053', 'D3D12DDI_RENDER_PASS_ENDING_ACCESS_TYPE_', access('RESOLVE'));
export const PRESERVE_LOCAL_ACCESS = { RENDER: 4, SRV: 5, UAV: 6 } as const;

export const CROSS_NODE_SHARING_TIER = enumTable('D3D12_CROSS_NODE_SHARING_TIER', 'D3D12_CROSS_NODE_SHARING_TIER_', [
  ['NOT_SUPPORTED', 0], ['1_EMULATED', 1], ['1', 2], ['2', 3], ['3', 4],
]);
export const TILED_RESOURCES_TIER = enumTable('D3D12_TILED_RESOURCES_TIER', 'D3D12_TILED_RESOURCES_TIER_', [['NOT_SUPPORTED', 0], ['1', 1], ['2', 2], ['3', 3], ['4', 4]]);
export const RESOURCE_BINDING_TIER = enumTable('D3D12_RESOURCE_BINDING_TIER', 'D3D12_RESOURCE_BINDING_TIER_', [['1', 1], ['2', 2], ['3', 3]]);
export const CONSERVATIVE_RASTERIZATION_TIER = enumTable('D3D12_CONSERVATIVE_RASTERIZATION_TIER', 'D3D12_CONSERVATIVE_RASTERIZATION_TIER_', [['NOT_SUPPORTED', 0], ['1', 1], ['2', 2], ['3', 3]]);
export const RESOURCE_HEAP_TIER = enumTable('D3D12_RESOURCE_HEAP_TIER', 'D3D12_RESOURCE_HEAP_TIER_', [['1', 1], ['2', 2]]);
export const SHADER_MIN_PRECISION_SUPPORT = flagTable('D3D12_SHADER_MIN_PRECISION_SUPPORT', 'D3D12_SHADER_MIN_PRECISION_SUPPORT_', [['10_BIT', 0x1], ['16_BIT', 0x2]]);

/** What a pointer points at. */
export type Pointee =
  | { kind: 'wstring' }
  | { kind: 'uint'; count: number }
  | { kind: 'struct'; struct: string; count?: { field: string } }
  /** A union of pointers chosen by an enum field of the same struct. */
  | { kind: 'select'; by: string; cases: Readonly<Record<number, string>> }
  /** A NUL-terminated 8-bit string (LPCSTR). */
  | { kind: 'cstring' }
  /** Opaque bytes whose length is a field of the same struct (`const void *` + SIZE_T). */
  | { kind: 'bytes'; count: { field: string } }
  /** A UINT array whose length is a field of the same struct. */
  | { kind: 'uints'; count: { field: string } }
  /**
   * A pipeline state stream: structs one after another, each chosen by its first UINT (`by` names
   * that field; `cases` maps its value to a struct), `size` the field holding the stream's bytes.
   */
  | { kind: 'stream'; size: { field: string }; by: string; cases: Readonly<Record<number, string>> };

/** The C type of a DDI struct field: an integer, an enum or flags of a table, a pointer and what it points to, a fixed-length array. */
export type FieldType =
  | { kind: 'UINT' | 'BOOL' | 'UINT16' | 'UINT8' }
  | { kind: 'enum'; table: EnumTable }
  /** `size: 1` for a UINT8 holding flags (D3D12_COLOR_WRITE_ENABLE in RenderTargetWriteMask). */
  | { kind: 'flags'; table: FlagTable; size?: 1 }
  | { kind: 'ptr'; to: Pointee; optional?: boolean }
  | { kind: 'struct'; struct: string }
  /** INT (signed 32-bit), FLOAT (binary32), SIZE_T (pointer-sized, unsigned). */
  | { kind: 'INT' | 'FLOAT' | 'SIZE_T' }
  /** An interface pointer (ID3D12RootSignature*): pointer-sized, kept as its value, never relocated. */
  | { kind: 'interface' }
  /** A fixed-length C array `of[count]`. */
  | { kind: 'array'; of: FieldType; count: number };

/** One field of a DDI struct, in declaration order. */
export interface StructField {
  readonly name: string;
  readonly type: FieldType;
}

/** A DDI struct: its C name, its CLI spelling and its fields; layouts per ABI come from structLayout. */
export interface StructDef {
  readonly name: string;
  /** CLI spelling. */
  readonly cli: string;
  readonly fields: readonly StructField[];
  /** `alignas(void*)`: the struct is aligned to at least the pointer size (stream subobjects). */
  readonly align?: 'pointer';
}

/** One field of a struct: its C name and type. */
const f = (name: string, type: FieldType): StructField => ({ name, type });
const UINT = { kind: 'UINT' } as const;
const BOOL = { kind: 'BOOL' } as const;
const e = (table: EnumTable) => ({ kind: 'enum', table }) as const;
const p = (to: Pointee, optional = true) => ({ kind: 'ptr', to, optional }) as const;
const s = (struct: string) => ({ kind: 'struct', struct }) as const;
const NODE_LIST = p({ kind: 'struct', struct: 'D3D12DDI_NODE_LIST_ENTRY_0108' });

const LAUNCH_HEAD: StructField[] = [
  f('FinalName', s('D3D12DDI_NODE_ID_0108')),
  f('bProgramEntry', BOOL),
  f('InputNodeIOKind', e(NODE_IO_KIND)),
  f('InputNodeIOFlags', UINT),
  f('InputRecordSizeInBytes', UINT),
];
const LAUNCH_TAIL: StructField[] = [
  f('pInputNodes', NODE_LIST),
  f('pNodesSharingInputWithThisNode', NODE_LIST),
  f('NumOutputs', UINT),
  f('pOutputs', p({ kind: 'struct', struct: 'D3D12DDI_NODE_OUTPUT_0108', count: { field: 'NumOutputs' } })),
];
const SHARED: StructField[] = [
  f('pLocalRootArgumentsTableIndex', p({ kind: 'uint', count: 1 })),
  f('pShareInputOfNode', p({ kind: 'struct', struct: 'D3D12DDI_NODE_0108' })),
];

/** Every DDI and feature struct dxbin lays out (docs/formats/ddi.md). */
export const STRUCTS: readonly StructDef[] = [
  { name: 'D3D12DDI_NODE_ID_0108', cli: 'node-id', fields: [f('Name', p({ kind: 'wstring' }, false)), f('ArrayIndex', UINT)] },
  {
    name: 'D3D12DDI_RECORD_DISPATCH_GRID_0108',
    cli: 'record-dispatch-grid',
    fields: [f('ByteOffset', { kind: 'UINT16' }), f('NumComponents', { kind: 'UINT8' }), f('b16BitsPerComponent', BOOL)],
  },
  { name: 'D3D12DDI_NODE_LIST_ENTRY_0108', cli: 'node-list-entry', fields: [f('pNode', p({ kind: 'struct', struct: 'D3D12DDI_NODE_0108' }, false)), f('pNext', NODE_LIST)] },
  {
    name: 'D3D12DDI_SHADER_NODE_0108',
    cli: 'shader-node',
    fields: [
      f('Shader', p({ kind: 'wstring' }, false)),
      f('PropertiesType', e(NODE_PROPERTIES_TYPE)),
      {
        name: 'pProperties',
        type: p({ kind: 'select', by: 'PropertiesType', cases: { 1: 'D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108', 2: 'D3D12DDI_COALESCING_LAUNCH_NODE_PROPERTIES_0108', 3: 'D3D12DDI_THREAD_LAUNCH_NODE_PROPERTIES_0108' } }),
      },
    ],
  },
  { name: 'D3D12DDI_NODE_0108', cli: 'node', fields: [f('VersionAdded', UINT), f('NodeType', e(NODE_TYPE)), f('Shader', s('D3D12DDI_SHADER_NODE_0108'))] },
  {
    name: 'D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108',
    cli: 'broadcasting-launch-node-properties',
    fields: [
      ...LAUNCH_HEAD,
      f('GroupSharedUsageInBytes', UINT),
      f('MaxRecursionDepth', UINT),
      ...SHARED,
      f('pDispatchGrid', p({ kind: 'uint', count: 3 })),
      f('pMaxDispatchGrid', p({ kind: 'uint', count: 3 })),
      f('pRecordDispatchGrid', p({ kind: 'struct', struct: 'D3D12DDI_RECORD_DISPATCH_GRID_0108' })),
      ...LAUNCH_TAIL,
    ],
  },
  {
    name: 'D3D12DDI_COALESCING_LAUNCH_NODE_PROPERTIES_0108',
    cli: 'coalescing-launch-node-properties',
    fields: [...LAUNCH_HEAD, f('InputMaxRecordArraySize', UINT), f('GroupSharedUsageInBytes', UINT), f('MaxRecursionDepth', UINT), ...SHARED, ...LAUNCH_TAIL],
  },
  {
    name: 'D3D12DDI_THREAD_LAUNCH_NODE_PROPERTIES_0108',
    cli: 'thread-launch-node-properties',
    fields: [...LAUNCH_HEAD, f('GroupSharedUsageInBytes', UINT), f('MaxRecursionDepth', UINT), ...SHARED, ...LAUNCH_TAIL],
  },
  {
    name: 'D3D12DDI_NODE_OUTPUT_0108',
    cli: 'node-output',
    fields: [
      f('FinalName', s('D3D12DDI_NODE_ID_0108')),
      f('OutputIndex', UINT),
      f('NodeIOKind', e(NODE_IO_KIND)),
      f('NodeIOFlags', { kind: 'flags', table: NODE_IO_FLAGS }),
      f('RecordSizeInBytes', UINT),
      f('bAllowSparseNodes', BOOL),
      f('pRecordDispatchGrid', p({ kind: 'struct', struct: 'D3D12DDI_RECORD_DISPATCH_GRID_0108' })),
      f('pMaxRecords', p({ kind: 'uint', count: 1 })),
      f('pMaxRecordsSharedWithOutputIndex', p({ kind: 'uint', count: 1 })),
      f('ArraySize', UINT),
      f('pOutputs', NODE_LIST),
    ],
  },
  {
    name: 'D3D12DDI_RENDER_PASS_BEGINNING_ACCESS_PRESERVE_LOCAL_PARAMETERS_0101',
    cli: 'preserve-local-parameters',
    fields: [f('AdditionalWidth', UINT), f('AdditionalHeight', UINT)],
  },
  {
    name: 'D3D12DDI_RENDER_PASS_ENDING_ACCESS_PRESERVE_LOCAL_PARAMETERS_0101',
    cli: 'ending-preserve-local-parameters',
    fields: [f('AdditionalWidth', UINT), f('AdditionalHeight', UINT)],
  },
  {
    name: 'D3D12_FEATURE_DATA_D3D12_OPTIONS',
    cli: 'd3d12-options',
    fields: [
      f('DoublePrecisionFloatShaderOps', BOOL),
      f('OutputMergerLogicOp', BOOL),
      f('MinPrecisionSupport', { kind: 'flags', table: SHADER_MIN_PRECISION_SUPPORT }),
      f('TiledResourcesTier', e(TILED_RESOURCES_TIER)),
      f('ResourceBindingTier', e(RESOURCE_BINDING_TIER)),
      f('PSSpecifiedStencilRefSupported', BOOL),
      f('TypedUAVLoadAdditionalFormats', BOOL),
      f('ROVsSupported', BOOL),
      f('ConservativeRasterizationTier', e(CONSERVATIVE_RASTERIZATION_TIER)),
      f('MaxGPUVirtualAddressBitsPerResource', UINT),
      f('StandardSwizzle64KBSupported', BOOL),
      f('CrossNodeSharingTier', e(CROSS_NODE_SHARING_TIER)),
      f('CrossAdapterRowMajorTextureSupported', BOOL),
      f('VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation', BOOL),
      f('ResourceHeapTier', e(RESOURCE_HEAP_TIER)),
    ],
  },
  {
    name: 'D3D12_FEATURE_DATA_CROSS_NODE',
    cli: 'cross-node',
    fields: [f('SharingTier', e(CROSS_NODE_SHARING_TIER)), f('AtomicShaderInstructions', BOOL)],
  },
];

/** The ABI a DDI struct is laid out for: 64-bit or 32-bit x86 (pointer size and alignment). */
export type Abi = 'x64' | 'x86';
/** Every ABI, as the CLI offers them. */
export const ABIS: readonly Abi[] = ['x64', 'x86'];

/** Work-graph limits used by validation (docs/formats/ddi.md). */
export const WORK_GRAPH_LIMITS = { maxDispatchGridComponent: 65535, maxDispatchGridProduct: 0xffffff, unboundedArraySize: 0xffffffff } as const;

/** Stable validation codes for DDI structures: [code, message]. */
export const DDI_VALIDATION_RULES = [
  ['enum-out-of-range', '{field} value {value} is not a {type} value'],
  ['output-kind', 'NodeIOKind {value} is not an output kind (NODE_OUTPUT, NODE_OUTPUT_ARRAY, EMPTY_OUTPUT, EMPTY_OUTPUT_ARRAY)'],
  ['array-size-zero', 'ArraySize must be at least 1'],
  ['unbounded-without-sparse', 'ArraySize 0xFFFFFFFF (unbounded) requires bAllowSparseNodes'],
  ['record-size-zero', 'RecordSizeInBytes 0 is allowed only for empty outputs'],
  ['max-records-exactly-one', 'exactly one of pMaxRecords and pMaxRecordsSharedWithOutputIndex must be set'],
  ['shared-index-unknown', 'pMaxRecordsSharedWithOutputIndex {value} names no other output of this node'],
  ['shared-index-without-budget', 'output {value}, whose budget is shared, has no pMaxRecords of its own'],
  ['output-index', 'OutputIndex {value} differs from the output\'s position {position} in pOutputs'],
  ['dispatch-grid-components', 'NumComponents {value} is not 1, 2 or 3'],
  ['dispatch-grid-limit', 'dispatch grid {value} exceeds 65535 per component or 16777215 in all'],
  ['preserve-local-render-border', 'PRESERVE_LOCAL_RENDER requires AdditionalWidth and AdditionalHeight 0, got {value}'],
  ['preserve-local-unpaired', 'pass {pass} ends with {ending} but pass {next} begins with {beginning}'],
  ['preserve-local-parameters-differ', 'pass {pass} ends with border {ending} but pass {next} begins with border {beginning}'],
  ['preserve-local-at-end', 'the last pass ends with {ending}: a command list may not end with a surface in a PRESERVE_LOCAL state'],
] as const;
/** The stable code of a DDI validation rule (a row of DDI_VALIDATION_RULES). */
export type DdiValidationCode = (typeof DDI_VALIDATION_RULES)[number][0];
/** The message of a DDI validation code. */
const ddiRuleByCode = /* @__PURE__ */ rowsBy(DDI_VALIDATION_RULES, 0);
export const ddiValidationMessage = (code: DdiValidationCode): string => ddiRuleByCode(code)![1];
