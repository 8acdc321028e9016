/**
 * The C preprocessor DXC runs on HLSL sources before it reads root signature text (its clang
 * front end; docs/formats/hlsl-preprocessor.md): conditional groups, object- and function-like
 * macros with `#`, `##` and `__VA_ARGS__`, `#include` with `#pragma once`, `#line`, `#error`,
 * `#warning` and pragmas, integer expressions in 64 bits as clang evaluates them. Directives,
 * pragmas and predefined macros are the rows of codecs/hlsl-preprocessor.ts.
 *
 * Against hostile sources: every file is read once (by its real path, so link loops add nothing),
 * tokens handled are budgeted per byte read, include nesting and argument pre-expansion are
 * bounded (docs/limits.md); conditionals, includes and rescanning run on explicit stacks. Errors
 * are HlslError `hlsl-preprocess` (clang's words at file:line:column), `hlsl-limit` for budgets.
 */
import { DIRECTIVES, HLSL_PREDEFINES, PRAGMAS, PREPROCESSOR_LIMITS, PUNCTUATORS, ROOTSIG_PROFILE, profileMacros, type DirectiveKind, type PragmaKind } from '../../../codecs/hlsl-preprocessor.js';
import { HlslError, RootSignatureText, type SourceLocation } from './text.js';
import { decodeChecked, type HostFile, type IncludeHost } from './source.js';

/** Token kinds. */
export const TOKEN = { ident: 1, number: 2, string: 3, char: 4, punct: 5, other: 6 } as const;

type HideSet = ReadonlySet<string>;

/** A preprocessing token: its spelling, where it is spelled and where it was expanded. */
export interface Token {
  readonly kind: number;
  readonly text: string;
  /** Source the spelling is in (index into `sources`), and its index in that source's spliced text. */
  readonly file: number;
  readonly pos: number;
  /** Whitespace (or a line break) before it. */
  readonly space: boolean;
  /** First token of its line. */
  readonly bol: boolean;
  /** Macros that may not expand this token again. */
  readonly hide: HideSet | null;
  /** Where the outermost macro call that produced it stands (its own place for a token of the text). */
  readonly from: number;
  readonly at: number;
  /** Made by `#` or `##`: its characters have no place of their own. */
  readonly synthetic: boolean;
}

/** A source file as the preprocessor reads it: line continuations spliced, lines indexed once. */
export class Source {
  /** The text with backslash-newlines removed (`offset` maps its indices back to `text`). */
  readonly clean: string;
  private readonly spliceAt: Int32Array | null;
  private readonly dropped: Int32Array | null;
  private starts: Int32Array | null = null;

  constructor(
    /** The path as found (the main file's as given; an include's as joined to its folder). */
    readonly name: string,
    /** The file's identity (its real path; the name for a text without a file). */
    readonly real: string,
    readonly text: string,
  ) {
    if (!/\\\r?\n/.test(text)) {
      this.clean = text;
      this.spliceAt = null;
      this.dropped = null;
      return;
    }
    // where each splice was made (an index of `clean`) and how many characters were dropped up to it
    const parts: string[] = [];
    const at: number[] = [];
    const dropped: number[] = [];
    let from = 0;
    let length = 0;
    const re = /\\\r?\n/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      parts.push(text.slice(from, m.index));
      length += m.index - from;
      from = m.index + m[0].length;
      at.push(length);
      dropped.push(from - length);
    }
    parts.push(text.slice(from));
    this.clean = parts.join('');
    this.spliceAt = Int32Array.from(at);
    this.dropped = Int32Array.from(dropped);
  }

  /** Offset in `text` of index `i` of `clean` (a binary search over the splices). */
  offset(i: number): number {
    const at = this.spliceAt;
    const c = Math.min(Math.max(i, 0), this.clean.length);
    if (at === null || c < at[0]!) return c;
    return c + this.dropped![lastAtMost(at, c)]!;
  }

  /** Offsets in `text` where its lines start (made once). */
  lineStarts(): Int32Array {
    return (this.starts ??= lineStartsOf(this.text));
  }

  /** Line and column (1-based) of index `i` of `clean`. */
  locate(i: number): { line: number; column: number } {
    const at = this.offset(i);
    const starts = this.lineStarts();
    const line = lastAtMost(starts, at);
    return { line: line + 1, column: at - starts[line]! + 1 };
  }
}

/** Index of the last element of a sorted array that is at most `x` (0 when none is). */
function lastAtMost(sorted: Int32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lineStartsOf(text: string): Int32Array {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return Int32Array.from(starts);
}

/** A macro: object-like (`params` undefined) or function-like; builtins compute their expansion. */
export interface Macro {
  readonly name: string;
  readonly params?: readonly string[];
  readonly variadic?: boolean;
  readonly body: readonly Token[];
  readonly builtin?: 'line' | 'file' | 'counter' | 'date' | 'time';
  /** Where it was defined (predefined and -D macros: in the `<command line>` source; undefined for builtins). */
  readonly definedAt?: { file: number; pos: number };
}

/** A warning (`#warning`, unknown pragma, redefinition), located as errors are. */
export interface PreprocessorWarning {
  message: string;
  location: SourceLocation;
}

/** Budgets against hostile sources (docs/limits.md). */
export interface PreprocessorLimits {
  /** Tokens handled in all (read, skipped, expanded); default 64 per byte read + 65,536. */
  maxExpansionTokens?: number;
  /** Nesting of argument pre-expansion and of parentheses in #if (default 1000). */
  maxExpansionDepth?: number;
  /** Nesting of #include (default 200, clang's). */
  maxIncludeDepth?: number;
  /** Bytes read over all files (default 256 MiB). */
  maxIncludeBytes?: number;
}

/** How to preprocess: the command line's -D/-U/-I/-T and where includes are found. */
export interface PreprocessOptions {
  /** `-D NAME`, `-D NAME=VALUE` and `-U NAME`, in command-line order. */
  defines?: readonly (readonly ['D' | 'U', string])[];
  /** `-I` folders, in order. */
  includeDirs?: readonly string[];
  /** Where `#include` looks; without one every include is "file not found". */
  host?: IncludeHost;
  /** The profile that sets `__SHADER_TARGET_*` (default rootsig_1_1, as `dxc -T rootsig_1_1`). */
  profile?: string;
  /** DXC's predefined macros (default true). */
  predefines?: boolean;
  limits?: PreprocessorLimits;
  /** `__DATE__` and `__TIME__` (default: now). */
  now?: Date;
  /** Told of every file as it is read (the main one first), also when preprocessing then fails. */
  onFile?: (path: string) => void;
  /**
   * `full` (default) lexes and expands the text between directives; `macros` reads the directives
   * only (the text is skipped as comments and literals require), which is all a `#define`'s
   * root signature needs: the output is then empty.
   */
  mode?: 'full' | 'macros';
}

/** What preprocessing gives: the tokens of the taken text, the macros at the end, the files read and the warnings. */
export interface Preprocessed {
  readonly output: readonly Token[];
  readonly macros: ReadonlyMap<string, Macro>;
  /** Every file read, the main one first, each once, as found (the depfile's list). */
  readonly files: readonly string[];
  readonly warnings: readonly PreprocessorWarning[];
  readonly sources: readonly Source[];
  /** Expands tokens with the macros as they stand at the end of the file (the budgets still hold). */
  expand(tokens: readonly Token[]): Token[];
}

const { ident: IDENT, number: NUMBER, string: STRING, char: CHAR, punct: PUNCT, other: OTHER } = TOKEN;
const DIRECTIVE = new Map<string, DirectiveKind>(DIRECTIVES.map((d) => [d.name, d.kind]));
const PRAGMA = new Map<string, PragmaKind>(PRAGMAS.map((p) => [p.name, p.kind]));
const PUNCT_BY_FIRST = new Map<number, string[]>();
for (const p of PUNCTUATORS) {
  const list = PUNCT_BY_FIRST.get(p.charCodeAt(0)) ?? [];
  list.push(p);
  PUNCT_BY_FIRST.set(p.charCodeAt(0), list);
}
for (const list of PUNCT_BY_FIRST.values()) list.sort((a, b) => b.length - a.length);

const isIdentStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
const isIdentChar = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Spellings of one-character punctuators, shared by every token (no slice per token). */
const ONE_CHAR: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/**
 * The tokens of one logical line of `s` from `i` (a block comment may carry it over newlines);
 * `lexed.end` is where the next line starts. `fail` reports an unterminated comment. Lines are
 * lexed as the preprocessor reaches them: a skipped group, a skipped text line in `macros` mode and
 * a guarded header's second inclusion make no tokens at all.
 */
function lexLine(s: string, file: number, i: number, fail: (pos: number, message: string) => never, out: Token[]): number {
  const n = s.length;
  let bol = true;
  let space = i > 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 10) return i + 1;
    if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) {
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

/** A `#` (not `##`) at `i`: the line is a directive. */
function startsDirective(s: string, i: number): boolean {
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
function firstTokenAt(s: string, i: number, fail: (pos: number, message: string) => never): number {
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) i++;
    else if (c === 47 && s.charCodeAt(i + 1) === 42) {
      const end = s.indexOf('*/', i + 2);
      if (end < 0) fail(i, 'unterminated /* comment');
      i = end + 2;
    } else return i;
  }
  return n;
}

/** Where a text line ends (its newline), from `i`: literals and comments skipped, a block comment followed to its end. */
function skipTextLine(s: string, i: number, fail: (pos: number, message: string) => never): number {
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
function lexOne(text: string): { kind: number } | undefined {
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

interface Cond {
  /** A group of this conditional was (or is being) taken, or the whole conditional is inside a skipped group. */
  taken: boolean;
  skipping: boolean;
  outerSkipping: boolean;
  elseSeen: boolean;
  at: Token;
}

interface Frame {
  src: Source;
  id: number;
  /** Where the next line starts in the source's spliced text. */
  pos: number;
  /** Reports an error at an index of this source (made once per inclusion). */
  fail: (pos: number, message: string) => never;
  conds: Cond[];
  /** Index of the -I folder the file was found in (-1: next to its includer, or the main file). */
  dir: number;
  lineDelta: number;
  presumed: string;
}

/** A value in a #if expression: 64 bits, signed or unsigned. */
interface Value {
  v: bigint;
  unsigned: boolean;
}

const PLACEMARKER: Token = { kind: OTHER, text: '', file: 0, pos: 0, space: false, bol: false, hide: null, from: 0, at: 0, synthetic: true };

/** Preprocesses one main file as DXC would before reading root signature text. */
export function preprocess(mainName: string, mainText: string, options: PreprocessOptions = {}): Preprocessed {
  return new Preprocessor(options).run(mainName, mainText);
}

class Preprocessor {
  readonly macros = new Map<string, Macro>();
  readonly sources: Source[] = [];
  private readonly byReal = new Map<string, number>();
  private readonly once = new Set<number>();
  private readonly files: string[] = [];
  private readonly warnings: PreprocessorWarning[] = [];
  private readonly output: Token[] = [];
  private readonly frames: Frame[] = [];
  private readonly pushed = new Map<string, (Macro | undefined)[]>();
  private readonly resolved = new Map<string, { path: string; dir: number; real: string; size: number }>();
  /** What the host said of each path asked (once per path per run). */
  private readonly stats = new Map<string, HostFile | undefined>();
  private readonly host: IncludeHost | undefined;
  private readonly includeDirs: readonly string[];
  private readonly maxTokens: number | undefined;
  private readonly maxDepth: number;
  private readonly maxIncludeDepth: number;
  private readonly maxIncludeBytes: number;
  private bytesRead = 0;
  private mainId = -1;
  private spent = 0;
  private counter = 0;
  private readonly now: Date;
  private readonly text: boolean;

  constructor(private readonly options: PreprocessOptions) {
    this.text = options.mode !== 'macros';
    this.host = options.host;
    this.includeDirs = options.includeDirs ?? [];
    const limits = options.limits ?? {};
    this.maxTokens = limits.maxExpansionTokens;
    this.maxDepth = limits.maxExpansionDepth ?? PREPROCESSOR_LIMITS.maxExpansionDepth;
    this.maxIncludeDepth = limits.maxIncludeDepth ?? PREPROCESSOR_LIMITS.maxIncludeDepth;
    this.maxIncludeBytes = limits.maxIncludeBytes ?? PREPROCESSOR_LIMITS.maxIncludeBytes;
    this.now = options.now ?? new Date();
  }

  run(mainName: string, mainText: string): Preprocessed {
    this.bytesRead = mainText.length;
    this.predefine();
    this.mainId = this.addSource(new Source(mainName, mainName, mainText));
    this.read(mainName);
    this.push(this.mainId, -1);
    this.loop();
    return { output: this.output, macros: this.macros, files: this.files, warnings: this.warnings, sources: this.sources, expand: (tokens) => this.expand(tokens, false, 0, []) };
  }

  /** DXC's predefined macros, the builtins, then -D/-U in order (a command-line source, so errors in them have a place). */
  private predefine(): void {
    const lines: string[] = [];
    if (this.options.predefines ?? true) {
      const profile = this.options.profile ?? ROOTSIG_PROFILE;
      const target = profileMacros(profile);
      if (target === undefined) throw new HlslError(`invalid profile '${profile}'`, { file: '<command line>', line: 1, column: 1 }, 'hlsl-preprocess');
      for (const row of [...HLSL_PREDEFINES, ...target]) lines.push(`#define ${row.name} ${row.value}`);
    }
    for (const [name, builtin] of [['__LINE__', 'line'], ['__FILE__', 'file'], ['__COUNTER__', 'counter'], ['__DATE__', 'date'], ['__TIME__', 'time']] as const) {
      this.macros.set(name, { name, body: [], builtin });
    }
    for (const [what, arg] of this.options.defines ?? []) {
      if (what === 'U') lines.push(`#undef ${arg}`);
      else {
        const eq = arg.indexOf('=');
        lines.push(`#define ${eq < 0 ? arg : arg.slice(0, eq)} ${eq < 0 ? '1' : arg.slice(eq + 1).replace(/[\r\n]+/g, ' ')}`);
      }
    }
    if (lines.length === 0) return;
    const src = this.addSource(new Source('<command line>', '<command line>', lines.join('\n')));
    this.push(src, -1);
    this.loop();
    this.output.length = 0;
  }

  private read(path: string): void {
    this.files.push(path);
    this.options.onFile?.(path);
  }

  private addSource(src: Source): number {
    this.sources.push(src);
    this.byReal.set(src.real, this.sources.length - 1);
    return this.sources.length - 1;
  }

  private push(id: number, dir: number): void {
    const src = this.sources[id]!;
    this.frames.push({ src, id, pos: 0, fail: (pos: number, message: string) => this.failAt(id, pos, message), conds: [], dir, lineDelta: 0, presumed: src.name });
  }

  // ---------------------------------------------------------------- errors and budgets

  location(file: number, pos: number): SourceLocation {
    const src = this.sources[file]!;
    const { line, column } = src.locate(pos);
    return { file: src.name, line, column };
  }

  private failAt(file: number, pos: number, message: string, code: 'hlsl-preprocess' | 'hlsl-limit' = 'hlsl-preprocess'): never {
    throw new HlslError(message, this.location(file, pos), code);
  }

  /** Fails at where `t` is spelled (inside a macro's body for a token of its expansion, as clang's primary location). */
  private fail(t: Token, message: string, code: 'hlsl-preprocess' | 'hlsl-limit' = 'hlsl-preprocess'): never {
    this.failAt(t.file, t.pos, message, code);
  }

  private warn(t: Token, message: string): void {
    this.warnings.push({ message, location: this.location(t.file, t.pos) });
  }

  private spend(n: number, t: Token | undefined): void {
    this.spent += n;
    const budget = this.maxTokens ?? PREPROCESSOR_LIMITS.tokensPerByte * this.bytesRead + 65536;
    if (this.spent > budget) {
      const message = `preprocessing exceeds maxExpansionTokens = ${budget} tokens`;
      if (t) this.fail(t, message, 'hlsl-limit');
      const fr = this.frames[this.frames.length - 1];
      if (fr) this.failAt(fr.id, fr.pos, message, 'hlsl-limit');
      throw new HlslError(message, { file: this.sources[0]?.name ?? '?', line: 1, column: 1 }, 'hlsl-limit');
    }
  }

  // ---------------------------------------------------------------- the directive loop

  private loop(): void {
    const frames = this.frames;
    const line: Token[] = [];
    while (frames.length > 0) {
      const fr = frames[frames.length - 1]!;
      const s = fr.src.clean;
      const fail = fr.fail;
      if (fr.pos >= s.length) {
        const open = fr.conds[fr.conds.length - 1];
        if (open) this.fail(open.at, 'unterminated conditional directive');
        frames.pop();
        continue;
      }
      const first = firstTokenAt(s, fr.pos, fail);
      this.spend(1, undefined);
      if (startsDirective(s, first)) {
        line.length = 0;
        fr.pos = lexLine(s, fr.id, fr.pos, fail, line);
        this.spend(line.length, undefined);
        this.directive(fr, line[0]!, line.slice(1));
        continue;
      }
      const skipping = fr.conds[fr.conds.length - 1]?.skipping ?? false;
      if (skipping || !this.text) {
        // a text line nobody reads: passed over as literals and comments require
        const nl = skipTextLine(s, first, fail);
        fr.pos = nl < s.length ? nl + 1 : nl;
        continue;
      }
      // a run of text lines up to the next directive, lexed and expanded together (a call may span lines)
      const run: Token[] = [];
      do {
        fr.pos = lexLine(s, fr.id, fr.pos, fail, run);
      } while (fr.pos < s.length && !startsDirective(s, firstTokenAt(s, fr.pos, fail)));
      this.expand(run, false, 0, this.output);
    }
  }

  private directive(fr: Frame, hash: Token, line: Token[]): void {
    const top = fr.conds[fr.conds.length - 1];
    const skipping = top?.skipping ?? false;
    const name = line[0];
    if (name === undefined) return; // the null directive
    const kind = name.kind === IDENT ? DIRECTIVE.get(name.text) : name.kind === NUMBER && !skipping ? 'line' : undefined;
    if (skipping) {
      if (kind === 'if' || kind === 'ifdef' || kind === 'ifndef') fr.conds.push({ taken: true, skipping: true, outerSkipping: true, elseSeen: false, at: hash });
      else if (kind === 'elif' || kind === 'else' || kind === 'endif') this.conditional(fr, kind, hash, name, line);
      return;
    }
    switch (kind) {
      case 'if':
      case 'ifdef':
      case 'ifndef':
      case 'elif':
      case 'else':
      case 'endif':
        return this.conditional(fr, kind, hash, name, line);
      case 'define':
        return this.define(name, line);
      case 'undef': {
        const id = this.macroName(name, line[1]);
        this.extraTokens(line, 2, 'undef');
        this.macros.delete(id.text);
        return;
      }
      case 'include':
      case 'include_next':
      case 'import':
        return this.include(fr, kind, name, line);
      case 'line':
        return this.lineDirective(fr, name, name.kind === NUMBER ? line : line.slice(1));
      case 'error':
        this.fail(name, this.restOfLine(name, line));
        return;
      case 'warning':
        this.warn(name, this.restOfLine(name, line));
        return;
      case 'pragma':
        return this.pragma(fr, name, line);
      case 'ignored':
        return;
      default:
        this.fail(name, 'invalid preprocessing directive');
    }
  }

  /** The text of a directive after its name, as written (for #error and #warning). */
  private restOfLine(name: Token, line: Token[]): string {
    const last = line[line.length - 1]!;
    if (line.length < 2) return '';
    const src = this.sources[name.file]!;
    return src.clean.slice(line[1]!.pos, last.pos + last.text.length).trim();
  }

  private extraTokens(line: Token[], from: number, directive: string): void {
    if (line.length > from) this.warn(line[from]!, `extra tokens at end of #${directive} directive`);
  }

  private macroName(directive: Token, t: Token | undefined): Token {
    if (t === undefined) this.fail(directive, 'macro name missing');
    if (t.kind !== IDENT) this.fail(t, 'macro name must be an identifier');
    return t;
  }

  private conditional(fr: Frame, kind: 'if' | 'ifdef' | 'ifndef' | 'elif' | 'else' | 'endif', hash: Token, name: Token, line: Token[]): void {
    const conds = fr.conds;
    const top = conds[conds.length - 1];
    const outer = top?.skipping ?? false;
    switch (kind) {
      case 'if': {
        const value = this.condition(name, line, 'if');
        conds.push({ taken: value, skipping: !value, outerSkipping: outer, elseSeen: false, at: hash });
        return;
      }
      case 'ifdef':
      case 'ifndef': {
        const id = this.macroName(name, line[1]);
        this.extraTokens(line, 2, kind);
        const value = this.macros.has(id.text) === (kind === 'ifdef');
        conds.push({ taken: value, skipping: !value, outerSkipping: outer, elseSeen: false, at: hash });
        return;
      }
      case 'elif': {
        if (!top) this.fail(name, '#elif without #if');
        if (top.elseSeen) this.fail(name, '#elif after #else');
        if (top.outerSkipping || top.taken) {
          top.skipping = true;
          return;
        }
        const value = this.condition(name, line, 'elif');
        top.taken = value;
        top.skipping = !value;
        return;
      }
      case 'else':
        if (!top) this.fail(name, '#else without #if');
        if (top.elseSeen) this.fail(name, '#else after #else');
        if (!top.outerSkipping) this.extraTokens(line, 1, 'else');
        top.elseSeen = true;
        top.skipping = top.outerSkipping || top.taken;
        top.taken = true;
        return;
      case 'endif':
        if (!top) this.fail(name, '#endif without #if');
        if (!top.outerSkipping) this.extraTokens(line, 1, 'endif');
        conds.pop();
        return;
    }
  }

  private condition(name: Token, line: Token[], directive: string): boolean {
    if (line.length < 2) this.fail(name, `#${directive} with no expression`);
    const tokens = this.expand(line.slice(1), true, 0, []);
    return new Expression(tokens, this, name, this.maxDepth).evaluate() !== 0n;
  }

  private define(directive: Token, line: Token[]): void {
    const name = this.macroName(directive, line[1]);
    if (name.text === 'defined') this.fail(name, "'defined' cannot be used as a macro name");
    let i = 2;
    let params: string[] | undefined;
    let variadic = false;
    const open = line[2];
    if (open && open.kind === PUNCT && open.text === '(' && !open.space) {
      params = [];
      i = 3;
      for (;;) {
        const t = line[i];
        if (t === undefined) this.fail(open, "missing ')' in macro parameter list");
        if (t.kind === PUNCT && t.text === ')' && params.length === 0) {
          i++;
          break;
        }
        if (t.kind === PUNCT && t.text === '...') {
          variadic = true;
          params.push('__VA_ARGS__');
          const close = line[i + 1];
          if (!close || close.text !== ')') this.fail(close ?? t, "missing ')' in macro parameter list");
          i += 2;
          break;
        }
        if (t.kind !== IDENT) this.fail(t, 'invalid token in macro parameter list');
        if (params.includes(t.text)) this.fail(t, `duplicate macro parameter name '${t.text}'`);
        params.push(t.text);
        let next = line[i + 1];
        if (next && next.kind === PUNCT && next.text === '...') {
          variadic = true;
          i++;
          next = line[i + 1];
          if (!next || next.text !== ')') this.fail(next ?? t, "missing ')' in macro parameter list");
        }
        if (next && next.kind === PUNCT && next.text === ')') {
          i += 2;
          break;
        }
        if (!next || next.kind !== PUNCT || next.text !== ',') this.fail(next ?? t, next ? 'expected comma in macro parameter list' : "missing ')' in macro parameter list");
        i += 2;
      }
    }
    const body = line.slice(i);
    if (body.length > 0) body[0] = { ...body[0]!, space: false };
    const first = body[0];
    const last = body[body.length - 1];
    if ((first && isPaste(first)) || (last && isPaste(last))) this.fail(isPaste(first!) ? first! : last!, "'##' cannot appear at either end of a macro expansion");
    if (params) {
      for (let k = 0; k < body.length; k++) {
        const b = body[k]!;
        if (b.kind === PUNCT && b.text === '#') {
          const p = body[k + 1];
          if (!p || p.kind !== IDENT || !params.includes(p.text)) this.fail(b, "'#' is not followed by a macro parameter");
        }
      }
    }
    const macro: Macro = { name: name.text, params, variadic, body, definedAt: { file: name.file, pos: name.pos } };
    const old = this.macros.get(name.text);
    if (old?.builtin) this.warn(name, 'redefining builtin macro');
    else if (old && !sameMacro(old, macro)) this.warn(name, `'${name.text}' macro redefined`);
    this.macros.set(name.text, macro);
  }

  private include(fr: Frame, kind: 'include' | 'include_next' | 'import', directive: Token, line: Token[]): void {
    let spec = this.headerName(fr, line.slice(1));
    if (spec === undefined) {
      const expanded = this.expand(line.slice(1), false, 0, []);
      spec = this.headerName(undefined, expanded);
    }
    if (spec === undefined) this.fail(line[1] ?? directive, 'expected "FILENAME" or <FILENAME>');
    const { name, quoted, at } = spec;
    if (name === '') this.fail(at, 'empty filename');
    if (this.frames.length >= this.maxIncludeDepth) this.fail(directive, '#include nested too deeply');
    const host = this.host;
    // the same spelling from the same folder (and search start) finds the same file: looked up once per run
    const key = `${quoted ? '"' : '<'}${kind === 'include_next' ? fr.dir : -2}\0${fr.src.name}\0${name}`;
    let found = this.resolved.get(key);
    if (host && !found) {
      const look = (path: string, dir: number): boolean => {
        let st = this.stats.get(path);
        if (st === undefined && !this.stats.has(path)) {
          st = host.stat(path);
          this.stats.set(path, st);
        }
        if (!st) return false;
        if (!st.regular) this.fail(at, `cannot open file '${name}': not a regular file`);
        found = { path, dir, real: st.real, size: st.size };
        return true;
      };
      if (host.isAbsolute(name)) look(name, -1);
      else {
        const next = kind === 'include_next' && fr.dir >= 0;
        if (quoted && !next) look(host.join(host.dirname(fr.src.name), name), -1);
        for (let d = next ? fr.dir + 1 : 0; !found && d < this.includeDirs.length; d++) look(host.join(this.includeDirs[d]!, name), d);
      }
    }
    if (!found) this.fail(at, `'${name}' file not found`);
    this.resolved.set(key, found);
    const hit = found;
    let id = this.byReal.get(hit.real);
    if (id !== undefined && this.once.has(id)) return;
    if (id === undefined) {
      if (this.bytesRead + hit.size > this.maxIncludeBytes) this.fail(at, `#include reads more than maxIncludeBytes = ${this.maxIncludeBytes} bytes`, 'hlsl-limit');
      const bytes = host!.read(hit.real);
      if (this.bytesRead + bytes.byteLength > this.maxIncludeBytes) this.fail(at, `#include reads more than maxIncludeBytes = ${this.maxIncludeBytes} bytes`, 'hlsl-limit');
      this.bytesRead += bytes.byteLength;
      id = this.addSource(new Source(hit.path, hit.real, decodeChecked(bytes)));
      this.read(hit.path);
    }
    if (kind === 'import') this.once.add(id);
    this.push(id, hit.dir);
  }

  /** `"name"` or `<name>` at the start of `tokens` (the raw text between the angle brackets when `fr` has it). */
  private headerName(fr: Frame | undefined, tokens: Token[]): { name: string; quoted: boolean; at: Token } | undefined {
    const t = tokens[0];
    if (!t) return undefined;
    if (t.kind === STRING && t.text.startsWith('"')) return { name: t.text.slice(1, -1), quoted: true, at: t };
    if (t.kind === PUNCT && t.text === '<') {
      const close = tokens.findIndex((x, k) => k > 0 && x.kind === PUNCT && x.text === '>');
      if (close < 0) this.fail(t, "expected '>'");
      if (fr && !t.synthetic && tokens[close]!.file === t.file && t.file === t.from) return { name: fr.src.clean.slice(t.pos + 1, tokens[close]!.pos), quoted: false, at: t };
      let name = '';
      for (let k = 1; k < close; k++) name += (k > 1 && tokens[k]!.space ? ' ' : '') + tokens[k]!.text;
      return { name, quoted: false, at: t };
    }
    return undefined;
  }

  private lineDirective(fr: Frame, name: Token, args: Token[]): void {
    const tokens = this.expand(args, false, 0, []);
    const n = tokens[0];
    if (!n || n.kind !== NUMBER || !/^\d+$/.test(n.text)) this.fail(n ?? name, '#line directive requires a positive integer argument');
    const nextLine = fr.src.locate(name.pos).line + 1;
    fr.lineDelta = Number(n.text) - nextLine;
    const file = tokens[1];
    if (file) {
      if (file.kind !== STRING) this.fail(file, 'invalid filename for #line directive');
      fr.presumed = file.text.slice(1, -1);
    }
  }

  private pragma(fr: Frame, name: Token, line: Token[]): void {
    const what = line[1];
    const kind = what?.kind === IDENT ? PRAGMA.get(what.text) : undefined;
    switch (kind) {
      case 'once':
        if (fr.id === this.mainId) this.warn(what!, '#pragma once in main file');
        this.once.add(fr.id);
        return;
      case 'push_macro':
      case 'pop_macro': {
        const arg = line[3];
        if (!arg || arg.kind !== STRING || line[2]?.text !== '(' || line[4]?.text !== ')') {
          this.warn(what!, `pragma ${what!.text} requires a parenthesized string`);
          return;
        }
        const macroName = arg.text.slice(1, -1);
        const stack = this.pushed.get(macroName) ?? [];
        if (kind === 'push_macro') {
          stack.push(this.macros.get(macroName));
          this.pushed.set(macroName, stack);
        } else if (stack.length > 0) {
          const saved = stack.pop();
          if (saved) this.macros.set(macroName, saved);
          else this.macros.delete(macroName);
        }
        return;
      }
      case 'message': {
        const text = line.slice(2).filter((t) => t.kind === STRING).map((t) => t.text.slice(1, -1)).join('');
        this.warn(what!, text);
        return;
      }
      case 'ignored':
        return;
      default:
        this.warn(what ?? name, 'unknown pragma ignored');
    }
  }

  // ---------------------------------------------------------------- macro expansion

  /**
   * Expands `input` onto `out`. Rescanning runs on an explicit work stack (an expansion is pushed
   * in front of the rest of the input); arguments are pre-expanded by a nested call, `depth`
   * levels deep at most. `inIf` evaluates `defined`.
   */
  expand(input: readonly Token[], inIf: boolean, depth: number, out: Token[], from = 0, to = input.length): Token[] {
    if (depth > this.maxDepth && to > from) this.fail(input[from]!, `macro expansion exceeds maxExpansionDepth = ${this.maxDepth} levels`, 'hlsl-limit');
    const c = new Cursor(input, from, to);
    this.spend(to - from, undefined);
    for (let t = c.next(); t !== undefined; t = c.next()) {
      if (t.kind !== IDENT) {
        out.push(t);
        continue;
      }
      if (inIf && t.text === 'defined') {
        out.push(this.defined(t, c));
        continue;
      }
      const macro = this.macros.get(t.text);
      if (macro === undefined || (t.hide !== null && t.hide.has(t.text))) {
        out.push(t);
        continue;
      }
      if (macro.builtin) {
        out.push(this.builtin(macro, t));
        continue;
      }
      if (t.hide !== null && t.hide.size >= this.maxDepth) this.fail(t, `macro expansion exceeds maxExpansionDepth = ${this.maxDepth} levels`, 'hlsl-limit');
      if (macro.params === undefined) {
        c.pushFront(this.substitute(macro, t, [], addHide(t.hide, macro.name), inIf, depth));
        continue;
      }
      const next = c.peek();
      if (!next || next.kind !== PUNCT || next.text !== '(') {
        out.push(t);
        continue;
      }
      const { args, close } = this.collectArguments(macro, t, c);
      const hide = addHide(intersect(t.hide, close.hide), macro.name);
      c.pushFront(this.substitute(macro, t, args, hide, inIf, depth));
    }
    return out;
  }

  private defined(t: Token, c: Cursor): Token {
    let name = c.next();
    let paren = false;
    if (name && name.kind === PUNCT && name.text === '(') {
      paren = true;
      name = c.next();
    }
    if (!name || name.kind !== IDENT) this.fail(name ?? t, 'macro name must be an identifier');
    if (paren) {
      const close = c.next();
      if (!close || close.text !== ')') this.fail(close ?? name, "missing ')' after 'defined'");
    }
    return this.synthetic(this.macros.has(name.text) ? '1' : '0', NUMBER, t);
  }

  private synthetic(text: string, kind: number, at: Token): Token {
    return { kind, text, file: at.file, pos: at.pos, space: at.space, bol: false, hide: null, from: at.from, at: at.at, synthetic: true };
  }

  private builtin(macro: Macro, t: Token): Token {
    const fr = this.frames[this.frames.length - 1];
    switch (macro.builtin) {
      case 'line': {
        const line = this.sources[t.from]!.locate(t.at).line + (fr && fr.id === t.from ? fr.lineDelta : 0);
        return this.synthetic(String(line), NUMBER, t);
      }
      case 'file': {
        const name = fr && fr.id === t.from ? fr.presumed : this.sources[t.from]!.name;
        return this.synthetic(JSON.stringify(name), STRING, t);
      }
      case 'counter':
        return this.synthetic(String(this.counter++), NUMBER, t);
      case 'date': {
        const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][this.now.getUTCMonth()];
        return this.synthetic(`"${month} ${String(this.now.getUTCDate()).padStart(2, ' ')} ${this.now.getUTCFullYear()}"`, STRING, t);
      }
      default: {
        const p = (n: number) => String(n).padStart(2, '0');
        return this.synthetic(`"${p(this.now.getUTCHours())}:${p(this.now.getUTCMinutes())}:${p(this.now.getUTCSeconds())}"`, STRING, t);
      }
    }
  }

  /** The arguments of a call whose `(` is on top of `work`, split at top-level commas (the variadic one keeps its commas). */
  private collectArguments(macro: Macro, name: Token, c: Cursor): { args: Token[][]; close: Token } {
    const params = macro.params!;
    c.next(); // (
    const args: Token[][] = [[]];
    let depth = 0;
    for (;;) {
      const t = c.next();
      if (t === undefined) this.fail(name, 'unterminated function-like macro invocation');
      if (t.kind === PUNCT) {
        if (t.text === '(') depth++;
        else if (t.text === ')') {
          if (depth === 0) {
            if (params.length === 0) {
              if (args[0]!.length > 0) this.fail(name, 'too many arguments provided to function-like macro invocation');
              return { args: [], close: t };
            }
            if (args.length === params.length - 1 && macro.variadic) args.push([]);
            if (args.length < params.length) this.fail(t, 'too few arguments provided to function-like macro invocation');
            return { args, close: t };
          }
          depth--;
        } else if (t.text === ',' && depth === 0 && !(macro.variadic && args.length === params.length)) {
          if (args.length >= params.length) this.fail(t, 'too many arguments provided to function-like macro invocation');
          args.push([]);
          continue;
        }
      }
      args[args.length - 1]!.push(t);
    }
  }

  /** The replacement of one call: parameters replaced, `#` and `##` applied, every token given the call's place and `hide`. */
  private substitute(macro: Macro, call: Token, args: Token[][], hide: HideSet, inIf: boolean, depth: number): Token[] {
    const body = macro.body;
    const params = macro.params;
    const expanded: (Token[] | undefined)[] = [];
    const res: Token[] = [];
    for (let i = 0; i < body.length; i++) {
      const b = body[i]!;
      if (params && b.kind === PUNCT && b.text === '#') {
        const k = paramIndex(params, body[i + 1]);
        res.push(this.stringize(args[k] ?? [], b));
        i++;
        continue;
      }
      if (isPaste(b)) {
        const rhsToken = body[i + 1]!;
        i++;
        const k = paramIndex(params, rhsToken);
        let rhs: Token[];
        if (params && rhsToken.kind === PUNCT && rhsToken.text === '#' && paramIndex(params, body[i + 1]) >= 0) {
          rhs = [this.stringize(args[paramIndex(params, body[i + 1])] ?? [], rhsToken)];
          i++;
        } else rhs = k >= 0 ? (args[k] ?? []) : [rhsToken];
        const lhs = res[res.length - 1];
        // GNU: `, ## __VA_ARGS__` with no variadic arguments drops the comma
        if (lhs && lhs.kind === PUNCT && lhs.text === ',' && macro.variadic && k === params!.length - 1 && rhs.length === 0) {
          res.pop();
          continue;
        }
        if (rhs.length === 0) continue; // pasting a placemarker leaves the left side
        if (lhs === undefined || lhs === PLACEMARKER) {
          if (lhs === PLACEMARKER) res.pop();
          for (const r of rhs) res.push(r);
          continue;
        }
        res[res.length - 1] = this.paste(lhs, rhs[0]!, b);
        for (let r = 1; r < rhs.length; r++) res.push(rhs[r]!);
        continue;
      }
      const k = paramIndex(params, b);
      if (k >= 0) {
        const raw = args[k] ?? [];
        const beforePaste = body[i + 1] !== undefined && isPaste(body[i + 1]!);
        const list = beforePaste ? raw : (expanded[k] ??= this.expand(raw, inIf, depth + 1, []));
        if (list.length === 0) {
          if (beforePaste) res.push(PLACEMARKER);
          continue;
        }
        res.push({ ...list[0]!, space: b.space });
        for (let r = 1; r < list.length; r++) res.push(list[r]!);
        continue;
      }
      res.push(b);
    }
    // every token takes the call's place and hide set; the first one the call's spacing
    const out: Token[] = [];
    const unions = new Map<HideSet, HideSet>();
    for (const t of res) {
      if (t === PLACEMARKER) continue;
      let h = hide;
      if (t.hide !== null && t.hide !== hide) {
        h = unions.get(t.hide) ?? union(t.hide, hide);
        unions.set(t.hide, h);
      }
      out.push({ kind: t.kind, text: t.text, file: t.file, pos: t.pos, space: out.length === 0 ? call.space : t.space, bol: false, hide: h, from: call.from, at: call.at, synthetic: t.synthetic });
    }
    this.spend(out.length, call);
    return out;
  }

  private stringize(arg: readonly Token[], at: Token): Token {
    let s = '"';
    for (let k = 0; k < arg.length; k++) {
      const t = arg[k]!;
      if (k > 0 && t.space) s += ' ';
      s += t.kind === STRING || t.kind === CHAR ? t.text.replace(/[\\"]/g, (c) => `\\${c}`) : t.text;
    }
    return { ...this.synthetic(`${s}"`, STRING, at), space: at.space };
  }

  private paste(lhs: Token, rhs: Token, at: Token): Token {
    const text = lhs.text + rhs.text;
    const one = lexOne(text);
    if (!one) this.fail(at, `pasting formed '${text}', an invalid preprocessing token`);
    return { ...lhs, kind: one.kind, text, synthetic: true };
  }
}

const isPaste = (t: Token) => t.kind === PUNCT && t.text === '##';

/** Index of `t` among a function-like macro's parameters (-1: not one). */
function paramIndex(params: readonly string[] | undefined, t: Token | undefined): number {
  return t !== undefined && t.kind === IDENT && params !== undefined ? params.indexOf(t.text) : -1;
}

/** Tokens read in order from a range of an array, with expansions pushed in front of what is left (rescanning). */
class Cursor {
  private readonly work: Token[] = [];
  constructor(
    private readonly input: readonly Token[],
    private i: number,
    private readonly end: number,
  ) {}

  next(): Token | undefined {
    if (this.work.length > 0) return this.work.pop();
    return this.i < this.end ? this.input[this.i++] : undefined;
  }

  peek(): Token | undefined {
    if (this.work.length > 0) return this.work[this.work.length - 1];
    return this.i < this.end ? this.input[this.i] : undefined;
  }

  pushFront(tokens: readonly Token[]): void {
    for (let k = tokens.length - 1; k >= 0; k--) this.work.push(tokens[k]!);
  }
}

function addHide(h: HideSet | null, name: string): HideSet {
  if (h === null) return new Set([name]);
  if (h.has(name)) return h;
  const s = new Set(h);
  s.add(name);
  return s;
}

function intersect(a: HideSet | null, b: HideSet | null): HideSet | null {
  if (a === null || b === null) return null;
  if (a === b) return a;
  const s = new Set<string>();
  for (const x of a) if (b.has(x)) s.add(x);
  return s.size === 0 ? null : s;
}

function union(a: HideSet, b: HideSet): HideSet {
  const s = new Set(a);
  for (const x of b) s.add(x);
  return s;
}

function sameMacro(a: Macro, b: Macro): boolean {
  if ((a.params === undefined) !== (b.params === undefined) || a.variadic !== b.variadic) return false;
  if (a.params && b.params && (a.params.length !== b.params.length || a.params.some((p, i) => p !== b.params![i]))) return false;
  if (a.body.length !== b.body.length) return false;
  return a.body.every((t, i) => t.text === b.body[i]!.text && (i === 0 || t.space === b.body[i]!.space));
}

// ---------------------------------------------------------------- #if expressions

const BINARY_PRECEDENCE: Record<string, number> = {
  '*': 10, '/': 10, '%': 10,
  '+': 9, '-': 9,
  '<<': 8, '>>': 8,
  '<': 7, '>': 7, '<=': 7, '>=': 7,
  '==': 6, '!=': 6,
  '&': 5, '^': 4, '|': 3, '&&': 2, '||': 1,
};

/** A #if expression over expanded tokens, evaluated as clang does: intmax_t/uintmax_t, the usual conversions, short-circuit. */
class Expression {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly pp: { location(file: number, pos: number): SourceLocation },
    private readonly directive: Token,
    private readonly maxDepth: number,
  ) {}

  evaluate(): bigint {
    const v = this.comma(true, 0);
    const rest = this.tokens[this.i];
    if (rest) {
      if (rest.kind === PUNCT && rest.text === ')') this.fail(rest, "token is not a valid binary operator in a preprocessor subexpression");
      this.fail(rest, rest.kind === PUNCT && rest.text === ':' ? "expected '?' before ':'" : 'token is not a valid binary operator in a preprocessor subexpression');
    }
    return v.v;
  }

  private fail(t: Token | undefined, message: string): never {
    const at = t ?? this.tokens[this.tokens.length - 1] ?? this.directive;
    throw new HlslError(message, this.pp.location(at.file, at.pos), 'hlsl-preprocess');
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private isPunct(t: Token | undefined, p: string): boolean {
    return t !== undefined && t.kind === PUNCT && t.text === p;
  }

  private comma(live: boolean, depth: number): Value {
    let v = this.conditional(live, depth);
    while (this.isPunct(this.peek(), ',')) {
      this.i++;
      v = this.conditional(live, depth);
    }
    return v;
  }

  private conditional(live: boolean, depth: number): Value {
    const c = this.binary(1, live, depth);
    if (!this.isPunct(this.peek(), '?')) return c;
    const q = this.tokens[this.i++]!;
    const a = this.comma(live && c.v !== 0n, depth);
    if (!this.isPunct(this.peek(), ':')) this.fail(this.peek() ?? q, "expected ':'");
    this.i++;
    const b = this.conditional(live && c.v === 0n, depth);
    const unsigned = a.unsigned || b.unsigned;
    return wrap(c.v !== 0n ? a.v : b.v, unsigned);
  }

  private binary(minPrec: number, live: boolean, depth: number): Value {
    let lhs = this.unary(live, depth);
    for (;;) {
      const op = this.peek();
      if (!op || op.kind !== PUNCT) return lhs;
      const prec = BINARY_PRECEDENCE[op.text];
      if (prec === undefined || prec < minPrec) return lhs;
      this.i++;
      if (op.text === '&&' || op.text === '||') {
        const rhsLive = live && (op.text === '&&' ? lhs.v !== 0n : lhs.v === 0n);
        const rhs = this.binary(prec + 1, rhsLive, depth);
        const r = op.text === '&&' ? lhs.v !== 0n && rhs.v !== 0n : lhs.v !== 0n || rhs.v !== 0n;
        lhs = { v: r ? 1n : 0n, unsigned: false };
        continue;
      }
      const rhs = this.binary(prec + 1, live, depth);
      lhs = this.apply(op, lhs, rhs, live);
    }
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

  private unary(live: boolean, depth: number): Value {
    const t = this.tokens[this.i++];
    if (t === undefined) this.fail(undefined, 'expected value in expression');
    if (t.kind === PUNCT) {
      switch (t.text) {
        case '(': {
          if (depth >= this.maxDepth) throw new HlslError(`#if expression nested deeper than maxExpansionDepth = ${this.maxDepth} levels`, this.pp.location(t.file, t.pos), 'hlsl-limit');
          const v = this.comma(live, depth + 1);
          if (!this.isPunct(this.peek(), ')')) this.fail(this.peek() ?? t, "expected ')' in preprocessor expression");
          this.i++;
          return v;
        }
        case '+': return this.unaryOperand(live, depth, t);
        case '-': {
          const v = this.unaryOperand(live, depth, t);
          return wrap(-v.v, v.unsigned);
        }
        case '~': {
          const v = this.unaryOperand(live, depth, t);
          return wrap(~v.v, v.unsigned);
        }
        case '!': {
          const v = this.unaryOperand(live, depth, t);
          return { v: v.v === 0n ? 1n : 0n, unsigned: false };
        }
      }
      this.fail(t, 'invalid token at start of a preprocessor expression');
    }
    if (t.kind === NUMBER) return this.number(t);
    if (t.kind === CHAR) return charValue(t.text);
    if (t.kind === IDENT) return { v: t.text === 'true' ? 1n : 0n, unsigned: false };
    this.fail(t, 'invalid token at start of a preprocessor expression');
  }

  /** The operand of a unary operator (nesting counts against the depth budget like parentheses). */
  private unaryOperand(live: boolean, depth: number, op: Token): Value {
    if (depth >= this.maxDepth) throw new HlslError(`#if expression nested deeper than maxExpansionDepth = ${this.maxDepth} levels`, this.pp.location(op.file, op.pos), 'hlsl-limit');
    return this.unary(live, depth + 1);
  }

  private number(t: Token): Value {
    const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([a-zA-Z_0-9.+-]*)$/.exec(t.text);
    if (!m || /[.]|^[0-9]+[eE]/.test(t.text) && !/^0[xX]/.test(t.text)) this.fail(t, 'floating point literal in preprocessor expression');
    const digits = m[1]!;
    const suffix = m[2]!;
    if (!/^(?:[uU]?(?:l|L|ll|LL)?|(?:l|L|ll|LL)[uU])$/.test(suffix)) this.fail(t, `invalid suffix '${suffix}' on integer constant`);
    let v: bigint;
    if (/^0[0-7]*$/.test(digits)) v = BigInt(`0o${digits.slice(1) || '0'}`);
    else if (/^0[0-9]+$/.test(digits)) this.fail(t, `invalid digit '${/[89]/.exec(digits)![0]}' in octal constant`);
    else v = BigInt(digits);
    if (v > 0xffffffffffffffffn) this.fail(t, 'integer literal is too large to be represented in any integer type');
    return { v, unsigned: /[uU]/.test(suffix) || v > 0x7fffffffffffffffn };
  }
}

function wrap(v: bigint, unsigned: boolean): Value {
  return { v: unsigned ? BigInt.asUintN(64, v) : BigInt.asIntN(64, v), unsigned };
}

const CHAR_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };

/** A character constant's value: an int, plain characters signed as clang's x86 `char`. */
function charValue(text: string): Value {
  const q = text.indexOf("'");
  const prefixed = q > 0;
  const body = text.slice(q + 1, -1);
  let v = 0n;
  for (let i = 0; i < body.length; i++) {
    let c = body.charCodeAt(i);
    if (body[i] === '\\') {
      const e = body[++i]!;
      if (e === 'x') {
        const m = /^[0-9a-fA-F]+/.exec(body.slice(i + 1))![0];
        c = parseInt(m, 16);
        i += m.length;
      } else if (/[0-7]/.test(e)) {
        const m = /^[0-7]{1,3}/.exec(body.slice(i))![0];
        c = parseInt(m, 8);
        i += m.length - 1;
      } else c = CHAR_ESCAPES[e] ?? e.charCodeAt(0);
    }
    v = (v << 8n) | BigInt(c & 0xff);
  }
  if (!prefixed && body.length > 0 && (body.length === 1 || body[0] === '\\') && v >= 128n && v < 256n) v -= 256n;
  return { v: BigInt.asIntN(32, v), unsigned: false };
}

// ---------------------------------------------------------------- what the rest of dxbin reads

/** A token's characters as they stand in its file: offsets into `clean` (the token's own place for every character of a made one). */
function charPositions(t: Token): (k: number) => number {
  return t.synthetic ? () => t.pos : (k) => t.pos + k;
}

/**
 * Root signature text from tokens as DXC's root signature reader takes them: string literals
 * without their quotes (adjacent ones concatenate), other tokens by spelling, one space before a
 * token that had whitespace before it except right after a string literal. Every character keeps
 * the file, line and column it came from.
 */
export function tokensToText(tokens: readonly Token[], sources: readonly Source[], name: string): RootSignatureText {
  let text = '';
  const files: number[] = [];
  const offs: number[] = [];
  let previousWasString = false;
  for (const t of tokens) {
    const at = charPositions(t);
    if (t.space && text.length > 0 && !previousWasString) {
      text += ' ';
      files.push(t.file);
      offs.push(at(0));
    }
    if (t.kind === STRING) {
      const q = t.text.indexOf('"');
      for (let k = q + 1; k < t.text.length - 1; k++) {
        let c = t.text[k]!;
        const from = at(k);
        if (c === '\\' && k + 1 < t.text.length - 1) {
          k++;
          const e = t.text[k]!;
          c = e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === '0' ? '\0' : e;
        }
        text += c;
        files.push(t.file);
        offs.push(from);
      }
      previousWasString = true;
    } else {
      text += t.text;
      for (let k = 0; k < t.text.length; k++) {
        files.push(t.file);
        offs.push(at(k));
      }
      previousWasString = false;
    }
  }
  return new RootSignatureText(text, name, {
    locate(index: number): SourceLocation {
      const k = Math.min(index, files.length - 1);
      if (k < 0) return { file: sources[0]?.name ?? name, line: 1, column: 1 };
      const src = sources[files[k]!]!;
      const { line, column } = src.locate(offs[k]! + (index > k ? 1 : 0));
      return { file: src.name, line, column };
    },
  });
}

/**
 * The preprocessed text, as `dxc -P` writes it: tokens on the lines they came from, `#line`
 * markers where the file changes or lines are skipped, a space where the source had whitespace
 * (or where two tokens would otherwise read as one).
 */
export function preprocessedText(result: Preprocessed): string {
  let out = '';
  let file = -1;
  let line = 0;
  let atLineStart = true;
  let previous: Token | undefined;
  // tokens come mostly in order: each source's line is found from the last one looked up (a binary search only when going back)
  const lines = result.sources.map((src) => new LineCursor(src));
  for (const t of result.output) {
    const l = lines[t.from]!.lineOf(t.at);
    if (t.from !== file || l < line || l - line > 8) {
      if (!atLineStart) out += '\n';
      out += `#line ${l} "${result.sources[t.from]!.name.replace(/[\\"]/g, (c) => `\\${c}`)}"\n`;
      file = t.from;
      line = l;
      atLineStart = true;
    } else if (l > line) {
      out += l - line === 1 ? '\n' : '\n'.repeat(l - line);
      line = l;
      atLineStart = true;
    }
    if (!atLineStart && (t.space || (previous !== undefined && wouldJoin(previous, t)))) out += ' ';
    out += t.text;
    atLineStart = false;
    previous = t;
  }
  if (!atLineStart) out += '\n';
  return out;
}

/** Line numbers of positions in one source, found by walking from the last answer. */
class LineCursor {
  private line = 0;
  private readonly starts: Int32Array;
  constructor(private readonly src: Source) {
    this.starts = src.lineStarts();
  }

  /** The 1-based line of index `i` of the source's spliced text. */
  lineOf(i: number): number {
    const at = this.src.offset(i);
    const starts = this.starts;
    let l = this.line;
    if (at < starts[l]!) return (this.line = this.src.locate(i).line - 1) + 1;
    while (l + 1 < starts.length && starts[l + 1]! <= at) l++;
    this.line = l;
    return l + 1;
  }
}

function wouldJoin(a: Token, b: Token): boolean {
  if ((a.kind === IDENT || a.kind === NUMBER) && (b.kind === IDENT || b.kind === NUMBER || b.kind === STRING || b.kind === CHAR)) return true;
  if (a.kind !== PUNCT) return false;
  if (a.text === '.' && b.kind === NUMBER) return true;
  if (b.kind !== PUNCT) return false;
  if (a.text === '/' && (b.text === '/' || b.text === '*')) return true;
  // a longer punctuator that starts with a's spelling and runs into b's (`+` `+`, `<` `<=`, `-` `>`)
  const list = PUNCT_BY_FIRST.get(a.text.charCodeAt(0));
  if (list === undefined) return false;
  const joined = a.text + b.text;
  for (const p of list) if (p.length > a.text.length && joined.startsWith(p)) return true;
  return false;
}
