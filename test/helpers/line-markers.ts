/**
 * Preprocessed text with line markers read as a (file, line, token) list, for comparing dxbin's
 * `#line N "name"` markers (dxc -P) with GNU cpp's `# N "name" flags` linemarkers whatever their
 * placement: each token of the output is named with the file and line its marker and the newlines
 * since say, as `file:line token`. Pragma lines (both write the ones cpp passes on) are no tokens.
 */

/** The tokens of one output line (the same split on both sides: literals whole, words, single punctuation). */
const TOKEN = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|[A-Za-z0-9_.]+|\S/g;
const MARKER = /^#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"/;

/** A token of the output and the file and line its markers put it on. */
export interface MarkedToken {
  file: string;
  line: number;
  text: string;
}

/** `file:line token` for every token of `text`, the file and line from its markers (a marker line holds no tokens). */
export function markedTokens(text: string): string[] {
  return markedTokenList(text).map((t) => `${t.file}:${t.line} ${t.text}`);
}

/** Every token of `text` with the file and line its markers say. */
export function markedTokenList(text: string): MarkedToken[] {
  const out: MarkedToken[] = [];
  let file = '';
  let line = 1;
  for (const row of text.split('\n')) {
    const m = MARKER.exec(row);
    if (m) {
      line = Number(m[1]);
      file = m[2]!.replace(/\\(.)/g, '$1');
      continue;
    }
    // cpp passes pragmas it does not act on as `#pragma ...` lines (a line of the output each), and so does dxbin's text
    if (/^#\s*pragma\b/.test(row)) {
      line++;
      continue;
    }
    for (const tok of row.match(TOKEN) ?? []) out.push({ file, line, text: tok });
    line++;
  }
  return out;
}
