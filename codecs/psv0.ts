/**
 * PSV0 (pipeline state validation) part of DXIL containers: one row per fact (docs/formats/psv0.md).
 * Every fixed-layout record (runtime info 0-4, the stage views of its union, resource bind info
 * 0/1, signature elements) is rows of codecs/rows.ts, read and written by src/rows/record.ts;
 * src/shader/psv0.ts walks the framing between them (the u32 sizes and counts, the string and
 * semantic-index tables, the dependency blocks).
 */
import { enumTable } from './enum-table.js';
import { record, versioned, type Field, type RecordDef } from './rows.js';

/** PSV versions and the sizes they imply; the version is never stored (inferred from the sizes). */
export const PSV_VERSIONS = [
  { version: 0, runtimeInfoSize: 24, resourceSize: 16, validator: '< 1.1' },
  { version: 1, runtimeInfoSize: 36, resourceSize: 16, validator: '1.1-1.5' },
  { version: 2, runtimeInfoSize: 48, resourceSize: 24, validator: '1.6-1.7' },
  { version: 3, runtimeInfoSize: 52, resourceSize: 24, validator: '1.8-1.9' },
  { version: 4, runtimeInfoSize: 56, resourceSize: 24, validator: '>= 1.10' },
] as const;
export type PsvVersion = (typeof PSV_VERSIONS)[number]['version'];

/** Smallest sizes a reader accepts (DXC's reader). */
export const PSV_MIN_SIZE = { runtimeInfo: 24, resource: 16, element: 16 } as const;
/** Runtime info of this size or more has the string table, index table, elements and dependency data. */
export const PSV_SIGNATURES_FROM_SIZE = 36;

/** Shader kinds (DXIL::ShaderKind; PSV byte 24 and the DXIL program header's upper 16 bits). */
export const SHADER_KIND = enumTable('DXIL::ShaderKind', '', [
  ['Pixel', 0],
  ['Vertex', 1],
  ['Geometry', 2],
  ['Hull', 3],
  ['Domain', 4],
  ['Compute', 5],
  ['Library', 6],
  ['RayGeneration', 7],
  ['Intersection', 8],
  ['AnyHit', 9],
  ['ClosestHit', 10],
  ['Miss', 11],
  ['Callable', 12],
  ['Mesh', 13],
  ['Amplification', 14],
  ['Node', 15],
  ['Invalid', 16],
]);

/** PSVResourceType. */
export const PSV_RESOURCE_TYPE = enumTable('PSVResourceType', '', [
  ['Invalid', 0],
  ['Sampler', 1],
  ['CBV', 2],
  ['SRVTyped', 3],
  ['SRVRaw', 4],
  ['SRVStructured', 5],
  ['UAVTyped', 6],
  ['UAVRaw', 7],
  ['UAVStructured', 8],
  ['UAVStructuredWithCounter', 9],
]);

/** PSVResourceKind (DXIL::ResourceKind). */
export const PSV_RESOURCE_KIND = enumTable('PSVResourceKind', '', [
  ['Invalid', 0],
  ['Texture1D', 1],
  ['Texture2D', 2],
  ['Texture2DMS', 3],
  ['Texture3D', 4],
  ['TextureCube', 5],
  ['Texture1DArray', 6],
  ['Texture2DArray', 7],
  ['Texture2DMSArray', 8],
  ['TextureCubeArray', 9],
  ['TypedBuffer', 10],
  ['RawBuffer', 11],
  ['StructuredBuffer', 12],
  ['CBuffer', 13],
  ['Sampler', 14],
  ['TBuffer', 15],
  ['RTAccelerationStructure', 16],
  ['FeedbackTexture2D', 17],
  ['FeedbackTexture2DArray', 18],
]);

/** PSVSemanticKind. */
export const PSV_SEMANTIC_KIND = enumTable('PSVSemanticKind', '', [
  ['Arbitrary', 0], ['VertexID', 1], ['InstanceID', 2], ['Position', 3], ['RenderTargetArrayIndex', 4],
  ['ViewPortArrayIndex', 5], ['ClipDistance', 6], ['CullDistance', 7], ['OutputControlPointID', 8],
  ['DomainLocation', 9], ['PrimitiveID', 10], ['GSInstanceID', 11], ['SampleIndex', 12], ['IsFrontFace', 13],
  ['Coverage', 14], ['InnerCoverage', 15], ['Target', 16], ['Depth', 17], ['DepthLessEqual', 18],
  ['DepthGreaterEqual', 19], ['StencilRef', 20], ['DispatchThreadID', 21], ['GroupID', 22], ['GroupIndex', 23],
  ['GroupThreadID', 24], ['TessFactor', 25], ['InsideTessFactor', 26], ['ViewID', 27], ['Barycentrics', 28],
  ['ShadingRate', 29], ['CullPrimitive', 30], ['Invalid', 31],
]);

/** A PSV row: a field of the one row vocabulary (codecs/rows.ts) with the first PSV version that stores it. */
type PsvField = Field & { readonly since: PsvVersion };
const u8 = 'u8' as const;
const u16 = 'u16' as const;
const u32 = 'u32' as const;

/**
 * Runtime-info rows (PSVRuntimeInfo0-4) outside the 16-byte stage union (offsets 0-15) and the
 * stage-dependent u16 at 26 (both in PSV_STAGE_VIEWS). Offsets are from the runtime info's start.
 */
export const PSV_RUNTIME_INFO_FIELDS: readonly PsvField[] = [
  { key: 'minimumWaveLaneCount', at: 16, type: u32, since: 0 },
  { key: 'maximumWaveLaneCount', at: 20, type: u32, since: 0 },
  { key: 'shaderStage', at: 24, type: { enum: SHADER_KIND, width: u8 }, since: 1 },
  { key: 'usesViewID', at: 25, type: u8, since: 1 },
  { key: 'sigInputElements', at: 28, type: u8, since: 1 },
  { key: 'sigOutputElements', at: 29, type: u8, since: 1 },
  { key: 'sigPatchConstOrPrimElements', at: 30, type: u8, since: 1 },
  { key: 'sigInputVectors', at: 31, type: u8, since: 1 },
  { key: 'sigOutputVectors0', at: 32, type: u8, since: 1 },
  { key: 'sigOutputVectors1', at: 33, type: u8, since: 1 },
  { key: 'sigOutputVectors2', at: 34, type: u8, since: 1 },
  { key: 'sigOutputVectors3', at: 35, type: u8, since: 1 },
  { key: 'numThreadsX', at: 36, type: u32, since: 2 },
  { key: 'numThreadsY', at: 40, type: u32, since: 2 },
  { key: 'numThreadsZ', at: 44, type: u32, since: 2 },
  /** Offset into the string table. */
  { key: 'entryFunctionName', at: 48, type: u32, since: 3 },
  { key: 'numBytesGroupSharedMemory', at: 52, type: u32, since: 4 },
];

/** The runtime info each version stores, indexed by version (its size is the version's). */
export const PSV_RUNTIME_INFO: readonly RecordDef[] = PSV_VERSIONS.map((v) => versioned(`PSVRuntimeInfo${v.version}`, v.runtimeInfoSize, PSV_RUNTIME_INFO_FIELDS, v.version));

/** Bytes of a stage view: the 16-byte union and, from v1, the u16 at 26 (26-27). */
const stageViewSize = (v: PsvVersion) => (v >= 1 ? 28 : 16);
const stageView = (stages: readonly number[], name: string, fields: readonly PsvField[]) => ({
  stages,
  fields,
  records: PSV_VERSIONS.map((v) => versioned(name, stageViewSize(v.version), fields, v.version)),
});

/**
 * Stage views of the union (runtime-info bytes 0-15) and of the u16 at 26 (v1+). Every byte not
 * named by the stage's view is written as zero by DXC; a decoder that finds other bytes keeps
 * the union raw (`stageRaw`). `records[v]` is the view as version v stores it.
 */
export const PSV_STAGE_VIEWS: readonly { readonly stages: readonly number[]; readonly fields: readonly PsvField[]; readonly records: readonly RecordDef[] }[] = [
  stageView([1], 'VSInfo', [{ key: 'outputPositionPresent', at: 0, type: u8, since: 0 }]),
  stageView([3], 'HSInfo', [
    { key: 'inputControlPointCount', at: 0, type: u32, since: 0 },
    { key: 'outputControlPointCount', at: 4, type: u32, since: 0 },
    { key: 'tessellatorDomain', at: 8, type: u32, since: 0 },
    { key: 'tessellatorOutputPrimitive', at: 12, type: u32, since: 0 },
    { key: 'sigPatchConstOrPrimVectors', at: 26, type: u8, since: 1 },
  ]),
  stageView([4], 'DSInfo', [
    { key: 'inputControlPointCount', at: 0, type: u32, since: 0 },
    { key: 'outputPositionPresent', at: 4, type: u8, since: 0 },
    { key: 'tessellatorDomain', at: 8, type: u32, since: 0 },
    { key: 'sigPatchConstOrPrimVectors', at: 26, type: u8, since: 1 },
  ]),
  stageView([2], 'GSInfo', [
    { key: 'inputPrimitive', at: 0, type: u32, since: 0 },
    { key: 'outputTopology', at: 4, type: u32, since: 0 },
    { key: 'outputStreamMask', at: 8, type: u32, since: 0 },
    { key: 'outputPositionPresent', at: 12, type: u8, since: 0 },
    { key: 'maxVertexCount', at: 26, type: u16, since: 1 },
  ]),
  stageView([0], 'PSInfo', [
    { key: 'depthOutput', at: 0, type: u8, since: 0 },
    { key: 'sampleFrequency', at: 1, type: u8, since: 0 },
  ]),
  stageView([13], 'MSInfo', [
    { key: 'groupSharedBytesUsed', at: 0, type: u32, since: 0 },
    { key: 'groupSharedBytesDependentOnViewID', at: 4, type: u32, since: 0 },
    { key: 'payloadSizeInBytes', at: 8, type: u32, since: 0 },
    { key: 'maxOutputVertices', at: 12, type: u16, since: 0 },
    { key: 'maxOutputPrimitives', at: 14, type: u16, since: 0 },
    { key: 'sigPatchConstOrPrimVectors', at: 26, type: u8, since: 1 },
    { key: 'meshOutputTopology', at: 27, type: u8, since: 1 },
  ]),
  stageView([14], 'ASInfo', [{ key: 'payloadSizeInBytes', at: 0, type: u32, since: 0 }]),
];

/** Resource record rows (PSVResourceBindInfo0, 16 bytes; PSVResourceBindInfo1 adds kind and flags, 24 bytes, PSV 2+). */
export const PSV_RESOURCE_FIELDS: readonly PsvField[] = [
  { key: 'resType', at: 0, type: { enum: PSV_RESOURCE_TYPE, width: u32 }, since: 0 },
  { key: 'space', at: 4, type: u32, since: 0 },
  { key: 'lowerBound', at: 8, type: u32, since: 0 },
  { key: 'upperBound', at: 12, type: u32, since: 0 },
  { key: 'resKind', at: 16, type: { enum: PSV_RESOURCE_KIND, width: u32 }, since: 2 },
  { key: 'resFlags', at: 20, type: u32, since: 2 },
];
export const PSV_RESOURCE_0 = versioned('PSVResourceBindInfo0', 16, PSV_RESOURCE_FIELDS, 0);
export const PSV_RESOURCE_1 = versioned('PSVResourceBindInfo1', 24, PSV_RESOURCE_FIELDS, 2);
/** The resource record a stored record size holds (the newest that fits; the rest is the record's tail). */
export const psvResourceRecord = (size: number): RecordDef => (size >= PSV_RESOURCE_1.size ? PSV_RESOURCE_1 : PSV_RESOURCE_0);

/** Signature element (PSVSignatureElement0, 16 bytes); every bit of the 16 bytes belongs to one row. */
export const PSV_ELEMENT = record('PSVSignatureElement0', 16, [
  /** Offset into the string table. */
  { key: 'semanticName', at: 0, type: u32 },
  /** Index into the semantic index table. */
  { key: 'semanticIndexes', at: 4, type: u32 },
  { key: 'rows', at: 8, type: u8 },
  { key: 'startRow', at: 9, type: u8 },
  {
    key: 'colsAndStart',
    at: 10,
    type: { packed: u8, subfields: [{ key: 'cols', shift: 0, width: 4 }, { key: 'startCol', shift: 4, width: 2 }, { key: 'allocated', shift: 6, width: 1 }, { key: 'reserved10', shift: 7, width: 1 }] },
  },
  { key: 'semanticKind', at: 11, type: { enum: PSV_SEMANTIC_KIND, width: u8 } },
  { key: 'componentType', at: 12, type: u8 },
  { key: 'interpolationMode', at: 13, type: u8 },
  {
    key: 'dynamicMaskAndStream',
    at: 14,
    type: { packed: u8, subfields: [{ key: 'dynamicIndexMask', shift: 0, width: 4 }, { key: 'outputStream', shift: 4, width: 2 }, { key: 'reserved14', shift: 6, width: 2 }] },
  },
  { key: 'reserved15', at: 15, type: u8 },
]);
export const PSV_ELEMENT_SIZE = PSV_ELEMENT.size;


/**
 * Dependency blocks (ViewID masks and input->output tables), in the order they are stored.
 * `rows` and `cols` name vector counts: a block is rows x 4 masks of dw(cols) dwords (masks: 1 row
 * of dw(cols), `rows` = null). `streams`: stored per GS stream (0..3) or once.
 */
export const PSV_DEPENDENCY_BLOCKS = [
  { key: 'viewIdOutputMask', needsViewId: true, stages: 'all-but-none', rows: null, cols: 'output', perStream: true },
  { key: 'viewIdPatchConstOrPrimMask', needsViewId: true, stages: [3, 13], rows: null, cols: 'patchConst', perStream: false },
  { key: 'inputToOutput', needsViewId: false, stages: 'not-mesh', rows: 'input', cols: 'output', perStream: true },
  { key: 'inputToPatchConst', needsViewId: false, stages: [3], rows: 'input', cols: 'patchConst', perStream: false },
  { key: 'patchConstToOutput', needsViewId: false, stages: [4], rows: 'patchConst', cols: 'output', perStream: false },
] as const;

/** PSV resource type -> register class (range-type numbering: 0 SRV, 1 UAV, 2 CBV, 3 Sampler). */
export const PSV_RESOURCE_CLASS: Readonly<Record<number, number>> = { 1: 3, 2: 2, 3: 0, 4: 0, 5: 0, 6: 1, 7: 1, 8: 1, 9: 1 };
