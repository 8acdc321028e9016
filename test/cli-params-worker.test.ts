/**
 * Response files (`@FILE` in Bazel's and MSBuild's formats) in the CLI, batch jobs and worker
 * requests; the persistent worker's protocol (framing, cancel, multiplex, sandboxDir, verbosity,
 * one response per request) and batch's answers to hostile lines; temp-file sweeping once per
 * folder, -o patterns creating folders, --fsync, and `dxbin help` listing every option.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { InputError } from '../src/cli/errors.js';
import { expandResponseFiles, readRegularFile, splitMsbuild, splitShell } from '../src/build-step/argfiles.js';
import { servePersistentWorker } from '../src/cli/persistent-worker.js';
import { RequestFramer, framePieces, parseWorkRequest } from '../src/build-step/work-requests.js';
import { batchJob } from '../src/build-step/batch-jobs.js';
import { captureStreams } from '../src/cli/streams.js';
import { run } from '../src/cli/program.js';
import { removeStaleTemps, resetSweeps, writeOutput } from '../src/cli/io.js';
import { CORPUS, ROOT } from './helpers/corpus.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-params-'));
const file = (name: string) => join(work, name);
const SHADER = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc');
const RS = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');

async function dxbin(argv: string[]) {
  const s = captureStreams();
  const status = await run(argv, s);
  return { status, stdout: s.stdout(), stderr: s.stderr() };
}

test('response file formats: Bazel multiline and shell, MSBuild .rsp quoting, @@ literal, nesting', () => {
  // what Bazel writes for ['hash', 'a b.cso', "it's", ''] in each format
  assert.equal(expandResponseFiles(['@f'], () => 'hash\r\na b.cso\nit\'s\n'), ['hash', 'a b.cso', "it's"]);
  assert.equal(splitShell("hash\n'a b.cso'\n'it'\\''s'\n''\n\"x\\\"y\"\nplain\\ word\n", 'f'), ['hash', 'a b.cso', "it's", '', 'x"y', 'plain word']);
  assert.equal(expandResponseFiles(['--param-file-format', 'shell', '@f'], () => "'a b'\n"), ['a b']);
  assert.equal(expandResponseFiles(['--param-file-format=msbuild', '@f'], () => '# a comment\n/x "a b" c\\d "e\\"f" "g\\\\" h""i\n'), ['/x', 'a b', 'c\\d', 'e"f', 'g\\', 'hi']);
  assert.equal(splitMsbuild('"a ""quoted"" word" \\\\\\"x'), ['a "quoted" word', '\\"x']);
  assert.equal(expandResponseFiles(['@@x', '@', 'a@b', '--', '@f'], (): string => {
    throw new Error('no file is read');
  }), ['@x', '@', 'a@b', '--', '@f']);
  const files: Record<string, string> = { outer: 'a\n@inner\n@@lit\n', inner: 'b\n--flagfile=last\n', last: 'c\n' };
  assert.equal(expandResponseFiles(['@outer'], (f) => files[f]!), ['a', 'b', 'c', '@lit'], 'nested, --flagfile= too');
  assert.throws(() => expandResponseFiles(['@loop'], () => '@loop\n'), (e: unknown) => e instanceof InputError && /includes itself/.test(e.message));
  assert.throws(() => splitShell("'open", 'f'), (e: unknown) => e instanceof InputError && e.file === 'f');
});

test('response files are regular files of bounded size: /dev/zero, a FIFO, a folder and a missing file are typed errors naming them', () => {
  const refused = (path: string, pattern: RegExp) =>
    assert.throws(
      () => readRegularFile(path, 1 << 20, 'response file'),
      (e: unknown) => e instanceof InputError && e.file === path && pattern.test(e.detail),
    );
  refused('/dev/zero', /not a regular file/);
  const fifo = file('fifo');
  if (spawnSync('mkfifo', [fifo]).status === 0) refused(fifo, /not a regular file/);
  refused(work, /folder/);
  refused(file('missing.params'), /no such file or folder/);
  writeFileSync(file('big'), Buffer.alloc(2048, 0x61));
  assert.throws(() => readRegularFile(file('big'), 1024, 'response file'), /over the limit of 1024/);
});

test('@FILE in the CLI, in batch jobs and in worker requests; a missing one names the file in dxbin words', async () => {
  writeFileSync(file('hash.params'), `--check\n${SHADER}\n`);
  const direct = await dxbin(['hash', `@${file('hash.params')}`]);
  assert.is(direct.status, 0, direct.stderr);
  assert.match(direct.stdout, 'valid');
  const missing = await dxbin(['hash', `@${file('nope.params')}`]);
  assert.is(missing.status, 1);
  assert.is(missing.stderr, `dxbin: ${file('nope.params')}: cannot read the response file: no such file or folder\n`);
  assert.not.match(missing.stderr, 'ENOENT');
  // batch: each job's arguments expand
  writeFileSync(file('jobs.ndjson'), `${JSON.stringify(['hash', `@${file('hash.params')}`])}\n`);
  const batch = await dxbin(['batch', file('jobs.ndjson')]);
  assert.is(JSON.parse(batch.stdout).exit, 0, batch.stdout);
  // shell-quoted, as Bazel's default param file format writes it (a path with a space)
  mkdirSync(file('with space'));
  writeFileSync(file('with space/s.cso'), readFileSync(SHADER));
  writeFileSync(file('shell.params'), `hash\n'${file('with space/s.cso')}'\n`);
  const shell = await dxbin(['--param-file-format', 'shell', `@${file('shell.params')}`]);
  assert.is(shell.status, 0, shell.stderr);
});

test('worker framing is linear and chunking-independent; bad bytes cost one request, answered', () => {
  const stream = [
    '{"arguments":["a","}\\"{"],"requestId":1}',
    'not json at all',
    '{"arguments":["b],"requestId":2}',
    '{ "arguments": [\n "c"\n ],\n "requestId": 3 }',
    '"',
    '{"arguments":[],"requestId":4}',
  ].join('\n');
  const whole = new RequestFramer().push(stream);
  const byChar = new RequestFramer();
  const pieces = [...stream].flatMap((c) => byChar.push(c));
  assert.equal(pieces, whole, 'one character at a time frames the same');
  const ids = whole.map((f) => ('text' in f ? parseWorkRequest(f.text).requestId : f.requestId));
  assert.equal(ids, [1, undefined, 2, 3, undefined, 4], 'the stray quote cost its own request, the broken string its own line');
  // an oversized request is refused without being kept whole; its id still read
  const small = new RequestFramer(100);
  const frames = small.push(`{"requestId":9,"arguments":["${'x'.repeat(1000)}"]}{"requestId":10}`);
  assert.equal(frames, [{ error: 'request larger than 100 bytes', requestId: 9 }, { text: '{"requestId":10}' }]);
  // a requestId nested deep is a typed answer, never a RangeError
  const deep = `{"requestId":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  assert.equal(parseWorkRequest(deep), { error: 'requestId is a whole number 0..2147483647 (a JSON number or a decimal string)', requestId: 0 });
  assert.equal(new RequestFramer().end(), []);
  // an oversized request whose requestId straddles the limit: the same frames and id in any
  // chunking (the tail once started from the piece that crossed it; dxbin fuzz worker-stream)
  for (const tail of [',"a":1', '}']) {
    const text = `{"pad":"${'x'.repeat(50)}","requestId":7${tail}`;
    const framed = (step: number) => {
      const f = new RequestFramer(64);
      const out = [];
      for (let i = 0; i < text.length; i += step) out.push(...f.push(text.slice(i, i + step)));
      return [...out, ...f.end()];
    };
    const once = framed(text.length);
    assert.is(once.length, 1);
    assert.is((once[0] as { requestId?: number }).requestId, 7);
    for (let step = 1; step <= 13; step++) assert.equal(framed(step), once, `chunks of ${step}`);
  }
});

/**
 * parseWorkRequest as it was when JSON.parse read the joined text: the reference the in-place
 * reader is held to. Since 2026-12-02 (afternoon) with the proto3 JSON rule of the fields: null is
 * the default, requestId (from 0) and verbosity an int32 as a number or a decimal string, cancel
 * a boolean, and the salvaged id of a broken text only one that rule takes.
 */
function referenceRequest(text: string): unknown {
  const int32 = (x: unknown, lo: number) => {
    const n = x === undefined || x === null ? 0 : typeof x === 'number' ? x : typeof x === 'string' && /^-?[0-9]+$/.test(x) ? Number(x) : NaN;
    return Number.isInteger(n) && n >= lo && n <= 2 ** 31 - 1 ? n + 0 : undefined;
  };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    const m = /"requestId"\s*:\s*(?:(\d{1,10})|"(\d{1,10})")\s*[,}]/.exec(text);
    const salvaged = m ? Number(m[1] ?? m[2]) : 0;
    return { error: 'not a JSON request', requestId: salvaged <= 2 ** 31 - 1 ? salvaged : 0 };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'a request is a JSON object', requestId: 0 };
  const r = v as Record<string, unknown>;
  const id = int32(r.requestId, 0);
  if (id === undefined) return { error: 'requestId is a whole number 0..2147483647 (a JSON number or a decimal string)', requestId: 0 };
  const args = r.arguments ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return { error: 'arguments is an array of strings', requestId: id };
  if (r.sandboxDir != null && typeof r.sandboxDir !== 'string') return { error: 'sandboxDir is a string', requestId: id };
  const verbosity = int32(r.verbosity, -(2 ** 31));
  if (verbosity === undefined) return { error: 'verbosity is a whole number -2147483648..2147483647 (a JSON number or a decimal string)', requestId: id };
  if (r.cancel != null && typeof r.cancel !== 'boolean') return { error: 'cancel is true or false', requestId: id };
  return { requestId: id, arguments: args, cancel: r.cancel === true, verbosity, ...(r.sandboxDir ? { sandboxDir: r.sandboxDir } : {}) };
}

test('parseWorkRequest reads a request in place as JSON.parse would, in one text or in any pieces (mutated requests, seeded)', () => {
  let seed = 20261202;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 8) % n;
  };
  const values = ['"a"', '"\\u00e9x"', '"\\ud800"', '"é\\n\\t\\"\\\\\\/\\b\\f\\r"', '1', '-0', '0.5', '1e400', '-1.5E-3', '9007199254740993', 'true', 'false', 'null', '[]', '{}', '["x","y"]', '[1]', '[["a"]]', '{"a":[1,{"b":null}]}', '""', '"5"', '"-7"', '"2147483648"', '"1e3"', '2147483647'];
  const keys = ['requestId', 'arguments', 'cancel', 'sandboxDir', 'verbosity', 'inputs', '__proto__', 'x'];
  const junk = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '-', 'e', '.', ' ', '\n', '\u0001', 't', 'n', '\ufeff', 'a'];
  let differ = 0;
  let valid = 0;
  for (let k = 0; k < 20000; k++) {
    const fields = Array.from({ length: rnd(5) }, () => `${JSON.stringify(keys[rnd(keys.length)])}${[':', ' : ', ':\n'][rnd(3)]}${values[rnd(values.length)]}`);
    let t = rnd(4) === 0 ? values[rnd(values.length)]! : `{${fields.join([',', ' ,\t'][rnd(2)])}}`;
    for (let m = rnd(4); m > 0; m--) {
      const at = rnd(t.length + 1);
      const op = rnd(3);
      const c = junk[rnd(junk.length)]!;
      t = op === 0 ? t.slice(0, at) + c + t.slice(at) : op === 1 ? t.slice(0, at) + t.slice(at + 1) : t.slice(0, at) + c + t.slice(at + 1);
    }
    const pieces: string[] = [];
    for (let i = 0; i < t.length; ) {
      const n = rnd(6); // empty pieces too
      pieces.push(t.slice(i, i + n));
      i += n;
    }
    const want = JSON.stringify(referenceRequest(t));
    if (JSON.stringify(parseWorkRequest(t)) !== want || JSON.stringify(parseWorkRequest(pieces)) !== want) differ++;
    if (!want.includes('"error"')) valid++;
  }
  assert.is(differ, 0);
  assert.ok(valid > 2000, `only ${valid} valid requests among the cases`);
  // a frame keeps the pieces it was framed in; its text is theirs joined
  const f = new RequestFramer();
  const frames = [...f.push('{"arguments":["a'), ...f.push('bc"],"requestId":2}')];
  assert.equal(framePieces(frames[0] as { text: string }), ['{"arguments":["a', 'bc"],"requestId":2}']);
  assert.equal(frames, [{ text: '{"arguments":["abc"],"requestId":2}' }]);
  assert.equal(parseWorkRequest(framePieces(frames[0] as { text: string })), { requestId: 2, arguments: ['abc'], cancel: false, verbosity: 0 });
});

async function serve(requests: string[] | AsyncIterable<string>, prefix: string[] = [], runCommand?: Parameters<typeof servePersistentWorker>[3], limits = {}) {
  const out = captureStreams();
  const input = Array.isArray(requests) ? (async function* () { yield* requests; })() : requests;
  await servePersistentWorker(prefix, input, out, runCommand ?? ((argv, s) => run(argv, s)), limits);
  return out.stdout().trimEnd().split('\n').filter((l) => l).map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('worker: requests split into single bytes (UTF-8 characters cut in two) answer as when they come whole', async () => {
  const name = join(tmpdir(), 'шейдер-✓-𝔁.cso'); // two-, three- and four-byte UTF-8 characters, a missing file
  const text = [
    JSON.stringify({ arguments: ['inspect', name], requestId: 1 }),
    JSON.stringify({ arguments: ['--version'], requestId: 2 }),
    JSON.stringify({ arguments: ['hash', name, name], requestId: 3 }),
  ].join('\n');
  const bytes = new TextEncoder().encode(text);
  const byteWise = async function* () {
    for (let i = 0; i < bytes.byteLength; i++) yield bytes.subarray(i, i + 1);
  };
  const serveBytes = async (input: AsyncIterable<Uint8Array>) => {
    const out = captureStreams();
    await servePersistentWorker([], input, out, (argv, st) => run(argv, st));
    // responses come as requests finish (they run concurrently): compared in requestId order
    return out.stdout().trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).sort((a, b) => Number(a.requestId) - Number(b.requestId));
  };
  const whole = await serveBytes((async function* () { yield bytes; })());
  const split = await serveBytes(byteWise());
  assert.is(whole.length, 3);
  assert.equal(split, whole, 'the same responses, byte by byte');
  assert.ok(String(whole[0]!.output).includes('шейдер-✓-𝔁.cso'), `the name comes back whole: ${String(whole[0]!.output)}`);
  assert.not.ok(String(split[0]!.output).includes('\ufffd'), 'no character was cut into replacement characters');
});

test('worker: exactly one response per request with an id: not JSON, bad fields, deep ids, an oversized answer', async () => {
  const responses = await serve([
    'garbage\n',
    '{"arguments":[1,2],"requestId":5}\n',
    `{"requestId":{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}}\n`,
    '{"arguments":["--version"],"requestId":6}',
  ]);
  assert.equal(responses.map((r) => [r.requestId, r.exitCode]), [[undefined, 2], [5, 2], [undefined, 2], [6, 0]]);
  const big = await serve(['{"arguments":["x"],"requestId":1}'], [], async (_a, s) => {
    await s.write('y'.repeat(5000));
    return 0;
  }, { maxAnswerBytes: 1000 });
  assert.is(big.length, 1);
  assert.is(big[0]!.exitCode, 1);
  assert.match(String(big[0]!.output), 'the answer is over 1000 bytes');
});

test('worker: cancel answers a waiting request once with wasCancelled; multiplex runs up to --jobs at once', async () => {
  let active = 0;
  let most = 0;
  const gates: (() => void)[] = [];
  const runCommand = async (argv: readonly string[]) => {
    active++;
    most = Math.max(most, active);
    await new Promise<void>((r) => gates.push(r));
    active--;
    return argv.includes('fail') ? 1 : 0;
  };
  async function* requests() {
    yield '{"arguments":["a"],"requestId":1}{"arguments":["b"],"requestId":2}{"arguments":["fail"],"requestId":3}';
    await new Promise((r) => setImmediate(r));
    assert.is(active, 2, 'two at once with --jobs 2');
    yield '{"requestId":3,"cancel":true}{"requestId":3,"cancel":true}{"requestId":1,"cancel":true}{"requestId":99,"cancel":true}';
    while (gates.length) gates.shift()!();
  }
  const responses = await serve(requests(), ['--jobs', '2'], runCommand);
  assert.equal(responses, [{ wasCancelled: true, requestId: 3 }, { exitCode: 0, output: '', requestId: 1 }, { exitCode: 0, output: '', requestId: 2 }]);
  assert.is(most, 2);
});

test('worker: sandboxDir is the working directory of its request; verbosity 10 names the request', async () => {
  const sandbox = file('sandbox');
  mkdirSync(sandbox);
  writeFileSync(join(sandbox, 'in.cso'), readFileSync(SHADER));
  writeFileSync(join(sandbox, 'p.params'), 'hash\n--check\nin.cso\n');
  const responses = await serve([JSON.stringify({ arguments: ['@p.params'], requestId: 1, sandboxDir: sandbox, verbosity: 10 }), JSON.stringify({ arguments: ['hash', 'in.cso'], requestId: 2 })]);
  assert.is(responses[0]!.exitCode, 0, String(responses[0]!.output));
  assert.match(String(responses[0]!.output), `dxbin worker: request 1 in ${sandbox}`);
  assert.is(responses[1]!.exitCode, 1, 'outside the sandbox the relative path is not there');
  assert.is(process.cwd(), ROOT);
});

test('batch: hostile lines each get one answer (nested id, not JSON, stray quote); an oversized answer is an error', async () => {
  assert.throws(() => batchJob(`{"id":${'['.repeat(50_000)}${']'.repeat(50_000)},"args":["hash"]}`, 'f', 1), /id is a string, number, boolean or null/);
  writeFileSync(file('hostile.ndjson'), [`{"id":[[[1]]],"args":["--version"]}`, 'nope', '["--version"', '"', JSON.stringify({ id: 7, args: ['rootsig', 'decompile', RS] })].join('\n'));
  const r = await dxbin(['batch', file('hostile.ndjson'), '--max-answer-bytes', '64']);
  const answers = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(answers.map((a) => [a.line, a.exit]), [[1, 2], [2, 2], [3, 2], [4, 2], [5, 1]]);
  assert.is(answers[4].id, 7);
  assert.match(answers[4].stderr, 'the answer is over 64 bytes');
});

test('outputs: stale temps swept once per folder per run; -o patterns create folders; --fsync writes the same bytes', async () => {
  const dir = file('outs');
  mkdirSync(dir);
  const stale = join(dir, '.x.dxbin-999999999-00000000.tmp');
  writeFileSync(stale, '');
  resetSweeps();
  await writeOutput(join(dir, 'a'), 'a', [], captureStreams());
  assert.not.ok(readdirSync(dir).includes('.x.dxbin-999999999-00000000.tmp'), 'the first write in a folder sweeps it');
  writeFileSync(stale, '');
  await writeOutput(join(dir, 'b'), 'b', [], captureStreams());
  assert.ok(readdirSync(dir).includes('.x.dxbin-999999999-00000000.tmp'), 'later writes in the same run do not list the folder again');
  assert.equal(removeStaleTemps(dir, () => false), ['.x.dxbin-999999999-00000000.tmp']);
  const pattern = join(relative(ROOT, work), 'pat/{name}/out.dxbc');
  const r = await dxbin(['rootsig', 'convert', RS, '--to', '1.1', '--fsync', '-o', pattern]);
  assert.is(r.status, 0, r.stderr);
  assert.ok(readFileSync(file('pat/vkd3d__descriptor_table_flags_rootsig1/out.dxbc')).byteLength > 0);
});

test('dxbin help lists every option: --persistent_worker, --param-file-format; commands list --fsync', async () => {
  const top = await dxbin(['--help']);
  for (const o of ['--persistent_worker', '--param-file-format', '--version']) assert.match(top.stdout, o);
  const help = await dxbin(['help', 'rootsig', 'convert']);
  for (const o of ['--fsync', '--out-dir', '--jobs', '--diagnostics-format', '--strict']) assert.match(help.stdout, o);
});


test('parseWorkRequest: requestId and verbosity as proto3 JSON int32s, a number or a decimal string; other ill-typed fields an error naming them', () => {
  const ok = (t: string) => {
    const pieces = t.match(/.{1,3}/gs)!;
    const whole = parseWorkRequest(t);
    assert.equal(parseWorkRequest(pieces), whole, `${t}: the pieces read as the text`);
    assert.not.ok('error' in whole, `${t}: ${JSON.stringify(whole)}`);
    return whole as { requestId: number; verbosity: number; cancel: boolean; sandboxDir?: string };
  };
  const refused = (t: string, field: string, requestId: number) => {
    const r = parseWorkRequest(t) as { error?: string; requestId: number };
    assert.ok(r.error?.startsWith(`${field} is `), `${t}: ${JSON.stringify(r)}`);
    assert.is(r.requestId, requestId, t);
    assert.equal(parseWorkRequest(t.match(/.{1,2}/gs)!), r);
  };
  // before: "5" refused, "10" read as 0 (the --worker_verbose line never written)
  assert.equal([ok('{"requestId":"5","verbosity":"10"}').requestId, ok('{"requestId":"5","verbosity":"10"}').verbosity], [5, 10]);
  assert.equal([ok('{"requestId":5,"verbosity":10}').requestId, ok('{"requestId":"2147483647"}').requestId, ok('{"verbosity":"-2147483648"}').verbosity], [5, 2 ** 31 - 1, -(2 ** 31)]);
  assert.ok(Object.is(ok('{"requestId":"-0","verbosity":-0}').requestId, 0) && Object.is(ok('{"verbosity":"-0"}').verbosity, 0), '-0 is 0');
  assert.is(ok('{"requestId":1e1,"verbosity":"007"}').verbosity, 7);
  // null is the default, for every field (sandboxDir too: it was refused)
  assert.equal(ok('{"requestId":null,"arguments":null,"cancel":null,"sandboxDir":null,"verbosity":null}'), { requestId: 0, arguments: [], cancel: false, verbosity: 0 });
  for (const v of ['"ten"', '"1e3"', '" 10"', '"10 "', '"+10"', '"0x10"', '""', '"1.0"', '1.5', '2147483648', '"2147483648"', '"-2147483649"', 'true', '[10]', '{}', '1e400']) refused(`{"requestId":3,"verbosity":${v}}`, 'verbosity', 3);
  for (const v of ['"x"', '"-1"', '-1', '"5x"', '2147483648', '"2147483648"', '9007199254740993', 'false', '["5"]', '"05.0"']) refused(`{"requestId":${v}}`, 'requestId', 0);
  // before: any cancel but true was read as false, and the request queued to run
  for (const v of ['"true"', '1', '0', '"yes"', '[]']) refused(`{"requestId":4,"cancel":${v}}`, 'cancel', 4);
  // a broken text's id is salvaged in either spelling, and only an id the rule takes
  assert.equal(['{"requestId":"9",', '{"requestId":9,', '{"requestId":2147483648,', '{"requestId":"99999999999",'].map((t) => parseWorkRequest(t).requestId), [9, 9, 0, 0]);
});

test('worker: a string requestId and verbosity "10" are answered as their numbers; an ill-typed repeat of a running id gets no second response', async () => {
  const responses = await serve(['{"arguments":["--version"],"requestId":"7","verbosity":"10"}']);
  assert.equal(responses.map((r) => [r.requestId, r.exitCode]), [[7, 0]]);
  assert.match(String(responses[0]!.output), 'dxbin worker: request 7 in ');
  const bad = await serve(['{"arguments":["--version"],"requestId":8,"verbosity":"loud"}']);
  assert.equal(bad.map((r) => [r.requestId, r.exitCode]), [[8, 2]]);
  assert.match(String(bad[0]!.output), 'persistent worker: verbosity is a whole number');
  const gates: (() => void)[] = [];
  const out = captureStreams();
  async function* requests() {
    yield '{"arguments":["a"],"requestId":3}';
    await new Promise((r) => setImmediate(r));
    yield '{"requestId":3,"cancel":"yes"}{"requestId":"3","arguments":[1]}{"requestId":3,"verbosity":[]}';
    while (gates.length) gates.shift()!();
  }
  await servePersistentWorker(['--jobs', '2'], requests(), out, () => new Promise((r) => gates.push(() => r(0))));
  const lines = out.stdout().trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines, [{ exitCode: 0, output: '', requestId: 3 }], 'exactly one response for request 3');
  assert.is(out.stderr().match(/request 3 is already in progress; a repeat that is no request/g)?.length, 3, out.stderr());
});

test.run();
