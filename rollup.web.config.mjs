// The web inspector: web/main.ts with the package's code (WASM kernels inlined as base64, JS
// fallback included) as one classic script, plus web/index.html and web/style.css, written to
// site/ (DXBIN_SITE_DIR overrides; tests build into a temporary folder). Not part of the npm
// package. A classic deferred script (not a module) so the page also works from file://.
import typescript from '@rollup/plugin-typescript';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const out = process.env.DXBIN_SITE_DIR ?? 'site';

/** Copies the page and its stylesheet next to the bundle. */
const page = () => ({
  name: 'dxbin-page',
  writeBundle() {
    mkdirSync(join(out, 'assets'), { recursive: true });
    copyFileSync('web/index.html', join(out, 'index.html'));
    copyFileSync('web/style.css', join(out, 'assets', 'style.css'));
  },
});

export default {
  input: 'web/main.ts',
  output: { file: join(out, 'assets', 'app.js'), format: 'iife', sourcemap: false },
  plugins: [
    typescript({ tsconfig: './tsconfig.json', compilerOptions: { noEmit: false, declaration: false, sourceMap: false }, include: ['codecs/**/*.ts', 'src/**/*.ts', 'web/**/*.ts'], exclude: ['src/query/assembly/**', 'src/container/assembly/**', 'src/cli/**'] }),
    page(),
  ],
};
