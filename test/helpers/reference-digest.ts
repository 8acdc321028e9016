/**
 * The original (pre-issue-15) container digest, kept verbatim as a reference: a plain loop over
 * the 64 MD5 steps with table lookups. The property tests compare the fast digest (JS and WASM)
 * against it on random messages of every length class.
 */
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
export function referenceModifiedMd5(message: Uint8Array): Uint8Array {
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
