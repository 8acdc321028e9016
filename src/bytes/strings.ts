/**
 * NUL-terminated strings of one table (PSV0 string table, RDEF), read for names many records
 * may share: each offset is decoded once, the end of every string is found in one pass over the
 * table, and a name longer than `maxBytes` is cut with a count of what was left out, so names
 * printed per record stay within a fixed multiple of the input (docs/limits.md).
 */

/** Default cut of a name read from a table: longer names end in `…(+N bytes)`. */
export const NAME_BYTES = 256;

/**
 * The name reader of `table`: offset -> its string (cut at `maxBytes`), undefined outside the table.
 * Linear in the table once, then one decode per distinct offset.
 */
export function tableNames(table: Uint8Array, maxBytes = NAME_BYTES): (offset: number) => string | undefined {
  let ends: Uint32Array | undefined;
  const cache = new Map<number, string>();
  const decoder = new TextDecoder();
  return (offset) => {
    if (!(offset >= 0 && offset < table.byteLength)) return undefined;
    const hit = cache.get(offset);
    if (hit !== undefined) return hit;
    if (!ends) {
      ends = new Uint32Array(table.byteLength);
      let end = table.byteLength;
      for (let i = table.byteLength - 1; i >= 0; i--) {
        if (table[i] === 0) end = i;
        ends[i] = end;
      }
    }
    const end = ends[offset]!;
    const cut = Math.min(end, offset + maxBytes);
    const name = decoder.decode(table.subarray(offset, cut)) + (cut < end ? `…(+${end - cut} bytes)` : '');
    cache.set(offset, name);
    return name;
  };
}
