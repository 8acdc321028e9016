/**
 * The inspector's one state object: what is loaded and where the hex cursor and selection stand.
 * Every panel reads and writes it here; nothing else holds page state.
 */
import type { ParsedContainer, RootSignatureSource } from '../src/index.js';
import type { QUERY_TYPES } from '../src/query/index.js';
import type { ByteMap } from '../src/inspect/index.js';
import type { SpanIndex } from './tools.js';
import type { VirtualTree } from './virtual.js';

/** The loaded input and what was read from it. */
export interface Loaded {
  name: string;
  bytes: Uint8Array;
  map?: ByteMap;
  /** The map indexed once (parents, children, leaves by offset). */
  index?: SpanIndex;
  /** Span by path, made when the root signature tree first needs it. */
  byPath?: Map<string, number>;
  container?: ParsedContainer;
  source?: RootSignatureSource;
  /** A query buffer: its type, whole results, and those results' bytes (rows are decoded as they are drawn). */
  query?: { type: (typeof QUERY_TYPES)[number]; count: number; usable: Uint8Array; durations?: { ns: Float64Array; flags: Uint8Array; count: number; pairs: boolean } };
  /** Read as a query buffer (even if that failed, so changing an option reads it again). */
  queryAttempt?: boolean;
}

export const state = {
  current: undefined as Loaded | undefined,
  /** Loads so far (body[data-loads]); deferred work of an older load stops. */
  loads: 0,
  /** The selected bytes [from, to); `anchor` is where a Shift-extended selection started. */
  selection: undefined as { from: number; to: number } | undefined,
  anchor: 0,
  /** The hex view's cursor (a byte offset). */
  cursor: 0,
  converted: undefined as { bytes: Uint8Array; name: string } | undefined,
  /** The two trees, made by start(). */
  byteTree: undefined as unknown as VirtualTree,
  rsTree: undefined as unknown as VirtualTree,
  /** Milliseconds per step of the last load (shown as body[data-render-steps] for the benchmark). */
  steps: [] as string[],
  stepAt: 0,
  /** Writes the JSON text of the loaded root signature when its section is opened. */
  jsonPending: undefined as (() => void) | undefined,
};

/** Records how long the step since the last lap took. */
export function lap(what: string): void {
  const now = performance.now();
  state.steps.push(`${what} ${(now - state.stepAt).toFixed(0)}`);
  state.stepAt = now;
}
