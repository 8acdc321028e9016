/**
 * Pipeline state (docs/formats/pipeline.md): the enums of D3D12_GRAPHICS_PIPELINE_STATE_DESC,
 * D3D12_COMPUTE_PIPELINE_STATE_DESC and the pipeline state stream, their structs as rows of the
 * DDI row model (codecs/ddi.ts: laid out for x64 and x86 by src/ddi/layout.ts), and one row per
 * D3D12_PIPELINE_STATE_SUBOBJECT_TYPE: its CD3DX12 subobject struct, its key in the pipeline JSON
 * form and the default the CD3DX12_PIPELINE_STATE_STREAM_* type gives it (d3dx12.h).
 */
import { COMPARISON_FUNC } from './root-signature.js';
import { DXGI_FORMAT } from './dxgi-format.js';
import { enumerator, enumTable, flagTable, type EnumTable, type FlagTable } from './enum-table.js';
import type { FieldType, Pointee, StructDef, StructField } from './ddi.js';

export { DXGI_FORMAT, COMPARISON_FUNC };

export const PIPELINE_STATE_SUBOBJECT_TYPE = enumTable('D3D12_PIPELINE_STATE_SUBOBJECT_TYPE', 'D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_', [
  ['ROOT_SIGNATURE', 0], ['VS', 1], ['PS', 2], ['DS', 3], ['HS', 4], ['GS', 5], ['CS', 6], ['STREAM_OUTPUT', 7], ['BLEND', 8], ['SAMPLE_MASK', 9],
  ['RASTERIZER', 10], ['DEPTH_STENCIL', 11], ['INPUT_LAYOUT', 12], ['IB_STRIP_CUT_VALUE', 13], ['PRIMITIVE_TOPOLOGY', 14], ['RENDER_TARGET_FORMATS', 15],
  ['DEPTH_STENCIL_FORMAT', 16], ['SAMPLE_DESC', 17], ['NODE_MASK', 18], ['CACHED_PSO', 19], ['FLAGS', 20], ['DEPTH_STENCIL1', 21], ['VIEW_INSTANCING', 22],
  ['AS', 24], ['MS', 25], ['DEPTH_STENCIL2', 26], ['RASTERIZER1', 27], ['RASTERIZER2', 28], ['SERIALIZED_ROOT_SIGNATURE', 29],
]);
export const BLEND = enumTable('D3D12_BLEND', 'D3D12_BLEND_', [
  ['ZERO', 1], ['ONE', 2], ['SRC_COLOR', 3], ['INV_SRC_COLOR', 4], ['SRC_ALPHA', 5], ['INV_SRC_ALPHA', 6], ['DEST_ALPHA', 7], ['INV_DEST_ALPHA', 8],
  ['DEST_COLOR', 9], ['INV_DEST_COLOR', 10], ['SRC_ALPHA_SAT', 11], ['BLEND_FACTOR', 14], ['INV_BLEND_FACTOR', 15], ['SRC1_COLOR', 16],
  ['INV_SRC1_COLOR', 17], ['SRC1_ALPHA', 18], ['INV_SRC1_ALPHA', 19], ['ALPHA_FACTOR', 20], ['INV_ALPHA_FACTOR', 21],
]);
export const BLEND_OP = enumTable('D3D12_BLEND_OP', 'D3D12_BLEND_OP_', [['ADD', 1], ['SUBTRACT', 2], ['REV_SUBTRACT', 3], ['MIN', 4], ['MAX', 5]]);
export const LOGIC_OP = enumTable('D3D12_LOGIC_OP', 'D3D12_LOGIC_OP_', [
  ['CLEAR', 0], ['SET', 1], ['COPY', 2], ['COPY_INVERTED', 3], ['NOOP', 4], ['INVERT', 5], ['AND', 6], ['NAND', 7], ['OR', 8], ['NOR', 9], ['XOR', 10],
  ['EQUIV', 11], ['AND_REVERSE', 12], ['AND_INVERTED', 13], ['OR_REVERSE', 14], ['OR_INVERTED', 15],
]);
export const COLOR_WRITE_ENABLE = flagTable('D3D12_COLOR_WRITE_ENABLE', 'D3D12_COLOR_WRITE_ENABLE_', [['RED', 0x1], ['GREEN', 0x2], ['BLUE', 0x4], ['ALPHA', 0x8]]);
export const FILL_MODE = enumTable('D3D12_FILL_MODE', 'D3D12_FILL_MODE_', [['WIREFRAME', 2], ['SOLID', 3]]);
export const CULL_MODE = enumTable('D3D12_CULL_MODE', 'D3D12_CULL_MODE_', [['NONE', 1], ['FRONT', 2], ['BACK', 3]]);
export const CONSERVATIVE_RASTERIZATION_MODE = enumTable('D3D12_CONSERVATIVE_RASTERIZATION_MODE', 'D3D12_CONSERVATIVE_RASTERIZATION_MODE_', [['OFF', 0], ['ON', 1]]);
export const LINE_RASTERIZATION_MODE = enumTable('D3D12_LINE_RASTERIZATION_MODE', 'D3D12_LINE_RASTERIZATION_MODE_', [
  ['ALIASED', 0], ['ALPHA_ANTIALIASED', 1], ['QUADRILATERAL_WIDE', 2], ['QUADRILATERAL_NARROW', 3],
]);
export const DEPTH_WRITE_MASK = enumTable('D3D12_DEPTH_WRITE_MASK', 'D3D12_DEPTH_WRITE_MASK_', [['ZERO', 0], ['ALL', 1]]);
export const STENCIL_OP = enumTable('D3D12_STENCIL_OP', 'D3D12_STENCIL_OP_', [
  ['KEEP', 1], ['ZERO', 2], ['REPLACE', 3], ['INCR_SAT', 4], ['DECR_SAT', 5], ['INVERT', 6], ['INCR', 7], ['DECR', 8],
]);
export const INPUT_CLASSIFICATION = enumTable('D3D12_INPUT_CLASSIFICATION', 'D3D12_INPUT_CLASSIFICATION_', [['PER_VERTEX_DATA', 0], ['PER_INSTANCE_DATA', 1]]);
export const INDEX_BUFFER_STRIP_CUT_VALUE = enumTable('D3D12_INDEX_BUFFER_STRIP_CUT_VALUE', 'D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_', [['DISABLED', 0], ['0xFFFF', 1], ['0xFFFFFFFF', 2]]);
export const PRIMITIVE_TOPOLOGY_TYPE = enumTable('D3D12_PRIMITIVE_TOPOLOGY_TYPE', 'D3D12_PRIMITIVE_TOPOLOGY_TYPE_', [
  ['UNDEFINED', 0], ['POINT', 1], ['LINE', 2], ['TRIANGLE', 3], ['PATCH', 4],
]);
export const PIPELINE_STATE_FLAGS = flagTable('D3D12_PIPELINE_STATE_FLAGS', 'D3D12_PIPELINE_STATE_FLAG_', [
  ['TOOL_DEBUG', 0x1], ['DYNAMIC_DEPTH_BIAS', 0x4], ['DYNAMIC_INDEX_BUFFER_STRIP_CUT', 0x8], ['DISABLE_CACHED_BLOB', 0x10],
]);
export const VIEW_INSTANCING_FLAGS = flagTable('D3D12_VIEW_INSTANCING_FLAGS', 'D3D12_VIEW_INSTANCING_FLAG_', [['ENABLE_VIEW_INSTANCE_MASKING', 0x1]]);

/** One field of a struct: its C name and type. */
const f = (name: string, type: FieldType): StructField => ({ name, type });
const UINT = { kind: 'UINT' } as const;
const BOOL = { kind: 'BOOL' } as const;
const INT = { kind: 'INT' } as const;
const FLOAT = { kind: 'FLOAT' } as const;
const SIZE_T = { kind: 'SIZE_T' } as const;
const UINT8 = { kind: 'UINT8' } as const;
const e = (table: EnumTable) => ({ kind: 'enum', table }) as const;
const fl = (table: FlagTable) => ({ kind: 'flags', table }) as const;
const s = (struct: string) => ({ kind: 'struct', struct }) as const;
const p = (to: Pointee) => ({ kind: 'ptr', to, optional: true }) as const;
const FORMAT = e(DXGI_FORMAT);

const STENCIL_OPS = [
  f('StencilFailOp', e(STENCIL_OP)),
  f('StencilDepthFailOp', e(STENCIL_OP)),
  f('StencilPassOp', e(STENCIL_OP)),
  f('StencilFunc', e(COMPARISON_FUNC)),
] as const;
const DEPTH_HEAD = [
  f('DepthEnable', BOOL),
  f('DepthWriteMask', e(DEPTH_WRITE_MASK)),
  f('DepthFunc', e(COMPARISON_FUNC)),
  f('StencilEnable', BOOL),
] as const;
const RASTER_HEAD = (depthBias: FieldType) => [
  f('FillMode', e(FILL_MODE)),
  f('CullMode', e(CULL_MODE)),
  f('FrontCounterClockwise', BOOL),
  f('DepthBias', depthBias),
  f('DepthBiasClamp', FLOAT),
  f('SlopeScaledDepthBias', FLOAT),
  f('DepthClipEnable', BOOL),
];
const RASTER_TAIL = [
  f('ForcedSampleCount', UINT),
  f('ConservativeRaster', e(CONSERVATIVE_RASTERIZATION_MODE)),
];

/** The D3D12 structs a pipeline state stream holds (d3d12.h), in the DDI row model. */
export const PIPELINE_STRUCTS: readonly StructDef[] = [
  { name: 'D3D12_SHADER_BYTECODE', cli: 'shader-bytecode', fields: [f('pShaderBytecode', p({ kind: 'bytes', count: { field: 'BytecodeLength' } })), f('BytecodeLength', SIZE_T)] },
  {
    name: 'D3D12_SO_DECLARATION_ENTRY',
    cli: 'so-declaration-entry',
    fields: [
      f('Stream', UINT),
      f('SemanticName', p({ kind: 'cstring' })),
      f('SemanticIndex', UINT),
      f('StartComponent', UINT8),
      f('ComponentCount', UINT8),
      f('OutputSlot', UINT8),
    ],
  },
  {
    name: 'D3D12_STREAM_OUTPUT_DESC',
    cli: 'stream-output-desc',
    fields: [
      f('pSODeclaration', p({ kind: 'struct', struct: 'D3D12_SO_DECLARATION_ENTRY', count: { field: 'NumEntries' } })),
      f('NumEntries', UINT),
      f('pBufferStrides', p({ kind: 'uints', count: { field: 'NumStrides' } })),
      f('NumStrides', UINT),
      f('RasterizedStream', UINT),
    ],
  },
  {
    name: 'D3D12_RENDER_TARGET_BLEND_DESC',
    cli: 'render-target-blend-desc',
    fields: [
      f('BlendEnable', BOOL),
      f('LogicOpEnable', BOOL),
      f('SrcBlend', e(BLEND)),
      f('DestBlend', e(BLEND)),
      f('BlendOp', e(BLEND_OP)),
      f('SrcBlendAlpha', e(BLEND)),
      f('DestBlendAlpha', e(BLEND)),
      f('BlendOpAlpha', e(BLEND_OP)),
      f('LogicOp', e(LOGIC_OP)),
      f('RenderTargetWriteMask', { kind: 'flags', table: COLOR_WRITE_ENABLE, size: 1 }),
    ],
  },
  {
    name: 'D3D12_BLEND_DESC',
    cli: 'blend-desc',
    fields: [f('AlphaToCoverageEnable', BOOL), f('IndependentBlendEnable', BOOL), f('RenderTarget', { kind: 'array', of: s('D3D12_RENDER_TARGET_BLEND_DESC'), count: 8 })],
  },
  { name: 'D3D12_RASTERIZER_DESC', cli: 'rasterizer-desc', fields: [...RASTER_HEAD(INT), f('MultisampleEnable', BOOL), f('AntialiasedLineEnable', BOOL), ...RASTER_TAIL] },
  { name: 'D3D12_RASTERIZER_DESC1', cli: 'rasterizer-desc1', fields: [...RASTER_HEAD(FLOAT), f('MultisampleEnable', BOOL), f('AntialiasedLineEnable', BOOL), ...RASTER_TAIL] },
  { name: 'D3D12_RASTERIZER_DESC2', cli: 'rasterizer-desc2', fields: [...RASTER_HEAD(FLOAT), f('LineRasterizationMode', e(LINE_RASTERIZATION_MODE)), ...RASTER_TAIL] },
  { name: 'D3D12_DEPTH_STENCILOP_DESC', cli: 'depth-stencilop-desc', fields: [...STENCIL_OPS] },
  { name: 'D3D12_DEPTH_STENCILOP_DESC1', cli: 'depth-stencilop-desc1', fields: [...STENCIL_OPS, f('StencilReadMask', UINT8), f('StencilWriteMask', UINT8)] },
  {
    name: 'D3D12_DEPTH_STENCIL_DESC',
    cli: 'depth-stencil-desc',
    fields: [...DEPTH_HEAD, f('StencilReadMask', UINT8), f('StencilWriteMask', UINT8), f('FrontFace', s('D3D12_DEPTH_STENCILOP_DESC')), f('BackFace', s('D3D12_DEPTH_STENCILOP_DESC'))],
  },
  {
    name: 'D3D12_DEPTH_STENCIL_DESC1',
    cli: 'depth-stencil-desc1',
    fields: [
      ...DEPTH_HEAD,
      f('StencilReadMask', UINT8),
      f('StencilWriteMask', UINT8),
      f('FrontFace', s('D3D12_DEPTH_STENCILOP_DESC')),
      f('BackFace', s('D3D12_DEPTH_STENCILOP_DESC')),
      f('DepthBoundsTestEnable', BOOL),
    ],
  },
  {
    name: 'D3D12_DEPTH_STENCIL_DESC2',
    cli: 'depth-stencil-desc2',
    fields: [...DEPTH_HEAD, f('FrontFace', s('D3D12_DEPTH_STENCILOP_DESC1')), f('BackFace', s('D3D12_DEPTH_STENCILOP_DESC1')), f('DepthBoundsTestEnable', BOOL)],
  },
  {
    name: 'D3D12_INPUT_ELEMENT_DESC',
    cli: 'input-element-desc',
    fields: [
      f('SemanticName', p({ kind: 'cstring' })),
      f('SemanticIndex', UINT),
      f('Format', FORMAT),
      f('InputSlot', UINT),
      f('AlignedByteOffset', UINT),
      f('InputSlotClass', e(INPUT_CLASSIFICATION)),
      f('InstanceDataStepRate', UINT),
    ],
  },
  {
    name: 'D3D12_INPUT_LAYOUT_DESC',
    cli: 'input-layout-desc',
    fields: [f('pInputElementDescs', p({ kind: 'struct', struct: 'D3D12_INPUT_ELEMENT_DESC', count: { field: 'NumElements' } })), f('NumElements', UINT)],
  },
  { name: 'D3D12_RT_FORMAT_ARRAY', cli: 'rt-format-array', fields: [f('RTFormats', { kind: 'array', of: FORMAT, count: 8 }), f('NumRenderTargets', UINT)] },
  { name: 'DXGI_SAMPLE_DESC', cli: 'sample-desc', fields: [f('Count', UINT), f('Quality', UINT)] },
  { name: 'D3D12_CACHED_PIPELINE_STATE', cli: 'cached-pipeline-state', fields: [f('pCachedBlob', p({ kind: 'bytes', count: { field: 'CachedBlobSizeInBytes' } })), f('CachedBlobSizeInBytes', SIZE_T)] },
  { name: 'D3D12_VIEW_INSTANCE_LOCATION', cli: 'view-instance-location', fields: [f('ViewportArrayIndex', UINT), f('RenderTargetArrayIndex', UINT)] },
  {
    name: 'D3D12_VIEW_INSTANCING_DESC',
    cli: 'view-instancing-desc',
    fields: [
      f('ViewInstanceCount', UINT),
      f('pViewInstanceLocations', p({ kind: 'struct', struct: 'D3D12_VIEW_INSTANCE_LOCATION', count: { field: 'ViewInstanceCount' } })),
      f('Flags', fl(VIEW_INSTANCING_FLAGS)),
    ],
  },
  {
    name: 'D3D12_SERIALIZED_ROOT_SIGNATURE_DESC',
    cli: 'serialized-root-signature-desc',
    fields: [f('pSerializedBlob', p({ kind: 'bytes', count: { field: 'SerializedBlobSizeInBytes' } })), f('SerializedBlobSizeInBytes', SIZE_T)],
  },
];

/** What a subobject holds. */
export type SubobjectInner = FieldType;

/**
 * One D3D12_PIPELINE_STATE_SUBOBJECT_TYPE: the CD3DX12 type of d3dx12.h, what it holds, its key in
 * the pipeline JSON form (the D3D12_*_PIPELINE_STATE_DESC field name where there is one) and the
 * default CD3DX12 gives it (JSON form; absent: zero-initialized).
 */
export interface SubobjectRow {
  readonly type: string;
  /** The CD3DX12_PIPELINE_STATE_STREAM_* typedef where it is not CD3DX12_PIPELINE_STATE_STREAM_<type> (subobjectStructName). */
  readonly cpp?: string;
  readonly inner: SubobjectInner;
  readonly key: string;
  /** The shader stage it holds (the bytecode subobjects). */
  readonly stage?: 'VS' | 'PS' | 'DS' | 'HS' | 'GS' | 'AS' | 'MS' | 'CS';
  readonly default?: unknown;
  /** Types that set the same pipeline state (only one of a group may appear). */
  readonly group?: string;
}

const RT_BLEND_DEFAULT = {
  BlendEnable: 0, LogicOpEnable: 0, SrcBlend: 'ONE', DestBlend: 'ZERO', BlendOp: 'ADD', SrcBlendAlpha: 'ONE', DestBlendAlpha: 'ZERO', BlendOpAlpha: 'ADD', LogicOp: 'NOOP',
  RenderTargetWriteMask: ['RED', 'GREEN', 'BLUE', 'ALPHA'],
};
const STENCIL_OP_DEFAULT = { StencilFailOp: 'KEEP', StencilDepthFailOp: 'KEEP', StencilPassOp: 'KEEP', StencilFunc: 'ALWAYS' };
const DEPTH_DEFAULT = { DepthEnable: 1, DepthWriteMask: 'ALL', DepthFunc: 'LESS', StencilEnable: 0 };
const RASTER_DEFAULT = { FillMode: 'SOLID', CullMode: 'BACK', FrontCounterClockwise: 0, DepthBias: 0, DepthBiasClamp: 0, SlopeScaledDepthBias: 0, DepthClipEnable: 1 };
const RASTER_DEFAULT_TAIL = { ForcedSampleCount: 0, ConservativeRaster: 'OFF' };
/** D3D12_RASTERIZER_DESC and _DESC1 (the same fields, DepthBias INT or FLOAT). */
const RASTER_DESC_DEFAULT = { ...RASTER_DEFAULT, MultisampleEnable: 0, AntialiasedLineEnable: 0, ...RASTER_DEFAULT_TAIL };
/** D3D12_DEPTH_STENCIL_DESC (and _DESC1's fields before DepthBoundsTestEnable). */
const DEPTH_DESC_DEFAULT = { ...DEPTH_DEFAULT, StencilReadMask: 0xff, StencilWriteMask: 0xff, FrontFace: STENCIL_OP_DEFAULT, BackFace: STENCIL_OP_DEFAULT };
const BYTECODE = s('D3D12_SHADER_BYTECODE');
const shader = (type: SubobjectRow['stage'] & string): SubobjectRow => ({ type, inner: BYTECODE, key: type, stage: type });

export const SUBOBJECTS: readonly SubobjectRow[] = [
  { type: 'ROOT_SIGNATURE', inner: { kind: 'interface' }, key: 'ID3D12RootSignature', group: 'root signature' },
  shader('VS'),
  shader('PS'),
  shader('DS'),
  shader('HS'),
  shader('GS'),
  shader('CS'),
  { type: 'STREAM_OUTPUT', inner: s('D3D12_STREAM_OUTPUT_DESC'), key: 'StreamOutput' },
  { type: 'BLEND', cpp: 'CD3DX12_PIPELINE_STATE_STREAM_BLEND_DESC', inner: s('D3D12_BLEND_DESC'), key: 'BlendState', default: { AlphaToCoverageEnable: 0, IndependentBlendEnable: 0, RenderTarget: Array.from({ length: 8 }, () => RT_BLEND_DEFAULT) } },
  { type: 'SAMPLE_MASK', inner: UINT, key: 'SampleMask', default: 0xffffffff },
  { type: 'RASTERIZER', inner: s('D3D12_RASTERIZER_DESC'), key: 'RasterizerState', group: 'rasterizer', default: RASTER_DESC_DEFAULT },
  { type: 'DEPTH_STENCIL', inner: s('D3D12_DEPTH_STENCIL_DESC'), key: 'DepthStencilState', group: 'depth stencil', default: DEPTH_DESC_DEFAULT },
  { type: 'INPUT_LAYOUT', inner: s('D3D12_INPUT_LAYOUT_DESC'), key: 'InputLayout' },
  { type: 'IB_STRIP_CUT_VALUE', inner: e(INDEX_BUFFER_STRIP_CUT_VALUE), key: 'IBStripCutValue' },
  { type: 'PRIMITIVE_TOPOLOGY', inner: e(PRIMITIVE_TOPOLOGY_TYPE), key: 'PrimitiveTopologyType' },
  { type: 'RENDER_TARGET_FORMATS', inner: s('D3D12_RT_FORMAT_ARRAY'), key: 'RTVFormats' },
  { type: 'DEPTH_STENCIL_FORMAT', inner: FORMAT, key: 'DSVFormat' },
  { type: 'SAMPLE_DESC', inner: s('DXGI_SAMPLE_DESC'), key: 'SampleDesc', default: { Count: 1, Quality: 0 } },
  { type: 'NODE_MASK', inner: UINT, key: 'NodeMask' },
  { type: 'CACHED_PSO', inner: s('D3D12_CACHED_PIPELINE_STATE'), key: 'CachedPSO' },
  { type: 'FLAGS', inner: fl(PIPELINE_STATE_FLAGS), key: 'Flags' },
  { type: 'DEPTH_STENCIL1', inner: s('D3D12_DEPTH_STENCIL_DESC1'), key: 'DepthStencilState1', group: 'depth stencil', default: { ...DEPTH_DESC_DEFAULT, DepthBoundsTestEnable: 0 } },
  { type: 'VIEW_INSTANCING', inner: s('D3D12_VIEW_INSTANCING_DESC'), key: 'ViewInstancingDesc', default: { ViewInstanceCount: 0, pViewInstanceLocations: null, Flags: [] } },
  shader('AS'),
  shader('MS'),
  {
    type: 'DEPTH_STENCIL2',
    inner: s('D3D12_DEPTH_STENCIL_DESC2'),
    key: 'DepthStencilState2',
    group: 'depth stencil',
    default: { ...DEPTH_DEFAULT, FrontFace: { ...STENCIL_OP_DEFAULT, StencilReadMask: 0xff, StencilWriteMask: 0xff }, BackFace: { ...STENCIL_OP_DEFAULT, StencilReadMask: 0xff, StencilWriteMask: 0xff }, DepthBoundsTestEnable: 0 },
  },
  { type: 'RASTERIZER1', inner: s('D3D12_RASTERIZER_DESC1'), key: 'RasterizerState1', group: 'rasterizer', default: RASTER_DESC_DEFAULT },
  { type: 'RASTERIZER2', inner: s('D3D12_RASTERIZER_DESC2'), key: 'RasterizerState2', group: 'rasterizer', default: { ...RASTER_DEFAULT, LineRasterizationMode: 'ALIASED', ...RASTER_DEFAULT_TAIL } },
  { type: 'SERIALIZED_ROOT_SIGNATURE', inner: s('D3D12_SERIALIZED_ROOT_SIGNATURE_DESC'), key: 'pRootSignature', group: 'root signature' },
];

/** The struct of a subobject type's stream element: `alignas(void*) { Type; Inner; }` (d3dx12.h). */
export const subobjectStructName = (type: string): string => `CD3DX12_PIPELINE_STATE_STREAM_${type}`;

/** Stream element structs, one per row, and the stream description itself. */
export const STREAM_STRUCTS: readonly StructDef[] = [
  ...SUBOBJECTS.map((row): StructDef => ({
    name: subobjectStructName(row.type),
    cli: `stream-${row.type.toLowerCase().replace(/_/g, '-')}`,
    align: 'pointer',
    fields: [f('Type', e(PIPELINE_STATE_SUBOBJECT_TYPE)), f('Inner', row.inner)],
  })),
  {
    name: 'D3D12_PIPELINE_STATE_STREAM_DESC',
    cli: 'pipeline-state-stream-desc',
    fields: [
      f('SizeInBytes', SIZE_T),
      {
        name: 'pPipelineStateSubobjectStream',
        type: p({ kind: 'stream', size: { field: 'SizeInBytes' }, by: 'Type', cases: Object.fromEntries(SUBOBJECTS.map((r) => [enumerator(PIPELINE_STATE_SUBOBJECT_TYPE, r.type), subobjectStructName(r.type)])) }),
      },
    ],
  },
];

/** D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT. */
export const SIMULTANEOUS_RENDER_TARGET_COUNT = 8;

/**
 * Shader records of a local root signature (DirectX Raytracing, docs/formats/pipeline.md): the
 * shader identifier, then one root argument per parameter in order, each at a multiple of its
 * alignment; the table's stride a multiple of D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT.
 */
export const SHADER_RECORD = {
  /** D3D12_SHADER_IDENTIFIER_SIZE_IN_BYTES. */
  identifierSize: 32,
  /** D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT. */
  recordAlignment: 32,
  /** D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE. */
  maxStride: 4096,
} as const;

/** The root argument of each D3D12_ROOT_PARAMETER_TYPE in a shader record: bytes (per 32-bit value for constants), alignment, what it holds. */
export const SHADER_RECORD_ARGUMENTS: Readonly<Record<string, { readonly size: number; readonly perValue?: true; readonly align: number; readonly holds: string }>> = {
  DESCRIPTOR_TABLE: { size: 8, align: 8, holds: 'D3D12_GPU_DESCRIPTOR_HANDLE' },
  '32BIT_CONSTANTS': { size: 4, perValue: true, align: 4, holds: '32-bit constants' },
  CBV: { size: 8, align: 8, holds: 'D3D12_GPU_VIRTUAL_ADDRESS' },
  SRV: { size: 8, align: 8, holds: 'D3D12_GPU_VIRTUAL_ADDRESS' },
  UAV: { size: 8, align: 8, holds: 'D3D12_GPU_VIRTUAL_ADDRESS' },
};
