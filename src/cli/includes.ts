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
import { HlslFile, decodeHlslSource, fileSystemHost, printable, type HlslFileOptions, type PreprocessorWarning } from '../index.js';
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

/**
 * A path as Make and Ninja read it in a depfile: `\` before spaces and `#`, `$$` for `$`, `/` for
 * Windows separators. A path holding a newline, carriage return or NUL, or (on POSIX) a backslash
 * before a space, a # or its end, has no spelling there: refused.
 * @throws {InputError} not-writable naming the path (escaped)
 */
export function depfilePath(p: string, api: PathApi = path): string {
  if (/[\n\r\0]/.test(p)) throw new InputError(p, 'not-writable', `a depfile cannot name "${printable(p)}": Make has no spelling for a newline, carriage return or NUL in a path`);
  // on POSIX a backslash is part of a name, but Make and Ninja read one before a space, a # or the
  // end of the name as an escape (`b\` then the separator is read as "b "): no spelling reads back
  if (api.sep !== '\\' && /\\(?=[ #]|$)/.test(p)) throw new InputError(p, 'not-writable', `a depfile cannot name "${printable(p)}": Make reads a backslash before a space, a # or the end of a name as an escape`);
  const portable = api.sep === '\\' ? p.replace(/\\/g, '/') : p;
  return portable.replace(/\$/g, '$$$$').replace(/([ #])/g, '\\$1');
}

/**
 * The depfile text: `OUT: DEP DEP ...` with continuation lines, one dependency per line, then an
 * empty rule for every dependency after the first (gcc -MP), so that Make does not stop when one
 * is deleted or renamed.
 */
export function depfileText(output: string, deps: readonly string[], api: PathApi = path): string {
  const phony = deps.slice(1).map((d) => `\n${depfilePath(d, api)}:\n`).join('');
  return `${depfilePath(output, api)}:${deps.map((d) => ` \\\n  ${depfilePath(d, api)}`).join('')}\n${phony}`;
}
