/**
 * The HLSL preprocessor (src/root-signature/hlsl/preprocessor/) case by case: the branch taken,
 * macros, #if arithmetic as clang evaluates it, includes through a virtual tree, errors in clang's
 * words at file:line:column, budgets. The differential test against GNU cpp is
 * preprocessor-cpp.test.ts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { HlslError, HlslFile, compileRootSignatureBlob, decodeHlslSource, virtualHost, type VirtualEntry } from '../src/index.js';
import { HLSL_PREDEFINES, profileMacros } from '../codecs/hlsl-preprocessor.js';
import { ROOT } from './helpers/corpus.js';

const rs = (text: string, defines: Record<string, string> = {}, name = 'RS') => new HlslFile(text, 'a.hlsl', defines).defineText(name).text;
const tree = (files: Record<string, VirtualEntry>, main: string, options: { includeDirs?: string[]; defines?: ['D' | 'U', string][] } = {}) =>
  new HlslFile(String(files[main]), main, {}, {}, { host: virtualHost(files), ...options });
const fails = (f: () => unknown, where: string, words: RegExp, code = 'hlsl-preprocess') =>
  assert.throws(f, (e: unknown) => e instanceof HlslError && e.code === code && e.path === where && words.test(e.message), `${where} ${words}`);

const BRANCHES = '#ifdef A\n#define RS "CBV(b0)"\n#else\n#define RS "CBV(b1)"\n#endif\n';

test("the issue's example: -D A takes the #ifdef branch, without it the #else", () => {
  assert.is(rs(BRANCHES, { A: '1' }), 'CBV(b0)');
  assert.is(rs(BRANCHES), 'CBV(b1)');
  const f = (d: ['D' | 'U', string][]) => new HlslFile(BRANCHES, 'a.hlsl', {}, {}, { defines: d }).defineText('RS').text;
  assert.is(f([['D', 'A'], ['U', 'A']]), 'CBV(b1)', '-D then -U: undefined');
  assert.is(f([['U', 'A'], ['D', 'A']]), 'CBV(b0)', '-U then -D: defined');
});

test('nested conditionals: skipped groups count only for nesting, their directives do nothing', () => {
  const text = ['#if 0', '#if 1', '#define RS "SRV(t0)"', '#else', '#error never', '#endif', '#elif 1', '#ifndef B', '#define RS "CBV(b2)"', '#endif', '#else', '#define RS "UAV(u0)"', '#endif', ''].join('\n');
  assert.is(rs(text), 'CBV(b2)');
  assert.throws(() => rs(text, { B: '' }), (e: unknown) => e instanceof HlslError && e.code === 'hlsl-missing', 'B defined: RS never defined');
  assert.is(rs('#if 0\n#bogus directive\n#include <nowhere>\n#endif\n#define RS "CBV(b0)"\n'), 'CBV(b0)', 'unknown directives and includes in skipped groups are ignored');
  assert.is(rs('#if 1\n#elif 1/0\n#endif\n#define RS "CBV(b0)"\n'), 'CBV(b0)', 'an #elif after a taken group is not evaluated');
});

test('#if arithmetic: precedence, unsigned conversion, 64 bits, short-circuit, defined, true', () => {
  const pick = (cond: string) => rs(`#if ${cond}\n#define RS "CBV(b1)"\n#else\n#define RS "CBV(b0)"\n#endif\n`);
  const cases: [string, boolean][] = [
    ['1 + 2 * 3 == 7', true],
    ['(1 + 2) * 3 == 9', true],
    ['-1 < 0', true],
    ['-1 < 0u', false], // -1 becomes UINTMAX_MAX
    ['0xffffffffffffffff == -1', true], // the literal is unsigned; -1 converts
    ['9223372036854775807 + 1 < 0', true], // signed wrap in 64 bits
    ['1 << 63 < 0', true],
    ['(1u << 63) > 0', true],
    ['-7 / 2 == -3 && -7 % 2 == -1', true],
    ['0 && 1 / 0', false], // the right side is not evaluated: no division by zero
    ['1 || 1 / 0', true],
    ['1 ? 2 : 1 / 0', true],
    ['defined A || defined(B)', false],
    ['!defined UNDEFINED_MACRO', true],
    ['UNDEFINED_IDENTIFIER == 0', true],
    ['true && !false', true], // HLSL (C++): true and false are 1 and 0 in #if
    ["'A' == 65 && '\\n' == 10", true],
    ['~0 == -1 && (5 ^ 3) == 6 && (5 | 2) == 7 && (5 & 4) == 4', true],
    ['(2, 0)', false],
    ['__HLSL_VERSION >= 2021 && __hlsl_dx_compiler', true],
  ];
  for (const [cond, taken] of cases) assert.is(pick(cond), taken ? 'CBV(b1)' : 'CBV(b0)', cond);
});

test('#if errors at file:line:column in clang words', () => {
  fails(() => rs('\n#if 1 / 0\n#endif\n'), 'a.hlsl:2:7', /division by zero in preprocessor expression/);
  fails(() => rs('#if (1\n#endif\n'), 'a.hlsl:1:5', /expected '\)' in preprocessor expression/);
  // nothing to read: at the directive's end (clang's eod token), where cpp says too (cpp -P: 1:4, 1:7, 1:12, 1:8, 2:8, 2:6, 2:1)
  fails(() => rs('#if\n#endif\n'), 'a.hlsl:1:4', /#if with no expression/);
  fails(() => rs('#if   \n#endif\n'), 'a.hlsl:1:7', /#if with no expression/);
  fails(() => rs('#if /* c */\n#endif\n'), 'a.hlsl:1:12', /#if with no expression/);
  fails(() => rs('  #  if\r\n#endif\r\n'), 'a.hlsl:1:8', /#if with no expression/);
  fails(() => rs('#if 0\n#elif  \n#endif\n'), 'a.hlsl:2:8', /#elif with no expression/);
  fails(() => rs('#define E\n#if E\n#endif\n'), 'a.hlsl:2:6', /expected value in expression/);
  fails(() => rs('#if \\\n\n#endif\n'), 'a.hlsl:2:1', /#if with no expression/);
  fails(() => rs('#if 1 2\n#endif\n'), 'a.hlsl:1:7', /token is not a valid binary operator/);
  fails(() => rs('#if 1.5\n#endif\n'), 'a.hlsl:1:5', /floating point literal in preprocessor expression/);
  fails(() => rs('#if 08\n#endif\n'), 'a.hlsl:1:5', /invalid digit '8' in octal constant/);
  fails(() => rs('#if 1\n'), 'a.hlsl:1:1', /unterminated conditional directive/);
  fails(() => rs('#endif\n'), 'a.hlsl:1:2', /#endif without #if/);
  fails(() => rs('#if 1\n#else\n#else\n#endif\n'), 'a.hlsl:3:2', /#else after #else/);
  fails(() => rs('#if 1\n#else\n#elif 1\n#endif\n'), 'a.hlsl:3:2', /#elif after #else/);
  fails(() => rs('#define A\n#error  stop: A is "defined"  \n'), 'a.hlsl:2:2', /^a\.hlsl:2:2: error: stop: A is "defined"$/);
  fails(() => rs('#frobnicate\n'), 'a.hlsl:1:2', /invalid preprocessing directive/);
  // the directive table is looked up by own names only: Object.prototype's are no directives
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) fails(() => rs(`#${name}\n`), 'a.hlsl:1:2', /invalid preprocessing directive/);
  fails(() => rs('/* never closed\n#define RS "CBV(b0)"\n'), 'a.hlsl:1:1', /unterminated \/\* comment/);
});

test('macros: function-like, # and ##, __VA_ARGS__, rescanning, no recursion into itself', () => {
  assert.is(rs('#define STR(x) #x\n#define XSTR(x) STR(x)\n#define REG b3\n#define RS XSTR(CBV(REG))\n'), 'CBV(b3)');
  assert.is(rs('#define STR(x) #x\n#define REG b3\n#define RS STR(CBV(REG))\n'), 'CBV(REG)', '# does not expand its argument');
  assert.is(rs('#define CAT(a, b) a##b\n#define S(x) #x\n#define XS(x) S(x)\n#define X(r, n) XS(CBV(CAT(r, n)))\n#define RS X(b, 4)\n'), 'CBV(b4)');
  assert.is(rs('#define CAT(a, b) a##b\n#define S(x) #x\n#define X(r, n) S(CBV(CAT(r, n)))\n#define RS X(b, 4)\n'), 'CBV(CAT(b, 4))', 'an argument of # is not expanded');
  assert.is(rs('#define LIST(...) __VA_ARGS__\n#define RS LIST("CBV(b0)", "SRV(t1)")\n'), 'CBV(b0), SRV(t1)');
  assert.is(rs('#define G(fmt, ...) fmt , ## __VA_ARGS__\n#define RS G("CBV(b0)")\n'), 'CBV(b0)', 'GNU comma elision');
  assert.is(rs('#define RS RS "CBV(b0)"\n'), 'RS CBV(b0)', 'a macro does not expand inside itself');
  assert.is(rs('#define f(x) x g\n#define g f\n#define RS f(1)(2)\n'), '1 f(2)', 'painted blue: f inside its own rescan stays f');
  assert.is(rs('#define RS "CBV(" "b0)" \\\n  ", SRV(t0)"\n'), 'CBV(b0), SRV(t0)', 'continuation and adjacent literals');
  assert.is(rs('#define A "CBV(b0)"\n#undef A\n#define A "CBV(b5)"\n#define RS A\n'), 'CBV(b5)', 'the macro as it stands at the end of the file');
  fails(() => rs('#define F(a) #b\n'), 'a.hlsl:1:14', /'#' is not followed by a macro parameter/);
  fails(() => rs('#define F(a) ## a\n'), 'a.hlsl:1:14', /'##' cannot appear at either end/);
  fails(() => rs('#define F(a, b) a\n#define RS F(1)\n').toString(), 'a.hlsl:2:15', /too few arguments provided to function-like macro invocation/);
  fails(() => rs('#define F(a) a\n#define RS F(1, 2)\n'), 'a.hlsl:2:15', /too many arguments provided/);
  fails(() => rs('#define CAT(a, b) a##b\n#define RS CAT(+, /)\n'), 'a.hlsl:1:20', /pasting formed '\+\/', an invalid preprocessing token/);
});

test('comments, strings and continuations hide directives; #line, __LINE__ and __FILE__', () => {
  assert.is(rs('// #define RS "CBV(b9)"\n/*\n#define RS "CBV(b8)"\n*/\n#define RS "CBV(b0) // not a comment"\n'), 'CBV(b0) // not a comment');
  assert.is(rs('#define X 1 \\\n#define RS "CBV(b7)"\n#ifndef RS\n#define RS "CBV(b1)"\n#endif\n'), 'CBV(b1)', 'a continued line is one directive');
  assert.is(rs('/* a */ # /* b */ define RS "CBV(b0)"\n'), 'CBV(b0)', 'comments before # are whitespace');
  assert.is(new HlslFile('#line 40 "other.hlsl"\n#if __LINE__ == 40\n__FILE__ __LINE__\n#endif\n', 'a.hlsl').preprocessedText(), '#line 41 "other.hlsl"\n"other.hlsl" 41\n', "cpp: # 40 \"other.hlsl\", the line of __FILE__ presumed 41");
  assert.is(rs('\n\n#if __LINE__ == 3 && defined(__LINE__)\n#define RS "CBV(b3)"\n#endif\n'), 'CBV(b3)');
});

test("an escape C does not have warns as clang does (\"unknown escape sequence '\\q'\", at its backslash) and is its character; a bad one is an error", () => {
  const warned = (text: string) => new HlslFile(text, 'a.hlsl').warnings.map((w) => `${w.location.file}:${w.location.line}:${w.location.column} ${w.message}`);
  assert.equal(warned("#if '\\q' == 'q'\n#define RS \"CBV(b0)\"\n#endif\n"), ["a.hlsl:1:6 unknown escape sequence '\\q'"]);
  assert.is(rs("#if '\\q' == 'q'\n#define RS \"CBV(b0)\"\n#endif\n"), 'CBV(b0)', 'the character itself');
  assert.equal(warned('#line 3 "a\\qb.h"\n#warning after\n'), ["a.hlsl:1:11 unknown escape sequence '\\q'", "aqb.h:3:2 after"], 'a #line name: the warning, then the name without the backslash');
  assert.equal(warned("#define Q '\\q'\n#if Q\n#endif\n"), ["a.hlsl:1:12 unknown escape sequence '\\q'"], 'from a macro: where the literal is spelled');
  assert.equal(warned("#if '\\(' == '(' && '\\e' == 27 && '\\u0041' == 65 && '\\?' == 63\n#define RS \"CBV(b0)\"\n#endif\n"), [], "GNU's \\( (pedantic only), \\e, \\u and the simple escapes say nothing");
  assert.is(rs("#if '\\e' == 27 && '\\E' == 27\n#define RS \"CBV(b0)\"\n#endif\n"), 'CBV(b0)', "'\\e' is ESC (GNU), as clang and cpp read it");
  fails(() => rs("#if '\\x' == 0\n#endif\n"), 'a.hlsl:1:6', /\\x used with no following hex digits/);
  // GNU cpp's value (its UTF-8 bytes, a multi-character constant: test/preprocessor-round6.test.ts), not clang's "character too large"
  assert.equal(warned("#if '\\u00e9' == 0xC3A9\n#endif\n"), ['a.hlsl:1:5 multi-character character constant']);
  fails(() => rs("#if '\\u12'\n#endif\n"), 'a.hlsl:1:6', /incomplete universal character name/);
});

test('includes: only in taken groups, next to the includer then -I, #pragma once and guards, every file read once by its real path', () => {
  const files = {
    'src/main.hlsl': '#if 0\n#include "missing.h"\n#endif\n// #include "also-missing.h"\n#include "rs.hlsli"\n#include <common.hlsli>\n#include "rs.hlsli"\n#define RS RS_TEXT ", " COMMON\n',
    'src/rs.hlsli': '#pragma once\n#define RS_TEXT "CBV(b0)"\n',
    'inc/common.hlsli': '#ifndef COMMON_H\n#define COMMON_H\n#define COMMON "SRV(t0)"\n#endif\n',
  };
  const f = tree(files, 'src/main.hlsl', { includeDirs: ['inc'] });
  assert.is(f.defineText('RS').text, 'CBV(b0), SRV(t0)');
  assert.equal(f.files, ['src/main.hlsl', 'src/rs.hlsli', 'inc/common.hlsli'], 'only the files actually included');
  // a folder link loop (a -> .): every a/a/... spelling is the same real file, read once
  const loop = tree({ 'm.hlsl': '#include "a/a/a/a/h.h"\n#include "a/h.h"\n#define RS X\n', a: { link: '.' }, 'h.h': '#pragma once\n#define X "CBV(b1)"\n' }, 'm.hlsl');
  assert.is(loop.defineText('RS').text, 'CBV(b1)');
  assert.equal(loop.files, ['m.hlsl', 'a/a/a/a/h.h']);
  fails(() => tree({ 'm.hlsl': '#include "h.h"\n', 'h.h': '#include "h.h"\n' }, 'm.hlsl').defineText('RS'), 'h.h:1:2', /#include nested too deeply/);
  fails(() => tree({ 'm.hlsl': '\n  #include <h.h>\n' }, 'm.hlsl').defineText('RS'), 'm.hlsl:2:12', /'h.h' file not found/);
  fails(() => tree({ 'm.hlsl': '#include "d"\n', 'd/x': '' }, 'm.hlsl').defineText('RS'), 'm.hlsl:1:10', /not a regular file/);
  // a diamond of 24 unguarded headers re-includes exponentially: the work budget stops it (each inclusion opens a file again)
  const diamond: Record<string, VirtualEntry> = { 'm.hlsl': '#include "h0.h"\n' };
  for (let i = 0; i < 24; i++) diamond[`h${i}.h`] = `#include "h${i + 1}.h"\n#include "h${i + 1}.h"\n`;
  diamond['h24.h'] = 'x\n';
  assert.throws(() => tree(diamond, 'm.hlsl').defineText('RS'), (e: unknown) => e instanceof HlslError && e.code === 'limit-exceeded' && (e.limit?.kind === 'scan' || e.limit?.kind === 'files') && /^h\d+\.h:\d+:\d+: error: more than max(ScanBytes|Files) = \d+ /.test(e.message));
});

test('the entry attribute is read from the preprocessed text: macros expanded, untaken attributes unseen', () => {
  const text = '#define MAIN_RS "CBV(b0), " EXTRA\n#ifdef BINDLESS\n#define EXTRA "DescriptorTable(SRV(t0, numDescriptors=unbounded))"\n#else\n#define EXTRA "SRV(t0)"\n#endif\n#if 0\n[RootSignature("CBV(b9)")]\n#endif\n[RootSignature(MAIN_RS)]\n[numthreads(8, 8, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {}\n';
  assert.is(new HlslFile(text, 'cs.hlsl').entryText('main').text, 'CBV(b0), SRV(t0)');
  assert.is(new HlslFile(text, 'cs.hlsl', { BINDLESS: '1' }).entryText('main').text, 'CBV(b0), DescriptorTable(SRV(t0, numDescriptors=unbounded))');
  const loc = () => compileRootSignatureBlob(new HlslFile('#define X "CBV(t0)"\n[RootSignature(X)]\nvoid main() {}\n', 'cs.hlsl').entryText('main'));
  fails(loc, 'cs.hlsl:1:16', /Incorrect register type 't0' in CBV/, 'hlsl-syntax');
});

test('sources as DXC reads them: UTF-8 with or without BOM, UTF-16 LE/BE with BOM, CRLF', () => {
  const text = '#ifdef A\r\n#define RS "CBV(b0)"\r\n#else\r\n#define RS "CBV(b1)"\r\n#endif\r\n';
  const le = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
  const be = new Uint8Array([0xfe, 0xff, ...[...text].flatMap((c) => [0, c.charCodeAt(0)])]);
  const bom8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
  for (const bytes of [le, be, bom8, new TextEncoder().encode(text)]) {
    const decoded = decodeHlslSource(bytes);
    assert.is(new HlslFile(decoded, 'a.hlsl', { A: '1' }).defineText('RS').text, 'CBV(b0)');
  }
});

test("DXC's predefined macros are there; the profile sets the shader target; warnings for #warning and unknown pragmas", () => {
  for (const row of HLSL_PREDEFINES) assert.ok(new HlslFile(`#ifndef ${row.name}\n#error missing\n#endif\n`, 'a.hlsl').preprocessedText() !== undefined, row.name);
  const stage = (profile: string) => new HlslFile('#define RS __SHADER_TARGET_STAGE __SHADER_TARGET_MAJOR __SHADER_TARGET_MINOR\n', 'a.hlsl', {}, {}, { profile }).defineText('RS').text;
  assert.is(stage('vs_6_6'), '1 6 6');
  assert.is(stage('lib_6_3'), '6 6 3');
  assert.is(stage('rootsig_1_1'), `${profileMacros('rootsig_1_1')![0]!.value} 0 0`);
  const f = new HlslFile('#warning check this\n#pragma pack_matrix(row_major)\n#pragma frobnicate\n#define RS "CBV(b0)"\n', 'a.hlsl');
  assert.is(f.defineText('RS').text, 'CBV(b0)');
  assert.equal(f.warnings.map((w) => `${w.location.line}:${w.location.column} ${w.message}`), ['1:2 check this', '3:9 unknown pragma ignored']);
  const g = new HlslFile('#pragma constructor\n#pragma __proto__\n#define RS "CBV(b0)"\n', 'a.hlsl');
  assert.is(g.defineText('RS').text, 'CBV(b0)');
  assert.equal(g.warnings.map((w) => `${w.location.line}:${w.location.column} ${w.message}`), ['1:9 unknown pragma ignored', '2:9 unknown pragma ignored']);
});

test('preprocessed text as dxc -P writes it: #line markers, taken lines only', () => {
  const files = { 'm.hlsl': '#include "h.h"\n#if 0\nhidden\n#endif\nfloat4 x = ONE;\n', 'h.h': '#define ONE 1.0\nint y;\n' };
  assert.is(tree(files, 'm.hlsl').preprocessedText(), '#line 2 "h.h"\nint y;\n#line 5 "m.hlsl"\nfloat4 x = 1.0;\n');
});

test('budgets: a macro bomb and a deep argument nest are typed limits, linear inputs are not', () => {
  let bomb = '#define A0 "x"\n';
  for (let i = 1; i < 40; i++) bomb += `#define A${i} A${i - 1} A${i - 1}\n`;
  bomb += '#define RS A39\n';
  assert.throws(() => rs(bomb), (e: unknown) => e instanceof HlslError && e.code === 'limit-exceeded' && e.limit?.kind === 'produce' && /^a\.hlsl:\d+:\d+: error: more than maxProducedChars = \d+ characters \(produce: /.test(e.message));
  const deep = `#define F(x) x\n#define RS ${'F('.repeat(2000)}"CBV(b0)"${')'.repeat(2000)}\n`;
  assert.throws(() => rs(deep), (e: unknown) => e instanceof HlslError && e.code === 'limit-exceeded', 'each level re-reads the arguments inside it: the scan budget or the depth stops it');
  // the old names still raise the kinds they stand for: maxExpansionTokens the produced and scanned budgets;
  // argument pre-expansion runs on an explicit stack, so the depth limit is met at its own level (the
  // 1000th F, column 12 + 2 * 999), never where the JS stack happens to end
  assert.throws(() => new HlslFile(deep, 'a.hlsl', {}, { maxExpansionTokens: 1e9 }).defineText('RS'), (e: unknown) => e instanceof HlslError && e.code === 'limit-exceeded' && e.limit?.kind === 'depth' && e.path === 'a.hlsl:2:2010' && /maxDepth = 1000 levels/.test(e.message));
  assert.throws(() => new HlslFile(deep, 'a.hlsl', {}, { maxScanBytes: 1e9, maxDepth: 300 }).defineText('RS'), (e: unknown) => e instanceof HlslError && e.limit?.kind === 'depth' && /maxDepth = 300 levels/.test(e.message));
  assert.throws(() => new HlslFile(deep, 'a.hlsl', {}, { maxExpansionTokens: 1e9, maxExpansionDepth: 500 }).defineText('RS'), (e: unknown) => e instanceof HlslError && /maxDepth = 500 levels/.test(e.message));
  assert.is(rs(`#define F(x) x\n#define RS ${'F('.repeat(200)}"CBV(b0)"${')'.repeat(200)}\n`), 'CBV(b0)');
  // #if expressions are evaluated on explicit stacks: nesting costs no recursion (GNU cpp takes these too)
  const parens = `#if ${'('.repeat(5000)}1${')'.repeat(5000)}\n#define RS "CBV(b5)"\n#endif\n`;
  assert.is(rs(parens), 'CBV(b5)');
  const long = `${'#define X 1\n'.repeat(20000)}#define RS "CBV(b0)"\n`;
  assert.is(rs(long), 'CBV(b0)');
});

/** `#define F(x) x` and RS as `levels` nested calls of F around "CBV(b0)". */
const nest = (levels: number) => `#define F(x) x\n#define RS ${'F('.repeat(levels)}"CBV(b0)"${')'.repeat(levels)}\n`;
/** RS's text, or the error's code, kind, place and message (the child process below prints the same). */
function nestVerdict(text: string, limits: object): string {
  try {
    return new HlslFile(text, 'a.hlsl', {}, limits).defineText('RS').text;
  } catch (e) {
    if (!(e instanceof HlslError)) throw e;
    return [e.code, e.limit?.kind, e.path, e.message].join(' | ');
  }
}

test('argument pre-expansion has no JS recursion: a 10,000-deep nest expands under a maxDepth above it, and stops at the limit met', () => {
  // each level re-reads the argument inside it (about 4 * levels characters): the scan budget raised with the depth
  assert.is(new HlslFile(nest(10000), 'a.hlsl', {}, { maxScanBytes: 1e12, maxDepth: 20000 }).defineText('RS').text, 'CBV(b0)');
  assert.is(nestVerdict(nest(10000), { maxScanBytes: 1e12, maxDepth: 10001 }), 'CBV(b0)', 'one below the limit');
  assert.is(nestVerdict(nest(10000), { maxScanBytes: 1e12, maxDepth: 10000 }), 'limit-exceeded | depth | a.hlsl:2:20010 | a.hlsl:2:20010: error: more than maxDepth = 10000 levels (depth: see docs/limits.md)', 'at the limit: the 10,000th F');
  // calls in the text (no hide set): the level past the limit is the one refused, at the call whose argument it is
  const text = (levels: number) => `#define F(x) x\n${'F('.repeat(levels)}1${')'.repeat(levels)}\n`;
  assert.is(new HlslFile(text(1000), 'a.hlsl', {}, { maxScanBytes: 1e9 }).preprocessedText(), '#line 2 "a.hlsl"\n1\n');
  assert.throws(() => new HlslFile(text(1001), 'a.hlsl', {}, { maxScanBytes: 1e9 }).preprocessedText(), (e: unknown) => e instanceof HlslError && e.limit?.kind === 'depth' && e.path === 'a.hlsl:2:2001');
});

test('the depth verdict does not depend on the JIT or the stack: node --jitless --stack-size=200 says what this process says', () => {
  const limits = { maxScanBytes: 1e9 };
  const here = [nestVerdict(nest(999), limits), nestVerdict(nest(1000), limits)];
  assert.equal(here, ['CBV(b0)', 'limit-exceeded | depth | a.hlsl:2:2010 | a.hlsl:2:2010: error: more than maxDepth = 1000 levels (depth: see docs/limits.md)'], 'the default maxDepth 1000: 999 levels expand, 1000 are refused at the 1000th F');
  // interpreted frames on a stack a fifth of the default's: a recursion per level would end near 200 levels
  const script = `import { HlslError, HlslFile } from './src/index.ts';
const nest = (levels) => '#define F(x) x\\n#define RS ' + 'F('.repeat(levels) + '"CBV(b0)"' + ')'.repeat(levels) + '\\n';
const verdict = (text) => { try { return new HlslFile(text, 'a.hlsl', {}, ${JSON.stringify(limits)}).defineText('RS').text; } catch (e) { if (!(e instanceof HlslError)) throw e; return [e.code, e.limit?.kind, e.path, e.message].join(' | '); } };
process.stdout.write(JSON.stringify([verdict(nest(999)), verdict(nest(1000))]));`;
  const out = execFileSync(process.execPath, ['--jitless', '--stack-size=200', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(JSON.parse(out), here);
});

test.run();
