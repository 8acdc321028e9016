/**
 * The preprocessor against GNU cpp, round 6: pragma lines in the preprocessed text (cpp passes on
 * the `#pragma` lines it does not act on and writes `_Pragma("...")` operators as such lines; it
 * drops `once`, `push_macro`/`pop_macro` and `GCC system_header`/`poison`/`warning`/`error`),
 * the values of character literals in `#if`, and the unknown-escape warning of root signature
 * strings, `#pragma GCC poison` enforced as cpp does (push_macro/pop_macro of a poisoned name too);
 * `_Pragma` as cpp 12 runs it: its line when a macro call spread over lines makes it, its operands
 * split by a directive line, `u`/`U`/`u8` strings (cpp and clang differ) refused, its messages in its own buffer;
 * `#pragma GCC system_header` silencing the rest of a header. Every case runs cpp (`-undef
 * -nostdinc`, with linemarkers) and compares; skipped (`skipped: reason`) without cpp.
 */
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { join } from 'node:path';
import { test } from 'uvu';
import { HlslError, HlslFile, fileSystemHost } from '../src/index.js';
import { builtCli } from './helpers/built-cli.js';
import { markedTokens } from './helpers/line-markers.js';
import { missingCommand, requires } from './helpers/requires.js';
import { caseFolders } from './helpers/case-folders.js';

const t = requires('GNU cpp', missingCommand('cpp'));
const folders = caseFolders('dxbin-round6-');
const { work, write } = folders;

/** The pragma rows of preprocessed text as `file:line text`, the file and line from its markers (cpp's `# N "f"` or dxbin's `#line N "f"`). */
function pragmaRows(text: string): string[] {
  const out: string[] = [];
  let file = '';
  let line = 1;
  for (const row of text.split('\n')) {
    const m = /^#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"/.exec(row);
    if (m) {
      line = Number(m[1]);
      file = m[2]!.replace(/\\(.)/g, '$1');
      continue;
    }
    if (row.startsWith('#pragma')) out.push(`${file}:${line} ${row}`);
    line++;
  }
  return out;
}

interface Seen {
  pragmas: string[];
  tokens: string[];
  diagnostics: string[];
}

function cpp(dir: string, main: string): Seen {
  const r = spawnSync('cpp', ['-undef', '-nostdinc', main], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const strip = (s: string) => s.split(`${dir}/`).join('');
  const diagnostics = [...r.stderr.matchAll(/^(.*?):(\d+):(\d+): (warning|error|fatal error): (.*?)(?: \[-W[\w-]+\])?$/gm)].map((m) => `${strip(m[1]!)}:${m[2]}:${m[3]} ${m[4] === 'warning' ? 'warning' : 'error'}: ${m[5]}`);
  const firstError = diagnostics.findIndex((d) => / error: /.test(d));
  return { pragmas: pragmaRows(r.stdout).map(strip), tokens: markedTokens(r.stdout).map(strip), diagnostics: firstError < 0 ? diagnostics : [diagnostics[firstError]!] };
}

/** dxbin's, its warnings less the ones DXC gives and cpp does not (`ours`: unknown pragmas, `#pragma message`). */
function dxbin(dir: string, main: string, ours: (message: string) => boolean): Seen {
  const strip = (s: string) => s.split(`${dir}/`).join('');
  const f = new HlslFile(fs.readFileSync(main, 'utf8'), main, {}, {}, { host: fileSystemHost({ fs, path }), predefines: false });
  try {
    const text = f.preprocessedText();
    const diagnostics = f.warnings.filter((w) => !ours(w.message)).map((w) => `${strip(w.location.file)}:${w.location.line}:${w.location.column} warning: ${w.message}`);
    return { pragmas: pragmaRows(text).map(strip), tokens: markedTokens(text).map(strip), diagnostics };
  } catch (e) {
    if (!(e instanceof HlslError)) throw e;
    return { pragmas: [], tokens: [], diagnostics: [`${strip(e.path ?? '')} error: ${e.detail}`] };
  }
}

const DXC_ONLY = (extra: string[] = []) => (m: string) => m === 'unknown pragma ignored' || extra.includes(m);

/** cpp and dxbin agree on the pragma rows, the other tokens and the diagnostics; cpp's result back. */
function agree(files: Record<string, string>, ours = DXC_ONLY()): Seen {
  const { dir, main } = write(files);
  const want = cpp(dir, main);
  const got = dxbin(dir, main, ours);
  assert.equal(got.diagnostics, want.diagnostics, 'the same diagnostics at the same places');
  if (!want.diagnostics.some((d) => / error: /.test(d))) {
    assert.equal(got.pragmas, want.pragmas, 'the same pragma lines on the same lines');
    assert.equal(got.tokens, want.tokens, 'the same (file, line, token) list');
  }
  return want;
}

t('unknown #pragma lines and #pragma GCC/STDC/clang/dxc lines pass on in cpp spelling at their lines; once and push/pop_macro do not', () => {
  const want = agree(
    {
      'main.hlsl':
        'int a;\n#pragma foo bar  baz\n#define X 1\n#pragma push_macro("X")\n#undef X\n#pragma pop_macro("X")\nX\n#pragma GCC diagnostic push\n#pragma STDC FP_CONTRACT ON\n' +
        '#pragma pack_matrix(row_major)\n#pragma   foo   /* c */ x   // d\n  #  pragma indent\n#pragma\n#pragma X Y\n#pragma foo a/**/b +/**/+ x\\\ny "s"  \'c\' x"s"\n#pragma warning(disable: 1234)\n#include "h.h"\nint end;\n',
      'h.h': '#pragma once\nint h;\n#pragma region in h\n#pragma GCC system_header\n#pragma GCC poison P\n#pragma GCC dependency "h.h"\nint h2;\n',
    },
    DXC_ONLY(),
  );
  assert.ok(want.pragmas.length >= 10, 'cpp passed pragmas on');
  assert.ok(want.pragmas.includes('main.hlsl:14 #pragma X Y'), 'not macro-expanded');
});

t('#pragma message: passed on with its operands macro-expanded, as cpp writes it (DXC warns too)', () => {
  agree({ 'main.hlsl': '#define M "m"\n#define D -\n#pragma message("hi")\n#pragma message "hi2"\n#pragma message(M)\n#pragma message(D-)\nint x;\n' }, DXC_ONLY(['hi', 'hi2', 'm', '']));
});

t('#pragma once, #pragma push_macro with extra tokens, GCC system_header in the main file, GCC warning: cpp\'s warnings', () => {
  agree({ 'main.hlsl': '#pragma once extra\n#define M 1\n#pragma push_macro("M") extra\n#pragma GCC system_header x\n#pragma GCC warning "w"\nint x;\n' });
  agree({ 'main.hlsl': 'int x;\n#pragma GCC error "stop here"\nint y;\n' });
  agree({ 'main.hlsl': 'int x;\n#pragma GCC warning\n' });
  agree({ 'main.hlsl': 'int x;\n#pragma GCC error foo\n' });
});

t('_Pragma("...") operators: run, written as #pragma lines at their place; the text around them on its line', () => {
  const want = agree({
    'main.hlsl': 'int a _Pragma("foo \\"q\\" \\\\n") int b;\n#define P(x) _Pragma(#x) after\nP(bar baz) c\nx _Pragma ( "  lead  trail  " ) y\n_Pragma(L"wide")\n_Pragma("once")\nint z _Pragma\n("after")\n',
  });
  assert.ok(want.pragmas.includes('main.hlsl:1 #pragma foo "q" \\n'), "cpp's destringized text");
  agree({ 'main.hlsl': '#define X 1\n_Pragma("push_macro(\\"X\\")")\n#undef X\n_Pragma("pop_macro(\\"X\\")")\nX\n' });
  agree({ 'main.hlsl': 'int a;\n_Pragma(1)\n' });
});

t('a _Pragma a macro call spread over lines makes: its #pragma on the line cpp has read to (the outermost call\'s `)`), not the call\'s name', () => {
  // cpp 12 (-undef -nostdinc): `P(` on line 3, `)` on line 6 -> `#pragma foo` on line 6, then `# 3 "main.hlsl"` and ` 1`;
  // `P(2` on 8, `)` on 11 -> `#pragma foo` on 11; an argument's _Pragma (ID, lines 14 to 16) on 16, TWICE's two on 19;
  // an object-like macro's on its own line (Q, line 22): it runs before the function-like name after it reads on to line 24
  const want = agree({
    'main.hlsl':
      '#define P(x) _Pragma("foo") x\nint a;\nP(\n1\n\n)\nint b;\nP(2\n\n\n) c\nd\n' +
      '#define ID(x) x\nID(b _Pragma("one") c\nd\n) e\n#define TWICE(x) x x\nTWICE(_Pragma("t") 1\n)\n' +
      '#define Q _Pragma("q") F\n#define F(x) [x]\nQ\n\n(1)\n',
  });
  assert.equal(want.pragmas, ['main.hlsl:6 #pragma foo', 'main.hlsl:11 #pragma foo', 'main.hlsl:16 #pragma one', 'main.hlsl:19 #pragma t', 'main.hlsl:19 #pragma t', 'main.hlsl:22 #pragma q'], "cpp's lines");
});

t("_Pragma: plain and L strings destringized as cpp 12 and clang both do, its warnings at cpp's places in the pragma's buffer; u, U and u8, which they read differently, refused", () => {
  // cpp 12 on `_Pragma(L"d") _Pragma("\"a") _Pragma("'b")`: `#pragma d`, `#pragma "a` and `#pragma 'b`, the last two with
  // `missing terminating` warnings at 1:1 (the column in the destringized buffer)
  const want = agree({ 'main.hlsl': '\n\n_Pragma(L"d") _Pragma("\\"a") _Pragma("\'b")\n#define P(x) _Pragma(L"q \\"x\\"") x\nP(\n1\n)\n' });
  assert.equal(want.pragmas, ['main.hlsl:3 #pragma d', 'main.hlsl:3 #pragma "a', "main.hlsl:3 #pragma 'b", 'main.hlsl:7 #pragma q "x"']);
  assert.equal(want.diagnostics.filter((d) => d.includes('missing terminating')).map((d) => d.slice(0, d.indexOf(' '))), ['main.hlsl:3:1', 'main.hlsl:3:1']);
  // the pragma's own messages at its buffer's columns too (cpp: 2:12 and 1:11)
  agree({ 'main.hlsl': '\n  x _Pragma("GCC warning")\n' });
  agree({ 'main.hlsl': '_Pragma("GCC error \\"e\\"")\n' });
  // cpp 12 drops only the first character of u, U, u8 (`_Pragma(u"once")` is the pragma `"once`, with a warning), clang
  // (DXC's preprocessor) the whole prefix (`once`): refused at the string, whether written or made by a macro
  for (const text of ['x _Pragma(u"once")\n', '_Pragma(U"a")\n', '_Pragma(u8"")\n', '#define P(x) _Pragma(u"q") x\nP(1)\n']) {
    assert.throws(() => new HlslFile(text, 'c.hlsl', {}, {}, { predefines: false }).preprocessedText(), (e: unknown) => e instanceof HlslError && e.code === 'hlsl-preprocess' && /encoding prefix is read differently by GNU cpp/.test(e.detail), text);
  }
});

t('a _Pragma whose operands a directive line splits: the directive runs, the operator takes the tokens after it, as cpp does; the input ending inside one is an error', () => {
  // cpp 12 on `a _Pragma(` / `#define X 1` / `"foo") X b`: `a` on line 1, `#pragma foo` on line 3, then `1 b` on line 3;
  // a #pragma between goes out first (`#pragma bar` on 2), a #line renumbers the rest (`#pragma foo` on 20), an #include
  // gives the rest from the header (`#pragma foo` at h.h:1), a header may end inside one (the includer's line 2)
  const cases: Record<string, string>[] = [
    { 'main.hlsl': 'a _Pragma(\n#define X 1\n"foo") X b\n' },
    { 'main.hlsl': 'a _Pragma\n#define X 1\n("foo") X b\n' },
    { 'main.hlsl': 'a _Pragma("foo"\n#define X 1\n#undef X\n) X b\n' },
    { 'main.hlsl': 'a _Pragma(\n#pragma bar\n"foo") b\n' },
    { 'main.hlsl': 'a _Pragma(\n#line 20\n"foo") b\n' },
    { 'main.hlsl': 'a _Pragma(\n#include "h.h"\nb\n', 'h.h': '"foo") c\n' },
    { 'main.hlsl': '#include "h.h"\n"foo") b\n', 'h.h': 'x _Pragma(' },
    { 'main.hlsl': '#define P _Pragma(\nP\n#define X 1\n"foo") X\n' },
    { 'main.hlsl': '#define X 1\n_Pragma(\n#pragma push_macro("X")\n#undef X\n"pop_macro(\\"X\\")") X\n' },
  ];
  const rows = cases.map((files) => agree(files).pragmas);
  assert.equal(rows[0], ['main.hlsl:3 #pragma foo'], "cpp's line");
  assert.equal(rows[3], ['main.hlsl:2 #pragma bar', 'main.hlsl:3 #pragma foo']);
  assert.equal(rows[4], ['main.hlsl:20 #pragma foo']);
  assert.equal(rows[5], ['h.h:1 #pragma foo']);
  // the input ends inside the operator: cpp's error at the last token it read (1:10, 1:11, the call 2:1)
  for (const text of ['a _Pragma(\n', 'a _Pragma("x"\n', '#define P _Pragma(\nP\n', 'a _Pragma\n']) {
    const want = agree({ 'main.hlsl': text });
    assert.ok(want.diagnostics.some((d) => d.endsWith('error: _Pragma takes a parenthesized string literal')), text);
  }
  // the directives-only reading (defineText) runs it too: cpp -P gives "CBV(b0)" for RS (the pop_macro after the split ran)
  const popped = '#define RS "CBV(b0)"\n_Pragma(\n#pragma push_macro("RS")\n#undef RS\n#define RS "CBV(b1)"\n"pop_macro(\\"RS\\")") int x;\n';
  assert.is(new HlslFile(popped, 'm.hlsl', {}, {}, { predefines: false }).defineText('RS').text, 'CBV(b0)');
  // a conditional between: refused (cpp 12 crashes when the string is inside its group)
  for (const text of ['a _Pragma(\n#if 1\n"foo"\n#endif\n) b\n', 'a _Pragma(\n#ifdef Q\n#endif\n"foo") b\n']) {
    assert.throws(() => new HlslFile(text, 'c.hlsl', {}, {}, { predefines: false }).preprocessedText(), (e: unknown) => e instanceof HlslError && e.location.line === 2 && /^#if(def)? inside the operands of a _Pragma operator is not supported$/.test(e.detail));
  }
});

t("_Pragma's once and push_macro/pop_macro count for a #define's text too (the directives-only reading expands the lines that may run one)", () => {
  const header = '_Pragma("once")\n#ifdef SEEN\n#define RS "CBV(b1)"\n#else\n#define SEEN\n#define RS "CBV(b0)"\n#endif\n';
  const cases: Record<string, string>[] = [
    { 'main.hlsl': '#include "h.h"\n#include "h.h"\nRS\n', 'h.h': header },
    { 'main.hlsl': '#define SAVE _Pragma("push_macro(\\"RS\\")")\n#define RS "CBV(b2)"\nSAVE\n#undef RS\n#define RS "CBV(b3)"\n_Pragma("pop_macro(\\"RS\\")")\nRS\n' },
  ];
  for (const files of cases) {
    const { dir, main } = write(files);
    const want = cpp(dir, main).tokens.at(-1)!.replace(/^\S+ "(.*)"$/, '$1');
    assert.match(want, /^CBV\(b\d\)$/, 'cpp expands RS');
    const host = { host: fileSystemHost({ fs, path }), predefines: false };
    assert.is(new HlslFile(fs.readFileSync(main, 'utf8'), main, {}, {}, host).defineText('RS').text, want, 'defineText (directives only)');
    const full = new HlslFile(fs.readFileSync(main, 'utf8'), main, {}, {}, host);
    full.preprocessedText();
    assert.is(full.defineText('RS').text, want, 'defineText after the full reading');
  }
});

t('a pragma line stays one line: no escape or splice of the input starts a line of its own in the text', () => {
  const { dir, main } = write({ 'main.hlsl': '_Pragma("a\\nb \\\\n \\r") x\n#pragma foo "\\n" \\\n bar\n_Pragma("x\\\\") y\n' });
  const f = new HlslFile(fs.readFileSync(main, 'utf8'), main, {}, {}, { predefines: false });
  const rows = f.preprocessedText().split('\n');
  assert.equal(rows.filter((r) => r.startsWith('#pragma')), ['#pragma a\\nb \\n \\r', '#pragma foo "\\n" bar', '#pragma x\\'], 'three pragma lines, each whole');
  assert.equal(rows.filter((r) => !r.startsWith('#')).join(' ').trim().split(/\s+/), ['x', 'y']);
  assert.equal(dxbin(dir, main, DXC_ONLY()).pragmas, cpp(dir, main).pragmas);
});

/** cpp's diagnostics for `args` as `line:column kind: message` (the `[-W...]` tag left off), its first error only. */
function cppDiagnostics(main: string, args: string[]): { stdout: string; diagnostics: string[] } {
  const r = spawnSync('cpp', [...args, '-undef', '-nostdinc', main], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const all = [...r.stderr.matchAll(/^.*?:(\d+):(\d+): (warning|error|fatal error): (.*?)(?: \[-W[\w-]+\])?$/gm)].map((m) => `${m[1]}:${m[2]} ${m[3] === 'warning' ? 'warning' : 'error'}: ${m[4]}`);
  const firstError = all.findIndex((d) => / error: /.test(d));
  return { stdout: r.stdout, diagnostics: firstError < 0 ? all : [all[firstError]!] };
}

/**
 * Each literal's value in `#if` read bit by bit (bits 0 to 31 and the sign, a line each that
 * prints a token when set) by cpp (`args`: its language) and by dxbin: the same tokens on the
 * same lines, the same warnings at the same places.
 */
function sameValues(literals: string[], args: string[] = []): void {
  let text = '';
  literals.forEach((l, i) => {
    text += `#if (${l}) < 0\nv${i}_neg\n#endif\n`;
    for (let b = 0; b < 32; b++) text += `#if ((${l}) >> ${b}) & 1\nv${i}_${b}\n#endif\n`;
  });
  const { dir, main } = write({ 'main.hlsl': text });
  const want = cppDiagnostics(main, args);
  const f = new HlslFile(text, main, {}, {}, { predefines: false });
  let gotTokens: string[] = [];
  let got: string[];
  try {
    gotTokens = markedTokens(f.preprocessedText());
    got = f.warnings.map((w) => `${w.location.line}:${w.location.column} warning: ${w.message}`);
  } catch (e) {
    if (!(e instanceof HlslError)) throw e;
    got = [`${e.location?.line}:${e.location?.column} error: ${e.detail}`];
  }
  assert.equal(got, want.diagnostics, `${literals.join(' ')}: the same diagnostics`);
  if (!want.diagnostics.some((d) => / error: /.test(d))) {
    const strip = (s: string) => s.split(`${dir}/`).join('');
    assert.ok(markedTokens(want.stdout).length > 0, 'cpp printed bits');
    assert.equal(gotTokens.map(strip), markedTokens(want.stdout).map(strip), `${literals.join(' ')}: the same values`);
  }
}

t("#if character constants take cpp's values: UTF-8 bytes of a plain one (an int of up to four, signed char alone), code points of L/u/U, escapes one unit", () => {
  sameValues(["'\u00e9'", "'é'", "'ab'", "'\\377'", "'\\x80'", "'a'", "'\\0'", "'a\\0'", "'\\xff\\xff'", "'abcd'", "'abcde'", "'😀'", "'\\U0001F600'"]);
  sameValues(["L'é'", "u'é'", "U'é'", "U'\\U0001F600'", "u'\\U0001F600'", "L'\\U0001F600'", "u'😀'", "L'ab'", "U'ab'", "L'\\xffffffff'", "u'\\xffff'", "U'\\xffffffff'", "u'a'", "L'a'"]);
  // an escape past its unit: masked, with cpp's warning
  sameValues(["'\\x100'", "'\\x141'", "'\\400'", "u'\\x10000'", "L'\\x100000000'"]);
  // u8 is C++17's (C reads u8 as a name): cpp as C++17
  sameValues(["u8'a'", "u8'\\xff'", "u8'\\x7f'"], ['-x', 'c++', '-std=c++17']);
});

t('#if character constants cpp refuses: empty, a u8 one of two bytes', () => {
  sameValues(["''"]);
  sameValues(["u8'é'"], ['-x', 'c++', '-std=c++17']);
  sameValues(["u8'ab'"], ['-x', 'c++', '-std=c++17']);
});

test('an unknown escape in a string of root signature text (an entry attribute, a #define) warns once with its place: the API and rootsig compile', async () => {
  const text = '#define RS "CBV(b0),\\ SRV(t0)"\n[RootSignature("CBV(b1),\\qSRV(t1)")]\nvoid main() {}\n';
  const f = new HlslFile(text, 'rs.hlsl');
  assert.is(f.defineText('RS').text, 'CBV(b0), SRV(t0)');
  f.defineText('RS');
  const seen = (h: HlslFile) => h.warnings.map((w) => `${w.location.file}:${w.location.line}:${w.location.column} ${w.message}`);
  assert.equal(seen(f), ["rs.hlsl:1:21 unknown escape sequence '\\ '"], 'the #define: once, at its backslash, however often its text is made');
  const g = new HlslFile(text, 'rs.hlsl');
  assert.is(g.entryText('main').text, 'CBV(b1),qSRV(t1)');
  assert.equal(seen(g), ["rs.hlsl:2:25 unknown escape sequence '\\q'"], 'the attribute: once, at its backslash');
  // after #line: the presumed place, as every message
  const h = new HlslFile('#line 40 "p.hlsl"\n#define RS "CBV(b0)\\z"\n', 'rs.hlsl');
  assert.is(h.defineText('RS').text, 'CBV(b0)z');
  assert.equal(seen(h), ["p.hlsl:40:20 unknown escape sequence '\\z'"]);
  const { main } = write({ 'rs.hlsl': text.replace('\\q', '\\ ') });
  for (const [how, line] of [[['--define', 'RS'], `${main}:1:21`], [['--entry', 'main'], `${main}:2:25`]] as const) {
    const r = spawnSync(process.execPath, [await builtCli(), 'rootsig', 'compile', '--to', '1.1', '--file', main, ...how, '-o', join(work, 'rs.bin')], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    assert.equal(r.stderr.split('\n').filter((l) => l !== ''), [`${line}: warning: unknown escape sequence '\\ '`], `rootsig compile ${how.join(' ')}: the warning once`);
  }
});

t('#pragma GCC poison: a later use of the name in text, #if, defined, #ifdef/#ifndef, #define/#undef and the rest of a read line is an error where cpp says; a macro written before may still make it', () => {
  const cases = [
    'int a;\n#pragma GCC poison P Q\nint R;\nQ x;\n',
    '#pragma GCC poison P\n#if P\n#endif\n',
    '#pragma GCC poison P\n#if defined P\n#endif\n',
    '#pragma GCC poison P\n#if defined(P)\n#endif\n',
    '#pragma GCC poison P\n#ifdef P\n#endif\n',
    '#pragma GCC poison P\n#ifndef P\n#endif\n',
    '#pragma GCC poison P\n#define P 1\n',
    '#pragma GCC poison P\n#undef P\n',
    '#pragma GCC poison P\n#define M(P) 1\n',
    '#pragma GCC poison P\n#define M(x) x P\n',
    // a macro written before the poison: its P is not read again, no error; the macro itself is undefined (a warning)
    '#define M P\n#pragma GCC poison P\nM\n',
    '#define M P\n#pragma GCC poison M N\n#ifndef M\nok\n#endif\n',
    '#define P 1\n#pragma GCC poison P\nint y;\nP\n',
    // arguments are the source's (used, unused, stringized); a name made by ## is lexed again (at the start of the line the call ends on)
    '#define M(x) 1\n#pragma GCC poison P\nM(P)\n',
    '#define S(x) #x\n#pragma GCC poison P\nS(\nP)\n',
    '#define C(a,b) a##b\n#pragma GCC poison PQ\nx  C(P,\nQ)\n',
    '#define E P##Q\n#define D x E\n#pragma GCC poison PQ\n  D\n',
    '#define C(a,b) a##b\n#pragma GCC poison PQ\n#if 1 + C(P,Q)\n#endif\n',
    // skipped groups are not read; the rest of #else/#endif is read as its group is
    '#pragma GCC poison P\n#if 0\nP\n#else\nok\n#endif\n',
    '#pragma GCC poison P\n#if 0\n#else P\n#endif\n',
    '#pragma GCC poison P\n#if 1\n#else P\n#endif\n',
    '#pragma GCC poison P\n#if 0\n#endif P\n',
    '#pragma GCC poison P\n#if 1\n#endif P\n',
    // other directives and pragmas read their names (warnings of their own first)
    '#pragma GCC poison P\n#pragma once P\n',
    '#pragma GCC poison P\n#pragma foo P\n',
    '#pragma GCC poison P\n#pragma GCC poison P\nint ok;\n',
    '#pragma GCC poison P\n#pragma GCC warning "w" P\n',
    '#pragma GCC poison P\n#warning P\n',
    '#pragma GCC poison P\n#error P\n',
    '#pragma GCC poison P\n#line 5 P\n',
    '#pragma GCC poison P\n#include P\n',
    '_Pragma("GCC poison P") P\n',
    '#pragma GCC poison __LINE__\n__LINE__\n',
    '#pragma GCC poison defined\n#if defined X\n#endif\n',
    // only names may be poisoned
    '#pragma GCC poison A 1\n',
    '#pragma GCC poison "P"\n',
    '#pragma GCC poison\nint ok;\n',
  ];
  let errors = 0;
  for (const text of cases) {
    const want = agree({ 'main.hlsl': text });
    if (want.diagnostics.some((d) => / error: /.test(d))) errors++;
  }
  assert.ok(errors >= 25, `cpp refused most cases (${errors})`);
  // the directives-only reading (defineText) refuses a poisoned #define, and the poison of a macro undefines it
  const host = { predefines: false };
  assert.throws(() => new HlslFile('#pragma GCC poison RS\n#define RS "CBV(b0)"\n', 'p.hlsl', {}, {}, host).defineText('RS'), (e: unknown) => e instanceof HlslError && e.detail === 'attempt to use poisoned "RS"' && e.location.line === 2 && e.location.column === 9);
  assert.throws(() => new HlslFile('#define RS "CBV(b0)"\n#pragma GCC poison RS\n', 'p.hlsl', {}, {}, host).defineText('RS'), (e: unknown) => e instanceof HlslError);
});

t('#pragma GCC poison: push_macro("P") of a poisoned P is an error at the end of its line, pop_macro("P") only when P was pushed (cpp looks the name up then)', () => {
  // cpp 12: `main.hlsl:2:24: error: attempt to use poisoned "P"` (the end of `#pragma push_macro("P")`); in a _Pragma at
  // 2:16 (the end of its buffer `push_macro("P")`); pop_macro of a P never pushed: no error; of a pushed one: 4:23
  const cases: [string, string | undefined][] = [
    ['#pragma GCC poison P\n#pragma push_macro("P")\nx\n', 'main.hlsl:2:24 error: attempt to use poisoned "P"'],
    ['#pragma GCC poison P\n_Pragma("push_macro(\\"P\\")")\nx\n', 'main.hlsl:2:16 error: attempt to use poisoned "P"'],
    ['#pragma GCC poison P\n#pragma push_macro("P") x\n', 'main.hlsl:2:26 error: attempt to use poisoned "P"'],
    ['#pragma GCC poison P\n#pragma pop_macro("P")\nx\n', undefined],
    ['#define P 1\n#pragma push_macro("P")\n#pragma GCC poison P\n#pragma pop_macro("P")\nP\n', 'main.hlsl:4:23 error: attempt to use poisoned "P"'],
    ['#pragma push_macro("P")\n#pragma GCC poison P\n#pragma pop_macro("P")\nx\n', 'main.hlsl:3:23 error: attempt to use poisoned "P"'],
  ];
  for (const [text, error] of cases) {
    const want = agree({ 'main.hlsl': text });
    assert.is(want.diagnostics.find((d) => / error: /.test(d)), error, text);
  }
  // a prefixed name: cpp 12 drops the prefix (L"P" names P), clang (DXC's preprocessor) takes only a plain string
  // literal (err_pragma_push_pop_macro_malformed): refused at the string
  for (const text of ['#define P 1\n#pragma push_macro(L"P")\n', '#pragma pop_macro(u"Q")\n']) {
    assert.throws(() => new HlslFile(text, 'c.hlsl', {}, {}, { predefines: false }).preprocessedText(), (e: unknown) => e instanceof HlslError && e.code === 'hlsl-preprocess' && /encoding prefix/.test(e.detail), text);
  }
});

t('#pragma GCC system_header: no warnings from the rest of that header nor from what it includes after it (a _Pragma one: the rest of the file only); #warning still warns', () => {
  // cpp 12 gives only s.h:2:10, s2.h:2:10, i2.h:1:10 (its inclusion from s2.h, after a _Pragma's system_header) and
  // main.hlsl:3:10 `extra tokens at end of #ifdef directive`: after the pragma, s.h's own (5:10), its poison of a macro,
  // its GCC warning, its _Pragma's missing quote and i2.h's first inclusion say nothing. (Its line markers' flag 3 has no
  // place in dxbin's `#line N "file"` markers, which take no flags: the tokens and their lines are the same.)
  const want = agree({
    'main.hlsl': '#include "s.h"\n#include "s2.h"\n#ifdef X extra\n#endif\nint m;\n',
    's.h': '#define P 1\n#ifdef X extra\n#endif\n#pragma GCC system_header\n#ifdef X extra\n#endif\n#pragma GCC poison P\n#pragma GCC warning "gw"\n_Pragma("\\"a")\n#include "i2.h"\nint h;\n',
    'i2.h': '#ifdef Y extra\n#endif\n',
    's2.h': '#define Q 1\n#ifdef X extra\n#endif\n_Pragma("GCC system_header")\n#ifdef X extra\n#endif\n#include "i2.h"\n#pragma GCC poison Q\nint t;\n',
  });
  assert.equal(want.diagnostics, ['s.h:2:10', 's2.h:2:10', 'i2.h:1:10', 'main.hlsl:3:10'].map((at) => `${at} warning: extra tokens at end of #ifdef directive`));
  // #warning is given in a system header (cpp: `h.h:3:2: warning: #warning after`)
  const { dir, main } = write({ 'main.hlsl': '#include "h.h"\nint m;\n', 'h.h': '#pragma GCC system_header\n#define R 1\n#warning after\n#pragma GCC warning "not"\n' });
  const r = spawnSync('cpp', ['-undef', '-nostdinc', main], { encoding: 'utf8' });
  assert.match(r.stderr, /h\.h:3:2: warning: #warning after/);
  assert.not.match(r.stderr, /not/);
  const f = new HlslFile(fs.readFileSync(main, 'utf8'), main, {}, {}, { host: fileSystemHost({ fs, path }), predefines: false });
  f.preprocessedText();
  assert.equal(f.warnings.map((w) => `${w.location.file.split(`${dir}/`).join('')}:${w.location.line}:${w.location.column} ${w.message}`), ['h.h:3:2 after']);
});

test.after(() => folders.remove());
test.run();
