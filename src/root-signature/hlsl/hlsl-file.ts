/**
 * Finding a root signature in an HLSL file, as DXC does after preprocessing it
 * (docs/formats/hlsl-root-signature.md, docs/formats/hlsl-preprocessor.md): the expansion of a
 * macro at the end of the file (`-T rootsig_1_x -E NAME`, `-rootsig-define NAME`), or the argument
 * of the entry function's `[RootSignature(...)]` in the preprocessed text. The whole file goes
 * through the preprocessor (preprocessor/): conditionals choose the branch DXC would, and
 * `#include` is followed only in taken groups, through the include host given.
 */
import { DescriptionError, kindOf } from '../../bytes/errors.js';
import { expectArray, expectOptions, expectString } from '../../bytes/check.js';
import { expectHost, type HostFile, type IncludeHost } from './source.js';
import { Budget } from '../../bytes/budget.js';
import { HlslError, type RootSignatureText } from './text.js';
import { quoted, shortened } from '../../bytes/text.js';
import { TOKEN, preprocess, preprocessedText, tokensToText, type Preprocessed, type PreprocessOptions, type PreprocessorLimits, type PreprocessorWarning, type Token } from './preprocessor/index.js';

/** Limits of the work budget the preprocessor charges, and clang's include nesting (docs/limits.md). */
export type HlslFileLimits = PreprocessorLimits;

/** How an HlslFile is preprocessed: -D/-U in order, -I folders, the include host, the profile. */
export type HlslFileOptions = Omit<PreprocessOptions, 'limits'>;

/**
 * An HLSL file through DXC's preprocessor: its macros at the end, its preprocessed text and the
 * `[RootSignature(...)]` attributes of its functions. Preprocessing runs once, on first use.
 * The constructor throws DescriptionError bad-type when `text` is not a string.
 */
export class HlslFile {
  private result: Preprocessed | undefined;
  private macrosOnly: Preprocessed | undefined;
  private readonly read: string[] = [];
  private readonly options: PreprocessOptions;

  /**
   * @param text         the file's text (decodeHlslSource reads bytes as DXC does)
   * @param file         its path, for messages and `"name"` includes
   * @param extraDefines `-D NAME=VALUE` pairs, after `options.defines`
   * @param limits       work limits replacing the budget's defaults (docs/limits.md); `options.budget` to share one
   * @param options      -D/-U, -I, the include host and the profile
   */
  constructor(
    readonly text: string,
    readonly file: string,
    extraDefines: Record<string, string> = {},
    limits: HlslFileLimits = {},
    options: HlslFileOptions = {},
  ) {
    // the file's own words for its text argument (a test pins them), not expectString's
    if (typeof text !== 'string') throw new DescriptionError('bad-type', 'text', `expected the file's text, got ${kindOf(text)}`);
    expectOptions(extraDefines, 'extraDefines');
    expectOptions(limits, 'limits');
    expectOptions(options, 'options');
    checkOptions(options, limits);
    const defines: ['D' | 'U', string][] = [...(options.defines ?? [])].map(([k, v]) => [k, v]);
    for (const [name, value] of Object.entries(extraDefines)) defines.push(['D', `${name}=${value}`]);
    this.options = { ...options, ...(options.host ? { host: checkedHost(options.host, 'options.host') } : {}), defines, limits, onFile: (f) => this.read.push(f) };
  }

  /** The directives' outcome without the text (what a #define needs; the full result when there is one). */
  private macros(): Preprocessed {
    if (this.result !== undefined) return this.result;
    if (this.macrosOnly === undefined) {
      this.read.length = 0;
      this.macrosOnly = preprocess(this.file, this.text, { ...this.options, mode: 'macros' });
    }
    return this.macrosOnly;
  }

  /** The preprocessed file (runs the preprocessor on first use). @throws {HlslError} what the preprocessor refuses */
  preprocessed(): Preprocessed {
    if (this.result === undefined) {
      this.read.length = 0;
      this.result = preprocess(this.file, this.text, this.options);
    }
    return this.result;
  }

  /** Every file read, the main one first (the depfile's dependencies). */
  get files(): readonly string[] {
    return this.macros().files;
  }

  /** The files read so far, the main one first: also after preprocessing failed (what a watcher should watch). */
  get filesRead(): readonly string[] {
    return this.read;
  }

  /** `#warning`s, unknown pragmas and redefinitions met. */
  get warnings(): readonly PreprocessorWarning[] {
    return this.macros().warnings;
  }

  /** The preprocessed text, as `dxc -P` writes it. */
  preprocessedText(): string {
    // made once: its markers and line breaks are charged to the file's budget as they are written
    return (this.outputText ??= preprocessedText(this.preprocessed()));
  }
  private outputText: string | undefined;

  /**
   * The taken text of the whole file as root signature text (a file of root signature text, with its own directives).
   * @throws {HlslError} hlsl-preprocess, limit-exceeded (the work budget ran out: `limit` names the kind)
   */
  takenText(): RootSignatureText {
    const pp = this.preprocessed();
    return tokensToText(pp.output, pp.sources, this.file);
  }

  /**
   * The expansion of macro NAME as defined at the end of the file (`--define NAME`, `-T rootsig_1_x -E NAME`).
   * @throws {HlslError} hlsl-missing (no object-like macro NAME), hlsl-preprocess, limit-exceeded (the work budget ran out: `limit` names the kind)
   */
  defineText(name: string): RootSignatureText {
    const pp = this.macros();
    const macro = pp.macros.get(name);
    if (!macro || macro.params || macro.builtin) {
      throw new HlslError(`undeclared identifier ${name}`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
    }
    const at = macro.definedAt ?? { file: 0, pos: 0 };
    const call: Token = { kind: TOKEN.ident, text: name, file: at.file, pos: at.pos, space: false, bol: false, hide: null, from: at.file, at: at.pos, synthetic: false };
    return tokensToText(pp.expand([call]), pp.sources, this.file);
  }

  /**
   * The root signature of entry function ENTRY's `[RootSignature(...)]` attribute in the preprocessed
   * text, decided as DXC decides (the rules and their DXC sources: test/hlsl-entry.test.ts): only a
   * function at global scope is the entry (one in an `extern "C" { ... }` block is; a struct method,
   * a namespace member, a name qualified by a scope or a template is not; `::ENTRY` redeclares the
   * global one, after a declaration of it); its declarations must agree on their parameters (overloads are DXC's
   * "ambiguous entry point function"); it needs exactly one definition; the attribute is the last
   * one written on the last declaration up to the definition that has one (a later declaration's is
   * dropped, as DXC warns).
   * @throws {HlslError} hlsl-missing (no global function ENTRY, no definition, no attribute on it), hlsl-ambiguous (overloads, a redefinition, or a case where which attribute DXC uses cannot be told), hlsl-syntax (a `{` never closed, a `}` closing nothing, `::ENTRY` with no declaration before it), hlsl-preprocess, limit-exceeded (the work budget ran out: `limit` names the kind)
   */
  entryText(entry: string): RootSignatureText {
    // the name as messages show it: cut where its escaped text (HlslError escapes it) would pass
    // QUOTED_CHARS characters (a 10,000-character -E made a 10,000-character message, 64 ESC 384)
    const shown = typeof entry === 'string' ? shortened(entry) : entry;
    const pp = this.preprocessed();
    const out = pp.output;
    // the presumed place (what #line says), as every message
    const where = (i: number) => pp.sources[out[i]!.file]!.presumed(out[i]!.pos);
    const place = (i: number) => {
      const w = where(i);
      return `${w.file}:${w.line}:${w.column}`;
    };
    const scan = scanGlobalScope(out, entry);
    if ('refused' in scan) throw new HlslError(scan.refused, where(scan.at), 'hlsl-syntax');
    const { decls, others } = scan;
    const top = { file: this.file, line: 1, column: 1 };
    // `::main` redeclares the global function (clang: "extra qualification", a warning, DR482);
    // without a declaration before it, clang refuses it (a qualified name needs an earlier declaration)
    if (decls[0]?.qualified) {
      const q = decls[0];
      throw new HlslError(`out-of-line definition of '${entry}' does not match any declaration in the global namespace: '::${entry}' at ${place(q.name)} names the global function, which clang accepts only after an unqualified declaration of it`, where(q.name), 'hlsl-syntax');
    }
    if (decls.length === 0) {
      // a name no function has is a different mistake from a function without the attribute (DXC: "missing entry point definition")
      if (others.length > 0) {
        const o = others[0]!;
        throw new HlslError(`missing entry point definition: no global function '${shown}' in this file; the '${shown}' at ${place(o)} is not one (a struct method, a namespace member, a qualified or template declaration, or a call), and DXC takes only a global function as the entry`, where(o), 'hlsl-missing');
      }
      throw new HlslError(`missing entry point definition: no function '${shown}' in this file`, top, 'hlsl-missing');
    }
    // every declaration must be of one function: a different parameter list is an overload, which DXC refuses
    const first = decls[0]!;
    for (const d of decls) {
      if (d.key !== first.key) {
        throw new HlslError(`ambiguous entry point function '${shown}': the declarations at ${place(first.name)} and ${place(d.name)} have different parameter lists (overloads, which DXC refuses; dxbin compares how the types are spelled, so one type spelled two ways is refused too)`, where(d.name), 'hlsl-ambiguous');
      }
    }
    // equal parameters and another return type: clang's "functions that differ only in their return type cannot be overloaded"
    for (const d of decls) {
      if (d.ret !== first.ret) {
        throw new HlslError(`ambiguous entry point function '${shown}': the declarations at ${place(first.name)} and ${place(d.name)} differ only in their return type (${quoted(first.ret)} and ${quoted(d.ret)}), which clang refuses (dxbin compares how the types are spelled, so one type spelled two ways is refused too)`, where(d.name), 'hlsl-ambiguous');
      }
    }
    let def: EntryDeclaration | undefined;
    for (const d of decls) {
      if (d.body < 0) continue;
      if (def) throw new HlslError(`ambiguous entry point function '${shown}': redefinition of '${shown}' at ${place(d.name)} (first defined at ${place(def.name)})`, where(d.name), 'hlsl-ambiguous');
      def = d;
    }
    if (!def) throw new HlslError(`missing entry point definition: '${shown}' is declared at ${place(first.name)} but never defined`, where(first.name), 'hlsl-missing');
    // the attribute in force on the definition: a declaration's own last one, else the one it inherits
    let inForce = -1;
    let late = -1;
    for (const d of decls) {
      const own = d.rs.length > 0 ? d.rs[d.rs.length - 1]! : -1;
      if (d.name <= def.name) {
        if (own >= 0) inForce = own;
      } else if (late < 0) late = own;
    }
    // a use of the function before its definition, while another attribute was in force, may fix
    // which declaration DXC's code generation reads: refused rather than guessed
    let seen = 0;
    let current = -1;
    for (const u of others) {
      if (u >= def.name) break;
      while (seen < decls.length && decls[seen]!.name < u) {
        const d = decls[seen++]!;
        if (d.rs.length > 0) current = d.rs[d.rs.length - 1]!;
      }
      if (seen > 0 && current !== inForce) {
        throw new HlslError(`ambiguous entry point function '${shown}': it is used at ${place(u)} before its definition at ${place(def.name)}, while ${current < 0 ? 'no [RootSignature(...)]' : `the [RootSignature(...)] at ${place(current)}`} was in force; which attribute DXC then uses cannot be told`, where(u), 'hlsl-ambiguous');
      }
    }
    if (inForce < 0) {
      if (late >= 0) {
        throw new HlslError(`no [RootSignature(...)] attribute on entry function '${shown}': the one at ${place(late)} is on a declaration after the definition at ${place(def.name)}, which DXC drops (attribute declaration must precede definition)`, where(late), 'hlsl-missing');
      }
      throw new HlslError(`no [RootSignature(...)] attribute on entry function '${shown}'`, top, 'hlsl-missing');
    }
    return tokensToText(out.slice(inForce + 3, scan.parens[inForce + 2]!), pp.sources, this.file);
  }
}

/** A declaration of the entry's name at global scope: where its name is, its body, its attributes, its parameters. */
interface EntryDeclaration {
  /** Index of the name token. */
  readonly name: number;
  /** Index of the body's `{`, -1 for a prototype. */
  body: number;
  /** The `[` of each `[RootSignature(...)]` on the declaration, in source order. */
  readonly rs: readonly number[];
  /** The parameter list's types without names, semantics and defaults: equal for redeclarations. */
  readonly key: string;
  /** The return type as spelled, without storage and function specifiers: equal for redeclarations. */
  readonly ret: string;
  /** Named `::NAME` (the global qualifier): clang takes it only as a redeclaration of a function declared before. */
  readonly qualified: boolean;
}

type GlobalScan = { decls: EntryDeclaration[]; others: number[]; parens: Int32Array } | { refused: string; at: number };

/**
 * Words that never name a scope: `void ::main` is `void` and the global `::main` (a name such as
 * `S` or `uint` before `::` is parsed as the scope `S::`, as clang does).
 */
const NOT_A_SCOPE = new Set(['void', 'bool', 'int', 'unsigned', 'signed', 'float', 'double', 'short', 'long', 'const', 'volatile', 'static', 'inline', 'extern']);

const isIdent = (t: Token | undefined, word: string) => t !== undefined && t.kind === TOKEN.ident && t.text === word;

/** Punctuators a return type may hold (template arguments, qualified names). */
const TYPE_PUNCTUATORS = new Set(['<', '>', '>>', ',', '::', ':']);

/** Words that stand before a parameter's type, never as it: the identifier after one is the type, not a name. */
const PARAMETER_MODIFIERS = new Set([
  'in', 'out', 'inout', 'uniform', 'const', 'precise', 'static', 'volatile', 'groupshared', 'globallycoherent',
  'nointerpolation', 'linear', 'centroid', 'sample', 'noperspective', 'snorm', 'unorm', 'row_major', 'column_major',
  'point', 'line', 'triangle', 'lineadj', 'triangleadj', 'vertices', 'indices', 'primitives', 'payload',
  'unsigned', 'signed', 'long', 'short',
]);

const isPunct = (t: Token | undefined, p: string) => t !== undefined && t.kind === TOKEN.punct && t.text === p;

/** For each `(`, `[` and `{` token, the index of the token closing it (-1 if none); one pass, explicit stacks. */
function matchBrackets(out: readonly Token[]): { parens: Int32Array; brackets: Int32Array; braces: Int32Array } {
  const tables = [new Int32Array(out.length).fill(-1), new Int32Array(out.length).fill(-1), new Int32Array(out.length).fill(-1)] as const;
  const open: [number[], number[], number[]] = [[], [], []];
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (t.kind !== TOKEN.punct || t.text.length !== 1) continue;
    const o = '([{'.indexOf(t.text);
    if (o >= 0) open[o]!.push(i);
    else {
      const c = ')]}'.indexOf(t.text);
      if (c >= 0 && open[c]!.length > 0) tables[c]![open[c]!.pop()!] = i;
    }
  }
  return { parens: tables[0], brackets: tables[1], braces: tables[2] };
}

/** `out[i..]` is `[RootSignature(...)]`: its `(` matched and the `]` right after the `)`. */
function isRootSignature(out: readonly Token[], i: number, parens: Int32Array, brackets: Int32Array): boolean {
  return out[i + 1]?.kind === TOKEN.ident && out[i + 1]!.text === 'RootSignature' && isPunct(out[i + 2], '(') && parens[i + 2]! >= 0 && parens[i + 2]! + 1 === brackets[i]!;
}

/**
 * One pass over the declarations at global scope (DXC looks the entry up there only: clang's
 * IdResolver at the end of the translation unit), jumping over every `{...}` group (function
 * bodies, structs, namespaces, initializers) through the matched braces: no recursion, no scan
 * over what was found inside the loop. Returns the global declarations of functions named `entry`
 * and every other `entry(` (nested, qualified, template, or a use), or the first brace that
 * matches nothing (DXC's parser refuses the file).
 */
function scanGlobalScope(out: readonly Token[], entry: string): GlobalScan {
  const n = out.length;
  const { parens, brackets, braces } = matchBrackets(out);
  const decls: EntryDeclaration[] = [];
  // the `}` of each `extern "C" {` block open here: its declarations are at global scope (clang's
  // LinkageSpecDecl is a transparent context: their names are the translation unit's)
  const linkageEnds: number[] = [];
  let i = 0;
  declarations: while (i < n) {
    if (linkageEnds.length > 0 && i === linkageEnds[linkageEnds.length - 1]) {
      linkageEnds.pop();
      i++;
      continue;
    }
    // the declaration's attributes (each applies to every declarator of the declaration)
    const rs: number[] = [];
    for (;;) {
      while (i < n && isPunct(out[i], '[') && brackets[i]! >= 0) {
        if (isRootSignature(out, i, parens, brackets)) rs.push(i);
        i = brackets[i]! + 1;
      }
      // `extern "C"` (any language string): a linkage specification, a block or one declaration.
      // Upstream clang makes its declarations global (a transparent context); whether DXC's HLSL
      // parser takes one, and whether its entry test looks through it, is not read from DXC's
      // sources: refused rather than guessed (an HLSL file has no use for C linkage)
      if (!isIdent(out[i], 'extern') || out[i + 1]?.kind !== TOKEN.string) break;
      return { refused: 'a linkage specification (extern "..."): whether DXC takes one, and where its declarations belong, is not decided; dxbin refuses it rather than guess', at: i };
      if (isPunct(out[i + 2], '{')) {
        if (braces[i + 2]! < 0) return { refused: "expected '}': this '{' is never closed", at: i + 2 };
        linkageEnds.push(braces[i + 2]!);
        i += 3;
        continue declarations;
      }
      i += 2;
    }
    const start = i;
    let head = i;
    // the end of the declaration's specifiers (its type): the first declarator's name
    let specEnd = -1;
    for (;;) {
      // a declarator's head: type tokens, then the name and `(` for a function
      let k = head;
      while (k < n) {
        const t = out[k]!;
        const typeToken = t.kind === TOKEN.ident || (k > head && (t.kind === TOKEN.number || (t.kind === TOKEN.punct && TYPE_PUNCTUATORS.has(t.text))));
        if (!typeToken) break;
        k++;
      }
      if (specEnd < 0) specEnd = k - 1;
      let fn: EntryDeclaration | undefined;
      if (k < n && isPunct(out[k], '(') && k > head && out[k - 1]!.kind === TOKEN.ident) {
        // an unclosed parameter list: the declaration is broken; read on from the next token
        if (parens[k]! < 0) {
          i = k + 1;
          continue declarations;
        }
        const name = k - 1;
        const qualified = name - 1 >= head && isPunct(out[name - 1], '::');
        // `void ::main`: the global qualifier alone, after a word that names no scope
        const global = qualified && name - 2 >= head && out[name - 2]!.kind === TOKEN.ident && NOT_A_SCOPE.has(out[name - 2]!.text);
        const template = out[start]!.kind === TOKEN.ident && out[start]!.text === 'template';
        if (out[name]!.text === entry && (!qualified || global) && !template) {
          fn = { name, body: -1, rs, key: parameterKey(out, k, parens[k]!, parens, brackets), ret: returnKey(out, start, head === start ? name - (qualified ? 1 : 0) : specEnd), qualified: global };
          decls.push(fn);
        }
        k = parens[k]! + 1;
      }
      // the rest of the declarator: to `,` (another declarator), `;` or a `{...}` group (the end)
      let j = k;
      for (; j < n; j++) {
        const t = out[j]!;
        if (t.kind !== TOKEN.punct || t.text.length !== 1) continue;
        if (t.text === ';') {
          i = j + 1;
          continue declarations;
        }
        if (t.text === ',') break;
        if (t.text === '{') {
          if (braces[j]! < 0) return { refused: "expected '}': this '{' is never closed", at: j };
          if (fn) fn.body = j;
          i = braces[j]! + 1;
          continue declarations;
        }
        // a `}` met at global scope closes no `{` of this scope
        if (t.text === '}') return { refused: "extraneous closing brace ('}')", at: j };
        if (t.text === '(' || t.text === '[') {
          const m = (t.text === '(' ? parens : brackets)[j]!;
          // an unclosed group: the declaration is broken; read on from the next token
          if (m < 0) {
            i = j + 1;
            continue declarations;
          }
          j = m;
        }
      }
      if (j >= n) break declarations;
      head = j + 1;
    }
  }
  // every other `entry(` in the file, in order (one pass beside the declarations, which are in order too)
  const others: number[] = [];
  let d = 0;
  for (let k = 0; k + 1 < n; k++) {
    if (out[k]!.kind !== TOKEN.ident || out[k]!.text !== entry || !isPunct(out[k + 1], '(')) continue;
    if (d < decls.length && decls[d]!.name === k) d++;
    else others.push(k);
  }
  return { decls, others, parens };
}

/** Specifiers that say how a function is stored or inlined, not what it returns. */
const NOT_THE_RETURN_TYPE = new Set(['static', 'inline', 'extern', 'export']);

/** The depth of template arguments after the punctuator `p`, at `angle` before it (`>>` closes two). */
function angleDepth(p: string, angle: number): number {
  if (p === '<') return angle + 1;
  if (p === '>') return Math.max(0, angle - 1);
  if (p === '>>') return Math.max(0, angle - 2);
  return angle;
}

/**
 * The return type `out[start..end)` as spelled, storage and function specifiers left out. The
 * head scan reads `float x, main` as one run of type tokens: a `,` outside template arguments ends
 * the first declarator, whose last word is its name, and what is before it is the type.
 */
function returnKey(out: readonly Token[], start: number, end: number): string {
  const words: string[] = [];
  let angle = 0;
  for (let k = start; k < end; k++) {
    const t = out[k]!;
    if (t.kind === TOKEN.punct) {
      if (t.text === ',' && angle === 0) {
        words.pop();
        break;
      }
      angle = angleDepth(t.text, angle);
    }
    if (!(t.kind === TOKEN.ident && NOT_THE_RETURN_TYPE.has(t.text))) words.push(t.text);
  }
  return words.join(' ');
}

/**
 * A parameter list `out[open..close]` as the types it declares: each parameter's tokens without
 * its name, semantic (`: SV_Target`) and default (`= 1`), `(void)` as `()`. Two declarations of
 * one function have equal keys; different keys are overloads, or one type spelled two ways.
 */
function parameterKey(out: readonly Token[], open: number, close: number, parens: Int32Array, brackets: Int32Array): string {
  const params: string[] = [];
  let words: { text: string; ident: boolean; dims: boolean }[] = [];
  let skipping = false;
  let angle = 0;
  const finish = () => {
    // trailing array dimensions belong to the type; the identifier before them is the name when a type precedes it
    let end = words.length;
    while (end > 0 && words[end - 1]!.dims) end--;
    const last = words[end - 1];
    const before = words[end - 2];
    const named = last !== undefined && last.ident && before !== undefined && ((before.ident && !PARAMETER_MODIFIERS.has(before.text)) || before.text === '>' || before.text === '>>');
    params.push(words.filter((_, w) => !(named && w === end - 1)).map((w) => w.text).join(' '));
    words = [];
    skipping = false;
    angle = 0;
  };
  for (let k = open + 1; k < close; k++) {
    const t = out[k]!;
    const punct = t.kind === TOKEN.punct;
    if (punct && (t.text === '(' || t.text === '[')) {
      const m = (t.text === '(' ? parens : brackets)[k]!;
      if (m > k && m < close) {
        if (!skipping) words.push({ text: out.slice(k, m + 1).map((x) => x.text).join(' '), ident: false, dims: t.text === '[' });
        k = m;
        continue;
      }
    }
    if (punct && t.text === ',' && (angle === 0 || skipping)) {
      finish();
      continue;
    }
    if (skipping) continue;
    if (punct && angle === 0 && (t.text === ':' || t.text === '=')) {
      skipping = true;
      continue;
    }
    if (punct) angle = angleDepth(t.text, angle);
    words.push({ text: t.text, ident: t.kind === TOKEN.ident, dims: false });
  }
  if (words.length > 0 || params.length > 0) finish();
  return params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
}

/**
 * The host with every answer checked: a wrong-shaped answer (a number for bytes, a stat without
 * its real path) is a DescriptionError naming the member, never a TypeError inside the
 * preprocessor. Members the wrapper does not know are the host's own (through the prototype).
 */
function checkedHost(host: IncludeHost, path: string): IncludeHost {
  const answer = (member: string, what: string, got: unknown): never => {
    throw new DescriptionError('bad-type', `${path}.${member}()`, `the include host answered ${kindOf(got)}; expected ${what}`);
  };
  const text = (member: 'dirname' | 'join', v: unknown): string => (typeof v === 'string' ? v : answer(member, 'a string', v));
  const w = Object.create(host) as IncludeHost;
  w.dirname = (p) => text('dirname', host.dirname(p));
  w.join = (dir, name) => text('join', host.join(dir, name));
  w.isAbsolute = (p) => {
    const v: unknown = host.isAbsolute(p);
    return typeof v === 'boolean' ? v : answer('isAbsolute', 'a boolean', v);
  };
  w.stat = (p) => {
    const v: unknown = host.stat(p);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object') return answer('stat', 'undefined or { real, size, regular }', v);
    const st = v as Record<string, unknown>;
    if (typeof st.real !== 'string') answer('stat', 'a string real path in .real', st.real);
    if (typeof st.size !== 'number' || !(st.size >= 0)) answer('stat', 'a size of 0 or more in .size', st.size);
    if (typeof st.regular !== 'boolean') answer('stat', 'a boolean in .regular', st.regular);
    return v as HostFile;
  };
  w.read = (real, max) => {
    const v: unknown = host.read(real, max);
    return v instanceof Uint8Array ? v : answer('read', 'a Uint8Array', v);
  };
  return w;
}

/** The options' members, checked once here (the preprocessor takes them as checked). */
function checkOptions(options: HlslFileOptions, limits: HlslFileLimits): void {
  if (options.defines !== undefined) {
    expectArray(options.defines, 'options.defines');
    options.defines.forEach((d, i) => {
      if (!Array.isArray(d) || (d[0] !== 'D' && d[0] !== 'U') || typeof d[1] !== 'string') throw new DescriptionError('bad-type', `options.defines[${i}]`, "expected ['D', 'NAME=VALUE'] or ['U', 'NAME']");
    });
  }
  if (options.includeDirs !== undefined) {
    expectArray(options.includeDirs, 'options.includeDirs');
    options.includeDirs.forEach((d, i) => expectString(d, `options.includeDirs[${i}]`));
  }
  expectHost(options.host, 'options.host');
  if (options.profile !== undefined) expectString(options.profile, 'options.profile');
  if (options.budget !== undefined && !(options.budget instanceof Budget)) throw new DescriptionError('bad-type', 'options.budget', `expected a Budget (Budget.for(inputBytes, limits)), got ${kindOf(options.budget)}`);
  if (options.now !== undefined && !(options.now instanceof Date)) throw new DescriptionError('bad-type', 'options.now', `expected a Date, got ${kindOf(options.now)}`);
  for (const [k, v] of Object.entries(limits)) {
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0))) throw new DescriptionError('bad-type', `limits.${k}`, `expected a number of 0 or more, got ${kindOf(v)}`);
  }
}
