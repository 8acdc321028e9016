/**
 * The generator of fast record readers and writers from the row vocabulary (codecs/rows.ts
 * `RecordDef`s): a reader is a function `(b, o, ...params) => Fields` returning one object literal
 * of the record's fields; a writer `(out, o, r, path, i, j) => void` checks each value and stores
 * it. src/rows/record.ts interprets the same `RecordDef`s generically (one reader for every format);
 * a format whose records are read on a hot path has them generated instead: RTS0
 * (scripts/gen-rts0-records.ts makes src/root-signature/records.generated.ts, `npm run gen`).
 *
 * Why generated, not built at load: V8 makes an object literal with fixed keys in one step, with
 * one hidden class per site, and compiles `r['rangeType']` to a named-property load; readers built
 * from the rows at load (keys in arrays, a keyed store per field) measured 4x slower per decode, and
 * `new Function` is not an option (a strict Content-Security-Policy forbids it). The rows stay the
 * one source: test/generated.test.ts regenerates the file in memory and fails when the checked-in
 * copy differs, naming the command that brings it up to date.
 *
 * Field types generated: `u32` and `f32`, and enumerations and flag words of width u32 (read and
 * written as their u32); any other type is refused when generating (add it here when a generated
 * format needs it). The generated module imports from a support module (`support`) that exports:
 * `Fields` and `PathOf` (types); `notU32(value, path, key)` and `notNumber(path, key)`, which
 * throw for a value a field cannot hold; `notStored(value, path, key, layout)`, which throws for a
 * value a layout has no field for; `keepNanBits(b, o, r, keys, offsets)` and `nanBits(value, r,
 * key)`, which keep a NaN's bits in `r.nanBits` and give them back (src/bytes/f32.ts).
 */
import type { FieldType, RecordDef } from '../codecs/rows.js';

/** A reader function: `name(b, o, ...params)` returns `{ key: value, ... }`. */
export interface ReaderSpec {
  readonly name: string;
  readonly def: RecordDef;
  /** The object literal's keys in order; default: every field of `def`. */
  readonly keys?: readonly string[];
  /** Code for the keys not read from the bytes (a constant, a parameter); any other key is its field's value. */
  readonly values?: Readonly<Record<string, string>>;
  /** Parameters after `b: Uint8Array, o: number` (`'ranges: unknown'`). */
  readonly params?: readonly string[];
}

/** A writer function: `name(out, o, r, path, i, j)` stores `r`'s values of `keys` at their fields. */
export interface WriterSpec {
  readonly name: string;
  readonly def: RecordDef;
  /**
   * The keys in order; default: every field of `def`. A key `def` has no field for is one this
   * layout lacks: a value other than 0 (or none) is refused (`notStored`), after the stored ones.
   */
  readonly keys?: readonly string[];
  /** The layout's name in that refusal (RTS0: the version, "1.0"). */
  readonly layout?: string;
}

type Load = 'u32' | 'f32';

/** How a field of type `t` is loaded and stored, or an Error naming what is not generated. */
function loadOf(def: RecordDef, key: string, t: FieldType): Load {
  if (t === 'u32' || t === 'f32') return t;
  if (typeof t === 'object' && ('enum' in t || 'flags' in t) && t.width === 'u32') return 'u32';
  throw new Error(`gen-records: ${def.name}.${key}: ${JSON.stringify(t, (_k, v: unknown) => (Array.isArray(v) && v.length > 4 ? `[${v.length} rows]` : v))} is not a type the generator writes (u32, f32, enums and flags of u32)`);
}

const q = (s: string) => `'${s}'`;
/** `o + at`, or `o` at offset 0. */
const plus = (at: number) => (at === 0 ? 'o' : `o + ${at}`);

/** The fixed field of `def` under `key` with its offset and load, or undefined when `def` has none. */
function fieldOf(def: RecordDef, key: string): { at: number; load: Load } | undefined {
  const f = def.fields.find((x) => x.key === key);
  if (f === undefined) return undefined;
  if (typeof f.at !== 'number') throw new Error(`gen-records: ${def.name}.${key} has no fixed offset`);
  return { at: f.at, load: loadOf(def, key, f.type) };
}

/** What a module of generated functions calls: collected as the functions are made. */
interface Uses {
  readonly support: Set<string>;
  readonly helpers: Set<string>;
}

function readerLines(spec: ReaderSpec, uses: Uses): string[] {
  const keys = spec.keys ?? spec.def.fields.map((f) => f.key);
  const floats: { key: string; at: number }[] = [];
  const entries = keys.map((key) => {
    const given = spec.values?.[key];
    if (given !== undefined) return given === key ? `    ${key},` : `    ${key}: ${given},`;
    const f = fieldOf(spec.def, key);
    if (f === undefined) throw new Error(`gen-records: ${spec.name}: ${spec.def.name} has no field ${key} and no value is given for it`);
    uses.helpers.add('u32');
    if (f.load === 'f32') {
      uses.helpers.add('f32');
      floats.push({ key, at: f.at });
    }
    return `    ${key}: ${f.load}(b, ${plus(f.at)}),`;
  });
  const literal = ['{', ...entries, '  }'].join('\n');
  const head = `function ${spec.name}(b: Uint8Array, o: number${(spec.params ?? []).map((p) => `, ${p}`).join('')}): Fields {`;
  uses.support.add('type Fields');
  if (floats.length === 0) return [head, `  return ${literal};`, '}'];
  // a NaN keeps its payload bits (the support module's keepNanBits)
  uses.support.add('keepNanBits');
  return [
    head,
    `  const r = ${literal};`,
    `  if (${floats.map((f) => `r.${f.key} !== r.${f.key}`).join(' || ')}) keepNanBits(b, o, r, [${floats.map((f) => q(f.key)).join(', ')}], [${floats.map((f) => f.at).join(', ')}]);`,
    '  return r;',
    '}',
  ];
}

function writerLines(spec: WriterSpec, uses: Uses): string[] {
  const body: string[] = [];
  const absent: string[] = []; // checked after the stored fields
  for (const key of spec.keys ?? spec.def.fields.map((f) => f.key)) {
    const f = fieldOf(spec.def, key);
    if (f === undefined) {
      if (spec.layout === undefined) throw new Error(`gen-records: ${spec.name}: ${spec.def.name} has no field ${key} and the spec names no layout for the refusal`);
      uses.support.add('notStored');
      absent.push(`  x = r[${q(key)}];`, `  if (x !== 0 && x !== undefined) notStored(x, path(i, j), ${q(key)}, ${q(spec.layout)});`);
    } else if (f.load === 'f32') {
      ['put', 'putF32'].forEach((h) => uses.helpers.add(h));
      ['nanBits', 'notNumber'].forEach((h) => uses.support.add(h));
      body.push(`  putF32(out, ${plus(f.at)}, r[${q(key)}], r, path, i, j, ${q(key)});`);
    } else {
      ['put', 'putU32'].forEach((h) => uses.helpers.add(h));
      uses.support.add('notU32');
      body.push(`  putU32(out, ${plus(f.at)}, r[${q(key)}], path, i, j, ${q(key)});`);
    }
  }
  ['type Fields', 'type PathOf'].forEach((h) => uses.support.add(h));
  const declare = absent.length > 0 ? ['  let x: unknown;'] : [];
  return [`function ${spec.name}(out: Uint8Array, o: number, r: Fields, path: PathOf, i: number, j: number): void {`, ...declare, ...body, ...absent, '}'];
}

/** The helpers a generated module may hold, in the order they are written, each with the helpers it calls. */
const HELPERS: readonly (readonly [name: string, needs: readonly string[], lines: readonly string[]])[] = [
  ['F32', [], ['// binary32 rounding of a number and its bits', 'const F32 = new Float32Array(1);', 'const F32_BITS = new Uint32Array(F32.buffer);']],
  ['f32', ['F32', 'u32'], ['/** The binary32 at `o`, as a number. */', 'function f32(b: Uint8Array, o: number): number {', '  F32_BITS[0] = u32(b, o);', '  return F32[0]!;', '}']],
  [
    'u32',
    [],
    [
      // a function of the generated module, not of another: a call into another module goes
      // through a getter under tsx (the bench runs the sources through tsx); V8 inlines it, and an
      // app carries it once, not once per field (issue 29's bundle budgets)
      '/** The u32 at `o`, byte by byte. */',
      'function u32(b: Uint8Array, o: number): number {',
      '  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;',
      '}',
    ],
  ],
  ['put', [], ['/** Stores the u32 `x` at `o`, byte by byte. */', 'function put(out: Uint8Array, o: number, x: number): void {', '  out[o] = x;', '  out[o + 1] = x >>> 8;', '  out[o + 2] = x >>> 16;', '  out[o + 3] = x >>> 24;', '}']],
  [
    'putU32',
    ['put'],
    [
      '/** Checks that `x` (field `key` of record (i, j)) is a u32 and stores it at `o`. */',
      'function putU32(out: Uint8Array, o: number, x: unknown, path: PathOf, i: number, j: number, key: string): void {',
      "  if (typeof x !== 'number' || x >>> 0 !== x) notU32(x, path(i, j), key);",
      '  put(out, o, x);',
      '}',
    ],
  ],
  [
    'putF32',
    ['F32', 'put'],
    [
      '/** Checks that `x` (f32 field `key` of record r, (i, j)) is a number and stores its binary32 at `o`; a NaN keeps the bits r.nanBits holds for it. */',
      'function putF32(out: Uint8Array, o: number, x: unknown, r: Fields, path: PathOf, i: number, j: number, key: string): void {',
      "  if (typeof x !== 'number') notNumber(path(i, j), key);",
      '  let b: number;',
      '  if (x === x) {',
      '    F32[0] = x;',
      '    b = F32_BITS[0]!;',
      '  } else b = nanBits(x, r, key);',
      '  put(out, o, b);',
      '}',
    ],
  ],
];

/**
 * A module of generated readers and writers. Functions are added in groups (written one after
 * another, a blank line after the group); a function whose text is that of one added before (the
 * same offsets and checks under another name: a later version's unchanged layout) is not written
 * again, and `nameOf` gives the earlier one for the tables (an app carries each layout once).
 */
export class GeneratedRecords {
  private readonly body: string[] = [];
  private readonly uses: Uses = { support: new Set(), helpers: new Set() };
  private readonly same = new Map<string, string>(); // text with its own name blanked -> the first function's name
  private readonly named = new Map<string, string>(); // name -> the name the tables use

  /**
   * @param header  the file's first comment lines (what generated it, from which rows)
   * @param support the module the generated code imports its support from (relative to the generated file)
   */
  constructor(
    private readonly header: readonly string[],
    private readonly support: string,
  ) {}

  /** Adds readers and writers as one group. */
  add(specs: readonly ({ reader: ReaderSpec } | { writer: WriterSpec })[]): void {
    const kept: string[] = [];
    for (const s of specs) {
      const lines = 'reader' in s ? readerLines(s.reader, this.uses) : writerLines(s.writer, this.uses);
      const name = 'reader' in s ? s.reader.name : s.writer.name;
      const key = [lines[0]!.replace(`function ${name}(`, 'function (')].concat(lines.slice(1)).join('\n');
      const first = this.same.get(key);
      if (first === undefined) {
        this.same.set(key, name);
        this.named.set(name, name);
        kept.push(...lines);
      } else this.named.set(name, first);
    }
    if (kept.length > 0) this.body.push(...kept, '');
  }

  /** Adds lines of the caller's own (interfaces, tables, comments). */
  lines(...lines: string[]): void {
    this.body.push(...lines);
  }

  /** The function the tables name for `name`: itself, or the earlier function with the same text. */
  nameOf(name: string): string {
    const n = this.named.get(name);
    if (n === undefined) throw new Error(`gen-records: no function ${name} was added`);
    return n;
  }

  /** The module's text: the header, the import of what the functions use, the helpers they call, the body. */
  text(): string {
    const helpers = new Set<string>();
    const need = (h: string) => {
      if (helpers.has(h)) return;
      helpers.add(h);
      for (const n of HELPERS.find(([name]) => name === h)![1]) need(n);
    };
    this.uses.helpers.forEach(need);
    const bare = (s: string) => s.replace(/^type /, '');
    const imports = [...this.uses.support].sort((a, b) => Number(a.startsWith('type ')) - Number(b.startsWith('type ')) || (bare(a) < bare(b) ? -1 : 1));
    const out = [...this.header, '/* eslint-disable */', `import { ${imports.join(', ')} } from '${this.support}';`, ''];
    for (const [name, , lines] of HELPERS) if (helpers.has(name)) out.push(...lines, '');
    out.push(...this.body);
    return out.join('\n');
  }
}
