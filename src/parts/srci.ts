/**
 * SRCI (DXC source info): a header, then sections of source contents (zlib-compressed or plain),
 * source names and compiler arguments (docs/formats/parts.md). Every header is a row of
 * codecs/parts.ts read through the one row reader; compressed contents are inflated with a bound
 * the declared size and the work budget's `produce` kind give, never more.
 */
import type { RecordDef } from '../../codecs/rows.js';
import { SRCI_ARGS, SRCI_CONTENTS, SRCI_CONTENTS_ENTRY, SRCI_HEADER, SRCI_NAMES, SRCI_NAMES_ENTRY, SRCI_SECTION } from '../../codecs/parts.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { readNul } from '../bytes/strings.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { checkRow, readRecord, recordSpans, RowReader, type Extent, type Row } from '../rows/record.js';

/** SRCI record layouts by C name (the placed records name theirs). */
const DEFS: Readonly<Record<string, RecordDef>> = Object.fromEntries([SRCI_HEADER, SRCI_SECTION, SRCI_CONTENTS, SRCI_CONTENTS_ENTRY, SRCI_NAMES, SRCI_NAMES_ENTRY, SRCI_ARGS].map((d) => [d.name, d]));

/** The SRCI record layout a description names, among the own names only (a record "constructor" is none), or undefined. */
export const srciRecordDef = (name: unknown): RecordDef | undefined => (typeof name === 'string' && Object.hasOwn(DEFS, name) ? DEFS[name] : undefined);

/** A record read from the part bytes: its layout's C name, data offset and value. */
export interface SrciRecord {
  record: string;
  at: number;
  row: Row;
}

/** One SRCI section as read. */
export interface SrciSection {
  at: number;
  type: number;
  typeName?: string;
  /** SourceContents: one text per entry (after inflating). */
  contents?: string[];
  /** SourceNames: file names. */
  names?: string[];
  /** Args: name/value pairs. */
  args?: [string, string][];
  /** Why contents could not be shown (no inflate on this host). */
  note?: string;
}

/** SRCI decoded: the header rows in place (what is written back) and the sections for display. */
export interface SrciDecode {
  records: SrciRecord[];
  sections: SrciSection[];
}

type Inflate = (data: Uint8Array, maxOutputLength: number) => Uint8Array;

/** node:zlib's inflateSync where the host has it (Node), else undefined. */
function hostInflate(): Inflate | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const zlib = proc?.getBuiltinModule?.('node:zlib') as { inflateSync(b: Uint8Array, o: { maxOutputLength: number }): Uint8Array } | undefined;
  return zlib ? (data, max) => zlib.inflateSync(data, { maxOutputLength: Math.max(1, max) }) : undefined;
}

/**
 * Reads an SRCI part; `extents` receives the header rows' bytes (what encode writes back).
 * @throws {DecodeError} truncated, bad-offset (a section past the part), bad-token (inflated size differs from the declared one)
 * @throws {LimitError} limit-exceeded (records, strings, inflated bytes)
 */
export function decodeSrci(r: RowReader, extents: Extent[], inflate: Inflate | undefined = hostInflate()): SrciDecode {
  const records: SrciRecord[] = [];
  const read = (def: RecordDef, at: number, path: string, from: RowReader = r) => {
    const row = readRecord(def, from, at, path, from === r ? extents : undefined);
    if (from === r) records.push({ record: def.name, at, row });
    return row;
  };
  const header = read(SRCI_HEADER, 0, 'SRCI.header');
  const sections: SrciSection[] = [];
  let at = SRCI_HEADER.size;
  const count = header.sectionCount as number;
  for (let i = 0; i < count; i++) {
    const path = `SRCI.sections[${i}]`;
    const sh = read(SRCI_SECTION, at, `${path}.header`);
    const size = sh.alignedSize as number;
    if (size < SRCI_SECTION.size || size > r.bytes.byteLength - at) throw new DecodeError('bad-offset', r.base + at, `${path}.alignedSize`, `a section of ${size} bytes at ${at} does not fit in the part's ${r.bytes.byteLength} bytes`);
    const dataAt = at + SRCI_SECTION.size;
    const end = at + size;
    const section: SrciSection = { at, type: sh.type as number, ...(sh.typeName ? { typeName: sh.typeName as string } : {}) };
    const inner = new RowReader(r.bytes.subarray(0, end), r.base, r.budget);
    if (sh.type === 0) {
      const h = read(SRCI_CONTENTS, dataAt, `${path}.contents`, inner);
      records.push({ record: SRCI_CONTENTS.name, at: dataAt, row: h });
      extents.push([dataAt, dataAt + SRCI_CONTENTS.size]);
      const entriesAt = dataAt + SRCI_CONTENTS.size;
      const stored = h.entriesSize as number;
      inner.need(entriesAt, stored, `${path}.contents.entries`);
      let entries = r.bytes.subarray(entriesAt, entriesAt + stored);
      let entriesBase = r.base + entriesAt;
      let placed = true;
      // contents packed by a method this reader does not know would be shown (and listed) as their packed bytes
      if (h.compressType !== 0 && h.compressType !== 1) throw new DecodeError('bad-token', r.base + dataAt + 6, `${path}.contents.compressType`, `compression ${String(h.compressType)} is none DXC writes (0: none, 1: zlib)`);
      if (h.compressType === 1) {
        const want = h.uncompressedEntriesSize as number;
        if (!inflate) {
          section.note = 'compressed (zlib) sources: no inflate on this host';
          sections.push(section);
          at = end;
          continue;
        }
        r.budget.charge('produce', want, `${path}.contents.uncompressedEntriesSize`);
        let out: Uint8Array;
        try {
          out = inflate(entries, want);
        } catch (e) {
          throw new DecodeError('bad-token', r.base + entriesAt, `${path}.contents.entries`, `zlib data does not inflate to ${want} bytes (${e instanceof Error ? e.message : String(e)})`);
        }
        if (out.byteLength !== want) throw new DecodeError('bad-token', r.base + entriesAt, `${path}.contents.entries`, `zlib data inflates to ${out.byteLength} bytes, the header says ${want}`);
        entries = out;
        entriesBase = 0;
        placed = false;
      }
      const er = new RowReader(entries, entriesBase, r.budget);
      const texts: string[] = [];
      let e = 0;
      for (let k = 0; k < (h.count as number); k++) {
        const ep = `${path}.contents.entries[${k}]`;
        const entry = readRecord(SRCI_CONTENTS_ENTRY, er, e, ep, undefined);
        if (placed) {
          records.push({ record: SRCI_CONTENTS_ENTRY.name, at: entriesAt + e, row: entry });
          extents.push([entriesAt + e, entriesAt + e + SRCI_CONTENTS_ENTRY.size]);
        }
        const n = entry.contentSize as number;
        er.need(e + SRCI_CONTENTS_ENTRY.size, n, `${ep}.contentSize`);
        texts.push(readNul(entries.subarray(0, e + SRCI_CONTENTS_ENTRY.size + n), e + SRCI_CONTENTS_ENTRY.size, r.budget, ep).text);
        const step = entry.alignedSize as number;
        if (step < SRCI_CONTENTS_ENTRY.size) throw new DecodeError('bad-offset', entriesBase + e, `${ep}.alignedSize`, `an entry of ${step} bytes`);
        e += step;
      }
      section.contents = texts;
    } else if (sh.type === 1) {
      const h = read(SRCI_NAMES, dataAt, `${path}.names`, inner);
      records.push({ record: SRCI_NAMES.name, at: dataAt, row: h });
      extents.push([dataAt, dataAt + SRCI_NAMES.size]);
      const names: string[] = [];
      let e = dataAt + SRCI_NAMES.size;
      for (let k = 0; k < (h.count as number); k++) {
        const ep = `${path}.names.entries[${k}]`;
        const entry = read(SRCI_NAMES_ENTRY, e, ep, inner);
        records.push({ record: SRCI_NAMES_ENTRY.name, at: e, row: entry });
        extents.push([e, e + SRCI_NAMES_ENTRY.size]);
        const n = entry.nameSize as number;
        inner.need(e + SRCI_NAMES_ENTRY.size, n, `${ep}.nameSize`);
        names.push(readNul(r.bytes.subarray(0, e + SRCI_NAMES_ENTRY.size + n), e + SRCI_NAMES_ENTRY.size, r.budget, ep).text);
        const step = entry.alignedSize as number;
        if (step < SRCI_NAMES_ENTRY.size) throw new DecodeError('bad-offset', r.base + e, `${ep}.alignedSize`, `an entry of ${step} bytes`);
        e += step;
      }
      section.names = names;
    } else if (sh.type === 2) {
      const h = read(SRCI_ARGS, dataAt, `${path}.args`, inner);
      records.push({ record: SRCI_ARGS.name, at: dataAt, row: h });
      extents.push([dataAt, dataAt + SRCI_ARGS.size]);
      const argsEnd = dataAt + SRCI_ARGS.size + (h.size as number);
      inner.need(dataAt + SRCI_ARGS.size, h.size as number, `${path}.args.size`);
      const bytes = r.bytes.subarray(0, argsEnd);
      const args: [string, string][] = [];
      let p = dataAt + SRCI_ARGS.size;
      for (let k = 0; k < (h.count as number) && p < argsEnd; k++) {
        const name = readNul(bytes, p, r.budget, `${path}.args[${k}]`);
        const value = name.end + 1 < argsEnd ? readNul(bytes, name.end + 1, r.budget, `${path}.args[${k}]`) : { text: '', end: argsEnd };
        args.push([name.text, value.text]);
        p = value.end + 1;
      }
      section.args = args;
    }
    sections.push(section);
    at = end;
  }
  // rows read through `inner` were pushed by hand above; keep one entry per place
  const seen = new Set<number>();
  const unique = records.filter((x) => (seen.has(x.at) ? false : (seen.add(x.at), true)));
  return { records: unique, sections };
}

/** Writes the SRCI header rows back (the kept bytes hold everything else). */
export function encodeSrci(s: SrciDecode, out: DataView, write: (def: RecordDef, row: Row, out: DataView, at: number) => void): void {
  s.records.forEach((x, i) => {
    const def = srciRecordDef(x.record);
    if (!def) throw new DescriptionError('bad-name', `part.sourceInfo.records[${i}].record`, `no SRCI record ${quoted(String(x.record))}`);
    if (typeof x.at !== 'number' || !Number.isInteger(x.at) || x.at < 0 || x.at + def.size > out.byteLength) throw new DescriptionError('out-of-range', `part.sourceInfo.records[${i}].at`, `the record does not fit the part's ${out.byteLength} bytes`);
    checkRow(def, x.row, `part.sourceInfo.records[${i}].row`);
    write(def, x.row, out, x.at);
  });
}

/** Byte-map spans of the SRCI header rows. */
export function srciSpans(s: SrciDecode, rec: SpanRecorder, base: number, path: string): void {
  for (const x of s.records) {
    const def = srciRecordDef(x.record);
    if (def) recordSpans(def, x.row, rec, base, x.at, `${path}.${x.record}`);
  }
}
