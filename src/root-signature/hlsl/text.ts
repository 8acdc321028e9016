/** Root signature text with the place each character came from, for line:column in messages. */
import { DxbinError, type HlslErrorCode } from '../../bytes/errors.js';
import type { LimitError } from '../../bytes/budget.js';
import { printable } from '../../bytes/text.js';

/** A place in a file: name, line and column (1-based). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** Where each character of a text came from (text made by the preprocessor from several files). */
export interface CharLocator {
  /** The line and column of a character index. */
  locate(index: number): SourceLocation;
}

/** Root signature text with the place each character came from, for file:line:column in messages. */
export class RootSignatureText {
  /**
   * @param text    the root signature string the parser reads
   * @param file    name for messages (`<string>` for a command-line string)
   * @param origin  text the offsets refer to (the file), defaults to `text`
   * @param offsets per character of `text`, its offset in `origin` (defaults to the identity)
   */
  constructor(
    readonly text: string,
    readonly file = '<string>',
    private readonly origin: string | CharLocator = text,
    private readonly offsets?: readonly number[],
  ) {}

  /** File, line and column of character `index` of the text. */
  locate(index: number): SourceLocation {
    if (typeof this.origin !== 'string') return this.origin.locate(index);
    const at =
      this.offsets === undefined
        ? Math.min(index, this.origin.length)
        : index < this.offsets.length
          ? this.offsets[index]!
          : this.offsets.length > 0
            ? this.offsets[this.offsets.length - 1]! + 1
            : 0;
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.origin.length; i++) {
      if (this.origin[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return { file: this.file, line, column: at - lineStart + 1 };
  }
}

/** A root signature the language rejects: message in DXC's words, with where it happened. */
export class HlslError extends DxbinError<HlslErrorCode> {
  /**
   * @param detail   DXC's words for the problem
   * @param location where in the file (the error's `path` is `file:line:column`)
   * @param limit    for `limit-exceeded`: the work budget's error (its kind, limit and option)
   */
  constructor(
    detail: string,
    readonly location: SourceLocation,
    code: HlslErrorCode = 'hlsl-syntax',
    readonly limit?: LimitError,
  ) {
    // an error's constructor never throws: a location that is not an object reads as `?:0:0`
    const loc: Partial<SourceLocation> = typeof location === 'object' && location !== null ? location : {};
    const at = `${printable(String(loc.file ?? '?'))}:${loc.line ?? 0}:${loc.column ?? 0}`;
    // the one text boundary for the language's messages: a token, #error text or file name from the
    // source (a newline, an ESC) is escaped here, so every message is one printable line (a tab, as
    // in DXC's "found: '<tab>'", stays: it starts no line)
    const words = String(detail).split('\t').map((part) => printable(part)).join('\t');
    super(code, at, words, `${at}: error: ${hlslMessage(code, words)}`);
    if (limit !== undefined) this.cause = limit;
  }
}

/** An HlslError's words after `error:`: the preprocessor's (and its budgets') as clang says them, the reader's after DXC's "root signature error -". */
export function hlslMessage(code: HlslErrorCode, detail: string): string {
  return code === 'hlsl-preprocess' || code === 'limit-exceeded' || code === 'hlsl-ambiguous' ? detail : `root signature error - ${detail}`;
}
