/**
 * How the dxbin command is bundled (issue 27), shared by rollup.config.mjs (dist/cli.cjs) and the
 * tests' built CLI (test/helpers/built-cli.ts):
 * - one entry, cli.cjs (src/cli/bin.ts: a compile cache, Node's on Node 22.1 and later, else
 *   src/cli/compile-cache.ts loading the chunks, then the CLI in a chunk, main-*.cjs, holding the
 *   command tree); each command's file (listed with a loader in
 *   src/cli/commands/index.ts) is a chunk of cli/, loaded when the command runs, with the library
 *   code it uses and nothing else (the modules are side-effect free, so what a command does not
 *   use is left out). `dxbin rootsig decode` thus loads no rollup plugin, inspector, fuzzer, DDI or
 *   query code, and cli-progress only on a terminal (src/cli/progress.ts);
 * - CommonJS, not ES modules: a process starting from CommonJS never sets up Node's ES module
 *   loader (URL resolution, module jobs, the CommonJS export scan of commander), which costs a
 *   build step's one-file process more than dxbin's own work;
 * - built apart from the library (dist/index.js, dist/chunks/) so that its chunks follow the
 *   commands, not the library's exports. The chunks sit one folder below cli.cjs, where
 *   dxbin fuzz finds ../fuzz-worker.js (src/fuzz/engine.ts);
 * - commander's files are bundled in (inlineCommander), so that starting dxbin neither resolves
 *   and loads seven files from node_modules nor loads node:child_process (with net, dgram and the
 *   stream modules), which commander needs only for executable subcommands, which dxbin has none
 *   of: it is required the first time commander would use it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const COMMANDER = '\0dxbin-commander';
const COMMANDER_FILES = ['index.js', 'lib/argument.js', 'lib/command.js', 'lib/error.js', 'lib/help.js', 'lib/option.js', 'lib/suggestSimilar.js'];

/** `import ... from 'commander'` resolved to commander's own files, wrapped as CommonJS modules in one module, its license kept. */
function inlineCommander() {
  const root = dirname(createRequire(import.meta.url).resolve('commander')); // its index.js
  return {
    name: 'dxbin-inline-commander',
    resolveId: (source) => (source === 'commander' ? COMMANDER : null),
    load(id) {
      if (id !== COMMANDER) return null;
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const license = readFileSync(join(root, 'LICENSE'), 'utf8').trim().replace(/\*\//g, '* /');
      const modules = COMMANDER_FILES.map((f) => {
        this.addWatchFile(join(root, f));
        return `  ${JSON.stringify(f)}: function (module, exports, require) {\n${readFileSync(join(root, f), 'utf8')}\n  },`;
      });
      return `/*! commander ${pkg.version} (bundled into dxbin's CLI, scripts/cli-bundle.mjs)
${license}
*/
import * as events from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
const files = {
${modules.join('\n')}
};
// node:child_process runs commander's executable subcommands only: loaded when first touched
const childProcess = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });
const builtins = { 'node:events': events, 'node:fs': fs, 'node:path': path, 'node:process': process, 'node:child_process': childProcess };
const loaded = {};
function load(name) {
  if (loaded[name]) return loaded[name].exports;
  const module = (loaded[name] = { exports: {} });
  const base = name.includes('/') ? name.slice(0, name.lastIndexOf('/') + 1) : '';
  files[name](module, module.exports, (request) => {
    if (builtins[request]) return builtins[request];
    const rel = base + (request.startsWith('./') ? request.slice(2) : request);
    const file = rel.endsWith('.js') ? rel : rel + '.js';
    if (!files[file]) throw new Error('commander bundle: no ' + request + ' from ' + name);
    return load(file);
  });
  return module.exports;
}
export const { Argument, Command, CommanderError, Help, InvalidArgumentError, Option } = load('index.js');
`;
    },
  };
}

export function cliBundle({ input = 'src/cli/bin.ts', dir, external, plugins }) {
  return {
    input: { cli: input },
    output: { dir, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'cli/[name]-[hash].cjs', interop: 'auto', exports: 'auto'},
    external: external.filter((e) => e !== 'commander'),
    treeshake: { moduleSideEffects: (_id, externalModule) => externalModule },
    plugins: [inlineCommander(), chunkCacheImports(), ...plugins],
  };
}

/**
 * The imports the chunk loader of Node 20 (src/cli/compile-cache.ts) needs written its way:
 * - the entry's import of the CLI's main chunk calls the loader bin.ts installed (registered under
 *   Symbol.for('dxbin.cli.require')), or require when it did not install one;
 * - a dynamic import of a package or a URL in a chunk (cli-progress, the fuzzer's targets) calls
 *   `__dxbinImport`, the entry's `import()`, which the loader passes to each chunk it compiles (code
 *   compiled by vm.Script has no `import()` of its own on Node 20); a chunk Node loads itself (a
 *   worker thread's, or with the cache off) has no `__dxbinImport` and uses its own `import()`;
 * - `import.meta.dirname` is the module's `__dirname`.
 */
function chunkCacheImports() {
  return {
    name: 'dxbin-chunk-cache-imports',
    renderDynamicImport({ format, chunk, targetChunk }) {
      if (format !== 'cjs') return null;
      if (chunk.isEntry)
        return targetChunk ? { left: "Promise.resolve().then(function () { return (globalThis[Symbol.for('dxbin.cli.require')] || require)(", right: '); })' } : null;
      return targetChunk ? null : { left: "(typeof __dxbinImport === 'function' ? __dxbinImport : function (specifier) { return import(specifier); })(", right: ')' };
    },
    resolveImportMeta(property, { format }) {
      if (format !== 'cjs') return null;
      if (property === 'dirname') return '__dirname';
      if (property === 'filename') return '__filename';
      return null;
    },
  };
}
