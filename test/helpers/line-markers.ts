/**
 * Preprocessed text with line markers read as a (file, line, token) list, for comparing dxbin's
 * `#line N "name"` markers (dxc -P) with GNU cpp's `# N "name" flags` linemarkers whatever their
 * placement: each token of the output is named with the file and line its marker and the newlines
 * since say, as `file:line token`.
 */

/** The tokens of one output line (the same split on both sides: literals whole, words, single punctuation). */
const TOKEN = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|[A-Za-z0-9_.]+|\S/g;
const MARKER = /^#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"/;

/** `file:line token` for every token of `text`, the file and line from its markers (a marker line holds no tokens). */
export function markedTokens(text: string): string[] {
  const out: string[] = [];
  let file = '';
  let line = 1;
  for (const row of text.split('\n')) {
    const m = MARKER.exec(row);
    if (m) {
      line = Number(m[1]);
      file = m[2]!.replace(/\\(.)/g, '$1');
      continue;
    }
    for (const tok of row.match(TOKEN) ?? []) out.push(`${file}:${line} ${tok}`);
    line++;
  }
  return out;
}
