/**
 * Presumed locations after `#line` (clang's PresumedLoc, src/root-signature/hlsl/preprocessor/source.ts):
 * every message, `#line` marker of the preprocessed text, `__LINE__`/`__FILE__` and the place of
 * a root signature error says what the last `#line` says, per reading of a file (a file included
 * twice has two readings, each with its own notes), against GNU cpp as the oracle: cpp's
 * linemarkers and dxbin's `#line` markers both read as (file, line, token) lists, and the
 * file:line:column of their errors and warnings. Skipped (`skipped: reason`) without cpp.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { join } from 'node:path';
import { HlslError, HlslFile, compileRootSignatureBlob, fileSystemHost, virtualHost } from '../src/index.js';
import { Source } from '../src/root-signature/hlsl/preprocessor/index.js';
import { builtCli } from './helpers/built-cli.js';
import { markedTokens } from './helpers/line-markers.js';
import { missingCommand, requires } from './helpers/requires.js';
import { caseFolders } from './helpers/case-folders.js';

const t = requires('GNU cpp', missingCommand('cpp'));
const folders = caseFolders('dxbin-line-');
const { work, write } = folders;

/** A diagnostic as `file:line:column kind` (the case's folder left off the file). */
type Diagnostic = string;

/** cpp (with linemarkers) on the main file: its (file, line, token) list and its diagnostics. */
function cpp(dir: string, main: string): { tokens: string[]; diagnostics: Diagnostic[] } {
  const r = spawnSync('cpp', ['-undef', '-nostdinc', main], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const strip = (s: string) => s.split(`${dir}/`).join('');
  const diagnostics = [...r.stderr.matchAll(/^(.*?):(\d+):(\d+): (warning|error|fatal error): /gm)].map((m) => `${strip(m[1]!)}:${m[2]}:${m[3]} ${m[4] === 'warning' ? 'warning' : 'error'}`);
  return { tokens: markedTokens(r.stdout).map(strip), diagnostics };
}

/** dxbin on the same files (the file-system host): its (file, line, token) list, or its error, and its warnings. */
function dxbin(dir: string, main: string): { tokens: string[]; diagnostics: Diagnostic[] } {
  const strip = (s: string) => s.split(`${dir}/`).join('');
  const f = new HlslFile(fs.readFileSync(main, 'utf8'), main, {}, {}, { host: fileSystemHost({ fs, path }) });
  let tokens: string[] = [];
  const diagnostics: Diagnostic[] = [];
  try {
    tokens = markedTokens(f.preprocessedText()).map(strip);
  } catch (e) {
    if (!(e instanceof HlslError)) throw e;
    diagnostics.push(`${strip(e.path ?? '')} error`);
  }
  if (diagnostics.length > 0) return { tokens, diagnostics };
  return { tokens, diagnostics: f.warnings.map((w) => `${strip(w.location.file)}:${w.location.line}:${w.location.column} warning`) };
}

/**
 * cpp and dxbin agree on the (file, line, token) list and on where each diagnostic is: the warnings
 * of a file that preprocesses, the first error of one that does not (dxbin stops there, and its
 * warnings come with a result only).
 */
function agree(files: Record<string, string>, expectDiagnostics?: Diagnostic[]): { tokens: string[]; diagnostics: Diagnostic[] } {
  const { dir, main } = write(files);
  const want = cpp(dir, main);
  const got = dxbin(dir, main);
  const firstError = want.diagnostics.findIndex((d) => d.endsWith(' error'));
  const wantDiagnostics = firstError < 0 ? want.diagnostics : [want.diagnostics[firstError]!];
  if (expectDiagnostics) assert.equal(wantDiagnostics, expectDiagnostics, 'cpp says what the case expects');
  assert.equal(got.diagnostics, wantDiagnostics, 'diagnostics at the same file:line:column');
  if (firstError < 0) assert.equal(got.tokens, want.tokens, 'the same (file, line, token) list');
  return want;
}

const REPRO = { 'a.hlsl': '#line 100 "foo.hlsl"\n#define X 1\nint a;\n#include "h.h"\nint b;\n#error here\n', 'h.h': 'int h;\n#line 50\nint h2;\n' };

t("the issue's repro: #error after #line and an include is at foo.hlsl:104:2, as cpp says", () => {
  agree(REPRO, ['foo.hlsl:104:2 error']);
  const text = { ...REPRO, 'a.hlsl': REPRO['a.hlsl'].replace('#error here\n', 'int c;\n') };
  const want = agree(text);
  assert.equal(want.tokens, ['foo.hlsl:101 int', 'foo.hlsl:101 a', 'foo.hlsl:101 ;', 'h.h:1 int', 'h.h:1 h', 'h.h:1 ;', 'h.h:50 int', 'h.h:50 h2', 'h.h:50 ;', 'foo.hlsl:103 int', 'foo.hlsl:103 b', 'foo.hlsl:103 ;', 'foo.hlsl:104 int', 'foo.hlsl:104 c', 'foo.hlsl:104 ;']);
});

t('a file included twice with #line in it: each reading counts from its own start; the includer after it from its own lines', () => {
  agree({ 'main.hlsl': 'int m;\n#include "t.h"\nint n;\n#include "t.h"\nint o;\n#warning at end\n', 't.h': 'int t1;\n#line 20 "tt.h"\nint t2;\n#warning in t\n' }, ['tt.h:21:2 warning', 'tt.h:21:2 warning', 'main.hlsl:6:2 warning']);
  // the second reading's __LINE__ before its #line is its physical line again, not the first reading's presumed one
  agree({ 'main.hlsl': '#include "u.h"\n#include "u.h"\nend __LINE__\n', 'u.h': 'u __LINE__ __FILE__\n#line 7 "uu.h"\nv __LINE__ __FILE__\n' });
});

t('#line inside an include, then errors and warnings there and back in the includer', () => {
  const x = 'int x;\n#line 300 "renamed.h"\n\n#warning inside\nint y;\n#line 5\n#error stop\n';
  agree({ 'main.hlsl': '#line 10\n#include "inc/x.h"\n#warning back\n', 'inc/x.h': x }, ['renamed.h:5:2 error']);
  agree({ 'main.hlsl': '#line 10\n#include "inc/x.h"\n#warning back\n', 'inc/x.h': x.replace('#error', '#warning') }, ['renamed.h:301:2 warning', 'renamed.h:5:2 warning', 'main.hlsl:11:2 warning']);
  agree({ 'main.hlsl': '#include "inc/x.h"\n#line 2 "m2.hlsl"\n#include "inc/missing.h"\n', 'inc/x.h': '#line 9 "x9.h"\nint y;\n' }, ['m2.hlsl:2:10 error']);
});

t('#line then #error and #warning: the presumed name and line, the physical column; #line N keeps the name; a #line going back', () => {
  agree({ 'main.hlsl': '#line 40 "w.hlsl"\n  #warning first\n#line 7\n#error second\n' }, ['w.hlsl:7:2 error']);
  agree({ 'main.hlsl': '#line 40 "w.hlsl"\n  #warning first\n#line 7\n#warning second\n' }, ['w.hlsl:40:4 warning', 'w.hlsl:7:2 warning']);
  agree({ 'main.hlsl': 'a\nb\nc\nd\n#line 2\ne\nf\n#line 1000\ng\n#line 990 "far.h"\nh\n' });
  // the GNU linemarker form `# N "name"` is a #line too
  agree({ 'main.hlsl': '# 33 "gnu.h"\nx\n#warning here\n' }, ['gnu.h:34:2 warning']);
});

t('a macro call spanning lines after #line: its expansion on the line of its name, tokens after it on their own', () => {
  agree({ 'main.hlsl': '#line 10 "m.hlsl"\n#define F(a, b) a b\nint x = F(1,\n  2) + 3;\n#line 30\nF(\n4, 5) z\n#define G(x) x\nG(\n__LINE__\n) __LINE__ q\n' });
  // dxbin keeps GCC's count for __LINE__ inside a call (clang says the line of the call's `)`)
  assert.is(new HlslFile('#line 50\n#define G(x) x\n#define RS G(\\\n__LINE__)\n', 'a.hlsl').defineText('RS').text, '51');
});

t('a root signature error after #line is at its presumed place: entry attribute and #define, through compileRootSignatureBlob and rootsig compile', async () => {
  const attribute = '#line 70 "rs.hlsl"\n[RootSignature("CBV(t0)")]\nvoid main() {}\n';
  const want = agree({ 'cs.hlsl': attribute });
  const at = want.tokens.find((x) => x.endsWith(' "CBV(t0)"'))!.split(' ')[0]!;
  const column = attribute.split('\n')[1]!.indexOf('t0') + 1;
  const compileError = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof HlslError && e.code === 'hlsl-syntax', String(e));
      return e.path;
    }
    assert.unreachable('no error');
  };
  assert.is(compileError(() => compileRootSignatureBlob(new HlslFile(attribute, 'cs.hlsl').entryText('main'))), `${at}:${column}`);
  // the #define's line: cpp says the line before it is defs.hlsl:5
  const define = '#line 5 "defs.hlsl"\n__LINE__ __FILE__\n#define RS "CBV(t0)"\n';
  const before = agree({ 'd.hlsl': define }).tokens[0]!.split(' ')[0]!;
  assert.is(before, 'defs.hlsl:5');
  const defineAt = `defs.hlsl:6:${define.split('\n')[2]!.indexOf('t0') + 1}`;
  assert.is(compileError(() => compileRootSignatureBlob(new HlslFile(define, 'd.hlsl').defineText('RS'))), defineAt);
  // the CLI says the same
  const { main } = write({ 'd.hlsl': define });
  const cli = spawnSync(process.execPath, [await builtCli(), 'rootsig', 'compile', '--file', main, '--define', 'RS', '--version', '1.1', '-o', join(work, 'rs.bin')], { encoding: 'utf8' });
  assert.is(cli.status, 1, cli.stderr);
  assert.ok(cli.stderr.startsWith(`dxbin: ${defineAt}: error: `), cli.stderr);
  const pre = spawnSync(process.execPath, [await builtCli(), 'rootsig', 'preprocess', '--file', write(REPRO).main], { encoding: 'utf8' });
  assert.is(pre.status, 1);
  assert.ok(pre.stderr.startsWith('dxbin: foo.hlsl:104:2: error: here'), pre.stderr);
});

test('linear: many #line directives and many includes cost steps in proportion (a step counter over the #line tables)', () => {
  // every read of a reading's #line table is counted: the lookups are binary searches, the output a forward cursor
  const proto = Source.prototype as unknown as { noteIndexAt(i: number): number };
  const descriptor = Object.getOwnPropertyDescriptor(Source.prototype, 'lineNotes')!;
  const noteIndexAt = proto.noteIndexAt;
  let steps = 0;
  const counted = new WeakMap<object, unknown>();
  Object.defineProperty(Source.prototype, 'lineNotes', {
    configurable: true,
    get(this: Source) {
      const notes = descriptor.get!.call(this) as object;
      let p = counted.get(notes);
      if (p === undefined) {
        p = new Proxy(notes, {
          get(target, key, receiver) {
            steps++;
            return Reflect.get(target, key, receiver);
          },
        });
        counted.set(notes, p);
      }
      return p;
    },
  });
  proto.noteIndexAt = function (this: Source, i: number) {
    steps += 1 + Math.ceil(Math.log2(this.lineNotes.length + 1));
    return noteIndexAt.call(this, i);
  };
  try {
    const run = (n: number) => {
      steps = 0;
      let main = '';
      for (let i = 0; i < n; i++) main += `#line ${1000 + 3 * i} "m${i % 7}.hlsl"\nint a${i};\n#include "h.h"\n#warning w${i}\n`;
      main += '#define RS "CBV(b0)"\n[RootSignature(RS)]\nvoid main() {}\n';
      const f = new HlslFile(main, 'main.hlsl', {}, { maxFiles: 1e6, maxScanBytes: 1e9 }, { host: virtualHost({ 'main.hlsl': main, 'h.h': 'int h;\n#line 5 "hh.h"\nint hh;\n#line 9\nint h9;\n' }) });
      const text = f.preprocessedText();
      assert.ok(text.includes(`#line ${1000 + 3 * (n - 1)} "m${(n - 1) % 7}.hlsl"\nint a${n - 1};\n`), 'the last #line is in force');
      assert.is(f.warnings.length, n);
      assert.is(f.warnings[n - 1]!.location.line, 1000 + 3 * (n - 1) + 2);
      const rs = f.entryText('main');
      for (let k = 0; k < rs.text.length; k++) rs.locate(k);
      return steps;
    };
    const small = run(500);
    const large = run(2000);
    assert.ok(small > 0, 'the counter counts');
    // four times the input: at most about four times the steps (log factors of the binary searches aside), never sixteen
    assert.ok(large <= 5 * small, `500 sections: ${small} steps, 2000 sections: ${large}`);
  } finally {
    Object.defineProperty(Source.prototype, 'lineNotes', descriptor);
    proto.noteIndexAt = noteIndexAt;
  }
});

test('a #line note is per reading: a second reading of a file gets its own table and shares the text', () => {
  const first = new Source('h.h', '/h.h', 'a\nb\nc\n');
  first.addLineNote(2, 40, 'x.h');
  const second = new Source('h.h', '/h.h', first);
  assert.is(second.clean, first.clean);
  assert.equal(first.presumed(4), { file: 'x.h', line: 40, column: 1 }, 'the line after the number is 40');
  assert.equal(second.presumed(4), { file: 'h.h', line: 3, column: 1 });
  second.addLineNote(0, 7, undefined);
  assert.equal(second.presumed(4), { file: 'h.h', line: 8, column: 1 }, '#line N keeps the name');
  second.addLineNote(0, 1, undefined);
  assert.throws(() => second.addLineNote(-1, 1, undefined), /before the last one/);
});

test.after(() => folders.remove());
test.run();
