/** The CLI's pure parts: exit codes, message formats, output naming (POSIX and Windows), temp files, the worker protocols. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { EXIT, exitCode, worstExit } from '../src/cli/exit.js';
import { diagnosticOf, formatDiagnostic, InputError, UsageError, CheckFailed, outcomeOf } from '../src/cli/errors.js';
import { fillPattern, globPattern, planOutputs, stem } from '../src/cli/paths.js';
import { isNullDevice, removeStaleTemps, renameWithRetry, tempName, tempOwner, writeOutput } from '../src/cli/io.js';
import { errnoWords } from '../src/build-step/errors.js';
import { servePersistentWorker } from '../src/cli/persistent-worker.js';
import { RequestFramer } from '../src/build-step/work-requests.js';
import { expandResponseFiles } from '../src/build-step/argfiles.js';
import { batchJob } from '../src/build-step/batch-jobs.js';
import { looksLike } from '../src/cli/commands/shared.js';
import { captureStreams } from '../src/cli/streams.js';
import { depfilePath, depfileText } from '../src/cli/includes.js';
import { DecodeError, DescriptionError, HlslError, HlslFile, fileSystemHost, virtualHost } from '../src/index.js';

test('exit codes: one table, the worst wins', () => {
  assert.is(exitCode('ok'), 0);
  assert.is(exitCode('bad-input'), 1);
  assert.is(exitCode('check-failed'), 1);
  assert.is(exitCode('usage'), 2);
  assert.is(worstExit([]), EXIT.ok);
  assert.is(worstExit([0, 1, 0]), 1);
  assert.is(worstExit([1, 2, 0]), 2);
  assert.is(outcomeOf(new UsageError('x')), 'usage');
  assert.is(outcomeOf(new InputError('f', 'not-found', 'x')), 'bad-input');
  assert.is(outcomeOf(new CheckFailed('x')), 'check-failed');
  assert.is(outcomeOf(new RangeError('bug')), undefined, 'not a dxbin error: a bug, not an outcome');
});

test('one message style: dxbin: FILE: what (field at byte N); msvc style for MSBuild', () => {
  const d = diagnosticOf(new DecodeError('truncated', 24, 'container.header.containerSize', 'declares 68 bytes'), 'a.cso');
  assert.is(formatDiagnostic(d), 'dxbin: a.cso: declares 68 bytes (container.header.containerSize at byte 24)');
  assert.is(formatDiagnostic(d, 'msvc'), 'a.cso: error truncated: declares 68 bytes (container.header.containerSize at byte 24)');
  const missing = diagnosticOf(new DecodeError('missing-part', 0, 'container.parts', 'the container has no RTS0 part'), 'b.cso');
  assert.is(formatDiagnostic(missing), 'dxbin: b.cso: the container has no RTS0 part', 'no "at byte 0" for a part that is not there');
  assert.is(formatDiagnostic(diagnosticOf(new DescriptionError('bad-type', '$.version', 'expected a string'), 'rs.json')), 'dxbin: rs.json: expected a string ($.version)');
  const h = diagnosticOf(new HlslError('Unexpected token', { file: 'C:\\src\\rs.hlsl', line: 3, column: 7, offset: 20 } as never), 'ignored');
  assert.is(formatDiagnostic(h), 'dxbin: C:\\src\\rs.hlsl:3:7: error: root signature error - Unexpected token');
  assert.is(formatDiagnostic(h, 'msvc'), 'C:\\src\\rs.hlsl(3,7): error hlsl-syntax: root signature error - Unexpected token');
  assert.is(formatDiagnostic(diagnosticOf(new UsageError('bad option')), 'msvc'), 'dxbin: error usage: bad option');
});

test('errno codes become words, never shown raw', () => {
  assert.is(errnoWords(Object.assign(new Error('x'), { code: 'ENOENT' })), 'no such file or folder');
  assert.is(errnoWords(Object.assign(new Error('ENOWEIRD: x'), { code: 'ENOWEIRD' })), 'system error');
});

test('what a foreign file looks like', () => {
  assert.is(looksLike(new Uint8Array(0)), 'an empty file');
  assert.is(looksLike(new TextEncoder().encode('  {"version": "1.1"}')), 'JSON text');
  assert.is(looksLike(new TextEncoder().encode('#define RS "CBV(b0)"\r\n')), 'text');
  assert.is(looksLike(Uint8Array.of(0x10, 0, 0, 0, 0xff)), 'binary data');
});

test('output names: -o, patterns, --out-dir; several inputs need a pattern or a folder; no two inputs on one output', () => {
  const w = { required: true, ext: '.dxbc' };
  assert.equal(planOutputs(['a/x.cso'], { output: 'o.dxbc' }, w, path.posix), ['o.dxbc']);
  assert.equal(planOutputs(['a/x.cso', 'b/y.cso'], { outDir: 'out' }, w, path.posix), ['out/x.dxbc', 'out/y.dxbc']);
  assert.equal(planOutputs(['a/x.cso', 'b/y.cso'], { output: 'out/{name}.rts0' }, w, path.posix), ['out/x.rts0', 'out/y.rts0']);
  assert.equal(planOutputs(['a/x.cso'], { output: '{dir}/{base}.bak' }, w, path.posix), ['a/x.cso.bak']);
  assert.equal(planOutputs(['a/x.cso'], { outDir: 'o' }, { required: true, ext: undefined }, path.posix), ['o/x.cso'], "undefined ext keeps the input's");
  assert.throws(() => planOutputs(['a', 'b'], { output: 'o' }, w, path.posix), (e: unknown) => e instanceof UsageError);
  assert.throws(() => planOutputs(['a/x.cso', 'b/x.cso'], { outDir: 'o' }, w, path.posix), /both be written to o\/x.dxbc/);
  assert.throws(() => planOutputs(['a'], {}, w, path.posix), /needs -o/);
  assert.equal(planOutputs(['a'], {}, { required: false, ext: '.json' }, path.posix), [undefined]);
  assert.throws(() => planOutputs(['a'], { output: 'x' }, undefined, path.posix), /writes no output/);
});

test('Windows paths: drive letters, backslashes, case-insensitive clashes, NUL, globs', () => {
  const w = { required: true, ext: '.dxbc' };
  assert.equal(planOutputs(['C:\\src\\A.cso', 'D:\\b\\y.cso'], { outDir: 'C:\\out' }, w, path.win32), ['C:\\out\\A.dxbc', 'C:\\out\\y.dxbc']);
  assert.throws(() => planOutputs(['C:\\a\\X.cso', 'C:\\b\\x.cso'], { outDir: 'C:\\out' }, w, path.win32), /both be written/, 'NTFS names are case-insensitive');
  assert.is(fillPattern('{dir}\\{name}.rts0', 'C:\\shaders\\main.cso', path.win32), 'C:\\shaders\\main.rts0');
  assert.is(stem('C:\\shaders\\main.ps.cso', path.win32), 'main.ps');
  assert.is(globPattern('shaders\\**\\*.cso', path.win32), 'shaders/**/*.cso');
  assert.is(globPattern('shaders/\\*.cso', path.posix), 'shaders/\\*.cso', 'on POSIX a backslash escapes');
  assert.ok(isNullDevice('NUL', 'win32'));
  assert.ok(isNullDevice('nul.txt', 'win32'));
  assert.ok(isNullDevice('C:\\build\\NUL', 'win32'));
  assert.ok(isNullDevice('\\\\.\\NUL', 'win32'));
  assert.not.ok(isNullDevice('NUL', 'linux'), 'NUL is an ordinary name elsewhere');
  assert.not.ok(isNullDevice('null.bin', 'win32'));
});

test('temp names carry the pid; stale temps of dead processes go, live neighbours stay', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dxbin-temps-'));
  const live = tempName(path.join(dir, 'out.bin'), 4242);
  const dead = tempName(path.join(dir, 'out.bin'), 4343);
  assert.is(tempOwner(path.basename(live)), 4242);
  assert.is(tempOwner('.out.bin.tmp'), undefined);
  writeFileSync(live, 'x');
  writeFileSync(dead, 'x');
  writeFileSync(path.join(dir, 'other.tmp'), 'not ours');
  const removed = removeStaleTemps(dir, (pid) => pid === 4242);
  assert.equal(removed, [path.basename(dead)]);
  assert.equal(readdirSync(dir).sort(), [path.basename(live), 'other.tmp'].sort());
});

test('rename is retried on EPERM/EBUSY (Windows scanners), not on other errors', async () => {
  let calls = 0;
  const pauses: number[] = [];
  await renameWithRetry('a', 'b', async () => {
    if (++calls < 3) throw Object.assign(new Error('busy'), { code: calls === 1 ? 'EPERM' : 'EBUSY' });
  }, async (ms) => void pauses.push(ms));
  assert.is(calls, 3);
  assert.equal(pauses, [20, 40]);
  calls = 0;
  try {
    await renameWithRetry('a', 'b', async () => {
      calls++;
      throw Object.assign(new Error('gone'), { code: 'ENOENT' });
    }, async () => {});
    assert.unreachable();
  } catch (e) {
    assert.is((e as NodeJS.ErrnoException).code, 'ENOENT');
    assert.is(calls, 1);
  }
  calls = 0;
  try {
    await renameWithRetry('a', 'b', async () => {
      calls++;
      throw Object.assign(new Error('held'), { code: 'EBUSY' });
    }, async () => {}, 4);
    assert.unreachable();
  } catch {
    assert.is(calls, 4, 'gives up after the attempts');
  }
});

test('Bazel JSON worker protocol pieces: concatenated objects, flag files', async () => {
  const framer = new RequestFramer();
  const frames = framer.push('{"arguments":["a","}"],"requestId":1}\n{"arguments":[]}{"argu');
  assert.equal(frames.map((o) => JSON.parse((o as { text: string }).text)), [{ arguments: ['a', '}'], requestId: 1 }, { arguments: [] }]);
  assert.equal(framer.push('ments":["b"]}'), [{ text: '{"arguments":["b"]}' }], 'the rest is kept for the next chunk');
  assert.equal(expandResponseFiles(['x', '@flags', '@@literal'], () => 'a\nb\n'), ['x', 'a', 'b', '@literal']);
  const out = captureStreams();
  const seen: string[][] = [];
  async function* requests() {
    yield '{"arguments":["inspect","a"],"requestId":3}';
    yield '\n{"arguments":["hash"]}\n';
  }
  await servePersistentWorker(['--x'], requests(), out, async (argv, s) => {
    seen.push([...argv]);
    await s.write('printed\n');
    s.err('warned');
    return argv.length > 2 ? 1 : 0;
  });
  assert.equal(seen, [['--x', 'inspect', 'a'], ['--x', 'hash']]);
  assert.equal(out.stdout().trimEnd().split('\n').map((l) => JSON.parse(l)), [
    { exitCode: 1, output: 'printed\nwarned\n', requestId: 3 },
    { exitCode: 0, output: 'printed\nwarned\n' },
  ]);
});

test('batch job lines', () => {
  assert.equal(batchJob('["hash","a"]', 'f', 1), { args: ['hash', 'a'] });
  assert.equal(batchJob('{"id":7,"args":["inspect","b"]}', 'f', 2), { id: 7, args: ['inspect', 'b'] });
  assert.is(batchJob('   ', 'f', 3), undefined);
  assert.throws(() => batchJob('{"args":[1]}', 'f', 4), /line 4/);
  assert.throws(() => batchJob('nope', 'f', 5), /not JSON/);
  assert.throws(() => batchJob('["batch","-"]', 'f', 6), /cannot run batch/);
});

// One exception, src/build-step/: the CLI's own input protocols (batch lines, Bazel work-request
// framing, response and param files, the two error classes they throw), moved out of src/cli only
// so the fuzz targets can drive them without an arrow from src/fuzz into src/cli. They are not a
// library surface (no subpath, no API report), and the room itself imports only the public entry,
// so the CLI still reaches the codecs through the public API alone.
test('the CLI imports only the public entry points (src/index.ts and the subpath entries) and src/build-step', () => {
  const r = spawnSync('grep', ['-rnoE', "from '(\\.\\./)+[a-z-]+/[^']+'", 'src/cli'], { encoding: 'utf8' });
  const internal = r.stdout.split('\n').filter((l) => l && !/from '(\.\.\/)+(query|ddi|inspect|fuzz)\/index\.js'/.test(l) && !/from '(\.\.\/)+build-step\/[a-z-]+\.js'/.test(l) && !/from '\.\/commands\//.test(l) && !/from '\.\.\/(command|errors|exit|io|paths|runner|streams|program)\.js'/.test(l));
  assert.equal(internal, []);
  assert.ok(r.stdout.includes("from '../../query/index.js'"), 'the check sees imports');
  assert.ok(r.stdout.includes("from '../build-step/argfiles.js'"), 'the check sees the build-step imports');
});

test('src/build-step imports only the public entry (src/index.ts), node built-ins and itself; src/fuzz imports nothing from src/cli', () => {
  const imports = (dir: string) =>
    spawnSync('grep', ['-rnoE', "(from|import\\() *'[^']+'", dir], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
  const room = imports('src/build-step');
  assert.ok(room.some((l) => l.includes("'../index.js'")), 'the check sees the room\'s imports');
  assert.equal(room.filter((l) => !/'(\.\.\/index\.js|\.\/[a-z-]+\.js|node:[a-z/]+)'$/.test(l)), []);
  const fuzz = imports('src/fuzz');
  assert.ok(fuzz.some((l) => l.includes("'../build-step/work-requests.js'")), 'the check sees the fuzz imports');
  assert.equal(fuzz.filter((l) => /'(\.\.\/)+cli\//.test(l)), [], 'an arrow from src/fuzz into src/cli');
});

test('#include resolved as DXC: quoted next to the includer first, then -I; angled -I only; Windows paths through the host', () => {
  const tree = virtualHost({ '/p/src/a.h': '#define A 1\n', '/p/inc/a.h': '#define A 2\n', '/p/inc/b.h': '#define B 3\n' });
  const value = (text: string, name: string) => new HlslFile(text, '/p/src/main.hlsl', {}, {}, { host: tree, includeDirs: ['/p/inc'] }).defineText(name).text;
  assert.is(value('#include "a.h"\n', 'A'), '1');
  assert.is(value('#include <a.h>\n', 'A'), '2');
  assert.is(value('#include "b.h"\n', 'B'), '3');
  assert.throws(() => value('#include "c.h"\n', 'A'), (e: unknown) => e instanceof HlslError && e.code === 'hlsl-preprocess' && /'c.h' file not found/.test(e.message));
  // Windows: backslashes and drive letters; the file system answers case-insensitively
  const ntfs = new Map([['c:\\work\\include\\rootsig.hlsli', '#define RS "CBV(b7)"\n']]);
  const fs = {
    statSync: (p: string) => {
      if (!ntfs.has(p.toLowerCase())) throw new Error('ENOENT');
      return { isFile: () => true, size: ntfs.get(p.toLowerCase())!.length };
    },
    realpathSync: (p: string) => p.toLowerCase(),
    readFileSync: (p: string) => new TextEncoder().encode(ntfs.get(p)!),
  };
  const win = fileSystemHost({ fs, path: path.win32 });
  for (const [text, dirs] of [['#include <RootSig.HLSLI>', ['C:\\work\\include']], ['#include "..\\include\\rootsig.hlsli"', []]] as const) {
    const f = new HlslFile(text, 'C:\\work\\src\\main.hlsl', {}, {}, { host: win, includeDirs: dirs });
    assert.is(f.defineText('RS').text, 'CBV(b7)');
    assert.is(f.files.length, 2);
  }
});

test('depfiles in Make syntax: spaces, # and $ escaped; Windows paths with forward slashes, drive letters kept', () => {
  assert.is(depfilePath('out dir/a#1$.dxbc', path.posix), 'out\\ dir/a\\#1$$.dxbc');
  assert.is(depfilePath('C:\\My Shaders\\rs.hlsli', path.win32), 'C:/My\\ Shaders/rs.hlsli');
  assert.is(depfileText('rs.dxbc', ['a.hlsl', 'inc/b.hlsli'], path.posix), 'rs.dxbc: \\\n  a.hlsl \\\n  inc/b.hlsli\n\ninc/b.hlsli:\n', 'every header also an empty rule, as gcc -MP');
});

test('includes are read once each; a guarded cycle ends, an unguarded one is a typed error; errors are located in the included file', () => {
  const texts = { '/p/a.h': '#pragma once\n#include "b.h"\n#define X 1\n', '/p/b.h': '#pragma once\n#include "a.h"\n#define Y 2\n\n#if 1/0\n#endif\n' };
  const f = new HlslFile('#include "a.h"\nline2\n', '/p/main.hlsl', {}, {}, { host: virtualHost({ ...texts, '/p/b.h': '#pragma once\n#include "a.h"\n#define Y 2\n' }) });
  assert.equal(f.files, ['/p/main.hlsl', '/p/a.h', '/p/b.h'], 'a cycle is read once');
  assert.throws(() => new HlslFile('#include "a.h"\n', '/p/main.hlsl', {}, {}, { host: virtualHost(texts) }).defineText('X'), (e: unknown) => e instanceof HlslError && e.location.file === '/p/b.h' && e.location.line === 5 && e.location.column === 6);
  const loop = virtualHost({ '/p/a.h': '#include "a.h"\n' });
  assert.throws(() => new HlslFile('#include "a.h"\n', '/p/main.hlsl', {}, {}, { host: loop }).defineText('X'), (e: unknown) => e instanceof HlslError && /nested too deeply/.test(e.message));
});

test('a regular file under /dev (a tmpfs such as /dev/shm) is replaced like any output, not appended to as a device', async () => {
  if (!existsSync('/dev/shm')) return;
  const file = `/dev/shm/dxbin-out-${process.pid}.bin`;
  try {
    for (const data of ['first output', 'second']) await writeOutput(file, new TextEncoder().encode(data), [], captureStreams());
    assert.is(readFileSync(file, 'utf8'), 'second');
  } finally {
    rmSync(file, { force: true });
  }
});

test.run();
