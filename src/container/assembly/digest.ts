// AssemblyScript: the container digest's MD5 compression (docs: src/container/digest.ts), built by
// scripts/build-wasm.mjs into src/container/digest-wasm-binary.ts. The JS side streams the message
// through a buffer in this module's memory: a message that fits the buffer in one call, digest();
// a longer one with begin(), blocks(ptr, n) per chunk of whole 64-byte blocks, then the final
// block(s) laid out by JS in scratch memory with blocks() again, and state(). blocks4 hashes four messages at once for batches (SIMD build: one per lane).
// Built twice, with SIMD (ASC_FEATURE_SIMD) and without. Must equal the JS digest bit for bit
// (test/digest.test.ts).

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

/**
 * The whole digest in one call, for a message already in memory: `length` bytes at `ptr`, DXC's
 * final block(s) laid out in the 128 bytes at `scratch` (the bit length first, the rest of the
 * message, 0x80, and 2 * length + 1 last, as the JS digest does), the state written at `out`.
 */
export function digest(ptr: usize, length: u32, scratch: usize, out: usize): void {
  begin();
  const full = length & ~63;
  if (full > 0) blocks(ptr, full >>> 6);
  finish(ptr + full, length - full, length, scratch, out);
}

/**
 * DXC's final block(s) after the whole blocks: the `rest` (< 64) last bytes of a `length`-byte
 * message at ptr laid out in scratch (128 bytes) with the bit length first, 0x80 and
 * 2 * length + 1 last, compressed into the running state, which is stored at out.
 */
export function finish(ptr: usize, rest: u32, length: u32, scratch: usize, out: usize): void {
  memory.fill(scratch, 0, 128);
  if (rest < 56) {
    memory.copy(scratch + 4, ptr, rest);
    store<u8>(scratch + 4 + rest, 0x80);
    store<u32>(scratch, length << 3);
    store<u32>(scratch, 2 * length + 1, 60);
    blocks(scratch, 1);
  } else {
    memory.copy(scratch, ptr, rest);
    store<u8>(scratch + rest, 0x80);
    store<u32>(scratch, length << 3, 64);
    store<u32>(scratch, 2 * length + 1, 124);
    blocks(scratch, 2);
  }
  state(out);
}

/** Sets the state from 16 bytes at `from` (to go on with a message the 4-lane loop started). */
export function setState(from: usize): void {
  h0 = load<u32>(from);
  h1 = load<u32>(from, 4);
  h2 = load<u32>(from, 8);
  h3 = load<u32>(from, 12);
}

/**
 * Four messages at once, one per 32-bit lane (the build with SIMD; without, one after another):
 * `count` blocks at p0..p3 each, from and into the four states at `states` (lane L's state at
 * states + 16 * L, as `state` writes one).
 */
export function blocks4(p0: usize, p1: usize, p2: usize, p3: usize, count: u32, states: usize): void {
  if (ASC_FEATURE_SIMD) {
    // states are stored per message; the loop keeps them per word (a, b, c, d across the lanes)
    let s0 = v128.load(states), s1 = v128.load(states, 16), s2 = v128.load(states, 32), s3 = v128.load(states, 48);
    let u0 = v128.shuffle<i32>(s0, s1, 0, 4, 1, 5), u1 = v128.shuffle<i32>(s2, s3, 0, 4, 1, 5);
    let u2 = v128.shuffle<i32>(s0, s1, 2, 6, 3, 7), u3 = v128.shuffle<i32>(s2, s3, 2, 6, 3, 7);
    let a = v128.shuffle<i32>(u0, u1, 0, 1, 4, 5), b = v128.shuffle<i32>(u0, u1, 2, 3, 6, 7);
    let c = v128.shuffle<i32>(u2, u3, 0, 1, 4, 5), d = v128.shuffle<i32>(u2, u3, 2, 3, 6, 7);
    let r0: v128, r1: v128, r2: v128, r3: v128, t0: v128, t1: v128, t2: v128, t3: v128, t: v128;
    for (let n: u32 = 0; n < count; n++, p0 += 64, p1 += 64, p2 += 64, p3 += 64) {
      r0 = v128.load(p0 + 0); r1 = v128.load(p1 + 0); r2 = v128.load(p2 + 0); r3 = v128.load(p3 + 0);
      t0 = v128.shuffle<i32>(r0, r1, 0, 4, 1, 5); t1 = v128.shuffle<i32>(r2, r3, 0, 4, 1, 5);
      t2 = v128.shuffle<i32>(r0, r1, 2, 6, 3, 7); t3 = v128.shuffle<i32>(r2, r3, 2, 6, 3, 7);
      const x0 = v128.shuffle<i32>(t0, t1, 0, 1, 4, 5);
      const x1 = v128.shuffle<i32>(t0, t1, 2, 3, 6, 7);
      const x2 = v128.shuffle<i32>(t2, t3, 0, 1, 4, 5);
      const x3 = v128.shuffle<i32>(t2, t3, 2, 3, 6, 7);
      r0 = v128.load(p0 + 16); r1 = v128.load(p1 + 16); r2 = v128.load(p2 + 16); r3 = v128.load(p3 + 16);
      t0 = v128.shuffle<i32>(r0, r1, 0, 4, 1, 5); t1 = v128.shuffle<i32>(r2, r3, 0, 4, 1, 5);
      t2 = v128.shuffle<i32>(r0, r1, 2, 6, 3, 7); t3 = v128.shuffle<i32>(r2, r3, 2, 6, 3, 7);
      const x4 = v128.shuffle<i32>(t0, t1, 0, 1, 4, 5);
      const x5 = v128.shuffle<i32>(t0, t1, 2, 3, 6, 7);
      const x6 = v128.shuffle<i32>(t2, t3, 0, 1, 4, 5);
      const x7 = v128.shuffle<i32>(t2, t3, 2, 3, 6, 7);
      r0 = v128.load(p0 + 32); r1 = v128.load(p1 + 32); r2 = v128.load(p2 + 32); r3 = v128.load(p3 + 32);
      t0 = v128.shuffle<i32>(r0, r1, 0, 4, 1, 5); t1 = v128.shuffle<i32>(r2, r3, 0, 4, 1, 5);
      t2 = v128.shuffle<i32>(r0, r1, 2, 6, 3, 7); t3 = v128.shuffle<i32>(r2, r3, 2, 6, 3, 7);
      const x8 = v128.shuffle<i32>(t0, t1, 0, 1, 4, 5);
      const x9 = v128.shuffle<i32>(t0, t1, 2, 3, 6, 7);
      const x10 = v128.shuffle<i32>(t2, t3, 0, 1, 4, 5);
      const x11 = v128.shuffle<i32>(t2, t3, 2, 3, 6, 7);
      r0 = v128.load(p0 + 48); r1 = v128.load(p1 + 48); r2 = v128.load(p2 + 48); r3 = v128.load(p3 + 48);
      t0 = v128.shuffle<i32>(r0, r1, 0, 4, 1, 5); t1 = v128.shuffle<i32>(r2, r3, 0, 4, 1, 5);
      t2 = v128.shuffle<i32>(r0, r1, 2, 6, 3, 7); t3 = v128.shuffle<i32>(r2, r3, 2, 6, 3, 7);
      const x12 = v128.shuffle<i32>(t0, t1, 0, 1, 4, 5);
      const x13 = v128.shuffle<i32>(t0, t1, 2, 3, 6, 7);
      const x14 = v128.shuffle<i32>(t2, t3, 0, 1, 4, 5);
      const x15 = v128.shuffle<i32>(t2, t3, 2, 3, 6, 7);
      const sa = a, sb = b, sc = c, sd = d;
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xd76aa478)), x0), v128.xor(d, v128.and(b, v128.xor(c, d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 7), i32x4.shr_u(t, 25)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xe8c7b756)), x1), v128.xor(c, v128.and(a, v128.xor(b, c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 12), i32x4.shr_u(t, 20)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0x242070db)), x2), v128.xor(b, v128.and(d, v128.xor(a, b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 17), i32x4.shr_u(t, 15)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xc1bdceee)), x3), v128.xor(a, v128.and(c, v128.xor(d, a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 22), i32x4.shr_u(t, 10)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xf57c0faf)), x4), v128.xor(d, v128.and(b, v128.xor(c, d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 7), i32x4.shr_u(t, 25)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x4787c62a)), x5), v128.xor(c, v128.and(a, v128.xor(b, c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 12), i32x4.shr_u(t, 20)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xa8304613)), x6), v128.xor(b, v128.and(d, v128.xor(a, b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 17), i32x4.shr_u(t, 15)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xfd469501)), x7), v128.xor(a, v128.and(c, v128.xor(d, a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 22), i32x4.shr_u(t, 10)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0x698098d8)), x8), v128.xor(d, v128.and(b, v128.xor(c, d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 7), i32x4.shr_u(t, 25)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x8b44f7af)), x9), v128.xor(c, v128.and(a, v128.xor(b, c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 12), i32x4.shr_u(t, 20)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xffff5bb1)), x10), v128.xor(b, v128.and(d, v128.xor(a, b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 17), i32x4.shr_u(t, 15)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x895cd7be)), x11), v128.xor(a, v128.and(c, v128.xor(d, a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 22), i32x4.shr_u(t, 10)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0x6b901122)), x12), v128.xor(d, v128.and(b, v128.xor(c, d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 7), i32x4.shr_u(t, 25)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xfd987193)), x13), v128.xor(c, v128.and(a, v128.xor(b, c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 12), i32x4.shr_u(t, 20)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xa679438e)), x14), v128.xor(b, v128.and(d, v128.xor(a, b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 17), i32x4.shr_u(t, 15)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x49b40821)), x15), v128.xor(a, v128.and(c, v128.xor(d, a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 22), i32x4.shr_u(t, 10)), c);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xf61e2562)), x1), v128.andnot(c, d)), v128.and(b, d));
      a = i32x4.add(v128.or(i32x4.shl(t, 5), i32x4.shr_u(t, 27)), b);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xc040b340)), x6), v128.andnot(b, c)), v128.and(a, c));
      d = i32x4.add(v128.or(i32x4.shl(t, 9), i32x4.shr_u(t, 23)), a);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0x265e5a51)), x11), v128.andnot(a, b)), v128.and(d, b));
      c = i32x4.add(v128.or(i32x4.shl(t, 14), i32x4.shr_u(t, 18)), d);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xe9b6c7aa)), x0), v128.andnot(d, a)), v128.and(c, a));
      b = i32x4.add(v128.or(i32x4.shl(t, 20), i32x4.shr_u(t, 12)), c);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xd62f105d)), x5), v128.andnot(c, d)), v128.and(b, d));
      a = i32x4.add(v128.or(i32x4.shl(t, 5), i32x4.shr_u(t, 27)), b);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x02441453)), x10), v128.andnot(b, c)), v128.and(a, c));
      d = i32x4.add(v128.or(i32x4.shl(t, 9), i32x4.shr_u(t, 23)), a);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xd8a1e681)), x15), v128.andnot(a, b)), v128.and(d, b));
      c = i32x4.add(v128.or(i32x4.shl(t, 14), i32x4.shr_u(t, 18)), d);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xe7d3fbc8)), x4), v128.andnot(d, a)), v128.and(c, a));
      b = i32x4.add(v128.or(i32x4.shl(t, 20), i32x4.shr_u(t, 12)), c);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0x21e1cde6)), x9), v128.andnot(c, d)), v128.and(b, d));
      a = i32x4.add(v128.or(i32x4.shl(t, 5), i32x4.shr_u(t, 27)), b);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xc33707d6)), x14), v128.andnot(b, c)), v128.and(a, c));
      d = i32x4.add(v128.or(i32x4.shl(t, 9), i32x4.shr_u(t, 23)), a);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xf4d50d87)), x3), v128.andnot(a, b)), v128.and(d, b));
      c = i32x4.add(v128.or(i32x4.shl(t, 14), i32x4.shr_u(t, 18)), d);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x455a14ed)), x8), v128.andnot(d, a)), v128.and(c, a));
      b = i32x4.add(v128.or(i32x4.shl(t, 20), i32x4.shr_u(t, 12)), c);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xa9e3e905)), x13), v128.andnot(c, d)), v128.and(b, d));
      a = i32x4.add(v128.or(i32x4.shl(t, 5), i32x4.shr_u(t, 27)), b);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xfcefa3f8)), x2), v128.andnot(b, c)), v128.and(a, c));
      d = i32x4.add(v128.or(i32x4.shl(t, 9), i32x4.shr_u(t, 23)), a);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0x676f02d9)), x7), v128.andnot(a, b)), v128.and(d, b));
      c = i32x4.add(v128.or(i32x4.shl(t, 14), i32x4.shr_u(t, 18)), d);
      t = i32x4.add(i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x8d2a4c8a)), x12), v128.andnot(d, a)), v128.and(c, a));
      b = i32x4.add(v128.or(i32x4.shl(t, 20), i32x4.shr_u(t, 12)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xfffa3942)), x5), v128.xor(v128.xor(b, c), d));
      a = i32x4.add(v128.or(i32x4.shl(t, 4), i32x4.shr_u(t, 28)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x8771f681)), x8), v128.xor(v128.xor(a, b), c));
      d = i32x4.add(v128.or(i32x4.shl(t, 11), i32x4.shr_u(t, 21)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0x6d9d6122)), x11), v128.xor(v128.xor(d, a), b));
      c = i32x4.add(v128.or(i32x4.shl(t, 16), i32x4.shr_u(t, 16)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xfde5380c)), x14), v128.xor(v128.xor(c, d), a));
      b = i32x4.add(v128.or(i32x4.shl(t, 23), i32x4.shr_u(t, 9)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xa4beea44)), x1), v128.xor(v128.xor(b, c), d));
      a = i32x4.add(v128.or(i32x4.shl(t, 4), i32x4.shr_u(t, 28)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x4bdecfa9)), x4), v128.xor(v128.xor(a, b), c));
      d = i32x4.add(v128.or(i32x4.shl(t, 11), i32x4.shr_u(t, 21)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xf6bb4b60)), x7), v128.xor(v128.xor(d, a), b));
      c = i32x4.add(v128.or(i32x4.shl(t, 16), i32x4.shr_u(t, 16)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xbebfbc70)), x10), v128.xor(v128.xor(c, d), a));
      b = i32x4.add(v128.or(i32x4.shl(t, 23), i32x4.shr_u(t, 9)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0x289b7ec6)), x13), v128.xor(v128.xor(b, c), d));
      a = i32x4.add(v128.or(i32x4.shl(t, 4), i32x4.shr_u(t, 28)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xeaa127fa)), x0), v128.xor(v128.xor(a, b), c));
      d = i32x4.add(v128.or(i32x4.shl(t, 11), i32x4.shr_u(t, 21)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xd4ef3085)), x3), v128.xor(v128.xor(d, a), b));
      c = i32x4.add(v128.or(i32x4.shl(t, 16), i32x4.shr_u(t, 16)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x04881d05)), x6), v128.xor(v128.xor(c, d), a));
      b = i32x4.add(v128.or(i32x4.shl(t, 23), i32x4.shr_u(t, 9)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xd9d4d039)), x9), v128.xor(v128.xor(b, c), d));
      a = i32x4.add(v128.or(i32x4.shl(t, 4), i32x4.shr_u(t, 28)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xe6db99e5)), x12), v128.xor(v128.xor(a, b), c));
      d = i32x4.add(v128.or(i32x4.shl(t, 11), i32x4.shr_u(t, 21)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0x1fa27cf8)), x15), v128.xor(v128.xor(d, a), b));
      c = i32x4.add(v128.or(i32x4.shl(t, 16), i32x4.shr_u(t, 16)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xc4ac5665)), x2), v128.xor(v128.xor(c, d), a));
      b = i32x4.add(v128.or(i32x4.shl(t, 23), i32x4.shr_u(t, 9)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xf4292244)), x0), v128.xor(c, v128.or(b, v128.not(d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 6), i32x4.shr_u(t, 26)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x432aff97)), x7), v128.xor(b, v128.or(a, v128.not(c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 10), i32x4.shr_u(t, 22)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xab9423a7)), x14), v128.xor(a, v128.or(d, v128.not(b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 15), i32x4.shr_u(t, 17)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xfc93a039)), x5), v128.xor(d, v128.or(c, v128.not(a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 21), i32x4.shr_u(t, 11)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0x655b59c3)), x12), v128.xor(c, v128.or(b, v128.not(d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 6), i32x4.shr_u(t, 26)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0x8f0ccc92)), x3), v128.xor(b, v128.or(a, v128.not(c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 10), i32x4.shr_u(t, 22)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xffeff47d)), x10), v128.xor(a, v128.or(d, v128.not(b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 15), i32x4.shr_u(t, 17)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x85845dd1)), x1), v128.xor(d, v128.or(c, v128.not(a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 21), i32x4.shr_u(t, 11)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0x6fa87e4f)), x8), v128.xor(c, v128.or(b, v128.not(d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 6), i32x4.shr_u(t, 26)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xfe2ce6e0)), x15), v128.xor(b, v128.or(a, v128.not(c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 10), i32x4.shr_u(t, 22)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0xa3014314)), x6), v128.xor(a, v128.or(d, v128.not(b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 15), i32x4.shr_u(t, 17)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0x4e0811a1)), x13), v128.xor(d, v128.or(c, v128.not(a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 21), i32x4.shr_u(t, 11)), c);
      t = i32x4.add(i32x4.add(i32x4.add(a, i32x4.splat(0xf7537e82)), x4), v128.xor(c, v128.or(b, v128.not(d))));
      a = i32x4.add(v128.or(i32x4.shl(t, 6), i32x4.shr_u(t, 26)), b);
      t = i32x4.add(i32x4.add(i32x4.add(d, i32x4.splat(0xbd3af235)), x11), v128.xor(b, v128.or(a, v128.not(c))));
      d = i32x4.add(v128.or(i32x4.shl(t, 10), i32x4.shr_u(t, 22)), a);
      t = i32x4.add(i32x4.add(i32x4.add(c, i32x4.splat(0x2ad7d2bb)), x2), v128.xor(a, v128.or(d, v128.not(b))));
      c = i32x4.add(v128.or(i32x4.shl(t, 15), i32x4.shr_u(t, 17)), d);
      t = i32x4.add(i32x4.add(i32x4.add(b, i32x4.splat(0xeb86d391)), x9), v128.xor(d, v128.or(c, v128.not(a))));
      b = i32x4.add(v128.or(i32x4.shl(t, 21), i32x4.shr_u(t, 11)), c);
      a = i32x4.add(a, sa);
      b = i32x4.add(b, sb);
      c = i32x4.add(c, sc);
      d = i32x4.add(d, sd);
    }
    u0 = v128.shuffle<i32>(a, b, 0, 4, 1, 5); u1 = v128.shuffle<i32>(c, d, 0, 4, 1, 5);
    u2 = v128.shuffle<i32>(a, b, 2, 6, 3, 7); u3 = v128.shuffle<i32>(c, d, 2, 6, 3, 7);
    v128.store(states, v128.shuffle<i32>(u0, u1, 0, 1, 4, 5));
    v128.store(states, v128.shuffle<i32>(u0, u1, 2, 3, 6, 7), 16);
    v128.store(states, v128.shuffle<i32>(u2, u3, 0, 1, 4, 5), 32);
    v128.store(states, v128.shuffle<i32>(u2, u3, 2, 3, 6, 7), 48);
  } else {
    for (let lane: usize = 0; lane < 4; lane++) {
      setState(states + 16 * lane);
      blocks(lane == 0 ? p0 : lane == 1 ? p1 : lane == 2 ? p2 : p3, count);
      state(states + 16 * lane);
    }
  }
}
