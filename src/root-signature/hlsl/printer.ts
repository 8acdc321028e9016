/**
 * Description -> HLSL root signature text. Values equal to the language's defaults are left out;
 * everything else is printed with DXC's spellings, so compiling the text at the same version gives
 * back the same description. Values the language cannot spell (unknown enum values, unknown flag
 * bits, NaN and infinite floats) are an error.
 */
import { CLAUSES, DEFAULTS, HLSL_ROOT_FLAGS, HLSL_VISIBILITY, REGISTER_TOKEN, hlslSpelling, type HlslEnum, type HlslFlags } from '../../../codecs/hlsl.js';
import {
  CONSTANTS,
  DESCRIPTOR,
  FLT_MAX,
  PARAMETER,
  RANGE_TYPES,
  REGISTER_LETTERS,
  RANGE,
  SAMPLER,
  stores,
  type FieldRow,
  type RecordRow,
  versionsStoring,
} from '../../../codecs/root-signature.js';
import { KEYS, fieldPath, PAYLOAD_KEY, dataFields, parameterPath, parameterTypeRow, rangePath, rootPath, samplerPath } from '../rows.js';
import { DescriptionError } from '../../bytes/errors.js';
import { checkDescription } from '../check.js';
import { expectOptions } from '../../bytes/check.js';
import { hlslIdentifier } from '../../bytes/text.js';
import type { DescriptorRange, DescriptorTableParameter, RootConstantsParameter, RootDescriptorParameter, RootParameter, RootSignature, StaticSampler } from '../types.js';
import { enumSpellings, flagSpellings } from './lexer.js';

/** Options of printRootSignature. */
export interface PrintOptions {
  /** One clause per line, ranges and sampler fields indented (for reading). */
  multiline?: boolean;
}

/** Range type -> [clause, register letter], from the vocabulary rows. */
const RANGE_CLAUSES = new Map(RANGE_TYPES.map((t) => [t.value as number, [t.clause, REGISTER_LETTERS[t.name]] as const]));
const [H, P, R, S] = [KEYS.HEADER, KEYS.PARAMETER, KEYS.RANGE, KEYS.SAMPLER];
const VISIBILITY = PARAMETER.fields.shaderVisibility.hlsl.keyword;

/**
 * Prints a description as root signature text, leaving out the language's defaults.
 * @throws {DescriptionError} not-representable for values the language cannot spell; bad-type, missing-key or out-of-range (the version) for a description that is not one (checkDescription)
 */
export function printRootSignature(rs: RootSignature, options: PrintOptions = {}): string {
  checkDescription(rs);
  expectOptions(options);
  const clauses: { head: string; items: string[] }[] = [];
  if (rs.flags !== 0) clauses.push({ head: CLAUSES.rootFlags, items: [flags(HLSL_ROOT_FLAGS, rs.flags, rootPath(H.flags))] });
  rs.parameters.forEach((p, i) => clauses.push(parameter(p, parameterPath(i))));
  rs.staticSamplers.forEach((s, k) => clauses.push(sampler(s, stores(SAMPLER.fields.flags, rs.version), samplerPath(k))));
  if (!options.multiline) return clauses.map((c) => `${c.head}(${c.items.join(', ')})`).join(', ');
  return clauses
    .map((c) => {
      if (c.head !== CLAUSES.descriptorTable && c.head !== CLAUSES.staticSampler) return `${c.head}(${c.items.join(', ')})`;
      const [first, ...rest] = c.items;
      if (c.head === CLAUSES.staticSampler) return rest.length === 0 ? `${c.head}(${first})` : `${c.head}(${first},\n${rest.map((x) => `    ${x}`).join(',\n')})`;
      return `${c.head}(\n${c.items.map((x) => `    ${x}`).join(',\n')})`;
    })
    .join(',\n');
}

/**
 * The text as a #define: one line, or continuation lines of adjacent string literals.
 * @throws {DescriptionError} not-representable for values the language cannot spell; bad-name for a `name` that is not an identifier (hlslIdentifier)
 */
export function printRootSignatureDefine(name: string, rs: RootSignature, options: PrintOptions = {}): string {
  hlslIdentifier(name, 'name');
  expectOptions(options);
  if (!options.multiline) return `#define ${name} "${printRootSignature(rs)}"`;
  const lines = printRootSignature(rs, { multiline: true }).split('\n');
  return [`#define ${name} \\`, ...lines.map((l, i) => `    "${l}${i < lines.length - 1 ? ' ' : ''}"${i < lines.length - 1 ? ' \\' : ''}`)].join('\n');
}

function parameter(p: RootParameter, path: string): { head: string; items: string[] } {
  const vis = p.shaderVisibility === DEFAULTS.visibility ? [] : [`${VISIBILITY} = ${enumValue(HLSL_VISIBILITY, p.shaderVisibility, `${path}.${P.shaderVisibility}`)}`];
  const type = parameterTypeRow(p.parameterType);
  switch (type?.record) {
    case 'TABLE': {
      // DXC's grammar needs at least one item in DescriptorTable(...): a table without ranges
      // says its visibility even when it is the default ALL
      const items = [...(p as DescriptorTableParameter)[PAYLOAD_KEY.TABLE].map((r, j) => range(r, rangePath(path, j))), ...vis];
      if (items.length === 0) items.push(`${VISIBILITY} = ${enumValue(HLSL_VISIBILITY, p.shaderVisibility, `${path}.${P.shaderVisibility}`)}`);
      return { head: type.clause, items };
    }
    case 'CONSTANTS':
      return { head: type.clause, items: fieldItems(CONSTANTS, (p as RootConstantsParameter)[PAYLOAD_KEY.CONSTANTS], REGISTER_LETTERS[type.registerClass], fieldPath(path, PAYLOAD_KEY.CONSTANTS), vis) };
    case 'DESCRIPTOR':
      return { head: type.clause, items: fieldItems(DESCRIPTOR, (p as RootDescriptorParameter)[PAYLOAD_KEY.DESCRIPTOR], REGISTER_LETTERS[type.registerClass], fieldPath(path, PAYLOAD_KEY.DESCRIPTOR), vis) };
    default:
      throw new DescriptionError('not-representable', `${path}.${P.parameterType}`, `parameter type ${String((p as { parameterType: unknown }).parameterType)} has no HLSL spelling`);
  }
}

function range(r: DescriptorRange, path: string): string {
  const kind = RANGE_CLAUSES.get(r.rangeType);
  if (kind === undefined) throw new DescriptionError('not-representable', `${path}.${R.rangeType}`, `range type ${r.rangeType} has no HLSL spelling`);
  const [clause, letter] = kind;
  return `${clause}(${fieldItems(RANGE, r, letter, path).join(', ')})`;
}

function sampler(s: StaticSampler, hasFlags: boolean, path: string): { head: string; items: string[] } {
  if (s.flags !== 0 && !hasFlags) throw new DescriptionError('not-representable', `${path}.${S.flags}`, `static sampler flags exist only in version ${versionsStoring(SAMPLER.fields.flags)}`);
  return { head: CLAUSES.staticSampler, items: fieldItems(SAMPLER, s, REGISTER_LETTERS.SAMPLER, path) };
}

/**
 * A record's clause items from its rows, in the order of DXC's grammar: the items the language
 * requires (fields without an HLSL default: num32BitConstants), the register token, then every
 * other field with an HLSL keyword whose value differs from the language's default, in row order.
 * `parameter` holds a root parameter's own items (its visibility): they go before the record's
 * flags, as a static sampler's rows have them (space, visibility, flags), or last.
 */
function fieldItems(record: RecordRow, values: object, letter: string, path: string, parameter: readonly string[] = []): string[] {
  const v = values as Record<string, number>;
  const required: string[] = [];
  const register: string[] = [];
  const items: string[] = [];
  let flagsAt = -1;
  for (const { key, row } of dataFields(record)) {
    const hlsl = row.hlsl;
    if (!hlsl) continue;
    const value = v[key]!;
    if (hlsl.keyword === REGISTER_TOKEN) {
      register.push(`${letter}${value}`);
      continue;
    }
    if (hlsl.default === undefined) {
      required.push(`${hlsl.keyword} = ${spell(row, value, `${path}.${key}`)}`);
      continue;
    }
    if (flagsAt < 0 && isFlags(row)) flagsAt = items.length;
    if (row.kind === 'f32' ? Object.is(value, hlsl.default) : value === hlsl.default) continue;
    items.push(`${hlsl.keyword} = ${spell(row, value, `${path}.${key}`)}`);
  }
  const at = flagsAt < 0 ? items.length : flagsAt;
  return [...required, ...register, ...items.slice(0, at), ...parameter, ...items.slice(at)];
}

const isFlags = (row: FieldRow) => typeof row.kind !== 'string' && 'bits' in row.kind;

/** A value as the language spells it for its row's kind. */
function spell(row: FieldRow, value: number, path: string): string {
  const kind = row.kind;
  if (kind === 'f32') return floatText(value, path);
  if (typeof kind === 'string') return row.special && value === row.special.value ? row.special.hlsl : String(value);
  const spelling = hlslSpelling(kind);
  return 'bits' in kind ? flags(spelling as HlslFlags, value, path) : enumValue(spelling as HlslEnum, value, path);
}

function enumValue(e: HlslEnum, value: number, path: string): string {
  const hit = enumSpellings(e).find(([, v]) => v === value);
  if (!hit) throw new DescriptionError('not-representable', path, `${e.table.type} value ${value} has no HLSL spelling`);
  return hit[0];
}

function flags(f: HlslFlags, value: number, path: string): string {
  const names: string[] = [];
  let rest = value >>> 0;
  for (const [name, bit] of flagSpellings(f)) {
    if ((rest & bit) === bit) {
      names.push(name);
      rest = (rest & ~bit) >>> 0;
    }
  }
  if (rest !== 0) throw new DescriptionError('not-representable', path, `${f.table.type} bits 0x${rest.toString(16)} have no HLSL spelling`);
  return names.length === 0 ? '0' : names.join(' | ');
}

/**
 * The shortest decimal that the language reads back as the same binary32 value: DXC rejects
 * values beyond FLT_MAX as doubles, so FLT_MAX itself prints as 3.402823466e+38.
 */
export function floatText(value: number, path: string): string {
  if (!Number.isFinite(value)) throw new DescriptionError('not-representable', path, `${value} cannot be written in HLSL`);
  if (Object.is(value, -0)) return '-0.0';
  for (let digits = 1; digits <= 17; digits++) {
    const text = value.toPrecision(digits);
    const parsed = Number.parseFloat(text);
    if (Math.fround(parsed) === value && Math.abs(parsed) <= FLT_MAX) return tidy(text);
  }
  return tidy(value.toPrecision(17));
}

/** toPrecision's "1.500e+2" style -> "150" / "1.5e+38"; keeps a form DXC's tokenizer reads. */
function tidy(text: string): string {
  const n = Number.parseFloat(text);
  const plain = String(n);
  const out = Math.fround(n) === Math.fround(Number.parseFloat(plain)) && Math.abs(Number.parseFloat(plain)) <= FLT_MAX ? plain : text;
  // an integer token must fit in u32 (or i32 when negative); beyond that, write it as a float
  return /^[+-]?\d+$/.test(out) && (Number(out) > 0xffffffff || Number(out) < -0x80000000) ? `${out}.0` : out;
}
