/**
 * The HLSL root signature language (DXC/fxc dialect, spec §5): keyword spellings and how each
 * enum and flag table is spelled in it. The spellings of values come from the D3D12 tables in
 * root-signature.ts, so the language, the JSON form and the validator share one vocabulary.
 */
import type { EnumTable, FlagTable } from './enum-table.js';
import {
  COMPARISON_FUNC,
  DESCRIPTOR_RANGE_FLAGS,
  FILTER,
  FILTERS_UNKNOWN_TO_DXC,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_SIGNATURE_FLAGS,
  SAMPLER_FLAGS,
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
} from './root-signature.js';

/** Clause keywords (matched case-insensitively, printed as written here). */
export const CLAUSES = {
  rootFlags: 'RootFlags',
  rootConstants: 'RootConstants',
  cbv: 'CBV',
  srv: 'SRV',
  uav: 'UAV',
  sampler: 'Sampler',
  descriptorTable: 'DescriptorTable',
  staticSampler: 'StaticSampler',
} as const;

/** Parameter keywords inside clauses. */
export const PARAMETERS = {
  num32BitConstants: 'num32BitConstants',
  space: 'space',
  visibility: 'visibility',
  flags: 'flags',
  numDescriptors: 'numDescriptors',
  offset: 'offset',
  filter: 'filter',
  addressU: 'addressU',
  addressV: 'addressV',
  addressW: 'addressW',
  mipLODBias: 'mipLODBias',
  maxAnisotropy: 'maxAnisotropy',
  comparisonFunc: 'comparisonFunc',
  borderColor: 'borderColor',
  minLOD: 'minLOD',
  maxLOD: 'maxLOD',
} as const;

export const UNBOUNDED_KEYWORD = 'unbounded';
export const APPEND_KEYWORD = 'DESCRIPTOR_RANGE_OFFSET_APPEND';

/** Register letters per range / parameter kind (lowercase only, as DXC's tokenizer wants). */
export const REGISTER_LETTER = { CBV: 'b', SRV: 't', UAV: 'u', SAMPLER: 's' } as const;

/** How one table's values are spelled: HLSL prefix + the D3D12 name without its C prefix. */
export interface HlslSpelling {
  readonly prefix: string;
  /** Values the language has no keyword for (DXC does not know them). */
  readonly excluded?: ReadonlySet<number>;
}

export interface HlslEnum extends HlslSpelling {
  readonly table: EnumTable;
}
export interface HlslFlags extends HlslSpelling {
  readonly table: FlagTable;
}

export const HLSL_VISIBILITY: HlslEnum = { table: SHADER_VISIBILITY, prefix: 'SHADER_VISIBILITY_' };
export const HLSL_FILTER: HlslEnum = { table: FILTER, prefix: 'FILTER_', excluded: FILTERS_UNKNOWN_TO_DXC };
export const HLSL_ADDRESS_MODE: HlslEnum = { table: TEXTURE_ADDRESS_MODE, prefix: 'TEXTURE_ADDRESS_' };
export const HLSL_COMPARISON: HlslEnum = { table: COMPARISON_FUNC, prefix: 'COMPARISON_' };
export const HLSL_BORDER_COLOR: HlslEnum = { table: STATIC_BORDER_COLOR, prefix: 'STATIC_BORDER_COLOR_' };
export const HLSL_ROOT_FLAGS: HlslFlags = { table: ROOT_SIGNATURE_FLAGS, prefix: '' };
export const HLSL_ROOT_DESCRIPTOR_FLAGS: HlslFlags = { table: ROOT_DESCRIPTOR_FLAGS, prefix: '' };
export const HLSL_RANGE_FLAGS: HlslFlags = { table: DESCRIPTOR_RANGE_FLAGS, prefix: '' };
/** Static sampler flags exist from root signature 1.2 on; DXC has no 1.2, the spelling is Clang's. */
export const HLSL_SAMPLER_FLAGS: HlslFlags = { table: SAMPLER_FLAGS, prefix: '' };

/** Longest token DXC's tokenizer reads; a longer run is split. */
export const MAX_TOKEN_LENGTH = 127;

/** Defaults the language fills in (spec §5.4); the printer leaves these out. */
export const DEFAULTS = {
  space: 0,
  visibility: 0,
  flags: 0,
  numDescriptors: 1,
  offset: 0xffffffff,
  sampler: {
    filter: 0x55,
    addressU: 1,
    addressV: 1,
    addressW: 1,
    mipLODBias: 0,
    maxAnisotropy: 16,
    comparisonFunc: 4,
    borderColor: 2,
    minLOD: 0,
    maxLOD: 3.4028234663852886e38,
  },
} as const;
