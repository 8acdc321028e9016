/** The progress bar of multi-file runs, on a fake terminal with fake time (@sinonjs/fake-timers): what it draws, and that nothing is drawn off a terminal. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import { startProgress, type ProgressStream } from '../src/cli/progress.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { CORPUS } from './helpers/corpus.js';

const FILES = [join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc'), join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc')];

/** A stream that records what is written; a terminal or not. */
function fakeStream(isTTY: boolean): ProgressStream & { log: string } {
  return {
    log: '',
    isTTY,
    columns: 120,
    write(chunk: string) {
      this.log += chunk;
      return true;
    },
  };
}
/** The bar's lines as a terminal shows them (escape sequences removed, one frame a line). */
const frames = (log: string) => log.split('\x1b[1G').map((f) => f.replace(/\x1b(\[[?0-9;]*[A-Za-z]|[78])/g, '').trim()).filter(Boolean);

const fake = () => FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });

test('on a terminal: done/total files and the time left, redrawn as files finish (one file a second)', async () => {
  const clock = fake();
  try {
    const tty = fakeStream(true);
    const bar = await startProgress(4, tty);
    assert.ok(bar, 'a bar on a terminal');
    assert.equal(frames(tty.log), ['dxbin [░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░] 0/4 files, eta 0s']);
    tty.log = '';
    clock.tick(1000);
    bar!.tick();
    clock.tick(1000);
    bar!.tick();
    clock.tick(200);
    assert.equal(frames(tty.log), ['dxbin [██████████░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░] 1/4 files, eta 3s', 'dxbin [████████████████████░░░░░░░░░░░░░░░░░░░░] 2/4 files, eta 2s']);
    bar!.tick();
    bar!.tick();
    tty.log = '';
    bar!.stop();
    assert.ok(frames(tty.log).some((f) => f.includes('4/4 files')), 'the last frame shows every file done');
    assert.ok(tty.log.endsWith('\x1b[2K'), 'the line is cleared when the run ends');
    const after = tty.log;
    clock.tick(10_000);
    assert.is(tty.log, after, 'nothing drawn after stop');
  } finally {
    clock.uninstall();
  }
});

test('not a terminal (a pipe, a log file) or no stream: no bar, nothing written', async () => {
  const clock = fake();
  try {
    const pipe = fakeStream(false);
    assert.is(await startProgress(4, pipe), undefined);
    assert.is(await startProgress(4, undefined), undefined);
    clock.tick(10_000);
    assert.is(pipe.log, '');
  } finally {
    clock.uninstall();
  }
});

test('dxbin inspect on two files draws the bar on a terminal stderr only, never with --json or --no-progress, never off a terminal', async () => {
  const clock = fake();
  try {
    const drawn = async (args: string[], isTTY: boolean) => {
      const stream = fakeStream(isTTY);
      const streams = { ...captureStreams(), progress: stream };
      assert.is(await run(args, streams), 0);
      return stream.log;
    };
    const tty = await drawn(['inspect', ...FILES], true);
    assert.ok(frames(tty).some((f) => /\] 2\/2 files, eta \d+s$/.test(f)), frames(tty).join(' | '));
    assert.ok(frames(tty)[0]!.includes('0/2 files'), 'starts at 0 of 2');
    assert.is(await drawn(['inspect', ...FILES], false), '', 'off a terminal');
    assert.is(await drawn(['inspect', '--json', ...FILES], true), '', 'with --json');
    assert.is(await drawn(['inspect', '--no-progress', ...FILES], true), '', 'with --no-progress');
    assert.is(await drawn(['inspect', FILES[0]!], true), '', 'one file');
  } finally {
    clock.uninstall();
  }
});

test.run();
