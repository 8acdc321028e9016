/**
 * bench family `query`: query-result resolve, every implementation on the same buffers in
 * interleaved rounds. Cases: timestamp-durations (1e6 pairs already in WASM memory for dxbin's
 * WASM kernels), timestamp-durations-from-js (dxbin-simd from the caller's ArrayBuffer into the
 * caller's JS outputs: what the CLI and most callers do), pipeline-statistics-sum (1e6 records) and
 * pipeline-statistics-sum-from-js. Peers: binary-parser (on 200k pairs, 20k records) and
 * restructure (20k pairs, 2k records) on a sample, compared per record; a DataView loop (200k
 * pairs, 50k records; dxbin's JS sums run on 200k records), a C baseline (gcc -O3,
 * bench/native/query.c, when gcc is present) and a plain copy of the input. Every result is
 * checked equal to dxbin-simd's before timing.
 * Also: what the first call in a process costs (WASM compile and instantiate), in a fresh process.
 * Sizes: DXBIN_BENCH_PAIRS, DXBIN_BENCH_RECORDS (default 1e6 each). `tsx bench/query.ts [--json]`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'binary-parser';
import * as r from 'restructure';
import { kernels, sumQueryResults, timestampDurations, type WasmKernels } from '../src/query/index.js';
import { buildNative, JSON_OUTPUT, nativeBuildDir, NativeProcess, note, ROOT_DIR, runCase, timed, type Contender } from './lib/harness.js';

const PAIRS = Number(process.env.DXBIN_BENCH_PAIRS ?? 1e6);
const RECORDS = Number(process.env.DXBIN_BENCH_RECORDS ?? 1e6);
const FREQUENCY = 24e6;
const SCALE = 1e9 / FREQUENCY;
const FIELDS = ['IAVertices', 'IAPrimitives', 'VSInvocations', 'GSInvocations', 'GSPrimitives', 'CInvocations', 'CPrimitives', 'PSInvocations', 'HSInvocations', 'DSInvocations', 'CSInvocations'];

// ---------------------------------------------------------------- data (deterministic)
let seed = 0x2545f491;
const next = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};
const stamps = new BigUint64Array(PAIRS * 2);
{
  const w = new Uint32Array(stamps.buffer);
  for (let i = 0, t = 1_000_000_000; i < PAIRS; i++) {
    t += next() % 5000;
    const end = i % 1000 === 7 ? 0 : i % 1000 === 9 ? t - 5 : t + (next() % 100000); // never-issued and stale slots
    w[4 * i] = t % 2 ** 32;
    w[4 * i + 1] = Math.floor(t / 2 ** 32);
    w[4 * i + 2] = end % 2 ** 32;
    w[4 * i + 3] = Math.floor(end / 2 ** 32);
  }
}
const stats = new BigUint64Array(RECORDS * 11);
{
  const w = new Uint32Array(stats.buffer);
  for (let i = 0; i < stats.length; i++) {
    w[2 * i] = i % 97 === 0 ? 0xffffffff - (next() % 1000) : next() % 1_000_000;
    w[2 * i + 1] = i % 97 === 0 ? 0xffffffff : 0; // some sums wrap past 2^64
  }
}
const stampBytes = new Uint8Array(stamps.buffer);
const statBytes = new Uint8Array(stats.buffer);

// ---------------------------------------------------------------- reference results (dxbin-simd)
const simd = kernels('simd') as WasmKernels;
simd.reset();
const wIn = simd.allocate(stampBytes.byteLength);
const wTicks = simd.allocate(PAIRS * 8);
const wNs = simd.allocate(PAIRS * 8);
const wFlags = simd.allocate(PAIRS);
const wStats = simd.allocate(statBytes.byteLength);
wIn.bytes.set(stampBytes);
wStats.bytes.set(statBytes);
const inWasm = { input: wIn.bytes, out: { ticks: wTicks.bytes, ns: wNs.bytes, flags: wFlags.bytes }, stats: wStats.bytes };
timestampDurations(inWasm.input, { frequency: FREQUENCY, kernels: simd, out: inWasm.out });
const want = { ticks: wTicks.bytes.slice(), ns: new Float64Array(wNs.bytes.slice().buffer), flags: wFlags.bytes.slice() };
const wantSums = sumQueryResults(inWasm.stats, 'pipeline-statistics', { kernels: simd });
const wantSumList = FIELDS.map((f) => wantSums[f]!);

const sameNs = (ns: ArrayLike<number>, from = 0, n = ns.length) => {
  for (let i = 0; i < n; i++) if (!Object.is(ns[i], want.ns[from + i])) return `ns[${from + i}] = ${ns[i]}, dxbin ${want.ns[from + i]}`;
  return undefined;
};
const sameBytes = (a: Uint8Array, b: Uint8Array, what: string) => (a.byteLength === b.byteLength && a.every((x, i) => x === b[i]) ? undefined : `${what} differ`);
const sameSums = (sums: readonly bigint[]) => (sums.every((x, i) => x === wantSumList[i]) ? undefined : `sums differ: ${sums.join(',')}`);

// ---------------------------------------------------------------- peers
function durationsFromPairs(pairs: { begin: bigint; end: bigint }[]): Float64Array {
  const ticks = new BigUint64Array(pairs.length);
  const ns = new Float64Array(pairs.length);
  const flags = new Uint8Array(pairs.length);
  pairs.forEach(({ begin, end }, i) => {
    const f = begin === 0n || end === 0n ? 1 : end < begin ? 2 : 0;
    const d = f ? 0n : end - begin;
    ticks[i] = d;
    ns[i] = f ? NaN : Number(d) * SCALE;
    flags[i] = f;
  });
  return ns;
}
function sumBig(records: Record<string, bigint>[]): bigint[] {
  const sums = new Array<bigint>(11).fill(0n);
  for (const rec of records) FIELDS.forEach((f, i) => (sums[i] = BigInt.asUintN(64, sums[i]! + rec[f]!)));
  return sums;
}
const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

// Samples for the slow peers: the first N records (all records are alike), compared per record.
const BP_PAIRS = Math.min(PAIRS, 200_000);
const RS_PAIRS = Math.min(PAIRS, 20_000);
const BP_RECORDS = Math.min(RECORDS, 20_000);
const RS_RECORDS = Math.min(RECORDS, 2_000);
// BigInt loops are slow too: the DataView loops and dxbin's JS sums run on samples as well
const DV_PAIRS = Math.min(PAIRS, 200_000);
const DV_RECORDS = Math.min(RECORDS, 50_000);
const JS_RECORDS = Math.min(RECORDS, 200_000);

const pairParser = (n: number) => new Parser().array('pairs', { type: new Parser().uint64le('begin').uint64le('end'), length: n });
const pairStruct = new r.Struct({ bl: r.uint32le, bh: r.uint32le, el: r.uint32le, eh: r.uint32le });
const restructurePairs = (bytes: Uint8Array, n: number) =>
  (new r.Array(pairStruct, n).fromBuffer(buf(bytes)) as { bl: number; bh: number; el: number; eh: number }[]).map((p) => ({ begin: (BigInt(p.bh) << 32n) | BigInt(p.bl), end: (BigInt(p.eh) << 32n) | BigInt(p.el) }));
let recordParser = new Parser();
for (const f of FIELDS) recordParser = recordParser.uint64le(f);
const statsParser = (n: number) => new Parser().array('records', { type: recordParser, length: n });
const statsFields: Record<string, unknown> = {};
for (const f of FIELDS) {
  statsFields[`${f}Lo`] = r.uint32le;
  statsFields[`${f}Hi`] = r.uint32le;
}
const statsStruct = new r.Struct(statsFields);
const restructureStats = (bytes: Uint8Array, n: number) =>
  (new r.Array(statsStruct, n).fromBuffer(buf(bytes)) as Record<string, number>[]).map((rec) => Object.fromEntries(FIELDS.map((f) => [f, (BigInt(rec[`${f}Hi`]!) << 32n) | BigInt(rec[`${f}Lo`]!)])) as Record<string, bigint>);

function dataViewDurations(view: DataView, ticks: BigUint64Array, ns: Float64Array, flags: Uint8Array): void {
  for (let i = 0; i < ticks.length; i++) {
    const b = view.getBigUint64(i * 16, true);
    const e = view.getBigUint64(i * 16 + 8, true);
    const f = b === 0n || e === 0n ? 1 : e < b ? 2 : 0;
    const d = f ? 0n : e - b;
    ticks[i] = d;
    ns[i] = f ? NaN : Number(d) * SCALE;
    flags[i] = f;
  }
}
function dataViewSums(view: DataView, records: number): bigint[] {
  const sums = new Array<bigint>(11).fill(0n);
  for (let i = 0; i < records; i++) for (let f = 0; f < 11; f++) sums[f] = BigInt.asUintN(64, sums[f]! + view.getBigUint64(i * 88 + f * 8, true));
  return sums;
}

// ---------------------------------------------------------------- native C
const built = buildNative(join(fileURLToPath(new URL('.', import.meta.url)), 'native/query.c'), 'query');
let native: NativeProcess | undefined;
let nativeDir = '';
if ('exe' in built) {
  nativeDir = nativeBuildDir();
  writeFileSync(join(nativeDir, 'stamps.bin'), stampBytes);
  writeFileSync(join(nativeDir, 'stats.bin'), statBytes);
  native = new NativeProcess(built.exe, [join(nativeDir, 'stamps.bin'), join(nativeDir, 'stats.bin'), String(PAIRS), String(RECORDS)]);
  await native.ask(`dump ${nativeDir}`);
}
const nativeFile = (name: string) => new Uint8Array(readFileSync(join(nativeDir, name)));

// ---------------------------------------------------------------- timestamp durations
{
  const D = 'timestamp-durations';
  const scalar = kernels('scalar') as WasmKernels;
  scalar.reset();
  const sIn = scalar.allocate(stampBytes.byteLength);
  const sOut = { ticks: scalar.allocate(PAIRS * 8), ns: scalar.allocate(PAIRS * 8), flags: scalar.allocate(PAIRS) };
  sIn.bytes.set(stampBytes);
  const sViews = { input: sIn.bytes, out: { ticks: sOut.ticks.bytes, ns: sOut.ns.bytes, flags: sOut.flags.bytes } };
  const jsOut = { ticks: new Uint8Array(PAIRS * 8), ns: new Uint8Array(PAIRS * 8), flags: new Uint8Array(PAIRS) };
  const checkOut = (o: { ticks: Uint8Array; ns: Uint8Array; flags: Uint8Array }) =>
    sameBytes(o.ticks, want.ticks, 'ticks') ?? sameNs(new Float64Array(o.ns.slice().buffer)) ?? sameBytes(o.flags, want.flags, 'flags');
  const dvTicks = new BigUint64Array(DV_PAIRS);
  const dvNs = new Float64Array(DV_PAIRS);
  const dvFlags = new Uint8Array(DV_PAIRS);
  const view = new DataView(stampBytes.buffer);
  const copy = new Uint8Array(stampBytes.byteLength);
  const bp = pairParser(BP_PAIRS);
  const contenders: Contender[] = [
    { impl: 'dxbin-simd', records: PAIRS, bytes: stampBytes.byteLength, pass: timed(() => timestampDurations(inWasm.input, { frequency: FREQUENCY, kernels: simd, out: inWasm.out })) },
    {
      impl: 'dxbin-simd',
      case: 'timestamp-durations-from-js',
      records: PAIRS,
      bytes: stampBytes.byteLength,
      pass: timed(() => timestampDurations(stampBytes, { frequency: FREQUENCY, kernels: simd, out: jsOut })),
      check: () => (timestampDurations(stampBytes, { frequency: FREQUENCY, kernels: simd, out: jsOut }), checkOut(jsOut)),
    },
    {
      impl: 'dxbin-scalar',
      records: PAIRS,
      bytes: stampBytes.byteLength,
      pass: timed(() => timestampDurations(sViews.input, { frequency: FREQUENCY, kernels: scalar, out: sViews.out })),
      check: () => (timestampDurations(sViews.input, { frequency: FREQUENCY, kernels: scalar, out: sViews.out }), checkOut(sViews.out)),
    },
    {
      impl: 'dxbin-js',
      records: PAIRS,
      bytes: stampBytes.byteLength,
      pass: timed(() => timestampDurations(stampBytes, { frequency: FREQUENCY, kernels: kernels('js'), out: jsOut })),
      check: () => (timestampDurations(stampBytes, { frequency: FREQUENCY, kernels: kernels('js'), out: jsOut }), checkOut(jsOut)),
    },
    {
      impl: 'binary-parser',
      records: BP_PAIRS,
      bytes: BP_PAIRS * 16,
      sample: true,
      pass: timed(() => durationsFromPairs((bp.parse(buf(stampBytes)) as { pairs: { begin: bigint; end: bigint }[] }).pairs)),
      check: () => sameNs(durationsFromPairs((bp.parse(buf(stampBytes)) as { pairs: { begin: bigint; end: bigint }[] }).pairs)),
    },
    {
      impl: 'restructure',
      records: RS_PAIRS,
      bytes: RS_PAIRS * 16,
      sample: true,
      pass: timed(() => durationsFromPairs(restructurePairs(stampBytes, RS_PAIRS))),
      check: () => sameNs(durationsFromPairs(restructurePairs(stampBytes, RS_PAIRS))),
    },
    {
      impl: 'dataview-loop',
      records: DV_PAIRS,
      bytes: DV_PAIRS * 16,
      sample: DV_PAIRS < PAIRS,
      pass: timed(() => dataViewDurations(view, dvTicks, dvNs, dvFlags)),
      check: () => (
        dataViewDurations(view, dvTicks, dvNs, dvFlags),
        sameBytes(new Uint8Array(dvTicks.buffer), want.ticks.subarray(0, DV_PAIRS * 8), 'ticks') ?? sameNs(dvNs) ?? sameBytes(dvFlags, want.flags.subarray(0, DV_PAIRS), 'flags')
      ),
    },
    { impl: 'memcpy', records: PAIRS, bytes: stampBytes.byteLength, pass: timed(() => copy.set(stampBytes)) },
  ];
  if (native) {
    const n = native;
    contenders.push({
      impl: 'native-c',
      records: PAIRS,
      bytes: stampBytes.byteLength,
      pass: async (reps) => Number(await n.ask(`durations ${reps}`)),
      check: () => sameBytes(nativeFile('ticks.bin'), want.ticks, 'ticks') ?? sameNs(new Float64Array(nativeFile('ns.bin').buffer)) ?? sameBytes(nativeFile('flags.bin'), want.flags, 'flags'),
    });
  }
  await runCase(D, contenders);
}

// ---------------------------------------------------------------- pipeline-statistics sums
{
  const S = 'pipeline-statistics-sum';
  const scalar = kernels('scalar') as WasmKernels;
  scalar.reset();
  const sStats = scalar.allocate(statBytes.byteLength);
  sStats.bytes.set(statBytes);
  const sView = sStats.bytes;
  const list = (s: Record<string, bigint>) => FIELDS.map((f) => s[f]!);
  const view = new DataView(statBytes.buffer);
  const copy = new Uint8Array(statBytes.byteLength);
  const bp = statsParser(BP_RECORDS);
  const bpSample = sumBig((bp.parse(buf(statBytes)) as { records: Record<string, bigint>[] }).records);
  const rsSample = (n: number) => sumBig(restructureStats(statBytes, n));
  // the samples are checked against dxbin's sums over the same records
  const dxbinOver = (n: number) => list(sumQueryResults(statBytes, 'pipeline-statistics', { count: n, kernels: simd }));
  const sameAs = (got: bigint[], ref: bigint[]) => (got.every((x, i) => x === ref[i]) ? undefined : 'sums differ');
  const contenders: Contender[] = [
    { impl: 'dxbin-simd', records: RECORDS, bytes: statBytes.byteLength, pass: timed(() => sumQueryResults(inWasm.stats, 'pipeline-statistics', { kernels: simd })) },
    {
      impl: 'dxbin-simd',
      case: 'pipeline-statistics-sum-from-js',
      records: RECORDS,
      bytes: statBytes.byteLength,
      pass: timed(() => sumQueryResults(statBytes, 'pipeline-statistics', { kernels: simd })),
      check: () => sameSums(list(sumQueryResults(statBytes, 'pipeline-statistics', { kernels: simd }))),
    },
    {
      impl: 'dxbin-scalar',
      records: RECORDS,
      bytes: statBytes.byteLength,
      pass: timed(() => sumQueryResults(sView, 'pipeline-statistics', { kernels: scalar })),
      check: () => sameSums(list(sumQueryResults(sView, 'pipeline-statistics', { kernels: scalar }))),
    },
    {
      impl: 'dxbin-js',
      records: JS_RECORDS,
      bytes: JS_RECORDS * 88,
      sample: JS_RECORDS < RECORDS,
      pass: timed(() => sumQueryResults(statBytes, 'pipeline-statistics', { count: JS_RECORDS, kernels: kernels('js') })),
      check: () => sameAs(list(sumQueryResults(statBytes, 'pipeline-statistics', { count: JS_RECORDS, kernels: kernels('js') })), dxbinOver(JS_RECORDS)),
    },
    {
      impl: 'binary-parser',
      records: BP_RECORDS,
      bytes: BP_RECORDS * 88,
      sample: true,
      pass: timed(() => sumBig((bp.parse(buf(statBytes)) as { records: Record<string, bigint>[] }).records)),
      check: () => sameAs(bpSample, dxbinOver(BP_RECORDS)),
    },
    {
      impl: 'restructure',
      records: RS_RECORDS,
      bytes: RS_RECORDS * 88,
      sample: true,
      pass: timed(() => rsSample(RS_RECORDS)),
      check: () => sameAs(rsSample(RS_RECORDS), dxbinOver(RS_RECORDS)),
    },
    {
      impl: 'dataview-loop',
      records: DV_RECORDS,
      bytes: DV_RECORDS * 88,
      sample: DV_RECORDS < RECORDS,
      pass: timed(() => dataViewSums(view, DV_RECORDS)),
      check: () => sameAs(dataViewSums(view, DV_RECORDS), dxbinOver(DV_RECORDS)),
    },
    { impl: 'memcpy', records: RECORDS, bytes: statBytes.byteLength, pass: timed(() => copy.set(statBytes)) },
  ];
  if (native) {
    contenders.push({
      impl: 'native-c',
      records: RECORDS,
      bytes: statBytes.byteLength,
      pass: async (reps) => Number(await native!.ask(`sums ${reps}`)),
      check: () => sameSums([...new BigUint64Array(nativeFile('sums.bin').buffer)]),
    });
  }
  await runCase(S, contenders);
}
native?.close();

// ---------------------------------------------------------------- the first call in a process
{
  const script = `const t0 = performance.now(); const { timestampDurations } = await import('./src/query/index.ts'); const t1 = performance.now();
timestampDurations(new Uint8Array(64), { frequency: 1e9 }); const t2 = performance.now();
timestampDurations(new Uint8Array(64), { frequency: 1e9 }); const t3 = performance.now();
process.stdout.write(JSON.stringify([t2 - t1, t3 - t2]));`;
  const runs = [0, 1, 2].map(() => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT_DIR, encoding: 'utf8' })) as [number, number]);
  const first = runs.map((x) => x[0]).sort((a, b) => a - b)[1]!;
  const second = runs.map((x) => x[1]).sort((a, b) => a - b)[1]!;
  const row = { case: 'query-first-call', impl: 'dxbin-simd', median_ns: Math.round(first * 1e6), bytes: 64, second_call_ns: Math.round(second * 1e6) };
  if (JSON_OUTPUT) console.log(JSON.stringify(row));
  else console.log(`\nquery-first-call: the first timestampDurations in a fresh process takes ${first.toFixed(2)} ms (WASM compile + instantiate + first run), the second ${(second * 1e3).toFixed(0)} us (median of 3 processes)`);
}
note('');
