/**
 * The lexer (clang's Lexer): one logical line of a source's spliced text at a time into tokens,
 * and the scans that pass over text no one reads (skipped groups, `macros` mode). Punctuators
 * are the rows of codecs/hlsl-preprocessor.ts.
 */
import { PUNCTUATORS } from '../../../../codecs/hlsl-preprocessor.js';
import { TOKEN, type Token } from './token.js';

const { ident: IDENT, number: NUMBER, string: STRING, char: CHAR, punct: PUNCT, other: OTHER } = TOKEN;
/** Punctuators by their first character, longest first. */
export const PUNCT_BY_FIRST = new Map<number, string[]>();
for (const p of PUNCTUATORS) {
  const list = PUNCT_BY_FIRST.get(p.charCodeAt(0)) ?? [];
  list.push(p);
  PUNCT_BY_FIRST.set(p.charCodeAt(0), list);
}
for (const list of PUNCT_BY_FIRST.values()) list.sort((a, b) => b.length - a.length);

const isIdentStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
const isIdentChar = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Whitespace between tokens: space, tab, CR, VT, FF, and NUL (clang: "null character ignored"; inside a literal it stays). */
const isBlank = (c: number) => c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || c === 0;

/** Spellings of one-character punctuators, shared by every token (no slice per token). */
const ONE_CHAR: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/**
 * The tokens of one logical line of `s` from `i` (a block comment may carry it over newlines);
 * `lexed.end` is where the next line starts. `fail` reports an unterminated comment. Lines are
 * lexed as the preprocessor reaches them: a skipped group, a skipped text line in `macros` mode and
 * a guarded header's second inclusion make no tokens at all.
 */
export function lexLine(s: string, file: number, i: number, fail: (pos: number, message: string) => never, out: Token[]): number {
  const n = s.length;
  let bol = true;
  let space = i > 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 10) return i + 1;
    if (isBlank(c)) {
      space = true;
      i++;
      continue;
    }
    if (c === 47) {
      const d = s.charCodeAt(i + 1);
      if (d === 47) {
        i = s.indexOf('\n', i);
        if (i < 0) i = n;
        space = true;
        continue;
      }
      if (d === 42) {
        const end = s.indexOf('*/', i + 2);
        if (end < 0) fail(i, 'unterminated /* comment');
        i = end + 2;
        space = true;
        continue;
      }
    }
    const start = i;
    let kind: number;
    if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentChar(s.charCodeAt(i))) i++;
      const q = s.charCodeAt(i);
      if ((q === 34 || q === 39) && i - start <= 2 && isStringPrefix(s, start, i)) {
        const end = scanQuoted(s, i, q);
        kind = end < 0 ? OTHER : q === 34 ? STRING : CHAR;
        i = end < 0 ? -end : end;
      } else kind = IDENT;
    } else if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      i++;
      while (i < n) {
        const d = s.charCodeAt(i);
        if ((d === 101 || d === 69 || d === 112 || d === 80) && (s.charCodeAt(i + 1) === 43 || s.charCodeAt(i + 1) === 45)) i += 2;
        else if (isIdentChar(d) || d === 46) i++;
        else break;
      }
      kind = NUMBER;
    } else if (c === 34 || c === 39) {
      const end = scanQuoted(s, i, c);
      kind = end < 0 ? OTHER : c === 34 ? STRING : CHAR;
      i = end < 0 ? -end : end;
    } else {
      const list = PUNCT_BY_FIRST.get(c);
      let len = 1;
      if (list) for (const p of list) if (s.startsWith(p, i)) {
        len = p.length;
        break;
      }
      i += len;
      kind = c < 128 && c !== 64 && c !== 96 && c !== 92 ? PUNCT : OTHER;
    }
    const spelling = i - start === 1 && c < 128 ? ONE_CHAR[c]! : s.slice(start, i);
    out.push({ kind, text: spelling, file, pos: start, space, bol, hide: null, from: file, at: start, synthetic: false });
    bol = false;
    space = false;
  }
  return n;
}

/** The line whose first token would be at `i` has none: it ends there, or a `//` comment starts. */
export function blankLine(s: string, i: number): boolean {
  return i >= s.length || s.charCodeAt(i) === 10 || (s.charCodeAt(i) === 47 && s.charCodeAt(i + 1) === 47);
}

/** A `#` (not `##`) at `i`: the line is a directive. */
export function startsDirective(s: string, i: number): boolean {
  return s.charCodeAt(i) === 35 && s.charCodeAt(i + 1) !== 35;
}

/** `L`, `u`, `U` or `u8` before a quote: an encoding prefix of a literal. */
function isStringPrefix(s: string, start: number, end: number): boolean {
  const c = s.charCodeAt(start);
  if (end - start === 1) return c === 76 || c === 117 || c === 85;
  return c === 117 && s.charCodeAt(start + 1) === 56;
}

/**
 * Where the first token of the line at `i` starts (whitespace and block comments passed over), or
 * the index of the newline (or end) when the line has none.
 */
export function firstTokenAt(s: string, i: number, fail: (pos: number, message: string) => never): number {
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isBlank(c)) i++;
    else if (c === 47 && s.charCodeAt(i + 1) === 42) {
      const end = s.indexOf('*/', i + 2);
      if (end < 0) fail(i, 'unterminated /* comment');
      i = end + 2;
    } else return i;
  }
  return n;
}

/** Where a text line ends (its newline), from `i`: literals and comments skipped, a block comment followed to its end. */
export function skipTextLine(s: string, i: number, fail: (pos: number, message: string) => never): number {
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 10) return i;
    if (c === 34 || c === 39) {
      const end = scanQuoted(s, i, c);
      i = end < 0 ? -end : end;
      continue;
    }
    if (c === 47) {
      const d = s.charCodeAt(i + 1);
      if (d === 47) {
        const nl = s.indexOf('\n', i);
        return nl < 0 ? n : nl;
      }
      if (d === 42) {
        const end = s.indexOf('*/', i + 2);
        if (end < 0) fail(i, 'unterminated /* comment');
        i = end + 2;
        continue;
      }
    }
    i++;
  }
  return n;
}

/** End (after the closing quote) of the literal opening at `i`; minus the line's end when it is not closed on its line. */
function scanQuoted(s: string, i: number, quote: number): number {
  let j = i + 1;
  for (;;) {
    if (j >= s.length) return -j;
    const c = s.charCodeAt(j);
    if (c === quote) return j + 1;
    if (c === 10) return -j;
    j += c === 92 ? 2 : 1;
  }
}

/** One token lexed from `text` (for `##`), or undefined when the text is not exactly one token. */
export function lexOne(text: string): { kind: number } | undefined {
  if (text.includes('\n')) return undefined;
  const tokens: Token[] = [];
  try {
    lexLine(text, 0, 0, () => {
      throw new Error('comment');
    }, tokens);
  } catch {
    return undefined;
  }
  if (tokens.length !== 1 || tokens[0]!.text !== text) return undefined;
  return { kind: tokens[0]!.kind };
}
