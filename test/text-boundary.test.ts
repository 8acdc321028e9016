/**
 * The one text boundary (issue 26 item 3): `printable` escapes what came from input on its way to
 * text, `hlslIdentifier` is the only way a name enters generated HLSL, depfiles refuse what Make
 * cannot spell. The example end to end: a subobject name holding a newline, `#include`
 * and ESC never becomes a live line of `rootsig decompile` output nor drives the terminal.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescriptionError, findPart, hlslIdentifier, parseContainer, printable, printableJson, printRootSignatureDefine, withRdat, type RootSignature } from '../src/index.js';
import { decodeRdat, type RdatTable } from '../src/rdat/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { depfilePath, depfileText } from '../src/cli/includes.js';
import { formatDiagnostic } from '../src/cli/errors.js';
import { corpusFile } from './helpers/corpus.js';
import { fillMessage } from '../src/bytes/errors.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-text-'));
const EVIL = 'rs\n#include "/etc/passwd"\n\x1b[2J\x07\r\u202e\ud800';
/** Raw characters that must never reach printed text: C0 but newline, DEL, C1, bidi overrides, lone surrogates. */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

async function cli(args: string[]) {
  const s = captureStreams();
  const exit = await run(args, s);
  return { exit, out: s.stdout(), err: s.stderr() };
}

test('printable: controls, newline, DEL, ESC, C1, bidi and lone surrogates escaped; text otherwise as it is', () => {
  assert.is(printable('plain name_1 é 😀'), 'plain name_1 é 😀');
  assert.is(printable('a\nb'), 'a\\x0ab');
  assert.is(printable('\x1b[31mred\x07'), '\\x1b[31mred\\x07');
  assert.is(printable('del\x7f c1\x9b'), 'del\\x7f c1\\x9b');
  assert.is(printable('\u202eevil'), '\\u{202e}evil');
  assert.is(printable('lone\ud800 pair\ud83d\ude00'), 'lone\\u{d800} pair😀');
  assert.is(printable('x\u2028y'), 'x\\u{2028}y');
  assert.is(printable('C:\\dir\\f'), 'C:\\dir\\f');
  assert.is(printable('C:\\dir\\f', { backslash: true }), 'C:\\\\dir\\\\f');
  assert.is(printable('two\nlines\tand\x1b', { lines: true }), 'two\nlines\tand\\x1b');
  assert.is(printable('RDAT\x00é', { ascii: true }), 'RDAT\\x00\\xe9');
  assert.not.match(printable(EVIL), RAW);
  assert.not.match(printable(EVIL), /\n/);
  assert.throws(() => printable(42 as never), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-type');
});

test('printableJson: the same JSON value, with DEL, C1, separators and bidi as \\u escapes', () => {
  const value = { name: EVIL, n: 1 };
  const text = printableJson(value);
  assert.not.match(text, RAW);
  assert.equal(JSON.parse(text), value);
});

test('hlslIdentifier and printRootSignatureDefine: a name that is not an identifier is refused, naming it escaped', () => {
  assert.is(hlslIdentifier('My_RS1'), 'My_RS1');
  for (const bad of ['', '1RS', 'a b', 'RS\n#include "x"', 'RS\\', 'é']) {
    assert.throws(() => hlslIdentifier(bad, 'define'), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-name' && e.path === 'define' && !/\n/.test(e.message));
  }
  const rs: RootSignature = { version: 2, flags: 0, parameters: [], staticSamplers: [] };
  assert.is(printRootSignatureDefine('RS', rs), '#define RS ""');
  assert.throws(() => printRootSignatureDefine('RS\n#include "x"', rs), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-name');
});

/** The corpus library with every root signature subobject renamed `EVIL<i>`. */
function evilLibrary(): string {
  const lib = corpusFile('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil');
  const rdat = decodeRdat(findPart(parseContainer(lib), 'RDAT')!.data);
  const table = rdat.parts.find((p) => p.type === 'SubobjectTable') as RdatTable;
  let i = 0;
  for (const r of table.records) {
    if (!/RootSignature$/.test(String(r.KindName))) continue;
    // without the lone surrogate: UTF-8 cannot hold one, and encodeRdat refuses it (it was written as U+FFFD)
    r.Name = `${EVIL.replace('\ud800', '')}${i++}`;
    if (r.refs) delete r.refs.Name;
  }
  assert.ok(i > 0, 'the library has root signature subobjects');
  const file = join(work, 'evil.dxil');
  writeFileSync(file, withRdat(lib, rdat));
  return file;
}

test('the issue example: a subobject name with a newline, #include and ESC: rootsig decompile prints no line the name chose', async () => {
  const file = evilLibrary();
  const r = await cli(['rootsig', 'decompile', file]);
  assert.is(r.exit, 0, r.err);
  assert.ok(r.out.includes('// '), r.out);
  for (const line of r.out.split('\n')) assert.not.ok(/^\s*#/.test(line), `a live directive line: ${JSON.stringify(line)}`);
  assert.not.match(r.out, RAW);
  assert.ok(r.out.includes('\\x0a#include'), 'the name is shown, escaped');
  // written to a file: the same text
  const out = join(work, 'evil.hlsli');
  assert.is((await cli(['rootsig', 'decompile', file, '-o', out])).exit, 0);
  for (const line of readFileSync(out, 'utf8').split('\n')) assert.not.ok(/^\s*#/.test(line), line);
  // --define NAME_<subobject>: not an identifier, refused (exit 1, one escaped message)
  const d = await cli(['rootsig', 'decompile', file, '--define', 'RS']);
  assert.is(d.exit, 1, d.out);
  assert.match(d.err, /not an HLSL identifier/);
  assert.not.match(d.err, RAW);
  assert.is(d.err.trim().split('\n').length, 1, d.err);
  // inspect and rootsig validate list the names escaped
  for (const args of [['inspect', file], ['rootsig', 'validate', file]]) {
    const x = await cli(args);
    assert.not.match(x.out + x.err, RAW, args.join(' '));
    for (const line of x.out.split('\n')) assert.not.ok(/^#include/.test(line), line);
  }
  const j = await cli(['inspect', file, '--json']);
  assert.not.match(j.out, RAW);
  assert.ok(JSON.parse(j.out).library.subobjects.some((s: { name: string }) => s.name.startsWith('rs\n#include "/etc/passwd"\n\x1b[2J')), 'JSON keeps the name');
});

test('depfiles: spaces, # and $ quoted for Make; a newline, CR or NUL in a path refused', () => {
  assert.is(depfilePath('a b#c$d'), 'a\\ b\\#c$$d');
  assert.is(depfileText('out.rs', ['in put.hlsl', 'inc/x$.h']), 'out.rs: \\\n  in\\ put.hlsl \\\n  inc/x$$.h\n\ninc/x$$.h:\n');
  for (const bad of ['a\nb.h', 'a\rb.h', 'a\0b.h']) assert.throws(() => depfilePath(bad), (e: unknown) => e instanceof Error && !/\n/.test((e as Error).message.replace(/^[^:]*: /, '')));
});

test('diagnostics (gnu and msvc): a file name or field holding a newline and ESC stays one line, escaped', () => {
  for (const style of ['gnu', 'msvc'] as const) {
    const line = formatDiagnostic({ code: 'bad-offset', file: 'x\ny\x1b.dxil', message: 'm', field: 'f\n#g', line: 3, column: 4 }, style);
    assert.is(line.split('\n').length, 1, line);
    assert.not.match(line, RAW);
    const plain = formatDiagnostic({ code: 'bad-offset', file: 'x\ny.dxil', message: 'm', field: 'a\u202eb' }, style);
    assert.is(plain.split('\n').length, 1, plain);
    assert.not.match(plain, RAW);
  }
});

test('rule messages (state objects, bindings, validation): names filled into {placeholders} pass printable, numbers as they are', () => {
  assert.is(fillMessage('export {export} of library {library} needs {n} slots', { export: 'main\n#include "x"', library: 'lib\x1b[2J', n: 3 }), 'export main\\x0a#include "x" of library lib\\x1b[2J needs 3 slots');
  assert.is(fillMessage('{missing} stays', {}), '{missing} stays');
});

test.run();
