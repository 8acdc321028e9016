/**
 * The container digest: MD5's compression function with DXC's own final-block layout
 * (spec §1.8, DXC ComputeHashRetail), over the container from byte 20 to its end.
 */
import { DIGEST_COVERS_FROM, DIGEST_SENTINELS, type DigestSentinel } from '../../codecs/container.js';

const S = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21];
const K = Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);

/** One MD5 compression step over 16 little-endian words. */
function compress(state: Int32Array, w: Int32Array): void {
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  for (let i = 0; i < 64; i++) {
    let f: number, g: number;
    if (i < 16) { f = (b & c) | (~b & d); g = i; }
    else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) & 15; }
    else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
    else { f = c ^ (b | ~d); g = (7 * i) & 15; }
    const t = (a + f + K[i]! + w[g]!) | 0;
    a = d; d = c; c = b;
    b = (b + ((t << S[i]!) | (t >>> (32 - S[i]!)))) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
}

/** DXC's modified MD5 of `message` (the bytes the digest covers, not a whole container). */
export function modifiedMd5(message: Uint8Array): Uint8Array {
  const state = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476);
  const block = new Uint8Array(64);
  const words = new Int32Array(16);
  const wordsOf = (bytes: Uint8Array) => {
    for (let j = 0; j < 16; j++) {
      const o = j * 4;
      words[j] = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24);
    }
    return words;
  };
  const length = message.byteLength;
  const full = length - (length % 64);
  for (let o = 0; o < full; o += 64) compress(state, wordsOf(message.subarray(o, o + 64)));

  const rest = message.subarray(full);
  const bits = (length * 8) >>> 0;
  const tail = (2 * length + 1) >>> 0;
  const view = new DataView(block.buffer);
  block.fill(0);
  if (rest.byteLength < 56) {
    view.setUint32(0, bits, true);
    block.set(rest, 4);
    block[4 + rest.byteLength] = 0x80;
    view.setUint32(60, tail, true);
    compress(state, wordsOf(block));
  } else {
    block.set(rest, 0);
    block[rest.byteLength] = 0x80;
    compress(state, wordsOf(block));
    block.fill(0);
    view.setUint32(0, bits, true);
    view.setUint32(60, tail, true);
    compress(state, wordsOf(block));
  }
  const out = new Uint8Array(16);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) outView.setInt32(i * 4, state[i]!, true);
  return out;
}

/** The digest a container should carry: modified MD5 of bytes 20..size. */
export function computeContainerDigest(container: Uint8Array, size = container.byteLength): Uint8Array {
  return modifiedMd5(container.subarray(DIGEST_COVERS_FROM, size));
}

/** Which sentinel a stored digest is, if it is one. */
export function digestSentinel(digest: Uint8Array): DigestSentinel | undefined {
  for (const s of DIGEST_SENTINELS) if (digest.every((b) => b === s.byte)) return s.name;
  return undefined;
}

export type DigestStatus =
  | { status: 'valid' }
  | { status: 'sentinel'; sentinel: DigestSentinel }
  | { status: 'invalid'; expected: Uint8Array };

export function digestStatus(stored: Uint8Array, computed: Uint8Array): DigestStatus {
  if (equalBytes(stored, computed)) return { status: 'valid' };
  const sentinel = digestSentinel(stored);
  if (sentinel) return { status: 'sentinel', sentinel };
  return { status: 'invalid', expected: computed };
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
