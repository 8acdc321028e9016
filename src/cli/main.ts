#!/usr/bin/env node
/** Entry point of the `dxbin` command; on a worker thread (--jobs) it serves jobs instead. */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { installSignalCleanup } from './io.js';
import { findFileCommand, run } from './program.js';
import { serveJobs, setWorkerEntry } from './runner.js';
import { processStreams } from './streams.js';

if (!isMainThread && (workerData as { dxbinWorker?: boolean } | undefined)?.dxbinWorker) {
  serveJobs(parentPort!, findFileCommand);
} else {
  setWorkerEntry(new URL(import.meta.url));
  installSignalCleanup();
  run(process.argv.slice(2), processStreams()).then((code) => {
    process.exitCode = code;
  });
}
