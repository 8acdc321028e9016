/**
 * The C preprocessor DXC runs on HLSL sources before it reads root signature text (its clang
 * front end; docs/formats/hlsl-preprocessor.md): conditional groups, object- and function-like
 * macros with `#`, `##` and `__VA_ARGS__`, `#include` with `#pragma once`, `#line`, `#error`,
 * `#warning` and pragmas, integer expressions in 64 bits as clang evaluates them. Directives,
 * pragmas and predefined macros are the rows of codecs/hlsl-preprocessor.ts.
 *
 * Against hostile sources: every file is read once (by its real path, so link loops add nothing)
 * and a guarded header is not read again while its guard is defined (clang's multiple-include
 * optimization). The work is charged to the one work budget (src/bytes/budget.ts, docs/limits.md):
 * bytes read (each include at least READ_MINIMUM), bytes scanned in skipped groups, re-included
 * files and re-scanned arguments, characters produced by expansion, `#`, `##` and builtins, hide
 * sets copied, include probes, and nesting of includes and argument pre-expansion. Conditionals,
 * includes, rescanning and `#if` expressions run on explicit stacks. Errors are HlslError
 * `hlsl-preprocess` (clang's words at file:line:column), `limit-exceeded` (with the budget's
 * LimitError as `limit`) where the budget ran out.
 */
import { Budget, LimitError, READ_MINIMUM, WORK_KINDS, type WorkKind, type WorkLimits } from '../../bytes/budget.js';
import { DxbinError } from '../../bytes/errors.js';
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

/**
 * Limits of the work budget that replace its defaults (`maxReadBytes`, `maxScanBytes`,
 * `maxProducedChars`, `maxSteps`, `maxFiles`, `maxDepth`: docs/limits.md), clang's include
 * nesting, and the names of the preprocessor's earlier private budgets, kept as aliases.
 */
export interface PreprocessorLimits extends WorkLimits {
  /** Nesting of #include (default 200, clang's "#include nested too deeply"): a rule of the language, not a budget. */
  maxIncludeDepth?: number;
  /** @deprecated alias: sets `maxProducedChars` and `maxScanBytes` (it counted tokens produced and re-read). */
  maxExpansionTokens?: number;
  /** @deprecated alias of `maxDepth`. */
  maxExpansionDepth?: number;
  /** @deprecated alias of `maxReadBytes`. */
  maxIncludeBytes?: number;
}

/** The work limits that `limits` sets, its aliases read as the kinds they stand for. */
export function preprocessorWorkLimits(limits: PreprocessorLimits = {}): WorkLimits {
  const { maxIncludeDepth: _depth, maxExpansionTokens, maxExpansionDepth, maxIncludeBytes, ...work } = limits;
  return {
    ...work,
    maxProducedChars: work.maxProducedChars ?? maxExpansionTokens,
    maxScanBytes: work.maxScanBytes ?? maxExpansionTokens,
    maxDepth: work.maxDepth ?? maxExpansionDepth,
    maxReadBytes: work.maxReadBytes ?? maxIncludeBytes,
  };
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
  /**
   * The work budget to charge (one per public call, batch job or worker request); by default one
   * is made from the main text's and the command line's length and `limits`.
   */
  budget?: Budget;
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
  /** Expands tokens with the macros as they stand at the end of the file (the budget still holds). */
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

/** The line whose first token would be at `i` has none: it ends there, or a `//` comment starts. */
function blankLine(s: string, i: number): boolean {
  return i >= s.length || s.charCodeAt(i) === 10 || (s.charCodeAt(i) === 47 && s.charCodeAt(i + 1) === 47);
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
  /** The multiple-include optimization's state: nothing met yet, inside the guard, after its #endif, or not guarded. */
  guard: typeof GUARD_START | typeof GUARD_IN | typeof GUARD_AFTER | typeof GUARD_NONE;
  /** The guard's macro and the conditional it opened. */
  guardName?: string;
  guardCond?: Cond;
  /** An included file: a level of the budget's depth, left when the file ends. */
  nested: boolean;
}

/** The least an unguarded re-inclusion costs as `scan`: what the directive loop spends on a file's frame, lines and include is not free. */
const REINCLUDE_MINIMUM = 256;

const GUARD_START = 0;
const GUARD_IN = 1;
const GUARD_AFTER = 2;
const GUARD_NONE = 3;

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
  private budget!: Budget;
  private readonly maxIncludeDepth: number;
  /** The guard macro of each file found guarded (clang's multiple-include optimization). */
  private readonly guards = new Map<number, string>();
  /** Hide sets made once per run: of one name, of a set and one more name, of two sets. */
  private readonly singleHide = new Map<string, HideSet>();
  private readonly hideWith = new WeakMap<HideSet, Map<string, HideSet>>();
  private readonly unions = new WeakMap<HideSet, Map<HideSet, HideSet>>();
  private readonly intersections = new WeakMap<HideSet, Map<HideSet, HideSet | null>>();
  /** Parameter indices of each function-like macro, made once per macro. */
  private readonly paramIndices = new WeakMap<Macro, Map<string, number>>();
  private mainId = -1;
  private counter = 0;
  private readonly now: Date;
  private readonly text: boolean;

  constructor(private readonly options: PreprocessOptions) {
    this.text = options.mode !== 'macros';
    this.host = options.host;
    this.includeDirs = options.includeDirs ?? [];
    this.maxIncludeDepth = options.limits?.maxIncludeDepth ?? PREPROCESSOR_LIMITS.maxIncludeDepth;
    this.now = options.now ?? new Date();
  }

  run(mainName: string, mainText: string): Preprocessed {
    let commandLine = 0;
    for (const [, arg] of this.options.defines ?? []) commandLine += arg.length + 1;
    this.budget = this.options.budget ?? Budget.for(mainText.length + commandLine, preprocessorWorkLimits(this.options.limits));
    const depth = this.budget.depth;
    try {
      this.predefine();
      this.mainId = this.addSource(new Source(mainName, mainName, mainText));
      this.read(mainName);
      this.push(this.mainId, -1);
      this.loop();
    } finally {
      // a failure leaves includes open: their levels go back to a budget the caller may share
      while (this.budget.depth > depth) this.budget.leave();
    }
    return { output: this.output, macros: this.macros, files: this.files, warnings: this.warnings, sources: this.sources, expand: (tokens) => this.expand(tokens, false, false, []) };
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

  private push(id: number, dir: number, nested = false): void {
    const src = this.sources[id]!;
    this.frames.push({ src, id, pos: 0, fail: (pos: number, message: string) => this.failAt(id, pos, message), conds: [], dir, lineDelta: 0, presumed: src.name, guard: GUARD_START, nested });
  }

  // ---------------------------------------------------------------- errors and budgets

  location(file: number, pos: number): SourceLocation {
    const src = this.sources[file]!;
    const { line, column } = src.locate(pos);
    return { file: src.name, line, column };
  }

  private failAt(file: number, pos: number, message: string): never {
    throw new HlslError(message, this.location(file, pos), 'hlsl-preprocess');
  }

  /** Fails at where `t` is spelled (inside a macro's body for a token of its expansion, as clang's primary location). */
  private fail(t: Token, message: string): never {
    this.failAt(t.file, t.pos, message);
  }

  private warn(t: Token, message: string): void {
    this.warnings.push({ message, location: this.location(t.file, t.pos) });
  }

  /** Where the work is now: at `t`, else where the innermost file is being read. */
  private here(t: Token | undefined): SourceLocation {
    if (t) return this.location(t.file, t.pos);
    const fr = this.frames[this.frames.length - 1];
    if (fr) return this.location(fr.id, Math.min(fr.pos, fr.src.clean.length));
    return { file: this.sources[0]?.name ?? '?', line: 1, column: 1 };
  }

  /** The budget's LimitError as an HlslError `limit-exceeded` at file:line:column (the LimitError its `limit`). */
  private limitAt(e: LimitError, t: Token | undefined): HlslError {
    const at = this.here(t);
    const limit = new LimitError(e.kind, e.limit, e.option, `${at.file}:${at.line}:${at.column}`, e.offset);
    return new HlslError(limit.detail, at, 'limit-exceeded', limit);
  }

  /** Charges `n` units of `kind` to the budget; past its limit, an HlslError `limit-exceeded` at `t` (or where reading stands). */
  private charge(kind: WorkKind, n: number, t?: Token): void {
    try {
      this.budget.charge(kind, n, '');
    } catch (e) {
      throw e instanceof LimitError ? this.limitAt(e, t) : e;
    }
  }

  /** One level of nesting deeper (pair with `leave`). */
  private enter(t: Token | undefined): void {
    try {
      this.budget.enter('');
    } catch (e) {
      throw e instanceof LimitError ? this.limitAt(e, t) : e;
    }
  }

  private leave(): void {
    this.budget.leave();
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
        // the whole file was one #ifndef X ... #endif: not read again while X is defined
        if (fr.guard === GUARD_AFTER) this.guards.set(fr.id, fr.guardName!);
        frames.pop();
        if (fr.nested) this.leave();
        continue;
      }
      const start = fr.pos;
      const first = firstTokenAt(s, fr.pos, fail);
      const guard = fr.guard;
      const outside = guard === GUARD_START || guard === GUARD_AFTER;
      const skipping = fr.conds[fr.conds.length - 1]?.skipping ?? false;
      if (startsDirective(s, first)) {
        line.length = 0;
        fr.pos = lexLine(s, fr.id, fr.pos, fail, line);
        if (skipping) this.charge('scan', fr.pos - start, line[0]);
        this.directive(fr, line[0]!, line.slice(1));
        // any directive but the guard's own #ifndef / #endif before or after the guard: not guarded
        if (outside && fr.guard === guard) fr.guard = GUARD_NONE;
        continue;
      }
      if (skipping || !this.text) {
        // a text line nobody reads: passed over as literals and comments require
        if (outside && !blankLine(s, first)) fr.guard = GUARD_NONE;
        const nl = skipTextLine(s, first, fail);
        fr.pos = nl < s.length ? nl + 1 : nl;
        if (skipping) this.charge('scan', fr.pos - start);
        continue;
      }
      // a run of text lines up to the next directive, lexed and expanded together (a call may span lines)
      const run: Token[] = [];
      do {
        fr.pos = lexLine(s, fr.id, fr.pos, fail, run);
      } while (fr.pos < s.length && !startsDirective(s, firstTokenAt(s, fr.pos, fail)));
      if (outside && run.length > 0) fr.guard = GUARD_NONE;
      // the taken text is output too: with the expansions it stays within the produced budget (64x the input)
      this.charge('produce', charsOf(run), run[0]);
      this.expand(run, false, false, this.output);
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
        const cond: Cond = { taken: value, skipping: !value, outerSkipping: outer, elseSeen: false, at: hash };
        conds.push(cond);
        if (fr.guard === GUARD_START) this.guardStarts(fr, cond, notDefinedName(line));
        return;
      }
      case 'ifdef':
      case 'ifndef': {
        const id = this.macroName(name, line[1]);
        this.extraTokens(line, 2, kind);
        const value = this.macros.has(id.text) === (kind === 'ifdef');
        const cond: Cond = { taken: value, skipping: !value, outerSkipping: outer, elseSeen: false, at: hash };
        conds.push(cond);
        if (fr.guard === GUARD_START) this.guardStarts(fr, cond, kind === 'ifndef' && line.length === 2 ? id.text : undefined);
        return;
      }
      case 'elif': {
        if (!top) this.fail(name, '#elif without #if');
        if (top.elseSeen) this.fail(name, '#elif after #else');
        if (top === fr.guardCond) fr.guard = GUARD_NONE;
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
        if (top === fr.guardCond) fr.guard = GUARD_NONE;
        if (!top.outerSkipping) this.extraTokens(line, 1, 'else');
        top.elseSeen = true;
        top.skipping = top.outerSkipping || top.taken;
        top.taken = true;
        return;
      case 'endif':
        if (!top) this.fail(name, '#endif without #if');
        if (!top.outerSkipping) this.extraTokens(line, 1, 'endif');
        conds.pop();
        if (top === fr.guardCond && fr.guard === GUARD_IN) fr.guard = GUARD_AFTER;
        return;
    }
  }

  /** The first directive of a file opened `cond`: a guard when it is `#ifndef X` or `#if !defined X` (at the file's top level). */
  private guardStarts(fr: Frame, cond: Cond, name: string | undefined): void {
    if (name === undefined || fr.conds.length !== 1) {
      fr.guard = GUARD_NONE;
      return;
    }
    fr.guard = GUARD_IN;
    fr.guardName = name;
    fr.guardCond = cond;
  }

  private condition(name: Token, line: Token[], directive: string): boolean {
    if (line.length < 2) this.fail(name, `#${directive} with no expression`);
    const tokens = this.expand(line.slice(1), true, false, []);
    return new Expression(tokens, this, name).evaluate() !== 0n;
  }

  private define(directive: Token, line: Token[]): void {
    const name = this.macroName(directive, line[1]);
    if (name.text === 'defined') this.fail(name, "'defined' cannot be used as a macro name");
    let i = 2;
    let params: string[] | undefined;
    const seen = new Set<string>();
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
          seen.add('__VA_ARGS__');
          const close = line[i + 1];
          if (!close || close.text !== ')') this.fail(close ?? t, "missing ')' in macro parameter list");
          i += 2;
          break;
        }
        if (t.kind !== IDENT) this.fail(t, 'invalid token in macro parameter list');
        if (seen.has(t.text)) this.fail(t, `duplicate macro parameter name '${t.text}'`);
        seen.add(t.text);
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
          if (!p || p.kind !== IDENT || !seen.has(p.text)) this.fail(b, "'#' is not followed by a macro parameter");
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
      const expanded = this.expand(line.slice(1), false, false, []);
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
          this.charge('states', 1, at);
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
    // a guarded header whose guard is still defined would be skipped whole: not scanned again
    if (id !== undefined && this.macros.has(this.guards.get(id) ?? '\0')) return;
    if (id === undefined) id = this.readInclude(host!, hit, name, at);
    else {
      // an unguarded file included again: opened and scanned again (a small one costs as much as REINCLUDE_MINIMUM bytes)
      this.charge('files', 1, at);
      this.charge('scan', Math.max(this.sources[id]!.clean.length, REINCLUDE_MINIMUM), at);
    }
    if (kind === 'import') this.once.add(id);
    this.enter(at);
    this.push(id, hit.dir, true);
  }

  /** Reads an included file once: charged as a read (its size before, at least READ_MINIMUM), the host asked for no more than the budget has left. */
  private readInclude(host: IncludeHost, hit: { path: string; real: string; size: number }, name: string, at: Token): number {
    const before = Math.max(hit.size, READ_MINIMUM);
    this.charge('files', 1, at);
    this.charge('read', before, at);
    let bytes: unknown;
    try {
      bytes = host.read(hit.real, this.budget.limit('read') - this.budget.used('read') + before);
    } catch (e) {
      if (e instanceof DxbinError) throw e;
      this.fail(at, `cannot open file '${name}': ${readProblem(e)}`);
    }
    if (!(bytes instanceof Uint8Array)) this.fail(at, `cannot open file '${name}': the include host's read gave no bytes`);
    if (bytes.byteLength > before) this.charge('read', bytes.byteLength - before, at);
    this.budget.addInput(bytes.byteLength);
    const id = this.addSource(new Source(hit.path, hit.real, decodeChecked(bytes)));
    this.read(hit.path);
    return id;
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
    const tokens = this.expand(args, false, false, []);
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
   * in front of the rest of the input); arguments are pre-expanded by a nested call (`argument`:
   * its tokens are scanned again, charged as `scan`; each level one of the budget's depth).
   * `inIf` evaluates `defined`.
   */
  expand(input: readonly Token[], inIf: boolean, argument: boolean, out: Token[], from = 0, to = input.length): Token[] {
    if (argument && to > from) {
      let chars = 0;
      for (let k = from; k < to; k++) chars += input[k]!.text.length + 1;
      this.charge('scan', chars, input[from]);
    }
    const c = new Cursor(input, from, to);
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
        const made = this.builtin(macro, t);
        this.charge('produce', made.text.length, t);
        out.push(made);
        continue;
      }
      // a token made by N nested expansions carries N names: the nesting, against the depth limit
      if (t.hide !== null) {
        const limit = this.budget.limit('depth');
        if (t.hide.size + this.budget.depth >= limit) throw this.limitAt(new LimitError('depth', limit, WORK_KINDS.depth.option, ''), t);
      }
      if (macro.params === undefined) {
        c.pushFront(this.substitute(macro, t, [], this.addHide(t.hide, macro.name, t), inIf));
        continue;
      }
      const next = c.peek();
      if (!next || next.kind !== PUNCT || next.text !== '(') {
        out.push(t);
        continue;
      }
      const { args, close } = this.collectArguments(macro, t, c);
      const hide = this.addHide(this.intersect(t.hide, close.hide, t), macro.name, t);
      c.pushFront(this.substitute(macro, t, args, hide, inIf));
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
  private substitute(macro: Macro, call: Token, args: Token[][], hide: HideSet, inIf: boolean): Token[] {
    const body = macro.body;
    const params = macro.params;
    if (params === undefined) {
      // an object-like macro without `##` (the common case): its body as it stands, in one pass
      let chars = 0;
      let plain = true;
      for (let i = 0; i < body.length; i++) {
        const b = body[i]!;
        if (b.kind === PUNCT && b.text === '##') {
          plain = false;
          break;
        }
        chars += b.text.length + 1;
      }
      if (plain) {
        this.charge('produce', chars, call);
        const out: Token[] = [];
        for (let i = 0; i < body.length; i++) {
          const t = body[i]!;
          const h = t.hide !== null && t.hide !== hide ? this.union(t.hide, hide, call) : hide;
          out.push({ kind: t.kind, text: t.text, file: t.file, pos: t.pos, space: i === 0 ? call.space : t.space, bol: false, hide: h, from: call.from, at: call.at, synthetic: t.synthetic });
        }
        return out;
      }
    }
    const index = this.paramIndexOf(macro);
    const paramIndex = (t: Token | undefined): number => (index !== undefined && t !== undefined && t.kind === IDENT ? (index.get(t.text) ?? -1) : -1);
    const expanded: (Token[] | undefined)[] = [];
    // characters of each argument as given and as expanded, counted once per call
    const rawChars: number[] = [];
    const expandedChars: number[] = [];
    const res: Token[] = [];
    for (let i = 0; i < body.length; i++) {
      const b = body[i]!;
      if (params && b.kind === PUNCT && b.text === '#') {
        const k = paramIndex(body[i + 1]);
        res.push(this.stringize(args[k] ?? [], b));
        i++;
        continue;
      }
      if (isPaste(b)) {
        const rhsToken = body[i + 1]!;
        i++;
        const k = paramIndex(rhsToken);
        let rhs: Token[];
        if (params && rhsToken.kind === PUNCT && rhsToken.text === '#' && paramIndex(body[i + 1]) >= 0) {
          rhs = [this.stringize(args[paramIndex(body[i + 1])] ?? [], rhsToken)];
          i++;
        } else if (k >= 0) {
          rhs = args[k] ?? [];
          this.charge('produce', (rawChars[k] ??= charsOf(rhs)), call);
        } else rhs = [rhsToken];
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
      const k = paramIndex(b);
      if (k >= 0) {
        const raw = args[k] ?? [];
        const beforePaste = body[i + 1] !== undefined && isPaste(body[i + 1]!);
        let list: Token[];
        if (beforePaste) {
          list = raw;
          this.charge('produce', (rawChars[k] ??= charsOf(raw)), call);
        } else {
          list = expanded[k] ??= this.expandArgument(raw, inIf, call);
          this.charge('produce', (expandedChars[k] ??= charsOf(list)), call);
        }
        if (list.length === 0) {
          if (beforePaste) res.push(PLACEMARKER);
          continue;
        }
        res.push({ ...list[0]!, space: b.space });
        for (let r = 1; r < list.length; r++) res.push(list[r]!);
        continue;
      }
      this.charge('produce', b.text.length + 1, call);
      res.push(b);
    }
    // every token takes the call's place and hide set; the first one the call's spacing
    const out: Token[] = [];
    for (const t of res) {
      if (t === PLACEMARKER) continue;
      const h = t.hide !== null && t.hide !== hide ? this.union(t.hide, hide, call) : hide;
      out.push({ kind: t.kind, text: t.text, file: t.file, pos: t.pos, space: out.length === 0 ? call.space : t.space, bol: false, hide: h, from: call.from, at: call.at, synthetic: t.synthetic });
    }
    return out;
  }

  /**
   * `h` and `name`: hide sets are made once per run and shared (a chain of macros used many times
   * copies each of its sets once); a copy is charged as `states`, one step a name.
   */
  private addHide(h: HideSet | null, name: string, at: Token): HideSet {
    if (h === null) {
      let one = this.singleHide.get(name);
      if (one === undefined) this.singleHide.set(name, (one = new Set([name])));
      return one;
    }
    if (h.has(name)) return h;
    let next = this.hideWith.get(h);
    if (next === undefined) this.hideWith.set(h, (next = new Map()));
    let made = next.get(name);
    if (made === undefined) {
      this.charge('states', h.size + 1, at);
      const copy = new Set(h);
      copy.add(name);
      next.set(name, (made = copy));
    }
    return made;
  }

  /** The names in both (made once per pair of sets, charged as `states`). */
  private intersect(a: HideSet | null, b: HideSet | null, at: Token): HideSet | null {
    if (a === null || b === null) return null;
    if (a === b) return a;
    return this.pairOf(this.intersections, a, b, at, () => {
      const s = new Set<string>();
      for (const x of a) if (b.has(x)) s.add(x);
      return s.size === 0 ? null : s;
    });
  }

  /** The names in either (made once per pair of sets, charged as `states`). */
  private union(a: HideSet, b: HideSet, at: Token): HideSet {
    return this.pairOf(this.unions, a, b, at, () => {
      const s = new Set(a);
      for (const x of b) s.add(x);
      return s;
    });
  }

  private pairOf<R>(cache: WeakMap<HideSet, Map<HideSet, R>>, a: HideSet, b: HideSet, at: Token, make: () => R): R {
    let row = cache.get(a);
    if (row === undefined) cache.set(a, (row = new Map()));
    if (row.has(b)) return row.get(b)!;
    this.charge('states', a.size + b.size, at);
    const r = make();
    row.set(b, r);
    return r;
  }

  /** An argument pre-expanded before substitution: one level of the budget's depth, its tokens scanned again. */
  private expandArgument(raw: readonly Token[], inIf: boolean, call: Token): Token[] {
    this.enter(call);
    try {
      return this.expand(raw, inIf, true, []);
    } catch (e) {
      // a maxDepth raised past what the stack holds: the nesting reached is the limit met
      if (e instanceof RangeError) throw this.limitAt(new LimitError('depth', this.budget.depth, WORK_KINDS.depth.option, ''), call);
      throw e;
    } finally {
      this.leave();
    }
  }

  /** The parameter names of a function-like macro to their indices (made once per macro). */
  private paramIndexOf(macro: Macro): Map<string, number> | undefined {
    if (macro.params === undefined) return undefined;
    let index = this.paramIndices.get(macro);
    if (index === undefined) {
      index = new Map();
      for (let k = macro.params.length - 1; k >= 0; k--) index.set(macro.params[k]!, k);
      this.paramIndices.set(macro, index);
    }
    return index;
  }

  /** `#x`: the argument's spelling as a string literal; its characters charged as produced before it is made. */
  private stringize(arg: readonly Token[], at: Token): Token {
    let chars = 2;
    for (const t of arg) chars += 2 * t.text.length + 1;
    this.charge('produce', chars, at);
    let s = '"';
    for (let k = 0; k < arg.length; k++) {
      const t = arg[k]!;
      if (k > 0 && t.space) s += ' ';
      s += t.kind === STRING || t.kind === CHAR ? t.text.replace(/[\\"]/g, (c) => `\\${c}`) : t.text;
    }
    return { ...this.synthetic(`${s}"`, STRING, at), space: at.space };
  }

  /** `a ## b`: the two spellings joined (charged as produced before they are) and lexed again as one token. */
  private paste(lhs: Token, rhs: Token, at: Token): Token {
    this.charge('produce', lhs.text.length + rhs.text.length, at);
    const text = lhs.text + rhs.text;
    const one = lexOne(text);
    if (!one) this.fail(at, `pasting formed '${text}', an invalid preprocessing token`);
    return { ...lhs, kind: one.kind, text, synthetic: true };
  }
}

const isPaste = (t: Token) => t.kind === PUNCT && t.text === '##';

/** Why a file could not be read, in words (an errno code's, else the error's message). */
function readProblem(e: unknown): string {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  const words: Record<string, string> = {
    EIO: 'input/output error',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'is a folder',
    ENOENT: 'no such file',
    ELOOP: 'too many levels of symbolic links',
    EINVAL: 'invalid argument',
    ENXIO: 'no such device or address',
    EAGAIN: 'would block',
  };
  if (typeof code === 'string' && words[code] !== undefined) return words[code];
  return e instanceof Error ? e.message : String(e);
}

/** X of a `#if !defined X` or `#if !defined(X)` line (a header guard as clang knows it), else undefined. */
function notDefinedName(line: readonly Token[]): string | undefined {
  const punct = (t: Token | undefined, p: string) => t !== undefined && t.kind === PUNCT && t.text === p;
  if (!punct(line[1], '!') || line[2]?.kind !== IDENT || line[2].text !== 'defined') return undefined;
  if (line.length === 4 && line[3]!.kind === IDENT) return line[3]!.text;
  if (line.length === 6 && punct(line[3], '(') && line[4]!.kind === IDENT && punct(line[5], ')')) return line[4]!.text;
  return undefined;
}

/** Characters of a token list as produced: each token's spelling and a space. */
function charsOf(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) n += t.text.length + 1;
  return n;
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
class Expression {
  private i = 0;
  private readonly ops: PendingOp[] = [];
  private readonly values: Value[] = [];
  /** How many operators above have made the current operand dead. */
  private dead = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly pp: { location(file: number, pos: number): SourceLocation },
    private readonly directive: Token,
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
      else if (t.kind === CHAR) this.values.push(charValue(t.text));
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

  private fail(t: Token | undefined, message: string): never {
    const at = t ?? this.tokens[this.tokens.length - 1] ?? this.directive;
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
    // only the last four characters count (the value is an int): the value never grows past 32 bits
    v = BigInt.asUintN(32, (v << 8n) | BigInt(c & 0xff));
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
