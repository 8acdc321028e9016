/**
 * Query resolve from a caller's JS buffer: the WASM kernels stream large inputs through their
 * scratch block (issue 15). Inputs of several blocks, odd counts and both duration modes must give
 * exactly what the JS kernels give, and the module's memory must not grow with the input.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deltaQueryResults, kernels, occlusionToBinary, soOverflow, sumQueryResults, timestampDurations, type WasmKernels } from '../src/query/index.js';
import { BLOCK_BYTES } from '../src/query/kernels/wasm.js';

/** Deterministic u64 words: mostly small increasing stamps, with zeros and wrap-arounds mixed in. */
function words(n: number, seed: number): Uint8Array {
  const out = new BigUint64Array(n);
  let x = BigInt(seed) | 1n;
  for (let i = 0; i < n; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    const r = Number(x >> 56n);
    out[i] = r < 8 ? 0n : r < 16 ? x : BigInt(1_000_000 + i * 1000) + (x % 5000n);
  }
  return new Uint8Array(out.buffer);
}

const SIZES = [0, 1, 8191, 8192 * 3 + 5, 100_001];

test('durations streamed from JS memory equal the JS kernels (pairs and marks, across blocks)', () => {
  for (const name of ['simd', 'scalar'] as const) {
    const k = kernels(name) as WasmKernels;
    k.reset();
    for (const pairs of SIZES) {
      const bytes = words(pairs * 2 + 1, pairs);
      for (const mode of [true, false]) {
        const input = mode ? bytes.subarray(0, pairs * 16) : bytes.subarray(0, (pairs + 1) * 8);
        const want = timestampDurations(input, { frequency: 24e6, pairs: mode, kernels: kernels('js') });
        const got = timestampDurations(input, { frequency: 24e6, pairs: mode, kernels: k });
        assert.is(got.count, want.count);
        assert.equal(new Uint8Array(got.ticks.buffer, got.ticks.byteOffset, got.count * 8), new Uint8Array(want.ticks.buffer, want.ticks.byteOffset, want.count * 8), `${name} ${pairs} ticks`);
        assert.equal(new Uint8Array(got.ns.buffer, got.ns.byteOffset, got.count * 8), new Uint8Array(want.ns.buffer, want.ns.byteOffset, want.count * 8), `${name} ${pairs} ns`);
        assert.equal(got.flags, want.flags, `${name} ${pairs} flags`);
      }
    }
  }
});

test('durations streamed in blocks equal one call on the same bytes in WASM memory, at sizes around the block size', () => {
  // a block holds BLOCK_BYTES of input and outputs: 16 + 8 + 8 + 1 bytes a pair, 8 + 17 a mark
  const pairBlock = Math.floor(BLOCK_BYTES / 33);
  const markBlock = Math.floor(BLOCK_BYTES / 25);
  const around = (block: number) => [block - 9, block - 8, block - 1, block, block + 1, block + 7, block + 8, 2 * block - 1, 2 * block, 2 * block + 3];
  const k = kernels('simd') as WasmKernels;
  for (const pairs of [true, false]) {
    for (const count of around(pairs ? pairBlock : markBlock)) {
      const stamps = pairs ? count * 2 : count + 1;
      const bytes = words(stamps, count);
      k.reset();
      const wIn = k.allocate(stamps * 8);
      const wOut = { ticks: k.allocate(count * 8), ns: k.allocate(count * 8), flags: k.allocate(count) };
      wIn.bytes.set(bytes);
      const oneShot = timestampDurations(wIn.bytes, { frequency: 19.2e6, pairs, kernels: k, out: { ticks: wOut.ticks.bytes, ns: wOut.ns.bytes, flags: wOut.flags.bytes } });
      const streamed = timestampDurations(bytes, { frequency: 19.2e6, pairs, kernels: k });
      const js = timestampDurations(bytes, { frequency: 19.2e6, pairs, kernels: kernels('js') });
      for (const d of [streamed, js]) {
        assert.is(d.count, count);
        assert.equal(new Uint8Array(d.ticks.buffer, d.ticks.byteOffset, count * 8), wOut.ticks.bytes, `${count} ${pairs} ticks`);
        assert.equal(new Uint8Array(d.ns.buffer, d.ns.byteOffset, count * 8), wOut.ns.bytes, `${count} ${pairs} ns`);
        assert.equal(d.flags, wOut.flags.bytes, `${count} ${pairs} flags`);
      }
      assert.is(oneShot.count, count);
    }
  }
  k.reset();
});

test('sums, deltas, SO overflow and binary occlusion streamed from JS memory equal the JS kernels', () => {
  for (const name of ['simd', 'scalar'] as const) {
    const k = kernels(name);
    for (const n of SIZES) {
      const stats = words(n * 11, 7 + n);
      assert.equal(sumQueryResults(stats, 'pipeline-statistics', { kernels: k }), sumQueryResults(stats, 'pipeline-statistics', { kernels: kernels('js') }), `${name} sum ${n}`);
      const a = words(n * 2, 1 + n), b = words(n * 2, 2 + n);
      assert.equal(deltaQueryResults(a, b, 'so-statistics-stream0', k), deltaQueryResults(a, b, 'so-statistics-stream0', kernels('js')), `${name} delta ${n}`);
      assert.equal(soOverflow(a, { kernels: k }), soOverflow(a, { kernels: kernels('js') }), `${name} so ${n}`);
      assert.equal(occlusionToBinary(b, { kernels: k }), occlusionToBinary(b, { kernels: kernels('js') }), `${name} occlusion ${n}`);
    }
  }
});

test('sumRecords: every field count from 1 to 17 (running sums in registers for 1, 2, 11 and 14, in memory otherwise) equals the JS kernel', () => {
  for (const name of ['simd', 'scalar'] as const) {
    for (let fields = 1; fields <= 17; fields++) {
      for (const records of [0, 1, 5, Math.floor(BLOCK_BYTES / (fields * 8)) + 3]) {
        const input = words(records * fields, fields * 31 + records);
        const got = new Uint8Array(fields * 8);
        const want = new Uint8Array(fields * 8);
        kernels(name).sumRecords(input, records, fields, got);
        kernels('js').sumRecords(input, records, fields, want);
        assert.equal(got, want, `${name} ${fields} fields x ${records}`);
      }
    }
  }
});

test('streaming keeps WASM memory small: 16 MB of stamps from JS memory grow it by no more than a block', () => {
  const k = kernels('scalar') as WasmKernels;
  k.reset();
  const memory = () => (k as unknown as { exports: { memory: WebAssembly.Memory } }).exports.memory.buffer.byteLength;
  timestampDurations(words(2 * 1000, 3), { frequency: 1e9, kernels: k });
  const before = memory();
  const d = timestampDurations(words(2 * 1_000_000, 5), { frequency: 1e9, kernels: k });
  assert.is(d.count, 1_000_000);
  assert.ok(memory() - before <= 256 * 1024, `grew by ${memory() - before} bytes`);
});

test.run();
