#!/usr/bin/env node
// The `dxbin` command (package.json "bin"). In the published package it runs the built CLI,
// dist/cli.cjs (CommonJS, so a one-file build step never sets up Node's ES module loader). In a
// clone after `npm ci`, where nothing is built yet, it runs the sources through tsx (a
// devDependency), so `npx dxbin` works without a build step and runs what the sources say;
// `npm run build` makes it use dist/ instead.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const built = join(__dirname, '..', 'dist', 'cli.cjs');
if (existsSync(built)) require(built);
else
  import('tsx/esm/api')
    .then(({ register }) => {
      register();
      return import(pathToFileURL(join(__dirname, '..', 'src', 'cli', 'main.ts')).href);
    })
    .catch((e) => {
      process.stderr.write(`dxbin: cannot run the sources without a build (${e && e.message}); run npm run build\n`);
      process.exitCode = 2;
    });
