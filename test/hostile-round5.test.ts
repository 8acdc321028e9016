/**
 * Hostile-input round 5 (2026-12-03, hD): container parse/write and part surgery, PSV0 and its
 * JSON form, part JSON forms, and the binding checks. Every input is crafted by hand and goes in
 * through the public API; each must give a typed DxbinError naming its path, or the right answer.
 * The probe that found them (a throwaway script, not kept) ran 192 inputs over these surfaces
 * (container 69, digest 8, PSV0 78, parts 18, binding 19, with corpus and 20,000 + 15,000 mutated
 * decode -> encode -> JSON round trips, none of which lost a byte); on 177aafb 36 broke in its
 * first run and 6 more in later probes (misspelt JSON keys, "toString", null options, 4 GiB):
 * - a silently wrong answer: a parse mode "Strict" read as lenient; writeContainer wrote a
 *   version of 70000, -1, 1.5, "1", NaN or none as its low 16 bits (12) and a part name with a
 *   character past U+00FF as its low byte (2, and withPart); withRootSignature took a string as RTS0
 *   and a misspelt placement as append; withoutPart removed nothing for 5 or "PSV"; partDataOffset
 *   read "0" and "length" as keys; psvString read 1.5 and "1" as 1; stageRaw beside stageInfo was
 *   dropped; the binding checks took stage NaN, 1.5, -1 (and a ShaderInfo's null bindings as none);
 *   psv0FromJson ignored a misspelt key (its value lost or written 0).
 * - a raw TypeError or RangeError: a detached buffer in parseContainer, decodePsv0, decodePart,
 *   writeContainer (and readDxbcProgram, decodeDxbcTokens, programBitcode, encodePsv0/encodePart
 *   tails and kept bytes); a hole in partFromJson's kept runs; withPart's options null; decodePart
 *   of "toString"; parts summing past 4 GiB.
 * - a hang: a sparse kept list of length 2^32 - 1 (299 s in partFromJson), as in every map over
 *   the PSV0 and part JSON lists.
 * - a raw control character in a message: a duplicate part's C1 name (NEL, CSI).
 * Each case here failed on the code before its mend (the commit that adds it says how).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeDxbcTokens,
  decodePart,
  decodePsv0,
  encodePart,
  encodePsv0,
  partFromJson,
  partToJson,
  findPart,
  parseContainer,
  partDataOffset,
  programBitcode,
  psvString,
  readShader,
  suggestRootSignature,
  verifyBindings,
  verifyRootSignature,
  type RootSignature,
  psv0FromJson,
  psv0ToJson,
  readDxbcProgram,
  withPart,
  withRootSignature,
  withoutPart,
  writeContainer,
} from '../src/index.js';
import { ROOT } from './helpers/corpus.js';
import { table, type Case } from './helpers/hostile-table.js';

// ---------------------------------------------------------------- helpers

/** A DXIL container of the corpus with PSV0 and SFI0 parts. */
const SHADER = new Uint8Array(readFileSync(join(ROOT, 'corpus/shaders/vkd3d-proton/cs_sample_cmp_level_code_dxil.dxil')));
const parsed = () => parseContainer(SHADER);
const PSV0 = findPart(parseContainer(SHADER), 'PSV0')!.data.slice();

/**
 * A sparse array of length 2^32 - 1 holding `present` only, that counts the indices read (has
 * and get): past 10,000 it throws, so a walk over its holes fails at once instead of taking minutes.
 */
function sparse(present: Record<number, unknown> = {}): unknown[] {
  const target: unknown[] = [];
  for (const [i, v] of Object.entries(present)) target[Number(i)] = v;
  target.length = 2 ** 32 - 1;
  let steps = 0;
  const step = (key: string | symbol) => {
    if (typeof key === 'string' && /^\d+$/.test(key) && ++steps > 10_000) throw new Error('walked past 10,000 indices of a sparse array');
  };
  return new Proxy(target, {
    has: (t, key) => (step(key), Reflect.has(t, key)),
    get: (t, key, r) => (step(key), Reflect.get(t, key, r)),
  });
}

/** An empty view of a buffer transferred away (its bytes are gone; it reads as empty). */
function detached(n = 8): Uint8Array {
  const bytes = new Uint8Array(n);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

test('a parse mode other than strict or lenient is refused, not read as lenient', () => {
  table([
    ['mode "Strict"', () => parseContainer(SHADER, { mode: 'Strict' as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode "relaxed"', () => parseContainer(SHADER, { mode: 'relaxed' as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode 1', () => parseContainer(SHADER, { mode: 1 as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode "lenient" is taken', () => parseContainer(SHADER, { mode: 'lenient' }), (c) => c.parts.length > 0],
    ['mode undefined is strict', () => parseContainer(SHADER, { mode: undefined }), (c) => c.layout.packed],
  ]);
});

test('a detached buffer is refused by name (bad-type), never a raw TypeError or an empty part', () => {
  const bad = (path: RegExp) => ({ code: 'bad-type', path });
  table([
    ['parseContainer', () => parseContainer(detached()), bad(/^container$/)],
    ['decodePsv0', () => decodePsv0(detached()), bad(/^bytes$/)],
    ['decodePart SFI0', () => decodePart('SFI0', detached()), bad(/^data$/)],
    ['decodePart ISG1', () => decodePart('ISG1', detached()), bad(/^data$/)],
    ['readDxbcProgram', () => readDxbcProgram(detached()), bad(/^bytes$/)],
    ['decodeDxbcTokens', () => decodeDxbcTokens(detached()), bad(/^data$/)],
    ['programBitcode', () => programBitcode(detached()), bad(/^data$/)],
    ['writeContainer: a detached part', () => writeContainer({ ...parsed(), parts: [{ name: 'ABCD', data: detached() }] }), bad(/^container\.parts\[0\]\.data$/)],
    ['writeContainer: a detached digest (its length reads 0)', () => writeContainer(parsed(), detached(16)), { code: ['bad-type', 'out-of-range'], path: /^digest$/ }],
    ['encodePsv0: detached trailing', () => encodePsv0({ ...decodePsv0(PSV0), trailing: detached() }), bad(/^PSV0\.trailing$/)],
    ['encodePart: detached kept bytes', () => {
      const p = decodePart('ISG1', findPart(parsed(), 'ISG1')!.data);
      return encodePart({ ...p, kept: [...p.kept, { offset: p.size, bytes: detached() }] });
    }, bad(/^part\.kept\[\d+\]\.bytes$/)],
  ]);
});

test('writeContainer writes the version fields it is given or refuses them (never their low 16 bits)', () => {
  const write = (key: 'majorVersion' | 'minorVersion', v: unknown) => () => writeContainer({ ...parsed(), [key]: v as number });
  const cases: [string, unknown, string][] = [['70000', 70000, 'out-of-range'], ['-1', -1, 'out-of-range'], ['1.5', 1.5, 'out-of-range'], ['NaN', NaN, 'out-of-range'], ['"1"', '1', 'bad-type'], ['none', undefined, 'missing-key']];
  table([
    ...cases.flatMap(([label, v, code]) => (['majorVersion', 'minorVersion'] as const).map((key) => [`${key} ${label}`, write(key, v), { code, path: new RegExp(`^container\\.${key}$`) }] as Case)),
    ['minorVersion 65535 is written as is', write('minorVersion', 65535), (b) => parseContainer(b).minorVersion === 65535],
    ['majorVersion 1, minorVersion 0 round-trips', write('minorVersion', 0), (b) => parseContainer(b).majorVersion === 1],
  ]);
});

test('a part name is four one-byte characters: a wider one is refused, not written as its low byte', () => {
  const withName = (name: string) => () => writeContainer({ ...parsed(), parts: [{ name, data: new Uint8Array(4) }] });
  const rule = { code: 'bad-name', path: /^container\.parts\[0\]\.name$/ };
  table([
    ['U+0100 then XIL (was written NUL XIL)', withName('\u0100XIL'), rule],
    ['an emoji and two letters (was written "=", NUL, AB)', withName('\u{1F600}AB'), rule],
    ['U+202E (bidi) then ABC', withName('\u202eABC'), rule],
    ['withPart: U+0100 then BCD', () => withPart(parsed(), '\u0100BCD', new Uint8Array(4)), { code: 'bad-name', path: /^name$/ }],
    ['U+00FF (Latin-1) then ABC is taken and read back', withName('\u00ffABC'), (b) => parseContainer(b).parts[0]!.name === '\u00ffABC'],
  ]);
  for (const f of [withName('\u202eABC'), withName('a\nbcd'.slice(0, 4)), () => withPart(parsed(), 'A\u2066\u0085D', new Uint8Array(4))]) {
    try {
      f();
      assert.unreachable('taken');
    } catch (e) {
      assert.not.match((e as Error).message, /[\u0000-\u001f\u0080-\u009f\u202a-\u202e\u2066-\u2069]/, 'a control or bidi character in the message');
    }
  }
});

test('a part name two parts share is quoted escaped in the duplicate-part message', () => {
  const name = '\u0085\u009bAB'; // NEL and CSI (C1 controls): one byte each
  const twice = writeContainer({ ...parsed(), parts: [{ name, data: new Uint8Array(4) }, { name, data: new Uint8Array(4) }] });
  try {
    findPart(parseContainer(twice), name);
    assert.unreachable('taken');
  } catch (e) {
    assert.is((e as { code?: string }).code, 'duplicate-part');
    assert.not.match((e as Error).message, /[\u0080-\u009f\u202a-\u202e]/, 'a C1 or bidi character in the message');
  }
});

test('part surgery checks its arguments: a string as RTS0, a misspelt placement, a name no part can have', () => {
  const c = parsed();
  table([
    ['withRootSignature: a string as the RTS0 data', () => withRootSignature(c, 'RTS0' as never), { code: 'bad-type', path: /^rts0$/ }],
    ['withRootSignature: placement "inplace" (was taken as append)', () => withRootSignature(c, new Uint8Array(4), 'inplace' as never), { code: 'bad-name', path: /^placement$/ }],
    ['withRootSignature: placement "append" is taken', () => withRootSignature(c, new Uint8Array(4), 'append'), (x) => x.parts.at(-1).name === 'RTS0'],
    ['withoutPart: name 5 (removed nothing)', () => withoutPart(c, 5 as never), { code: 'bad-name', path: /^name$/ }],
    ['withoutPart: name "PSV" (removed nothing)', () => withoutPart(c, 'PSV'), { code: 'bad-name', path: /^name$/ }],
    ['withoutPart: "PSV0" removes it', () => withoutPart(c, 'PSV0'), (x) => x.parts.length === c.parts.length - 1],
    ['withPart: options null on a taken name', () => withPart(c, 'PSV0', new Uint8Array(4), null as never), { code: 'bad-type', path: /^options$/ }],
  ]);
});

test('partDataOffset takes a part index, not a key of the offset table', () => {
  const c = parsed();
  table([
    ['index "0"', () => partDataOffset(c, '0' as never), { code: 'bad-type', path: /^index$/ }],
    ['index "length" (gave the part count + 8)', () => partDataOffset(c, 'length' as never), { code: 'bad-type', path: /^index$/ }],
    ['index 1.5', () => partDataOffset(c, 1.5), { code: 'out-of-range', path: /^index$/ }],
    ['index 0', () => partDataOffset(c, 0), (at) => at === c.layout.partOffsets[0]! + 8],
  ]);
});

test('psvString reads at whole offsets only', () => {
  const t = new TextEncoder().encode('\0abc\0');
  table([
    ['offset 1.5 (read the string at 1)', () => psvString(t, 1.5), (v) => v === undefined],
    ['offset "1" (read the string at 1)', () => psvString(t, '1' as never), { code: 'bad-type', path: /^offset$/ }],
    ['offset 1', () => psvString(t, 1), (v) => v === 'abc'],
    ['offset NaN', () => psvString(t, NaN), (v) => v === undefined],
  ]);
});

test('a PSV0 description with both stageInfo and stageRaw is refused (one of them was dropped)', () => {
  const psv = decodePsv0(PSV0);
  const raw = { union: new Uint8Array(16).fill(0xff), word26: 7 };
  const json = psv0ToJson(psv);
  table([
    ['typed', () => encodePsv0({ ...psv, stageRaw: raw }), { code: 'out-of-range', path: /^PSV0\.stageRaw$/ }],
    ['JSON', () => encodePsv0(psv0FromJson({ ...json, stageRaw: { union: 'ff'.repeat(16), word26: 7 } })), { code: 'out-of-range', path: /^PSV0\.stageRaw$/ }],
    ['stageRaw alone is written', () => encodePsv0({ ...psv, stageInfo: undefined, stageRaw: raw }), (b) => b[4] === 0xff && decodePsv0(b).stageRaw?.word26 === 7],
  ]);
});

test('sparse arrays of length 2^32 - 1 and holes are refused at the first hole, not walked', () => {
  const isg1 = findPart(parsed(), 'ISG1')!.data;
  const partJson = () => JSON.parse(JSON.stringify(partToJson(decodePart('ISG1', isg1))));
  const elementsKey = () => Object.keys(partJson()).find((k) => Array.isArray(partJson()[k]) && k !== 'kept')!;
  const psvJson = () => JSON.parse(JSON.stringify(psv0ToJson(decodePsv0(PSV0))));
  const psv = () => decodePsv0(PSV0);
  const hole = (path: RegExp) => ({ code: ['bad-type', 'missing-key'], path });
  table([
    ['partFromJson: kept sparse', () => partFromJson({ ...partJson(), kept: sparse() }), hole(/^\$\.kept\[0\]$/)],
    ['partFromJson: kept [hole, run]', () => partFromJson({ ...partJson(), kept: [, ...partJson().kept] }), hole(/^\$\.kept\[0\]$/)],
    ['partFromJson: elements sparse', () => partFromJson({ ...partJson(), [elementsKey()]: sparse() }), hole(/^\$\.\w+\[0\]$/)],
    ['encodePart: kept sparse', () => encodePart({ ...decodePart('ISG1', isg1), kept: sparse() as never }), hole(/^part\.kept\[0\]$/)],
    ['encodePart: kept with a hole at 1', () => { const p = decodePart('ISG1', isg1); return encodePart({ ...p, kept: [{ offset: 0, bytes: new Uint8Array(0) }, , ...p.kept] as never }); }, hole(/^part\.kept\[1\]$/)],
    ['encodePart: token instructions sparse', () => encodePart({ name: 'SHEX', kind: 'tokens', size: 8, blocks: {}, kept: [], tokens: { version: 0, length: 2, instructions: sparse() } } as never), hole(/^part\.tokens\.instructions\[0\]$/)],
    ['encodePart: one instruction\'s tokens sparse', () => encodePart({ name: 'SHEX', kind: 'tokens', size: 8, blocks: {}, kept: [], tokens: { version: 0, length: 2, instructions: [{ tokens: sparse() }] } } as never), hole(/^part\.tokens\.instructions\[0\]\.tokens\[0\]$/)],
    ['psv0FromJson: resources sparse', () => psv0FromJson({ ...psvJson(), resources: sparse() }), hole(/^\$\.resources\[0\]$/)],
    ['psv0FromJson: inputElements sparse', () => psv0FromJson({ ...psvJson(), inputElements: sparse() }), hole(/^\$\.inputElements\[0\]$/)],
    ['psv0FromJson: semanticIndexes [0, sparse]', () => psv0FromJson({ ...psvJson(), semanticIndexes: sparse({ 0: 0 }) }), hole(/^\$\.semanticIndexes\[1\]$/)],
    ['psv0FromJson: elementTails sparse', () => psv0FromJson({ ...psvJson(), elementTails: sparse() }), hole(/^\$\.elementTails\[0\]$/)],
    ['psv0ToJson: semanticIndexes sparse', () => psv0ToJson({ ...psv(), semanticIndexes: sparse() as number[] }), hole(/^PSV0\.semanticIndexes\[0\]$/)],
    ['psv0ToJson: resources sparse', () => psv0ToJson({ ...psv(), resources: sparse() as never }), hole(/^PSV0\.resources\[0\]$/)],
    ['psv0ToJson: elementTails sparse', () => psv0ToJson({ ...psv(), elementTails: sparse() as never }), hole(/^PSV0\.elementTails\[0\]$/)],
  ]);
});

test('the binding checks take a shader kind as an integer: NaN, 1.5 and -1 gave verdicts for no shader', () => {
  const rs: RootSignature = { version: 2, flags: 0, parameters: [], staticSamplers: [] };
  const info = readShader(SHADER);
  const binding = { resType: 1, space: 0, lowerBound: 0, upperBound: 0, offset: 0 };
  const kind = (path: RegExp, code = 'out-of-range') => ({ code, path });
  table([
    ['verifyBindings stage NaN', () => verifyBindings(NaN, [binding], rs), kind(/^stage$/)],
    ['verifyBindings stage 1.5', () => verifyBindings(1.5, [binding], rs), kind(/^stage$/)],
    ['verifyBindings stage -1', () => verifyBindings(-1, [binding], rs), kind(/^stage$/)],
    ['verifyBindings stage "5"', () => verifyBindings('5' as never, [binding], rs), kind(/^stage$/, 'bad-type')],
    ['verifyRootSignature: a ShaderInfo of stage NaN', () => verifyRootSignature({ ...info, stage: NaN }, rs), kind(/^shader\.stage$/)],
    ['verifyRootSignature: a ShaderInfo whose bindings are null (was: not-verifiable, as if no PSV0)', () => verifyRootSignature({ ...info, bindings: null as never }, rs), { code: 'bad-type', path: /^bindings$/ }],
    ['suggestRootSignature stage NaN (denied every stage)', () => suggestRootSignature([{ stage: NaN, bindings: [binding] }]), kind(/^shaders\[0\]\.stage$/)],
    ['verifyBindings stage 5 (compute) is checked', () => verifyBindings(5, [binding], rs), (r) => r.verdict === 'does-not-fit'],
  ]);
});

test('the PSV0 JSON form refuses a key it does not have (a misspelt one was ignored: its value lost or written as 0)', () => {
  const json = () => JSON.parse(JSON.stringify(psv0ToJson(decodePsv0(PSV0))));
  const unknown = (path: RegExp) => ({ code: 'unknown-key', path });
  const first = (list: string) => (j: Record<string, any>) => j[list][0];
  const j0 = json();
  table([
    ['top level "trailng"', () => psv0FromJson({ ...json(), trailng: '00000000' }), unknown(/^\$\.trailng$/)],
    ['top level "stageRAW"', () => psv0FromJson({ ...json(), stageRAW: { union: '00'.repeat(16), word26: 0 } }), unknown(/^\$\.stageRAW$/)],
    ['info "shaderStge"', () => psv0FromJson({ ...json(), info: { ...json().info, shaderStge: 5 } }), unknown(/^\$\.info\.shaderStge$/)],
    ['info "__proto__" (own key from JSON text)', () => psv0FromJson({ ...json(), info: JSON.parse(`{"__proto__": 1, ${JSON.stringify(json().info).slice(1)}`) }), unknown(/^\$\.info\.__proto__$/)],
    ['a resource "lowerBnd"', () => psv0FromJson({ ...json(), resources: [{ ...first('resources')(json()), lowerBnd: 3 }] }), unknown(/^\$\.resources\[0\]\.lowerBnd$/)],
    ['an element "semanticIdx"', () => psv0FromJson({ ...json(), inputElements: [{ ...first('inputElements')(json()), semanticIdx: 3 }] }), unknown(/^\$\.inputElements\[0\]\.semanticIdx$/)],
    ['stageRaw "word62"', () => { const j = json(); delete j.stageInfo; return psv0FromJson({ ...j, stageRaw: { union: '00'.repeat(16), word62: 1 } }); }, unknown(/^\$\.stageRaw\.word62$/)],
    ['a dependency "dword"', () => psv0FromJson({ ...json(), dependencies: [{ key: 'x', stream: 0, dword: [] }] }), unknown(/^\$\.dependencies\[0\]\.dword$/)],
    ['the form psv0ToJson writes is read back to the same bytes', () => encodePsv0(psv0FromJson(j0)), (b: Uint8Array) => b.length === PSV0.length && b.every((x, i) => x === PSV0[i])],
  ]);
  try {
    psv0FromJson({ ...json(), 'a\nb\u202e': 1 });
    assert.unreachable('taken');
  } catch (e) {
    assert.is((e as { code?: string }).code, 'unknown-key');
    assert.not.match((e as Error).message, /[\n\u202e]/, 'a raw newline or bidi character in the message');
  }
});

test('writeContainer refuses a container over 2 GiB before making it (parts sharing one buffer)', () => {
  const shared = new Uint8Array(4 << 20); // 4 MiB, named by every part
  const parts = (n: number) => Array.from({ length: n }, () => ({ name: 'DATA', data: shared }));
  table([
    ['1200 parts of 4 MiB (5 GB: was a raw RangeError)', () => writeContainer({ ...parsed(), parts: parts(1200) }), { code: 'out-of-range', path: /^container\.parts$/ }],
    ['600 parts of 4 MiB (2.5 GB: past DXC\'s 2 GiB)', () => writeContainer({ ...parsed(), parts: parts(600) }), { code: 'out-of-range', path: /^container\.parts$/ }],
    ['2 parts of 4 MiB are written', () => writeContainer({ ...parsed(), parts: parts(2) }), (b) => parseContainer(b).parts.length === 2],
  ]);
});

test('decodePart looks a name up in its own tables only ("toString" is no layout)', () => {
  const bytes = (p: { kind: string; kept: { bytes: Uint8Array }[] }) => p.kind === 'bytes' && p.kept[0]!.bytes.byteLength === 8;
  table([
    ['toString', () => decodePart('toString', new Uint8Array(8)), bytes],
    ['constructor', () => decodePart('constructor', new Uint8Array(8)), bytes],
    ['__proto__', () => decodePart('__proto__', new Uint8Array(8)), bytes],
    ['valueOf', () => decodePart('valueOf', new Uint8Array(8)), bytes],
    ['PSV0 is kept for its own codec', () => decodePart('PSV0', PSV0), (p) => p.kind === 'psv0'],
  ]);
});

test.run();
