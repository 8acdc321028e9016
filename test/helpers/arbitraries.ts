/** fast-check arbitraries: typed root signature descriptions of every version, any u32 values. */
import fc from 'fast-check';
import type { DescriptorRange, RootParameter, RootSignature, StaticSampler } from '../../src/index.js';

const u32 = fc.oneof(fc.constantFrom(0, 1, 2, 3, 4, 5, 7, 8, 0xfffffff0, 0xffffffff), fc.nat({ max: 0xffffffff }));
const small = fc.nat({ max: 9 });
const f32 = fc.oneof(
  fc.constantFrom(0, -0, 1, 10, 3.4028234663852886e38, Infinity, -Infinity, NaN),
  fc.float({ noDefaultInfinity: false, noNaN: false }).map((x) => Math.fround(x)),
);

export function rootSignatureArbitrary(versions: (1 | 2 | 3)[] = [1, 2, 3]): fc.Arbitrary<RootSignature> {
  return fc.constantFrom(...versions).chain((version) => {
    const flags = (stored: boolean) => (stored ? u32 : fc.constant(0));
    const range: fc.Arbitrary<DescriptorRange> = fc.record({
      rangeType: fc.oneof(small, u32),
      numDescriptors: u32,
      baseShaderRegister: u32,
      registerSpace: u32,
      flags: flags(version >= 2),
      offsetInDescriptorsFromTableStart: u32,
    });
    const parameter: fc.Arbitrary<RootParameter> = fc.oneof(
      fc.record({ parameterType: fc.constant(0 as const), shaderVisibility: fc.oneof(small, u32), ranges: fc.array(range, { maxLength: 5 }) }),
      fc.record({
        parameterType: fc.constant(1 as const),
        shaderVisibility: fc.oneof(small, u32),
        constants: fc.record({ shaderRegister: u32, registerSpace: u32, num32BitValues: u32 }),
      }),
      fc.record({
        parameterType: fc.constantFrom(2 as const, 3 as const, 4 as const),
        shaderVisibility: fc.oneof(small, u32),
        descriptor: fc.record({ shaderRegister: u32, registerSpace: u32, flags: flags(version >= 2) }),
      }),
    );
    const sampler: fc.Arbitrary<StaticSampler> = fc.record({
      filter: fc.oneof(fc.constantFrom(0, 0x15, 0x55, 0x95, 0x1d5), u32),
      addressU: fc.oneof(small, u32),
      addressV: fc.oneof(small, u32),
      addressW: fc.oneof(small, u32),
      mipLODBias: f32,
      maxAnisotropy: u32,
      comparisonFunc: fc.oneof(small, u32),
      borderColor: fc.oneof(small, u32),
      minLOD: f32,
      maxLOD: f32,
      shaderRegister: u32,
      registerSpace: u32,
      shaderVisibility: fc.oneof(small, u32),
      flags: flags(version === 3),
    });
    return fc.record({
      version: fc.constant(version),
      flags: u32,
      parameters: fc.array(parameter, { maxLength: 6 }),
      staticSamplers: fc.array(sampler, { maxLength: 3 }),
    });
  });
}
