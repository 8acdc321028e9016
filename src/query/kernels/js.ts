/**
 * The plain-JS kernels: the reference the WASM builds are tested against, and the fallback where
 * WebAssembly is missing. 64-bit values are handled as two u32 halves (exact, no BigInt).
 */
import type { QueryKernels } from './api.js';

const NOT_ISSUED = 1;
const END_BEFORE_BEGIN = 2;
const TWO_32 = 4294967296;

const u32s = (b: Uint8Array) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
const f64s = (b: Uint8Array) => new Float64Array(b.buffer, b.byteOffset, b.byteLength >>> 3);

export const jsKernels: QueryKernels = {
  name: 'js',

  durations(input, count, consecutive, scale, ticks, ns, flags) {
    const src = u32s(input);
    const t = u32s(ticks);
    const n = f64s(ns);
    const step = consecutive ? 2 : 4;
    for (let i = 0, s = 0; i < count; i++, s += step) {
      const bl = src[s]!, bh = src[s + 1]!, el = src[s + 2]!, eh = src[s + 3]!;
      let flag = 0;
      if ((bl | bh) === 0 || (el | eh) === 0) flag = NOT_ISSUED;
      else if (eh < bh || (eh === bh && el < bl)) flag = END_BEFORE_BEGIN;
      flags[i] = flag;
      if (flag) {
        t[2 * i] = 0;
        t[2 * i + 1] = 0;
        n[i] = NaN;
        continue;
      }
      const lo = (el - bl) >>> 0;
      const hi = (eh - bh - (el < bl ? 1 : 0)) >>> 0;
      t[2 * i] = lo;
      t[2 * i + 1] = hi;
      n[i] = (hi * TWO_32 + lo) * scale; // one rounding, as f64.convert_i64_u
    }
  },

  sumRecords(input, records, fields, out) {
    // one pass over the records; running sums as 32-bit halves with carry
    const src = u32s(input);
    const lo = new Float64Array(fields);
    const hi = new Uint32Array(fields);
    for (let r = 0, at = 0; r < records; r++) {
      for (let f = 0; f < fields; f++, at += 2) {
        const sum = lo[f]! + src[at]!;
        if (sum > 0xffffffff) {
          lo[f] = sum - 4294967296;
          hi[f] = (hi[f]! + src[at + 1]! + 1) >>> 0;
        } else {
          lo[f] = sum;
          hi[f] = (hi[f]! + src[at + 1]!) >>> 0;
        }
      }
    }
    const o = u32s(out);
    for (let f = 0; f < fields; f++) {
      o[2 * f] = lo[f]!;
      o[2 * f + 1] = hi[f]!;
    }
  },

  subtract(a, b, words, out) {
    const x = u32s(a);
    const y = u32s(b);
    const o = u32s(out);
    for (let i = 0; i < 2 * words; i += 2) {
      const lo = x[i]! - y[i]!;
      o[i] = lo >>> 0;
      o[i + 1] = (x[i + 1]! - y[i + 1]! - (lo < 0 ? 1 : 0)) >>> 0;
    }
  },

  soOverflow(input, records, flags) {
    const src = u32s(input);
    let overflowed = 0;
    for (let i = 0, at = 0; i < records; i++, at += 4) {
      const wl = src[at]!, wh = src[at + 1]!, nl = src[at + 2]!, nh = src[at + 3]!;
      const o = nh > wh || (nh === wh && nl > wl) ? 1 : 0;
      flags[i] = o;
      overflowed += o;
    }
    return overflowed;
  },

  binaryOcclusion(input, count, out) {
    const src = u32s(input);
    const o = u32s(out);
    let visible = 0;
    for (let i = 0; i < 2 * count; i += 2) {
      const b = (src[i]! | src[i + 1]!) !== 0 ? 1 : 0;
      o[i] = b;
      o[i + 1] = 0;
      visible += b;
    }
    return visible;
  },

  gatherSum(src, srcCount, fields, map, mapCount, heads, dst, dstCount) {
    const s = u32s(src);
    const m = u32s(map);
    const d = u32s(dst);
    const words = fields * 2;
    let steps = 0;
    for (let h = 0; h < heads; h++) {
      const di = m[h * 3]!;
      const si = m[h * 3 + 1]!;
      if (di >= dstCount || si >= srcCount) return h + 1;
      const out = di * words;
      d.set(s.subarray(si * words, si * words + words), out);
      let next = m[h * 3 + 2]!;
      while (next !== 0xffffffff) {
        if (next >= mapCount || ++steps > mapCount) return h + 1;
        const sj = m[next * 3 + 1]!;
        if (sj >= srcCount) return next + 1;
        for (let w = 0, from = sj * words; w < words; w += 2) {
          const lo = d[out + w]! + s[from + w]!;
          d[out + w] = lo >>> 0;
          d[out + w + 1] = (d[out + w + 1]! + s[from + w + 1]! + (lo > 0xffffffff ? 1 : 0)) >>> 0;
        }
        next = m[next * 3 + 2]!;
      }
    }
    return 0;
  },
};
