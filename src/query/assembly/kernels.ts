// AssemblyScript: the query-result hot loops, built twice from this one source (scripts/build-wasm.mjs):
// with SIMD (ASC_FEATURE_SIMD true) and without. Pointers are byte offsets into this module's
// memory; the JS side (src/query/kernels/wasm.ts) owns allocation. All 64-bit arithmetic wraps.
// Results must equal src/query/kernels/js.ts bit for bit (test/query.test.ts checks all three).

const NOT_ISSUED: u8 = 1;
const END_BEFORE_BEGIN: u8 = 2;

/**
 * Timestamp pairs (consecutive == 0: [begin, end] per pair; otherwise marks t[i], t[i+1]) to
 * durations: ticks = end - begin, ns = f64(ticks) * scale. A pair with a zero stamp or with
 * end < begin gets its flag, ticks 0 and ns NaN.
 */
export function durations(src: usize, count: u32, consecutive: u32, scale: f64, ticks: usize, ns: usize, flags: usize): void {
  const step: usize = consecutive ? 8 : 16;
  let i: u32 = 0;
  if (ASC_FEATURE_SIMD) {
    const zero = i64x2.splat(0);
    const sign = i64x2.splat(i64.MIN_VALUE);
    const nan = f64x2.splat(NaN);
    const s = f64x2.splat(scale);
    const one = i64x2.splat(NOT_ISSUED);
    const two = i64x2.splat(END_BEFORE_BEGIN);
    for (; i + 1 < count; i += 2) {
      const at = src + <usize>i * step;
      let b: v128, e: v128;
      if (consecutive) {
        b = v128.load(at);
        e = v128.load(at + 8);
      } else {
        const p0 = v128.load(at);
        const p1 = v128.load(at + 16);
        b = v128.shuffle<i64>(p0, p1, 0, 2);
        e = v128.shuffle<i64>(p0, p1, 1, 3);
      }
      const notIssued = v128.or(i64x2.eq(b, zero), i64x2.eq(e, zero));
      const before = i64x2.lt_s(v128.xor(e, sign), v128.xor(b, sign));
      const bad = v128.or(notIssued, before);
      const d = v128.andnot(i64x2.sub(e, b), bad);
      v128.store(ticks + <usize>i * 8, d);
      // no SIMD u64 -> f64 conversion exists: convert per lane, multiply as a pair
      const lanes = f64x2.replace_lane(f64x2.splat(<f64>(<u64>i64x2.extract_lane(d, 0))), 1, <f64>(<u64>i64x2.extract_lane(d, 1)));
      const f = f64x2.mul(lanes, s);
      v128.store(ns + <usize>i * 8, v128.bitselect(nan, f, bad));
      // flag per lane without branches: NOT_ISSUED wins over END_BEFORE_BEGIN
      const fl = v128.or(v128.and(notIssued, one), v128.andnot(v128.and(before, two), notIssued));
      store<u8>(flags + i, i8x16.extract_lane_u(fl, 0));
      store<u8>(flags + i + 1, i8x16.extract_lane_u(fl, 8));
    }
  }
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
