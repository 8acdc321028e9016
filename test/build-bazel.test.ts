/**
 * examples/ (docs/build-systems.md) built by Debian's Bazel 4.2.x AS SHIPPED, offline: the example
 * workspace is copied, this checkout is packed (`npm pack`, test/helpers/pack.ts) and installed
 * into it with `npm install dxbin-VERSION.tgz` as a user would (its dependencies from the npm
 * cache), and nothing of the example is replaced. The JSON persistent worker (multiplex and not),
 * `sandboxed` and `local` (the plain command line with its `@params` file, as remote execution runs
 * it) all write the plain CLI's bytes; a broken header fails only its own action. Then two
 * checkouts at different paths against an nginx WebDAV remote cache on 127.0.0.1 (Debian
 * nginx-light, started and stopped here with its own config in a temp folder): the second build is
 * all remote cache hits, and after the installed dxbin changes its actions run again (misses).
 * Bazel's output root lives in the test's temp folder; its servers are shut down at the end.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileHex } from './helpers/build-systems.js';
import { ROOT } from './helpers/corpus.js';
import { npm, packCheckout } from './helpers/pack.js';
import { missingCommand, requires } from './helpers/requires.js';

const t = requires('Bazel (bazel-bootstrap)', missingCommand('bazel', ['--version']));
const root = mkdtempSync(join(tmpdir(), 'dxbin-bazel-'));
const outputRoot = join(root, 'bazel-root');
// the same PATH in both checkouts (it is part of the action's key): this node's folder first
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}/usr/bin${delimiter}/bin` };
const workspaces: string[] = [];
let tarball = '';
const refs: Record<string, string> = {};

/** A copy of examples/ at `name` with the packed dxbin installed into its node_modules. */
function checkout(name: string): string {
  const dir = join(root, name, 'examples');
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
  npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], dir, `npm install ${tarball}`);
  workspaces.push(dir);
  return dir;
}

function bazel(ws: string, args: string[]) {
  const r = spawnSync('bazel', [`--output_user_root=${outputRoot}`, ...args], { cwd: ws, env, encoding: 'utf8', timeout: 600_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Cleans, builds //bazel:all with `flags`, and checks the bytes and which runner Bazel used. */
function buildWith(ws: string, flags: string[], runner: RegExp): string {
  assert.is(bazel(ws, ['clean']).status, 0);
  const r = bazel(ws, ['build', '//bazel:all', ...flags]);
  assert.is(r.status, 0, r.out);
  assert.match(r.out, runner, r.out);
  for (const n of ['a', 'b']) assert.is(fileHex(join(ws, `bazel-bin/bazel/${n}.dxbc`)), refs[n], `${flags.join(' ')}: ${n}.dxbc is the plain CLI's`);
  return r.out;
}

t('bazel, as shipped: JSON worker (multiplex and not), sandboxed and local strategies write the plain CLI\'s bytes; a broken header fails only its action', () => {
  const ws = checkout('one');
  const cli = join(ws, 'node_modules/dxbin/bin/dxbin.cjs');
  for (const n of ['a', 'b']) {
    const out = join(root, `ref-${n}.dxbc`);
    const r = spawnSync(process.execPath, [cli, 'rootsig', 'compile', '--file', `shaders/src/${n}.hlsl`, '-E', 'main', '-I', 'shaders/include', '-I', 'shaders/src', '--version', '1.1', '-o', out], { cwd: ws, encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    refs[n] = fileHex(out);
  }
  buildWith(ws, ['--strategy=DxbinRootsig=worker'], /processes: .*2 worker/);
  const base = readdirSync(outputRoot).find((d) => /^[0-9a-f]{32}$/.test(d))!;
  assert.ok(readdirSync(join(outputRoot, base, 'bazel-workers')).some((f) => f.startsWith('multiplex-worker-')), 'multiplex workers were used');
  buildWith(ws, ['--strategy=DxbinRootsig=worker', '--noexperimental_worker_multiplex'], /processes: .*2 worker/);
  buildWith(ws, ['--strategy=DxbinRootsig=sandboxed'], /processes: .*2 (linux-sandbox|processwrapper-sandbox)/);
  buildWith(ws, ['--strategy=DxbinRootsig=local'], /processes: .*2 local/);

  const header = join(ws, 'shaders/include/other.hlsli');
  const before = readFileSync(header, 'utf8');
  writeFileSync(header, before.replace('UAV(u0)', 'UAV(t0)'));
  const broken = bazel(ws, ['build', '//bazel:all', '--keep_going', '--strategy=DxbinRootsig=worker']);
  writeFileSync(header, before);
  assert.is.not(broken.status, 0);
  assert.match(broken.out, /other\.hlsli:1:\d+: error: root signature error/, broken.out);
  assert.match(broken.out, /1 failed|FAILED/);
  assert.is(fileHex(join(ws, 'bazel-bin/bazel/a.dxbc')), refs.a, 'the other action still ran');
});

// Bazel's third format, flag_per_line, is read by dxbin (test/param-files.test.ts) but no Bazel
// 4.2.3 action can use it: this Bazel accepts set_param_file_format("flag_per_line") and then
// writes an empty param file and passes the items on the command line joined into one argument
// (`rootsig=compile --file a.hlsl -E main ...`, tried 2026-12-02 with a run_shell rule printing
// its arguments and its @file), which no tool reads as its arguments; docs/build-systems.md.
t('bazel, shell-format param file (Bazel\'s default) read with no flag, locally and sandboxed', () => {
  const ws = workspaces[0]!;
  const build = join(ws, 'bazel/BUILD');
  const before = readFileSync(build, 'utf8');
  writeFileSync(build, before.replace(/dxbin_rootsig\(\n {4}name = "(a|b)",/g, 'dxbin_rootsig(\n    name = "$1",\n    param_file_format = "shell",'));
  try {
    buildWith(ws, ['--strategy=DxbinRootsig=local'], /processes: .*2 local/);
    buildWith(ws, ['--strategy=DxbinRootsig=sandboxed'], /processes: .*2 (linux-sandbox|processwrapper-sandbox)/);
  } finally {
    writeFileSync(build, before);
  }
});

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** nginx serving a WebDAV folder (GET/PUT) on 127.0.0.1:port, all of it under `dir`. */
async function startNginx(dir: string, port: number): Promise<ChildProcess> {
  const store = join(dir, 'store');
  for (const d of ['store', 'body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d), { recursive: true });
  // nginx's workers run as an unprivileged user when the master is root: they must reach and write there
  chmodSync(root, 0o755);
  for (const d of ['', 'store', 'body']) chmodSync(join(dir, d), 0o777);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${store};
    client_max_body_size 0;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:rw all:rw;
    }
  }
}
`,
  );
  const nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const r = spawnSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`]);
    if (r.status === 0) return nginx;
    await sleep(100);
  }
  nginx.kill();
  throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
}

const nginxUp = requires('nginx (nginx-light)', missingCommand('nginx', ['-v']));

nginxUp('remote cache (nginx WebDAV): a second checkout at another path is all hits; a changed dxbin is a miss', async () => {
  const first = workspaces[0]!;
  const second = checkout('two');
  const cacheDir = join(root, 'nginx');
  const port = await freePort();
  const nginx = await startNginx(cacheDir, port);
  try {
    const remote = [`--remote_cache=http://127.0.0.1:${port}`, '--strategy=DxbinRootsig=sandboxed'];
    // Bazel's summary line: "INFO: 3 processes: 1 internal, 2 linux-sandbox." (a hit replays the action's own output, so only this line tells)
    const processes = (out: string) => /INFO: \d+ process(es)?: [^\n]*/.exec(out)?.[0] ?? `no summary in: ${out}`;
    const filled = processes(buildWith(first, remote, /processes: .*2 (linux-sandbox|processwrapper-sandbox)/));
    assert.not.match(filled, /remote cache hit/, 'the first build fills the cache');
    assert.ok(readdirSync(join(cacheDir, 'store')).includes('ac'), 'action results were stored');
    const hits = processes(buildWith(second, remote, /processes: .*2 remote cache hit/));
    assert.not.match(hits, /sandbox|local|worker/, `nothing ran in the second checkout: ${hits}`);
    // another dxbin: the tool's files are inputs, so its actions are new keys
    appendFileSync(join(second, 'node_modules/dxbin/dist/cli.cjs'), '\n// a changed dxbin\n');
    const missed = processes(buildWith(second, remote, /processes: .*2 (linux-sandbox|processwrapper-sandbox)/));
    assert.not.match(missed, /remote cache hit/, `a changed tool misses: ${missed}`);
  } finally {
    nginx.kill('SIGTERM');
    await new Promise((r) => nginx.once('exit', r));
  }
});

test.before(() => {
  if (spawnSync('bazel', ['--version']).error) return;
  tarball = packCheckout(join(root, 'pack'));
});

test.after(() => {
  for (const ws of workspaces) spawnSync('bazel', [`--output_user_root=${outputRoot}`, 'shutdown'], { cwd: ws, env, timeout: 60_000 });
  // Bazel leaves read-only folders in its output root
  spawnSync('chmod', ['-R', 'u+w', root]);
  rmSync(root, { recursive: true, force: true });
});

test.run();
