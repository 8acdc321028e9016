/**
 * A generated RDEF part with constant buffer variables and type descriptions (struct members,
 * arrays, a type two places share), laid out as fxc lays out SM 4/5 RDEF parts: header, RD11 (SM 5),
 * bindings, constant buffers, variables, types and members, default values, then the strings. The
 * records are written by the one row writer from the rows of codecs/parts.ts. The corpus's RDEF parts
 * hold scalars only; this reaches the member walk (the `part` fuzz target's seed, test/rdef.test.ts).
 */
import { RDEF_BINDING, RDEF_CONSTANT_BUFFER, RDEF_HEADER, RDEF_INTERFACE, RDEF_MEMBER, RDEF_RD11, RDEF_RD11_AT, RDEF_TYPE, RDEF_TYPE_5, RDEF_VARIABLE, RDEF_VARIABLE_5 } from '../../codecs/parts.js';
import { writeRecord, type Row } from '../rows/record.js';

/** A type description of the seed; `members` name other types by index (so a cycle can be made). */
export interface SeedType {
  class: number;
  type: number;
  rows: number;
  columns: number;
  elements?: number;
  name: string;
  members?: { name: string; type: number; offset: number }[];
  /** SM 5.0 class types: the sub type, base class and interfaces, by index. */
  subType?: number;
  baseClass?: number;
  interfaces?: number[];
}

export interface SeedVariable {
  name: string;
  start: number;
  size: number;
  flags: number;
  type: number;
  defaultValue?: Uint8Array;
}

export interface SeedRdef {
  /** SM 5.0 (RD11, 40-byte variables, 36-byte named types) or SM 4.0. */
  sm5: boolean;
  cbuffers: { name: string; size: number; variables: SeedVariable[] }[];
  types: SeedType[];
}

/** The default seed: `color` (float4, with a default value) and `o` (struct Outer { Inner i[2]; float4 v; }, Inner { int a; }). */
export const SEED_RDEF: SeedRdef = {
  sm5: true,
  cbuffers: [
    {
      name: 'Params',
      size: 64,
      variables: [
        { name: 'color', start: 0, size: 16, flags: 2, type: 0, defaultValue: Uint8Array.from({ length: 16 }, (_, i) => i) },
        { name: 'o', start: 16, size: 48, flags: 2, type: 1 },
      ],
    },
  ],
  types: [
    { class: 1, type: 3, rows: 1, columns: 4, name: 'float4' },
    { class: 5, type: 0, rows: 1, columns: 12, name: 'Outer', members: [{ name: 'i', type: 2, offset: 0 }, { name: 'v', type: 0, offset: 32 }] },
    { class: 5, type: 0, rows: 1, columns: 4, elements: 2, name: 'Inner', members: [{ name: 'a', type: 3, offset: 0 }] },
    { class: 0, type: 2, rows: 1, columns: 1, name: 'int' },
  ],
};

/**
 * SM 5.0 classes: `m` of class Derived : Base, implementing interface ILight (a member `b` of
 * Base's type too), and `p`, an interface pointer whose sub type is ILight: the four SM 5.0 type
 * words set, which the corpus's fxc parts (no classes) leave 0.
 */
export const SEED_RDEF_CLASSES: SeedRdef = {
  sm5: true,
  cbuffers: [
    {
      name: 'Classes',
      size: 48,
      variables: [
        { name: 'm', start: 0, size: 32, flags: 2, type: 1 },
        { name: 'p', start: 32, size: 16, flags: 6, type: 4 },
      ],
    },
  ],
  types: [
    { class: 1, type: 3, rows: 1, columns: 4, name: 'float4' },
    { class: 6, type: 0, rows: 1, columns: 8, name: 'Derived', members: [{ name: 'b', type: 0, offset: 16 }], baseClass: 2, interfaces: [3] },
    { class: 6, type: 0, rows: 1, columns: 4, name: 'Base', members: [{ name: 'a', type: 0, offset: 0 }] },
    { class: 6, type: 37, rows: 0, columns: 0, name: 'ILight' },
    { class: 7, type: 37, rows: 1, columns: 1, name: 'ILight', subType: 3 },
  ],
};

/** The RDEF part bytes of `seed`. */
export function seedRdefPart(seed: SeedRdef = SEED_RDEF): Uint8Array {
  const V = seed.sm5 ? RDEF_VARIABLE_5 : RDEF_VARIABLE;
  const T = seed.sm5 ? RDEF_TYPE_5 : RDEF_TYPE;
  const strings: string[] = [];
  const placed: { def: typeof V; row: Row; at: number }[] = [];
  let at = seed.sm5 ? RDEF_RD11_AT + RDEF_RD11.size : RDEF_HEADER.size;
  const take = (n: number) => {
    const here = at;
    at += n;
    return here;
  };
  // every string offset is patched once the strings' place is known: keep the row and key
  const names: { row: Row; key: string; text: string }[] = [];
  const named = (row: Row, key: string, text: string) => {
    names.push({ row, key, text });
    return row;
  };
  const bindingAt = take(RDEF_BINDING.size * seed.cbuffers.length);
  const cbAt = take(RDEF_CONSTANT_BUFFER.size * seed.cbuffers.length);
  const variablesAt = seed.cbuffers.map((cb) => take(V.size * cb.variables.length));
  const typeAt = seed.types.map(() => take(T.size));
  const membersAt = seed.types.map((t) => take(RDEF_MEMBER.size * (t.members?.length ?? 0)));
  const interfacesAt = seed.types.map((t) => take(RDEF_INTERFACE.size * (seed.sm5 ? (t.interfaces?.length ?? 0) : 0)));
  const defaults = new Map<SeedVariable, number>();
  for (const cb of seed.cbuffers) for (const v of cb.variables) if (v.defaultValue) defaults.set(v, take(v.defaultValue.byteLength));
  seed.cbuffers.forEach((cb, i) => {
    placed.push({ def: RDEF_BINDING, at: bindingAt + i * RDEF_BINDING.size, row: named({ type: 0, returnType: 0, dimension: 0, sampleCount: 0, bindPoint: i, bindCount: 1, flags: 0 }, 'name', cb.name) });
    placed.push({ def: RDEF_CONSTANT_BUFFER, at: cbAt + i * RDEF_CONSTANT_BUFFER.size, row: named({ variableCount: cb.variables.length, variableOffset: variablesAt[i], size: cb.size, flags: 0, type: 0 }, 'name', cb.name) });
    cb.variables.forEach((v, k) => {
      const row: Row = { startOffset: v.start, size: v.size, flags: v.flags, typeOffset: typeAt[v.type], defaultValueOffset: defaults.get(v) ?? 0, startTexture: 0xffffffff, textureSize: 0, startSampler: 0xffffffff, samplerSize: 0 };
      placed.push({ def: V, at: variablesAt[i]! + k * V.size, row: named(row, 'name', v.name) });
    });
  });
  seed.types.forEach((t, i) => {
    const interfaces = t.interfaces ?? [];
    const row: Row = {
      class: t.class,
      type: t.type,
      rows: t.rows,
      columns: t.columns,
      elements: t.elements ?? 0,
      memberCount: t.members?.length ?? 0,
      memberOffset: t.members?.length ? membersAt[i] : 0,
      subTypeOffset: t.subType === undefined ? 0 : typeAt[t.subType],
      baseClassOffset: t.baseClass === undefined ? 0 : typeAt[t.baseClass],
      interfaceCount: interfaces.length,
      interfaceOffset: interfaces.length ? interfacesAt[i] : 0,
    };
    if (seed.sm5) interfaces.forEach((x, k) => placed.push({ def: RDEF_INTERFACE, at: interfacesAt[i]! + k * RDEF_INTERFACE.size, row: { typeOffset: typeAt[x] } }));
    placed.push({ def: T, at: typeAt[i]!, row: seed.sm5 ? named(row, 'name', t.name) : row });
    t.members?.forEach((m, k) => placed.push({ def: RDEF_MEMBER, at: membersAt[i]! + k * RDEF_MEMBER.size, row: named({ typeOffset: typeAt[m.type], offset: m.offset }, 'name', m.name) }));
  });
  const header: Row = { constantBufferCount: seed.cbuffers.length, constantBufferOffset: cbAt, bindingCount: seed.cbuffers.length, bindingOffset: bindingAt, version: seed.sm5 ? 0xffff0500 : 0xffff0400, flags: 0 };
  placed.push({ def: RDEF_HEADER, at: 0, row: named(header, 'creator', 'dxbin seed') });
  if (seed.sm5) placed.push({ def: RDEF_RD11, at: RDEF_RD11_AT, row: { magic: 'RD11', headerSize: RDEF_RD11_AT + RDEF_RD11.size, constantBufferSize: RDEF_CONSTANT_BUFFER.size, bindingSize: RDEF_BINDING.size, variableSize: V.size, typeSize: T.size, memberSize: RDEF_MEMBER.size, reserved: 0 } });
  // strings once each, after the records
  const offsetOf = new Map<string, number>();
  const encoder = new TextEncoder();
  for (const n of names) {
    if (!offsetOf.has(n.text)) {
      offsetOf.set(n.text, at);
      strings.push(n.text);
      at += encoder.encode(n.text).byteLength + 1;
    }
    n.row[`${n.key}Offset`] = offsetOf.get(n.text);
  }
  const size = (at + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  for (const p of placed) writeRecord(p.def, p.row, view, p.at);
  for (const [v, o] of defaults) out.set(v.defaultValue!, o);
  for (const s of strings) out.set(encoder.encode(s), offsetOf.get(s)!);
  return out;
}
