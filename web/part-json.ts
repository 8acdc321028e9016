/**
 * What the part panels show, free of the DOM (tested in Node by test/web-parts.test.ts): each
 * part's decode as `dxbin inspect --json` gives it (the rows' JSON form from decodePart and
 * partToJson; RTS0 and PSV0 through their own codecs; RDAT as the library it declares), and the
 * text of a value as a panel writes it. Every string from the input passes `printable` here, so
 * control characters show as `\xNN` and markup is only ever text.
 */
import {
  DecodeError,
  decodePart,
  decodeRdat,
  decodeRootSignature,
  describeLibrary,
  libraryJson,
  printable,
  rootSignatureToJson,
  type Budget,
  type Psv0,
} from '../src/index.js';
import { partJson } from '../src/inspect/index.js';

/** What a part's decode may use besides its bytes: the shader's PSV0 as the shader reader decoded it. */
export interface PartContext {
  psv?: Psv0;
  budget: Budget;
}

/**
 * The decode of one part (`inspect --json`'s `parts[i].decode`, through the same partJson; for RDAT
 * its `library`), with its name and size: a part that does not decode answers its DecodeError as
 * `{ kind: 'error', ... }` (the other parts still show).
 * @throws {LimitError} when the page's work budget runs out
 */
export function partDecodeJson(name: string, data: Uint8Array, base: number, ctx: PartContext): Record<string, unknown> {
  try {
    const head = { name, size: data.byteLength };
    if (name === 'RTS0') return { ...head, kind: 'root-signature', ...rootSignatureToJson(decodeRootSignature(data)) };
    if (name === 'RDAT') return { ...head, kind: 'runtime-data', ...libraryJson(describeLibrary(decodeRdat(data, base)), rootSignatureToJson) };
    return { ...head, ...partJson(name, decodePart(name, data, { base, budget: ctx.budget }), { psv: ctx.psv }) };
  } catch (e) {
    if (e instanceof DecodeError && e.code !== 'limit-exceeded') return { name, ...partJson(name, e) };
    throw e;
  }
}

/** Keys a panel shows in its summary line rather than in its body. */
export const SUMMARY_KEYS: ReadonlySet<string> = new Set(['name', 'kind', 'size']);

/** Items of an array a panel draws at first (more by a button); nested arrays draw fewer. */
export const FIRST_ROWS = 200;
export const NESTED_ROWS = 50;
/** Items drawn at first of an array inside `arrays` other arrays. */
export const rowsFirstDrawn = (arrays: number) => (arrays === 0 ? FIRST_ROWS : NESTED_ROWS);
/** Scalars of an array of scalars joined into one cell at most. */
export const JOINED = 64;

export const isScalar = (v: unknown): boolean => v === null || (typeof v !== 'object' && typeof v !== 'function');
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
const hexOf = (b: Uint8Array) => Array.from(b.subarray(0, 256), (x) => x.toString(16).padStart(2, '0')).join('') + (b.byteLength > 256 ? `… (${b.byteLength} bytes)` : '');

/** True for a value drawn as one cell: a scalar, bytes, or an array of scalars. */
export function isLeaf(v: unknown): boolean {
  return isScalar(v) || v instanceof Uint8Array || (Array.isArray(v) && v.every(isScalar)) || (isRecord(v) && Object.keys(v).length === 0);
}

/**
 * The text of a leaf as a panel shows it: strings through `printable` (multi-line text such as
 * SRCI sources keeps its newlines and tabs), bytes as hex, arrays of scalars joined by `, ` (`[]` when empty).
 */
export function valueText(v: unknown): string {
  if (typeof v === 'string') return printable(v, { lines: v.includes('\n') });
  if (v === null || v === undefined) return String(v);
  if (v instanceof Uint8Array) return hexOf(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const shown = v.slice(0, JOINED).map(valueText).join(', ');
    return v.length > JOINED ? `${shown}, … (${v.length - JOINED} more)` : shown;
  }
  if (typeof v === 'object') return Object.keys(v).length === 0 ? '{}' : '{…}';
  return String(v);
}

/** Columns of a table of records: every key of the drawn rows, in order of first appearance. */
export function columnsOf(rows: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) if (isRecord(r)) for (const k of Object.keys(r)) seen.add(k);
  return Array.from(seen);
}

/** True for an array drawn as a table: every item a record. */
export function isTable(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.length > 0 && v.every(isRecord);
}

/** A key and value as the JSON path the panels write in `data-path`: `elements[0].semanticName`. */
export const childPath = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * Every leaf of a decode a panel draws, by its path (the leaves under the first FIRST_ROWS
 * / NESTED_ROWS items of each array; summary keys left out at the top): what a test compares
 * with the page.
 */
export function drawnLeaves(json: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, path: string, arrays: number) => {
    if (isLeaf(v)) {
      out.set(path, valueText(v));
      return;
    }
    if (Array.isArray(v)) {
      const n = Math.min(v.length, rowsFirstDrawn(arrays));
      for (let i = 0; i < n; i++) walk(v[i], childPath(path, i), arrays + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(x, childPath(path, k), arrays);
  };
  for (const [k, x] of Object.entries(json)) if (!SUMMARY_KEYS.has(k)) walk(x, k, 0);
  return out;
}

/** The summary line of a part's panel: FourCC, what it was read as, a count where it has one. */
export function partSummary(json: Record<string, unknown>): string {
  const name = printable(String(json.name), { ascii: true });
  const kind = String(json.kind);
  if (kind === 'error') return `${name}: does not decode (${valueText(json.code)})`;
  const count = (key: string, what: string) => (Array.isArray(json[key]) ? `, ${(json[key] as unknown[]).length} ${what}` : '');
  const program = json.program as { instructions?: unknown[]; programTypeName?: string } | undefined;
  const extra =
    kind === 'signature'
      ? count('elements', 'elements')
      : kind === 'tokens' && program?.instructions
        ? `, ${valueText(program.programTypeName ?? '')} ${program.instructions.length} instructions`
        : kind === 'runtime-data'
          ? `${count('exports', 'exports')}${count('subobjects', 'subobjects')}`
          : kind === 'root-signature'
            ? count('parameters', 'parameters')
            : '';
  return `${name}: ${kind}${extra}, ${String(json.size)} bytes`;
}
