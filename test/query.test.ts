/**
 * Query results: layouts, exact decode/encode, and the bulk operations on all three kernels
 * (WASM SIMD, WASM scalar, JS), checked against BigInt references written independently here.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DecodeError } from '../src/index.js';
import {
  decodeQueryResult,
  decodeQueryResults,
  deltaQueryResults,
  encodeQueryResults,
  gatherVirtualQueries,
  kernels,
  kernelsAvailable,
  occlusionToBinary,
  queryType,
  soOverflow,
  sumQueryResults,
  summarizeDurations,
  timestampDurations,
  toFloat64,
  type KernelName,
  type QueryMapEntry,
} from '../src/query/index.js';
import { QUERY_TYPES } from '../codecs/query.js';
import { ROOT } from './helpers/corpus.js';
// @ts-expect-error a plain .mjs script without types
import { buildKernels } from '../scripts/build-wasm.mjs';
import * as WASM_BINARIES from '../src/query/kernels/wasm-binaries.js';

const ALL: KernelName[] = ['simd', 'scalar', 'js'];
const M64 = (1n << 64n) - 1n;

function u64s(values: bigint[], shift = 0): { bytes: Uint8Array; offset: number } {
  const bytes = new Uint8Array(shift + values.length * 8);
  const v = new DataView(bytes.buffer);
  values.forEach((x, i) => v.setBigUint64(shift + i * 8, x, true));
  return { bytes, offset: shift };
}
const near64 = fc.oneof(fc.bigInt({ min: 0n, max: M64 }), fc.constantFrom(0n, 1n, M64, M64 - 1n, 1n << 63n, (1n << 53n) + 1n, 0xffffffffn, 0x100000000n), fc.bigInt({ min: 0n, max: 1000n }).map((x) => M64 - x));

test('the engine runs both WASM builds, and DXBIN_WASM can force each', () => {
  assert.ok(kernelsAvailable('simd'));
  assert.ok(kernelsAvailable('scalar'));
  assert.is(kernels('simd').name, 'simd');
  assert.is(kernels('scalar').name, 'scalar');
});

test('the committed WASM is what scripts/build-wasm.mjs builds from src/query/assembly/kernels.ts', async () => {
  assert.is(readFileSync(join(ROOT, 'src/query/kernels/wasm-binaries.ts'), 'utf8'), await buildKernels());
});

test('the inlined modules: an ASCII source, one character per byte, and the same bytes after a minifier prints them again', async () => {
  const text = readFileSync(join(ROOT, 'src/query/kernels/wasm-binaries.ts'), 'utf8');
  assert.ok(/^[\x20-\x7e\n]*$/.test(text), 'only printable ASCII (bytes outside it are \\xNN escapes)');
  const { transform } = await import('esbuild');
  const min = (await transform(text, { loader: 'ts', minify: true, format: 'esm' })).code;
  const again = (await import(`data:text/javascript;base64,${Buffer.from(min).toString('base64')}`)) as typeof import('../src/query/kernels/wasm-binaries.js');
  for (const key of ['SIMD_WASM', 'SCALAR_WASM'] as const) {
    assert.is(again[key], WASM_BINARIES[key], `${key} printed again by esbuild`);
    assert.ok([...WASM_BINARIES[key]].every((c) => c.charCodeAt(0) < 256), `${key}: one byte per character`);
    const bytes = Uint8Array.from(WASM_BINARIES[key], (c) => (c.charCodeAt(0) - WASM_BINARIES.BYTE_SHIFT) & 255);
    assert.equal([...bytes.subarray(0, 8)], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0], `${key}: the WebAssembly magic and version`);
    assert.ok(WebAssembly.validate(bytes), `${key} validates`);
  }
});

test('layout table: strides, offsets and names as the spec gives them', () => {
  assert.equal(QUERY_TYPES.map((q) => [q.value, q.result.size]), [[0, 8], [1, 8], [2, 8], [3, 88], [4, 16], [5, 16], [6, 16], [7, 16], [8, 32], [10, 112]]);
  assert.equal(queryType('pipeline-statistics1').result.fields.slice(-3).map((f) => [f.name, f.offset]), [['ASInvocations', 88], ['MSInvocations', 96], ['MSPrimitives', 104]]);
  assert.equal(queryType('video-decode-statistics').result.padding, [{ offset: 28, size: 4 }]);
  assert.is(queryType('D3D12_QUERY_TYPE_SO_STATISTICS_STREAM2').value, 6);
  assert.throws(() => queryType(9), /^type: unknown query type \(known: occlusion, /);
});

test('decode/encode: every type, exact values near 2^64, padding written as zero', () => {
  for (const q of QUERY_TYPES) {
    fc.assert(
      fc.property(fc.array(fc.tuple(...q.result.fields.map((f) => (f.size === 8 ? near64 : fc.bigInt({ min: 0n, max: 0xffffffffn })))), { maxLength: 7 }), (rows) => {
        const records = rows.map((r) => Object.fromEntries(q.result.fields.map((f, i) => [f.name, r[i]!])));
        const bytes = encodeQueryResults(q, records);
        assert.is(bytes.byteLength, rows.length * q.result.size);
        const { columns, count } = decodeQueryResults(bytes, q);
        assert.is(count, rows.length);
        q.result.fields.forEach((f, i) => assert.equal([...columns[f.name]!], rows.map((r) => r[i]!)));
        if (rows.length) assert.equal(decodeQueryResult(bytes, q, (rows.length - 1) * q.result.size), records[rows.length - 1]);
        assert.equal(encodeQueryResults(q, columns), bytes);
      }),
      { numRuns: 60, seed: q.value },
    );
  }
});

test('decode errors: misaligned offset, too many results', () => {
  const bytes = new Uint8Array(88 * 2);
  assert.throws(() => decodeQueryResults(bytes, 'pipeline-statistics', { offset: 4 }), (e: unknown) => e instanceof DecodeError && e.message === 'PIPELINE_STATISTICS.offset at byte 4: offset 4 is not a multiple of 8 (ResolveQueryData\'s AlignedDestinationBufferOffset)');
  assert.throws(() => decodeQueryResults(bytes, 'pipeline-statistics', { count: 3 }), (e: unknown) => e instanceof DecodeError && e.code === 'count-exceeds-data');
  assert.equal([...toFloat64(decodeQueryResults(u64s([M64, 1n << 53n]).bytes, 'timestamp').columns.Value!)], [2 ** 64, 2 ** 53]);
});

/** BigInt reference for durations. */
function referenceDurations(stamps: bigint[], pairs: boolean, frequency: number) {
  const out: { ticks: bigint; ns: number; flag: number }[] = [];
  const n = pairs ? stamps.length / 2 : Math.max(0, stamps.length - 1);
  for (let i = 0; i < n; i++) {
    const b = pairs ? stamps[2 * i]! : stamps[i]!;
    const e = pairs ? stamps[2 * i + 1]! : stamps[i + 1]!;
    const flag = b === 0n || e === 0n ? 1 : e < b ? 2 : 0;
    const ticks = flag ? 0n : e - b;
    out.push({ ticks, ns: flag ? NaN : Number(ticks) * (1e9 / frequency), flag });
  }
  return out;
}

test('timestamp durations: all kernels equal the BigInt reference (pairs and marks, odd counts, unaligned starts)', () => {
  fc.assert(
    fc.property(fc.array(near64, { maxLength: 41 }), fc.boolean(), fc.constantFrom(0, 8, 3, 5), fc.constantFrom(1e9, 24e6, 19.2e6, 1e7 / 3), (stamps, pairs, shift, frequency) => {
      if (pairs && stamps.length % 2) stamps = stamps.slice(1);
      const { bytes } = u64s(stamps, shift);
      const view = bytes.subarray(shift); // shift 3 or 5: a view that does not start on an 8-byte boundary
      const expected = referenceDurations(stamps, pairs, frequency);
      for (const k of ALL) {
        const d = timestampDurations(view, { frequency, pairs, kernels: kernels(k) });
        assert.equal([...d.ticks], expected.map((x) => x.ticks), k);
        assert.equal([...d.flags], expected.map((x) => x.flag), k);
        assert.equal([...d.ns], expected.map((x) => x.ns), k);
      }
    }),
    { numRuns: 400, seed: 42 },
  );
});

test('durations: groups of eight whose ticks are all below 2^52 and groups with larger ticks convert to the same doubles on every kernel', () => {
  // the SIMD kernel converts a group of eight durations one way when every tick count is below
  // 2^52 and another way when any is not; both must round as f64.convert_i64_u does
  const big = [(1n << 52n) - 1n, 1n << 52n, (1n << 52n) + 1n, (1n << 53n) + 1n, (1n << 53n) + 3n, (1n << 63n) + 1025n, (1n << 64n) - 2049n, (1n << 64n) - 2n, 0xfffffffen, 0x100000001n];
  const small = [0n, 1n, 4999n, 0xffffffffn, (1n << 52n) - 2n];
  const ticks: bigint[] = [];
  for (let g = 0; g < 24; g++) for (let j = 0; j < 8; j++) ticks.push(g % 2 === 0 ? small[(g + j) % small.length]! : j === g % 8 ? big[g % big.length]! : small[j % small.length]!);
  const stamps = ticks.flatMap((t) => [1n, 1n + t]);
  const { bytes } = u64s(stamps);
  for (const frequency of [1e9, 24e6, 1e7 / 3]) {
    const expected = referenceDurations(stamps, true, frequency);
    const nsBytes = new Uint8Array(new Float64Array(expected.map((x) => x.ns)).buffer);
    for (const k of ALL) {
      const d = timestampDurations(bytes, { frequency, kernels: kernels(k) });
      assert.equal([...d.ticks], ticks, k);
      assert.equal(new Uint8Array(d.ns.buffer, d.ns.byteOffset, d.count * 8), nsBytes, `${k} ns at ${frequency} Hz`);
      assert.ok(d.flags.every((f) => f === 0), k);
    }
  }
});

test('durations flag never-issued and stale slots instead of huge numbers; summary by nearest rank', () => {
  const { bytes } = u64s([100n, 250n, 0n, 5n, 300n, 200n, 1000n, 1100n, 7n, 7n]);
  const d = timestampDurations(bytes, { frequency: 1e9 });
  assert.equal([...d.flags], [0, 1, 2, 0, 0]);
  assert.equal([...d.ticks], [150n, 0n, 0n, 100n, 0n]);
  assert.equal(summarizeDurations(d), { valid: 3, flagged: 2, min: 0, median: 100, p99: 150, max: 150 });
  assert.throws(() => timestampDurations(u64s([1n, 2n, 3n]).bytes, { frequency: 1e9 }), /3 timestamps do not make whole \[begin, end\] pairs/);
});

test('sums, deltas, SO overflow, binary occlusion: all kernels equal BigInt references', () => {
  const types = ['occlusion', 'pipeline-statistics', 'pipeline-statistics1', 'so-statistics-stream1'] as const;
  fc.assert(
    fc.property(fc.constantFrom(...types), fc.nat({ max: 9 }), fc.array(near64, { minLength: 14 * 9 * 2, maxLength: 14 * 9 * 2 }), (t, count, pool) => {
      const q = queryType(t);
      const fields = q.result.fields.length;
      const a = pool.slice(0, count * fields);
      const b = pool.slice(count * fields, 2 * count * fields);
      const A = u64s(a).bytes;
      const B = u64s(b).bytes;
      const sums = q.result.fields.map((_, f) => a.filter((_, i) => i % fields === f).reduce((x, y) => (x + y) & M64, 0n));
      for (const k of ALL) {
        assert.equal(Object.values(sumQueryResults(A, q, { kernels: kernels(k) })), sums, `${k} sum`);
        assert.equal([...new BigUint64Array(deltaQueryResults(A, B, q, kernels(k)).buffer)], a.map((x, i) => (x - b[i]! + (1n << 64n)) & M64), `${k} delta`);
        if (t === 'so-statistics-stream1') {
          const o = soOverflow(A, { kernels: kernels(k) });
          assert.equal([...o.flags], Array.from({ length: count }, (_, i) => (a[2 * i + 1]! > a[2 * i]! ? 1 : 0)), `${k} overflow`);
        }
        if (t === 'occlusion') {
          const o = occlusionToBinary(A, { kernels: kernels(k) });
          assert.equal([...o.values], a.map((x) => (x !== 0n ? 1n : 0n)));
          assert.is(o.visible, a.filter((x) => x !== 0n).length);
        }
      }
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('gather-and-sum of virtual queries (vkd3d-proton query map): all kernels equal the reference; bad maps are refused', () => {
  fc.assert(
    fc.property(fc.array(near64, { minLength: 2 * 12, maxLength: 2 * 12 }), fc.array(fc.tuple(fc.nat({ max: 4 }), fc.nat({ max: 11 })), { maxLength: 12 }), (pool, virtuals) => {
      // SO statistics: 2 fields; 12 virtual results; each virtual query belongs to one of 5 D3D12 queries
      const src = u64s(pool).bytes;
      const byDst = new Map<number, number[]>();
      for (const [dst, s] of virtuals) byDst.set(dst, [...(byDst.get(dst) ?? []), s]);
      const entries: QueryMapEntry[] = [];
      const heads = [...byDst.keys()];
      heads.forEach((dst) => entries.push({ dstIndex: dst, srcIndex: byDst.get(dst)![0]!, next: 0xffffffff }));
      heads.forEach((dst, h) => {
        let prev = h;
        for (const s of byDst.get(dst)!.slice(1)) {
          entries[prev]!.next = entries.length;
          prev = entries.length;
          entries.push({ dstIndex: dst, srcIndex: s, next: 0xffffffff });
        }
      });
      const expected = new Array<bigint>(5 * 2).fill(0n);
      for (const [dst, list] of byDst) for (let f = 0; f < 2; f++) expected[dst * 2 + f] = list.reduce((x, s) => (x + pool[s * 2 + f]!) & M64, 0n);
      for (const k of ALL) {
        const out = gatherVirtualQueries(src, 'so-statistics-stream0', entries, { heads: heads.length, dstCount: 5, kernels: kernels(k) });
        assert.equal([...new BigUint64Array(out.buffer)], expected, k);
      }
    }),
    { numRuns: 300, seed: 9 },
  );
  for (const k of ALL) {
    const src = u64s([1n, 2n, 3n, 4n]).bytes;
    assert.throws(() => gatherVirtualQueries(src, 'so-statistics-stream0', [{ dstIndex: 0, srcIndex: 0, next: 0 }], { heads: 1, dstCount: 1, kernels: kernels(k) }), /loops/, `${k} cycle`);
    assert.throws(() => gatherVirtualQueries(src, 'so-statistics-stream0', [{ dstIndex: 3, srcIndex: 0, next: 0xffffffff }], { heads: 1, dstCount: 1, kernels: kernels(k) }), /map\[0\]/, `${k} bad dst`);
  }
});

test('zero-copy: a buffer allocated in WASM memory is resolved in place', () => {
  const k = kernels('simd') as import('../src/query/index.js').WasmKernels;
  const stamps = k.allocate(8 * 6);
  new BigUint64Array(stamps.bytes.buffer, stamps.bytes.byteOffset, 6).set([10n, 30n, 100n, 50n, 1n, 2n]);
  const ticks = k.allocate(24);
  const ns = k.allocate(24);
  const flags = k.allocate(3);
  const d = timestampDurations(stamps.bytes, { frequency: 1e9, kernels: k, out: { ticks: ticks.bytes, ns: ns.bytes, flags: flags.bytes } });
  assert.is(d.ticks.buffer, stamps.bytes.buffer, 'results are views of WASM memory');
  assert.equal([...d.ticks], [20n, 0n, 1n]);
  assert.equal([...d.flags], [0, 2, 0]);
  k.reset();
});

test.run();
