/**
 * The README as a newcomer meets it: every `console` block is run (each `$ npx dxbin ...` line from
 * a folder holding corpus/, its stdout then stderr compared with the lines shown under it); the
 * first 60 lines hold the install line and at least five of those commands; at most 200 lines;
 * the quick start lines. And `npx dxbin` in a clone after `npm ci`: bin/dxbin.cjs runs the sources
 * through tsx when nothing is built, dist/cli.cjs when it is (a copy of the checkout, no network).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers/corpus.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const lines = README.split('\n');
const TSX = import.meta.resolve('tsx');

interface Example {
  line: number;
  args: string[];
  expected: string;
}

/** Words of a command line as a POSIX shell splits them (plain words, "double" and 'single' quotes). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return words;
}

/** The `$ npx dxbin` commands of the README's console blocks, each with the output shown under it. */
function examples(): Example[] {
  const out: Example[] = [];
  let inBlock = false;
  let current: Example | undefined;
  for (const [i, line] of lines.entries()) {
    if (line === '```console') {
      inBlock = true;
      continue;
    }
    if (inBlock && line === '```') {
      inBlock = false;
      current = undefined;
      continue;
    }
    if (!inBlock) continue;
    if (line.startsWith('$ ')) {
      const words = shellWords(line.slice(2));
      assert.equal(words.slice(0, 2), ['npx', 'dxbin'], `README line ${i + 1}: a console block runs npx dxbin`);
      current = { line: i + 1, args: words.slice(2), expected: '' };
      out.push(current);
    } else {
      assert.ok(current, `README line ${i + 1}: output before any command`);
      current!.expected += `${line}\n`;
    }
  }
  return out;
}

test('the README: at most 200 lines; install line and at least five run examples in the first 60; quick start lines', () => {
  assert.ok(lines.length <= 200, `${lines.length} lines`);
  const head = lines.slice(0, 60);
  assert.ok(head.some((l) => /^\s+npm i dxbin\b/.test(l)), 'npm i dxbin in the first 60 lines');
  assert.ok(head.some((l) => /^\s+npx dxbin\b/.test(l)), 'npx dxbin in the first 60 lines');
  const early = examples().filter((e) => e.line <= 60);
  assert.ok(early.length >= 5, `${early.length} run examples in the first 60 lines`);
  assert.ok(README.includes('\n    npm ci && npm start '), 'quick start: npm ci && npm start');
  assert.ok(README.includes('\n    npm ci && npm test '), 'quick start: npm ci && npm test');
});

test('every console example of the README prints what the README shows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-readme-'));
  symlinkSync(join(ROOT, 'corpus'), join(dir, 'corpus'));
  const all = examples();
  assert.ok(all.length >= 6);
  for (const e of all) {
    const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...e.args], { cwd: dir, encoding: 'utf8' });
    assert.is(r.status, 0, `README line ${e.line}: exit ${r.status}\n${r.stderr}`);
    assert.fixture(r.stdout + r.stderr, e.expected, `README line ${e.line}: dxbin ${e.args.join(' ')}`);
  }
});

test("the README's library example runs (dxbin as the sources, shader.cso a corpus shader) and prints what it says", () => {
  const m = /```ts\n([\s\S]*?)```/.exec(README);
  assert.ok(m, 'a ts block');
  const code = m![1]!;
  assert.ok(code.trimEnd().split('\n').length <= 10, 'the library in ten lines');
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-readme-lib-'));
  const file = join(dir, 'example.ts');
  const shader = join(ROOT, 'corpus/shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc');
  writeFileSync(file, code.replace("from 'dxbin'", `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`).replace("'shader.cso'", JSON.stringify(shader)));
  const r = spawnSync(process.execPath, ['--import', TSX, file], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '1.1 3\nfits\n');
});

test('npx dxbin in a clone after npm ci: the launcher runs the sources without a build, dist/cli.cjs with one', () => {
  const clone = mkdtempSync(join(tmpdir(), 'dxbin-clone-'));
  cpSync(join(ROOT, 'package.json'), join(clone, 'package.json'));
  cpSync(join(ROOT, 'bin'), join(clone, 'bin'), { recursive: true });
  for (const d of ['src', 'codecs', 'node_modules']) symlinkSync(join(ROOT, d), join(clone, d));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string>; files: string[] };
  assert.is(pkg.bin.dxbin, 'bin/dxbin.cjs');
  assert.ok(pkg.files.includes('bin'), 'the launcher is in the package');
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: clone, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' } });
  const direct = run(process.execPath, [join(clone, 'bin/dxbin.cjs'), '--version']);
  assert.is(direct.status, 0, direct.stderr);
  assert.is(direct.stdout.trim(), pkg.version);
  // npx (npm exec) runs the package's own bin in its folder
  const npx = join(dirname(process.execPath), 'npx');
  const viaNpx = run(npx, ['--offline', 'dxbin', 'rootsig', 'validate', join(ROOT, 'corpus/rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc')]);
  assert.is(viaNpx.status, 0, viaNpx.stderr);
  assert.match(viaNpx.stdout, /valid \(target runtime\)/);
  // built: dist/cli.cjs runs instead of the sources
  mkdirSync(join(clone, 'dist'));
  writeFileSync(join(clone, 'dist/cli.cjs'), "console.log('the built CLI', process.argv.slice(2).join(' '));\n");
  const built = run(process.execPath, [join(clone, 'bin/dxbin.cjs'), '--version']);
  assert.is(built.stdout, 'the built CLI --version\n');
});

test.run();
