/** The digest test vectors (docs/formats/container.md) and worked examples of root signatures, byte for byte. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  decodeRootSignature,
  encodeRootSignature,
  modifiedMd5,
  parseContainer,
  rootSignatureContainer,
  type RootSignature,
  type StaticSampler,
} from '../src/index.js';
import { fromWordDump, hex } from './helpers/corpus.js';

const vectors: [string, Uint8Array, string][] = [
  ['empty', new Uint8Array(0), '140d60f6b775e2ba4e4abed401b2e9a1'],
  ['"abc"', new TextEncoder().encode('abc'), 'fbf0ffb01d1f9d12864dff8830d1b4a3'],
  ['55 zero bytes', new Uint8Array(55), '4b7be8c64638a2301d6ffda57b02ab5a'],
  ['56 zero bytes', new Uint8Array(56), '8b2b20d77e98e591cbb57270974098a1'],
  ['64 zero bytes', new Uint8Array(64), '5cf47269e5669acb7de26cc3544f6276'],
  ['0x00..0x77', Uint8Array.from({ length: 120 }, (_, i) => i), '882fce4f4c95194392e7adefd53fe343'],
];
for (const [name, message, digest] of vectors) {
  test(`modified MD5 of ${name}`, () => assert.is(hex(modifiedMd5(message)), digest));
}

const FLT_MAX = 3.4028234663852886e38;
const APPEND = 0xffffffff;
const sampler = (o: Partial<StaticSampler>): StaticSampler => ({
  filter: 0x55, addressU: 1, addressV: 1, addressW: 1, mipLODBias: 0, maxAnisotropy: 16, comparisonFunc: 4, borderColor: 2,
  minLOD: 0, maxLOD: FLT_MAX, shaderRegister: 0, registerSpace: 0, shaderVisibility: 0, flags: 0, ...o,
});

/** Checks decode(bytes) == desc and the container written from desc == bytes. */
function example(name: string, dump: string, desc: RootSignature, digest?: string) {
  test(name, () => {
    const bytes = fromWordDump(dump);
    const container = parseContainer(bytes);
    assert.equal(decodeRootSignature(container.parts[0]!.data), desc);
    assert.is(hex(rootSignatureContainer(encodeRootSignature(desc))), hex(bytes));
    if (digest) assert.is(hex(container.digest), digest);
  });
}

const EMPTY = `
0000: 44584243 1dfc4ad6 3577c25d 4acbda9e
0010: faa7d86b 01000000 44000000 01000000
0020: 24000000 52545330 18000000 01000000
0030: 00000000 18000000 00000000 18000000
0040: 00000000`;
example('the empty root signature (docs/formats/rts0.md, canonical layout)', EMPTY, { version: 1, flags: 0, parameters: [], staticSamplers: [] }, '1dfc4ad63577c25d4acbda9efaa7d86b');
test('the empty root signature as 1.1 differs in the version word and digest only', () => {
  const bytes = rootSignatureContainer(encodeRootSignature({ version: 2, flags: 0, parameters: [], staticSamplers: [] }));
  assert.is(hex(bytes.subarray(4, 20)), 'cb82187939dbc18393dc7e325b086331');
  assert.is(hex(modifiedMd5(fromWordDump(EMPTY).subarray(20))), '1dfc4ad63577c25d4acbda9efaa7d86b');
});

example(
  'E1 CBV(b3, space = 0), version 1.0',
  `0000: 44584243 7e08c58d 0dbfb95c e35a462e
0010: e0e09162 01000000 58000000 01000000
0020: 24000000 52545330 2c000000 01000000
0030: 01000000 18000000 00000000 2c000000
0040: 00000000 02000000 00000000 24000000
0050: 03000000 00000000`,
  { version: 1, flags: 0, parameters: [{ parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 3, registerSpace: 0, flags: 0 } }], staticSamplers: [] },
);
test('E1 as version 1.1 has digest ade4f3663c5838993347af4e73ab4079', () => {
  const desc: RootSignature = { version: 2, flags: 0, parameters: [{ parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 3, registerSpace: 0, flags: 0 } }], staticSamplers: [] };
  const bytes = rootSignatureContainer(encodeRootSignature(desc));
  assert.is(bytes.byteLength, 92);
  assert.is(hex(bytes.subarray(4, 20)), 'ade4f3663c5838993347af4e73ab4079');
});

const E2: RootSignature = {
  version: 2,
  flags: 0,
  parameters: [
    {
      parameterType: 0,
      shaderVisibility: 0,
      ranges: [
        { rangeType: 2, numDescriptors: 1, baseShaderRegister: 1, registerSpace: 7, flags: 0, offsetInDescriptorsFromTableStart: APPEND },
        { rangeType: 0, numDescriptors: 8, baseShaderRegister: 16, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: APPEND },
        { rangeType: 1, numDescriptors: 0xffffffff, baseShaderRegister: 3, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 44 },
      ],
    },
  ],
  staticSamplers: [],
};
example(
  'E2 a table of three ranges, version 1.1',
  `0000: 44584243 ac029373 967fb39d c8eed91a
0010: cb085d7a 01000000 a0000000 01000000
0020: 24000000 52545330 74000000 02000000
0030: 01000000 18000000 00000000 74000000
0040: 00000000 00000000 00000000 24000000
0050: 03000000 2c000000 02000000 01000000
0060: 01000000 07000000 00000000 ffffffff
0070: 00000000 08000000 10000000 00000000
0080: 00000000 ffffffff 01000000 ffffffff
0090: 03000000 00000000 00000000 2c000000`,
  E2,
);
test('E2 with range flags 1, 3, 8 has digest 8ffa7fe7d552b5fad4156e58266c184c; the 1.0 form is 148 bytes', () => {
  const flagged = structuredClone(E2);
  const table = flagged.parameters[0] as Extract<RootSignature['parameters'][number], { parameterType: 0 }>;
  [1, 3, 8].forEach((f, i) => (table.ranges[i]!.flags = f));
  assert.is(hex(rootSignatureContainer(encodeRootSignature(flagged)).subarray(4, 20)), '8ffa7fe7d552b5fad4156e58266c184c');
  assert.is(rootSignatureContainer(encodeRootSignature({ ...E2, version: 1 })).byteLength, 148);
});

example(
  'E3 two static samplers, version 1.0',
  `0000: 44584243 6c52ed52 7c2d2c89 2311abb8
0010: 7d723a7e 01000000 ac000000 01000000
0020: 24000000 52545330 80000000 01000000
0030: 00000000 18000000 02000000 18000000
0040: 00000000 00000000 01000000 03000000
0050: 01000000 00000000 10000000 04000000
0060: 02000000 00000000 ffff7f7f 00000000
0070: 00000000 05000000 01000000 01000000
0080: 01000000 04000000 0000803f 10000000
0090: 04000000 01000000 00000000 00002041
00a0: 00000000 03000000 00000000`,
  {
    version: 1,
    flags: 0,
    parameters: [],
    staticSamplers: [
      sampler({ filter: 0, addressV: 3, shaderVisibility: 5 }),
      sampler({ filter: 1, addressW: 4, mipLODBias: 1, borderColor: 1, maxLOD: 10, registerSpace: 3 }),
    ],
  },
);

example(
  'E4 two root constants, version 1.0',
  `0000: 44584243 905501bc 45a3a4a9 5068447e
0010: 8152e02b 01000000 74000000 01000000
0020: 24000000 52545330 48000000 01000000
0030: 02000000 18000000 00000000 48000000
0040: 00000000 01000000 00000000 30000000
0050: 01000000 00000000 3c000000 04000000
0060: 00000000 03000000 05000000 03000000
0070: 04000000`,
  {
    version: 1,
    flags: 0,
    parameters: [
      { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 4, registerSpace: 0, num32BitValues: 3 } },
      { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 5, registerSpace: 3, num32BitValues: 4 } },
    ],
    staticSamplers: [],
  },
);

const E5: RootSignature = {
  version: 2,
  flags: 1,
  parameters: [
    { parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 0, registerSpace: 1, flags: 8 } },
    {
      parameterType: 0,
      shaderVisibility: 5,
      ranges: [
        { rangeType: 0, numDescriptors: 4, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: APPEND },
        { rangeType: 1, numDescriptors: 0xffffffff, baseShaderRegister: 1, registerSpace: 0, flags: 1, offsetInDescriptorsFromTableStart: APPEND },
      ],
    },
    { parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 3, numDescriptors: 2, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: APPEND }] },
    { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 2, registerSpace: 0, num32BitValues: 4 } },
  ],
  staticSamplers: [sampler({ filter: 0x15, addressU: 3, shaderRegister: 3 })],
};
example(
  'E5 composite signature with interleaved tables, version 1.1',
  `0000: 44584243 93fd77b7 06549a4b 2a1e36c5
0010: 8127e2de 01000000 18010000 01000000
0020: 24000000 52545330 ec000000 02000000
0030: 04000000 18000000 01000000 b8000000
0040: 01000000 02000000 00000000 48000000
0050: 00000000 05000000 54000000 00000000
0060: 00000000 8c000000 01000000 00000000
0070: ac000000 00000000 01000000 08000000
0080: 02000000 5c000000 00000000 04000000
0090: 00000000 00000000 00000000 ffffffff
00a0: 01000000 ffffffff 01000000 00000000
00b0: 01000000 ffffffff 01000000 94000000
00c0: 03000000 02000000 00000000 00000000
00d0: 00000000 ffffffff 02000000 00000000
00e0: 04000000 15000000 03000000 01000000
00f0: 01000000 00000000 10000000 04000000
0100: 02000000 00000000 ffff7f7f 03000000
0110: 00000000 00000000`,
  E5,
);
test('E5 without flags as version 1.0 is 264 bytes with digest b4f62b9ff884c985e496f6b216e4376b', () => {
  const plain = JSON.parse(JSON.stringify(E5), (k, v) => (k === 'flags' && typeof v === 'number' ? 0 : v)) as RootSignature;
  plain.version = 1;
  plain.flags = 1;
  plain.staticSamplers[0]!.maxLOD = FLT_MAX;
  const bytes = rootSignatureContainer(encodeRootSignature(plain));
  assert.is(bytes.byteLength, 264);
  assert.is(hex(bytes.subarray(4, 20)), 'b4f62b9ff884c985e496f6b216e4376b');
});

test.run();
