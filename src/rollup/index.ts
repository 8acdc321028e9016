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
 * HLSL files go through DXC's preprocessor (conditionals, macros, `#include` in taken groups:
 * `"file"` next to the including file, then `includeDirs`); `defines` (or `&D=NAME=VALUE`, `&U=NAME`
 * in the import) set macros as `dxc -D`/`-U`. Every file read is watched. Errors are bundler errors
 * located at the HLSL file, line and column.
 *
 * @module dxbin/rollup
 */
import * as fs from 'node:fs';
import nodePath, { dirname, resolve as resolvePath } from 'node:path';
import {
  Budget,
  HlslError,
  HlslFile,
  decodeHlslSource,
  fileSystemHost,
  type IncludeHost,
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
  DescriptionError,
  printable,
  printableJson,
  type RootSignature,
  type RootSignatureVersion,
  type RootSignatureVersionName,
} from '../index.js';
import { expectDense, expectKnownKeys, expectOptions, kindOf } from '../bytes/check.js';
import { quoted, shortened } from '../bytes/text.js';

/** Options of the plugin; a query parameter of one import overrides them for that import. */
export interface DxbinRollupOptions {
  /** Root signature version to compile to (default '1.1', as `dxc -T rootsig_1_1`). */
  version?: RootSignatureVersionName;
  /** Apply DXC's validation when compiling (default true). */
  validate?: boolean;
  /** File name suffix of root signature text files (default '.rs.hlsl'). */
  rootSignatureSuffix?: string;
  /** Most nested #include levels (default 200, clang's). */
  maxIncludeDepth?: number;
  /** Macros for every HLSL import, as `dxc -D`: `NAME` (1) or `NAME=VALUE`; an import's `&D=` and `&U=` apply after them. */
  defines?: string[];
  /** Folders `#include` searches after the including file's own, as `dxc -I`. */
  includeDirs?: string[];
  /** The profile whose `__SHADER_TARGET_*` macros are defined (default rootsig_1_1). */
  profile?: string;
  /** Where includes are read (default: the file system); tests and the fuzzer pass a virtual tree. */
  host?: IncludeHost;
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
  /** Rollup's resolveId hook: resolves the query suffixes dxbin serves. */
  resolveId(this: unknown, source: string, importer: string | undefined): string | null;
  /** Rollup's load hook: a module of the root signature (or shader information) the id names. */
  load(this: PluginContext, id: string): string | null;
}
interface PluginContext {
  addWatchFile(file: string): void;
  error(error: { message: string; id?: string; loc?: { file?: string; line: number; column: number } }): never;
}

/** Version name ("1.1") -> stored version, from the package's version rows. */
const VERSION_VALUE = new Map<string, RootSignatureVersion>(ROOT_SIGNATURE_VERSIONS.map((v) => [v.name, v.value]));
const SHADER = /\.(cso|dxil|dxbc)$/i;

/** The keys of DxbinRollupOptions. */
const OPTION_KEYS = ['version', 'validate', 'rootSignatureSuffix', 'maxIncludeDepth', 'defines', 'includeDirs', 'profile', 'host'] as const;

/** A list of strings at `path`, or undefined. */
function expectStrings(value: unknown, path: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new DescriptionError('bad-type', path, `expected a list of strings, got ${kindOf(value)}`);
  expectDense(value, path);
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') throw new DescriptionError('bad-type', `${path}[${i}]`, `expected a string, got ${kindOf(value[i])}`);
}

/**
 * The plugin's options, checked once where they are given (dxbin(options)), so no load reads a
 * wrong type as another value (`validate: "false"` as true, `defines: "A"` as a raw TypeError) or
 * drops a misspelt key (`includeDir`) without a word; an empty suffix would claim every import.
 * @throws {DescriptionError} bad-type, bad-name, out-of-range, unknown-key naming `options.KEY`
 */
function checkedOptions(options: unknown): DxbinRollupOptions {
  if (options === undefined) return {};
  expectOptions(options, 'options');
  expectKnownKeys(options, OPTION_KEYS, 'options', { form: 'the options of dxbin/rollup', undefinedIsAbsent: true });
  const o = options as Record<string, unknown>;
  if (o.version !== undefined) {
    if (typeof o.version !== 'string') throw new DescriptionError('bad-type', 'options.version', `expected a version name, got ${kindOf(o.version)}`);
    if (!VERSION_VALUE.has(o.version)) throw new DescriptionError('bad-name', 'options.version', `${quoted(o.version)} is no root signature version (known: ${[...VERSION_VALUE.keys()].join(', ')})`);
  }
  if (o.validate !== undefined && typeof o.validate !== 'boolean') throw new DescriptionError('bad-type', 'options.validate', `expected true or false, got ${kindOf(o.validate)}`);
  if (o.rootSignatureSuffix !== undefined) {
    if (typeof o.rootSignatureSuffix !== 'string') throw new DescriptionError('bad-type', 'options.rootSignatureSuffix', `expected a string, got ${kindOf(o.rootSignatureSuffix)}`);
    if (o.rootSignatureSuffix === '') throw new DescriptionError('out-of-range', 'options.rootSignatureSuffix', 'an empty suffix would claim every import');
  }
  if (o.maxIncludeDepth !== undefined && (typeof o.maxIncludeDepth !== 'number' || !Number.isInteger(o.maxIncludeDepth) || o.maxIncludeDepth < 0)) {
    throw new DescriptionError(typeof o.maxIncludeDepth === 'number' ? 'out-of-range' : 'bad-type', 'options.maxIncludeDepth', `expected a whole number of 0 or more, got ${typeof o.maxIncludeDepth === 'number' ? o.maxIncludeDepth : kindOf(o.maxIncludeDepth)}`);
  }
  expectStrings(o.defines, 'options.defines');
  expectStrings(o.includeDirs, 'options.includeDirs');
  if (o.profile !== undefined && typeof o.profile !== 'string') throw new DescriptionError('bad-type', 'options.profile', `expected a profile name, got ${kindOf(o.profile)}`);
  if (o.host !== undefined) {
    const h = o.host as Record<string, unknown> | null;
    const missing = typeof h !== 'object' || h === null ? undefined : ['dirname', 'join', 'isAbsolute', 'stat', 'read'].find((k) => typeof h[k] !== 'function');
    if (typeof h !== 'object' || h === null || missing !== undefined) throw new DescriptionError('bad-type', 'options.host', `expected an IncludeHost${missing ? ` (its ${missing} is no function)` : `, got ${kindOf(h)}`}`);
  }
  return o as DxbinRollupOptions;
}

/** A value an import chose, as a message shows it: cut where its escaped text passes 64 characters (shortened), escaped. */
const shown = (v: string) => printable(shortened(v));

/**
 * One parameter of an import's query: its value, or null when absent; given twice it is refused
 * (which one was meant is not known: the first was taken).
 */
function single(query: URLSearchParams, name: string, fail: (message: string) => never): string | null {
  const all = query.getAll(name);
  if (all.length > 1) fail(`${name}= is given ${all.length} times (${all.slice(0, 3).map((v) => quoted(v)).join(', ')}${all.length > 3 ? ', ...' : ''}); give it once`);
  return all.length === 0 ? null : all[0]!;
}

/** The plugin: `plugins: [dxbin(options)]`. */
export default function dxbin(options: DxbinRollupOptions = {}): DxbinRollupPlugin {
  options = checkedOptions(options);
  const suffix = options.rootSignatureSuffix ?? '.rs.hlsl';
  // an id starting with NUL is another plugin's virtual module (rollup's convention): never a file of ours
  const ours = (path: string, query: URLSearchParams) => !path.startsWith('\0') && (query.has('rootsig') || path.endsWith(suffix));
  return {
    name: 'dxbin',
    resolveId(source, importer) {
      const q = source.indexOf('?');
      const path = q < 0 ? source : source.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : source.slice(q + 1));
      if (!ours(path, query)) return null;
      if (!path.startsWith('.') && !path.startsWith('/')) return null; // a package path: left to other resolvers
      // the importer's own query (`/src/App.vue?vue&type=script`, `?v=1/2`) is no part of its folder
      const from = importer === undefined ? undefined : importer.split('?')[0]!;
      const file = path.startsWith('/') && !from ? path : resolvePath(from ? dirname(from) : process.cwd(), path);
      return q < 0 ? file : `${file}?${source.slice(q + 1)}`;
    },
    load(id) {
      const q = id.indexOf('?');
      const file = q < 0 ? id : id.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : id.slice(q + 1));
      if (!ours(file, query)) return null;
      // names and values the import chose: escaped, and quoted values cut, in every message
      const at = printable(file);
      const refuse: (message: string) => never = (message) => this.error({ id: file, message: `dxbin: ${at}: ${message}` });
      const version = single(query, 'version', refuse) ?? options.version ?? '1.1';
      const value = VERSION_VALUE.get(version);
      if (value === undefined) refuse(`version=${shown(version)}: a root signature version is one of ${[...VERSION_VALUE.keys()].join(', ')}`);
      const validateText = single(query, 'validate', refuse);
      if (validateText !== null && validateText !== '' && validateText !== 'true' && validateText !== 'false') refuse(`validate=${shown(validateText)}: validate= takes true or false (or nothing: true)`);
      const validate = validateText !== null ? validateText !== 'false' : (options.validate ?? true);
      const define = single(query, 'define', refuse);
      const entry = single(query, 'entry', refuse);
      if (define !== null && entry !== null) refuse('give define=NAME or entry=FUNCTION, not both (which root signature is meant?)');
      const profile = single(query, 'profile', refuse);
      const compile = { version: value, validate };
      try {
        const host = options.host ?? fileSystemHost({ fs, path: nodePath });
        // the imported file itself: a regular file (a link to /dev/zero is refused before any read), read bounded by the work budget
        const budget = Budget.for(0);
        const st = host.stat(file);
        if (st === undefined) refuse('no such file');
        if (!st.regular) refuse('not a regular file (a device, FIFO, socket or folder); refused');
        budget.chargeRead(st.size, file);
        let bytes: unknown;
        try {
          bytes = host.read(st.real, budget.limit('read'));
        } catch (e) {
          refuse(`cannot be read (${printable(e instanceof Error ? e.message : String(e))})`);
        }
        if (!(bytes instanceof Uint8Array)) refuse("the include host's read gave no bytes");
        if (bytes.byteLength > budget.used('read')) budget.charge('read', bytes.byteLength - budget.used('read'), file);
        if (SHADER.test(file)) return moduleCode(shaderInfo(new Uint8Array(bytes)));
        if (define === null && entry === null && !file.endsWith(suffix)) refuse(`?rootsig needs define=NAME or entry=FUNCTION (or a ${printable(suffix)} file of root signature text)`);
        const defines: ['D' | 'U', string][] = [...(options.defines ?? []).map((d) => ['D', d] as ['D', string]), ...query.getAll('D').map((d) => ['D', d] as ['D', string]), ...query.getAll('U').map((d) => ['U', d] as ['U', string])];
        const hlsl = new HlslFile(decodeHlslSource(bytes), file, {}, { maxIncludeDepth: options.maxIncludeDepth }, { defines, includeDirs: options.includeDirs, host, profile: profile ?? options.profile });
        try {
          // a file of root signature text is its taken text; an HLSL file gives a macro or an entry's attribute
          const text = entry !== null ? hlsl.entryText(entry) : define !== null ? hlsl.defineText(define) : hlsl.takenText();
          return moduleCode(rootSignatureModule(compileRootSignature(text, compile)));
        } finally {
          for (const f of hlsl.filesRead.slice(1)) this.addWatchFile(f);
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
  if (e instanceof RootSignatureValidationError || e instanceof DxbinError) ctx.error({ id: file, message: `dxbin: ${e.message.startsWith(file) ? '' : `${printable(file)}: `}${printable(e.message)}` });
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
    // printableJson: what JSON leaves raw (C1 controls, line separators, bidi controls) escaped too
    if (v === null || typeof v !== 'object') return printableJson(v);
    if (Array.isArray(v)) return `[${v.map(literal).join(',')}]`;
    return `{${Object.entries(v).map(([k, x]) => `${printableJson(k)}:${literal(x)}`).join(',')}}`;
  };
  const names = Object.keys(value);
  return `${names.map((k) => `export const ${k} = ${literal((value as unknown as Record<string, unknown>)[k])};`).join('\n')}\nexport default { ${names.join(', ')} };\n`;
}

