/**
 * Bench family `query-csv`: `dxbin query decode --format csv` against a plain 20-line streaming
 * script doing the same (read chunks, DataView, decimals, write with backpressure), both as
 * processes writing to /dev/null, in one run. `bytes` is the input size (MB/s = bytes / ns *
 * 1e3); `peak_bytes` the process's peak RSS (from the kernel's accounting of children, via
 * python3 when present, else null). `--json` prints one object per line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../test/helpers/built-cli.js';

const json = process.argv.includes('--json');
const RECORDS = Number(process.env.DXBIN_BENCH_RECORDS ?? 1e6);
const dir = mkdtempSync(join(tmpdir(), 'dxbin-bench-csv-'));
const input = join(dir, 'stats.bin');
{
  let seed = 0x9e3779b9;
  const words = new Uint32Array(RECORDS * 22);
  for (let i = 0; i < words.length; i += 2) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    words[i] = seed % 5_000_000;
    words[i + 1] = i % 97 === 0 ? seed & 0xff : 0; // a few values above 2^32
  }
  writeFileSync(input, new Uint8Array(words.buffer));
}
const plain = join(dir, 'plain.mjs');
writeFileSync(
  plain,
  `import { createReadStream } from 'node:fs';
import { once } from 'node:events';
const SIZE = 88, FIELDS = 11;
const names = ['IAVertices','IAPrimitives','VSInvocations','GSInvocations','GSPrimitives','CInvocations','CPrimitives','PSInvocations','HSInvocations','DSInvocations','CSInvocations'];
const out = process.stdout;
out.write(names.join(',') + '\\n');
let rest = Buffer.alloc(0);
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 22 })) {
  const b = rest.length ? Buffer.concat([rest, chunk]) : chunk;
  const n = Math.floor(b.length / SIZE);
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  let text = '';
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < FIELDS; f++) text += (f ? ',' : '') + v.getBigUint64(i * SIZE + f * 8, true);
    text += '\\n';
  }
  rest = b.subarray(n * SIZE);
  if (!out.write(text)) await once(out, 'drain');
}
`,
);

const rusage = spawnSync('python3', ['-c', 'import resource'], { stdio: 'ignore' }).status === 0;
function run(args: string[]): { ns: number; peak: number | null } {
  if (rusage) {
    const r = spawnSync('python3', ['-c', 'import resource,subprocess,sys,time; t=time.perf_counter_ns(); subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); print(time.perf_counter_ns()-t); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)', ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const [ns, kb] = r.stdout.trim().split('\n').map(Number);
    return { ns: ns!, peak: kb! * 1024 };
  }
  const t = process.hrtime.bigint();
  const r = spawnSync(args[0]!, args.slice(1), { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return { ns: Number(process.hrtime.bigint() - t), peak: null };
}

const cli = await builtCli();
const impls: [string, string[]][] = [
  ['dxbin', [process.execPath, cli, 'query', 'decode', '--type', 'pipeline-statistics', input]],
  ['plain-streaming-script', [process.execPath, plain, input]],
];
const results: { case: string; impl: string; median_ns: number; bytes: number; peak_bytes: number | null }[] = [];
for (const [impl, args] of impls) {
  run(args); // warm the page cache
  const runs = [0, 1, 2].map(() => run(args)).sort((a, b) => a.ns - b.ns);
  const r = { case: 'query-csv', impl, median_ns: runs[1]!.ns, bytes: RECORDS * 88, peak_bytes: Math.max(...runs.map((x) => x.peak ?? 0)) || null };
  results.push(r);
  if (json) console.log(JSON.stringify(r));
}
rmSync(dir, { recursive: true, force: true });
if (!json) {
  const base = results.find((r) => r.impl === 'plain-streaming-script')!;
  console.log(`query-csv: ${RECORDS} pipeline-statistics results (${(RECORDS * 88 / 2 ** 20).toFixed(0)} MB) to CSV on /dev/null`);
  for (const r of results) {
    console.log(`  ${r.impl.padEnd(24)} ${((r.bytes / r.median_ns) * 1e3).toFixed(1).padStart(8)} MB/s  ${(base.median_ns / r.median_ns).toFixed(2).padStart(6)}x plain  peak ${r.peak_bytes ? `${(r.peak_bytes / 2 ** 20).toFixed(0)} MB` : 'n/a'}`);
  }
}
