/**
 * Hostile inputs on the build-step surfaces (2026-12-03, hJ): the persistent worker's requests
 * (their arguments, sandboxDir, verbosity, @files in them), batch lines, response files and
 * `--param-file-format`, the one read loop of regular files, `-I` and depfiles, the compiled-code
 * cache's entries, glob patterns, the rollup plugin's options and import queries, and pipeline
 * state streams' subobject lists. Inputs no mutation reaches are generated: 10^5-deep braces,
 * 10^6 unclosed classes, 5 x 10^4 folders in a pattern, sparse lists of length 2^32 - 1, a DAG of
 * response files naming each other twice (2^40 paths), FIFOs and planted links in the cache
 * folder, lone surrogates in JSON strings, names that end in a backslash, control and bidi
 * characters in every name and value that can reach a message or a generated line. Each must
 * give a typed DxbinError naming its field (in the CLI: one line naming the file or option, exit
 * 1 or 2, no stack trace), or the right answer; never a hang (the work is charged to the work
 * budget and the tests count it), output out of proportion, input-chosen text raw in a message,
 * a silently wrong answer, or one of two readings chosen without a word.
 *
 * Tally (measured on 48174c7, the source before this round; each test below counted once, most
 * hold several inputs): 41 tests, 28 broke, all mended (11 commits, each at the boundary the
 * inputs pass):
 * - a hang or quadratic work (5): a FIFO as a compiled-code cache entry (every run waited); a
 *   sparse subobject list of 2^32 - 1 (walked); 10^5 nested braces, 10^6 unclosed `[` and
 *   5 x 10^4 literal folders in a glob (quadratic, uncharged: minutes).
 * - silently wrong (12): a worker's own --param-file-format dropped for its requests' @files;
 *   a request naming --persistent_worker answered 0 having run nothing; a sandboxDir's NUL cut the
 *   name (the folder up to it entered); a lone surrogate in a request's or a batch job's argument
 *   opened a file named with U+FFFD; a batch job's unknown key dropped; --param-file-format inside
 *   a response file split nothing; procfs files (size 0) read as empty, as an input and a
 *   response file; a header named `b\` listed so that Make read `b `; an `-I` with a NUL gave
 *   "file not found"; a planted link at the cache's temp name written through; a subobject's
 *   extra key dropped.
 * - the rollup plugin (6 tests): options of the wrong type read as others or a raw TypeError, a
 *   misspelt key dropped, an empty suffix claiming every import; a repeated query parameter or
 *   define= with entry= resolved by taking one; validate=no read as true; the file name and query
 *   values raw in messages; C1 controls raw in the generated module.
 * - raw text or the wrong exit (5): a worker request's response-file error (ESC, a newline: a
 *   line of its own), a usage error in it as exit 1, sandboxDir failures in the system's words
 *   (ENOENT, chdir, the name raw), the verbosity-10 line; a hole in a subobject list a raw
 *   TypeError.
 * Not mended here (owned elsewhere): a 30,000-character `#include` name is quoted whole in the
 * preprocessor's "file not found" (the -I test uses a 3,000-character one).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MESSAGE, onePartContainer, rollupContext, RAW, refused, thrown } from './helpers/hostile.js';
import { requires, missingCommand, missingPath } from './helpers/requires.js';
import { Budget, DxbinError, LimitError } from '../src/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { parseWorkRequest } from '../src/build-step/work-requests.js';
import { batchJob } from '../src/build-step/batch-jobs.js';
import { expandResponseFiles, readRegularFile } from '../src/build-step/argfiles.js';
import { depfileText } from '../src/cli/includes.js';
import { chunkLoader } from '../src/cli/compile-cache.js';
import { compileSegment, expandBraces, globFiles } from '../src/cli/glob.js';
import dxbin from '../src/rollup/index.js';
import { decodeStream, encodeStream, streamSize, subobjectDefault, type Subobject } from '../src/pipeline/stream.js';

const ESC = 'e\x1b[2J\u202e';
const NL = 'n\nEVIL: forged line';


/** A message as the CLI's contract wants it: one line (a trailing newline aside), nothing raw, short, no stack. */
function oneLine(text: string, label: string): void {
  const body = text.replace(/\n$/, '');
  assert.not.ok(body.includes('\n'), `${label}: more than one line: ${JSON.stringify(body.slice(0, 300))}`);
  assert.not.ok(RAW.test(body), `${label}: raw text in ${JSON.stringify(body.slice(0, 300))}`);
  assert.not.ok(/\n\s+at \S+ \(|internal error/.test(text), `${label}: a stack or an internal error`);
  assert.ok(body.length <= 4096 + 200, `${label}: a ${body.length}-character message`);
}

const work = mkdtempSync(join(tmpdir(), 'dxbin-hbs-'));
const at = (name: string, data: string | Uint8Array = '') => {
  const p = join(work, name);
  writeFileSync(p, data);
  return p;
};
const RS_HLSL = at('rs.hlsl', '#define RS "RootFlags(0)"\n[RootSignature("RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)")]\nvoid main() {}\n');

async function cli(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const s = captureStreams(Buffer.from(stdin));
  const code = await run(args, s);
  return { code, out: s.stdout(), err: s.stderr() };
}

interface WorkResponse {
  exitCode?: number;
  output?: string;
  requestId?: number;
  wasCancelled?: boolean;
}
/** The worker's responses to `requests` (each a JSON line), with the worker's own arguments `prefix`. */
async function worker(requests: unknown[], prefix: string[] = []): Promise<WorkResponse[]> {
  const r = await cli([...prefix, '--persistent_worker'], requests.map((q) => `${typeof q === 'string' ? q : JSON.stringify(q)}\n`).join(''));
  assert.is(r.code, 0, r.err);
  return r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as WorkResponse);
}
/** The one response of one request: its exit code, its output one line as the contract wants. */
async function workerRefusal(request: unknown, exitCode: number, label: string, has?: RegExp): Promise<string> {
  const [res, ...more] = await worker([request]);
  assert.is(more.length, 0, `${label}: one response`);
  assert.is(res!.exitCode, exitCode, `${label}: ${res!.output}`);
  oneLine(res!.output ?? '', label);
  if (has) assert.match(res!.output ?? '', has, label);
  return res!.output ?? '';
}

// ------------------------------------------------------------------ the persistent worker

test('worker: a response-file error of a request is one escaped line (a name with ESC and a newline printed raw)', async () => {
  await workerRefusal({ arguments: ['@' + join(work, `missing${ESC}${NL}`)], requestId: 1 }, 1, '@missing', /cannot read the response file/);
});

test('worker: a usage error in a request\'s response-file options is exit 2, escaped (was exit 1, ESC raw)', async () => {
  await workerRefusal({ arguments: ['--param-file-format', `bogus${ESC}`, 'inspect'], requestId: 2 }, 2, 'bogus format', /--param-file-format/);
});

test('worker: a request that would start a worker inside the worker is refused, exit 2 (was exit 0 and no output)', async () => {
  await workerRefusal({ arguments: ['--persistent_worker'], requestId: 3 }, 2, 'nested worker', /persistent_worker/);
  const rsp = at('nested-worker.rsp', 'inspect\n--persistent_worker\n');
  await workerRefusal({ arguments: ['@' + rsp], requestId: 4 }, 2, 'nested worker through @file', /persistent_worker/);
});

test('worker: a request with no arguments (`{}`) is a one-line usage error, exit 2 (was the whole help text, 2 KB for 2 bytes)', async () => {
  const out = await workerRefusal({}, 2, 'empty request', /names no command/);
  assert.ok(out.length < 200, `${out.length} bytes`);
  await workerRefusal({ arguments: [], requestId: 6 }, 2, 'no arguments', /names no command/);
});

test('worker: verbosity 10 names the command line escaped (an argument with a newline made a line of its own)', async () => {
  const [res] = await worker([{ arguments: ['inspect', NL], requestId: 5, verbosity: 10 }]);
  for (const line of (res!.output ?? '').split('\n')) {
    assert.not.ok(/^\s*EVIL/.test(line), `a line the input chose: ${JSON.stringify(line)}`);
    assert.not.ok(RAW.test(line), `raw text: ${JSON.stringify(line)}`);
  }
  assert.match(res!.output ?? '', /request 5/);
});

test('worker: a sandboxDir with a NUL is refused (the folder up to the NUL was the working directory)', async () => {
  const sb = join(work, 'sandbox');
  mkdirSync(sb, { recursive: true });
  writeFileSync(join(sb, 'here.hlsl'), '#define RS "RootFlags(0)"\n');
  const out = await workerRefusal({ arguments: ['rootsig', 'compile', '--file', 'here.hlsl', '-E', 'RS', '-o', '-'], requestId: 6, sandboxDir: `${sb}\0x` }, 2, 'sandboxDir NUL', /sandboxDir/);
  assert.not.ok(out.includes('DXBC'), out);
});

test('worker: a sandboxDir that is missing is said in words, escaped (was the system message, its ENOENT and the name raw)', async () => {
  const out = await workerRefusal({ arguments: ['inspect', 'x'], requestId: 7, sandboxDir: join(work, `nope${ESC}`) }, 1, 'sandboxDir missing', /sandboxDir/);
  assert.not.ok(/ENOENT|chdir/.test(out), out);
});

test('worker: a lone surrogate in an argument is refused (a file name of U+FFFD was opened instead)', async () => {
  const r = parseWorkRequest('{"arguments":["inspect","a\\ud800b"],"requestId":8}');
  assert.ok('error' in r && /arguments\[1\]/.test(r.error), JSON.stringify(r));
  assert.is((r as { requestId: number }).requestId, 8);
  writeFileSync(join(work, 'a\ufffdb'), 'not a container');
  await workerRefusal('{"arguments":["hash",' + JSON.stringify(join(work, 'a')).slice(0, -1) + '\\udc00b"],"requestId":9}', 2, 'lone surrogate', /surrogate/);
  // a pair is a character: taken
  const ok = parseWorkRequest('{"arguments":["\\ud83d\\ude00"],"requestId":10}');
  assert.ok(!('error' in ok) && ok.arguments[0] === '\u{1f600}', JSON.stringify(ok));
});

test('worker: deep nesting (10^5) in a field the request does not have costs no stack; the request runs', async () => {
  const deep = `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)},"arguments":["help"],"requestId":11}`;
  const [res] = await worker([deep]);
  assert.is(res!.requestId, 11);
  assert.is(res!.exitCode, 0, res!.output);
});

test('worker: startup --param-file-format applies to the requests\' @files (it was dropped: requests read theirs as auto)', async () => {
  // `lines` keeps the quotes; `auto` would read this file as Bazel's shell format and drop them
  const rsp = at('quoted.rsp', "hash\n'q-name.dxbc'\n");
  const [res] = await worker([{ arguments: ['@' + rsp], requestId: 12 }], ['--param-file-format', 'lines']);
  assert.match(res!.output ?? '', /dxbin: 'q-name\.dxbc': /, res!.output);
  const [auto] = await worker([{ arguments: ['@' + rsp], requestId: 13 }]);
  assert.match(auto!.output ?? '', /dxbin: q-name\.dxbc: /, auto!.output);
});

// ------------------------------------------------------------------ batch lines

test('batch: a lone surrogate in a job argument and an unknown key of a job object are refused', () => {
  const e1 = thrown(() => batchJob('["inspect","a\\ud800"]', 'jobs', 1)) as Error;
  assert.ok(e1 instanceof Error && /args\[1\]|argument 1/.test(e1.message) && /surrogate/.test(e1.message), String(e1));
  const e2 = thrown(() => batchJob('{"id":1,"args":["inspect","x"],"cwd":"/"}', 'jobs', 2)) as Error;
  assert.ok(e2 instanceof Error && /"cwd"/.test(e2.message), String(e2));
  const e3 = thrown(() => batchJob('{"id":1,"args":["inspect"],"__proto__":{"args":["batch"]}}', 'jobs', 3)) as Error;
  assert.ok(e3 instanceof Error && /__proto__/.test(e3.message), String(e3));
  assert.equal(batchJob('{"id":1,"args":["inspect"]}', 'jobs', 4), { id: 1, args: ['inspect'] });
});

// ------------------------------------------------------------------ response files

test('response files: a DAG of 40 files each naming the next twice (2^40 paths) runs out of the budget, one line, exit 1', async () => {
  const dag = join(work, 'dag');
  mkdirSync(dag, { recursive: true });
  for (let i = 0; i < 40; i++) writeFileSync(join(dag, `f${i}`), i === 39 ? 'x\n' : `@${join(dag, `f${i + 1}`)}\n@${join(dag, `f${i + 1}`)}\n`);
  assert.ok(thrown(() => expandResponseFiles(['@' + join(dag, 'f0')])) instanceof LimitError);
  const r = await cli(['@' + join(dag, 'f0')]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, 'DAG');
});

test('response files: --param-file-format inside a response file is refused (it applied to nothing, without a word)', async () => {
  const inner = at('inner.rsp', "'a b'\n");
  const rsp = at('fmt-inside.rsp', `--param-file-format\nlines\nhash\n@${inner}\n`);
  const r = await cli(['@' + rsp]);
  assert.is(r.code, 2, r.err + r.out);
  oneLine(r.err, 'format inside');
  assert.match(r.err, /--param-file-format/);
});

test('response files: shell and msbuild splitting stays linear on 10^6-character runs (quotes, backslashes), answers right', () => {
  const q = at('shell-long.rsp', `${"\\'".repeat(200_000)}\n`);
  const [word] = expandResponseFiles(['--param-file-format', 'shell', '@' + q]);
  assert.is(word, "'".repeat(200_000));
  const m = at('ms-long.rsp', `${'\\'.repeat(1_000_000)}"x"`);
  const [w2] = expandResponseFiles(['--param-file-format', 'msbuild', '@' + m]);
  assert.is(w2, `${'\\'.repeat(500_000)}x`);
  const u = at('shell-open.rsp', `${'a '.repeat(100_000)}'unclosed`);
  const e = thrown(() => expandResponseFiles(['--param-file-format', 'shell', '@' + u])) as Error;
  assert.ok(e instanceof Error && /unterminated single quote/.test(e.message), String(e));
});

test('response files: auto reading of 200,000 lines of a lone quote is the lines reading, linear', () => {
  const f = at('quotes.rsp', "'\n".repeat(200_001));
  const args = expandResponseFiles(['@' + f]);
  // not Bazel's shell format (an odd count of quotes): one argument per line, as is
  assert.is(args.length, 200_001);
  assert.ok(args.every((a) => a === "'"));
});

const tProc = requires('/proc', missingPath('/proc/self/status'));
tProc('the one read loop: a regular file whose size reads 0 (procfs) is read to its end, bounded (it was read as empty)', () => {
  const status = readRegularFile('/proc/self/status', 1 << 20, 'response file');
  assert.ok(status.byteLength > 0 && new TextDecoder().decode(status).includes('Pid:'), `${status.byteLength} bytes`);
  const e = thrown(() => readRegularFile('/proc/self/status', 16, 'response file')) as Error;
  assert.ok(e instanceof Error && /over the limit of 16/.test(e.message), String(e));
});

tProc('the CLI reads /proc files as they are: `@/proc/self/...` is its content, `hash /proc/version` not "an empty file"', async () => {
  const r = await cli(['hash', '/proc/version']);
  assert.is(r.code, 1);
  oneLine(r.err, 'hash /proc/version');
  assert.not.ok(/empty file/.test(r.err), r.err);
});

// ------------------------------------------------------------------ -I and depfiles

test('-I with a NUL is refused at the option, exit 2 (no folder has one; it was "zz.h file not found" with zz.h in the folder named)', async () => {
  const inc = join(work, 'inc');
  mkdirSync(inc, { recursive: true });
  writeFileSync(join(inc, 'zz.h'), '#define RS "RootFlags(0)"\n');
  const src = at('incl.hlsl', '#include <zz.h>\n');
  const r = await cli(['rootsig', 'compile', '--file', src, '-E', 'RS', '--to', '1.1', '-I', `${inc}\0x`, '-o', '-']);
  assert.is(r.code, 2, r.err);
  oneLine(r.err, '-I NUL');
  assert.match(r.err, /-I/);
  assert.is(r.out, '');
});

test('-I of 100,000 characters and a 1,000-deep ../ include: not found, one line', async () => {
  const src = at('deep-dots.hlsl', `#include "${'../'.repeat(1000)}etc/none.h"\n`);
  const r = await cli(['rootsig', 'preprocess', '--file', src, '-I', 'd'.repeat(100_000)]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, 'long -I');
});

test('#include through a link to itself: the depth limit, one line, exit 1', async () => {
  const loop = join(work, 'loop');
  mkdirSync(loop, { recursive: true });
  writeFileSync(join(loop, 'a.h'), '#include "b.h"\n');
  symlinkSync('a.h', join(loop, 'b.h'));
  const r = await cli(['rootsig', 'preprocess', '--file', join(loop, 'a.h')]);
  assert.is(r.code, 1, r.err);
  oneLine(r.err, 'include loop');
});

test('depfiles: a name Make would read as another (a backslash before a space, a # or the end) is refused, not written', () => {
  for (const name of ['b\\', 'b\\ c', 'x\\#y']) {
    const e = thrown(() => depfileText('out.dxbc', ['a.hlsl', name], { sep: '/' } as never)) as Error;
    assert.ok(e instanceof Error && (e as { code?: string }).code === 'not-writable', `${JSON.stringify(name)}: ${String(e)}`);
    oneLine(e.message, name);
  }
  // a backslash elsewhere is no escape to Make: written as it is
  assert.match(depfileText('out.dxbc', ['a\\b.h']), /a\\b\.h/);
});

const tMake = requires('make', missingCommand('make'));
tMake('depfiles: names with spaces, # and $ are found by make as written (a misread name is a missing prerequisite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-hbs-make-'));
  const deps = ['a b.h', 'c#d.h', 'e$f.h', 'g\\h.h'];
  for (const d of deps) writeFileSync(join(dir, d), '');
  writeFileSync(join(dir, 'deps.d'), depfileText('out', deps));
  writeFileSync(join(dir, 'Makefile'), 'include deps.d\nout: ; @echo made\n');
  assert.is(execFileSync('make', ['-s', 'out'], { cwd: dir, encoding: 'utf8' }), 'made\n');
});

// ------------------------------------------------------------------ the compiled-code cache

const Module = createRequire(import.meta.url)('node:module') as object;
const scope = { module: { constructor: Module }, dynamicImport: (s: string) => import(s) };
function chunkDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-hbs-cc-'));
  writeFileSync(join(dir, 'a.cjs'), "'use strict';\nexports.answer = 42;\n");
  return dir;
}
/** The cache file name the loader uses for `a.cjs`. */
const cacheName = `a.cjs.${process.versions.v8}.${process.arch}.cache`;
/** A fresh loader over `cache` answers `a.cjs` right, compiling it without the cache's entry. */
function compiledWithoutCache(cache: string, dir: string): void {
  const loader = chunkLoader(scope, cache);
  assert.is((loader.require('./a.cjs', dir) as { answer: number }).answer, 42);
  assert.equal(loader.loads.map((l) => l.cached), [false]);
}

const tFifo = requires('mkfifo', missingCommand('mkfifo', ['--version']));
tFifo('compile cache: an entry that is a FIFO (or a link to one) is not read: no wait, the chunk compiles without', () => {
  const dir = chunkDir();
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-hbs-cache-'));
  execFileSync('mkfifo', [join(cache, 'fifo')]);
  symlinkSync('fifo', join(cache, cacheName));
  compiledWithoutCache(cache, dir);
});

test('compile cache: an entry of a device (/dev/zero) is not read (it was read until memory ran out)', () => {
  if (!existsSync('/dev/zero')) return;
  const dir = chunkDir();
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-hbs-cache-'));
  symlinkSync('/dev/zero', join(cache, cacheName));
  compiledWithoutCache(cache, dir);
});

test('compile cache: a header claiming 2^32-1 bytes of source, or the source cut short, is not used; the answer is the same', () => {
  const dir = chunkDir();
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-hbs-cache-'));
  const first = chunkLoader(scope, cache);
  first.require('./a.cjs', dir);
  first.flush();
  const good = readFileSync(join(cache, cacheName));
  const magic = Buffer.from('dxbin compiled-code cache 1\n', 'latin1').length;
  const huge = Buffer.from(good);
  huge.writeUInt32LE(0xffffffff, magic);
  for (const bad of [huge, good.subarray(0, magic + 4 + 10)]) {
    writeFileSync(join(cache, cacheName), bad);
    compiledWithoutCache(cache, dir);
  }
});

test('compile cache: a link planted at the temp name is not written through (the file it names is left as it was)', () => {
  const dir = chunkDir();
  const cache = mkdtempSync(join(tmpdir(), 'dxbin-hbs-cache-'));
  const victim = at('victim.txt', 'mine');
  symlinkSync(victim, join(cache, `${cacheName}.${process.pid}.tmp`));
  const loader = chunkLoader(scope, cache);
  loader.require('./a.cjs', dir);
  loader.flush();
  assert.is(readFileSync(victim, 'utf8'), 'mine');
});

// ------------------------------------------------------------------ globs: the work is linear in the pattern and charged

test('glob: 100,000 nested braces without a comma: linear, charged to the budget (the brace scan was quadratic and uncharged)', () => {
  const n = 100_000;
  const pattern = `${'{'.repeat(n)}${'}'.repeat(n)}`;
  const budget = Budget.for(pattern.length);
  assert.equal(expandBraces(pattern, budget), [pattern]);
  const states = budget.used('states');
  assert.ok(states >= pattern.length && states <= 4 * pattern.length, `${states} states for ${pattern.length} characters`);
  // one comma at the bottom: two patterns, each a copy
  const one = `${'{'.repeat(1000)}a,b${'}'.repeat(1000)}`;
  assert.equal(expandBraces(one).length, 2);
});

test('glob: 10^6 unclosed [ in one segment: literal characters, linear, charged (each [ searched the rest of the segment)', () => {
  const n = 1_000_000;
  const budget = Budget.for(n);
  const tokens = compileSegment('['.repeat(n), budget);
  assert.is(tokens.length, n);
  assert.ok(tokens.every((t) => t.kind === 'char'));
  const states = budget.used('states');
  assert.ok(states >= n && states <= 4 * n, `${states} states`);
  // a class still closes where it did
  assert.equal(compileSegment('[[a]b').map((t) => t.kind), ['class', 'char']);
});

test('glob: a pattern of 50,000 literal folders then * is charged linearly (the folders were dropped one copy at a time)', () => {
  const pattern = `${'a/'.repeat(50_000)}*`;
  const budget = Budget.for(pattern.length);
  assert.equal(globFiles(pattern, work, budget), []);
  const states = budget.used('states');
  assert.ok(states >= 50_000 && states <= 4 * pattern.length, `${states} states`);
});

test('glob: **/ 2,000 times over a small tree, and a NUL in a pattern: bounded, typed, no throw of another kind', () => {
  const tree = join(work, 'tree');
  mkdirSync(join(tree, 'x/y'), { recursive: true });
  writeFileSync(join(tree, 'x/y/f.dxbc'), '');
  const e = thrown(() => globFiles(`${'**/'.repeat(2000)}*.dxbc`, tree));
  assert.ok(e === undefined || e instanceof LimitError, String(e));
  assert.equal(globFiles('x/y/f\0*', tree), []);
  assert.equal(globFiles('**/*.dxbc', tree), ['x/y/f.dxbc']);
});

// ------------------------------------------------------------------ the rollup plugin

const ctx = rollupContext;
/** The bundler error of loading `id`: escaped, one line, short. */
function loadRefused(plugin: ReturnType<typeof dxbin>, id: string, label: string, has?: RegExp): string {
  const e = thrown(() => plugin.load.call(ctx as never, id)) as Error & { bundler?: boolean };
  assert.ok(e instanceof Error && e.bundler, `${label}: expected a bundler error, got ${String(e)}`);
  oneLine(e.message, label);
  if (has) assert.match(e.message, has, label);
  return e.message;
}

test('rollup options: null, a misspelt key, wrong types, an empty suffix, a host that is none: refused at dxbin(options), naming the option', () => {
  refused(() => dxbin(null as never), 'bad-type', 'options', 'null');
  refused(() => dxbin({ includeDir: ['inc'] } as never), 'unknown-key', 'options.includeDir', 'includeDir');
  refused(() => dxbin(JSON.parse('{"__proto__": {"validate": false}}')), 'unknown-key', 'options.__proto__', '__proto__');
  refused(() => dxbin({ defines: 'FOO' as never }), 'bad-type', 'options.defines', 'defines a string');
  refused(() => dxbin({ defines: ['A', 1 as never] }), 'bad-type', 'options.defines[1]', 'a define that is a number');
  refused(() => dxbin({ includeDirs: 'inc' as never }), 'bad-type', 'options.includeDirs', 'includeDirs a string');
  refused(() => dxbin({ validate: 'false' as never }), 'bad-type', 'options.validate', 'validate "false"');
  refused(() => dxbin({ rootSignatureSuffix: '' }), 'out-of-range', 'options.rootSignatureSuffix', 'empty suffix');
  refused(() => dxbin({ rootSignatureSuffix: 5 as never }), 'bad-type', 'options.rootSignatureSuffix', 'suffix 5');
  refused(() => dxbin({ version: `1.1${ESC}` as never }), 'bad-name', 'options.version', 'version ESC');
  refused(() => dxbin({ host: {} as never }), 'bad-type', 'options.host', 'host {}');
  refused(() => dxbin({ maxIncludeDepth: '3' as never }), 'bad-type', 'options.maxIncludeDepth', 'maxIncludeDepth "3"');
  // what it takes is still taken
  assert.is(dxbin({ version: '1.0', validate: false, defines: ['A=1'], includeDirs: [work], rootSignatureSuffix: '.rs', maxIncludeDepth: 20, profile: 'rootsig_1_1', host: undefined }).name, 'dxbin');
});

test('rollup import queries: a value with ESC and a newline is escaped in the message; a repeated parameter is refused (the first was taken)', () => {
  const p = dxbin();
  loadRefused(p, `${RS_HLSL}?define=RS&rootsig&version=%1b[2J%0aEVIL`, 'version ESC', /version/);
  loadRefused(p, `${RS_HLSL}?define=RS&rootsig&version=1.0&version=1.1`, 'version twice', /version/);
  loadRefused(p, `${RS_HLSL}?define=RS&define=NOPE&rootsig`, 'define twice', /define/);
});

test('rollup import queries: define= and entry= together are refused (entry= was taken without a word)', () => {
  loadRefused(dxbin(), `${RS_HLSL}?define=RS&entry=main&rootsig`, 'define + entry', /define.*entry|entry.*define/);
  // each alone is taken
  assert.match(dxbin().load.call(ctx as never, `${RS_HLSL}?entry=main&rootsig`) ?? '', /export const blob/);
  assert.match(dxbin().load.call(ctx as never, `${RS_HLSL}?define=RS&rootsig`) ?? '', /export const blob/);
});

test('rollup import queries: validate= takes true, false or nothing (validate=no was read as true)', () => {
  loadRefused(dxbin(), `${RS_HLSL}?define=RS&rootsig&validate=no`, 'validate=no', /validate/);
  for (const v of ['', '=true', '=false']) assert.match(dxbin().load.call(ctx as never, `${RS_HLSL}?define=RS&rootsig&validate${v}`) ?? '', /export const blob/);
});

test('rollup: an imported file named with ESC and a newline is escaped in the message', () => {
  loadRefused(dxbin(), join(work, `missing${ESC}${NL}.rs.hlsl`), 'missing file', /no such file/);
});

test('rollup: the generated module holds no raw line separator or control character for a shader with odd part names', () => {
  // a container of one part named "\n\u2028"-ish bytes: FourCC 0a 1b 85 e2
  const c = onePartContainer([0x0a, 0x1b, 0x85, 0xe2]);
  const file = at('odd.cso', c);
  const code = dxbin().load.call(ctx as never, `${file}?rootsig`) ?? '';
  assert.match(code, /export const parts/);
  assert.not.ok(/[\u0000-\u0009\u000b-\u001f\u2028\u2029\u0085]/.test(code), JSON.stringify(code.slice(0, 300)));
});

// ------------------------------------------------------------------ pipeline state streams

const VS: Subobject = { type: 'VS', inner: subobjectDefault('VS') };

test('stream: a hole in the subobject list is missing-key at its index (was a raw TypeError)', () => {
  // eslint-disable-next-line no-sparse-arrays
  refused(() => encodeStream([VS, , VS] as never, 'x64'), 'missing-key', 'subobjects[1]', 'hole');
  refused(() => streamSize([VS, , VS] as never, 'x64'), 'missing-key', 'subobjects[1]', 'hole, streamSize');
});

test('stream: a sparse list of length 2^32-1 is refused at its first hole at once (was walked: minutes)', () => {
  const sparse: Subobject[] = [];
  sparse.length = 2 ** 32 - 1;
  sparse[0] = VS;
  refused(() => encodeStream(sparse, 'x64'), 'missing-key', 'subobjects[1]', 'sparse');
});

test('stream: a key a subobject does not have is refused (Type: "PS" beside type: "VS" was dropped)', () => {
  refused(() => encodeStream([{ ...VS, Type: 'PS' } as never], 'x64'), 'unknown-key', 'subobjects[0].Type', 'Type');
  refused(() => encodeStream([Object.assign(JSON.parse('{"__proto__": 1}'), VS)], 'x64'), 'unknown-key', 'subobjects[0].__proto__', '__proto__');
  // Changed 2026-12-04 (hostile round 8): the type's path names its subobject (was the bare `type`)
  refused(() => encodeStream([{ type: `VS${ESC}`, inner: 0 }], 'x64'), 'bad-name', 'subobjects[0].type', 'type ESC');
  for (const type of ['__proto__', 'constructor', 'toString']) refused(() => encodeStream([{ type, inner: 0 }], 'x64'), 'bad-name', 'subobjects[0].type', type);
});

test('stream: 100,000 subobjects sharing one inner object are refused at the second (one type once a stream), never encoded', () => {
  // Changed 2026-12-04 (hostile round 8): a type twice is refused (the runtime refuses it), at the first repeat
  const many = new Array<Subobject>(100_000).fill(VS);
  refused(() => encodeStream(many, 'x64'), 'ambiguous-name', 'subobjects[1].type', '100,000 VS');
});

test('stream decode: an unknown type, a size past the image, an x86 image read as x64: DecodeErrors naming the field', () => {
  const img = encodeStream([VS], 'x64');
  const typed = img.slice();
  new DataView(typed.buffer).setUint32(16, 0xffff, true);
  refused(() => decodeStream(typed, 'x64'), 'bad-offset', /pPipelineStateSubobjectStream\[0\]\.Type/, 'type 0xffff');
  const sized = img.slice();
  new DataView(sized.buffer).setUint32(0, 1 << 20, true);
  refused(() => decodeStream(sized, 'x64'), 'truncated', /pPipelineStateSubobjectStream/, 'size past the image');
  const e = thrown(() => decodeStream(encodeStream([VS], 'x86'), 'x64'));
  assert.ok(e instanceof DxbinError, String(e));
});

test('stream: the same subobject type twice is refused (was round-tripped as given; the runtime refuses it, D3DX12ParsePipelineStream E_INVALIDARG)', () => {
  // Changed 2026-12-04 (hostile round 8): which of the two is meant is ambiguous; test/hostile-round8 has the image case
  const ps: Subobject = { type: 'PS', inner: subobjectDefault('PS') };
  refused(() => encodeStream([VS, ps, VS], 'x64'), 'ambiguous-name', 'subobjects[2].type', 'VS twice');
  assert.equal(decodeStream(encodeStream([VS, ps], 'x64'), 'x64').map((s) => s.type), ['VS', 'PS']);
});

test.run();
