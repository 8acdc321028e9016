/**
 * `dxbin/rollup`: a rollup (and Vite) plugin that turns root signatures and shaders into modules at
 * build time. Uses the public API of `dxbin` only.
 *
 *     import dxbin from 'dxbin/rollup';
 *     export default { plugins: [dxbin({ version: '1.1' })] };
 *
 *     import rs from './bindless.hlsl?define=BindlessRS&version=1.1&rootsig';   // a #define of an HLSL file
 *     import rs from './shader.hlsl?entry=main&rootsig';                         // an entry's [RootSignature(...)]
 *     import rs from './root.rs.hlsl';                                          // a file of root signature text
 *     import info from './shader.cso?rootsig';                                  // also .dxil, .dxbc
 *
 * A root signature module exports `blob` (the container `dxc -T rootsig_1_x` writes, digest included;
 * `rawBlob` is the bare RTS0 part), `json` (dxbin's JSON form), `hlsl` (the text printed back) and
 * `version`; a shader module exports `parts`, `digest` and `rootSignature` (or null). Both also
 * as the default export. Declarations for these import forms: `dxbin/rollup-modules`.
 *
 * HLSL files may `#include "file"` (relative to the including file); included files are watched.
 * Errors are bundler errors located at the HLSL file, line and column.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import {
  HlslError,
  HlslFile,
  RootSignatureValidationError,
  DxbinError,
  compileRootSignature,
  computeContainerDigest,
  containerRootSignature,
  digestStatus,
  encodeRootSignature,
  parseContainer,
  printRootSignature,
  rootSignatureContainer,
  rootSignatureToJson,
  toHex,
  ROOT_SIGNATURE_VERSIONS,
  type RootSignature,
  type RootSignatureVersion,
  type RootSignatureVersionName,
} from '../index.js';

/** Options of the plugin; a query parameter of one import overrides them for that import. */
export interface DxbinRollupOptions {
  /** Root signature version to compile to (default '1.1', as `dxc -T rootsig_1_1`). */
  version?: RootSignatureVersionName;
  /** Apply DXC's validation when compiling (default true). */
  validate?: boolean;
  /** File name suffix of root signature text files (default '.rs.hlsl'). */
  rootSignatureSuffix?: string;
  /** Most nested #include levels (default 32). */
  maxIncludeDepth?: number;
}

/** What a root signature import gives. */
export interface RootSignatureModule {
  /** Root-signature-only container with a valid digest (what `dxc -T rootsig_1_x` writes). */
  blob: Uint8Array;
  /** The RTS0 part alone. */
  rawBlob: Uint8Array;
  /** dxbin's JSON form (docs/json-form.md). */
  json: unknown;
  /** The root signature printed back as HLSL root signature text. */
  hlsl: string;
  /** '1.0', '1.1' or '1.2'. */
  version: RootSignatureVersionName;
}

/** What a shader import (`.cso`, `.dxil`, `.dxbc` with `?rootsig`) gives. */
export interface ShaderModuleInfo {
  /** The container's parts in order: FourCC, offset of the part data in the file, size. */
  parts: { name: string; offset: number; size: number }[];
  /** The stored digest checked against the computed one. */
  digest: { status: 'valid' | 'sentinel' | 'invalid'; stored: string; computed: string };
  /** The shader's root signature, or null when it has no RTS0 part. */
  rootSignature: RootSignatureModule | null;
}

/** The part of rollup's (and Vite's) plugin interface this plugin uses. */
export interface DxbinRollupPlugin {
  name: string;
  resolveId(this: unknown, source: string, importer: string | undefined): string | null;
  load(this: PluginContext, id: string): string | null;
}
interface PluginContext {
  addWatchFile(file: string): void;
  error(error: { message: string; id?: string; loc?: { file?: string; line: number; column: number } }): never;
}

/** Version name ("1.1") -> stored version, from the package's version rows. */
const VERSION_VALUE = new Map<string, RootSignatureVersion>(ROOT_SIGNATURE_VERSIONS.map((v) => [v.name, v.value]));
const SHADER = /\.(cso|dxil|dxbc)$/i;

/** The plugin: `plugins: [dxbin(options)]`. */
export default function dxbin(options: DxbinRollupOptions = {}): DxbinRollupPlugin {
  const suffix = options.rootSignatureSuffix ?? '.rs.hlsl';
  const ours = (path: string, query: URLSearchParams) => query.has('rootsig') || path.endsWith(suffix);
  return {
    name: 'dxbin',
    resolveId(source, importer) {
      const q = source.indexOf('?');
      const path = q < 0 ? source : source.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : source.slice(q + 1));
      if (!ours(path, query)) return null;
      if (!path.startsWith('.') && !path.startsWith('/')) return null; // a package path: left to other resolvers
      const file = path.startsWith('/') && !importer ? path : resolvePath(importer ? dirname(importer) : process.cwd(), path);
      return q < 0 ? file : `${file}?${source.slice(q + 1)}`;
    },
    load(id) {
      const q = id.indexOf('?');
      const file = q < 0 ? id : id.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : id.slice(q + 1));
      if (!ours(file, query)) return null;
      const version = query.get('version') ?? options.version ?? '1.1';
      const value = VERSION_VALUE.get(version);
      if (value === undefined) this.error({ id: file, message: `dxbin: version=${version}: a root signature version is one of ${[...VERSION_VALUE.keys()].join(', ')}` });
      const validate = query.has('validate') ? query.get('validate') !== 'false' : (options.validate ?? true);
      const compile = { version: value, validate };
      try {
        if (SHADER.test(file)) return moduleCode(shaderInfo(new Uint8Array(readFileSync(file))));
        const define = query.get('define');
        const entry = query.get('entry');
        if (define === null && entry === null && !file.endsWith(suffix)) {
          this.error({ id: file, message: `dxbin: ${file}?rootsig needs define=NAME or entry=FUNCTION (or a ${suffix} file of root signature text)` });
        }
        const source = withIncludes(file, options.maxIncludeDepth ?? 32, (f) => this.addWatchFile(f));
        // a file of root signature text becomes the body of one macro after its own directives
        const lines = define === null && entry === null ? asDefine(blankComments(source.lines.join('\n')).split('\n'), source.from, TEXT_MACRO) : source;
        try {
          const hlsl = new HlslFile(lines.lines.join('\n'), file);
          const text = entry !== null ? hlsl.entryText(entry) : hlsl.defineText(define ?? TEXT_MACRO);
          return moduleCode(rootSignatureModule(compileRootSignature(text, compile)));
        } catch (e) {
          throw relocate(e, file, lines.from);
        }
      } catch (e) {
        return fail(this, file, e);
      }
    },
  };
}

/** Turns a dxbin error into a bundler error at the HLSL location (or the file). */
function fail(ctx: PluginContext, file: string, e: unknown): never {
  if (e instanceof HlslError) {
    const { file: at, line, column } = e.location;
    ctx.error({ id: at, message: `dxbin: ${e.message}`, loc: { file: at, line, column } });
  }
  if (e instanceof RootSignatureValidationError || e instanceof DxbinError) ctx.error({ id: file, message: `dxbin: ${e.message.startsWith(file) ? '' : `${file}: `}${e.message}` });
  throw e;
}

function rootSignatureModule(rs: RootSignature): RootSignatureModule {
  const rawBlob = encodeRootSignature(rs);
  const version = ROOT_SIGNATURE_VERSIONS.find((v) => v.value === rs.version)!.name;
  return { blob: rootSignatureContainer(rawBlob), rawBlob, json: rootSignatureToJson(rs), hlsl: printRootSignature(rs), version };
}

function shaderInfo(bytes: Uint8Array): ShaderModuleInfo {
  const container = parseContainer(bytes);
  const computed = computeContainerDigest(bytes);
  const found = containerRootSignature(container);
  return {
    parts: container.parts.map((p, i) => ({ name: p.name, offset: container.layout.partOffsets[i]! + 8, size: p.data.byteLength })),
    digest: { status: digestStatus(container.digest, computed).status, stored: toHex(container.digest), computed: toHex(computed) },
    rootSignature: found ? rootSignatureModule(found.rootSignature) : null,
  };
}

/** ES module source exporting each field and the whole as default; Uint8Arrays stay Uint8Arrays. */
function moduleCode(value: RootSignatureModule | ShaderModuleInfo): string {
  const literal = (v: unknown): string => {
    if (v instanceof Uint8Array) return `new Uint8Array([${v.join(',')}])`;
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(literal).join(',')}]`;
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${literal(x)}`).join(',')}}`;
  };
  const names = Object.keys(value);
  return `${names.map((k) => `export const ${k} = ${literal((value as unknown as Record<string, unknown>)[k])};`).join('\n')}\nexport default { ${names.join(', ')} };\n`;
}

/**
 * The file with every `#include "name"` line replaced by the included file's lines (recursively),
 * and a way back from a line of the result to the file and line it came from.
 */
interface Origin {
  file: string;
  line: number;
}

function withIncludes(file: string, maxDepth: number, watch: (file: string) => void): { lines: string[]; from: Origin[] } {
  const lines: string[] = [];
  const from: Origin[] = [];
  const visit = (path: string, depth: number, stack: string[]) => {
    const text = readFileSync(path, 'utf8').replace(/\r\n?/g, '\n');
    text.split('\n').forEach((line, i) => {
      const m = /^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)/.exec(line);
      if (!m) {
        lines.push(line);
        from.push({ file: path, line: i + 1 });
        return;
      }
      const target = resolvePath(dirname(path), m[1] ?? m[2]!);
      const here = { file: path, line: i + 1, column: line.indexOf('#') + 1 };
      if (stack.includes(target)) throw new HlslError(`#include cycle: ${[...stack, target].join(' -> ')}`, here, 'hlsl-syntax');
      if (depth >= maxDepth) throw new HlslError(`#include nested deeper than ${maxDepth} levels`, here, 'hlsl-limit');
      let exists = true;
      try {
        readFileSync(target);
      } catch {
        exists = false;
      }
      if (!exists) throw new HlslError(`'${m[1] ?? m[2]}' file not found`, here, 'hlsl-missing');
      watch(target);
      visit(target, depth + 1, [...stack, target]);
    });
  };
  visit(file, 0, [file]);
  return { lines, from };
}

/** Comments replaced by spaces (newlines kept), so that locations stay where they were. */
function blankComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (c) => c.replace(/[^\n]/g, ' '));
}

/** The macro a file of root signature text is read as. */
const TEXT_MACRO = '__DXBIN_ROOT_SIGNATURE_TEXT__';

/** Directive lines stay; the other lines become, in order, the continued body of `#define name`. */
function asDefine(lines: string[], from: Origin[], name: string): { lines: string[]; from: Origin[] } {
  const outLines: string[] = [];
  const outFrom: Origin[] = [];
  const body: number[] = [];
  lines.forEach((line, i) => {
    if (/^\s*#/.test(line)) {
      outLines.push(line);
      outFrom.push(from[i]!);
    } else body.push(i);
  });
  outLines.push(`#define ${name} \\`);
  outFrom.push(from[0] ?? { file: '', line: 1 });
  body.forEach((i, k) => {
    outLines.push(k < body.length - 1 ? `${lines[i]} \\` : lines[i]!);
    outFrom.push(from[i]!);
  });
  return { lines: outLines, from: outFrom };
}

/** An HlslError located in the combined text, located again in the file and line it came from. */
function relocate(e: unknown, file: string, from: Origin[]): unknown {
  if (!(e instanceof HlslError) || e.location.file !== file) return e;
  const origin = from[e.location.line - 1];
  if (!origin) return e;
  return new HlslError(e.detail, { file: origin.file, line: origin.line, column: e.location.column }, e.code);
}
