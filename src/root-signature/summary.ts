/**
 * A short human-readable listing of a root signature, one line per parameter, range and static
 * sampler. What each line says comes from the codecs/root-signature.ts rows (docs/formats/rts0.md):
 * a field's `summary` rule (place, label, register letter, unit, group), a count field's array,
 * a parameter type row's payload; this file only walks them.
 */
import {
  HEADER,
  RECORDS,
  REGISTER_LETTERS,
  ROOT_PARAMETER_TYPE,
  stores,
  type FieldRow,
  type RecordRow,
  type RegisterClass,
  type RootSignatureVersion,
  type SummaryRule,
} from '../../codecs/root-signature.js';
import { PAYLOAD_OF, parameterTypeRow, versionName } from './rows.js';
import { enumName, flagNames } from '../json/vocabulary.js';
import { checkDescription } from './check.js';
import type { RootSignature } from './types.js';

type Values = Readonly<Record<string, unknown>>;

/** A record's fields with the object holding their values; a parameter's line is its record and its payload's. */
interface Part {
  readonly record: RecordRow;
  readonly values: Values;
  /** The register class a `letter` rule writes. */
  readonly registerClass?: RegisterClass;
}

/**
 * One line per parameter, range and static sampler, for people (the `inspect` listing).
 * @throws {DescriptionError} bad-type, missing-key or out-of-range (the version) for a description that is not one (checkDescription)
 */
export function summarizeRootSignature(rs: RootSignature): string[] {
  const lines: string[] = [];
  const version = checkDescription(rs);
  const walk = (parts: readonly Part[], head: string, depth: number): void => {
    lines.push(head + lineOf(parts, version));
    for (const { record, values } of parts) {
      for (const row of Object.values(record.fields)) {
        if (row.kind !== 'count' || row.record === undefined) continue;
        const element = RECORDS[row.record];
        (values[row.of!] as Values[]).forEach((v, i) => walk(partsOf(element, v), `${'  '.repeat(depth)}${row.of}[${i}] `, depth + 1));
      }
    }
  };
  walk(partsOf(HEADER, rs as unknown as Values), '', 0);
  return lines;
}

/**
 * A record's parts: itself and, for a root parameter (a record locating a payload), the payload
 * record its type row names. A payload that is an array (a table's ranges) is located by the
 * payload record's count field, whose values are the parameter's own.
 */
function partsOf(record: RecordRow, values: Values): Part[] {
  const own: Part = { record, values, ...(record.registerClass ? { registerClass: record.registerClass } : {}) };
  const locatesPayload = Object.values(record.fields).some((r) => r.kind === 'offset' && r.of === PAYLOAD_OF);
  if (!locatesPayload) return [own];
  const typeField = Object.entries(record.fields).find(([, r]) => r.kind === ROOT_PARAMETER_TYPE);
  const type = typeField ? parameterTypeRow(values[typeField[0]] as number) : undefined;
  if (!type) return [own];
  const payload = RECORDS[type.record];
  const isArray = Object.values(payload.fields).some((r) => r.kind === 'count' && r.of === type.payload);
  const registerClass = 'registerClass' in type ? type.registerClass : undefined;
  return [own, { record: payload, values: isArray ? values : (values[type.payload] as Values), ...(registerClass ? { registerClass } : {}) }];
}

/** The items of the parts' printed fields, by place, each after its separator. */
function lineOf(parts: readonly Part[], version: RootSignatureVersion): string {
  let line = '';
  for (const part of parts) {
    const printed = Object.entries(part.record.fields)
      .filter((e): e is [string, FieldRow & { summary: SummaryRule }] => e[1].summary !== undefined && stores(e[1], version))
      .sort((a, b) => a[1].summary.place - b[1].summary.place);
    const done = new Set<unknown>();
    for (const [key, row] of printed) {
      const rule = row.summary;
      if (rule.group && done.has(rule.group)) continue;
      let text: string;
      if (rule.group) {
        done.add(rule.group);
        const members = printed.filter(([, r]) => r.summary.group === rule.group);
        text = `${rule.group.label} ${members.map(([k, r]) => valueText(r, part.values[k], part.values, version)).join(rule.group.join)}`;
      } else {
        text = itemText(row, rule, part.values[key], part, version);
      }
      line += line === '' ? text : (rule.sep ?? ' ') + text;
    }
  }
  return line;
}

function itemText(row: FieldRow, rule: SummaryRule, value: unknown, part: Part, version: RootSignatureVersion): string {
  const text = valueText(row, value, part.values, version);
  if (rule.letter) return REGISTER_LETTERS[part.registerClass!] + text;
  if (rule.unit) return `${text} ${rule.unit[text === '1' ? 0 : 1]}`;
  const label = rule.label ?? row.hlsl?.keyword;
  return label === undefined ? text : `${label} ${text}`;
}

/** A field's value as the summary spells it: names for enumerators, flags and special values. */
function valueText(row: FieldRow, value: unknown, values: Values, version: RootSignatureVersion): string {
  const kind = row.kind;
  if (kind === 'version') return versionName(value as RootSignatureVersion);
  if (kind === 'count') return String((values[row.of!] as unknown[]).length);
  if (typeof kind === 'object') {
    if ('bits' in kind) return flagNames(kind, value as number).map(String).join(' | ') || 'NONE';
    return String(enumName(kind, value as number));
  }
  if (row.special && value === row.special.value) return row.special.summary;
  return String(value);
}
