/** `dxbin fuzz`: coverage-guided fuzzing of dxbin's decoders, libFuzzer conventions (docs/fuzzing.md). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { Argument, Option } from 'commander';
import {
  AGAINST_TARGETS,
  againstReport,
  reproduceAgainst,
  runAgainst,
  TARGET_NAMES,
  contentHash,
  fuzzTarget,
  libFuzzerDictionary,
  mergeCorpora,
  parseDuration,
  parseShard,
  runFuzz,
  runOne,
  seedInputs,
  type Progress,
} from '../../fuzz/index.js';
import type { OnceCommand } from '../command.js';
import { DescriptionError, printable, printableJson } from '../../index.js';
import { UsageError } from '../errors.js';
import { EXIT } from '../exit.js';
import { inputLimit, readInput } from '../io.js';

interface FuzzCliOptions {
  time?: string;
  runs?: string;
  seed: string;
  corpus?: string;
  out?: string;
  jobs: string;
  shard?: string;
  merge?: string[];
  exportDict?: boolean;
  exportSeeds?: string;
  reproduce?: string;
  timeout?: string;
  coverage?: boolean;
  against?: string;
  semantics?: 'vkd3d' | 'runtime';
}

const seconds = (ms: number | undefined) => (ms === undefined ? '?' : ms >= 60_000 ? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s` : `${Math.round(ms / 1000)}s`);
const line = (p: Progress) =>
  `#${p.execs} ${p.target} cov: ${p.features} corp: ${p.corpus} exec/s: ${Math.round(p.execsPerSecond)} crashes: ${p.crashes} timeouts: ${p.timeouts} left: ${seconds(p.remainingMs)}`;

export const fuzz: OnceCommand<FuzzCliOptions> = {
  kind: 'once',
  path: ['fuzz'],
  description: 'fuzz dxbin\'s decoders (coverage-guided, structure-aware); findings as libFuzzer crash-<sha1>/timeout-<sha1> files',
  examples: [
    'dxbin fuzz rts0 container-strict --time 60s --seed 1 --corpus corpus-dir --out findings',
    'dxbin fuzz all --runs 100000 --jobs 2 --shard 0/4 --json',
    'dxbin fuzz rts0 --merge shard0/rts0 shard1/rts0 --corpus merged',
    'dxbin fuzz rts0 --reproduce findings/crash-0123abcd...',
    'dxbin fuzz all --export-dict > dxbin.dict; dxbin fuzz all --export-seeds seeds/',
    'dxbin fuzz rts0 container-lenient --against vkd3d --time 10m --out findings',
    'dxbin fuzz rts0 --against vkd3d --corpus crashers --runs 0 --json',
  ],
  define: (c) =>
    c
      .addArgument(new Argument('<targets...>', 'fuzz targets, or all').choices(['all', ...TARGET_NAMES]))
      .option('--time <duration>', 'time budget for all targets together (60s, 5m, 1h)')
      .option('--runs <n>', 'inputs per target')
      .option('--seed <n>', 'random seed (the same seed, shard and budget in runs give the same campaign)', '1')
      .option('--corpus <dir>', 'corpus folder (one subfolder per target, files named by SHA-1): read as seeds, new coverage written back')
      .option('--out <dir>', 'findings folder (crash-<sha1>, timeout-<sha1>, each with a .txt)')
      .option('--jobs <n>', 'worker threads per target', '1')
      .option('--shard <i/n>', 'run shard i of n (default: JOB_COMPLETION_INDEX and DXBIN_SHARD_COUNT)')
      .option('--merge <dirs...>', 'merge these corpus folders into --corpus, keeping inputs that add coverage')
      .option('--export-dict', 'print a libFuzzer/AFL dictionary of the formats and exit')
      .option('--export-seeds <dir>', 'write the seed corpus (DIR/TARGET/<sha1>) and exit')
      .option('--reproduce <file>', 'run one input through the targets and report (the reproduce command of a finding)')
      .option('--timeout <ms>', 'per-input timeout of the watchdog (default 2000; with --against, of the other side: 10000)')
      .option('--no-coverage', 'do not build the instrumented copy (answers-only feedback)')
      .option('--against <impl>', `compare every input with another implementation: vkd3d (built on first use) or exec:CMD (the framed protocol of docs/fuzzing.md); targets ${AGAINST_TARGETS.join(', ')}`)
      .addOption(new Option('--semantics <rules>', "conversion rules compared with --against (default: the other implementation's own)").choices(['vkd3d', 'runtime'])),
  async run(args, o, streams) {
    const given = (args[0] as string[]) ?? [];
    const targets = given.includes('all') ? [...(o.against !== undefined ? AGAINST_TARGETS : TARGET_NAMES)] : given;
    if (o.against !== undefined) return fuzzAgainst(targets, o, streams);
    if (o.exportDict) {
      await streams.write(libFuzzerDictionary());
      return EXIT.ok;
    }
    if (o.exportSeeds) {
      let n = 0;
      for (const t of targets) {
        mkdirSync(join(o.exportSeeds, t), { recursive: true });
        for (const s of seedInputs(t)) {
          writeFileSync(join(o.exportSeeds, t, contentHash(s)), s);
          n++;
        }
      }
      streams.err(`dxbin: wrote ${n} seeds for ${targets.length} target${targets.length === 1 ? '' : 's'} to ${o.exportSeeds}`);
      return EXIT.ok;
    }
    if (o.reproduce) {
      const data = await readInput(o.reproduce, streams, inputLimit((o as { maxInput?: string }).maxInput));
      let worst: number = EXIT.ok;
      for (const t of targets) {
        const r = runOne(fuzzTarget(t), data);
        if (o.json) await streams.write(`${printableJson({ target: t, file: o.reproduce, finding: r.finding ?? null, error: r.error ?? null, frame: r.frame ?? null })}\n`);
        else await streams.write(`${t}: ${r.finding ? `${r.finding}: ${printable(r.error ?? '')} (at ${printable(r.frame ?? '')})` : 'no finding'}\n`);
        if (r.finding) worst = EXIT.failed;
      }
      return worst as typeof EXIT.ok;
    }
    if (o.merge) {
      if (!o.corpus) throw new UsageError('--merge needs --corpus DIR to write the merged corpus into');
      for (const t of targets) {
        const dirs = o.merge.map((d) => (targets.length > 1 ? join(d, t) : d));
        const r = await mergeCorpora(t, dirs, targets.length > 1 ? join(o.corpus, t) : o.corpus);
        if (o.json) await streams.write(`${JSON.stringify({ target: t, read: r.read, kept: r.kept })}\n`);
        else await streams.write(`${t}: merged ${r.read} inputs, kept ${r.kept} that add coverage\n`);
      }
      return EXIT.ok;
    }
    const timeMs = o.time !== undefined ? parseDuration(o.time) : undefined;
    if (o.time !== undefined && timeMs === undefined) throw new UsageError(`--time takes a duration such as 60s, 5m or 1h, got ${o.time}`);
    const runs = o.runs !== undefined ? Number(o.runs) : undefined;
    if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new UsageError(`--runs takes a positive integer, got ${o.runs}`);
    if (timeMs === undefined && runs === undefined) throw new UsageError('give a budget: --time 60s or --runs N');
    let shard;
    try {
      shard = parseShard(o.shard, process.env);
    } catch (e) {
      if (e instanceof DescriptionError) throw new UsageError(e.detail); // a bad --shard (or shard environment) is a usage error
      throw e;
    }
    const bar =
      streams.stderrIsTTY && !o.json
        ? new cliProgress.SingleBar({ stream: process.stderr, format: 'dxbin fuzz {target} [{bar}] {percentage}% | exec/s {rate} | cov {cov} | corpus {corpus} | crashes {crashes} | timeouts {timeouts} | left {left}', hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic)
        : undefined;
    bar?.start(100, 0, { target: targets[0], rate: 0, cov: 0, corpus: 0, crashes: 0, timeouts: 0, left: '?' });
    const summary = await runFuzz({
      targets,
      timeMs,
      runs,
      seed: Number(o.seed),
      corpusDir: o.corpus,
      outDir: o.out,
      jobs: Number(o.jobs),
      shard,
      timeoutMs: Number(o.timeout ?? 2000),
      coverage: o.coverage,
      progressMs: bar ? 1000 : 10_000,
      onProgress: (p) => {
        if (bar) bar.update(Math.round(p.fraction * 100), { target: p.target, rate: Math.round(p.execsPerSecond), cov: p.features, corpus: p.corpus, crashes: p.crashes, timeouts: p.timeouts, left: seconds(p.remainingMs) });
        else streams.err(line(p)); // plain lines on stderr (stdout keeps the --json summary)
      },
    });
    bar?.stop();
    if (o.json) await streams.write(`${printableJson(summary)}\n`);
    else {
      for (const t of summary.targets) await streams.write(`${t.target}: ${t.execs} execs in ${t.seconds.toFixed(1)} s (${t.execsPerSecond}/s), coverage ${t.features} (${t.coverage}), corpus ${t.corpus}, crashes ${t.crashes}, timeouts ${t.timeouts}\n`);
      for (const f of summary.findings) await streams.write(`${f.kind} in ${f.target}: ${printable(f.error)} at ${printable(f.frame)} (${f.size} bytes, from ${f.originalSize})\n  reproduce: ${printable(f.reproduce)}\n`);
    }
    return summary.findings.length > 0 ? EXIT.failed : EXIT.ok;
  },
};

/** `--against IMPL`: the differential campaign, its replay (`--runs 0`) and its reproduce. */
async function fuzzAgainst(targets: string[], o: FuzzCliOptions & { json?: boolean }, streams: Parameters<typeof fuzz.run>[2]): Promise<typeof EXIT.ok | typeof EXIT.failed> {
  const bad = targets.filter((t) => !AGAINST_TARGETS.includes(t));
  if (bad.length) throw new UsageError(`--against compares ${AGAINST_TARGETS.join(', ')}; ${bad.join(', ')} has no counterpart`);
  if (o.merge || o.exportDict || o.exportSeeds) throw new UsageError('--against runs or replays a campaign; merge and export without it');
  const options = { semantics: o.semantics, timeoutMs: Number(o.timeout ?? 10_000) };
  try {
    if (o.reproduce) {
      const data = await readInput(o.reproduce, streams, inputLimit((o as { maxInput?: string }).maxInput));
      let worst: typeof EXIT.ok | typeof EXIT.failed = EXIT.ok;
      for (const t of targets) {
        const r = await reproduceAgainst(t, o.against!, data, options);
        if (o.json) await streams.write(`${printableJson({ target: t, file: o.reproduce, class: r.cls, finding: r.finding ?? null })}\n`);
        else await streams.write(printable(r.text, { lines: true }));
        if (r.finding) worst = EXIT.failed;
      }
      return worst;
    }
    const timeMs = o.time !== undefined ? parseDuration(o.time) : undefined;
    if (o.time !== undefined && timeMs === undefined) throw new UsageError(`--time takes a duration such as 60s, 5m or 1h, got ${o.time}`);
    const runs = o.runs !== undefined ? Number(o.runs) : undefined;
    if (runs !== undefined && !(Number.isInteger(runs) && runs >= 0)) throw new UsageError(`--runs takes a whole number (0 with --against: replay --corpus alone), got ${o.runs}`);
    if (timeMs === undefined && runs === undefined) throw new UsageError('give a budget: --time 60s or --runs N (--runs 0 replays --corpus)');
    if (runs === 0 && !o.corpus) throw new UsageError('--runs 0 replays --corpus DIR (DIR/TARGET/); give --corpus');
    let shard;
    try {
      shard = parseShard(o.shard, process.env);
    } catch (e) {
      if (e instanceof DescriptionError) throw new UsageError(e.detail);
      throw e;
    }
    const summaries = await runAgainst({
      targets, against: o.against!, ...options, timeMs, runs, seed: Number(o.seed), corpusDir: o.corpus, outDir: o.out, shard, coverage: o.coverage,
      progressMs: 10_000, onProgress: (line) => streams.err(line),
    });
    if (o.json) await streams.write(`${printableJson({ against: o.against, targets: summaries })}\n`);
    else await streams.write(printable(againstReport(summaries), { lines: true }));
    return summaries.some((s) => s.findings.length > 0) ? EXIT.failed : EXIT.ok;
  } catch (e) {
    if (e instanceof DescriptionError && (e.path === 'against' || e.path === 'target')) throw new UsageError(e.detail);
    throw e;
  }
}
