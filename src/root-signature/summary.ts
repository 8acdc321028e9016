/** A short human-readable listing of a root signature, one line per parameter and sampler. */
import {
  COMPARISON_FUNC,
  DESCRIPTOR_RANGE_FLAGS,
  DESCRIPTOR_RANGE_TYPE,
  FILTER,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_PARAMETER_TYPE,
  ROOT_SIGNATURE_FLAGS,
  SAMPLER_FLAGS,
  SHADER_VISIBILITY,
  STATIC_BORDER_COLOR,
  TEXTURE_ADDRESS_MODE,
  CONSTANTS,
  DESCRIPTOR,
  PARAMETER,
  RANGE,
  SAMPLER,
  stores,
  type FieldRow,
} from '../../codecs/root-signature.js';
import type { FlagTable } from '../../codecs/enum-table.js';
import { versionName } from './rows.js';
import { enumName, flagNames } from '../json/vocabulary.js';
import type { RootSignature } from './types.js';

/** A u32 with its summary word when it is the field's special value. */
const special = (row: FieldRow, value: number) => (row.special && value === row.special.value ? row.special.summary : String(value));
/** A field's label: its summary label, else its HLSL keyword (space, flags, visibility). */
const L = (row: FieldRow): string => row.summary ?? row.hlsl!.keyword;
const flags = (table: FlagTable, value: number) => flagNames(table, value).map(String).join(' | ') || 'NONE';

/** One line per parameter, range and static sampler, for people (the `inspect` listing). */
export function summarizeRootSignature(rs: RootSignature): string[] {
  const rangeFlags = stores(RANGE.fields.flags, rs.version);
  const descriptorFlags = stores(DESCRIPTOR.fields.flags, rs.version);
  const samplerFlags = stores(SAMPLER.fields.flags, rs.version);
  const lines = [`version ${versionName(rs.version)}, flags ${flags(ROOT_SIGNATURE_FLAGS, rs.flags)}`];
  rs.parameters.forEach((p, i) => {
    const head = `parameters[${i}] ${String(enumName(ROOT_PARAMETER_TYPE, p.parameterType))} ${L(PARAMETER.fields.shaderVisibility)} ${String(enumName(SHADER_VISIBILITY, p.shaderVisibility))}`;
    if (p.parameterType === 0) {
      lines.push(`${head}, ${p.ranges.length} range${p.ranges.length === 1 ? '' : 's'}`);
      p.ranges.forEach((r, j) => {
        const n = special(RANGE.fields.numDescriptors, r.numDescriptors);
        const at = special(RANGE.fields.offsetInDescriptorsFromTableStart, r.offsetInDescriptorsFromTableStart);
        lines.push(
          `  ranges[${j}] ${String(enumName(DESCRIPTOR_RANGE_TYPE, r.rangeType))} ${L(RANGE.fields.baseShaderRegister)} ${r.baseShaderRegister} ${L(RANGE.fields.numDescriptors)} ${n} ${L(RANGE.fields.registerSpace)} ${r.registerSpace} ${L(RANGE.fields.offsetInDescriptorsFromTableStart)} ${at}` +
            (rangeFlags ? ` ${L(RANGE.fields.flags)} ${flags(DESCRIPTOR_RANGE_FLAGS, r.flags)}` : ''),
        );
      });
    } else if (p.parameterType === 1) {
      lines.push(`${head}, b${p.constants.shaderRegister} ${L(CONSTANTS.fields.registerSpace)} ${p.constants.registerSpace}, ${p.constants.num32BitValues} 32-bit values`);
    } else {
      lines.push(`${head}, register ${p.descriptor.shaderRegister} ${L(DESCRIPTOR.fields.registerSpace)} ${p.descriptor.registerSpace}` + (descriptorFlags ? `, ${L(DESCRIPTOR.fields.flags)} ${flags(ROOT_DESCRIPTOR_FLAGS, p.descriptor.flags)}` : ''));
    }
  });
  rs.staticSamplers.forEach((s, k) => {
    lines.push(
      `staticSamplers[${k}] s${s.shaderRegister} ${L(SAMPLER.fields.registerSpace)} ${s.registerSpace} ${L(SAMPLER.fields.shaderVisibility)} ${String(enumName(SHADER_VISIBILITY, s.shaderVisibility))}, ` +
        `${L(SAMPLER.fields.filter)} ${String(enumName(FILTER, s.filter))}, address ${[s.addressU, s.addressV, s.addressW].map((a) => String(enumName(TEXTURE_ADDRESS_MODE, a))).join('/')}, ` +
        `${L(SAMPLER.fields.mipLODBias)} ${s.mipLODBias}, ${L(SAMPLER.fields.maxAnisotropy)} ${s.maxAnisotropy}, ${L(SAMPLER.fields.comparisonFunc)} ${String(enumName(COMPARISON_FUNC, s.comparisonFunc))}, ${L(SAMPLER.fields.borderColor)} ${String(enumName(STATIC_BORDER_COLOR, s.borderColor))}, ` +
        `lod ${s.minLOD}..${s.maxLOD}` + (samplerFlags ? `, ${L(SAMPLER.fields.flags)} ${flags(SAMPLER_FLAGS, s.flags)}` : ''),
    );
  });
  return lines;
}
