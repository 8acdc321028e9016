/**
 * The typed description of a root signature: D3D12_VERSIONED_ROOT_SIGNATURE_DESC with camelCase
 * field names and raw numbers (unknown enum values and flag bits are kept as they are). Every key
 * comes from the codecs/root-signature.ts rows (docs/formats/rts0.md): a record's data fields, the
 * arrays its count fields locate, and the payload key of each parameter type row.
 */
import type {
  CONSTANTS,
  DESCRIPTOR,
  FieldValues,
  PARAMETER_TYPES,
  RANGE,
  RECORDS,
  ROOT_PARAMETER_TYPE,
  RecordName,
  RootSignatureVersion,
  SAMPLER,
} from '../../codecs/root-signature.js';

export type { RootSignatureVersion };

/** D3D12_DESCRIPTOR_RANGE1 (fields: codecs RANGE); `flags` is 0 in version 1.0, which has none. */
export interface DescriptorRange extends FieldValues<typeof RANGE> {}

/** A descriptor table root parameter. */
export interface DescriptorTableParameter extends ParameterOf<'TABLE'> {}

/** D3D12_ROOT_CONSTANTS (fields: codecs CONSTANTS). */
export interface RootConstants extends FieldValues<typeof CONSTANTS> {}

/** A root constants parameter. */
export interface RootConstantsParameter extends ParameterOf<'CONSTANTS'> {}

/** D3D12_ROOT_DESCRIPTOR1 (fields: codecs DESCRIPTOR); `flags` is 0 in version 1.0, which has none. */
export interface RootDescriptor extends FieldValues<typeof DESCRIPTOR> {}

/** A root CBV, SRV or UAV parameter (parameterType 2 CBV, 3 SRV, 4 UAV). */
export interface RootDescriptorParameter extends ParameterOf<'DESCRIPTOR'> {}

/** A root parameter, discriminated by parameterType. */
export type RootParameter = DescriptorTableParameter | RootConstantsParameter | RootDescriptorParameter;

/** The f32 fields of a static sampler. */
export type SamplerFloatField = { [K in keyof SamplerFields]: SamplerFields[K]['kind'] extends 'f32' ? K : never }[keyof SamplerFields];
type SamplerFields = (typeof SAMPLER)['fields'];

/** D3D12_STATIC_SAMPLER_DESC1 (fields: codecs SAMPLER); `flags` is 0 before version 1.2. */
export interface StaticSampler extends FieldValues<typeof SAMPLER> {
  /** Bit patterns of NaN float fields whose payload is not the default quiet NaN, so they survive. */
  nanBits?: Partial<Record<SamplerFloatField, number>>;
}

/** D3D12_VERSIONED_ROOT_SIGNATURE_DESC: version, flags, parameters and static samplers. */
export interface RootSignature extends HeaderValues {}

// ---------------------------------------------------------------- the keys, from the rows

/** The description's value of one record of each kind that is an array element or a payload. */
interface RecordValues {
  PARAMETER: RootParameter;
  RANGE: DescriptorRange;
  CONSTANTS: RootConstants;
  DESCRIPTOR: RootDescriptor;
  SAMPLER: StaticSampler;
}

type Fields<R extends RecordName> = (typeof RECORDS)[R]['fields'];
/** The keys of record R whose row is a `M`. */
type KeysWhere<R extends RecordName, M> = { [K in keyof Fields<R>]: Fields<R>[K] extends M ? K : never }[keyof Fields<R>];
/** The keys of the values the description holds (counts, offsets and the version left out). */
type DataKeys<R extends RecordName> = Exclude<keyof Fields<R>, KeysWhere<R, { kind: 'version' | 'count' | 'offset' }>>;
/** The arrays record R locates, by their key (a count field's `of`), each of its `record`'s values. */
type Arrays<R extends RecordName> = {
  -readonly [K in KeysWhere<R, { kind: 'count' }> as Fields<R>[K] extends { of: infer O extends string } ? O : never]: Fields<R>[K] extends {
    record: infer E extends keyof RecordValues;
  }
    ? RecordValues[E][]
    : never;
};

/** The header: its version, its data fields (flags) and the arrays it locates. */
type HeaderValues = { -readonly [K in KeysWhere<'HEADER', { kind: 'version' }>]: RootSignatureVersion } & {
  -readonly [K in DataKeys<'HEADER'>]: number;
} & Arrays<'HEADER'>;

/** The parameter type rows whose payload offset points at record P. */
type TypesOf<P extends RecordName> = Extract<(typeof PARAMETER_TYPES)[number], { record: P }>;
/** The payload of those types: the array record P locates under the payload key, else P's values. */
type PayloadOf<P extends RecordName> = [KeysWhere<P, { kind: 'count'; of: TypesOf<P>['payload'] }>] extends [never]
  ? P extends keyof RecordValues
    ? RecordValues[P]
    : never
  : Arrays<P>[TypesOf<P>['payload'] & keyof Arrays<P>];
/**
 * A parameter whose payload is record P: the parameter record's data fields (the type field, the
 * one whose kind is ROOT_PARAMETER_TYPE, narrowed to the rows' values) and the payload under its key.
 */
type ParameterOf<P extends RecordName> = {
  -readonly [K in DataKeys<'PARAMETER'>]: Fields<'PARAMETER'>[K] extends { kind: typeof ROOT_PARAMETER_TYPE } ? TypesOf<P>['value'] : number;
} & { -readonly [K in TypesOf<P>['payload']]: PayloadOf<P> };
