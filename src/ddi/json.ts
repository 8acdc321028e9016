/**
 * The JSON form of DDI structures: C field names, enum values by name (numbers where a value has
 * no name), flags as name lists, pointers as nested values (null for NULL). An object reached more
 * than once carries "$id" where it first appears and is written {"$ref": id} afterwards, so shared
 * targets and cycles (a node that outputs to itself) survive.
 */
import type { FieldType, Pointee } from '../../codecs/ddi.js';
import { DescriptionError } from '../bytes/errors.js';
import { enumName, enumValue, flagNames, flagValue } from '../json/vocabulary.js';
import type { DdiObject, DdiValue } from './image.js';
import { structDef } from './layout.js';

type Json = unknown;

function pointeeStruct(to: Pointee, owner: DdiObject): string | undefined {
  if (to.kind === 'struct') return to.struct;
  if (to.kind === 'select') return to.cases[owner[to.by] as number];
  return undefined;
}

export function ddiToJson(struct: string, value: DdiObject): Json {
  const counts = new Map<object, number>();
  const count = (v: DdiValue): void => {
    if (typeof v !== 'object' || v === null) return;
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n > 1) return;
    if (Array.isArray(v)) (v as DdiValue[]).forEach(count);
    else for (const x of Object.values(v)) count(x);
  };
  count(value);
  const ids = new Map<object, string>();
  const emit = (name: string, obj: DdiObject): Json => {
    if (ids.has(obj)) return { $ref: ids.get(obj) };
    const out: Record<string, Json> = {};
    if ((counts.get(obj) ?? 0) > 1) {
      const id = String(ids.size + 1);
      ids.set(obj, id);
      out.$id = id;
    }
    for (const f of structDef(name).fields) out[f.name] = field(f.type, obj[f.name] ?? null, obj);
    return out;
  };
  const field = (type: FieldType, v: DdiValue, owner: DdiObject): Json => {
    switch (type.kind) {
      case 'enum':
        return enumName(type.table, v as number);
      case 'flags':
        return flagNames(type.table, v as number);
      case 'struct':
        return emit(type.struct, v as DdiObject);
      case 'ptr': {
        if (v === null) return null;
        const s = pointeeStruct(type.to, owner);
        if (!s) return v;
        if (Array.isArray(v)) {
          if (ids.has(v)) return { $ref: ids.get(v) };
          return (v as DdiObject[]).map((item) => emit(s, item));
        }
        return emit(s, v as DdiObject);
      }
      default:
        return v;
    }
  };
  return emit(structDef(struct).name, value);
}

export function ddiFromJson(struct: string, json: Json): DdiObject {
  const byId = new Map<string, DdiObject>();
  const build = (name: string, j: Json, path: string): DdiObject => {
    if (typeof j !== 'object' || j === null || Array.isArray(j)) throw new DescriptionError('bad-type', path, `expected a ${name} object`);
    const o = j as Record<string, Json>;
    if (typeof o.$ref === 'string') {
      const hit = byId.get(o.$ref);
      if (!hit) throw new DescriptionError('bad-name', `${path}.$ref`, `no object with "$id": "${o.$ref}" before this point`);
      return hit;
    }
    const def = structDef(name);
    for (const key of Object.keys(o)) {
      if (key !== '$id' && !def.fields.some((f) => f.name === key)) throw new DescriptionError('unknown-key', `${path}.${key}`, `${def.name} has no field ${key}`);
    }
    const obj: DdiObject = {};
    if (typeof o.$id === 'string') byId.set(o.$id, obj);
    for (const f of def.fields) obj[f.name] = value(f.type, o[f.name], obj, `${path}.${f.name}`);
    return obj;
  };
  const value = (type: FieldType, j: Json, owner: DdiObject, path: string): DdiValue => {
    switch (type.kind) {
      case 'enum':
        return enumValue(type.table, j, path);
      case 'flags':
        return flagValue(type.table, j ?? [], path);
      case 'struct':
        return build(type.struct, j, path);
      case 'ptr': {
        if (j === null || j === undefined) return null;
        const s = pointeeStruct(type.to, owner);
        if (!s) return j as DdiValue;
        if (Array.isArray(j)) return j.map((item, i) => build(s, item, `${path}[${i}]`));
        return build(s, j, path);
      }
      default:
        if (j === undefined) throw new DescriptionError('missing-key', path, 'required');
        return j as DdiValue;
    }
  };
  return build(structDef(struct).name, json, structDef(struct).name);
}
