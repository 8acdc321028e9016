/** Seeded random DDI values for any struct of codecs/ddi.ts, with shared references. */
import { type FieldType, type Pointee } from '../../codecs/ddi.js';
import { structDef, type DdiObject, type DdiValue } from '../../src/ddi/index.js';
import { floatValue } from '../../src/ddi/image.js';

export function randomDdi(struct: string, seed: number): DdiObject {
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const u32 = () => (rnd() < 0.3 ? pick([0, 1, 2, 0xffffffff, 0x7fffffff]) : Math.floor(rnd() * 4294967296));
  const made = new Map<string, DdiObject[]>();
  let root: DdiObject | undefined;

  const value = (type: FieldType, owner: DdiObject, depth: number): DdiValue => {
    switch (type.kind) {
      case 'UINT':
        return u32();
      case 'BOOL':
        return rnd() < 0.5 ? 0 : 1;
      case 'UINT16':
        return Math.floor(rnd() * 65536);
      case 'UINT8':
        return Math.floor(rnd() * 256);
      case 'enum':
        return rnd() < 0.9 ? pick(type.table.values)[1] : u32();
      case 'flags':
        return (u32() & (type.table.validMask | (rnd() < 0.1 ? 0xffff0000 : 0)) & (type.size === 1 ? 0xff : 0xffffffff)) >>> 0;
      case 'struct':
        return object(type.struct, depth + 1);
      case 'INT':
        return u32() | 0;
      case 'FLOAT':
        return floatValue(rnd() < 0.5 ? pick([0, 0x3f800000, 0xbf000000, 0x7f800000, 0x7fc00001, 0x00000001]) : u32());
      case 'SIZE_T':
      case 'interface':
        return rnd() < 0.2 ? 0 : Math.floor(rnd() * 0x100000);
      case 'array':
        return Array.from({ length: type.count }, () => value(type.of, owner, depth));
      case 'ptr':
        if (type.optional !== false && (depth > 3 || rnd() < 0.35)) return null;
        return pointee(type.to, owner, depth + 1);
    }
  };
  const length = (owner: DdiObject, field: string) => (typeof owner[field] === 'number' && (owner[field] as number) < 8 ? (owner[field] as number) : Math.floor(rnd() * 4));
  const pointee = (to: Pointee, owner: DdiObject, depth: number): DdiValue => {
    if (to.kind === 'wstring') return Array.from({ length: Math.floor(rnd() * 6) }, () => String.fromCharCode(pick([0x41, 0x7a, 0xe9, 0x3042, 0xd83d, 0x5f]))).join('');
    if (to.kind === 'uint') return to.count === 1 ? u32() : Array.from({ length: to.count }, u32);
    if (to.kind === 'cstring') return Array.from({ length: Math.floor(rnd() * 9) }, () => pick(['P', 'O', 'S', 'I', 'T', 'N', 'a', '_', '0', '\xe9'])).join('');
    if (to.kind === 'bytes') return Uint8Array.from({ length: length(owner, to.count.field) * 3 }, () => Math.floor(rnd() * 256));
    if (to.kind === 'uints') return Array.from({ length: length(owner, to.count.field) }, u32);
    if (to.kind === 'stream') {
      const cases = Object.entries(to.cases);
      return Array.from({ length: Math.floor(rnd() * 6) }, () => {
        const [tag, name] = pick(cases);
        const o = object(name, depth);
        o[to.by] = Number(tag);
        return o;
      });
    }
    const struct = to.kind === 'struct' ? to.struct : to.cases[owner[to.by] as number];
    if (!struct) return null;
    if (to.kind === 'struct' && to.count) {
      const n = length(owner, to.count.field);
      return n === 0 ? null : Array.from({ length: n }, () => object(struct, depth));
    }
    const existing = (made.get(struct) ?? []).filter((o) => o !== root);
    if (existing.length && (depth > 3 || rnd() < 0.25)) return pick(existing); // shared, possibly cyclic
    return object(struct, depth);
  };
  const object = (name: string, depth: number): DdiObject => {
    const def = structDef(name);
    const obj: DdiObject = {};
    root ??= obj;
    made.set(def.name, [...(made.get(def.name) ?? []), obj]);
    for (const f of def.fields) {
      if (f.name === 'NumOutputs') obj[f.name] = Math.floor(rnd() * 3);
      else if (f.name === 'PropertiesType') obj[f.name] = pick([1, 2, 3]);
      else obj[f.name] = value(f.type, obj, depth);
    }
    // count fields after their pointer (pShaderBytecode, BytecodeLength) follow the list made
    for (const f of def.fields) {
      if (f.type.kind !== 'ptr') continue;
      const to = f.type.to;
      const v = obj[f.name];
      if ((to.kind === 'bytes' || to.kind === 'uints' || (to.kind === 'struct' && to.count)) && (Array.isArray(v) || v instanceof Uint8Array)) obj[to.count!.field] = v.length;
    }
    return obj;
  };
  return object(struct, 0);
}
