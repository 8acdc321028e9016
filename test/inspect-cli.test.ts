/** `dxbin inspect --hex / --html` and `dxbin query timings --svg`: what they print and write, and hostile strings as text. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeQueryResults } from '../src/query/index.js';
import { byteMap, hexDump } from '../src/inspect/index.js';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { PAYLOADS, hostileContainer } from './helpers/markup.js';

function dxbin(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const work = mkdtempSync(join(tmpdir(), 'dxbin-inspect-'));
const RS = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');

/** The bytes a plain dump shows, read back from its hex column. */
function bytesOf(dump: string): number[] {
  return dump
    .split('\n')
    .filter((l) => /^[0-9a-f]{8}  /.test(l))
    .flatMap((l) => l.slice(10, 10 + 47).trim().split(' ').filter(Boolean).map((h) => parseInt(h, 16)));
}

test('--hex: every byte once, in order, beside its field path; plain when not a terminal', () => {
  const r = dxbin('inspect', RS, '--hex');
  assert.is(r.status, 0, r.stderr);
  assert.equal(bytesOf(r.stdout), [...readFileSync(RS)]);
  assert.not.match(r.stdout, '\x1b[');
  assert.match(r.stdout, /RTS0\.parameters\[0\]\.ranges\[2\]\.flags = 8 \(0x8\) DATA_STATIC/);
  assert.match(r.stdout, /container\.header\.digest = "8ffa7fe7d552b5fad4156e58266c184c"/);
  assert.match(r.stdout, /^part container\.parts\[0\] RTS0 root signature \(\d+ bytes at 36\)$/m);
});

test('colours: ANSI per field when asked (the CLI asks on a terminal)', () => {
  const bytes = new Uint8Array(readFileSync(RS));
  const lines = hexDump(bytes, byteMap(bytes), { color: true });
  assert.ok(lines.some((l) => l.includes('\x1b[36m')) && lines.some((l) => l.includes('\x1b[33m')));
});

test('--html: a self-contained page without script, every field in it', () => {
  const out = join(work, 'rs.html');
  const r = dxbin('inspect', RS, '--html', out);
  assert.is(r.status, 0, r.stderr);
  const html = readFileSync(out, 'utf8');
  assert.match(html, `http-equiv="Content-Security-Policy" content="default-src 'none';`);
  assert.not.match(html, /<script|src=|href=/i);
  assert.match(html, 'RTS0.parameters[0].ranges[2].flags = 8 (0x8) DATA_STATIC');
});

test('hostile FourCCs and RDAT strings reach --hex and --html as text only', () => {
  const input = join(work, 'hostile.dxbc');
  writeFileSync(input, hostileContainer());
  const out = join(work, 'hostile.html');
  const r = dxbin('inspect', input, '--html', out, '--hex', '--lenient');
  assert.is(r.status, 0, r.stderr);
  for (const p of PAYLOADS) assert.match(r.stdout, JSON.stringify(p));
  const html = readFileSync(out, 'utf8');
  // no markup from the input: every < of a payload is an entity
  assert.not.match(html, /<(script|img|svg|iframe|a)\b/i);
  // every tag's attributes are the renderer's own (quoted values hold no quote, so this parse is exact)
  for (const [, tag, attrs] of html.matchAll(/<([a-z0-9]+)([^>]*)>/gi)) {
    const names = [...attrs!.matchAll(/\s([a-z-]+)(?:="[^"]*")?/gi)].map((m) => m[1]!.toLowerCase());
    assert.equal(attrs!.replace(/\s([a-z-]+)(?:="[^"]*")?/gi, '').trim(), '', `<${tag}${attrs}>`);
    for (const n of names) assert.ok(['class', 'title', 'colspan', 'charset', 'http-equiv', 'content', 'name', 'lang'].includes(n), `<${tag}> has ${n}`);
  }
  assert.match(html, '&#60;script&#62;window.__pwned=1&#60;/script&#62;');
  assert.match(html, '&#60;img src=x onerror=');
  assert.match(html, 'javascript:window.__pwned=3'); // text, in no attribute that navigates
  assert.match(html, 'container.parts[0] &#60;scr');
});

test('bad input: exit 1 with the decoder\'s message, no page written', () => {
  const out = join(work, 'bad.html');
  const input = join(work, 'bad.rts0');
  writeFileSync(input, Uint8Array.of(2, 0, 0, 0, 1, 0, 0, 0, 0x18, 0)); // an RTS0 header cut short
  const r = dxbin('inspect', input, '--html', out);
  assert.is(r.status, 1);
  assert.match(r.stderr, /needs 24 bytes, only 10 left \(RTS0\.header at byte 0\)/);
  assert.not.ok(existsSync(out));
});

test('query timings --svg: one bar per bin, intervals or pixel columns', () => {
  const pairs = 100;
  const values: bigint[] = [];
  for (let i = 0; i < pairs; i++) values.push(BigInt(1000 + i * 50), BigInt(1000 + i * 50 + 10 + (i % 7)));
  const input = join(work, 'stamps.bin');
  writeFileSync(input, encodeQueryResults('timestamp', { Value: values }));
  const svg = join(work, 't.svg');
  const r = dxbin('query', 'timings', input, '--frequency', '1000000', '--pairs', '--svg', svg);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'durations 100 ([begin, end] pairs), valid 100, flagged 0');
  const text = readFileSync(svg, 'utf8');
  assert.ok(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert.is(text.match(/class="bar"/g)?.length, 40);
  assert.is(text.match(/class="interval"/g)?.length, 100);
  // seven distinct durations: 10..16 µs ticks -> the first and last bins hold them
  assert.match(text, /<title>10 µs – [\d.]+ µs: 15<\/title>/);
  // more pairs than pixels: binned columns
  const many: bigint[] = [];
  for (let i = 0; i < 5000; i++) many.push(BigInt(i * 10), BigInt(i * 10 + 5));
  writeFileSync(input, encodeQueryResults('timestamp', { Value: many }));
  assert.is(dxbin('query', 'timings', input, '--frequency', '1000', '--pairs', '--svg', svg).status, 0);
  const binned = readFileSync(svg, 'utf8');
  assert.is(binned.match(/class="interval"/g), null);
  assert.ok((binned.match(/class="column"/g)?.length ?? 0) > 700);
});

test.run();
