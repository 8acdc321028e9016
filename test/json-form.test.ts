/** The JSON form: lossless both ways, valid against schema/root-signature.schema.json. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  decodeRootSignature,
  encodeRootSignature,
  looksLikeContainer,
  parseContainer,
  rootSignatureFromJson,
  rootSignatureToJson,
} from '../src/index.js';
import { rootSignatureJsonSchema } from '../src/root-signature/schema.js';
import { HEADER, ROOT_SIGNATURE_VERSIONS, SAMPLER } from '../codecs/root-signature.js';
import { DescriptionError } from '../src/bytes/errors.js';
import type { RootSignature } from '../src/root-signature/types.js';
import { ROOT, corpusFiles, hex } from './helpers/corpus.js';
import { rootSignatureArbitrary } from './helpers/arbitraries.js';

const committed = JSON.parse(readFileSync(join(ROOT, 'schema/root-signature.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(committed);

test('the committed schema is the one built from codecs/ (run npm run schema after changing a table)', () => {
  assert.equal(committed, rootSignatureJsonSchema());
});

test('random descriptions: encode/decode and JSON text both ways are lossless; JSON validates', () => {
  fc.assert(
    fc.property(rootSignatureArbitrary(), (rs) => {
      const bytes = encodeRootSignature(rs);
      const decoded = decodeRootSignature(bytes);
      assert.is(hex(encodeRootSignature(decoded)), hex(bytes));
      const text = JSON.stringify(rootSignatureToJson(decoded));
      const json = JSON.parse(text);
      assert.ok(validate(json), JSON.stringify(validate.errors));
      assert.is(hex(encodeRootSignature(rootSignatureFromJson(json))), hex(bytes));
    }),
    { numRuns: 1500, seed: 3 },
  );
});

test('NaN payloads, -0 and infinities survive bytes -> JSON -> bytes', () => {
  const rs = rootSignatureFromJson({
    version: '1.2',
    staticSamplers: [
      {
        filter: 'ANISOTROPIC', addressU: 'WRAP', addressV: 'WRAP', addressW: 'WRAP', mipLODBias: '0x7fa00001', maxAnisotropy: 16,
        comparisonFunc: 'LESS_EQUAL', borderColor: 'OPAQUE_WHITE', minLOD: '-0', maxLOD: 'Infinity', shaderRegister: 0, registerSpace: 0,
        shaderVisibility: 'ALL', flags: ['UINT_BORDER_COLOR', 4],
      },
    ],
  });
  const bytes = encodeRootSignature(rs);
  assert.is(hex(bytes.subarray(24 + 16, 24 + 20)), '0100a07f');
  assert.is(hex(bytes.subarray(24 + 32, 24 + 40)), '000000800000807f');
  const json = rootSignatureToJson(decodeRootSignature(bytes)); // typed: RootSignatureJson
  assert.equal([json.staticSamplers[0]!.mipLODBias, json.staticSamplers[0]!.minLOD, json.staticSamplers[0]!.maxLOD, json.staticSamplers[0]!.flags], ['0x7fa00001', '-0', 'Infinity', ['UINT_BORDER_COLOR', 4]]);
});

// ---------------------------------------------------------------- f32 fields: every bit pattern, and nanBits

/** The sampler's f32 fields (from the rows) and a one-sampler root signature of each version, with its bytes. */
const F32_KEYS = Object.entries(SAMPLER.fields).filter(([, row]) => row.kind === 'f32').map(([key]) => key);
const SAMPLER_JSON = { filter: 'ANISOTROPIC', addressU: 'WRAP', addressV: 'WRAP', addressW: 'WRAP', mipLODBias: 0, maxAnisotropy: 16, comparisonFunc: 'LESS_EQUAL', borderColor: 'OPAQUE_WHITE', minLOD: 0, maxLOD: 0, shaderRegister: 0, registerSpace: 0, shaderVisibility: 'ALL' };
/** Bytes of a root signature whose sampler holds `bits` in field `key`, written over the encoder's. */
function withBits(version: (typeof ROOT_SIGNATURE_VERSIONS)[number], key: string, bits: number): Uint8Array {
  const bytes = encodeRootSignature(rootSignatureFromJson({ version: version.name, staticSamplers: [SAMPLER_JSON] })).slice();
  new DataView(bytes.buffer).setUint32(HEADER.sizes[version.value] + SAMPLER.fields[key as keyof typeof SAMPLER.fields].at[version.value]!, bits, true);
  return bytes;
}
/** bytes -> JSON text -> bytes is the identity; JSON -> bytes -> JSON too; the JSON spelling of the field. */
function roundTrip(bytes: Uint8Array, key: string): unknown {
  const json = JSON.parse(JSON.stringify(rootSignatureToJson(decodeRootSignature(bytes))));
  const again = encodeRootSignature(rootSignatureFromJson(json));
  assert.is(hex(again), hex(bytes));
  assert.equal(JSON.parse(JSON.stringify(rootSignatureToJson(decodeRootSignature(again)))), json);
  return json.staticSamplers[0][key];
}
const bits8 = (b: number) => `0x${(b >>> 0).toString(16).padStart(8, '0')}`;

test('every f32 bit pattern of a static sampler survives bytes -> JSON -> bytes and JSON -> bytes -> JSON: NaN payloads (quiet, signalling, negative) as their bits, -0 and the infinities as words', () => {
  const isNaN32 = (b: number) => (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
  const cases: [number, unknown][] = [
    [0x7fc00000, '0x7fc00000'], // the default quiet NaN
    [0xffc00000, '0xffc00000'], // negative quiet
    [0x7fc00001, '0x7fc00001'], // quiet with a payload
    [0x7f800001, '0x7f800001'], // signalling, smallest payload
    [0x7fbfffff, '0x7fbfffff'], // signalling, largest payload
    [0xff800001, '0xff800001'], // negative signalling
    [0xffffffff, '0xffffffff'],
    [0x80000000, '-0'],
    [0x00000000, 0],
    [0x7f800000, 'Infinity'],
    [0xff800000, '-Infinity'],
    [0x00000001, 1.401298464324817e-45], // the smallest subnormal
    [0x80000001, -1.401298464324817e-45],
    [0x7f7fffff, 3.4028234663852886e38], // FLT_MAX
  ];
  for (const version of ROOT_SIGNATURE_VERSIONS) {
    for (const key of F32_KEYS) {
      for (const [bits, spelled] of cases) assert.equal(roundTrip(withBits(version, key, bits), key), spelled, `${version.name} ${key} ${bits8(bits)}`);
    }
  }
  // every NaN (sign, quiet bit, payload) and any pattern at all
  const nan = fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 0x7fffff })).map(([neg, m]) => ((neg ? 0x80000000 : 0) | 0x7f800000 | m) >>> 0);
  fc.assert(
    fc.property(fc.oneof(nan, fc.integer({ min: 0, max: 0xffffffff })), fc.constantFrom(...F32_KEYS), fc.constantFrom(...ROOT_SIGNATURE_VERSIONS), (bits, key, version) => {
      const spelled = roundTrip(withBits(version, key, bits), key);
      if (isNaN32(bits)) assert.is(spelled, bits8(bits));
    }),
    { numRuns: 3000, seed: 29 },
  );
});

test('a sampler\'s nanBits are checked where they are read (rootSignatureToJson, encodeRootSignature): the bits of a NaN, as a u32, for an f32 field that is NaN; anything else a DescriptionError naming the entry', () => {
  const rs = (nanBits: unknown, mipLODBias = NaN): RootSignature => {
    const r = rootSignatureFromJson({ version: '1.2', staticSamplers: [{ ...SAMPLER_JSON, mipLODBias }] });
    (r.staticSamplers[0] as unknown as Record<string, unknown>).nanBits = nanBits;
    return r;
  };
  // what decode makes, and any NaN's bits (a quiet one too), are taken
  for (const bits of [0x7fa00001, 0x7f800001, 0xffc00000, 0x7fc00000]) {
    assert.is(rootSignatureToJson(rs({ mipLODBias: bits })).staticSamplers[0]!.mipLODBias, bits8(bits));
    assert.is(hex(encodeRootSignature(rs({ mipLODBias: bits })).subarray(24 + 16, 24 + 20)), hex(Uint8Array.of(bits, bits >>> 8, bits >>> 16, bits >>> 24)));
  }
  assert.is(rootSignatureToJson(rs({})).staticSamplers[0]!.mipLODBias, '0x7fc00000');
  const at = 'RTS0.staticSamplers[0].nanBits';
  // one code for a wrong entry (not-representable: the bits cannot stand for that field's value), bad-type for nanBits that is no object
  const N = 'not-representable';
  const refusals: [unknown, number, string, string][] = [
    [{ mipLODBias: 0x3f800000 }, NaN, N, `${at}.mipLODBias`], // 1.0: written for a NaN, read back as 1
    [{ mipLODBias: 0x7f800000 }, NaN, N, `${at}.mipLODBias`], // +Infinity: no fraction
    [{ mipLODBias: 0xff800000 }, NaN, N, `${at}.mipLODBias`], // -Infinity
    [{ mipLODBias: 0 }, NaN, N, `${at}.mipLODBias`],
    [{ mipLODBias: -1 }, NaN, N, `${at}.mipLODBias`], // not a u32 (it would wrap to 0xffffffff)
    [{ mipLODBias: 2 ** 32 + 0x7fa00001 }, NaN, N, `${at}.mipLODBias`],
    [{ mipLODBias: 0x7fa00001 + 0.5 }, NaN, N, `${at}.mipLODBias`],
    [{ mipLODBias: '0x7fa00001' }, NaN, N, `${at}.mipLODBias`], // the JSON spelling belongs to the JSON form
    [{ mipLODBias: 0x7fa00001n }, NaN, N, `${at}.mipLODBias`],
    [{ mipLODBias: Symbol('x') }, NaN, N, `${at}.mipLODBias`],
    [{ shaderRegister: 0x7fa00001 }, NaN, N, `${at}.shaderRegister`], // not an f32 field
    [{ constructor: 0x7fa00001 }, NaN, N, `${at}.constructor`],
    [JSON.parse('{"__proto__": 2141192193}'), NaN, N, `${at}.__proto__`], // an own key, as JSON.parse makes it
    [{ minLOD: 0x7fa00001 }, NaN, N, `${at}.minLOD`], // minLOD is 0, not a NaN
    [{ mipLODBias: 0x7fa00001 }, 0, N, `${at}.mipLODBias`],
    [{ mipLODBias: 0x7fa00001 }, -0, N, `${at}.mipLODBias`],
    [5, NaN, 'bad-type', at],
    [null, NaN, 'bad-type', at],
    [[0x7fa00001], NaN, 'bad-type', at],
  ];
  for (const [k, [nanBits, value, code, path]] of refusals.entries()) {
    for (const [name, call] of [['rootSignatureToJson', rootSignatureToJson], ['encodeRootSignature', encodeRootSignature]] as const) {
      assert.throws(() => call(rs(nanBits, value)), (e: unknown) => e instanceof DescriptionError && e.code === code && e.path === path, `${name} refusal ${k}: ${code} ${path}`);
    }
  }
});

test('names: unknown values print as numbers, prefixed names are accepted, defaults fill omitted keys', () => {
  const rs = rootSignatureFromJson({
    version: '1.1',
    flags: ['D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', 0x1000],
    parameters: [{ parameterType: 'DESCRIPTOR_TABLE', shaderVisibility: 9, ranges: [{ rangeType: 'D3D12_DESCRIPTOR_RANGE_TYPE_SRV', baseShaderRegister: 3 }] }],
  });
  assert.equal(rs, {
    version: 2,
    flags: 0x1001,
    parameters: [{ parameterType: 0, shaderVisibility: 9, ranges: [{ rangeType: 0, numDescriptors: 1, baseShaderRegister: 3, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff }] }],
    staticSamplers: [],
  });
  assert.equal(rootSignatureToJson(rs), {
    version: '1.1',
    flags: ['ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', 0x1000],
    parameters: [{ parameterType: 'DESCRIPTOR_TABLE', shaderVisibility: 9, ranges: [{ rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: 3, registerSpace: 0, flags: [], offsetInDescriptorsFromTableStart: 'APPEND' }] }],
    staticSamplers: [],
  });
});

test('every corpus root signature JSON validates against the schema', () => {
  let n = 0;
  for (const f of corpusFiles('rootsig').filter((x) => !x.name.includes('invalid_header'))) {
    const part = looksLikeContainer(f.bytes) ? parseContainer(f.bytes).parts[0]!.data : f.bytes;
    assert.ok(validate(rootSignatureToJson(decodeRootSignature(part))), `${f.name}: ${JSON.stringify(validate.errors)}`);
    n++;
  }
  assert.ok(n > 100);
});

test.run();
