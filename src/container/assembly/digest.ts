// AssemblyScript: the container digest's MD5 compression (docs: src/container/digest.ts), built by
// scripts/build-wasm.mjs into src/container/digest-wasm-binary.ts. The JS side streams the message
// through a buffer in this module's memory: begin(), blocks(ptr, n) per chunk of whole 64-byte
// blocks, then the final block(s) laid out by JS in scratch memory with blocks() again; the state is
// read from h0..h3. Must equal the JS digest bit for bit (test/digest.test.ts).

let h0: u32 = 0;
let h1: u32 = 0;
let h2: u32 = 0;
let h3: u32 = 0;

/** Starts a digest: MD5's initial state. */
export function begin(): void {
  h0 = 0x67452301;
  h1 = 0xefcdab89;
  h2 = 0x98badcfe;
  h3 = 0x10325476;
}

/** Compresses `count` 64-byte blocks at `ptr` into the state. */
export function blocks(ptr: usize, count: u32): void {
  let a = h0, b = h1, c = h2, d = h3;
  let p = ptr;
  for (let n: u32 = 0; n < count; n++, p += 64) {
    const sa = a, sb = b, sc = c, sd = d;
    a = rotl<u32>((a + 0xd76aa478 + load<u32>(p, 0)) + (d ^ (b & (c ^ d))), 7) + b;
    d = rotl<u32>((d + 0xe8c7b756 + load<u32>(p, 4)) + (c ^ (a & (b ^ c))), 12) + a;
    c = rotl<u32>((c + 0x242070db + load<u32>(p, 8)) + (b ^ (d & (a ^ b))), 17) + d;
    b = rotl<u32>((b + 0xc1bdceee + load<u32>(p, 12)) + (a ^ (c & (d ^ a))), 22) + c;
    a = rotl<u32>((a + 0xf57c0faf + load<u32>(p, 16)) + (d ^ (b & (c ^ d))), 7) + b;
    d = rotl<u32>((d + 0x4787c62a + load<u32>(p, 20)) + (c ^ (a & (b ^ c))), 12) + a;
    c = rotl<u32>((c + 0xa8304613 + load<u32>(p, 24)) + (b ^ (d & (a ^ b))), 17) + d;
    b = rotl<u32>((b + 0xfd469501 + load<u32>(p, 28)) + (a ^ (c & (d ^ a))), 22) + c;
    a = rotl<u32>((a + 0x698098d8 + load<u32>(p, 32)) + (d ^ (b & (c ^ d))), 7) + b;
    d = rotl<u32>((d + 0x8b44f7af + load<u32>(p, 36)) + (c ^ (a & (b ^ c))), 12) + a;
    c = rotl<u32>((c + 0xffff5bb1 + load<u32>(p, 40)) + (b ^ (d & (a ^ b))), 17) + d;
    b = rotl<u32>((b + 0x895cd7be + load<u32>(p, 44)) + (a ^ (c & (d ^ a))), 22) + c;
    a = rotl<u32>((a + 0x6b901122 + load<u32>(p, 48)) + (d ^ (b & (c ^ d))), 7) + b;
    d = rotl<u32>((d + 0xfd987193 + load<u32>(p, 52)) + (c ^ (a & (b ^ c))), 12) + a;
    c = rotl<u32>((c + 0xa679438e + load<u32>(p, 56)) + (b ^ (d & (a ^ b))), 17) + d;
    b = rotl<u32>((b + 0x49b40821 + load<u32>(p, 60)) + (a ^ (c & (d ^ a))), 22) + c;
    a = rotl<u32>((a + 0xf61e2562 + load<u32>(p, 4) + (c & ~d)) + (b & d), 5) + b;
    d = rotl<u32>((d + 0xc040b340 + load<u32>(p, 24) + (b & ~c)) + (a & c), 9) + a;
    c = rotl<u32>((c + 0x265e5a51 + load<u32>(p, 44) + (a & ~b)) + (d & b), 14) + d;
    b = rotl<u32>((b + 0xe9b6c7aa + load<u32>(p, 0) + (d & ~a)) + (c & a), 20) + c;
    a = rotl<u32>((a + 0xd62f105d + load<u32>(p, 20) + (c & ~d)) + (b & d), 5) + b;
    d = rotl<u32>((d + 0x02441453 + load<u32>(p, 40) + (b & ~c)) + (a & c), 9) + a;
    c = rotl<u32>((c + 0xd8a1e681 + load<u32>(p, 60) + (a & ~b)) + (d & b), 14) + d;
    b = rotl<u32>((b + 0xe7d3fbc8 + load<u32>(p, 16) + (d & ~a)) + (c & a), 20) + c;
    a = rotl<u32>((a + 0x21e1cde6 + load<u32>(p, 36) + (c & ~d)) + (b & d), 5) + b;
    d = rotl<u32>((d + 0xc33707d6 + load<u32>(p, 56) + (b & ~c)) + (a & c), 9) + a;
    c = rotl<u32>((c + 0xf4d50d87 + load<u32>(p, 12) + (a & ~b)) + (d & b), 14) + d;
    b = rotl<u32>((b + 0x455a14ed + load<u32>(p, 32) + (d & ~a)) + (c & a), 20) + c;
    a = rotl<u32>((a + 0xa9e3e905 + load<u32>(p, 52) + (c & ~d)) + (b & d), 5) + b;
    d = rotl<u32>((d + 0xfcefa3f8 + load<u32>(p, 8) + (b & ~c)) + (a & c), 9) + a;
    c = rotl<u32>((c + 0x676f02d9 + load<u32>(p, 28) + (a & ~b)) + (d & b), 14) + d;
    b = rotl<u32>((b + 0x8d2a4c8a + load<u32>(p, 48) + (d & ~a)) + (c & a), 20) + c;
    a = rotl<u32>((a + 0xfffa3942 + load<u32>(p, 20)) + (b ^ c ^ d), 4) + b;
    d = rotl<u32>((d + 0x8771f681 + load<u32>(p, 32)) + (a ^ b ^ c), 11) + a;
    c = rotl<u32>((c + 0x6d9d6122 + load<u32>(p, 44)) + (d ^ a ^ b), 16) + d;
    b = rotl<u32>((b + 0xfde5380c + load<u32>(p, 56)) + (c ^ d ^ a), 23) + c;
    a = rotl<u32>((a + 0xa4beea44 + load<u32>(p, 4)) + (b ^ c ^ d), 4) + b;
    d = rotl<u32>((d + 0x4bdecfa9 + load<u32>(p, 16)) + (a ^ b ^ c), 11) + a;
    c = rotl<u32>((c + 0xf6bb4b60 + load<u32>(p, 28)) + (d ^ a ^ b), 16) + d;
    b = rotl<u32>((b + 0xbebfbc70 + load<u32>(p, 40)) + (c ^ d ^ a), 23) + c;
    a = rotl<u32>((a + 0x289b7ec6 + load<u32>(p, 52)) + (b ^ c ^ d), 4) + b;
    d = rotl<u32>((d + 0xeaa127fa + load<u32>(p, 0)) + (a ^ b ^ c), 11) + a;
    c = rotl<u32>((c + 0xd4ef3085 + load<u32>(p, 12)) + (d ^ a ^ b), 16) + d;
    b = rotl<u32>((b + 0x04881d05 + load<u32>(p, 24)) + (c ^ d ^ a), 23) + c;
    a = rotl<u32>((a + 0xd9d4d039 + load<u32>(p, 36)) + (b ^ c ^ d), 4) + b;
    d = rotl<u32>((d + 0xe6db99e5 + load<u32>(p, 48)) + (a ^ b ^ c), 11) + a;
    c = rotl<u32>((c + 0x1fa27cf8 + load<u32>(p, 60)) + (d ^ a ^ b), 16) + d;
    b = rotl<u32>((b + 0xc4ac5665 + load<u32>(p, 8)) + (c ^ d ^ a), 23) + c;
    a = rotl<u32>((a + 0xf4292244 + load<u32>(p, 0)) + (c ^ (b | ~d)), 6) + b;
    d = rotl<u32>((d + 0x432aff97 + load<u32>(p, 28)) + (b ^ (a | ~c)), 10) + a;
    c = rotl<u32>((c + 0xab9423a7 + load<u32>(p, 56)) + (a ^ (d | ~b)), 15) + d;
    b = rotl<u32>((b + 0xfc93a039 + load<u32>(p, 20)) + (d ^ (c | ~a)), 21) + c;
    a = rotl<u32>((a + 0x655b59c3 + load<u32>(p, 48)) + (c ^ (b | ~d)), 6) + b;
    d = rotl<u32>((d + 0x8f0ccc92 + load<u32>(p, 12)) + (b ^ (a | ~c)), 10) + a;
    c = rotl<u32>((c + 0xffeff47d + load<u32>(p, 40)) + (a ^ (d | ~b)), 15) + d;
    b = rotl<u32>((b + 0x85845dd1 + load<u32>(p, 4)) + (d ^ (c | ~a)), 21) + c;
    a = rotl<u32>((a + 0x6fa87e4f + load<u32>(p, 32)) + (c ^ (b | ~d)), 6) + b;
    d = rotl<u32>((d + 0xfe2ce6e0 + load<u32>(p, 60)) + (b ^ (a | ~c)), 10) + a;
    c = rotl<u32>((c + 0xa3014314 + load<u32>(p, 24)) + (a ^ (d | ~b)), 15) + d;
    b = rotl<u32>((b + 0x4e0811a1 + load<u32>(p, 52)) + (d ^ (c | ~a)), 21) + c;
    a = rotl<u32>((a + 0xf7537e82 + load<u32>(p, 16)) + (c ^ (b | ~d)), 6) + b;
    d = rotl<u32>((d + 0xbd3af235 + load<u32>(p, 44)) + (b ^ (a | ~c)), 10) + a;
    c = rotl<u32>((c + 0x2ad7d2bb + load<u32>(p, 8)) + (a ^ (d | ~b)), 15) + d;
    b = rotl<u32>((b + 0xeb86d391 + load<u32>(p, 36)) + (d ^ (c | ~a)), 21) + c;
    a += sa;
    b += sb;
    c += sc;
    d += sd;
  }
  h0 = a;
  h1 = b;
  h2 = c;
  h3 = d;
}

/** Writes the state (16 bytes, little-endian words) at `out`. */
export function state(out: usize): void {
  store<u32>(out, h0);
  store<u32>(out, h1, 4);
  store<u32>(out, h2, 8);
  store<u32>(out, h3, 12);
}
