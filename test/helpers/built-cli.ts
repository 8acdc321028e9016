/**
 * The dxbin command as users run it: src/cli/bin.ts (and main.ts) bundled by rollup as rollup.config.mjs bundles
 * it (scripts/cli-bundle.mjs: cli.cjs and its command chunks in cli/) into
 * node_modules/.cache/dxbin-test/cli-PID/, once per test process, so tests drive the built CLI
 * with plain `node` (no tsx), as a build step would.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rollup, type RollupOptions } from 'rollup';
import typescriptPlugin from '@rollup/plugin-typescript';
import { ROOT } from './corpus.js';
// @ts-expect-error: a JavaScript module of the build (no declarations)
import { cliBundle } from '../../scripts/cli-bundle.mjs';

// the plugin's types describe a CommonJS default export; at run time under ESM it may be either
type PluginFactory = (options: Record<string, unknown>) => import('rollup').Plugin;
const typescript = ((typescriptPlugin as unknown as { default?: PluginFactory }).default ?? typescriptPlugin) as unknown as PluginFactory;

let built: Promise<string> | undefined;

/** Path of the built CLI (built on first use). */
export function builtCli(): Promise<string> {
  built ??= (async () => {
    // one folder per test process: two processes rewriting one shared bundle could each run the other's half-written one
    const dir = join(ROOT, `node_modules/.cache/dxbin-test/cli-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const options = (cliBundle as (o: Record<string, unknown>) => RollupOptions)({
      input: join(ROOT, 'src/cli/bin.ts'),
      dir,
      external: [/^node:/, 'commander', 'cli-progress'],
      plugins: [typescript({ tsconfig: join(ROOT, 'tsconfig.json'), compilerOptions: { noEmit: false, declaration: false, sourceMap: false }, include: ['codecs/**/*.ts', 'src/**/*.ts'], exclude: ['src/query/assembly/**'] })],
    });
    const bundle = await rollup({ ...options, onwarn: () => {} });
    await bundle.write(options.output as import('rollup').OutputOptions);
    await bundle.close();
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'cli.cjs');
  })();
  return built;
}
