/**
 * Annotated hex dumps of a byte map: one row per leaf span (at most 16 bytes a row), its field
 * path and value beside its bytes, a heading where an enclosing span (part, record, array)
 * starts. As terminal text (ANSI colours optional) or as a self-contained HTML page with no
 * script at all (hover shows a field through CSS and title text). Every string from the input
 * (FourCCs, names, values) is text: escaped in HTML, control characters shown as \xNN.
 */
import { LEAF_KINDS, expectByteMap, type ByteMap, type ByteSpan } from '../bytes/spans.js';
import { expectBytes, expectObject, expectOptionKeys, expectString } from '../bytes/check.js';
import { printable as printableOf, printableJson } from '../bytes/text.js';
import { byteWindow } from '../query/spans.js';

const ROW = 16;

/**
 * A value as one line of text (strings quoted and made printable).
 * @throws {DescriptionError} bad-type when `s` is not an object
 */
export function spanValueText(s: ByteSpan): string {
  expectObject(s, 'span');
  return valueText(s);
}

/** spanValueText without the check (per row of a dump). */
function valueText(s: ByteSpan): string {
  if (s.value === undefined) return '';
  const raw = typeof s.value === 'string' ? printableJson(cut(s.value)) : typeof s.value === 'bigint' ? s.value.toString() : `${s.value} (0x${s.value.toString(16)})`;
  return s.name ? `${raw} ${printable(cut(s.name))}` : raw;
}

/** String values longer than this are shown cut, with a count (every row of a dump may repeat its field's text). */
export const VALUE_CHARS = 256;

function cut(text: string): string {
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…(+${text.length - VALUE_CHARS} chars)` : text;
}

/**
 * Text with control characters as \xNN, for terminals.
 * @throws {DescriptionError} bad-type when `text` is not a string
 */
export function printableText(text: string): string {
  expectString(text, 'text');
  return printable(text);
}

/** printableText without the check (per row of a dump): src/bytes/text.ts, the one text boundary. */
const printable = (text: string): string => printableOf(text);

interface Row {
  offset: number;
  bytes: Uint8Array;
  leaf: ByteSpan;
  first: boolean;
  depth: number;
}

interface Heading {
  group: ByteSpan;
  depth: number;
}

/** Rows and headings in order (the walk both renderers share). */
function* walk(bytes: Uint8Array, map: ByteMap, from = 0, to = bytes.byteLength): Generator<Row | Heading> {
  const open: ByteSpan[] = [];
  for (const s of map.spans) {
    if (s.offset + s.size <= from || s.offset >= to) continue;
    while (open.length > 0 && open[open.length - 1]!.offset + open[open.length - 1]!.size <= s.offset) open.pop();
    if (!LEAF_KINDS.has(s.kind)) {
      yield { group: s, depth: open.length };
      open.push(s);
      continue;
    }
    const start = Math.max(from, s.offset);
    const end = Math.min(to, s.offset + s.size);
    for (let at = start; at < end; at += ROW) yield { offset: at, bytes: bytes.subarray(at, Math.min(end, at + ROW)), leaf: s, first: at === s.offset, depth: open.length };
  }
}

const ANSI = {
  reset: '\x1b[0m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  field: ['\x1b[36m', '\x1b[33m', '\x1b[32m', '\x1b[35m', '\x1b[34m'],
  padding: '\x1b[2;37m',
  gap: '\x1b[31m',
  data: '\x1b[90m',
} as const;

export interface HexOptions {
  /** ANSI colours (for a terminal). */
  color?: boolean;
  /** Only bytes [from, to). */
  from?: number;
  to?: number;
}

/**
 * The annotated dump as lines of text.
 * @throws {DescriptionError} unknown-key for an option HexOptions does not have
 */
export function hexDump(bytes: Uint8Array, map: ByteMap, options: HexOptions = {}): string[] {
  expectBytes(bytes, 'bytes');
  expectByteMap(map);
  expectOptionKeys(options, ['color', 'from', 'to']);
  const { from, to } = byteWindow(options, bytes.byteLength, 'options');
  const c = options.color === true;
  const lines: string[] = [];
  let fieldIndex = 0;
  let last: ByteSpan | undefined;
  for (const item of walk(bytes, map, from, to)) {
    if ('group' in item) {
      const g = item.group;
      const what = g.name ? ` ${printable(g.name)}` : '';
      const line = `${'  '.repeat(item.depth)}${g.kind} ${printable(g.path)}${what} (${g.size} bytes at ${g.offset})`;
      lines.push(c ? `${ANSI.bold}${line}${ANSI.reset}` : line);
      continue;
    }
    if (item.leaf !== last && item.leaf.kind === 'field') fieldIndex++;
    last = item.leaf;
    const hex = Array.from(item.bytes, (b) => b.toString(16).padStart(2, '0')).join(' ').padEnd(ROW * 3 - 1);
    const ascii = Array.from(item.bytes, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('').padEnd(ROW);
    const s = item.leaf;
    const label = item.first ? `${s.kind === 'field' ? '' : `${s.kind} `}${printable(s.path)}${s.kind === 'field' ? ` = ${valueText(s)}` : ` (${s.size} bytes)`}` : '';
    const colour = s.kind === 'field' ? ANSI.field[fieldIndex % ANSI.field.length]! : ANSI[s.kind as 'padding' | 'gap' | 'data'];
    const offset = item.offset.toString(16).padStart(8, '0');
    lines.push(c ? `${ANSI.dim}${offset}${ANSI.reset}  ${colour}${hex}${ANSI.reset}  ${ANSI.dim}${ascii}${ANSI.reset}  ${label}` : `${offset}  ${hex}  ${ascii}  ${label}`.trimEnd());
  }
  return lines;
}

/**
 * Text safe inside HTML elements and attribute values, on one line: `&<>"'\`` as character
 * references, and what `printable` escapes (C0/C1 controls, newlines, line separators, bidi
 * controls, lone surrogates) as `\xNN` / `\u{...}`, so no name from the input starts a line of the
 * page or reorders it.
 * @throws {DescriptionError} bad-type when `text` is not a string
 */
export function escapeHtml(text: string): string {
  expectString(text, 'text');
  return escapeText(text);
}

/** escapeHtml without the check (per row of a page, per SVG attribute): the one boundary of generated HTML and SVG text. */
export function escapeText(text: string): string {
  return printableOf(text).replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The Content-Security-Policy of the HTML pages dxbin writes: no script of any kind. */
export const HEX_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** A self-contained HTML page of the annotated dump (no script; hover highlights a field's bytes). */
export function hexHtml(bytes: Uint8Array, map: ByteMap, title: string): string {
  expectBytes(bytes, 'bytes');
  expectByteMap(map);
  expectString(title, 'title');
  const rows: string[] = [];
  let fieldIndex = 0;
  let last: ByteSpan | undefined;
  let tip = '';
  for (const item of walk(bytes, map)) {
    if ('group' in item) {
      const g = item.group;
      rows.push(`<tr class="g d${Math.min(item.depth, 6)}"><td colspan="4">${escapeText(`${g.kind} ${g.path}${g.name ? ` ${g.name}` : ''} (${g.size} bytes at ${g.offset})`)}</td></tr>`);
      continue;
    }
    const s = item.leaf;
    if (s !== last) {
      if (s.kind === 'field') fieldIndex++;
      // once per leaf: a long field's rows share its title
      tip = escapeText(`${s.path}${s.kind === 'field' ? ` = ${valueText(s)}` : ` (${s.kind}, ${s.size} bytes)`}`);
    }
    last = s;
    const cls = s.kind === 'field' ? `f${fieldIndex % 5}` : s.kind;
    const hex = Array.from(item.bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = escapeText(Array.from(item.bytes, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''));
    const label = item.first ? tip : '';
    rows.push(`<tr class="${cls}" title="${tip}"><td class="o">${item.offset.toString(16).padStart(8, '0')}</td><td class="h">${hex}</td><td class="a">${ascii}</td><td class="p">${label}</td></tr>`);
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HEX_PAGE_CSP}">
<meta name="referrer" content="no-referrer">
<title>${escapeText(title)}</title>
<style>
body{font:13px/1.35 ui-monospace,Menlo,Consolas,monospace;margin:1em;background:#fff;color:#222}
table{border-collapse:collapse}td{padding:0 .6em;white-space:pre;vertical-align:top}
td.o{color:#888}td.a{color:#666}tr:hover td{background:#ffe58a}
tr.g td{font-weight:bold;padding-top:.4em;color:#333}tr.d1 td{padding-left:1.6em}tr.d2 td{padding-left:2.6em}tr.d3 td,tr.d4 td,tr.d5 td,tr.d6 td{padding-left:3.6em}
tr.f0 td.h{color:#0a7d8c}tr.f1 td.h{color:#a05a00}tr.f2 td.h{color:#2a7d2a}tr.f3 td.h{color:#8a2aa0}tr.f4 td.h{color:#2a4fa0}
tr.padding td.h{color:#bbb}tr.gap td.h{color:#c0392b}tr.data td.h{color:#999}
</style></head><body>
<h1>${escapeText(title)}</h1>
<p>${escapeText(`${map.format}, ${map.length} bytes, ${map.spans.length} spans`)}</p>
<table>
${rows.join('\n')}
</table>
</body></html>
`;
}
