/**
 * Input and output for the CLI, safe for build steps:
 * - `-` is standard input as an input and standard output as an output;
 * - inputs are read once, without a copy (a view of the bytes read), and never written;
 * - outputs that are not regular files (character devices such as /dev/null, FIFOs, /dev/stdout,
 *   Windows' NUL) are written in place, never replaced;
 * - regular files are written to `.NAME.dxbin-PID-RANDOM.tmp` in the same folder and renamed over
 *   the destination (retried on EPERM/EBUSY, as virus scanners on Windows hold files), so a
 *   reader sees the old or the new content, never a part; the temp file is removed on error and
 *   on SIGINT/SIGTERM (a whole output, written synchronously, lives as a temp file only within
 *   one synchronous stretch, where no signal handler could run: it needs none, and a signal that
 *   lands inside it leaves a temp file as SIGKILL does), and a later run removes temp files whose
 *   writer process is gone (never
 *   those of a live neighbour, e.g. under `make -j`): each output folder is swept once per process
 *   (a run, a batch, a worker's life), so N outputs into a folder of M files cost O(N + M), not
 *   O(N x M);
 * - durability is a choice: the rename alone is atomic (a reader or a crash of dxbin never sees a
 *   part) but the data may still be in the page cache; `--fsync` (Streams.fsync) flushes each
 *   output to disk before its rename, for those who need it on disk before exit (a power loss).
 * - per file, the shape of a plain read/write/rename script (issue 27): regular files are read and
 *   whole outputs written with synchronous calls (faster than the thread pool's round trips for
 *   build-step sizes), no signal handler is installed per output, and each folder's real path is
 *   found once per process (a link as the output itself is still followed).
 */
import { closeSync, promises as fsp, constants as fsConstants, fstatSync, fsyncSync, lstatSync, openSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
// fs.promises, not node:fs/promises: that module (and what it loads) comes only when a call needs it
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep, win32 } from 'node:path';
import { isMainThread } from './thread.js';
import { InputError, UsageError } from './errors.js';
import { errnoWords } from '../build-step/errors.js';
import { readOpenFile } from '../build-step/read-fd.js';
import { printable } from '../index.js';

/** Where a command's text goes and where `-` comes from: the process's streams, or captured (batch, workers). */
import type { ProgressStream } from './progress.js';

export interface Streams {
  /** Writes to standard output; the promise resolves when the consumer has taken it (backpressure). */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Writes a line to standard error. */
  err(line: string): void;
  /** Everything on standard input (for `-`). */
  /** All of standard input; more than `maxBytes` (when given) rejects with a RangeError the reader turns into an InputError. */
  readStdin(maxBytes?: number): Promise<Uint8Array>;
  /** Standard input as chunks (for streaming `-`). */
  stdinChunks(): AsyncIterable<Uint8Array>;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Where the progress bar of multi-file runs draws (standard error); absent or not a terminal: no bar. */
  readonly progress?: ProgressStream;
  /** Flush each file output to disk before renaming it into place (--fsync). */
  readonly fsync?: boolean;
  /** The files other jobs of one run wrote or read as their jobs (`dxbin batch`): an output is refused when it is one of them. */
  readonly outputs?: OutputLedger;
}

/**
 * The file outputs of one `dxbin batch` run, by real path (links and `./` spellings of one file
 * compare equal): the jobs file itself is never written, and a file one job wrote is not written
 * by another. Two jobs writing one file leave only the last one's bytes without a word, and the
 * answer of the first names a file that no longer holds what it wrote; a job writing the jobs
 * file replaces the list being run. Each is refused (UsageError, exit 2 for that job; nothing
 * written), at the one place every file output passes (writeOutput and openOutput).
 */
export class OutputLedger {
  private readonly owners = new Map<string, string>();
  /** The job being run, as answers name it (`line 3`). */
  job = '';
  constructor(jobsFile?: string) {
    if (jobsFile !== undefined && jobsFile !== '-' && !isDevicePath(jobsFile, true)) this.owners.set(ledgerKey(canonicalPath(jobsFile)), 'the jobs file');
  }
  /** Records `target` (the real path of `out`) as written by the current job. @throws {UsageError} when another job wrote it, or it is the jobs file */
  claim(out: string, target: string): void {
    const key = ledgerKey(target);
    const owner = this.owners.get(key);
    if (owner !== undefined && owner !== this.job) throw new UsageError(`${printable(out)} is ${owner === 'the jobs file' ? 'the jobs file of this batch' : `also written by the job of ${owner}`}: each file is written by one job of a batch; nothing written`);
    this.owners.set(key, this.job);
  }
}
/** Claims each file output of `outs` in the batch's ledger (none outside a batch); standard output, devices and the null device are no files. @throws {UsageError} as OutputLedger.claim */
export function claimOutputs(outs: readonly (string | undefined)[], streams: Streams): void {
  if (!streams.outputs) return;
  for (const out of outs) {
    if (out === undefined || out === '-' || STDOUT_NAMES.has(out) || isNullDevice(out)) continue;
    const l = lstatOrUndefined(out);
    const s = l?.isSymbolicLink() ? statOrUndefined(out) : l;
    if ((s && !s.isFile()) || isDevicePath(out, s !== undefined)) continue;
    streams.outputs.claim(out, canonicalPath(out, l));
  }
}
const ledgerKey = (target: string) => (process.platform === 'win32' || process.platform === 'darwin' ? target.toLowerCase() : target);

function inputErrorCode(e: unknown): 'not-found' | 'is-directory' | 'not-readable' {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : code === 'EISDIR' ? 'is-directory' : 'not-readable';
}

/** A Buffer as a plain Uint8Array over the same memory (no copy). */
export function view(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Default of --max-input: the most bytes an input read whole may have (docs/limits.md). */
export const MAX_INPUT_BYTES = 256 * 2 ** 20;

/** The --max-input value in bytes (MAX_INPUT_BYTES when absent). */
export function inputLimit(text: unknown): number {
  if (text === undefined) return MAX_INPUT_BYTES;
  if (typeof text !== 'string' || !/^[1-9]\d{0,12}$/.test(text) || Number(text) > 2 ** 31 - 1) throw new UsageError(`--max-input takes a whole number of bytes from 1 to 2147483647, got ${String(text)}`);
  return Number(text);
}

const tooLarge = (file: string, maxBytes: number) => new InputError(file, 'not-readable', `more than ${maxBytes} bytes (--max-input ${maxBytes}); only the query commands stream inputs of any size`);

/**
 * Reads a whole input once (`-`: standard input), at most `maxBytes`: a regular file by its size,
 * a FIFO or pipe while it is read. Missing, unreadable, a folder, a device or socket (`/dev/zero`
 * is no input), or too large: InputError (exit 1).
 */
export async function readInput(file: string, streams: Streams, maxBytes = MAX_INPUT_BYTES): Promise<Uint8Array> {
  if (file === '-') {
    try {
      return await streams.readStdin(maxBytes);
    } catch (e) {
      if (e instanceof RangeError) throw tooLarge('standard input', maxBytes);
      throw e;
    }
  }
  const whole = readRegularSync(file, maxBytes);
  if (whole !== undefined) return whole;
  let handle: FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch (e) {
    throw new InputError(file, inputErrorCode(e), `cannot read: ${errnoWords(e)}`);
  }
  try {
    const s = await handle.stat();
    if (s.isDirectory()) throw new InputError(file, 'is-directory', 'cannot read: is a folder, not a file');
    if (s.isFile()) {
      if (s.size > maxBytes) throw tooLarge(file, maxBytes);
      return view(await handle.readFile());
    }
    if (!s.isFIFO()) throw new InputError(file, 'not-readable', 'not a regular file (a device or socket); give a file, a pipe or - for standard input');
    return await readBounded(file, handle, maxBytes);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(file, inputErrorCode(e), `cannot read: ${errnoWords(e)}`);
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * A file that another input names (a pipeline description's `VS`, `pRootSignature`...), read
 * whole: a regular file only. The input chose the name, so a FIFO (which would wait for a writer
 * without end), a device (`/dev/zero`) or a socket is refused, never opened to wait; errors as
 * readInput's.
 */
export function readNamedInput(file: string, maxBytes = MAX_INPUT_BYTES): Uint8Array {
  const whole = readRegularSync(file, maxBytes);
  if (whole === undefined) throw new InputError(file, 'not-readable', 'not a regular file (a FIFO, device or socket), named by another input; refused');
  return whole;
}

/**
 * A regular file read whole with synchronous calls (open, fstat, read, close: the floor's four),
 * or undefined when `file` is no regular file (a FIFO, read by readInput as it arrives; opened
 * without waiting for a writer). Errors as readInput's.
 */
function readRegularSync(file: string, maxBytes: number): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new InputError(file, inputErrorCode(e), `cannot read: ${errnoWords(e)}`);
  }
  try {
    const s = fstatSync(fd);
    if (s.isDirectory()) throw new InputError(file, 'is-directory', 'cannot read: is a folder, not a file');
    if (!s.isFile()) return undefined;
    if (s.size > maxBytes) throw tooLarge(file, maxBytes);
    const bytes = readOpenFile(fd, s.size, maxBytes);
    // a file whose size reads 0 (procfs) is read to its end, no further than the limit
    if (bytes.byteLength > maxBytes) throw tooLarge(file, maxBytes);
    return view(bytes);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(file, inputErrorCode(e), `cannot read: ${errnoWords(e)}`);
  } finally {
    closeSync(fd);
  }
}

/** A pipe read to its end, refused past `maxBytes`. */
async function readBounded(file: string, handle: FileHandle, maxBytes: number): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const n = (await handle.read(chunk, 0, chunk.byteLength, null)).bytesRead;
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw tooLarge(file, maxBytes);
    parts.push(chunk.subarray(0, n));
  }
  return view(Buffer.concat(parts, total));
}

/** Opens an input for streaming; `size` is undefined for standard input. */
export async function openInput(file: string): Promise<{ handle: FileHandle; size: number }> {
  try {
    const handle = await fsp.open(file, 'r');
    const s = await handle.stat();
    if (s.isDirectory()) {
      await handle.close();
      throw Object.assign(new Error('dir'), { code: 'EISDIR' });
    }
    return { handle, size: s.size };
  } catch (e) {
    throw new InputError(file, inputErrorCode(e), `cannot read: ${errnoWords(e)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Outputs

/** True for Windows' null device names (`NUL`, `nul.txt`, `\\.\NUL`) on Windows. */
export function isNullDevice(path: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'win32') return false;
  return /^nul(\.[^\\/]*)?$/i.test(win32.basename(path)) || /^\\\\\.\\nul$/i.test(path);
}

/**
 * Lexically a device or descriptor path: /dev/stdout, /dev/fd/3, /proc/self/fd/1 (written in
 * place even when the descriptor is a regular file), or a path under /dev or /proc that does not
 * exist yet. A regular file under /dev (a tmpfs such as /dev/shm) is an ordinary output.
 */
function isDevicePath(path: string, exists = statOrUndefined(path) !== undefined): boolean {
  const full = resolve(path);
  return /^\/dev\/(std(in|out|err)|fd\/)|^\/proc\/[^/]+\/fd\//.test(full) || (!exists && /^\/(dev|proc)\//.test(full));
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Real paths of folders, found once per process (realpath walks every component of a path). */
const realFolders = new Map<string, string>();
/** Forgets the folders' real paths (a persistent-worker request in a sandbox folder Bazel made anew may link them elsewhere). */
export function forgetRealFolders(): void {
  realFolders.clear();
}

/**
 * The real path of folder `dir` as the system resolves it (`link/..` is the parent of the link's
 * target, which a lexical resolve would miss), cached by its spelling made absolute without
 * folding `..`; undefined when it cannot be resolved (not cached: it may appear).
 */
function realFolder(dir: string): string | undefined {
  const key = isAbsolute(dir) ? dir : `${process.cwd()}${sep}${dir}`;
  let real = realFolders.get(key);
  if (real === undefined) {
    try {
      real = realpathSync.native(key);
    } catch {
      return undefined;
    }
    realFolders.set(key, real);
  }
  return real;
}

/**
 * `path` with links resolved as the system resolves it: a link's target, else its folder's real
 * path (cached) and its name, so a file not there yet is placed too; resolve() only when the
 * folder is missing as well.
 */
function canonicalPath(path: string, linkStat: Stats | undefined = lstatOrUndefined(path)): string {
  if (linkStat?.isSymbolicLink()) {
    try {
      return realpathSync.native(path);
    } catch {
      // a dangling link: where it stands
    }
  }
  const folder = realFolder(dirname(path));
  return folder === undefined ? resolve(path) : join(folder, basename(path));
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Temp files this thread has open, removed on SIGINT/SIGTERM and on exit. */
const liveTemps = new Set<string>();
/** Folders this process writes into (temp files of workers are found there by pid). */
const outputDirs = new Set<string>();

/** The longest file name (one path component) most file systems take, in bytes (NAME_MAX). */
export const NAME_MAX = 255;

/** The first `max` bytes of `name` in UTF-8, cut before a character that would not fit whole. */
function utf8Prefix(name: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of name) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > max) break;
    bytes += n;
    end += ch.length;
  }
  return name.slice(0, end);
}

/**
 * The temp file name pattern: `.NAME.dxbin-PID-RANDOM.tmp`, with NAME cut (at a character) so the
 * whole name stays within NAME_MAX bytes: any output name the system takes gets a temp file it takes.
 */
export function tempName(target: string, pid = process.pid): string {
  // not node:crypto (a module to load per process): the name needs no secrecy, the file is opened
  // exclusively ('wx') and a taken name is drawn again (writeOutput)
  const random = Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  const suffix = `.dxbin-${pid}-${random}.tmp`;
  return join(dirname(target), `.${utf8Prefix(basename(target), NAME_MAX - 1 - suffix.length)}${suffix}`);
}
const TEMP_PATTERN = /^\.(.*)\.dxbin-(\d+)-[0-9a-f]{8}\.tmp$/;

/** The writer pid of a temp file name, or undefined when it is not one of ours. */
export function tempOwner(name: string): number | undefined {
  const m = TEMP_PATTERN.exec(name);
  return m ? Number(m[2]) : undefined;
}

/** True while process `pid` exists (EPERM: it exists, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temp files in `dir` left by processes that are gone; never a live process's. Returns the names removed. */
export function removeStaleTemps(dir: string, alive: (pid: number) => boolean = processAlive): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = tempOwner(name);
    if (pid === undefined || pid === process.pid || alive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return removed;
}

/** Removes every temp file of this process (this thread's, and workers' found by pid in the output folders). Synchronous: runs in signal handlers. */
export function removeOwnTemps(): void {
  for (const t of liveTemps) {
    try {
      unlinkSync(t);
    } catch {
      /* already renamed or removed */
    }
  }
  liveTemps.clear();
  for (const dir of outputDirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (tempOwner(name) !== process.pid) continue;
      try {
        unlinkSync(join(dir, name));
      } catch {
        /* raced with a rename */
      }
    }
  }
}

let cleanupInstalled = false;
/** Removes this process's temp files when it exits normally. */
export function installSignalCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once('exit', removeOwnTemps);
}

const CLEANUP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let holders = 0;
const signalHandlers = new Map<NodeJS.Signals, () => void>();

/**
 * While a temp file may exist (an atomic output being written, worker threads writing): on
 * SIGINT/SIGTERM/SIGHUP remove this process's temp files, then die of the signal as usual. Outside
 * such a window no handler is installed, so the signal's default action ends the process at once,
 * even in the middle of a long synchronous computation (a JavaScript handler runs only when the
 * event loop is free). Returns the release; the handlers go when the last holder releases.
 */
export function holdSignalCleanup(): () => void {
  if (!isMainThread()) return () => {};
  if (holders++ === 0) {
    for (const signal of CLEANUP_SIGNALS) {
      const handler = () => {
        removeOwnTemps();
        for (const [s, h] of signalHandlers) process.removeListener(s, h);
        signalHandlers.clear();
        process.kill(process.pid, signal);
      };
      signalHandlers.set(signal, handler);
      process.on(signal, handler);
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders > 0) return;
    for (const [s, h] of signalHandlers) process.removeListener(s, h);
    signalHandlers.clear();
  };
}

/** Notes a folder outputs go to, so temp files of worker threads are found on a signal. */
export function noteOutputDir(dir: string): void {
  outputDirs.add(dir);
}

/** Streams whose file outputs are fsynced before their rename (--fsync). */
export function withFsync(streams: Streams, fsync: unknown): Streams {
  return fsync === true && !streams.fsync ? { ...streams, fsync: true } : streams;
}

/**
 * Folders swept for stale temp files by this process (each once): a run, a whole `dxbin batch` or
 * a persistent worker's life, so 10,000 jobs or requests into one folder list it once, not 10,000
 * times. Temp files of writers that die later are removed by the next process writing there.
 */
const swept = new Set<string>();
/** Forgets which folders were swept (for tests). */
export function resetSweeps(): void {
  swept.clear();
}
/** Removes stale temp files in `dir` the first time this run writes there. */
function sweepOnce(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  noteOutputDir(dir);
  removeStaleTemps(dir);
}

const RETRIED_RENAME_ERRORS = new Set(['EPERM', 'EBUSY', 'EACCES']);

/** rename, retried with a growing pause on EPERM/EBUSY/EACCES (a scanner or indexer holding the file on Windows). */
export async function renameWithRetry(
  from: string,
  to: string,
  rename: (from: string, to: string) => Promise<void> = (from, to) => fsp.rename(from, to),
  pause: (ms: number) => Promise<unknown> = (ms) => new Promise((r) => setTimeout(r, ms)),
  attempts = 8,
): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await rename(from, to);
      return;
    } catch (e) {
      if (i >= attempts || !RETRIED_RENAME_ERRORS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      await pause(10 * 2 ** i);
    }
  }
}

/** Names of standard output as a file. */
const STDOUT_NAMES = new Set(['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);

/** An output being written: chunks, then commit (the destination appears whole) or abort (nothing changes). */
export interface Output {
  write(chunk: string | Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  /** How the output is written: to standard output, in place (special file), atomically, or discarded. */
  readonly kind: 'stdout' | 'in-place' | 'atomic' | 'discard';
}

/** One file a command names: its path and the option (or role) that named it, for messages. */
export interface NamedFile {
  path: string;
  /** `-o`, `--depfile`, `input`, `--rs`, `#include`: how the user named it. */
  as: string;
}

/**
 * What a path is, as the system sees it: `stdout` for `-` and /dev/stdout, `dev:ino` for an
 * existing regular file (links, hard links and other spellings of one file compare equal), the
 * real folder plus the name for a file not there yet, undefined for a device, FIFO or null device
 * (writing one twice is writing a stream twice, not replacing a file).
 */
function fileIdentity(path: string, output: boolean): string | undefined {
  if (path === '-') return output ? 'stdout' : undefined;
  if (STDOUT_NAMES.has(path)) return 'stdout';
  if (isNullDevice(path)) return undefined;
  const s = statOrUndefined(path);
  if (s) return s.isFile() ? `file:${s.dev}:${s.ino}` : undefined;
  if (isDevicePath(path, false)) return undefined;
  const where = `new:${canonicalPath(path)}`;
  return process.platform === 'win32' || process.platform === 'darwin' ? where.toLowerCase() : where;
}

/**
 * Refuses, before anything is written, outputs that are one file (two options naming one file
 * through different spellings, links or hard links) and an output that is an input: UsageError
 * naming both (exit 2). Compared by identity (fileIdentity), never by spelling.
 * @throws {UsageError}
 */
export function checkOutputs(outputs: readonly NamedFile[], inputs: readonly NamedFile[]): void {
  if (outputs.length === 0) return; // nothing written: no input to stat
  const seen = new Map<string, NamedFile>();
  for (const input of inputs) {
    const id = fileIdentity(input.path, false);
    if (id !== undefined && !seen.has(id)) seen.set(id, input);
  }
  const written = new Map<string, NamedFile>();
  for (const out of outputs) {
    const id = fileIdentity(out.path, true);
    if (id === undefined) continue;
    const input = seen.get(id);
    if (input) throw new UsageError(`${out.as} ${out.path} is the ${input.as} ${input.path}: refusing to overwrite the input; nothing written`);
    const other = written.get(id);
    if (other) throw new UsageError(`${other.as} ${other.path} and ${out.as} ${out.path} are the same file: each output needs its own; nothing written`);
    written.set(id, out);
  }
}

/** Checks that `out` is none of `inputs` (compared after resolving links). */
export function refuseInputs(out: string, inputs: readonly string[]): void {
  if (out === '-' || isDevicePath(out)) return;
  const target = canonicalPath(out);
  for (const input of inputs) {
    if (input !== '-' && canonicalPath(input) === target) throw new UsageError(`refusing to overwrite the input ${input}; choose another -o`);
  }
}

/** Opens `out` for writing as described in this module's comment. */
export async function openOutput(out: string, inputs: readonly string[], streams: Streams): Promise<Output> {
  refuseInputs(out, inputs);
  if (out === '-' || STDOUT_NAMES.has(out)) {
    // /dev/stdout may be a socket (no open by name): write to the stream itself
    return { kind: 'stdout', write: (c) => streams.write(c), commit: async () => {}, abort: async () => {} };
  }
  if (isNullDevice(out)) return { kind: 'discard', write: async () => {}, commit: async () => {}, abort: async () => {} };
  const s = statOrUndefined(out);
  if (s?.isDirectory()) throw new InputError(out, 'not-writable', 'cannot write: is a folder, not a file');
  if ((s && !s.isFile()) || isDevicePath(out, s !== undefined)) {
    // a device, FIFO or socket: write into it, never replace it
    let handle: FileHandle;
    try {
      handle = await fsp.open(out, fsConstants.O_WRONLY | fsConstants.O_APPEND | (s ? 0 : fsConstants.O_CREAT));
    } catch (e) {
      throw new InputError(out, 'not-writable', `cannot write: ${errnoWords(e)}`);
    }
    return {
      kind: 'in-place',
      write: async (c) => {
        await writeAll(handle, c, out);
      },
      commit: () => handle.close(),
      abort: () => handle.close(),
    };
  }
  const target = canonicalPath(out);
  streams.outputs?.claim(out, target);
  sweepOnce(dirname(target));
  const tmp = tempName(target);
  let handle: FileHandle;
  try {
    handle = await fsp.open(tmp, 'wx', s ? s.mode & 0o777 : 0o644);
  } catch (e) {
    throw new InputError(out, 'not-writable', `cannot write: ${errnoWords(e)}`);
  }
  liveTemps.add(tmp);
  const release = holdSignalCleanup();
  let closed = false;
  const discard = async () => {
    if (!closed) {
      closed = true;
      await handle.close().catch(() => {});
    }
    try {
      unlinkSync(tmp);
    } catch {
      /* not created or already gone */
    }
    liveTemps.delete(tmp);
    release();
  };
  return {
    kind: 'atomic',
    write: async (c) => {
      try {
        await writeAll(handle, c, out);
      } catch (e) {
        await discard();
        throw e;
      }
    },
    commit: async () => {
      try {
        if (streams.fsync) await handle.sync();
        closed = true;
        await handle.close();
        await renameWithRetry(tmp, target);
        liveTemps.delete(tmp);
        release();
      } catch (e) {
        await discard();
        throw new InputError(out, 'not-writable', `cannot write: ${errnoWords(e)}`);
      }
    },
    abort: discard,
  };
}

async function writeAll(handle: FileHandle, chunk: string | Uint8Array, out: string): Promise<void> {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
  let done = 0;
  try {
    while (done < bytes.byteLength) done += (await handle.write(bytes, done, bytes.byteLength - done)).bytesWritten;
  } catch (e) {
    throw new InputError(out, 'not-writable', `cannot write: ${errnoWords(e)}`);
  }
}

/** Writes all of `data` to `out` (see openOutput); on failure nothing changes at the destination. */
export async function writeOutput(out: string, data: Uint8Array | string, inputs: readonly string[], streams: Streams): Promise<Output['kind']> {
  if (await writeWholeSync(out, data, inputs, streams)) return 'atomic';
  const o = await openOutput(out, inputs, streams);
  try {
    await o.write(data);
  } catch (e) {
    await o.abort();
    throw e;
  }
  await o.commit();
  return o.kind;
}

/**
 * A whole output to a regular file (or a new one) written as a plain script does: the temp file
 * opened, written, closed (fsynced with --fsync) and renamed with synchronous calls, so it lives
 * only within one synchronous stretch and needs no signal handler (this module's comment). False,
 * with nothing done, for every other output (standard output, devices, FIFOs, the null device),
 * which openOutput writes; a rename refused by a scanner (Windows) is retried as openOutput does.
 */
async function writeWholeSync(out: string, data: Uint8Array | string, inputs: readonly string[], streams: Streams): Promise<boolean> {
  if (out === '-' || STDOUT_NAMES.has(out) || isNullDevice(out)) return false;
  const l = lstatOrUndefined(out);
  const s = l?.isSymbolicLink() ? statOrUndefined(out) : l;
  if ((s && !s.isFile()) || isDevicePath(out, s !== undefined)) return false;
  // an output that does not exist yet is none of the inputs (they were read): no look-ups then
  if (l !== undefined) refuseInputs(out, inputs);
  const target = canonicalPath(out, l);
  streams.outputs?.claim(out, target);
  sweepOnce(dirname(target));
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let tmp = tempName(target);
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt++) {
    try {
      fd = openSync(tmp, 'wx', s ? s.mode & 0o777 : 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8) tmp = tempName(target);
      else throw new InputError(out, 'not-writable', `cannot write: ${errnoWords(e)}`);
    }
  }
  liveTemps.add(tmp);
  let renamed = false;
  try {
    try {
      for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
      if (streams.fsync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, target);
    } catch (e) {
      if (!RETRIED_RENAME_ERRORS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      const release = holdSignalCleanup();
      try {
        await renameWithRetry(tmp, target);
      } finally {
        release();
      }
    }
    renamed = true;
  } catch (e) {
    throw new InputError(out, 'not-writable', `cannot write: ${errnoWords(e)}`);
  } finally {
    if (!renamed) {
      try {
        unlinkSync(tmp);
      } catch {
        /* not created or already gone */
      }
    }
    liveTemps.delete(tmp);
  }
  return true;
}

/** True when `path` exists and is a regular file (for checks before a run). */
export async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await fsp.stat(path)).isFile();
  } catch {
    return false;
  }
}
