/**
 * Differential tests against vkd3d (libvkd3d-shader, through shared/oracle): random descriptions
 * serialized by vkd3d come back byte-identical through dxbin, dxbin encodes them to vkd3d's bytes,
 * and vkd3d decodes what dxbin writes to the same description.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  compileRootSignature,
  printRootSignature,
  convertRootSignature,
  decodeRootSignature,
  encodeRootSignature,
  parseContainer,
  rootSignatureContainer,
  rootSignatureFromJson,
  rootSignatureToJson,
  writeContainer,
} from '../src/index.js';
import { corpusFiles, hex, isLlvmTestBlob } from './helpers/corpus.js';
import { rootSignatureArbitrary } from './helpers/arbitraries.js';
import { fromOracleJson, toOracleJson } from './helpers/oracle-json.js';
import { generate, oracle } from './helpers/oracle.js';

const COUNT = Number(process.env.DXBIN_ORACLE_COUNT ?? 1000);

for (const [version, seed] of [['1.0', 20261129], ['1.1', 20261130]] as const) {
  test(`${COUNT} random version ${version} root signatures serialized by vkd3d: dxbin reads and writes the same bytes, converts them as vkd3d does, and decompiles them to HLSL that compiles back`, () => {
    const items = generate(seed, COUNT, version, ['--convert']);
    assert.is(items.length, COUNT);
    for (const item of items) {
      const expected = fromOracleJson(item.json);
      assert.is(expected.version, version === '1.0' ? 1 : 2);
      const container = parseContainer(item.dxbc);
      assert.is(hex(container.parts[0]!.data), hex(item.rts0), `${item.name}: RTS0 part`);
      const decoded = decodeRootSignature(item.rts0);
      assert.equal(decoded, expected, `${item.name}: decode`);
      assert.is(hex(writeContainer(container, container.digest)), hex(item.dxbc), `${item.name}: container rewrite`);
      assert.is(hex(rootSignatureContainer(encodeRootSignature(expected))), hex(item.dxbc), `${item.name}: dxbin encoding of vkd3d's description`);
      const viaJson = rootSignatureFromJson(JSON.parse(JSON.stringify(rootSignatureToJson(decoded))));
      assert.is(hex(encodeRootSignature(viaJson)), hex(item.rts0), `${item.name}: through the JSON form`);
      // vkd3d_shader_convert_root_signature against convertRootSignature(..., { semantics: 'vkd3d' }), both directions
      const vkd3dConverted = fromOracleJson((version === '1.0' ? item.to11 : item.to10)!);
      const ours = convertRootSignature(decoded, version === '1.0' ? 2 : 1, { semantics: 'vkd3d' }).rootSignature;
      assert.is(hex(encodeRootSignature(ours)), hex(encodeRootSignature(vkd3dConverted)), `${item.name}: conversion`);
      // and through the HLSL language: compile(decompile(blob)) == blob
      const text = printRootSignature(decoded);
      assert.is(hex(encodeRootSignature(compileRootSignature(text, { version: decoded.version, validate: false }))), hex(item.rts0), `${item.name}: ${text}`);
    }
  });
}

test('vkd3d decodes random dxbin encodings (any u32 values) to the same description', () => {
  fc.assert(
    fc.property(rootSignatureArbitrary([1, 2]), (rs) => {
      const blob = rootSignatureContainer(encodeRootSignature(rs));
      const { status, stdout } = oracle(['parse', '-'], blob);
      assert.is(status, 0, 'vkd3d accepts the blob');
      assert.equal(JSON.parse(JSON.stringify(toOracleJson(rs))), normalizeNaN(JSON.parse(stdout)));
    }),
    { numRuns: 150, seed: 11 },
  );
});

test('vkd3d and dxbin decode every Microsoft-made corpus root signature alike', () => {
  let n = 0;
  for (const f of corpusFiles('rootsig')) {
    if (isLlvmTestBlob(f.name) || f.name.includes('rs_blob_dxbc')) continue; // vkd3d 1.2 cannot read the 1.2 blob
    const { status, stdout } = oracle(['parse', '-'], f.bytes);
    assert.is(status, 0, f.name);
    const part = f.name.endsWith('.rts0') ? f.bytes : parseContainer(f.bytes).parts[0]!.data;
    assert.equal(decodeRootSignature(part), fromOracleJson(JSON.parse(stdout)), f.name);
    n++;
  }
  assert.is(n, 102, 'the 43 Microsoft containers and 60 raw parts, less the 1.2 blob');
});

/** The oracle prints a NaN as its bit pattern; compare NaNs as NaN. */
function normalizeNaN(o: Record<string, unknown>): Record<string, unknown> {
  const isNaNBits = (v: string) => /^0x[0-9a-f]{8}$/i.test(v) && Number.isNaN(new Float32Array(Uint32Array.of(Number.parseInt(v, 16)).buffer)[0]);
  return JSON.parse(JSON.stringify(o), (_k, v) => (typeof v === 'string' && isNaNBits(v) ? 'NaN' : v));
}

test.run();
