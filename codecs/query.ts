/**
 * D3D12 query results as ResolveQueryData writes them (docs/formats/query-results.md): query and heap
 * types, which heap and command list each query needs, and every result struct's fields.
 * Every result struct has the same layout on x86 and x64 (8-byte aligned, no pointers).
 */
import { enumTable } from './enum-table.js';
import type { Field, RecordDef } from './rows.js';

/** A result field as the bulk kernels read it (derived from the struct's rows). */
export interface ResultField {
  readonly name: string;
  readonly offset: number;
  /** 8 (UINT64) or 4 (UINT). */
  readonly size: 4 | 8;
}

/** The layout of one query result as ResolveQueryData writes it: its C name, size and fields. */
export interface ResultStruct {
  readonly name: string;
  readonly size: number;
  /** The struct as rows of codecs/rows.ts (read, written, mapped by src/rows/record.ts). */
  readonly record: RecordDef;
  /** The rows' fields for the bulk kernels: name, offset, size. */
  readonly fields: readonly ResultField[];
  /** Byte ranges with no field (the rows' reserved fields): ignored on decode, written as zero on encode. */
  readonly padding: readonly { offset: number; size: number }[];
}

export const VIDEO_DECODE_STATUS = enumTable('D3D12_VIDEO_DECODE_STATUS', 'D3D12_VIDEO_DECODE_STATUS_', [
  ['OK', 0], ['CONTINUE', 1], ['CONTINUE_SKIP_DISPLAY', 2], ['RESTART', 3], ['RATE_EXCEEDED', 4],
]);

const u64 = (key: string, at: number): Field => ({ key, type: 'u64', at });
const u32 = (key: string, at: number): Field => ({ key, type: 'u32', at });

/** A result struct from its rows (one row per field; padding is a reserved row). */
function struct(name: string, size: number, fields: readonly Field[]): ResultStruct {
  const width = (f: Field): 4 | 8 => (f.type === 'u32' ? 4 : 8);
  return {
    name,
    size,
    record: { name, size, fields },
    fields: fields.filter((f) => !f.reserved).map((f) => ({ name: f.key, offset: f.at as number, size: width(f) })),
    padding: fields.filter((f) => f.reserved).map((f) => ({ offset: f.at as number, size: width(f) })),
  };
}

const PIPELINE_STATISTICS_FIELDS = [
  'IAVertices', 'IAPrimitives', 'VSInvocations', 'GSInvocations', 'GSPrimitives', 'CInvocations',
  'CPrimitives', 'PSInvocations', 'HSInvocations', 'DSInvocations', 'CSInvocations',
].map((n, i) => u64(n, i * 8));

/** Every query result layout, by the short name QUERY_TYPES rows use. */
export const RESULT_STRUCTS = {
  UINT64: struct('UINT64', 8, [u64('Value', 0)]),
  PIPELINE_STATISTICS: struct('D3D12_QUERY_DATA_PIPELINE_STATISTICS', 88, PIPELINE_STATISTICS_FIELDS),
  PIPELINE_STATISTICS1: struct('D3D12_QUERY_DATA_PIPELINE_STATISTICS1', 112, [...PIPELINE_STATISTICS_FIELDS, u64('ASInvocations', 88), u64('MSInvocations', 96), u64('MSPrimitives', 104)]),
  SO_STATISTICS: struct('D3D12_QUERY_DATA_SO_STATISTICS', 16, [u64('NumPrimitivesWritten', 0), u64('PrimitivesStorageNeeded', 8)]),
  VIDEO_DECODE_STATISTICS: struct('D3D12_QUERY_DATA_VIDEO_DECODE_STATISTICS', 32, [
    { key: 'Status', type: { enum: VIDEO_DECODE_STATUS, width: 'u64' }, at: 0 },
    u64('NumMacroblocksAffected', 8),
    u32('FrameRate.Numerator', 16),
    u32('FrameRate.Denominator', 20),
    u32('BitRate', 24),
    { key: 'padding', type: 'u32', at: 28, reserved: true },
  ]),
} as const satisfies Record<string, ResultStruct>;

/** A D3D12_COMMAND_LIST_TYPE a query type may be used on (D3D12_COMMAND_LIST_TYPE_ + this). */
export type CommandListType = 'DIRECT' | 'COMPUTE' | 'COPY' | 'VIDEO_DECODE';

/** One D3D12_QUERY_TYPE: its value and names, the result it resolves to, the heap types and command lists it works with. */
export interface QueryType {
  readonly value: number;
  /** D3D12_QUERY_TYPE_ + this. */
  readonly name: string;
  /** The CLI spelling. */
  readonly cli: string;
  readonly result: ResultStruct;
  /** Heap types (names from QUERY_HEAP_TYPE) the query may use. */
  readonly heapTypes: readonly string[];
  readonly commandLists: readonly CommandListType[];
  /** EndQuery only (no BeginQuery). */
  readonly endOnly: boolean;
}

/** Every D3D12_QUERY_TYPE, in value order. */
export const QUERY_TYPES: readonly QueryType[] = [
  { value: 0, name: 'OCCLUSION', cli: 'occlusion', result: RESULT_STRUCTS.UINT64, heapTypes: ['OCCLUSION'], commandLists: ['DIRECT'], endOnly: false },
  { value: 1, name: 'BINARY_OCCLUSION', cli: 'binary-occlusion', result: RESULT_STRUCTS.UINT64, heapTypes: ['OCCLUSION'], commandLists: ['DIRECT'], endOnly: false },
  // COPY_QUEUE_TIMESTAMP heaps only on copy queues with D3D12_FEATURE_DATA_D3D12_OPTIONS3::CopyQueueTimestampQueriesSupported
  { value: 2, name: 'TIMESTAMP', cli: 'timestamp', result: RESULT_STRUCTS.UINT64, heapTypes: ['TIMESTAMP', 'COPY_QUEUE_TIMESTAMP'], commandLists: ['DIRECT', 'COMPUTE', 'COPY'], endOnly: true },
  { value: 3, name: 'PIPELINE_STATISTICS', cli: 'pipeline-statistics', result: RESULT_STRUCTS.PIPELINE_STATISTICS, heapTypes: ['PIPELINE_STATISTICS'], commandLists: ['DIRECT'], endOnly: false },
  ...[0, 1, 2, 3].map((s) => ({
    value: 4 + s,
    name: `SO_STATISTICS_STREAM${s}`,
    cli: `so-statistics-stream${s}`,
    result: RESULT_STRUCTS.SO_STATISTICS,
    heapTypes: ['SO_STATISTICS'],
    commandLists: ['DIRECT'] as CommandListType[],
    endOnly: false,
  })),
  { value: 8, name: 'VIDEO_DECODE_STATISTICS', cli: 'video-decode-statistics', result: RESULT_STRUCTS.VIDEO_DECODE_STATISTICS, heapTypes: ['VIDEO_DECODE_STATISTICS'], commandLists: ['VIDEO_DECODE'], endOnly: true },
  // value 9 is not assigned; the documentation page that implies 9 is wrong (docs/formats/query-results.md).
  // Command list types for PIPELINE_STATISTICS1: Direct, inferred from PIPELINE_STATISTICS (docs/formats/query-results.md; a decision, docs/decisions.md).
  { value: 10, name: 'PIPELINE_STATISTICS1', cli: 'pipeline-statistics1', result: RESULT_STRUCTS.PIPELINE_STATISTICS1, heapTypes: ['PIPELINE_STATISTICS1'], commandLists: ['DIRECT'], endOnly: false },
];

export const QUERY_TYPE = /* @__PURE__ */ enumTable('D3D12_QUERY_TYPE', 'D3D12_QUERY_TYPE_', /* @__PURE__ */ QUERY_TYPES.map((q) => [q.name, q.value]));

export const QUERY_HEAP_TYPE = enumTable('D3D12_QUERY_HEAP_TYPE', 'D3D12_QUERY_HEAP_TYPE_', [
  ['OCCLUSION', 0], ['TIMESTAMP', 1], ['PIPELINE_STATISTICS', 2], ['SO_STATISTICS', 3], ['VIDEO_DECODE_STATISTICS', 4], ['COPY_QUEUE_TIMESTAMP', 5], ['PIPELINE_STATISTICS1', 7],
]);

/** NumMacroblocksAffected when the decoder cannot tell. */
export const MACROBLOCKS_AFFECTED_UNKNOWN = 0xffffffffffffffffn;

/** ResolveQueryData's AlignedDestinationBufferOffset must be a multiple of this. */
export const RESOLVE_OFFSET_ALIGNMENT = 8;

/** Flags the timestamp-duration operation sets per pair (bit values). */
export const DURATION_FLAGS = {
  /** A stamp is zero: the slot was never written (wine vkd3d and Windows tests resolve those as 0). */
  NOT_ISSUED: 1,
  /** end < begin: a stale slot (a pair not rewritten this frame) or a wrapped counter. */
  END_BEFORE_BEGIN: 2,
} as const;

/** One entry of vkd3d-proton's query map (12 bytes): dst_index, src_index, next (0xFFFFFFFF ends a chain). */
export const QUERY_MAP_ENTRY: RecordDef = { name: 'vkd3d_query_map_entry', size: 12, fields: [u32('dstIndex', 0), u32('srcIndex', 4), u32('next', 8)] };
export const QUERY_MAP_END = 0xffffffff;
