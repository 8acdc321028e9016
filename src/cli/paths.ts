/**
 * Input lists and output names: globs expanded by dxbin itself (cmd.exe and build tools pass them
 * through unexpanded), `-` for standard streams, and one output per input from `-o OUT`, an `-o`
 * pattern (`{name}`, `{base}`, `{dir}`) or `--out-dir DIR`. Pure except for the glob walk, and
 * written for both path flavours (`node:path` posix and win32), so Windows logic is tested here.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { LimitError } from '../index.js';
import { globFiles, isGlob } from './glob.js';
import { UsageError } from './errors.js';

type PathApi = typeof path.posix;

/** A glob pattern as glob.ts reads it: on Windows, backslashes are separators, not escapes. */
export function globPattern(pattern: string, api: PathApi = path): string {
  return api.sep === '\\' ? pattern.replace(/\\/g, '/') : pattern;
}

/**
 * A folder and a file name joined as the system resolves them: on POSIX nothing is folded
 * (`--out-dir link/../out` is the `out` beside the link's target, as mkdir and open see it; a
 * lexical join would name another folder); Windows folds `..` itself, so path.join there.
 */
export function joinAsSystem(dir: string, name: string, api: PathApi = path): string {
  if (api.sep === '\\') return api.join(dir, name);
  const trimmed = dir.replace(/\/+$/, '');
  return dir === '' ? name : trimmed === '' ? `/${name}` : `${trimmed}/${name}`;
}

/** A POSIX path made absolute against the working folder, `.` components and repeated slashes dropped, `..` kept. */
function spellingKey(p: string, api: PathApi): string {
  const abs = api.isAbsolute(p) ? p : `${process.cwd()}/${p}`;
  return abs.split('/').filter((c) => c !== '' && c !== '.').join('/');
}

/** One input argument: `-`, an existing file, or a glob matching files (sorted, for stable output). */
export interface ExpandedInput {
  pattern: string;
  files: string[];
}

/** Expands input arguments: an argument naming an existing file is that file even when it has glob characters. */
export function expandInputs(args: readonly string[], cwd = process.cwd()): ExpandedInput[] {
  return args.map((pattern) => {
    // a name with no glob character needs no look-up (one stat fewer per input of a build step)
    if (pattern === '-' || !isGlob(globPattern(pattern)) || existsSync(path.resolve(cwd, pattern))) return { pattern, files: [pattern] };
    const absolute = path.isAbsolute(pattern);
    let files: string[];
    try {
      files = globFiles(globPattern(pattern), cwd).sort();
    } catch (e) {
      // the work budget ran out: bad input (exit 1), not a usage error
      if (e instanceof LimitError) throw e;
      throw new UsageError(`${pattern}: ${(e as Error).message}`);
    }
    return { pattern, files: absolute ? files.map((f) => path.normalize(f)) : files };
  });
}

/** The name of an input without folder and last extension (`-`: `stdin`). */
export function stem(file: string, api: PathApi = path): string {
  if (file === '-') return 'stdin';
  const base = api.basename(file);
  const ext = api.extname(base);
  return ext ? base.slice(0, -ext.length) : base;
}

const PLACEHOLDER = /\{(name|base|dir)\}/g;

/** True when an -o value is a pattern (names each input's output). */
export function isPattern(out: string): boolean {
  return /\{(name|base|dir)\}/.test(out);
}

/** The -o pattern filled in for `file`: {name} stem, {base} file name, {dir} folder. */
export function fillPattern(pattern: string, file: string, api: PathApi = path): string {
  return pattern.replace(PLACEHOLDER, (_, key: string) => (key === 'name' ? stem(file, api) : key === 'base' ? (file === '-' ? 'stdin' : api.basename(file)) : file === '-' ? '.' : api.dirname(file)));
}

/**
 * One output path per input (undefined: the command prints instead). Usage errors: several inputs
 * with a plain -o, an output required and missing, two inputs aiming at the same output.
 */
export function planOutputs(
  inputs: readonly string[],
  o: { output?: string; outDir?: string },
  writes: { required: boolean; ext: string | undefined } | undefined,
  api: PathApi = path,
): (string | undefined)[] {
  if (!writes) {
    if (o.output !== undefined || o.outDir !== undefined) throw new UsageError('this command writes no output file; -o and --out-dir do not apply');
    return inputs.map(() => undefined);
  }
  if (o.output !== undefined && o.outDir !== undefined) throw new UsageError('give -o OUT or --out-dir DIR, not both');
  let outs: (string | undefined)[];
  if (o.outDir !== undefined) outs = inputs.map((f) => joinAsSystem(o.outDir!, `${stem(f, api)}${writes.ext ?? (f === '-' ? '' : api.extname(f))}`, api));
  else if (o.output !== undefined && isPattern(o.output)) outs = inputs.map((f) => fillPattern(o.output!, f, api));
  else if (o.output !== undefined) {
    if (inputs.length > 1) throw new UsageError(`${inputs.length} inputs and one -o ${o.output}: use --out-dir DIR or an -o pattern such as out/{name}${writes.ext ?? '.out'}`);
    outs = [o.output];
  } else {
    if (writes.required) throw new UsageError('needs -o OUT (- for standard output), an -o pattern or --out-dir DIR');
    outs = inputs.map(() => undefined);
  }
  const seen = new Map<string, string>();
  outs.forEach((out, i) => {
    if (out === undefined || out === '-') return;
    // one spelling twice (`.` and repeated slashes aside); `..` is not folded (through a link it is
    // another folder), and outputs that are one file under different spellings are found by identity
    // before anything is written (io.ts checkOutputs)
    const key = api.sep === '\\' ? api.resolve(out).toLowerCase() : spellingKey(out, api);
    const other = seen.get(key);
    if (other !== undefined) throw new UsageError(`${other} and ${inputs[i]} would both be written to ${out}`);
    seen.set(key, inputs[i]!);
  });
  if (outs.filter((x) => x === '-').length > 1) throw new UsageError('only one input can be written to standard output');
  return outs;
}

/** Creates the folders of outputs named by an -o pattern (`-o 'out/{dir}/{name}.json'`), each once. */
export function ensureOutputDirs(outputs: readonly (string | undefined)[]): void {
  const dirs = new Set<string>();
  for (const o of outputs) if (o !== undefined && o !== '-') dirs.add(path.dirname(o));
  for (const dir of dirs) ensureOutDir(dir);
}

/** Creates the --out-dir folder (a declared output). */
export function ensureOutDir(dir: string | undefined): void {
  if (dir === undefined) return;
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    throw new UsageError(`cannot create the output folder ${dir}`);
  }
}
