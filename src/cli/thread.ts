/**
 * Whether this thread is the process's main thread, without loading node:worker_threads (a build
 * step's `dxbin` process never needs it): worker threads of `--jobs` are started with
 * WORKER_THREAD_FLAG in their argv, and the entry point marks them.
 */

/** In the argv of the CLI's worker threads (runner.ts); main.ts checks workerData too before serving jobs. */
export const WORKER_THREAD_FLAG = '--dxbin-worker-thread';

let main = true;

/** Called by the entry point on a worker thread of --jobs. */
export function markWorkerThread(): void {
  main = false;
}

/** True on the main thread (signal handlers are installed there only). */
export function isMainThread(): boolean {
  return main;
}
