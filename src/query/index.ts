/**
 * `dxbin/query`: resolved query results (ResolveQueryData output): exact decode and encode, bulk
 * resolve on WebAssembly kernels (SIMD, scalar) or plain JS, and the query type table.
 *
 * @module dxbin/query
 */
/** ResolveQueryData's destination offset alignment (bytes). */
export { RESOLVE_OFFSET_ALIGNMENT } from '../../codecs/query.js';
export { QUERY_TYPES, DURATION_FLAGS, RESULT_STRUCTS, type QueryType, type ResultField, type ResultStruct, type CommandListType } from '../../codecs/query.js';
export { queryType, type RecordRange } from './types.js';
export { decodeQueryResult, decodeQueryResults, encodeQueryResults, toFloat64, type QueryColumns } from './decode.js';
export {
  timestampDurations,
  summarizeDurations,
  sumQueryResults,
  deltaQueryResults,
  soOverflow,
  occlusionToBinary,
  gatherVirtualQueries,
  packQueryMap,
  type Durations,
  type DurationOptions,
  type DurationSummary,
  type QueryMapEntry,
} from './resolve.js';
export { kernels, activeKernels, selectKernels, kernelsAvailable, kernelsUnavailableReason } from './kernels/loader.js';
export type { QueryKernels, KernelName } from './kernels/api.js';
export { WasmKernels, type WasmBuffer } from './kernels/wasm.js';

/** Names `--type` accepts, as the CLI spells them (`timestamp`, `so-statistics-stream0`, ...). */
export { queryTypeNames } from './types.js';
