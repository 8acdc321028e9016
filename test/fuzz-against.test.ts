/**
 * Differential fuzzing (`dxbin fuzz TARGET --against IMPL`, src/fuzz/against.ts): the framed
 * protocol with a planted implementation (test/fixtures/against-impl.mjs: crashes, hangs,
 * refuses), and against vkd3d-shader 1.2 through the shipped harness (native/
 * vkd3d-against.c, built here): the known crashers of corpus/vkd3d-crashes give exactly their
 * classes, the corpus root signatures give no finding, and a campaign from the seeds finds vkd3d
 * crashes within a fixed number of inputs (answers are deterministic: no timing involved).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRootSignature } from '../src/index.js';
import { buildVkd3dHarness, crashClass, parseAnswerText, runAgainst, descText, type AgainstSummary } from '../src/fuzz/index.js';
import { CORPUS, ROOT, manifest } from './helpers/corpus.js';
import { requires } from './helpers/requires.js';

const fixture = `exec:${process.execPath} ${join(ROOT, 'test', 'fixtures', 'against-impl.mjs')}`;
const cli = join(ROOT, 'src', 'cli', 'main.ts');
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: ROOT, encoding: 'utf8' });
const tmp = () => mkdtempSync(join(tmpdir(), 'dxbin-against-'));
const rs = encodeRootSignature({ version: 2, flags: 0, parameters: [{ parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 1, registerSpace: 0, flags: 0 } }], staticSamplers: [] });

test('answer text and crash classes: the protocol lines read back; our handler\'s lines name kind and frame', () => {
  const a = parseAnswerText('parse ok 1 0 0 0\nserialize ok ABCD\nconvert 1.1 ok 2 0 0 0\nconvert 1.0 error -3\n');
  assert.equal(a, { accepted: true, desc: '1 0 0 0', bytes: 'abcd', convert: { '1.1': { desc: '2 0 0 0' }, '1.0': { error: '-3' } } });
  assert.equal(parseAnswerText('parse error -3 bad\n'), { accepted: false, error: '-3 bad', errorKey: '-3', convert: {} });
  assert.throws(() => parseAnswerText('serialize ok 00\n'), /no parse line/);
  assert.throws(() => parseAnswerText('hello\n'), /unreadable answer line/);
  const c = crashClass('killed by SIGSEGV', 'warn\n\ndxbin-crash SIGSEGV read-past-end 0x3\n/lib/libvkd3d-shader.so.1(+0x9330)[0x7f00]\ndxbin-crash-end\n');
  assert.is(c.kind, 'read-past-end');
  assert.is(c.key, 'other-crash SIGSEGV read-past-end libvkd3d-shader.so.1(+0x9330)');
  assert.match(c.text, /read 4 or more bytes past the end/);
  assert.is(crashClass('exit status 3', 'boom 12 at 0x55\n').key, 'other-crash exit status 3 boom N at N');
  // DESC of a 1.2 description carries sampler flags
  assert.match(descText({ version: 3, flags: 0, parameters: [], staticSamplers: [{ filter: 0, addressU: 1, addressV: 1, addressW: 1, mipLODBias: 0, maxAnisotropy: 0, comparisonFunc: 1, borderColor: 0, minLOD: 0, maxLOD: 1, shaderRegister: 0, registerSpace: 0, shaderVisibility: 0, flags: 1 }] }), / 1$/);
});

test('exec:CMD: a crash and a hang of the other side are caught with their input, the child restarted; findings as libFuzzer writes them', async () => {
  const dir = tmp();
  mkdirSync(join(dir, 'corpus', 'rts0'), { recursive: true });
  const crash = new Uint8Array([...rs, ...new TextEncoder().encode('xxCRSHyy')]);
  const hang = new Uint8Array([...new TextEncoder().encode('HANG')]);
  writeFileSync(join(dir, 'corpus', 'rts0', 'a'), rs);
  writeFileSync(join(dir, 'corpus', 'rts0', 'b'), crash);
  writeFileSync(join(dir, 'corpus', 'rts0', 'c'), hang);
  writeFileSync(join(dir, 'corpus', 'rts0', 'd'), rs.subarray(0, 3));
  writeFileSync(join(dir, 'corpus', 'rts0', 'e'), new TextEncoder().encode('HUGE'));
  const [s] = (await runAgainst({ targets: ['rts0'], against: fixture, corpusDir: join(dir, 'corpus'), runs: 0, outDir: join(dir, 'out'), timeoutMs: 3000, coverage: false })) as [AgainstSummary];
  assert.is(s.execs, 5);
  assert.equal(s.classes, { 'refuses-what-we-accept': 1, 'other-crash': 1, 'other-hang': 1, 'agree-refuse': 1, 'other-protocol': 1 });
  assert.is(s.semantics, 'runtime', "the other side's own rules (its hello) by default");
  assert.ok(s.other.starts >= 3, `${s.other.starts} starts: restarted after the crash and after the hang`);
  const byKind = Object.fromEntries(s.findings.map((f) => [f.kind, f]));
  assert.equal(Object.keys(byKind).sort(), ['other-crash', 'other-hang', 'other-protocol', 'refuses-what-we-accept']);
  assert.match(byKind['other-protocol']!.other, /over-limit answer of 4294967280 bytes/);
  // the crash minimized to what makes it crash, saved under its kind and SHA-1 with both answers
  const f = byKind['other-crash']!;
  assert.is(new TextDecoder().decode(readFileSync(f.file!)), 'CRSH');
  assert.match(f.file!, /other-crash-[0-9a-f]{40}$/);
  const txt = readFileSync(`${f.file}.txt`, 'utf8');
  assert.match(txt, /dxbin refuses: DecodeError/);
  assert.match(txt, /fixture 1 crashed: killed by SIGABRT/);
  assert.equal(new Uint8Array(readFileSync(byKind['other-hang']!.file!)), hang);
  assert.match(byKind['refuses-what-we-accept']!.key, /-4$/);
  const files = readdirSync(join(dir, 'out')).sort();
  assert.is(files.length, 8);
});

test('exec:CMD: --shard i/n replays every n-th corpus input, the shards together all of them, in the same classes', async () => {
  const dir = tmp();
  mkdirSync(join(dir, 'rts0'));
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'rts0', `in${i}`), i % 2 ? rs : rs.subarray(0, i));
  const shards = await Promise.all([0, 1].map(async (index) => (await runAgainst({ targets: ['rts0'], against: fixture, corpusDir: dir, runs: 0, shard: { index, count: 2 }, coverage: false }))[0]!));
  assert.equal(shards.map((s) => s.execs), [3, 2]);
  const [all] = await runAgainst({ targets: ['rts0'], against: fixture, corpusDir: dir, runs: 0, coverage: false });
  const sum: Record<string, number> = {};
  for (const s of shards) for (const [k, n] of Object.entries(s.classes)) sum[k] = (sum[k] ?? 0) + n;
  assert.equal(sum, all!.classes);
  assert.equal(shards[1]!.shard, { index: 1, count: 2 });
});

test('the CLI: --against is opt-in (all stays dxbin-only), other targets and a missing corpus are usage errors, findings exit 1', () => {
  let r = run(['fuzz', 'json', '--against', fixture, '--runs', '10']);
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, /--against compares rts0, container-strict, container-lenient; json has no counterpart/);
  r = run(['fuzz', 'rts0', '--against', fixture, '--runs', '0']);
  assert.is(r.status, 2);
  assert.match(r.stderr, /--runs 0 replays --corpus/);
  r = run(['fuzz', 'rts0', '--against', 'nonsense', '--runs', '1']);
  assert.is(r.status, 2);
  assert.match(r.stderr, /--against takes vkd3d or exec:CMD/);
  const dir = tmp();
  r = run(['fuzz', 'rts0', '--against', fixture, '--runs', '20', '--no-coverage', '--out', dir, '--json']);
  assert.is(r.status, 1, r.stderr);
  const j = JSON.parse(r.stdout) as { targets: AgainstSummary[] };
  assert.is(j.targets[0]!.target, 'rts0');
  assert.ok(j.targets[0]!.findings.length >= 1);
  assert.ok(readdirSync(dir).some((n) => n.startsWith('refuses-what-we-accept-')));
});

const vkd3dMissing = buildVkd3dHarness().missing;
const vtest = requires('vkd3d (libvkd3d-dev, pkg-config, a C compiler)', vkd3dMissing);

vtest('vkd3d: the known crashers of corpus/vkd3d-crashes replay (--runs 0) to exactly their crash classes', async () => {
  const rows = manifest().filter((r) => r.file.startsWith('vkd3d-crashes/'));
  assert.ok(rows.length >= 10, `${rows.length} crashers`);
  const summaries = await runAgainst({ targets: ['rts0', 'container-lenient'], against: 'vkd3d', corpusDir: join(CORPUS, 'vkd3d-crashes'), runs: 0, coverage: false, timeoutMs: 20_000 });
  for (const s of summaries) {
    const expected = rows.filter((r) => r.file.startsWith(`vkd3d-crashes/${s.target}/`)).map((r) => r.notes.replace(/^.*; class: /, '')).sort();
    assert.equal(s.classes, { 'other-crash': expected.length }, s.target);
    assert.equal(s.findings.map((f) => f.key).sort(), expected, `${s.target}: one finding per known class, no other`);
    assert.ok(s.findings.every((f) => f.kind === 'other-crash'));
  }
});

vtest('vkd3d: the corpus root signatures give no finding (agreements and known classes only)', async () => {
  const dir = tmp();
  const rootsig = join(CORPUS, 'rootsig');
  for (const [target, ext] of [['container-strict', '.dxbc'], ['rts0', '.rts0']] as const) {
    mkdirSync(join(dir, target));
    for (const name of readdirSync(rootsig).filter((n) => n.endsWith(ext))) copyFileSync(join(rootsig, name), join(dir, target, name));
  }
  const summaries = await runAgainst({ targets: ['container-strict', 'rts0'], against: 'vkd3d', corpusDir: dir, runs: 0, coverage: false, timeoutMs: 60_000 });
  for (const s of summaries) {
    assert.ok(s.execs > 40, `${s.target}: ${s.execs} inputs`);
    assert.equal(s.findings, [], `${s.target}: ${JSON.stringify(s.classes)}`);
    assert.ok((s.classes['agree-accept'] ?? 0) > 40, `${s.target}: ${JSON.stringify(s.classes)}`);
  }
  // the 1.2 blob is the known class, not a finding
  assert.ok((summaries[0]!.classes['known:no-version-1.2'] ?? 0) >= 1, JSON.stringify(summaries[0]!.classes));
});

vtest('vkd3d: --semantics picks the conversion rules: a 1.0 sampler table converts as vkd3d does by default, a known class under the runtime rules', async () => {
  const dir = tmp();
  mkdirSync(join(dir, 'rts0'));
  const sampler = encodeRootSignature({ version: 1, flags: 0, parameters: [{ parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 3, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0 }] }], staticSamplers: [] });
  writeFileSync(join(dir, 'rts0', 'sampler-table'), sampler);
  const own = await runAgainst({ targets: ['rts0'], against: 'vkd3d', corpusDir: dir, runs: 0, coverage: false, timeoutMs: 20_000 });
  assert.is(own[0]!.semantics, 'vkd3d');
  assert.equal(own[0]!.classes, { 'agree-accept': 1 });
  const runtime = await runAgainst({ targets: ['rts0'], against: 'vkd3d', semantics: 'runtime', corpusDir: dir, runs: 0, coverage: false, timeoutMs: 20_000 });
  assert.equal(runtime[0]!.classes, { 'known:conversion-rules': 1 });
  assert.equal(runtime[0]!.findings, []);
});

vtest('vkd3d: a campaign from the built-in seeds finds a vkd3d 1.2 crash within 3,000 inputs (seed 1)', async () => {
  const [s] = (await runAgainst({ targets: ['rts0'], against: 'vkd3d', runs: 3000, seed: 1, coverage: false, stopOn: ['other-crash'], timeoutMs: 20_000 })) as [AgainstSummary];
  const crash = s.findings.find((f) => f.kind === 'other-crash');
  assert.ok(crash, JSON.stringify(s.classes));
  assert.match(crash!.key, /^other-crash SIG\w+ (read-past-end|null-dereference|bad-address|abort) /);
});

test.run();
