/**
 * Finding a root signature in an HLSL file, as DXC's preprocessor hands it to the parser
 * (docs/formats/hlsl-root-signature.md): the expansion of a `#define` (`-E NAME` with `-T rootsig_1_x`, or
 * `-rootsig-define NAME`), or the argument of the entry function's `[RootSignature(...)]`.
 *
 * A small preprocessor: line continuations, comments, object-like and function-like `#define`s
 * (no # or ## operators). Expansion follows DXC's macro expander: string literal tokens are
 * copied without quotes (so adjacent literals concatenate), other tokens by spelling, and a space
 * goes before a token that had whitespace before it, except right after a string literal. Every
 * character keeps its offset in the file, so errors point into the file.
 */
import { RootSignatureText, HlslError } from './text.js';
import { DescriptionError, kindOf } from '../../bytes/errors.js';
import { expectOptions } from '../../bytes/check.js';

interface PpToken {
  kind: 'string' | 'ident' | 'other';
  /** Spelling in the file (a string keeps its quotes). */
  text: string;
  /** Offset of each character of `text` in the file. */
  at: number[];
  spaceBefore: boolean;
}

interface Macro {
  name: string;
  params?: string[];
  body: PpToken[];
}

/** Budgets of the preprocessor against hostile files (docs/limits.md). */
export interface HlslFileLimits {
  /** Most tokens the expansion of one root signature may produce, arguments included (default: 64 x the file's length + 4096). */
  maxExpansionTokens?: number;
  /** Deepest nesting of macro expansions (default 1000). */
  maxExpansionDepth?: number;
}

/**
 * An HLSL file: its #defines (with continuations and macros) and the [RootSignature(...)] of entry functions.
 * The constructor throws DescriptionError bad-type when `text` is not a string.
 */
export class HlslFile {
  private readonly macros = new Map<string, Macro>();
  /** The file with continuations joined and comments blanked; `map[i]` is the file offset of `clean[i]`. */
  private readonly clean: string;
  private readonly map: number[];
  private readonly maxTokens: number;
  private readonly maxDepth: number;
  private spent = 0;

  constructor(
    readonly text: string,
    readonly file: string,
    extraDefines: Record<string, string> = {},
    limits: HlslFileLimits = {},
  ) {
    // the file's own words for its text argument (a test pins them), not expectString's
    if (typeof text !== 'string') throw new DescriptionError('bad-type', 'text', `expected the file's text, got ${kindOf(text)}`);
    expectOptions(extraDefines, 'extraDefines');
    expectOptions(limits, 'limits');
    this.maxTokens = limits.maxExpansionTokens ?? 64 * text.length + 4096;
    this.maxDepth = limits.maxExpansionDepth ?? 1000;
    const { clean, map } = preprocessText(text);
    this.clean = clean;
    this.map = map;
    this.collectDefines();
    for (const [name, body] of Object.entries(extraDefines)) {
      const at = Array.from({ length: body.length }, () => 0);
      this.macros.set(name, { name, body: ppTokens(body, at) });
    }
  }

  /**
   * The expansion of macro NAME (`--define NAME`, `-T rootsig_1_x -E NAME`).
   * @throws {HlslError} hlsl-missing (no object-like macro NAME), hlsl-limit (expansion over maxExpansionTokens or maxExpansionDepth)
   */
  defineText(name: string): RootSignatureText {
    const macro = this.macros.get(name);
    if (!macro || macro.params) throw new HlslError(`undeclared identifier ${name}`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
    this.spent = 0;
    return this.toText(this.expand(macro.body, new Set([name]), 1, []));
  }

  /**
   * The root signature of entry function ENTRY's `[RootSignature(...)]` attribute.
   * @throws {HlslError} hlsl-missing (no such attribute on ENTRY), hlsl-limit (expansion over maxExpansionTokens or maxExpansionDepth)
   */
  entryText(entry: string): RootSignatureText {
    const re = /\[\s*RootSignature\s*\(/g;
    const closeOf = matchParens(this.clean);
    const functions = new Map<number, string | undefined>();
    for (let m = re.exec(this.clean); m; m = re.exec(this.clean)) {
      const argStart = m.index + m[0].length;
      const argEnd = closeOf.get(argStart - 1) ?? -1;
      if (argEnd < 0) continue;
      const close = /\s*\)\s*\]/y;
      close.lastIndex = argEnd;
      const closed = close.exec(this.clean);
      if (!closed) continue;
      if (declaredFunction(this.clean, argEnd + closed[0].length, functions) !== entry) continue;
      const tokens = ppTokens(this.clean.slice(argStart, argEnd), this.map.slice(argStart, argEnd));
      this.spent = 0;
      return this.toText(this.expand(tokens, new Set(), 1, []));
    }
    throw new HlslError(`no [RootSignature(...)] attribute on entry function '${entry}'`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
  }

  private collectDefines(): void {
    const re = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?(.*)$/gm;
    for (let m = re.exec(this.clean); m; m = re.exec(this.clean)) {
      const bodyStart = m.index + m[0].length - m[3]!.length;
      const params = m[2] === undefined ? undefined : m[2].slice(1, -1).split(',').map((p) => p.trim()).filter(Boolean);
      this.macros.set(m[1]!, { name: m[1]!, params, body: ppTokens(m[3]!, this.map.slice(bodyStart, bodyStart + m[3]!.length)) });
    }
  }

  private limit(what: string, t: PpToken | undefined): never {
    const location = new RootSignatureText(this.text, this.file).locate(t?.at[0] ?? 0);
    throw new HlslError(`macro expansion exceeds ${what}`, location, 'hlsl-limit');
  }

  private spend(n: number, t: PpToken | undefined): void {
    this.spent += n;
    if (this.spent > this.maxTokens) this.limit(`maxExpansionTokens = ${this.maxTokens} tokens`, t);
  }

  /**
   * Expands `tokens` onto the end of `out`. Object-like expansions nest on an explicit stack (no
   * recursion, nothing copied into a caller: every token is written once, into `out`); `active`
   * holds the macros being expanded and is changed and restored in place. Arguments of a
   * function-like macro are expanded first, by a nested call, which counts towards the depth.
   */
  private expand(tokens: PpToken[], active: Set<string>, depth: number, out: PpToken[]): PpToken[] {
    interface Frame {
      tokens: PpToken[];
      i: number;
      closeOf?: Int32Array;
      macro?: string;
      start: number;
      spaceBefore: boolean;
    }
    if (depth > this.maxDepth) this.limit(`maxExpansionDepth = ${this.maxDepth} levels`, tokens[0]);
    const stack: Frame[] = [{ tokens, i: 0, start: out.length, spaceBefore: false }];
    while (stack.length > 0) {
      const fr = stack[stack.length - 1]!;
      if (fr.i >= fr.tokens.length) {
        stack.pop();
        if (fr.macro === undefined) continue;
        active.delete(fr.macro);
        // the expansion's first token takes the spacing of the macro name it replaced
        if (out.length > fr.start) out[fr.start] = { ...out[fr.start]!, spaceBefore: fr.spaceBefore };
        continue;
      }
      const t = fr.tokens[fr.i++]!;
      const macro = t.kind === 'ident' && !active.has(t.text) ? this.macros.get(t.text) : undefined;
      if (!macro) {
        this.spend(1, t);
        out.push(t);
        continue;
      }
      const level = depth + stack.length;
      if (level > this.maxDepth) this.limit(`maxExpansionDepth = ${this.maxDepth} levels`, t);
      let body = macro.body;
      if (macro.params) {
        fr.closeOf ??= tokenParens(fr.tokens);
        const call = callArguments(fr.tokens, fr.i, fr.closeOf);
        if (!call) {
          this.spend(1, t);
          out.push(t);
          continue;
        }
        fr.i = call.end + 1;
        const args = call.args.map((a) => this.expand(a, active, level + 1, []));
        body = [];
        for (const b of macro.body) {
          const k = b.kind === 'ident' ? macro.params.indexOf(b.text) : -1;
          if (k < 0) {
            body.push(b);
            continue;
          }
          const arg = args[k] ?? [];
          this.spend(arg.length, t);
          for (let j = 0; j < arg.length; j++) body.push(j === 0 ? { ...arg[j]!, spaceBefore: b.spaceBefore } : arg[j]!);
        }
      }
      active.add(macro.name);
      stack.push({ tokens: body, i: 0, macro: macro.name, start: out.length, spaceBefore: t.spaceBefore });
    }
    return out;
  }

  private toText(tokens: PpToken[]): RootSignatureText {
    let text = '';
    const at: number[] = [];
    let previousWasString = false;
    for (const t of tokens) {
      if (t.spaceBefore && text.length > 0 && !previousWasString) {
        text += ' ';
        at.push(t.at[0] ?? 0);
      }
      if (t.kind === 'string') {
        const { value, offsets } = unquote(t);
        text += value;
        for (const o of offsets) at.push(o);
        previousWasString = true;
      } else {
        text += t.text;
        for (const o of t.at) at.push(o);
        previousWasString = false;
      }
    }
    return new RootSignatureText(text, this.file, this.text, at);
  }
}

/** Joins backslash-newline continuations and blanks comments, keeping a map back to the file. */
function preprocessText(text: string): { clean: string; map: number[] } {
  let clean = '';
  const map: number[] = [];
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (!inString && c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (!inString && c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      clean += ' ';
      map.push(i);
      i = stop;
      continue;
    }
    if (c === '"' && text[i - 1] !== '\\') inString = !inString;
    if (c === '\n') inString = false;
    clean += c === '\r' ? ' ' : c;
    map.push(i);
    i++;
  }
  return { clean, map };
}

function ppTokens(text: string, at: number[]): PpToken[] {
  const tokens: PpToken[] = [];
  let i = 0;
  let space = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f') {
      space = true;
      i++;
      continue;
    }
    const start = i;
    let kind: PpToken['kind'] = 'other';
    if (c === '"') {
      kind = 'string';
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      kind = 'ident';
      while (i < text.length && /\w/.test(text[i]!)) i++;
    } else if (/[0-9.]/.test(c)) {
      while (i < text.length && /[\w.]/.test(text[i]!)) i++;
    } else i++;
    tokens.push({ kind, text: text.slice(start, Math.min(i, text.length)), at: at.slice(start, Math.min(i, text.length)), spaceBefore: space });
    space = false;
  }
  return tokens;
}

function unquote(t: PpToken): { value: string; offsets: number[] } {
  let value = '';
  const offsets: number[] = [];
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '0': '\0' };
  for (let i = 1; i < t.text.length - 1; i++) {
    let c = t.text[i]!;
    const at = t.at[i]!;
    if (c === '\\' && i + 1 < t.text.length - 1) {
      i++;
      c = escapes[t.text[i]!] ?? t.text[i]!;
    }
    value += c;
    offsets.push(at);
  }
  return { value, offsets };
}

/** For each "(" token, the index of its matching ")" token (-1 if unclosed); one pass. */
function tokenParens(tokens: PpToken[]): Int32Array {
  const close = new Int32Array(tokens.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const text = tokens[i]!.text;
    if (text === '(') open.push(i);
    else if (text === ')' && open.length > 0) close[open.pop()!] = i;
  }
  return close;
}

/** Arguments of a function-like macro call starting at tokens[from] (which must be "("). */
function callArguments(tokens: PpToken[], from: number, closeOf: Int32Array): { args: PpToken[][]; end: number } | undefined {
  if (tokens[from]?.text !== '(') return undefined;
  const end = closeOf[from]!;
  if (end < 0) return undefined;
  const args: PpToken[][] = [[]];
  let depth = 0;
  for (let i = from + 1; i < end; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    if (t.text === ')') depth--;
    if (t.text === ',' && depth === 0) args.push([]);
    else args[args.length - 1]!.push(t);
  }
  return { args: args.length === 1 && args[0]!.length === 0 ? [] : args, end };
}

/**
 * For each "(" of the text (outside string literals), the index of the ")" closing it; one pass,
 * so that many unclosed attributes cost linear time, not a scan to the end each.
 */
function matchParens(text: string): Map<number, number> {
  const close = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '(') open.push(i);
    else if (c === ')' && open.length > 0) close.set(open.pop()!, i);
  }
  return close;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
const isIdentStart = (c: string | undefined) => c !== undefined && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_');
const isWord = (c: string | undefined) => isIdentStart(c) || (c !== undefined && c >= '0' && c <= '9');
const isTypeChar = (c: string | undefined) => isWord(c) || isSpace(c) || c === '<' || c === '>' || c === ',' || c === ':';

/**
 * The name of the function declared at `text[from..]`, after any further [attributes]: the first
 * identifier followed by "(" that either starts the declaration or follows a return type (letters,
 * digits, `<>,:` and spaces, ending in a space). A linear scan (it was a backtracking regex).
 */
function declaredFunction(text: string, from: number, memo: Map<number, string | undefined>): string | undefined {
  // attributes in a row all lead to the same function: remember the answer for each of them
  const visited: number[] = [];
  let i = from;
  for (;;) {
    if (memo.has(i)) {
      const known = memo.get(i);
      for (const v of visited) memo.set(v, known);
      return known;
    }
    visited.push(i);
    let j = i;
    while (isSpace(text[j])) j++;
    if (text[j] !== '[') break;
    const end = text.indexOf(']', j + 1);
    if (end < 0) break;
    i = end + 1;
  }
  const name = functionName(text, i);
  for (const v of visited) memo.set(v, name);
  return name;
}

function functionName(text: string, from: number): string | undefined {
  let i = from;
  while (isSpace(text[i])) i++;
  const start = i;
  // candidates: the start itself, and every identifier preceded by a space inside a run of type characters
  for (let j = start; j < text.length; ) {
    if (isIdentStart(text[j]) && (j === start || (j >= start + 2 && isSpace(text[j - 1]) && isIdentStart(text[start])))) {
      let k = j;
      while (isWord(text[k])) k++;
      const name = text.slice(j, k);
      while (isSpace(text[k])) k++;
      if (text[k] === '(') return name;
      if (!isTypeChar(text[k])) return undefined;
      j = k;
      continue;
    }
    if (!isTypeChar(text[j])) return undefined;
    j++;
  }
  return undefined;
}
