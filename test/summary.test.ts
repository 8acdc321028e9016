/** The one-line summary (`inspect`'s root signature listing): every record kind, read from the rows. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { convertRootSignature, summarizeRootSignature, type RootSignature } from '../src/index.js';

const RS: RootSignature = {
  version: 3,
  flags: 0x41,
  parameters: [
    {
      parameterType: 0,
      shaderVisibility: 5,
      ranges: [
        { rangeType: 0, numDescriptors: 0xffffffff, baseShaderRegister: 2, registerSpace: 1, flags: 0x8, offsetInDescriptorsFromTableStart: 0xffffffff },
        { rangeType: 3, numDescriptors: 4, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 7 },
      ],
    },
    { parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 2, numDescriptors: 1, baseShaderRegister: 9, registerSpace: 0, flags: 0x1, offsetInDescriptorsFromTableStart: 0 }] },
    { parameterType: 0, shaderVisibility: 0, ranges: [] },
    { parameterType: 1, shaderVisibility: 1, constants: { shaderRegister: 3, registerSpace: 2, num32BitValues: 1 } },
    { parameterType: 4, shaderVisibility: 0, descriptor: { shaderRegister: 5, registerSpace: 6, flags: 0x2 } },
  ],
  staticSamplers: [
    {
      filter: 0x55,
      addressU: 1,
      addressV: 3,
      addressW: 4,
      mipLODBias: -0.5,
      maxAnisotropy: 16,
      comparisonFunc: 4,
      borderColor: 2,
      minLOD: 0,
      maxLOD: 3.4028234663852886e38,
      shaderRegister: 1,
      registerSpace: 0,
      shaderVisibility: 5,
      flags: 0x3,
    },
  ],
};

test('every record kind: labels, register letters, units, groups, special values, flags by version', () => {
  assert.equal(summarizeRootSignature(RS), [
    'version 1.2, flags ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | ALLOW_STREAM_OUTPUT',
    'parameters[0] DESCRIPTOR_TABLE visibility PIXEL, 2 ranges',
    '  ranges[0] SRV base 2 count unbounded space 1 offset APPEND flags DATA_STATIC',
    '  ranges[1] SAMPLER base 0 count 4 space 0 offset 7 flags NONE',
    'parameters[1] DESCRIPTOR_TABLE visibility ALL, 1 range',
    '  ranges[0] CBV base 9 count 1 space 0 offset 0 flags DESCRIPTORS_VOLATILE',
    'parameters[2] DESCRIPTOR_TABLE visibility ALL, 0 ranges',
    'parameters[3] 32BIT_CONSTANTS visibility VERTEX, b3 space 2, 1 32-bit values',
    'parameters[4] UAV visibility ALL, register 5 space 6, flags DATA_VOLATILE',
    'staticSamplers[0] s1 space 0 visibility PIXEL, filter ANISOTROPIC, address WRAP/CLAMP/BORDER, bias -0.5, anisotropy 16, compare LESS_EQUAL, border OPAQUE_WHITE, lod 0..3.4028234663852886e+38, flags UINT_BORDER_COLOR | NON_NORMALIZED_COORDINATES',
  ]);
});

test('fields a version does not store are left out (1.0: no range, descriptor or sampler flags)', () => {
  const lines = summarizeRootSignature(convertRootSignature(RS, 1).rootSignature);
  assert.is(lines[0], 'version 1.0, flags ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | ALLOW_STREAM_OUTPUT');
  assert.is(lines[2], '  ranges[0] SRV base 2 count unbounded space 1 offset APPEND');
  assert.is(lines[8], 'parameters[4] UAV visibility ALL, register 5 space 6');
  assert.is(lines[9], 'staticSamplers[0] s1 space 0 visibility PIXEL, filter ANISOTROPIC, address WRAP/CLAMP/BORDER, bias -0.5, anisotropy 16, compare LESS_EQUAL, border OPAQUE_WHITE, lod 0..3.4028234663852886e+38');
});

test('unknown enumerators and flag bits print as numbers', () => {
  const rs: RootSignature = { version: 2, flags: 0x80000000, parameters: [{ parameterType: 2, shaderVisibility: 99, descriptor: { shaderRegister: 0, registerSpace: 0, flags: 0x100 } }], staticSamplers: [] };
  assert.equal(summarizeRootSignature(rs), ['version 1.1, flags 2147483648', 'parameters[0] CBV visibility 99, register 0 space 0, flags 256']);
});

test.run();
