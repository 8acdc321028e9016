/**
 * Issue 26, part A: the one work budget wired into the text and input surfaces (the HLSL
 * preprocessor, response files, globs, the rollup plugin), each of the issue's breaking inputs of
 * that kind as a case. Each asserts a typed answer (`limit-exceeded` naming the kind, or the
 * language's own error) and, where the answer is a result, that the budget's counters stayed in
 * proportion to the input; no timing is asserted (the bench measures speed).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as fs from 'node:fs';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import nodePath, { join } from 'node:path';
import { Budget, HlslError, HlslFile, LimitError, fileSystemHost, virtualHost, type VirtualEntry } from '../src/index.js';
import { expandResponseFiles } from '../src/build-step/argfiles.js';
import { compileSegment, globFiles, matchSegment } from '../src/cli/glob.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import dxbinRollup from '../src/rollup/index.js';
import { fuzzTarget, runOne, type FuzzTarget } from '../src/fuzz/targets.js';
import { seedInputs } from '../src/fuzz/seeds.js';
import { PROGRAM_SHAPES, generateProgram } from '../src/fuzz/hlsl-generator.js';

const dir = mkdtempSync(join(tmpdir(), 'dxbin-i26a-'));
const put = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
async function cli(args: string[]) {
  const streams = captureStreams();
  const status = await run(args, streams);
  return { status, stdout: streams.stdout(), stderr: streams.stderr() };
}

const rs = (text: string, limits = {}, options = {}) => new HlslFile(text, 'a.hlsl', {}, limits, options).defineText('RS').text;
const limited = (kind: string) => (e: unknown) => e instanceof HlslError && e.code === 'limit-exceeded' && e.limit instanceof LimitError && e.limit.kind === kind && /^[^:]+:\d+:\d+: error: more than max\w+ = \d+ /.test(e.message);

// ---- #if expressions: explicit stacks, no recursion on the input's depth

test('#if: a 30,000-deep ?: chain, parenthesis nest and unary run evaluate as GNU cpp does (no stack overflow)', () => {
  const n = 30_000;
  const taken = '\n#define RS "CBV(b0)"\n#else\n#define RS "CBV(b1)"\n#endif\n';
  assert.is(rs(`#if ${'1 ? '.repeat(n)}1${' : 0'.repeat(n)}${taken}`), 'CBV(b0)', 'nested in the true branch');
  assert.is(rs(`#if ${'0 ? 1 : '.repeat(n)}0${taken}`), 'CBV(b1)', 'a chain of false branches');
  assert.is(rs(`#if ${'('.repeat(n)}1${')'.repeat(n)}${taken}`), 'CBV(b0)');
  assert.is(rs(`#if ${'- '.repeat(n)}1${taken}`), 'CBV(b0)', 'an even number of minus signs: 1');
  assert.is(rs(`#if ${'!'.repeat(n + 1)}0${taken}`), 'CBV(b0)', 'an odd number of !: 1');
  assert.is(rs(`#if ${'1 + '.repeat(n)}1 == ${n + 1}${taken}`), 'CBV(b0)');
  // precedence, associativity, short-circuit and the usual conversions on the stacks
  assert.is(rs(`#if 2 + 3 * 4 == 14 && (2 + 3) * 4 == 20 && 10 - 4 - 3 == 3 && 1 ? 0 : 1 ? 0 : 1${taken}`), 'CBV(b1)', '?: is right-associative, below &&');
  assert.is(rs(`#if 0 && 1 / 0 || 1 || 1 % 0${taken}`), 'CBV(b0)', 'division by zero where it is not evaluated');
  assert.is(rs(`#if (1 ? -1 : 0u) > 0 && (0, 1)${taken}`), 'CBV(b0)', 'an unsigned branch makes the result unsigned; the comma gives its right side');
  assert.throws(() => rs(`#if ${'('.repeat(n)}1${taken}`), (e: unknown) => e instanceof HlslError && e.code === 'hlsl-preprocess' && /expected '\)' in preprocessor expression/.test(e.message));
  assert.throws(() => rs(`#if 1 ? 1${taken}`), (e: unknown) => e instanceof HlslError && /expected ':'/.test(e.message));
  assert.throws(() => rs(`#if 1 : 1${taken}`), (e: unknown) => e instanceof HlslError && /expected '\?' before ':'/.test(e.message));
  assert.throws(() => rs(`#if 1 ? (1 : 0)${taken}`), (e: unknown) => e instanceof HlslError && /expected '\)'/.test(e.message));
  assert.throws(() => rs(`#if 1 ? 1 / 0 : 0${taken}`), (e: unknown) => e instanceof HlslError && /division by zero/.test(e.message));
});

test('#if: a million-digit literal is refused as too large without parsing it; a long character constant keeps 32 bits', () => {
  assert.throws(() => rs(`#if ${'1'.repeat(1_000_000)}\n#endif\n`), (e: unknown) => e instanceof HlslError && /integer literal is too large/.test(e.message));
  assert.is(rs(`#if 0x${'0'.repeat(100_000)}1 == 1\n#define RS "CBV(b0)"\n#endif\n`), 'CBV(b0)', 'leading zeros are not significant');
  assert.is(rs(`#if '${'a'.repeat(100_000)}bcde' == 'bcde'\n#define RS "CBV(b0)"\n#endif\n`), 'CBV(b0)', 'only the last four characters count, as clang');
});

// ---- characters produced: ## doubling, #, builtins

test('## doubling 28 times (564 MB as cpp would make it, from under 700 bytes) stops at the produced-characters budget', () => {
  let text = '#define CAT(a, b) a##b\n#define X(a, b) CAT(a, b)\n#define D0 x\n';
  for (let i = 1; i <= 28; i++) text += `#define D${i} X(D${i - 1}, D${i - 1})\n`;
  text += '#define RS D28\n';
  const budget = Budget.for(text.length);
  assert.throws(() => new HlslFile(text, 'p.hlsl', {}, {}, { budget }).defineText('RS'), limited('produce'));
  assert.ok(budget.used('produce') <= budget.limit('produce') + 2 * 2 ** 14, `produced ${budget.used('produce')} against ${budget.limit('produce')}: charged before made`);
  // below the budget the paste is exact
  assert.is(rs(text.replace('#define RS D28', '#define RS D4')), 'x'.repeat(16));
});

test('# of a long argument many times, and __FILE__ after a long #line name, are charged as produced', () => {
  const arg = 'a '.repeat(20_000);
  assert.throws(() => rs(`#define S(x) #x #x #x #x #x #x #x #x\n#define T(x) S(x) S(x) S(x) S(x) S(x) S(x) S(x) S(x)\n#define RS T(${arg})\n`), limited('produce'));
  assert.throws(() => new HlslFile(`#line 1 "${'n'.repeat(50_000)}"\n${'__FILE__ '.repeat(5000)}\n`, 'a.hlsl').preprocessedText(), limited('produce'));
});

test('a chain of 990 macros used 10,000 times: hide sets are made once and shared, the budget stops the output', () => {
  const chain = `${Array.from({ length: 990 }, (_, i) => `#define M${i} M${i + 1}`).join('\n')}\n#define M990 x\n`;
  const budget = Budget.for(0, { maxProducedChars: 1e12 });
  assert.is(new HlslFile(`${chain}#define RS ${'M0 '.repeat(50)}\n`, 'c.hlsl', {}, {}, { budget }).defineText('RS').text, 'x '.repeat(49) + 'x');
  assert.ok(budget.used('states') < 990 * 990, `hide sets copied once: ${budget.used('states')} steps`);
  assert.throws(() => rs(`${chain}#define RS ${'M0 '.repeat(10_000)}\n`), limited('produce'));
});

// ---- includes: the multiple-include optimization, re-scans, special files

const LEAF = `#if 0\n${`${'x'.repeat(99)}\n`.repeat(4000)}#endif\n#define LEAF_RS "CBV(b0)"\n`;

function diamond(guardedLeaf: boolean, guardedMiddle: boolean, levels = 20): Record<string, VirtualEntry> {
  const guard = (name: string, body: string, on: boolean) => (on ? `// ${name}\n#ifndef ${name}\n#define ${name}\n${body}#endif\n` : body);
  const files: Record<string, VirtualEntry> = { 'm.hlsl': '#include "h0.h"\n#define RS LEAF_RS\n', 'leaf.h': guard('LEAF_H', LEAF, guardedLeaf) };
  for (let i = 0; i < levels; i++) {
    const next = i === levels - 1 ? 'leaf.h' : `h${i + 1}.h`;
    files[`h${i}.h`] = guard(`H${i}_H`, `#include "${next}"\n#include "${next}"\n`, guardedMiddle);
  }
  return files;
}

test('an include diamond over a 400 KB #if 0: guarded headers are read and scanned once (clang\'s multiple-include optimization)', () => {
  const files = diamond(true, true);
  const budget = Budget.for(0);
  const f = new HlslFile(files['m.hlsl'] as string, 'm.hlsl', {}, {}, { host: virtualHost(files), budget });
  assert.is(f.defineText('RS').text, 'CBV(b0)');
  assert.is(f.files.length, 22, 'every file read once');
  assert.ok(budget.used('scan') <= 2 * LEAF.length, `the skipped group scanned once: ${budget.used('scan')} bytes`);
  assert.is(budget.used('files'), 21, 'no guarded header opened again');
  // the full preprocessor too, and `#if !defined X` is a guard as well
  const bang = { ...files, 'leaf.h': `#if !defined(LEAF_H)\n#define LEAF_H\n${LEAF}#endif\n` };
  const b2 = Budget.for(0);
  assert.is(new HlslFile(`${files['m.hlsl'] as string}LEAF_RS\n`, 'm.hlsl', {}, {}, { host: virtualHost(bang), budget: b2 }).preprocessedText().trim().split('\n').pop(), '"CBV(b0)"');
  assert.ok(b2.used('scan') <= 2 * LEAF.length, `${b2.used('scan')}`);
});

test('an unguarded diamond, or guards that do not cover the whole file, are scanned again and stop at the budget', () => {
  for (const [leaf, middle] of [[false, false], [true, false]] as const) {
    const files = diamond(leaf, middle);
    assert.throws(() => new HlslFile(files['m.hlsl'] as string, 'm.hlsl', {}, {}, { host: virtualHost(files) }).defineText('RS'), (e: unknown) => limited('scan')(e) || limited('files')(e), `leaf ${leaf}, middle ${middle}`);
  }
  // guarded middles include the unguarded leaf twice: it is scanned again once
  const budget = Budget.for(0);
  const files = diamond(false, true);
  assert.is(new HlslFile(files['m.hlsl'] as string, 'm.hlsl', {}, {}, { host: virtualHost(files), budget }).defineText('RS').text, 'CBV(b0)');
  assert.ok(budget.used('scan') >= 2 * LEAF.length && budget.used('scan') <= 3 * LEAF.length, `${budget.used('scan')}`);
  // text after the #endif, an #else at the guard's level, or a #define before the guard: not a guard (the file is scanned each time)
  for (const shape of ['#ifndef G\n#define G\n#endif\nint x;\n', '#ifndef G\n#define G\n#else\n#endif\n', '#define Y\n#ifndef G\n#define G\n#endif\n']) {
    const budget = Budget.for(0);
    new HlslFile('#include "g.h"\n#include "g.h"\n#include "g.h"\n', 'm.hlsl', {}, {}, { host: virtualHost({ 'g.h': shape }), budget }).preprocessedText();
    assert.is(budget.used('files'), 3, shape);
    assert.ok(budget.used('scan') >= 2 * shape.length, `${shape}: ${budget.used('scan')}`);
  }
  // a guard #undef'd between inclusions: read again, as clang does
  const undone = new HlslFile('#include "g.h"\n#undef G\n#include "g.h"\nN\n', 'm.hlsl', {}, {}, { host: virtualHost({ 'g.h': '#ifndef G\n#define G\n#ifdef N\n#define N 2\n#endif\n#define N 1\n#endif\n' }) });
  assert.match(undone.preprocessedText(), /^\s*1\s*$/m);
});

test('#include of /proc/self/mem, a device or a folder is a typed error at the #include, never an internal one', () => {
  const host = fileSystemHost({ fs, path: nodePath });
  const include = (p: string) => () => new HlslFile(`#include "${p}"\n#define RS "CBV(b0)"\n`, join(dir, 'i.hlsl'), {}, {}, { host }).defineText('RS');
  assert.throws(include('/proc/self/mem'), (e: unknown) => e instanceof HlslError && e.code === 'hlsl-preprocess' && /i\.hlsl:1:10: error: cannot open file '\/proc\/self\/mem': /.test(e.message));
  assert.throws(include('/dev/zero'), (e: unknown) => e instanceof HlslError && /not a regular file/.test(e.message));
  assert.throws(include(dir), (e: unknown) => e instanceof HlslError && /not a regular file/.test(e.message));
  // a file whose size says 0 and holds more (/proc): read, bounded by what the budget has left
  assert.is(new HlslFile('#include "/proc/self/status"\n#define RS "CBV(b0)"\n', join(dir, 'i.hlsl'), {}, {}, { host }).defineText('RS').text, 'CBV(b0)');
  const liar = virtualHost({ 'h.h': 'x'.repeat(10_000) });
  const stat = liar.stat;
  liar.stat = (p) => {
    const st = stat(p);
    return st && { ...st, size: 0 };
  };
  assert.throws(() => new HlslFile('#include "h.h"\n', 'm.hlsl', {}, { maxReadBytes: 8192 }, { host: liar }).preprocessedText(), limited('read'));
  // the host is asked for no more than is left
  let asked = -1;
  const spy = virtualHost({ 'h.h': 'x\n' });
  const read = spy.read;
  spy.read = (real, max) => ((asked = max ?? -1), read(real, max));
  new HlslFile('#include "h.h"\n', 'm.hlsl', {}, { maxReadBytes: 100_000 }, { host: spy }).preprocessedText();
  assert.is(asked, 100_000, 'the whole budget left for the first include');
});

test('the CLI answers an include of /proc/self/mem with exit 1 and one line', async () => {
  const file = put('mem.hlsl', '#include "/proc/self/mem"\n#define RS "CBV(b0)"\n');
  const r = await cli(['rootsig', 'compile', '--file', file, '--define', 'RS', '--version', '1.1', '-o', join(dir, 'mem.bin')]);
  assert.is(r.status, 1);
  assert.is(r.stderr, `dxbin: ${file}:1:10: error: cannot open file '/proc/self/mem': input/output error\n`);
  const bomb = put('bomb.hlsl', `#define A0 "x"\n${Array.from({ length: 39 }, (_, i) => `#define A${i + 1} A${i} A${i}`).join('\n')}\n#define RS A39\n`);
  const b = await cli(['rootsig', 'compile', '--file', bomb, '--define', 'RS', '--version', '1.1', '-o', join(dir, 'bomb.bin'), '--diagnostics-format', 'msvc']);
  assert.is(b.status, 1);
  assert.match(b.stderr, /^[^\n]*bomb\.hlsl\(\d+,\d+\): error limit-exceeded: more than maxProducedChars = \d+ characters \(produce: [^\n]*\)\n$/);
});

// ---- response files, globs, the rollup plugin

test('8^7 reads of empty response files run out of the budget (reads cost at least 4 KiB each), typed and naming a file', async () => {
  // level i holds eight references to level i + 1; level 7 is empty: 8 + 64 + ... + 8^7 reads
  for (let i = 0; i < 8; i++) put(`r${i}.params`, i === 7 ? '' : `@${join(dir, `r${i + 1}.params`)}\n`.repeat(8));
  const budget = Budget.for(0);
  assert.throws(() => expandResponseFiles([`@${join(dir, 'r0.params')}`], undefined, budget), (e: unknown) => e instanceof LimitError && (e.kind === 'read' || e.kind === 'files') && e.path.endsWith('.params'));
  assert.ok(budget.used('files') <= 65_537, `${budget.used('files')} files`);
  // the same from the command line: exit 1, one line
  const r = await cli(['hash', `@${join(dir, 'r0.params')}`]);
  assert.is(r.status, 1);
  assert.match(r.stderr, /^dxbin: more than max(ReadBytes|Files) = \d+ [^\n]*r\d\.params\)\n$/);
  // nesting is a level of depth each; a file inside itself is still refused at once
  assert.throws(() => expandResponseFiles(['@a'], (f) => `@${f}x\n`, Budget.for(0, { maxDepth: 20 })), (e: unknown) => e instanceof LimitError && e.kind === 'depth');
  assert.equal(expandResponseFiles(['@a'], (f) => (f.length < 30 ? `@${f}x\n` : 'end\n')), ['end'], 'nesting below the limit expands');
});

test('glob matching charges states: positions x characters before it steps; the walk charges each entry', () => {
  const tokens = compileSegment('*a*a*a*a*a*a*a*a*a*a*a*a*b');
  assert.is(matchSegment(tokens, 'a'.repeat(1000)), false);
  assert.throws(() => matchSegment(tokens, 'a'.repeat(1000), Budget.for(0, { maxSteps: 1000 })), (e: unknown) => e instanceof LimitError && e.kind === 'states');
  const tree = mkdtempSync(join(tmpdir(), 'dxbin-i26a-glob-'));
  for (let i = 0; i < 50; i++) writeFileSync(join(tree, `f${i}.hlsl`), '');
  const budget = Budget.for(0);
  assert.is(globFiles('*.hlsl', tree, budget).length, 50);
  assert.ok(budget.used('states') >= 50, 'each entry a step');
  assert.throws(() => globFiles('*.hlsl', tree, Budget.for(0, { maxSteps: 40 })), (e: unknown) => e instanceof LimitError && e.kind === 'states');
});

test('rollup: x.rs.hlsl linked to /dev/zero is a bundler error at once, never an unbounded read', () => {
  const link = join(dir, 'zero.rs.hlsl');
  symlinkSync('/dev/zero', link);
  const plugin = dxbinRollup();
  const errors: string[] = [];
  const ctx = {
    addWatchFile() {},
    error(e: { message: string }): never {
      errors.push(e.message);
      throw new Error(e.message);
    },
  };
  assert.throws(() => plugin.load.call(ctx, link), /not a regular file/);
  assert.equal(errors, [`dxbin: ${link}: not a regular file (a device, FIFO, socket or folder); refused`]);
  const shader = join(dir, 'zero.cso');
  symlinkSync('/dev/zero', shader);
  assert.throws(() => plugin.load.call(ctx, `${shader}?rootsig`), /not a regular file/);
  // a regular file still loads
  const ok = put('ok.rs.hlsl', 'CBV(b0)\n');
  assert.match(plugin.load.call(ctx, ok) ?? '', /export const blob = /);
});

// ---- fuzzing: the generator target and the resource oracle

test('hlsl-generated: every shape of recipe makes a program deterministically; the seeds run clean through every oracle', () => {
  const target = fuzzTarget('hlsl-generated');
  const seen = new Set<string>();
  for (const seed of seedInputs('hlsl-generated')) {
    const p = generateProgram(seed);
    seen.add(p.shape);
    assert.equal(generateProgram(seed.slice()), p, 'the same recipe, the same program');
    assert.is(target.inputSize!(seed), p.size);
    const outcome = runOne(target, seed);
    assert.is(outcome.finding, undefined, `${p.shape}: ${outcome.error}`);
  }
  assert.equal([...seen].sort(), [...PROGRAM_SHAPES].sort(), 'the seeds cover every shape');
  // a recipe that runs out reads zeros: any bytes are a program, the empty one too
  assert.is(generateProgram(new Uint8Array(0)).shape, PROGRAM_SHAPES[0]);
  const doubling = generateProgram(new Uint8Array([0, 0, 27, 0, 1]));
  assert.match(doubling.files['main.hlsl'] as string, /#define A28 X\(A27, A27\)/, 'levels and the way of doubling come from the recipe');
});

test('the resource oracle: CPU time and heap growth over a target\'s bounds are resource findings; output over 64x what the input stands for is output-size', () => {
  const burn: FuzzTarget = {
    name: 'burn', kind: 'bytes', oracle: 'test', resources: { cpuMsBase: 0, cpuMsPerByte: 0, heapBytesBase: 1e12, heapBytesPerByte: 0 },
    run() {
      let x = 0;
      for (let i = 0; i < 3e7; i++) x = (x * 31 + i) | 0;
      return x & 1;
    },
  };
  const slow = runOne(burn, new Uint8Array(4));
  assert.is(slow.finding, 'resource');
  assert.is(slow.frame, 'burn cpu');
  const kept: unknown[] = [];
  const heavy: FuzzTarget = {
    name: 'heavy', kind: 'bytes', oracle: 'test', resources: { cpuMsBase: 1e9, cpuMsPerByte: 0, heapBytesBase: 1 << 20, heapBytesPerByte: 0 },
    run() {
      for (let i = 0; i < 200_000; i++) kept.push({ i, s: `x${i}` });
      return 0;
    },
  };
  const big = runOne(heavy, new Uint8Array(4));
  assert.is(big.finding, 'resource');
  assert.is(big.frame, 'heavy heap');
  // within bounds: no finding; a generator's size is what output is measured against
  assert.is(runOne({ ...burn, resources: { cpuMsBase: 1e9, cpuMsPerByte: 0, heapBytesBase: 1e12, heapBytesPerByte: 0 } }, new Uint8Array(4)).finding, undefined);
  const loud: FuzzTarget = { name: 'loud', kind: 'bytes', oracle: 'test', inputSize: () => 100, run: () => 64 * 100 + 1 };
  assert.is(runOne(loud, new Uint8Array(1)).finding, 'output-size');
  assert.is(runOne({ ...loud, inputSize: () => 1000 }, new Uint8Array(1)).finding, undefined);
  assert.ok(kept.length > 0);
});

test.run();
