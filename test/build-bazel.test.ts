/**
 * examples/bazel (docs/build-systems.md) built by Debian's Bazel 4.2.3, offline (empty WORKSPACE,
 * an executable script as the tool): the JSON persistent worker, the worker with multiplexing,
 * `sandboxed` and `local` (the plain command line with its `@params` file, as remote execution
 * runs it) all write the plain CLI's bytes; a broken header fails only its own action. Bazel's
 * output root lives in the test's temp folder; its server is shut down at the end.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, fileHex, type ExampleWorkspace } from './helpers/build-systems.js';
import { missingCommand, requires } from './helpers/requires.js';

const t = requires('Bazel (bazel-bootstrap)', missingCommand('bazel', ['--version']));
let ws: ExampleWorkspace;
let outputRoot = '';
const refs: Record<string, string> = {};

function bazel(args: string[]) {
  const r = spawnSync('bazel', [`--output_user_root=${outputRoot}`, ...args], { cwd: ws.dir, env: ws.env, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Cleans, builds //bazel:all with `flags`, and checks the bytes and which runner Bazel used. */
function buildWith(flags: string[], runner: RegExp): void {
  assert.is(bazel(['clean']).status, 0);
  const r = bazel(['build', '//bazel:all', ...flags]);
  assert.is(r.status, 0, r.out);
  assert.match(r.out, runner, r.out);
  for (const n of ['a', 'b']) assert.is(fileHex(join(ws.dir, `bazel-bin/bazel/${n}.dxbc`)), refs[n], `${flags.join(' ')}: ${n}.dxbc is the plain CLI's`);
}

t('bazel: JSON worker (multiplex and not), sandboxed and local strategies write the plain CLI\'s bytes; a broken header fails only its action', () => {
  for (const n of ['a', 'b']) {
    const out = join(ws.dir, `ref-${n}.dxbc`);
    const r = spawnSync(ws.dxbin, ['rootsig', 'compile', '--file', `shaders/src/${n}.hlsl`, '-E', 'main', '-I', 'shaders/include', '-I', 'shaders/src', '--version', '1.1', '-o', out], { cwd: ws.dir, encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    refs[n] = fileHex(out);
  }
  buildWith(['--strategy=DxbinRootsig=worker'], /processes: .*2 worker/);
  assert.ok(readdirSync(join(outputRoot, readdirSync(outputRoot).find((d) => /^[0-9a-f]{32}$/.test(d))!, 'bazel-workers')).some((f) => f.startsWith('multiplex-worker-')), 'multiplex workers were used');
  buildWith(['--strategy=DxbinRootsig=worker', '--noexperimental_worker_multiplex'], /processes: .*2 worker/);
  buildWith(['--strategy=DxbinRootsig=sandboxed'], /processes: .*2 (linux-sandbox|processwrapper-sandbox)/);
  buildWith(['--strategy=DxbinRootsig=local'], /processes: .*2 local/);

  const header = join(ws.dir, 'shaders/include/other.hlsli');
  const before = readFileSync(header, 'utf8');
  writeFileSync(header, before.replace('UAV(u0)', 'UAV(t0)'));
  const broken = bazel(['build', '//bazel:all', '--keep_going', '--strategy=DxbinRootsig=worker']);
  writeFileSync(header, before);
  assert.is.not(broken.status, 0);
  assert.match(broken.out, /other\.hlsli:1:\d+: error: root signature error/, broken.out);
  assert.match(broken.out, /1 failed|FAILED/);
  assert.is(fileHex(join(ws.dir, 'bazel-bin/bazel/a.dxbc')), refs.a, 'the other action still ran');
});

test.before(async () => {
  ws = await exampleWorkspace('dxbin-bazel-');
  outputRoot = join(ws.dir, '..', 'bazel-root');
  // Bazel's workers start with a bare environment: the tool script names dxbin by its path
  copyFileSync(ws.dxbin, join(ws.dir, 'bazel/dxbin'));
});

test.after(() => {
  if (!ws) return;
  if (outputRoot) spawnSync('bazel', [`--output_user_root=${outputRoot}`, 'shutdown'], { cwd: ws.dir, timeout: 60_000 });
  // Bazel leaves read-only folders in its output root
  spawnSync('chmod', ['-R', 'u+w', join(ws.dir, '..')]);
  rmSync(join(ws.dir, '..'), { recursive: true, force: true });
});

test.run();
