/**
 * Hostile inputs, round 6 (2026-12-03, hG): the surfaces changed that day. expectKnownKeys and
 * expectBytes through the query operations, encodeRdat and describeLibrary; quoted/pathKey;
 * encodeRdat's version, budget and strings; readRootSignatureSource on odd containers; -E ENTRY,
 * pragma lines, _Pragma and #if character constants in the HLSL preprocessor, by the library and
 * through the built CLI. Each must give a typed DxbinError naming its field (exit 1 in the CLI),
 * or the right answer; never a raw RangeError/TypeError, a stack trace, a hang, input-sized
 * recursion, a long message for a long input, input-chosen text raw in a message or a line of
 * its own in generated text, or a value changed without a word.
 *
 * Tally (each input counted once; measured on 036b98a, the source as it was): 84 inputs, 10 broke,
 * all fixed (4 fixes, each case below failed before it): a NUL or a lone surrogate in an RDAT
 * string (4: written as the string up to the NUL / as U+FFFD, without a word), a misspelt or own
 * `__proto__` key of an RDAT description (2: `verison` dropped, the default version written) and
 * of encodeRdat's options (2: `bugdet` dropped, the default budget used), a 10,000-character -E
 * name (2, library and CLI: a 10,000-character message).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MESSAGE, RAW, refused, thrown } from './helpers/hostile.js';
import { described, type Parts, type Rec } from './helpers/rdat-description.js';
import { builtCli } from './helpers/built-cli.js';
import { Budget, DecodeError, DescriptionError, DxbinError, HlslError, HlslFile, encodeRootSignature } from '../src/index.js';
import { LimitError } from '../src/bytes/budget.js';
import { gatherVirtualQueries, packQueryMap, sumQueryResults } from '../src/query/index.js';
import { decodeRdat, encodeRdat, type RdatDescription } from '../src/rdat/index.js';
import { describeLibrary } from '../src/rdat/library.js';
import { readRootSignatureSource } from '../src/root-signature/input.js';



// ------------------------------------------------------------------ query options (expectKnownKeys)

const q = new Uint8Array(64); // 8 occlusion results
q[8] = 5;
q[16] = 7;

test('a range key the operation does not have: __proto__ (own, through JSON.parse), constructor, toString, U+2028, ESC, 10,000 characters', () => {
  refused(() => sumQueryResults(q, 'occlusion', JSON.parse('{"__proto__": 8}')), 'unknown-key', 'range.__proto__', '__proto__');
  refused(() => sumQueryResults(q, 'occlusion', { constructor: 8 } as never), 'unknown-key', 'range.constructor', 'constructor');
  refused(() => sumQueryResults(q, 'occlusion', { toString: 8 } as never), 'unknown-key', 'range.toString', 'toString');
  refused(() => sumQueryResults(q, 'occlusion', { 'a\u2028b': 8 } as never), 'unknown-key', 'range["a\\u2028b"]', 'U+2028');
  refused(() => sumQueryResults(q, 'occlusion', { 'a\x1b[2Jb': 8 } as never), 'unknown-key', 'range["a\\u001b[2Jb"]', 'ESC');
  const d = refused(() => sumQueryResults(q, 'occlusion', { ['k'.repeat(10_000)]: 8 } as never), 'unknown-key', `range["${'k'.repeat(64)}"…(+9936 characters)]`, '10,000 characters');
  assert.ok(d.message.includes('allowed: offset, count, kernels'), d.message);
});

test('a range that is an array, or an object of a million unknown keys: refused at once, naming the first, the message short', () => {
  refused(() => sumQueryResults(q, 'occlusion', [8] as never), 'bad-type', 'range', 'an array');
  const big: Record<string, number> = {};
  for (let i = 0; i < 1_000_000; i++) big[`offset${i}`] = 8;
  refused(() => sumQueryResults(q, 'occlusion', big), 'unknown-key', 'range.offset0', 'a million keys');
});

test('a frozen range, a null-prototype range: read as a plain one', () => {
  const plain = sumQueryResults(q, 'occlusion', { offset: 16 });
  assert.equal(plain, { Value: 7n });
  assert.equal(sumQueryResults(q, 'occlusion', Object.freeze({ offset: 16 })), plain);
  assert.equal(sumQueryResults(q, 'occlusion', Object.assign(Object.create(null) as object, { offset: 16 })), plain);
  // a symbol key is no JSON key and names no option: not looked at
  assert.equal(sumQueryResults(q, 'occlusion', { [Symbol('offset')]: 16 } as never), { Value: 12n });
});

test("a getter that throws, a Proxy whose ownKeys trap throws: the caller's own error comes back as it was thrown", () => {
  const mine = new Error('mine');
  assert.is(thrown(() => sumQueryResults(q, 'occlusion', { get offset(): number { throw mine; } })), mine);
  const trap = new Error('trap');
  assert.is(thrown(() => sumQueryResults(q, 'occlusion', new Proxy({}, { ownKeys() { throw trap; } }))), trap);
});

test('gatherVirtualQueries options and query map entries with a hostile key', () => {
  refused(() => gatherVirtualQueries(q, 'occlusion', [], JSON.parse('{"heads": 0, "dstCount": 1, "__proto__": {}}')), 'unknown-key', 'options.__proto__', 'options __proto__');
  refused(() => packQueryMap([{ dstIndex: 0, srcIndex: 0, next: 0, 'a\u202eb': 1 } as never]), 'unknown-key', 'entries[0]["a\\u202eb"]', 'entry key');
});

// ------------------------------------------------------------------ RDAT


test('encodeRdat strides: 0 and 2^32 refused at the stride, 2^32-1 refused at the records it cannot hold, taken for no records', () => {
  refused(() => encodeRdat(described((p) => (p.parts[1]!.stride = 0))), 'out-of-range', 'rdat.parts[1].stride', 'stride 0');
  refused(() => encodeRdat(described((p) => (p.parts[1]!.stride = 2 ** 32))), 'out-of-range', 'rdat.parts[1].stride', 'stride 2^32');
  refused(() => encodeRdat(described((p) => (p.parts[1]!.stride = 2 ** 32 - 1))), 'out-of-range', 'rdat.parts[1].records', 'stride 2^32-1, one record');
  const bytes = encodeRdat(described((p) => {
    Object.assign(p.parts[1]!, { stride: 2 ** 32 - 1, records: [] });
    p.fn.Resources = [];
  }));
  const back = decodeRdat(bytes).parts[1] as unknown as Rec;
  assert.is(back.stride, 2 ** 32 - 1);
  assert.equal(back.records, []);
});

test('encodeRdat: a budget that is no Budget (an object, a look-alike, an object of its prototype, null) is bad-type', () => {
  for (const budget of [{}, { charge() {}, limit: () => 1e9 }, Object.create(Budget.prototype), null]) {
    refused(() => encodeRdat(described(), { budget: budget as never }), 'bad-type', 'options.budget', `budget ${String(budget)}`);
  }
  // one record object a million times: the budget, not a 32 MB table
  const e = thrown(() => encodeRdat(described((p) => ((p.parts[1]!.records as unknown[]) = new Array(1_000_000).fill(p.resource)))));
  assert.ok(e instanceof LimitError, String(e));
});

test('encodeRdat version: "16", 17, 16.5, -0 refused naming rdat.version', () => {
  refused(() => encodeRdat({ ...described(), version: '16' as never }), 'bad-type', 'rdat.version', '"16"');
  refused(() => encodeRdat({ ...described(), version: 17 }), 'out-of-range', 'rdat.version', '17');
  refused(() => encodeRdat({ ...described(), version: 16.5 }), 'out-of-range', 'rdat.version', '16.5');
  refused(() => encodeRdat({ ...described(), version: -0 }), 'out-of-range', 'rdat.version', '-0');
});

test('encodeRdat keys and part types: __proto__ own key of a record, a part type __proto__, constructor, 10,000 bidi characters', () => {
  refused(() => encodeRdat(described((p) => ((p.parts[1]!.records as unknown[])[0] = Object.assign(JSON.parse('{"__proto__": 5}'), p.resource)))), 'unknown-key', 'rdat.parts[1].records[0].__proto__', 'record __proto__');
  refused(() => encodeRdat(described((p) => ((p.parts[1] as Rec).toString = 'x' as never))), 'unknown-key', 'rdat.parts[1].toString', 'part toString');
  for (const type of ['__proto__', 'constructor', 'T\u202e'.repeat(5000)]) refused(() => encodeRdat(described((p) => (p.parts[1]!.type = type))), 'bad-name', 'rdat.parts[1].type', `type ${type.slice(0, 12)}`);
});

test('encodeRdat: a misspelt key of the description or the options is refused (verison, bugdet were read as absent: the default version, the default budget)', () => {
  refused(() => encodeRdat({ ...described(), verison: 17 } as never), 'unknown-key', 'rdat.verison', 'verison');
  refused(() => encodeRdat(Object.assign(JSON.parse('{"__proto__": 1}'), described())), 'unknown-key', 'rdat.__proto__', 'description __proto__');
  const d = refused(() => encodeRdat(described(), { bugdet: Budget.unlimited() } as never), 'unknown-key', 'options.bugdet', 'bugdet');
  assert.ok(d.message.includes('budget') && d.message.includes('maxResolved'), d.message);
  refused(() => encodeRdat(described(), JSON.parse('{"__proto__": {}}')), 'unknown-key', 'options.__proto__', 'options __proto__');
  // the keys it takes are still taken
  assert.equal(encodeRdat(described(), { budget: Budget.unlimited(), maxResolved: 1e9 }), encodeRdat(described()));
  assert.equal(encodeRdat({ version: undefined, parts: described().parts } as never), encodeRdat(described()));
});

test('encodeRdat: a NUL in a string is refused (was written as the string up to the NUL: Name "a\\0b" read back as "a", a strings entry became two)', () => {
  refused(() => encodeRdat(described((p) => (p.resource.Name = 'a\0b'))), 'not-representable', 'rdat.parts[1].records[0].Name', 'NUL in a Name');
  refused(() => encodeRdat(described((p) => (p.strings.strings = ['', 'te\0x', 'rg', 'ch', '']))), 'not-representable', 'rdat.parts[0].strings[1]', 'NUL in strings');
});

test('encodeRdat: a lone surrogate in a string is refused (was written as U+FFFD without a word)', () => {
  refused(() => encodeRdat(described((p) => (p.resource.Name = 'z\udc00'))), 'not-representable', 'rdat.parts[1].records[0].Name', 'lone surrogate in a Name');
  refused(() => encodeRdat(described((p) => (p.strings.strings = ['', 'tex', 'rg\ud800', 'ch', '']))), 'not-representable', 'rdat.parts[0].strings[2]', 'lone surrogate in strings');
  // a surrogate pair is a character like any other, and reads back as written
  const bytes = encodeRdat(described((p) => (p.resource.Name = 'tex\u{1F600}')));
  assert.is(((decodeRdat(bytes).parts[1] as unknown as { records: Rec[] }).records[0]!).Name, 'tex\u{1F600}');
});

test('describeLibrary: a subobject own __proto__ key, Kind "__proto__", a resource reference "0"', () => {
  refused(() => describeLibrary(described((p) => ((p.parts[3]!.records as unknown[])[0] = Object.assign(JSON.parse('{"__proto__": 1}'), p.hitGroup)))), 'unknown-key', 'RDAT.SubobjectTable[0].__proto__', 'subobject __proto__');
  refused(() => describeLibrary(described((p) => (p.hitGroup.Kind = '__proto__'))), 'bad-name', 'RDAT.SubobjectTable[0].Kind', 'Kind __proto__');
  refused(() => describeLibrary(described((p) => (p.fn.Resources = ['0']))), 'out-of-range', 'RDAT.FunctionTable[0].Resources[0]', 'Resources ["0"]');
});

// ------------------------------------------------------------------ readRootSignatureSource

const rts = (flags: number) => encodeRootSignature({ version: 2, flags, parameters: [], staticSamplers: [] } as never);

/** A DXBC container of `parts` packed back to back, then `patch` applied to its bytes. */
function container(parts: [string, Uint8Array][], patch?: (v: DataView, offsets: number[]) => void): Uint8Array {
  let size = 32 + 4 * parts.length;
  const offsets: number[] = [];
  for (const [, d] of parts) {
    offsets.push(size);
    size += 8 + d.length;
  }
  const b = new Uint8Array(size);
  const v = new DataView(b.buffer);
  b.set([0x44, 0x58, 0x42, 0x43]);
  v.setUint16(20, 1, true);
  v.setUint32(24, size, true);
  v.setUint32(28, parts.length, true);
  parts.forEach(([name, d], i) => {
    v.setUint32(32 + 4 * i, offsets[i]!, true);
    for (let k = 0; k < 4; k++) b[offsets[i]! + k] = name.charCodeAt(k);
    v.setUint32(offsets[i]! + 4, d.length, true);
    b.set(d, offsets[i]! + 8);
  });
  patch?.(v, offsets);
  return b;
}

test('readRootSignatureSource: one RTS0 read at its absolute offset; two RTS0 parts ambiguous in either mode', () => {
  const one = readRootSignatureSource(container([['RTS0', rts(1)]]));
  assert.is(one.partOffset, 44);
  assert.is(one.rootSignature.flags, 1);
  for (const mode of ['strict', 'lenient'] as const) {
    const e = thrown(() => readRootSignatureSource(container([['RTS0', rts(1)], ['RTS0', rts(2)]]), mode));
    assert.ok(e instanceof DecodeError && e.code === 'duplicate-part', `${mode}: ${String(e)}`);
  }
});

test('readRootSignatureSource: a part offset into the header, two offsets naming one part, a detached buffer, a mode "__proto__"', () => {
  const intoHeader = container([['RTS0', rts(1)]], (v) => v.setUint32(32, 8, true));
  const strict = thrown(() => readRootSignatureSource(intoHeader));
  assert.ok(strict instanceof DecodeError && strict.code === 'part-layout', String(strict));
  // lenient reads the "part" the offset names (digest bytes for its name): no RTS0 there, and none is made up
  const lenient = thrown(() => readRootSignatureSource(intoHeader, 'lenient'));
  assert.ok(lenient instanceof DecodeError && lenient.code === 'missing-part', String(lenient));
  const twice = thrown(() => readRootSignatureSource(container([['RTS0', rts(1)], ['XXXX', rts(2)]], (v, o) => v.setUint32(36, o[0]!, true)), 'lenient'));
  assert.ok(twice instanceof DecodeError && twice.code === 'duplicate-part', String(twice));
  const gone = container([['RTS0', rts(1)]]);
  structuredClone(gone.buffer, { transfer: [gone.buffer as ArrayBuffer] });
  refused(() => readRootSignatureSource(gone), 'bad-type', 'bytes', 'detached');
  refused(() => readRootSignatureSource(container([['RTS0', rts(1)]]), '__proto__' as never), 'bad-name', 'options.mode', 'mode __proto__');
});

// ------------------------------------------------------------------ HLSL: -E, pragmas, character constants

const SRC = '[RootSignature("CBV(b0)")]\nvoid main() {}\n';

/** An HlslError of `code` whose message holds nothing raw and is short. */
function hlslRefused(f: () => unknown, code: string, label: string): HlslError {
  const e = thrown(f);
  assert.ok(e instanceof HlslError, `${label}: expected an HlslError, got ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 100)}` : String(e)}`);
  const h = e as HlslError;
  assert.is(h.code, code, `${label}: ${h.message.slice(0, 200)}`);
  assert.not.ok(RAW.test(h.message), `${label}: raw text in ${JSON.stringify(h.message.slice(0, 200))}`);
  assert.ok(h.message.length <= MAX_MESSAGE, `${label}: a ${h.message.length}-character message`);
  return h;
}

test('entryText: a name with a newline, U+2028, ESC, or 10,000 characters is missing, escaped and short (the long one was a 10,000-character message)', () => {
  for (const name of ['ma\nin', 'a\u2028b', '\x1b[31mx', 'x'.repeat(10_000), '', '__proto__', 'main()', '::main']) {
    hlslRefused(() => new HlslFile(SRC, 'rs.hlsl').entryText(name), 'hlsl-missing', `entry ${JSON.stringify(name.slice(0, 12))}`);
  }
  assert.match(hlslRefused(() => new HlslFile(SRC, 'rs.hlsl').entryText('x'.repeat(10_000)), 'hlsl-missing', 'long').message, /…\(\+9936 characters\)/);
  // a function named as an Object.prototype key is found like any other
  assert.is(new HlslFile('[RootSignature("SRV(t0)")]\nvoid constructor() {}\n', 'rs.hlsl').entryText('constructor').text, 'SRV(t0)');
});

const pp = (text: string) => new HlslFile(text, 'rs.hlsl').preprocessedText();
const pragmaLines = (text: string) => text.split('\n').filter((l) => l.startsWith('#pragma'));

test('_Pragma: nested _Pragma(_Pragma(...)) refused; a 100,000-character string is one pragma line; escapes and continuations start no line', () => {
  hlslRefused(() => pp('_Pragma(_Pragma("x"))\n'), 'hlsl-preprocess', 'nested');
  const huge = pp(`_Pragma("${'x'.repeat(100_000)}")\n`);
  assert.equal(pragmaLines(huge), [`#pragma ${'x'.repeat(100_000)}`]);
  assert.ok(huge.length < 100_100, `${huge.length} characters out`);
  // \n in the string is destringized as cpp does (only \" and \\): still one line, no #include of its own
  const text = pp('_Pragma("a\\n#include \\"x\\"")\n');
  assert.equal(pragmaLines(text), ['#pragma a\\n#include "x"']);
  assert.not.ok(text.split('\n').some((l) => l.startsWith('#include')), text);
  const spliced = pp('#pragma a\\\n#include "x"\nX\n');
  assert.equal(pragmaLines(spliced), ['#pragma a#include "x"']);
  assert.not.ok(spliced.split('\n').some((l) => l.startsWith('#include')), spliced);
  // a P(P(...)) 2,000 deep that makes a _Pragma at each level: the budget, no stack overflow
  const e = thrown(() => pp(`#define P(x) _Pragma(#x) x\n${'P('.repeat(2000)}y${')'.repeat(2000)}\n`));
  assert.ok(e === undefined || e instanceof DxbinError, String(e));
});

test('pragma lines with CR, NEL, U+2028: no raw CR in a pragma line; NEL and U+2028 are no line ends of C, kept inside the line', () => {
  const cr = pp('#pragma foo\rbar\nX\n');
  assert.ok(pragmaLines(cr).every((l) => !l.includes('\r')), JSON.stringify(cr));
  assert.equal(pragmaLines(pp('#pragma foo\x85bar\nX\n')), ['#pragma foo\x85bar']);
  assert.equal(pragmaLines(pp('#pragma foo\u2028#include "x"\nX\n')), ['#pragma foo\u2028#include "x"']);
});

test("#if character constants: 1,000 characters, '\\777777', a 1,000-digit hex escape, 100,000 parentheses: a value, no hang, no recursion", () => {
  const yes = (cond: string) => pp(`#if ${cond}\nY\n#endif\n`).split('\n').includes('Y');
  assert.ok(yes(`'${'a'.repeat(1000)}'`));
  assert.ok(yes("'\\777777'"));
  assert.ok(yes(`'\\x${'f'.repeat(1000)}'`));
  assert.ok(yes(`${'('.repeat(100_000)}'a'${')'.repeat(100_000)} == 97`));
  assert.ok(yes("'\\377' < 0"), 'char is signed, as cpp');
  hlslRefused(() => pp("#if ''\nY\n#endif\n"), 'hlsl-preprocess', 'empty');
  hlslRefused(() => pp("#if '\\UFFFFFFFF'\nY\n#endif\n"), 'hlsl-preprocess', 'bad \\U');
  hlslRefused(() => pp("#if '\\ud800'\nY\n#endif\n"), 'hlsl-preprocess', 'surrogate \\u');
});

// ------------------------------------------------------------------ the built CLI

const work = mkdtempSync(join(tmpdir(), 'dxbin-hostile6-'));
let files = 0;

async function cli(text: string, args: (file: string) => string[]) {
  const file = join(work, `f${files++}.hlsl`);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, [await builtCli(), ...args(file)], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exit 1, one short line of stderr, nothing raw, no stack trace. */
function exitOne(r: { status: number | null; stderr: string }, label: string): void {
  assert.is(r.status, 1, `${label}: ${r.stderr.slice(0, 200)}`);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.is(lines.length, 1, `${label}: ${JSON.stringify(r.stderr.slice(0, 300))}`);
  assert.not.ok(RAW.test(lines[0]!), `${label}: raw text in ${JSON.stringify(lines[0]!.slice(0, 200))}`);
  assert.ok(lines[0]!.length <= MAX_MESSAGE, `${label}: a ${lines[0]!.length}-character line`);
}

test('rootsig compile -E with a newline, ESC, U+2028, 10,000 characters: exit 1, one escaped short line', async () => {
  for (const name of ['ma\nin', '\x1b[2Jx', 'a\u2028b', 'x'.repeat(10_000)]) {
    exitOne(await cli(SRC, (f) => ['rootsig', 'compile', '--to', '1.1', '--file', f, '-E', name, '-o', join(work, 'o.bin')]), `-E ${JSON.stringify(name.slice(0, 12))}`);
  }
});

test('rootsig preprocess: nested _Pragma and an #error of ESC and a bidi override exit 1 escaped; a pragma message of ESC warns escaped', async () => {
  exitOne(await cli('_Pragma(_Pragma("x"))\n', (f) => ['rootsig', 'preprocess', '--file', f]), 'nested _Pragma');
  exitOne(await cli('#error \x1b[2J\u202e boom\n', (f) => ['rootsig', 'preprocess', '--file', f]), '#error');
  const r = await cli('#pragma message("\x1b]0;t\x07\u2028x")\n', (f) => ['rootsig', 'preprocess', '--file', f]);
  assert.is(r.status, 0, r.stderr);
  assert.not.ok(RAW.test(r.stderr.replace(/\n/g, '')), JSON.stringify(r.stderr));
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
