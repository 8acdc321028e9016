/**
 * The one text boundary (issue 26): every string that came from input (RDAT, RDEF, PSV0 and
 * subobject names, FourCCs, file names, HLSL quoted in messages) passes `printable` on its way
 * to printed text, and generated HLSL takes names only through `hlslIdentifier`. A name can then
 * neither drive the terminal (ESC sequences, BEL, CR overwriting a line, bidi overrides) nor
 * start a line of its own in generated text (`\n#include ...` in a subobject name). Depfiles
 * have their own quoting (src/cli/includes.ts) and refuse what Make cannot spell.
 */
import { DescriptionError, kindOf } from './errors.js';

/** How `printable` escapes. */
export interface PrintableOptions {
  /** Escape every character outside printable ASCII (FourCCs: bytes as \xNN). */
  ascii?: boolean;
  /** Keep newline and tab (a message of several lines of our own; names inside it are escaped where they are put in). */
  lines?: boolean;
  /** Escape `\` as `\\` too, so the escaping reads back unambiguously (and an HLSL `//` comment cannot end in a line continuation). */
  backslash?: boolean;
}

// C0 and C1 controls and DEL (\p{Cc}), line and paragraph separators, bidi embeddings, overrides
// and isolates, the BOM, and lone surrogates (with the u flag a pair is one code point and does
// not match [\ud800-\udfff]). `lines` keeps \n and \t; `ascii` escapes all but printable ASCII.
// The class is made from its pieces (the separators, bidi controls, BOM and surrogates are shared).
const SHARED = '\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufeff\\ud800-\\udfff]';
const PATTERNS = new Map<number, RegExp>();
function pattern(o: PrintableOptions): RegExp {
  const key = (o.ascii ? 1 : 0) | (o.lines ? 2 : 0) | (o.backslash ? 4 : 0);
  let re = PATTERNS.get(key);
  if (!re) {
    const cls = o.ascii ? `[^\\x20-\\x7e${o.lines ? '\\n\\t' : ''}]` : `[${o.lines ? '\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f' : '\\p{Cc}'}${SHARED}`;
    PATTERNS.set(key, (re = new RegExp(o.backslash ? `\\\\|${cls}` : cls, 'gu')));
  }
  return re;
}

function escape(c: string): string {
  if (c === '\\') return '\\\\';
  const cp = c.codePointAt(0)!;
  return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
}

/**
 * Text from input made safe to print: C0/C1 controls, DEL, newlines, line separators, bidi
 * controls and lone surrogates as `\xNN` / `\u{...}`; everything else as it is (`\` too, unless
 * `backslash`). One line in, one line out (unless `lines`).
 * @throws {DescriptionError} bad-type when `text` is not a string
 */
export function printable(text: string, options?: PrintableOptions): string {
  if (typeof text !== 'string') throw new DescriptionError('bad-type', 'name', `expected a string, got ${kindOf(text)}`);
  // the patterns are global and only read here: a test that fails, and replace (which starts at 0),
  // leave lastIndex 0; testing first keeps a clean name (most are) from replace's slower path
  const re = pattern(options ?? {});
  return re.test(text) ? text.replace(re, escape) : text;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` is an HLSL (C) identifier: a letter or `_`, then letters, digits and `_`. */
export function isHlslIdentifier(name: string): boolean {
  return typeof name === 'string' && IDENTIFIER.test(name);
}

/**
 * `name` as it may stand in generated HLSL (a macro name, a comment label): an identifier is
 * returned as it is; anything else is refused, naming `path` and showing the name escaped.
 * @throws {DescriptionError} bad-name when `name` is not an identifier, bad-type when not a string
 */
export function hlslIdentifier(name: string, path = 'name'): string {
  if (typeof name !== 'string') throw new DescriptionError('bad-type', path, `expected a string, got ${kindOf(name)}`);
  if (!IDENTIFIER.test(name)) throw new DescriptionError('bad-name', path, `"${printable(name, { backslash: true })}" is not an HLSL identifier (a letter or _, then letters, digits and _)`);
  return name;
}

/** The most characters of escaped text `quoted` shows between its quotes before cutting it with a count. */
export const QUOTED_CHARS = 64;

/**
 * Input text as a message may hold it unquoted (the message's own escaping, printable, still to
 * come): cut where its escaped text would pass QUOTED_CHARS characters, with the count of the rest.
 */
export function shortened(text: string): string {
  let keep = Math.min(text.length, QUOTED_CHARS);
  while (keep > 0 && printable(text.slice(0, keep)).length > QUOTED_CHARS) keep--;
  return keep < text.length ? `${text.slice(0, keep)}…(+${text.length - keep} characters)` : text;
}

/**
 * A value from input as it may stand in a message: a string JSON-quoted (what JSON leaves raw and
 * a terminal reads, C1 controls, DEL, line separators, bidi controls and the BOM, written as
 * `\uXXXX`, so it is still a JSON string), cut where its escaped text would pass QUOTED_CHARS
 * characters between the quotes, with the count of the input characters left: at most 66
 * characters and the count, however many of them escape; a number, boolean or null as JSON
 * writes it, anything else by its kind (`an object`, `an array of 3`), never walked. So a message
 * costs the same for a 100,000-deep or 12 MB value as for a small one (a message once quoted such
 * a value with `JSON.stringify`, whose recursion overflowed the stack).
 */
export function quoted(value: unknown): string {
  if (typeof value === 'string') {
    // the cut bounds the escaped text, not the input (a character escapes to up to six, `\u001b`:
    // 64 of them were 386 characters); at most QUOTED_CHARS steps of at most QUOTED_CHARS characters each
    let n = QUOTED_CHARS;
    let text: string;
    while ((text = jsonSafe(JSON.stringify(value.slice(0, n)))).length > QUOTED_CHARS + 2) n--;
    return value.length > n ? `${text}…(+${value.length - n} characters)` : text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : String(value);
  if (typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return kindOf(value);
}

const PATH_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A key from input as the next step of a field path (`data` + `pathKey(k)`): `.name` for an
 * identifier-like key (letters, digits, `_` and `$`, not starting with a digit) of at most
 * QUOTED_CHARS characters, else `["..."]` with the key as `quoted` writes it: JSON-quoted, escaped
 * as printableJson escapes and cut past QUOTED_CHARS characters of escaped text with the count of
 * the rest. So a path (and the message made of it) stays one short line whatever the key holds:
 * a newline, U+2028, a bidi override, a quote, an ESC sequence or 10,000 characters.
 */
export function pathKey(key: string): string {
  return typeof key === 'string' && key.length <= QUOTED_CHARS && PATH_KEY.test(key) ? `.${key}` : `[${quoted(key)}]`;
}

const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * `JSON.stringify(value, null, space)` safe to print: what JSON leaves raw and a terminal or a
 * script reads (DEL, C1 controls, line separators, bidi controls, the BOM) written as `\uXXXX`
 * inside strings. Still the same JSON value (outside strings these characters cannot occur).
 * @throws {DescriptionError} bad-type for what JSON cannot hold (a BigInt, a cycle)
 */
export function printableJson(value: unknown, space?: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, space);
  } catch (e) {
    // a BigInt or a cycle: not a JSON value
    throw new DescriptionError('bad-type', 'value', `not a JSON value (${e instanceof Error ? e.message : String(e)})`);
  }
  return text === undefined ? (text as unknown as string) : jsonSafe(text);
}

/** JSON text with what JSON leaves raw and a terminal reads (JSON_UNSAFE) written as `\\uXXXX`: the same JSON value. */
function jsonSafe(text: string): string {
  JSON_UNSAFE.lastIndex = 0;
  if (!JSON_UNSAFE.test(text)) return text;
  JSON_UNSAFE.lastIndex = 0;
  return text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
