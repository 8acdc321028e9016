/**
 * Byte-map spans of one RDAT table record from the codecs/rdat.ts rows: every field at its offset
 * and size with its name (enumerations named), the union's fields as its kind picks them, bytes
 * past them as padding (docs/byte-map.md). Used by src/ddi/spans.ts for `inspect --hex`/`--html`.
 */
import { RDAT_FIELD_SIZE, RDAT_TABLES, type RdatTableName } from '../../codecs/rdat.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { layoutForStride, recordSize } from './decode.js';

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
  let at = r;
  const values = new Map<string, number>();
  const fields = (list: typeof layout.fields) => {
    for (const f of list) {
      const size = RDAT_FIELD_SIZE[f.kind];
      const p = `${path}.${f.name}`;
      if (f.kind === 'bytes') {
        rec.field(base + at, 4, `${p}.Offset`, view.getUint32(at, true));
        rec.field(base + at + 4, 4, `${p}.Size`, view.getUint32(at + 4, true));
      } else {
        const v = size === 1 ? view.getUint8(at) : size === 2 ? view.getUint16(at, true) : view.getUint32(at, true);
        values.set(f.name, v);
        rec.field(base + at, size, p, v, f.names?.[v]);
      }
      at += size;
    }
  };
  fields(layout.fields);
  if (layout.union) {
    const end = at + layout.union.size;
    fields(layout.union.cases[values.get(layout.union.by)!] ?? []);
    if (at < end) rec.add('padding', base + at, end - at, `${path} (union rest)`);
    at = end;
  }
  if (stride > recordSize(layout)) rec.add('padding', base + r + recordSize(layout), stride - recordSize(layout), `${path} (past the record)`);
  return true;
}
