/** Version conversion: the rules of codecs/conversion.ts, reports, round trips and the CLI's --strict. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  ConversionError,
  convertRootSignature,
  decodeRootSignature,
  encodeRootSignature,
  looksLikeContainer,
  parseContainer,
  type RootSignature,
} from '../src/index.js';
import { corpusFiles, hex } from './helpers/corpus.js';
import { rootSignatureArbitrary } from './helpers/arbitraries.js';

const APPEND = 0xffffffff;
const v10: RootSignature = {
  version: 1,
  flags: 0,
  parameters: [
    { parameterType: 0, shaderVisibility: 0, ranges: [
      { rangeType: 0, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: APPEND },
      { rangeType: 3, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: APPEND },
    ] },
    { parameterType: 4, shaderVisibility: 0, descriptor: { shaderRegister: 0, registerSpace: 0, flags: 0 } },
  ],
  staticSamplers: [],
};
const rangeFlags = (rs: RootSignature) => (rs.parameters[0] as { ranges: { flags: number }[] }).ranges.map((r) => r.flags);
const descriptorFlags = (rs: RootSignature) => (rs.parameters[1] as { descriptor: { flags: number } }).descriptor.flags;

test('1.0 -> 1.1, runtime: CBV/SRV/UAV ranges 0x3, sampler ranges 0x1 (decision 1 in codecs/conversion.ts), root descriptors 0x2', () => {
  const { rootSignature, report } = convertRootSignature(v10, 2);
  assert.equal(rangeFlags(rootSignature), [3, 1]);
  assert.is(descriptorFlags(rootSignature), 2);
  assert.equal(report.added.map((a) => [a.path, a.to]), [
    ['RTS0.parameters[0].ranges[0].flags', 3],
    ['RTS0.parameters[0].ranges[1].flags', 1],
    ['RTS0.parameters[1].descriptor.flags', 2],
  ]);
  assert.ok(report.lossless);
});

test('1.0 -> 1.1, vkd3d: sampler ranges get 0x3', () => {
  assert.equal(rangeFlags(convertRootSignature(v10, 2, { semantics: 'vkd3d' }).rootSignature), [3, 3]);
});

test('1.1 -> 1.0 drops flags; only flags that differ from 1.0\'s meaning are reported', () => {
  const v11 = convertRootSignature(v10, 2).rootSignature;
  (v11.parameters[0] as { ranges: { flags: number }[] }).ranges[0]!.flags = 8;
  const { rootSignature, report } = convertRootSignature(v11, 1);
  assert.equal(rangeFlags(rootSignature), [0, 0]);
  assert.equal(report.dropped.map((d) => [d.path, d.from]), [['RTS0.parameters[0].ranges[0].flags', 8]]);
  assert.is(report.dropped[0]!.detail, 'DATA_STATIC cannot be stored in version 1.0, which means DESCRIPTORS_VOLATILE | DATA_VOLATILE');
  assert.not.ok(report.lossless);
});

test('every 1.0 description converted to 1.1 and 1.2 and back gives the original bytes, in every semantics', () => {
  fc.assert(
    fc.property(rootSignatureArbitrary([1]), fc.constantFrom('runtime' as const, 'vkd3d' as const, 'd3dx12' as const), fc.constantFrom(2 as const, 3 as const), (rs, semantics, to) => {
      const up = convertRootSignature(rs, to, { semantics });
      assert.ok(up.report.lossless);
      const back = convertRootSignature(up.rootSignature, 1, { semantics });
      assert.ok(back.report.lossless);
      assert.is(hex(encodeRootSignature(back.rootSignature)), hex(encodeRootSignature(rs)));
    }),
    { numRuns: 500, seed: 5 },
  );
});

test('corpus: the report is lossless exactly when converting back gives the same bytes', () => {
  let lossy = 0;
  let lossless = 0;
  for (const f of [...corpusFiles('rootsig'), ...corpusFiles('shaders/dxtk12')]) {
    if (f.name.includes('invalid_header')) continue;
    const part = looksLikeContainer(f.bytes) ? parseContainer(f.bytes).parts.find((p) => p.name === 'RTS0')?.data : f.bytes;
    if (!part) continue;
    const rs = decodeRootSignature(part);
    for (const to of [1, 2, 3] as const) {
      if (to === rs.version) continue;
      const { rootSignature, report } = convertRootSignature(rs, to);
      const back = convertRootSignature(rootSignature, rs.version).rootSignature;
      const same = hex(encodeRootSignature(back)) === hex(encodeRootSignature(rs)); // LLVM test blobs are not in canonical layout
      assert.is(report.lossless, same, `${f.name} -> ${to}`);
      if (same) lossless++;
      else lossy++;
    }
  }
  assert.ok(lossy > 100 && lossless > 100, `${lossy} lossy, ${lossless} lossless conversions`);
});

test('1.2 -> 1.1: sampler flags are not expressible (runtime drops them; d3dx12 refuses NON_NORMALIZED_COORDINATES)', () => {
  const blob = corpusFiles('rootsig').find((f) => f.name.includes('rs_blob_dxbc.dxbc'))!;
  const rs = decodeRootSignature(parseContainer(blob.bytes).parts[0]!.data);
  const { rootSignature, report } = convertRootSignature(rs, 2);
  assert.equal(rootSignature.staticSamplers.map((s) => [s.flags, s.borderColor]), [[0, 0], [0, 3]]);
  assert.equal(report.notExpressible.map((n) => [n.path, n.from]), [['RTS0.staticSamplers[1].flags', 1]]);
  assert.is(convertRootSignature(rs, 2, { semantics: 'd3dx12' }).rootSignature.staticSamplers[1]!.flags, 0, 'd3dx12 drops UINT_BORDER_COLOR');
  const nonNormalized = structuredClone(rs);
  nonNormalized.staticSamplers[0]!.flags = 2;
  assert.throws(() => convertRootSignature(nonNormalized, 1, { semantics: 'd3dx12' }), (e: unknown) =>
    e instanceof ConversionError && e.message === 'RTS0.staticSamplers[0].flags: NON_NORMALIZED_COORDINATES cannot be converted to version 1.0 (D3DX12SerializeVersionedRootSignature (d3dx12_root_signature.h) fails with E_INVALIDARG)');
  assert.is(convertRootSignature(nonNormalized, 1).rootSignature.staticSamplers[0]!.flags, 0, 'the runtime drops it');
});

test('1.1 -> 1.2 sets sampler flags 0 (decision 2) and keeps everything else', () => {
  fc.assert(
    fc.property(rootSignatureArbitrary([2]), (rs) => {
      const { rootSignature, report } = convertRootSignature(rs, 3);
      assert.ok(report.lossless);
      assert.equal(report.added, []);
      assert.is(hex(encodeRootSignature({ ...rootSignature, version: 2 })), hex(encodeRootSignature(rs)));
    }),
    { numRuns: 200, seed: 8 },
  );
});

test.run();
