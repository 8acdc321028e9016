/**
 * The one reader of NUL-terminated strings (RDAT StringBuffer, PSV0 string table, RDEF): each
 * offset is decoded once, the end of every string is found in one pass over the table (offsets
 * into the middle of a string cost nothing more), and a name longer than `maxBytes` is cut with a
 * count of what was left out, so names printed per record stay within a fixed multiple of the
 * input (docs/limits.md). Every format reads its strings here; none scans for NUL itself.
 */

/** Default cut of a name read from a table: longer names end in `…(+N bytes)`. */
export const NAME_BYTES = 256;

/** The strings of one table: offset -> its string (undefined outside the table), and where each ends. */
export interface TableNames {
  (offset: number): string | undefined;
  /** Index of the NUL ending the string at `offset`, or -1 when the table ends first (or `offset` is outside). */
  endOf(offset: number): number;
}

/**
 * The name reader of `table`: offset -> its string (cut at `maxBytes`), undefined outside the table.
 * A string the table ends before its NUL runs to the end of the table (`endOf` says -1).
 * Linear in the table once, then one decode per distinct offset.
 * @param fatal throw TypeError on bytes that are not UTF-8 (callers that keep bytes exact); else U+FFFD
 */
export function tableNames(table: Uint8Array, maxBytes = NAME_BYTES, fatal = false): TableNames {
  let ends: Int32Array | undefined;
  const cache = new Map<number, string>();
  const decoder = new TextDecoder('utf-8', { fatal });
  const endsOf = (): Int32Array => {
    if (!ends) {
      ends = new Int32Array(table.byteLength);
      let end = -1;
      for (let i = table.byteLength - 1; i >= 0; i--) {
        if (table[i] === 0) end = i;
        ends[i] = end;
      }
    }
    return ends;
  };
  const endOf = (offset: number): number => (offset >= 0 && offset < table.byteLength ? endsOf()[offset]! : -1);
  const read = (offset: number): string | undefined => {
    if (!(offset >= 0 && offset < table.byteLength)) return undefined;
    const hit = cache.get(offset);
    if (hit !== undefined) return hit;
    const stored = endsOf()[offset]!;
    const end = stored < 0 ? table.byteLength : stored;
    const cut = Math.min(end, offset + maxBytes);
    const name = decoder.decode(table.subarray(offset, cut)) + (cut < end ? `…(+${end - cut} bytes)` : '');
    cache.set(offset, name);
    return name;
  };
  return Object.assign(read, { endOf });
}

/** A NUL-terminated string read at an offset: its text, where it ends (the NUL, or the data's end) and whether a NUL was found. */
export interface NulString {
  text: string;
  /** Offset of the NUL (or of the end of the data when there is none). */
  end: number;
  terminated: boolean;
}

const utf8 = new TextDecoder();

/**
 * The one reader of a NUL-terminated UTF-8 string at `offset` of `bytes` (names in signatures,
 * RDEF, VERS, SRCI). Charges the bytes looked at to the budget (`resolve`), so many records that
 * name one long string cost what they print. A string without a NUL runs to the end of the data.
 * @throws {LimitError} limit-exceeded when the budget runs out
 */
export function readNul(bytes: Uint8Array, offset: number, budget: { charge(kind: 'resolve', n: number, where: string): void }, where: string): NulString {
  const nul = offset < bytes.byteLength ? bytes.indexOf(0, offset) : -1;
  const end = nul < 0 ? bytes.byteLength : nul;
  budget.charge('resolve', end - offset + 1, where);
  return { text: utf8.decode(bytes.subarray(offset, end)), end, terminated: nul >= 0 };
}
