/**
 * JSON Schema (draft 2020-12) of the JSON form, built from the codecs/ tables so that names in
 * the schema and in the codec cannot drift apart. `npm run schema` writes it to schema/.
 */
import type { EnumTable, FlagTable } from '../../codecs/enum-table.js';
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
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
} from '../../codecs/root-signature.js';
import { APPEND_NAME, UNBOUNDED_NAME } from './json.js';

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

function enumDef(t: EnumTable) {
  const names = t.values.flatMap(([n]) => [n, t.prefix + n]);
  return { description: `${t.type}: an enumerator name (with or without "${t.prefix}") or the raw number`, anyOf: [{ enum: names }, ref('u32')] };
}

function flagsDef(t: FlagTable) {
  const names = ['NONE', ...t.bits.map(([n]) => n)].flatMap((n) => [n, t.prefix + n]);
  return {
    description: `${t.type}: a list of flag names (with or without "${t.prefix}") and numbers for bits without a name, OR-ed together; or one number`,
    anyOf: [{ type: 'array', items: { anyOf: [{ enum: names }, ref('u32')] } }, ref('u32')],
  };
}

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, properties, required });

/** The JSON Schema (draft 2020-12) of the JSON form, built from the codecs/ tables. */
export function rootSignatureJsonSchema(): Record<string, unknown> {
  const parameterHead = { parameterType: {}, shaderVisibility: ref('shaderVisibility') };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://dxbin.dev/schema/root-signature.schema.json',
    title: 'dxbin root signature (JSON form)',
    description:
      'A D3D12 versioned root signature description. Field names are the D3D12 C names in camelCase; enum values and flags use D3D12 names, numbers where a value has no name. Version 1.0 has no range or root descriptor flags; only version 1.2 has static sampler flags.',
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: { enum: ROOT_SIGNATURE_VERSIONS.map((v) => v.name) },
      flags: ref('rootSignatureFlags'),
      parameters: { type: 'array', items: ref('parameter') },
      staticSamplers: { type: 'array', items: ref('staticSampler') },
    },
    $defs: {
      u32: { anyOf: [{ type: 'integer', minimum: 0, maximum: 4294967295 }, { type: 'string', pattern: '^0[xX][0-9a-fA-F]{1,8}$' }] },
      f32: {
        description: 'A number (rounded to binary32), or "Infinity", "-Infinity", "-0", "NaN", or the bits as "0x" and 8 hex digits',
        anyOf: [{ type: 'number' }, { enum: ['Infinity', '-Infinity', '-0', 'NaN'] }, { type: 'string', pattern: '^0[xX][0-9a-fA-F]{8}$' }],
      },
      rootSignatureFlags: flagsDef(ROOT_SIGNATURE_FLAGS),
      descriptorRangeFlags: flagsDef(DESCRIPTOR_RANGE_FLAGS),
      rootDescriptorFlags: flagsDef(ROOT_DESCRIPTOR_FLAGS),
      samplerFlags: flagsDef(SAMPLER_FLAGS),
      parameterType: enumDef(ROOT_PARAMETER_TYPE),
      shaderVisibility: enumDef(SHADER_VISIBILITY),
      rangeType: enumDef(DESCRIPTOR_RANGE_TYPE),
      filter: enumDef(FILTER),
      addressMode: enumDef(TEXTURE_ADDRESS_MODE),
      comparisonFunc: enumDef(COMPARISON_FUNC),
      borderColor: enumDef(STATIC_BORDER_COLOR),
      parameter: {
        oneOf: [
          object({ ...parameterHead, parameterType: { enum: ['DESCRIPTOR_TABLE', `${ROOT_PARAMETER_TYPE.prefix}DESCRIPTOR_TABLE`, 0] }, ranges: { type: 'array', items: ref('descriptorRange') } }, ['parameterType', 'ranges']),
          object(
            {
              ...parameterHead,
              parameterType: { enum: ['32BIT_CONSTANTS', `${ROOT_PARAMETER_TYPE.prefix}32BIT_CONSTANTS`, 1] },
              constants: object({ shaderRegister: ref('u32'), registerSpace: ref('u32'), num32BitValues: ref('u32') }, ['shaderRegister', 'num32BitValues']),
            },
            ['parameterType', 'constants'],
          ),
          object(
            {
              ...parameterHead,
              parameterType: { enum: [...['CBV', 'SRV', 'UAV'].flatMap((n) => [n, ROOT_PARAMETER_TYPE.prefix + n]), 2, 3, 4] },
              descriptor: object({ shaderRegister: ref('u32'), registerSpace: ref('u32'), flags: ref('rootDescriptorFlags') }, ['shaderRegister']),
            },
            ['parameterType', 'descriptor'],
          ),
        ],
      },
      descriptorRange: object(
        {
          rangeType: ref('rangeType'),
          numDescriptors: { anyOf: [{ const: UNBOUNDED_NAME }, ref('u32')], description: `default 1; "${UNBOUNDED_NAME}" is 0xFFFFFFFF` },
          baseShaderRegister: ref('u32'),
          registerSpace: ref('u32'),
          flags: ref('descriptorRangeFlags'),
          offsetInDescriptorsFromTableStart: { anyOf: [{ const: APPEND_NAME }, ref('u32')], description: `default "${APPEND_NAME}" (D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND, 0xFFFFFFFF)` },
        },
        ['rangeType', 'baseShaderRegister'],
      ),
      staticSampler: object(
        {
          filter: ref('filter'),
          addressU: ref('addressMode'),
          addressV: ref('addressMode'),
          addressW: ref('addressMode'),
          mipLODBias: ref('f32'),
          maxAnisotropy: ref('u32'),
          comparisonFunc: ref('comparisonFunc'),
          borderColor: ref('borderColor'),
          minLOD: ref('f32'),
          maxLOD: ref('f32'),
          shaderRegister: ref('u32'),
          registerSpace: ref('u32'),
          shaderVisibility: ref('shaderVisibility'),
          flags: ref('samplerFlags'),
        },
        ['filter', 'addressU', 'addressV', 'addressW', 'mipLODBias', 'maxAnisotropy', 'comparisonFunc', 'borderColor', 'minLOD', 'maxLOD', 'shaderRegister', 'registerSpace', 'shaderVisibility'],
      ),
    },
  };
}
