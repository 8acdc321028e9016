/**
 * The built dxbin command driven as a build step drives it: a thousand inputs in one call, pipes,
 * special outputs (/dev/null, a FIFO, a link to a device), signals mid-write, `| head`, a 3 GB
 * sparse query file with a memory bound, the error contract, batch and the Bazel worker.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseContainer, rootSignatureContainer } from '../src/index.js';
import { encodeQueryResults } from '../src/query/index.js';
import { builtCli } from './helpers/built-cli.js';
import { CORPUS, ROOT, hex } from './helpers/corpus.js';
import { missingCommand, requires } from './helpers/requires.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-build-'));
const file = (name: string) => join(work, name);
const bytes = (p: string) => new Uint8Array(readFileSync(p));
const SHADER = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc');
const NO_RTS0 = join(CORPUS, 'shaders/dxtk12/PostProcess_PSCopy_3.dxbc');

async function dxbin(args: string[], options: SpawnSyncOptions = {}) {
  const r = spawnSync(process.execPath, [await builtCli(), ...args], { cwd: ROOT, maxBuffer: 1 << 28, ...options });
  return { status: r.status, signal: r.signal, stdout: r.stdout as Buffer, stderr: String(r.stderr), text: String(r.stdout) };
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.includes('.dxbin-') && n.endsWith('.tmp'));

function corpusShaders(n: number): string[] {
  const all: string[] = [];
  for (const family of readdirSync(join(CORPUS, 'shaders')).sort()) {
    for (const name of readdirSync(join(CORPUS, 'shaders', family)).sort()) all.push(join(CORPUS, 'shaders', family, name));
  }
  return Array.from({ length: n }, (_, i) => all[i % all.length]!);
}

test('1,000 inputs in one call: one NDJSON line each, in order; a broken one stops nothing; exit is the worst', async () => {
  const dir = file('thousand');
  mkdirSync(dir);
  corpusShaders(1000).forEach((src, i) => copyFileSync(src, join(dir, `s${String(i).padStart(4, '0')}.cso`)));
  writeFileSync(join(dir, 's0500.cso'), bytes(SHADER).subarray(0, 40));
  const r = await dxbin(['hash', '--json', `${dir}/*.cso`]);
  assert.is(r.status, 1, 'the broken file makes the run exit 1');
  const lines = r.text.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.is(lines.length, 1000);
  assert.equal(lines.map((l) => l.file), Array.from({ length: 1000 }, (_, i) => join(dir, `s${String(i).padStart(4, '0')}.cso`)));
  assert.is(lines[500].ok, false);
  assert.is(typeof lines[500].error.code, 'string');
  assert.is(typeof lines[500].error.offset, 'number', 'names the byte offset');
  assert.is(lines.filter((l) => l.ok).length, 999);
  assert.is(r.stderr.trimEnd().split('\n').length, 1, 'one message, for the broken file');

  const out = file('thousand-out');
  const x = await dxbin(['extract', '--raw', '--json', '--out-dir', out, `${dir}/*.cso`]);
  const answers = x.text.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.is(answers.length, 1000);
  const written = answers.filter((a) => a.ok);
  assert.ok(written.length > 100 && written.length < 1000, `${written.length} shaders hold RTS0`);
  assert.is(readdirSync(out).length, written.length, 'one output per successful input, nothing else');
  assert.equal(temps(out), []);
  const first = written[0];
  const part = parseContainer(bytes(first.file)).parts.find((p) => p.name === 'RTS0')!.data;
  assert.is(hex(bytes(first.output)), hex(part));
});

test('--jobs N on worker threads prints the same bytes as one thread', async () => {
  const dir = file('thousand');
  const one = await dxbin(['inspect', '--json', `${dir}/s00[0-7]?.cso`]);
  const four = await dxbin(['inspect', '--json', '--jobs', '3', `${dir}/s00[0-7]?.cso`]);
  assert.is(one.text.split('\n').length, 81);
  assert.is(four.status, one.status);
  assert.is(four.text, one.text);
  assert.is(four.stderr, one.stderr);
});

test('standard streams: - in, -o - out, through pipes', async () => {
  const part = parseContainer(bytes(SHADER)).parts.find((p) => p.name === 'RTS0')!.data;
  const x = await dxbin(['extract', '-', '-o', '-'], { input: bytes(SHADER) });
  assert.is(x.status, 0, x.stderr);
  assert.is(hex(new Uint8Array(x.stdout)), hex(rootSignatureContainer(part)));
  const i = await dxbin(['inspect', '-'], { input: x.stdout });
  assert.is(i.status, 0, i.stderr);
  assert.match(i.text, '-: container 1.0');
  const bad = await dxbin(['inspect', '-'], { input: '{"version": "1.1"}' });
  assert.is(bad.status, 1);
  assert.is(bad.stderr, 'dxbin: -: not a DXBC/DXIL container nor an RTS0 part (it looks like JSON text)\n');
  assert.not.ok(readdirSync(ROOT).includes('-'), 'no file named -');
});

test('special outputs are written in place, never replaced: /dev/null, /dev/stdout, a link to a device', async () => {
  const n = await dxbin(['extract', SHADER, '-o', '/dev/null']);
  assert.is(n.status, 0, n.stderr);
  assert.ok(statSync('/dev/null').isCharacterDevice(), '/dev/null is still the device');
  const s = await dxbin(['extract', SHADER, '-o', '/dev/stdout']);
  assert.is(s.status, 0, s.stderr);
  const part = parseContainer(bytes(SHADER)).parts.find((p) => p.name === 'RTS0')!.data;
  assert.is(hex(new Uint8Array(s.stdout)), hex(rootSignatureContainer(part)));
  const link = file('device-link');
  symlinkSync('/dev/null', link);
  assert.is((await dxbin(['strip', SHADER, '-o', link])).status, 0);
  assert.ok(lstatSync(link).isSymbolicLink(), 'the link to a device stays a link');
  assert.equal(temps(work), []);
});

requires('mkfifo', missingCommand('mkfifo', ['--version']))('a FIFO as -o is written into, not replaced', async () => {
  const fifo = file('pipe');
  spawnSync('mkfifo', [fifo]);
  const cli = await builtCli();
  const reader = spawn('cat', [fifo]);
  const read = once(reader, 'close');
  const chunks: Buffer[] = [];
  reader.stdout.on('data', (c: Buffer) => chunks.push(c));
  const writer = spawn(process.execPath, [cli, 'extract', SHADER, '-o', fifo]);
  const [[code]] = (await Promise.all([once(writer, 'close'), read])) as [[number], unknown];
  assert.is(code, 0);
  const part = parseContainer(bytes(SHADER)).parts.find((p) => p.name === 'RTS0')!.data;
  assert.is(hex(new Uint8Array(Buffer.concat(chunks))), hex(rootSignatureContainer(part)));
  assert.ok(statSync(fifo).isFIFO(), 'still a FIFO');
});

/** A large query dump (sparse: zeros) whose CSV takes a few seconds to write. */
function bigStats(): string {
  const p = file('stats.bin');
  try {
    statSync(p);
  } catch {
    writeFileSync(p, '');
    truncateSync(p, 88 * 12_000_000);
  }
  return p;
}

async function interruptMidWrite(signal: NodeJS.Signals, dir: string): Promise<{ status: number | null; signal: NodeJS.Signals | null; content: string; temps: string[] }> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'out.csv');
  writeFileSync(out, 'old\n');
  const child = spawn(process.execPath, [await builtCli(), 'query', 'decode', '--type', 'pipeline-statistics', bigStats(), '-o', out], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  for (let i = 0; i < 400 && temps(dir).length === 0; i++) await sleep(25);
  assert.ok(temps(dir).length > 0, 'a temp file appears while writing');
  await sleep(100);
  child.kill(signal);
  const [status, sig] = (await exited) as [number | null, NodeJS.Signals | null];
  const size = statSync(out).size;
  return { status, signal: sig, content: size < 100 ? readFileSync(out, 'utf8') : `new ${size}`, temps: temps(dir) };
}

test('SIGINT mid-write: the destination keeps its old content, no temp file is left', async () => {
  const r = await interruptMidWrite('SIGINT', file('sigint'));
  assert.is(r.signal, 'SIGINT', 'dies of the signal, as a build tool expects');
  assert.is(r.content, 'old\n');
  assert.equal(r.temps, []);
});

test('SIGKILL mid-write: old content; the dead writer\'s temp is removed by the next run, a live neighbour\'s is not', async () => {
  const dir = file('sigkill');
  const r = await interruptMidWrite('SIGKILL', dir);
  assert.is(r.signal, 'SIGKILL');
  assert.is(r.content, 'old\n');
  assert.is(r.temps.length, 1, 'SIGKILL cannot be caught: the temp stays for now');
  const neighbour = join(dir, `.other.csv.dxbin-${process.pid}-0123abcd.tmp`);
  writeFileSync(neighbour, 'a live process is writing this');
  const next = await dxbin(['extract', SHADER, '-o', join(dir, 'rs.dxbc')]);
  assert.is(next.status, 0, next.stderr);
  assert.equal(temps(dir), [`.other.csv.dxbin-${process.pid}-0123abcd.tmp`]);
});

test('| head: a reader that goes away ends the run quietly, exit 0', async () => {
  const r = spawnSync('bash', ['-c', `"${process.execPath}" "${await builtCli()}" query decode --type pipeline-statistics "${bigStats()}" | head -2; echo "status \${PIPESTATUS[0]}" >&2`], { encoding: 'utf8' });
  assert.is(r.stdout.split('\n')[1], '0,0,0,0,0,0,0,0,0,0,0');
  assert.is(r.stderr, 'status 0\n', 'no EPIPE trace');
  const i = spawnSync('bash', ['-c', `"${process.execPath}" "${await builtCli()}" inspect --json "${file('thousand')}/s0[0-4]*.cso" | head -1 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`], { encoding: 'utf8' });
  assert.is(i.stderr, 'status 0\n');
});

test('| head on a persistent worker: the client going away mid-answers ends the worker quietly, exit 0', async () => {
  const requests = file('requests.ndjson');
  writeFileSync(requests, Array.from({ length: 2000 }, (_, i) => JSON.stringify({ arguments: ['hash', SHADER], requestId: i + 1 })).join('\n'));
  const r = spawnSync('bash', ['-c', `"${process.execPath}" "${await builtCli()}" --persistent_worker < "${requests}" | head -c 1 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`], { encoding: 'utf8' });
  assert.is(r.stderr, 'status 0\n', 'no EPIPE trace, exit 0');
});

requires('python3', missingCommand('python3', ['-c', 'import resource']))('a 3 GB sparse query file: streamed, offsets past 2 GB, peak RSS under 200 MB', async () => {
  const p = file('huge.bin');
  writeFileSync(p, '');
  truncateSync(p, 3 * 2 ** 30);
  const tail = encodeQueryResults('OCCLUSION', [{ Value: 7n }]);
  writeFileSync(p, tail, { flag: 'r+' } as never);
  // the last record, past 2^31: write it at the end
  const fd = await import('node:fs').then((fs) => fs.openSync(p, 'r+'));
  (await import('node:fs')).writeSync(fd, encodeQueryResults('OCCLUSION', [{ Value: 5n }]), 0, 8, 3 * 2 ** 30 - 8);
  (await import('node:fs')).closeSync(fd);
  const peak = spawnSync('python3', ['-c', 'import resource,subprocess,sys; r=subprocess.run(sys.argv[1:], capture_output=True, text=True); sys.stdout.write(r.stdout); print(r.returncode); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)', process.execPath, await builtCli(), 'query', 'sum', '--type', 'occlusion', p], { encoding: 'utf8' });
  const [sum, code, rssKb] = peak.stdout.trimEnd().split('\n');
  assert.is(sum, 'Value,12');
  assert.is(code, '0');
  assert.ok(Number(rssKb) * 1024 < 200 * 2 ** 20, `peak RSS ${rssKb} KB`);
  const last = await dxbin(['query', 'decode', '--type', 'occlusion', '--offset', String(3 * 2 ** 30 - 8), p]);
  assert.is(last.text, 'Value\n5\n');
  const two = await dxbin(['query', 'decode', '--type', 'timestamp', '--count', '2', p]);
  assert.is(two.text, 'Value\n7\n0\n');
  rmSync(p);
});

test('error contract: missing/unreadable inputs exit 1 in words; foreign files say what they look like', async () => {
  const missing = await dxbin(['inspect', file('nope.cso')]);
  assert.is(missing.status, 1);
  assert.is(missing.stderr, `dxbin: ${file('nope.cso')}: cannot read: no such file or folder\n`);
  const folder = await dxbin(['hash', work]);
  assert.is(folder.status, 1);
  assert.is(folder.stderr, `dxbin: ${work}: cannot read: is a folder, not a file\n`);
  writeFileSync(file('empty.cso'), '');
  writeFileSync(file('notes.txt'), 'hello\n');
  writeFileSync(file('rs.json'), '{"version":"1.1"}');
  const f = await dxbin(['rootsig', 'validate', file('empty.cso'), file('notes.txt'), file('rs.json')]);
  assert.is(f.status, 1);
  assert.is(
    f.stderr,
    [`${file('empty.cso')}: not a DXBC/DXIL container nor an RTS0 part (it looks like an empty file)`, `${file('notes.txt')}: not a DXBC/DXIL container nor an RTS0 part (it looks like text)`, `${file('rs.json')}: not a DXBC/DXIL container nor an RTS0 part (it looks like JSON text)`]
      .map((l) => `dxbin: ${l}\n`)
      .join(''),
  );
  const strip = await dxbin(['strip', NO_RTS0, '-o', file('x.cso')]);
  assert.is(strip.status, 1, 'strip and extract agree: no RTS0 is bad input');
  assert.is(strip.stderr, `dxbin: ${NO_RTS0}: the container has no RTS0 part to strip\n`);
  const extract = await dxbin(['extract', NO_RTS0, '-o', file('x.cso')]);
  assert.is(extract.status, 1);
  assert.not.match(extract.stderr, 'at byte 0');
  const glob = await dxbin(['inspect', file('none-*.cso')]);
  assert.is(glob.status, 1);
  assert.match(glob.stderr, 'no file matches this pattern');
});

test('option values are checked (exit 2); trailing partial records are an error unless --allow-partial', async () => {
  writeFileSync(file('stamps.bin'), encodeQueryResults('TIMESTAMP', [{ Value: 100n }, { Value: 250n }, { Value: 400n }, { Value: 1000n }]));
  const xyz = await dxbin(['query', 'timings', file('stamps.bin'), '--frequency', '1000000000', '--format', 'xyz']);
  assert.is(xyz.status, 2);
  assert.match(xyz.stderr, "dxbin: option '--format <format>' argument 'xyz' is invalid");
  assert.is((await dxbin(['ddi', 'layout', 'render-passes'])).status, 2);
  assert.is((await dxbin(['query', 'sum', '--type', 'nope', file('stamps.bin')])).status, 2);
  writeFileSync(file('ragged.bin'), new Uint8Array(8 * 3 + 5));
  const ragged = await dxbin(['query', 'decode', '--type', 'timestamp', file('ragged.bin')]);
  assert.is(ragged.status, 1);
  assert.is(ragged.stderr, `dxbin: ${file('ragged.bin')}: 5 trailing bytes are not a whole TIMESTAMP result of 8 bytes (--allow-partial ignores them) (TIMESTAMP at byte 24)\n`);
  const allowed = await dxbin(['query', 'decode', '--type', 'timestamp', '--allow-partial', file('ragged.bin')]);
  assert.is(allowed.status, 0);
  assert.is(allowed.text, 'Value\n0\n0\n0\n');
});

test('timings default to [begin, end] pairs (as the library does); --marks for consecutive marks; --json summary', async () => {
  const pairs = await dxbin(['query', 'timings', file('stamps.bin'), '--frequency', '1000000000', '--format', 'csv']);
  assert.is(pairs.text, 'index,ticks,ns,flag\n0,150,150,\n1,600,600,\n');
  const same = await dxbin(['query', 'timings', file('stamps.bin'), '--frequency', '1000000000', '--format', 'csv', '--pairs']);
  assert.is(same.text, pairs.text, '--pairs still accepted');
  const marks = await dxbin(['query', 'timings', file('stamps.bin'), '--frequency', '1000000000', '--format', 'csv', '--marks']);
  assert.is(marks.text, 'index,ticks,ns,flag\n0,150,150,\n1,150,150,\n2,600,600,\n');
  const j = JSON.parse((await dxbin(['query', 'timings', file('stamps.bin'), '--frequency', '1000000000', '--json'])).text);
  assert.equal([j.durations, j.form, j.minNs, j.maxNs], [2, 'pairs', 150, 600]);
});

test('ddi decode tells an image of the other ABI apart', async () => {
  const json = file('node-output.json');
  writeFileSync(json, JSON.stringify({ FinalName: { Name: 'N', ArrayIndex: 0 }, OutputIndex: 0, NodeIOKind: 'NODE_OUTPUT', NodeIOFlags: [], RecordSizeInBytes: 8, bAllowSparseNodes: 0, pRecordDispatchGrid: null, pMaxRecords: 4, pMaxRecordsSharedWithOutputIndex: null, ArraySize: 1, pOutputs: null }));
  assert.is((await dxbin(['ddi', 'encode', 'node-output', json, '--abi', 'x64', '-o', file('x64.bin')])).status, 0);
  const wrong = await dxbin(['ddi', 'decode', 'node-output', file('x64.bin'), '--abi', 'x86']);
  assert.is(wrong.status, 1);
  assert.match(wrong.stderr, 'it is an exact x64 image (check --abi)');
  assert.is((await dxbin(['ddi', 'decode', 'node-output', file('x64.bin'), '--abi', 'x64'])).status, 0);
});

test('help A B, examples, version from package.json, msvc diagnostics', async () => {
  const h = await dxbin(['help', 'rootsig', 'compile']);
  assert.is(h.status, 0);
  assert.match(h.text, 'Usage: dxbin rootsig compile');
  assert.match(h.text, 'Examples:');
  assert.is((await dxbin(['help', 'rootsig', 'nope'])).status, 2);
  const v = await dxbin(['--version']);
  assert.is(v.text.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  const m = await dxbin(['rootsig', 'compile', 'CBV(t0)', '--version', '1.1', '-o', file('bad.dxbc'), '--diagnostics-format', 'msvc']);
  assert.is(m.status, 1);
  assert.is(m.stderr, "<string>(1,5): error hlsl-syntax: root signature error - Incorrect register type 't0' in CBV (expected b#)\n");
});

test('rootsig compile --file: #include (quoted next to the file, <> in -I), CRLF, --depfile; same input, same bytes', async () => {
  const root = file('hermetic dir');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, 'include'), { recursive: true });
  writeFileSync(join(root, 'src/shader.hlsl'), '#include "rs.hlsli"\r\n[RootSignature(MainRS)]\r\nfloat4 main() : SV_Target { return 0; }\r\n');
  writeFileSync(join(root, 'src/rs.hlsli'), '#include <common.hlsli>\r\n#define MainRS "RootFlags(0), " \\\r\n  CBV_PART\r\n');
  writeFileSync(join(root, 'include/common.hlsli'), '#define CBV_PART "CBV(b0)"\n');
  const out = join(root, 'rs.dxbc');
  const args = ['rootsig', 'compile', '--file', join(root, 'src/shader.hlsl'), '-E', 'main', '-I', join(root, 'include'), '--version', '1.1', '-o', out, '--depfile', `${out}.d`];
  const r = await dxbin(args);
  assert.is(r.status, 0, r.stderr);
  const direct = await dxbin(['rootsig', 'compile', 'RootFlags(0), CBV(b0)', '--version', '1.1', '-o', file('direct.dxbc')]);
  assert.is(direct.status, 0);
  assert.is(hex(bytes(out)), hex(bytes(file('direct.dxbc'))), 'the included text compiles to the same bytes');
  const esc = (p: string) => p.replace(/ /g, '\\ ');
  assert.is(readFileSync(`${out}.d`, 'utf8'), `${esc(out)}: \\\n  ${esc(join(root, 'src/shader.hlsl'))} \\\n  ${esc(join(root, 'src/rs.hlsli'))} \\\n  ${esc(join(root, 'include/common.hlsli'))}\n\n${esc(join(root, 'src/rs.hlsli'))}:\n\n${esc(join(root, 'include/common.hlsli'))}:\n`, 'gcc -MD -MP: every header also an empty rule');
  const first = hex(bytes(out));
  assert.is((await dxbin(args)).status, 0);
  assert.is(hex(bytes(out)), first, 'hermetic: same input, same output bytes');
  assert.equal(readdirSync(root).sort(), ['include', 'rs.dxbc', 'rs.dxbc.d', 'src'], 'nothing written outside the declared outputs');
  writeFileSync(join(root, 'include/common.hlsli'), '#define CBV_PART "CBV(t0)"\n');
  const bad = await dxbin(args);
  assert.is(bad.status, 1);
  assert.is(bad.stderr, `dxbin: ${join(root, 'include/common.hlsli')}:1:23: error: root signature error - Incorrect register type 't0' in CBV (expected b#)\n`, 'located in the header');
  const missing = await dxbin(args.filter((a, i) => a !== '-I' && args[i - 1] !== '-I'));
  assert.is(missing.status, 1);
  assert.match(missing.stderr, "rs.hlsli:1:10: error: 'common.hlsli' file not found", 'clang words, at the directive in the header');
});

test('batch: one NDJSON answer per job, a failing job stops nothing, exit is the worst', async () => {
  const jobs = [JSON.stringify(['hash', '--check', SHADER]), '', JSON.stringify({ id: 'two', args: ['inspect', file('nope.cso')] }), JSON.stringify(['rootsig', 'decompile', SHADER])].join('\n');
  const r = await dxbin(['batch', '-'], { input: jobs });
  assert.is(r.status, 1);
  const answers = r.text.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(answers.map((a) => [a.line, a.exit]), [[1, 0], [3, 1], [4, 0]]);
  assert.is(answers[1].id, 'two');
  assert.match(answers[1].stderr, 'cannot read: no such file or folder');
  assert.match(answers[2].stdout, 'RootFlags(');
});

test('Bazel persistent worker (JSON protocol): one WorkResponse per request, only those on stdout', async () => {
  writeFileSync(file('args.flags'), `hash\n--check\n${SHADER}\n`);
  const requests = `${JSON.stringify({ arguments: [`@${file('args.flags')}`], requestId: 1 })}\n${JSON.stringify({ arguments: ['inspect', file('nope.cso')], requestId: 2 })}\n`;
  const r = await dxbin(['--persistent_worker'], { input: requests });
  assert.is(r.status, 0);
  // multiplex requests (ids > 0) are answered as they finish: matched by id, not by order
  const responses = r.text.trimEnd().split('\n').map((l) => JSON.parse(l)).sort((a, b) => a.requestId - b.requestId);
  assert.equal(responses.map((x) => [x.requestId, x.exitCode]), [[1, 0], [2, 1]]);
  assert.match(responses[0].output, 'status   valid');
  assert.match(responses[1].output, 'cannot read');
});

test.run();
