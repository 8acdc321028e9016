/**
 * Sources and the file stack (clang's SourceManager and its lexer stack): a file's text with its
 * line continuations spliced, mapped back to lines and columns; each reading's `#line` table
 * (clang's LineTableInfo) and the presumed location every message and marker uses; the frame of
 * each file being read, with its open conditionals and the state of the multiple-include
 * optimization.
 */
import type { SourceLocation } from '../text.js';
import type { Token } from './token.js';

/**
 * A `#line` note (clang's LineEntry): from index `at` of the spliced text on, physical line
 * `marker + 1` is presumed line `line` (and so on down the file), of the file named `name`.
 */
export interface LineNote {
  readonly at: number;
  readonly marker: number;
  readonly line: number;
  readonly name: string;
}

/**
 * One reading of a source file as the preprocessor reads it (the main file, each #include: a file
 * included twice is two readings sharing one text): line continuations spliced, lines indexed
 * once, its own `#line` notes.
 */
export class Source {
  /**
   * The file's text as the lexer reads it, of the length it was given: every lone CR a newline
   * (clang ends a line at `\r`, `\n` or `\r\n`) and a BOM at its start a space (clang skips it),
   * so an index means the same place in both.
   */
  readonly text: string;
  /** The text with line continuations removed (a backslash, blanks, a newline: clang splices them, with a warning for the blanks); `offset` maps its indices back to `text`. */
  readonly clean: string;
  private readonly spliceAt: Int32Array | null;
  private readonly dropped: Int32Array | null;
  private starts: Int32Array | null = null;
  /** The reading whose text this one shares (its line starts made once for both). */
  private readonly base: Source | undefined;
  /** This reading's `#line` notes, in the order of `at` (append-only: directives are read forward). */
  private readonly notes: LineNote[] = [];
  /**
   * Where this reading is a system header from (an index of `clean`; Infinity: nowhere): after its
   * `#pragma GCC system_header`, or all of it when a system header included it. Warnings there
   * are not given (cpp's and clang's rule), but for `#warning`.
   */
  system = Infinity;

  constructor(
    /** The path as found (the main file's as given; an include's as joined to its folder). */
    readonly name: string,
    /** The file's identity (its real path; the name for a text without a file). */
    readonly real: string,
    /** The file's text, or an earlier reading of the same file whose text this one shares. */
    text: string | Source,
  ) {
    if (typeof text !== 'string') {
      const base = text.base ?? text;
      this.base = base;
      this.text = base.text;
      this.clean = base.clean;
      this.spliceAt = base.spliceAt;
      this.dropped = base.dropped;
      return;
    }
    this.base = undefined;
    this.text = text = normalizeLineEnds(text);
    if (!/\\[ \t\f\v]*\r?\n/.test(text)) {
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
    const re = /\\[ \t\f\v]*\r?\n/g;
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

  /**
   * A buffer of text made by the preprocessor (a `_Pragma`'s destringized string), presumed to be
   * line `line` of `name` throughout: its columns count from its own start, as cpp locates the
   * tokens of such a buffer. It is no file (its `real` names none).
   */
  static buffer(text: string, name: string, line: number): Source {
    const src = new Source(name, '', text);
    src.notes.push({ at: 0, marker: 0, line, name });
    return src;
  }

  /** Offset in `text` of index `i` of `clean` (a binary search over the splices). */
  offset(i: number): number {
    const at = this.spliceAt;
    const c = Math.min(Math.max(i, 0), this.clean.length);
    if (at === null || c < at[0]!) return c;
    return c + this.dropped![lastAtMost(at, c)]!;
  }

  /** Offsets in `text` where its lines start (made once per file, shared by its readings). */
  lineStarts(): Int32Array {
    if (this.base !== undefined) return this.base.lineStarts();
    return (this.starts ??= lineStartsOf(this.text));
  }

  /** Physical line and column (1-based) of index `i` of `clean`: where it is in the file, whatever `#line` says. */
  locate(i: number): { line: number; column: number } {
    const at = this.offset(i);
    const starts = this.lineStarts();
    const line = lastAtMost(starts, at);
    return { line: line + 1, column: at - starts[line]! + 1 };
  }

  /**
   * A `#line N "name"` read at index `at` of `clean` (the place of its number, as clang's
   * AddLineNote): the physical line after it is presumed line `line`; `name` undefined keeps the
   * presumed name in force there. Notes come in the order of `at` (a directive after the last).
   */
  addLineNote(at: number, line: number, name: string | undefined): void {
    const last = this.notes[this.notes.length - 1];
    if (last !== undefined && at < last.at) throw new Error(`#line note at ${at} before the last one at ${last.at}`);
    this.notes.push({ at, marker: this.locate(at).line, line, name: name ?? last?.name ?? this.name });
  }

  /** This reading's `#line` notes, in order. */
  get lineNotes(): readonly LineNote[] {
    return this.notes;
  }

  /** Index into `lineNotes` of the note in force at index `i` of `clean` (-1: none; a binary search). */
  noteIndexAt(i: number): number {
    const notes = this.notes;
    let lo = 0;
    let hi = notes.length - 1;
    if (hi < 0 || notes[0]!.at > i) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (notes[mid]!.at <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * The presumed location of index `i` of `clean` (clang's getPresumedLoc): the file name and line
   * the last `#line` before it says, counted on from there; the column is the physical one. Every
   * message, marker, `__LINE__` and `__FILE__` is located through it.
   */
  presumed(i: number): SourceLocation {
    const { line, column } = this.locate(i);
    const k = this.noteIndexAt(i);
    if (k < 0) return { file: this.name, line, column };
    const note = this.notes[k]!;
    return { file: note.name, line: presumedLine(note, line), column };
  }
}

/** The presumed line of physical line `line` under `note` (unsigned 32-bit, as clang counts it). */
export function presumedLine(note: LineNote, line: number): number {
  return (note.line + line - note.marker - 1) >>> 0;
}

/** `text` with every lone CR a newline and a leading BOM a space (the same length: indices stay). */
function normalizeLineEnds(text: string): string {
  let t = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  if (t.includes('\r')) t = t.replace(/\r(?!\n)/g, '\n');
  return t;
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


export interface Cond {
  /** A group of this conditional was (or is being) taken, or the whole conditional is inside a skipped group. */
  taken: boolean;
  skipping: boolean;
  outerSkipping: boolean;
  elseSeen: boolean;
  at: Token;
}

export interface Frame {
  src: Source;
  /** This reading (index into `sources`: tokens and messages name it). */
  id: number;
  /** The file's first reading (what `#pragma once`, `#import` and guards are recorded by). */
  file: number;
  /** Where the next line starts in the source's spliced text. */
  pos: number;
  /** Reports an error at an index of this source (made once per inclusion). */
  fail: (pos: number, message: string) => never;
  conds: Cond[];
  /** Index of the -I folder the file was found in (-1: next to its includer, or the main file). */
  dir: number;
  /** The multiple-include optimization's state: nothing met yet, inside the guard, after its #endif, or not guarded. */
  guard: typeof GUARD_START | typeof GUARD_IN | typeof GUARD_AFTER | typeof GUARD_NONE;
  /** The guard's macro and the conditional it opened. */
  guardName?: string;
  guardCond?: Cond;
  /** An included file: a level of the budget's depth, left when the file ends. */
  nested: boolean;
  /** A `#pragma GCC system_header` was read in it (or it is included from such a file): what it includes is a system header too. */
  system: boolean;
}


/** The multiple-include optimization's states of a frame (clang's MultipleIncludeOpt). */
export const GUARD_START = 0;
export const GUARD_IN = 1;
export const GUARD_AFTER = 2;
export const GUARD_NONE = 3;
