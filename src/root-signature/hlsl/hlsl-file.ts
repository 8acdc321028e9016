/**
 * Finding a root signature in an HLSL file, as DXC's preprocessor hands it to the parser
 * (spec §5.1): the expansion of a `#define` (`-E NAME` with `-T rootsig_1_x`, or
 * `-rootsig-define NAME`), or the argument of the entry function's `[RootSignature(...)]`.
 *
 * A small preprocessor: line continuations, comments, object-like and function-like `#define`s
 * (no # or ## operators). Expansion follows DXC's macro expander: string literal tokens are
 * copied without quotes (so adjacent literals concatenate), other tokens by spelling, and a space
 * goes before a token that had whitespace before it, except right after a string literal. Every
 * character keeps its offset in the file, so errors point into the file.
 */
import { RootSignatureText, HlslError } from './text.js';

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

/** An HLSL file: its #defines (with continuations and macros) and the [RootSignature(...)] of entry functions. */
export class HlslFile {
  private readonly macros = new Map<string, Macro>();
  /** The file with continuations joined and comments blanked; `map[i]` is the file offset of `clean[i]`. */
  private readonly clean: string;
  private readonly map: number[];

  constructor(
    readonly text: string,
    readonly file: string,
    extraDefines: Record<string, string> = {},
  ) {
    const { clean, map } = preprocessText(text);
    this.clean = clean;
    this.map = map;
    this.collectDefines();
    for (const [name, body] of Object.entries(extraDefines)) {
      const at = Array.from({ length: body.length }, () => 0);
      this.macros.set(name, { name, body: ppTokens(body, at) });
    }
  }

  /** The expansion of macro NAME (`--define NAME`, `-T rootsig_1_x -E NAME`). */
  defineText(name: string): RootSignatureText {
    const macro = this.macros.get(name);
    if (!macro || macro.params) throw new HlslError(`undeclared identifier ${name}`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
    return this.toText(this.expand(macro.body, new Set([name])));
  }

  /** The root signature of entry function ENTRY's `[RootSignature(...)]` attribute. */
  entryText(entry: string): RootSignatureText {
    const re = /\[\s*RootSignature\s*\(/g;
    for (let m = re.exec(this.clean); m; m = re.exec(this.clean)) {
      const argStart = m.index + m[0].length;
      const argEnd = closingParen(this.clean, argStart);
      if (argEnd < 0) continue;
      const close = /^\s*\)\s*\]/.exec(this.clean.slice(argEnd));
      if (!close) continue;
      if (declaredFunction(this.clean.slice(argEnd + close[0].length)) !== entry) continue;
      const tokens = ppTokens(this.clean.slice(argStart, argEnd), this.map.slice(argStart, argEnd));
      return this.toText(this.expand(tokens, new Set()));
    }
    throw new HlslError(`no [RootSignature(...)] attribute on entry function '${entry}'`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
  }

  private collectDefines(): void {
    const re = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)$/gm;
    for (let m = re.exec(this.clean); m; m = re.exec(this.clean)) {
      const bodyStart = m.index + m[0].length - m[3]!.length;
      const params = m[2] === undefined ? undefined : m[2].slice(1, -1).split(',').map((p) => p.trim()).filter(Boolean);
      this.macros.set(m[1]!, { name: m[1]!, params, body: ppTokens(m[3]!, this.map.slice(bodyStart, bodyStart + m[3]!.length)) });
    }
  }

  private expand(tokens: PpToken[], active: Set<string>): PpToken[] {
    const out: PpToken[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const macro = t.kind === 'ident' && !active.has(t.text) ? this.macros.get(t.text) : undefined;
      if (!macro) {
        out.push(t);
        continue;
      }
      let body = macro.body;
      if (macro.params) {
        const call = callArguments(tokens, i + 1);
        if (!call) {
          out.push(t);
          continue;
        }
        i = call.end;
        const args = call.args.map((a) => this.expand(a, active));
        body = macro.body.flatMap((b) => {
          const k = b.kind === 'ident' ? macro.params!.indexOf(b.text) : -1;
          return k < 0 ? [b] : (args[k] ?? []).map((a, j) => (j === 0 ? { ...a, spaceBefore: b.spaceBefore } : a));
        });
      }
      const expanded = this.expand(body, new Set([...active, macro.name]));
      if (expanded.length > 0) expanded[0] = { ...expanded[0]!, spaceBefore: t.spaceBefore };
      out.push(...expanded);
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
        at.push(...offsets);
        previousWasString = true;
      } else {
        text += t.text;
        at.push(...t.at);
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

/** Arguments of a function-like macro call starting at tokens[from] (which must be "("). */
function callArguments(tokens: PpToken[], from: number): { args: PpToken[][]; end: number } | undefined {
  if (tokens[from]?.text !== '(') return undefined;
  const args: PpToken[][] = [[]];
  let depth = 0;
  for (let i = from + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    if (t.text === ')') {
      if (depth === 0) return { args: args.length === 1 && args[0]!.length === 0 ? [] : args, end: i };
      depth--;
    }
    if (t.text === ',' && depth === 0) args.push([]);
    else args[args.length - 1]!.push(t);
  }
  return undefined;
}

/** Index of the ')' closing the '(' just before `from`, skipping strings; -1 if none. */
function closingParen(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** The name of the function declared at the start of `text`, after any further [attributes]. */
function declaredFunction(text: string): string | undefined {
  let rest = text;
  for (;;) {
    const attr = /^\s*\[[^\]]*\]/.exec(rest);
    if (!attr) break;
    rest = rest.slice(attr[0].length);
  }
  const m = /^\s*(?:[A-Za-z_][\w<>,:\s]*?\s+)?([A-Za-z_]\w*)\s*\(/.exec(rest);
  return m?.[1];
}
