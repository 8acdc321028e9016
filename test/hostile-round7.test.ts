/**
 * Hostile inputs, round 7 (2026-12-03, hH): four gaps a previous audit found, each case below
 * failed on the source before its fix (82c113f). An options argument that is no plain object (a
 * Map, a Date, a typed array, a RegExp, a class instance, an object inheriting its keys) was
 * taken as options; describeLibrary took a `<field>Name` that does not name its value and any key
 * on a FunctionTable record; encodeRdat took any `refs` (a number, an unknown key, a string
 * offset); `quoted` cut at 64 input characters, which escape to up to 384. Each must give a typed
 * DxbinError naming its field, its message short and nothing raw in it; never a value taken
 * silently.
 *
 * Measured on 82c113f (the source before the fixes): of the 11 tests, 9 fail there (options 2,
 * quoted 2, describeLibrary 2, refs 3); the printable and "refs as decodeRdat gives them" tests
 * pass there and pin what the fixes keep.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { thrown } from './helpers/hostile.js';
import { described } from './helpers/rdat-description.js';
import { DxbinError, HlslFile } from '../src/index.js';
import { expectOptions } from '../src/bytes/check.js';
import { printable, quoted, QUOTED_CHARS } from '../src/bytes/text.js';
import { sumQueryResults } from '../src/query/index.js';
import { decodeRdat, encodeRdat } from '../src/rdat/index.js';
import { describeLibrary, libraryLines } from '../src/rdat/library.js';

/** Characters a message may not hold raw: C0/C1 controls (newline, ESC), DEL, U+2028/2029, bidi controls, the BOM. */
const RAW = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
const MAX_MESSAGE = 600;

/** `f` throws a DxbinError of `code` at `path`, its message nothing raw and short. */
function refused(f: () => unknown, code: string, path: string, label: string): DxbinError {
  const e = thrown(f);
  assert.ok(e instanceof DxbinError, `${label}: expected a DxbinError, got ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 100)}` : String(e)}`);
  const d = e as DxbinError;
  assert.is(d.code, code, `${label}: ${d.message.slice(0, 200)}`);
  assert.is(d.path, path, `${label}: ${d.message.slice(0, 200)}`);
  assert.not.ok(RAW.test(d.message), `${label}: raw text in ${JSON.stringify(d.message.slice(0, 200))}`);
  assert.ok(d.message.length <= MAX_MESSAGE, `${label}: a ${d.message.length}-character message`);
  return d;
}

// ------------------------------------------------------------------ options that are no plain object

class Options {
  offset = 16;
}

/** Objects that are no options object: each was taken as one (its own keys, or none, read as options). */
const NOT_PLAIN: readonly [string, unknown][] = [
  ['a Map', new Map([['offset', 16]])],
  ['a Date', new Date(0)],
  ['a Uint8Array', new Uint8Array(4)],
  ['a RegExp', /offset/],
  ['a class instance', new Options()],
  ['an object inheriting its keys', Object.create({ offset: 16 })],
  ['a boxed string', Object('offset')],
  ['a function', () => 16],
];

const q = new Uint8Array(64); // 8 occlusion results
q[8] = 5;
q[16] = 7;

test('expectOptions: a Map, a Date, a typed array, a RegExp, a class instance, an inheriting object, a boxed string, a function are refused; plain, null-prototype and frozen objects taken', () => {
  for (const [label, value] of NOT_PLAIN) {
    const d = refused(() => expectOptions(value), 'bad-type', 'options', label);
    assert.ok(d.message.includes('expected an options object'), `${label}: ${d.message}`);
  }
  for (const v of [{}, Object.create(null), Object.freeze({ a: 1 }), undefined]) expectOptions(v);
  for (const v of [null, [], 0, 'x']) refused(() => expectOptions(v), 'bad-type', 'options', String(v));
});

test('options that are no plain object through the public entries: sumQueryResults range, encodeRdat options, libraryLines options', () => {
  // an inherited offset was read (7, the result at 16) while its key check saw no key
  assert.equal(sumQueryResults(q, 'occlusion', { offset: 16 }), { Value: 7n });
  for (const [label, value] of NOT_PLAIN) {
    refused(() => sumQueryResults(q, 'occlusion', value as never), 'bad-type', 'range', `range ${label}`);
    refused(() => encodeRdat(described(), value as never), 'bad-type', 'options', `encodeRdat ${label}`);
  }
  const lib = describeLibrary(described());
  assert.ok(libraryLines(lib, {}).length > 1);
  for (const [label, value] of NOT_PLAIN) refused(() => libraryLines(lib, value as never), 'bad-type', 'options', `libraryLines ${label}`);
});

test('printable, testing before it replaces: after an escaped name the next clean and escaped ones come out right, whatever their lengths', () => {
  // (the patterns are global: a match leaves lastIndex past it, which replace resets)
  const names = ['a\x1bb', 'ab', 'x'.repeat(50) + '\n', 'a', '\u202e', 'abc\u2028', 'plain'];
  const want = ['a\\x1bb', 'ab', `${'x'.repeat(50)}\\x0a`, 'a', '\\u{202e}', 'abc\\u{2028}', 'plain'];
  for (let round = 0; round < 3; round++) assert.equal(names.map((n) => printable(n)), want);
});

// ------------------------------------------------------------------ quoted: the cut bounds the escaped text

/** Strings whose characters escape to 1, 2 or 6 characters (ESC, U+2028, a quote, a lone surrogate), or need two code units (an emoji). */
const ESCAPING: readonly [string, string][] = [
  ['10,000 ESC', '\x1b'.repeat(10_000)],
  ['10,000 U+2028', '\u2028'.repeat(10_000)],
  ['10,000 quotes', '"'.repeat(10_000)],
  ['ESC and letters', 'a\x1b'.repeat(5_000)],
  ['64 DEL', '\x7f'.repeat(64)],
  ['100 lone surrogates', '\ud800'.repeat(100)],
  ['100 emoji', '\u{1f600}'.repeat(100)],
  ['10 NUL (60 escaped characters: not cut)', '\0'.repeat(10)],
  ['65 letters', 'k'.repeat(65)],
  ['64 letters (not cut)', 'k'.repeat(64)],
];

test('quoted: at most QUOTED_CHARS characters of escaped text between the quotes, whatever escapes; a JSON string of a prefix, and the count of the rest', () => {
  for (const [label, s] of ESCAPING) {
    const q = quoted(s);
    const m = /^(".*")(?:…\(\+(\d+) characters\))?$/su.exec(q);
    assert.ok(m, `${label}: ${q.slice(0, 100)}`);
    const head = m![1]!;
    assert.ok(head.length <= QUOTED_CHARS + 2, `${label}: ${head.length} characters between and with the quotes`);
    assert.not.ok(RAW.test(q), `${label}: raw text in ${JSON.stringify(q)}`);
    const prefix = JSON.parse(head) as string;
    assert.ok(s.startsWith(prefix), `${label}: not a prefix`);
    assert.is(prefix.length + Number(m![2] ?? 0), s.length, `${label}: the count of the rest`);
    // cut no earlier than it must: at least the characters that fit at six each
    assert.ok(prefix.length >= Math.min(s.length, Math.floor(QUOTED_CHARS / 6)), `${label}: ${prefix.length} characters kept`);
  }
  assert.is(quoted('k'.repeat(65)), `"${'k'.repeat(64)}"…(+1 characters)`);
  assert.is(quoted('\0'.repeat(10)), JSON.stringify('\0'.repeat(10)));
  assert.is(quoted('\0'.repeat(12)), `${JSON.stringify('\0'.repeat(10))}…(+2 characters)`);
  assert.is(quoted(`${'k'.repeat(60)}\x1b`), `"${'k'.repeat(60)}"…(+1 characters)`);
});

test('a key of 10,000 ESC or U+2028 in a path: path and message short (the message was 865 characters: 64 escapes of six, twice)', () => {
  for (const c of ['\x1b', '\u2028', '\x7f']) {
    const d = refused(() => sumQueryResults(q, 'occlusion', { [c.repeat(10_000)]: 8 } as never), 'unknown-key', `range[${quoted(c.repeat(10_000))}]`, `key of ${JSON.stringify(c)}`);
    assert.ok(d.path!.length <= 100, `a ${d.path!.length}-character path`);
    assert.ok(d.message.length <= 300, `a ${d.message.length}-character message`);
  }
});

// ------------------------------------------------------------------ describeLibrary: function keys, names beside values

test('describeLibrary: a ShaderKindName the table lacks or that names another kind is bad-name at it; as a decoded record gives it, taken', () => {
  for (const name of ['Pixle', 'Pixel', 'constructor', '__proto__', 'a\x1b[2Jb', 'k'.repeat(10_000), 7]) {
    const d = refused(() => describeLibrary(described((p) => { p.fn.ShaderKindName = name; })), 'bad-name', 'RDAT.FunctionTable[0].ShaderKindName', `ShaderKindName ${String(name).slice(0, 20)}`);
    assert.ok(d.message.includes('does not name ShaderKind 7 (RayGeneration)'), d.message);
  }
  // encodeRdat refuses the same (the one check); a name that names the kind is the decoder's helper
  refused(() => encodeRdat(described((p) => { p.fn.ShaderKindName = 'Pixel'; })), 'bad-name', 'rdat.parts[2].records[0].ShaderKindName', 'encodeRdat');
  assert.is(describeLibrary(described((p) => { p.fn.ShaderKindName = 'RayGeneration'; })).exports[0]!.kind, 'RayGeneration');
  assert.is(describeLibrary(described((p) => { p.fn.ShaderKind = 'Callable'; p.fn.ShaderKindName = 'Callable'; })).exports[0]!.kind, 'Callable');
  // the subobject's names too: a KindName or TypeName edited alone
  refused(() => describeLibrary(described((p) => { p.hitGroup.KindName = 'StateObjectConfig'; })), 'bad-name', 'RDAT.SubobjectTable[0].KindName', 'KindName');
  refused(() => describeLibrary(described((p) => { p.hitGroup.TypeName = 'ProceduralPrimitive'; })), 'bad-name', 'RDAT.SubobjectTable[0].TypeName', 'TypeName');
  assert.equal(describeLibrary(described((p) => { p.hitGroup.KindName = 'HitGroup'; p.hitGroup.TypeName = 'Triangle'; })).subobjects[0]!.contents.Type, 'Triangle');
});

test('describeLibrary: a FunctionTable key of no field (misspelt, of another ShaderKind, an own __proto__) is unknown-key naming it', () => {
  for (const key of ['PayloadSizeInByte', 'shaderFlags', 'Node', 'RawShaderRef', 'FlagsName', 'constructor']) {
    const d = refused(() => describeLibrary(described((p) => { p.fn[key] = 1; })), 'unknown-key', `RDAT.FunctionTable[0].${key}`, key);
    assert.ok(d.message.includes('in a FunctionTable record of ShaderKind 7'), d.message);
  }
  // an own __proto__ (through JSON.parse; a spread copies it as an own key)
  refused(() => describeLibrary(described((p) => { p.parts[2]!.records = [{ ...JSON.parse('{"__proto__": 1}'), ...p.fn }]; })), 'unknown-key', 'RDAT.FunctionTable[0].__proto__', '__proto__');
  refused(() => describeLibrary(described((p) => { p.fn['a\u2028b'] = 1; })), 'unknown-key', 'RDAT.FunctionTable[0]["a\\u2028b"]', 'U+2028');
  // the keys the record form has: FunctionInfo2's (ShaderFlags whatever the stride), a node's Node, refs, tail, an undefined one as absent
  const lib = describeLibrary(described((p) => Object.assign(p.fn, { ShaderFlags: 3, MinimumExpectedWaveLaneCount: 0, refs: { Name: 5 }, tail: '', Bogus: undefined })));
  assert.is(lib.exports[0]!.flags.shaderFlags, 3);
});

// ------------------------------------------------------------------ encodeRdat: a record's refs

test("encodeRdat: a record's refs that is no plain object (a number, a string, an array, null, a Map, a class instance) is bad-type at it", () => {
  for (const [label, refs] of [['5', 5], ['a string', 'Name'], ['an array', [5]], ['null', null], ['a Map', new Map([['Name', 5]])], ['a class instance', new Options()], ['true', true]] as const) {
    refused(() => encodeRdat(described((p) => { p.fn.refs = refs; })), 'bad-type', 'rdat.parts[2].records[0].refs', `refs ${label}`);
  }
});

test("encodeRdat: a refs key that is no pool field of the record (misspelt, a plain field, a record index, another kind's, an own __proto__) is unknown-key naming it", () => {
  for (const key of ['Nmae', 'ShaderKind', 'PayloadSizeInBytes', 'Node', 'refs', 'constructor']) {
    const d = refused(() => encodeRdat(described((p) => { p.fn.refs = { [key]: 5 }; })), 'unknown-key', `rdat.parts[2].records[0].refs.${key}`, key);
    assert.ok(d.message.includes('in the refs of a RuntimeDataFunctionInfo record') && d.message.includes('allowed: Name, UnmangledName, Resources, FunctionDependencies'), d.message);
  }
  refused(() => encodeRdat(described((p) => { p.fn.refs = JSON.parse('{"__proto__": 5}'); })), 'unknown-key', 'rdat.parts[2].records[0].refs.__proto__', '__proto__');
  // a hit group's case has no RootSignature; a root signature subobject's has no AnyHit
  refused(() => encodeRdat(described((p) => { p.hitGroup.refs = { RootSignature: [0, 0] }; })), 'unknown-key', 'rdat.parts[3].records[0].refs.RootSignature', 'RootSignature of a hit group');
  refused(() => encodeRdat(described((p) => { p.fn.refs = { 'a\x1b[2Jb': 5 }; })), 'unknown-key', 'rdat.parts[2].records[0].refs["a\\u001b[2Jb"]', 'ESC');
});

test("encodeRdat: a refs value of the wrong type (a string offset, an object, a bytes ref that is no [offset, size] pair) is bad-type naming it", () => {
  for (const [label, v] of [['"1"', '1'], ['an object', {}], ['[1]', [1]], ['null', null], ['true', true]] as const) {
    refused(() => encodeRdat(described((p) => { p.fn.refs = { Name: v }; })), 'bad-type', 'rdat.parts[2].records[0].refs.Name', `Name ${label}`);
  }
  refused(() => encodeRdat(described((p) => { p.fn.refs = { Resources: [0] }; })), 'bad-type', 'rdat.parts[2].records[0].refs.Resources', 'an array for an index array');
  const rootSignature = (ref: unknown) => described((p) => {
    p.parts.push({ type: 'RawBytes', hex: '0102030405060708' });
    Object.assign(p.hitGroup, { Kind: 1, RootSignature: '0102', refs: { RootSignature: ref } });
    for (const k of ['Type', 'AnyHit', 'ClosestHit', 'Intersection']) delete p.hitGroup[k];
  });
  for (const [label, ref] of [['a number', 0], ['one number', [0]], ['three', [0, 2, 0]], ['strings', ['0', '2']], ['a hole', [, 2]]] as const) {
    refused(() => encodeRdat(rootSignature(ref)), 'bad-type', 'rdat.parts[3].records[0].refs.RootSignature', `RootSignature ${label}`);
  }
  // what decodeRdat gives is taken, and the stored run kept where it holds the bytes
  const back = decodeRdat(encodeRdat(rootSignature([0, 2])));
  const rec = (back.parts.find((p) => p.type === 'SubobjectTable') as { records: Record<string, unknown>[] }).records[0]!;
  assert.equal([rec.RootSignature, (rec.refs as Record<string, unknown>).RootSignature], ['0102', [0, 2]]);
});

test("encodeRdat: refs as decodeRdat gives them, an undefined value as absent, a number that names no stored value: taken (the value found or appended)", () => {
  const d = described((p) => { p.fn.refs = { Name: 5, UnmangledName: 5, Resources: undefined, FunctionDependencies: 12345 }; });
  const plain = encodeRdat(described());
  assert.equal(Array.from(encodeRdat(d)), Array.from(plain));
  assert.equal(Array.from(encodeRdat(described((p) => { p.fn.refs = Object.create(null); }))), Array.from(plain));
});

test('-E: an entry name of 10,000 ESC is cut where its escaped text passes QUOTED_CHARS, so the message stays short (64 ESC escaped to 384)', () => {
  const e = thrown(() => new HlslFile('[RootSignature("CBV(b0)")] void main() {}\n', 'e.hlsl').entryText('\x1b'.repeat(10_000)));
  assert.instance(e, DxbinError);
  assert.is((e as DxbinError).code, 'hlsl-missing');
  assert.match((e as Error).message, /…\(\+\d+ characters\)/);
  assert.ok((e as Error).message.length < 300, `${(e as Error).message.length} characters`);
});

test('#include of a 30,000-character name that is not found: the name cut in the message, which stays short (it was repeated whole)', () => {
  const name = `${'\x1b'.repeat(100)}${'n'.repeat(30_000)}.h`;
  const e = thrown(() => new HlslFile(`#include "${name}"\n[RootSignature("CBV(b0)")] void main() {}\n`, 'e.hlsl').entryText('main'));
  assert.instance(e, DxbinError);
  assert.is((e as DxbinError).code, 'hlsl-preprocess');
  assert.match((e as Error).message, /file not found/);
  assert.ok((e as Error).message.length < 300, `${(e as Error).message.length} characters`);
});

test.run();
