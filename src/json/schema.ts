/**
 * Pieces the JSON Schemas of the JSON forms share (src/root-signature/schema.ts,
 * src/pipeline/schema.ts): a $ref, the u32 definition, and the definition of an enum or flag
 * table from its row.
 */
import type { EnumTable, FlagTable } from '../../codecs/enum-table.js';

export const schemaRef = (name: string) => ({ $ref: `#/$defs/${name}` });

/** A UINT: an integer 0..2^32-1, or "0x" and 1 to 8 hex digits. */
export const u32Schema = () => ({ anyOf: [{ type: 'integer', minimum: 0, maximum: 4294967295 }, { type: 'string', pattern: '^0[xX][0-9a-fA-F]{1,8}$' }] });

/** An enum table's definition: an enumerator name, with or without the prefix, or a u32. */
export function enumSchema(t: EnumTable) {
  return { description: `${t.type}: an enumerator name (with or without "${t.prefix}") or the raw number`, anyOf: [{ enum: t.values.flatMap(([n]) => [n, t.prefix + n]) }, schemaRef('u32')] };
}

/** A flag table's definition (`words` after the type name: what the list holds): a list of names and u32s, or one u32. */
export function flagsSchema(t: FlagTable, words: string) {
  const names = ['NONE', ...t.bits.map(([n]) => n)].flatMap((n) => [n, t.prefix + n]);
  return { description: `${t.type}: ${words}, OR-ed together; or one number`, anyOf: [{ type: 'array', items: { anyOf: [{ enum: names }, schemaRef('u32')] } }, schemaRef('u32')] };
}
