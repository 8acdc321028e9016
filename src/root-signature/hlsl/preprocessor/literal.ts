/**
 * String literals both ways (clang's LiteralSupport and Lexer::Stringify): the value of a literal
 * as its escapes say, and a value written back as a literal. One decoder serves every reader of a
 * literal's value (root signature text, `#line` file names), so `\x30`, `\060`, `\u0030` and `\a`
 * mean there what they mean to DXC; one writer serves every literal the preprocessor makes
 * (`__FILE__`, the `#line` markers of `dxc -P` text), so no value starts a line of its own there.
 */

/** Code units of a literal's characters by its encoding prefix: 8 bits plain and `u8`, 16 for `u` and `L` (Windows), 32 for `U`. */
function charBits(prefix: string): number {
  return prefix === 'U' ? 32 : prefix === 'u' || prefix === 'L' ? 16 : 8;
}

const SIMPLE: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Escapes clang takes as GNU extensions with a pedantic warning only (off by default): no warning here. */
const GNU_ESCAPES = new Set(['(', '{', '[', '%']);

/**
 * clang's warning for an escape C does not have (ext_unknown_escape, on by default), or undefined
 * for one it takes quietly: the character itself, or its code in hex when it is not printable.
 */
export function unknownEscape(c: string): string | undefined {
  if (GNU_ESCAPES.has(c)) return undefined;
  const cp = c.codePointAt(0)!;
  return `unknown escape sequence '\\${cp >= 0x20 && cp <= 0x7e ? c : `x${cp.toString(16).toUpperCase()}`}'`;
}
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';

/**
 * The characters of a string or character literal spelled `spelling` (prefix and quotes
 * included): `emit(text, at)` for each character with the index in `spelling` where it is
 * written (an escape's backslash); `fail(at, message)` in clang's words for an escape no
 * character has.
 *
 * A plain or `u8` string literal is bytes to clang (its characters as UTF-8, a `\x` or octal
 * escape one byte, `\u` and `\U` as UTF-8), and every reader of one here takes those bytes as
 * UTF-8: `"caf\303\251.h"` is `café.h`, as clang writes that name in a `#line` marker and
 * reads it back. Bytes above 0x7F from escapes that are no UTF-8 character (a stray
 * continuation, a lead byte cut short, an overlong form, a surrogate) are refused with
 * `fail`: a JavaScript string cannot hold them as the bytes they are, and any stand-in
 * (U+FFFD, or one Latin-1 character a byte) would read back as other bytes. A character
 * made of escaped bytes is emitted at the escape of its first byte. A wide literal (`u`, `U`,
 * `L`) and a character literal keep one code unit an escape. `warn(at, message)`, when given, hears
 * of an escape C does not have (clang's "unknown escape sequence").
 */
export function literalValue(spelling: string, emit: (text: string, at: number) => void, fail: (at: number, message: string) => never, warn?: (at: number, message: string) => void): void {
  const open = spelling.search(/["']/);
  const bits = charBits(spelling.slice(0, open));
  const max = bits === 32 ? 0x10ffff : 2 ** bits - 1;
  const asBytes = bits === 8 && spelling[open] === '"';
  // escaped bytes above 0x7F not yet read as UTF-8, and where each was written
  const run: number[] = [];
  const runAt: number[] = [];
  const flush = () => {
    if (run.length === 0) return;
    utf8Run(run, runAt, emit, fail);
    run.length = 0;
    runAt.length = 0;
  };
  const put = (text: string, at: number) => {
    flush();
    emit(text, at);
  };
  const unit = (v: number, at: number) => {
    if (asBytes && v > 0x7f) {
      run.push(v);
      runAt.push(at);
    } else put(String.fromCodePoint(v), at);
  };
  const end = spelling.length - 1;
  for (let k = open + 1; k < end; k++) {
    const c = spelling[k]!;
    if (c !== '\\' || k + 1 >= end) {
      put(c, k);
      continue;
    }
    const at = k;
    const e = spelling[++k]!;
    if (SIMPLE[e] !== undefined && Object.hasOwn(SIMPLE, e)) {
      put(SIMPLE[e], at);
      continue;
    }
    if (e === 'x') {
      let j = k + 1;
      let v = 0;
      while (j < end && isHex(spelling[j])) {
        v = v * 16 + Number.parseInt(spelling[j]!, 16);
        if (v > max) fail(at, 'hex escape sequence out of range');
        j++;
      }
      if (j === k + 1) fail(at, '\\x used with no following hex digits');
      unit(v, at);
      k = j - 1;
      continue;
    }
    if (isOctal(e)) {
      let j = k;
      let v = 0;
      while (j < end && j < k + 3 && isOctal(spelling[j])) v = v * 8 + Number(spelling[j++]);
      if (v > max) fail(at, 'octal escape sequence out of range');
      unit(v, at);
      k = j - 1;
      continue;
    }
    if (e === 'u' || e === 'U') {
      const digits = e === 'u' ? 4 : 8;
      const hex = spelling.slice(k + 1, k + 1 + digits);
      if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex) || k + digits >= end) fail(at, 'incomplete universal character name');
      const v = Number.parseInt(hex, 16);
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) fail(at, 'invalid universal character');
      put(String.fromCodePoint(v), at);
      k += digits;
      continue;
    }
    // clang warns of an unknown escape sequence and takes the character itself
    const word = warn === undefined ? undefined : unknownEscape(e);
    if (word !== undefined) warn!(at, word);
    put(e, at);
  }
  flush();
}

/**
 * Escaped bytes above 0x7F (with no character between them) read as UTF-8, strictly: each
 * character emitted at its first byte's escape. A character of the source or a `\u` escape
 * is whole UTF-8 of its own, so it can neither finish nor continue a sequence these bytes
 * start: reading each such run alone is reading the literal's bytes.
 */
function utf8Run(bytes: readonly number[], at: readonly number[], emit: (text: string, at: number) => void, fail: (at: number, message: string) => never): void {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
    let cp = need === 1 ? b & 0x1f : need === 2 ? b & 0x0f : b & 0x07;
    let n = 0;
    while (n < need && i + 1 + n < bytes.length && (bytes[i + 1 + n]! & 0xc0) === 0x80) cp = (cp << 6) | (bytes[i + 1 + n++]! & 0x3f);
    const min = need === 1 ? 0x80 : need === 2 ? 0x800 : 0x10000;
    if (need === 0 || n < need || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      const shown = bytes.slice(i, i + n + 1).map((x) => `\\${x.toString(8).padStart(3, '0')}`).join('');
      fail(at[i]!, `the escaped bytes ${shown} in this string literal are no UTF-8 character (dxbin reads a narrow string's bytes as UTF-8 and cannot hold other bytes)`);
    }
    emit(String.fromCodePoint(cp), at[i]!);
    i += need + 1;
  }
}

/** The value of a literal whose escapes are known to be good (or a thrown Error); `warn` as literalValue's. */
export function literalText(spelling: string, fail: (at: number, message: string) => never, warn?: (at: number, message: string) => void): string {
  let s = '';
  literalValue(spelling, (t) => (s += t), fail, warn);
  return s;
}

/**
 * `value` as a string literal: `\` and `"` escaped (as Lexer::Stringify), and every control
 * character (C0 and DEL as 3-digit octal escapes, `\n` and `\t` by name; C1, line and paragraph
 * separators as `\uXXXX`), so the literal stays on its line and reads back to `value`. With `ascii`, every
 * character outside printable ASCII is written as the octal escapes of its UTF-8 bytes, as
 * clang writes the file names of its `#line` markers (raw_ostream::write_escaped).
 */
export function quoteLiteral(value: string, ascii = false): string {
  const unsafe = ascii ? /[^\x20-\x7e]|["\\]/gu : /[\x00-\x1f\x7f-\x9f\u2028\u2029"\\]/g;
  return `"${value.replace(unsafe, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    const cp = c.codePointAt(0)!;
    if (cp < 0x80) return `\\${cp.toString(8).padStart(3, '0')}`;
    if (!ascii) return `\\u${cp.toString(16).padStart(4, '0')}`;
    return Array.from(new TextEncoder().encode(c), (b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
  })}"`;
}
