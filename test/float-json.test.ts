/**
 * Floats in the JSON forms (src/json/vocabulary.ts floatFromJson): a number is rounded to the
 * nearest binary32 as the field stores it, but a finite number past the binary32 range is refused
 * (out-of-range, naming the JSON path and field) rather than stored as an infinity no one wrote,
 * as the DDI JSON form refuses it. Infinities and NaNs keep their own spellings. Every reader of
 * the vocabulary: the root signature JSON form, the rows' JSON form (recordFromJson; PSV0's records
 * have no f32 field, and the pipeline JSON reads FLOATs through the DDI form's floatBits).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { record } from '../codecs/rows.js';
import { DescriptionError } from '../src/bytes/errors.js';
import { f32Bits } from '../src/bytes/f32.js';
import { floatBits } from '../src/ddi/image.js';
import { floatFromJson } from '../src/json/vocabulary.js';
import { recordFromJson } from '../src/rows/record.js';
import { encodeRootSignature, rootSignatureFromJson, rootSignatureToJson } from '../src/index.js';

const FLT_MAX = 3.4028234663852886e38;
/** The first double that rounds to an infinity (FLT_MAX and half its step, 2^128 - 2^103: a tie, to even). */
const OVERFLOW = 2 ** 128 - 2 ** 103;
const below = (x: number) => {
  const b = new Float64Array([x]);
  new BigUint64Array(b.buffer)[0]! -= 1n;
  return b[0]!;
};

const refused = (call: () => unknown, path: string) =>
  assert.throws(call, (e: unknown) => e instanceof DescriptionError && e.code === 'out-of-range' && e.path === path && /beyond the binary32 range/.test(e.message), path);

test('a finite number past binary32 is out-of-range at its path; one that rounds to FLT_MAX or any other f32 is rounded, as the field stores it', () => {
  for (const x of [1e40, -1e40, Number.MAX_VALUE, -Number.MAX_VALUE, OVERFLOW, -OVERFLOW, 3.4028236e38]) refused(() => floatFromJson(x, '$.x'), '$.x');
  assert.is(floatFromJson(below(OVERFLOW), '$.x').value, FLT_MAX, 'the last double below the tie rounds down to FLT_MAX');
  assert.is(floatFromJson(-below(OVERFLOW), '$.x').value, -FLT_MAX);
  assert.is(floatFromJson(3.4028235e38, '$.x').value, FLT_MAX, "C's FLT_MAX as 3.4028235e38");
  assert.is(floatFromJson(3.402823466e38, '$.x').value, FLT_MAX, "D3D12_FLOAT32_MAX's spelling");
  assert.is(floatFromJson(1.1, '$.x').value, Math.fround(1.1), '1.1 is 1.100000023841858 in a field');
  assert.is(floatFromJson(1.1, '$.x').value, 1.100000023841858);
  assert.is(floatFromJson(1e-50, '$.x').value, 0, 'underflow rounds to zero, as a float does');
  assert.ok(Object.is(floatFromJson(-1e-50, '$.x').value, -0));
  assert.is(f32Bits(floatFromJson(1e-45, '$.x').value), 1, 'the smallest subnormal');
});

test('infinities and NaNs keep their spellings: the words, the bits, and a JS caller\'s own infinity', () => {
  assert.is(floatFromJson('Infinity', '$.x').value, Infinity);
  assert.is(floatFromJson('-Infinity', '$.x').value, -Infinity);
  assert.is(floatFromJson('0x7f800000', '$.x').value, Infinity);
  assert.is(floatFromJson('0xff800000', '$.x').value, -Infinity);
  assert.is(floatFromJson('0x7f7fffff', '$.x').value, FLT_MAX);
  assert.ok(Number.isNaN(floatFromJson('NaN', '$.x').value));
  assert.equal(floatFromJson('0x7fa00001', '$.x').nanBits, 0x7fa00001);
  // a description built in JS may hold Infinity itself (JSON text cannot): it is the infinity, not a rounding
  assert.is(floatFromJson(Infinity, '$.x').value, Infinity);
  assert.is(floatFromJson(-Infinity, '$.x').value, -Infinity);
});

test('the same rule as the DDI JSON form: both refuse 1e40 as out-of-range, both round 1.1', () => {
  for (const x of [1e40, -1e40, OVERFLOW]) {
    assert.throws(() => floatBits(x, 'DDI.x'), (e: unknown) => e instanceof DescriptionError && e.code === 'out-of-range');
    refused(() => floatFromJson(x, '$.x'), '$.x');
  }
  assert.is(floatBits(1.1, 'DDI.x'), f32Bits(floatFromJson(1.1, '$.x').value));
  assert.is(floatBits(below(OVERFLOW), 'DDI.x'), f32Bits(floatFromJson(below(OVERFLOW), '$.x').value));
});

const SAMPLER = { filter: 'ANISOTROPIC', addressU: 'WRAP', addressV: 'WRAP', addressW: 'WRAP', maxAnisotropy: 16, comparisonFunc: 'LESS_EQUAL', borderColor: 'OPAQUE_WHITE', shaderRegister: 0, registerSpace: 0, shaderVisibility: 'ALL', mipLODBias: 0, minLOD: 0, maxLOD: 'Infinity' };

test("a root signature static sampler's mipLODBias of 1e40 (and minLOD, maxLOD past binary32) is refused naming the sampler's field; FLT_MAX spelled as C spells it is FLT_MAX", () => {
  for (const version of ['1.0', '1.1', '1.2']) {
    for (const key of ['mipLODBias', 'minLOD', 'maxLOD']) {
      for (const x of [1e40, -1e40]) refused(() => rootSignatureFromJson({ version, staticSamplers: [SAMPLER, { ...SAMPLER, shaderRegister: 1, [key]: x }] }), `$.staticSamplers[1].${key}`);
    }
  }
  const rs = rootSignatureFromJson({ version: '1.2', staticSamplers: [{ ...SAMPLER, mipLODBias: 1.1, minLOD: -3.4028235e38, maxLOD: 3.4028235e38 }] });
  assert.is(rs.staticSamplers[0]!.mipLODBias, Math.fround(1.1));
  assert.is(rs.staticSamplers[0]!.maxLOD, FLT_MAX);
  assert.is(rs.staticSamplers[0]!.minLOD, -FLT_MAX);
  // and back: FLT_MAX prints as itself and reads back as the same bits
  const json = rootSignatureToJson(rs);
  const back = rootSignatureFromJson(JSON.parse(JSON.stringify(json)));
  assert.equal(encodeRootSignature(back), encodeRootSignature(rs));
  // an infinity stays what its word says
  assert.is(rootSignatureFromJson({ version: '1.2', staticSamplers: [{ ...SAMPLER, maxLOD: 'Infinity' }] }).staticSamplers[0]!.maxLOD, Infinity);
});

test('the rows JSON form (recordFromJson) refuses a finite f32 past binary32 naming the field; rounds the rest', () => {
  const def = record('F', 8, [{ key: 'a', type: 'f32', at: 0 }, { key: 'n', type: 'u32', at: 4 }]);
  refused(() => recordFromJson(def, { a: 1e40, n: 0 }, 'F'), 'F.a');
  refused(() => recordFromJson(def, { a: -Number.MAX_VALUE, n: 0 }, 'RDAT.T[3]'), 'RDAT.T[3].a');
  assert.is(recordFromJson(def, { a: 1.1, n: 0 }, 'F').a, Math.fround(1.1));
  assert.is(recordFromJson(def, { a: 'Infinity', n: 0 }, 'F').a, Infinity);
});

test.run();
