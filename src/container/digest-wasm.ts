/**
 * The WebAssembly digest, written out when it loads: `digestModule` emits the module's bytes from
 * MD5's step table (digest-md5.ts), the 64 steps unrolled, so the bundle carries a small writer
 * and no inlined binary. Compiled and instantiated once, at the first digest, never through eval
 * (`WebAssembly.Module` of the bytes). When WebAssembly is missing or refused (a strict
 * Content-Security-Policy without 'wasm-unsafe-eval'), or `DXBIN_WASM=js`, the JS digest runs
 * instead. The message is copied through one 64 KiB buffer in the module's memory (one chunk per
 * call for messages up to 64 KiB, so nothing is allocated; one view per further chunk).
 * Two builds from the one step writer: without SIMD (`blocks`, `digest`), for single messages, and
 * with SIMD where `WebAssembly.validate` accepts it, whose `blocks4` hashes four messages at once,
 * one per 32-bit lane, for batches. Both must equal the JS digest bit for bit (test/digest.test.ts).
 */
import { setU32 } from '../bytes/le.js';
import { MD5_IV, MD5_K, md5Shift, md5Word } from './digest-md5.js';

interface DigestExports {
  memory: WebAssembly.Memory;
  /** `count` 64-byte blocks at ptr into the state (a, b, c, d) at `state`. */
  blocks(ptr: number, count: number, state: number): void;
  /** The whole digest of `length` bytes at ptr (128 bytes of room after them) into `state`. */
  digest(ptr: number, length: number, state: number): void;
  /** The SIMD build: `count` blocks at p0..p3 each into the four states at `states` (lane L's at states + 16 * L). */
  blocks4(p0: number, p1: number, p2: number, p3: number, count: number, states: number): void;
}

// ---- the module, written out from the step table (digest-md5.ts) -----------------------------
// One writer makes both builds' steps: `ops` maps each operation of a step to the scalar (i32) or
// the SIMD (i32x4, one message per lane) instructions. Opcodes: the WebAssembly core
// specification's binary format (0xfd-prefixed: its fixed-width SIMD instructions).

/** Unsigned and signed LEB128, as the binary format encodes indices and i32.const. */
const uleb = (n: number, o: number[]) => {
  do o.push((n & 127) | (n > 127 ? 128 : 0)), (n >>>= 7);
  while (n);
};
const sleb = (n: number, o: number[]) => {
  for (;;) {
    const b = n & 127;
    n >>= 7;
    if ((n === 0 && !(b & 64)) || (n === -1 && b & 64)) return void o.push(b);
    o.push(b | 128);
  }
};
const GET = 0x20, SET = 0x21, TEE = 0x22, I32 = 0x41, V = 0xfd;

/** A step's operations, each writing its instructions (scalar or SIMD). */
interface StepOps {
  add(): void;
  xor(): void;
  and(): void;
  or(): void;
  not(): void;
  /** push K[i] */
  k(k: number): void;
  /** push message word w */
  x(w: number): void;
  /** rotate the value on the stack left by s */
  rotl(s: number): void;
}

/** The 64 steps on the locals v = [a, b, c, d]. */
function steps(o: number[], v: readonly number[], ops: StepOps): void {
  const get = (l: number) => o.push(GET, l);
  for (let i = 0; i < 64; i++) {
    const a = v[-i & 3]!, b = v[(1 - i) & 3]!, c = v[(2 - i) & 3]!, d = v[(3 - i) & 3]!;
    const r = i >> 4;
    get(a);
    ops.k(MD5_K[i]!);
    ops.add();
    ops.x(md5Word(i));
    ops.add();
    // F, arranged so that b (the word the last step made) enters late: d ^ (b & (c ^ d));
    // (c & ~d) + (b & d) (the two terms share no bit); (c ^ d) ^ b; c ^ (b | ~d)
    if (r === 0) get(d), get(b), get(c), get(d), ops.xor(), ops.and(), ops.xor();
    else if (r === 1) get(c), get(d), ops.not(), ops.and(), ops.add(), get(b), get(d), ops.and();
    else if (r === 2) get(c), get(d), ops.xor(), get(b), ops.xor();
    else get(c), get(b), get(d), ops.not(), ops.or(), ops.xor();
    ops.add();
    ops.rotl(md5Shift(i));
    get(b);
    ops.add();
    o.push(SET, a);
  }
}

/** Adds the saved state s[j] to v[j] (the end of a block). */
function addSaved(o: number[], v: readonly number[], s: readonly number[], add: () => void): void {
  for (let j = 0; j < 4; j++) o.push(GET, v[j]!, GET, s[j]!), add(), o.push(SET, v[j]!);
}

/** `loop { body; count -= 1 } while (count)` inside `if (count)`; count is local `n`. */
function countedLoop(o: number[], n: number, body: () => void): void {
  o.push(0x02, 0x40, GET, n, 0x45, 0x0d, 0, 0x03, 0x40); // block; br_if count == 0; loop
  body();
  o.push(GET, n, I32, 1, 0x6b, TEE, n, 0x0d, 0, 0x0b, 0x0b); // count - 1; br_if != 0; end; end
}

/** blocks(ptr, count, state): locals ptr 0, count 1, state 2, a..d 3..6, saved 7..10, words 11..26. */
function scalarBody(): number[] {
  const o: number[] = [];
  const v = [3, 4, 5, 6], s = [7, 8, 9, 10];
  for (let j = 0; j < 4; j++) o.push(GET, 2, 0x28, 2, 4 * j, SET, v[j]!); // i32.load state
  countedLoop(o, 1, () => {
    for (let j = 0; j < 4; j++) o.push(GET, v[j]!, SET, s[j]!);
    let seen = 0;
    const add = () => o.push(0x6a);
    steps(o, v, {
      add, xor: () => o.push(0x73), and: () => o.push(0x71), or: () => o.push(0x72), not: () => o.push(I32, 0x7f, 0x73),
      k: (k) => (o.push(I32), sleb(k, o)),
      // round 0 reads each word once, in order: loaded into locals 11..26 there, reused after
      x: (w) => (seen & (1 << w) ? o.push(GET, 11 + w) : ((seen |= 1 << w), o.push(GET, 0, 0x28, 2, 4 * w, TEE, 11 + w))),
      rotl: (s) => o.push(I32, s, 0x77),
    });
    addSaved(o, v, s, add);
    o.push(GET, 0, I32, 0xc0, 0, 0x6a, SET, 0); // ptr += 64
  });
  for (let j = 0; j < 4; j++) o.push(GET, 2, GET, v[j]!, 0x36, 2, 4 * j); // i32.store state
  return [1, 24, 0x7f].concat(o, 0x0b); // 24 i32 locals
}

/**
 * digest(ptr, length, state): the whole digest of `length` bytes at ptr, with room for 128 bytes
 * after them: MD5's initial state at `state`, DXC's final block(s) laid out in place after the
 * whole blocks (the bit length first, the rest, 0x80, and 2 * length + 1 last), blocks() over all.
 * Locals ptr 0, length 1, state 2, end 3, rest 4, one block (1) or two (0) 5, 0x80's place 6, tail's 7.
 */
function digestBody(): number[] {
  const o: number[] = [];
  for (let j = 0; j < 4; j++) o.push(GET, 2), o.push(I32), sleb(MD5_IV[j]!, o), o.push(0x36, 2, 4 * j);
  o.push(GET, 1, I32, 63, 0x71, SET, 4); // rest = length & 63
  o.push(GET, 0, GET, 1, 0x6a, GET, 4, 0x6b, SET, 3); // end = ptr + length - rest
  o.push(GET, 4, I32, 56, 0x49, SET, 5); // one = rest < 56
  o.push(GET, 3, GET, 5, I32, 2, 0x74, 0x6a, SET, 6); // q = end + 4 * one (the rest moves up 4 bytes for the bit length)
  o.push(I32, 0xfc, 0, GET, 5, I32, 6, 0x74, 0x6b, GET, 3, 0x6a, SET, 7); // tail at end + 124 - 64 * one
  o.push(GET, 6, GET, 3, GET, 4, 0xfc, 10, 0, 0); // memory.copy(q, end, rest)
  o.push(GET, 6, GET, 4, 0x6a, TEE, 6, I32, 0, GET, 7, GET, 6, 0x6b, 0xfc, 11, 0); // memory.fill(q += rest, 0, tail - q)
  o.push(GET, 6, I32, 0x80, 1, 0x3a, 0, 0); // 0x80
  o.push(GET, 7, I32, 60, 0x6b, GET, 1, I32, 3, 0x74, 0x36, 2, 0); // bit length at tail - 60
  o.push(GET, 7, GET, 1, I32, 1, 0x74, I32, 1, 0x6a, 0x36, 2, 0); // 2 * length + 1 at tail
  o.push(GET, 0, GET, 1, I32, 6, 0x76, I32, 2, 0x6a, GET, 5, 0x6b, GET, 2, 0x10, 0); // blocks(ptr, whole + 2 - one, state)
  return [1, 5, 0x7f].concat(o, 0x0b); // 5 i32 locals
}

/** i8x16.shuffle picking i32 lanes (0..3 the first operand's, 4..7 the second's). */
const shuffle = (o: number[], lanes: number[]) => {
  o.push(V, 13);
  for (const l of lanes) o.push(4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3);
};
/** The 4x4 transpose of i32 lanes: rows pushed by row(k), columns into locals out[0..4) (temps t[0..4)). */
function transpose(o: number[], row: (k: number) => void, out: readonly number[], t: readonly number[]): void {
  const lo = [0, 4, 1, 5], hi = [2, 6, 3, 7], first = [0, 1, 4, 5], second = [2, 3, 6, 7];
  for (let k = 0; k < 4; k++) row(k), o.push(SET, t[k]!); // rows into t
  const pairs: [number, number, number[]][] = [[0, 1, lo], [2, 3, lo], [0, 1, hi], [2, 3, hi]];
  const mixed = [out[0]!, out[1]!, out[2]!, out[3]!]; // use the outputs as the second temps
  for (let k = 0; k < 4; k++) o.push(GET, t[pairs[k]![0]]!, GET, t[pairs[k]![1]]!), shuffle(o, pairs[k]![2]), o.push(SET, mixed[k]!);
  for (let k = 0; k < 4; k++) o.push(GET, mixed[k >> 1 << 1]!, GET, mixed[(k >> 1 << 1) + 1]!), shuffle(o, k & 1 ? second : first), o.push(SET, t[k]!);
  for (let k = 0; k < 4; k++) o.push(GET, t[k]!, SET, out[k]!);
}

/**
 * blocks4(p0, p1, p2, p3, count, states): locals p 0..3, count 4, states 5 (i32); a..d 6..9,
 * saved 10..13, x 14..29, temps 30..33, rotation temp 34 (v128).
 */
function simdBody(): number[] {
  const o: number[] = [];
  const v = [6, 7, 8, 9], s = [10, 11, 12, 13], t = [30, 31, 32, 33], T = 34;
  // the states are stored per message; the loop keeps them per word (a, b, c, d across the lanes)
  transpose(o, (k) => o.push(GET, 5, V, 0, 4, 16 * k), v, t); // v128.load
  countedLoop(o, 4, () => {
    for (let q = 0; q < 4; q++) transpose(o, (k) => (o.push(GET, k, V, 0, 0), uleb(16 * q, o)), [14 + 4 * q, 15 + 4 * q, 16 + 4 * q, 17 + 4 * q], t);
    for (let j = 0; j < 4; j++) o.push(GET, v[j]!, SET, s[j]!);
    const add = () => o.push(V, 0xae, 1); // i32x4.add
    steps(o, v, {
      add, xor: () => o.push(V, 0x51), and: () => o.push(V, 0x4e), or: () => o.push(V, 0x50), not: () => o.push(V, 0x4d),
      k: (k) => (o.push(I32), sleb(k, o), o.push(V, 0x11)), // i32x4.splat
      x: (w) => o.push(GET, 14 + w),
      rotl: (s) => o.push(TEE, T, I32, s, V, 0xab, 1, GET, T, I32, 32 - s, V, 0xad, 1, V, 0x50), // shl | shr_u
    });
    addSaved(o, v, s, add);
    for (let k = 0; k < 4; k++) o.push(GET, k, I32, 0xc0, 0, 0x6a, SET, k); // p += 64
  });
  transpose(o, (k) => o.push(GET, v[k]!), v, t);
  for (let k = 0; k < 4; k++) o.push(GET, 5, GET, v[k]!, V, 11, 4, 16 * k); // v128.store
  return [1, 29, 0x7b].concat(o, 0x0b); // 29 v128 locals
}

/** A section: id, byte size, contents. */
const section = (id: number, body: number[]) => {
  const o = [id];
  uleb(body.length, o);
  return o.concat(body);
};
const name = (s: string) => [s.length].concat(Array.from(s, (c) => c.charCodeAt(0)));

/** A module of `blocks` and `digest`, and `blocks4` when its body is given; memory 2 pages, exported. */
function moduleOf(blocks4?: number[]): Uint8Array<ArrayBuffer> {
  const funcs = blocks4 ? [scalarBody(), digestBody(), blocks4] : [scalarBody(), digestBody()];
  let code = [funcs.length];
  for (const f of funcs) uleb(f.length, code), (code = code.concat(f));
  let exports = [funcs.length + 1].concat(name('memory'), 2, 0, name('blocks'), 0, 0, name('digest'), 0, 1);
  if (blocks4) exports = exports.concat(name('blocks4'), 0, 2);
  const bytes = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0].concat(
    section(1, [2, 0x60, 3, 0x7f, 0x7f, 0x7f, 0, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]), // types
    section(3, blocks4 ? [3, 0, 0, 1] : [2, 0, 0]), // functions
    section(5, [1, 0, 2]), // memory, 2 pages
    section(7, exports),
    section(10, code),
  );
  return Uint8Array.from(bytes);
}

/**
 * The digest module's bytes: the build without SIMD, or with it (`blocks4`). Both are written
 * when they load; an app that never digests a batch does not carry the SIMD writer.
 */
export function digestModule(simd: boolean): Uint8Array<ArrayBuffer> {
  return moduleOf(simd ? simdBody() : undefined);
}

const CHUNK = 65536;
const BUF = 1024; // chunk buffer: [BUF, BUF + CHUNK), and DXC's final block(s) laid out after its whole blocks
const STATE = BUF + CHUNK + 128; // 16 bytes of state
const STATES = STATE + 64; // four states for blocks4
const BATCH = STATES + 64; // four padded messages for blocks4
/** A group of four messages goes through blocks4 when each has at most this many bytes. */
const BATCH_LANE_MAX = 1 << 20;

type Loaded = { x: DigestExports; mem: Uint8Array; simd: boolean };
/** The module single digests run on (the build without SIMD: MD5 of one message has no lanes). */
let loaded: Loaded | null | undefined;
/** The module batches run on: the SIMD build where accepted (blocks4 one message per lane), else `loaded`. */
let loadedBatch: Loaded | null | undefined;

function wasmRefused(): boolean {
  const forced = typeof process !== 'undefined' ? process.env?.DXBIN_WASM : undefined;
  return forced === 'js' || typeof WebAssembly !== 'object';
}

function instantiate(write: () => Uint8Array<ArrayBuffer>, simd: boolean): Loaded | null {
  try {
    const bytes = write();
    if (simd && !WebAssembly.validate(bytes)) return null;
    const x = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as DigestExports;
    return { x, mem: new Uint8Array(x.memory.buffer), simd };
  } catch {
    return null; // CSP or an engine without WebAssembly: the JS digest serves
  }
}

function load(): Loaded | null {
  if (loaded !== undefined) return loaded;
  loaded = wasmRefused() ? null : instantiate(() => moduleOf(), false);
  return loaded;
}

/** The SIMD build for batches, unless refused or `DXBIN_WASM=scalar` (then the build without SIMD). */
function loadBatch(): Loaded | null {
  if (loadedBatch !== undefined) return loadedBatch;
  const scalar = typeof process !== 'undefined' && process.env?.DXBIN_WASM === 'scalar';
  loadedBatch = scalar || wasmRefused() ? null : instantiate(() => moduleOf(simdBody()), true);
  if (loadedBatch === null) loadedBatch = load();
  return loadedBatch;
}

/** Whether the WebAssembly digest is in use in this process (loads it on first ask). */
export function wasmDigestAvailable(): boolean {
  return load() !== null;
}

/** Whether batches hash four messages at once (the SIMD build loaded). */
export function wasmDigestSimd(): boolean {
  return loadBatch()?.simd ?? false;
}

/**
 * DXC's final block(s) in place after the whole blocks of a `length`-byte message whose last
 * `length & 63` bytes are at mem[end..]: the bit length first, the rest, 0x80, and 2 * length + 1
 * last. Returns how many blocks (1 or 2) they take.
 */
function finalBlocks(mem: Uint8Array, end: number, length: number): number {
  const rest = length & 63;
  if (rest < 56) {
    mem.copyWithin(end + 4, end, end + rest);
    mem.fill(0, end + 5 + rest, end + 60);
    mem[end + 4 + rest] = 0x80;
    setU32(mem, end, (length * 8) | 0);
    setU32(mem, end + 60, (2 * length + 1) | 0);
    return 1;
  }
  mem.fill(0, end + rest, end + 124);
  mem[end + rest] = 0x80;
  setU32(mem, end + 64, (length * 8) | 0);
  setU32(mem, end + 124, (2 * length + 1) | 0);
  return 2;
}

/** MD5's initial state at mem[at..at+16). */
function initialState(mem: Uint8Array, at: number): void {
  for (let j = 0; j < 4; j++) setU32(mem, at + 4 * j, MD5_IV[j]!);
}

/**
 * Digests of `messages[first..first+4)` into out[16 * i..] with blocks4: each message is laid out
 * with its final block(s) in the batch region, the four run together for as many blocks as the
 * shortest has, and each finishes alone. False (nothing written) when the WebAssembly digest is
 * not available or a message is over BATCH_LANE_MAX bytes.
 */
export function wasmDigest4(messages: readonly Uint8Array[], first: number, out: Uint8Array): boolean {
  const w = loadedBatch === undefined ? loadBatch() : loadedBatch;
  if (w === null) return false;
  let total = 0;
  for (let l = 0; l < 4; l++) {
    const n = messages[first + l]!.byteLength;
    if (n > BATCH_LANE_MAX) return false;
    total += n - (n & 63) + 128;
  }
  if (BATCH + total > w.x.memory.buffer.byteLength) {
    w.x.memory.grow(Math.ceil((BATCH + total - w.x.memory.buffer.byteLength) / 65536));
    w.mem = new Uint8Array(w.x.memory.buffer);
  }
  const mem = w.mem;
  const ptrs = lanePtrs;
  let at = BATCH;
  let fewest = Infinity;
  for (let l = 0; l < 4; l++) {
    const m = messages[first + l]!;
    const length = m.byteLength;
    const full = length - (length & 63);
    ptrs[l] = at;
    mem.set(m, at);
    const blocks = (full >>> 6) + finalBlocks(mem, at + full, length);
    laneBlocks[l] = blocks;
    if (blocks < fewest) fewest = blocks;
    initialState(mem, STATES + 16 * l);
    at += blocks * 64;
  }
  if (w.simd) w.x.blocks4(ptrs[0]!, ptrs[1]!, ptrs[2]!, ptrs[3]!, fewest, STATES);
  else fewest = 0;
  for (let l = 0; l < 4; l++) {
    if (laneBlocks[l]! > fewest) w.x.blocks(ptrs[l]! + 64 * fewest, laneBlocks[l]! - fewest, STATES + 16 * l);
    const o = 16 * (first + l);
    for (let i = 0; i < 16; i++) out[o + i] = mem[STATES + 16 * l + i]!;
  }
  return true;
}
const lanePtrs = [0, 0, 0, 0];
const laneBlocks = [0, 0, 0, 0];

/** The digest of the `length` bytes at mem[ptr..] (room for the final blocks after them) into out[at..at+16). */
function digestInPlace(w: Loaded, ptr: number, length: number, out: Uint8Array, at: number): void {
  const mem = w.mem;
  w.x.digest(ptr, length, STATE);
  for (let i = 0; i < 16; i++) out[at + i] = mem[STATE + i]!;
}

/**
 * DXC's modified MD5 of `message` into out[at..at+16) with the WebAssembly digest; false (nothing
 * written) when it is not available.
 */
export function wasmDigestInto(message: Uint8Array, out: Uint8Array, at: number): boolean {
  const w = loaded === undefined ? load() : loaded;
  if (w === null) return false;
  const mem = w.mem;
  const length = message.byteLength;
  if (length <= CHUNK) {
    // one call: the message, its final block(s) after it, and the state in the module
    mem.set(message, BUF);
    digestInPlace(w, BUF, length, out, at);
    return true;
  }
  const full = length - (length & 63);
  initialState(mem, STATE);
  for (let o = 0; o < full; o += CHUNK) {
    const n = Math.min(CHUNK, full - o);
    mem.set(message.subarray(o, o + n), BUF);
    w.x.blocks(BUF, n >>> 6, STATE);
  }
  // the last partial block into the buffer, DXC's final block(s) laid out from it
  mem.set(message.subarray(full), BUF);
  w.x.blocks(BUF, finalBlocks(mem, BUF, length), STATE);
  for (let i = 0; i < 16; i++) out[at + i] = mem[STATE + i]!;
  return true;
}

/**
 * The digest of a container's bytes from `from` to `size` into out[at..at+16) with the WebAssembly
 * digest, copying the container as it is (no view to make); false (nothing written) when the
 * module is not available, the bytes do not fit its buffer in one piece, or the range is not
 * inside the container (0 <= from <= size <= byteLength).
 */
export function wasmRangeDigestInto(container: Uint8Array, from: number, size: number, out: Uint8Array, at: number): boolean {
  if (!(size <= CHUNK && size <= container.byteLength && from >= 0 && from <= size)) return false;
  const w = loaded === undefined ? load() : loaded;
  if (w === null) return false;
  w.mem.set(size === container.byteLength ? container : container.subarray(0, size), BUF);
  digestInPlace(w, BUF + from, size - from, out, at);
  return true;
}
