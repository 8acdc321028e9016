/**
 * Views of the codecs/ RTS0 rows that every consumer needs, computed once at load: the data fields
 * of a record (those the typed description holds, as opposed to counts and offsets), the key of a
 * row, and the version list as text.
 */
import {
  HEADER,
  PARAMETER_TYPES,
  ROOT_SIGNATURE_VERSIONS,
  type FieldRow,
  type RecordRow,
  type RootSignatureVersion,
} from '../../codecs/root-signature.js';

/** A field of a record with its key (the description's property and the JSON key). */
export interface KeyedField {
  readonly key: string;
  readonly row: FieldRow;
}

const STRUCTURE = new Set(['version', 'count', 'offset']);

/** The fields the typed description holds, in storage order (counts, offsets and the version left out). */
export function dataFields(record: RecordRow): KeyedField[] {
  return Object.entries(record.fields)
    .filter(([, row]) => typeof row.kind !== 'string' || !STRUCTURE.has(row.kind))
    .map(([key, row]) => ({ key, row }));
}

/** The key of a row in its record. */
export function keyOf(record: RecordRow, row: FieldRow): string {
  const hit = Object.entries(record.fields).find(([, r]) => r === row);
  if (!hit) throw new Error('dxbin internal: row not in record');
  return hit[0];
}

/** The key of the field of `kind` locating array `of` (`count` or `offset`). */
export function structureKey(record: RecordRow, kind: 'count' | 'offset', of: string): string {
  const hit = Object.entries(record.fields).find(([, r]) => r.kind === kind && r.of === of);
  if (!hit) throw new Error(`dxbin internal: no ${kind} of ${of}`);
  return hit[0];
}

/** The description keys of the header's two arrays (`parameters`, `staticSamplers`), in storage order. */
export const [PARAMETERS_KEY, SAMPLERS_KEY] = Object.values(HEADER.fields)
  .filter((r) => r.kind === 'count')
  .map((r) => r.of!) as [string, string];

/** The header field that holds the version, and its key. */
export const VERSION_KEY = keyOf(HEADER, HEADER.fields.version);

/** "1, 2, 3": the stored version numbers, for messages. */
export const KNOWN_VERSIONS = ROOT_SIGNATURE_VERSIONS.map((v) => v.value).join(', ');

/** The name of a version ("1.1"). */
export function versionName(version: RootSignatureVersion): string {
  return ROOT_SIGNATURE_VERSIONS.find((v) => v.value === version)!.name;
}

/** The parameter type row of a value, or undefined. */
export function parameterTypeRow(value: number): (typeof PARAMETER_TYPES)[number] | undefined {
  return PARAMETER_TYPES.find((t) => t.value === value);
}

/** The key of the parameter type field and of the visibility field in a parameter record. */
export const PAYLOAD_KEYS: readonly string[] = [...new Set(PARAMETER_TYPES.map((t) => t.payload))];
