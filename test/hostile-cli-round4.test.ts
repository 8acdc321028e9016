/**
 * Hostile-input round 4 on the CLI and its protocols (file names, special files, response files,
 * option values, batch lines, persistent-worker frames). Each case runs the CLI in-process on
 * captured streams and is judged on the CLI's contract: exit 0, 1 or 2 (the one the case names
 * when it names one); no stack trace and no internal error; no output line that starts with text
 * the input chose (names carry the marker EVIL after a newline or escape); with --json every
 * stdout line is JSON valid against the command's schema in schema/cli/ (a worker's lines against
 * Bazel's WorkResponse: exitCode, output, requestId, wasCancelled). The table fails with every case
 * that broke, not the first.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync, copyFileSync, chmodSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS } from './helpers/corpus.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { loadAllCommands } from '../src/cli/commands/index.js';
import { commandSchema } from '../src/cli/schema.js';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as unknown as new (o: object) => { compile(s: object): Validator; getSchema(id: string): Validator | undefined };
type Validator = ((d: unknown) => boolean) & { errors?: unknown };
const ajv = new Ajv2020({ strict: false, allErrors: true });
const COMMANDS = await loadAllCommands();
/** Bazel's WorkResponse as JSON (worker protocol docs): what a persistent worker's stdout lines are. */
const WORK_RESPONSE = ajv.compile({
  type: 'object',
  properties: { exitCode: { type: 'integer' }, output: { type: 'string' }, requestId: { type: 'integer', minimum: 0 }, wasCancelled: { type: 'boolean' } },
  required: ['exitCode', 'output'],
  additionalProperties: false,
});
/** The validator of a --json line of ARGV's command: the longest command path that ARGV starts with. */
function validatorFor(argv: string[]): Validator {
  if (argv[0] === '--persistent_worker') return WORK_RESPONSE;
  let best: (typeof COMMANDS)[number] | undefined;
  for (const c of COMMANDS) if (c.path.every((p, i) => argv[i] === p) && (!best || c.path.length > best.path.length)) best = c;
  if (!best) throw new Error(`no command for ${argv.join(' ')}`);
  const schema = commandSchema(best);
  return ajv.getSchema(schema.$id as string) ?? ajv.compile(schema);
}

const work = mkdtempSync(join(tmpdir(), 'dxbin-r4-'));
const RS = join(work, 'rs.dxbc');
copyFileSync(join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc'), RS);
const at = (name: string, data: string | Uint8Array = '') => {
  const p = join(work, name);
  writeFileSync(p, data);
  return p;
};

interface Want {
  exit?: number | number[];
  json?: boolean;
  /** Text that must appear in stdout+stderr. */
  has?: RegExp;
}
type Case = [name: string, argv: () => string[], want: Want, stdin?: Uint8Array];

async function judge([, argv, want, stdin]: Case): Promise<string | undefined> {
  const s = captureStreams(stdin ?? new Uint8Array(0));
  const args = argv();
  let code: number;
  try {
    code = await run(args, s);
  } catch (e) {
    return `threw ${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
  const out = s.stdout();
  const err = s.stderr();
  const all = out + err;
  const exits = want.exit === undefined ? [0, 1, 2] : typeof want.exit === 'number' ? [want.exit] : want.exit;
  if (!exits.includes(code)) return `exit ${code}, not ${exits.join('/')}: ${all.slice(0, 300)}`;
  if (/\n\s+at \S+ \(|internal error/.test(all)) return `stack or internal error: ${all.slice(0, 300)}`;
  const chosen = all.split('\n').find((l) => /^\s*EVIL/.test(l) || l.includes('\x1b'));
  if (chosen !== undefined) return `a line the input chose: ${JSON.stringify(chosen)}`;
  if (want.json) {
    const validate = validatorFor(args);
    for (const line of out.split('\n').filter(Boolean)) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return `stdout line not JSON: ${line.slice(0, 200)}`;
      }
      if (!validate(value)) return `stdout line not valid against its schema: ${JSON.stringify(validate.errors).slice(0, 300)} in ${line.slice(0, 200)}`;
    }
  }
  if (want.has && !want.has.test(all)) return `no ${String(want.has)} in ${all.slice(0, 300)}`;
  return undefined;
}

const NL = 'a\nEVIL: forged line';
const ESC = 'b\x1b[2J\x1b[31mEVIL';
const fifo = join(work, 'fifo');
let haveFifo = true;
try {
  execFileSync('mkfifo', [fifo]);
} catch {
  haveFifo = false; // no mkfifo: the FIFO cases see a missing file
}
const FIFO_REFUSED = haveFifo ? /not a regular file/ : /no such file/;
const loopA = join(work, 'loopA');
symlinkSync(join(work, 'loopB'), loopA);
symlinkSync(loopA, join(work, 'loopB'));
const linkToRs = join(work, 'rs-link.dxbc');
symlinkSync(RS, linkToRs);
const hard = join(work, 'rs-hard.dxbc');
linkSync(RS, hard);
const ro = join(work, 'ro');
mkdirSync(ro);
chmodSync(ro, 0o555);
const dirRsp = join(work, 'rspdir');
mkdirSync(dirRsp);

const cases: Case[] = [
  // file names
  ['missing input named with a newline', () => ['inspect', join(work, NL)], { exit: 1 }],
  ['missing input named with ANSI escapes', () => ['inspect', join(work, ESC)], { exit: 1 }],
  ['input with a newline, --json', () => ['inspect', '--json', join(work, NL)], { exit: 1, json: true }],
  ['existing file named with a newline (text result)', () => ['hash', at(NL, 'x')], { exit: [0, 1] }],
  ['existing file named with a newline, two files (each named)', () => ['hash', at(NL, 'x'), RS], { exit: [0, 1] }],
  ['existing file with ANSI escapes, rootsig validate', () => ['rootsig', 'validate', (copyFileSync(RS, join(work, ESC)), join(work, ESC))], { exit: [0, 1] }],
  ['glob with a newline matching nothing', () => ['inspect', join(work, `${NL}*`)], { exit: 1 }],
  ['input named -x (after --)', () => ['inspect', '--', join(work, '-x')], { exit: 1 }],
  ['input that starts with - as an option', () => ['inspect', '-EVIL'], { exit: 2 }],
  ['option named with a newline', () => ['inspect', `--${NL}`, RS], { exit: 2 }],
  ['command named with a newline', () => [NL], { exit: 2 }],
  ['help for a command named with a newline', () => ['help', NL], { exit: 2 }],
  ['unicode input name, missing', () => ['inspect', join(work, 'шейдер\u202e.cso')], { exit: 1 }],
  ['name of 5000 characters', () => ['inspect', join(work, 'n'.repeat(5000))], { exit: 1 }],
  ['name of 40000 characters with a newline', () => ['inspect', `${'n'.repeat(40000)}\nEVIL`], { exit: 1 }],
  // special files
  ['a directory as input', () => ['inspect', work], { exit: 1 }],
  ['/dev/zero with --max-input 16 (refused, not read unbounded)', () => ['hash', '--max-input', '16', '/dev/zero'], { exit: 1 }],
  ['/dev/zero as input', () => ['inspect', '/dev/zero'], { exit: 1 }],
  ['symlink loop as input', () => ['inspect', loopA], { exit: 1 }],
  ['stdin twice', () => ['inspect', '-', '-'], { exit: 2 }],
  ['stdin over --max-input', () => ['inspect', '--max-input', '4', '-'], { exit: 1 }, new Uint8Array(100)],
  ['#include of a FIFO no one writes (refused, never waited on)', () => ['rootsig', 'preprocess', '--file', at('inc-fifo.hlsl', '#include "fifo"\n')], { exit: 1, has: FIFO_REFUSED }],
  ['a pipeline description naming a FIFO no one writes', () => ['verify', '--pipeline', at('fifo-desc.json', '{"VS":"fifo"}')], { exit: 1, has: FIFO_REFUSED }],
  // outputs
  ['-o the input through a symlink', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', linkToRs], { exit: 2 }],
  ['-o the input through a hard link', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', hard], { exit: 2 }],
  ['-o the input as ./x vs x', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', join(work, '.', 'rs.dxbc')], { exit: 2 }],
  ['-o into a missing folder', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', join(work, 'no/such/dir/out.dxbc')], { exit: 1 }],
  ['-o into a read-only folder', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', join(ro, 'out.dxbc')], { exit: [0, 1] }],
  ['-o a folder', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', work], { exit: 1 }],
  ['-o /dev/full (disk full)', () => ['rootsig', 'convert', RS, '--to', '1.0', '-o', '/dev/full'], { exit: 1 }],
  ['-o the input named with a newline', () => ['rootsig', 'convert', at(`c${NL}`, 'x'), '--to', '1.0', '-o', join(work, `c${NL}`)], { exit: 2 }],
  ['two inputs aiming at one output, names with newlines', () => ['rootsig', 'convert', at(`d${NL}`, 'x'), join(work, `sub/d${NL}`), '--to', '1.0', '--out-dir', join(work, 'o')], { exit: 2 }],
  ['--out-dir under a file', () => ['rootsig', 'convert', RS, '--to', '1.0', '--out-dir', join(RS, 'sub')], { exit: [1, 2] }],
  // response files
  ['@ of a directory', () => ['@' + dirRsp], { exit: [1, 2] }],
  ['@ of a missing file named with a newline', () => ['@' + join(work, NL)], { exit: [1, 2] }],
  ['@ cycle', () => ['@' + at('cyc1.rsp', `@${join(work, 'cyc2.rsp')}\n`), (at('cyc2.rsp', `@${join(work, 'cyc1.rsp')}\n`), 'x')][0]!.split(' '), { exit: [1, 2] }],
  ['@ chain 200 deep', () => {
    for (let i = 0; i < 200; i++) at(`chain${i}.rsp`, i === 199 ? `inspect\n${RS}\n` : `@${join(work, `chain${i + 1}.rsp`)}\n`);
    return ['@' + join(work, 'chain0.rsp')];
  }, { exit: [0, 1, 2] }],
  ['@ file with NUL bytes', () => ['@' + at('nul.rsp', `inspect\n${RS}\0EVIL\n`)], { exit: [1, 2] }],
  ['@ file with CRLF', () => ['@' + at('crlf.rsp', `inspect\r\n${RS}\r\n`)], { exit: 0 }],
  ['@ file with a BOM', () => ['@' + at('bom.rsp', `\ufeffinspect\n${RS}\n`)], { exit: 0 }],
  ['@ file with 100000 lines', () => ['@' + at('many.rsp', `inspect\n${`${RS}\n`.repeat(100000)}`)], { exit: 2 }],
  ['@ file, shell format, unclosed quote with a newline', () => ['--param-file-format', 'shell', '@' + at('q.rsp', `inspect '${NL}`)], { exit: [1, 2] }],
  ['@ file, lines format, argument with ANSI escapes', () => ['@' + at('esc.rsp', `inspect\n${ESC}\n`)], { exit: 1 }],
  ['@ file invalid UTF-8', () => ['@' + at('bad8.rsp', Buffer.from([0x69, 0x6e, 0xff, 0xfe, 0x0a]))], { exit: [1, 2] }],
  // option values
  ['--max-input 1e3', () => ['inspect', '--max-input', '1e3', RS], { exit: 2 }],
  ['--max-input 0x10', () => ['inspect', '--max-input', '0x10', RS], { exit: 2 }],
  ['--max-input -0', () => ['inspect', '--max-input=-0', RS], { exit: 2 }],
  ['--max-input Infinity', () => ['inspect', '--max-input', 'Infinity', RS], { exit: 2 }],
  ['--max-input= (empty)', () => ['inspect', '--max-input=', RS], { exit: 2 }],
  ['--max-input with a newline', () => ['inspect', `--max-input=1\nEVIL`, RS], { exit: 2 }],
  ['--jobs 0x2', () => ['inspect', '--jobs', '0x2', RS], { exit: 2 }],
  ['--jobs with a newline', () => ['inspect', '--jobs', `2\nEVIL`, RS], { exit: 2 }],
  ['repeated --max-input (last wins or refused)', () => ['inspect', '--max-input', '4', '--max-input', '100000', RS], { exit: [0, 2] }],
  ['--diagnostics-format with a newline', () => ['inspect', '--diagnostics-format', `msvc\nEVIL`, RS], { exit: 2 }],
  ['--param-file-format with ANSI', () => ['--param-file-format', ESC, 'inspect', RS], { exit: 2 }],
  ['--max-answer-bytes 1e3', () => ['batch', '--max-answer-bytes', '1e3', '-'], { exit: 2 }],
  // batch
  ['batch: lines that are not arrays', () => ['batch', '-'], { exit: 2, json: true }, Buffer.from('{}\n"x"\n42\nnull\n[1,2]\n')],
  ['batch: nested arrays', () => ['batch', '-'], { exit: 2, json: true }, Buffer.from('[["inspect"]]\n')],
  ['batch: an argument with a newline', () => ['batch', '-'], { exit: 1, json: true }, Buffer.from(`${JSON.stringify(['inspect', NL])}\n`)],
  ['batch: partial last line', () => ['batch', '-'], { exit: 2, json: true }, Buffer.from(`["inspect","${RS}"]\n["insp`)],
  ['batch: invalid UTF-8', () => ['batch', '-'], { exit: [1, 2], json: true }, Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d, 0x0a])],
  ['batch: a job that runs batch', () => ['batch', '-'], { json: true }, Buffer.from(`["batch","-"]\n`)],
  ['batch: a job with --persistent_worker', () => ['batch', '-'], { json: true }, Buffer.from(`["--persistent_worker"]\n`)],
  ['batch: huge line', () => ['batch', '-'], { json: true }, Buffer.from(`["inspect","${'z'.repeat(2_000_000)}"]\n`)],
  ['batch: line is a string with a newline escape', () => ['batch', '-'], { exit: 2, json: true }, Buffer.from(`"a\\nEVIL"\n`)],
  ['batch from a directory', () => ['batch', work], { exit: 1 }],
  // persistent worker
  ['worker: huge requestId', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":["inspect","${RS}"],"requestId":1e400}\n`)],
  ['worker: negative requestId', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":["inspect","${RS}"],"requestId":-5}\n`)],
  ['worker: fractional requestId', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":["inspect","${RS}"],"requestId":1.5}\n`)],
  ['worker: duplicate requestId key', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":["inspect","${RS}"],"requestId":3,"requestId":4}\n`)],
  ['worker: cancel for an unknown id', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"requestId":77,"cancel":true}\n`)],
  ['worker: arguments not strings', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":[1,{"a":2},null],"requestId":2}\n`)],
  ['worker: odd inputs digests', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":["inspect","${RS}"],"inputs":[{"path":"${NL.replace('\n', '\\n')}","digest":"!!"},{"digest":42}],"requestId":6}\n`)],
  ['worker: stdin closes mid-frame', () => ['--persistent_worker'], { json: true }, Buffer.from(`{"arguments":["inspect","${RS}"],"requestId":8`)],
  ['worker: argument with a newline', () => ['--persistent_worker'], { json: true }, Buffer.from(`${JSON.stringify({ arguments: ['inspect', NL], requestId: 9 })}\n`)],
  ['worker: request is an array', () => ['--persistent_worker'], { json: true }, Buffer.from(`["inspect"]\n`)],
  ['worker: nested @ in arguments, a cycle', () => ['--persistent_worker'], { json: true }, Buffer.from(`${JSON.stringify({ arguments: ['@' + join(work, 'cyc1.rsp')], requestId: 10 })}\n`)],
  ['worker: sandboxDir missing', () => ['--persistent_worker'], { json: true }, Buffer.from(`${JSON.stringify({ arguments: ['inspect', RS], requestId: 11, sandboxDir: join(work, 'nope') })}\n`)],
  ['worker: sandboxDir a file', () => ['--persistent_worker'], { json: true }, Buffer.from(`${JSON.stringify({ arguments: ['inspect', RS], requestId: 12, sandboxDir: RS })}\n`)],
];

test('the --json judges can fail: each command schema and the WorkResponse shape refuse a wrong line', () => {
  assert.not.ok(validatorFor(['--persistent_worker'])({ exitCode: 0 }), 'WorkResponse without output');
  assert.not.ok(validatorFor(['--persistent_worker'])({ exitCode: 0, output: '', requestId: -1 }), 'negative requestId');
  assert.not.ok(validatorFor(['batch', '-'])({ formatVersion: 2, exit: 7 }), 'batch answer with exit 7');
  assert.not.ok(validatorFor(['inspect', RS])({ formatVersion: 2, elephant: true }), 'inspect line with an unknown key');
  assert.ok(cases.filter((c) => c[2].json).length >= 20, 'the --json cases are many');
});

test(`hostile CLI round 4: ${cases.length} cases keep the CLI's contract`, async () => {
  const broke: string[] = [];
  for (const c of cases) {
    const problem = await judge(c);
    if (problem) broke.push(`${c[0]}: ${problem}`);
  }
  assert.equal(broke, [], `${broke.length} of ${cases.length} cases:\n${broke.join('\n')}`);
});

test.run();
