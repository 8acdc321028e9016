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
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';

/**
 * The characters of a string or character literal spelled `spelling` (prefix and quotes
 * included): `emit(text, at)` for each character with the index in `spelling` where it is
 * written (an escape's backslash); `fail(at, message)` in clang's words for an escape no
 * character has. A byte above 0x7F from `\x` or octal is the character of that code.
 */
export function literalValue(spelling: string, emit: (text: string, at: number) => void, fail: (at: number, message: string) => never): void {
  const open = spelling.search(/["']/);
  const bits = charBits(spelling.slice(0, open));
  const max = bits === 32 ? 0x10ffff : 2 ** bits - 1;
  const end = spelling.length - 1;
  for (let k = open + 1; k < end; k++) {
    const c = spelling[k]!;
    if (c !== '\\' || k + 1 >= end) {
      emit(c, k);
      continue;
    }
    const at = k;
    const e = spelling[++k]!;
    if (SIMPLE[e] !== undefined && Object.hasOwn(SIMPLE, e)) {
      emit(SIMPLE[e], at);
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
      emit(String.fromCodePoint(v), at);
      k = j - 1;
      continue;
    }
    if (isOctal(e)) {
      let j = k;
      let v = 0;
      while (j < end && j < k + 3 && isOctal(spelling[j])) v = v * 8 + Number(spelling[j++]);
      if (v > max) fail(at, 'octal escape sequence out of range');
      emit(String.fromCodePoint(v), at);
      k = j - 1;
      continue;
    }
    if (e === 'u' || e === 'U') {
      const digits = e === 'u' ? 4 : 8;
      const hex = spelling.slice(k + 1, k + 1 + digits);
      if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex) || k + digits >= end) fail(at, 'incomplete universal character name');
      const v = Number.parseInt(hex, 16);
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) fail(at, 'invalid universal character');
      emit(String.fromCodePoint(v), at);
      k += digits;
      continue;
    }
    // clang warns of an unknown escape sequence and takes the character itself
    emit(e, at);
  }
}

/** The value of a literal whose escapes are known to be good (or a thrown Error). */
export function literalText(spelling: string, fail: (at: number, message: string) => never): string {
  let s = '';
  literalValue(spelling, (t) => (s += t), fail);
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
