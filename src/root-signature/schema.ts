/**
 * JSON Schema (draft 2020-12) of the JSON form, built from the codecs/ tables so that names in
 * the schema and in the codec cannot drift apart. `npm run schema` writes it to schema/.
 */
import { rowsBy, type EnumTable, type FlagTable } from '../../codecs/enum-table.js';
import type { FieldRow } from '../../codecs/root-signature.js';
import {
  COMPARISON_FUNC,
  DESCRIPTOR_RANGE_FLAGS,
  DESCRIPTOR_RANGE_TYPE,
  FILTER,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_PARAMETER_TYPE,
  ROOT_SIGNATURE_FLAGS,
  ROOT_SIGNATURE_VERSIONS,
  SAMPLER_FLAGS,
  CONSTANTS,
  DESCRIPTOR,
  HEADER,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  SAMPLER,
  type RecordRow,
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
  versionsStoring,
} from '../../codecs/root-signature.js';
import { enumSchema, flagsSchema, schemaRef, u32Schema } from '../json/schema.js';
import { dataFields, keyOf, PARAMETERS_KEY, PAYLOAD_KEY, SAMPLERS_KEY, VERSION_KEY } from './rows.js';

const ref = schemaRef;

type Def = readonly [EnumTable | FlagTable, string];
let defs: readonly Def[] | undefined;
let defByTable: ((table: unknown) => Def | undefined) | undefined;
/** The $defs entry of each flag and enum table, in the order of $defs (made on first use, not at import). */
const schemaDefs = (): readonly Def[] => (defs ??= [
  [ROOT_SIGNATURE_FLAGS, 'rootSignatureFlags'],
  [DESCRIPTOR_RANGE_FLAGS, 'descriptorRangeFlags'],
  [ROOT_DESCRIPTOR_FLAGS, 'rootDescriptorFlags'],
  [SAMPLER_FLAGS, 'samplerFlags'],
  [ROOT_PARAMETER_TYPE, 'parameterType'],
  [SHADER_VISIBILITY, 'shaderVisibility'],
  [DESCRIPTOR_RANGE_TYPE, 'rangeType'],
  [FILTER, 'filter'],
  [TEXTURE_ADDRESS_MODE, 'addressMode'],
  [COMPARISON_FUNC, 'comparisonFunc'],
  [STATIC_BORDER_COLOR, 'borderColor'],
]);

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

/** The schema of one field, from its row. */
function fieldSchema(row: FieldRow): Record<string, unknown> {
  if (row.kind === 'f32') return ref('f32');
  if (typeof row.kind !== 'string') return ref((defByTable ??= rowsBy(schemaDefs(), 0))(row.kind)![1]);
  if (!row.special) return ref('u32');
  const { json, value } = row.special;
  const description = row.default === value ? `default "${json}" (${row.special.c}, ${hex(value)})` : `default ${row.default}; "${json}" is ${hex(value)}`;
  return { anyOf: [{ const: json }, ref('u32')], description };
}

/** A record's object schema: every data field, the ones without a default required. */
function recordSchema(record: RecordRow, extra: Record<string, unknown> = {}) {
  const fields = dataFields(record);
  return object(
    { ...Object.fromEntries(fields.map((f) => [f.key, fieldSchema(f.row)])), ...extra },
    fields.filter((f) => f.row.default === undefined).map((f) => f.key),
  );
}

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, properties, required });

/** The JSON Schema (draft 2020-12) of the JSON form, built from the codecs/ tables. */
export function rootSignatureJsonSchema(): Record<string, unknown> {
  const { TABLE: TABLE_PAYLOAD, CONSTANTS: CONSTANTS_PAYLOAD } = PAYLOAD_KEY;
  const parameterTypeKey = keyOf(PARAMETER, PARAMETER.fields.parameterType);
  // parameter types grouped by payload, in the order of the rows
  const payloads = [...new Set(PARAMETER_TYPES.map((t) => t.payload))].map((payload) => ({ payload, types: PARAMETER_TYPES.filter((t) => t.payload === payload) }));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://dxbin.dev/schema/root-signature.schema.json',
    title: 'dxbin root signature (JSON form)',
    description:
      `A D3D12 versioned root signature description. Field names are the D3D12 C names in camelCase; enum values and flags use D3D12 names, numbers where a value has no name. Version ${versionsStoring(RANGE.fields.flags, false)} has no range or root descriptor flags; only version ${versionsStoring(SAMPLER.fields.flags)} has static sampler flags.`,
    type: 'object',
    additionalProperties: false,
    required: [VERSION_KEY],
    properties: {
      [VERSION_KEY]: { enum: ROOT_SIGNATURE_VERSIONS.map((v) => v.name) },
      ...recordSchema(HEADER).properties,
      [PARAMETERS_KEY]: { type: 'array', items: ref('parameter') },
      [SAMPLERS_KEY]: { type: 'array', items: ref('staticSampler') },
    },
    $defs: {
      u32: u32Schema(),
      f32: {
        description: 'A number (rounded to binary32), or "Infinity", "-Infinity", "-0", "NaN", or the bits as "0x" and 8 hex digits',
        anyOf: [{ type: 'number' }, { enum: ['Infinity', '-Infinity', '-0', 'NaN'] }, { type: 'string', pattern: '^0[xX][0-9a-fA-F]{8}$' }],
      },
      ...Object.fromEntries(schemaDefs().map(([t, name]) => [name, 'bits' in t ? flagsSchema(t, `a list of flag names (with or without "${t.prefix}") and numbers for bits without a name`) : enumSchema(t)])),
      parameter: {
        oneOf: payloads.map(({ payload, types }) => {
          const head = recordSchema(PARAMETER);
          const names = types.flatMap((t) => [t.name, ROOT_PARAMETER_TYPE.prefix + t.name]);
          const body = payload === TABLE_PAYLOAD ? { type: 'array', items: ref('descriptorRange') } : recordSchema(payload === CONSTANTS_PAYLOAD ? CONSTANTS : DESCRIPTOR);
          return object({ ...head.properties, [parameterTypeKey]: { enum: [...names, ...types.map((t) => t.value)] }, [payload]: body }, [...head.required, payload]);
        }),
      },
      descriptorRange: recordSchema(RANGE),
      staticSampler: recordSchema(SAMPLER),
    },
  };
}
