/**
 * The DXBC (SM 4.0-5.1) token stream as far as binding declarations need it: bit fields of the
 * version, opcode and operand tokens, and one row per declaration opcode (docs/formats/dxbc-declarations.md).
 * src/shader/dxbc.ts expands the rows.
 */

/** A bit field of a token: mask after shifting right by `shift`. */
export interface BitField {
  readonly shift: number;
  readonly mask: number;
}
const bits = (shift: number, width: number): BitField => ({ shift, mask: width === 32 ? 0xffffffff : (1 << width) - 1 });

/** First token of SHDR/SHEX: version; the second is the program's length in DWORDs. */
export const VERSION_TOKEN = { minor: bits(0, 4), major: bits(4, 4), programType: bits(16, 16) } as const;

/**
 * Program types (D3D10_SB_TOKENIZED_PROGRAM_TYPE), as the token stream spells them; their numbers
 * equal DXIL::ShaderKind 0-5 (SHADER_KIND, codecs/psv0.ts), and their profile prefixes are
 * PROFILE_PREFIXES (codecs/hlsl-preprocessor.ts).
 */
export const PROGRAM_TYPES = [
  { value: 0, name: 'pixel' },
  { value: 1, name: 'vertex' },
  { value: 2, name: 'geometry' },
  { value: 3, name: 'hull' },
  { value: 4, name: 'domain' },
  { value: 5, name: 'compute' },
] as const;

/** Opcode token fields. Length 0 only for customdata, whose length is the next token. */
export const OPCODE_TOKEN = {
  opcode: bits(0, 11),
  control: bits(11, 13),
  /** Resource / UAV dimension of dcl_resource and dcl_uav_typed. */
  resourceDimension: bits(11, 5),
  length: bits(24, 7),
  extended: bits(31, 1),
} as const;
export const OPCODE_CUSTOMDATA = 0x35;

/** Operand token fields. */
export const OPERAND_TOKEN = {
  numComponents: bits(0, 2),
  operandType: bits(12, 8),
  indexDimension: bits(20, 2),
  /** Representation of index 0, 1, 2: 3 bits each from bit 22. */
  indexRepresentation0: bits(22, 3),
  indexRepresentation1: bits(25, 3),
  indexRepresentation2: bits(28, 3),
  extended: bits(31, 1),
} as const;
/** Index representation: a plain 32-bit immediate (the only one declarations use). */
export const INDEX_IMMEDIATE32 = 0;

/** Operand types of the binding declarations. */
export const OPERAND_TYPE = { sampler: 6, resource: 7, constantBuffer: 8, unorderedAccessView: 30 } as const;

/** PSV resource type numbers (codecs/psv0.ts PSV_RESOURCE_TYPE) a declaration maps to. */
const RES = { Sampler: 1, CBV: 2, SRVTyped: 3, SRVRaw: 4, SRVStructured: 5, UAVTyped: 6, UAVRaw: 7, UAVStructured: 8, UAVStructuredWithCounter: 9 } as const;

/**
 * Instructions that use a UAV's hidden counter (imm_atomic_alloc, imm_atomic_consume): a
 * destination operand, then the UAV operand (its first index is the register, or the SM 5.1 range ID).
 */
export const COUNTER_OPCODES: readonly number[] = [0xb2, 0xb3];
/** Index representations: tokens each takes (a relative part adds a nested operand). */
export const INDEX_REPRESENTATION = [
  { value: 0, immediates: 1, relative: false },
  { value: 1, immediates: 2, relative: false },
  { value: 2, immediates: 0, relative: true },
  { value: 3, immediates: 1, relative: true },
  { value: 4, immediates: 2, relative: true },
] as const;
/** Immediate operand types (immediate32, immediate64) carry their values after the token. */
export const OPERAND_IMMEDIATE = { 4: 1, 5: 2 } as const;

/** D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER in the opcode token of dcl_uav_structured. */
export const UAV_HAS_COUNTER = 0x00800000;

/**
 * Binding declarations. Tokens after the operand, in order: `extra` names the ones every shader
 * model has (SM 5.0: dcl_constantbuffer's size is the operand's second index instead); SM 5.1
 * adds, for every row, `extra51` then the register space as the last token.
 */
export interface DeclarationRow {
  readonly opcode: number;
  readonly name: string;
  readonly operandType: number;
  readonly resType: number;
  /** Tokens after the operand before SM 5.1's additions. */
  readonly extra: readonly ('returnType' | 'stride')[];
  /** SM 5.1 tokens between `extra` and the space (dcl_constantbuffer's size). */
  readonly extra51: readonly 'size'[];
  /** dcl_uav_structured: a counter flag turns the type into UAVStructuredWithCounter. */
  readonly counterType?: number;
  readonly since: '4.0' | '5.0';
}

export const DECLARATIONS: readonly DeclarationRow[] = [
  { opcode: 0x58, name: 'dcl_resource', operandType: OPERAND_TYPE.resource, resType: RES.SRVTyped, extra: ['returnType'], extra51: [], since: '4.0' },
  { opcode: 0x59, name: 'dcl_constantbuffer', operandType: OPERAND_TYPE.constantBuffer, resType: RES.CBV, extra: [], extra51: ['size'], since: '4.0' },
  { opcode: 0x5a, name: 'dcl_sampler', operandType: OPERAND_TYPE.sampler, resType: RES.Sampler, extra: [], extra51: [], since: '4.0' },
  { opcode: 0x9c, name: 'dcl_uav_typed', operandType: OPERAND_TYPE.unorderedAccessView, resType: RES.UAVTyped, extra: ['returnType'], extra51: [], since: '5.0' },
  { opcode: 0x9d, name: 'dcl_uav_raw', operandType: OPERAND_TYPE.unorderedAccessView, resType: RES.UAVRaw, extra: [], extra51: [], since: '5.0' },
  { opcode: 0x9e, name: 'dcl_uav_structured', operandType: OPERAND_TYPE.unorderedAccessView, resType: RES.UAVStructured, counterType: RES.UAVStructuredWithCounter, extra: ['stride'], extra51: [], since: '5.0' },
  { opcode: 0xa1, name: 'dcl_resource_raw', operandType: OPERAND_TYPE.resource, resType: RES.SRVRaw, extra: [], extra51: [], since: '5.0' },
  { opcode: 0xa2, name: 'dcl_resource_structured', operandType: OPERAND_TYPE.resource, resType: RES.SRVStructured, extra: ['stride'], extra51: [], since: '5.0' },
];

/**
 * Tessellation and geometry-shader declarations whose value sits in the opcode token
 * (D3D10_SB_OPCODE_DCL_GS_INPUT_PRIMITIVE, D3D11_SB_OPCODE_DCL_*: the count, domain or primitive
 * in bits 11 and up, no operand). `key` is the PSV0 runtime-info name of the same fact
 * (codecs/psv0.ts PSV_STAGE_VIEWS), so DXBC and DXIL stages answer under one name; the values
 * number alike: domains 0 undefined, 1 isoline, 2 tri, 3 quad; tessellator output primitives
 * 1 point, 2 line, 3 triangle_cw, 4 triangle_ccw; GS input primitives (D3D10_SB_PRIMITIVE,
 * DXIL::InputPrimitive) 1 point, 2 line, 3 triangle, 6 line_adj, 7 triangle_adj, 8..39 patch1..32.
 */
export const STAGE_DECLARATIONS: readonly { readonly opcode: number; readonly name: string; readonly key: 'inputControlPointCount' | 'outputControlPointCount' | 'tessellatorDomain' | 'tessellatorOutputPrimitive' | 'inputPrimitive'; readonly value: BitField }[] = [
  { opcode: 0x93, name: 'dcl_input_control_point_count', key: 'inputControlPointCount', value: bits(11, 6) },
  { opcode: 0x94, name: 'dcl_output_control_point_count', key: 'outputControlPointCount', value: bits(11, 6) },
  { opcode: 0x95, name: 'dcl_tessellator_domain', key: 'tessellatorDomain', value: bits(11, 2) },
  { opcode: 0x97, name: 'dcl_tessellator_output_primitive', key: 'tessellatorOutputPrimitive', value: bits(11, 3) },
  { opcode: 0x5d, name: 'dcl_inputprimitive', key: 'inputPrimitive', value: bits(11, 6) },
];

/** RDEF (reflection) header and binding records, for names. Offsets inside RDEF's data. */
export const RDEF = {
  bindingCount: 8,
  bindingOffset: 12,
  minor: 16,
  major: 17,
  /** Binding record: name offset, input type, ..., bind point, bind count; SM 5.1 adds space and id. */
  binding: { name: 0, type: 4, bindPoint: 20, bindCount: 24, space: 32 },
  bindingSize: 32,
  bindingSize51: 40,
} as const;

/** D3D_SHADER_INPUT_TYPE -> register class (0 SRV, 1 UAV, 2 CBV, 3 Sampler). */
export const RDEF_INPUT_CLASS: Readonly<Record<number, number>> = { 0: 2, 1: 0, 2: 0, 3: 3, 4: 1, 5: 0, 6: 1, 7: 0, 8: 1, 9: 1, 10: 1, 11: 1, 12: 0, 13: 1 };

/**
 * Opcode names of the SM 4.0-5.1 token stream by opcode value (D3D10_SB_OPCODE_TYPE and its
 * 10.1, 11, 11.1 and WDDM 1.3 extensions; the names of the `_RESERVED` markers are kept so the
 * numbering stays visible), lower case as disassemblers print them.
 */
export const OPCODE_NAMES: readonly string[] = (
  'add and break breakc call callc case continue continuec cut default deriv_rtx deriv_rty discard div dp2 dp3 dp4 else emit emitthencut endif endloop endswitch eq exp frc ftoi ftou ge iadd if ieq ige ilt imad imax imin imul ine ineg ishl ishr itof label ld ld_ms log loop lt mad min max customdata mov movc mul ne nop not or resinfo ret retc round_ne round_ni round_pi round_z rsq sample sample_c sample_c_lz sample_l sample_d sample_b sqrt switch sincos udiv ult uge umul umad umax umin ushr utof xor ' +
  'dcl_resource dcl_constantbuffer dcl_sampler dcl_index_range dcl_outputtopology dcl_inputprimitive dcl_maxout dcl_input dcl_input_sgv dcl_input_siv dcl_input_ps dcl_input_ps_sgv dcl_input_ps_siv dcl_output dcl_output_sgv dcl_output_siv dcl_temps dcl_indexableTemp dcl_globalFlags reserved_107 ' +
  'lod gather4 sample_pos sample_info reserved_112 ' +
  'hs_decls hs_control_point_phase hs_fork_phase hs_join_phase emit_stream cut_stream emitthencut_stream fcall bufinfo deriv_rtx_coarse deriv_rtx_fine deriv_rty_coarse deriv_rty_fine gather4_c gather4_po gather4_po_c rcp f32tof16 f16tof32 uaddc usubb countbits firstbit_hi firstbit_lo firstbit_shi ubfe ibfe bfi bfrev swapc ' +
  'dcl_stream dcl_function_body dcl_function_table dcl_interface dcl_input_control_point_count dcl_output_control_point_count dcl_tessellator_domain dcl_tessellator_partitioning dcl_tessellator_output_primitive dcl_hs_max_tessfactor dcl_hs_fork_phase_instance_count dcl_hs_join_phase_instance_count dcl_thread_group dcl_uav_typed dcl_uav_raw dcl_uav_structured dcl_tgsm_raw dcl_tgsm_structured dcl_resource_raw dcl_resource_structured ' +
  'ld_uav_typed store_uav_typed ld_raw store_raw ld_structured store_structured atomic_and atomic_or atomic_xor atomic_cmp_store atomic_iadd atomic_imax atomic_imin atomic_umax atomic_umin imm_atomic_alloc imm_atomic_consume imm_atomic_iadd imm_atomic_and imm_atomic_or imm_atomic_xor imm_atomic_exch imm_atomic_cmp_exch imm_atomic_imax imm_atomic_imin imm_atomic_umax imm_atomic_umin sync ' +
  'dadd dmax dmin dmul deq dge dlt dne dmov dmovc dtof ftod eval_snapped eval_sample_index eval_centroid dcl_gs_instance_count abort debug_break reserved_209 ' +
  'ddiv dfma drcp msad dtoi dtou itod utod reserved_218 ' +
  'gather4_s gather4_c_s gather4_po_s gather4_po_c_s ld_s ld_ms_s ld_uav_typed_s ld_raw_s ld_structured_s sample_l_s sample_c_lz_s sample_cl_s sample_b_cl_s sample_d_cl_s sample_c_cl_s check_access_fully_mapped'
).split(' ');
