// The test runner: every test/*.test.ts runs with uvu under tsx in its own process (two at a time
// by default), so a file that fails to import is one failure and the others still run. Each file
// has a time limit: a file that hangs (or keeps the process alive after its tests) is killed and
// fails with its name, and the summary is still printed. Skips are counted as skips and their
// reasons (`skipped: ...` lines from test/helpers/requires.ts) are listed. The closing line is
// the one CI reads:
//
//     N passed, N failed, N skipped
//
// Usage: node test/run.mjs [regex on the file name]
// Environment: DXBIN_TEST_JOBS (files at a time, default 2), DXBIN_TEST_TIMEOUT (CPU seconds per
// file, default 300; wall time is a backstop at six times that), DXBIN_TEST_IDLE (seconds a file
// may use no CPU, default 120), DXBIN_TEST_DIR (folder of test files, default test/).
// Exit status 1 when anything failed.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Reads one test file's output: uvu's closing `Total/Passed/Skipped` block and the skip reasons.
 * @param {string} output the file's stdout and stderr
 * @returns {{ total?: number, passed?: number, skipped?: number, reasons: string[] }}
 */
export function readUvuOutput(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const last = (label) => {
    const all = [...plain.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)\\s*$`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : undefined;
  };
  const reasons = [...plain.matchAll(/^skipped: (.*)$/gm)].map((m) => m[1].trim());
  return { total: last('Total'), passed: last('Passed'), skipped: last('Skipped'), reasons };
}

/**
 * Judges one finished (or killed) file.
 * @returns {{ passed: number, failed: number, skipped: number, problem?: string }}
 */
export function judge({ output, code, signal, timedOut, timeoutMs, limit }) {
  const { total, passed, skipped, reasons } = readUvuOutput(output);
  const counted = total !== undefined && passed !== undefined;
  const r = {
    passed: counted ? passed : 0,
    failed: counted ? total - passed : 0,
    skipped: counted ? (skipped ?? 0) : reasons.length,
  };
  if (timedOut) {
    r.failed += 1;
    const what = limit ?? `ran for ${timeoutMs / 1000} s`;
    r.problem = counted
      ? `its tests finished but the process was still running: it ${what} (a live timer or handle); killed`
      : limit !== undefined ? `a test did not finish: it ${what}; killed` : `timed out after ${timeoutMs / 1000} s (a test did not finish); killed`;
  } else if (!counted) {
    r.failed += 1;
    r.problem = code !== 0 || signal
      ? `did not run its tests: exit ${signal ?? code} before uvu's summary (import or top-level error, see its output)`
      : 'printed no uvu summary (no test.run()?)';
  } else if (code !== 0 && r.failed === 0) {
    r.failed += 1;
    r.problem = `exit ${signal ?? code} after its tests passed (an error outside any test, see its output)`;
  }
  return r;
}

const CLK_TCK = 100; // Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

/**
 * CPU seconds used by the process group `pgid` (a test file and what it started): the live members'
 * user and system time, plus the children its leader has already reaped. Undefined where /proc is
 * not there (then only the wall-clock limit applies).
 */
export function groupCpuSeconds(pgid) {
  let names;
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  let ticks = 0;
  let found = false;
  for (const n of names) {
    let stat;
    try {
      stat = readFileSync(`/proc/${n}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    if (Number(f[2]) !== pgid) continue; // field 5: process group
    found = true;
    ticks += Number(f[11]) + Number(f[12]); // utime, stime
    if (Number(n) === pgid) ticks += Number(f[13]) + Number(f[14]); // cutime, cstime of reaped children
  }
  return found ? ticks / CLK_TCK : undefined;
}

/**
 * Runs test files, `jobs` at a time, each in its own process under a time limit.
 *
 * Load-independent limits (main() uses them): `cpuLimitMs`, the CPU time a file's process group may
 * use (a busy hang), and `idleMs`, how long it may use no CPU at all (a hang waiting on nothing),
 * both read from /proc once a second on the real clock. A loaded machine makes a file take longer
 * but not use more CPU, so neither limit fails a slow file; `timeoutMs` (on `clock`) is then only
 * the backstop.
 * @param {object} o
 * @param {string[]} o.files absolute paths
 * @param {number} [o.jobs] files at a time
 * @param {number} [o.timeoutMs] per file
 * @param {{ setTimeout: Function, clearTimeout: Function }} [o.clock] the timer of the time limit
 * @param {NodeJS.ProcessEnv} [o.env]
 * @param {(file: string) => void} [o.onStart]
 * @param {(file: string, text: string) => void} [o.onOutput]
 * @param {(result: object) => void} [o.onDone]
 */
export function runFiles({ files, jobs = 2, timeoutMs = 300_000, cpuLimitMs, idleMs, clock = globalThis, env = process.env, onStart, onOutput, onDone }) {
  const queue = [...files].sort((a, b) => statSync(b).size - statSync(a).size); // big (slow) files first
  const results = [];
  const runOne = (file) =>
    new Promise((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
        detached: true, // its own process group, so that a kill also ends what it started
      });
      let output = '';
      const take = (c) => {
        output += c;
        onOutput?.(file, String(c));
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      let timedOut = false;
      let limit;
      const kill = (why) => {
        timedOut = true;
        limit ??= why;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = clock.setTimeout(() => kill(undefined), timeoutMs);
      let lastCpu = 0;
      let lastChange = Date.now();
      const watch = cpuLimitMs === undefined && idleMs === undefined ? undefined : setInterval(() => {
        const cpu = groupCpuSeconds(child.pid);
        if (cpu === undefined) return;
        const now = Date.now();
        if (cpu > lastCpu) (lastCpu = cpu), (lastChange = now);
        if (cpuLimitMs !== undefined && cpu * 1000 > cpuLimitMs) kill(`used more than ${cpuLimitMs / 1000} s of CPU`);
        else if (idleMs !== undefined && now - lastChange > idleMs) kill(`used no CPU for ${idleMs / 1000} s`);
      }, 1000);
      watch?.unref?.();
      onStart?.(file);
      child.on('close', (code, signal) => {
        clock.clearTimeout(timer);
        if (watch) clearInterval(watch);
        const result = { file, output, code, signal, timedOut, ...judge({ output, code, signal, timedOut, timeoutMs, limit }), reasons: readUvuOutput(output).reasons };
        results.push(result);
        onDone?.(result);
        done();
      });
    });
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await runOne(file);
  };
  return Promise.all(Array.from({ length: Math.max(1, jobs) }, worker)).then(() => {
    results.sort((a, b) => a.file.localeCompare(b.file));
    const sum = (k) => results.reduce((n, r) => n + r[k], 0);
    return { results, passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped') };
  });
}

/** The closing line CI reads. */
export function summaryLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/** The report after the run: skip reasons, failed files, the closing line. */
export function report(run, root = ROOT) {
  const rel = (f) => f.startsWith(root) ? f.slice(root.length + 1) : f;
  const lines = [];
  const skips = run.results.flatMap((r) => r.reasons.map((why) => `  ${rel(r.file)}: ${why}`));
  if (run.skipped > 0 || skips.length) lines.push(`skipped (${run.skipped}):`, ...(skips.length ? skips : ['  (no reason printed)']));
  const bad = run.results.filter((r) => r.failed > 0);
  if (bad.length) lines.push('failed:', ...bad.map((r) => `  ${rel(r.file)}: ${r.failed} failed${r.problem ? ` (${r.problem})` : ''}`));
  lines.push(summaryLine(run));
  return lines.join('\n');
}

/** Test files below `dir` whose name matches `pattern`. */
export function findTestFiles(dir, pattern) {
  const re = new RegExp(pattern);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts') && re.test(f))
    .map((f) => join(dir, f))
    .sort();
}

async function main() {
  const dir = resolve(process.env.DXBIN_TEST_DIR ?? join(ROOT, 'test'));
  const files = findTestFiles(dir, process.argv[2] ?? '\\.test\\.ts$');
  const jobs = Number(process.env.DXBIN_TEST_JOBS ?? 2);
  // the per-file limit is CPU time (DXBIN_TEST_TIMEOUT, 300 s) and 120 s without any CPU use, which
  // a loaded machine does not change; wall time only as a backstop, at six times the CPU limit
  const cpuLimitMs = Number(process.env.DXBIN_TEST_TIMEOUT ?? 300) * 1000;
  const idleMs = Number(process.env.DXBIN_TEST_IDLE ?? 120) * 1000;
  const timeoutMs = cpuLimitMs * 6;
  const started = Date.now();
  const run = await runFiles({
    files,
    jobs,
    timeoutMs,
    cpuLimitMs,
    idleMs,
    onDone: (r) => {
      const rel = r.file.slice(dir.length + 1);
      const counts = `${r.passed} passed${r.failed ? `, ${r.failed} failed` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}`;
      if (r.failed > 0) {
        process.stdout.write(`\nFAIL ${rel}: ${counts}${r.problem ? `; ${r.problem}` : ''}\n`);
        process.stdout.write(r.output.replace(/^/gm, '  | ') + '\n');
      } else {
        process.stdout.write(`ok   ${rel}: ${counts}\n`);
      }
    },
  });
  if (files.length === 0) run.failed += 1, console.log(`no test files in ${dir} match ${process.argv[2]}`);
  console.log(`\n${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(report(run, dir));
  process.exitCode = run.failed === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
