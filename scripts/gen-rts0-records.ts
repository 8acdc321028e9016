/**
 * Generates src/root-signature/records.generated.ts from the codecs/ RTS0 rows (`npm run gen`):
 * for every version, one reader per record kind returning an object literal of the record's data
 * fields, and one writer per record kind storing them after checking each value. The RTS0 reader
 * and writer (decode.ts, encode.ts) walk the blocks and call these per record.
 *
 * Why generated, not built at load: V8 makes an object literal with fixed keys in one step, with
 * one hidden class per site, and compiles `r['rangeType']` to a named-property load; readers built
 * from the rows at load (keys in arrays, a keyed store per field) measured 4x slower per decode, and
 * `new Function` is not an option (a strict Content-Security-Policy forbids it). The rows stay the
 * one source: test/generated.test.ts regenerates the file in memory and fails when the checked-in
 * copy differs, naming the command that brings it up to date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CONSTANTS,
  DESCRIPTOR,
  HEADER,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  ROOT_SIGNATURE_VERSIONS,
  SAMPLER,
  type RecordRow,
  type RootSignatureVersion,
} from '../codecs/root-signature.js';
import { dataFields, PARAMETERS_KEY, SAMPLERS_KEY, VERSION_KEY } from '../src/root-signature/rows.js';

/** The generated file, relative to the repository. */
export const GENERATED_PATH = 'src/root-signature/records.generated.ts';

/** Record kinds with a reader and a writer of their own (the header's structure fields are the caller's). */
const KINDS: readonly (readonly [string, RecordRow])[] = [
  ['Header', HEADER],
  ['Parameter', PARAMETER],
  ['Range', RANGE],
  ['Constants', CONSTANTS],
  ['Descriptor', DESCRIPTOR],
  ['Sampler', SAMPLER],
];

const q = (s: string) => `'${s}'`;
/** `o + at`, or `o` at offset 0. */
const plus = (at: number) => (at === 0 ? 'o' : `o + ${at}`);

/** `{ key: read, ... }` of a record's data fields at version v, starting at `o`. */
function literal(record: RecordRow, v: RootSignatureVersion, after: readonly string[] = [], before: readonly string[] = []): string {
  const fields = dataFields(record).map(({ key, row }) => {
    const at = row.at[v];
    const value = at === null ? String(row.default ?? 0) : row.kind === 'f32' ? `f32(b, ${plus(at)})` : load(at);
    return `    ${key}: ${value},`;
  });
  return ['{', ...before.map((e) => `    ${e},`), ...fields, ...after.map((e) => `    ${e},`), '  }'].join('\n');
}

function reader(name: string, record: RecordRow, v: RootSignatureVersion): string[] {
  if (record === HEADER) {
    return [
      `function read${name}V${v}(b: Uint8Array, o: number, ${PARAMETERS_KEY}: unknown[], ${SAMPLERS_KEY}: unknown[]): Fields {`,
      `  return ${literal(record, v, [PARAMETERS_KEY, SAMPLERS_KEY], [`${VERSION_KEY}: ${v}`])};`,
      '}',
    ];
  }
  if (record === PARAMETER) {
    // one literal per payload kind, so each parameter shape has its own site
    return [...new Set(PARAMETER_TYPES.map((t) => t.payload))].flatMap((payload) => [
      `function read${name}${cap(payload)}V${v}(b: Uint8Array, o: number, ${payload}: unknown): Fields {`,
      `  return ${literal(record, v, [payload])};`,
      '}',
    ]);
  }
  const floats = dataFields(record).filter((f) => f.row.kind === 'f32' && f.row.at[v] !== null);
  if (floats.length > 0) {
    // a NaN keeps its payload bits (record-support.ts keepNanBits)
    return [
      `function read${name}V${v}(b: Uint8Array, o: number): Fields {`,
      `  const r = ${literal(record, v)};`,
      `  if (${floats.map((f) => `r.${f.key} !== r.${f.key}`).join(' || ')}) keepNanBits(b, o, r, [${floats.map((f) => q(f.key)).join(', ')}], [${floats.map((f) => f.row.at[v]).join(', ')}]);`,
      '  return r;',
      '}',
    ];
  }
  return [`function read${name}V${v}(b: Uint8Array, o: number): Fields {`, `  return ${literal(record, v)};`, '}'];
}

function writer(name: string, record: RecordRow, v: RootSignatureVersion, versionName: string): string[] {
  const body: string[] = [];
  const absent: string[] = []; // checked after the stored fields, as they always were
  for (const { key, row } of dataFields(record)) {
    const at = row.at[v];
    if (at === null) {
      absent.push(`  x = r[${q(key)}];`, `  if (x !== 0 && x !== undefined) notStored(x, path(i, j), ${q(key)}, ${q(versionName)});`);
    } else if (row.kind === 'f32') {
      body.push(`  putF32(out, ${plus(at)}, r[${q(key)}], r, path, i, j, ${q(key)});`);
    } else {
      body.push(`  putU32(out, ${plus(at)}, r[${q(key)}], path, i, j, ${q(key)});`);
    }
  }
  const declare = absent.length > 0 ? ['  let x: unknown;'] : [];
  return [`function write${name}V${v}(out: Uint8Array, o: number, r: Fields, path: PathOf, i: number, j: number): void {`, ...declare, ...body, ...absent, '}'];
}

/**
 * The u32 at o + at: a call of the generated file's own `u32` (byte by byte, with no DataView to
 * make per record or per part: making one costs about as much as reading forty fields). A function
 * of this module, not of another (a call into another module goes through a getter under tsx, and
 * the bench runs the sources through tsx); V8 inlines it, and an app carries it once, not once per
 * field (issue 29's bundle budgets).
 */
function load(at: number): string {
  return `u32(b, ${plus(at)})`;
}


const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The generated file's text. */
export function generateRts0Records(): string {
  const out: string[] = [
    '// Generated by scripts/gen-rts0-records.ts from codecs/root-signature.ts (`npm run gen`): do not edit.',
    '// test/generated.test.ts fails when this file is not what the rows generate.',
    '/* eslint-disable */',
    "import { keepNanBits, nanBits, notNumber, notStored, notU32, type Fields, type PathOf } from './record-support.js';",
    '',
    '// binary32 rounding of a number and its bits',
    'const F32 = new Float32Array(1);',
    'const F32_BITS = new Uint32Array(F32.buffer);',
    '',
    '/** The binary32 at `o`, as a number. */',
    'function f32(b: Uint8Array, o: number): number {',
    '  F32_BITS[0] = u32(b, o);',
    '  return F32[0]!;',
    '}',
    '',
    '/** The u32 at `o`, byte by byte. */',
    'function u32(b: Uint8Array, o: number): number {',
    '  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;',
    '}',
    '',
    '/** Stores the u32 `x` at `o`, byte by byte. */',
    'function put(out: Uint8Array, o: number, x: number): void {',
    '  out[o] = x;',
    '  out[o + 1] = x >>> 8;',
    '  out[o + 2] = x >>> 16;',
    '  out[o + 3] = x >>> 24;',
    '}',
    '',
    '/** Checks that `x` (field `key` of record (i, j)) is a u32 and stores it at `o`. */',
    'function putU32(out: Uint8Array, o: number, x: unknown, path: PathOf, i: number, j: number, key: string): void {',
    '  if (typeof x !== \'number\' || x >>> 0 !== x) notU32(x, path(i, j), key);',
    '  put(out, o, x);',
    '}',
    '',
    '/** Checks that `x` (f32 field `key` of record r, (i, j)) is a number and stores its binary32 at `o`; a NaN keeps the bits r.nanBits holds for it. */',
    'function putF32(out: Uint8Array, o: number, x: unknown, r: Fields, path: PathOf, i: number, j: number, key: string): void {',
    '  if (typeof x !== \'number\') notNumber(path(i, j), key);',
    '  let b: number;',
    '  if (x === x) {',
    '    F32[0] = x;',
    '    b = F32_BITS[0]!;',
    '  } else b = nanBits(x, r, key);',
    '  put(out, o, b);',
    '}',
    '',
    '/** The per-record readers of one version. */',
    'export interface RecordReaders {',
  ];
  const payloads = [...new Set(PARAMETER_TYPES.map((t) => t.payload))];
  out.push(
    `  readonly readHeader: (b: Uint8Array, o: number, ${PARAMETERS_KEY}: unknown[], ${SAMPLERS_KEY}: unknown[]) => Fields;`,
    '  /** A parameter record with its payload, by payload key. */',
    `  readonly readParameter: { readonly [payload: string]: (b: Uint8Array, o: number, payload: unknown) => Fields };`,
    ...KINDS.filter(([, r]) => r !== HEADER && r !== PARAMETER).map(([n]) => `  readonly read${n}: (b: Uint8Array, o: number) => Fields;`),
    '}',
    '',
    '/** The per-record writers of one version. */',
    'export interface RecordWriters {',
    ...KINDS.map(([n]) => `  readonly write${n}: (out: Uint8Array, o: number, r: Fields, path: PathOf, i: number, j: number) => void;`),
    '}',
  );
  // A function whose text is that of an earlier version's (the same offsets and checks) is not
  // written again: the tables name the earlier one (an app carries each layout once).
  const same = new Map<string, string>(); // text with its version's suffix blanked -> name of the first
  const named = new Map<string, string>(); // name -> the name the tables use
  const once = (lines: string[], v: RootSignatureVersion): string[] => {
    const out: string[] = [];
    let fn: string[] = [];
    const flush = () => {
      if (fn.length === 0) return;
      const name = /^function (\w+)\(/.exec(fn[0]!)![1]!;
      const key = fn.join('\n').replace(new RegExp(`V${v}\\(`), 'V(');
      const first = same.get(key);
      if (first === undefined) {
        same.set(key, name);
        named.set(name, name);
        out.push(...fn);
      } else named.set(name, first);
      fn = [];
    };
    for (const l of lines) {
      if (l.startsWith('function ')) flush();
      if (l.startsWith('function ') || fn.length > 0) fn.push(l);
      else out.push(l);
    }
    flush();
    return out;
  };
  for (const { value: v, name: versionName } of ROOT_SIGNATURE_VERSIONS) {
    out.push('', `// ---------------------------------------------------------------- version ${versionName}`, '');
    for (const [name, record] of KINDS) {
      for (const part of [reader(name, record, v), writer(name, record, v, versionName)]) {
        const kept = once(part, v);
        if (kept.length > 0) out.push(...kept, '');
      }
    }
  }
  const n = (name: string) => named.get(name) ?? name;
  // two tables, so that an app that only decodes carries no writer (and one that only encodes no reader)
  out.push('/** Readers by stored version number. */', 'export const RECORD_READERS: Record<number, RecordReaders> = {');
  for (const { value: v } of ROOT_SIGNATURE_VERSIONS) {
    const names = [
      `readHeader: ${n(`readHeaderV${v}`)}`,
      `readParameter: { ${payloads.map((p) => `${p}: ${n(`readParameter${cap(p)}V${v}`)}`).join(', ')} }`,
      ...KINDS.filter(([, r]) => r !== HEADER && r !== PARAMETER).map(([k]) => `read${k}: ${n(`read${k}V${v}`)}`),
    ];
    out.push(`  ${v}: {`, ...names.map((n) => `    ${n},`), '  },');
  }
  out.push('};', '', '/** Writers by stored version number. */', 'export const RECORD_WRITERS: Record<number, RecordWriters> = {');
  for (const { value: v } of ROOT_SIGNATURE_VERSIONS) {
    const names = KINDS.map(([k]) => `write${k}: ${n(`write${k}V${v}`)}`);
    out.push(`  ${v}: {`, ...names.map((n) => `    ${n},`), '  },');
  }
  out.push('};', '');
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(new URL(`../${GENERATED_PATH}`, import.meta.url), generateRts0Records());
  console.log(`wrote ${GENERATED_PATH}`);
}
