#!/usr/bin/env node
/**
 * The `dxbin` command (loaded by bin.ts); on a worker thread (--jobs) it serves jobs instead, and
 * worker threads start here. Loads only the command tree: each command's code comes when it runs
 * (commands/index.ts), and node:worker_threads only on a worker thread (thread.ts).
 */
import { installSignalCleanup } from './io.js';
import { findFileCommand, run } from './program.js';
import { serveJobs, setWorkerEntry } from './runner.js';
import { processStreams } from './streams.js';
import { WORKER_THREAD_FLAG, markWorkerThread } from './thread.js';

if (process.argv.includes(WORKER_THREAD_FLAG)) {
  void import('node:worker_threads').then(({ isMainThread, parentPort, workerData }) => {
    if (!isMainThread && (workerData as { dxbinWorker?: boolean } | undefined)?.dxbinWorker) {
      markWorkerThread();
      serveJobs(parentPort!, findFileCommand);
    } else main();
  });
} else main();

function main(): void {
  setWorkerEntry(new URL(import.meta.url));
  installSignalCleanup();
  run(process.argv.slice(2), processStreams()).then((code) => {
    process.exitCode = code;
  });
}
