/**
 * The container digest: MD5's compression function with DXC's own final-block layout
 * (docs/formats/container.md, as DXC ComputeHashRetail computes it), over the container from byte 20 to its end.
 *
 * Every message goes to the WebAssembly digest when it loads (digest-wasm.ts: written at load from
 * the step table in digest-md5.ts, faster than JS from the empty message up); containers are
 * digested there straight from their own bytes. This JS digest, a loop over the same step table,
 * is the fallback where WebAssembly is missing or refused, or with `DXBIN_WASM=js`: small, not
 * fast. Nothing is allocated per call except the 16-byte result of `modifiedMd5`
 * (`modifiedMd5Into` and `containerDigestMatches` allocate nothing; the JS path makes one word
 * view for messages of 1 KiB or more). Whole blocks are read as 32-bit words in place when the
 * message is 4-byte aligned on a little-endian engine and 1 KiB or more, else gathered byte by
 * byte into one scratch block.
 */
import { CONTAINER_HEADER, DIGEST_COVERS_FROM, DIGEST_SENTINELS, type DigestSentinel } from '../../codecs/container.js';
import { DescriptionError, kindOf } from '../bytes/errors.js';
import { setU32 } from '../bytes/le.js';
import { expectArray, expectBytes } from '../bytes/check.js';
import { MD5_IV, MD5_K, md5StepTables } from './digest-md5.js';
import { wasmDigest4, wasmDigestInto, wasmRangeDigestInto } from './digest-wasm.js';
import { bytesHex } from '../bytes/hex.js';

// Imported values as module constants: read once at load, not through the imports per call.
const COVERS_FROM = DIGEST_COVERS_FROM;
const DIGEST_AT = CONTAINER_HEADER.digest.offset;
const wasmInto = wasmDigestInto;
const wasmRangeInto = wasmRangeDigestInto;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

// Running state (a, b, c, d) between blocks: module variables, no per-call object.
let h0 = 0, h1 = 0, h2 = 0, h3 = 0;
// One scratch block for unaligned input and the final block(s), with its word view.
const scratch = new Uint8Array(64);
const scratchWords = new Int32Array(scratch.buffer);
const result = new Uint8Array(16);

// The step table (digest-md5.ts) per step: the message word and the rotation, taken on the JS
// digest's first call (md5StepTables makes them then), not at import.
const K = MD5_K;
let WORD: Uint8Array | undefined;
let SHIFT: Uint8Array | undefined;

/** One MD5 compression of the 16 words m[o..o+16) into (h0, h1, h2, h3): the 64 steps as a loop. */
function block(m: Int32Array, o: number): void {
  let a = h0, b = h1, c = h2, d = h3;
  for (let i = 0; i < 64; i++) {
    const f = i < 16 ? d ^ (b & (c ^ d)) : i < 32 ? c ^ (d & (b ^ c)) : i < 48 ? b ^ c ^ d : c ^ (b | ~d);
    const t = (a + f + K[i]! + m[o + WORD![i]!]!) | 0;
    const s = SHIFT![i]!;
    a = d;
    d = c;
    c = b;
    b = (b + ((t << s) | (t >>> (32 - s)))) | 0;
  }
  h0 = (h0 + a) | 0;
  h1 = (h1 + b) | 0;
  h2 = (h2 + c) | 0;
  h3 = (h3 + d) | 0;
}

/** Copies 64 bytes at `at` into the scratch block as little-endian words (any alignment, any host). */
function gather(bytes: Uint8Array, at: number): void {
  for (let j = 0; j < 16; j++, at += 4) scratchWords[j] = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
}

/** The scratch block's bytes, as words on a big-endian host (a no-op on little-endian ones). */
function scratchBlock(): void {
  if (!LITTLE_ENDIAN) gather(scratch, 0);
  block(scratchWords, 0);
}

/** The JS digest of `message` into out[at..at+16). Allocates nothing. */
export function modifiedMd5JsInto(message: Uint8Array, out: Uint8Array, at = 0): void {
  if (WORD === undefined) ({ word: WORD, shift: SHIFT } = md5StepTables());
  h0 = MD5_IV[0]!; h1 = MD5_IV[1]!; h2 = MD5_IV[2]!; h3 = MD5_IV[3]!;
  const length = message.byteLength;
  const full = length - (length & 63);
  const start = message.byteOffset;
  if (LITTLE_ENDIAN && (start & 3) === 0 && full >= 1024) {
    // one word view, worth it from 16 blocks on (below, gathering allocates nothing)
    const words = new Int32Array(message.buffer, start, full >>> 2);
    for (let w = 0; w < full >>> 2; w += 16) block(words, w);
  } else {
    for (let o = 0; o < full; o += 64) {
      gather(message, o);
      block(scratchWords, 0);
    }
  }
  // DXC's final block: the bit length first, the rest of the message, 0x80, and 2 * length + 1 last.
  const rest = length - full;
  const bits = (length * 8) | 0;
  const tail = (2 * length + 1) | 0;
  scratch.fill(0);
  if (rest < 56) {
    for (let i = 0; i < rest; i++) scratch[4 + i] = message[full + i]!;
    scratch[4 + rest] = 0x80;
    setU32(scratch, 0, bits);
    setU32(scratch, 60, tail);
    scratchBlock();
  } else {
    for (let i = 0; i < rest; i++) scratch[i] = message[full + i]!;
    scratch[rest] = 0x80;
    scratchBlock();
    scratch.fill(0);
    setU32(scratch, 0, bits);
    setU32(scratch, 60, tail);
    scratchBlock();
  }
  putState(out, at);
}


function putState(out: Uint8Array, at: number): void {
  out[at] = h0; out[at + 1] = h0 >>> 8; out[at + 2] = h0 >>> 16; out[at + 3] = h0 >>> 24;
  out[at + 4] = h1; out[at + 5] = h1 >>> 8; out[at + 6] = h1 >>> 16; out[at + 7] = h1 >>> 24;
  out[at + 8] = h2; out[at + 9] = h2 >>> 8; out[at + 10] = h2 >>> 16; out[at + 11] = h2 >>> 24;
  out[at + 12] = h3; out[at + 13] = h3 >>> 8; out[at + 14] = h3 >>> 16; out[at + 15] = h3 >>> 24;
}

/**
 * DXC's modified MD5 of `message` into out[at..at+16), allocating nothing: the WebAssembly digest
 * when it loads (`DXBIN_WASM=js` forces JS), else JS.
 * @throws {DescriptionError} bad-type when `message` or `out` is not a Uint8Array or `message` is detached; out-of-range when out[at..at+16) is not inside `out` (a detached `out` has no room)
 */
export function modifiedMd5Into(message: Uint8Array, out: Uint8Array, at = 0): void {
  expectBytes(message, 'message');
  expectBytes(out, 'out');
  // a typed array drops writes past its ends or at a fractional index: a digest half written, or not at all
  expectPlace(at, 0, out.byteLength - 16, 'at');
  if (wasmInto(message, out, at)) return;
  modifiedMd5JsInto(message, out, at);
}

/** `n` as a whole number lo..hi (a digest's place `at`, a container's covered `size`), else out-of-range or bad-type. */
function expectPlace(n: unknown, lo: number, hi: number, path: string): number {
  if (!Number.isSafeInteger(n) || (n as number) < lo || (n as number) > hi) throw new DescriptionError(typeof n === 'number' ? 'out-of-range' : 'bad-type', path, `expected ${lo}..${hi}, got ${typeof n === 'number' ? n : kindOf(n)}`);
  return n as number;
}

/**
 * DXC's modified MD5 of each message, into out[16 * i..16 * i + 16) (allocated when not given):
 * for batches (a build step's or a fuzzer's containers), four messages at a time on the
 * WebAssembly SIMD build, one per lane; the rest one by one.
 * @throws {DescriptionError} bad-type (`messages` not an array of Uint8Arrays, `out` not a Uint8Array), out-of-range (`out` too short)
 */
export function modifiedMd5Batch(messages: readonly Uint8Array[], out?: Uint8Array): Uint8Array {
  expectArray(messages, 'messages');
  for (let i = 0; i < messages.length; i++) {
    expectBytes(messages[i], `messages[${i}]`);
  }
  if (out === undefined) out = new Uint8Array(16 * messages.length);
  else expectBytes(out, 'out');
  if (out.byteLength < 16 * messages.length) throw new DescriptionError('out-of-range', 'out', `${out.byteLength} bytes, ${messages.length} digests need ${16 * messages.length}`);
  let i = 0;
  for (; i + 4 <= messages.length; i += 4) {
    if (!wasmDigest4(messages, i, out)) for (let j = i; j < i + 4; j++) modifiedMd5Into(messages[j]!, out, 16 * j);
  }
  for (; i < messages.length; i++) modifiedMd5Into(messages[i]!, out, 16 * i);
  return out;
}

/**
 * DXC's modified MD5 of `message` (the bytes the digest covers, not a whole container).
 * @throws {DescriptionError} bad-type when an argument is not a Uint8Array
 */
export function modifiedMd5(message: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  modifiedMd5Into(message, out, 0);
  return out;
}

/**
 * The digest a container should carry: modified MD5 of bytes 20..size (default: all).
 * @throws {DescriptionError} bad-type when `container` is not a Uint8Array; out-of-range when `size` is not a whole number 20..container.byteLength
 */
export function computeContainerDigest(container: Uint8Array, size?: number): Uint8Array {
  expectBytes(container, 'container');
  return modifiedMd5(container.subarray(DIGEST_COVERS_FROM, expectPlace(size ?? container.byteLength, COVERS_FROM, container.byteLength, 'size')));
}

/** The digest of bytes 20..size into out[at..at+16): WASM straight from the container's bytes when it can, else the general path. */
function containerDigestInto(container: Uint8Array, size: number, out: Uint8Array, at: number): void {
  if (!wasmRangeInto(container, COVERS_FROM, size, out, at)) modifiedMd5Into(container.subarray(COVERS_FROM, size), out, at);
}

/**
 * Computes a container's digest into its own header (bytes 4..20), over bytes 20..size (default: all).
 * @throws {DescriptionError} bad-type when `container` is not a Uint8Array; out-of-range when `size` is not a whole number 20..container.byteLength
 */
export function signContainer(container: Uint8Array, size?: number): void {
  expectBytes(container, 'container');
  containerDigestInto(container, expectPlace(size ?? container.byteLength, COVERS_FROM, container.byteLength, 'size'), container, DIGEST_AT);
}

/**
 * True when the digest stored in the header is the digest of bytes 20..size (default: all).
 * Allocates nothing on the WebAssembly path, a view on the JS one.
 * @throws {DescriptionError} bad-type when `container` is not a Uint8Array; out-of-range when `size` is not a whole number 20..container.byteLength
 */
export function containerDigestMatches(container: Uint8Array, size?: number): boolean {
  expectBytes(container, 'container');
  containerDigestInto(container, expectPlace(size ?? container.byteLength, COVERS_FROM, container.byteLength, 'size'), result, 0);
  const at = DIGEST_AT;
  for (let i = 0; i < 16; i++) if (container[at + i] !== result[i]) return false;
  return true;
}

/**
 * Which sentinel a stored digest is, if it is one.
 * @throws {DescriptionError} bad-type when an argument is not a Uint8Array
 */
export function digestSentinel(digest: Uint8Array): DigestSentinel | undefined {
  expectBytes(digest, 'digest');
  for (const s of DIGEST_SENTINELS) if (digest.every((b) => b === s.byte)) return s.name;
  return undefined;
}

/** What a stored digest is: right, one of the sentinels, or wrong. */
export type DigestStatus =
  | { status: 'valid' }
  | { status: 'sentinel'; sentinel: DigestSentinel }
  | { status: 'invalid'; expected: Uint8Array };

/**
 * Compares a stored digest with the computed one: valid, a sentinel, or invalid (with the expected value).
 * @throws {DescriptionError} bad-type when an argument is not a Uint8Array
 */
export function digestStatus(stored: Uint8Array, computed: Uint8Array): DigestStatus {
  expectBytes(stored, 'stored');
  expectBytes(computed, 'computed');
  if (equalBytes(stored, computed)) return { status: 'valid' };
  const sentinel = digestSentinel(stored);
  if (sentinel) return { status: 'sentinel', sentinel };
  return { status: 'invalid', expected: computed };
}

/**
 * Whether two byte arrays hold the same bytes.
 * @throws {DescriptionError} bad-type when an argument is not a Uint8Array
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  expectBytes(a, 'a');
  expectBytes(b, 'b');
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Lowercase hex of the bytes.
 * @throws {DescriptionError} bad-type when an argument is not a Uint8Array
 */
export function toHex(bytes: Uint8Array): string {
  expectBytes(bytes, 'bytes');
  return bytesHex(bytes);
}
