/**
 * Macro expansion (clang's PPMacroExpansion and TokenLexer): object- and function-like macros
 * with `#`, `##` and `__VA_ARGS__`, the builtins, hide sets made once per run, rescanning and
 * argument pre-expansion on explicit stacks (no JS recursion per level of nesting).
 */
import { LimitError, WORK_KINDS } from '../../../bytes/budget.js';
import { Context } from './context.js';
import { lexOne } from './lexer.js';
import { quoteLiteral } from './literal.js';
import type { Macro } from './options.js';
import { TOKEN, type HideSet, type Token } from './token.js';

const { ident: IDENT, number: NUMBER, string: STRING, char: CHAR, punct: PUNCT, other: OTHER } = TOKEN;

const PLACEMARKER: Token = { kind: OTHER, text: '', file: 0, pos: 0, space: false, bol: false, hide: null, from: 0, at: 0, synthetic: true };

export class Expander extends Context {
  /** Hide sets made once per run: of one name, of a set and one more name, of two sets. */
  private readonly singleHide = new Map<string, HideSet>();
  private readonly hideWith = new WeakMap<HideSet, Map<string, HideSet>>();
  private readonly unions = new WeakMap<HideSet, Map<HideSet, HideSet>>();
  private readonly intersections = new WeakMap<HideSet, Map<HideSet, HideSet | null>>();
  /** Parameter indices of each function-like macro, made once per macro. */
  private readonly paramIndices = new WeakMap<Macro, Map<string, number>>();
  /** `__COUNTER__`'s next value. */
  private counter = 0;
  /**
   * Names under `#pragma GCC poison`: an identifier of the source read after it is an error (cpp's,
   * one Set lookup per identifier); a token a macro made (its body, written before) is not, a pasted one is.
   */
  protected readonly poisoned = new Set<string>();
  /** The `)` of a `_Pragma` operator a macro made, to the last token of the source read when it went out (notePragmaEnd). */
  protected readonly pragmaEnds = new WeakMap<Token, Token>();

  /** `now`: what `__DATE__` and `__TIME__` read. */
  constructor(private readonly now: Date) {
    super();
  }

  /**
   * Expands `input` onto `out`. Rescanning runs on an explicit work stack (an expansion is pushed
   * in front of the rest of the input); so does argument pre-expansion: a call whose replacement
   * needs an argument expanded waits on `calls` while the argument is expanded in a frame of its
   * own on `frames` (its tokens scanned again, charged as `scan`; each frame one level of the
   * budget's depth), then goes on where it stopped. No level of nesting is a JS call.
   * `inIf` evaluates `defined`. `source`: `input` is the source's tokens (not a macro's), each
   * identifier checked against the poisoned names as it is read, in cpp's order.
   */
  expand(input: readonly Token[], inIf: boolean, argument: boolean, out: Token[], from = 0, to = input.length, source = false): Token[] {
    if (argument) this.chargeScan(input, from, to);
    let top: Expansion = { c: new Cursor(input, from, to, source && this.poisoned.size > 0 ? this.poisonReader : undefined), out, inIf };
    // frames[j + 1] expands an argument of calls[j]; frames[0] is this call's input
    const frames: Expansion[] = [top];
    const calls: Call[] = [];
    try {
      for (;;) {
        const c = top.c;
        let waiting: Call | undefined;
        for (let t = c.next(); t !== undefined; t = c.next()) {
          if (t.kind !== IDENT) {
            // the `)` of a `_Pragma ( "..." )` a macro made: where cpp's lexer stands when it runs (its pragma's line)
            if (source && t.kind === PUNCT && t.text === ')' && top === frames[0]) this.notePragmaEnd(top.out, t, c);
            top.out.push(t);
            continue;
          }
          if (top.inIf && t.text === 'defined') {
            top.out.push(this.defined(t, c));
            continue;
          }
          const macro = this.macros.get(t.text);
          if (macro === undefined || (t.hide !== null && t.hide.has(t.text))) {
            top.out.push(t);
            continue;
          }
          if (macro.builtin) {
            const made = this.builtin(macro, t);
            this.charge('produce', made.text.length, t);
            top.out.push(made);
            continue;
          }
          // a token made by N nested expansions carries N names: the nesting, against the depth limit
          if (t.hide !== null) {
            const limit = this.budget.limit('depth');
            if (t.hide.size + this.budget.depth >= limit) throw this.limitAt(new LimitError('depth', limit, WORK_KINDS.depth.option, ''), t);
          }
          if (macro.params === undefined) {
            // no parameters: nothing to pre-expand, the replacement is made at once
            const call = newCall(macro, t, t, [], this.addHide(t.hide, macro.name, t), top.inIf);
            this.substitute(call);
            c.pushFront(call.res);
            continue;
          }
          const next = c.peek();
          if (!next || next.kind !== PUNCT || next.text !== '(') {
            top.out.push(t);
            continue;
          }
          const { args, close } = this.collectArguments(macro, t, c);
          const call = newCall(macro, t, close, args, this.addHide(this.intersect(t.hide, close.hide, t), macro.name, t), top.inIf);
          if (this.substitute(call) >= 0) {
            waiting = call;
            break;
          }
          c.pushFront(call.res);
        }
        if (waiting === undefined) {
          // this frame's input is done: the outermost returns; an argument's goes to the call waiting on it
          if (frames.length === 1) return out;
          frames.pop();
          this.leave();
          waiting = calls.pop()!;
          waiting.expanded[waiting.need] = top.out;
          top = frames[frames.length - 1]!;
          if (this.substitute(waiting) < 0) {
            top.c.pushFront(waiting.res);
            continue;
          }
        }
        // `waiting` needs argument `need` pre-expanded: one level deeper, its tokens scanned again
        this.enter(waiting.call);
        calls.push(waiting);
        const raw = waiting.args[waiting.need] ?? NO_TOKENS;
        top = { c: new Cursor(raw.src, raw.from, raw.to), out: [], inIf: waiting.inIf };
        frames.push(top);
        this.chargeScan(raw.src, raw.from, raw.to);
      }
    } finally {
      // a failure inside arguments: their levels go back to the budget
      for (let n = frames.length - 1; n > 0; n--) this.leave();
    }
  }

  /**
   * `t` (a `)` about to go out after `out`) ends a `_Pragma ( "..." )` operator a macro made: the
   * last token of the source read by then (the outermost call's `)`, or further on when a name at
   * the end of an expansion looked for its `(`) is noted as where its pragma stands. GNU cpp writes
   * the pragma at the line its lexer has reached (`highest_line`), not at the call's name.
   */
  private notePragmaEnd(out: readonly Token[], t: Token, c: Cursor): void {
    const n = out.length;
    if (n < 3 || out[n - 3]!.kind !== IDENT || out[n - 3]!.text !== '_Pragma') return;
    const reached = c.reached();
    if (reached !== undefined && reached !== t) this.pragmaEnds.set(t, reached);
  }

  /** An argument's tokens read again for its pre-expansion: charged as `scan`. */
  private chargeScan(input: readonly Token[], from: number, to: number): void {
    if (to <= from) return;
    let chars = 0;
    for (let k = from; k < to; k++) chars += input[k]!.text.length + 1;
    this.charge('scan', chars, input[from]);
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
    switch (macro.builtin) {
      // the presumed line and name where the token stands (a macro body's: its outermost call's name;
      // an argument's: its own line, pre-expanded as GCC does; clang says the line of the call's `)`)
      case 'line':
        return this.synthetic(String(this.location(t.from, t.at).line), NUMBER, t);
      case 'file':
        return this.synthetic(quoteLiteral(this.location(t.from, t.at).file), STRING, t);
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

  /**
   * The arguments of a call whose `(` is next in `c`, split at top-level commas (the variadic one
   * keeps its commas). Read straight from the cursor's input (nothing pushed in front of it), each
   * is a range of that input, not a copy: a nest of N calls holds N ranges, not N lists of N tokens.
   */
  private collectArguments(macro: Macro, name: Token, c: Cursor): { args: Arg[]; close: Token } {
    const params = macro.params!;
    c.next(); // (
    const src = c.plainInput();
    const args: Arg[] = [];
    // the argument being read: its tokens (not a range), or where its range starts, and whether it has any
    let list: Token[] = [];
    let start = c.at;
    let empty = true;
    let depth = 0;
    for (;;) {
      const t = c.next();
      if (t === undefined) this.fail(name, 'unterminated function-like macro invocation');
      if (t.kind === PUNCT) {
        if (t.text === '(') depth++;
        else if (t.text === ')') {
          if (depth === 0) {
            if (params.length === 0) {
              if (!empty) this.fail(name, 'too many arguments provided to function-like macro invocation');
              return { args: [], close: t };
            }
            args.push(src !== undefined ? { src, from: start, to: c.at - 1 } : { src: list, from: 0, to: list.length });
            if (args.length === params.length - 1 && macro.variadic) args.push(NO_TOKENS);
            if (args.length < params.length) this.fail(t, 'too few arguments provided to function-like macro invocation');
            return { args, close: t };
          }
          depth--;
        } else if (t.text === ',' && depth === 0 && !(macro.variadic && args.length + 1 === params.length)) {
          if (args.length + 1 >= params.length) this.fail(t, 'too many arguments provided to function-like macro invocation');
          args.push(src !== undefined ? { src, from: start, to: c.at - 1 } : { src: list, from: 0, to: list.length });
          list = [];
          start = c.at;
          empty = true;
          continue;
        }
      }
      empty = false;
      if (src === undefined) list.push(t);
    }
  }

  /** Argument `k` of a call as its tokens (a range copied once per call, when it is used as written: `#`, `##`). */
  private rawArgument(call: Call, k: number): Token[] {
    const a = call.args[k];
    if (a === undefined) return [];
    return (call.raw[k] ??= a.from === 0 && a.to === a.src.length ? (a.src as Token[]) : a.src.slice(a.from, a.to));
  }

  /**
   * The replacement of one call: parameters replaced, `#` and `##` applied, every token given the
   * call's place and `hide`; -1 when it is made (in `call.res`). A parameter whose argument is
   * still to be pre-expanded stops it: it returns the argument's index (also in `call.need`), and
   * the call goes on from that parameter once `call.expanded` holds the argument expanded. So the
   * arguments are expanded in the order of their first use outside `#` and `##`, each once.
   */
  private substitute(call: Call): number {
    const { macro, call: at, hide } = call;
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
        this.charge('produce', chars, at);
        const out: Token[] = [];
        for (let i = 0; i < body.length; i++) {
          const t = body[i]!;
          const h = t.hide !== null && t.hide !== hide ? this.union(t.hide, hide, at) : hide;
          out.push({ kind: t.kind, text: t.text, file: t.file, pos: t.pos, space: i === 0 ? at.space : t.space, bol: false, hide: h, from: at.from, at: at.at, synthetic: t.synthetic });
        }
        call.res = out;
        return -1;
      }
    }
    const index = (call.index ??= this.paramIndexOf(macro));
    const { expanded, rawChars, expandedChars, res } = call;
    for (let i = call.i; i < body.length; i++) {
      const b = body[i]!;
      if (params && b.kind === PUNCT && b.text === '#') {
        const k = paramAt(index, body[i + 1]);
        res.push(this.stringize(this.rawArgument(call, k), b));
        i++;
        continue;
      }
      if (isPaste(b)) {
        const rhsToken = body[i + 1]!;
        i++;
        const k = paramAt(index, rhsToken);
        let rhs: Token[];
        if (params && rhsToken.kind === PUNCT && rhsToken.text === '#' && paramAt(index, body[i + 1]) >= 0) {
          rhs = [this.stringize(this.rawArgument(call, paramAt(index, body[i + 1])), rhsToken)];
          i++;
        } else if (k >= 0) {
          rhs = this.rawArgument(call, k);
          this.charge('produce', (rawChars[k] ??= charsOf(rhs)), at);
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
        const pasted = (res[res.length - 1] = this.paste(lhs, rhs[0]!, b));
        // a name made by `##` is lexed again: poisoned, an error where cpp says it is (the start of
        // the line the call ends on, where cpp's lexer stands: its `)`, or an object-like macro's name)
        if (pasted.kind === IDENT && this.poisoned.has(pasted.text)) {
          const end = call.end;
          this.failAt(end.from, this.sources[end.from]!.clean.lastIndexOf('\n', end.at - 1) + 1, poisonedUse(pasted.text));
        }
        for (let r = 1; r < rhs.length; r++) res.push(rhs[r]!);
        continue;
      }
      const k = paramAt(index, b);
      if (k >= 0) {
        const beforePaste = body[i + 1] !== undefined && isPaste(body[i + 1]!);
        let list: Token[];
        if (beforePaste) {
          list = this.rawArgument(call, k);
          this.charge('produce', (rawChars[k] ??= charsOf(list)), at);
        } else {
          const e = expanded[k];
          if (e === undefined) {
            // first use of this argument outside # and ##: stop here until it is pre-expanded
            call.i = i;
            call.need = k;
            return k;
          }
          list = e;
          this.charge('produce', (expandedChars[k] ??= charsOf(list)), at);
        }
        if (list.length === 0) {
          if (beforePaste) res.push(PLACEMARKER);
          continue;
        }
        res.push({ ...list[0]!, space: b.space });
        for (let r = 1; r < list.length; r++) res.push(list[r]!);
        continue;
      }
      this.charge('produce', b.text.length + 1, at);
      res.push(b);
    }
    // every token takes the call's place and hide set; the first one the call's spacing
    const out: Token[] = [];
    for (const t of res) {
      if (t === PLACEMARKER) continue;
      const h = t.hide !== null && t.hide !== hide ? this.union(t.hide, hide, at) : hide;
      out.push({ kind: t.kind, text: t.text, file: t.file, pos: t.pos, space: out.length === 0 ? at.space : t.space, bol: false, hide: h, from: at.from, at: at.at, synthetic: t.synthetic });
    }
    call.res = out;
    return -1;
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

  /** A poisoned name among tokens `from` on of a directive's line (read by cpp's lexer, not expanded): an error at the first. */
  protected poisonLine(line: readonly Token[], from: number): void {
    if (this.poisoned.size === 0) return;
    for (let k = from; k < line.length; k++) this.poisonCheck(line[k]!);
  }

  /** poisonCheck for a cursor (made once). */
  private readonly poisonReader = { poisonCheck: (t: Token) => this.poisonCheck(t) };

  /** `t` a poisoned name: an error at it. */
  protected poisonCheck(t: Token): void {
    if (t.kind === IDENT && this.poisoned.has(t.text)) this.fail(t, poisonedUse(t.text));
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

/** The index of the parameter `t` names (-1 for none; an object-like macro has no `index`). */
function paramAt(index: Map<string, number> | undefined, t: Token | undefined): number {
  return index !== undefined && t !== undefined && t.kind === IDENT ? (index.get(t.text) ?? -1) : -1;
}

/** cpp's words for a poisoned name used. */
export const poisonedUse = (name: string) => `attempt to use poisoned "${name}"`;

export const isPaste = (t: Token) => t.kind === PUNCT && t.text === '##';

/** Characters of a token list as produced: each token's spelling and a space. */
export function charsOf(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) n += t.text.length + 1;
  return n;
}

/** One frame of `Expander.expand`'s stack: a cursor over its input and where its tokens go. */
interface Expansion {
  readonly c: Cursor;
  readonly out: Token[];
  readonly inIf: boolean;
}

/**
 * A macro call being replaced (`Expander.substitute`): its arguments, those pre-expanded so far,
 * the replacement made so far and where in the body it stopped.
 */
interface Call {
  readonly macro: Macro;
  /** The macro's name where it is called: the replacement's place and spacing, where its errors and charges stand. */
  readonly call: Token;
  /** Its last token: the `)` of a function-like macro's call, else the name. */
  readonly end: Token;
  readonly args: readonly Arg[];
  /** The arguments copied out of their ranges (rawArgument). */
  readonly raw: (Token[] | undefined)[];
  readonly hide: HideSet;
  readonly inIf: boolean;
  /** The macro's parameter indices (paramIndexOf), looked up once per call. */
  index?: Map<string, number>;
  /** The body index to go on from. */
  i: number;
  /** The argument to pre-expand when substitute stopped. */
  need: number;
  /** The replacement so far (placemarkers and all); once made, the replacement. */
  res: Token[];
  readonly expanded: (Token[] | undefined)[];
  /** Characters of each argument as given and as expanded, counted once per call. */
  readonly rawChars: number[];
  readonly expandedChars: number[];
}

function newCall(macro: Macro, call: Token, end: Token, args: readonly Arg[], hide: HideSet, inIf: boolean): Call {
  // no arguments (an object-like macro, `F()`): nothing is written per argument, one shared empty row
  if (args.length === 0) return { macro, call, end, args, raw: NO_ROW, hide, inIf, i: 0, need: -1, res: [], expanded: NO_ROW, rawChars: NO_ROW, expandedChars: NO_ROW };
  return { macro, call, end, args, raw: [], hide, inIf, i: 0, need: -1, res: [], expanded: [], rawChars: [], expandedChars: [] };
}

/** The per-argument rows of a call without arguments: never written (its body names no parameter). */
const NO_ROW: never[] = [];

/** A macro argument: tokens `from` to `to` of `src` (the input of the call's frame, or a list of its own). */
interface Arg {
  readonly src: readonly Token[];
  readonly from: number;
  readonly to: number;
}

const NO_TOKENS: Arg = { src: [], from: 0, to: 0 };

/** Tokens read in order from a range of an array, with expansions pushed in front of what is left (rescanning). */
class Cursor {
  private readonly work: Token[] = [];
  constructor(
    private readonly input: readonly Token[],
    private i: number,
    private readonly end: number,
    /** Checks each token read from `input` (the source's) for a poisoned name. */
    private readonly poison?: { poisonCheck(t: Token): void },
  ) {
    this.start = i;
    this.hi = i;
  }

  /** Where the range starts, and one past the furthest index of the input read or looked at. */
  private readonly start: number;
  private hi: number;

  next(): Token | undefined {
    if (this.work.length > 0) return this.work.pop();
    if (this.i >= this.end) return undefined;
    const t = this.input[this.i++]!;
    if (this.i > this.hi) this.hi = this.i;
    if (this.poison !== undefined) this.poison.poisonCheck(t);
    return t;
  }

  peek(): Token | undefined {
    if (this.work.length > 0) return this.work[this.work.length - 1];
    if (this.i >= this.end) return undefined;
    if (this.i + 1 > this.hi) this.hi = this.i + 1;
    return this.input[this.i];
  }

  /** The furthest token of the input read or looked at so far (undefined: none yet). */
  reached(): Token | undefined {
    return this.hi > this.start ? this.input[this.hi - 1] : undefined;
  }

  /** The input, when nothing is pushed in front of it (the tokens that follow are then its own, in order from `at`). */
  plainInput(): readonly Token[] | undefined {
    return this.work.length === 0 ? this.input : undefined;
  }

  /** The index in the input of the next token read from it. */
  get at(): number {
    return this.i;
  }

  pushFront(tokens: readonly Token[]): void {
    for (let k = tokens.length - 1; k >= 0; k--) this.work.push(tokens[k]!);
  }
}

/** Two definitions of a macro are the same (no redefinition warning): parameters and body spelled and spaced alike. */
export function sameMacro(a: Macro, b: Macro): boolean {
  if ((a.params === undefined) !== (b.params === undefined) || a.variadic !== b.variadic) return false;
  if (a.params && b.params && (a.params.length !== b.params.length || a.params.some((p, i) => p !== b.params![i]))) return false;
  if (a.body.length !== b.body.length) return false;
  return a.body.every((t, i) => t.text === b.body[i]!.text && (i === 0 || t.space === b.body[i]!.space));
}
