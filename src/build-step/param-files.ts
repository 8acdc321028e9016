/**
 * The default reading of response files (`--param-file-format auto`): one argument per line, as
 * all three of Bazel's param file formats write them (Args.set_param_file_format), told apart with
 * no flag:
 * - `shell` (Bazel's default): each item on its own line, shell-quoted where needed, which Bazel
 *   does by wrapping it in single quotes (a quote inside written `'\''`) unless it is made only of
 *   letters, digits and `@%-_+:,./`;
 * - `multiline`: each item on its own line, as is;
 * - `flag_per_line`: each item on its own line, as is, a flag and its value joined (`--file=a.hlsl`).
 * A file in which every line (an item quoted over several lines counted as one) is such a safe word
 * or such a single-quoted item is read as `shell`; any other file line by line, as is. The two
 * readings differ only for a file whose every line looks quoted or safe and some line starts with
 * a quote: that file is taken as `shell`; give `--param-file-format lines` to read quotes literally.
 * Empty lines are skipped, CRLF is accepted.
 */

/** What `--param-file-format` means when not given. */
export const DEFAULT_PARAM_FILE_FORMAT = 'auto';

export const PARAM_FILE_FORMAT_HELP =
  "how @FILE response files are split: auto (one argument per line; Bazel's shell, multiline and flag_per_line files told apart), lines (one argument per line, as is), shell (quoted words) or msbuild (.rsp quoting)";

/** One item of a Bazel shell-format file: a safe word or a strong-quoted item, then the end of its line. */
const SHELL_ITEM = /(?:([A-Za-z0-9@%_+:,./-]+)|'((?:[^']|'\\'')*)')(?:\r?\n|$)/y;
const BLANK = /(?:\r?\n)+/y;

/** The items of a file in Bazel's shell format, or undefined when it is not one. */
export function bazelShellItems(text: string): string[] | undefined {
  const items: string[] = [];
  let at = 0;
  while (at < text.length) {
    BLANK.lastIndex = at;
    if (BLANK.test(text)) {
      at = BLANK.lastIndex;
      continue;
    }
    SHELL_ITEM.lastIndex = at;
    const m = SHELL_ITEM.exec(text);
    if (!m || SHELL_ITEM.lastIndex === at) return undefined;
    items.push(m[1] ?? m[2]!.replace(/'\\''/g, "'"));
    at = SHELL_ITEM.lastIndex;
  }
  return items;
}

/** One argument per line, as is (CRLF accepted, empty lines skipped). */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l !== '');
}

/** The `auto` reading (this module's comment). */
export function splitParamLines(text: string): string[] {
  return bazelShellItems(text) ?? splitLines(text);
}
