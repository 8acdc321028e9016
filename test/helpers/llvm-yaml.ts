/**
 * LLVM's DXContainer YAML (obj2yaml/yaml2obj) for root signatures: its spellings mapped to D3D12
 * values, and a stand-in for yaml2obj's RTS0 writer, which lays out payloads canonically but
 * writes RootParametersOffset, StaticSamplersOffset and the part size as the document gives them.
 */
import type { EnumTable, FlagTable } from '../../codecs/enum-table.js';
import { codecs, type RootParameter, type RootSignature, type StaticSampler } from '../../src/index.js';

type Y = Record<string, any>;

/** MIN_LINEAR_MAG_MIP_POINT -> MinLinearMagMipPoint, as LLVM spells D3D12 enumerators. */
const pascal = (name: string) => name.toLowerCase().replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase());

function value(table: EnumTable, given: unknown, special: Record<string, number> = {}): number {
  if (typeof given === 'number') return given >>> 0;
  if (typeof given === 'string' && given in special) return special[given]!;
  const hit = table.values.find(([name]) => pascal(name) === given);
  if (!hit) throw new Error(`no ${table.type} spelled ${String(given)} in LLVM YAML`);
  return hit[1];
}

/** Flags are booleans: root flags in PascalCase, range/descriptor/sampler flags by their D3D12 names. */
function flags(table: FlagTable, node: Y, style: 'pascal' | 'upper' | 'sampler'): number {
  let v = 0;
  for (const [name, bit] of table.bits) {
    const key = style === 'pascal' ? pascal(name) : style === 'sampler' ? `SAMPLER_FLAG_${name}` : name;
    if (node[key] === true) v = (v | bit) >>> 0;
  }
  return v;
}

const PARAMETER_TYPES = { DescriptorTable: 0, Constants32Bit: 1, CBV: 2, SRV: 3, UAV: 4 };

/** The description an LLVM `RootSignature:` node stands for. */
export function describedRootSignature(node: Y): RootSignature {
  const version = node.Version as 1 | 2 | 3;
  const parameters = ((node.Parameters ?? []) as Y[]).map((p): RootParameter => {
    const parameterType = value(codecs.ROOT_PARAMETER_TYPE, p.ParameterType, PARAMETER_TYPES);
    const shaderVisibility = value(codecs.SHADER_VISIBILITY, p.ShaderVisibility);
    if (parameterType === 0) {
      return {
        parameterType: 0,
        shaderVisibility,
        ranges: (p.Table.Ranges as Y[]).map((r) => ({
          rangeType: value(codecs.DESCRIPTOR_RANGE_TYPE, r.RangeType, { SRV: 0, UAV: 1, CBV: 2, Sampler: 3 }),
          numDescriptors: r.NumDescriptors >>> 0,
          baseShaderRegister: r.BaseShaderRegister,
          registerSpace: r.RegisterSpace,
          flags: flags(codecs.DESCRIPTOR_RANGE_FLAGS, r, 'upper'),
          offsetInDescriptorsFromTableStart: r.OffsetInDescriptorsFromTableStart >>> 0,
        })),
      };
    }
    if (parameterType === 1) {
      return { parameterType: 1, shaderVisibility, constants: { shaderRegister: p.Constants.ShaderRegister, registerSpace: p.Constants.RegisterSpace, num32BitValues: p.Constants.Num32BitValues } };
    }
    return {
      parameterType: parameterType as 2 | 3 | 4,
      shaderVisibility,
      descriptor: { shaderRegister: p.Descriptor.ShaderRegister, registerSpace: p.Descriptor.RegisterSpace, flags: flags(codecs.ROOT_DESCRIPTOR_FLAGS, p.Descriptor, 'upper') },
    };
  });
  const staticSamplers = ((node.Samplers ?? []) as Y[]).map(
    (s): StaticSampler => ({
      filter: value(codecs.FILTER, s.Filter),
      addressU: value(codecs.TEXTURE_ADDRESS_MODE, s.AddressU),
      addressV: value(codecs.TEXTURE_ADDRESS_MODE, s.AddressV),
      addressW: value(codecs.TEXTURE_ADDRESS_MODE, s.AddressW),
      mipLODBias: Math.fround(s.MipLODBias),
      maxAnisotropy: s.MaxAnisotropy,
      comparisonFunc: value(codecs.COMPARISON_FUNC, s.ComparisonFunc),
      borderColor: value(codecs.STATIC_BORDER_COLOR, s.BorderColor),
      minLOD: Math.fround(s.MinLOD),
      maxLOD: Math.fround(s.MaxLOD),
      shaderRegister: s.ShaderRegister,
      registerSpace: s.RegisterSpace,
      shaderVisibility: value(codecs.SHADER_VISIBILITY, s.ShaderVisibility),
      flags: flags(codecs.SAMPLER_FLAGS, s, 'sampler'),
    }),
  );
  return { version, flags: flags(codecs.ROOT_SIGNATURE_FLAGS, node, 'pascal'), parameters, staticSamplers };
}

/** yaml2obj's RTS0 bytes: canonical payloads, header offsets and part size as the document says. */
export function yaml2objPart(canonical: Uint8Array, node: Y, partSize: number): Uint8Array {
  const out = new Uint8Array(Math.max(partSize, canonical.byteLength));
  out.set(canonical);
  const v = new DataView(out.buffer);
  v.setUint32(8, node.RootParametersOffset >>> 0, true);
  v.setUint32(16, node.StaticSamplersOffset >>> 0, true);
  return out.subarray(0, partSize);
}
