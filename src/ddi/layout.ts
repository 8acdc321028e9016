/**
 * C layout of the codecs/ddi.ts structs on Windows x64 and x86 (MSVC default packing): each
 * field at the next multiple of its alignment, the struct's alignment the largest of its
 * fields', its size rounded up to that. UINT, BOOL and enums 4/4, UINT16 2/2, UINT8 1/1,
 * pointers 8/8 on x64 and 4/4 on x86.
 */
import { STRUCTS, type Abi, type FieldType, type StructDef } from '../../codecs/ddi.js';
import { DescriptionError } from '../bytes/errors.js';

export interface FieldLayout {
  name: string;
  offset: number;
  size: number;
  align: number;
  type: FieldType;
}

export interface StructLayout {
  name: string;
  abi: Abi;
  size: number;
  align: number;
  fields: FieldLayout[];
}

export function structDef(name: string): StructDef {
  const bare = name.replace(/^D3D12(DDI)?_/, '');
  const hit = STRUCTS.find((s) => s.name === name || s.cli === name || s.name.replace(/^D3D12(DDI)?_/, '') === bare);
  if (!hit) throw new DescriptionError('bad-name', 'type', `unknown structure ${JSON.stringify(name)} (known: ${STRUCTS.map((s) => s.cli).join(', ')})`);
  return hit;
}

export function pointerSize(abi: Abi): number {
  return abi === 'x64' ? 8 : 4;
}

const cache = new Map<string, StructLayout>();

export function structLayout(name: string, abi: Abi): StructLayout {
  const def = structDef(name);
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
      return { size: pointerSize(abi), align: pointerSize(abi) };
    case 'struct': {
      const l = structLayout(type.struct, abi);
      return { size: l.size, align: l.align };
    }
    default:
      return { size: 4, align: 4 };
  }
}
