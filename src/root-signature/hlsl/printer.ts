/**
 * Description -> HLSL root signature text. Values equal to the language's defaults are left out;
 * everything else is printed with DXC's spellings, so compiling the text at the same version gives
 * back the same description. Values the language cannot spell (unknown enum values, unknown flag
 * bits, NaN and infinite floats) are an error.
 */
import {
  CLAUSES,
  DEFAULTS,
  HLSL_ADDRESS_MODE,
  HLSL_BORDER_COLOR,
  HLSL_COMPARISON,
  HLSL_FILTER,
  HLSL_RANGE_FLAGS,
  HLSL_ROOT_DESCRIPTOR_FLAGS,
  HLSL_ROOT_FLAGS,
  HLSL_SAMPLER_FLAGS,
  HLSL_VISIBILITY,
  PARAMETERS,
  UNBOUNDED_KEYWORD,
  type HlslEnum,
  type HlslFlags,
} from '../../../codecs/hlsl.js';
import { DESCRIPTOR_RANGE_OFFSET_APPEND, UNBOUNDED_DESCRIPTORS } from '../../../codecs/root-signature.js';
import { DescriptionError } from '../../bytes/errors.js';
import type { DescriptorRange, RootParameter, RootSignature, StaticSampler } from '../types.js';
import { enumSpellings, flagSpellings } from './lexer.js';

export interface PrintOptions {
  /** One clause per line, ranges and sampler fields indented (for reading). */
  multiline?: boolean;
}

const FLT_MAX = 3.4028234663852886e38;
const RANGE_CLAUSE = [CLAUSES.srv, CLAUSES.uav, CLAUSES.cbv, CLAUSES.sampler];
const RANGE_LETTER = ['t', 'u', 'b', 's'];
const DESCRIPTOR_CLAUSE = { 2: [CLAUSES.cbv, 'b'], 3: [CLAUSES.srv, 't'], 4: [CLAUSES.uav, 'u'] } as const;

/**
 * Prints a description as root signature text, leaving out the language's defaults.
 * @throws {DescriptionError} not-representable for values the language cannot spell
 */
export function printRootSignature(rs: RootSignature, options: PrintOptions = {}): string {
  const clauses: { head: string; items: string[] }[] = [];
  if (rs.flags !== 0) clauses.push({ head: CLAUSES.rootFlags, items: [flags(HLSL_ROOT_FLAGS, rs.flags, 'RTS0.flags')] });
  rs.parameters.forEach((p, i) => clauses.push(parameter(p, `RTS0.parameters[${i}]`)));
  rs.staticSamplers.forEach((s, k) => clauses.push(sampler(s, rs.version === 3, `RTS0.staticSamplers[${k}]`)));
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
 * @throws {DescriptionError} not-representable for values the language cannot spell
 */
export function printRootSignatureDefine(name: string, rs: RootSignature, options: PrintOptions = {}): string {
  if (!options.multiline) return `#define ${name} "${printRootSignature(rs)}"`;
  const lines = printRootSignature(rs, { multiline: true }).split('\n');
  return [`#define ${name} \\`, ...lines.map((l, i) => `    "${l}${i < lines.length - 1 ? ' ' : ''}"${i < lines.length - 1 ? ' \\' : ''}`)].join('\n');
}

function parameter(p: RootParameter, path: string): { head: string; items: string[] } {
  const vis = p.shaderVisibility === DEFAULTS.visibility ? [] : [`${PARAMETERS.visibility} = ${enumValue(HLSL_VISIBILITY, p.shaderVisibility, `${path}.shaderVisibility`)}`];
  switch (p.parameterType) {
    case 0: {
      // DXC's grammar needs at least one item in DescriptorTable(...): a table without ranges
      // says its visibility even when it is the default ALL
      const items = [...p.ranges.map((r, j) => range(r, `${path}.ranges[${j}]`)), ...vis];
      if (items.length === 0) items.push(`${PARAMETERS.visibility} = ${enumValue(HLSL_VISIBILITY, p.shaderVisibility, `${path}.shaderVisibility`)}`);
      return { head: CLAUSES.descriptorTable, items };
    }
    case 1:
      return {
        head: CLAUSES.rootConstants,
        items: [`${PARAMETERS.num32BitConstants} = ${p.constants.num32BitValues}`, `b${p.constants.shaderRegister}`, ...space(p.constants.registerSpace), ...vis],
      };
    case 2:
    case 3:
    case 4: {
      const [head, letter] = DESCRIPTOR_CLAUSE[p.parameterType];
      const f = p.descriptor.flags === 0 ? [] : [`${PARAMETERS.flags} = ${flags(HLSL_ROOT_DESCRIPTOR_FLAGS, p.descriptor.flags, `${path}.descriptor.flags`)}`];
      return { head, items: [`${letter}${p.descriptor.shaderRegister}`, ...space(p.descriptor.registerSpace), ...vis, ...f] };
    }
    default:
      throw new DescriptionError('not-representable', `${path}.parameterType`, `parameter type ${String((p as { parameterType: unknown }).parameterType)} has no HLSL spelling`);
  }
}

function range(r: DescriptorRange, path: string): string {
  const clause = RANGE_CLAUSE[r.rangeType];
  if (clause === undefined) throw new DescriptionError('not-representable', `${path}.rangeType`, `range type ${r.rangeType} has no HLSL spelling`);
  const items = [`${RANGE_LETTER[r.rangeType]}${r.baseShaderRegister}`];
  if (r.numDescriptors !== DEFAULTS.numDescriptors) {
    items.push(`${PARAMETERS.numDescriptors} = ${r.numDescriptors === UNBOUNDED_DESCRIPTORS ? UNBOUNDED_KEYWORD : r.numDescriptors}`);
  }
  items.push(...space(r.registerSpace));
  if (r.flags !== 0) items.push(`${PARAMETERS.flags} = ${flags(HLSL_RANGE_FLAGS, r.flags, `${path}.flags`)}`);
  if (r.offsetInDescriptorsFromTableStart !== DESCRIPTOR_RANGE_OFFSET_APPEND) items.push(`${PARAMETERS.offset} = ${r.offsetInDescriptorsFromTableStart}`);
  return `${clause}(${items.join(', ')})`;
}

function sampler(s: StaticSampler, hasFlags: boolean, path: string): { head: string; items: string[] } {
  const d = DEFAULTS.sampler;
  const items = [`s${s.shaderRegister}`];
  const e = (name: keyof typeof d, spelling: HlslEnum) => {
    if (s[name] !== d[name]) items.push(`${name} = ${enumValue(spelling, s[name], `${path}.${name}`)}`);
  };
  const f = (name: 'mipLODBias' | 'minLOD' | 'maxLOD') => {
    if (!Object.is(s[name], d[name])) items.push(`${name} = ${floatText(s[name], `${path}.${name}`)}`);
  };
  e('filter', HLSL_FILTER);
  e('addressU', HLSL_ADDRESS_MODE);
  e('addressV', HLSL_ADDRESS_MODE);
  e('addressW', HLSL_ADDRESS_MODE);
  f('mipLODBias');
  if (s.maxAnisotropy !== d.maxAnisotropy) items.push(`${PARAMETERS.maxAnisotropy} = ${s.maxAnisotropy}`);
  e('comparisonFunc', HLSL_COMPARISON);
  e('borderColor', HLSL_BORDER_COLOR);
  f('minLOD');
  f('maxLOD');
  items.push(...space(s.registerSpace));
  if (s.shaderVisibility !== DEFAULTS.visibility) items.push(`${PARAMETERS.visibility} = ${enumValue(HLSL_VISIBILITY, s.shaderVisibility, `${path}.shaderVisibility`)}`);
  if (s.flags !== 0) {
    if (!hasFlags) throw new DescriptionError('not-representable', `${path}.flags`, 'static sampler flags exist only in version 1.2');
    items.push(`${PARAMETERS.flags} = ${flags(HLSL_SAMPLER_FLAGS, s.flags, `${path}.flags`)}`);
  }
  return { head: CLAUSES.staticSampler, items };
}

function space(value: number): string[] {
  return value === DEFAULTS.space ? [] : [`${PARAMETERS.space} = ${value}`];
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
