/**
 * Response files (`@FILE` arguments), expanded before commander parses a command line: at the CLI
 * entry, for each `dxbin batch` job and for each persistent-worker request, so every command takes
 * them. Formats (`--param-file-format`, default `auto`):
 * - `auto`: one argument per line, Bazel's `shell`, `multiline` and `flag_per_line` files told
 *   apart (param-files.ts);
 * - `lines`: one argument per line, taken as is (Bazel's `multiline` param files, and what Bazel's
 *   worker strategy expects); empty lines are skipped, CRLF is accepted;
 * - `shell`: POSIX shell words (Bazel's default `shell` format: `'a b'`, `'it'\''s'`, `"x"`, `\ `);
 * - `msbuild`: Windows command-line rules as MSBuild, cl.exe and CommandLineToArgvW read `.rsp`
 *   files (whitespace separates, `"` groups, `\` escapes only before `"`, `""` inside quotes is a
 *   quote); lines starting with `#` are comments.
 * `@@x` is the literal argument `@x`; `--flagfile=FILE` is `@FILE`. Arguments read from a file
 * are expanded again (no file twice in one chain). Only regular files are read (devices and FIFOs
 * refused). One command line (a batch job, a worker request) charges one work budget
 * (src/bytes/budget.ts): every read is `read` (at least READ_MINIMUM bytes, so reading empty files
 * many times still runs out) and `files`, every nesting a level of `depth`; a file is read no
 * further than the budget has left.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { Budget } from '../index.js';
import { InputError, UsageError, errnoWords } from './errors.js';
import { readOpenFile } from './read-fd.js';
import { DEFAULT_PARAM_FILE_FORMAT, splitLines, splitParamLines } from './param-files.js';

/** The formats `--param-file-format` takes. */
export const PARAM_FILE_FORMATS = [DEFAULT_PARAM_FILE_FORMAT, 'lines', 'shell', 'msbuild'] as const;
export type ParamFileFormat = (typeof PARAM_FILE_FORMATS)[number];

/** Reads a regular file of at most `limit` bytes; anything else is an InputError naming it. */
export function readRegularFile(file: string, limit: number, what: string): Uint8Array {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below)
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(file, code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : 'not-readable', `cannot read the ${what}: ${errnoWords(e)}`);
  }
  try {
    const s = fstatSync(fd);
    if (s.isDirectory()) throw new InputError(file, 'is-directory', `the ${what} is a folder, not a file`);
    if (!s.isFile()) throw new InputError(file, 'not-readable', `the ${what} is not a regular file (a device, FIFO or socket); refused`);
    if (s.size > limit) throw new InputError(file, 'not-readable', `the ${what} is ${s.size} bytes, over the limit of ${limit}`);
    const bytes = readOpenFile(fd, s.size, limit);
    // a file whose size reads 0 (procfs) is read to its end: refused past the limit as one that says its size
    if (bytes.byteLength > limit) throw new InputError(file, 'not-readable', `the ${what} reads more than ${limit} bytes, over the limit of ${limit}`);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** POSIX shell words: single quotes literal, double quotes with `\` before `"$\`` and newline, `\` outside quotes. */
export function splitShell(text: string, file: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new InputError(file, 'foreign', 'unterminated single quote in the response file', { field: `character ${i}` });
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1]!)) {
          j++;
          if (text[j] !== '\n') word += text[j];
        } else word += text[j];
      }
      if (j >= text.length) throw new InputError(file, 'foreign', 'unterminated double quote in the response file', { field: `character ${i}` });
      i = j;
    } else if (c === '\\') {
      if (i + 1 < text.length && text[i + 1] !== '\n') {
        word += text[++i];
        inWord = true;
      } else i++; // line continuation
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

/** Windows command-line words as MSBuild/cl.exe read `.rsp` files; `#` at a line start begins a comment line. */
export function splitMsbuild(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (lineStart && !quoted && c === '#') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
      continue;
    }
    lineStart = false;
    if (c === '\\') {
      let n = 0;
      while (text[i + n] === '\\') n++;
      if (text[i + n] === '"') {
        word += '\\'.repeat(n >> 1);
        if (n % 2 === 1) word += '"';
        else {
          i += n;
          inWord = true;
          if (quoted && text[i + 1] === '"') {
            word += '"';
            i++;
          } else quoted = !quoted;
          continue;
        }
        i += n;
      } else {
        word += '\\'.repeat(n);
        i += n - 1;
      }
      inWord = true;
    } else if (c === '"') {
      inWord = true;
      if (quoted && text[i + 1] === '"') {
        word += '"';
        i++;
      } else quoted = !quoted;
    } else if (!quoted && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
      if (c === '\n') lineStart = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

/** The arguments a response file's text holds, in `format`. */
export function splitResponseFile(text: string, format: ParamFileFormat, file: string): string[] {
  const t = text.replace(/^\uFEFF/, '');
  return format === 'auto' ? splitParamLines(t) : format === 'lines' ? splitLines(t) : format === 'shell' ? splitShell(t, file) : splitMsbuild(t);
}

/** Takes `--param-file-format F` / `--param-file-format=F` out of `argv` (before `--`); returns the format and the rest. */
export function takeParamFileFormat(argv: readonly string[]): { format: ParamFileFormat; rest: string[] } {
  let format: ParamFileFormat = DEFAULT_PARAM_FILE_FORMAT;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      for (let k = i; k < argv.length; k++) rest.push(argv[k]!);
      break;
    }
    let value: string | undefined;
    if (a === '--param-file-format') {
      value = argv[++i];
      if (value === undefined) throw new UsageError(`--param-file-format needs a value: ${PARAM_FILE_FORMATS.join(', ')}`);
    } else if (a.startsWith('--param-file-format=')) value = a.slice('--param-file-format='.length);
    else {
      rest.push(a);
      continue;
    }
    if (!(PARAM_FILE_FORMATS as readonly string[]).includes(value)) throw new UsageError(`--param-file-format takes ${PARAM_FILE_FORMATS.join(', ')}, got ${value}`);
    format = value as ParamFileFormat;
  }
  return { format, rest };
}

/** The response file an argument names, or undefined when it names none (`@@x`, `@`, plain). */
function responseFileOf(a: string): string | undefined {
  if (a.startsWith('--flagfile=')) return a.slice('--flagfile='.length) || undefined;
  return a.length > 1 && a[0] === '@' && a[1] !== '@' ? a.slice(1) : undefined;
}

/** A response file's text, read no further than `maxBytes` (more is refused by the budget). */
export type ResponseFileReader = (file: string, maxBytes: number) => string;

const readResponseFile: ResponseFileReader = (f, maxBytes) => new TextDecoder().decode(readRegularFile(f, maxBytes, 'response file'));

/**
 * Expands every `@FILE` (and `--flagfile=FILE`) in `argv`; `@@x` becomes `@x`. Arguments after
 * `--` are left as they are. `budget` (default: one for this command line) is charged for every
 * read and every level of nesting: past it a LimitError (`limit-exceeded`) naming the file.
 */
export function expandResponseFiles(argv: readonly string[], read: ResponseFileReader = readResponseFile, budget?: Budget): string[] {
  let given = 0;
  for (const a of argv) given += a.length + 1;
  const work = budget ?? Budget.for(given);
  const { format, rest } = takeParamFileFormat(argv);
  const out: string[] = [];
  // the files being expanded, outermost first (a file inside itself is refused)
  const chain: string[] = [];
  const open = new Set<string>();
  const expand = (args: readonly string[]) => {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--' && chain.length === 0) {
        for (let k = i; k < args.length; k++) out.push(args[k]!);
        return;
      }
      // the format is read off the command line before any file is read: given in a file, it
      // would split no file (nor the ones this file names) and be taken as an option meaning nothing
      if (chain.length > 0 && (a === '--param-file-format' || a.startsWith('--param-file-format='))) {
        throw new UsageError(`${chain[chain.length - 1]!}: --param-file-format inside a response file applies to no file; give it on the command line, before the @FILE`);
      }
      const file = responseFileOf(a);
      if (file === undefined) {
        out.push(a.startsWith('@@') ? a.slice(1) : a);
        continue;
      }
      if (open.has(file)) throw new InputError(file, 'foreign', `response file includes itself (${[...chain, file].join(' -> ')})`);
      // charged before the read (as the least a read costs), the file read no further than what is left
      const before = work.used('read');
      work.chargeRead(0, file);
      const least = work.used('read') - before;
      const text = read(file, work.limit('read') - work.used('read') + least);
      if (text.length > least) work.charge('read', text.length - least, file);
      work.addInput(text.length);
      work.enter(file);
      chain.push(file);
      open.add(file);
      try {
        expand(splitResponseFile(text, format, file));
      } finally {
        work.leave();
        chain.pop();
        open.delete(file);
      }
    }
  };
  expand(rest);
  // a persistent worker's own arguments: the format is for its requests' files, so it is kept
  // (as one argument; commander takes it as the root option it is) for the worker to apply
  if (format !== DEFAULT_PARAM_FILE_FORMAT && out.includes('--persistent_worker')) out.unshift(`--param-file-format=${format}`);
  return out;
}
