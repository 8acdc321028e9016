/**
 * C layout of the codecs/ddi.ts structs on Windows x64 and x86 (MSVC default packing): each
 * field at the next multiple of its alignment, the struct's alignment the largest of its
 * fields', its size rounded up to that. UINT, BOOL and enums 4/4, UINT16 2/2, UINT8 1/1,
 * pointers 8/8 on x64 and 4/4 on x86.
 */
import { ABIS, STRUCTS, type Abi, type FieldType, type StructDef } from '../../codecs/ddi.js';
import { PIPELINE_STRUCTS, STREAM_STRUCTS } from '../../codecs/pipeline.js';
import { DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { expectKnownKeys, kindOf, type KnownKeysOptions } from '../bytes/check.js';

/** Where a field lies in a struct for one ABI: its offset, size, alignment and type. */
export interface FieldLayout {
  name: string;
  offset: number;
  size: number;
  align: number;
  type: FieldType;
}

/** A struct laid out for one ABI as the C compiler does: size, alignment and each field's place. */
export interface StructLayout {
  name: string;
  abi: Abi;
  size: number;
  align: number;
  fields: FieldLayout[];
}

/** The names structDef takes, as the CLI spells them. */
const KNOWN_STRUCTS = () => STRUCTS.map((s) => s.cli).join(', ');

/** Every struct the layout engine knows: the DDI structures, then the pipeline state structs (codecs/pipeline.ts). */
const ALL_STRUCTS: readonly StructDef[] = [...STRUCTS, ...PIPELINE_STRUCTS, ...STREAM_STRUCTS];
const bareName = (name: string) => name.replace(/^D3D12(DDI)?_/, '');
/** Every spelling (C name, CLI name, bare name) -> the structures it names; made on first use. */
let byName: Map<string, StructDef[]> | undefined;
function structsNamed(name: string): StructDef[] | undefined {
  if (!byName) {
    byName = new Map();
    for (const s of ALL_STRUCTS) {
      for (const n of new Set([s.name, s.cli, bareName(s.name)])) {
        const list = byName.get(n);
        if (!list) byName.set(n, [s]);
        else if (!list.includes(s)) list.push(s);
      }
    }
  }
  return byName.get(name) ?? byName.get(bareName(name));
}

/**
 * The structure named `name` (its C name, with or without the D3D12/D3D12DDI prefix, or the CLI's name).
 * @throws {DescriptionError} bad-name for an unknown name, bad-type for a name that is not a string (path `type`; both list the known names),
 *   ambiguous-name for a bare name two structures share
 */
export function structDef(name: string): StructDef {
  if (typeof name !== 'string') throw new DescriptionError('bad-type', 'type', `expected a structure name, got ${kindOf(name)} (known: ${KNOWN_STRUCTS()})`);
  const hits = structsNamed(name) ?? [];
  // a bare name that two structures answer (D3D12_X and D3D12DDI_X) is refused, never the first taken
  if (hits.length > 1) throw new DescriptionError('ambiguous-name', 'type', `${quoted(name)} names ${hits.map((h) => h.name).join(' and ')}: give the full C name`);
  const hit = hits[0];
  if (!hit) throw new DescriptionError('bad-name', 'type', `unknown structure ${quoted(name)} (known: ${KNOWN_STRUCTS()})`);
  return hit;
}

/** Each struct's field names and how a refusal names them (by its list of fields: a StructDef's and its layouts' are one list each), made on first use. */
const fieldNames = new WeakMap<readonly { name: string }[], { known: ReadonlySet<string>; options: KnownKeysOptions }>();

/**
 * Refuses a key of `obj` that is no field of the struct (nor `allowed`, the JSON form's "$id"):
 * a misspelled field would otherwise be dropped without a word. The one check of the JSON form
 * (ddiFromJson), of a value to write as JSON (ddiToJson) and of one to encode (encodeImage);
 * the library's one check of unknown keys (src/bytes/check.ts expectKnownKeys) words it.
 * @param path the object's path, or a function that spells it (called only for the error)
 * @throws {DescriptionError} unknown-key at the path and the key (through pathKey: escaped, cut when long)
 */
export function refuseUnknownKeys(struct: { name: string; fields: readonly { name: string }[] }, obj: object, path: string | (() => string), allowed?: string): void {
  let hit = fieldNames.get(struct.fields);
  if (!hit) {
    const known = new Set(struct.fields.map((f) => f.name));
    fieldNames.set(struct.fields, (hit = { known, options: { form: struct.name, names: () => known } }));
  }
  const { known, options } = hit;
  expectKnownKeys(obj, allowed === undefined ? known : (key) => key === allowed || known.has(key), path, options);
}

/**
 * Pointer size in bytes of an ABI.
 * @throws {DescriptionError} bad-name (path `abi`) for anything but an ABIS name
 */
export function pointerSize(abi: Abi): number {
  if (abi === 'x64') return 8;
  if (abi === 'x86') return 4;
  throw new DescriptionError('bad-name', 'abi', `unknown ABI ${typeof abi === 'string' ? quoted(abi) : kindOf(abi)} (known: ${ABIS.join(', ')})`);
}

const cache = new Map<string, StructLayout>();

/** The layout of a struct (C name or CLI spelling) for an ABI; throws DescriptionError for an unknown name. */
export function structLayout(name: string, abi: Abi): StructLayout {
  const def = structDef(name);
  pointerSize(abi); // the ABI is known (before the cache: a bad one is never a key)
  const key = `${def.name}/${abi}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let offset = 0;
  let align = 1;
  const fields = def.fields.map((f) => {
    const { size, align: a } = fieldSize(f.type, abi);
    offset = Math.ceil(offset / a) * a;
    const field = { name: f.name, offset, size, align: a, type: f.type };
    offset += size;
    align = Math.max(align, a);
    return field;
  });
  if (def.align === 'pointer') align = Math.max(align, pointerSize(abi));
  const layout = { name: def.name, abi, size: Math.ceil(offset / align) * align, align, fields };
  cache.set(key, layout);
  return layout;
}

function fieldSize(type: FieldType, abi: Abi): { size: number; align: number } {
  switch (type.kind) {
    case 'UINT8':
      return { size: 1, align: 1 };
    case 'UINT16':
      return { size: 2, align: 2 };
    case 'ptr':
    case 'interface':
    case 'SIZE_T':
      return { size: pointerSize(abi), align: pointerSize(abi) };
    case 'flags':
      return type.size === 1 ? { size: 1, align: 1 } : { size: 4, align: 4 };
    case 'array': {
      const one = fieldSize(type.of, abi);
      return { size: one.size * type.count, align: one.align };
    }
    case 'struct': {
      const l = structLayout(type.struct, abi);
      return { size: l.size, align: l.align };
    }
    default:
      return { size: 4, align: 4 };
  }
}
