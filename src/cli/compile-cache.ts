/**
 * A cache of compiled code for the built CLI's chunks on Node versions without
 * `module.enableCompileCache` (Node < 22.1; engines allows Node 20), as v8-compile-cache does it:
 * bin.ts loads dist/cli/*.cjs through this loader, which compiles each chunk with `vm.Script`,
 * handing V8 the code cache made by an earlier run (`cachedData`), and at exit writes the cache of
 * each chunk that had none, made after the run (`createCachedData`), so it holds the functions
 * the run compiled, not only the top level.
 *
 * - Where: `os.tmpdir()/dxbin-compile-cache-UID/` (NODE_COMPILE_CACHE moves it, as Node's own
 *   cache); a folder that is not this user's, or that others can write, is not used.
 *   NODE_DISABLE_COMPILE_CACHE=1 turns the loader off (chunks load through Node's require).
 * - Keyed by the chunk's content and the V8 build: one file per chunk name, V8 version and
 *   architecture, holding a copy of the chunk's bytes, compared byte for byte before its code is
 *   used (a hash would cost more to load, node:crypto, than the cache saves); V8 checks its own
 *   version and flags and rejects a cache that does not fit, and then the chunk compiles as it
 *   would without one. V8 does not check the code itself (release builds): a checksum of it in
 *   the header does (codeChecksum), so a damaged entry is compiled without, never run.
 * - Never changes an output and never fails a run: a cache that cannot be read or written is
 *   compiled without; each write goes to a temp file renamed into place, so a parallel build's
 *   processes never read half a cache.
 * - Sibling chunks (`require('./x.cjs')` as rollup writes them) are found by joining paths, with no
 *   look-up of node_modules or real paths; anything else (node: built-ins, cli-progress) goes to
 *   Node's require from the chunk's folder. Each chunk is a Module in `require.cache`, once.
 * - A chunk compiled here gets no `import()` of its own from Node 20 (vm.Script has one only behind
 *   an experimental flag), so the bundle (scripts/cli-bundle.mjs) routes its dynamic imports of
 *   packages and URLs through `__dxbinImport`, the entry's own `import()`, passed in here.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Node's Module class as the CommonJS entry sees it (`module.constructor`), with the internals this loader uses. */
interface ModuleClass {
  new (id: string, parent?: unknown): LoadedModule;
  _nodeModulePaths(dir: string): string[];
  _cache: Record<string, unknown>;
}
interface LoadedModule {
  exports: unknown;
  filename: string | null;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
}

/** The CommonJS handles of the bundle's entry (dist/cli.cjs). */
export interface EntryScope {
  /** The entry's folder (dist/). */
  dirname: string;
  /** The entry's module (its constructor is Node's Module class). */
  module: { constructor: unknown };
  /** `(specifier) => import(specifier)`, compiled in the entry, where Node gives `import()` a loader. */
  dynamicImport: (specifier: string) => Promise<unknown>;
}

const MAGIC = Buffer.from('dxbin compiled-code cache 2\n', 'latin1');
/** The magic, the source's length and the checksum of the code (u32 LE each). */
const HEADER = MAGIC.length + 8;

/**
 * A 32-bit checksum of a cache's code (FNV-1a over 32-bit words, then the tail bytes). V8 checks a
 * code cache's version, flags and source length, but in release builds not its payload: a cache
 * damaged on disk (a flipped byte, two writers, a cut copy) was taken and crashed the process or
 * ran other code. A damaged entry fails this sum and the chunk compiles without it.
 */
export function codeChecksum(data: Uint8Array): number {
  let h = 0x811c9dc5;
  const words = data.byteLength >>> 2;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < words; i++) h = Math.imul(h ^ view.getUint32(i * 4, true), 0x01000193);
  for (let i = words * 4; i < data.byteLength; i++) h = Math.imul(h ^ data[i]!, 0x01000193);
  return h >>> 0;
}
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __dxbinImport) { ';
const WRAPPER_TAIL = '\n})';

/** The cache folder for this user, made if missing; undefined when caching is off or the folder is not safe to use. */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = join(env.NODE_COMPILE_CACHE || tmpdir(), `dxbin-compile-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    let st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = lstatSync(dir);
    }
    // someone else's folder, or one others may write to, could hand us code to run
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (process.platform !== 'win32' && (st.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** The cache file of one chunk: its name, the V8 version and the architecture. */
const cacheFileOf = (dir: string, filename: string) => join(dir, `${basename(filename)}.${process.versions.v8}.${process.arch}.cache`);

/** The most bytes of compiled code a cache file may hold beside its copy of the source (V8's are a few times the source at most). */
const MAX_CODE_BYTES = 64 << 20;

/**
 * The code cache stored for `source`, or undefined (no file, another source, a damaged file).
 * Only a regular file of a size a cache of this source can have is read: an entry that is a FIFO
 * or a link to one (it would wait for a writer without end), a device (`/dev/zero`: read until
 * memory ran out) or a huge file is passed over, opened without waiting and never read.
 */
function readCache(file: string, source: Buffer): Buffer | undefined {
  let stored: Buffer;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size <= HEADER + source.length || st.size > HEADER + source.length + MAX_CODE_BYTES) return undefined;
    stored = Buffer.allocUnsafe(st.size);
    let done = 0;
    while (done < stored.length) {
      const n = readSync(fd, stored, done, stored.length - done, null);
      if (n === 0) break;
      done += n;
    }
    stored = stored.subarray(0, done);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  if (stored.length < HEADER || !stored.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const n = stored.readUInt32LE(MAGIC.length);
  if (n !== source.length || stored.length <= HEADER + n || !stored.subarray(HEADER, HEADER + n).equals(source)) return undefined;
  const code = stored.subarray(HEADER + n);
  return codeChecksum(code) === stored.readUInt32LE(MAGIC.length + 4) ? code : undefined;
}

/** Writes a cache file whole (a temp file, made anew, renamed over it); any failure leaves no file and is ignored. */
function writeCache(file: string, source: Buffer, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header);
    header.writeUInt32LE(source.length, MAGIC.length);
    header.writeUInt32LE(codeChecksum(data), MAGIC.length + 4);
    // exclusively: a file or a link already at the temp name is not written through (it is removed below)
    writeFileSync(tmp, Buffer.concat([header, source, data]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* nothing to remove */
    }
  }
}

/** What a loader did, for tests: each chunk compiled, and whether V8 took a cache for it. */
export interface ChunkLoad {
  file: string;
  cached: boolean;
}

export interface ChunkLoader {
  /** Loads the chunk at `request` (relative, as rollup writes it) from the folder `from`. */
  require(request: string, from: string): unknown;
  /** Writes the caches the run made (at process exit). */
  flush(): void;
  readonly loads: readonly ChunkLoad[];
}

/** A loader of chunk files with its cache in `cacheDir` (undefined: compile with no cache). */
export function chunkLoader(scope: Pick<EntryScope, 'module' | 'dynamicImport'>, cacheDir: string | undefined): ChunkLoader {
  const Module = scope.module.constructor as ModuleClass;
  const modules = new Map<string, LoadedModule>();
  const pending: { script: Script; file: string; source: Buffer }[] = [];
  const loads: ChunkLoad[] = [];

  function load(filename: string): unknown {
    const known = modules.get(filename);
    if (known) return known.exports;
    const dir = dirname(filename);
    const module = new Module(filename);
    module.filename = filename;
    module.paths = Module._nodeModulePaths(dir);
    // registered before it runs, as Node does: chunks that import each other get the one module
    modules.set(filename, module);
    Module._cache[filename] = module;
    try {
      const source = readFileSync(filename);
      const file = cacheDir === undefined ? undefined : cacheFileOf(cacheDir, filename);
      const cachedData = file === undefined ? undefined : readCache(file, source);
      const script = new Script(WRAPPER_HEAD + source.toString('utf8') + WRAPPER_TAIL, { filename, ...(cachedData ? { cachedData } : {}) });
      const cached = cachedData !== undefined && !script.cachedDataRejected;
      loads.push({ file: filename, cached });
      if (file !== undefined && !cached) pending.push({ script, file, source });
      const chunkRequire = (id: string) => (id.startsWith('./') || id.startsWith('../') ? load(join(dir, id)) : module.require(id));
      const fn = script.runInThisContext() as (...a: unknown[]) => void;
      fn.call(module.exports, module.exports, chunkRequire, module, filename, dir, scope.dynamicImport);
      module.loaded = true;
      return module.exports;
    } catch (e) {
      modules.delete(filename);
      delete Module._cache[filename];
      throw e;
    }
  }

  return {
    require: (request, from) => load(join(from, request)),
    flush() {
      for (const { script, file, source } of pending.splice(0)) {
        let data: Buffer;
        try {
          data = script.createCachedData();
        } catch {
          continue;
        }
        writeCache(file, source, data);
      }
    },
    loads,
  };
}

/**
 * Turns the loader on for the entry (bin.ts): from here the entry's import of the CLI's main
 * chunk goes through it (scripts/cli-bundle.mjs renders that import as a call of the function
 * registered under CHUNK_REQUIRE). Returns false, changing nothing, when the cache is off or
 * Node's Module class is not what the loader expects.
 */
export function installChunkCache(scope: EntryScope, env: NodeJS.ProcessEnv = process.env): boolean {
  const Module = scope.module.constructor as ((...a: unknown[]) => unknown) & { _nodeModulePaths?: unknown; _cache?: unknown };
  if (typeof Module !== 'function' || typeof Module._nodeModulePaths !== 'function' || typeof Module._cache !== 'object' || Module._cache === null) return false;
  const dir = cacheDirectory(env);
  if (dir === undefined) return false;
  const loader = chunkLoader(scope, dir);
  (globalThis as Record<symbol, unknown>)[CHUNK_REQUIRE] = (request: string) => loader.require(request, scope.dirname);
  process.once('exit', () => loader.flush());
  return true;
}

/** The global key of the entry's chunk loader (read by the code scripts/cli-bundle.mjs writes into dist/cli.cjs). */
export const CHUNK_REQUIRE = Symbol.for('dxbin.cli.require');
