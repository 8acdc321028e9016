/**
 * The progress bar of long multi-file runs: drawn on a terminal only (nothing is written to a
 * stream that is not a TTY), with the files done, the total and the estimated time left.
 * cli-progress (22 files) is loaded only when a bar is drawn, never by a build step without a
 * terminal (issue 27).
 */

/** Where the bar draws: standard error in the CLI, a fake terminal in tests. */
export interface ProgressStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** A started bar: one `tick` per finished file, `stop` when the run ends (clears the line). */
export interface Progress {
  tick(): void;
  stop(): void;
}

/** The bar's line: `dxbin [bar] done/total files, eta Ns`. */
export const PROGRESS_FORMAT = 'dxbin [{bar}] {value}/{total} files, eta {eta_formatted}';

/** Starts a bar over `total` files on `stream`, or returns undefined when the stream is absent or not a terminal. */
export async function startProgress(total: number, stream: ProgressStream | undefined): Promise<Progress | undefined> {
  if (stream?.isTTY !== true) return undefined;
  // a CommonJS package: its exports are the default export under ESM, the module itself under require
  const loaded = (await import('cli-progress')) as typeof import('cli-progress') & { default?: typeof import('cli-progress') };
  const cliProgress = loaded.default ?? loaded;
  const bar = new cliProgress.SingleBar(
    { stream: stream as NodeJS.WritableStream, format: PROGRESS_FORMAT, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { tick: () => bar.increment(), stop: () => bar.stop() };
}
