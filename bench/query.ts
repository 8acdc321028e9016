/**
 * `npm run bench`: query-result throughput, every implementation on the same buffers in one run,
 * reported as medians and ratios (never asserted in tests). `--json` prints one object per line:
 * {"case", "impl", "median_ns", "bytes"}. Sizes: DXBIN_BENCH_PAIRS (default 1e6 timestamp pairs),
 * DXBIN_BENCH_RECORDS (default 1e6 pipeline-statistics records).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'binary-parser';
import * as r from 'restructure';
import { kernels, sumQueryResults, timestampDurations, type WasmKernels } from '../src/query/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const json = process.argv.includes('--json');
const PAIRS = Number(process.env.DXBIN_BENCH_PAIRS ?? 1e6);
const RECORDS = Number(process.env.DXBIN_BENCH_RECORDS ?? 1e6);
const FREQUENCY = 24e6;
const SCALE = 1e9 / FREQUENCY;

interface Result {
  case: string;
  impl: string;
  median_ns: number;
  bytes: number;
}
const results: Result[] = [];

/**
 * Median of repeated runs after one warm-up run: up to 15 runs or about 1.5 s, at least 3 (a peer
 * whose single run takes over 2 s gets 1, so the whole bench stays within a few minutes).
 */
function measure(kase: string, impl: string, bytes: number, run: () => unknown): void {
  const w = performance.now();
  run();
  const minimum = performance.now() - w > 2000 ? 1 : 3;
  const times: number[] = [];
  const start = performance.now();
  while (times.length < minimum || (times.length < 15 && performance.now() - start < 1500)) {
    const t = performance.now();
    run();
    times.push((performance.now() - t) * 1e6);
  }
  times.sort((a, b) => a - b);
  const result = { case: kase, impl, median_ns: Math.round(times[times.length >> 1]!), bytes };
  results.push(result);
  if (json) console.log(JSON.stringify(result));
}

// ---------------------------------------------------------------- data (deterministic)
let seed = 0x2545f4914f6cdd1dn;
const next = () => {
  seed ^= seed << 13n;
  seed &= (1n << 64n) - 1n;
  seed ^= seed >> 7n;
  seed ^= seed << 17n;
  seed &= (1n << 64n) - 1n;
  return seed;
};
const stamps = new BigUint64Array(PAIRS * 2);
for (let i = 0, t = 1_000_000_000n; i < PAIRS; i++) {
  t += next() % 5000n;
  stamps[2 * i] = t;
  stamps[2 * i + 1] = i % 1000 === 7 ? 0n : t + (next() % 100000n); // a few never-issued slots
}
const stats = new BigUint64Array(RECORDS * 11);
for (let i = 0; i < stats.length; i++) stats[i] = next() % 1_000_000n;
const stampBytes = new Uint8Array(stamps.buffer);
const statBytes = new Uint8Array(stats.buffer);

// ---------------------------------------------------------------- timestamp-durations
const D = 'timestamp-durations';
for (const name of ['simd', 'scalar'] as const) {
  const k = kernels(name) as WasmKernels;
  k.reset();
  const input = k.allocate(stampBytes.byteLength);
  const ticks = k.allocate(PAIRS * 8);
  const ns = k.allocate(PAIRS * 8);
  const flags = k.allocate(PAIRS);
  input.bytes.set(stampBytes);
  const out = { ticks: ticks.bytes, ns: ns.bytes, flags: flags.bytes };
  const view = input.bytes;
  measure(D, `dxbin-${name}`, stampBytes.byteLength, () => timestampDurations(view, { frequency: FREQUENCY, kernels: k, out }));
}
{
  const out = { ticks: new Uint8Array(PAIRS * 8), ns: new Uint8Array(PAIRS * 8), flags: new Uint8Array(PAIRS) };
  measure(D, 'dxbin-js', stampBytes.byteLength, () => timestampDurations(stampBytes, { frequency: FREQUENCY, kernels: kernels('js'), out }));
}
{
  const pair = new Parser().uint64le('begin').uint64le('end');
  const parser = new Parser().array('pairs', { type: pair, length: PAIRS });
  const buf = Buffer.from(stampBytes.buffer, stampBytes.byteOffset, stampBytes.byteLength);
  measure(D, 'binary-parser', stampBytes.byteLength, () => durationsFromPairs((parser.parse(buf) as { pairs: { begin: bigint; end: bigint }[] }).pairs));
}
{
  const pair = new r.Struct({ bl: r.uint32le, bh: r.uint32le, el: r.uint32le, eh: r.uint32le });
  const array = new r.Array(pair, PAIRS);
  const buf = Buffer.from(stampBytes.buffer, stampBytes.byteOffset, stampBytes.byteLength);
  measure(D, 'restructure', stampBytes.byteLength, () =>
    durationsFromPairs(
      (array.fromBuffer(buf) as { bl: number; bh: number; el: number; eh: number }[]).map((p) => ({ begin: (BigInt(p.bh) << 32n) | BigInt(p.bl), end: (BigInt(p.eh) << 32n) | BigInt(p.el) })),
    ),
  );
}
{
  const view = new DataView(stampBytes.buffer);
  const ticks = new BigUint64Array(PAIRS);
  const ns = new Float64Array(PAIRS);
  const flags = new Uint8Array(PAIRS);
  measure(D, 'dataview-loop', stampBytes.byteLength, () => {
    for (let i = 0; i < PAIRS; i++) {
      const b = view.getBigUint64(i * 16, true);
      const e = view.getBigUint64(i * 16 + 8, true);
      const f = b === 0n || e === 0n ? 1 : e < b ? 2 : 0;
      const d = f ? 0n : e - b;
      ticks[i] = d;
      ns[i] = f ? NaN : Number(d) * SCALE;
      flags[i] = f;
    }
  });
}
{
  const copy = new Uint8Array(stampBytes.byteLength);
  measure(D, 'memcpy', stampBytes.byteLength, () => copy.set(stampBytes));
}

function durationsFromPairs(pairs: { begin: bigint; end: bigint }[]) {
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

// ---------------------------------------------------------------- pipeline-statistics-sum
const S = 'pipeline-statistics-sum';
for (const name of ['simd', 'scalar'] as const) {
  const k = kernels(name) as WasmKernels;
  k.reset();
  const input = k.allocate(statBytes.byteLength);
  input.bytes.set(statBytes);
  const view = input.bytes;
  measure(S, `dxbin-${name}`, statBytes.byteLength, () => sumQueryResults(view, 'pipeline-statistics', { kernels: k }));
  k.reset();
}
measure(S, 'dxbin-js', statBytes.byteLength, () => sumQueryResults(statBytes, 'pipeline-statistics', { kernels: kernels('js') }));
const FIELDS = ['IAVertices', 'IAPrimitives', 'VSInvocations', 'GSInvocations', 'GSPrimitives', 'CInvocations', 'CPrimitives', 'PSInvocations', 'HSInvocations', 'DSInvocations', 'CSInvocations'];
{
  let record = new Parser();
  for (const f of FIELDS) record = record.uint64le(f);
  const parser = new Parser().array('records', { type: record, length: RECORDS });
  const buf = Buffer.from(statBytes.buffer, statBytes.byteOffset, statBytes.byteLength);
  measure(S, 'binary-parser', statBytes.byteLength, () => sumBig((parser.parse(buf) as { records: Record<string, bigint>[] }).records));
}
{
  const fields: Record<string, unknown> = {};
  for (const f of FIELDS) {
    fields[`${f}Lo`] = r.uint32le;
    fields[`${f}Hi`] = r.uint32le;
  }
  const array = new r.Array(new r.Struct(fields), RECORDS);
  const buf = Buffer.from(statBytes.buffer, statBytes.byteOffset, statBytes.byteLength);
  measure(S, 'restructure', statBytes.byteLength, () =>
    sumBig((array.fromBuffer(buf) as Record<string, number>[]).map((rec) => Object.fromEntries(FIELDS.map((f) => [f, (BigInt(rec[`${f}Hi`]!) << 32n) | BigInt(rec[`${f}Lo`]!)])))),
  );
}
{
  const view = new DataView(statBytes.buffer);
  measure(S, 'dataview-loop', statBytes.byteLength, () => {
    const sums = new Array<bigint>(11).fill(0n);
    for (let i = 0; i < RECORDS; i++) for (let f = 0; f < 11; f++) sums[f] = BigInt.asUintN(64, sums[f]! + view.getBigUint64(i * 88 + f * 8, true));
    return sums;
  });
}
{
  const copy = new Uint8Array(statBytes.byteLength);
  measure(S, 'memcpy', statBytes.byteLength, () => copy.set(statBytes));
}

function sumBig(records: Record<string, bigint>[]) {
  const sums = new Array<bigint>(11).fill(0n);
  for (const rec of records) FIELDS.forEach((f, i) => (sums[i] = BigInt.asUintN(64, sums[i]! + rec[f]!)));
  return sums;
}

// ---------------------------------------------------------------- native C baseline
try {
  execFileSync('gcc', ['--version'], { stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-bench-'));
  const exe = join(dir, 'query');
  execFileSync('gcc', ['-O3', '-o', exe, join(here, 'native/query.c')], { stdio: 'inherit' });
  writeFileSync(join(dir, 'stamps.bin'), stampBytes);
  writeFileSync(join(dir, 'stats.bin'), statBytes);
  const lines = execFileSync(exe, [join(dir, 'stamps.bin'), join(dir, 'stats.bin'), String(PAIRS), String(RECORDS)], { encoding: 'utf8' }).trim().split('\n');
  for (const line of lines) {
    const result = JSON.parse(line) as Result;
    results.push(result);
    if (json) console.log(JSON.stringify(result));
  }
} catch (e) {
  console.error(`native-c: skipped (${(e as Error).message.split('\n')[0]})`);
}

// ---------------------------------------------------------------- table
if (!json) {
  for (const kase of [D, S]) {
    const rows = results.filter((x) => x.case === kase);
    const by = (impl: string) => rows.find((x) => x.impl === impl)?.median_ns;
    const bestJs = Math.min(...['dxbin-js', 'dataview-loop'].map((i) => by(i) ?? Infinity));
    console.log(`\n${kase} (${rows[0]!.bytes / 1e6} MB in)`);
    console.log('impl            median ms    GB/s   x binary-parser   x restructure   x best JS loop   / native-c');
    for (const x of rows) {
      const ratio = (base: number | undefined) => (base ? (base / x.median_ns).toFixed(1) : '-');
      console.log(
        `${x.impl.padEnd(15)} ${(x.median_ns / 1e6).toFixed(2).padStart(9)} ${(x.bytes / x.median_ns).toFixed(2).padStart(7)} ${ratio(by('binary-parser')).padStart(17)} ${ratio(by('restructure')).padStart(15)} ${(bestJs / x.median_ns).toFixed(1).padStart(16)} ${ratio(by('native-c')).padStart(11)}`,
      );
    }
  }
}
