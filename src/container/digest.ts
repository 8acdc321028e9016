/**
 * The container digest: MD5's compression function with DXC's own final-block layout
 * (docs/formats/container.md, as DXC ComputeHashRetail computes it), over the container from byte 20 to its end.
 *
 * Speed (issue 15): nothing is allocated per call except the 16-byte result of `modifiedMd5`
 * (`modifiedMd5Into` and `containerDigestMatches` allocate nothing; the JS path makes one word
 * view for messages of 1 KiB or more); the 64 steps are unrolled with the message words in locals.
 * Whole blocks are read as 32-bit words in place when the message is 4-byte aligned on a
 * little-endian engine and 1 KiB or more, else gathered byte by byte into one scratch block.
 * Messages of WASM_DIGEST_MIN_BYTES (32) or more go to the WebAssembly digest when it loads
 * (digest-wasm.ts); containers are digested there straight from their own bytes.
 */
import { CONTAINER_HEADER, DIGEST_COVERS_FROM, DIGEST_SENTINELS, type DigestSentinel } from '../../codecs/container.js';
import { DescriptionError } from '../bytes/errors.js';
import { setU32 } from '../bytes/le.js';
import { expectArray, expectBytes } from '../bytes/check.js';
import { wasmDigest4, wasmDigestInto, wasmRangeDigestInto, WASM_DIGEST_MIN_BYTES } from './digest-wasm.js';

// Imported values as module constants: read once at load, not through the imports per call.
const COVERS_FROM = DIGEST_COVERS_FROM;
const DIGEST_AT = CONTAINER_HEADER.digest.offset;
const WASM_MIN = WASM_DIGEST_MIN_BYTES;
const wasmInto = wasmDigestInto;
const wasmRangeInto = wasmRangeDigestInto;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

// Running state (a, b, c, d) between blocks: module variables, no per-call object.
let h0 = 0, h1 = 0, h2 = 0, h3 = 0;
// One scratch block for unaligned input and the final block(s), with its word view.
const scratch = new Uint8Array(64);
const scratchWords = new Int32Array(scratch.buffer);
const result = new Uint8Array(16);

/** One MD5 compression of the 16 words m[o..o+16) into (h0, h1, h2, h3). */
function block(m: Int32Array, o: number): void {
  const x0 = m[o]!, x1 = m[o + 1]!, x2 = m[o + 2]!, x3 = m[o + 3]!, x4 = m[o + 4]!, x5 = m[o + 5]!, x6 = m[o + 6]!, x7 = m[o + 7]!;
  const x8 = m[o + 8]!, x9 = m[o + 9]!, x10 = m[o + 10]!, x11 = m[o + 11]!, x12 = m[o + 12]!, x13 = m[o + 13]!, x14 = m[o + 14]!, x15 = m[o + 15]!;
  let a = h0, b = h1, c = h2, d = h3, t = 0;
  t = ((a + -680876936 + x0) + (d ^ (b & (c ^ d)))) | 0; a = (((t << 7) | (t >>> 25)) + b) | 0;
  t = ((d + -389564586 + x1) + (c ^ (a & (b ^ c)))) | 0; d = (((t << 12) | (t >>> 20)) + a) | 0;
  t = ((c + 606105819 + x2) + (b ^ (d & (a ^ b)))) | 0; c = (((t << 17) | (t >>> 15)) + d) | 0;
  t = ((b + -1044525330 + x3) + (a ^ (c & (d ^ a)))) | 0; b = (((t << 22) | (t >>> 10)) + c) | 0;
  t = ((a + -176418897 + x4) + (d ^ (b & (c ^ d)))) | 0; a = (((t << 7) | (t >>> 25)) + b) | 0;
  t = ((d + 1200080426 + x5) + (c ^ (a & (b ^ c)))) | 0; d = (((t << 12) | (t >>> 20)) + a) | 0;
  t = ((c + -1473231341 + x6) + (b ^ (d & (a ^ b)))) | 0; c = (((t << 17) | (t >>> 15)) + d) | 0;
  t = ((b + -45705983 + x7) + (a ^ (c & (d ^ a)))) | 0; b = (((t << 22) | (t >>> 10)) + c) | 0;
  t = ((a + 1770035416 + x8) + (d ^ (b & (c ^ d)))) | 0; a = (((t << 7) | (t >>> 25)) + b) | 0;
  t = ((d + -1958414417 + x9) + (c ^ (a & (b ^ c)))) | 0; d = (((t << 12) | (t >>> 20)) + a) | 0;
  t = ((c + -42063 + x10) + (b ^ (d & (a ^ b)))) | 0; c = (((t << 17) | (t >>> 15)) + d) | 0;
  t = ((b + -1990404162 + x11) + (a ^ (c & (d ^ a)))) | 0; b = (((t << 22) | (t >>> 10)) + c) | 0;
  t = ((a + 1804603682 + x12) + (d ^ (b & (c ^ d)))) | 0; a = (((t << 7) | (t >>> 25)) + b) | 0;
  t = ((d + -40341101 + x13) + (c ^ (a & (b ^ c)))) | 0; d = (((t << 12) | (t >>> 20)) + a) | 0;
  t = ((c + -1502002290 + x14) + (b ^ (d & (a ^ b)))) | 0; c = (((t << 17) | (t >>> 15)) + d) | 0;
  t = ((b + 1236535329 + x15) + (a ^ (c & (d ^ a)))) | 0; b = (((t << 22) | (t >>> 10)) + c) | 0;
  t = ((a + -165796510 + x1 + (c & ~d)) + (b & d)) | 0; a = (((t << 5) | (t >>> 27)) + b) | 0;
  t = ((d + -1069501632 + x6 + (b & ~c)) + (a & c)) | 0; d = (((t << 9) | (t >>> 23)) + a) | 0;
  t = ((c + 643717713 + x11 + (a & ~b)) + (d & b)) | 0; c = (((t << 14) | (t >>> 18)) + d) | 0;
  t = ((b + -373897302 + x0 + (d & ~a)) + (c & a)) | 0; b = (((t << 20) | (t >>> 12)) + c) | 0;
  t = ((a + -701558691 + x5 + (c & ~d)) + (b & d)) | 0; a = (((t << 5) | (t >>> 27)) + b) | 0;
  t = ((d + 38016083 + x10 + (b & ~c)) + (a & c)) | 0; d = (((t << 9) | (t >>> 23)) + a) | 0;
  t = ((c + -660478335 + x15 + (a & ~b)) + (d & b)) | 0; c = (((t << 14) | (t >>> 18)) + d) | 0;
  t = ((b + -405537848 + x4 + (d & ~a)) + (c & a)) | 0; b = (((t << 20) | (t >>> 12)) + c) | 0;
  t = ((a + 568446438 + x9 + (c & ~d)) + (b & d)) | 0; a = (((t << 5) | (t >>> 27)) + b) | 0;
  t = ((d + -1019803690 + x14 + (b & ~c)) + (a & c)) | 0; d = (((t << 9) | (t >>> 23)) + a) | 0;
  t = ((c + -187363961 + x3 + (a & ~b)) + (d & b)) | 0; c = (((t << 14) | (t >>> 18)) + d) | 0;
  t = ((b + 1163531501 + x8 + (d & ~a)) + (c & a)) | 0; b = (((t << 20) | (t >>> 12)) + c) | 0;
  t = ((a + -1444681467 + x13 + (c & ~d)) + (b & d)) | 0; a = (((t << 5) | (t >>> 27)) + b) | 0;
  t = ((d + -51403784 + x2 + (b & ~c)) + (a & c)) | 0; d = (((t << 9) | (t >>> 23)) + a) | 0;
  t = ((c + 1735328473 + x7 + (a & ~b)) + (d & b)) | 0; c = (((t << 14) | (t >>> 18)) + d) | 0;
  t = ((b + -1926607734 + x12 + (d & ~a)) + (c & a)) | 0; b = (((t << 20) | (t >>> 12)) + c) | 0;
  t = ((a + -378558 + x5) + (b ^ c ^ d)) | 0; a = (((t << 4) | (t >>> 28)) + b) | 0;
  t = ((d + -2022574463 + x8) + (a ^ b ^ c)) | 0; d = (((t << 11) | (t >>> 21)) + a) | 0;
  t = ((c + 1839030562 + x11) + (d ^ a ^ b)) | 0; c = (((t << 16) | (t >>> 16)) + d) | 0;
  t = ((b + -35309556 + x14) + (c ^ d ^ a)) | 0; b = (((t << 23) | (t >>> 9)) + c) | 0;
  t = ((a + -1530992060 + x1) + (b ^ c ^ d)) | 0; a = (((t << 4) | (t >>> 28)) + b) | 0;
  t = ((d + 1272893353 + x4) + (a ^ b ^ c)) | 0; d = (((t << 11) | (t >>> 21)) + a) | 0;
  t = ((c + -155497632 + x7) + (d ^ a ^ b)) | 0; c = (((t << 16) | (t >>> 16)) + d) | 0;
  t = ((b + -1094730640 + x10) + (c ^ d ^ a)) | 0; b = (((t << 23) | (t >>> 9)) + c) | 0;
  t = ((a + 681279174 + x13) + (b ^ c ^ d)) | 0; a = (((t << 4) | (t >>> 28)) + b) | 0;
  t = ((d + -358537222 + x0) + (a ^ b ^ c)) | 0; d = (((t << 11) | (t >>> 21)) + a) | 0;
  t = ((c + -722521979 + x3) + (d ^ a ^ b)) | 0; c = (((t << 16) | (t >>> 16)) + d) | 0;
  t = ((b + 76029189 + x6) + (c ^ d ^ a)) | 0; b = (((t << 23) | (t >>> 9)) + c) | 0;
  t = ((a + -640364487 + x9) + (b ^ c ^ d)) | 0; a = (((t << 4) | (t >>> 28)) + b) | 0;
  t = ((d + -421815835 + x12) + (a ^ b ^ c)) | 0; d = (((t << 11) | (t >>> 21)) + a) | 0;
  t = ((c + 530742520 + x15) + (d ^ a ^ b)) | 0; c = (((t << 16) | (t >>> 16)) + d) | 0;
  t = ((b + -995338651 + x2) + (c ^ d ^ a)) | 0; b = (((t << 23) | (t >>> 9)) + c) | 0;
  t = ((a + -198630844 + x0) + (c ^ (b | ~d))) | 0; a = (((t << 6) | (t >>> 26)) + b) | 0;
  t = ((d + 1126891415 + x7) + (b ^ (a | ~c))) | 0; d = (((t << 10) | (t >>> 22)) + a) | 0;
  t = ((c + -1416354905 + x14) + (a ^ (d | ~b))) | 0; c = (((t << 15) | (t >>> 17)) + d) | 0;
  t = ((b + -57434055 + x5) + (d ^ (c | ~a))) | 0; b = (((t << 21) | (t >>> 11)) + c) | 0;
  t = ((a + 1700485571 + x12) + (c ^ (b | ~d))) | 0; a = (((t << 6) | (t >>> 26)) + b) | 0;
  t = ((d + -1894986606 + x3) + (b ^ (a | ~c))) | 0; d = (((t << 10) | (t >>> 22)) + a) | 0;
  t = ((c + -1051523 + x10) + (a ^ (d | ~b))) | 0; c = (((t << 15) | (t >>> 17)) + d) | 0;
  t = ((b + -2054922799 + x1) + (d ^ (c | ~a))) | 0; b = (((t << 21) | (t >>> 11)) + c) | 0;
  t = ((a + 1873313359 + x8) + (c ^ (b | ~d))) | 0; a = (((t << 6) | (t >>> 26)) + b) | 0;
  t = ((d + -30611744 + x15) + (b ^ (a | ~c))) | 0; d = (((t << 10) | (t >>> 22)) + a) | 0;
  t = ((c + -1560198380 + x6) + (a ^ (d | ~b))) | 0; c = (((t << 15) | (t >>> 17)) + d) | 0;
  t = ((b + 1309151649 + x13) + (d ^ (c | ~a))) | 0; b = (((t << 21) | (t >>> 11)) + c) | 0;
  t = ((a + -145523070 + x4) + (c ^ (b | ~d))) | 0; a = (((t << 6) | (t >>> 26)) + b) | 0;
  t = ((d + -1120210379 + x11) + (b ^ (a | ~c))) | 0; d = (((t << 10) | (t >>> 22)) + a) | 0;
  t = ((c + 718787259 + x2) + (a ^ (d | ~b))) | 0; c = (((t << 15) | (t >>> 17)) + d) | 0;
  t = ((b + -343485551 + x9) + (d ^ (c | ~a))) | 0; b = (((t << 21) | (t >>> 11)) + c) | 0;
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
  h0 = 0x67452301; h1 = 0xefcdab89 | 0; h2 = 0x98badcfe | 0; h3 = 0x10325476;
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
 * for messages of WASM_DIGEST_MIN_BYTES or more when it loads (`DXBIN_WASM=js` forces JS), else JS.
 * @throws {DescriptionError} bad-type when `message` or `out` is not a Uint8Array
 */
export function modifiedMd5Into(message: Uint8Array, out: Uint8Array, at = 0): void {
  expectBytes(message, 'message');
  expectBytes(out, 'out');
  if (message.byteLength >= WASM_MIN && wasmInto(message, out, at)) return;
  modifiedMd5JsInto(message, out, at);
}

/**
 * DXC's modified MD5 of each message, into out[16 * i..16 * i + 16) (allocated when not given):
 * for batches (a build step's or a fuzzer's containers), four messages at a time on the
 * WebAssembly SIMD build, one per lane; the rest one by one.
 * @throws {DescriptionError} bad-type (`messages` not an array of Uint8Arrays, `out` not a Uint8Array), out-of-range (`out` too short)
 */
export function modifiedMd5Batch(messages: readonly Uint8Array[], out?: Uint8Array): Uint8Array {
  expectArray(messages, 'messages');
  for (let i = 0; i < messages.length; i++) expectBytes(messages[i], `messages[${i}]`);
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
 * @throws {DescriptionError} bad-type when `container` is not a Uint8Array
 */
export function computeContainerDigest(container: Uint8Array, size?: number): Uint8Array {
  expectBytes(container, 'container');
  if (size === undefined) size = container.byteLength;
  return modifiedMd5(container.subarray(DIGEST_COVERS_FROM, size));
}

/** The digest of bytes 20..size into out[at..at+16): WASM straight from the container's bytes when it can, else the general path. */
function containerDigestInto(container: Uint8Array, size: number, out: Uint8Array, at: number): void {
  if (size - COVERS_FROM < WASM_MIN || !wasmRangeInto(container, COVERS_FROM, size, out, at)) modifiedMd5Into(container.subarray(COVERS_FROM, size), out, at);
}

/**
 * Computes a container's digest into its own header (bytes 4..20), over bytes 20..size (default: all).
 * @throws {DescriptionError} bad-type when `container` is not a Uint8Array
 */
export function signContainer(container: Uint8Array, size?: number): void {
  expectBytes(container, 'container');
  if (size === undefined) size = container.byteLength;
  containerDigestInto(container, size, container, DIGEST_AT);
}

/**
 * True when the digest stored in the header is the digest of bytes 20..size (default: all).
 * Allocates nothing on the WebAssembly path, a view on the JS one.
 * @throws {DescriptionError} bad-type when `container` is not a Uint8Array
 */
export function containerDigestMatches(container: Uint8Array, size?: number): boolean {
  expectBytes(container, 'container');
  if (size === undefined) size = container.byteLength;
  containerDigestInto(container, size, result, 0);
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
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
