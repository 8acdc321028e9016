/**
 * Bazel's three param file formats (Args.set_param_file_format) read with no flag (the default,
 * `--param-file-format auto`, src/build-step/param-files.ts): `shell` (Bazel's default; items quoted as
 * Bazel's ShellEscaper quotes them), `multiline` and `flag_per_line` (items as is), each written
 * here byte for byte as Bazel writes it; `lines` still reads quotes literally; and a real command
 * line through a shell-format file gives the bytes of the same arguments given directly.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandResponseFiles } from '../src/build-step/argfiles.js';
import { bazelShellItems, splitParamLines } from '../src/build-step/param-files.js';
import { captureStreams } from '../src/cli/streams.js';
import { run } from '../src/cli/program.js';
import { ROOT } from './helpers/corpus.js';

/** Bazel's ShellEscaper: as is when made of safe characters, else single-quoted with ' as '\''. */
const bazelQuote = (s: string) => (/^[A-Za-z0-9@%_+:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
/** A param file as Bazel writes it: each item, then a newline. */
const shellFile = (items: readonly string[]) => items.map((i) => `${bazelQuote(i)}\n`).join('');
const multilineFile = (items: readonly string[]) => items.map((i) => `${i}\n`).join('');
/** flag_per_line: a flag and the value after it on one line, joined by '='. */
function flagPerLineFile(items: readonly string[]): string {
  const lines: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    if (a.startsWith('--') && i + 1 < items.length && !items[i + 1]!.startsWith('--')) lines.push(`${a}=${items[++i]}`);
    else lines.push(a);
  }
  return lines.map((l) => `${l}\n`).join('');
}

const expand = (text: string, format?: string) => expandResponseFiles([...(format ? ['--param-file-format', format] : []), '@p'], () => text);

const ITEMS = ['rootsig', 'compile', '--file', 'src/my shader.hlsl', '-D', "NAME=it's", '-D', 'EMPTY=', '', '--define', 'A="b c"', '-I', 'include/a,b', 'x\ty'];

test('shell format (Bazel default): every item back, quotes, spaces, tabs, an empty item and a quote inside', () => {
  const text = shellFile(ITEMS);
  assert.ok(text.includes("'src/my shader.hlsl'") && text.includes("'NAME=it'\\''s'") && text.includes("''\n"), 'written as Bazel quotes');
  assert.equal(expand(text), ITEMS);
  assert.equal(bazelShellItems(text), ITEMS);
});

test('shell format: an item with a newline is one quoted item over two lines', () => {
  const items = ['-D', 'X=line one\nline two', 'a.hlsl'];
  assert.equal(expand(shellFile(items)), items);
});

test('multiline format: every line as is (a space, an = or a quote inside an item is kept)', () => {
  const items = ITEMS.filter((i) => i !== ''); // multiline cannot carry an empty item (an empty line is skipped)
  assert.equal(expand(multilineFile(items)), items);
  assert.equal(expand(multilineFile(['--file', "it's.hlsl"])), ['--file', "it's.hlsl"]);
});

test('flag_per_line format: --flag=value lines as is, other lines as is', () => {
  const items = ['rootsig', 'compile', '--file', 'src/a b.hlsl', '-E', 'main', '--version', '1.1', '-o', 'out.dxbc'];
  const text = flagPerLineFile(items);
  assert.is(text, "rootsig\ncompile\n--file=src/a b.hlsl\n-E\nmain\n--version=1.1\n-o\nout.dxbc\n");
  assert.equal(expand(text), ['rootsig', 'compile', '--file=src/a b.hlsl', '-E', 'main', '--version=1.1', '-o', 'out.dxbc']);
});

test('only safe words: shell and multiline read alike; CRLF and blank lines accepted', () => {
  assert.equal(splitParamLines('a\r\nb/c.hlsl\n\n-I\n'), ['a', 'b/c.hlsl', '-I']);
  assert.equal(expand('a\r\nb/c.hlsl\n\n-I\n'), expand('a\r\nb/c.hlsl\n\n-I\n', 'lines'));
});

test('a file that is not Bazel shell format is read line by line (an unquoted space, a stray quote)', () => {
  assert.is(bazelShellItems("'a b'\nc d\n"), undefined);
  assert.equal(expand("'a b'\nc d\n"), ["'a b'", 'c d']);
  assert.equal(expand("'unterminated\n"), ["'unterminated"]);
});

test("--param-file-format lines reads quotes literally; shell and msbuild stay as they were", () => {
  assert.equal(expand("'a b'\n", 'lines'), ["'a b'"]);
  assert.equal(expand("'a b' c\n", 'shell'), ['a b', 'c']);
  assert.equal(expand('"a b" c\n', 'msbuild'), ['a b', 'c']);
});

test('a real compile through a shell-format param file writes the bytes of the direct command line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-param-files-'));
  const src = join(dir, 'my shader.hlsl');
  writeFileSync(src, '#define RS "RootFlags(0), CBV(b0)"\n[RootSignature(RS)]\nfloat4 main() : SV_Target { return 0; }\n');
  const direct = join(dir, 'direct.dxbc');
  const viaFile = join(dir, "via it's file.dxbc");
  const args = (out: string) => ['rootsig', 'compile', '--file', src, '-E', 'main', '--version', '1.1', '-I', join(ROOT, 'examples/shaders/include'), '-o', out];
  const a = captureStreams();
  assert.is(await run(args(direct), a), 0, a.stderr());
  const params = join(dir, 'params');
  writeFileSync(params, shellFile(args(viaFile)));
  const b = captureStreams();
  assert.is(await run([`@${params}`], b), 0, b.stderr());
  assert.equal(readFileSync(viaFile), readFileSync(direct));
});

test.run();
