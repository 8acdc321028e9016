/**
 * Issue 26's "Done means": every hostile input the issue names, run as a user runs it (the built
 * CLI, or for library entry points a bundled script, under plain `node`), in a child process
 * under `ulimit -v 8000000`, where WebAssembly memory cannot be reserved and the JS paths run.
 * Each answers with exit 0, 1 or 2, one message on stderr and no stack trace, within 5 s of CPU
 * time and 200 MB of peak resident memory, its output within 64x its input (plus 4 KiB), and no
 * wrong output (each case checks its answer).
 *
 * CPU time and peak memory are the child's own (process.resourceUsage() and /proc/self/status
 * VmHWM at exit, written by a preload to a file): CPU time, not wall time, so a loaded machine
 * does not fail the bounds.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { compileRootSignature, decodeRootSignature, encodeRootSignature, findPart, parseContainer, writeContainer } from '../src/index.js';
import { decodeRdat, encodeRdat, type RdatTable } from '../src/rdat/index.js';
import { withRdat } from '../src/rdat/edit.js';
import { seedDxbcShader } from '../src/fuzz/seeds.js';
import { builtCli } from './helpers/built-cli.js';
import { ROOT, corpusFile } from './helpers/corpus.js';
import { longNamesRdat } from './helpers/hostile.js';

const MB = 1 << 20;
const dir = mkdtempSync(join(tmpdir(), 'dxbin-matrix-'));
const put = (name: string, data: Uint8Array | string) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

/**
 * Writes the process's CPU time (process.resourceUsage()) and peak resident memory to $DXBIN_USAGE
 * when it exits. The peak is VmHWM of /proc/self/status, the high-water mark of this program's own
 * memory: getrusage's maxRSS keeps the forking parent's across fork and exec.
 */
const PRELOAD = put(
  'usage.cjs',
  "const fs = require('node:fs');\nprocess.on('exit', () => {\n  const hwm = /VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));\n  fs.writeFileSync(process.env.DXBIN_USAGE, JSON.stringify({ ...process.resourceUsage(), hwm: hwm ? Number(hwm[1]) : undefined }));\n});\n",
);
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

interface Answer {
  status: number | null;
  stdout: string;
  stderr: string;
  cpuMs: number;
  maxRss: number;
}

/** Runs `node PRELOAD script args` under ulimit -v 8000000 in `cwd`, with `input` on stdin. */
function runLimited(script: string, args: readonly string[], options: { input?: string | Uint8Array; cwd?: string } = {}): Answer {
  const usage = join(dir, `usage-${Math.random().toString(36).slice(2)}.json`);
  const r = spawnSync('bash', ['-c', 'ulimit -v 8000000; exec "$@"', 'bash', process.execPath, '--require', PRELOAD, script, ...args], {
    cwd: options.cwd ?? dir,
    input: options.input ?? '',
    env: { ...process.env, DXBIN_USAGE: usage, NODE_OPTIONS: '' },
    maxBuffer: 512 * MB,
    encoding: 'utf8',
  });
  assert.ok(existsSync(usage), `the child ended without exiting (signal ${r.signal}): ${r.stderr.slice(0, 2000)}`);
  const u = JSON.parse(readFileSync(usage, 'utf8')) as { userCPUTime: number; systemCPUTime: number; maxRSS: number; hwm?: number };
  rmSync(usage);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRss: (u.hwm ?? u.maxRSS) * 1024 };
}

/** What each case measured: printed at the end with DXBIN_MATRIX_FIGURES=1. */
const figures: string[] = [];
process.on('exit', () => {
  if (process.env.DXBIN_MATRIX_FIGURES) process.stderr.write(`${figures.join('\n')}\n`);
});

/** The bounds every answer keeps (issue 26, Done means); `messages`: lines a check that reports each finding may print. */
function checkBounds(what: string, r: Answer, inputBytes: number, exits: readonly number[], messages = 1): void {
  assert.ok(r.status !== null && exits.includes(r.status), `${what}: exit ${r.status}, expected ${exits.join(' or ')}: ${r.stderr.slice(0, 2000)}`);
  assert.not.match(r.stderr, /^\s+at /m, `${what}: a stack trace: ${r.stderr.slice(0, 2000)}`);
  assert.not.match(r.stderr, /internal error|RangeError|TypeError|Maximum call stack/, `${what}: ${r.stderr.slice(0, 2000)}`);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.ok(lines.length <= messages, `${what}: ${lines.length} lines on stderr, ${messages} expected: ${r.stderr.slice(0, 2000)}`);
  if (r.status !== 0) assert.ok(lines.length >= 1, `${what}: exit ${r.status} says why`);
  assert.not.match(r.stderr, RAW_CONTROL, `${what}: a raw control character on stderr`);
  assert.ok(r.cpuMs <= 5000, `${what}: ${Math.round(r.cpuMs)} ms of CPU time`);
  assert.ok(r.maxRss <= 200 * MB, `${what}: peak resident memory ${(r.maxRss / MB).toFixed(0)} MiB`);
  const output = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
  figures.push(`${what}: exit ${r.status}, ${Math.round(r.cpuMs)} ms CPU, ${(r.maxRss / MB).toFixed(0)} MiB peak, ${output} bytes out of ${inputBytes} in`);
  assert.ok(output <= 64 * inputBytes + 4096, `${what}: ${output} bytes of output from ${inputBytes} bytes of input`);
}

const size = (...files: string[]) => files.reduce((n, f) => n + statSync(f).size, 0);
const cli = async (args: readonly string[], options: { input?: string | Uint8Array; cwd?: string } = {}) => runLimited(await builtCli(), args, options);

/** A library entry script bundled with esbuild (the package's code, no tsx), run under plain node. */
// in the checkout's node_modules/.cache, so that the bundle's require('rollup') finds the package
const bundles = join(ROOT, `node_modules/.cache/dxbin-test/matrix-${process.pid}`);
mkdirSync(bundles, { recursive: true });
process.on('exit', () => rmSync(bundles, { recursive: true, force: true }));
function bundled(name: string, source: string): string {
  const entry = put(`${name}.ts`, source);
  const out = join(bundles, `${name}.cjs`);
  buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: out, external: ['rollup'], logLevel: 'silent', nodePaths: [join(ROOT, 'node_modules')] });
  return out;
}

// ---- the preprocessor

test('a 30,000-deep ?: chain in #if: evaluated (exit 0, the taken branch), no stack overflow', async () => {
  const n = 30_000;
  const file = put('deep.hlsl', `#if ${'1 ? '.repeat(n)}1${' : 0'.repeat(n)}\n#define RS "CBV(b0)"\n#else\n#define RS "CBV(b1)"\n#endif\n`);
  const out = join(dir, 'deep.rts0');
  const r = await cli(['rootsig', 'compile', '--file', file, '--define', 'RS', '--to', '1.1', '--raw', '-o', out]);
  checkBounds('deep ?:', r, size(file), [0]);
  assert.is((decodeRootSignature(readFileSync(out)).parameters[0] as { descriptor: { shaderRegister: number } }).descriptor.shaderRegister, 0);
});

test('## doubling 28 times: the produced-characters budget, exit 1 naming maxProducedChars', async () => {
  let text = '#define CAT(a, b) a##b\n#define X(a, b) CAT(a, b)\n#define D0 x\n';
  for (let i = 1; i <= 28; i++) text += `#define D${i} X(D${i - 1}, D${i - 1})\n`;
  const file = put('double.hlsl', `${text}#define RS D28\n`);
  const r = await cli(['rootsig', 'compile', '--file', file, '--define', 'RS', '--to', '1.1', '--raw', '-o', join(dir, 'double.rts0')]);
  checkBounds('## doubling', r, size(file), [1]);
  assert.match(r.stderr, /maxProducedChars/);
  assert.not.ok(existsSync(join(dir, 'double.rts0')));
});

const LEAF = `#if 0\n${`${'x'.repeat(99)}\n`.repeat(4000)}#endif\n#define LEAF_RS "CBV(b0)"\n`;
function diamond(name: string, guarded: boolean): string {
  const d = join(dir, name);
  mkdirSync(d);
  const guard = (g: string, body: string) => (guarded ? `#ifndef ${g}\n#define ${g}\n${body}#endif\n` : body);
  writeFileSync(join(d, 'leaf.h'), guard('LEAF_H', LEAF));
  for (let i = 0; i < 20; i++) {
    const next = i === 19 ? 'leaf.h' : `h${i + 1}.h`;
    writeFileSync(join(d, `h${i}.h`), guard(`H${i}_H`, `#include "${next}"\n#include "${next}"\n`));
  }
  writeFileSync(join(d, 'm.hlsl'), '#include "h0.h"\n#define RS LEAF_RS\n');
  return d;
}

test('an include diamond over a 400 KB #if 0: guarded, exit 0 and the right answer; unguarded, the scan budget (exit 1)', async () => {
  const g = diamond('guarded', true);
  const files = readdirSync(g).map((f) => join(g, f));
  const out = join(dir, 'diamond.rts0');
  const r = await cli(['rootsig', 'compile', '--file', join(g, 'm.hlsl'), '--define', 'RS', '--to', '1.1', '--raw', '-o', out]);
  checkBounds('guarded diamond', r, size(...files), [0]);
  assert.is(decodeRootSignature(readFileSync(out)).parameters.length, 1);
  const u = diamond('unguarded', false);
  const s = await cli(['rootsig', 'compile', '--file', join(u, 'm.hlsl'), '--define', 'RS', '--to', '1.1', '--raw', '-o', join(dir, 'unguarded.rts0')]);
  checkBounds('unguarded diamond', s, size(...readdirSync(u).map((f) => join(u, f))), [1]);
  assert.match(s.stderr, /maxScanBytes|maxReadBytes|maxFiles/);
});

test('#include "/proc/self/mem": exit 1, one line at the directive', async () => {
  const file = put('mem.hlsl', '#include "/proc/self/mem"\n#define RS "CBV(b0)"\n');
  const r = await cli(['rootsig', 'compile', '--file', file, '--define', 'RS', '--to', '1.1', '-o', join(dir, 'mem.bin')]);
  checkBounds('/proc/self/mem', r, size(file), [1]);
  assert.match(r.stderr, /mem\.hlsl:1:10: error: cannot open file '\/proc\/self\/mem'/);
});

test('8^7 reads of empty response files: the read budget, exit 1 naming a file', async () => {
  const files: string[] = [];
  for (let i = 0; i < 8; i++) files.push(put(`r${i}.params`, i === 7 ? '' : `@${join(dir, `r${i + 1}.params`)}\n`.repeat(8)));
  const r = await cli(['hash', `@${files[0]}`]);
  checkBounds('8^7 response files', r, size(...files), [1]);
  assert.match(r.stderr, /max(ReadBytes|Files) = \d+ .*r\d\.params/);
});

test('-I link/../inc reads the header the system resolves (as cpp and DXC do), and the depfile names it', async () => {
  const d = join(dir, 'links');
  mkdirSync(join(d, 'real/sub'), { recursive: true });
  mkdirSync(join(d, 'real/inc'), { recursive: true });
  mkdirSync(join(d, 'inc'));
  symlinkSync('real/sub', join(d, 'link'));
  writeFileSync(join(d, 'real/inc/x.h'), '#define RS "CBV(b1)"\n');
  writeFileSync(join(d, 'inc/x.h'), '#define RS "CBV(b0)"\n');
  writeFileSync(join(d, 'main.hlsl'), '#include <x.h>\n');
  const r = await cli(['rootsig', 'compile', '--file', 'main.hlsl', '--define', 'RS', '-I', 'link/../inc', '--to', '1.1', '--raw', '-o', 'out.rts0', '--depfile', 'out.d'], { cwd: d });
  checkBounds('-I link/../inc', r, size(join(d, 'main.hlsl'), join(d, 'real/inc/x.h')), [0]);
  assert.is((decodeRootSignature(readFileSync(join(d, 'out.rts0'))).parameters[0] as { descriptor: { shaderRegister: number } }).descriptor.shaderRegister, 1, 'real/inc/x.h, not inc/x.h');
  assert.match(readFileSync(join(d, 'out.d'), 'utf8'), /link\/\.\.\/inc\/x\.h/);
});

// ---- outputs and names

test('-o X --depfile X: a usage error (exit 2), nothing written', async () => {
  const x = join(dir, 'same.dxbc');
  const r = await cli(['rootsig', 'compile', 'RootFlags(0), CBV(b0)', '--to', '1.1', '-o', x, '--depfile', x]);
  checkBounds('-o X --depfile X', r, 64, [2]);
  assert.match(r.stderr, /are the same file/);
  assert.not.ok(existsSync(x));
});

function twoNamedAlike(): string {
  const bytes = corpusFile('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil');
  const rdat = decodeRdat(findPart(parseContainer(bytes), 'RDAT')!.data);
  const subobjects = (rdat.parts.find((p) => p.type === 'SubobjectTable') as RdatTable).records;
  subobjects[1]!.Name = subobjects[0]!.Name;
  return put('dup.dxil', withRdat(bytes, rdat));
}

test('duplicate subobject names: convert and extract --subobject refuse (exit 1) naming both; nothing written', async () => {
  const lib = twoNamedAlike();
  for (const args of [['rootsig', 'convert', lib, '--to', '1.0', '-o', join(dir, 'conv.dxil')], ['extract', lib, '--subobject', 'LRS0', '-o', join(dir, 'ext.dxbc')]]) {
    const r = await cli(args);
    checkBounds(args.slice(0, 2).join(' '), r, size(lib), [1]);
    assert.match(r.stderr, /two subobjects are named "LRS0"/);
  }
  assert.not.ok(existsSync(join(dir, 'conv.dxil')) || existsSync(join(dir, 'ext.dxbc')));
});

const EVIL = 'rs\n#include "/etc/passwd"\n\x1b[2J\x07\r\u202e';
function evilLibrary(): string {
  const lib = corpusFile('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil');
  const rdat = decodeRdat(findPart(parseContainer(lib), 'RDAT')!.data);
  let i = 0;
  for (const r of (rdat.parts.find((p) => p.type === 'SubobjectTable') as RdatTable).records) {
    if (!/RootSignature$/.test(String(r.KindName))) continue;
    r.Name = `${EVIL}${i++}`;
    if (r.refs) delete r.refs.Name;
  }
  return put('evil.dxil', withRdat(lib, rdat));
}

test('a subobject name holding a newline and #include: rootsig decompile prints no line the name chose, no raw escape', async () => {
  const file = evilLibrary();
  const r = await cli(['rootsig', 'decompile', file]);
  checkBounds('decompile', r, size(file), [0]);
  for (const line of r.stdout.split('\n')) assert.not.ok(/^\s*#/.test(line), `a live directive: ${JSON.stringify(line)}`);
  assert.not.match(r.stdout, RAW_CONTROL);
  assert.ok(r.stdout.includes('\\x0a#include'), 'the name shown escaped');
  const i = await cli(['inspect', file]);
  checkBounds('inspect evil', i, size(file), [0]);
  assert.not.match(i.stdout, RAW_CONTROL);
});

test('raw escape characters in binding names reach the terminal escaped (inspect, verify)', async () => {
  const shader = put('ctl.dxbc', seedDxbcShader(2, ['evil\x1b[2J\x07', 'cr\rname']));
  const rs = put('empty-rs.dxbc', writeContainer({ majorVersion: 1, minorVersion: 0, parts: [{ name: 'RTS0', data: encodeRootSignature({ version: 2, flags: 0, parameters: [], staticSamplers: [] } as never) }] } as never, 'compute'));
  const a = await cli(['inspect', shader]);
  checkBounds('inspect ctl', a, size(shader), [0]);
  assert.match(a.stdout, 'evil\\x1b[2J\\x07');
  const b = await cli(['verify', shader, '--rootsig', rs]);
  checkBounds('verify ctl', b, size(shader, rs), [1], 2); // one line per binding not bound
  for (const out of [a.stdout, b.stdout]) assert.not.match(out, RAW_CONTROL);
});

// ---- RDAT

function sharedResources(F: number, N: number): string {
  const list = Array.from({ length: N }, (_, i) => i);
  const rdat = encodeRdat({
    version: 16,
    parts: [
      { type: 'StringBuffer', strings: [''] },
      { type: 'IndexArrays', values: [] },
      { type: 'ResourceTable', stride: 32, records: list.map((i) => ({ Class: 'SRV', Kind: 'Texture2D', ID: i, Space: 0, LowerBound: i, UpperBound: i, Name: `tex${i}`, Flags: 0 })) },
      { type: 'FunctionTable', stride: 44, records: Array.from({ length: F }, (_, i) => ({ Name: `f${i}`, UnmangledName: `f${i}`, Resources: list, FunctionDependencies: null, ShaderKind: 'RayGeneration', PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0x70063 })) },
    ],
  } as never);
  return put(`shared${F}.dxil`, writeContainer({ majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDAT', data: rdat }] } as never, 'compute'));
}

for (const F of [500, 5000]) {
  test(`an RDAT resource list shared by ${F} functions: inspect and inspect --json answer (exit 0) within 64x, the list once`, async () => {
    const file = sharedResources(F, 400);
    const text = await cli(['inspect', file]);
    checkBounds('inspect', text, size(file), [0]);
    assert.is(text.stdout.split('\n').filter((l) => l.includes('SRV t')).length, 400, 'the list printed once');
    assert.is(text.stdout.split('\n').filter((l) => l.includes('(the list of export f0)')).length, F - 1);
    const json = await cli(['inspect', file, '--json']);
    checkBounds('inspect --json', json, size(file), [0]);
    const lib = (JSON.parse(json.stdout) as { library: { bindingLists: { lowerBound: number }[][]; exports: { bindingList: number }[] } }).library;
    assert.is(lib.exports.length, F);
    assert.ok(lib.exports.every((e) => lib.bindingLists[e.bindingList]!.length === 400 && lib.bindingLists[e.bindingList]![399]!.lowerBound === 399));
    const verify = await cli(['verify', file]);
    checkBounds('verify', verify, size(file), [0, 1]);
  });
}

test('ddi node-outputs over 152 KB of RDAT strings: exit 0, each output once, within the bounds', async () => {
  const rdat = longNamesRdat();
  const file = put('long.dxil', writeContainer({ majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDAT', data: rdat }] } as never, 'compute'));
  const r = await cli(['ddi', 'node-outputs', file]);
  checkBounds('ddi node-outputs', r, size(file), [0]);
  assert.is(r.stdout.trim().split('\n').length, 4);
});

// ---- the worker

test('a 20 MB persistent-worker request: one WorkResponse, exit 0, within 200 MB', async () => {
  const request = `${JSON.stringify({ arguments: ['rootsig', 'validate', 'x'.repeat(20 * 1000 * 1000)], requestId: 7 })}\n`;
  const r = await cli(['--persistent_worker'], { input: request });
  checkBounds('20 MB worker request', r, request.length, [0]);
  const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { requestId: number; exitCode: number; output: string });
  assert.is(answers.length, 1);
  assert.is(answers[0]!.requestId, 7);
  assert.is(answers[0]!.exitCode, 1, 'the name no system opens is refused');
  assert.ok(answers[0]!.output.length < 4096);
});

// ---- library entry points, bundled and run under plain node

test('rollup loading x.rs.hlsl -> /dev/zero: a bundler error at once (exit 1, one line)', () => {
  symlinkSync('/dev/zero', join(dir, 'zero.rs.hlsl'));
  const entry = put('entry.js', "import rs from './zero.rs.hlsl';\nconsole.log(rs);\n");
  const script = bundled('rollup-zero', `
import { rollup } from 'rollup';
import dxbin from ${JSON.stringify(join(ROOT, 'src/rollup/index.ts'))};
rollup({ input: ${JSON.stringify(entry)}, plugins: [dxbin()], onwarn: () => {} }).then(
  () => { console.log('bundled'); },
  (e) => { process.stderr.write(String(e.message).split('\\n')[0] + '\\n'); process.exitCode = 1; },
);
`);
  const r = runLimited(script, []);
  checkBounds('rollup /dev/zero', r, 64, [1]);
  assert.match(r.stderr, /not a regular file/);
});

test('wrong-shaped arguments to the RDAT, state-object and HlslFile entries: DescriptionErrors naming the member', () => {
  const script = bundled('wrong-shapes', `
import { DescriptionError, DxbinError, HlslFile, decodeRdat, describeLibrary, libraryLines, libraryJson, verifyStateObject, rootSignatureToJson } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};
import { encodeRdat } from ${JSON.stringify(join(ROOT, 'src/rdat/index.ts'))};
const calls = [
  () => decodeRdat(42),
  () => decodeRdat(new Uint8Array(8), 0, { budget: {} }),
  () => encodeRdat({ version: 16, parts: 5 }),
  () => encodeRdat({ version: 16, parts: [{ type: 'FunctionTable', stride: 44, records: [{ Name: 7 }] }] }),
  () => describeLibrary({ parts: 'x' }),
  () => libraryLines({ exports: [{ name: 1 }], subobjects: [] }),
  () => libraryJson({ exports: [], subobjects: [] }, 'not a function'),
  () => verifyStateObject('x'),
  () => verifyStateObject([{ name: 1 }]),
  () => verifyStateObject([{ name: 'a', bytes: 'b' }]),
  () => new HlslFile(42, 'a.hlsl'),
  () => new HlslFile('#include "x.h"\\n#define RS "CBV(b0)"\\n', 'a.hlsl', {}, {}, { host: { read: () => 42, stat: () => ({ real: 'x.h', kind: 'file', size: 1 }) } }).defineText('RS'),
];
const seen = [];
for (const call of calls) {
  try { call(); seen.push('no error'); }
  catch (e) {
    if (!(e instanceof DxbinError)) throw e;
    seen.push(e.constructor.name + ' ' + (e.path ?? ''));
  }
}
console.log(JSON.stringify(seen));
`);
  const r = runLimited(script, []);
  checkBounds('wrong shapes', r, 4096, [0]);
  const seen = JSON.parse(r.stdout) as string[];
  assert.is(seen.length, 12);
  for (const s of seen) assert.ok(s !== 'no error', JSON.stringify(seen));
  for (const s of seen.slice(0, 11)) assert.match(s, /^DescriptionError \S/, JSON.stringify(seen));
});

test.run();
