// Types of test/run.mjs for the runner's own test.
export interface FileResult {
  file: string;
  output: string;
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  passed: number;
  failed: number;
  skipped: number;
  problem?: string;
  reasons: string[];
}
export interface Run {
  results: FileResult[];
  passed: number;
  failed: number;
  skipped: number;
}
export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}
/** CPU seconds used by a process group, or undefined without /proc. */
export function groupCpuSeconds(pgid: number): number | undefined;
export function readUvuOutput(output: string): { total?: number; passed?: number; skipped?: number; reasons: string[] };
export function runFiles(o: {
  files: string[];
  jobs?: number;
  timeoutMs?: number;
  /** CPU time the file's process group may use (read from /proc once a second). */
  cpuLimitMs?: number;
  /** How long the file's process group may use no CPU. */
  idleMs?: number;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  onStart?: (file: string) => void;
  onOutput?: (file: string, text: string) => void;
  onDone?: (result: FileResult) => void;
}): Promise<Run>;
export function summaryLine(run: { passed: number; failed: number; skipped: number }): string;
export function report(run: Run, root?: string): string;
export function findTestFiles(dir: string, pattern: string): string[];
