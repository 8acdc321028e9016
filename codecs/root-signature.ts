/**
 * RTS0 root signatures as data: the versions, every enumeration and flag table with its D3D12
 * names, one vocabulary row per parameter and range type, and one typed row per field of every
 * record (offset per version or absent, kind, JSON default and special spellings, HLSL keyword and
 * default). The format is described in docs/formats/rts0.md. src/root-signature decodes,
 * encodes, prints, parses, converts and describes from these rows; nothing there repeats a field's
 * name, offset or JSON key.
 *
 * Adding a version: a row in VERSIONS, then the compiler names every record whose `sizes` and
 * every field whose `at` lacks it (both are Record<RootSignatureVersion, ...>). See CONTRIBUTING.md.
 */
import { enumTable, flagTable, type EnumTable, type FlagTable } from './enum-table.js';

// ---------------------------------------------------------------- versions

/**
 * The stored version numbers. Adding a version starts here: the compiler then names VERSIONS,
 * every record's `sizes` and every field's `at` (Record<RootSignatureVersion, ...>).
 */
export type RootSignatureVersion = 1 | 2 | 3;

/** What a version is called and how the tools around it treat it. */
export interface VersionRow {
  /** D3D_ROOT_SIGNATURE_VERSION as written by people: "1.0". */
  readonly name: string;
  /** The fxc/DXC target profile, when one exists. */
  readonly profile?: string;
  /** The version DXC's HLSL parser builds before converting to this one (it always builds 1.1). */
  readonly parsedAs: RootSignatureVersion;
  /** The version validation checks a description of this version at (DXC up-converts 1.0). */
  readonly validatedAs: RootSignatureVersion;
  /** Whose rules `rootsig compile` applies: DXC's, or the runtime's where DXC has no profile. */
  readonly compileTarget: 'dxc' | 'runtime';
}

/** D3D_ROOT_SIGNATURE_VERSION as stored in the RTS0 header: the one list of versions. */
export const VERSIONS = {
  1: { name: '1.0', profile: 'rootsig_1_0', parsedAs: 2, validatedAs: 2, compileTarget: 'dxc' },
  2: { name: '1.1', profile: 'rootsig_1_1', parsedAs: 2, validatedAs: 2, compileTarget: 'dxc' },
  3: { name: '1.2', parsedAs: 3, validatedAs: 3, compileTarget: 'runtime' },
} as const satisfies Record<RootSignatureVersion, VersionRow>;
/** A version as people write it: "1.0", "1.1", "1.2". */
export type RootSignatureVersionName = (typeof VERSIONS)[RootSignatureVersion]['name'];

/**
 * The version root signature text compiles to when none is asked for: 1.1, as DXC compiles a
 * [RootSignature] attribute or define (its -force-rootsig-ver default).
 */
export const DEFAULT_TEXT_VERSION: RootSignatureVersion = 2;

/** The versions in order, `{ value, name }`. */
export const ROOT_SIGNATURE_VERSIONS: readonly { readonly value: RootSignatureVersion; readonly name: RootSignatureVersionName }[] = (
  Object.keys(VERSIONS).map(Number) as RootSignatureVersion[]
).map((value) => ({ value, name: VERSIONS[value].name }));

/** The row of a stored version number, or undefined for a number no version has. */
export function versionRow(value: unknown): (VersionRow & { readonly value: RootSignatureVersion }) | undefined {
  return typeof value === 'number' ? VERSION_ROWS.get(value) : undefined;
}
const VERSION_ROWS = new Map<number, VersionRow & { readonly value: RootSignatureVersion }>(
  (Object.keys(VERSIONS).map(Number) as RootSignatureVersion[]).map((value) => [value, { value, ...VERSIONS[value] }]),
);

/** The version a name ("1.1") or a number (2) stands for, or undefined. */
export function versionNamed(given: unknown): RootSignatureVersion | undefined {
  return ROOT_SIGNATURE_VERSIONS.find((v) => v.name === given || v.value === given)?.value;
}

// ---------------------------------------------------------------- vocabulary of kinds

/** Register classes (the overlap rule's classes) and their HLSL register letters. */
export const REGISTER_LETTERS = { SRV: 't', UAV: 'u', CBV: 'b', SAMPLER: 's' } as const;
/** A register class of the overlap rule: SRV, UAV, CBV or SAMPLER. */
export type RegisterClass = keyof typeof REGISTER_LETTERS;

/** One row per D3D12_DESCRIPTOR_RANGE_TYPE: its name is its register class; the HLSL clause. */
export const RANGE_TYPES = [
  { value: 0, name: 'SRV', clause: 'SRV' },
  { value: 1, name: 'UAV', clause: 'UAV' },
  { value: 2, name: 'CBV', clause: 'CBV' },
  { value: 3, name: 'SAMPLER', clause: 'Sampler' },
] as const satisfies readonly { value: number; name: RegisterClass; clause: string }[];

/**
 * One row per D3D12_ROOT_PARAMETER_TYPE: the payload it carries (its key in the description and
 * the JSON form) and the record its payload offset points at (a table's record locates the
 * array named by the payload), the HLSL clause, the register class of a root constant or
 * descriptor, and its root cost in DWORDs (`dwords`: a number, or the CONSTANTS field that counts
 * them: a table costs 1, constants their number, a root descriptor 2).
 */
export const PARAMETER_TYPES = [
  { value: 0, name: 'DESCRIPTOR_TABLE', payload: 'ranges', record: 'TABLE', clause: 'DescriptorTable', dwords: 1 },
  { value: 1, name: '32BIT_CONSTANTS', payload: 'constants', record: 'CONSTANTS', clause: 'RootConstants', registerClass: 'CBV', dwords: 'num32BitValues' },
  { value: 2, name: 'CBV', payload: 'descriptor', record: 'DESCRIPTOR', clause: 'CBV', registerClass: 'CBV', dwords: 2 },
  { value: 3, name: 'SRV', payload: 'descriptor', record: 'DESCRIPTOR', clause: 'SRV', registerClass: 'SRV', dwords: 2 },
  { value: 4, name: 'UAV', payload: 'descriptor', record: 'DESCRIPTOR', clause: 'UAV', registerClass: 'UAV', dwords: 2 },
] as const satisfies readonly {
  value: number;
  name: string;
  payload: string;
  record: RecordName;
  clause: string;
  registerClass?: RegisterClass;
  dwords: number | keyof (typeof CONSTANTS)['fields'];
}[];
/** The key of a root parameter's payload in the typed description: descriptorTable, constants or descriptor. */
export type ParameterPayload = (typeof PARAMETER_TYPES)[number]['payload'];

/** D3D12_ROOT_PARAMETER_TYPE. */
export const ROOT_PARAMETER_TYPE = enumTable('D3D12_ROOT_PARAMETER_TYPE', 'D3D12_ROOT_PARAMETER_TYPE_', PARAMETER_TYPES.map((t) => [t.name, t.value]));
/** D3D12_DESCRIPTOR_RANGE_TYPE. */
export const DESCRIPTOR_RANGE_TYPE = enumTable('D3D12_DESCRIPTOR_RANGE_TYPE', 'D3D12_DESCRIPTOR_RANGE_TYPE_', RANGE_TYPES.map((t) => [t.name, t.value]));

/** D3D12_SHADER_VISIBILITY. */
export const SHADER_VISIBILITY = enumTable('D3D12_SHADER_VISIBILITY', 'D3D12_SHADER_VISIBILITY_', [
  ['ALL', 0], ['VERTEX', 1], ['HULL', 2], ['DOMAIN', 3], ['GEOMETRY', 4], ['PIXEL', 5], ['AMPLIFICATION', 6], ['MESH', 7],
]);

/** D3D12_ROOT_SIGNATURE_FLAGS. */
export const ROOT_SIGNATURE_FLAGS = flagTable('D3D12_ROOT_SIGNATURE_FLAGS', 'D3D12_ROOT_SIGNATURE_FLAG_', [
  ['ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', 0x1],
  ['DENY_VERTEX_SHADER_ROOT_ACCESS', 0x2],
  ['DENY_HULL_SHADER_ROOT_ACCESS', 0x4],
  ['DENY_DOMAIN_SHADER_ROOT_ACCESS', 0x8],
  ['DENY_GEOMETRY_SHADER_ROOT_ACCESS', 0x10],
  ['DENY_PIXEL_SHADER_ROOT_ACCESS', 0x20],
  ['ALLOW_STREAM_OUTPUT', 0x40],
  ['LOCAL_ROOT_SIGNATURE', 0x80],
  ['DENY_AMPLIFICATION_SHADER_ROOT_ACCESS', 0x100],
  ['DENY_MESH_SHADER_ROOT_ACCESS', 0x200],
  ['CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED', 0x400],
  ['SAMPLER_HEAP_DIRECTLY_INDEXED', 0x800],
]);

/** D3D12_DESCRIPTOR_RANGE_FLAGS (version 1.1 and later). */
export const DESCRIPTOR_RANGE_FLAGS = flagTable('D3D12_DESCRIPTOR_RANGE_FLAGS', 'D3D12_DESCRIPTOR_RANGE_FLAG_', [
  ['DESCRIPTORS_VOLATILE', 0x1],
  ['DATA_VOLATILE', 0x2],
  ['DATA_STATIC_WHILE_SET_AT_EXECUTE', 0x4],
  ['DATA_STATIC', 0x8],
  ['DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS', 0x10000],
]);

/** D3D12_ROOT_DESCRIPTOR_FLAGS (version 1.1 and later). */
export const ROOT_DESCRIPTOR_FLAGS = flagTable('D3D12_ROOT_DESCRIPTOR_FLAGS', 'D3D12_ROOT_DESCRIPTOR_FLAG_', [
  ['DATA_VOLATILE', 0x2],
  ['DATA_STATIC_WHILE_SET_AT_EXECUTE', 0x4],
  ['DATA_STATIC', 0x8],
]);

/** D3D12_SAMPLER_FLAGS (static samplers of version 1.2). */
export const SAMPLER_FLAGS = flagTable('D3D12_SAMPLER_FLAGS', 'D3D12_SAMPLER_FLAG_', [
  ['UINT_BORDER_COLOR', 0x1],
  ['NON_NORMALIZED_COORDINATES', 0x2],
]);

/** D3D12_FILTER: the 40 defined values (the MIN_MAG_ANISOTROPIC_MIP_POINT family is in newer headers only). */
const FILTER_BASES = [
  ['MIN_MAG_MIP_POINT', 0x00], ['MIN_MAG_POINT_MIP_LINEAR', 0x01], ['MIN_POINT_MAG_LINEAR_MIP_POINT', 0x04],
  ['MIN_POINT_MAG_MIP_LINEAR', 0x05], ['MIN_LINEAR_MAG_MIP_POINT', 0x10], ['MIN_LINEAR_MAG_POINT_MIP_LINEAR', 0x11],
  ['MIN_MAG_LINEAR_MIP_POINT', 0x14], ['MIN_MAG_MIP_LINEAR', 0x15], ['MIN_MAG_ANISOTROPIC_MIP_POINT', 0x54], ['ANISOTROPIC', 0x55],
] as const;
const FILTER_REDUCTIONS = [['', 0x000], ['COMPARISON_', 0x080], ['MINIMUM_', 0x100], ['MAXIMUM_', 0x180]] as const;
/** D3D12_FILTER: every filter of each reduction (standard, comparison, minimum, maximum). */
export const FILTER = enumTable(
  'D3D12_FILTER',
  'D3D12_FILTER_',
  FILTER_REDUCTIONS.flatMap(([reduction, bits]) => FILTER_BASES.map(([base, v]) => [reduction + base, v | bits] as const)),
);
/** Filters newer than DXC's tables (no HLSL keyword, rejected by DXC's validator). */
export const FILTERS_UNKNOWN_TO_DXC: ReadonlySet<number> = new Set([0x54, 0xd4, 0x154, 0x1d4]);
/** D3D12_FILTER_REDUCTION_TYPE_COMPARISON, as filterReduction returns it. */
export const FILTER_REDUCTION_COMPARISON = 1;
/** The D3D12_FILTER_REDUCTION_TYPE of a filter (D3D12_DECODE_FILTER_REDUCTION). */
export function filterReduction(filter: number): number {
  return (filter >>> 7) & 3;
}

/** D3D12_TEXTURE_ADDRESS_MODE. */
export const TEXTURE_ADDRESS_MODE = enumTable('D3D12_TEXTURE_ADDRESS_MODE', 'D3D12_TEXTURE_ADDRESS_MODE_', [
  ['WRAP', 1], ['MIRROR', 2], ['CLAMP', 3], ['BORDER', 4], ['MIRROR_ONCE', 5],
]);

/** D3D12_COMPARISON_FUNC. */
export const COMPARISON_FUNC = enumTable('D3D12_COMPARISON_FUNC', 'D3D12_COMPARISON_FUNC_', [
  ['NONE', 0], ['NEVER', 1], ['LESS', 2], ['EQUAL', 3], ['LESS_EQUAL', 4], ['GREATER', 5], ['NOT_EQUAL', 6], ['GREATER_EQUAL', 7], ['ALWAYS', 8],
]);

/** D3D12_STATIC_BORDER_COLOR. */
export const STATIC_BORDER_COLOR = enumTable('D3D12_STATIC_BORDER_COLOR', 'D3D12_STATIC_BORDER_COLOR_', [
  ['TRANSPARENT_BLACK', 0], ['OPAQUE_BLACK', 1], ['OPAQUE_WHITE', 2], ['OPAQUE_BLACK_UINT', 3], ['OPAQUE_WHITE_UINT', 4],
]);

/** D3D12_FLOAT32_MAX (FLT_MAX): the largest finite binary32, the default maxLOD. */
export const FLT_MAX = 3.4028234663852886e38;

/** Limits from d3d12.h used by validation. */
export const LIMITS = {
  maxRootCost: 64,
  mipLodBiasMin: -16.0,
  mipLodBiasMax: 15.99,
  maxAnisotropy: 16,
  systemReservedRegisterSpaceFirst: 0xfffffff0,
} as const;

// ---------------------------------------------------------------- records, one row per field

/** How a field is stored and what it means. */
export type FieldKind =
  | 'u32'
  | 'f32' // IEEE-754 binary32 (NaN payloads kept by the codec)
  | 'version' // the header's version
  | 'count' // number of records of the array named by `of`
  | 'offset' // where the array named by `of` starts (from the part's first byte)
  | EnumTable
  | FlagTable;

/** A u32 value with its own spelling in the JSON form, the HLSL language and the summary. */
export interface SpecialValue {
  readonly value: number;
  readonly json: string;
  readonly hlsl: string;
  readonly summary: string;
  /** The C name, when D3D12 has one. */
  readonly c?: string;
}

/** How a field is written in an HLSL clause. */
export interface HlslField {
  /** `register`: the register token (b#, t#, u#, s#); otherwise the `keyword = value` keyword. */
  readonly keyword: string;
  /** Value the language fills in; the printer leaves it out (absent: always printed). */
  readonly default?: number;
}

/** Fields that read as one item in the summary: the label once, then their values joined. */
export interface SummaryGroup {
  readonly label: string;
  readonly join: string;
}

/**
 * How a field reads in the one-line summary (`inspect`). A record's line lists its printed fields
 * by `place` (a parameter's line goes on with its payload's fields), leaving out the fields the
 * version does not store; a record's arrays follow on their own lines, one per element, indented
 * one step deeper than the record's own array.
 */
export interface SummaryRule {
  /** Position in the record's line, lowest first (a group's fields share it). */
  readonly place: number;
  /** What comes before the item unless it opens the line: ', ' starts a new clause; absent: ' '. */
  readonly sep?: ', ';
  /** The word before the value; absent: the HLSL keyword, when the field has one and no letter or unit. */
  readonly label?: string;
  /** A register number written after its class's letter (REGISTER_LETTERS): `b0`, `s1`. */
  readonly letter?: true;
  /** The words after the value, for one and for any other count. */
  readonly unit?: readonly [one: string, other: string];
  /** The item this field is one value of (address U/V/W, lod min..max). */
  readonly group?: SummaryGroup;
}

/** One field of a record. */
export interface FieldRow {
  readonly kind: FieldKind;
  /** Byte offset in the record per version; null: the version does not store the field. */
  readonly at: Readonly<Record<RootSignatureVersion, number | null>>;
  /** The value when the JSON form leaves the key out; absent: the key is required. */
  readonly default?: number;
  readonly special?: SpecialValue;
  readonly hlsl?: HlslField;
  /** How the field reads in the one-line summary (`inspect`); absent: it is not printed. */
  readonly summary?: SummaryRule;
  /** count/offset fields: the array (description key) they locate. */
  readonly of?: string;
  /** count fields: the record each element of that array is. */
  readonly record?: RecordName;
}

/** The records, by their key in RECORDS. */
export type RecordName = 'HEADER' | 'PARAMETER' | 'TABLE' | 'RANGE' | 'CONSTANTS' | 'DESCRIPTOR' | 'SAMPLER';

/** A fixed-size record: its C type, size per version, fields in storage order. */
export interface RecordRow<F extends Readonly<Record<string, FieldRow>> = Readonly<Record<string, FieldRow>>> {
  readonly type: string;
  readonly sizes: Readonly<Record<RootSignatureVersion, number>>;
  readonly fields: F;
  /**
   * The register class its register field names, when the record alone says it (a static
   * sampler's); a parameter payload's comes from its PARAMETER_TYPES row.
   */
  readonly registerClass?: RegisterClass;
}

function record<const F extends Readonly<Record<string, FieldRow>>>(
  type: string,
  sizes: Record<RootSignatureVersion, number>,
  fields: F,
  more: { readonly registerClass?: RegisterClass } = {},
): RecordRow<F> {
  return { type, sizes, fields, ...more };
}

/** The same offset in every version. */
const every = (offset: number): Record<RootSignatureVersion, number> => ({ 1: offset, 2: offset, 3: offset });
/** Stored from version `from` on, at `offset`. */
const since = (from: RootSignatureVersion, offset: number): Record<RootSignatureVersion, number | null> => ({
  1: 1 >= from ? offset : null,
  2: 2 >= from ? offset : null,
  3: 3 >= from ? offset : null,
});

/** D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND: the range follows the previous one. */
export const DESCRIPTOR_RANGE_OFFSET_APPEND = 0xffffffff;
/** A range of unbounded size (numDescriptors = UINT_MAX). */
export const UNBOUNDED_DESCRIPTORS = 0xffffffff;
const APPEND: SpecialValue = { value: DESCRIPTOR_RANGE_OFFSET_APPEND, json: 'APPEND', hlsl: 'DESCRIPTOR_RANGE_OFFSET_APPEND', summary: 'APPEND', c: 'D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND' };
const UNBOUNDED: SpecialValue = { value: UNBOUNDED_DESCRIPTORS, json: 'UNBOUNDED', hlsl: 'unbounded', summary: 'unbounded' };

/** Summary rules: an item at `place` after a space, or (`clause`) after a comma. */
const item = (place: number, more: Omit<SummaryRule, 'place'> = {}): SummaryRule => ({ place, ...more });
const clause = (place: number, more: Omit<SummaryRule, 'place' | 'sep'> = {}): SummaryRule => ({ place, sep: ', ', ...more });
const ADDRESS: SummaryGroup = { label: 'address', join: '/' };
const LOD: SummaryGroup = { label: 'lod', join: '..' };

const space = { keyword: 'space', default: 0 } as const;
const visibility = { keyword: 'visibility', default: 0 } as const;
const flags = { keyword: 'flags', default: 0 } as const;
const register = { keyword: 'register' } as const;

/** The RTS0 header (the part's first 24 bytes). */
export const HEADER = record('RTS0 header', every(24), {
  version: { kind: 'version', at: every(0), summary: item(0, { label: 'version' }) },
  numParameters: { kind: 'count', of: 'parameters', record: 'PARAMETER', at: every(4) },
  parametersOffset: { kind: 'offset', of: 'parameters', at: every(8) },
  numStaticSamplers: { kind: 'count', of: 'staticSamplers', record: 'SAMPLER', at: every(12) },
  staticSamplersOffset: { kind: 'offset', of: 'staticSamplers', at: every(16) },
  flags: { kind: ROOT_SIGNATURE_FLAGS, at: every(20), default: 0, summary: clause(1, { label: 'flags' }) },
});

/** A root parameter record; its payload (table header, constants or descriptor) is elsewhere. */
export const PARAMETER = record('root parameter', every(12), {
  parameterType: { kind: ROOT_PARAMETER_TYPE, at: every(0), summary: item(0) },
  shaderVisibility: { kind: SHADER_VISIBILITY, at: every(4), default: 0, hlsl: visibility, summary: item(1) },
  payloadOffset: { kind: 'offset', of: 'payload', at: every(8) },
});

/** A descriptor table's header. */
export const TABLE = record('descriptor table', every(8), {
  numDescriptorRanges: { kind: 'count', of: 'ranges', record: 'RANGE', at: every(0), summary: clause(0, { unit: ['range', 'ranges'] }) },
  descriptorRangesOffset: { kind: 'offset', of: 'ranges', at: every(4) },
});

/** D3D12_DESCRIPTOR_RANGE (1.0) / D3D12_DESCRIPTOR_RANGE1 (1.1 on): flags sit before the offset. */
export const RANGE = record('D3D12_DESCRIPTOR_RANGE1', { 1: 20, 2: 24, 3: 24 }, {
  rangeType: { kind: DESCRIPTOR_RANGE_TYPE, at: every(0), summary: item(0) },
  numDescriptors: { kind: 'u32', at: every(4), default: 1, summary: item(2, { label: 'count' }), special: UNBOUNDED, hlsl: { keyword: 'numDescriptors', default: 1 } },
  baseShaderRegister: { kind: 'u32', at: every(8), hlsl: register, summary: item(1, { label: 'base' }) },
  registerSpace: { kind: 'u32', at: every(12), default: 0, hlsl: space, summary: item(3) },
  flags: { kind: DESCRIPTOR_RANGE_FLAGS, at: since(2, 16), default: 0, hlsl: flags, summary: item(5) },
  offsetInDescriptorsFromTableStart: { kind: 'u32', at: { 1: 16, 2: 20, 3: 20 }, default: DESCRIPTOR_RANGE_OFFSET_APPEND, summary: item(4, { label: 'offset' }), special: APPEND, hlsl: { keyword: 'offset', default: DESCRIPTOR_RANGE_OFFSET_APPEND } },
});

/** D3D12_ROOT_CONSTANTS. */
export const CONSTANTS = record('D3D12_ROOT_CONSTANTS', every(12), {
  shaderRegister: { kind: 'u32', at: every(0), hlsl: register, summary: clause(0, { letter: true }) },
  registerSpace: { kind: 'u32', at: every(4), default: 0, hlsl: space, summary: item(1) },
  num32BitValues: { kind: 'u32', at: every(8), hlsl: { keyword: 'num32BitConstants' }, summary: clause(2, { unit: ['32-bit values', '32-bit values'] }) },
});

/** D3D12_ROOT_DESCRIPTOR (1.0) / D3D12_ROOT_DESCRIPTOR1 (1.1 on, with flags). */
export const DESCRIPTOR = record('D3D12_ROOT_DESCRIPTOR1', { 1: 8, 2: 12, 3: 12 }, {
  shaderRegister: { kind: 'u32', at: every(0), hlsl: register, summary: clause(0) },
  registerSpace: { kind: 'u32', at: every(4), default: 0, hlsl: space, summary: item(1) },
  flags: { kind: ROOT_DESCRIPTOR_FLAGS, at: since(2, 8), default: 0, hlsl: flags, summary: clause(2) },
});

/** D3D12_STATIC_SAMPLER_DESC (1.0, 1.1) / D3D12_STATIC_SAMPLER_DESC1 (1.2, with flags). */
export const SAMPLER = record('D3D12_STATIC_SAMPLER_DESC1', { 1: 52, 2: 52, 3: 56 }, {
  filter: { kind: FILTER, at: every(0), hlsl: { keyword: 'filter', default: 0x55 }, summary: clause(3) },
  addressU: { kind: TEXTURE_ADDRESS_MODE, at: every(4), hlsl: { keyword: 'addressU', default: 1 }, summary: clause(4, { group: ADDRESS }) },
  addressV: { kind: TEXTURE_ADDRESS_MODE, at: every(8), hlsl: { keyword: 'addressV', default: 1 }, summary: clause(4, { group: ADDRESS }) },
  addressW: { kind: TEXTURE_ADDRESS_MODE, at: every(12), hlsl: { keyword: 'addressW', default: 1 }, summary: clause(4, { group: ADDRESS }) },
  mipLODBias: { kind: 'f32', at: every(16), hlsl: { keyword: 'mipLODBias', default: 0 }, summary: clause(5, { label: 'bias' }) },
  maxAnisotropy: { kind: 'u32', at: every(20), hlsl: { keyword: 'maxAnisotropy', default: 16 }, summary: clause(6, { label: 'anisotropy' }) },
  comparisonFunc: { kind: COMPARISON_FUNC, at: every(24), hlsl: { keyword: 'comparisonFunc', default: 4 }, summary: clause(7, { label: 'compare' }) },
  borderColor: { kind: STATIC_BORDER_COLOR, at: every(28), hlsl: { keyword: 'borderColor', default: 2 }, summary: clause(8, { label: 'border' }) },
  minLOD: { kind: 'f32', at: every(32), hlsl: { keyword: 'minLOD', default: 0 }, summary: clause(9, { group: LOD }) },
  maxLOD: { kind: 'f32', at: every(36), hlsl: { keyword: 'maxLOD', default: FLT_MAX }, summary: clause(9, { group: LOD }) },
  shaderRegister: { kind: 'u32', at: every(40), hlsl: register, summary: item(0, { letter: true }) },
  registerSpace: { kind: 'u32', at: every(44), hlsl: space, summary: item(1) },
  shaderVisibility: { kind: SHADER_VISIBILITY, at: every(48), hlsl: visibility, summary: item(2) },
  flags: { kind: SAMPLER_FLAGS, at: since(3, 52), default: 0, hlsl: flags, summary: clause(10) },
}, { registerClass: 'SAMPLER' });

/** Every record, for tools that walk them all (byte maps, docs, tests). */
export const RECORDS = { HEADER, PARAMETER, TABLE, RANGE, CONSTANTS, DESCRIPTOR, SAMPLER } as const satisfies Record<RecordName, RecordRow>;

/** The values of a record's fields in the typed description. */
export type FieldValues<R extends RecordRow> = { -readonly [K in keyof R['fields']]: number };

/** Whether `version` stores `field` (the one version check: absent offsets are null). */
export function stores(field: FieldRow, version: RootSignatureVersion): boolean {
  return field.at[version] !== null;
}

/** The names of the versions that store `field` (or, with `stored` false, do not), for messages: "1.1 and 1.2". */
export function versionsStoring(field: FieldRow, stored = true): string {
  const names = ROOT_SIGNATURE_VERSIONS.filter((v) => stores(field, v.value) === stored).map((v) => v.name);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
