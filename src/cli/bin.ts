#!/usr/bin/env node
/**
 * The `dxbin` executable (package.json "bin", built to dist/cli.cjs): turns on Node's cache of
 * compiled code where Node has one (node:module enableCompileCache, Node >= 22.1; engines allows
 * Node 20, which has none, so it is looked up only there), then loads the CLI (main.ts), so that
 * the CLI's own code is compiled once and read back from the cache on later runs. The cache
 * folder is Node's default; NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major > 22 || (major === 22 && minor >= 1)) {
  void import('node:module')
    .then((m) => (m as { enableCompileCache?: () => unknown }).enableCompileCache?.())
    .catch(() => undefined)
    .then(() => import('./main.js'));
} else void import('./main.js');
