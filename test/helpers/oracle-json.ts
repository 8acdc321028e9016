/**
 * The JSON schema of the corpus transcriptions (corpus/rootsig/<blob>.json: D3D12 C field names,
 * raw numbers, floats as numbers or "0x<bits>") to and from dxbin's typed description. Written
 * independently of src/root-signature/json.ts.
 */
import type { RootParameter, RootSignature, StaticSampler } from '../../src/index.js';

type O = Record<string, any>;

function oracleFloat(v: unknown): number {
  if (typeof v === 'number') return Math.fround(v);
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (typeof v === 'string' && v.startsWith('0x')) {
    const f = new Float32Array(new Uint32Array([Number.parseInt(v, 16)]).buffer);
    return f[0]!;
  }
  throw new Error(`bad oracle float ${String(v)}`);
}

export function fromOracleJson(o: O): RootSignature {
  const version = o.Version as 1 | 2 | 3;
  return {
    version,
    flags: o.Flags ?? 0,
    parameters: (o.Parameters ?? []).map((p: O): RootParameter => {
      if (p.ParameterType === 0) {
        return {
          parameterType: 0,
          shaderVisibility: p.ShaderVisibility,
          ranges: p.DescriptorTable.DescriptorRanges.map((r: O) => ({
            rangeType: r.RangeType,
            numDescriptors: r.NumDescriptors,
            baseShaderRegister: r.BaseShaderRegister,
            registerSpace: r.RegisterSpace,
            flags: r.Flags ?? 0,
            offsetInDescriptorsFromTableStart: r.OffsetInDescriptorsFromTableStart,
          })),
        };
      }
      if (p.ParameterType === 1) {
        return {
          parameterType: 1,
          shaderVisibility: p.ShaderVisibility,
          constants: { shaderRegister: p.Constants.ShaderRegister, registerSpace: p.Constants.RegisterSpace, num32BitValues: p.Constants.Num32BitValues },
        };
      }
      return {
        parameterType: p.ParameterType,
        shaderVisibility: p.ShaderVisibility,
        descriptor: { shaderRegister: p.Descriptor.ShaderRegister, registerSpace: p.Descriptor.RegisterSpace, flags: p.Descriptor.Flags ?? 0 },
      };
    }),
    staticSamplers: (o.StaticSamplers ?? []).map(
      (s: O): StaticSampler => ({
        filter: s.Filter,
        addressU: s.AddressU,
        addressV: s.AddressV,
        addressW: s.AddressW,
        mipLODBias: oracleFloat(s.MipLODBias),
        maxAnisotropy: s.MaxAnisotropy,
        comparisonFunc: s.ComparisonFunc,
        borderColor: s.BorderColor,
        minLOD: oracleFloat(s.MinLOD),
        maxLOD: oracleFloat(s.MaxLOD),
        shaderRegister: s.ShaderRegister,
        registerSpace: s.RegisterSpace,
        shaderVisibility: s.ShaderVisibility,
        flags: s.Flags ?? 0,
      }),
    ),
  };
}
