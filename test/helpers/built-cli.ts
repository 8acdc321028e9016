/**
 * The dxbin command as users run it: src/cli/main.ts bundled by rollup (the same plugins as
 * rollup.config.mjs) into node_modules/.cache/dxbin-test/cli-PID.js, once per test process, so tests
 * drive the built CLI with plain `node` (no tsx), as a build step would.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rollup } from 'rollup';
import typescriptPlugin from '@rollup/plugin-typescript';
import { ROOT } from './corpus.js';

// the plugin's types describe a CommonJS default export; at run time under ESM it may be either
type PluginFactory = (options: Record<string, unknown>) => import('rollup').Plugin;
const typescript = ((typescriptPlugin as unknown as { default?: PluginFactory }).default ?? typescriptPlugin) as unknown as PluginFactory;

let built: Promise<string> | undefined;

/** Path of the built CLI (built on first use). */
export function builtCli(): Promise<string> {
  built ??= (async () => {
    const dir = join(ROOT, 'node_modules/.cache/dxbin-test');
    mkdirSync(dir, { recursive: true });
    const bundle = await rollup({
      input: join(ROOT, 'src/cli/main.ts'),
      external: [/^node:/, 'commander', 'cli-progress'],
      plugins: [typescript({ tsconfig: join(ROOT, 'tsconfig.json'), compilerOptions: { noEmit: false, declaration: false, sourceMap: false }, include: ['codecs/**/*.ts', 'src/**/*.ts'], exclude: ['src/query/assembly/**'] })],
      onwarn: () => {},
    });
    // one file per test process: two processes rewriting one shared file could each run the other's half-written bundle
    const file = join(dir, `cli-${process.pid}.js`);
    await bundle.write({ file, format: 'es' });
    await bundle.close();
    process.on('exit', () => rmSync(file, { force: true }));
    return file;
  })();
  return built;
}
