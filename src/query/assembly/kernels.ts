// AssemblyScript: the query-result hot loops, built twice from this one source (scripts/build-wasm.mjs):
// with SIMD (ASC_FEATURE_SIMD true) and without. Pointers are byte offsets into this module's
// memory; the JS side (src/query/kernels/wasm.ts) owns allocation. All 64-bit arithmetic wraps.
// Results must equal src/query/kernels/js.ts bit for bit (test/query.test.ts checks all three).

const NOT_ISSUED: u8 = 1;
const END_BEFORE_BEGIN: u8 = 2;

// Vector constants, read from memory once per call: the engine then keeps them in registers
// instead of rebuilding each one in every iteration (it does that for constants in the loop).
const VECTORS = memory.data<u64>([
  0x8000000000000000, 0x8000000000000000, // sign bit: unsigned compare as signed
  0x4530000000000000, 0x4530000000000000, // 2^84 as f64 bits
  0x4330000000000000, 0x4330000000000000, // 2^52 as f64 bits
  0x4530000000100000, 0x4530000000100000, // 2^84 + 2^52 as f64 bits
  0x7ff8000000000000, 0x7ff8000000000000, // the NaN of a flagged duration
  0x0002000200020002, 0x0002000200020002, // END_BEFORE_BEGIN in each i16 lane
  0xfff0000000000000, 0xfff0000000000000, // the bits at 2^52 and above
]);

/** End of this module's static data: the JS side places its buffers after it. */
export function dataEnd(): usize {
  return __heap_base;
}

/**
 * Timestamp pairs (consecutive == 0: [begin, end] per pair; otherwise marks t[i], t[i+1]) to
 * durations: ticks = end - begin, ns = f64(ticks) * scale. A pair with a zero stamp or with
 * end < begin gets its flag, ticks 0 and ns NaN.
 *
 * SIMD: eight durations per step. Wasm has no SIMD u64 -> f64 conversion; where every tick count
 * of the step is below 2^52 (always, in practice) it is exact as (2^52 | ticks) - 2^52, else
 * the high and low 32-bit halves become exact doubles (2^84 + hi * 2^32 and 2^52 + lo), the
 * offsets cancel exactly and one add rounds hi * 2^32 + lo once, to nearest even: both give what
 * f64.convert_i64_u gives, bit for bit.
 */
export function durations(src: usize, count: u32, consecutive: u32, scale: f64, ticks: usize, ns: usize, flags: usize): void {
  let i: u32 = 0;
  if (ASC_FEATURE_SIMD) {
    const sign = v128.load(VECTORS), two84 = v128.load(VECTORS, 16), two52 = v128.load(VECTORS, 32), offset = v128.load(VECTORS, 48);
    const nan = v128.load(VECTORS, 64), two = v128.load(VECTORS, 80), high = v128.load(VECTORS, 96);
    const s = f64x2.splat(scale);
    const zero = i64x2.splat(0);
    const step: usize = consecutive ? 8 : 16;
    for (; i + 7 < count; i += 8) {
      const at = src + <usize>i * step;
      const t = ticks + <usize>i * 8;
      const n = ns + <usize>i * 8;
      let b0: v128, e0: v128, b1: v128, e1: v128, b2: v128, e2: v128, b3: v128, e3: v128;
      if (consecutive) {
        b0 = v128.load(at); e0 = v128.load(at, 8); b1 = v128.load(at, 16); e1 = v128.load(at, 24);
        b2 = v128.load(at, 32); e2 = v128.load(at, 40); b3 = v128.load(at, 48); e3 = v128.load(at, 56);
      } else {
        let p = v128.load(at), q = v128.load(at, 16);
        b0 = v128.shuffle<i64>(p, q, 0, 2); e0 = v128.shuffle<i64>(p, q, 1, 3);
        p = v128.load(at, 32); q = v128.load(at, 48);
        b1 = v128.shuffle<i64>(p, q, 0, 2); e1 = v128.shuffle<i64>(p, q, 1, 3);
        p = v128.load(at, 64); q = v128.load(at, 80);
        b2 = v128.shuffle<i64>(p, q, 0, 2); e2 = v128.shuffle<i64>(p, q, 1, 3);
        p = v128.load(at, 96); q = v128.load(at, 112);
        b3 = v128.shuffle<i64>(p, q, 0, 2); e3 = v128.shuffle<i64>(p, q, 1, 3);
      }
      // masks per lane: never issued (a zero stamp), bad (never issued, or end < begin unsigned)
      const ni0 = v128.or(i64x2.eq(b0, zero), i64x2.eq(e0, zero));
      const ni1 = v128.or(i64x2.eq(b1, zero), i64x2.eq(e1, zero));
      const ni2 = v128.or(i64x2.eq(b2, zero), i64x2.eq(e2, zero));
      const ni3 = v128.or(i64x2.eq(b3, zero), i64x2.eq(e3, zero));
      const bad0 = v128.or(ni0, i64x2.lt_s(v128.xor(e0, sign), v128.xor(b0, sign)));
      const bad1 = v128.or(ni1, i64x2.lt_s(v128.xor(e1, sign), v128.xor(b1, sign)));
      const bad2 = v128.or(ni2, i64x2.lt_s(v128.xor(e2, sign), v128.xor(b2, sign)));
      const bad3 = v128.or(ni3, i64x2.lt_s(v128.xor(e3, sign), v128.xor(b3, sign)));
      const d0 = v128.andnot(i64x2.sub(e0, b0), bad0);
      const d1 = v128.andnot(i64x2.sub(e1, b1), bad1);
      const d2 = v128.andnot(i64x2.sub(e2, b2), bad2);
      const d3 = v128.andnot(i64x2.sub(e3, b3), bad3);
      v128.store(t, d0);
      v128.store(t, d1, 16);
      v128.store(t, d2, 32);
      v128.store(t, d3, 48);
      let v0: v128, v1: v128, v2: v128, v3: v128;
      if (!v128.any_true(v128.and(v128.or(v128.or(d0, d1), v128.or(d2, d3)), high))) {
        v0 = f64x2.sub(v128.or(d0, two52), two52);
        v1 = f64x2.sub(v128.or(d1, two52), two52);
        v2 = f64x2.sub(v128.or(d2, two52), two52);
        v3 = f64x2.sub(v128.or(d3, two52), two52);
      } else {
        v0 = f64x2.add(f64x2.sub(v128.or(i64x2.shr_u(d0, 32), two84), offset), v128.shuffle<i32>(d0, two52, 0, 5, 2, 7));
        v1 = f64x2.add(f64x2.sub(v128.or(i64x2.shr_u(d1, 32), two84), offset), v128.shuffle<i32>(d1, two52, 0, 5, 2, 7));
        v2 = f64x2.add(f64x2.sub(v128.or(i64x2.shr_u(d2, 32), two84), offset), v128.shuffle<i32>(d2, two52, 0, 5, 2, 7));
        v3 = f64x2.add(f64x2.sub(v128.or(i64x2.shr_u(d3, 32), two84), offset), v128.shuffle<i32>(d3, two52, 0, 5, 2, 7));
      }
      v128.store(n, v128.bitselect(nan, f64x2.mul(v0, s), bad0));
      v128.store(n, v128.bitselect(nan, f64x2.mul(v1, s), bad1), 16);
      v128.store(n, v128.bitselect(nan, f64x2.mul(v2, s), bad2), 32);
      v128.store(n, v128.bitselect(nan, f64x2.mul(v3, s), bad3), 48);
      // eight flag bytes: the masks narrowed to i16 lanes, NOT_ISSUED (1) winning over
      // END_BEFORE_BEGIN (2) as (bad & 2) + notIssued, notIssued being 0 or -1
      const bad = i16x8.narrow_i32x4_s(v128.shuffle<i32>(bad0, bad1, 0, 2, 4, 6), v128.shuffle<i32>(bad2, bad3, 0, 2, 4, 6));
      const ni = i16x8.narrow_i32x4_s(v128.shuffle<i32>(ni0, ni1, 0, 2, 4, 6), v128.shuffle<i32>(ni2, ni3, 0, 2, 4, 6));
      const f = i16x8.add(v128.and(bad, two), ni);
      store<u64>(flags + i, i64x2.extract_lane(i8x16.narrow_i16x8_u(f, f), 0));
    }
  }
  const step: usize = consecutive ? 8 : 16;
  for (; i < count; i++) {
    const at = src + <usize>i * step;
    const b = load<u64>(at);
    const e = load<u64>(at + 8);
    let flag: u8 = 0;
    if (b == 0 || e == 0) flag = NOT_ISSUED;
    else if (e < b) flag = END_BEFORE_BEGIN;
    const d: u64 = flag ? 0 : e - b;
    store<u64>(ticks + <usize>i * 8, d);
    store<f64>(ns + <usize>i * 8, flag ? NaN : <f64>d * scale);
    store<u8>(flags + i, flag);
  }
}

/**
 * Field-wise sums of `records` records of `fields` u64 fields each (stride fields * 8), in one
 * pass over the records: the running sums live in `out` (a few cache lines), so memory is read once.
 */
export function sumRecords(src: usize, records: u32, fields: u32, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    // the field counts of the counter queries (OCCLUSION 1, SO_STATISTICS 2, PIPELINE_STATISTICS
    // 11, PIPELINE_STATISTICS1 14): running sums in registers, not in memory
    if (fields == 11) return sumFixed(src, records, 11, out);
    if (fields == 14) return sumFixed(src, records, 14, out);
    if (fields == 2) return sumFixed(src, records, 2, out);
    if (fields == 1) return sumFixed(src, records, 1, out);
  }
  const stride: usize = <usize>fields * 8;
  memory.fill(out, 0, stride);
  let at = src;
  if (ASC_FEATURE_SIMD) {
    const pairs: usize = (<usize>fields >> 1) << 4;
    for (let r: u32 = 0; r < records; r++) {
      let f: usize = 0;
      for (; f < pairs; f += 16) v128.store(out + f, i64x2.add(v128.load(out + f), v128.load(at + f)));
      if (f < stride) store<u64>(out + f, load<u64>(out + f) + load<u64>(at + f));
      at += stride;
    }
    return;
  }
  for (let r: u32 = 0; r < records; r++) {
    for (let f: usize = 0; f < stride; f += 8) store<u64>(out + f, load<u64>(out + f) + load<u64>(at + f));
    at += stride;
  }
}

/**
 * sumRecords for a constant field count up to 16 (inlined with a constant, so the unused sums and
 * their tests fold away): the running sums are up to eight i64x2 locals and one u64.
 */
@inline
function sumFixed(src: usize, records: u32, fields: u32, out: usize): void {
  const stride: usize = <usize>fields * 8;
  const vectors = fields >> 1;
  let a0 = i64x2.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  let odd: u64 = 0;
  let at = src;
  for (let r: u32 = 0; r < records; r++) {
    if (vectors > 0) a0 = i64x2.add(a0, v128.load(at));
    if (vectors > 1) a1 = i64x2.add(a1, v128.load(at, 16));
    if (vectors > 2) a2 = i64x2.add(a2, v128.load(at, 32));
    if (vectors > 3) a3 = i64x2.add(a3, v128.load(at, 48));
    if (vectors > 4) a4 = i64x2.add(a4, v128.load(at, 64));
    if (vectors > 5) a5 = i64x2.add(a5, v128.load(at, 80));
    if (vectors > 6) a6 = i64x2.add(a6, v128.load(at, 96));
    if (vectors > 7) a7 = i64x2.add(a7, v128.load(at, 112));
    if (fields & 1) odd += load<u64>(at + <usize>vectors * 16);
    at += stride;
  }
  if (vectors > 0) v128.store(out, a0);
  if (vectors > 1) v128.store(out, a1, 16);
  if (vectors > 2) v128.store(out, a2, 32);
  if (vectors > 3) v128.store(out, a3, 48);
  if (vectors > 4) v128.store(out, a4, 64);
  if (vectors > 5) v128.store(out, a5, 80);
  if (vectors > 6) v128.store(out, a6, 96);
  if (vectors > 7) v128.store(out, a7, 112);
  if (fields & 1) store<u64>(out + <usize>vectors * 16, odd);
}

/** out[i] = a[i] - b[i] over `words` u64 values (field-wise deltas). */
export function subtract(a: usize, b: usize, words: u32, out: usize): void {
  let i: u32 = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 1 < words; i += 2) {
      const o: usize = <usize>i * 8;
      v128.store(out + o, i64x2.sub(v128.load(a + o), v128.load(b + o)));
    }
  }
  for (; i < words; i++) {
    const o: usize = <usize>i * 8;
    store<u64>(out + o, load<u64>(a + o) - load<u64>(b + o));
  }
}

/** Per SO_STATISTICS record: 1 when PrimitivesStorageNeeded > NumPrimitivesWritten (the stream overflowed). */
export function soOverflow(src: usize, records: u32, flags: usize): u32 {
  let overflowed: u32 = 0;
  for (let i: u32 = 0; i < records; i++) {
    const at = src + <usize>i * 16;
    const o: u8 = load<u64>(at + 8) > load<u64>(at) ? 1 : 0;
    store<u8>(flags + i, o);
    overflowed += o;
  }
  return overflowed;
}

/** Occlusion counts to BINARY_OCCLUSION's 0/1 (as vkd3d-proton's resolve shader does); returns how many are visible. */
export function binaryOcclusion(src: usize, count: u32, out: usize): u32 {
  let visible: u32 = 0;
  let i: u32 = 0;
  if (ASC_FEATURE_SIMD) {
    const zero = i64x2.splat(0);
    const one = i64x2.splat(1);
    for (; i + 1 < count; i += 2) {
      const v = v128.load(src + <usize>i * 8);
      const b = v128.andnot(one, i64x2.eq(v, zero));
      v128.store(out + <usize>i * 8, b);
      visible += <u32>(i64x2.extract_lane(b, 0) + i64x2.extract_lane(b, 1));
    }
  }
  for (; i < count; i++) {
    const b: u64 = load<u64>(src + <usize>i * 8) != 0 ? 1 : 0;
    store<u64>(out + <usize>i * 8, b);
    visible += <u32>b;
  }
  return visible;
}

/**
 * vkd3d-proton's gather: `map` holds 12-byte entries {dst, src, next}; the first `heads` are
 * chain heads. For each head, the source record is copied and every chained record added, and the
 * sum stored at dst record `dst`. Returns 0, or 1 + the entry index of a bad index or a cycle.
 */
export function gatherSum(src: usize, srcCount: u32, fields: u32, map: usize, mapCount: u32, heads: u32, dst: usize, dstCount: u32): u32 {
  const stride: usize = <usize>fields * 8;
  let steps: u32 = 0;
  for (let h: u32 = 0; h < heads; h++) {
    const entry = map + <usize>h * 12;
    const d = load<u32>(entry);
    const s = load<u32>(entry + 4);
    if (d >= dstCount || s >= srcCount) return h + 1;
    const out = dst + <usize>d * stride;
    memory.copy(out, src + <usize>s * stride, stride);
    let next = load<u32>(entry + 8);
    while (next != 0xffffffff) {
      if (next >= mapCount || ++steps > mapCount) return h + 1;
      const e = map + <usize>next * 12;
      const si = load<u32>(e + 4);
      if (si >= srcCount) return next + 1;
      const from = src + <usize>si * stride;
      for (let f: usize = 0; f < stride; f += 8) store<u64>(out + f, load<u64>(out + f) + load<u64>(from + f));
      next = load<u32>(e + 8);
    }
  }
  return 0;
}
