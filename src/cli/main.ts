#!/usr/bin/env node
/** Entry point of the `dxbin` command. */
import { run } from './program.js';

process.exitCode = run(process.argv.slice(2));
