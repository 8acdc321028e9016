/**
 * What a caller gives the preprocessor and what it gets back: the options (command line, include
 * host, limits, budget), the macro and warning records, the result.
 */
import type { Budget, WorkLimits } from '../../../bytes/budget.js';
import type { IncludeHost } from '../source.js';
import type { SourceLocation } from '../text.js';
import type { Source } from './source.js';
import type { Token } from './token.js';

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

/**
 * A pragma the preprocessed text passes on as GNU cpp does (`#pragma` lines cpp does not act on,
 * and `_Pragma("...")` operators): its line as written out, and where it goes.
 */
export interface PragmaLine {
  /** The line, `#pragma ` and its tokens as cpp spells them (single spaces; never a line break). */
  readonly text: string;
  /** The number of output tokens before it. */
  readonly before: number;
  /** Its place as an output token's (`from`, `at`): the directive's `#`, or the outermost macro call that made the `_Pragma`. */
  readonly from: number;
  readonly at: number;
}

/** What preprocessing gives: the tokens of the taken text, the macros at the end, the files read and the warnings. */
export interface Preprocessed {
  readonly output: readonly Token[];
  /** The pragmas the preprocessed text passes on, in output order. */
  readonly pragmas: readonly PragmaLine[];
  readonly macros: ReadonlyMap<string, Macro>;
  /** Every file read, the main one first, each once, as found (the depfile's list). */
  readonly files: readonly string[];
  readonly warnings: readonly PreprocessorWarning[];
  /** One per reading of a file (a token's `file` and `from` index it): a file included twice is two, sharing its text, each with its own `#line` notes; and one slot for the buffer of the `_Pragma` being run, its string destringized (Source.buffer: the last one run stays). */
  readonly sources: readonly Source[];
  /** Charges the run's budget (the preprocessed text's `#line` markers, line breaks and pragma lines are `produce`, as the tokens were). @throws {HlslError} limit-exceeded at `t` */
  charge(kind: 'produce', n: number, t: Token | undefined): void;
  /** Expands tokens with the macros as they stand at the end of the file (the budget still holds). */
  expand(tokens: readonly Token[]): Token[];
}
