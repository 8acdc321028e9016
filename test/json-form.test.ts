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
