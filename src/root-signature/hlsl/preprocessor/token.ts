/**
 * The preprocessing token (clang's Token and TokenKinds): its kind, spelling, where it is spelled
 * and where it was expanded, and the hide set that stops a macro expanding it again. Every room of
 * the preprocessor reads tokens; this file imports nothing.
 */

/** Token kinds. */
export const TOKEN = { ident: 1, number: 2, string: 3, char: 4, punct: 5, other: 6 } as const;

/** The macro names a token came out of, which it may not expand again (the C preprocessor's hide set). */
export type HideSet = ReadonlySet<string>;

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
