/**
 * The RDAT part as data (docs/formats/rdat.md): a JSON-ready description that keeps every byte.
 * Pools are kept whole; record fields hold resolved values (names, arrays, hex bytes), with the
 * stored references in `refs` so an unedited description encodes to the same bytes. Edit a value
 * (and leave or drop its ref): the encoder finds it in the pool or appends it.
 */
import type { RdatTableName } from '../../codecs/rdat.js';
import type { Budget, WorkLimits } from '../bytes/budget.js';

/** A field value: a number, a name (enumerated u32, string), an array, hex bytes, or null for "none". */
export type RdatValue = number | string | readonly (number | string)[] | null;

/** One record: its fields by name, plus what keeps it bit-exact. */
export interface RdatRecord {
  [field: string]: RdatValue | RdatRefs | undefined;
  /** Stored references by field name: pool offsets/indices, `[offset, size]` for bytes. */
  refs?: RdatRefs;
}
/** Stored references of a record by field name: a pool offset or index, or `[offset, size]` for bytes. */
export type RdatRefs = { [field: string]: number | readonly [number, number] };

/** The StringBuffer part: its strings, or hex when it is not UTF-8. */
export interface RdatStringBuffer {
  type: 'StringBuffer';
  /** The buffer split at NUL bytes (the buffer is `strings.join('\0')` as UTF-8), or `hex` when it is not UTF-8. */
  strings?: string[];
  hex?: string;
}
/** The IndexArrays part as its u32 words. */
export interface RdatIndexArrays {
  type: 'IndexArrays';
  /** The part as u32 words: arrays stored `count, values...`. */
  values: number[];
}
/** The RawBytes part as hex. */
export interface RdatRawBytes {
  type: 'RawBytes';
  hex: string;
}
/** A record table part: its type, stored stride and records. */
export interface RdatTable {
  type: RdatTableName;
  /** Record stride as stored; it picks the record layout (FunctionInfo 44, FunctionInfo2 52). */
  stride: number;
  records: RdatRecord[];
}
/** A part of a type dxbin has no row for, kept as bytes. */
export interface RdatOpaquePart {
  type: number;
  hex: string;
}
/** One part of an RDAT description, by its type. */
export type RdatPartDescription = RdatStringBuffer | RdatIndexArrays | RdatRawBytes | RdatTable | RdatOpaquePart;

/** An RDAT part as data: its version and its parts in stored order. */
export interface RdatDescription {
  version: number;
  parts: RdatPartDescription[];
}

/** Budgets against hostile RDAT parts (docs/limits.md): `maxResolved` and the other WorkLimits. */
export interface RdatDecodeOptions extends WorkLimits {
  /**
   * The call's work budget, charged one `resolve` unit per string character, array element and
   * hex byte resolved into records (default `Budget.for(RDAT bytes, these limits)`: 8 x bytes + 1024).
   */
  budget?: Budget;
  /**
   * Records naming one stored index array get one shared array, resolved and charged once (each
   * further reference costs one `resolve` unit): for readers that walk the description, as
   * describeLibrary does (DXC shares identical lists: 5,000 functions naming one list of 400
   * resources). Off by default, because JSON.stringify of such a description writes the shared
   * array at every reference.
   */
  sharedArrays?: boolean;
}
