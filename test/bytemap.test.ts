/** The byte map: leaves tile every corpus input exactly once, groups nest, paths and values are the decoder's. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STRUCTS, ABIS } from '../codecs/ddi.js';
import { DecodeError, LimitError, encodeRootSignature, parseContainer, readRootSignatureSource, writeContainer } from '../src/index.js';
import { fanOutRdat, linkedListImage, overlappingNamesImage } from './helpers/hostile.js';
import { byteMap, checkByteMap, hexDump, spansAt, leafSpans } from '../src/inspect/index.js';
import { encodeImage } from '../src/ddi/index.js';
import { encodeQueryResults } from '../src/query/index.js';
import { CORPUS, corpusFile, corpusFiles } from './helpers/corpus.js';
import { randomDdi } from './helpers/ddi-random.js';

const rootSignatures = corpusFiles('rootsig');
const shaders = corpusFiles('shaders');
const holdsRts0 = (bytes: Uint8Array) => {
  try {
    readRootSignatureSource(bytes);
    return true;
  } catch {
    return false;
  }
};

test('every corpus root signature: leaves cover each byte exactly once, groups nest', () => {
  const withRts0 = [...rootSignatures, ...shaders].filter((f) => holdsRts0(f.bytes));
  // the corpus's deliberately broken blobs (LLVM's *_invalid_* tests) get the decoder's error instead
  for (const f of rootSignatures.filter((x) => !holdsRts0(x.bytes))) {
    assert.ok(f.name.includes('invalid'), f.name);
    assert.throws(() => byteMap(f.bytes), (e: unknown) => e instanceof DecodeError, f.name);
  }
  assert.ok(rootSignatures.length > 100, `${rootSignatures.length} root signatures`);
  let versions = new Set<number>();
  for (const f of withRts0) {
    const map = byteMap(f.bytes, f.name.endsWith('.rts0') ? { format: 'rts0' } : { mode: 'lenient' });
    assert.equal(checkByteMap(map), [], f.name);
    const version = map.spans.find((s) => s.path.endsWith('RTS0.version'));
    assert.ok(version, `${f.name}: RTS0.version`);
    versions.add(version!.value as number);
    // every field of the decoded description has a span
    const { rootSignature } = readRootSignatureSource(f.bytes);
    const paths = new Set(map.spans.map((s) => s.path.replace(/^.*?RTS0/, 'RTS0')));
    rootSignature.parameters.forEach((p, i) => {
      assert.ok(paths.has(`RTS0.parameters[${i}].shaderVisibility`), `${f.name} parameter ${i}`);
      if ('ranges' in p) p.ranges.forEach((_, j) => assert.ok(paths.has(`RTS0.parameters[${i}].ranges[${j}].rangeType`), `${f.name} ${i}/${j}`));
    });
    rootSignature.staticSamplers.forEach((_, k) => assert.ok(paths.has(`RTS0.staticSamplers[${k}].filter`), `${f.name} sampler ${k}`));
  }
  assert.equal([...versions].sort(), [1, 2, 3].filter((v) => versions.has(v)));
  assert.ok(versions.has(1) && versions.has(2), 'versions 1.0 and 1.1 in the corpus');
});

test('every version: a synthesized 1.0, 1.1 and 1.2 signature with every parameter kind maps whole', () => {
  for (const version of [1, 2, 3] as const) {
    const bytes = encodeRootSignature({
      version,
      flags: 0x81,
      parameters: [
        { parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: 2, baseShaderRegister: 1, registerSpace: 0, flags: version > 1 ? 8 : 0, offsetInDescriptorsFromTableStart: 0xffffffff }] },
        { parameterType: 1, shaderVisibility: 5, constants: { shaderRegister: 0, registerSpace: 1, num32BitValues: 4 } },
        { parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 3, registerSpace: 0, flags: 0 } },
      ],
      staticSamplers: [
        { filter: 0x55, addressU: 1, addressV: 1, addressW: 3, mipLODBias: 0.5, maxAnisotropy: 16, comparisonFunc: 4, borderColor: 2, minLOD: 0, maxLOD: 3.4028234663852886e38, shaderRegister: 0, registerSpace: 0, shaderVisibility: 5, flags: version === 3 ? 1 : 0 },
      ],
    });
    const map = byteMap(bytes, { format: 'rts0' });
    assert.equal(checkByteMap(map), [], `version ${version}`);
    const at = (path: string) => map.spans.find((s) => s.path === path);
    assert.equal(at('RTS0.parameters[0].parameterType')?.name, 'DESCRIPTOR_TABLE');
    assert.equal(at('RTS0.parameters[1].shaderVisibility')?.name, 'PIXEL');
    assert.equal(at('RTS0.flags')?.name, 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT|LOCAL_ROOT_SIGNATURE');
    assert.equal(at('RTS0.staticSamplers[0].filter')?.name, 'ANISOTROPIC');
    assert.equal(at('RTS0.staticSamplers[0].mipLODBias')?.name, '0.5');
    assert.equal(at('RTS0.parameters[0].ranges[0].flags')?.name, version > 1 ? 'DATA_STATIC' : undefined);
    assert.equal(at('RTS0.staticSamplers[0].flags')?.name, version === 3 ? 'UINT_BORDER_COLOR' : undefined);
    // the spans' bytes are the fields' bytes
    const s = at('RTS0.parameters[1].constants.num32BitValues')!;
    // (encoder results may share a pooled buffer: read through byteOffset)
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(s.offset, true), 4);
  }
});

test('bytes no block points at are gaps; shared range arrays are mapped once', () => {
  const canonical = encodeRootSignature({ version: 2, flags: 0, parameters: [{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 0, registerSpace: 0, num32BitValues: 1 } }], staticSamplers: [] });
  const padded = new Uint8Array(canonical.byteLength + 12);
  padded.set(canonical);
  padded.fill(0xab, canonical.byteLength);
  const map = byteMap(padded, { format: 'rts0' });
  assert.equal(checkByteMap(map), []);
  const gap = map.spans.find((s) => s.kind === 'gap');
  assert.equal([gap?.offset, gap?.size], [canonical.byteLength, 12]);
  // two tables sharing one range array
  const shared = encodeRootSignature({
    version: 1,
    flags: 0,
    parameters: [0, 1].map(() => ({ parameterType: 0 as const, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0 }] })),
    staticSamplers: [],
  });
  const view = new DataView(shared.buffer, shared.byteOffset, shared.byteLength);
  const table0 = view.getUint32(24 + 8, true);
  const table1 = view.getUint32(24 + 12 + 8, true);
  view.setUint32(table1 + 4, view.getUint32(table0 + 4, true), true); // table 1 points at table 0's ranges
  const sharedMap = byteMap(shared, { format: 'rts0' });
  assert.equal(checkByteMap(sharedMap), [], 'shared array once, its old bytes a gap');
  assert.ok(sharedMap.spans.some((s) => s.kind === 'gap'));
});

test('containers: header, offsets, part headers, opaque parts and trailing bytes; spansAt finds a byte', () => {
  for (const f of shaders) {
    const map = byteMap(f.bytes, { mode: 'lenient' });
    assert.equal(checkByteMap(map), [], f.name);
    const c = parseContainer(f.bytes, { mode: 'lenient' });
    assert.equal(map.spans.filter((s) => s.kind === 'part' && s.path.startsWith('container.')).length, c.parts.length, f.name);
  }
  const name = rootSignatures.find((f) => f.name.endsWith('.dxbc'))!;
  const map = byteMap(name.bytes);
  const hit = spansAt(map, 5);
  assert.equal(hit.leaf?.path, 'container.header.digest');
  assert.equal(hit.groups.map((g) => g.path), ['container.header']);
  const rts = spansAt(map, parseContainer(name.bytes).layout.partOffsets[0]! + 8);
  assert.ok(rts.leaf?.path.endsWith('RTS0.version'), rts.leaf?.path);
  assert.equal(rts.groups[0]?.kind, 'part');
});

test('RDAT of the corpus DXIL libraries: part table, records, strings', () => {
  const libraries = shaders.filter((f) => parseContainer(f.bytes, { mode: 'lenient' }).parts.some((p) => p.name === 'RDAT'));
  assert.ok(libraries.length > 0);
  for (const f of libraries) {
    const map = byteMap(f.bytes, { mode: 'lenient' });
    assert.equal(checkByteMap(map), [], f.name);
    assert.ok(map.spans.some((s) => s.path === 'RDAT.version' && s.value === 0x10), f.name);
    assert.ok(map.spans.some((s) => /^RDAT\.StringBuffer\[\d+\]$/.test(s.path) && typeof s.value === 'string'), f.name);
  }
});

test('PSV0 of every corpus DXIL shader: runtime info, resources, strings, elements, dependencies', () => {
  let parts = 0;
  const seen = new Set<string>();
  for (const f of shaders) {
    const c = parseContainer(f.bytes, { mode: 'lenient' });
    if (!c.parts.some((p) => p.name === 'PSV0')) continue;
    parts++;
    const map = byteMap(f.bytes, { mode: 'lenient' });
    assert.equal(checkByteMap(map), [], f.name);
    assert.not.ok(map.spans.some((s) => s.kind === 'data' && s.path === 'PSV0.data'), f.name);
    for (const s of map.spans) if (s.path.startsWith('PSV0.')) seen.add(s.path.replace(/\[\d+\]/g, '[]').split('.').slice(0, 2).join('.'));
  }
  assert.ok(parts > 100, `${parts} PSV0 parts`);
  for (const p of ['PSV0.runtimeInfoSize', 'PSV0.runtimeInfo', 'PSV0.resources[]', 'PSV0.stringTable[]', 'PSV0.inputElements[]', 'PSV0.outputElements[]']) assert.ok(seen.has(p), p);
});

test('query buffers: records, fields, padding, gaps, windows', () => {
  const bytes = encodeQueryResults('video-decode-statistics', [
    { Status: 1n, NumMacroblocksAffected: 2n, 'FrameRate.Numerator': 3n, 'FrameRate.Denominator': 4n, BitRate: 5n },
    { Status: 0n, NumMacroblocksAffected: 0xffffffffffffffffn, 'FrameRate.Numerator': 0n, 'FrameRate.Denominator': 1n, BitRate: 0n },
  ]);
  const withTail = new Uint8Array(bytes.byteLength + 8);
  withTail.set(bytes);
  const map = byteMap(withTail, { format: 'query', type: 'video-decode-statistics' });
  assert.equal(checkByteMap(map), []);
  assert.equal(map.spans.filter((s) => s.kind === 'padding').length, 2);
  assert.equal(map.spans.find((s) => s.path === 'video-decode-statistics[0].Status')?.name, 'CONTINUE');
  assert.equal(map.spans.find((s) => s.path === 'video-decode-statistics[1].NumMacroblocksAffected')?.value, 0xffffffffffffffffn);
  assert.equal(map.spans.at(-1)?.kind, 'gap');
  const stamps = encodeQueryResults('timestamp', { Value: Array.from({ length: 1000 }, (_, i) => BigInt(i)) });
  const window = byteMap(stamps, { format: 'query', type: 'timestamp', window: { from: 4000, to: 4016 } });
  assert.equal(window.spans.filter((s) => s.kind === 'field').map((s) => s.path), ['timestamp[500].Value', 'timestamp[501].Value']);
  assert.throws(() => byteMap(stamps, { format: 'query', type: 'timestamp', offset: 4 }), (e: unknown) => e instanceof DecodeError && e.code === 'bad-offset');
});

test('DDI images of every struct and ABI: fields, padding, pointees', () => {
  let padding = 0;
  for (const s of STRUCTS) {
    for (const abi of ABIS) {
      for (let seed = 1; seed <= 6; seed++) {
        const image = encodeImage(s.name, randomDdi(s.name, seed * 7919 + s.name.length), abi);
        const map = byteMap(image, { format: 'ddi', type: s.name, abi });
        assert.equal(checkByteMap(map), [], `${s.cli} ${abi} ${seed}`);
        padding += map.spans.filter((x) => x.kind === 'padding').length;
      }
    }
  }
  assert.ok(padding > 0, 'some layouts have padding');
});

test('hostile inputs (test/helpers/hostile.ts): long chains, overlapping strings, fan-out tables map in linear time, whole', () => {
  const list = byteMap(linkedListImage(20000), { format: 'ddi', type: 'node-list-entry', abi: 'x64' });
  assert.equal(checkByteMap(list), []);
  assert.is(list.spans.filter((s) => s.kind === 'field' && s.path.endsWith('.pNext')).length, 20000);
  assert.ok(Math.max(...list.spans.map((s) => s.path.length)) < 250, 'paths stay short');
  const names = byteMap(overlappingNamesImage(8, 20), { format: 'ddi', type: 'broadcasting-launch-node-properties', abi: 'x64' });
  assert.equal(checkByteMap(names), [], 'each string byte mapped once');
  // eight names point 2 bytes apart into one string: its bytes are mapped once, by the first
  assert.equal(names.spans.filter((s) => typeof s.value === 'string' && /pOutputs\[\d\]\.FinalName\.Name$/.test(s.path)).map((s) => (s.value as string).length), [20]);
  assert.throws(() => byteMap(overlappingNamesImage(2000, 4000), { format: 'ddi', type: 'broadcasting-launch-node-properties', abi: 'x64' }), (e: unknown) => e instanceof LimitError && e.kind === 'resolve');
  const rdat = fanOutRdat(2000, 2000);
  const c = writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDAT', data: rdat }] });
  assert.equal(checkByteMap(byteMap(c)), []);
});

test('checkByteMap finds holes, overlaps and groups that cross', () => {
  const map = (spans: [string, number, number][]) => ({ format: 'x', length: 8, spans: spans.map(([kind, offset, size]) => ({ kind: kind as 'field', offset, size, path: `${kind}@${offset}` })) });
  assert.equal(checkByteMap(map([['record', 0, 8], ['field', 0, 4], ['field', 4, 4]])), []);
  assert.match(checkByteMap(map([['field', 0, 4], ['field', 6, 2]])).join(), 'bytes 4..5 are in no leaf');
  assert.match(checkByteMap(map([['field', 0, 5], ['field', 4, 4]])).join(), 'overlaps the leaf before it');
  assert.match(checkByteMap(map([['record', 0, 6], ['field', 0, 4], ['field', 4, 4]])).join(), 'field@4 (4+4) crosses the end of record@0');
  assert.match(checkByteMap(map([['field', 0, 4], ['record', 2, 6], ['field', 4, 4]])).join(), 'record@2 (2+6) starts inside field@0');
  assert.match(checkByteMap(map([['record', 0, 4], ['array', 2, 4], ['field', 0, 8]])).join(), 'crosses the end of record@0');
});

test('bad bytes: the decoder\'s typed error, not a partial map', () => {
  const f = rootSignatures.find((x) => x.name.endsWith('.rts0'))!;
  assert.throws(() => byteMap(f.bytes.subarray(0, 10), { format: 'rts0' }), (e: unknown) => e instanceof DecodeError && e.code === 'truncated');
  assert.throws(() => byteMap(new Uint8Array(40).fill(0x44)), (e: unknown) => e instanceof DecodeError);
});

test('leafSpans of a corpus file sum to its length', () => {
  const dir = join(CORPUS, 'rootsig');
  const one = readdirSync(dir).find((n) => n.endsWith('.dxbc'))!;
  const bytes = corpusFile(`rootsig/${one}`);
  assert.equal(leafSpans(byteMap(bytes)).reduce((n, s) => n + s.size, 0), bytes.byteLength);
});

test('a window past the bytes is the same empty window whether its end is given or open (hexDump, query maps)', () => {
  const bytes = new Uint8Array(16);
  const map = byteMap(bytes, { format: 'query', type: 'timestamp' });
  // before: {from: 32} compared 32 with the cut length and was refused, {from: 32, to: 64} gave an empty dump
  assert.equal(hexDump(bytes, map, { from: 32 }), hexDump(bytes, map, { from: 32, to: 64 }));
  // either end of a query map window may be left out, in the type as in the code (an absent end is
  // open; the type asked for both ends before, so these calls did not type-check)
  const open = byteMap(bytes, { format: 'query', type: 'timestamp', window: { from: 32 } });
  const closed = byteMap(bytes, { format: 'query', type: 'timestamp', window: { from: 32, to: 64 } });
  assert.equal(open.spans, closed.spans);
  const stamps = new Uint8Array(32);
  assert.equal(byteMap(stamps, { format: 'query', type: 'timestamp', window: { to: 8 } }).spans, byteMap(stamps, { format: 'query', type: 'timestamp', window: { from: 0, to: 8 } }).spans);
  assert.equal(byteMap(stamps, { format: 'query', type: 'timestamp', window: {} }).spans, byteMap(stamps, { format: 'query', type: 'timestamp' }).spans);
  // an end before the start is still refused, the bytes' length notwithstanding
  assert.throws(() => hexDump(bytes, map, { from: 40, to: 32 }), (e: unknown) => e instanceof Error && /starts at 40, after its end 32/.test(e.message));
});

test.run();
