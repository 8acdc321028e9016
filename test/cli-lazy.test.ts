/**
 * The CLI loads what a command line needs and nothing more (issue 27): the lazy registry
 * (src/cli/commands/index.ts) matches the command files; one commander tree per process, grown
 * command by command; and the built CLI (bundled as dist/cli.cjs is) running `rootsig decode`
 * loads neither the rollup plugin, the inspector, the fuzzer, the DDI, query or preprocessor code,
 * nor cli-progress, commander's files, node:child_process or node:worker_threads.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMAND_ENTRIES, loadAllCommands } from '../src/cli/commands/index.js';
import { programFor, run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { builtCli } from './helpers/built-cli.js';
import { CORPUS } from './helpers/corpus.js';

const RS = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');

test('each registry entry loads the command file of its own path; no path twice', async () => {
  const loaded = await loadAllCommands();
  assert.is(loaded.length, COMMAND_ENTRIES.length);
  COMMAND_ENTRIES.forEach((e, i) => assert.equal(loaded[i]!.path, e.path, `entry ${e.path.join(' ')}`));
  const keys = COMMAND_ENTRIES.map((e) => e.path.join(' '));
  assert.is(new Set(keys).size, keys.length);
});

test('one commander tree per process: a command line adds its own command; help lists all, in registry order', async () => {
  const before = await programFor(['rootsig', 'decode', RS]);
  const names = (c: import('commander').Command): string[] => c.commands.flatMap((x) => (x.commands.length ? names(x).map((n) => `${x.name()} ${n}`) : [x.name()]));
  const s = captureStreams();
  assert.is(await run(['rootsig', 'decode', RS], s), 0, s.stderr());
  assert.ok(names(before).includes('rootsig decode'));
  assert.not.ok(names(before).includes('inspect'), 'inspect not loaded for rootsig decode');
  assert.is(await programFor(['hash', RS]), before, 'the same tree');
  const help = captureStreams();
  assert.is(await run(['--help'], help), 0);
  const order = names(before);
  assert.equal(order, COMMAND_ENTRIES.map((e) => e.path.join(' ')), 'every command, in the order of commands/index.ts');
  assert.match(help.stdout(), /inspect[\s\S]*rootsig[\s\S]*batch/);
  const again = captureStreams();
  assert.is(await run(['rootsig', 'decode', RS], again), 0, 'the tree parses again after help');
  assert.is(again.stdout(), s.stdout());
});

test('the built CLI: rootsig decode loads its own chunks only, no dependency from node_modules and no child_process or worker_threads', async () => {
  const cli = await builtCli();
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-lazy-'));
  const probe = join(dir, 'probe.cjs');
  const report = join(dir, 'report.json');
  writeFileSync(
    probe,
    `const before = new Set(process.moduleLoadList);\nprocess.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ builtins: process.moduleLoadList.filter((m) => !before.has(m)), files: Object.keys(require.cache) })));\n`,
  );
  const r = spawnSync(process.execPath, ['-r', probe, cli, 'rootsig', 'decode', RS, '-o', join(dir, 'rs.json')], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.match(readFileSync(join(dir, 'rs.json'), 'utf8'), /"version": "1.1"/);
  const { builtins, files } = JSON.parse(readFileSync(report, 'utf8')) as { builtins: string[]; files: string[] };
  const ours = files.filter((f) => f !== probe);
  assert.ok(ours.some((f) => /rootsig-decode-[^/]*\.cjs$/.test(f)), `the decode chunk: ${ours.join(' ')}`);
  assert.equal(ours.filter((f) => f.includes('node_modules/') && !f.includes('.cache/dxbin-test/')), [], 'no package from node_modules (commander is bundled, cli-progress not needed)');
  assert.equal(ours.filter((f) => /(inspect|fuzz|ddi|query|rollup|hlsl-file|preprocess|persistent-worker|batch|suggest|state-object)[^/]*\.cjs$/.test(f)), [], 'no other command code');
  for (const m of ['child_process', 'worker_threads', 'crypto', 'fs/promises', 'module']) assert.not.ok(builtins.some((b) => b === `NativeModule ${m}`), `node:${m} not loaded`);
});

test.run();
