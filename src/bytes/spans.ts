/**
 * The byte map: which field every byte of an input belongs to. Span producers (one per format,
 * `src/<format>/spans.ts`) walk the same codecs/ tables the decoders use, after the decoder has
 * accepted the input, so decoding pays nothing when no map is asked for (docs/byte-map.md).
 *
 * A map is a flat list of spans. Leaves (`field`, `padding`, `gap`, `data`) are the innermost
 * spans: for a well-formed input they cover every byte exactly once. Enclosing spans (`file`,
 * `part`, `record`, `array`) group leaves; they nest (an enclosing span lies inside its parent).
 */

import { expectArray, expectNumber, expectObject, expectObjects } from './check.js';

/** What a span is. */
export type SpanKind =
  /** A decoded field: `value` holds the raw number, `name` the table's name for it. */
  | 'field'
  /** Bytes a layout reserves and nothing reads (written as zero). */
  | 'padding'
  /** Bytes no structure points at (between blocks, or after the last one). */
  | 'gap'
  /** Bytes kept as they are, not decoded further (a DXIL program, an unknown part's data). */
  | 'data'
  /** The whole input. */
  | 'file'
  /** A container part (header and data). */
  | 'part'
  /** One fixed record (an RTS0 parameter, a query result, a DDI struct). */
  | 'record'
  /** An array of records. */
  | 'array';

/** Leaf kinds: the innermost spans, which tile the input. */
export const LEAF_KINDS: ReadonlySet<SpanKind> = new Set<SpanKind>(['field', 'padding', 'gap', 'data']);

export interface ByteSpan {
  kind: SpanKind;
  /** Absolute offset in the input. */
  offset: number;
  size: number;
  /** Field path as errors spell it, e.g. `RTS0.parameters[2].ranges[0].flags`. */
  path: string;
  /** The raw value of a field (u32, u16, u8 as number; u64 as bigint; FourCCs and strings as text). */
  value?: number | bigint | string;
  /** The value's name from the codecs tables (`DESCRIPTOR_TABLE`, `DATA_STATIC|DESCRIPTORS_VOLATILE`). */
  name?: string;
}

/** A byte map of one input. */
export interface ByteMap {
  /** What the producer read the input as (`container`, `rts0`, `query:timestamp`, `ddi:node/x64`, ...). */
  format: string;
  length: number;
  /** Sorted by offset; at equal offsets enclosing spans come before what they hold. */
  spans: ByteSpan[];
}

/** Collects spans; producers call `field`/`open`/`close` and `fillGaps`. */
export class SpanRecorder {
  readonly spans: ByteSpan[] = [];

  /** Records a leaf or enclosing span. */
  add(kind: SpanKind, offset: number, size: number, path: string, value?: number | bigint | string, name?: string): void {
    const span: ByteSpan = { kind, offset, size, path };
    if (value !== undefined) span.value = value;
    if (name !== undefined && name !== '') span.name = name;
    this.spans.push(span);
  }

  /** Records a field. */
  field(offset: number, size: number, path: string, value?: number | bigint | string, name?: string): void {
    this.add('field', offset, size, path, value, name);
  }

  /** A mark for `fillGaps`: spans recorded after it belong to the region being mapped. */
  mark(): number {
    return this.spans.length;
  }

  /**
   * Records `gap` (or `padding`) spans for the bytes of [start, end) that no leaf recorded since
   * `since` (a `mark()`, default: the first span) covers, one span per run. Call it once per
   * region after its leaves are recorded; looking only at the region's own spans keeps a map of
   * many small regions (a DDI list of thousands of structs) linear.
   */
  fillGaps(start: number, end: number, path: string, kind: 'gap' | 'padding' = 'gap', since = 0): void {
    if (end <= start) return;
    // the covered runs as flat [from, to] pairs; producers record leaves in order, so the sort
    // below is skipped unless a run starts before the previous one
    const runs: number[] = [];
    let ordered = true;
    const spans = this.spans;
    for (let i = since, n = spans.length; i < n; i++) {
      const s = spans[i]!;
      if (!LEAF_KINDS.has(s.kind) || s.offset >= end || s.offset + s.size <= start) continue;
      const from = Math.max(start, s.offset);
      if (runs.length && from < runs[runs.length - 2]!) ordered = false;
      runs.push(from, Math.min(end, s.offset + s.size));
    }
    let pairs: (readonly [number, number])[] | undefined;
    if (!ordered) {
      pairs = [];
      for (let k = 0; k < runs.length; k += 2) pairs.push([runs[k]!, runs[k + 1]!]);
      pairs.sort((a, b) => a[0] - b[0]);
    }
    let at = start;
    const count = runs.length / 2;
    for (let k = 0; k < count; k++) {
      const from = pairs ? pairs[k]![0] : runs[2 * k]!;
      const to = pairs ? pairs[k]![1] : runs[2 * k + 1]!;
      if (from > at) this.add(kind, at, from - at, path);
      at = Math.max(at, to);
    }
    if (at < end) this.add(kind, at, end - at, path);
  }

  /** The map, spans sorted (offset ascending, larger first, leaves after enclosing spans). */
  finish(format: string, length: number): ByteMap {
    const order = (s: ByteSpan) => (LEAF_KINDS.has(s.kind) ? 1 : 0);
    const before = (a: ByteSpan, b: ByteSpan) => a.offset - b.offset || b.size - a.size || order(a) - order(b);
    const recorded = this.spans;
    // Array.prototype.sort is stable (ties keep the recording order); skipped after one linear
    // pass when the spans came in order
    let sorted = true;
    for (let i = 1; i < recorded.length && sorted; i++) if (before(recorded[i - 1]!, recorded[i]!) > 0) sorted = false;
    return { format, length, spans: sorted ? recorded.slice() : recorded.slice().sort(before) };
  }
}

/**
 * Throws DescriptionError bad-type at `path` unless `map` is a byte map's shape: an object whose
 * `spans` is an array of objects. (A check before a walk, so the walk reads no property of null.)
 */
export function expectByteMap(map: unknown, path = 'map'): asserts map is ByteMap {
  expectObject(map, path);
  const spans = map.spans;
  expectArray(spans, `${path}.spans`);
  expectObjects(spans, `${path}.spans`);
}

/** Throws DescriptionError bad-type unless `rows` is an array of [name, value] arrays. */
function expectRows(rows: unknown, path: string): asserts rows is readonly (readonly [string, number])[] {
  expectArray(rows, path);
  for (let i = 0; i < rows.length; i++) if (!Array.isArray(rows[i])) expectArray(rows[i], `${path}[${i}]`);
}

/**
 * Name of a value in an enumeration table (`values` rows of [name, value]), or undefined.
 * @throws {DescriptionError} bad-type when `values` is not an array
 */
export function enumName(values: readonly (readonly [string, number])[], value: number): string | undefined {
  expectRows(values, 'values');
  for (const [name, v] of values) if (v === value) return name;
  return undefined;
}

/** Names of the set bits of a flag table, joined by `|` (`NONE` for 0; unknown bits in hex). */
export function flagNames(bits: readonly (readonly [string, number])[], value: number): string {
  expectRows(bits, 'bits');
  if (value === 0) return 'NONE';
  const names: string[] = [];
  let rest = value >>> 0;
  for (const [name, bit] of bits) {
    if (bit !== 0 && (rest & bit) === bit) {
      names.push(name);
      rest = (rest & ~bit) >>> 0;
    }
  }
  if (rest !== 0) names.push(`0x${rest.toString(16)}`);
  return names.join('|');
}

/** The leaves of a map. */
export function leafSpans(map: ByteMap): ByteSpan[] {
  expectByteMap(map);
  return leaves(map);
}

/** leafSpans of a map already checked. */
function leaves(map: ByteMap): ByteSpan[] {
  return map.spans.filter((s) => LEAF_KINDS.has(s.kind));
}

/**
 * Checks the map's promise: leaves cover [0, length) exactly once and every enclosing span lies
 * inside the file and nests with every other enclosing span (inside it, around it, or apart).
 * Returns one line per problem (empty when the map holds).
 */
export function checkByteMap(map: ByteMap): string[] {
  expectByteMap(map);
  const problems: string[] = [];
  const sorted = leaves(map).sort((a, b) => a.offset - b.offset);
  let at = 0;
  for (const s of sorted) {
    if (s.size <= 0) problems.push(`${s.path}: empty ${s.kind} at ${s.offset}`);
    if (s.offset > at) problems.push(`bytes ${at}..${s.offset - 1} are in no leaf`);
    if (s.offset < at) problems.push(`${s.path} at ${s.offset} overlaps the leaf before it (ends at ${at})`);
    at = Math.max(at, s.offset + s.size);
  }
  if (at < map.length) problems.push(`bytes ${at}..${map.length - 1} are in no leaf`);
  if (at > map.length) problems.push(`leaves run to ${at}, past the end (${map.length})`);
  // one sweep in map order (offset ascending, larger first, groups before leaves) with a stack of
  // open groups: each group must end inside its parent, each leaf inside the innermost open group,
  // and no group may start inside a leaf
  const stack: ByteSpan[] = [];
  let lastLeaf: ByteSpan | undefined;
  const top = () => stack[stack.length - 1];
  for (const s of map.spans) {
    while (stack.length > 0 && top()!.offset + top()!.size <= s.offset) stack.pop();
    const parent = top();
    if (LEAF_KINDS.has(s.kind)) {
      if (parent && s.offset + s.size > parent.offset + parent.size) problems.push(`${s.path} (${s.offset}+${s.size}) crosses the end of ${parent.path} (${parent.offset}+${parent.size})`);
      lastLeaf = s;
      continue;
    }
    if (s.offset < 0 || s.offset + s.size > map.length) problems.push(`${s.path}: ${s.kind} ${s.offset}+${s.size} lies outside the input`);
    if (parent && s.offset + s.size > parent.offset + parent.size) problems.push(`${s.path} (${s.offset}+${s.size}) crosses the end of ${parent.path} (${parent.offset}+${parent.size})`);
    if (lastLeaf && s.offset > lastLeaf.offset && s.offset < lastLeaf.offset + lastLeaf.size) problems.push(`${s.path} (${s.offset}+${s.size}) starts inside ${lastLeaf.path} (${lastLeaf.offset}+${lastLeaf.size})`);
    stack.push(s);
  }
  return problems;
}

/** The innermost span holding byte `offset` (a leaf when the map has one there), and its enclosing spans outermost first. */
export function spansAt(map: ByteMap, offset: number): { leaf: ByteSpan | undefined; groups: ByteSpan[] } {
  expectByteMap(map);
  expectNumber(offset, 'offset');
  const groups: ByteSpan[] = [];
  let leaf: ByteSpan | undefined;
  for (const s of map.spans) {
    if (s.offset > offset) break;
    if (offset < s.offset + s.size) {
      if (LEAF_KINDS.has(s.kind)) leaf ??= s;
      else groups.push(s);
    }
  }
  return { leaf, groups };
}
