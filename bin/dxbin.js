#!/usr/bin/env node
// The `dxbin` command (package.json "bin"). In the published package it runs the built CLI,
// dist/cli.js. In a clone after `npm ci`, where nothing is built yet, it runs the sources through
// tsx (a devDependency), so `npx dxbin` works without a build step and always runs what the
// sources say; `npm run build` makes it use dist/ instead.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
