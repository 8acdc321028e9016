/**
 * Hostile-input round 3 (2026-12-02, hE): the HLSL root signature language and its
 * preprocessor, query buffers and kernels, SRCI parts, the binding checks and the inspector's
 * describers. Every input is crafted by hand from the formats (clang's lexer and literal rules,
 * DXC's number conversions, ResolveQueryData's layouts, DxilSourceInfo) and goes in through the
 * public API or the CLI; each must give a typed DxbinError naming its path, or the right answer.
 *
 * Tally (2026-12-02, hE): 88 inputs; 56 broke before the mends (measured: this file run over
 * b4ba6b9, the source stashed), of these kinds:
 * - a wrong answer against DXC (24; some refused what DXC takes): `#line` past u32 (1e20, 2^32) taken, as were wide and u8
 *   file names (their prefix became part of the name), and `__FILE__` after `#line 1 "a\\b.h"`
 *   escaped twice; root signature strings read only \n \t \r \0 (`\x30`, `\060`, `\u0030` became
 *   letters, `\a` the letter a, so `RootFl\ags(0)` compiled; `\x100` was no error of its own);
 *   a lone CR ended no line (a `#define` after one, or after a `//` comment, vanished; lines were
 *   miscounted), backslash-blank-newline spliced nothing, a string starting with a BOM lost its
 *   first directive, NUL between tokens was a token; `mipLODBias = -0` (DXC: the integer 0, +0.0f)
 *   was -0.0f; suggestRootSignature took featureInfo1 -1, 2^32 + 2^24 and 1.5 through `&`.
 * - a line the input chose (4): a -I folder holding a newline made a line of `dxc -P` text
 *   (`#error injected`); `#warning` and `#pragma message` printed a raw ESC; a newline in a root
 *   signature argument printed a second line of the message.
 * - silently wrong or lost in query buffers, SRCI and pictures (25): timestampDurations wrote ns over
 *   ticks and flags into ns when the outputs shared bytes, and took 1e-320 Hz (infinite ns per
 *   tick); decodeQueryResults' `into` took one column for two fields, a Float64Array, a plain
 *   array, a column over the input, and a misspelled field (a new column made instead); encodeQueryResults took a
 *   misspelled column (an empty buffer) or record key; a query offset or count "8" read as a
 *   number in a DecodeError; packQueryMap wrote -1, 1.5 and a missing `next` as other indices;
 *   summarizeDurations took a DataView; an SRCI section packed by an unknown method (2) was shown
 *   as text; byte-map windows, hexDump `from`/`to` of NaN, 1.5, "16" or ends swapped gave empty
 *   maps or rows at fractional offsets; a picture of NaN bars or pixels was empty and 1e9 bars
 *   (4 GB) were allocated for 32 bytes.
 * - a raw RangeError (3): an output view not 8-byte aligned, a gather into 2^40 results, a column
 *   that claims 2^40 values.
 * Mended at the boundary each kind passes: sources read as clang reads them (src/root-signature/
 * hlsl/preprocessor/source.ts: lone CR a newline, a leading BOM a space, blanks allowed in a
 * splice; the lexer takes NUL as a blank); one literal decoder and one literal writer
 * (preprocessor/literal.ts) for root signature strings, `#line` names, `__FILE__` and `dxc -P`
 * markers; `#line` kept to clang's unsigned range; HlslError and preprocessor warnings escape what
 * they quote (src/bytes/text.ts printable, tabs kept as DXC words them); DXC's integer -0; one
 * disjointness check for query outputs (src/query/types.ts checkDisjoint) and the field names of
 * the type for every keyed input; one byte-window check (src/query/spans.ts byteWindow) for
 * query maps and hex dumps; one features check (src/binding/verify.ts checkFeatures) for verify
 * and suggest; a bound on picture sizes; SRCI's compression method checked where it is read.
 *
 * Follow-up (2026-12-02, hF): 13 inputs more, for two regressions of those mends (and, later, one
 * for a packQueryMap message that spelled a string index as given: a newline in it broke the
 * line; 102 in all). Of hF's 13:
 * 10 broke on 05c6b07 (the mends in place): `#line` names read one character a byte, so the
 * octal-escaped UTF-8 that `dxc -P` markers now write (as clang does) read back as mojibake
 * (`caf\303\251.h` was `cafÃ©.h`, the -P text of an include named café.h did not round-trip),
 * escaped bytes that are no UTF-8 became Latin-1 stand-ins; and `#line 00000000005` (or a GNU
 * `# 00000000005` marker) was refused by its length. 8 broke on b4ba6b9 (names kept their
 * escapes, -P markers unescaped, `#line` past u32 taken). Mended in preprocessor/literal.ts (a
 * narrow literal's escaped bytes read as strict UTF-8, refused when they are none) and
 * directives.ts (the line number read digit by digit, by value).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import {
  HlslFile,
  compileRootSignature,
  decodeHlslSource,
  decodePart,
  printRootSignature,
  suggestRootSignature,
  verifyBindings,
  virtualHost,
  type RootSignature,
  type ShaderBinding,
} from '../src/index.js';
import { decodeQueryResults, encodeQueryResults, gatherVirtualQueries, packQueryMap, summarizeDurations, timestampDurations } from '../src/query/index.js';
import { byteMap, hexDump, partLines, timingPicture } from '../src/inspect/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';

import { table } from './helpers/hostile-table.js';

// ---------------------------------------------------------------- helpers

/** The root signature of #define RS in `text` (with `files` as its include tree). */
const defineRs = (text: string, files: Record<string, string | Uint8Array | { link: string }> = {}, includeDirs: string[] = []) =>
  compileRootSignature(new HlslFile(text, 'main.hlsl', {}, {}, { host: virtualHost({ 'main.hlsl': text, ...files }), includeDirs }).defineText('RS'));
const rsText = (text: string) => new HlslFile(text, 'main.hlsl').defineText('RS').text;
const flagsZero = (rs: RootSignature) => rs.flags === 0 && rs.parameters.length === 0;
const sampler = (rs: RootSignature) => rs.staticSamplers[0]!;
const f32 = (x: number) => Math.fround(x);
const FLT_MAX = f32(3.4028234663852886e38);

/** A root signature through its printed text and back, compared field by field (floats by their bits). */
function roundTrips(rs: RootSignature): boolean | string {
  const text = printRootSignature(rs);
  const back = compileRootSignature(text, { version: 2 });
  const bits = (v: unknown) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : v);
  const a = JSON.stringify(rs, (_k, v) => bits(v));
  const b = JSON.stringify(back, (_k, v) => bits(v));
  return a === b || `${text} read back as ${b}`;
}

// ---------------------------------------------------------------- the preprocessor

test('the preprocessor: #line, escapes, line ends, BOMs, NULs', () => {
  table([
    ['#line 99999999999999999999 (past u32)', () => rsText('#line 99999999999999999999\n#define RS "RootFlags(0)"'), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:/ }],
    ['#line 4294967296 (2^32)', () => rsText('#line 4294967296\n#define RS "RootFlags(0)"'), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:/ }],
    ['#line 4294967295 is taken', () => rsText('#line 4294967295\n#define RS "RootFlags(0)"'), (t) => t === 'RootFlags(0)'],
    ['#line 5 L"w.h" (a wide literal is no file name)', () => rsText('#line 5 L"w.h"\n#define RS "RootFlags(0)"'), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:/ }],
    ['#line 5 u8"w.h"', () => rsText('#line 5 u8"w.h"\n#define RS "RootFlags(0)"'), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:/ }],
    ['#line 1 "a\\\\b.h": __FILE__ is the literal\'s value, escaped once', () => new HlslFile('#line 1 "a\\\\b.h"\n__FILE__', 'main.hlsl').takenText().text, (t) => t === 'a\\b.h'],
    ['#line 1 "q\\"x.h": __FILE__ keeps the quote', () => new HlslFile('#line 1 "q\\"x.h"\n__FILE__', 'main.hlsl').takenText().text, (t) => t === 'q"x.h'],
    ['a hex escape in the root signature string (\\x30 is 0)', () => defineRs('#define RS "RootFlags(\\x30)"'), flagsZero],
    ['an octal escape (\\060 is 0)', () => defineRs('#define RS "RootFlags(\\060)"'), flagsZero],
    ['a universal character name (\\u0030 is 0)', () => defineRs('#define RS "RootFlags(\\u0030)"'), flagsZero],
    ['\\a is BEL, not the letter a (DXC refuses RootFl<BEL>gs)', () => defineRs('#define RS "RootFl\\ags(0)"'), { code: 'hlsl-syntax' }],
    ['\\x100 is out of range in a narrow string', () => defineRs('#define RS "RootFlags(\\x100)"'), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:/ }],
    ['a lone CR ends a directive line', () => defineRs('#define A 1\r#define RS "RootFlags(0)"\r'), flagsZero],
    ['a lone CR ends a // comment', () => defineRs('// note\r#define RS "RootFlags(0)"'), flagsZero],
    ['lone CRs count as lines in messages', () => rsText('\r\r\r#error here'), { code: 'hlsl-preprocess', path: /^main\.hlsl:4:/ }],
    ['backslash, space, newline splices the line (clang, with a warning)', () => defineRs('#define RS \\ \n"RootFlags(0)"'), flagsZero],
    ['backslash, tab, CRLF splices the line', () => defineRs('#define RS \\\t\r\n"RootFlags(0)"'), flagsZero],
    ['a string that starts with a BOM (readFileSync(f, "utf8") keeps it)', () => defineRs('\ufeff#define RS "RootFlags(0)"'), flagsZero],
    ['UTF-8 BOM bytes through decodeHlslSource', () => defineRs(decodeHlslSource(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('#define RS "RootFlags(0)"')]))), flagsZero],
    ['an include in UTF-16 BE with its BOM', () => defineRs('#include "be.h"', { 'be.h': new Uint8Array([0xfe, 0xff, ...Buffer.from('#define RS "RootFlags(0)"', 'utf16le').swap16()]) }), flagsZero],
    ['a NUL in a directive is whitespace (clang: null character ignored)', () => defineRs('#define RS "RootFlags(0)"\0'), flagsZero],
    ['a NUL between tokens of text', () => defineRs('#define RS RootFlags\0(0)'), flagsZero],
  ]);
});

/** `dxc -P` text of a main file that includes `café.h` (holding `x`), and `__FILE__` read back from it in place of `x`. */
function nonAsciiIncludeRoundTrip(): string {
  const f = new HlslFile('#include "café.h"\n', 'main.hlsl', {}, {}, { host: virtualHost({ 'main.hlsl': '', 'café.h': 'x\n' }) });
  const text = f.preprocessedText();
  if (!text.includes('#line 1 "caf\\303\\251.h"\n')) return `no octal-escaped marker in ${JSON.stringify(text)}`;
  return new HlslFile(text.replace(/^x$/m, '__FILE__'), 'out.hlsl').takenText().text;
}

test('the preprocessor: #line names as bytes, #line numbers by value (round-3 follow-up)', () => {
  table([
    ['#line 1 "caf\\303\\251.h": octal escapes are UTF-8 bytes (__FILE__ is café.h)', () => new HlslFile('#line 1 "caf\\303\\251.h"\n__FILE__', 'main.hlsl').takenText().text, (t) => t === 'café.h'],
    ['#line 1 "caf\\xc3\\xa9.h": hex escapes likewise', () => new HlslFile('#line 1 "caf\\xc3\\xa9.h"\n__FILE__', 'main.hlsl').takenText().text, (t) => t === 'café.h'],
    ['#line 1 "\\360\\237\\230\\200.h": four bytes, one character past U+FFFF', () => new HlslFile('#line 1 "\\360\\237\\230\\200.h"\n__FILE__', 'main.hlsl').takenText().text, (t) => t === '\u{1f600}.h'],
    ['dxc -P text of an include named café.h reads back as café.h', nonAsciiIncludeRoundTrip, (t) => t === 'café.h'],
    ['#line 1 "caf\\303.h": a lead byte cut short is refused, not a stand-in', () => new HlslFile('#line 1 "caf\\303.h"\n__FILE__', 'main.hlsl').takenText(), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:13$/ }],
    ['#line 1 "\\355\\240\\200.h": UTF-8 of a surrogate is refused', () => new HlslFile('#line 1 "\\355\\240\\200.h"\n__FILE__', 'main.hlsl').takenText(), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:10$/ }],
    ['a root signature string with the byte \\377 is refused where it is written', () => defineRs('#define RS "RootFlags(0)\\377"'), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:25$/ }],
    ['escaped UTF-8 in a root signature string is one character, placed at its first escape', () => defineRs('#define RS "RootFlags(\\303\\2510)"'), { code: 'hlsl-syntax', path: /^main\.hlsl:1:23$/ }],
    ['#line 00000000005 (leading zeros; clang warns and takes 5)', () => new HlslFile('#line 00000000005\n__LINE__', 'main.hlsl').takenText().text, (t) => t === '5'],
    ['# 00000000005 "x.h" (a GNU line marker likewise)', () => new HlslFile('# 00000000005 "x.h"\n__LINE__ __FILE__', 'main.hlsl').takenText().text, (t) => t === '5 x.h'],
    ['#line 000000000004294967295 is taken', () => new HlslFile('#line 000000000004294967295\n__LINE__', 'main.hlsl').takenText().text, (t) => t === '4294967295'],
    ['#line 000000000004294967296 is past u32', () => new HlslFile('#line 000000000004294967296\n__LINE__', 'main.hlsl').takenText(), { code: 'hlsl-preprocess', path: /^main\.hlsl:1:/ }],
    ['#line 0 is taken, as before this round (clang: a GNU extension, with a warning)', () => new HlslFile('#line 0\n__LINE__', 'main.hlsl').takenText().text, (t) => t === '0'],
  ]);
});

test('the preprocessor: includes, links, expansion', () => {
  const chain: Record<string, string> = {};
  for (let i = 0; i < 260; i++) chain[`f${i}.h`] = `#include "f${i + 1}.h"\n`;
  chain['f260.h'] = '';
  let doubling = '#define A0 x\n';
  for (let i = 1; i <= 40; i++) doubling += `#define A${i} A${i - 1} A${i - 1}\n`;
  table([
    ['an include that reaches itself through a folder link (unguarded)', () => defineRs('#include "a.h"\n#define RS "RootFlags(0)"', { 'a.h': '#include "l/a.h"\n', l: { link: '.' } }), { code: ['hlsl-preprocess', 'limit-exceeded'] }],
    ['-I folders that are links to one folder: a #pragma once header read once', () => new HlslFile('#include <x.h>\n#include <x.h>', 'main.hlsl', {}, {}, { host: virtualHost({ 'main.hlsl': '', 'i/x.h': '#pragma once\n#include <x.h>\n', l: { link: 'i' }, m: { link: 'l' } }), includeDirs: ['m', 'l', 'i'] }).files, (f) => f.length === 2],
    ['a chain of 260 distinct includes', () => defineRs('#include "f0.h"\n#define RS "RootFlags(0)"', chain), { code: 'hlsl-preprocess' }],
    ['2^40 tokens from 41 doubling macros', () => defineRs(`${doubling}#define RS A40`), { code: 'limit-exceeded' }],
    ['F(F(...F(x)...)) 40 deep, F(x) = x x', () => defineRs(`#define F(x) x x\n#define RS ${'F('.repeat(40)}x${')'.repeat(40)}`), { code: 'limit-exceeded' }],
    ['a # made by a macro starts no directive', () => new HlslFile('#define H #\nH define RS "RootFlags(0)"', 'main.hlsl').defineText('RS'), { code: 'hlsl-missing' }],
    ['pasting # and define is an invalid token', () => new HlslFile('#define P(a,b) a##b\nP(#,define) RS 1', 'main.hlsl').takenText(), { code: 'hlsl-preprocess' }],
    ['#if (INT64_MIN / -1) < 0 wraps as clang does', () => defineRs('#if ((-9223372036854775807-1)/-1) < 0\n#define RS "RootFlags(0)"\n#endif'), flagsZero],
    ['an unterminated /* in an include', () => defineRs('#include "c.h"\n#define RS "RootFlags(0)"', { 'c.h': '/* never closed\n' }), { code: 'hlsl-preprocess', path: /^c\.h:1:/ }],
  ]);
});

test('the preprocessed text: a #line marker is one line whatever a path holds', () => {
  const dir = '/inc\n#error injected\n';
  const f = new HlslFile('#include <h.h>\nint b;\n', 'main.hlsl', {}, {}, { host: virtualHost({ 'main.hlsl': '', [`${dir}/h.h`]: 'int a;\n' }), includeDirs: [dir] });
  const lines = f.preprocessedText().split('\n');
  assert.ok(lines.every((l) => !l.startsWith('#') || /^#line \d+ "[^"\\\n]*(\\.[^"\\\n]*)*"$/.test(l)), lines.join('\n'));
  assert.ok(!lines.some((l) => l.startsWith('#error')), lines.join('\n'));
});

// ---------------------------------------------------------------- the root signature language

test('the root signature language: numbers, duplicates, overflow, printing back', () => {
  table([
    ['mipLODBias = -0 is the integer 0: +0.0f, as DXC converts it', () => sampler(compileRootSignature('StaticSampler(s0, mipLODBias = -0)')).mipLODBias, (v) => Object.is(v, 0)],
    ['minLOD = -0 likewise', () => sampler(compileRootSignature('StaticSampler(s0, minLOD = -0)')).minLOD, (v) => Object.is(v, 0)],
    ['mipLODBias = -0.0 is the float -0', () => sampler(compileRootSignature('StaticSampler(s0, mipLODBias = -0.0)')).mipLODBias, (v) => Object.is(v, -0)],
    ['CBV(b4294967296)', () => compileRootSignature('CBV(b4294967296)'), { code: 'hlsl-syntax' }],
    ['space = 4294967296', () => compileRootSignature('CBV(b0, space = 4294967296)'), { code: 'hlsl-syntax' }],
    ['a reserved space 0xFFFFFFF0', () => compileRootSignature('CBV(b0, space = 4294967280)'), { code: 'hlsl-validation' }],
    ['a range whose offset and count pass 2^32', () => compileRootSignature('DescriptorTable(SRV(t0, numDescriptors = 3, offset = 4294967294))'), { code: 'hlsl-validation' }],
    ['registers past b4294967295', () => compileRootSignature('DescriptorTable(CBV(b4294967295, numDescriptors = 2))'), { code: 'hlsl-validation' }],
    ['an unbounded range then an appended one', () => compileRootSignature('DescriptorTable(SRV(t0, numDescriptors = unbounded), SRV(t1))'), { code: 'hlsl-validation' }],
    ['RootFlags twice', () => compileRootSignature('RootFlags(0), RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)'), { code: 'hlsl-syntax' }],
    ['two registers in one CBV', () => compileRootSignature('CBV(b0, b1)'), { code: 'hlsl-syntax' }],
    ['maxAnisotropy twice', () => compileRootSignature('StaticSampler(s0, maxAnisotropy = 16, maxAnisotropy = 1)'), { code: 'hlsl-syntax' }],
    ['a register of 200 digits (split at 127 characters)', () => compileRootSignature(`CBV(b${'0'.repeat(200)})`), { code: 'hlsl-syntax' }],
    ['3.402823467e+38 (a double past FLT_MAX)', () => compileRootSignature('StaticSampler(s0, maxLOD = 3.402823467e+38)'), { code: 'hlsl-syntax' }],
    ['a tab between clauses', () => compileRootSignature('RootFlags(0),\tCBV(b0)'), { code: 'hlsl-syntax' }],
    [
      'floats at the edges print back to the same bits',
      () => roundTrips({ version: 2, flags: 0, parameters: [], staticSamplers: [{ ...sampler(compileRootSignature('StaticSampler(s0)', { version: 2 })), mipLODBias: f32(1.401298464324817e-45), minLOD: -FLT_MAX, maxLOD: f32(4294967296) }, { ...sampler(compileRootSignature('StaticSampler(s1)', { version: 2 })), shaderRegister: 1, mipLODBias: -0, minLOD: f32(-2147483649), maxLOD: f32(1.1754942106924411e-38) }] } as RootSignature),
      (v) => v,
    ],
  ]);
});

// ---------------------------------------------------------------- query buffers and kernels

test('query buffers: outputs, columns, maps, counts', () => {
  const stamps = new Uint8Array(32);
  new BigUint64Array(stamps.buffer).set([1n, 5n, 10n, 30n]);
  const pipe = new Uint8Array(88 * 2).fill(1);
  const occl = new Uint8Array(16).fill(2);
  const outs = () => ({ ticks: new Uint8Array(16), ns: new Uint8Array(16), flags: new Uint8Array(2) });
  table([
    ['out.ticks not 8-byte aligned', () => timestampDurations(stamps, { frequency: 1e9, out: { ...outs(), ticks: new Uint8Array(new ArrayBuffer(17), 1) } }), { code: ['bad-type', 'out-of-range'], path: /^options\.out\.ticks$/ }],
    ['out.ns the same bytes as out.ticks', () => { const o = outs(); return timestampDurations(stamps, { frequency: 1e9, out: { ...o, ns: o.ticks } }); }, { code: 'out-of-range', path: /^options\.out\.ns$/ }],
    ['out.flags inside out.ns', () => { const o = outs(); return timestampDurations(stamps, { frequency: 1e9, out: { ...o, flags: o.ns.subarray(0, 2) } }); }, { code: 'out-of-range', path: /^options\.out\.flags$/ }],
    ['a frequency of 1e-320 Hz (its ns per tick is infinite)', () => timestampDurations(stamps, { frequency: 1e-320 }), { code: 'out-of-range', path: /^frequency$/ }],
    ['one column given for two fields (into)', () => { const c = new BigUint64Array(2); return decodeQueryResults(pipe, 'pipeline-statistics', { into: { IAVertices: c, IAPrimitives: c } }); }, { code: 'out-of-range', path: /^range\.into\.IAPrimitives$/ }],
    ['an into column that is a Float64Array', () => decodeQueryResults(occl, 'occlusion', { into: { Value: new Float64Array(2) as never } }), { code: 'bad-type', path: /^range\.into\.Value$/ }],
    ['an into column that is an array', () => decodeQueryResults(occl, 'occlusion', { into: { Value: [0n, 0n] as never } }), { code: 'bad-type', path: /^range\.into\.Value$/ }],
    ['an into column over the input bytes', () => decodeQueryResults(occl, 'occlusion', { into: { Value: new BigUint64Array(occl.buffer) } }), { code: 'out-of-range', path: /^range\.into\.Value$/ }],
    ['an into column under a name the type has not (value for Value)', () => decodeQueryResults(occl, 'occlusion', { into: { value: new BigUint64Array(2) } }), { code: 'unknown-key', path: /^range\.into\.value$/ }],
    ['encoded columns under a name the type has not (an empty buffer came back)', () => encodeQueryResults('occlusion', { value: [1n, 2n] }), { code: 'unknown-key', path: /^data\.value$/ }],
    ['an encoded record with a key the type has not', () => encodeQueryResults('occlusion', [{ Value: 1n, Valeu: 2n }]), { code: 'unknown-key', path: /^data\[0\]\.Valeu$/ }],
    ['range.offset "8"', () => decodeQueryResults(occl, 'occlusion', { offset: '8' as never }), { code: 'bad-type', path: /^range\.offset$/ }],
    ['range.count "1"', () => decodeQueryResults(occl, 'occlusion', { count: '1' as never }), { code: 'bad-type', path: /^range\.count$/ }],
    ['gather into 2^40 results (8 bytes of map)', () => gatherVirtualQueries(occl, 'occlusion', [], { heads: 0, dstCount: 2 ** 40 }), { code: 'out-of-range', path: /^(options\.)?dstCount$/ }],
    ['a map entry dstIndex -1', () => packQueryMap([{ dstIndex: -1, srcIndex: 0, next: 0xffffffff }]), { code: ['bad-type', 'out-of-range'], path: /^entries\[0\]\.dstIndex$/ }],
    ['a map entry srcIndex 1.5', () => packQueryMap([{ dstIndex: 0, srcIndex: 1.5, next: 0xffffffff }]), { code: ['bad-type', 'out-of-range'], path: /^entries\[0\]\.srcIndex$/ }],
    ['a map entry without next', () => packQueryMap([{ dstIndex: 0, srcIndex: 0 } as never]), { code: 'missing-key', path: /^entries\[0\]\.next$/ }],
    ['a map entry next "1\\n#line" (its message one line)', () => { try { packQueryMap([{ dstIndex: 0, srcIndex: 0, next: '1\n#line' as never }]); } catch (e) { return (e as Error).message; } return ''; }, (m: string) => m !== '' && !m.includes('\n')],
    ['an encoded column that claims 2^40 values', () => encodeQueryResults('occlusion', { Value: { length: 2 ** 40 } as never }), { code: 'bad-type', path: /^data\.Value$/ }],
    ['summarizeDurations of ns in a DataView', () => summarizeDurations({ count: 1, ticks: new BigUint64Array(1), ns: new DataView(new ArrayBuffer(8)) as never, flags: new Uint8Array(1) }), { code: 'bad-type', path: /^durations\.ns$/ }],
    ['the mark durations are right', () => timestampDurations(stamps, { frequency: 1e9, pairs: false }), (d) => d.count === 3 && d.ticks[0] === 4n && d.ticks[1] === 5n && d.ticks[2] === 20n],
  ]);
});

// ---------------------------------------------------------------- SRCI parts

/** An SRCI part of one SourceContents section: its compression, sizes and entry bytes. */
function srci(compressType: number, entries: Uint8Array, uncompressed: number, count: number): Uint8Array {
  const sectionSize = 8 + 20 + entries.byteLength + ((4 - (entries.byteLength % 4)) % 4);
  const out = new Uint8Array(8 + sectionSize);
  const v = new DataView(out.buffer);
  v.setUint32(0, out.byteLength, true);
  v.setUint16(6, 1, true);
  v.setUint32(8, sectionSize, true);
  v.setUint16(14, 0, true);
  v.setUint32(16, 20 + entries.byteLength, true);
  v.setUint16(22, compressType, true);
  v.setUint32(24, entries.byteLength, true);
  v.setUint32(28, uncompressed, true);
  v.setUint32(32, count, true);
  out.set(entries, 36);
  return out;
}
const entry = (text: string) => {
  const body = Buffer.from(`${text}\0`);
  const size = 12 + body.length + ((4 - (body.length % 4)) % 4);
  const e = new Uint8Array(size);
  const v = new DataView(e.buffer);
  v.setUint32(0, size, true);
  v.setUint32(8, body.length, true);
  e.set(body, 12);
  return e;
};

test('SRCI parts and their listing', () => {
  const plain = entry('float4 main() : SV_Target { return 0; }');
  table([
    ['contents compressed by an unknown method (2)', () => decodePart('SRCI', srci(2, plain, plain.byteLength, 1)).sourceInfo!.sections[0], { code: 'bad-token', path: /compressType$/ }],
    ['contents of 0xFFFFFFFF bytes from a few bytes of zlib', () => decodePart('SRCI', srci(1, deflateSync(new Uint8Array(64)), 0xffffffff, 1)), { code: ['limit-exceeded', 'bad-token'] }],
    ['zlib contents as they are', () => decodePart('SRCI', srci(1, deflateSync(plain), plain.byteLength, 1)).sourceInfo!.sections[0]!.contents, (c) => c[0] === 'float4 main() : SV_Target { return 0; }'],
    ['a listing of sources holding ESC and newlines is one line each', () => partLines(decodePart('SRCI', srci(0, entry('a\n#fake \x1b[2J'), 0, 1))), (lines: string[]) => lines.every((l) => !/[\n\r\x1b]/.test(l)) || lines.join('|')],
  ]);
});

// ---------------------------------------------------------------- binding checks

test('binding checks: suggest and verify agree', () => {
  const b = (resType: number, lowerBound: number, upperBound: number, space = 0): ShaderBinding => ({ resType, space, lowerBound, upperBound }) as ShaderBinding;
  const fits = (bindings: ShaderBinding[]) => () => {
    const rs = suggestRootSignature([{ stage: 0, bindings }]);
    return verifyBindings(0, bindings, rs).verdict;
  };
  table([
    ['featureInfo1 -1 for suggest (verify refuses it)', () => suggestRootSignature([{ stage: 0, bindings: [], features: { featureInfo1: -1, featureInfo2: 0 } }]), { code: ['bad-type', 'out-of-range'], path: /^shaders\[0\]\.features\.featureInfo1$/ }],
    ['featureInfo1 2^32 + 2^24 for suggest', () => suggestRootSignature([{ stage: 0, bindings: [], features: { featureInfo1: 2 ** 32 + 2 ** 24, featureInfo2: 0 } }]), { code: ['bad-type', 'out-of-range'], path: /^shaders\[0\]\.features\.featureInfo1$/ }],
    ['featureInfo1 1.5 for suggest', () => suggestRootSignature([{ stage: 0, bindings: [], features: { featureInfo1: 1.5, featureInfo2: 0 } }]), { code: ['bad-type', 'out-of-range'], path: /^shaders\[0\]\.features\.featureInfo1$/ }],
    ['a first register above the last, and one at the top of its space', fits([b(2, 5, 2), b(2, 0xffffffff, 0xffffffff, 1), b(3, 0, 0xfffffffe)]), (v) => v === 'fits'],
  ]);
});

// ---------------------------------------------------------------- the inspector's describers

test('inspect: windows and rows', () => {
  const stamps = new Uint8Array(32);
  new BigUint64Array(stamps.buffer).set([1n, 5n, 10n, 30n]);
  const map = byteMap(stamps, { format: 'query', type: 'timestamp' });
  table([
    ['a query map window from NaN', () => byteMap(stamps, { format: 'query', type: 'timestamp', window: { from: NaN, to: 32 } }), { code: 'bad-type', path: /^options\.window\.from$/ }],
    ['a query map window that ends before it starts', () => byteMap(stamps, { format: 'query', type: 'timestamp', window: { from: 16, to: 8 } }), { code: 'out-of-range', path: /^options\.window/ }],
    ['hexDump from 1.5', () => hexDump(stamps, map, { from: 1.5 }), { code: 'bad-type', path: /^options\.from$/ }],
    ['hexDump to "16"', () => hexDump(stamps, map, { to: '16' as never }), { code: 'bad-type', path: /^options\.to$/ }],
    ['hexDump from past to', () => hexDump(stamps, map, { from: 24, to: 8 }), { code: 'out-of-range', path: /^options\.(from|to)$/ }],
    ['a histogram of 1e9 bars from 32 bytes', () => timingPicture(stamps, { frequency: 1e9, bins: 1e9 }), { code: 'out-of-range', path: /^options\.bins$/ }],
    ['a histogram of NaN bars', () => timingPicture(stamps, { frequency: 1e9, bins: NaN }), { code: ['bad-type', 'out-of-range'], path: /^options\.bins$/ }],
    ['a timeline NaN pixels wide', () => timingPicture(stamps, { frequency: 1e9, width: NaN }), { code: ['bad-type', 'out-of-range'], path: /^options\.width$/ }],
  ]);
});

// ---------------------------------------------------------------- the CLI

const dir = mkdtempSync(join(tmpdir(), 'dxbin-round3-'));
async function cli(args: string[]) {
  const streams = captureStreams();
  const status = await run(args, streams);
  return { status, stdout: streams.stdout(), stderr: streams.stderr() };
}

test('the CLI: messages of one line whatever the source holds', async () => {
  const broke: string[] = [];
  const check = async (name: string, args: string[], status: number, lines = 1) => {
    const r = await cli(args);
    const err = r.stderr.trimEnd();
    if (r.status !== status) broke.push(`${name}: exit ${r.status}, not ${status}: ${err}`);
    else if (/\x1b|TypeError|RangeError|\n\s+at /.test(err)) broke.push(`${name}: ${JSON.stringify(err)}`);
    else if (err.split('\n').length !== lines) broke.push(`${name}: ${err.split('\n').length} lines: ${JSON.stringify(err)}`);
  };
  const put = (n: string, text: string) => {
    const p = join(dir, n);
    writeFileSync(p, text);
    return p;
  };
  await check('#error with a comment over two lines', ['rootsig', 'compile', '--file', put('e.hlsl', '#error a /*\n#fake*/ b\n'), '--define', 'RS', '--to', '1.1', '-o', join(dir, 'e.bin')], 1);
  await check('#warning with a raw ESC', ['rootsig', 'preprocess', '--file', put('w.hlsl', '#warning \x1b[2J gone\nint x;\n'), '-o', join(dir, 'w.txt')], 0);
  await check('#pragma message with a raw ESC', ['rootsig', 'preprocess', '--file', put('m.hlsl', '#pragma message("\x1b[31mred")\nint x;\n'), '-o', join(dir, 'm.txt')], 0);
  await check('a newline in a root signature argument', ['rootsig', 'compile', 'CBV(b0),\nCBV(b1)', '--to', '1.1', '-o', join(dir, 'n.bin')], 1);
  assert.equal(broke, [], broke.join('\n'));
});

test.run();
