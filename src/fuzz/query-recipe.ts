/**
 * The query-resolve target's recipe (docs/fuzzing.md): byte 0 picks the bulk operation, bytes 1-5
 * build its arguments and options (offsets and counts at and past the edges, odd and fractional,
 * of the wrong type; misspelt keys; `out` views too small, misaligned, detached, shared with the
 * input or each other; query types by row, name, value or nothing like one; query maps packed or
 * as entries, some bad), and the rest are the results, placed at an alignment byte 5 chooses. The
 * call is made once per kernels (js, simd, scalar where this engine runs them, and the active ones
 * when the options have room for no key): the answers must be the same, a result or the same
 * error code and path. Mutation alone never makes these arguments: they are not bytes.
 */
import { QUERY_TYPES, type QueryType } from '../../codecs/query.js';
import { DxbinError } from '../bytes/errors.js';
import { decodeQueryResult, decodeQueryResults } from '../query/decode.js';
import { deltaQueryResults, gatherVirtualQueries, occlusionToBinary, packQueryMap, soOverflow, sumQueryResults, timestampDurations, type QueryMapEntry } from '../query/resolve.js';
import type { QueryKernels } from '../query/kernels/api.js';
import { kernels, kernelsAvailable } from '../query/kernels/loader.js';

/** The operations byte 0 picks, in its order. */
export const QUERY_OPERATIONS = ['timestampDurations', 'sumQueryResults', 'deltaQueryResults', 'soOverflow', 'occlusionToBinary', 'gatherVirtualQueries', 'packQueryMap', 'decodeQueryResults'] as const;

/** Where the kernels of one run go: a value of the `kernels` option, or none given. */
type KernelsArg = QueryKernels | undefined | { bad: unknown };

/** The kernels value a run hands the operation: the kernels, the bad value it stands for, or none. */
const kernelsValue = (k: KernelsArg): unknown => (k !== undefined && 'bad' in k ? k.bad : k);
const NONE = Symbol('none');

const detached = (bytes: number): Uint8Array => {
  const b = new ArrayBuffer(bytes);
  const view = new Uint8Array(b);
  structuredClone(b, { transfer: [b] });
  return view;
};

/** The bytes argument as a view the recipe may cut (an empty one for what is not a live Uint8Array). */
function usable(bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array)) return new Uint8Array();
  try {
    bytes.subarray(0);
    return bytes;
  } catch {
    return new Uint8Array(); // detached
  }
}

/** Offsets: aligned ones, odd, negative, fractional, past the end, not numbers (k: the body's length). */
const offsetPick = (p: number, k: number): unknown => [NONE, 0, 8, 16, 4, 3, -8, 1.5, NaN, '8', null, 2 ** 53, k - (k % 8), k + 8, Infinity, 24][p & 15];
/** Counts: small ones, one past what fits, negative, fractional, huge, not numbers (n: whole records in the body). */
const countPick = (p: number, n: number): unknown => [NONE, 0, 1, 2, n, n + 1, -1, 0.5, NaN, '1', null, 2 ** 31, 2 ** 53 + 2, Math.max(0, n - 1), 3, Infinity][(p >> 4) & 15];
/** Misspelt and unknown keys a range may carry. */
const STRAY_KEYS = ['ofset', 'Count', 'pair', 'into ', 'kernel', '__proto__x', 'constructor', 'heads'] as const;
/** Query types: rows, names (cli, D3D12_, lowercase), values, and what names none. */
function typePick(p: number): unknown {
  const q = QUERY_TYPES[p % QUERY_TYPES.length]!;
  switch ((p >> 4) & 7) {
    case 0:
    case 1:
      return q;
    case 2:
      return q.cli;
    case 3:
      return `D3D12_QUERY_TYPE_${q.name}`;
    case 4:
      return q.value;
    case 5:
      return ['nope', '', 99, -1, 1.5][p % 5];
    case 6:
      return [null, {}, { result: { size: 8, fields: [] }, name: 'fake' }, [], undefined][p % 5];
    default:
      return q.name.toLowerCase();
  }
}

/** One call of the recipe, its arguments made afresh for the kernels given. */
export interface QueryCall {
  operation: (typeof QUERY_OPERATIONS)[number];
  /** Whether the call takes a kernels option (each kernels run then); false: one run. */
  kernels: boolean;
  run(k: KernelsArg): unknown;
}

/** The body: the input after byte 5, at byteOffset `align` of its buffer (misaligned u64 views copied, or refused). */
function placed(data: Uint8Array, align: number): Uint8Array {
  const body = data.subarray(6);
  const buffer = new Uint8Array(align + body.byteLength);
  buffer.set(body, align);
  return buffer.subarray(align);
}

/** A range from bytes `a` (offset and count) and `b` (stray keys, odd forms), with `kernels` where the run puts it. */
function rangeOf(a: number, b: number, body: Uint8Array, size: number, k: KernelsArg, extra: Record<string, unknown> = {}): unknown {
  if ((b & 0xe0) === 0xe0) return [null, [], 8, 'range', true][b % 5];
  const r: Record<string, unknown> = { ...extra };
  const offset = offsetPick(a, body.byteLength);
  const n = Math.floor(Math.max(0, body.byteLength - (typeof offset === 'number' && offset > 0 ? offset : 0)) / size);
  const count = countPick(a, n);
  if (offset !== NONE) r.offset = offset;
  if (count !== NONE) r.count = count;
  if ((b & 0x18) === 0x18) r[STRAY_KEYS[b & 7]!] = (b & 4) !== 0;
  if (k !== undefined) r.kernels = kernelsValue(k);
  return r;
}

/** `out` for timestampDurations: fitting, too small, misaligned, detached, sharing bytes, of the wrong type (c picks). */
function outOf(c: number, body: Uint8Array): unknown {
  const n = Math.max(0, body.byteLength >> 3) + 2;
  const fresh = () => ({ ticks: new Uint8Array(8 * n), ns: new Uint8Array(8 * n), flags: new Uint8Array(n) });
  switch (c & 15) {
    case 1:
      return fresh();
    case 2: {
      const o = fresh();
      return { ...o, flags: new Uint8Array(0) };
    }
    case 3: {
      const big = new Uint8Array(8 * n + 4);
      return { ...fresh(), ticks: big.subarray(4) };
    }
    case 4:
      return { ...fresh(), ns: detached(8 * n) };
    case 5:
      return { ...fresh(), ticks: body.byteLength >= 8 && body.byteOffset % 8 === 0 ? body : body.subarray(0) };
    case 6: {
      const shared = new Uint8Array(16 * n + 8);
      return { ticks: shared.subarray(0, 8 * n), ns: shared.subarray(8, 8 + 8 * n), flags: new Uint8Array(n) };
    }
    case 7:
      return { ...fresh(), ns: new Float64Array(n) };
    case 8:
      return { ticks: new Uint8Array(8 * n), ns: new Uint8Array(8 * n) };
    case 9:
      return [fresh()];
    case 10:
      return { ...fresh(), flags: new Uint8Array(new SharedArrayBuffer(n)) };
    case 11:
      return { ...fresh(), ticks: new Uint8Array(0) };
    case 12:
      return { ...fresh(), extra: new Uint8Array(1) };
    case 13:
      return { ...fresh(), flags: detached(n) };
    default:
      return NONE;
  }
}

/** Query map entries from the body's u32s (3 each), some made wrong as c chooses. */
function entriesOf(body: Uint8Array, c: number): unknown[] {
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const small = c & 0x40 ? 1 : 16; // small indices (in range) most of the time
  const entries: unknown[] = [];
  for (let at = 0; at + 12 <= body.byteLength && entries.length < 64; at += 12) {
    const u = (k: number) => (small === 1 ? v.getUint32(at + k, true) : v.getUint32(at + k, true) % small);
    const next = v.getUint32(at + 8, true);
    entries.push({ dstIndex: u(0), srcIndex: u(4), next: next & 0x80000000 ? 0xffffffff : next % small });
  }
  const bad = c & 7;
  if (entries.length > 0 && (c & 0x80)) {
    const e = entries[bad % entries.length] as Record<string, unknown>;
    [() => (e.dstIndex = -1), () => (e.srcIndex = 1.5), () => delete e.next, () => (e.nxt = 0), () => (e.dstIndex = 2 ** 32), () => (entries[0] = null), () => (e.next = '0'), () => (entries[entries.length - 1] = [1, 2, 3])][bad]!();
  }
  return entries;
}

/** The count pick for heads and dstCount: small, at the map's size, past it, wrong (m: map entries). */
const headsPick = (p: number, m: number): unknown => [0, 1, m, Math.max(0, m - 1), m + 1, -1, 1.5, NaN, '1', undefined, 2 ** 28, 2, 3, m >> 1, null, 2 ** 53][p & 15];

/** The recipe as a call (see the module comment). */
export function queryCall(data: Uint8Array): QueryCall {
  const op = QUERY_OPERATIONS[(data[0] ?? 0) % QUERY_OPERATIONS.length]!;
  const [a = 0, b = 0, c = 0, d = 0, e = 0] = data.subarray(1, 6);
  // the bytes argument: the body placed at e's alignment, or (rarely) not a usable Uint8Array
  const bytesOf = (): unknown => {
    const body = placed(data, e & 7);
    switch ((e >> 3) & 31) {
      case 31:
        return detached(body.byteLength);
      case 30:
        return new Uint16Array(body.buffer, 0, body.buffer.byteLength >> 1);
      case 29:
        return body.buffer;
      case 28:
        return Array.from(body.subarray(0, 64));
      case 27: {
        const s = new Uint8Array(new SharedArrayBuffer(body.byteLength));
        s.set(body);
        return s;
      }
      default:
        return body;
    }
  };
  const kernelsIn = (k: KernelsArg, options: Record<string, unknown>) => {
    if (k !== undefined) options.kernels = kernelsValue(k);
    return options;
  };
  switch (op) {
    case 'timestampDurations':
      return {
        operation: op,
        kernels: true,
        run(k) {
          const bytes = bytesOf() as Uint8Array;
          const frequency = [1e9, 1, 0, -1, NaN, Infinity, 5e-324, 'fast', 3.579545e6, NONE, 1e300, 1e7][d % 12];
          const options = rangeOf(a, b, usable(bytes), 8, k) as Record<string, unknown>;
          if (typeof options !== 'object' || options === null || Array.isArray(options)) return timestampDurations(bytes, options as never);
          if (frequency !== NONE) options.frequency = frequency;
          const pairs = [NONE, true, false, NONE, 1, 'no', false, true][(d >> 4) & 7];
          if (pairs !== NONE) options.pairs = pairs;
          const out = outOf(c, usable(bytes));
          if (out !== NONE) options.out = out;
          return timestampDurations(bytes, options as never);
        },
      };
    case 'sumQueryResults':
    case 'soOverflow':
    case 'occlusionToBinary':
      return {
        operation: op,
        kernels: true,
        run(k) {
          const bytes = bytesOf() as Uint8Array;
          const size = op === 'soOverflow' ? 16 : op === 'occlusionToBinary' ? 8 : Math.max(8, (typePick(c) as QueryType | undefined)?.result?.size ?? 8);
          const range = (d & 7) === 7 ? undefined : rangeOf(a, b, usable(bytes), size, k);
          if (op === 'sumQueryResults') return sumQueryResults(bytes, typePick(c) as never, range as never);
          return op === 'soOverflow' ? soOverflow(bytes, range as never) : occlusionToBinary(bytes, range as never);
        },
      };
    case 'deltaQueryResults':
      return {
        operation: op,
        kernels: true,
        run(k) {
          const given = bytesOf();
          const bytes = usable(given);
          if (bytes !== given) return deltaQueryResults(given as never, given as never, typePick(c) as never, kernelsValue(k) as never);
          // a and b: the body split at a (rounded to 8 when b says so), or one buffer twice (a - a = 0), or overlapping views
          const cut = b & 1 ? Math.min(bytes.byteLength, (a * 8) % (bytes.byteLength + 1)) : Math.min(bytes.byteLength, a);
          const [x, y] = b & 2 ? [bytes, bytes] : b & 4 ? [bytes.subarray(0, bytes.byteLength - (bytes.byteLength >> 2)), bytes.subarray(bytes.byteLength >> 2)] : [bytes.subarray(0, cut), bytes.subarray(cut)];
          return deltaQueryResults(x, y, typePick(c) as never, kernelsValue(k) as never);
        },
      };
    case 'gatherVirtualQueries':
      return {
        operation: op,
        kernels: true,
        run(k) {
          const bytes = bytesOf();
          const body = usable(bytes);
          // the map: the first a*12 bytes of the body (packed), entries from them, or something else; src: the rest
          const mapBytes = Math.min(body.byteLength - (body.byteLength % 12), 12 * (a & 15));
          const packed = body.subarray(0, b & 0x20 ? mapBytes + (a >> 4 & 3) : mapBytes);
          const entries = entriesOf(packed, c);
          const map = b & 0x40 ? entries : b & 0x80 ? [packed.buffer, 'map', null, packed.subarray(0, 0)][a & 3] : packed;
          const m = Array.isArray(map) ? map.length : packed.byteLength / 12;
          const src = body === bytes ? body.subarray(mapBytes) : bytes;
          const heads = headsPick(d, m);
          const dstCount = headsPick(d >> 4, m);
          const options: unknown = (b & 0x1f) === 0x1f ? [null, 3, 'o'][d % 3] : kernelsIn(k, { ...(heads !== undefined ? { heads } : {}), ...(dstCount !== undefined ? { dstCount } : {}), ...(b & 0x10 && b & 1 ? { [STRAY_KEYS[d & 7]!]: 1 } : {}) });
          return gatherVirtualQueries(src as never, typePick(c) as never, map as never, options as never);
        },
      };
    case 'packQueryMap':
      return {
        operation: op,
        kernels: false,
        run() {
          const body = placed(data, 0);
          if ((b & 0xf0) === 0xf0) return packQueryMap([null, body, 'entries', {}, [[1, 2, 3]], undefined][a % 6] as never);
          return packQueryMap(entriesOf(body, c) as QueryMapEntry[]);
        },
      };
    case 'decodeQueryResults':
      return {
        operation: op,
        kernels: false,
        run() {
          const bytes = bytesOf() as Uint8Array;
          const type = typePick(c);
          const q = QUERY_TYPES.find((t) => t === type || t.name === type);
          const body = usable(bytes);
          const size = q?.result.size ?? 8;
          const extra: Record<string, unknown> = {};
          const n = Math.floor(body.byteLength / size) + 1;
          const field = q?.result.fields[d % Math.max(1, q.result.fields.length)]?.name ?? 'Value';
          // into: fitting columns, one too short, a misspelt field, a wrong type, detached, sharing the input's bytes
          switch ((d >> 4) & 7) {
            case 1:
              extra.into = Object.fromEntries((q?.result.fields ?? []).map((f) => [f.name, new BigUint64Array(n)]));
              break;
            case 2:
              extra.into = { [field]: new BigUint64Array(0) };
              break;
            case 3:
              extra.into = { [`${field}s`]: new BigUint64Array(n) };
              break;
            case 4:
              extra.into = { [field]: [d & 1 ? new BigInt64Array(n) : new Float64Array(n), null, 'x'][d % 3] };
              break;
            case 5: {
              const buf = new ArrayBuffer(8 * n);
              extra.into = { [field]: new BigUint64Array(buf) };
              structuredClone(buf, { transfer: [buf] });
              break;
            }
            case 6:
              extra.into = body.byteOffset % 8 === 0 && body.byteLength >= 8 ? { [field]: new BigUint64Array(body.buffer, body.byteOffset, body.byteLength >> 3) } : null;
              break;
            case 7:
              extra.into = [1];
              break;
          }
          const range = (d & 0x0f) === 0x0f ? undefined : rangeOf(a, b, body, size, undefined, extra);
          const r = decodeQueryResults(bytes, type as never, range as never);
          // each column against the one-result decode of the same record (the rows reader): up to 64 records
          const offset = typeof (range as { offset?: unknown } | undefined)?.offset === 'number' ? ((range as { offset: number }).offset) : 0;
          for (let i = 0; i < Math.min(r.count, 64); i++) {
            const one = decodeQueryResult(bytes, r.type, offset + i * r.type.result.size);
            for (const f of r.type.result.fields) if (one[f.name] !== r.columns[f.name]![i]) throw new QueryOracleError(`decodeQueryResults column ${f.name}[${i}] is ${r.columns[f.name]![i]}, decodeQueryResult reads ${one[f.name]}`);
          }
          return r;
        },
      };
  }
}

/** A disagreement the query-resolve oracle found (targets.ts turns it into a finding). */
export class QueryOracleError extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'FuzzOracleError';
  }
}

/** An answer as text for comparison: typed arrays by their bytes, numbers exactly (-0, NaN), bigints, an error by code and path. */
export function answerKey(v: unknown, depth = 0): string {
  if (depth > 8) return '…';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (ArrayBuffer.isView(v)) {
    const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    let hex = '';
    for (let i = 0; i < b.length; i++) hex += b[i]!.toString(16).padStart(2, '0');
    return `${v.constructor.name}(${hex})`;
  }
  if (Array.isArray(v)) return `[${v.map((x) => answerKey(x, depth + 1)).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    // the query type row by name (its table is not an answer)
    if ('result' in v && 'name' in v && 'cli' in v) return `type:${String((v as { name: unknown }).name)}`;
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}:${answerKey(x, depth + 1)}`)
      .join(',')}}`;
  }
  return String(v);
}

/** The kernels each run uses: every build this engine runs. */
export function kernelRuns(): QueryKernels[] {
  return (['js', 'simd', 'scalar'] as const).filter(kernelsAvailable).map((n) => kernels(n));
}

/** One run's answer: the result's key, or a DxbinError's code and path (anything else thrown escapes: a crash). */
export function answerOf(f: () => unknown): { key: string; size: number } {
  try {
    const r = f();
    const key = answerKey(r);
    return { key, size: key.length >> 1 };
  } catch (e) {
    if (e instanceof DxbinError) return { key: `error ${e.code} at ${e.path}`, size: 0 };
    throw e;
  }
}

/** Seeds: each operation once or twice with arguments that are answered (a result), the results made from a fixed stream. */
export function queryResolveSeeds(): Uint8Array[] {
  let x = 0x9e3779b9;
  const next = () => ((x = (x * 1664525 + 1013904223) >>> 0) >>> 8) & 0xffff;
  const u64s = (values: readonly number[]): number[] => values.flatMap((v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24, 0, 0, 0, 0]);
  const u32s = (values: readonly number[]): number[] => values.flatMap((v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24]);
  // timestamps: rising pairs, one not issued (0), one ending before it began
  const stamps: number[] = [];
  for (let i = 0, t = 1000; i < 8; i++) stamps.push((t += next()), (t += next() & 0xff));
  stamps[4] = 0;
  stamps[11] = stamps[10]! - 5;
  const counters = (n: number) => u64s(Array.from({ length: n }, () => (next() & 3 ? next() : 0)));
  const seed = (op: number, head: readonly number[], body: readonly number[]) => Uint8Array.from([op, ...head, ...body]);
  return [
    seed(0, [0, 0, 0, 0, 0], u64s(stamps)),
    seed(0, [0, 0, 1, 0x20, 0], u64s(stamps)), // marks, into out views
    seed(1, [0, 0, 3, 0, 0], counters(22)), // PIPELINE_STATISTICS x2
    seed(1, [0x21, 0, 0, 0, 0], counters(6)), // OCCLUSION from offset 8, 2 records
    seed(2, [24, 0, 4, 0, 0], counters(6)), // SO_STATISTICS_STREAM0: a and b of 24 bytes... split at 24
    seed(2, [0, 4, 9, 0, 0], counters(28)), // PIPELINE_STATISTICS1 overlapping halves
    seed(3, [0, 0, 0, 0, 0], counters(8)),
    seed(4, [0, 0, 0, 0, 0], counters(5)),
    // a 3-entry map (two heads; entry 0 chains to 2), then 3 OCCLUSION results; 3 destinations
    seed(5, [3, 0, 0, 0xc3, 0], [...u32s([0, 0, 2, 2, 1, 0xffffffff, 0, 2, 0xffffffff]), ...counters(3)]),
    seed(6, [0, 0, 0, 0, 0], u32s([0, 1, 0xffffffff, 1, 0, 0])),
    seed(7, [0, 0, 3, 0x10, 0], counters(22)), // PIPELINE_STATISTICS into columns
    seed(7, [0, 0, 0x24, 0, 0], counters(4)), // SO_STATISTICS_STREAM2 by its cli name
  ];
}
