/**
 * `#include` for `rootsig compile --file`, and depfiles for build systems. Includes resolve as DXC
 * (clang) resolves them: `"name"` in the including file's folder first, then each `-I` folder in
 * order; `<name>` in the `-I` folders only. Lookups go through the file system, so they are
 * case-insensitive where it is (Windows, macOS) and exact where it is not. Every file is read once;
 * the texts are joined after the main file (HLSL root signatures only need the `#define`s, which
 * the preprocessor collects from anywhere), and a line map sends error locations back to the file
 * they are in. The depfile lists the main file and every included one in Make syntax.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { HlslError } from '../index.js';
import { InputError } from './errors.js';

type PathApi = typeof path.posix;

/** One `#include` directive: the name and whether it was quoted. */
export interface IncludeDirective {
  name: string;
  quoted: boolean;
  line: number;
}

/** The `#include` directives of a text (line continuations and comments are not expected on them). */
export function includeDirectives(text: string): IncludeDirective[] {
  const out: IncludeDirective[] = [];
  const re = /^[ \t]*#[ \t]*include[ \t]*(?:"([^"\r\n]+)"|<([^>\r\n]+)>)/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push(m[1] !== undefined ? { name: m[1], quoted: true, line } : { name: m[2]!, quoted: false, line });
  }
  return out;
}

/** Where an include resolves: the first existing candidate, or undefined. */
export function resolveInclude(
  directive: Pick<IncludeDirective, 'name' | 'quoted'>,
  includer: string,
  includeDirs: readonly string[],
  api: PathApi = path,
  isFile: (p: string) => boolean = (p) => existsSync(p) && statSync(p).isFile(),
): string | undefined {
  if (api.isAbsolute(directive.name)) return isFile(directive.name) ? directive.name : undefined;
  const dirs = directive.quoted ? [api.dirname(includer), ...includeDirs] : [...includeDirs];
  for (const dir of dirs) {
    const candidate = api.normalize(api.join(dir, directive.name));
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}

/** A main file with its includes joined after it, and where each file's lines start. */
export interface JoinedSource {
  text: string;
  /** Every file read, the main one first (for the depfile). */
  files: string[];
  /** For each file, the line of the joined text its first line is. */
  segments: { file: string; firstLine: number; lines: number }[];
}

/** Reads `main` and, recursively, everything it includes (each file once). */
export function joinIncludes(
  main: string,
  mainText: string,
  includeDirs: readonly string[],
  read: (file: string) => string,
  api: PathApi = path,
  isFile?: (p: string) => boolean,
): JoinedSource {
  const files: string[] = [main];
  const texts: string[] = [mainText];
  const seen = new Set([api.resolve(main)]);
  for (let i = 0; i < files.length; i++) {
    for (const d of includeDirectives(texts[i]!)) {
      const found = resolveInclude(d, files[i]!, includeDirs, api, isFile);
      if (found === undefined) throw new InputError(files[i]!, 'not-found', `#include ${d.quoted ? `"${d.name}"` : `<${d.name}>`} not found (searched ${d.quoted ? 'next to the file, then ' : ''}the -I folders: ${includeDirs.length ? includeDirs.join(', ') : 'none given'})`, { field: `line ${d.line}` });
      const key = api.resolve(found);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(found);
      texts.push(read(found));
    }
  }
  const segments: JoinedSource['segments'] = [];
  let line = 1;
  for (let i = 0; i < files.length; i++) {
    const lines = texts[i]!.split('\n').length;
    segments.push({ file: files[i]!, firstLine: line, lines });
    line += lines;
  }
  return { text: texts.join('\n'), files, segments };
}

/** An HLSL error located in the joined text, moved to the file and line it is really in. */
export function relocate(e: unknown, joined: JoinedSource, joinedName: string): unknown {
  if (!(e instanceof HlslError) || e.location.file !== joinedName) return e;
  const seg = joined.segments.find((s) => e.location.line >= s.firstLine && e.location.line < s.firstLine + s.lines);
  if (!seg || seg.firstLine === 1) return e;
  return new HlslError(e.detail, { file: seg.file, line: e.location.line - seg.firstLine + 1, column: e.location.column }, e.code);
}

/** A path as Make and Ninja read it in a depfile: `\` before spaces and `#`, `$$` for `$`, `/` for Windows separators. */
export function depfilePath(p: string, api: PathApi = path): string {
  const portable = api.sep === '\\' ? p.replace(/\\/g, '/') : p;
  return portable.replace(/\$/g, '$$$$').replace(/([ #])/g, '\\$1');
}

/** The depfile text: `OUT: DEP DEP ...` with continuation lines, one dependency per line. */
export function depfileText(output: string, deps: readonly string[], api: PathApi = path): string {
  return `${depfilePath(output, api)}:${deps.map((d) => ` \\\n  ${depfilePath(d, api)}`).join('')}\n`;
}
