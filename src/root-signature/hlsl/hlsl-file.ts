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
    return preprocessedText(this.preprocessed());
  }

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
   * The root signature of entry function ENTRY's `[RootSignature(...)]` attribute in the preprocessed text.
   * @throws {HlslError} hlsl-missing (no such attribute on ENTRY), hlsl-preprocess, limit-exceeded (the work budget ran out: `limit` names the kind)
   */
  entryText(entry: string): RootSignatureText {
    const pp = this.preprocessed();
    const out = pp.output;
    const { parens, brackets } = matchBrackets(out);
    const memo = new Map<number, string | undefined>();
    let found: { at: number; end: number } | undefined;
    // the presumed place (what #line says), as every message
    const where = (i: number) => pp.sources[out[i]!.file]!.presumed(out[i]!.pos);
    for (let i = 0; i + 2 < out.length; i++) {
      if (!isPunct(out[i], '[') || out[i + 1]!.kind !== TOKEN.ident || out[i + 1]!.text !== 'RootSignature' || !isPunct(out[i + 2], '(')) continue;
      const argEnd = parens[i + 2]!;
      if (argEnd < 0 || !isPunct(out[argEnd + 1], ']')) continue;
      if (declaredFunction(out, argEnd + 2, brackets, memo) !== entry) continue;
      if (found) {
        // two functions named `entry` with a root signature: DXC's "ambiguous entry point function"; never pick one
        const a = where(found.at);
        const b = where(i);
        throw new HlslError(`ambiguous entry point function '${entry}': [RootSignature(...)] at ${a.file}:${a.line}:${a.column} and at ${b.file}:${b.line}:${b.column}`, b, 'hlsl-ambiguous');
      }
      found = { at: i, end: argEnd };
    }
    if (found) return tokensToText(out.slice(found.at + 3, found.end), pp.sources, this.file);
    // a name no function has is a different mistake from a function without the attribute (DXC: "missing entry point definition")
    let declared = false;
    for (let i = 0; i + 1 < out.length && !declared; i++) declared = out[i]!.kind === TOKEN.ident && out[i]!.text === entry && isPunct(out[i + 1], '(');
    if (!declared) throw new HlslError(`missing entry point definition: no function '${entry}' in this file`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
    throw new HlslError(`no [RootSignature(...)] attribute on entry function '${entry}'`, { file: this.file, line: 1, column: 1 }, 'hlsl-missing');
  }
}

/** Punctuators a return type may hold (template arguments, qualified names). */
const TYPE_PUNCTUATORS = new Set(['<', '>', '>>', ',', '::', ':']);

const isPunct = (t: Token | undefined, p: string) => t !== undefined && t.kind === TOKEN.punct && t.text === p;

/** For each `(` and `[` token, the index of the token closing it (-1 if none); one pass. */
function matchBrackets(out: readonly Token[]): { parens: Int32Array; brackets: Int32Array } {
  const parens = new Int32Array(out.length).fill(-1);
  const brackets = new Int32Array(out.length).fill(-1);
  const openParens: number[] = [];
  const openBrackets: number[] = [];
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (t.kind !== TOKEN.punct) continue;
    if (t.text === '(') openParens.push(i);
    else if (t.text === ')' && openParens.length > 0) parens[openParens.pop()!] = i;
    else if (t.text === '[') openBrackets.push(i);
    else if (t.text === ']' && openBrackets.length > 0) brackets[openBrackets.pop()!] = i;
  }
  return { parens, brackets };
}

/**
 * The name of the function declared at `out[from..]` after any further [attributes]: the
 * identifier before the first `(` (none when `;`, `{`, `}` or `=` comes first). Attributes in a row
 * share their answer through `memo`, so many of them cost linear time.
 */
function declaredFunction(out: readonly Token[], from: number, brackets: Int32Array, memo: Map<number, string | undefined>): string | undefined {
  const visited: number[] = [];
  let i = from;
  while (isPunct(out[i], '[') && brackets[i]! >= 0) {
    if (memo.has(i)) break;
    visited.push(i);
    i = brackets[i]! + 1;
  }
  let name: string | undefined;
  if (memo.has(i)) name = memo.get(i);
  else {
    // a return type (identifiers, template arguments, `::`) then the name and `(`
    for (let k = i; k < out.length; k++) {
      const t = out[k]!;
      if (isPunct(t, '(')) {
        const before = out[k - 1];
        name = k > i && before!.kind === TOKEN.ident ? before!.text : undefined;
        break;
      }
      const typeToken = t.kind === TOKEN.ident || (k > i && (t.kind === TOKEN.number || (t.kind === TOKEN.punct && TYPE_PUNCTUATORS.has(t.text))));
      if (!typeToken) break;
    }
    memo.set(i, name);
  }
  for (const v of visited) memo.set(v, name);
  return name;
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
