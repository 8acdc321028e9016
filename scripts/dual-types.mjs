// After `tsc -p tsconfig.build.json`: the declarations for the require condition. dist/cjs has its
// own package.json ("type": "commonjs"), so a copy of dist/types under dist/cjs/types is read by
// TypeScript as CommonJS declarations (a .cts consumer, node16 resolution) and the ES module
// declarations stay ES module declarations: the types are right for both conditions.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cjs = join(root, 'dist/cjs');
mkdirSync(cjs, { recursive: true });
writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
rmSync(join(cjs, 'types'), { recursive: true, force: true });
cpSync(join(root, 'dist/types'), join(cjs, 'types'), { recursive: true });
