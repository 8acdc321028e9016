/** PSV0: bit-exact decode -> encode on every corpus DXIL shader, the JSON form, versions 0-4, bad bytes. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { DecodeError, DescriptionError, decodePsv0, encodePsv0, findPart, parseContainer, psv0FromJson, psv0ToJson, psvVersionOf, readShader, type Psv0 } from '../src/index.js';
import { corpusFile, corpusFiles, fromWordDump, hex } from './helpers/corpus.js';
import { versionDescription } from './helpers/psv0.js';

interface Found { name: string; part: Uint8Array; stage: number }
const found: Found[] = [];
for (const f of corpusFiles('shaders')) {
  const c = parseContainer(f.bytes, { mode: 'lenient' });
  const part = findPart(c, 'PSV0');
  const dxil = findPart(c, 'DXIL');
  if (part && dxil) found.push({ name: f.name, part: part.data, stage: new DataView(dxil.data.buffer, dxil.data.byteOffset).getUint32(0, true) >>> 16 });
}

test('every corpus DXIL shader with PSV0 (385) decodes and encodes to the same bytes', () => {
  assert.is(found.length, 385);
  const bad = found.filter((f) => hex(encodePsv0(decodePsv0(f.part, { stage: f.stage }), { stage: f.stage })) !== hex(f.part)).map((f) => f.name);
  assert.equal(bad, []);
});

test('corpus PSV0 versions and stages agree with the spec (v1 58, v2 183, v3 144; stage byte = program kind)', () => {
  const byVersion: Record<number, number> = {};
  for (const f of found) {
    const psv = decodePsv0(f.part, { stage: f.stage });
    byVersion[psvVersionOf(psv.runtimeInfoSize)] = (byVersion[psvVersionOf(psv.runtimeInfoSize)] ?? 0) + 1;
    assert.is(psv.info.shaderStage, f.stage, f.name);
    assert.ok(psv.stageInfo, `${f.name}: union as DXC writes it`);
    assert.is(psv.trailing.byteLength, 0, f.name);
    assert.is(psv.resourceSize || (psvVersionOf(psv.runtimeInfoSize) >= 2 ? 24 : 16), psvVersionOf(psv.runtimeInfoSize) >= 2 ? 24 : 16, f.name);
  }
  assert.equal(byVersion, { 1: 58, 2: 183, 3: 144 });
});

test('the JSON form round-trips every corpus PSV0 (through JSON text)', () => {
  for (const f of found) {
    const json = JSON.parse(JSON.stringify(psv0ToJson(decodePsv0(f.part, { stage: f.stage }))));
    assert.is(hex(encodePsv0(psv0FromJson(json))), hex(f.part), f.name);
  }
});

// Worked example E1 (docs/formats/psv0.md): BC7 encode compute shader, PSV v1.
const E1 = `
0000: 24000000 00000000 00000000 00000000
0010: 00000000 00000000 ffffffff 05000000
0020: 00000000 00000000 05000000 10000000
0030: 02000000 00000000 00000000 00000000
0040: 02000000 00000000 01000000 01000000
0050: 03000000 00000000 00000000 00000000
0060: 05000000 00000000 01000000 01000000
0070: 08000000 00000000 00000000 00000000
0080: 04000000 00000000 00000000`;

test('worked example E1 decodes to the spec values and is the corpus part', () => {
  const bytes = fromWordDump(E1);
  const psv = decodePsv0(bytes);
  assert.is(psv.runtimeInfoSize, 36);
  assert.is(psv.info.shaderStage, 5);
  assert.is(psv.info.maximumWaveLaneCount, 0xffffffff);
  assert.is(psv.resourceSize, 16);
  assert.equal(psv.resources.map((r) => [r.resType, r.space, r.lowerBound, r.upperBound]), [[2, 0, 0, 0], [2, 0, 1, 1], [3, 0, 0, 0], [5, 0, 1, 1], [8, 0, 0, 0]]);
  assert.equal(psv.semanticIndexes, []);
  assert.is(hex(psv.stringTable!), '00000000');
  const shader = readShader(corpusFile('shaders/brawler/PSODefinition_BC7_ENCODE_BLOCK__BC7_ENCODE_BLOCK__COMPUTE_SHADER_BYTECODE.dxil'));
  assert.is(hex(encodePsv0(shader.psv!)), hex(bytes));
});

test('worked example E2: pixel shader names, elements and the input->output table', () => {
  const s = readShader(corpusFile('shaders/brawler/PSODefinition__TEST_PSO__PIXEL_SHADER_BYTECODE.dxil'));
  const json = psv0ToJson(s.psv!) as Record<string, any>;
  assert.equal(json.inputElements.map((e: any) => e.name ?? e.semanticKindName), ['Position', 'NORMALWS', 'POSITIONWS', 'DEPTHVS', 'TANGENTWS', 'BITANGENTWS', 'UV']);
  // the rows' JSON form, as parts give it: the stored value, its name beside
  assert.equal(json.outputElements.map((e: any) => [e.semanticKind, e.semanticKindName]), [[16, 'Target'], [16, 'Target'], [16, 'Target'], [16, 'Target']]);
  assert.equal([json.info.shaderStage, json.info.shaderStageName], [0, 'Pixel']);
  // a description that spells an enum by name in place (the form of 0.1.0) still reads
  const named = { ...json, info: { ...json.info, shaderStage: 'Pixel' }, outputElements: json.outputElements.map((e: any) => ({ ...e, semanticKind: 'Target' })) };
  assert.is(hex(encodePsv0(psv0FromJson(JSON.parse(JSON.stringify(named))))), hex(encodePsv0(s.psv!)));
  assert.equal(psv0FromJson(json), s.psv, 'the names beside are read-only helpers');
  // hostile JSON: a stageRaw that is no object is bad-type (was a raw TypeError); keys named for
  // Object.prototype are no enumerated fields: unknown keys, refused like any key the form does not
  // have (they were ignored, as a misspelt key was: test/hostile-round5)
  assert.throws(() => psv0FromJson({ ...json, stageRaw: null }), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-type' && e.path === '$.stageRaw');
  const odd = JSON.parse(JSON.stringify(json).replace('"info":{', '"info":{"constructor":1,"__proto__":2,'));
  assert.ok(Object.hasOwn(odd.info, '__proto__'));
  assert.throws(() => psv0FromJson(odd), (e: unknown) => e instanceof DescriptionError && e.code === 'unknown-key' && e.path === '$.info.constructor');
  delete odd.info.constructor;
  assert.throws(() => psv0FromJson(odd), (e: unknown) => e instanceof DescriptionError && e.code === 'unknown-key' && e.path === '$.info.__proto__');
  // a typed description's integer -0 (encodePsv0 takes it) is 0 in the JSON form, which reads back
  const negZero = structuredClone(s.psv!);
  negZero.info.minimumWaveLaneCount = -0;
  negZero.resources.push({ resType: 2, space: -0, lowerBound: 0, upperBound: 0 });
  negZero.stageInfo = { ...negZero.stageInfo, depthOutput: -0 };
  const zj = JSON.parse(JSON.stringify(psv0ToJson(negZero)));
  assert.equal([zj.info.minimumWaveLaneCount, zj.resources.at(-1).space, zj.stageInfo.depthOutput], [0, 0, 0]);
  assert.is(hex(encodePsv0(psv0FromJson(zj))), hex(encodePsv0(negZero)));
  assert.equal(s.psv!.semanticIndexes, [0, 1, 2, 3]);
  const table = s.psv!.dependencies!;
  assert.is(table.length, 1);
  assert.is(table[0]!.key, 'inputToOutput');
  assert.is(table[0]!.dwords.length, 24);
  assert.is(table[0]!.dwords[2], 0xc0);
  assert.is(table[0]!.dwords[4], 0x10f);
});


for (const size of [24, 36, 48, 52, 56]) {
  test(`PSV v${psvVersionOf(size)} (runtime info ${size} bytes) encodes to the sizes of its version and decodes back`, () => {
    const d = versionDescription(size);
    const bytes = encodePsv0(d, { stage: 5 });
    const view = new DataView(bytes.buffer);
    assert.is(view.getUint32(0, true), size);
    assert.is(view.getUint32(4 + size + 4, true), psvVersionOf(size) >= 2 ? 24 : 16);
    if (size === 56) assert.is(view.getUint32(4 + 52, true), 4096);
    const back = decodePsv0(bytes, { stage: 5 });
    assert.equal(back.resources, d.resources);
    assert.equal(back.info, d.info);
    assert.is(hex(encodePsv0(back, { stage: 5 })), hex(bytes));
  });
}

test('larger-than-known sizes keep their tails; bytes after the walk are kept', () => {
  const d = versionDescription(60);
  d.runtimeInfoTail = Uint8Array.of(1, 2, 3, 4);
  d.resourceSize = 28;
  d.resources[0]!.tail = Uint8Array.of(9, 9, 9, 9);
  d.trailing = Uint8Array.of(7, 7, 7, 7);
  const bytes = encodePsv0(d);
  const back = decodePsv0(bytes);
  assert.equal(back.runtimeInfoTail, d.runtimeInfoTail);
  assert.equal(back.resources[0]!.tail, d.resources[0]!.tail);
  assert.equal(back.trailing, d.trailing);
  assert.is(hex(encodePsv0(back)), hex(bytes));
});

test('bad PSV0 bytes give DecodeErrors naming the field and absolute offset', () => {
  const bytes = fromWordDump(E1);
  const err = (data: Uint8Array) => {
    try {
      decodePsv0(data, { base: 1000 });
    } catch (e) {
      assert.instance(e, DecodeError);
      return e as DecodeError;
    }
    assert.unreachable('no error');
  };
  let e = err(bytes.subarray(0, 60))!;
  assert.is(e.code, 'count-exceeds-data');
  assert.is(e.path, 'PSV0.resources');
  assert.is(e.offset, 1000 + 0x30);
  const small = bytes.slice();
  small[0] = 20;
  e = err(small)!;
  assert.is(e.code, 'unsupported-version');
  assert.is(e.offset, 1000);
  const huge = bytes.slice();
  new DataView(huge.buffer).setUint32(0x28, 0xffffffff, true);
  e = err(huge)!;
  assert.is(e.code, 'count-exceeds-data');
  const tiny = bytes.slice();
  new DataView(tiny.buffer).setUint32(0x2c, 8, true);
  assert.is(err(tiny)!.path, 'PSV0.resourceSize');
});

test('mutated corpus PSV0 parts decode or fail with a DecodeError, never anything else; decodable ones round-trip', () => {
  const parts = found.filter((_, i) => i % 7 === 0);
  fc.assert(
    fc.property(fc.constantFrom(...parts), fc.nat(), fc.nat({ max: 0xffffffff }), fc.boolean(), (f, at, value, truncate) => {
      const data = truncate ? f.part.slice(0, at % (f.part.byteLength + 1)) : f.part.slice();
      if (!truncate && data.byteLength >= 4) new DataView(data.buffer).setUint32((at % (data.byteLength >> 2)) * 4, value, true);
      try {
        const psv = decodePsv0(data, { stage: f.stage });
        assert.is(hex(encodePsv0(psv, { stage: f.stage })), hex(data));
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
      }
    }),
    { numRuns: 400, seed: 14 },
  );
});


test('PSV0 v0 stageInfo: a key of no stage view is refused by psv0FromJson, one of no field of the stage told by encodePsv0 (both were kept and dropped: the key one way, its value written as nothing)', () => {
  const info = { minimumWaveLaneCount: 0, maximumWaveLaneCount: 0 };
  const v0 = (stageInfo: Record<string, unknown>) => ({ runtimeInfoSize: 24, info, stageInfo });
  const ok = psv0FromJson(v0({ depthOutput: 1 }));
  assert.equal(ok.stageInfo, { depthOutput: 1 });
  assert.is(encodePsv0(ok, { stage: 0 }).byteLength, 32);
  for (const key of ['depthOutpt', 'constructor', '__proto__', 'x"\n']) {
    const json = JSON.parse(`{"runtimeInfoSize":24,"info":{"minimumWaveLaneCount":0,"maximumWaveLaneCount":0},"stageInfo":{"depthOutput":1,${JSON.stringify(key)}:1}}`);
    assert.throws(() => psv0FromJson(json), (e: unknown) => e instanceof DescriptionError && e.code === 'unknown-key' && e.path === `$.stageInfo${/^\w+$/.test(key) ? `.${key}` : '["x\\"\\n"]'}`, key);
  }
  // a key some stage has, but not the one told: the pixel stage's view has no outputPositionPresent
  const vertexKey = psv0FromJson(v0({ outputPositionPresent: 1 }));
  assert.is(encodePsv0(vertexKey, { stage: 1 }).byteLength, 32);
  assert.throws(() => encodePsv0(vertexKey, { stage: 0 }), (e: unknown) => e instanceof DescriptionError && e.code === 'unknown-key' && e.path === 'PSV0.stageInfo.outputPositionPresent');
});
test.run();
