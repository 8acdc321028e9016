/** Shapes of the declarative tables in codecs/: an enumeration and a set of flag bits. */

/** An enumeration; `T`, its C type, tells the tables apart in types (a row's kind names its table). */
export interface EnumTable<T extends string = string> {
  /** The C type, e.g. D3D12_SHADER_VISIBILITY. */
  readonly type: T;
  /** Prefix of every C enumerator name; names in tables are stored without it. */
  readonly prefix: string;
  readonly values: readonly (readonly [name: string, value: number])[];
}

/** A D3D12 flags type: its C name, the prefix of its constants, its named bits and the mask of every defined bit. */
export interface FlagTable {
  readonly type: string;
  readonly prefix: string;
  /** Single bits with their names. The value 0 is spelled NONE where D3D12 has a name for it. */
  readonly bits: readonly (readonly [name: string, bit: number])[];
  /** Every bit D3D12 defines for this type (validation uses it; decoding keeps any bits). */
  readonly validMask: number;
}

export function enumTable<const T extends string>(type: T, prefix: string, values: readonly (readonly [string, number])[]): EnumTable<T> {
  return { type, prefix, values };
}

export function flagTable(type: string, prefix: string, bits: readonly (readonly [string, number])[]): FlagTable {
  let validMask = 0;
  for (const [, bit] of bits) validMask = (validMask | bit) >>> 0;
  return { type, prefix, bits, validMask };
}

/** The bit of a flag by its name (without the prefix); throws at load for a name the table lacks. */
export function flag(table: FlagTable, name: string): number {
  const hit = table.bits.find(([n]) => n === name);
  if (!hit) throw new Error(`${table.type} has no flag ${name}`);
  return hit[1];
}

/** The value of an enumerator by its name (without the prefix); throws at load for a name the table lacks. */
export function enumerator(table: EnumTable, name: string): number {
  const hit = table.values.find(([n]) => n === name);
  if (!hit) throw new Error(`${table.type} has no enumerator ${name}`);
  return hit[1];
}

/**
 * A lookup of tuple rows by one column, its Map made on first use (not at import): for rule
 * tables read once per report, so many reports cost one index, not a scan each.
 */
export function rowsBy<R extends readonly unknown[]>(rows: readonly R[], column: number): (key: unknown) => R | undefined {
  let index: Map<unknown, R> | undefined;
  return (key) => {
    if (!index) {
      index = new Map();
      for (const r of rows) if (!index.has(r[column])) index.set(r[column], r);
    }
    return index.get(key);
  };
}

/**
 * An enumeration's names by value, a view of its `values` rows (rowsBy: the index made on first
 * use, not at import); undefined for a value the table lacks.
 */
export function namesByValue(table: EnumTable): (value: number) => string | undefined {
  const row = rowsBy(table.values, 1);
  return (value) => row(value)?.[0];
}
