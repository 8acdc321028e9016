/**
 * The web inspector's byte tools, free of the DOM (tested in Node by test/web-tools.test.ts): the
 * data inspector's values at a cursor, go-to offsets, hex and text search patterns, copying as hex
 * or a C array, and the byte map indexed once (parents, children, leaves in offset order).
 */
import { LEAF_KINDS, type ByteMap, type ByteSpan } from '../src/inspect/index.js';

/** One row of the data inspector: a type's name and its value at the cursor, or undefined past the end. */
export interface InspectedValue {
  type: string;
  value: string | undefined;
}

/** IEEE 754 half precision from its 16 bits. */
export function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The values of the bytes at `at`: u8..u64, i8..i64, f16, f32, f64, in one byte order. */
export function inspectValues(bytes: Uint8Array, at: number, bigEndian: boolean): InspectedValue[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = !bigEndian;
  const left = bytes.byteLength - at;
  const row = (type: string, size: number, read: () => number | bigint): InspectedValue => ({ type, value: at >= 0 && left >= size ? String(read()) : undefined });
  const hex = (type: string, size: number, read: () => number | bigint): InspectedValue => {
    const r = row(type, size, read);
    if (r.value === undefined) return r;
    const v = read();
    return { type, value: `${r.value} (0x${v.toString(16).padStart(size * 2, '0')})` };
  };
  return [
    hex('u8', 1, () => view.getUint8(at)),
    row('i8', 1, () => view.getInt8(at)),
    hex('u16', 2, () => view.getUint16(at, le)),
    row('i16', 2, () => view.getInt16(at, le)),
    hex('u32', 4, () => view.getUint32(at, le)),
    row('i32', 4, () => view.getInt32(at, le)),
    hex('u64', 8, () => view.getBigUint64(at, le)),
    row('i64', 8, () => view.getBigInt64(at, le)),
    row('f16', 2, () => half(view.getUint16(at, le))),
    row('f32', 4, () => view.getFloat32(at, le)),
    row('f64', 8, () => view.getFloat64(at, le)),
    { type: 'char', value: at >= 0 && left >= 1 ? (bytes[at]! >= 0x20 && bytes[at]! < 0x7f ? JSON.stringify(String.fromCharCode(bytes[at]!)) : `\\x${bytes[at]!.toString(16).padStart(2, '0')}`) : undefined },
  ];
}

/** An offset typed by a user: decimal, 0x hex, or `+n`/`-n` relative to `from`; undefined when not one. */
export function parseOffset(text: string, from: number): number | undefined {
  const m = /^\s*([+-]?)\s*(0x[0-9a-f]+|[0-9]+)\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[2]);
  if (!Number.isSafeInteger(n)) return undefined;
  return m[1] === '+' ? from + n : m[1] === '-' ? from - n : n;
}

/** The bytes a search looks for: hex digit pairs (spaces allowed) or UTF-8 text; undefined when hex is malformed or the pattern empty. */
export function searchPattern(text: string, kind: 'hex' | 'text'): Uint8Array | undefined {
  if (kind === 'text') return text.length ? new TextEncoder().encode(text) : undefined;
  const digits = text.replace(/\s+|0x|,/gi, '');
  if (!digits.length || digits.length % 2 || /[^0-9a-f]/i.test(digits)) return undefined;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The first offset at or after `from` where `pattern` occurs, wrapping to the start once; -1 when nowhere. */
export function findBytes(bytes: Uint8Array, pattern: Uint8Array, from: number): number {
  const scan = (start: number, end: number): number => {
    const first = pattern[0]!;
    for (let i = bytes.indexOf(first, start); i >= 0 && i <= end - pattern.length; i = bytes.indexOf(first, i + 1)) {
      let k = 1;
      while (k < pattern.length && bytes[i + k] === pattern[k]) k++;
      if (k === pattern.length) return i;
    }
    return -1;
  };
  const start = Math.min(Math.max(0, from), bytes.byteLength);
  const hit = scan(start, bytes.byteLength);
  return hit >= 0 ? hit : scan(0, Math.min(bytes.byteLength, start + pattern.length - 1));
}

/** At most this many bytes are copied (a C array is six characters a byte). */
export const COPY_LIMIT = 1 << 20;

/** Bytes as space-separated hex pairs, 16 to a line. */
export function copyHex(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.byteLength; i += 16) lines.push(Array.from(bytes.subarray(i, i + 16), (b) => b.toString(16).padStart(2, '0')).join(' '));
  return lines.join('\n');
}

/** Bytes as a C array definition named `name`, 12 to a line. */
export function copyCArray(bytes: Uint8Array, name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9])/, '_') || 'data';
  const lines: string[] = [];
  for (let i = 0; i < bytes.byteLength; i += 12) lines.push(`    ${Array.from(bytes.subarray(i, i + 12), (b) => `0x${b.toString(16).padStart(2, '0')}`).join(', ')},`);
  return `const unsigned char ${id}[${bytes.byteLength}] = {\n${lines.join('\n')}\n};`;
}

/**
 * A byte map indexed once: each span's enclosing span, its children as a linked list, its position
 * among its siblings, and the leaves in offset order (for lookups by byte). Built in one pass with a
 * stack of open spans (spans come sorted, enclosing spans before what they hold).
 */
export interface SpanIndex {
  spans: ByteSpan[];
  /** Enclosing span of each span, -1 at the top. */
  parent: Int32Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  childCount: Int32Array;
  /** 0-based position among its siblings (the roots count as siblings). */
  position: Int32Array;
  /** Span indices of the leaves, by offset. */
  leaves: Int32Array;
  /** The first top-level span, -1 when none. */
  firstRoot: number;
  rootCount: number;
}

/** Indexes `map` (one pass). */
export function indexSpans(map: ByteMap): SpanIndex {
  const spans = map.spans;
  const n = spans.length;
  const parent = new Int32Array(n).fill(-1);
  const firstChild = new Int32Array(n).fill(-1);
  const nextSibling = new Int32Array(n).fill(-1);
  const lastChild = new Int32Array(n).fill(-1);
  const childCount = new Int32Array(n);
  const position = new Int32Array(n);
  const leaves: number[] = [];
  const stack: number[] = [];
  let firstRoot = -1;
  let lastRoot = -1;
  let rootCount = 0;
  for (let i = 0; i < n; i++) {
    const s = spans[i]!;
    while (stack.length && spans[stack[stack.length - 1]!]!.offset + spans[stack[stack.length - 1]!]!.size <= s.offset) stack.pop();
    const p = stack.length ? stack[stack.length - 1]! : -1;
    parent[i] = p;
    if (p < 0) {
      position[i] = rootCount++;
      if (lastRoot < 0) firstRoot = i;
      else nextSibling[lastRoot] = i;
      lastRoot = i;
    } else {
      position[i] = childCount[p]!++;
      if (lastChild[p]! < 0) firstChild[p] = i;
      else nextSibling[lastChild[p]!] = i;
      lastChild[p] = i;
    }
    if (LEAF_KINDS.has(s.kind)) leaves.push(i);
    else stack.push(i);
  }
  return { spans, parent, firstChild, nextSibling, childCount, position, leaves: Int32Array.from(leaves), firstRoot, rootCount };
}

/** The position in `index.leaves` of the leaf holding `offset`, or of the first leaf after it; leaves.length when none. */
export function leafPosition(index: SpanIndex, offset: number): number {
  const { leaves, spans } = index;
  let lo = 0;
  let hi = leaves.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[leaves[mid]!]!;
    if (s.offset + s.size <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The span index of the leaf holding `offset`, -1 when none. */
export function leafAt(index: SpanIndex, offset: number): number {
  const p = leafPosition(index, offset);
  const i = index.leaves[p];
  if (i === undefined) return -1;
  const s = index.spans[i]!;
  return s.offset <= offset && offset < s.offset + s.size ? i : -1;
}

/** The enclosing spans of span `i`, outermost first. */
export function ancestors(index: SpanIndex, i: number): number[] {
  const out: number[] = [];
  for (let p = index.parent[i]!; p >= 0; p = index.parent[p]!) out.push(p);
  return out.reverse();
}

/** Child positions from the top down to span `i` (for a tree's reveal). */
export function positionsTo(index: SpanIndex, i: number): number[] {
  return [...ancestors(index, i), i].map((k) => index.position[k]!);
}

/**
 * Enclosing spans (records, arrays, parts) by path; `.header` records also answer for their
 * record's path; the first span in order wins. Leaves are not indexed: `spanByPath` finds a field
 * among its record's children, so the index holds one entry per record, not per field.
 */
export function pathIndex(index: SpanIndex): Map<string, number> {
  const byPath = new Map<string, number>();
  index.spans.forEach((s, i) => {
    if (LEAF_KINDS.has(s.kind)) return;
    if (!byPath.has(s.path)) byPath.set(s.path, i);
    if (s.path.endsWith('.header')) {
      const stem = s.path.slice(0, -'.header'.length);
      if (!byPath.has(stem)) byPath.set(stem, i);
    }
  });
  return byPath;
}

/** The span with `path`: an enclosing span from `byPath`, or a field among the children of the span of its parent path (so fields of a span whose path is not their prefix, such as a part's `container.parts[0] RTS0`, are not found). */
export function spanByPath(index: SpanIndex, byPath: Map<string, number>, path: string): number | undefined {
  const direct = byPath.get(path);
  if (direct !== undefined) return direct;
  const cut = path.lastIndexOf('.');
  const owner = cut > 0 ? byPath.get(path.slice(0, cut)) : undefined;
  if (owner === undefined) return undefined;
  for (let k = index.firstChild[owner]!; k >= 0; k = index.nextSibling[k]!) if (index.spans[k]!.path === path) return k;
  return undefined;
}

/** Mean, median and p99 (nearest rank, as summarizeDurations) of the unflagged durations, by selection instead of a sort (linear on average). */
export function durationStats(ns: Float64Array, flags: Uint8Array, count: number): { valid: number; mean: number; median: number; p99: number } {
  const valid = new Float64Array(count);
  let n = 0;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    if (flags[i] !== 0) continue;
    valid[n++] = ns[i]!;
    sum += ns[i]!;
  }
  if (n === 0) return { valid: 0, mean: NaN, median: NaN, p99: NaN };
  const a = valid.subarray(0, n);
  const rank = (p: number) => Math.max(0, Math.ceil(p * n) - 1);
  // the p99 rank first: the median's selection then only needs the part left of it
  const p99 = select(a, rank(0.99), 0, n - 1);
  const median = select(a, rank(0.5), 0, rank(0.99));
  return { valid: n, mean: sum / n, median, p99 };
}

/** The k-th smallest of a[lo..hi] (Hoare's selection, middle pivot; a is reordered). */
function select(a: Float64Array, k: number, lo: number, hi: number): number {
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
