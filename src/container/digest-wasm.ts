/**
 * The WebAssembly digest (src/container/assembly/digest.ts, inlined as base64 by
 * `npm run build:wasm`): compiled and instantiated once, at the first digest of a message of
 * WASM_DIGEST_MIN_BYTES or more, never through eval. When WebAssembly is missing or refused (a
 * strict Content-Security-Policy without 'wasm-unsafe-eval'), or `DXBIN_WASM=js`, the JS digest
 * runs instead. The message is copied through one 64 KiB buffer in the module's memory (one chunk
 * per call for messages up to 64 KiB, so nothing is allocated; one view per further chunk).
 * The module is built twice: without SIMD, for single messages, and with SIMD (where
 * `WebAssembly.validate` accepts it), whose `blocks4` hashes four messages at once for batches.
 */
import { decodeBase64 } from '../bytes/base64.js';
import { setU32 } from '../bytes/le.js';
import { DIGEST_SIMD_WASM, DIGEST_WASM } from './digest-wasm-binary.js';

/** Messages shorter than this are hashed in JS: below it the copy and call cost more than they save. */
export const WASM_DIGEST_MIN_BYTES = 32;

interface DigestExports {
  memory: WebAssembly.Memory;
  begin(): void;
  blocks(ptr: number, count: number): void;
  state(out: number): void;
  setState(from: number): void;
  digest(ptr: number, length: number, scratch: number, out: number): void;
  finish(ptr: number, rest: number, length: number, scratch: number, out: number): void;
  blocks4(p0: number, p1: number, p2: number, p3: number, count: number, states: number): void;
}

const CHUNK = 65536;
const BUF = 1024; // chunk buffer: [BUF, BUF + CHUNK)
const FINAL = BUF + CHUNK; // up to two final blocks
const STATE = FINAL + 128; // 16 bytes of state
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

function instantiate(bytes: Uint8Array<ArrayBuffer>, simd: boolean): Loaded | null {
  try {
    const module = new WebAssembly.Module(bytes);
    const x = new WebAssembly.Instance(module, { env: { abort: () => { throw new Error('wasm abort'); } } }).exports as unknown as DigestExports;
    const need = BATCH;
    if (x.memory.buffer.byteLength < need) x.memory.grow(Math.ceil((need - x.memory.buffer.byteLength) / 65536));
    return { x, mem: new Uint8Array(x.memory.buffer), simd };
  } catch {
    return null; // CSP or an engine without WebAssembly: the JS digest serves
  }
}

function load(): Loaded | null {
  if (loaded !== undefined) return loaded;
  loaded = wasmRefused() ? null : instantiate(decodeBase64(DIGEST_WASM), false);
  return loaded;
}

// Only batches reach this (and with it the SIMD build's bytes), so an app that digests one message
// at a time does not carry them.
function loadBatch(): Loaded | null {
  if (loadedBatch !== undefined) return loadedBatch;
  loadedBatch = null;
  if (wasmRefused()) return loadedBatch;
  try {
    const simdBytes = decodeBase64(DIGEST_SIMD_WASM);
    if (WebAssembly.validate(simdBytes)) loadedBatch = instantiate(simdBytes, true);
  } catch {
    loadedBatch = null;
  }
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

const IV = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

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
    const rest = length - full;
    ptrs[l] = at;
    mem.set(m, at);
    const end = at + full;
    let blocks = full >>> 6;
    // DXC's final block(s) in place after the whole blocks
    if (rest < 56) {
      mem.copyWithin(end + 4, end, end + rest);
      mem.fill(0, end + 4 + rest, end + 64);
      mem[end + 4 + rest] = 0x80;
      setU32(mem, end, (length * 8) | 0);
      setU32(mem, end + 60, (2 * length + 1) | 0);
      blocks += 1;
    } else {
      mem.fill(0, end + rest, end + 128);
      mem[end + rest] = 0x80;
      setU32(mem, end + 64, (length * 8) | 0);
      setU32(mem, end + 124, (2 * length + 1) | 0);
      blocks += 2;
    }
    laneBlocks[l] = blocks;
    if (blocks < fewest) fewest = blocks;
    for (let j = 0; j < 4; j++) setU32(mem, STATES + 16 * l + 4 * j, IV[j]!);
    at += blocks * 64;
  }
  w.x.blocks4(ptrs[0]!, ptrs[1]!, ptrs[2]!, ptrs[3]!, fewest, STATES);
  for (let l = 0; l < 4; l++) {
    if (laneBlocks[l]! > fewest) {
      w.x.setState(STATES + 16 * l);
      w.x.blocks(ptrs[l]! + 64 * fewest, laneBlocks[l]! - fewest);
      w.x.state(STATES + 16 * l);
    }
    const o = 16 * (first + l);
    for (let i = 0; i < 16; i++) out[o + i] = mem[STATES + 16 * l + i]!;
  }
  return true;
}
const lanePtrs = [0, 0, 0, 0];
const laneBlocks = [0, 0, 0, 0];

/**
 * DXC's modified MD5 of `message` into out[at..at+16) with the WebAssembly digest; false (nothing
 * written) when it is not available.
 */
export function wasmDigestInto(message: Uint8Array, out: Uint8Array, at: number): boolean {
  const w = loaded === undefined ? load() : loaded;
  if (w === null) return false;
  const { x } = w;
  const mem = w.mem;
  const length = message.byteLength;
  if (length <= CHUNK) {
    // one call: whole blocks, final block and state in the module
    mem.set(message, BUF);
    x.digest(BUF, length, FINAL, STATE);
    for (let i = 0; i < 16; i++) out[at + i] = mem[STATE + i]!;
    return true;
  }
  const full = length - (length & 63);
  x.begin();
  for (let o = 0; o < full; o += CHUNK) {
    const n = Math.min(CHUNK, full - o);
    mem.set(message.subarray(o, o + n), BUF);
    x.blocks(BUF, n >>> 6);
  }
  // the last partial block into the buffer; the module lays out DXC's final block(s) from it
  const rest = length - full;
  mem.set(message.subarray(full), BUF);
  x.finish(BUF, rest, length, FINAL, STATE);
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
  const mem = w.mem;
  mem.set(size === container.byteLength ? container : container.subarray(0, size), BUF);
  w.x.digest(BUF + from, size - from, FINAL, STATE);
  for (let i = 0; i < 16; i++) out[at + i] = mem[STATE + i]!;
  return true;
}

