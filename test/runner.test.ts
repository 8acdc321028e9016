/**
 * The test runner (test/run.mjs) tells the truth: fixture test files in a temporary folder break
 * in each way a real one can (a failed import, a hang, a live timer after the tests, a missing
 * test.run(), failures next to skips) and the counts, the reasons and the closing line must say so.
 * The wall-clock limit runs on a fake clock: the hung files are killed when the test advances it;
 * the CPU and idle limits (load-independent, what npm test uses) on fixtures that spin and wait.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import FakeTimers from '@sinonjs/fake-timers';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { report, runFiles, type FileResult, type Run } from './run.mjs';
import { ROOT } from './helpers/corpus.js';

const UVU = pathToFileURL(join(ROOT, 'node_modules/uvu/dist/index.mjs')).href;
const ASSERT = pathToFileURL(join(ROOT, 'node_modules/uvu/assert/index.mjs')).href;
const REQUIRES = pathToFileURL(join(ROOT, 'test/helpers/requires.ts')).href;

const FIXTURES: Record<string, string> = {
  'pass.test.ts': `import { test } from '${UVU}';\nimport * as assert from '${ASSERT}';\ntest('one', () => assert.is(1 + 1, 2));\ntest('two', () => assert.ok(true));\ntest.run();\n`,
  'fail.test.ts': `import { test } from '${UVU}';\nimport * as assert from '${ASSERT}';\ntest('good', () => assert.ok(true));\ntest('bad one', () => assert.is(1, 2, 'one is not two'));\ntest('bad two', () => { throw new Error('boom'); });\ntest.run();\n`,
  'import-error.test.ts': `import { test } from '${UVU}';\nimport { nothing } from './does-not-exist.js';\ntest('never', () => nothing());\ntest.run();\n`,
  'skip.test.ts': `import { test } from '${UVU}';\nimport { requires } from '${REQUIRES}';\nconst t = requires('vkd3d', 'libvkd3d-shader not installed here');\nt('vkd3d agrees', () => {});\ntest('runs', () => {});\ntest.run();\n`,
  'hang.test.ts': `import { test } from '${UVU}';\ntest('waits forever', async () => {\n  console.log('hanging now');\n  await new Promise(() => setInterval(() => {}, 1000));\n});\ntest.run();\n`,
  'linger.test.ts': `import { test } from '${UVU}';\ntest('leaves a timer behind', () => { setInterval(() => {}, 1000); });\ntest.run();\n`,
  'no-run.test.ts': `import { test } from '${UVU}';\ntest('defined but never run', () => {});\n`,
};

const dir = mkdtempSync(join(tmpdir(), 'dxbin-runner-'));
for (const [name, text] of Object.entries(FIXTURES)) writeFileSync(join(dir, name), text);
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n'); // ES modules, as test/ is: one uvu instance
const file = (name: string) => join(dir, name);
const envWithout = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.DXBIN_REQUIRE_ALL;
  return env;
};

/**
 * Runs every fixture at once on a fake clock; advances it past the limit once both hung files are
 * stuck (the lingering one after its whole summary: uvu prints Duration last, and a tick after
 * only `Total:` had arrived killed it before its `Passed:` line, a race seen under load).
 */
async function runAll(env: NodeJS.ProcessEnv): Promise<Run> {
  const clock = FakeTimers.createClock();
  const timeoutMs = 60_000;
  const out = new Map<string, string>();
  let done = 0;
  const names = Object.keys(FIXTURES);
  let ticked = false;
  const maybeTick = () => {
    const stuck = (out.get(file('hang.test.ts')) ?? '').includes('hanging now') && /Duration:/.test(out.get(file('linger.test.ts')) ?? '');
    if (!ticked && stuck && done === names.length - 2) {
      ticked = true;
      clock.tick(timeoutMs);
    }
  };
  const run = runFiles({
    files: names.map(file),
    jobs: names.length,
    timeoutMs,
    clock,
    env,
    onOutput: (f, text) => {
      out.set(f, (out.get(f) ?? '') + text);
      maybeTick();
    },
    onDone: () => {
      done++;
      maybeTick();
    },
  });
  return run;
}

const byName = (run: Run) => new Map<string, FileResult>(run.results.map((r) => [basename(r.file), r]));
const counts = (r: FileResult | undefined) => (r ? `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped` : 'no result');

test('each way a test file can break is counted, and the others still run', async () => {
  const run = await runAll(envWithout());
  const r = byName(run);
  assert.is(counts(r.get('pass.test.ts')), '2 passed, 0 failed, 0 skipped', 'two passing tests');
  assert.is(counts(r.get('fail.test.ts')), '1 passed, 2 failed, 0 skipped', 'a file with two failures next to a pass');
  assert.is(counts(r.get('import-error.test.ts')), '0 passed, 1 failed, 0 skipped', 'a file that fails to import is one failure');
  assert.match(r.get('import-error.test.ts')!.problem ?? '', /did not run its tests/);
  assert.match(r.get('import-error.test.ts')!.output, /does-not-exist/, 'its output names the missing module');
  assert.is(counts(r.get('skip.test.ts')), '1 passed, 0 failed, 1 skipped', 'a skip is a skip, not a failure');
  assert.equal(r.get('skip.test.ts')!.reasons, ['vkd3d agrees: needs vkd3d: libvkd3d-shader not installed here']);
  assert.is(counts(r.get('hang.test.ts')), '0 passed, 1 failed, 0 skipped', 'a hung test fails');
  assert.ok(r.get('hang.test.ts')!.timedOut, 'the hung file was killed by the time limit');
  assert.match(r.get('hang.test.ts')!.problem ?? '', /timed out after 60 s/);
  assert.is(counts(r.get('linger.test.ts')), '1 passed, 1 failed, 0 skipped', 'a live timer after the tests is a failure');
  assert.match(r.get('linger.test.ts')!.problem ?? '', /still running/);
  assert.is(counts(r.get('no-run.test.ts')), '0 passed, 1 failed, 0 skipped', 'a file that never calls test.run() fails');
  assert.is(`${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`, '5 passed, 6 failed, 1 skipped');
  const text = report(run, dir);
  assert.ok(text.endsWith('\n5 passed, 6 failed, 1 skipped'), `closing line:\n${text}`);
  assert.match(text, /skip\.test\.ts: vkd3d agrees: needs vkd3d: libvkd3d-shader not installed here/);
  assert.match(text, /hang\.test\.ts: 1 failed \(timed out after 60 s/);
});

test('DXBIN_REQUIRE_ALL=1 turns the skip into a failure that names what is missing', async () => {
  const run = await runFiles({ files: [file('skip.test.ts')], env: { ...envWithout(), DXBIN_REQUIRE_ALL: '1' } });
  assert.is(`${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`, '1 passed, 1 failed, 0 skipped');
  assert.match(run.results[0]!.output, /vkd3d is required \(DXBIN_REQUIRE_ALL=1\) but missing: libvkd3d-shader not installed here/);
});

test('node test/run.mjs: runs the matching files, prints the reasons and the closing line, exits 1 on a failure', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'test/run.mjs'), '^(pass|fail|skip)\\.'], { encoding: 'utf8', env: { ...envWithout(), DXBIN_TEST_DIR: dir } });
  const lines = r.stdout.trimEnd().split('\n');
  assert.is(lines.at(-1), '4 passed, 2 failed, 1 skipped', r.stdout + r.stderr);
  assert.is(r.status, 1, 'exit status');
  assert.ok(lines.includes('  skip.test.ts: vkd3d agrees: needs vkd3d: libvkd3d-shader not installed here'), r.stdout);
  assert.match(r.stdout, /FAIL fail\.test\.ts: 1 passed, 2 failed\n[^]*one is not two/, 'the failing file and its message');
  const ok = spawnSync(process.execPath, [join(ROOT, 'test/run.mjs'), '^pass\\.'], { encoding: 'utf8', env: { ...envWithout(), DXBIN_TEST_DIR: dir } });
  assert.is(ok.stdout.trimEnd().split('\n').at(-1), '2 passed, 0 failed, 0 skipped');
  assert.is(ok.status, 0);
});

test('load-independent limits: a busy hang is killed by CPU time, a waiting hang by time without CPU', async () => {
  const limits = mkdtempSync(join(tmpdir(), 'dxbin-runner-limits-'));
  writeFileSync(join(limits, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(limits, 'busy.test.ts'), `import { test } from '${UVU}';\ntest('spins', () => { for (;;) {} });\ntest.run();\n`);
  writeFileSync(join(limits, 'idle.test.ts'), `import { test } from '${UVU}';\ntest('waits', async () => { await new Promise(() => setInterval(() => {}, 60_000)); });\ntest.run();\n`);
  // the wall-clock limit far away: only the CPU and idle limits can end these
  const run = await runFiles({ files: [join(limits, 'busy.test.ts'), join(limits, 'idle.test.ts')], jobs: 2, timeoutMs: 3_600_000, cpuLimitMs: 3000, idleMs: 4000, env: envWithout() });
  const r = byName(run);
  assert.ok(r.get('busy.test.ts')!.timedOut);
  assert.match(r.get('busy.test.ts')!.problem ?? '', /a test did not finish: it used more than 3 s of CPU; killed/);
  assert.ok(r.get('idle.test.ts')!.timedOut);
  assert.match(r.get('idle.test.ts')!.problem ?? '', /a test did not finish: it used no CPU for 4 s; killed/);
  assert.is(`${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`, '0 passed, 2 failed, 0 skipped');
});

test.run();
