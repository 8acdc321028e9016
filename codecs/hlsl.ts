/**
 * The HLSL root signature language (DXC/fxc dialect, docs/formats/hlsl-root-signature.md): keyword spellings and how each
 * enum and flag table is spelled in it. The spellings of values come from the D3D12 tables in
 * root-signature.ts, so the language, the JSON form and the validator share one vocabulary.
 */
import type { EnumTable, FlagTable } from './enum-table.js';
import {
  COMPARISON_FUNC,
  DESCRIPTOR_RANGE_FLAGS,
  FILTER,
  FILTERS_UNKNOWN_TO_DXC,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  RANGE_TYPES,
  RECORDS,
  SAMPLER,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_SIGNATURE_FLAGS,
  SAMPLER_FLAGS,
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
  type FieldRow,
} from './root-signature.js';

const parameterClause = (name: (typeof PARAMETER_TYPES)[number]['name']) => PARAMETER_TYPES.find((t) => t.name === name)!.clause;
const rangeClause = (name: (typeof RANGE_TYPES)[number]['name']) => RANGE_TYPES.find((t) => t.name === name)!.clause;

/** Clause keywords (matched case-insensitively, printed as written); kinds' clauses come from their vocabulary rows. */
export const CLAUSES = {
  rootFlags: 'RootFlags',
  rootConstants: parameterClause('32BIT_CONSTANTS'),
  cbv: parameterClause('CBV'),
  srv: parameterClause('SRV'),
  uav: parameterClause('UAV'),
  sampler: rangeClause('SAMPLER'),
  descriptorTable: parameterClause('DESCRIPTOR_TABLE'),
  staticSampler: 'StaticSampler',
} as const;

/** The field rows' `hlsl.keyword` that names the clause's register token (b#, t#, u#, s#), not a keyword. */
export const REGISTER_TOKEN = 'register';

const hlslRows = Object.values(RECORDS).flatMap((record) => Object.values(record.fields) as FieldRow[]);
/** Parameter keywords inside clauses: every field row's `hlsl.keyword` (the register token aside), each once. */
export const FIELD_KEYWORDS: readonly string[] = [...new Set(hlslRows.flatMap((row) => (row.hlsl && row.hlsl.keyword !== REGISTER_TOKEN ? [row.hlsl.keyword] : [])))];
/** Keywords of special values (`unbounded`, `DESCRIPTOR_RANGE_OFFSET_APPEND`): the rows' `special.hlsl`, each once. */
export const SPECIAL_KEYWORDS: readonly string[] = [...new Set(hlslRows.flatMap((row) => (row.special ? [row.special.hlsl] : [])))];

/** How one table's values are spelled: HLSL prefix + the D3D12 name without its C prefix. */
export interface HlslSpelling {
  readonly prefix: string;
  /** How DXC's messages name a value of this table ("Unexpected <what> value"). */
  readonly what?: string;
  /** Values the language has no keyword for (DXC does not know them). */
  readonly excluded?: ReadonlySet<number>;
}

export interface HlslEnum extends HlslSpelling {
  readonly table: EnumTable;
}
export interface HlslFlags extends HlslSpelling {
  readonly table: FlagTable;
}

export const HLSL_VISIBILITY: HlslEnum = { table: SHADER_VISIBILITY, prefix: 'SHADER_VISIBILITY_', what: 'visibility' };
const HLSL_FILTER: HlslEnum = { table: FILTER, prefix: 'FILTER_', excluded: FILTERS_UNKNOWN_TO_DXC, what: 'filter' };
const HLSL_ADDRESS_MODE: HlslEnum = { table: TEXTURE_ADDRESS_MODE, prefix: 'TEXTURE_ADDRESS_', what: 'texture address mode' };
const HLSL_COMPARISON: HlslEnum = { table: COMPARISON_FUNC, prefix: 'COMPARISON_', what: 'comparison function' };
const HLSL_BORDER_COLOR: HlslEnum = { table: STATIC_BORDER_COLOR, prefix: 'STATIC_BORDER_COLOR_', what: 'border color' };
export const HLSL_ROOT_FLAGS: HlslFlags = { table: ROOT_SIGNATURE_FLAGS, prefix: '' };
export const HLSL_ROOT_DESCRIPTOR_FLAGS: HlslFlags = { table: ROOT_DESCRIPTOR_FLAGS, prefix: '' };
const HLSL_RANGE_FLAGS: HlslFlags = { table: DESCRIPTOR_RANGE_FLAGS, prefix: '' };
/** Static sampler flags exist from root signature 1.2 on; DXC has no 1.2, the spelling is Clang's. */
const HLSL_SAMPLER_FLAGS: HlslFlags = { table: SAMPLER_FLAGS, prefix: '' };

/** Every spelling table, found by the D3D12 table a field row names as its kind. */
export const HLSL_SPELLINGS: readonly (HlslEnum | HlslFlags)[] = [
  HLSL_VISIBILITY,
  HLSL_FILTER,
  HLSL_ADDRESS_MODE,
  HLSL_COMPARISON,
  HLSL_BORDER_COLOR,
  HLSL_ROOT_FLAGS,
  HLSL_ROOT_DESCRIPTOR_FLAGS,
  HLSL_RANGE_FLAGS,
  HLSL_SAMPLER_FLAGS,
];

/** The HLSL spelling of a D3D12 enum or flag table. */
export function hlslSpelling(table: EnumTable | FlagTable): HlslEnum | HlslFlags {
  const hit = HLSL_SPELLINGS.find((s) => s.table === table);
  if (!hit) throw new Error(`no HLSL spelling for ${table.type}`);
  return hit;
}

/** Longest token DXC's tokenizer reads; a longer run is split. */
export const MAX_TOKEN_LENGTH = 127;

/** The defaults of the sampler's fields, from the SAMPLER rows (the parser starts from these). */
const samplerDefaults = Object.fromEntries(
  Object.entries(SAMPLER.fields).flatMap(([key, row]) => ((row.hlsl as { default?: number } | undefined)?.default === undefined ? [] : [[key, (row.hlsl as { default: number }).default]])),
) as { [K in keyof typeof SAMPLER.fields]: number };

/** Defaults the language fills in (docs/formats/hlsl-root-signature.md); the printer leaves these out. */
export const DEFAULTS = {
  space: RANGE.fields.registerSpace.hlsl.default,
  visibility: PARAMETER.fields.shaderVisibility.hlsl.default,
  flags: RANGE.fields.flags.hlsl.default,
  numDescriptors: RANGE.fields.numDescriptors.hlsl.default,
  offset: RANGE.fields.offsetInDescriptorsFromTableStart.hlsl.default,
  sampler: samplerDefaults,
} as const;
