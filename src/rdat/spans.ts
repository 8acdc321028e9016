/**
 * Byte-map spans of one RDAT table record: the codecs/rdat.ts rows read (style `plain`) and mapped
 * by the row interpreter (src/rows/record.ts recordSpans): every field at its offset
 * and size with its name (enumerations named), the union's fields as its kind picks them, bytes
 * past them as padding (docs/byte-map.md). Used by src/ddi/spans.ts for `inspect --hex`/`--html`.
 */
import { RDAT_TABLES, type RdatTableName } from '../../codecs/rdat.js';
import { Budget } from '../bytes/budget.js';
import { readRecord, recordSpans, RowReader } from '../rows/record.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { layoutForStride } from './decode.js';

const TABLE_BY_PART = new Map<number, RdatTableName>((Object.keys(RDAT_TABLES) as RdatTableName[]).map((name) => [RDAT_TABLES[name].part, name]));

/** The table a part type holds, or undefined (pools and unknown parts). */
export function rdatTableOfPart(type: number): RdatTableName | undefined {
  return TABLE_BY_PART.get(type);
}

/**
 * Records the fields of the record at `r` (offset in `view`) of `table` with `stride`; false when
 * no layout fits the stride (the caller then records words).
 * @param base absolute offset of `view`'s first byte
 */
export function rdatRecordSpans(view: DataView, r: number, table: RdatTableName, stride: number, rec: SpanRecorder, base: number, path: string): boolean {
  const layout = layoutForStride(table, stride);
  if (!layout) return false;
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  // stored values only (references as their words), for the spans
  const row = readRecord(layout, new RowReader(bytes, base, Budget.for(layout.size)), r, path, undefined, 'plain');
  recordSpans(layout, row, rec, base, r, path, { record: false });
  if (stride > layout.size) rec.add('padding', base + r + layout.size, stride - layout.size, `${path} (past the record)`);
  return true;
}
