/**
 * HLSL sources for `rootsig compile` and `rootsig preprocess`, and depfiles for build systems.
 * The preprocessor (the library's HlslFile) follows `#include` only in taken groups, through a host
 * over the real file system: `"name"` in the including file's folder first, then each `-I` folder
 * in order; `<name>` in the `-I` folders only; every real file read once (links resolved), special
 * files refused; `..` resolved by the system against the real folder, never folded (source.ts
 * posixJoin). The depfile lists the files actually read plus a phony target per header, as
 * `gcc -MD -MP` writes it, so that a deleted or renamed header does not stop Make.
 */
import * as fs from 'node:fs';
import path from 'node:path';
import { HlslFile, decodeHlslSource, fileSystemHost, printable, quoted, type HlslFileOptions, type PreprocessorWarning } from '../index.js';
import type { Command } from 'commander';
import { InputError, UsageError, type DiagnosticsFormat } from './errors.js';

type PathApi = typeof path.posix;

/** -D, -U, -I and -T as the compile and preprocess commands take them (the parsed commander values). */
export interface SourceOptions {
  D?: string[];
  U?: string[];
  I?: string[];
  profile?: string;
}

let sequence = 0;
/** Commander collector for -D/-U: each value tagged with its place on the command line, so that -D and -U apply in order as DXC applies them. */
function collectOrdered(v: string, all: string[] = []): string[] {
  all.push(`${String(sequence++).padStart(12, '0')}\0${v}`);
  return all;
}

/** The -D/-U values in command-line order. */
export function orderedDefines(o: SourceOptions): (readonly ['D' | 'U', string])[] {
  const tagged = [...(o.D ?? []).map((v) => ['D', v] as const), ...(o.U ?? []).map((v) => ['U', v] as const)];
  tagged.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return tagged.map(([k, v]) => [k, v.slice(v.indexOf('\0') + 1)] as const);
}

/** Adds -D, -U, -I and -T as dxc takes them (`extra` says what they go with, e.g. "with --file: "). */
export function sourceOptions(c: Command, extra = ''): Command {
  return c
    .option('-D <name[=value]>', `${extra}define a macro (NAME alone is 1), as dxc -D (repeatable; -D and -U apply in order)`, collectOrdered)
    .option('-U <name>', `${extra}undefine a macro, as dxc -U (repeatable)`, collectOrdered)
    .option('-I <dir>', `${extra}a folder #include searches, as dxc -I (repeatable; "name" looks next to the including file first)`, (v: string, all: string[] = []) => (all.push(v), all))
    .option('-T, --profile <profile>', `${extra}the profile whose __SHADER_TARGET_* macros the preprocessor defines, as dxc -T (default rootsig_1_1)`);
}

/** An HLSL file read from disk (UTF-8 or UTF-16 with a BOM), ready to preprocess with the command's -D/-U/-I/-T. */
export function hlslFileOf(file: string, bytes: Uint8Array, o: SourceOptions): HlslFile {
  // the system reads a path up to its first NUL: a folder named so would be searched as another
  for (const dir of o.I ?? []) if (dir.includes('\0')) throw new UsageError(`-I ${printable(dir.length > 200 ? `${dir.slice(0, 200)}…` : dir)}: a folder name cannot hold a NUL`);
  const options: HlslFileOptions = { defines: orderedDefines(o), includeDirs: o.I ?? [], host: fileSystemHost({ fs, path }), profile: o.profile };
  return new HlslFile(decodeHlslSource(bytes), file, {}, {}, options);
}

/** A preprocessor warning as a diagnostic line on standard error, in the chosen style. */
export function warningLine(w: PreprocessorWarning, style: DiagnosticsFormat = 'gnu'): string {
  const { file, line, column } = w.location;
  const f = printable(file);
  return style === 'msvc' ? `${f}(${line},${column}): warning: ${w.message}` : `${f}:${line}:${column}: warning: ${w.message}`;
}

/** The ASCII characters Make and Ninja both read as part of a name, written as they are (from U+00A0 on, all but U+2028/2029 are too). */
const DEPFILE_PLAIN = /[A-Za-z0-9+,./_~(){}@!\]\-]/;
/** Characters with a spelling both read back: `\ `, `\#`, `$$`, `\:` (gcc -MD's, and Ninja's depfile lexer). */
const DEPFILE_ESCAPED: ReadonlyMap<string, string> = new Map([[' ', '\\ '], ['#', '\\#'], ['$', '$$'], [':', '\\:']]);
/** Why a character has no spelling in a depfile (what Make or Ninja would read instead). */
function unspellable(c: string): string {
  if (c === '%') return 'Make reads a % in a target as a pattern (every header is the target of its own empty rule)';
  if (c === '=') return 'Make reads a rule holding = as a variable assignment';
  if (c === ';') return 'Make reads what follows a ; as a recipe to run';
  if (c === '[' || c === '*' || c === '?') return 'Make expands wildcards in a rule (another file would be named)';
  if (c === '\\') return 'Make and Ninja read a backslash before a space, #, :, $ or the end of a name as an escape, each its own way';
  if (/[\n\r\u2028\u2029]/.test(c)) return 'a line break in a name would start a line of its own';
  return 'Make or Ninja reads it as the end of a name (Ninja has no escape for it)';
}

/**
 * A path as Make and Ninja read it in a depfile, or refused: the one boundary of depfile text.
 * Each character is written as it is (letters, digits, `+,./_~(){}@!]-`, and from U+00A0 on all
 * but U+2028/2029 and lone surrogates), escaped as gcc -MD escapes it and Ninja reads it back
 * (space `\ `, `#` `\#`, `$` `$$`, `:` `\:`), or refused: a control character (a newline would
 * let the name choose a line), `%` (a pattern in the header's empty rule), `=` (a variable
 * assignment), `;` (a recipe), `[`, `*`, `?` (wildcards), `"&'<>^\`|` (the end of a name to Ninja),
 * a `:` before a space or at the end (Ninja reads `\:` there as a backslash), a leading `~` (Make's
 * home folder), `NAME(MEMBER)` (Make's archive member), and on POSIX a backslash before a space,
 * `#`, `:`, `$` or the end of the name (each reads it its own way). Windows paths are written with
 * `/`, a drive letter's colon as it is. Linear: one pass over the characters.
 * @throws {InputError} not-writable naming the path (escaped), the character, and its byte in the name's UTF-8 (`at.offset`)
 */
export function depfilePath(p: string, api: PathApi = path): string {
  const windows = api.sep === '\\';
  const portable = windows ? p.replace(/\\/g, '/') : p;
  const refuse = (i: number, why: string): never => {
    const c = portable.codePointAt(i)!;
    // the offset is the character's byte in the name as the depfile would hold it (UTF-8)
    const byte = new TextEncoder().encode(portable.slice(0, i)).byteLength;
    throw new InputError(p, 'not-writable', `a depfile cannot name ${quoted(p)}: U+${c.toString(16).toUpperCase().padStart(4, '0')}: ${why}`, { field: 'depfile path', offset: byte });
  };
  if (portable.startsWith('~')) refuse(0, "Make reads a name starting with ~ as a home folder's");
  const open = portable.indexOf('(');
  if (open > 0 && portable.endsWith(')') && open < portable.length - 2) refuse(portable.length - 1, 'Make reads NAME(MEMBER) as a member of the archive NAME');
  const drive = windows && /^[A-Za-z]:/.test(portable) ? 2 : 0;
  let out = portable.slice(0, drive);
  for (let i = drive; i < portable.length; i++) {
    const c = portable[i]!;
    const code = c.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) {
      const pair = code <= 0xdbff && (portable.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (!pair) refuse(i, 'a lone surrogate has no UTF-8 spelling (another name would be written)');
      out += c + portable[++i]!;
    } else if (code >= 0xa0 && code !== 0x2028 && code !== 0x2029) out += c;
    else if (DEPFILE_PLAIN.test(c)) out += c;
    else if (c === '\\') {
      // POSIX only (Windows' are `/` by now): a backslash is read as itself before a plain character
      const next = portable[i + 1];
      if (next === undefined || !(DEPFILE_PLAIN.test(next) || next === '\\' || next.charCodeAt(0) >= 0xa0)) refuse(i, unspellable(c));
      out += c;
    } else if (c === ':' && (i + 1 === portable.length || portable[i + 1] === ' ')) refuse(i, 'Ninja reads \\: before a space or at the end of a name as a backslash');
    else if (DEPFILE_ESCAPED.has(c)) out += DEPFILE_ESCAPED.get(c)!;
    else refuse(i, unspellable(c));
  }
  return out;
}

/**
 * The depfile text: `OUT: DEP DEP ...` with continuation lines, one dependency per line, then an
 * empty rule for every dependency after the first (gcc -MP), so that Make does not stop when one
 * is deleted or renamed. The output must be a file (`-o -` has no target).
 * @throws {UsageError} for standard output as the output
 */
export function depfileText(output: string, deps: readonly string[], api: PathApi = path): string {
  // the target is the file make rebuilds: standard output is no file (a rule for `-` was written)
  if (output === '-' || output === '/dev/stdout') throw new UsageError('--depfile names the dependencies of an output file: give -o FILE (standard output is no target)');
  const phony = deps.slice(1).map((d) => `\n${depfilePath(d, api)}:\n`).join('');
  return `${depfilePath(output, api)}:${deps.map((d) => ` \\\n  ${depfilePath(d, api)}`).join('')}\n${phony}`;
}
