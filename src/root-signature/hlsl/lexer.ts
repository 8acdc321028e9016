/**
 * DXC's root signature tokenizer (docs/formats/hlsl-root-signature.md): only the space character is skipped; punctuation
 * ( ) , = |; numbers with optional sign, '.', exponent and f suffix; lowercase register tokens
 * b# t# u# s#; case-insensitive keywords; anything else is an unknown token. A tab or newline is a
 * one-character unknown token, and any other character starts an unknown token that runs to the
 * end of the text (at most 127 characters), as in DXC.
 */
import { CLAUSES, FIELD_KEYWORDS, HLSL_SPELLINGS, MAX_TOKEN_LENGTH, SPECIAL_KEYWORDS, type HlslEnum, type HlslFlags } from '../../../codecs/hlsl.js';
import { FLT_MAX } from '../../../codecs/root-signature.js';

export type TokenKind = 'eol' | ',' | '(' | ')' | '=' | '|' | 'u32' | 'i32' | 'float' | 'register' | 'keyword' | 'unknown';

export interface Token {
  kind: TokenKind;
  /** The characters as written. */
  text: string;
  /** Index of the first character in the root signature text. */
  start: number;
  /** u32 / i32 / float / register: the number. */
  value: number;
  /** register: b, t, u or s. keyword: the canonical spelling (uppercase for enum values). */
  name: string;
}

export function enumSpellings(e: HlslEnum): [spelling: string, value: number][] {
  return e.table.values.filter(([, v]) => !e.excluded?.has(v)).map(([n, v]) => [e.prefix + n, v]);
}
export function flagSpellings(f: HlslFlags): [spelling: string, bit: number][] {
  return f.table.bits.map(([n, b]) => [f.prefix + n, b]);
}

/** Every keyword, by its uppercase form, to its canonical spelling. */
const KEYWORDS: ReadonlyMap<string, string> = new Map(
  [
    ...Object.values(CLAUSES),
    ...FIELD_KEYWORDS,
    ...SPECIAL_KEYWORDS,
    ...HLSL_SPELLINGS.flatMap((t) => ('bits' in t.table ? flagSpellings(t as HlslFlags) : enumSpellings(t as HlslEnum)).map(([s]) => s)),
  ].map((k) => [k.toUpperCase(), k]),
);

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const PUNCTUATION = new Set([',', '(', ')', '=', '|']);
const SEPARATORS = new Set([',', '=', '|', '(', ')', ' ', '\t', '\n']);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    while (text[i] === ' ') i++;
    const start = i;
    const c = text[i];
    const make = (kind: TokenKind, value = 0, name = ''): Token => ({ kind, text: text.slice(start, i), start, value, name });
    if (c === undefined) {
      tokens.push(make('eol'));
      return tokens;
    }
    if (SEPARATORS.has(c)) {
      i++;
      tokens.push(make(PUNCTUATION.has(c) ? (c as TokenKind) : 'unknown'));
      continue;
    }
    if (isDigit(c) || c === '+' || c === '-' || c === '.') {
      tokens.push(number(text, start, (end) => (i = end)));
      continue;
    }
    if (isAlpha(c) || c === '_') {
      while ((isAlpha(text[i]) || isDigit(text[i]) || text[i] === '_') && i - start < MAX_TOKEN_LENGTH) i++;
      tokens.push(word(text.slice(start, i), start));
      continue;
    }
    while (i < text.length && i - start < MAX_TOKEN_LENGTH) i++;
    tokens.push(make('unknown'));
  }
}

/** A number token as DXC reads it (atoi64-style integers, strtod floats within ±FLT_MAX). */
function number(text: string, start: number, advance: (end: number) => void): Token {
  let i = start;
  let isFloat = false;
  let seenDigit = false;
  let ok = true;
  const room = () => i - start < MAX_TOKEN_LENGTH;
  if (text[i] === '+' || text[i] === '-') i++;
  while (isDigit(text[i]) && room()) {
    i++;
    seenDigit = true;
  }
  if (text[i] === '.') {
    isFloat = true;
    i++;
    if (!seenDigit && !isDigit(text[i])) ok = false;
    while (ok && isDigit(text[i]) && room()) {
      i++;
      seenDigit = true;
    }
  }
  if (ok && !seenDigit) ok = false;
  if (ok && (text[i] === 'e' || text[i] === 'E')) {
    isFloat = true;
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    if (!isDigit(text[i])) ok = false;
    while (ok && isDigit(text[i]) && room()) i++;
  }
  if (ok && (text[i] === 'f' || text[i] === 'F')) {
    isFloat = true;
    i++;
  }
  advance(i);
  const written = text.slice(start, i);
  const token = (kind: TokenKind, value = 0): Token => ({ kind, text: written, start, value, name: '' });
  if (!ok) return token('unknown');
  if (isFloat) {
    const v = Number.parseFloat(written);
    return Number.isFinite(v) && Math.abs(v) <= FLT_MAX ? token('float', Math.fround(v)) : token('unknown');
  }
  const n = Number(written.replace(/^\+/, ''));
  // an integer has no sign of zero: `-0` is 0, and DXC converts it to +0.0f where a float is read
  if (written.startsWith('-')) return n >= -0x80000000 && n <= 0x7fffffff ? token('i32', n === 0 ? 0 : n) : token('unknown');
  return n >= 0 && n <= 0xffffffff ? token('u32', n) : token('unknown');
}

function word(text: string, start: number): Token {
  const c = text[0]!;
  if ((c === 'b' || c === 't' || c === 'u' || c === 's') && isDigit(text[1])) {
    const digits = /^\d+/.exec(text.slice(1))![0];
    const n = Number(digits);
    if (n <= 0xffffffff) return { kind: 'register', text, start, value: n, name: c };
  }
  const keyword = KEYWORDS.get(text.toUpperCase());
  return keyword ? { kind: 'keyword', text, start, value: 0, name: keyword } : { kind: 'unknown', text, start, value: 0, name: '' };
}
