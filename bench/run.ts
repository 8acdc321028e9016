/**
 * `npm run bench [-- FAMILY...] [--json]`: runs every case family, bench/<family>.ts (each a
 * standalone script printing a table, or with --json one {"case","impl","median_ns","bytes",...}
 * object per line), one after another in fresh processes, and prints how long each took.
 * The whole run is meant to finish in under 2 minutes on a 2-core machine. `--goals` runs the
 * families with --json and ends with the table of issue 15's goals (the README's table).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const goals = args.includes('--goals');
const json = args.includes('--json') || goals;
const wanted = args.filter((a) => !a.startsWith('--'));
const families = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .filter((f) => wanted.length === 0 || wanted.includes(f))
  .sort();
const unknown = wanted.filter((w) => !families.includes(w));
if (unknown.length) {
  console.error(`bench: no family ${unknown.join(', ')} (bench/<family>.ts)`);
  process.exit(2);
}

interface Row {
  case: string;
  impl: string;
  median_ns: number;
  ns_per_record?: number;
  vs_dxbin?: number;
  vs_dxbin_min?: number;
  vs_dxbin_max?: number;
  /** build-step rows: ratio to the case's baseline row (bench/build-step.ts) */
  vs?: number;
  vs_min?: number;
  vs_max?: number;
  note?: string;
}
const rows: Row[] = [];
const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
const start = performance.now();
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
log(`bench: ${families.length} families on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, load average ${load()}`);
let failed = 0;
for (const family of families) {
  const t = performance.now();
  if (!json) log(`\n==== ${family} (bench/${family}.ts)`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${family}.ts`), ...(json ? ['--json'] : [])], { stdio: goals ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', maxBuffer: 64 << 20 });
  if (goals) {
    process.stderr.write(r.stdout);
    for (const line of r.stdout.split('\n')) if (line.startsWith('{')) rows.push(JSON.parse(line) as Row);
  }
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  if (r.status !== 0) {
    failed++;
    log(`bench/${family}.ts failed (exit ${r.status ?? r.signal}) after ${seconds} s`);
  } else log(`---- ${family}: ${seconds} s`);
}
log(`\nbench: ${families.length} families in ${((performance.now() - start) / 1000).toFixed(1)} s${failed ? `, ${failed} failed` : ''}; load average ${load()}`);
if (goals) printGoals();
process.exit(failed ? 1 : 0);

/** Issue 15's "Done means", from this run's rows: dxbin's speed relative to each peer (peer time / dxbin time). */
function printGoals(): void {
  const row = (kase: string, impl: string) => rows.find((r) => r.case === kase && r.impl === impl);
  const lines: string[] = ['| case | measure | this run [range over rounds] | goal | met |', '|---|---|---|---|---|'];
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const add = (kase: string, measure: string, value: number | undefined, range: string, goal: string, met: boolean | undefined) =>
    lines.push(`| ${kase} | ${measure} | ${value === undefined ? 'not measured' : `${f(value)}x ${range}`} | ${goal} | ${met === undefined ? '-' : met ? 'yes' : 'no'} |`);
  /** dxbin (the case's baseline row) speed relative to `impl`: its vs_dxbin. */
  const speedVs = (kase: string, impl: string, goal: string, min?: number) => {
    const r = row(kase, impl);
    add(kase, `dxbin speed / ${impl}`, r?.vs_dxbin, r ? `[${f(r.vs_dxbin_min!)}-${f(r.vs_dxbin_max!)}]` : '', goal, r && min !== undefined ? r.vs_dxbin! >= min : undefined);
  };
  speedVs('rootsig-roundtrip', 'vkd3d-native', '>= 0.5x (aim 1x)', 0.5);
  speedVs('rootsig-roundtrip', 'dataview-handwritten', '> 1x', 1);
  speedVs('rootsig-roundtrip', 'restructure', '-');
  speedVs('rootsig-roundtrip', 'binary-parser', '-');
  speedVs('digest-64k', 'node-md5', '>= 0.8x (default path)', 0.8);
  {
    const js = row('digest-64k', 'dxbin-js');
    const node = row('digest-64k', 'node-md5');
    add('digest-64k', 'dxbin JS fallback speed / node-md5', js && node ? node.vs_dxbin! / js.vs_dxbin! : undefined, '', 'reported', undefined);
  }
  speedVs('digest-64k', 'vkd3d-native', '-');
  {
    const r = row('digest-batch', 'dxbin-batch4');
    add('digest-batch', 'four at a time (WASM SIMD) speed / one by one', r ? 1 / r.vs_dxbin! : undefined, '', '(welcome)', undefined);
  }
  {
    const r = row('timestamp-durations-from-js', 'dxbin-simd');
    add('timestamp-durations-from-js', 'time / timestamp-durations (in WASM)', r?.vs_dxbin, r ? `[${f(r.vs_dxbin_min!)}-${f(r.vs_dxbin_max!)}]` : '', '<= 1.5x', r ? r.vs_dxbin! <= 1.5 : undefined);
  }
  {
    const r = row('pipeline-statistics-sum-from-js', 'dxbin-simd');
    add('pipeline-statistics-sum-from-js', 'time / pipeline-statistics-sum (in WASM)', r?.vs_dxbin, r ? `[${f(r.vs_dxbin_min!)}-${f(r.vs_dxbin_max!)}]` : '', 'reported', undefined);
  }
  for (const kase of ['timestamp-durations', 'pipeline-statistics-sum']) {
    speedVs(kase, 'binary-parser', '>= 50x', 50);
    speedVs(kase, 'restructure', '>= 50x', 50);
    speedVs(kase, 'dataview-loop', '>= 5x', 5);
    speedVs(kase, 'native-c', '>= 0.5x', 0.5);
    speedVs(kase, 'dxbin-scalar', '> 1x (SIMD faster than scalar)', 1.0000001);
  }
  speedVs('hlsl-preprocess', 'cpp', '>= 0.5x (issue 19)', 0.5);
  const hlsl = row('hlsl-compile', 'dxbin');
  if (hlsl) lines.push(`| hlsl-compile | strings per second | ${Math.round(1e9 / hlsl.ns_per_record!)} (${(hlsl.ns_per_record! / 1e3).toFixed(0)} us a string) | - | - |`);
  // issue 27: build steps at the floor (bench/build-step.ts; ratios to the case's baseline row)
  const ratio = (kase: string, impl: string, measure: string, goal: string, max?: number) => {
    const r = row(kase, impl);
    add(kase, measure, r?.vs, r?.vs !== undefined ? `[${f(r.vs_min!)}-${f(r.vs_max!)}]` : (r?.note ?? ''), goal, r?.vs !== undefined && max !== undefined ? r.vs <= max : undefined);
  };
  ratio('build-step-startup', 'dxbin-rootsig-decode', 'rootsig decode process / node -e 0', '<= 1.3x', 1.3);
  ratio('build-step-startup', 'vkd3d-compiler-cs-to-spirv', 'vkd3d-compiler process / node -e 0', 'reported');
  const big = rows.filter((r) => r.case.startsWith('build-step-convert-')).map((r) => r.case).sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()))[0];
  if (big) for (const impl of ['dxbin-convert-one-call', 'dxbin-batch', 'dxbin-worker-multiplex', 'dxbin-worker-singleplex']) ratio(big, impl, `${impl} per file / I/O floor`, '<= 3x', 3);
  const first = row('query-first-call', 'dxbin-simd');
  if (first) lines.push(`| query-first-call | first call in a process | ${(first.median_ns / 1e6).toFixed(2)} ms | - | - |`);
  console.log(`\n${lines.join('\n')}`);
}
