/**
 * The directive loop (clang's PPDirectives and PPLexerChange): lines read from the file stack,
 * conditional groups, `#define`/`#undef`, `#include` with `#pragma once` and the multiple-include
 * optimization (a guarded header is not read again while its guard is defined), `#line`,
 * `#error`, `#warning` and pragmas, the predefined macros and the command line. The taken text
 * goes through macro expansion (macros.ts) onto the output.
 */
import { Budget, READ_MINIMUM } from '../../../bytes/budget.js';
import { DxbinError } from '../../../bytes/errors.js';
import { shortened } from '../../../bytes/text.js';
import { DIRECTIVES, HLSL_PREDEFINES, PRAGMAS, PREPROCESSOR_LIMITS, ROOTSIG_PROFILE, namedKind, profileMacros } from '../../../../codecs/hlsl-preprocessor.js';
import { decodeChecked, type HostFile, type IncludeHost } from '../source.js';
import { HlslError } from '../text.js';
import { Expression } from './expression.js';
import { literalText } from './literal.js';
import { blankLine, firstTokenAt, lexLine, skipTextLine, startsDirective } from './lexer.js';
import { pragmaSpelling, warningRoutes } from './output.js';
import { Expander, charsOf, isPaste, poisonedUse, sameMacro } from './macros.js';
import { preprocessorWorkLimits, type Macro, type PragmaLine, type PreprocessOptions, type Preprocessed } from './options.js';
import { GUARD_AFTER, GUARD_IN, GUARD_NONE, GUARD_START, Source, type Cond, type Frame } from './source.js';
import { TOKEN, type Token } from './token.js';

const { ident: IDENT, number: NUMBER, string: STRING, punct: PUNCT } = TOKEN;

/** The least an unguarded re-inclusion costs as `scan`: what the directive loop spends on a file's frame, lines and include is not free. */
const REINCLUDE_MINIMUM = 256;

/** Preprocesses one main file as DXC would before reading root signature text. */
export function preprocess(mainName: string, mainText: string, options: PreprocessOptions = {}): Preprocessed {
  return new Preprocessor(options).run(mainName, mainText);
}

/** Why a pragma string with an encoding prefix GNU cpp and clang read differently is refused. */
const ENCODING_PREFIX = 'this encoding prefix is read differently by GNU cpp (which drops only its first character) and clang, the preprocessor of DXC (which drops it whole, or refuses it in push_macro); dxbin refuses it rather than give one of their answers';

class Preprocessor extends Expander {
  /** Each file's first reading, by its real path (later readings are further sources sharing its text). */
  private readonly byReal = new Map<string, number>();
  /** Files (by first reading) under `#pragma once` or `#import`. */
  private readonly once = new Set<number>();
  private readonly files: string[] = [];
  private readonly output: Token[] = [];
  /** The pragmas the output passes on (cpp's), in output order. */
  private readonly pragmaLines: PragmaLine[] = [];
  private readonly pushed = new Map<string, (Macro | undefined)[]>();
  private readonly resolved = new Map<string, { path: string; dir: number; real: string; size: number }>();
  /** What the host said of each path asked (once per path per run). */
  private readonly stats = new Map<string, HostFile | undefined>();
  private readonly host: IncludeHost | undefined;
  private readonly includeDirs: readonly string[];
  private readonly maxIncludeDepth: number;
  /** The guard macro of each file (by first reading) found guarded (clang's multiple-include optimization). */
  private readonly guards = new Map<number, string>();
  private mainId = -1;
  private readonly text: boolean;
  /** A macro's body holds `_Pragma` (in `macros` mode every text line is then expanded, for the pragmas it runs). */
  private pragmaMacro = false;
  /** Per reading, the next `_Pragma` in its text at or after the last place asked (-1: none), so the search stays linear. */
  private readonly nextPragma = new Map<number, number>();
  /** The output index of a `_Pragma` operator the last run ended inside (-1: none), and how many pragma lines were out then. */
  private pendingPragma = -1;
  private pendingLines = 0;
  /** The index in `sources` of the `_Pragma` buffer being run (pragmaLine; -1: none yet). */
  private bufferSlot = -1;

  constructor(private readonly options: PreprocessOptions) {
    super(options.now ?? new Date());
    this.text = options.mode !== 'macros';
    this.host = options.host;
    this.includeDirs = options.includeDirs ?? [];
    this.maxIncludeDepth = options.limits?.maxIncludeDepth ?? PREPROCESSOR_LIMITS.maxIncludeDepth;
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
      this.push(this.mainId, this.mainId, -1);
      this.loop();
      // a _Pragma operator the input ends inside: cpp's error at the last token it read
      if (this.pendingPragma >= 0) {
        const last = this.output[this.output.length - 1]!;
        this.failAt(last.from, last.at, '_Pragma takes a parenthesized string literal');
      }
    } finally {
      // a failure leaves includes open: their levels go back to a budget the caller may share
      while (this.budget.depth > depth) this.budget.leave();
    }
    // the root signature text made from this run's tokens warns here (an escape C does not have), once per place
    const warned = new Set<string>();
    warningRoutes.set(this.sources, (file, pos, message) => {
      const key = `${file}:${pos}:${message}`;
      if (warned.has(key)) return;
      warned.add(key);
      this.warnAt(file, pos, message);
    });
    return { output: this.output, pragmas: this.pragmaLines, macros: this.macros, files: this.files, warnings: this.warnings, sources: this.sources, charge: (kind, n, t) => this.charge(kind, n, t), expand: (tokens) => this.expand(tokens, false, false, []) };
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
    this.push(src, src, -1);
    this.loop();
    this.output.length = 0;
    this.pragmaLines.length = 0;
  }

  private read(path: string): void {
    this.files.push(path);
    this.options.onFile?.(path);
  }

  /** A reading of a file: its index in `sources` (the first reading of a file is its id in `byReal`). */
  private addSource(src: Source): number {
    this.sources.push(src);
    const id = this.sources.length - 1;
    if (!this.byReal.has(src.real)) this.byReal.set(src.real, id);
    return id;
  }

  /** Reads reading `id` of file `file` (its first reading's id) next. */
  private push(id: number, file: number, dir: number, nested = false): void {
    const src = this.sources[id]!;
    // included from a system header: a system header (cpp's sysp, taken from the includer)
    const system = this.frames[this.frames.length - 1]?.system ?? false;
    if (system) src.system = 0;
    this.frames.push({ src, id, file, pos: 0, fail: (pos: number, message: string) => this.failAt(id, pos, message), conds: [], dir, guard: GUARD_START, nested, system });
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
        if (fr.guard === GUARD_AFTER) this.guards.set(fr.file, fr.guardName!);
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
        // the directive's end (clang's eod token): where its line break is
        let eod = fr.pos;
        if (eod > start && s.charCodeAt(eod - 1) === 10) eod--;
        if (eod > start && s.charCodeAt(eod - 1) === 13) eod--;
        this.directive(fr, line[0]!, line.slice(1), eod);
        // any directive but the guard's own #ifndef / #endif before or after the guard: not guarded
        if (outside && fr.guard === guard) fr.guard = GUARD_NONE;
        continue;
      }
      if (skipping || !this.text) {
        // a text line nobody reads: passed over as literals and comments require
        if (outside && !blankLine(s, first)) fr.guard = GUARD_NONE;
        const nl = skipTextLine(s, first, fail);
        // in `macros` mode a line that may run a _Pragma (once, push_macro...) is expanded as in `full` mode, its output dropped
        if (skipping || !(this.pragmaMacro || this.pendingPragma >= 0 || this.pragmaBefore(fr, first, nl))) {
          fr.pos = nl < s.length ? nl + 1 : nl;
          if (skipping) this.charge('scan', fr.pos - start);
          continue;
        }
      }
      // a run of text lines up to the next directive, lexed and expanded together (a call may span lines)
      const run: Token[] = [];
      do {
        fr.pos = lexLine(s, fr.id, fr.pos, fail, run);
      } while (fr.pos < s.length && !startsDirective(s, firstTokenAt(s, fr.pos, fail)));
      if (outside && run.length > 0) fr.guard = GUARD_NONE;
      // the taken text is output too: with the expansions it stays within the produced budget (64x the input)
      this.charge('produce', charsOf(run), run[0]);
      // expanded up to each _Pragma of the text outside parentheses, which then runs before the text after it is expanded
      let depth = 0;
      let from = 0;
      if (this.pendingPragma >= 0) from = this.continuePragma(fr, run);
      for (let k = from; k < run.length; k++) {
        const r = run[k]!;
        if (r.kind === PUNCT) depth += r.text === '(' ? 1 : r.text === ')' && depth > 0 ? -1 : 0;
        else if (depth === 0 && r.kind === IDENT && r.text === '_Pragma' && k + 3 < run.length) {
          const at = this.output.length;
          this.expand(run, false, false, this.output, from, k, true);
          for (let j = k; j < k + 4; j++) this.output.push(run[j]!);
          this.pragmaOperators(fr, at);
          from = k + 4;
          k += 3;
        }
      }
      const at = this.output.length;
      this.expand(run, false, false, this.output, from, run.length, true);
      this.pragmaOperators(fr, at);
      // (in `macros` mode an operator still open keeps its tokens for the next run)
      if (!this.text && this.pendingPragma < 0) this.output.length = 0;
    }
  }

  /**
   * The first tokens of a run after a directive that a `_Pragma` operator was left open before
   * (`_Pragma (` then `#define X 1` then `"foo")`: cpp runs the directive and reads on for the
   * operator): as many as it still takes go out after it, as the tokens of one written in the text
   * do, and it runs once it has them, after the pragma lines of the directives between (cpp's
   * order). How many tokens of `run` it took.
   */
  private continuePragma(fr: Frame, run: readonly Token[]): number {
    const start = this.pendingPragma;
    const n = Math.min(start + 4 - this.output.length, run.length);
    for (let j = 0; j < n; j++) this.output.push(run[j]!);
    if (this.output.length < start + 4) return n;
    this.pendingPragma = -1;
    // pragma lines the directives between passed on: before the operator's place (it goes out of the output)
    for (let j = this.pendingLines; j < this.pragmaLines.length; j++) {
      const line = this.pragmaLines[j]!;
      if (line.before > start) this.pragmaLines[j] = { ...line, before: start };
    }
    this.pragmaOperators(fr, start);
    return n;
  }

  /** Whether `_Pragma` is written in reading `fr`'s text between `from` and `to`. */
  private pragmaBefore(fr: Frame, from: number, to: number): boolean {
    let next = this.nextPragma.get(fr.id);
    if (next === undefined || (next >= 0 && next < from)) {
      next = fr.src.clean.indexOf('_Pragma', from);
      this.nextPragma.set(fr.id, next);
    }
    return next >= 0 && next < to;
  }

  private directive(fr: Frame, hash: Token, line: Token[], eod: number): void {
    const top = fr.conds[fr.conds.length - 1];
    const skipping = top?.skipping ?? false;
    const name = line[0];
    if (name === undefined) return; // the null directive
    const kind = name.kind === IDENT ? namedKind(DIRECTIVES, name.text) : name.kind === NUMBER && !skipping ? 'line' : undefined;
    // a conditional inside a _Pragma operator's operands: refused (cpp 12 reads on for the operator, and
    // crashes when the string is inside the group; which tokens it would take is not matched here)
    if (this.pendingPragma >= 0 && (kind === 'if' || kind === 'ifdef' || kind === 'ifndef' || kind === 'elif' || kind === 'else' || kind === 'endif')) {
      this.fail(name, `#${kind} inside the operands of a _Pragma operator is not supported`);
    }
    if (skipping) {
      if (kind === 'if' || kind === 'ifdef' || kind === 'ifndef') fr.conds.push({ taken: true, skipping: true, outerSkipping: true, elseSeen: false, at: hash });
      else if (kind === 'elif' || kind === 'else' || kind === 'endif') this.conditional(fr, kind, hash, name, line, eod);
      return;
    }
    switch (kind) {
      case 'if':
      case 'ifdef':
      case 'ifndef':
      case 'elif':
      case 'else':
      case 'endif':
        return this.conditional(fr, kind, hash, name, line, eod);
      case 'define':
        return this.define(name, line);
      case 'undef': {
        const id = this.macroName(name, line[1]);
        this.poisonLine(line, 1);
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
        this.poisonLine(line, 1);
        this.fail(name, this.restOfLine(name, line));
        return;
      case 'warning':
        this.poisonLine(line, 1);
        this.warnAt(name.file, name.pos, this.restOfLine(name, line), true);
        return;
      case 'pragma':
        return this.pragma(fr, name, line, hash, this.output.length, eod);
      case 'ignored':
        this.poisonLine(line, 1);
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

  private conditional(fr: Frame, kind: 'if' | 'ifdef' | 'ifndef' | 'elif' | 'else' | 'endif', hash: Token, name: Token, line: Token[], eod: number): void {
    const conds = fr.conds;
    const top = conds[conds.length - 1];
    const outer = top?.skipping ?? false;
    switch (kind) {
      case 'if': {
        const value = this.condition(name, line, 'if', eod);
        const cond: Cond = { taken: value, skipping: !value, outerSkipping: outer, elseSeen: false, at: hash };
        conds.push(cond);
        if (fr.guard === GUARD_START) this.guardStarts(fr, cond, notDefinedName(line));
        return;
      }
      case 'ifdef':
      case 'ifndef': {
        const id = this.macroName(name, line[1]);
        this.poisonLine(line, 1);
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
        const value = this.condition(name, line, 'elif', eod);
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
        // the rest of the line is lexed as the group it opens is: its names checked if that is read
        if (!top.skipping) this.poisonLine(line, 1);
        return;
      case 'endif':
        if (!top) this.fail(name, '#endif without #if');
        if (!top.outerSkipping) this.extraTokens(line, 1, 'endif');
        // the rest of the line is lexed as the group it closes was (cpp): checked if that was read
        if (!top.skipping) this.poisonLine(line, 1);
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

  /** The value of an `#if`/`#elif` line; nothing to read is an error at the directive's end `eod` (clang's and cpp's place: after `if` for `#if` alone). */
  private condition(name: Token, line: Token[], directive: string, eod: number): boolean {
    if (line.length < 2) this.failAt(name.file, eod, `#${directive} with no expression`);
    const tokens = this.expand(line, true, false, [], 1, line.length, true);
    return new Expression(tokens, this, name, { file: name.file, pos: eod }).evaluate() !== 0n;
  }

  private define(directive: Token, line: Token[]): void {
    const name = this.macroName(directive, line[1]);
    if (name.text === 'defined') this.fail(name, "'defined' cannot be used as a macro name");
    // a poisoned name is refused anywhere on the line: the macro's name, a parameter, the body
    this.poisonLine(line, 1);
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
    if (!this.pragmaMacro && body.some((b) => b.kind === IDENT && b.text === '_Pragma')) this.pragmaMacro = true;
    const old = this.macros.get(name.text);
    if (old?.builtin) this.warn(name, 'redefining builtin macro');
    else if (old && !sameMacro(old, macro)) this.warn(name, `'${name.text}' macro redefined`);
    this.macros.set(name.text, macro);
  }

  private include(fr: Frame, kind: 'include' | 'include_next' | 'import', directive: Token, line: Token[]): void {
    let spec = this.headerName(fr, line.slice(1));
    if (spec === undefined) {
      const expanded = this.expand(line, false, false, [], 1, line.length, true);
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
    // the name cut as messages show input (a 30,000-character name was repeated whole)
    if (!found) this.fail(at, `'${shortened(name)}' file not found`);
    this.resolved.set(key, found);
    const hit = found;
    const file = this.byReal.get(hit.real);
    if (file !== undefined && this.once.has(file)) return;
    // a guarded header whose guard is still defined would be skipped whole: not scanned again
    if (file !== undefined && this.macros.has(this.guards.get(file) ?? '\0')) return;
    let id: number;
    if (file === undefined) id = this.readInclude(host!, hit, name, at);
    else {
      // an unguarded file included again: opened and scanned again (a small one costs as much as REINCLUDE_MINIMUM bytes),
      // a reading of its own (its own #line notes) sharing the first one's text; the name as found this time
      this.charge('files', 1, at);
      this.charge('scan', Math.max(this.sources[file]!.clean.length, REINCLUDE_MINIMUM), at);
      id = this.addSource(new Source(hit.path, hit.real, this.sources[file]!));
    }
    if (kind === 'import') this.once.add(file ?? id);
    this.enter(at);
    this.push(id, file ?? id, hit.dir, true);
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
    const tokens = this.expand(args, false, false, [], 0, args.length, true);
    const n = tokens[0];
    if (!n || n.kind !== NUMBER || !/^\d+$/.test(n.text)) this.fail(n ?? name, '#line directive requires a positive integer argument');
    // clang reads the digits into an unsigned 32-bit number (GetLineValue): leading zeros are taken
    // (a warning there), a value past 0xffffffff is refused; read digit by digit, stopping at the first past it
    let value = 0;
    for (let k = 0; k < n.text.length; k++) {
      value = value * 10 + (n.text.charCodeAt(k) - 48);
      if (value > 0xffffffff) this.fail(n, '#line directive requires a positive integer argument');
    }
    const file = tokens[1];
    let presumed: string | undefined;
    if (file) {
      // a plain string literal only (no L, u, U or u8), its value the presumed name
      if (file.kind !== STRING || !file.text.startsWith('"')) this.fail(file, 'invalid filename for #line directive');
      const at = (k: number) => (file.synthetic ? file.pos : file.pos + k);
      presumed = literalText(
        file.text,
        (k, message) => this.failAt(file.file, at(k), message),
        (k, message) => this.warnAt(file.file, at(k), message),
      );
    }
    // noted at the number as written (a macro's: where it is called), as clang's AddLineNote: the
    // physical line after that one is line `value`; without a name the presumed name stays
    fr.src.addLineNote(args[0]!.pos, value, presumed);
  }

  /**
   * `_Pragma ( "..." )` operators in the output from `from` on (the text of one run, expanded):
   * each run as the `#pragma` line its string says (destringized: `\\` and `\"` unescaped, its
   * tokens lexed) and taken out of the output, as cpp does. An operator the run ends inside
   * (its string after a directive) is left open for the next run (continuePragma).
   */
  private pragmaOperators(fr: Frame, from: number): void {
    const out = this.output;
    let k = from;
    while (k < out.length && !(out[k]!.kind === IDENT && out[k]!.text === '_Pragma')) k++;
    if (k === out.length) return;
    let w = k;
    while (k < out.length) {
      const t = out[k]!;
      if (t.kind !== IDENT || t.text !== '_Pragma') {
        out[w++] = t;
        k++;
        continue;
      }
      const open = out[k + 1];
      const str = out[k + 2];
      const close = out[k + 3];
      const isOpen = open !== undefined && open.kind === PUNCT && open.text === '(';
      if (open === undefined || (isOpen && (str === undefined || (str.kind === STRING && close === undefined)))) {
        // the run ends inside it (a directive follows): open until the next run gives the rest (continuePragma)
        this.pendingPragma = w;
        this.pendingLines = this.pragmaLines.length;
        while (k < out.length) out[w++] = out[k++]!;
        break;
      }
      // at the first token that is not what it takes, as cpp (any string literal: L, u, U, u8 too)
      const bad = !isOpen ? open : str!.kind !== STRING ? str : close!.kind !== PUNCT || close!.text !== ')' ? close : undefined;
      if (bad !== undefined) this.fail(bad, '_Pragma takes a parenthesized string literal');
      // u, U and u8: GNU cpp 12 drops only the prefix's first character (`u"once"` is the pragma `"once`),
      // clang, DXC's preprocessor, the whole prefix (C11 6.10.9.1: `once`); refused rather than one of them
      if (/^(?:u8?|U)"/.test(str!.text)) this.fail(str!, ENCODING_PREFIX);
      // written out where cpp's lexer stands when it runs: its `)`, or for one a macro made the last
      // token read from the source by then (the outermost call's `)`), not the call's name
      const place = this.pragmaEnds.get(close!) ?? close!;
      const line = this.pragmaLine(t, str!, place);
      // its eod: the end of its buffer (the source pragmaLine made)
      this.pragma(fr, t, line, place, w, this.sources[this.bufferSlot]!.clean.length);
      k += 4;
    }
    out.length = w;
  }

  /**
   * The pragma line a `_Pragma`'s string says, destringized as GNU cpp 12 and clang agree
   * (destringize_and_run; clang's Handle_Pragma): a plain or `L` string, the `L` and quotes dropped,
   * then `\\` and `\"` unescaped (u, U and u8, where they disagree, are refused before). Its tokens are lexed in a buffer of their own, located as
   * cpp locates them: the line of `place` (where the pragma is written), the column its offset in
   * the buffer plus one. `line[0]` is the `_Pragma`; the buffer's end (offset its length) is its eod.
   */
  private pragmaLine(t: Token, str: Token, place: Token): Token[] {
    const text = str.text;
    const body = text.slice(text.charCodeAt(0) === 76 ? 2 : 1, -1).replace(/\\([\\"])/g, '$1');
    this.charge('scan', body.length + 1, str);
    const at = this.location(place.from, place.at);
    const src = Source.buffer(body, at.file, at.line);
    // in a system header's part: its warnings are not given either
    if (this.sources[place.from]!.system <= place.at) src.system = 0;
    // one slot of `sources` for the buffer of the pragma being run: nothing keeps its tokens once it has
    // run (its messages are made as it runs, its line passed on as text), so a run of N operators holds one
    if (this.bufferSlot < 0) this.bufferSlot = this.sources.push(src) - 1;
    else this.sources[this.bufferSlot] = src;
    const buffer = this.bufferSlot;
    const lexed: Token[] = [t];
    lexLine(body, buffer, 0, (pos, message) => this.failAt(buffer, pos, message), lexed);
    for (let k = 1; k < lexed.length; k++) {
      const x = lexed[k]!;
      // an unterminated literal (its quote and the rest of the string): cpp's warning at its start
      const quote = x.kind === TOKEN.other ? /^(?:u8|[LuU])?(["'])/.exec(x.text) : null;
      if (quote !== null) this.warn(x, `missing terminating ${quote[1]} character`);
    }
    return lexed;
  }

  /**
   * A pragma line (`line[0]` its `pragma`, `place` its `#` or `_Pragma`): acted on, and passed on
   * to the output (before output token `before`) unless GNU cpp consumes it (`once`,
   * `push_macro`/`pop_macro`, `GCC system_header`/`poison`/`warning`/`error`/`dependency`).
   */
  private pragma(fr: Frame, name: Token, line: Token[], place: Token, before: number, eod: number): void {
    this.pragmaAct(fr, name, line, place, before, eod);
    // cpp reads the line's names as it acts (its warnings first); `GCC poison`'s own are not uses
    if (!(line[1]?.text === 'GCC' && line[2]?.text === 'poison')) this.poisonLine(line, 1);
  }

  private pragmaAct(fr: Frame, name: Token, line: Token[], place: Token, before: number, eod: number): void {
    const what = line[1];
    const kind = what?.kind === IDENT ? namedKind(PRAGMAS, what.text) : undefined;
    const pass = (tokens: readonly Token[]) => {
      if (this.text) this.pragmaLines.push({ text: pragmaSpelling(tokens), before, from: place.from, at: place.at });
    };
    switch (kind) {
      case 'once':
        if (fr.id === this.mainId) this.warn(what!, '#pragma once in main file');
        if (line.length > 2) this.warn(line[2]!, 'extra tokens at end of #pragma directive');
        this.once.add(fr.file);
        return;
      case 'push_macro':
      case 'pop_macro': {
        const arg = line[3];
        if (!arg || arg.kind !== STRING || line[2]?.text !== '(' || line[4]?.text !== ')') {
          this.warn(what!, `pragma ${what!.text} requires a parenthesized string`);
          return;
        }
        if (line.length > 5) this.warn(line[5]!, 'extra tokens at end of #pragma directive');
        // a string with an encoding prefix: GNU cpp 12 names the macro with the prefix dropped (L"P" is P), clang,
        // DXC's preprocessor, takes only a plain string literal (ParsePragmaPushOrPopMacro: err_pragma_push_pop_macro_malformed)
        if (arg.text.charCodeAt(0) !== 34) this.fail(arg, ENCODING_PREFIX);
        const macroName = arg.text.slice(1, -1).replace(/\\([\\"])/g, '$1');
        const stack = this.pushed.get(macroName) ?? [];
        // cpp looks the name up as an identifier once the line is read (_cpp_lex_identifier): a poisoned
        // one is an error at the line's end; pop_macro looks it up only when it finds it pushed
        if (this.poisoned.has(macroName) && (kind === 'push_macro' || stack.length > 0)) this.failAt(what!.file, eod, poisonedUse(macroName));
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
        // its operands macro-expanded, as cpp writes them out
        const operands = this.expand(line, false, false, [], 2, line.length, true);
        const text = operands.filter((t) => t.kind === STRING).map((t) => t.text.slice(1, -1)).join('');
        this.warn(what!, text);
        pass([what!, ...operands]);
        return;
      }
      case 'ignored':
        if (what!.text === 'GCC' && line[2]?.kind === IDENT && this.gccPragma(fr, name, line, place, eod)) return;
        pass(line.slice(1));
        return;
      default:
        this.warn(what ?? name, 'unknown pragma ignored');
        pass(line.slice(1));
    }
  }

  /** `#pragma GCC` lines cpp acts on and does not pass on (true): system_header, poison, warning, error, dependency. */
  private gccPragma(fr: Frame, name: Token, line: Token[], place: Token, eod: number): boolean {
    const sub = line[2]!;
    switch (sub.text) {
      case 'system_header':
        if (fr.id === this.mainId) this.warn(sub, '#pragma system_header ignored outside include file');
        else if (name.text !== '_Pragma') {
          // the rest of the file after this line (its warnings not given), and what it includes from here on
          fr.src.system = Math.min(fr.src.system, eod);
          fr.system = true;
        } else {
          // a _Pragma's: the rest of the file after it (cpp marks its line map), not what it includes after
          // (cpp sets that on the _Pragma's own buffer, gone when it has run)
          const src = this.sources[place.from]!;
          src.system = Math.min(src.system, place.at + 1);
        }
        return true;
      case 'poison':
        // each name poisoned in turn (a macro of that name undefined, as cpp); a token not a name is refused
        for (let k = 3; k < line.length; k++) {
          const n = line[k]!;
          if (n.kind !== IDENT) this.fail(n, 'invalid #pragma GCC poison directive');
          if (this.poisoned.has(n.text)) continue;
          if (this.macros.delete(n.text)) this.warn(n, `poisoning existing macro "${n.text}"`);
          this.poisoned.add(n.text);
        }
        return true;
      case 'dependency':
        return true;
      case 'warning':
      case 'error': {
        const arg = line[3];
        if (arg === undefined || arg.kind !== STRING) {
          const message = `invalid "#pragma GCC ${sub.text}" directive`;
          if (arg === undefined) this.failAt(sub.file, eod, message);
          this.fail(arg, message);
        }
        const text = arg.text.slice(arg.text.indexOf('"') + 1, -1);
        if (sub.text === 'error') this.fail(arg, text);
        this.warn(arg, text);
        return true;
      }
      default:
        return false;
    }
  }
}

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
