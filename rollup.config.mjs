// Bundles the library (dist/index.js) and the CLI (dist/cli.js); declarations come from tsc
// (tsconfig.build.json).
import typescript from '@rollup/plugin-typescript';

const external = [/^node:/, 'commander', 'cli-progress', 'tinyglobby'];
const ts = () => typescript({ tsconfig: './tsconfig.json', compilerOptions: { noEmit: false, declaration: false, sourceMap: false }, include: ['codecs/**/*.ts', 'src/**/*.ts'], exclude: ['src/query/assembly/**', 'src/container/assembly/**'] });

export default [
  // the root and the subpath entries (dxbin/query, dxbin/ddi) share chunks, so an error class is one class
  { input: { index: 'src/index.ts', query: 'src/query/index.ts', ddi: 'src/ddi/index.ts' }, output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' }, external, plugins: [ts()] },
  { input: 'src/cli/main.ts', output: { file: 'dist/cli.js', format: 'es' }, external, plugins: [ts()] },
];
