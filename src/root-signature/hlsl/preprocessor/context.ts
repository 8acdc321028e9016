/**
 * What every stage of the preprocessor shares (clang's Preprocessor object): the macros, the
 * sources and the file stack, the warnings, and the work budget with errors located at
 * file:line:column. Macro expansion (macros.ts) and the directives (directives.ts) extend it.
 */
import { LimitError, type Budget, type WorkKind } from '../../../bytes/budget.js';
import { HlslError, type SourceLocation } from '../text.js';
import { printable } from '../../../bytes/text.js';
import type { Macro, PreprocessorWarning } from './options.js';
import type { Frame, Source } from './source.js';
import type { Token } from './token.js';

export class Context {
  readonly macros = new Map<string, Macro>();
  readonly sources: Source[] = [];
  protected readonly warnings: PreprocessorWarning[] = [];
  protected readonly frames: Frame[] = [];
  protected budget!: Budget;

  /** The presumed location (what `#line` says) of index `pos` of reading `file`'s spliced text. */
  location(file: number, pos: number): SourceLocation {
    return this.sources[file]!.presumed(pos);
  }

  protected failAt(file: number, pos: number, message: string): never {
    throw new HlslError(message, this.location(file, pos), 'hlsl-preprocess');
  }

  /** Fails at where `t` is spelled (inside a macro's body for a token of its expansion, as clang's primary location). */
  protected fail(t: Token, message: string): never {
    this.failAt(t.file, t.pos, message);
  }

  protected warn(t: Token, message: string): void {
    this.warnAt(t.file, t.pos, message);
  }

  /**
   * A warning at index `pos` of reading `file` (every warning comes through here); none in a
   * system header's part (after `#pragma GCC system_header`, Source.system) unless `inSystem`
   * (`#warning`: cpp and clang give it there too).
   */
  warnAt(file: number, pos: number, message: string, inSystem = false): void {
    if (!inSystem && this.sources[file]!.system <= pos) return;
    // #warning and #pragma message text is the source's: escaped (src/bytes/text.ts), one printable line
    this.warnings.push({ message: printable(message), location: this.location(file, pos) });
  }

  /** Where the work is now: at `t`, else where the innermost file is being read. */
  protected here(t: Token | undefined): SourceLocation {
    if (t) return this.location(t.file, t.pos);
    const fr = this.frames[this.frames.length - 1];
    if (fr) return this.location(fr.id, Math.min(fr.pos, fr.src.clean.length));
    return { file: this.sources[0]?.name ?? '?', line: 1, column: 1 };
  }

  /** The budget's LimitError as an HlslError `limit-exceeded` at file:line:column (the LimitError its `limit`). */
  protected limitAt(e: LimitError, t: Token | undefined): HlslError {
    const at = this.here(t);
    const limit = new LimitError(e.kind, e.limit, e.option, `${at.file}:${at.line}:${at.column}`, e.offset);
    return new HlslError(limit.detail, at, 'limit-exceeded', limit);
  }

  /** Charges `n` units of `kind` to the budget; past its limit, an HlslError `limit-exceeded` at `t` (or where reading stands). */
  protected charge(kind: WorkKind, n: number, t?: Token): void {
    try {
      this.budget.charge(kind, n, '');
    } catch (e) {
      throw e instanceof LimitError ? this.limitAt(e, t) : e;
    }
  }

  /** One level of nesting deeper (pair with `leave`). */
  protected enter(t: Token | undefined): void {
    try {
      this.budget.enter('');
    } catch (e) {
      throw e instanceof LimitError ? this.limitAt(e, t) : e;
    }
  }

  protected leave(): void {
    this.budget.leave();
  }
}
