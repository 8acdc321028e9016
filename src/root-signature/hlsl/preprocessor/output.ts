/**
 * What the rest of dxbin reads from a preprocessing (clang's PrintPreprocessedOutput and the
 * root signature reader's view of tokens): root signature text with every character located, and
 * the preprocessed text as `dxc -P` writes it.
 */
import { HlslError, RootSignatureText, type SourceLocation } from '../text.js';
import { literalValue, quoteLiteral } from './literal.js';
import { PUNCT_BY_FIRST } from './lexer.js';
import type { Preprocessed } from './options.js';
import { presumedLine, type Source } from './source.js';
import { TOKEN, type Token } from './token.js';

const { ident: IDENT, number: NUMBER, string: STRING, char: CHAR, punct: PUNCT } = TOKEN;

/**
 * Where the warnings of each preprocessing go, by the `sources` list it gave (what tokensToText is
 * handed): an escape C does not have in a string of the root signature text warns as the
 * preprocessor's own warnings do, into the same list, once per place.
 */
export const warningRoutes = new WeakMap<readonly Source[], (file: number, pos: number, message: string) => void>();

/** A token's characters as they stand in its file: offsets into `clean` (the token's own place for every character of a made one). */
function charPositions(t: Token): (k: number) => number {
  return t.synthetic ? () => t.pos : (k) => t.pos + k;
}

/**
 * Root signature text from tokens as DXC's root signature reader takes them: string literals
 * without their quotes (adjacent ones concatenate), other tokens by spelling, one space before a
 * token that had whitespace before it except right after a string literal. Every character keeps
 * the file, line and column it came from. An unknown escape in a literal warns (clang's "unknown
 * escape sequence", at its backslash) into the preprocessing's warnings (warningRoutes).
 */
export function tokensToText(tokens: readonly Token[], sources: readonly Source[], name: string): RootSignatureText {
  const warn = warningRoutes.get(sources);
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
      // the literal's value as clang reads its escapes (`\x30`, `\060`, `\u0030`, `\a`): each character placed at its escape
      literalValue(
        t.text,
        (c, k) => {
          for (let u = 0; u < c.length; u++) {
            text += c[u];
            files.push(t.file);
            offs.push(at(k));
          }
        },
        (k, message) => {
          throw new HlslError(message, sources[t.file]!.presumed(at(k)), 'hlsl-preprocess');
        },
        warn && ((k, message) => warn(t.file, at(k), message)),
      );
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
      return sources[files[k]!]!.presumed(offs[k]! + (index > k ? 1 : 0));
    },
  });
}

/**
 * The preprocessed text, as `dxc -P` writes it: tokens on the (presumed) lines they came from,
 * `#line` markers where the reading or its presumed name changes or lines are skipped or go back
 * (a `#line`), a space where the source had whitespace (or where two tokens would otherwise read
 * as one), and the pragmas GNU cpp passes on, each on a line of its own at its place.
 */
export function preprocessedText(result: Preprocessed): string {
  let out = '';
  let file = -1;
  let name = '';
  let line = 0;
  let atLineStart = true;
  let previous: Token | undefined;
  // tokens come mostly in order: each reading's line is found from the last one looked up (a binary search only when going back)
  const lines = result.sources.map((src) => new LineCursor(src));
  const pragmas = result.pragmas;
  let p = 0;
  const output = result.output;
  for (let i = 0; i <= output.length; i++) {
    // the pragmas before token i: a line each, where its directive or _Pragma stands
    while (p < pragmas.length && pragmas[p]!.before <= i) {
      const pragma = pragmas[p++]!;
      if (!atLineStart) {
        out += '\n';
        line++;
        atLineStart = true;
      }
      const near = output[Math.min(i, output.length - 1)];
      place(pragma.from, pragma.at, near);
      // a pragma is written for each reading of its file, as its markers are
      result.charge('produce', pragma.text.length + 1, near);
      out += `${pragma.text}\n`;
      line++;
      previous = undefined;
    }
    if (i === output.length) break;
    const t = output[i]!;
    place(t.from, t.at, t);
    if (!atLineStart && (t.space || (previous !== undefined && wouldJoin(previous, t)))) out += ' ';
    out += t.text;
    atLineStart = false;
    previous = t;
  }
  if (!atLineStart) out += '\n';
  return out;

  /** Onto the line of index `at` of reading `from`: newlines, or a `#line` marker. */
  function place(from: number, at: number, t: Token | undefined): void {
    const cursor = lines[from]!;
    const l = cursor.lineOf(at);
    const n = cursor.name;
    if (from !== file || n !== name || l < line || l - line > 8) {
      if (!atLineStart) out += '\n';
      // the name escaped as clang writes it (write_escaped): a path holding a newline cannot start a line
      const marker = `#line ${l} ${quoteLiteral(n, true)}\n`;
      // markers and line breaks are output the tokens' charge did not cover: a file included 3^6 times
      // through unguarded headers writes a marker for each reading (the budget keeps it within 64x the input)
      result.charge('produce', marker.length + 1, t);
      out += marker;
      file = from;
      name = n;
      line = l;
      atLineStart = true;
    } else if (l > line) {
      result.charge('produce', l - line, t);
      out += l - line === 1 ? '\n' : '\n'.repeat(l - line);
      line = l;
      atLineStart = true;
    }
  }
}

/**
 * A pragma line as GNU cpp writes it out: `#pragma `, then its tokens (from the pragma's name on)
 * with a space where the source had whitespace or where two tokens of an expansion would read as
 * one. Tokens hold no line break (a literal ends at its line's end), and none is let in.
 */
export function pragmaSpelling(tokens: readonly Token[]): string {
  let s = '#pragma ';
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    const prev = tokens[k - 1];
    if (prev !== undefined && (t.space || (wouldJoin(prev, t) && !(t.kind === STRING || t.kind === CHAR)))) s += ' ';
    s += t.text;
  }
  return s.replace(/[\r\n]/g, ' ');
}

/**
 * Presumed lines of positions in one reading, found by walking from the last answer (its physical
 * line and its `#line` note; a binary search only when going back): the same answer as
 * Source.presumed, in time linear in the output.
 */
class LineCursor {
  private line = 0;
  private note = -1;
  private readonly starts: Int32Array;
  /** The presumed name at the last position asked. */
  name: string;
  constructor(private readonly src: Source) {
    this.starts = src.lineStarts();
    this.name = src.name;
  }

  /** The presumed 1-based line of index `i` of the reading's spliced text (its name then in `name`). */
  lineOf(i: number): number {
    const at = this.src.offset(i);
    const starts = this.starts;
    let l = this.line;
    if (at < starts[l]!) l = this.src.locate(i).line - 1;
    else while (l + 1 < starts.length && starts[l + 1]! <= at) l++;
    this.line = l;
    const notes = this.src.lineNotes;
    let k = this.note;
    if (k >= 0 && notes[k]!.at > i) k = this.src.noteIndexAt(i);
    else while (k + 1 < notes.length && notes[k + 1]!.at <= i) k++;
    this.note = k;
    if (k < 0) {
      this.name = this.src.name;
      return l + 1;
    }
    const note = notes[k]!;
    this.name = note.name;
    return presumedLine(note, l + 1);
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
