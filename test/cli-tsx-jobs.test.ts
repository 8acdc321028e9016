/** The CLI run from source under tsx (as `npm start` and developers run it) with --jobs: worker threads start from the .ts entry. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CORPUS, ROOT } from './helpers/corpus.js';

const FILES = [join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc'), join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc')];
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

function fromSource(args: string[]) {
  const r = spawnSync(process.execPath, [TSX, join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('tsx src/cli/main.ts inspect --jobs 2 on two corpus files: workers load the .ts entry, output as with one thread', () => {
  const two = fromSource(['inspect', '--json', '--jobs', '2', ...FILES]);
  assert.is(two.stderr, '', 'no worker error (was: Unknown file extension ".ts")');
  assert.is(two.status, 0);
  const lines = two.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; kind: string });
  assert.equal(lines.map((l) => [l.file, l.ok, l.kind]), [[FILES[0], true, 'container'], [FILES[1], true, 'container']]);
  const one = fromSource(['inspect', '--json', ...FILES]);
  assert.is(two.stdout, one.stdout, '--jobs 2 prints the same bytes as one thread');
  const text = fromSource(['rootsig', 'decompile', '--jobs', '2', ...FILES]);
  assert.is(text.status, 0, text.stderr);
  assert.ok(text.stdout.includes('RootFlags') || text.stdout.includes('DescriptorTable'), 'decompiled text from the workers');
});

test.run();
