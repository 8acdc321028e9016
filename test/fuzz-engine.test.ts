/**
 * `dxbin fuzz`: mutators, scheduling (time budget, progress, ETA, watchdog) under fake timers,
 * shards, minimization, the watchdog against a planted endless loop, a planted missing bounds
 * check found and minimized, Jazzer-style entry points, and N shard processes merged.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import FakeTimers from '@sinonjs/fake-timers';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DescriptionError, computeContainerDigest, digestStatus, parseContainer } from '../src/index.js';
import {
  TARGET_NAMES,
  contentHash,
  fuzzTarget,
  libFuzzerDictionary,
  minimize,
  mutate,
  parseDuration,
  parseShard,
  runFuzz,
  runOne,
  schedule,
  seedInputs,
  shardOf,
  type JobHandle,
  type Progress,
} from '../src/fuzz/index.js';
import { jazzerTarget } from '../src/fuzz/jazzer.js';
import { plant as plantBoundsBug } from './fixtures/planted-rts0.js';
import { ROOT } from './helpers/corpus.js';

const fixture = (name: string) => pathToFileURL(join(ROOT, 'test', 'fixtures', name)).href;

test('mutate is deterministic in (bytes, kind, seed) and container mutations fix the digest up', () => {
  const seeds = seedInputs('container-strict');
  let valid = 0;
  for (let i = 0; i < 300; i++) {
    const s = seeds[i % seeds.length]!;
    const a = mutate(s, 'container', i);
    assert.equal(mutate(s, 'container', i), a);
    // corpus entries keep their bytes: never a view pinning a pooled writer slab
    assert.ok(a.byteOffset === 0 && a.buffer.byteLength === a.byteLength || a.buffer === s.buffer, `mutation ${i} owns its buffer (${a.buffer.byteLength} for ${a.byteLength} bytes)`);
    try {
      const c = parseContainer(a, { mode: 'lenient' });
      if (digestStatus(c.digest, computeContainerDigest(a)).status === 'valid') valid++;
    } catch {
      // a byte-level mutation broke the layout: allowed
    }
  }
  assert.ok(valid > 150, `${valid} of 300 container mutations carry a correct digest`);
  for (const kind of ['bytes', 'rts0', 'hlsl', 'json', 'ddi', 'rdat', 'query'] as const) for (let i = 0; i < 50; i++) assert.instance(mutate(new Uint8Array(i), kind, i), Uint8Array);
  assert.match(libFuzzerDictionary(), /^kw0="DXBC"$/m);
});

test('every target answers its seeds with no finding, and states its oracle', () => {
  for (const name of TARGET_NAMES) {
    const seeds = seedInputs(name);
    assert.ok(seeds.length > 0, name);
    for (const s of seeds) assert.is(runOne(fuzzTarget(name), s).finding, undefined, `${name} seed ${contentHash(s)}`);
    assert.ok(fuzzTarget(name).oracle.length > 10);
  }
});

test('options: durations, shards from --shard or JOB_COMPLETION_INDEX + DXBIN_SHARD_COUNT; shards partition the seeds', () => {
  assert.is(parseDuration('60s'), 60_000);
  assert.is(parseDuration('5m'), 300_000);
  assert.is(parseDuration('90'), 90_000);
  assert.is(parseDuration('soon'), undefined);
  assert.equal(parseShard('1/4'), { index: 1, count: 4 });
  assert.equal(parseShard(undefined, { JOB_COMPLETION_INDEX: '2', DXBIN_SHARD_COUNT: '3' }), { index: 2, count: 3 });
  assert.is(parseShard(undefined, {}), undefined);
  assert.throws(() => parseShard('4/4'), (e: unknown) => e instanceof DescriptionError && e.code === 'out-of-range' && e.path === 'shard');
  const items = Array.from({ length: 10 }, (_, i) => i);
  const parts = [0, 1, 2].map((index) => shardOf(items, { index, count: 3 }));
  assert.equal(parts.flat().sort((a, b) => a - b), items);
  assert.equal(shardOf(items, { index: 1, count: 3 }), [1, 4, 7]);
});

test('schedule: time budget, progress every second with ETA, the watchdog, all on fake timers', async () => {
  const clock = FakeTimers.install({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
  try {
    let execsA = 0;
    let execsB = 0;
    let hungB = 0;
    let stopped = 0;
    const a: JobHandle = { execs: () => execsA, hung: () => assert.unreachable('A is moving'), stop: () => stopped++ };
    const jobs: JobHandle[] = [a];
    const b: JobHandle = { execs: () => execsB, hung: () => (hungB++, jobs.splice(jobs.indexOf(b), 1)), stop: () => stopped++ };
    jobs.push(b);
    const reports: Progress[] = [];
    const done = schedule(() => jobs, { timeMs: 10_000, timeoutMs: 2000, progressMs: 1000, tickMs: 100 }, () => ({ target: 't', execs: execsA + execsB, features: 5, corpus: 3, crashes: 0, timeouts: hungB }), (p) => reports.push(p));
    for (let t = 0; t < 100; t++) {
      execsA += 100; // A runs 1,000 inputs a second
      if (t < 30) execsB += 10; // B stops moving at 3 s: hung after 2 s more
      await clock.tickAsync(100);
    }
    const final = await done;
    assert.is(hungB, 1, 'the watchdog fired once for B (then B was replaced by nothing)');
    assert.is(stopped, 1, 'the job still running was stopped');
    assert.is(final.elapsedMs, 10_000);
    assert.is(final.remainingMs, 0);
    assert.is(final.fraction, 1);
    assert.is(reports.length, 10, 'one report a second');
    assert.is(reports[3]!.elapsedMs, 4000);
    assert.is(reports[3]!.remainingMs, 6000);
    assert.is(Math.round(reports[9]!.execsPerSecond), 1030);
  } finally {
    clock.uninstall();
  }
});

test('schedule: a runs budget stops at N inputs, its ETA from the rate', async () => {
  const clock = FakeTimers.install({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  try {
    let execs = 0;
    const reports: Progress[] = [];
    const job: JobHandle = { execs: () => execs, hung: () => undefined, stop: () => undefined };
    const done = schedule(() => [job], { runs: 5000, timeoutMs: 10_000, progressMs: 1000, tickMs: 100 }, () => ({ target: 't', execs, features: 0, corpus: 0, crashes: 0, timeouts: 0 }), (p) => reports.push(p));
    for (let t = 0; t < 200 && execs < 5000; t++) {
      execs += 50; // 500 a second: 10 s for 5,000
      await clock.tickAsync(100);
    }
    await clock.tickAsync(100);
    const final = await done;
    assert.is(final.execs, 5000);
    assert.is(reports[1]!.elapsedMs, 2000);
    assert.is(Math.round(reports[1]!.remainingMs!), 8000, 'ETA from 500/s');
    assert.is(final.elapsedMs, 10_000);
  } finally {
    clock.uninstall();
  }
});

test('minimize keeps what reproduces and drops the rest', () => {
  const data = new Uint8Array(200).map((_, i) => i);
  const small = minimize(data, (d) => d.includes(77) && d.includes(150));
  assert.equal([...small], [77, 150]);
});

test('Jazzer.js-style entry points: fuzz(data) returns on every answer, throws on a finding', () => {
  for (const name of TARGET_NAMES) {
    const fuzz = jazzerTarget(name);
    for (const s of seedInputs(name)) fuzz(Buffer.from(s));
    for (let i = 0; i < 200; i++) fuzz(Buffer.from(mutate(seedInputs(name)[0]!, fuzzTarget(name).kind, i)));
  }
  const planted = jazzerTarget('rts0', plantBoundsBug);
  assert.throws(() => planted(Buffer.from([2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])), /RangeError/);
});

test('the watchdog: a planted endless loop becomes timeout-<sha1>, and fuzzing goes on', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dxbin-fuzz-hang-'));
  // load-independent: no time budget; the run stops at the first timeout (the seeded inputs reach
  // the hanging one at the same execution count on any machine; runs is only a bound), and the
  // watchdog limit is far above any real input's time, so a slow, loaded machine neither misses
  // the hang nor takes a slow input for one
  const summary = await runFuzz({ targets: ['rts0'], runs: 100_000, stopOnTimeout: true, seed: 3, outDir: out, timeoutMs: 5000, progressMs: 1000, plant: fixture('planted-hang.ts'), coverage: false });
  const timeouts = summary.findings.filter((f) => f.kind === 'timeout');
  assert.is(timeouts.length, 1, 'one timeout finding (deduplicated)');
  const file = timeouts[0]!.file!;
  assert.ok(/timeout-[0-9a-f]{40}$/.test(file));
  assert.ok(new Uint8Array(readFileSync(file)).includes(0x7f), `the saved input is the one that hung: ${[...readFileSync(file)].join(',')}`);
  assert.ok(summary.targets[0]!.execs > 0);
});

test('a planted missing bounds check is found, minimized and reported with its reproducer', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dxbin-fuzz-planted-'));
  const summary = await runFuzz({ targets: ['rts0'], runs: 20_000, seed: 1, outDir: out, plant: fixture('planted-rts0.ts'), progressMs: 1000, stopOnCrash: true });
  const crash = summary.findings.find((f) => f.kind === 'crash');
  assert.ok(crash, 'found');
  assert.match(crash!.error, /^RangeError/);
  assert.match(crash!.frame, /readParametersUnchecked .*planted-rts0/);
  assert.ok(crash!.afterExecs <= 2000, `found after ${crash!.afterExecs} executions (docs/fuzzing.md states 2,000)`);
  assert.ok(crash!.size <= 24, `minimized to ${crash!.size} bytes (from ${crash!.originalSize})`);
  assert.match(crash!.reproduce, /^npx dxbin fuzz rts0 --reproduce .*crash-[0-9a-f]{40}$/);
  const saved = new Uint8Array(readFileSync(crash!.file!));
  assert.is(runOne(plantBoundsBug(fuzzTarget('rts0')), saved).finding, 'crash', 'the file reproduces against the planted build');
  assert.is(runOne(fuzzTarget('rts0'), saved).finding, undefined, 'and the real decoder answers it with a DecodeError');
  assert.equal(summary.findings.filter((f) => f.kind === 'crash').length, 1, 'deduplicated by (target, error type, top frame)');
});

test('shards: N local shard processes then a merge keeping only inputs that add coverage', () => {
  const work = mkdtempSync(join(tmpdir(), 'dxbin-fuzz-shards-'));
  const cli = join(ROOT, 'src', 'cli', 'main.ts');
  const run = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  for (let i = 0; i < 2; i++) {
    const r = run(['fuzz', 'rts0', '--runs', '1500', '--seed', '7', '--corpus', join(work, `shard${i}`), '--json'], { JOB_COMPLETION_INDEX: String(i), DXBIN_SHARD_COUNT: '2' });
    assert.is(r.status, 0, r.stderr);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!) as { shard: { index: number; count: number }; targets: { execs: number }[] };
    assert.equal(s.shard, { index: i, count: 2 });
    assert.ok(s.targets[0]!.execs >= 1500);
  }
  const inputs = [0, 1].flatMap((i) => readdirSync(join(work, `shard${i}`, 'rts0')));
  assert.ok(inputs.every((n) => /^[0-9a-f]{40}$/.test(n)), 'corpus files named by SHA-1');
  const m = run(['fuzz', 'rts0', '--merge', join(work, 'shard0', 'rts0'), join(work, 'shard1', 'rts0'), '--corpus', join(work, 'merged'), '--json']);
  assert.is(m.status, 0, m.stderr);
  const merged = JSON.parse(m.stdout.trim()) as { read: number; kept: number };
  assert.is(merged.read, inputs.length);
  assert.ok(merged.kept > 0 && merged.kept < merged.read, `kept ${merged.kept} of ${merged.read}`);
  assert.is(readdirSync(join(work, 'merged')).length, merged.kept);
  assert.ok(existsSync(join(work, 'merged')));
  const unknown = run(['fuzz', 'rts0', 'rts1']);
  assert.is(unknown.status, 2, 'an unknown target is a usage error');
  assert.match(unknown.stderr, /'rts1' is invalid .* Allowed choices are all, container-strict, .*rts0/, unknown.stderr);
});

test('campaign findings replayed: ddi-image round trips where a pointer aims at an embedded struct', () => {
  const dir = join(ROOT, 'test', 'fixtures', 'fuzz');
  const files = readdirSync(dir).filter((n) => n.startsWith('ddi-image-crash-'));
  assert.is(files.length, 2);
  for (const n of files) assert.is(runOne(fuzzTarget('ddi-image'), new Uint8Array(readFileSync(join(dir, n)))).finding, undefined, n);
});

test.run();
