/**
 * Seeded random root signatures for the vkd3d differential test: descriptions that follow the
 * main D3D12 rules (docs/json-form.md names the fields) with edge values mixed in, so that vkd3d
 * serializes them and dxbin's converter and HLSL printer have real work. Item i depends only on
 * (seed, i): a failing item is reproduced with randomRootSignature(seed, i, versions).
 */
import type { DescriptorRange, RootParameter, RootSignature, StaticSampler } from '../../src/index.js';

/** A small seeded PRNG (32-bit state, multiply-xorshift output); not for anything but tests. */
class Random {
  constructor(private state: number) {}
  /** A u32. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  }
  /** An integer in [lo, hi] (hi - lo < 2^32). */
  between(lo: number, hi: number): number {
    const span = hi - lo + 1;
    return lo + Math.floor((this.next() * 0x100000000 + this.next()) % span);
  }
  chance(num: number, den: number): boolean {
    return this.next() % den < num;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.next() % list.length]!;
  }
  /** One of the values, by weight. */
  weighted<T>(pairs: readonly (readonly [() => T, number])[]): T {
    let r = this.next() % pairs.reduce((n, [, w]) => n + w, 0);
    for (const [make, w] of pairs) {
      if (r < w) return make();
      r -= w;
    }
    throw new Error('unreachable');
  }
  /** An f32 in [lo, hi], or one of the specials a third of the time. */
  float(lo: number, hi: number, specials: readonly number[]): number {
    if (this.chance(1, 3)) return this.pick(specials);
    return Math.fround(lo + ((hi - lo) * this.next()) / 0x100000000);
  }
}

const APPEND = 0xffffffff;
const UNBOUNDED = 0xffffffff;
const FLT_MAX = 3.4028234663852886e38;
/** The D3D12_FILTER values D3D12 defines (point/linear per stage, anisotropic; the four reduction kinds). */
const FILTERS = [0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15, 0x55].flatMap((f) => [f, f | 0x80, f | 0x100, f | 0x180]);
/** Descriptor range flags D3D12 allows on CBV/SRV/UAV ranges, and on sampler ranges. */
const VIEW_RANGE_FLAGS = [0x0, 0x1, 0x2, 0x4, 0x8, 0x3, 0x5, 0x10000] as const;
const SAMPLER_RANGE_FLAGS = [0x0, 0x1] as const;
const ROOT_DESCRIPTOR_FLAGS = [0x0, 0x2, 0x4, 0x8] as const;

const register = (r: Random) => r.weighted([[() => r.between(0, 15), 8], [() => r.between(16, 1023), 2], [() => r.between(1024, 0x7fffffff), 1]]);
const space = (r: Random) => r.weighted([[() => 0, 6], [() => r.between(1, 8), 3], [() => r.between(9, 0xffffffef), 1]]);
const visibility = (r: Random) => r.weighted([[() => 0, 5], [() => r.between(1, 5), 4], [() => r.between(6, 7), 1]]);

function ranges(r: Random, v11: boolean): DescriptorRange[] {
  const samplers = r.chance(1, 4);
  const count = r.between(1, 5);
  return Array.from({ length: count }, (_, j) => ({
    rangeType: samplers ? 3 : r.between(0, 2),
    numDescriptors: j === count - 1 && r.chance(1, 6) ? UNBOUNDED : r.weighted([[() => r.between(1, 8), 8], [() => r.between(9, 4096), 2]]),
    baseShaderRegister: register(r),
    registerSpace: space(r),
    flags: v11 ? r.pick(samplers ? SAMPLER_RANGE_FLAGS : VIEW_RANGE_FLAGS) : 0,
    offsetInDescriptorsFromTableStart: r.chance(2, 3) ? APPEND : r.between(0, 64),
  }));
}

function parameter(r: Random, v11: boolean): RootParameter {
  const type = r.weighted([[() => 0, 4], [() => 1, 2], [() => 2, 2], [() => 3, 1], [() => 4, 1]]);
  const shaderVisibility = visibility(r);
  if (type === 0) return { parameterType: 0, shaderVisibility, ranges: ranges(r, v11) };
  if (type === 1) return { parameterType: 1, shaderVisibility, constants: { shaderRegister: register(r), registerSpace: space(r), num32BitValues: r.weighted([[() => r.between(1, 16), 5], [() => r.between(17, 64), 1]]) } };
  return { parameterType: type as 2 | 3 | 4, shaderVisibility, descriptor: { shaderRegister: register(r), registerSpace: space(r), flags: v11 ? r.pick(ROOT_DESCRIPTOR_FLAGS) : 0 } };
}

function sampler(r: Random): StaticSampler {
  const filter = r.pick(FILTERS);
  const addressU = r.between(1, 5), addressV = r.between(1, 5), addressW = r.between(1, 5);
  const mipLODBias = r.float(-16, 15.99, [0, 1, -0.5, 0.25]);
  const maxAnisotropy = r.between(0, 16);
  const comparisonFunc = r.between(1, 8);
  const borderColor = r.between(0, 2);
  const minLOD = r.float(0, 16, [0, 1, 2.5]);
  const maxLOD = r.chance(1, 2) ? FLT_MAX : Math.max(minLOD, r.float(minLOD, 32, [minLOD, 16]));
  return { filter, addressU, addressV, addressW, mipLODBias, maxAnisotropy, comparisonFunc, borderColor, minLOD, maxLOD, shaderRegister: register(r), registerSpace: space(r), shaderVisibility: visibility(r), flags: 0 };
}

/** Item `index` of the sequence `seed`, at one of `versions` (1 = 1.0, 2 = 1.1). */
export function randomRootSignature(seed: number, index: number, versions: readonly (1 | 2)[]): RootSignature {
  const r = new Random((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) | 0);
  r.next();
  const version = r.pick(versions);
  let flags = 0;
  for (let bit = 0; bit < 12; bit++) if (r.chance(1, 5)) flags |= 1 << bit;
  const parameters = Array.from({ length: r.between(0, 8) }, () => parameter(r, version >= 2));
  const staticSamplers = Array.from({ length: r.between(0, 4) }, () => sampler(r));
  return { version, flags, parameters, staticSamplers };
}
