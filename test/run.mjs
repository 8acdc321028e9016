// Runs every test/*.test.ts with uvu under tsx and ends with the plain summary line
// "N passed, N failed" that CI reads. Exit status 1 when anything failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pattern = process.argv[2] ?? '\\.test\\.ts$';
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'node_modules/uvu/bin.js'), 'test', pattern], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
});
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
child.on('close', (code) => {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const number = (label) => Number(plain.match(new RegExp(`${label}:\\s+(\\d+)`))?.[1] ?? NaN);
  const total = number('Total');
  const passed = number('Passed');
  const skipped = number('Skipped');
  let failed = Number.isNaN(total) || Number.isNaN(passed) ? 1 : total - passed - (Number.isNaN(skipped) ? 0 : skipped);
  if (code !== 0 && failed === 0) failed = 1; // a crash outside any test still fails the run
  console.log(`\n${Number.isNaN(passed) ? 0 : passed} passed, ${failed} failed`);
  process.exit(failed === 0 && code === 0 ? 0 : 1);
});
