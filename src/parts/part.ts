/**
 * Every container part decoded from rows and written back bit-exact (docs/formats/parts.md):
 * `decodePart` reads a part's blocks (src/parts/layout.ts) with the one row interpreter
 * (src/rows/record.ts), keeps every byte no block names, and `encodePart` writes the blocks over
 * the kept bytes. SHEX/SHDR split into instructions (src/shader/dxbc.ts), SRCI into sections with
 * their sources inflated (src/parts/srci.ts); a part without rows is kept as bytes.
 */
import type { RecordDef } from '../../codecs/rows.js';
import { BITCODE_HEADER_AT } from '../../codecs/parts.js';
import { Budget, budgetOf } from '../bytes/budget.js';
import { DecodeError, DescriptionError, kindOf } from '../bytes/errors.js';
import { expectDense, expectBytes, expectFunction, expectObjects, expectOffset, expectOptionKeys, expectOptions, expectString } from '../bytes/check.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { checkRow, hex, hexToBytes, readRecord, recordExtents, recordFromJson, recordSpans, recordToJson, RowReader, writeRecord, type Extent, type Row } from '../rows/record.js';
import { expectArray, expectObject } from '../bytes/check.js';
import { quoted } from '../bytes/text.js';
import { layoutOf, layoutOfKind, ownCodecKind, type Blocks, type PartLayout, type Walk } from './layout.js';
import { decodeSrci, encodeSrci, srciRecordDef, srciSpans, type SrciDecode } from './srci.js';
import { decodeDxbcTokens, encodeDxbcTokens, dxbcTokenSpans, type DxbcTokens } from '../shader/dxbc.js';

/** Bytes of a part no row names, kept as they are (strings, padding, bitcode, unknown data). */
export interface KeptBytes {
  /** Offset in the part's data. */
  offset: number;
  bytes: Uint8Array;
}

/** A decoded part: its blocks of rows, the bytes kept as they are, and for SHEX/SHDR and SRCI their own decode. */
export interface DecodedPart {
  /** FourCC. */
  name: string;
  /** What the part was read as: `signature`, `program`, `featureInfo`, `hash`, `debugName`, `compilerVersion`, `statistics`, `resource-definitions`, `tokens`, `source-info`; `root-signature`, `psv0`, `runtime-data` (read by their own codecs, kept here as bytes); `bytes`. */
  kind: string;
  /** Bytes of part data. */
  size: number;
  blocks: Blocks;
  kept: KeptBytes[];
  /** SHEX/SHDR: the instructions. */
  tokens?: DxbcTokens;
  /** SRCI: sections and sources. */
  sourceInfo?: SrciDecode;
}

/** Options of decodePart. */
export interface DecodePartOptions {
  /** Absolute offset of the part data in the file (messages, spans). */
  base?: number;
  /** The call's work budget; by default one for the part's size. */
  budget?: Budget;
  /** zlib inflate for SRCI sources (default: node:zlib where the host has it; without one, sources stay compressed). */
  inflate?: (data: Uint8Array, maxOutputLength: number) => Uint8Array;
}

/** Options of encodePart. */
export interface EncodePartOptions {
  /** The work budget of placing the records; by default the one a decode of the part's bytes gets (`Budget.for(part.size)`). */
  budget?: Budget;
}

/** Every layout block record read: where, which layout, which value. */
interface Placed {
  def: RecordDef;
  at: number;
  row: Row;
  path: string;
}

function placeBlocks(layout: PartLayout, r: RowReader, name: string, extents: Extent[] | undefined, rows?: Blocks): { blocks: Blocks; placed: Placed[] } {
  const blocks: Blocks = {};
  const placed: Placed[] = [];
  for (const b of layout.blocks) {
    const source = rows ?? blocks;
    if (b.when && !b.when(source)) continue;
    if (rows) {
      const v = rows[b.key];
      if (b.count) expectArray(v, `part.blocks.${b.key}`);
      else checkRow(typeof b.def === 'function' ? b.def(blocks) : b.def, v, `part.blocks.${b.key}`);
    }
    const def = typeof b.def === 'function' ? b.def(source) : b.def;
    const at = b.at(source);
    const path = `${name}.${b.key}`;
    if (!b.count) {
      const row = rows ? (rows[b.key] as Row) : readRecord(def, r, at, path, extents);
      blocks[b.key] = row;
      placed.push({ def, at, row, path });
      continue;
    }
    const count = b.count(source, r.bytes);
    if (!rows) {
      if (at > r.bytes.byteLength || count > (r.bytes.byteLength - at) / def.size) {
        throw new DecodeError('count-exceeds-data', r.base + Math.min(at, r.bytes.byteLength), path, `${count} records of ${def.size} bytes at ${at} do not fit in ${r.bytes.byteLength} bytes`);
      }
    }
    const list: Row[] = rows ? (rows[b.key] as Row[]) : new Array<Row>(count);
    for (let i = 0; i < list.length; i++) {
      const p = `${path}[${i}]`;
      if (!rows) list[i] = readRecord(def, r, at + i * def.size, p, extents);
      else checkRow(def, list[i], `part.blocks.${b.key}[${i}]`);
      placed.push({ def, at: at + i * def.size, row: list[i]!, path: p });
    }
    blocks[b.key] = list;
  }
  for (const walk of layout.walks ?? []) runWalk(walk, r, name, extents, rows, blocks, placed);
  return { blocks, placed };
}

/**
 * Runs a walk (layout.ts): decoding, each record is read where the walk says (once per place);
 * given `rows`, the walk is replayed over them in order, so the same places come out.
 */
function runWalk(walk: Walk, r: RowReader, name: string, extents: Extent[] | undefined, rows: Blocks | undefined, blocks: Blocks, placed: Placed[]): void {
  const source = rows ?? blocks;
  const defs = walk.defs(source);
  // per key, the rows taken by offset (number keys: a place looked up again costs no string)
  const taken: Record<string, Map<number, Row>> = {};
  const where: Record<string, string> = {};
  /** Per key, the last list read at each offset (returned again, never changed, when the same count is asked). */
  const lists: Record<string, Map<number, Row[]>> = {};
  const used: Record<string, number> = {};
  for (const key of Object.keys(defs)) {
    if (rows) expectArray(rows[key], `part.blocks.${key}`);
    blocks[key] = [];
    used[key] = 0;
    taken[key] = new Map();
    where[key] = `${name}.${key}`;
    lists[key] = new Map();
  }
  const refuse = (at: number, path: string, detail: string): never => {
    if (rows) throw new DescriptionError('out-of-range', `part.blocks.${path.slice(path.indexOf('.') + 1)}`, detail);
    throw new DecodeError('bad-offset', r.base + Math.max(0, Math.min(at, r.bytes.byteLength)), path, detail);
  };
  const one = (def: RecordDef, at: number, key: string): Row => {
    const places = taken[key]!;
    const had = places.get(at);
    if (had) {
      // a place taken again (a shared type, or a member or interface list many types name) is
      // work too: charged, so that many types over one long list cannot run unbounded
      r.budget.charge('resolve', 1, where[key]!, r.base + at);
      return had;
    }
    const k = used[key]!++;
    const path = `${name}.${key}[${k}]`;
    let row: Row;
    if (rows) {
      const given = rows[key] as Row[];
      if (k >= given.length) refuse(at, `${name}.${key}`, `the walk places more than the ${given.length} records given`);
      checkRow(def, given[k], `part.blocks.${key}[${k}]`);
      row = given[k]!;
    } else row = readRecord(def, r, at, path, extents);
    (blocks[key] as Row[]).push(row);
    places.set(at, row);
    placed.push({ def, at, row, path });
    return row;
  };
  const list = (def: RecordDef, at: number, count: number, key: string): Row[] => {
    if (!rows && (at > r.bytes.byteLength || count > (r.bytes.byteLength - at) / def.size)) {
      throw new DecodeError('count-exceeds-data', r.base + Math.min(at, r.bytes.byteLength), `${name}.${key}`, `${count} records of ${def.size} bytes at ${at} do not fit in ${r.bytes.byteLength} bytes`);
    }
    // the same list again (many types naming one member or interface table): the rows it gave, charged as many places again
    const again = lists[key]!.get(at);
    if (again && again.length === count) {
      r.budget.charge('resolve', count, where[key]!, r.base + at);
      return again;
    }
    // pushed one by one: a given count past the rows given is refused at the first missing row, before any allocation of its size
    const out: Row[] = [];
    for (let i = 0; i < count; i++) out.push(one(def, at + i * def.size, key));
    lists[key]!.set(at, out);
    return out;
  };
  const budget = r.budget;
  const depth = budget.depth;
  try {
    walk.run(source, { one, list, enter: (at) => budget.enter(`${name} at ${at}`, r.base + at), leave: () => budget.leave(), refuse });
  } finally {
    // a refusal leaves levels entered: they go back to a budget the caller may share
    while (budget.depth > depth) budget.leave();
  }
  if (rows) {
    for (const key of Object.keys(defs)) {
      const n = (rows[key] as Row[]).length;
      if (n !== used[key]) throw new DescriptionError('out-of-range', `part.blocks.${key}`, `${n} records given, the walk places ${used[key]}`);
    }
  }
}

/** A range of a part's bytes, [start, end), and what says it (encodePart's messages). */
type Said = readonly [start: number, end: number, what?: string];

/**
 * The one walk over a part's ranges in order of start (the records' slots a decode read, or what a
 * description says: kept runs too): `gap(a, b)` for each run of [0, size) none covers, `overlap`
 * for a range that starts inside the one before (ambiguous: one of the two would be lost).
 */
function sweep(ranges: Said[], size: number, gap: (a: number, b: number) => void, overlap: (r: Said, by: string | undefined) => never): void {
  ranges.sort((a, b) => a[0] - b[0]);
  let at = 0;
  let by: string | undefined;
  for (const r of ranges) {
    if (r[1] === r[0]) continue;
    if (r[0] < at) overlap(r, by);
    if (r[0] > at) gap(at, r[0]);
    at = r[1];
    by = r[2];
  }
  if (at < size) gap(at, size);
}

/** The bytes of [0, size) outside the extents, as kept runs. */
function keptOutside(data: Uint8Array, extents: Extent[], name: string, base: number): KeptBytes[] {
  const kept: KeptBytes[] = [];
  sweep(extents, data.byteLength, (a, b) => kept.push({ offset: a, bytes: data.slice(a, b) }), (r) => {
    throw new DecodeError('part-layout', base + r[0], name, `records overlap at byte ${r[0]} of the part (ambiguous to write back)`);
  });
  return kept;
}

/**
 * Decodes one part's data from its rows; unknown parts are kept as bytes.
 * @throws {DecodeError} truncated, bad-offset, count-exceeds-data, part-layout (records overlap), bad-token (SHEX)
 * @throws {LimitError} limit-exceeded when the work budget runs out
 */
export function decodePart(name: string, data: Uint8Array, options: DecodePartOptions = {}): DecodedPart {
  if (typeof name !== 'string') throw new DescriptionError('bad-type', 'name', `expected a FourCC string, got ${kindOf(name)}`);
  expectBytes(data, 'data');
  expectOptionKeys(options as unknown, ['base', 'budget', 'inflate']);
  if (options.base !== undefined) expectOffset(options.base, 'options.base');
  if (options.inflate !== undefined) expectFunction(options.inflate, 'options.inflate');
  const base = options.base ?? 0;
  const budget = budgetOf(options, data.byteLength);
  const r = new RowReader(data, base, budget);
  if (name === 'SHEX' || name === 'SHDR') {
    const tokens = decodeDxbcTokens(data, { base, budget });
    const end = tokens.length * 4;
    return { name, kind: 'tokens', size: data.byteLength, blocks: {}, kept: end < data.byteLength ? [{ offset: end, bytes: data.slice(end) }] : [], tokens };
  }
  if (name === 'SRCI') {
    const extents: Extent[] = [];
    const sourceInfo = decodeSrci(r, extents, options.inflate);
    return { name, kind: 'source-info', size: data.byteLength, blocks: {}, kept: keptOutside(data, extents, name, base), sourceInfo };
  }
  const layout = layoutOf(name, data);
  if (!layout) return { name, kind: ownCodecKind(name) ?? 'bytes', size: data.byteLength, blocks: {}, kept: data.byteLength ? [{ offset: 0, bytes: data.slice() }] : [] };
  const extents: Extent[] = [];
  const { blocks } = placeBlocks(layout, r, name, extents);
  return { name, kind: layout.kind, size: data.byteLength, blocks, kept: keptOutside(data, extents, name, base) };
}

/** Checks the shape of a decoded part given by a caller (encodePart, partToJson). */
function expectDecodedPart(part: unknown): asserts part is DecodedPart {
  expectObject(part, 'part');
  const p = part as unknown as DecodedPart;
  expectString(p.name, 'part.name');
  expectString(p.kind, 'part.kind');
  expectObject(p.blocks, 'part.blocks');
  // each block is a row or a list of rows (a null or a string is no row: partToJson would throw or spell its characters)
  for (const [k, v] of Object.entries(p.blocks)) {
    if (Array.isArray(v)) expectObjects(v, `part.blocks.${k}`);
    else expectObject(v, `part.blocks.${k}`);
  }
  // for loops, not forEach: a hole is refused where it is (forEach skipped it, and walked a
  // sparse array of length 2^32 - 1 for minutes)
  expectArray(p.kept, 'part.kept');
  for (let i = 0; i < p.kept.length; i++) {
    const k = p.kept[i];
    expectObject(k, `part.kept[${i}]`);
    expectOffset(k.offset, `part.kept[${i}].offset`);
    expectBytes(k.bytes, `part.kept[${i}].bytes`);
  }
  if (p.tokens !== undefined) {
    expectObject(p.tokens, 'part.tokens');
    expectArray(p.tokens.instructions, 'part.tokens.instructions');
    for (let i = 0; i < p.tokens.instructions.length; i++) {
      const x = p.tokens.instructions[i];
      expectObject(x, `part.tokens.instructions[${i}]`);
      expectArray(x.tokens, `part.tokens.instructions[${i}].tokens`);
      expectDense(x.tokens, `part.tokens.instructions[${i}].tokens`);
    }
  }
  if (p.sourceInfo !== undefined) {
    expectObject(p.sourceInfo, 'part.sourceInfo');
    expectArray(p.sourceInfo.records, 'part.sourceInfo.records');
    expectObjects(p.sourceInfo.records, 'part.sourceInfo.records');
  }
}

/**
 * Writes a decoded part back: kept bytes first, then every block's fixed fields.
 * @throws {DescriptionError} bad-type, out-of-range when the description does not fit its size or a field its width
 * @throws {LimitError} limit-exceeded when placing the records takes more work than the budget (records that share tables take it once per place)
 */
export function encodePart(part: DecodedPart, options: EncodePartOptions = {}): Uint8Array {
  expectDecodedPart(part);
  expectOptionKeys(options as unknown, ['budget']);
  const size = part.size;
  if (!Number.isInteger(size) || size < 0 || size > 0x7fffffff) throw new DescriptionError('out-of-range', 'part.size', `expected a size 0..2147483647, got ${String(size)}`);
  // by default the budget a decode of these bytes gets: a description whose records take more placing than reading its bytes would is refused, not walked
  const budget = budgetOf(options, size);
  // what the description says, before anything of `size` bytes is made: the kept runs and the
  // records' slots tile the part, as decodePart gives them (a byte no run or record says, or one
  // two of them say, would be written as zero or as the later of the two: never the bytes read)
  const said: Said[] = part.kept.map((k, i) => [k.offset, k.offset + k.bytes.byteLength, `part.kept[${i}]`]);
  let placed: Placed[] = [];
  let words = 2;
  if (part.tokens) {
    for (const ins of part.tokens.instructions) words += ins.tokens.length;
    said.push([0, 4 * words, 'part.tokens']);
  } else if (part.sourceInfo) {
    // SRCI: bounded by its records and kept runs, not tiled (its sections leave padding to the kept bytes)
    for (const x of part.sourceInfo.records) words += srciRecordDef((x as { record?: unknown } | null)?.record)?.size ?? 0;
    said.length = 0;
    said.push([0, words + part.kept.reduce((n, k) => n + k.bytes.byteLength, 0), 'part.sourceInfo']);
  } else {
    const layout = layoutOfKind(part.name, part.kind);
    if (layout) placed = placeBlocks(layout, new RowReader(NO_BYTES, 0, budget), part.name, undefined, part.blocks).placed;
    for (const p of placed) for (const [a, b] of recordExtents(p.def, p.row, p.at, [])) said.push([a, b, p.path]);
  }
  sweep(said, size, (a, b) => {
    throw new DescriptionError('out-of-range', 'part.size', `no record or kept run says bytes ${a}..${b}`);
  }, (r, by) => {
    throw new DescriptionError('out-of-range', r[2]!, `bytes ${r[0]}..${r[1]} overlap ${by}`);
  });
  const out = new Uint8Array(size);
  for (const k of part.kept) {
    if (!(k.offset >= 0) || k.offset + k.bytes.byteLength > size) throw new DescriptionError('out-of-range', 'part.kept', `kept bytes at ${k.offset} run past the part's ${size} bytes`);
    out.set(k.bytes, k.offset);
  }
  const view = new DataView(out.buffer);
  if (part.tokens) {
    encodeDxbcTokens(part.tokens, view);
    return out;
  }
  if (part.sourceInfo) {
    encodeSrci(part.sourceInfo, view, writeRecord);
    return out;
  }
  for (const p of placed) {
    if (p.at + p.def.size > size) throw new DescriptionError('out-of-range', p.path, `the record at ${p.at} runs past the part's ${size} bytes`);
    writeRecord(p.def, p.row, view, p.at);
  }
  return out;
}

const NO_BYTES = new Uint8Array(0);



/** Options of partToJson. */
export interface PartJsonOptions {
  /** Kept runs longer than this many bytes show only offset and size (default: all as hex). */
  maxKeptBytes?: number;
}

/**
 * The JSON form of a decoded part: integers, names beside them, kept bytes as hex.
 * @throws {DescriptionError} bad-type when `part` is not a decoded part
 */
export function partToJson(part: DecodedPart, options: PartJsonOptions = {}): Record<string, unknown> {
  expectDecodedPart(part);
  expectOptionKeys(options as unknown, ['maxKeptBytes']);
  if (options.maxKeptBytes !== undefined) expectOffset(options.maxKeptBytes, 'options.maxKeptBytes');
  const max = options.maxKeptBytes ?? Infinity;
  const blocks: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(part.blocks)) blocks[k] = Array.isArray(v) ? v.map(recordToJson) : recordToJson(v);
  return {
    name: part.name,
    kind: part.kind,
    size: part.size,
    ...blocks,
    ...(part.tokens ? { program: part.tokens } : {}),
    ...(part.sourceInfo ? { sourceInfo: part.sourceInfo } : {}),
    kept: part.kept.map((k) => (k.bytes.byteLength > max ? { offset: k.offset, size: k.bytes.byteLength } : { offset: k.offset, hex: hex(k.bytes) })),
  };
}

/**
 * A decoded part from its JSON form (every kept run must carry its hex).
 * @throws {DescriptionError} bad-type, missing-key, out-of-range naming the field
 */
export function partFromJson(json: unknown): DecodedPart {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DescriptionError('bad-type', '$', `expected an object, got ${kindOf(json)}`);
  const j = json as Record<string, unknown>;
  const name = j.name;
  if (typeof name !== 'string' || name.length !== 4) throw new DescriptionError('bad-type', '$.name', 'expected a FourCC');
  const size = j.size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw new DescriptionError('bad-type', '$.size', 'expected a size');
  if (!Array.isArray(j.kept)) throw new DescriptionError('bad-type', '$.kept', `expected an array, got ${kindOf(j.kept)}`);
  expectDense(j.kept, '$.kept');
  // `kind`, and the decode of a part read by its own decoder (without it, the part would be written as zeros)
  const own = (key: string, type: 'string' | 'object') => {
    const v = j[key];
    if (typeof v !== type || v === null) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', `$.${key}`, `expected a${type === 'object' ? 'n' : ''} ${type}`);
    return v;
  };
  const kept = j.kept.map((k: unknown, i: number) => {
    const o = k as { offset?: unknown; hex?: unknown };
    if (typeof o?.offset !== 'number' || typeof o.hex !== 'string') throw new DescriptionError('bad-type', `$.kept[${i}]`, 'expected { offset, hex }');
    expectOffset(o.offset, `$.kept[${i}].offset`);
    return { offset: o.offset, bytes: hexToBytes(o.hex, undefined, `$.kept[${i}].hex`) };
  });
  const kind = own('kind', 'string') as string;
  const part: DecodedPart = { name, kind, size, blocks: {}, kept };
  // a part read by its own decoder carries its decode: without it, the part would be written as zeros
  if (name === 'SHEX' || name === 'SHDR') {
    part.tokens = own('program', 'object') as DxbcTokens;
    return part;
  }
  if (name === 'SRCI') {
    part.sourceInfo = own('sourceInfo', 'object') as SrciDecode;
    return part;
  }
  const layout = layoutOfKind(name, kind);
  // a part with rows is read by its layout: a kind that names another (or none) would drop its blocks
  if (name === 'STAT' ? !layout : layout && layout.kind !== kind) throw new DescriptionError('bad-name', '$.kind', `not how a ${name} part is read: ${quoted(kind)}`);
  if (!layout) return part;
  for (const b of layout.blocks) {
    if (b.when && !b.when(part.blocks)) continue;
    const def = typeof b.def === 'function' ? b.def(part.blocks) : b.def;
    const v = j[b.key];
    if (b.count) {
      if (!Array.isArray(v)) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', `$.${b.key}`, `expected an array, got ${kindOf(v)}`);
      expectDense(v, `$.${b.key}`);
      part.blocks[b.key] = v.map((e, i) => recordFromJson(def, e, `$.${b.key}[${i}]`));
    } else part.blocks[b.key] = recordFromJson(def, v, `$.${b.key}`);
  }
  for (const walk of layout.walks ?? []) {
    for (const [key, def] of Object.entries(walk.defs(part.blocks))) {
      const v = j[key];
      if (!Array.isArray(v)) throw new DescriptionError(v === undefined ? 'missing-key' : 'bad-type', `$.${key}`, `expected an array, got ${kindOf(v)}`);
      expectDense(v, `$.${key}`);
      part.blocks[key] = v.map((e, i) => recordFromJson(def, e, `$.${key}[${i}]`));
    }
  }
  return part;
}

/** Byte-map spans of a part's data at absolute offset `base` (fields, kept bytes as data). */
export function partSpans(part: DecodedPart, data: Uint8Array, rec: SpanRecorder, base: number, path: string): void {
  if (part.tokens) dxbcTokenSpans(part.tokens, rec, base, path);
  else if (part.sourceInfo) srciSpans(part.sourceInfo, rec, base, path);
  else {
    const layout = layoutOfKind(part.name, part.kind);
    if (layout) {
      const { placed } = placeBlocks(layout, new RowReader(data, base, Budget.for(data.byteLength)), path, undefined, part.blocks);
      for (const p of placed) recordSpans(p.def, p.row, rec, base, p.at, p.path);
    }
  }
  for (const k of part.kept) {
    if (k.bytes.byteLength === 0) continue;
    const what = part.kind === 'program' && k.offset >= BITCODE_HEADER_AT ? 'bitcode' : part.blocks && Object.keys(part.blocks).length === 0 && !part.tokens && !part.sourceInfo ? 'data' : 'kept';
    rec.add('data', base + k.offset, k.bytes.byteLength, `${path}.${what}`);
  }
}

/** Bytes of the DxilBitcodeHeader (magic, version, offset, size). */
const BITCODE_HEADER_SIZE = 16;

/**
 * The LLVM bitcode of a DXIL/ILDB/STAT program part: the bytes the program header points at.
 * @throws {DecodeError} truncated or bad-offset when the header points outside the part, claims more words than the part has, or puts the bitcode inside its own header
 */
export function programBitcode(data: Uint8Array, base = 0): Uint8Array {
  expectBytes(data, 'data');
  const r = new RowReader(data, base, Budget.for(data.byteLength));
  const h = readRecord(layoutOf('DXIL', data)!.blocks[0]!.def as RecordDef, r, 0, 'DXIL.header');
  const start = BITCODE_HEADER_AT + (h.bitcodeOffset as number);
  const size = h.bitcodeSize as number;
  // as DXC's IsValidDxilProgramHeader, in exact arithmetic (DXC's u32 product wraps: 0x40000001
  // words pass there as 4 bytes); a bitcode that starts inside its own 16-byte header is no bitcode
  const words = h.sizeInUint32 as number;
  if (words * 4 > data.byteLength) throw new DecodeError('bad-offset', base + 4, 'DXIL.header.sizeInUint32', `${words} words (${words * 4} bytes) claimed, but the part has ${data.byteLength} bytes`);
  if ((h.bitcodeOffset as number) < BITCODE_HEADER_SIZE) throw new DecodeError('bad-offset', base + 16, 'DXIL.header.bitcodeOffset', `bitcode at ${h.bitcodeOffset as number} starts inside the ${BITCODE_HEADER_SIZE}-byte bitcode header`);
  if (start > data.byteLength || size > data.byteLength - start) {
    throw new DecodeError('bad-offset', base + 16, 'DXIL.header.bitcodeOffset', `bitcode of ${size} bytes at ${start} runs past the part's ${data.byteLength} bytes`);
  }
  return data.subarray(start, start + size);
}
