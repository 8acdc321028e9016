/** DXBC binding declarations: every corpus SHDR/SHEX program decodes; token layouts; bad tokens. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { DecodeError, parseContainer, readDxbcProgram, readShader, shaderOf, formatBinding, resTypeName } from '../src/index.js';
import { corpusFile, corpusFiles } from './helpers/corpus.js';

const programs = corpusFiles('shaders').flatMap((f) => {
  const c = parseContainer(f.bytes, { mode: 'lenient' });
  return c.parts.some((p) => p.name === 'SHEX' || p.name === 'SHDR') ? [{ name: f.name, container: c }] : [];
});

test('every corpus DXBC shader (1621) decodes its declarations; shader models 4.0-5.1', () => {
  assert.is(programs.length, 1621);
  const models: Record<string, number> = {};
  let withRts = 0;
  for (const p of programs) {
    const s = shaderOf(p.container);
    models[s.shaderModel] = (models[s.shaderModel] ?? 0) + 1;
    if (p.container.parts.some((x) => x.name === 'RTS0')) withRts++;
    for (const b of s.bindings!) {
      assert.ok(b.lowerBound <= b.upperBound, `${p.name}: ${formatBinding(b)}`);
      if (s.shaderModel !== '5.1') assert.is(b.space, 0);
    }
  }
  assert.equal(models, { '4.0': 52, '4.1': 7, '5.0': 1247, '5.1': 315 });
  assert.is(withRts, 820);
});

test('stage comes from the version token (vkd3d file names say ps/vs/cs...)', () => {
  const prefix: Record<string, number> = { ps: 0, vs: 1, gs: 2, hs: 3, ds: 4, cs: 5 };
  let checked = 0;
  for (const p of programs) {
    const m = /__(ps|vs|gs|hs|ds|cs)_/.exec(p.name);
    if (!m) continue;
    assert.is(shaderOf(p.container).stage, prefix[m[1]!], p.name);
    checked++;
  }
  assert.ok(checked > 100, `${checked} named shaders`);
});

test('SM 5.1 ranges, spaces and the counter flag decode (fxc disassembly reading by hand)', () => {
  const counts: Record<string, number> = {};
  for (const p of programs) for (const b of shaderOf(p.container).bindings!) counts[resTypeName(b.resType)] = (counts[resTypeName(b.resType)] ?? 0) + 1;
  for (const t of ['CBV', 'Sampler', 'SRVTyped', 'SRVRaw', 'SRVStructured', 'UAVTyped', 'UAVRaw', 'UAVStructured']) assert.ok(counts[t]! > 0, `${t}: ${counts[t]}`);
  const spaced = programs.flatMap((p) => shaderOf(p.container).bindings!.filter((b) => b.space > 0 || b.upperBound === 0xffffffff));
  assert.ok(spaced.length > 0, 'some SM 5.1 bindings use a space or an unbounded range');
});

test('RDEF names where present', () => {
  const named = programs.filter((p) => shaderOf(p.container).bindings!.some((b) => b.name));
  assert.ok(named.length >= 1);
  for (const p of named) assert.ok(p.container.parts.some((x) => x.name === 'RDEF'), p.name);
});

/** A token stream: version, length, then the given instructions. */
function program(version: number, ...instructions: number[][]): Uint8Array {
  const words = [version, 2 + instructions.reduce((n, i) => n + i.length, 0), ...instructions.flat()];
  const bytes = new Uint8Array(words.length * 4);
  words.forEach((w, i) => new DataView(bytes.buffer).setUint32(i * 4, w >>> 0, true));
  return bytes;
}
const PS50 = 0x00000050;
const CS51 = 0x00050051;
const op = (opcode: number, length: number, control = 0) => (opcode | (control << 11) | (length << 24)) >>> 0;
// operand: 4 components? no (0); type; index dimension; all immediate32
const operand = (type: number, dims: number) => ((type << 12) | (dims << 20)) >>> 0;

test('hand-made SM 5.0 and 5.1 declarations decode to the registers, ranges and spaces they state', () => {
  const p50 = readDxbcProgram(program(PS50, [op(0x59, 4), operand(8, 2), 3, 16], [op(0x5a, 3), operand(6, 1), 2], [op(0x9e, 4, 0x800000 >> 11), operand(30, 1), 1, 16]));
  assert.equal(p50.bindings.map((b) => [resTypeName(b.resType), formatBinding(b)]), [['CBV', 'b3'], ['Sampler', 's2'], ['UAVStructuredWithCounter', 'u1']]);
  const p51 = readDxbcProgram(program(CS51, [op(0x59, 7), operand(8, 3), 0, 2, 5, 8, 3], [op(0x58, 7, 3), operand(7, 3), 1, 4, 0xffffffff, 0x5555, 7]));
  assert.is(p51.stage, 5);
  assert.equal(p51.bindings.map((b) => [resTypeName(b.resType), formatBinding(b)]), [['CBV', 'b2..b5, space3'], ['SRVTyped', 't4.., space7']]);
  assert.is(p51.bindings[1]!.offset, 4 * (2 + 7));
});

test('bad tokens give DecodeErrors with offsets', () => {
  const err = (bytes: Uint8Array) => {
    try {
      readDxbcProgram(bytes, { base: 100 });
    } catch (e) {
      assert.instance(e, DecodeError);
      return e as DecodeError;
    }
    assert.unreachable('no error');
  };
  let e = err(program(PS50, [op(0x59, 0), operand(8, 2), 3, 16]))!;
  assert.is(e.code, 'bad-token');
  assert.is(e.offset, 108);
  e = err(program(PS50, [op(0x5a, 3), operand(7, 1), 2]))!;
  assert.is(e.path, 'SHEX.instructions[0].operand.type');
  assert.is(e.offset, 112);
  e = err(program(PS50, [op(0x5a, 2), operand(6, 1)]))!;
  assert.is(e.code, 'bad-token');
  e = err(program(PS50, [op(0x5a, 3), operand(6, 1) | (2 << 22), 2]))!;
  assert.is(e.path, 'SHEX.instructions[0].operand.index0');
  e = err(program(0x00070050, []))!;
  assert.is(e.code, 'unsupported-version');
  const short = program(PS50, [op(0x5a, 3), operand(6, 1), 2]);
  new DataView(short.buffer).setUint32(4, 99, true);
  assert.is(err(short)!.path, 'SHEX.length');
});

test('mutated corpus programs decode or fail with a DecodeError', () => {
  const seeds = programs.filter((_, i) => i % 40 === 0).map((p) => p.container.parts.find((x) => x.name === 'SHEX' || x.name === 'SHDR')!.data);
  fc.assert(
    fc.property(fc.constantFrom(...seeds), fc.nat(), fc.nat({ max: 0xffffffff }), (data, at, value) => {
      const bytes = data.slice();
      new DataView(bytes.buffer).setUint32((at % (bytes.byteLength >> 2)) * 4, value, true);
      try {
        readDxbcProgram(bytes);
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
      }
    }),
    { numRuns: 500, seed: 14 },
  );
});

test('readShader on a root-signature-only container says there is no program', () => {
  try {
    readShader(corpusFile('rootsig/brawler__RootSignatureDefinition__BC6H_BC7_COMPRESSION__SERIALIZED_ROOT_SIGNATURE_VERSION_1_0.dxbc'));
    assert.unreachable();
  } catch (e) {
    assert.is((e as DecodeError).code, 'missing-part');
  }
});

test.run();
