/**
 * Hostile inputs round 8 on the CLI and the build-step surfaces (2026-12-04, hL): depfile names
 * as GNU make 4.3 and Ninja 1.11 read them back (checked with both when installed), `#include`
 * through links, loops and special files, response files, batch jobs' outputs, rollup ids,
 * `inspect --html` pages, the persistent worker's large requests and the compiled-code cache's
 * damaged entries. Each is judged on the CLI's contract: a typed error naming the file and field
 * (one escaped line, exit 1, usage errors exit 2) or the right answer; never a stack trace, a
 * hang, output out of proportion, a line of generated text (depfile, HTML page) that the input
 * chose, or a wrong answer without a word.
 *
 * Tally (measured on 5ce39ea, the source before this round, with this file): 35 tests, 24 broke:
 * - depfiles (13 of 14; Ninja's own reading of a raw `:` held): a `:` in a name was written raw
 *   (make: "target pattern contains no '%'", so the end-to-end make run failed); `%` (the header's
 *   empty rule became a pattern rule), `=` (make read a target-specific variable: the dependency
 *   was lost), `;` (make ran the rest of the name as a recipe), `[`/`*`/`?` (make globbed other
 *   files), `"&'<>^\`|` (Ninja ended the name there), a tab, DEL, VT, U+0085, U+2028 or a lone
 *   surrogate, a leading `~` (make's home folder), `NAME(MEMBER)` (an archive member), a `:` at
 *   the end and a backslash before `:` or `$` were all written as they are; and `rootsig compile`
 *   wrote `-o` before the depfile; `--depfile` with standard output as the output wrote a rule
 *   for `-` (preprocess without -o, compile -o -), now a usage error; a refusal's offset is the
 *   character's byte in the name's UTF-8. Now one pass over each name (depfilePath): a character is
 *   written as it is, escaped as gcc -MD writes it and both tools read it back (`\ `, `\#`, `$$`,
 *   `\:`), or refused (not-writable naming the character and its byte), before any output is written.
 * - batch (5): a job with no arguments (`[]`) was answered with the whole help text (10 KB for
 *   3 bytes), now a one-line error as a worker's `{}`; a second job writing the file a first one
 *   wrote (also through a link or `./`) replaced it without a word, and a job of many inputs
 *   (threads with --jobs) did so after writing its other outputs; a job writing the jobs file
 *   replaced the list being run; a job's unknown key of 10,000 U+0085 was cut by hand at 64
 *   input characters (a 450-character message; now `quoted`, exported beside printable).
 * - rollup (3): an id starting with NUL (another plugin's virtual module) was claimed and failed
 *   as "no such file"; a relative import from an importer whose query held `/` was resolved in a
 *   folder of the query (`/src/main.js?v=1/x` gave `/src/main.js?v=1/a.rs.hlsl`); a query value
 *   of 10,000 U+2028 was cut at 64 input characters and escaped to a 500-character message (the
 *   plugin's own copy of the cut; now `shortened`).
 * - `inspect --html` (1): a file name's newline started a line of the page and U+2028 stood raw in
 *   `<title>` and `<h1>` (escapeText escaped only `&<>"'\``; now printable's escapes first).
 * - includes (1): `#pragma once` through a hard link read the file twice (the other branch of
 *   its `#ifdef` taken, a redefinition warning): fileSystemHost gives every name of one file
 *   (device and inode) the first real path met, so the preprocessor's one identity sees one file.
 * - compile cache (1): an entry whose code bytes were damaged, its header intact, was handed to
 *   V8, which in release builds does not check the payload (out of process: a V8 fatal error, or
 *   `map is not a function` from the damaged code); now a checksum of the code in the header.
 * The other 11 held on the old code too and stay as guards: Ninja reading the end-to-end depfile,
 * `#pragma once` and an include guard through two names (a link to the -I folder, a `self` link),
 * an `-I` symlink cycle, `#include` of a folder, /dev/zero and a FIFO, a file that grows while read
 * (bounded by maxReadBytes), an `@file` naming itself through a link, a response file of 2 GiB
 * (sparse) and 10^6 lines of one name, a part FourCC of `<!-` and a newline in the page, `verify`
 * of a file named with a newline and ESC (and of such a shader that does not fit: the violation
 * once, on stderr, one escaped line), a worker request of 10^5 arguments and one of 10^6
 * input digests.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MESSAGE, onePartContainer, rollupContext, RAW, thrown } from './helpers/hostile.js';
import { requires, missingCommand } from './helpers/requires.js';
import { CORPUS } from './helpers/corpus.js';
import { HlslError, HlslFile, fileSystemHost } from '../src/index.js';
import { InputError } from '../src/build-step/errors.js';
import { batchJob } from '../src/build-step/batch-jobs.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { depfilePath, depfileText } from '../src/cli/includes.js';
import { chunkLoader } from '../src/cli/compile-cache.js';
import dxbin from '../src/rollup/index.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-r8-'));
const at = (name: string, data: string | Uint8Array = '') => {
  const p = join(work, name);
  writeFileSync(p, data);
  return p;
};
const RS = join(work, 'rs.dxbc');
copyFileSync(join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc'), RS);
const NL = 'n\nEVIL: forged line';
const ESC = 'e\x1b[2J\u202e';

async function cli(args: string[], stdin: string | Uint8Array = ''): Promise<{ code: number; out: string; err: string }> {
  const s = captureStreams(typeof stdin === 'string' ? Buffer.from(stdin) : stdin);
  const code = await run(args, s);
  return { code, out: s.stdout(), err: s.stderr() };
}
/** A message as the CLI's contract wants it: one line (a trailing newline aside), nothing raw, short, no stack. */
function oneLine(text: string, label: string): void {
  const body = text.replace(/\n$/, '');
  assert.not.ok(body.includes('\n'), `${label}: more than one line: ${JSON.stringify(body.slice(0, 300))}`);
  assert.not.ok(RAW.test(body), `${label}: raw text in ${JSON.stringify(body.slice(0, 300))}`);
  assert.not.ok(/\n\s+at \S+ \(|internal error/.test(text), `${label}: a stack or an internal error`);
  assert.ok(body.length <= MAX_MESSAGE, `${label}: a ${body.length}-character message`);
}
/** depfilePath refuses `name`: InputError not-writable, one line, the character's index as the offset. */
function depfileRefuses(name: string, index: number, label = JSON.stringify(name)): void {
  const e = thrown(() => depfilePath(name, path.posix));
  assert.ok(e instanceof InputError, `${label}: expected a refusal, got ${e === undefined ? JSON.stringify(depfilePath(name, path.posix)) : String(e)}`);
  assert.is((e as InputError).code, 'not-writable', label);
  assert.is((e as InputError).at?.offset, index, `${label}: ${(e as InputError).detail}`);
  // the file name is escaped where the CLI prints it (formatDiagnostic); the words are one line already
  oneLine((e as InputError).detail, label);
}

// ------------------------------------------------------------------ depfiles: what make and ninja read back

test('depfile: a : in a name is written \\: (make read `a:b.h` as a static pattern rule: "target pattern contains no %")', () => {
  assert.is(depfilePath('inc/a:b.h', path.posix), 'inc/a\\:b.h');
  assert.is(depfileText('out:1.dxbc', ['m.hlsl', 'x:y.h'], path.posix), 'out\\:1.dxbc: \\\n  m.hlsl \\\n  x\\:y.h\n\nx\\:y.h:\n');
  // a Windows drive letter's colon stays as make and ninja read it there
  assert.is(depfilePath('C:\\a:b.h', path.win32), 'C:/a\\:b.h');
});

test('depfile: a : at the end of a name or before a space is refused (Ninja reads \\: there as a backslash)', () => {
  depfileRefuses('inc/a:', 5);
  depfileRefuses('a: b.h', 1);
});

test('depfile: % is refused (each header is the target of its own empty rule, where make reads % as a pattern)', () => {
  depfileRefuses('inc/p%q.h', 5);
});

test('depfile: = and ; are refused (make read a rule holding = as a variable assignment, and ran what follows ; as a recipe)', () => {
  depfileRefuses('a=b.h', 1);
  depfileRefuses('x;touch EVIL.h', 1);
});

test('depfile: wildcards [ * ? are refused (make expanded them into other files: a[Z]b.h named aZb.h)', () => {
  depfileRefuses('a[Z]b.h', 1);
  depfileRefuses('a*.h', 1);
  depfileRefuses('a?.h', 1);
});

test('depfile: characters Ninja ends a name at (" & \' < > ^ ` |) are refused', () => {
  for (const c of ['"', '&', "'", '<', '>', '^', '`', '|']) depfileRefuses(`a${c}b.h`, 1);
});

test('depfile: a tab, DEL, a vertical tab, U+2028 and a lone surrogate are refused (make split at the tab; U+2028 a line to a reader)', () => {
  for (const c of ['\t', '\x7f', '\v', '\u2028', '\u0085']) depfileRefuses(`a${c}b.h`, 1, JSON.stringify(c));
  depfileRefuses('a\ud800b.h', 1, 'lone surrogate');
  // a pair is a character: written as it is
  assert.is(depfilePath('a\u{1f600}b.h', path.posix), 'a\u{1f600}b.h');
  assert.is(depfilePath('é/шейдер.h', path.posix), 'é/шейдер.h');
});

test('depfile: a leading ~ (make: the home folder) and NAME(MEMBER) (make: an archive member) are refused', () => {
  depfileRefuses('~', 0);
  depfileRefuses('~root/x.h', 0);
  depfileRefuses('lib(x.o)', 7);
  // parentheses elsewhere are names (C:/Program Files (x86)/...)
  assert.is(depfilePath('C:\\Program Files (x86)\\x.h', path.win32), 'C:/Program\\ Files\\ (x86)/x.h');
  assert.is(depfilePath('a~b(c).h', path.posix), 'a~b(c).h');
});

test('depfile: on POSIX a backslash before a : or $ is refused as before a space, # or the end; before a letter it is a name', () => {
  depfileRefuses('a\\:b.h', 1);
  depfileRefuses('a\\$b.h', 1);
  assert.is(depfilePath('b\\s.h', path.posix), 'b\\s.h');
  assert.is(depfilePath('b\\\\s.h', path.posix), 'b\\\\s.h');
});

test('rootsig compile --depfile with a header named `x;y.h`: exit 1 naming the character, and -o not written either (it was written first)', async () => {
  const dir = join(work, 'semi');
  mkdirSync(dir);
  writeFileSync(join(dir, 'x;y.h'), '#define RS "RootFlags(0)"\n');
  writeFileSync(join(dir, 'm.hlsl'), '#include "x;y.h"\n');
  const r = await cli(['rootsig', 'compile', '--file', join(dir, 'm.hlsl'), '--define', 'RS', '--to', '1.1', '-o', join(dir, 'out.dxbc'), '--depfile', join(dir, 'out.d')]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, 'x;y.h');
  assert.match(r.err, /depfile cannot name/);
  assert.not.ok(existsSync(join(dir, 'out.dxbc')), '-o written');
  assert.not.ok(existsSync(join(dir, 'out.d')), 'depfile written');
  const p = await cli(['rootsig', 'preprocess', '--file', join(dir, 'm.hlsl'), '-o', join(dir, 'out.i'), '--depfile', join(dir, 'out.d')]);
  assert.is(p.code, 1, p.err);
  assert.not.ok(existsSync(join(dir, 'out.i')), 'preprocess -o written');
});

test('--depfile with standard output as the output (preprocess without -o, compile -o -) is a usage error, exit 2, nothing written (a rule for `-` was written)', async () => {
  const m = at('dash.hlsl', '#define RS "RootFlags(0)"\n');
  const d = join(work, 'dash.d');
  const p = await cli(['rootsig', 'preprocess', '--file', m, '--depfile', d]);
  assert.is(p.code, 2, p.err);
  oneLine(p.err, 'preprocess');
  assert.is(p.out, '');
  const c = await cli(['rootsig', 'compile', '--file', m, '--define', 'RS', '--to', '1.1', '-o', '-', '--depfile', d]);
  assert.is(c.code, 2, c.err);
  assert.is(c.out, '');
  assert.not.ok(existsSync(d), 'depfile written');
});

test('depfile: a refused character is named by its byte in the name\'s UTF-8 (field "depfile path"), not its UTF-16 index', () => {
  const e = thrown(() => depfilePath('шейдер%.h', path.posix)) as InputError;
  assert.ok(e instanceof InputError, String(e));
  assert.equal(e.at, { field: 'depfile path', offset: 12 });
  assert.match(e.detail, /U\+0025/);
});

/** Headers whose names hold every character a depfile escapes, and some it writes as they are. */
const SPELLED = ['a b.h', 'c#d.h', 'e$f.h', 'g:h.h', 'i\\j.h', 'k!l(m)n{o}p@q+r,s~t.h', 'é.h'];
/** A source including each of SPELLED (quoted names: a backslash in a quoted include is a character). */
function spelledTree(): { dir: string; main: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-r8-dep-'));
  for (const h of SPELLED) writeFileSync(join(dir, h), '');
  writeFileSync(join(dir, 'm.hlsl'), `${SPELLED.map((h) => `#include "${h}"\n`).join('')}#define RS "RootFlags(0)"\n`);
  return { dir, main: join(dir, 'm.hlsl') };
}

const tMake = requires('make', missingCommand('make'));
tMake('depfile read by GNU make: every header of a rootsig compile is a prerequisite as named, a touched one rebuilds, a deleted one does not stop make', async () => {
  const { dir } = spelledTree();
  const made = await inDir(dir, () => cli(['rootsig', 'compile', '--file', 'm.hlsl', '--define', 'RS', '--to', '1.1', '-o', 'out.dxbc', '--depfile', 'out.d']));
  assert.is(made.code, 0, made.err);
  writeFileSync(join(dir, 'Makefile'), 'include out.d\nout.dxbc: ; $(info [$^])@:\n');
  const listed = execFileSync('make', ['-s', '-B', 'out.dxbc'], { cwd: dir, encoding: 'utf8' });
  assert.is(listed, `[${['m.hlsl', ...SPELLED].join(' ')}]\n`);
  // each header as make stats it: newer than the output, the output is out of date (make -q exits 1)
  for (const h of SPELLED) {
    for (const f of ['m.hlsl', ...SPELLED]) utimesSync(join(dir, f), 1000, 1000);
    utimesSync(join(dir, 'out.dxbc'), 2000, 2000);
    execFileSync('make', ['-q', 'out.dxbc'], { cwd: dir });
    utimesSync(join(dir, h), 3000, 3000);
    const e = thrown(() => execFileSync('make', ['-q', 'out.dxbc'], { cwd: dir, stdio: 'pipe' })) as { status?: number } | undefined;
    assert.is(e?.status, 1, `${h}: make did not see it change`);
  }
  for (const h of SPELLED) fs.unlinkSync(join(dir, h));
  execFileSync('make', ['-s', 'out.dxbc'], { cwd: dir, encoding: 'utf8' }); // the empty rules: no "No rule to make target"
});

const tNinja = requires('ninja', missingCommand('ninja', ['--version']));
tNinja('depfile read by Ninja (deps = gcc): `ninja -t deps` lists every header as named', async () => {
  const { dir } = spelledTree();
  const made = await inDir(dir, () => cli(['rootsig', 'compile', '--file', 'm.hlsl', '--define', 'RS', '--to', '1.1', '-o', 'out.dxbc', '--depfile', 'out.d']));
  assert.is(made.code, 0, made.err);
  copyFileSync(join(dir, 'out.d'), join(dir, 'made.d'));
  writeFileSync(join(dir, 'build.ninja'), 'rule cc\n  command = cp made.d out.d && touch out.dxbc\n  depfile = out.d\n  deps = gcc\nbuild out.dxbc: cc\n');
  execFileSync('ninja', [], { cwd: dir, encoding: 'utf8' });
  const deps = execFileSync('ninja', ['-t', 'deps', 'out.dxbc'], { cwd: dir, encoding: 'utf8' }).split('\n').slice(1).filter(Boolean).map((l) => l.replace(/^ {4}/, ''));
  assert.equal(deps.sort(), ['m.hlsl', ...SPELLED].sort());
});

/** Runs `f` with the working directory `dir`. */
async function inDir<T>(dir: string, f: () => Promise<T>): Promise<T> {
  const was = process.cwd();
  process.chdir(dir);
  try {
    return await f();
  } finally {
    process.chdir(was);
  }
}

// ------------------------------------------------------------------ #include through links, loops and special files

test('#pragma once and an include guard see one file through two names (a link to the -I folder, a `self` link loop): read once, listed once', async () => {
  const dir = join(work, 'once');
  mkdirSync(join(dir, 'inc'), { recursive: true });
  writeFileSync(join(dir, 'inc/once.h'), '#pragma once\n#define X 1\n');
  writeFileSync(join(dir, 'inc/guard.h'), '#ifndef G\n#define G\n#define Y 2\n#endif\n');
  symlinkSync(join(dir, 'inc'), join(dir, 'inc2'));
  symlinkSync('.', join(dir, 'inc/self'));
  const main = join(dir, 'm.hlsl');
  writeFileSync(main, '#include <once.h>\n#include "inc2/once.h"\n#include "inc/self/self/self/once.h"\n#include "inc/guard.h"\n#include "inc2/self/guard.h"\n#define RS "RootFlags(0)"\n');
  const r = await cli(['rootsig', 'compile', '--file', main, '--define', 'RS', '-I', join(dir, 'inc'), '--to', '1.1', '-o', join(dir, 'o.dxbc'), '--depfile', join(dir, 'o.d')]);
  assert.is(r.code, 0, r.err);
  assert.is(r.err, '', 'no redefinition warning');
  const d = readFileSync(join(dir, 'o.d'), 'utf8');
  assert.is(d.split('once.h').length - 1, 2, d); // the prerequisite and its empty rule
  assert.is(d.split('guard.h').length - 1, 2, d);
});

test('#pragma once through a hard link: one file, as clang (file identity) and GNU cpp (contents) see it (it was read twice: the other branch taken, a redefinition warning)', async () => {
  const dir = join(work, 'hard');
  mkdirSync(dir);
  writeFileSync(join(dir, 'h.h'), '#pragma once\n#ifdef SEEN\n#define RS "CBV(b1)"\n#else\n#define SEEN\n#define RS "CBV(b0)"\n#endif\n');
  fs.linkSync(join(dir, 'h.h'), join(dir, 'h2.h'));
  const main = join(dir, 'm.hlsl');
  writeFileSync(main, '#include "h.h"\n#include "h2.h"\n');
  const r = await cli(['rootsig', 'compile', '--file', main, '--define', 'RS', '--to', '1.1', '-o', join(dir, 'o.dxbc'), '--depfile', join(dir, 'o.d')]);
  assert.is(r.code, 0, r.err);
  assert.is(r.err, '', 'a redefinition warning: read twice');
  const d = readFileSync(join(dir, 'o.d'), 'utf8');
  assert.not.ok(d.includes('h2.h'), d);
  const one = await cli(['rootsig', 'decompile', join(dir, 'o.dxbc')]);
  assert.match(one.out, /CBV\(b0/, one.out + one.err);
});

test('an -I folder that is a symlink cycle: the header is not found, one line, exit 1', async () => {
  symlinkSync(join(work, 'cyc-b'), join(work, 'cyc-a'));
  symlinkSync(join(work, 'cyc-a'), join(work, 'cyc-b'));
  const r = await cli(['rootsig', 'preprocess', '--file', at('cyc.hlsl', '#include <x.h>\n'), '-I', join(work, 'cyc-a')]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, '-I cycle');
  assert.match(r.err, /not found/);
});

test('#include of a folder, /dev/zero and a FIFO: "not a regular file", one line, exit 1, never read', async () => {
  mkdirSync(join(work, 'adir'));
  const cases = ['adir', '/dev/zero'];
  try {
    execFileSync('mkfifo', [join(work, 'inc-fifo')]);
    cases.push('inc-fifo');
  } catch {
    // no mkfifo: the folder and the device only
  }
  for (const name of cases) {
    const r = await cli(['rootsig', 'preprocess', '--file', at(`sp-${cases.indexOf(name)}.hlsl`, `#include "${name}"\n`)]);
    assert.is(r.code, 1, `${name}: ${r.err}`);
    oneLine(r.err, name);
    assert.match(r.err, /not a regular file/, name);
  }
});

test('#include of a file that grows while read: bounded by maxReadBytes, a typed error (never read to the end of memory)', () => {
  const grow = at('grow.h', '#define A 1\n');
  let reads = 0;
  // a file whose every read fills the buffer: it grows as fast as it is read
  const growing = { ...fs, readSync: (_fd: number, buf: Uint8Array, off: number, len: number) => (reads++, buf.fill(0x20, off, off + len), len) } as typeof fs;
  const f = new HlslFile('#include "grow.h"\n#define RS "RootFlags(0)"\n', join(work, 'main.hlsl'), {}, { maxReadBytes: 1 << 16 }, { host: fileSystemHost({ fs: growing, path }) });
  const e = thrown(() => f.defineText('RS'));
  assert.ok(e instanceof HlslError && /maxReadBytes/.test(e.message), String(e));
  assert.ok(reads < 64, `${reads} reads`);
  assert.ok(existsSync(grow));
});

// ------------------------------------------------------------------ response files

test('an @file naming itself through a link: refused as a cycle, one line', async () => {
  const real = at('me.rsp', '');
  symlinkSync(real, join(work, 'me-link.rsp'));
  writeFileSync(real, `@${join(work, 'me-link.rsp')}\n`);
  const r = await cli(['@' + real]);
  assert.ok(r.code === 1 || r.code === 2, r.err);
  oneLine(r.err, 'self through a link');
  assert.match(r.err, /itself|cycle/);
});

test('a response file of 2 GiB (sparse) is refused over the limit before it is read; 10^6 lines of one name hit the argument limit', async () => {
  const big = at('big.rsp');
  truncateSync(big, 2 ** 31);
  const r = await cli(['@' + big]);
  assert.ok(r.code === 1 || r.code === 2, r.err);
  oneLine(r.err, '2 GiB');
  const many = at('many-one.rsp', `hash\n--check\n${`${RS}\r\n`.repeat(1_000_000)}`);
  const m = await cli(['@' + many]);
  assert.is(m.code, 2, m.err.slice(0, 300));
  oneLine(m.err, '10^6 lines');
  assert.is(m.out, '');
});

// ------------------------------------------------------------------ batch: one file per job

const convert = (out: string, to = '1.1') => JSON.stringify(['rootsig', 'convert', RS, '--to', to, '-o', out]);
/** The batch answers of `lines`, parsed. */
async function batch(lines: string[], file?: string): Promise<{ code: number; answers: { exit: number; stderr: string }[] }> {
  const r = file ? await cli(['batch', file]) : await cli(['batch', '-'], `${lines.join('\n')}\n`);
  return { code: r.code, answers: r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { exit: number; stderr: string }) };
}

test('batch: two jobs writing one file (also through a link or ./) are refused at the second, exit 2; the first one\'s bytes stay', async () => {
  const out = join(work, 'b-out.dxbc');
  symlinkSync(out, join(work, 'b-link.dxbc'));
  const { code, answers } = await batch([convert(out), convert(join(work, '.', 'b-out.dxbc'), '1.0'), convert(join(work, 'b-link.dxbc'), '1.0')]);
  assert.is(code, 2);
  assert.equal(answers.map((a) => a.exit), [0, 2, 2]);
  for (const a of answers.slice(1)) {
    // after the conversion's own warnings (1.0 drops flags), the refusal's line
    oneLine(a.stderr.trimEnd().split('\n').pop()!, 'second writer');
    assert.match(a.stderr, /also written by the job of line 1/);
  }
  const alone = join(work, 'b-alone.dxbc');
  assert.is((await cli(['rootsig', 'convert', RS, '--to', '1.1', '-o', alone])).code, 0);
  assert.equal(new Uint8Array(readFileSync(out)), new Uint8Array(readFileSync(alone)), 'the first job\'s output was replaced');
  // one job writing its own two outputs, and a later job reading the first's output: still fine
  const two = await batch([convert(join(work, 'c1.dxbc')), JSON.stringify(['hash', join(work, 'c1.dxbc')])]);
  assert.equal(two.answers.map((a) => a.exit), [0, 0]);
});

test('batch: a job of many inputs (threads with --jobs) whose one output an earlier job wrote is refused before any of its outputs is written', async () => {
  const dir = join(work, 'many-out');
  mkdirSync(dir);
  const other = join(work, 'other-rs.dxbc');
  copyFileSync(RS, other);
  const { answers } = await batch([convert(join(dir, 'rs.dxbc')), JSON.stringify(['rootsig', 'convert', other, RS, '--to', '1.0', '--out-dir', dir, '--jobs', '2'])]);
  assert.equal(answers.map((a) => a.exit), [0, 2]);
  assert.match(answers[1]!.stderr, /also written by the job of line 1/);
  assert.not.ok(existsSync(join(dir, 'other-rs.dxbc')), 'the job\'s first output was written before its second was refused');
});

test('batch: a job writing the jobs file is refused, exit 2 (the list being run was replaced)', async () => {
  const jobs = join(work, 'jobs.ndjson');
  writeFileSync(jobs, `${convert(jobs)}\n`);
  const before = readFileSync(jobs, 'utf8');
  const { answers } = await batch([], jobs);
  assert.equal(answers.map((a) => a.exit), [2]);
  oneLine(answers[0]!.stderr, 'jobs file');
  assert.match(answers[0]!.stderr, /jobs file/);
  assert.is(readFileSync(jobs, 'utf8'), before);
});

test('batch: a job with no arguments (`[]`, `{"args": []}`, only an empty response file) is a one-line error answer, exit 2 (was the whole help text, 10 KB for 3 bytes)', async () => {
  const empty = at('empty.rsp', '\n');
  const r = await cli(['batch', '-'], `[]\n{"args":[]}\n${JSON.stringify(['@' + empty])}\n`);
  assert.is(r.code, 2);
  const answers = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { exit: number; stderr: string });
  assert.equal(answers.map((a) => a.exit), [2, 2, 2]);
  for (const a of answers) {
    oneLine(a.stderr, 'no arguments');
    assert.match(a.stderr, /no command/);
  }
  assert.ok(r.out.length < 600, `${r.out.length} bytes`);
});

test('batch: an unknown key of 10,000 U+0085 is cut where its escaped text passes 64 characters (was cut at 64 input characters, 450 in the message)', () => {
  const e = thrown(() => batchJob(JSON.stringify({ args: ['inspect'], ['\u0085'.repeat(10_000)]: 1 }), 'jobs', 1)) as InputError;
  assert.ok(e instanceof InputError, String(e));
  oneLine(e.message, 'U+0085 key');
  assert.ok(e.message.length < 200, `${e.message.length} characters`);
  assert.match(e.message, /\+\d+ characters/);
});

// ------------------------------------------------------------------ rollup ids

const ctx = rollupContext;

test('rollup: an id starting with NUL is another plugin\'s virtual module: not loaded, not resolved (it was claimed: "no such file")', () => {
  const p = dxbin();
  assert.is(p.load.call(ctx as never, '\0virtual.rs.hlsl'), null);
  assert.is(p.load.call(ctx as never, '\0virtual.hlsl?rootsig&define=RS'), null);
  assert.is(p.resolveId.call(ctx as never, '\0/x.rs.hlsl', undefined), null);
});

test('rollup: a relative import from an importer with a query holding / resolves next to the importer (the query was taken for folders)', () => {
  const p = dxbin();
  assert.is(p.resolveId.call(ctx as never, './a.rs.hlsl', '/src/main.js?v=1/x/y'), '/src/a.rs.hlsl');
  assert.is(p.resolveId.call(ctx as never, './a.hlsl?rootsig&define=RS', '/src/App.vue?vue&type=script&lang.ts'), '/src/a.hlsl?rootsig&define=RS');
});

test('rollup: a query value holding NUL, or 10,000 U+2028, is escaped and cut in one short line', () => {
  const file = at('q.hlsl', '#define RS "RootFlags(0)"\n');
  for (const [q, has] of [[`define=R%00S`, /R\\x00S/], [`define=RS&version=${'%E2%80%A8'.repeat(10_000)}`, /version/]] as const) {
    const e = thrown(() => dxbin().load.call(ctx as never, `${file}?rootsig&${q}`)) as Error & { bundler?: boolean };
    assert.ok(e instanceof Error && e.bundler, String(e));
    oneLine(e.message, q.slice(0, 30));
    assert.ok(e.message.length < 250, `${e.message.length} characters`);
    assert.match(e.message, has);
  }
});

// ------------------------------------------------------------------ inspect --html

test('inspect --html: a file name with a newline, U+2028, <!-- and <script> starts no line of the page and stands in it escaped', async () => {
  const name = at('x\n<!--EVIL\u2028<script>.dxbc', readFileSync(RS));
  const page = join(work, 'page.html');
  const r = await cli(['inspect', name, '--html', page]);
  assert.is(r.code, 0, r.err);
  const html = readFileSync(page, 'utf8');
  for (const line of html.split('\n')) assert.not.ok(/^&#60;!--EVIL|EVIL/.test(line) && !line.includes('x\\x0a'), `a line the input chose: ${JSON.stringify(line.slice(0, 120))}`);
  assert.not.ok(/[\u2028\u2029\x00-\x09\x0b-\x1f]/.test(html), 'a raw control or line separator');
  assert.not.ok(/<!--|<script/i.test(html), 'raw markup from the name');
  assert.match(html, /x\\x0a&#60;!--EVIL\\u\{2028\}&#60;script&#62;/);
});

test('inspect --html: a part FourCC of `<!-` and control bytes is escaped in the page', async () => {
  const c = onePartContainer([0x3c, 0x21, 0x2d, 0x0a]);
  const page = join(work, 'fourcc.html');
  const r = await cli(['inspect', '--lenient', at('fourcc.dxbc', c), '--html', page]);
  assert.ok(r.code === 0 || r.code === 1, r.err);
  if (existsSync(page)) {
    const html = readFileSync(page, 'utf8');
    assert.not.ok(/<!-/.test(html), 'raw <!-');
    assert.not.ok(/[\x00-\x09\x0b-\x1f]/.test(html), 'raw control');
  } else oneLine(r.err, 'fourcc');
});

// ------------------------------------------------------------------ verify, the persistent worker

test('verify of a file named with a newline and ESC: one escaped line, exit 1', async () => {
  const r = await cli(['verify', at(`v${NL}${ESC}.dxbc`, readFileSync(RS))]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, 'verify');
});

test('verify of a shader named with a newline and ESC that does not fit: the violation once, one escaped line; stdout escaped too', async () => {
  const shader = at(`ps${NL}${ESC}.dxil`, readFileSync(join(CORPUS, 'shaders/brawler/PSODefinition__TEST_PSO__PIXEL_SHADER_BYTECODE.dxil')));
  const rs = at(`rs${NL}.dxbc`, readFileSync(join(CORPUS, 'rootsig/brawler__RootSignatureDefinition__DEFERRED_GEOMETRY_RASTER__SERIALIZED_ROOT_SIGNATURE_VERSION_1_0.dxbc')));
  const r = await cli(['verify', shader, '--rootsig', rs]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, 'the violation');
  assert.is(r.err.split('not fully bound').length - 1, 1, r.err);
  assert.not.match(r.out, /not fully bound/);
  for (const line of r.out.split('\n')) {
    assert.not.ok(/^\s*EVIL/.test(line) || RAW.test(line), `stdout: ${JSON.stringify(line)}`);
  }
});

test('worker: a request of 10^5 arguments and one of 10^6 input digests: one response each, in proportion', async () => {
  const big = JSON.stringify({ arguments: ['hash', ...new Array(100_000).fill(RS)], requestId: 1 });
  const digests = JSON.stringify({ arguments: ['hash', RS], requestId: 2, inputs: Array.from({ length: 1_000_000 }, (_, i) => ({ path: `p${i}`, digest: 'ab' })) });
  const r = await cli(['--persistent_worker'], `${big}\n${digests}\n`);
  assert.is(r.code, 0, r.err);
  const res = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { exitCode: number; output: string; requestId: number });
  assert.equal(res.map((x) => [x.requestId, x.exitCode]), [[1, 2], [2, 0]]);
  assert.ok(r.out.length < 2000, `${r.out.length} bytes`);
  oneLine(res[0]!.output, '10^5 arguments');
});

// ------------------------------------------------------------------ the compiled-code cache

const Module = createRequire(import.meta.url)('node:module') as object;
const scope = { module: { constructor: Module }, dynamicImport: (s: string) => import(s) };

test('compile cache: an entry whose code bytes are damaged (header and source copy intact) is not handed to V8; the chunk compiles without', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-r8-cc-'));
  // a chunk of its own source, so that no other test's compilation of it is in V8's memory
  writeFileSync(join(dir, 'a.cjs'), "'use strict';\nexports.answer = [1, 2, 3].map((x) => x * 14).reduce((a, b) => a + b) / 2;\n");
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-r8-cache-'));
  const first = chunkLoader(scope, cache);
  assert.is((first.require('./a.cjs', dir) as { answer: number }).answer, 42);
  first.flush();
  const file = join(cache, `a.cjs.${process.versions.v8}.${process.arch}.cache`);
  const good = readFileSync(file);
  const bad = Buffer.from(good);
  bad[bad.length - 20]! ^= 0xff; // inside V8's payload, past every header V8 checks
  writeFileSync(file, bad);
  const loader = chunkLoader(scope, cache);
  assert.is((loader.require('./a.cjs', dir) as { answer: number }).answer, 42);
  assert.equal(loader.loads.map((l) => l.cached), [false], 'the damaged cache was used');
});

test.run();
