#!/usr/bin/env node
/**
 * The `dxbin` executable (package.json "bin", built to dist/cli.cjs): turns on a cache of compiled
 * code, then loads the CLI (main.ts), so that the CLI's own code is compiled once and read back
 * from the cache on later runs (issue 27). On Node 22.1 and later that is Node's own
 * (node:module enableCompileCache); on older Node (engines allows Node 20) the CLI's chunks load
 * through compile-cache.ts, a vm.Script code cache. Either lives in os.tmpdir() (Node's
 * node-compile-cache/, or dxbin-compile-cache-UID/); NODE_COMPILE_CACHE moves it,
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off. Neither ever changes what dxbin prints or writes.
 */
import { installChunkCache } from './compile-cache.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major > 22 || (major === 22 && minor >= 1)) {
  void import('node:module')
    .then((m) => (m as { enableCompileCache?: () => unknown }).enableCompileCache?.())
    .catch(() => undefined)
    .then(() => import('./main.js'));
} else {
  // CommonJS handles of the bundle's entry (`module`, `__dirname`): absent when this file runs as an ES module
  if (typeof module === 'object' && module !== null && typeof import.meta.dirname === 'string')
    installChunkCache({ dirname: import.meta.dirname, module, dynamicImport: (specifier) => import(specifier) });
  // scripts/cli-bundle.mjs renders this import as a call of the loader installed above, or of require
  void import('./main.js');
}
