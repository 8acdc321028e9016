/**
 * Issue 20: the shader surfaces (PSV0, DXBC declarations with RDEF, verify, suggest) and the CLI
 * under hostile input of our own making, one group per class: output in proportion to the input
 * (1), names decoded once and n log n lookups (4), signals during a long synchronous run (5), glob
 * matching without backtracking (6), control characters escaped (7), bounded reads (9), PSV0 read
 * as DXC reads it (10). Class 8 (nested shapes) is in api-inputs.test.ts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DecodeError, LimitError, decodePsv0, encodePsv0, encodeRootSignature, psv0ToJson, readShader, rootSignatureContainer, suggestRootSignature, verifyBindings, verifyRootSignature, type RootSignature, type ShaderBinding } from '../src/index.js';
import { byteMap, hexDump, hexHtml } from '../src/inspect/index.js';
import { compileSegment, expandBraces, matchSegment } from '../src/cli/glob.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { seedDxilShader } from '../src/fuzz/seeds.js';
import { builtCli } from './helpers/built-cli.js';
import { hex } from './helpers/corpus.js';
import { controlCharNames, missingBindings, nulStringTable, oddStringTable, sharedNamePsv0, sharedNameRdef } from './helpers/hostile-surfaces.js';

const dir = mkdtempSync(join(tmpdir(), 'dxbin-i20-'));
const put = (name: string, bytes: Uint8Array | string) => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};
async function cli(args: string[]) {
  const streams = captureStreams();
  const status = await run(args, streams);
  return { status, stdout: streams.stdout(), stderr: streams.stderr() };
}

// ---- class 1: output in proportion to the input

test('class 1: 255 elements naming one 60 KB string: JSON, byte map, hex and HTML stay within 64x the input', () => {
  const shader = sharedNamePsv0(255, 60_000);
  const json = JSON.stringify(psv0ToJson(readShader(shader).psv!));
  assert.ok(json.length < 64 * shader.byteLength, `JSON ${json.length} from ${shader.byteLength}`);
  assert.match(json, /N{256}…\(\+59744 bytes\)/, 'the shared name is cut with a count');
  const map = byteMap(shader);
  const text = hexDump(shader, map).join('\n');
  const html = hexHtml(shader, map, 'x');
  assert.ok(text.length < 64 * shader.byteLength, `hex ${text.length}`);
  assert.ok(html.length < 64 * shader.byteLength, `html ${html.length}`);
});

test('class 1: a string table of 64 KB of NULs is one span and 4,096 rows, not one per byte', () => {
  const shader = nulStringTable(65_536);
  const map = byteMap(shader);
  const nul = map.spans.filter((s) => s.path.endsWith('stringTable (NUL)'));
  assert.is(nul.length, 1);
  assert.is(nul[0]!.size, 65_536);
  const rows = hexDump(shader, map).filter((l) => /^[0-9a-f]{8} /.test(l)).length;
  assert.ok(rows < 65_536 / 16 + 200, `${rows} rows`);
});

// ---- class 4: names decoded once, n log n lookups

test('class 4: 4,000 RDEF bindings naming one 170 KB string: one shared, cut name per binding', () => {
  const shader = sharedNameRdef(4000, 170_000);
  const bindings = readShader(shader).bindings!;
  assert.is(bindings.length, 4000);
  const names = new Set(bindings.map((b) => b.name));
  assert.is(names.size, 1);
  assert.is([...names][0], `${'R'.repeat(256)}…(+169744 bytes)`);
});

test('class 4: verify on misses reports every binding not bound and names the same near miss as a scan would', () => {
  const { bindings, rs } = missingBindings(300, 200);
  const r = verifyBindings(0, bindings, rs);
  assert.is(r.violations.filter((v) => v.code === 'not-fully-bound').length, 300);
  assert.ok(r.violations.every((v) => v.path === undefined || v.code !== 'not-fully-bound'), 'nothing meets a register past every range');
});

/** What verify.ts's lookups must give: a linear scan (the oracle for the max-tree). */
function naive(ranges: [number, number][], lb: number, ub: number) {
  const sorted = ranges.map(([a, b], i) => ({ a, b, i })).sort((x, y) => x.a - y.a);
  let contain: number | undefined;
  for (const x of sorted) if (x.a <= lb && x.b >= ub) contain = x.i;
  const meet = sorted.find((x) => x.a <= ub && lb <= x.b)?.i;
  return { contain, meet };
}

test('class 4: the interval lookups agree with a linear scan (random tables, random bindings)', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 6 })), { minLength: 1, maxLength: 12 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 10 }), (rangeSpec, bindingSpec) => {
      const ranges = rangeSpec.map(([base, n]) => [base, base + n - 1] as [number, number]);
      const rs = { version: 2, flags: 0, parameters: ranges.map(([base, last]) => ({ parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: last - base + 1, baseShaderRegister: base, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff }] })), staticSamplers: [] } as RootSignature;
      const bindings: ShaderBinding[] = bindingSpec.map(([lb, n]) => ({ resType: 3, space: 0, lowerBound: lb, upperBound: lb + n, offset: 0 }));
      const r = verifyBindings(0, bindings, rs);
      for (const b of bindings) {
        const want = naive(ranges, b.lowerBound, b.upperBound);
        const covered = r.coverage.find((c) => c.binding === b);
        const missed = r.violations.find((v) => v.binding === b && v.code === 'not-fully-bound');
        if (want.contain !== undefined) assert.is(covered?.path, `RTS0.parameters[${want.contain}].ranges[0]`);
        else assert.is(missed?.path, want.meet === undefined ? undefined : `RTS0.parameters[${want.meet}].ranges[0]`);
      }
    }),
    { numRuns: 300 },
  );
});

// ---- class 10: PSV0 as DXC reads it

test('class 10: a string table whose size is not a multiple of 4 is refused, as DXC refuses it', () => {
  for (const size of [1, 6, 7]) {
    try {
      readShader(oddStringTable(size));
      assert.unreachable(`size ${size}`);
    } catch (e) {
      assert.instance(e, DecodeError);
      assert.is((e as DecodeError).code, 'bad-offset');
      assert.is((e as DecodeError).path, 'PSV0.stringTableSize');
    }
  }
  assert.is(readShader(oddStringTable(8)).psv!.stringTable!.byteLength, 8);
});

test('class 10: LowerBound > UpperBound counts in unsigned 32-bit: not fully bound, unless one range holds UpperBound..LowerBound', () => {
  const shader = seedDxilShader({ stage: 5, resources: [[3, 0, 5, 3]] });
  const rsOf = (base: number, n: number): RootSignature => ({ version: 2, flags: 0, parameters: [{ parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: n, baseShaderRegister: base, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff }] }], staticSamplers: [] }) as RootSignature;
  const miss = verifyRootSignature(shader, rsOf(0, 4)); // t0..t3 holds the upper bound, not the lower
  assert.is(miss.verdict, 'does-not-fit');
  assert.is(miss.violations[0]!.code, 'not-fully-bound');
  assert.match(miss.violations[0]!.message, 'NumDescriptors=4294967295, BaseShaderRegister=5');
  assert.is(verifyRootSignature(shader, rsOf(3, 3)).verdict, 'fits', 't3..t5 holds both ends');
  const rs = suggestRootSignature([{ stage: 5, bindings: readShader(shader).bindings! }]);
  assert.is(verifyRootSignature(shader, rs).verdict, 'fits', 'the suggestion covers it as verify checks it');
});

// ---- findings of the new fuzz targets, replayed as made-up inputs

test('fuzz finding (psv0): runtime info between two versions keeps the bytes past the lower version', () => {
  for (const size of [25, 35, 40, 50, 53]) {
    const part = new Uint8Array(4 + size + 4 + (size >= 36 ? 8 : 0));
    const v = new DataView(part.buffer);
    v.setUint32(0, size, true);
    for (let i = 4; i < 4 + size; i++) part[i] = i === 4 + 24 ? 5 : i >= 4 + 28 && i < 4 + 36 ? 0 : 0xa0 + (i % 16);
    const psv = decodePsv0(part, { stage: 5 });
    assert.is(hex(encodePsv0(psv, { stage: 5 })), hex(part), `size ${size}`);
  }
});

test('fuzz finding (suggest): registers up to 2^32 - 2 and tables past 2^32 descriptors still give a root signature that fits', () => {
  const cases: ShaderBinding[][] = [
    [{ resType: 3, space: 0, lowerBound: 0, upperBound: 0xfffffffe, offset: 0 }, { resType: 3, space: 1, lowerBound: 0, upperBound: 0xffffffff, offset: 0 }],
    [{ resType: 3, space: 0, lowerBound: 0, upperBound: 0x9fffffff, offset: 0 }, { resType: 3, space: 1, lowerBound: 0, upperBound: 0x9fffffff, offset: 0 }, { resType: 2, space: 0, lowerBound: 0, upperBound: 0xffffffff, offset: 0 }],
  ];
  for (const bindings of cases) {
    const rs = suggestRootSignature([{ stage: 5, bindings }]);
    const r = verifyBindings(5, bindings, rs);
    assert.is(r.verdict, 'fits', r.violations.map((v) => v.message).join('; '));
  }
});

// ---- class 7: control characters

test('class 7: binding names with ESC, BEL and CR reach inspect and verify text escaped', async () => {
  const shader = put('ctl.dxbc', controlCharNames());
  const rs = put('empty-rs.dxbc', rootSignatureContainer(encodeRootSignature({ version: 2, flags: 0, parameters: [], staticSamplers: [] } as never)));
  const a = await cli(['inspect', shader]);
  const b = await cli(['verify', shader, '--rootsig', rs]);
  assert.is(b.status, 1);
  for (const out of [a.stdout, b.stdout, b.stderr]) assert.not.match(out, /[\x00-\x08\x0b-\x1f\x7f]/);
  assert.match(a.stdout, 'evil\\x1b[2J\\x07');
  assert.match(b.stdout + b.stderr, 'cr\\x0dname'); // the violation is a diagnostic on stderr
});

// ---- class 6: globs

test('class 6: *a*a*a*a*a*a*a*a*a*a*a*a*b against a 200,000-character name answers (no backtracking)', () => {
  assert.is(matchSegment(compileSegment('*a*a*a*a*a*a*a*a*a*a*a*a*b'), 'a'.repeat(200_000)), false);
  assert.is(matchSegment(compileSegment('*a*a*a*a*a*a*a*a*a*a*a*a*b'), `${'a'.repeat(200_000)}b`), true);
});

/** The oracle: the segment as a regular expression (fine for the short names generated). */
function regexOf(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let body = glob.slice(i + 1, end);
        const neg = body[0] === '!';
        if (neg) body = body.slice(1);
        re += `[${neg ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

test('class 6: segment matching agrees with a regular expression on random patterns and names', () => {
  const alphabet = fc.constantFrom('a', 'b', 'c');
  const token = fc.oneof(alphabet, fc.constant('*'), fc.constant('?'), fc.constant('[ab]'), fc.constant('[!a]'), fc.constant('[a-b]'));
  fc.assert(
    fc.property(fc.array(token, { maxLength: 8 }), fc.array(alphabet, { maxLength: 10 }), (tokens, chars) => {
      const glob = tokens.join('');
      const name = chars.join('');
      assert.is(matchSegment(compileSegment(glob), name), regexOf(glob).test(name), `${glob} ~ ${name}`);
    }),
    { numRuns: 2000 },
  );
});

test('class 6: braces expand (nested too) and are bounded', () => {
  assert.equal(expandBraces('x/{a,b{c,d}}/*.cso').sort(), ['x/a/*.cso', 'x/bc/*.cso', 'x/bd/*.cso']);
  assert.equal(expandBraces('{single}'), ['{single}']);
  assert.throws(() => expandBraces('{a,b}'.repeat(11)), (e: unknown) => e instanceof LimitError && e.kind === 'produce' && /maxProducedChars/.test(e.message), 'the patterns made are charged to the work budget');
});

// ---- class 9: bounded reads, special files, suggest

test('class 9: a device is refused, an input past --max-input is refused, a pipe is read bounded', async () => {
  const zero = await cli(['hash', '/dev/zero']);
  assert.is(zero.status, 1);
  assert.match(zero.stderr, '/dev/zero: not a regular file');
  const shader = put('small.dxbc', sharedNameRdef(1, 4));
  const big = await cli(['inspect', '--max-input', '16', shader]);
  assert.is(big.status, 1);
  assert.match(big.stderr, 'more than 16 bytes (--max-input 16)');
  assert.is((await cli(['inspect', shader])).status, 0);
  const bad = await cli(['inspect', '--max-input', '0x10', shader]);
  assert.is(bad.status, 2);
});

test('class 9: rootsig suggest expands globs and its errors name the file', async () => {
  const sub = join(dir, 'suggest');
  mkdirSync(sub);
  writeFileSync(join(sub, 'a.dxbc'), sharedNameRdef(2, 4));
  writeFileSync(join(sub, 'b.dxbc'), sharedNameRdef(3, 4));
  const ok = await cli(['rootsig', 'suggest', '--json', join(sub, '*.dxbc')]);
  assert.is(ok.status, 0, ok.stderr);
  assert.is(JSON.parse(ok.stdout).shaders, 2);
  const none = await cli(['rootsig', 'suggest', join(sub, '*.none')]);
  assert.is(none.status, 1);
  assert.match(none.stderr, '*.none: no file matches this pattern');
  writeFileSync(join(sub, 'c.cso'), seedDxilShader({ resources: [[2, 0xfffffff0, 0, 0]] }));
  const reserved = await cli(['rootsig', 'suggest', join(sub, 'a.dxbc'), join(sub, 'c.cso')]);
  assert.is(reserved.status, 1);
  assert.match(reserved.stderr, `${join(sub, 'c.cso')}: `);
  assert.match(reserved.stderr, 'reserved for the system');
});

// ---- class 5: signals end a long synchronous run

/** A container whose RTS0 has `n` ranges: `rootsig validate` on it runs synchronously for seconds. */
function slowInput(n: number): string {
  const ranges = Array.from({ length: n }, (_, i) => ({ rangeType: 0, numDescriptors: 1, baseShaderRegister: i, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff }));
  return put(`slow-${n}.dxbc`, rootSignatureContainer(encodeRootSignature({ version: 2, flags: 0, parameters: [{ parameterType: 0, shaderVisibility: 0, ranges }], staticSamplers: [] } as never)));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // real time of a child process (fake timers cannot drive another process's clock)
  test(`class 5: ${signal} ends a long synchronous run within a second, leaving no temp file`, async () => {
    const input = slowInput(400_000);
    const out = join(dir, `out-${signal}`);
    mkdirSync(out, { recursive: true });
    const child = spawn(process.execPath, [await builtCli(), 'rootsig', 'convert', input, '--to', '1.0', '-o', join(out, 'rs.dxbc')], { stdio: 'ignore' });
    const exited = once(child, 'exit');
    await sleep(1500); // past start-up, inside the synchronous decode/validate
    const sent = Date.now();
    child.kill(signal);
    const [status, sig] = (await exited) as [number | null, NodeJS.Signals | null];
    const took = Date.now() - sent;
    assert.is(sig, signal, `died of the signal (status ${status})`);
    assert.ok(took < 1000, `${took} ms after the signal`);
    assert.equal(readdirSync(out), []);
  });
}

test.run();
