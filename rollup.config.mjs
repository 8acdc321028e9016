// Bundles the library (dist/index.js) and the CLI (dist/cli.js); declarations come from tsc
// (tsconfig.build.json).
import typescript from '@rollup/plugin-typescript';

const external = [/^node:/, 'commander'];
const ts = () => typescript({ tsconfig: './tsconfig.json', compilerOptions: { noEmit: false, declaration: false, sourceMap: false }, include: ['codecs/**/*.ts', 'src/**/*.ts'], exclude: ['src/query/assembly/**'] });

export default [
  { input: 'src/index.ts', output: { file: 'dist/index.js', format: 'es' }, external, plugins: [ts()] },
  { input: 'src/cli/main.ts', output: { file: 'dist/cli.js', format: 'es' }, external, plugins: [ts()] },
];
