/**
 * `#if` expressions (clang's PPExpressions): integer arithmetic in 64 bits over expanded tokens,
 * on explicit stacks of operators and values.
 */
import { HlslError, type SourceLocation } from '../text.js';
import { unknownEscape } from './literal.js';
import { TOKEN, type Token } from './token.js';

const { ident: IDENT, number: NUMBER, char: CHAR, punct: PUNCT } = TOKEN;

/** A value in a #if expression: 64 bits, signed or unsigned. */
interface Value {
  v: bigint;
  unsigned: boolean;
}

const BINARY_PRECEDENCE: Record<string, number> = {
  '*': 10, '/': 10, '%': 10,
  '+': 9, '-': 9,
  '<<': 8, '>>': 8,
  '<': 7, '>': 7, '<=': 7, '>=': 7,
  '==': 6, '!=': 6,
  '&': 5, '^': 4, '|': 3, '&&': 2, '||': 1,
};

/** An operator waiting on the stack of `Expression`: a unary or binary operator, `(`, `?` (its condition taken), `:` or `,`. */
interface PendingOp {
  readonly kind: 'unary' | 'binary' | 'paren' | 'question' | 'colon' | 'comma';
  readonly token: Token;
  /** Binary operators: their precedence. */
  readonly prec: number;
  /** `?` and `:`: the condition; `:` also the value of the true branch. */
  cond?: Value;
  whenTrue?: Value;
  /** This operator made the operand after it dead (short-circuit): undone when it is reduced. */
  deadened: boolean;
}

/**
 * A #if expression over expanded tokens, evaluated as clang does: intmax_t/uintmax_t, the usual
 * conversions, short-circuit (a division by zero is an error only where it is evaluated).
 * Operator precedence on an explicit stack of operators and one of values: nesting of
 * parentheses, unary operators and `?:` costs stack entries, never recursion.
 */
export class Expression {
  private i = 0;
  private readonly ops: PendingOp[] = [];
  private readonly values: Value[] = [];
  /** How many operators above have made the current operand dead. */
  private dead = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly pp: { location(file: number, pos: number): SourceLocation; warnAt(file: number, pos: number, message: string): void },
    private readonly directive: Token,
    /** Where the directive ends (clang's eod token): a value missing at the end is reported there. */
    private readonly end?: { file: number; pos: number },
  ) {}

  evaluate(): bigint {
    const tokens = this.tokens;
    for (;;) {
      this.operand();
      // after an operand: a binary operator, `?`, `,`, or what ends a group
      for (;;) {
        const t = tokens[this.i];
        const prec = t !== undefined && t.kind === PUNCT ? BINARY_PRECEDENCE[t.text] : undefined;
        if (prec !== undefined) {
          this.reduceBinaries(prec);
          this.i++;
          const lhs = this.values[this.values.length - 1]!;
          const deadened = (t!.text === '&&' && lhs.v === 0n) || (t!.text === '||' && lhs.v !== 0n);
          if (deadened) this.dead++;
          this.ops.push({ kind: 'binary', token: t!, prec, deadened });
          break;
        }
        if (t !== undefined && t.kind === PUNCT && t.text === '?') {
          this.reduceBinaries(1);
          this.i++;
          const cond = this.values.pop()!;
          const deadened = cond.v === 0n;
          if (deadened) this.dead++;
          this.ops.push({ kind: 'question', token: t, prec: 0, cond, deadened });
          break;
        }
        if (t !== undefined && t.kind === PUNCT && t.text === ',') {
          this.reduceGroup();
          this.i++;
          this.ops.push({ kind: 'comma', token: t, prec: 0, deadened: false });
          break;
        }
        // anything else closes what is open: `)` a parenthesis, `:` a `?`, the end the whole
        this.reduceGroup();
        const top = this.ops[this.ops.length - 1];
        if (top === undefined) {
          if (t === undefined) return this.values.pop()!.v;
          this.fail(t, t.kind === PUNCT && t.text === ':' ? "expected '?' before ':'" : 'token is not a valid binary operator in a preprocessor subexpression');
        }
        if (top.kind === 'paren') {
          if (t === undefined || t.kind !== PUNCT || t.text !== ')') this.fail(t ?? top.token, "expected ')' in preprocessor expression");
          this.i++;
          this.ops.pop();
          this.applyUnaries();
          continue;
        }
        // top is a `?` waiting for its `:`
        if (t === undefined || t.kind !== PUNCT || t.text !== ':') this.fail(t ?? top.token, "expected ':'");
        this.i++;
        this.ops.pop();
        if (top.deadened) this.dead--;
        const deadened = top.cond!.v !== 0n;
        if (deadened) this.dead++;
        this.ops.push({ kind: 'colon', token: t, prec: 0, cond: top.cond, whenTrue: this.values.pop()!, deadened });
        break;
      }
    }
  }

  /** Reads prefix operators and `(` onto the stack, then one primary value (unary operators on top applied). */
  private operand(): void {
    for (;;) {
      const t = this.tokens[this.i++];
      if (t === undefined) this.fail(undefined, 'expected value in expression');
      if (t.kind === PUNCT) {
        if (t.text === '(') {
          this.ops.push({ kind: 'paren', token: t, prec: 0, deadened: false });
          continue;
        }
        if (t.text === '+' || t.text === '-' || t.text === '~' || t.text === '!') {
          this.ops.push({ kind: 'unary', token: t, prec: 0, deadened: false });
          continue;
        }
        this.fail(t, 'invalid token at start of a preprocessor expression');
      }
      if (t.kind === NUMBER) this.values.push(this.number(t));
      else if (t.kind === CHAR) this.values.push(this.charValue(t));
      else if (t.kind === IDENT) this.values.push({ v: t.text === 'true' ? 1n : 0n, unsigned: false });
      else this.fail(t, 'invalid token at start of a preprocessor expression');
      this.applyUnaries();
      return;
    }
  }

  /** Applies the unary operators on top of the stack to the value on top. */
  private applyUnaries(): void {
    const ops = this.ops;
    const values = this.values;
    while (ops.length > 0 && ops[ops.length - 1]!.kind === 'unary') {
      const op = ops.pop()!.token.text;
      const v = values.pop()!;
      values.push(op === '+' ? v : op === '-' ? wrap(-v.v, v.unsigned) : op === '~' ? wrap(~v.v, v.unsigned) : { v: v.v === 0n ? 1n : 0n, unsigned: false });
    }
  }

  /** Reduces the binary operators on top of precedence `prec` or more (all are left-associative). */
  private reduceBinaries(prec: number): void {
    const ops = this.ops;
    while (ops.length > 0) {
      const top = ops[ops.length - 1]!;
      if (top.kind !== 'binary' || top.prec < prec) return;
      this.reduceOne();
    }
  }

  /** Reduces everything down to the innermost open `(` or `?` (binary operators, `:` and `,`). */
  private reduceGroup(): void {
    const ops = this.ops;
    while (ops.length > 0) {
      const kind = ops[ops.length - 1]!.kind;
      if (kind === 'paren' || kind === 'question') return;
      this.reduceOne();
    }
  }

  private reduceOne(): void {
    const op = this.ops.pop()!;
    const values = this.values;
    const b = values.pop()!;
    if (op.deadened) this.dead--;
    if (op.kind === 'comma') {
      values.pop();
      values.push(b);
      return;
    }
    if (op.kind === 'colon') {
      const a = op.whenTrue!;
      values.push(wrap(op.cond!.v !== 0n ? a.v : b.v, a.unsigned || b.unsigned));
      return;
    }
    const a = values.pop()!;
    const text = op.token.text;
    if (text === '&&' || text === '||') {
      const r = text === '&&' ? a.v !== 0n && b.v !== 0n : a.v !== 0n || b.v !== 0n;
      values.push({ v: r ? 1n : 0n, unsigned: false });
      return;
    }
    values.push(this.apply(op.token, a, b, this.dead === 0));
  }

  /** A character constant's value; a bad escape an error at it, an unknown one a warning (as clang's CharLiteralParser). */
  private charValue(t: Token): Value {
    const at = (k: number) => ({ file: t.file, pos: t.synthetic ? t.pos : t.pos + k });
    return charValue(
      t.text,
      (k, message) => {
        const p = at(k);
        throw new HlslError(message, this.pp.location(p.file, p.pos), 'hlsl-preprocess');
      },
      (k, message) => {
        const p = at(k);
        this.pp.warnAt(p.file, p.pos, message);
      },
    );
  }

  private fail(t: Token | undefined, message: string): never {
    const at = t ?? this.end ?? this.tokens[this.tokens.length - 1] ?? this.directive;
    throw new HlslError(message, this.pp.location(at.file, at.pos), 'hlsl-preprocess');
  }

  private apply(op: Token, a: Value, b: Value, live: boolean): Value {
    const unsigned = a.unsigned || b.unsigned;
    const x = unsigned ? BigInt.asUintN(64, a.v) : a.v;
    const y = unsigned ? BigInt.asUintN(64, b.v) : b.v;
    const bool = (r: boolean): Value => ({ v: r ? 1n : 0n, unsigned: false });
    switch (op.text) {
      case '*': return wrap(x * y, unsigned);
      case '/':
      case '%':
        if (y === 0n) {
          if (live) this.fail(op, `${op.text === '/' ? 'division' : 'remainder'} by zero in preprocessor expression`);
          return { v: 0n, unsigned };
        }
        return wrap(op.text === '/' ? x / y : x % y, unsigned);
      case '+': return wrap(x + y, unsigned);
      case '-': return wrap(x - y, unsigned);
      case '<<':
      case '>>': {
        // the result has the left operand's type; a shift by 64 or more (or a negative one) as clang folds it
        const left = a.unsigned ? BigInt.asUintN(64, a.v) : a.v;
        const amount = b.unsigned ? BigInt.asUintN(64, b.v) : b.v;
        if (amount < 0n || amount >= 64n) return { v: op.text === '<<' ? 0n : left < 0n ? -1n : 0n, unsigned: a.unsigned };
        return wrap(op.text === '<<' ? left << amount : left >> amount, a.unsigned);
      }
      case '<': return bool(x < y);
      case '>': return bool(x > y);
      case '<=': return bool(x <= y);
      case '>=': return bool(x >= y);
      case '==': return bool(x === y);
      case '!=': return bool(x !== y);
      case '&': return wrap(x & y, unsigned);
      case '^': return wrap(x ^ y, unsigned);
      default: return wrap(x | y, unsigned);
    }
  }

  private number(t: Token): Value {
    const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([a-zA-Z_0-9.+-]*)$/.exec(t.text);
    if (!m || /[.]|^[0-9]+[eE]/.test(t.text) && !/^0[xX]/.test(t.text)) this.fail(t, 'floating point literal in preprocessor expression');
    const digits = m[1]!;
    const suffix = m[2]!;
    if (!/^(?:[uU]?(?:l|L|ll|LL)?|(?:l|L|ll|LL)[uU])$/.test(suffix)) this.fail(t, `invalid suffix '${suffix}' on integer constant`);
    let v: bigint;
    const octal = /^0[0-7]*$/.test(digits);
    if (!octal && /^0[0-9]+$/.test(digits)) this.fail(t, `invalid digit '${/[89]/.exec(digits)![0]}' in octal constant`);
    // no 64-bit value has more than 64 significant digits in any base: a longer literal is not parsed (BigInt of a long string is slow)
    if (digits.replace(/^0[xXbB]?0*/, '').length > 64) this.fail(t, 'integer literal is too large to be represented in any integer type');
    if (octal) v = BigInt(`0o${digits.slice(1) || '0'}`);
    else v = BigInt(digits);
    if (v > 0xffffffffffffffffn) this.fail(t, 'integer literal is too large to be represented in any integer type');
    return { v, unsigned: /[uU]/.test(suffix) || v > 0x7fffffffffffffffn };
  }
}

function wrap(v: bigint, unsigned: boolean): Value {
  return { v: unsigned ? BigInt.asUintN(64, v) : BigInt.asIntN(64, v), unsigned };
}

const CHAR_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, e: 27, E: 27, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };

/** A code point as the code units of a literal's encoding: UTF-8 bytes (8 bits), UTF-16 units (16), itself (32). */
function pushUnits(units: number[], cp: number, bits: number): void {
  if (bits === 32) units.push(cp);
  else if (bits === 16) {
    if (cp < 0x10000) units.push(cp);
    else units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
  } else if (cp < 0x80) units.push(cp);
  else if (cp < 0x800) units.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  else if (cp < 0x10000) units.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  else units.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
}

/**
 * A character constant's value as GNU cpp takes it in `#if` (cpp_interpret_charconst): its
 * characters as code units of its encoding (a plain or `u8` one's as UTF-8 bytes, `u` UTF-16,
 * `L` and `U` code points: cpp's 32-bit wchar_t), an escape one unit (masked to its width, "hex
 * escape sequence out of range" past it). Plain: up to four units make an int (high unit first),
 * one a signed char, more than one "multi-character character constant", more than four "character
 * constant too long for its type" (the last four count); `u8`: one unit, more an error. Wide:
 * the last unit ("too long" past one); `L` signed, `u` and `U` unsigned. `fail(k, message)` for an
 * escape no character has (and an empty constant), `warn(k, message)` for a warning (`k` an index
 * in `text`: the backslash of an unknown escape, as clang; 0, the literal, for cpp's others).
 */
function charValue(text: string, fail: (k: number, message: string) => never, warn: (k: number, message: string) => void): Value {
  const q = text.indexOf("'");
  const prefix = text.slice(0, q);
  const bits = prefix === 'U' || prefix === 'L' ? 32 : prefix === 'u' ? 16 : 8;
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  const body = text.slice(q + 1, -1);
  if (body.length === 0) fail(0, 'empty character constant');
  const units: number[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\' || i + 1 >= body.length) {
      const cp = body.codePointAt(i)!;
      if (cp > 0xffff) i++;
      pushUnits(units, cp, bits);
      continue;
    }
    const k = q + 1 + i;
    const e = body[++i]!;
    let c: number;
    if (e === 'x' || (e >= '0' && e <= '7')) {
      const m = (e === 'x' ? /^[0-9a-fA-F]*/.exec(body.slice(i + 1)) : /^[0-7]{1,3}/.exec(body.slice(i)))![0];
      if (m === '') fail(k, '\\x used with no following hex digits');
      const big = BigInt(e === 'x' ? `0x${m}` : `0o${m}`);
      if (big > BigInt(mask)) warn(0, `${e === 'x' ? 'hex' : 'octal'} escape sequence out of range`);
      c = Number(big & BigInt(mask));
      i += e === 'x' ? m.length : m.length - 1;
      units.push(c);
      continue;
    }
    if (e === 'u' || e === 'U') {
      // a universal character name: its code point, in the literal's encoding (a plain one's as UTF-8 bytes)
      const digits = e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + digits);
      if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) fail(k, 'incomplete universal character name');
      c = parseInt(hex, 16);
      if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) fail(k, 'invalid universal character');
      i += digits;
      pushUnits(units, c, bits);
      continue;
    }
    const known = CHAR_ESCAPES[e];
    if (known === undefined || !Object.hasOwn(CHAR_ESCAPES, e)) {
      const word = unknownEscape(e);
      if (word !== undefined) warn(k, word);
      const cp = body.codePointAt(i)!;
      if (cp > 0xffff) i++;
      pushUnits(units, cp, bits);
    } else units.push(known);
  }
  const n = units.length;
  if (bits !== 8) {
    if (n > 1) warn(0, 'character constant too long for its type');
    const last = units[n - 1]!;
    return prefix === 'L' ? { v: BigInt.asIntN(32, BigInt(last)), unsigned: false } : { v: BigInt(last), unsigned: true };
  }
  const max = prefix === 'u8' ? 1 : 4;
  if (n > max) {
    if (prefix === 'u8') fail(0, 'character constant too long for its type');
    warn(0, 'character constant too long for its type');
  } else if (n > 1) warn(0, 'multi-character character constant');
  // the last four units count (an int, high unit first); one alone is a signed char
  let v = 0;
  for (let j = Math.max(0, n - 4); j < n; j++) v = ((v << 8) | units[j]!) >>> 0;
  return { v: n > 1 ? BigInt(v | 0) : BigInt((v << 24) >> 24), unsigned: false };
}
