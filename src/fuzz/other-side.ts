/**
 * The other implementation of `dxbin fuzz TARGET --against IMPL` (docs/fuzzing.md, "Differential
 * fuzzing"): a long-lived child process speaking the framed protocol (a u32 little-endian length,
 * then that many bytes, both ways). A crash or hang of the child is an answer here, with the
 * child's last words; the next request starts a new child. `vkd3d` is our C harness over
 * libvkd3d-shader (native/vkd3d-against.c), built on first use with the system's `cc` and
 * `pkg-config libvkd3d-shader` into a cache folder keyed by the source and the flags.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectBytes, expectNumber, expectString } from '../bytes/check.js';

/** What one request got: the answer text, or the child's death (signal or exit status, last words), or no answer in time. */
export type SideReply = { kind: 'answer'; text: string; ms: number } | { kind: 'crash'; status: string; stderr: string; ms: number } | { kind: 'hang'; ms: number };

/** The hello answer: the implementation's name, conversion rules, versions and documented choices. */
export interface Hello {
  name: string;
  semantics?: string;
  versions: string[];
  known: string[];
}

const MAX_STDERR = 1 << 16;
/** The longest answer frame read (DESC text of the largest description a 16 MiB input holds fits many times). */
const MAX_ANSWER = 1 << 28;

/** The package's `native/` folder (the C sources it ships), found upwards from this module (src/fuzz/ or dist/). */
export function nativeSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'native', 'vkd3d-against.c'))) return join(dir, 'native');
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'native');
}

/** The cache folder for built harnesses: node_modules/.cache/dxbin-fuzz next to the package, else ~/.cache/dxbin, else the temporary folder. */
function cacheRoot(): string {
  if (process.env.DXBIN_CACHE_DIR) return process.env.DXBIN_CACHE_DIR;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules', '.cache', 'dxbin-fuzz');
    dir = dirname(dir);
  }
  const home = homedir();
  return home ? join(home, '.cache', 'dxbin') : join(tmpdir(), 'dxbin-cache');
}

/** A built harness, or why it cannot be built (no compiler, no libvkd3d-dev). */
export type BuiltHarness = { path: string; missing?: undefined } | { path?: undefined; missing: string };

/**
 * Builds (or reuses) the vkd3d harness. Never throws: a missing tool is a reason.
 * @param cache the cache folder (default: node_modules/.cache/dxbin-fuzz, ~/.cache/dxbin or the temporary folder)
 */
export function buildVkd3dHarness(cache?: string): BuiltHarness {
  if (cache !== undefined) expectString(cache, 'cache');
  const source = join(nativeSourceDir(), 'vkd3d-against.c');
  if (!existsSync(source)) return { missing: `the harness source ${source} is not there` };
  const flags = spawnSync('pkg-config', ['--cflags', '--libs', 'libvkd3d-shader'], { encoding: 'utf8' });
  if (flags.error) return { missing: 'pkg-config not found (apt-get install pkg-config libvkd3d-dev)' };
  if (flags.status !== 0) return { missing: 'pkg-config knows no libvkd3d-shader (apt-get install libvkd3d-dev)' };
  const cc = process.env.CC ?? 'cc';
  const args = ['-O1', '-g', '-std=gnu11', '-Wall', source, ...flags.stdout.trim().split(/\s+/).filter(Boolean)];
  const key = createHash('sha1').update(readFileSync(source)).update(cc).update(args.join(' ')).digest('hex').slice(0, 16);
  const dir = join(cache ?? cacheRoot(), `vkd3d-against-${key}`);
  const path = join(dir, 'vkd3d-against');
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${path}.${process.pid}`;
    const r = spawnSync(cc, ['-o', partial, ...args], { encoding: 'utf8' });
    if (r.error) return { missing: `${cc} not found (apt-get install gcc)` };
    if (r.status !== 0) return { missing: `${cc} could not build ${source}: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}` };
    renameSync(partial, path);
  }
  return { path };
}

/**
 * The command of an IMPL spelling: `vkd3d` (built here) or `exec:CMD` (split on spaces).
 * @throws {DescriptionError} bad-name for any other spelling, unavailable when vkd3d cannot be built
 */
export function implCommand(impl: string): string[] {
  expectString(impl, 'impl');
  if (impl === 'vkd3d') {
    const built = buildVkd3dHarness();
    if (built.missing !== undefined) throw new DescriptionError('bad-name', 'against', `vkd3d harness unavailable: ${built.missing}`);
    return [built.path];
  }
  if (impl.startsWith('exec:') && impl.slice(5).trim() !== '') return impl.slice(5).trim().split(/\s+/);
  throw new DescriptionError('bad-name', 'against', `--against takes vkd3d or exec:CMD, got ${impl}`);
}

/** A long-lived child speaking the framed protocol; restarted after a crash or a hang. */
export class OtherSide {
  private child?: ChildProcessWithoutNullStreams;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private stderr = '';
  private pending?: { resolve: (r: SideReply) => void; timer: NodeJS.Timeout; start: number };
  /** Children started so far (1 + restarts). */
  starts = 0;

  constructor(
    private readonly command: readonly string[],
    private readonly timeoutMs: number,
  ) {
    expectArray(command, 'command');
    command.forEach((c, i) => expectString(c, `command[${i}]`));
    if (command.length === 0) throw new DescriptionError('bad-type', 'command', 'an empty command');
    expectNumber(timeoutMs, 'timeoutMs');
  }

  private start(): ChildProcessWithoutNullStreams {
    const [file, ...args] = this.command;
    const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, VKD3D_SHADER_DEBUG: process.env.VKD3D_SHADER_DEBUG ?? 'none' } });
    this.starts++;
    this.chunks = [];
    this.buffered = 0;
    this.stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (this.child !== child) return;
      this.chunks.push(d);
      this.buffered += d.byteLength;
      this.tryAnswer();
    });
    child.stderr.on('data', (d: Buffer) => {
      if (this.child !== child) return;
      this.stderr = (this.stderr + d.toString('utf8')).slice(-MAX_STDERR);
    });
    child.stdin.on('error', () => {}); // a dead child's pipe: the close event answers
    child.on('error', (e) => this.finish({ kind: 'crash', status: `could not start: ${e.message}`, stderr: this.stderr, ms: 0 }, child));
    child.on('close', (code, signal) => this.finish({ kind: 'crash', status: signal ? `killed by ${signal}` : `exit status ${code}`, stderr: this.stderr, ms: 0 }, child));
    this.child = child;
    return child;
  }

  private finish(reply: SideReply, child: ChildProcessWithoutNullStreams): void {
    if (this.child !== child) return;
    this.child = undefined;
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.resolve({ ...reply, ms: performance.now() - p.start });
  }

  private tryAnswer(): void {
    if (!this.pending || this.buffered < 4) return;
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [all];
    const n = all.readUInt32LE(0);
    if (n > MAX_ANSWER) {
      // an answer out of proportion to any input: a broken protocol, not something to buffer
      const child = this.child!;
      const p = this.pending;
      this.pending = undefined;
      this.child = undefined;
      clearTimeout(p.timer);
      child.kill('SIGKILL');
      p.resolve({ kind: 'answer', text: `over-limit answer of ${n} bytes (at most ${MAX_ANSWER})`, ms: performance.now() - p.start });
      return;
    }
    if (all.byteLength < 4 + n) return;
    const text = all.subarray(4, 4 + n).toString('utf8');
    const rest = all.subarray(4 + n);
    this.chunks = rest.byteLength ? [rest] : [];
    this.buffered = rest.byteLength;
    const p = this.pending;
    this.pending = undefined;
    clearTimeout(p.timer);
    this.stderr = '';
    p.resolve({ kind: 'answer', text, ms: performance.now() - p.start });
  }

  /** Sends one request (a command byte and its data) and waits for the answer, the child's death or the timeout. */
  request(command: string, data: Uint8Array = new Uint8Array(0)): Promise<SideReply> {
    expectString(command, 'command');
    expectBytes(data, 'data');
    if (this.pending) throw new DescriptionError('bad-type', 'request', 'one request at a time');
    const child = this.child ?? this.start();
    return new Promise<SideReply>((resolve) => {
      const start = performance.now();
      const timer = setTimeout(() => {
        if (this.pending?.timer !== timer) return;
        this.pending = undefined;
        this.child = undefined;
        child.kill('SIGKILL');
        resolve({ kind: 'hang', ms: performance.now() - start });
      }, this.timeoutMs);
      this.pending = { resolve, timer, start };
      const frame = Buffer.alloc(5 + data.byteLength);
      frame.writeUInt32LE(1 + data.byteLength, 0);
      frame[4] = command.charCodeAt(0);
      frame.set(data, 5);
      child.stdin.write(frame);
    });
  }

  /** The hello request, read into its fields. */
  async hello(): Promise<Hello> {
    const r = await this.request('h');
    if (r.kind !== 'answer') throw new DescriptionError('bad-name', 'against', `the other implementation did not answer hello (${r.kind === 'crash' ? `${r.status}: ${r.stderr.trim().slice(0, 400)}` : 'no answer in time'})`);
    const hello: Hello = { name: 'unnamed', versions: ['1.0', '1.1', '1.2'], known: [] };
    for (const line of r.text.split('\n')) {
      const [key, ...rest] = line.split(' ');
      if (key === 'name') hello.name = rest.join(' ');
      else if (key === 'semantics') hello.semantics = rest[0];
      else if (key === 'versions') hello.versions = rest;
      else if (key === 'known' && rest[0]) hello.known.push(rest[0]);
    }
    return hello;
  }

  /** Ends the child (closing its input lets it exit on its own; killed after a grace period). */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => child.kill('SIGKILL'), 1000);
      child.once('close', () => (clearTimeout(t), resolve()));
      child.stdin.end();
    });
  }
}
