/**
 * HLSL sources as DXC reads them, and where `#include` finds them: bytes to text (UTF-8 with or
 * without a BOM, UTF-16 LE/BE with a BOM), and the include host the preprocessor asks for files.
 * The host is an interface so that the library stays free of `node:fs`: the CLI and the rollup
 * plugin pass Node's `fs` and `path` to `fileSystemHost`, tests and the fuzzer use `virtualHost`.
 */
import { DescriptionError } from '../../bytes/errors.js';
import { expectBytes, expectFunction, expectObject } from '../../bytes/check.js';

/** Text of an HLSL source from its bytes: a UTF-16 BOM (LE or BE) selects UTF-16, anything else is UTF-8 (a UTF-8 BOM dropped). */
export function decodeHlslSource(bytes: Uint8Array): string {
  expectBytes(bytes, 'bytes');
  return decodeChecked(bytes);
}

/** decodeHlslSource for checked bytes. */
export function decodeChecked(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  return new TextDecoder('utf-8').decode(body);
}

/**
 * What the host knows of a path: the file's identity (its real path, links resolved; one path for
 * every name of one file, hard links too, where the host can tell), size, and whether it is a
 * regular file.
 */
export interface HostFile {
  real: string;
  size: number;
  regular: boolean;
}

/** Where the preprocessor finds files: paths, their identities and their bytes. */
export interface IncludeHost {
  /** The folder part of a path. */
  dirname(p: string): string;
  /**
   * A folder and a relative name joined as the system will resolve them: `..` is never folded
   * against the folder's spelling (through a link it means the link target's parent), so the
   * file found is the one cpp and DXC read, and the name is the one a depfile lists.
   */
  join(dir: string, name: string): string;
  /** True when a path does not depend on the current folder. */
  isAbsolute(p: string): boolean;
  /** What is at `p`, or undefined when nothing is. */
  stat(p: string): HostFile | undefined;
  /**
   * The bytes of a regular file, by its real path (asked once per file). `maxBytes` is what the
   * work budget has left: a host need not return more than `maxBytes + 1` bytes (more is refused
   * anyway). A file that cannot be read throws (the preprocessor reports it at the #include).
   */
  read(real: string, maxBytes?: number): Uint8Array;
}

/** The parts of Node's `fs` and `path` that fileSystemHost uses. */
export interface NodeFileSystem {
  fs: {
    /** As `fs.statSync`. */
    statSync(p: string): {
      /** True for a regular file. */
      isFile(): boolean;
      /** Size in bytes. */
      size: number;
      /** Device and inode (Node's Stats have them): hard links of one file share them, so the file is read once under one identity. */
      dev?: number | bigint;
      /** As `dev`. */
      ino?: number | bigint;
    };
    /** As `fs.realpathSync` (its `native` is used where present). */
    realpathSync: ((p: string) => string) & {
      /** As `fs.realpathSync.native`. */
      native?: (p: string) => string;
    };
    /** As `fs.readFileSync`. */
    readFileSync(p: string): Uint8Array;
    /** With these four (Node's `fs` has them), a file is read through one descriptor: checked regular by fstat, at most the bytes asked for. */
    openSync?(p: string, flags: number): number;
    /** As `fs.fstatSync`. */
    fstatSync?(fd: number): {
      /** True for a regular file. */
      isFile(): boolean;
      /** Size in bytes. */
      size: number;
    };
    /** As `fs.readSync`. */
    readSync?(fd: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
    /** As `fs.closeSync`. */
    closeSync?(fd: number): void;
    constants?: { O_RDONLY?: number; O_NONBLOCK?: number };
  };
  /** As Node's `path` (`dirname`, `join`, `isAbsolute`, `sep`). */
  path: {
    /** As `path.dirname`. */
    dirname(p: string): string;
    /** As `path.join`. */
    join(...p: string[]): string;
    /** As `path.isAbsolute`. */
    isAbsolute(p: string): boolean;
    /** As `path.sep`. */
    sep?: string;
  };
}

/**
 * A folder and a name joined as a POSIX system resolves them and as GNU cpp spells them: the name
 * after the folder (trailing slashes of the folder dropped), nothing folded: `link/../inc` stays
 * so, and the system resolves `..` against the real parent of `link`'s target. A folder of `.`
 * from a file named without one (`main.hlsl`) adds nothing, as cpp writes `x.h`, not `./x.h`.
 */
export function posixJoin(dir: string, name: string): string {
  if (name.startsWith('/')) return name;
  if (dir === '' || dir === '.') return name;
  const trimmed = dir.replace(/\/+$/, '');
  return trimmed === '' ? `/${name}` : `${trimmed}/${name}`;
}

/** The folder of a POSIX path as spelled: `link/../inc` for `link/../inc/x.h`, `.` for a bare name, `/` at the root (nothing folded). */
export function posixDirname(p: string): string {
  const end = p.replace(/\/+$/, '');
  const at = end.lastIndexOf('/');
  if (at < 0) return '.';
  const dir = end.slice(0, at).replace(/\/+$/, '');
  return dir === '' ? '/' : dir;
}

/**
 * A host over the real file system (pass Node's `fs` and `path`): identities are real paths, so
 * link loops read each file once; a regular file met under a second real path with the device and
 * inode of one met before (a hard link) is given the first one's, so `#pragma once` and include
 * guards see one file, as clang (by file identity) and GNU cpp (by contents) do.
 */
export function fileSystemHost(node: NodeFileSystem): IncludeHost {
  expectObject(node, 'node');
  const { fs, path } = node;
  expectObject(fs, 'node.fs');
  expectObject(path, 'node.path');
  for (const f of ['statSync', 'realpathSync', 'readFileSync'] as const) expectFunction(fs[f], `node.fs.${f}`);
  for (const f of ['dirname', 'join', 'isAbsolute'] as const) expectFunction(path[f], `node.path.${f}`);
  // the system's realpath: one call, where the JS one lstats every component of the path
  const realpath = typeof fs.realpathSync.native === 'function' ? fs.realpathSync.native : fs.realpathSync;
  // Windows folds `..` lexically itself (its path rules), so path.join is what it resolves; POSIX
  // systems resolve `..` against the real parent: the path is passed on as spelled.
  const windows = path.sep === '\\';
  // device:inode -> the real path a regular file was first met under (a host serves one run)
  const firstReal = new Map<string, string>();
  const identity = (p: string, st: { isFile(): boolean; dev?: number | bigint; ino?: number | bigint }): string => {
    const real = realpath(p);
    if (!st.isFile() || st.dev === undefined || st.ino === undefined || !st.ino) return real;
    const key = `${st.dev}:${st.ino}`;
    const first = firstReal.get(key);
    if (first !== undefined) return first;
    firstReal.set(key, real);
    return real;
  };
  return {
    dirname: (p) => (windows ? path.dirname(p) : posixDirname(p)),
    join: (dir, name) => (windows ? path.join(dir, name) : posixJoin(dir, name)),
    isAbsolute: (p) => path.isAbsolute(p),
    stat(p) {
      try {
        const st = fs.statSync(p);
        return { real: identity(p, st), size: st.size, regular: st.isFile() };
      } catch {
        return undefined;
      }
    },
    read(real, maxBytes = Infinity) {
      const { openSync, fstatSync, readSync, closeSync } = fs;
      if (typeof openSync !== 'function' || typeof fstatSync !== 'function' || typeof readSync !== 'function' || typeof closeSync !== 'function') {
        if (!fs.statSync(real).isFile()) throw new Error('not a regular file');
        return fs.readFileSync(real);
      }
      // O_NONBLOCK: a FIFO put in the file's place after stat must not wait for a writer
      const fd = openSync.call(fs, real, (fs.constants?.O_RDONLY ?? 0) | (fs.constants?.O_NONBLOCK ?? 0));
      try {
        return readBounded(fd, fstatSync.bind(fs), readSync.bind(fs), maxBytes);
      } finally {
        closeSync.call(fs, fd);
      }
    },
  };
}

/**
 * The bytes of an open file: refused unless fstat says it is a regular file; at most `maxBytes + 1`
 * read, whatever its size says (a file in /proc says 0 and may hold more, or fail: the caller reports it).
 */
function readBounded(fd: number, fstat: (fd: number) => { isFile(): boolean; size: number }, read: (fd: number, b: Uint8Array, o: number, l: number, p: null) => number, maxBytes: number): Uint8Array {
  const st = fstat(fd);
  if (!st.isFile()) throw new Error('not a regular file');
  const cap = Math.min(Math.max(0, maxBytes), 0x7fffffff - 1) + 1;
  let buf = new Uint8Array(Math.min(Math.max(st.size, 4096), cap));
  let done = 0;
  for (;;) {
    if (done === buf.length) {
      if (done >= cap) break;
      const bigger = new Uint8Array(Math.min(buf.length * 2, cap));
      bigger.set(buf);
      buf = bigger;
    }
    const n = read(fd, buf, done, buf.length - done, null);
    if (n <= 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}

/** A file of a virtual tree: its text or bytes, or a link to another path (a folder link ends in `/`). */
export type VirtualEntry = string | Uint8Array | { link: string };

/**
 * An in-memory host (POSIX paths) for tests, the fuzzer and the web page: `files` maps paths to
 * contents or links; a link to a folder (`{ link: '.' }` at `a`) makes `a/x` the same file as `x`.
 */
export function virtualHost(files: Record<string, VirtualEntry>): IncludeHost {
  expectObject(files, 'files');
  for (const [k, v] of Object.entries(files)) {
    if (typeof v === 'string' || v instanceof Uint8Array) continue;
    expectObject(v, `files[${JSON.stringify(k)}]`);
    if (typeof v.link !== 'string') throw new DescriptionError('bad-type', `files[${JSON.stringify(k)}].link`, 'expected a string: a file is text, bytes or { link }');
  }
  const entries = new Map(Object.entries(files).map(([k, v]) => [normalize(k), v]));
  const folderLinks = new Map<string, string>();
  const folders = new Set<string>();
  for (const [k, v] of entries) {
    if (typeof v === 'object' && !(v instanceof Uint8Array)) folderLinks.set(k, v.link);
    for (let at = k.indexOf('/', 1); at > 0; at = k.indexOf('/', at + 1)) folders.add(k.slice(0, at));
  }
  /**
   * A path resolved as the system resolves it, one component at a time: a folder link replaced by
   * its target, `..` taken against the real folder reached so far (never folded lexically), at
   * most 40 links followed (ELOOP).
   */
  const realOf = (p: string): string | undefined => {
    let parts = p.split('/');
    let abs = p.startsWith('/');
    const root = () => (abs ? '/' : '.');
    // keys[k]: the resolved path of the first k + 1 components (each built once from the one before)
    let keys: string[] = [];
    const here = () => (keys.length ? keys[keys.length - 1]! : root());
    const under = (dir: string, part: string) => (dir === '.' ? part : dir === '/' ? `/${part}` : `${dir}/${part}`);
    let hops = 0;
    for (let i = 0; i < parts.length; ) {
      const part = parts[i++]!;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        const last = keys.length ? keys[keys.length - 1]! : undefined;
        if (last !== undefined && last !== '..' && !last.endsWith('/..')) keys.pop();
        else if (!abs) keys.push(under(here(), '..'));
        continue;
      }
      const next = under(here(), part);
      const link = folderLinks.get(next);
      if (link === undefined) {
        keys.push(next);
        continue;
      }
      if (++hops > 40) return undefined;
      const target = link.startsWith('/') ? link : `${here()}/${link}`;
      parts = target.split('/').concat(parts.slice(i));
      abs = target.startsWith('/');
      keys = [];
      i = 0;
    }
    return here();
  };
  return {
    dirname: posixDirname,
    join: posixJoin,
    isAbsolute: (p) => p.startsWith('/'),
    stat(p) {
      const real = realOf(p);
      if (real === undefined) return undefined;
      const v = entries.get(real);
      if (v === undefined) return folders.has(real) ? { real, size: 0, regular: false } : undefined;
      if (typeof v === 'object' && !(v instanceof Uint8Array)) return undefined;
      return { real, size: typeof v === 'string' ? v.length : v.byteLength, regular: true };
    },
    read(real) {
      const v = entries.get(real);
      if (typeof v === 'string') return new TextEncoder().encode(v);
      if (v instanceof Uint8Array) return v;
      throw new DescriptionError('bad-name', real, 'no such file in the virtual tree');
    },
  };
}

/** A POSIX path with `.`, `..` and repeated slashes folded (`..` above the start kept). */
function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !abs) out.push(part);
  }
  const joined = out.join('/');
  return abs ? `/${joined}` : joined === '' ? '.' : joined;
}

/** Checks an include host once at the public boundary (DescriptionError bad-type naming the member). */
export function expectHost(host: unknown, path: string): asserts host is IncludeHost | undefined {
  if (host === undefined) return;
  expectObject(host, path);
  for (const f of ['dirname', 'join', 'isAbsolute', 'stat', 'read'] as const) expectFunction(host[f], `${path}.${f}`);
}
