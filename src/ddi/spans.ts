/**
 * Byte maps of DDI memory images (walking the src/ddi/layout.ts layouts the image decoder uses;
 * bytes between a struct's fields are padding) and of the RDAT part as far as dxbin reads it
 * (header, part table, table headers, records field by field from the codecs/rdat.ts rows,
 * the string buffer one string per span). See src/bytes/spans.ts.
 */
import type { Abi, Pointee } from '../../codecs/ddi.js';
import { RDAT_PART_TYPE, RDAT_TABLES } from '../../codecs/rdat.js';
import { enumName, flagNames, type SpanRecorder } from '../bytes/spans.js';
import { decodeImage } from './image.js';
import { expectBytes } from '../bytes/check.js';
import { structLayout } from './layout.js';
import { rdatParts } from '../rdat/decode.js';
import { tableNames } from '../bytes/strings.js';
import { rdatRecordSpans, rdatTableOfPart } from '../rdat/spans.js';

/**
 * Records the spans of a DDI memory image of `struct`.
 * @throws {DecodeError} whatever decodeImage throws for these bytes
 */
export function ddiImageSpans(struct: string, bytes: Uint8Array, abi: Abi, rec: SpanRecorder, base = 0): void {
  decodeImage(struct, bytes, abi); // the decoder's checks and errors first
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const done = new Set<string>();
  let strings: Uint8Array | undefined; // bytes already mapped as part of a string
  const uint = (at: number, size: number) => (size === 1 ? view.getUint8(at) : size === 2 ? view.getUint16(at, true) : size === 4 ? view.getUint32(at, true) : view.getUint32(at, true));

  // Pointers are followed from a queue, never by recursion: a chain as long as the image allows
  // (a node list of thousands of entries) costs no stack. By-value structs nest as deep as the
  // codecs/ddi.ts types do, which the input cannot change.
  const queue: [Pointee, number, Record<string, number>, string][] = [];
  const walkStruct = (name: string, at: number, path: string): void => {
    const layout = structLayout(name, abi);
    const key = `${layout.name}@${at}`;
    if (done.has(key)) return;
    done.add(key);
    const mark = rec.mark();
    rec.add('record', base + at, layout.size, path, undefined, layout.name);
    const values: Record<string, number> = {};
    for (const f of layout.fields) {
      const fp = `${path}.${f.name}`;
      const o = at + f.offset;
      if (f.type.kind === 'struct') {
        walkStruct(f.type.struct, o, fp);
        continue;
      }
      const value = uint(o, f.size);
      values[f.name] = value;
      if (f.type.kind === 'ptr') {
        rec.field(base + o, f.size, fp, value, value === 0 ? 'NULL' : `-> ${value}`);
        // long chains would make paths as long as the chain: past a bound, name the target by its pointer and offset
        if (value !== 0) queue.push([f.type.to, value, values, fp.length > 160 ? `(${f.name} -> ${value})` : fp]);
      } else {
        const named = f.type.kind === 'enum' ? enumName(f.type.table.values, value) : f.type.kind === 'flags' ? flagNames(f.type.table.bits, value) : undefined;
        rec.field(base + o, f.size, fp, value, named);
      }
    }
    rec.fillGaps(base + at, base + at + layout.size, `${path} (padding)`, 'padding', mark);
  };

  const walkPointee = (to: Pointee, at: number, owner: Record<string, number>, path: string) => {
    if (to.kind === 'select') {
      const struct = to.cases[owner[to.by]!];
      if (struct) walkStruct(struct, at, path);
    } else if (to.kind === 'wstring') {
      // strings may overlap (pointers into the middle of another): each byte is mapped once, by the
      // first string that reaches it, so hostile overlaps cost linear time and no overlapping leaves
      strings ??= new Uint8Array(bytes.byteLength);
      if (strings[at]) return;
      let end = at;
      let text = '';
      let c = view.getUint16(end, true);
      while (c !== 0 && !strings[end]) {
        text += String.fromCharCode(c);
        end += 2;
        c = view.getUint16(end, true);
      }
      const stop = strings[end] ? end : end + 2; // ran into a mapped string, or past its NUL
      strings.fill(1, at, stop);
      rec.field(base + at, stop - at, path, text, stop === end ? `continues in the string at ${end}` : undefined);
    } else if (to.kind === 'uint') {
      const key = `uint${to.count}@${at}`;
      if (done.has(key)) return;
      done.add(key);
      for (let i = 0; i < to.count; i++) rec.field(base + at + 4 * i, 4, to.count === 1 ? path : `${path}[${i}]`, view.getUint32(at + 4 * i, true));
    } else if (to.kind !== 'struct') return; // pipeline pointees (strings, bytes, streams) are not mapped here
    else if (!to.count) walkStruct(to.struct, at, path);
    else {
      const n = owner[to.count.field] ?? 0;
      const size = structLayout(to.struct, abi).size;
      if (n > 0 && !done.has(`${to.struct}@${at}`)) rec.add('array', base + at, n * size, path);
      for (let i = 0; i < n; i++) walkStruct(to.struct, at + i * size, `${path}[${i}]`);
    }
  };

  const start = rec.mark();
  walkStruct(structLayout(struct, abi).name, 0, structLayout(struct, abi).name);
  for (let i = 0; i < queue.length; i++) walkPointee(...queue[i]!);
  rec.fillGaps(base, base + bytes.byteLength, 'image (alignment)', 'padding', start);
}

const PART_NAMES = new Map<number, string>(Object.entries(RDAT_PART_TYPE).map(([k, v]) => [v, k]));
/** Names of the words of a record whose stride is shorter than any layout: the oldest layout's fields by offset (from the rows). */
const RECORD_WORDS: Record<number, Record<number, string>> = Object.fromEntries(
  Object.values(RDAT_TABLES).map((t) => [t.part, Object.fromEntries(t.layouts[0]!.fields.map((f) => [f.at, f.key]))]),
);

/**
 * Records the spans of an RDAT part's data at absolute offset `base`.
 * @throws {DecodeError} a malformed RDAT header or part table (src/rdat's checks)
 */
export function rdatSpans(bytes: Uint8Array, rec: SpanRecorder, base = 0, at = 'RDAT'): void {
  expectBytes(bytes, 'bytes');
  rdatParts(bytes, base); // the one RDAT reader's checks and errors first
  const first = rec.mark();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (o: number) => view.getUint32(o, true);
  const count = u32(4);
  rec.field(base, 4, `${at}.version`, u32(0));
  rec.field(base + 4, 4, `${at}.partCount`, count);
  for (let i = 0; i < count; i++) rec.field(base + 8 + 4 * i, 4, `${at}.partOffsets[${i}]`, u32(8 + 4 * i));
  for (let i = 0; i < count; i++) {
    const start = u32(8 + 4 * i);
    const type = u32(start);
    const size = u32(start + 4);
    const name = PART_NAMES.get(type) ?? `part type ${type}`;
    const p = `${at}.${name}`;
    const partMark = rec.mark();
    rec.add('part', base + start, 8 + size, p, type, name);
    rec.field(base + start, 4, `${p}.type`, type, name);
    rec.field(base + start + 4, 4, `${p}.size`, size);
    const d = start + 8;
    if (type === RDAT_PART_TYPE.StringBuffer) {
      const strings = tableNames(bytes.subarray(d, d + size), Infinity);
      let s = 0;
      for (let end = strings.endOf(0); end >= 0; end = strings.endOf(s)) {
        rec.field(base + d + s, end + 1 - s, `${p}[${s}]`, strings(s)!);
        s = end + 1;
      }
      if (s < size) rec.add('data', base + d + s, size - s, `${p} (unterminated)`);
    } else if (type === RDAT_PART_TYPE.IndexArrays) {
      for (let j = 0; j + 4 <= size; j += 4) rec.field(base + d + j, 4, `${p}[${j / 4}]`, u32(d + j));
      if (size % 4 !== 0) rec.add('data', base + d + size - (size % 4), size % 4, `${p} (tail)`);
    } else if (type === RDAT_PART_TYPE.RawBytes || size < 8) {
      if (size > 0) rec.add('data', base + d, size, p);
    } else {
      const n = u32(d);
      const stride = u32(d + 4);
      rec.field(base + d, 4, `${p}.recordCount`, n);
      rec.field(base + d + 4, 4, `${p}.recordStride`, stride);
      const words = RECORD_WORDS[type] ?? {};
      for (let k = 0; k < n; k++) {
        const r = d + 8 + k * stride;
        if (r + stride > d + size) break;
        rec.add('record', base + r, stride, `${p}[${k}]`);
        const table = rdatTableOfPart(type);
        if (table && rdatRecordSpans(view, r, table, stride, rec, base, `${p}[${k}]`)) continue;
        for (let w = 0; w + 4 <= stride; w += 4) rec.field(base + r + w, 4, `${p}[${k}].${words[w] ?? `+${w}`}`, u32(r + w));
        if (stride % 4 !== 0) rec.add('data', base + r + stride - (stride % 4), stride % 4, `${p}[${k}] (tail)`);
      }
    }
    rec.fillGaps(base + start, base + start + 8 + size, `${p} (unread)`, 'gap', partMark);
  }
  rec.fillGaps(base, base + bytes.byteLength, `${at} (between parts)`, 'gap', first);
}
