/**
 * JSON Schema (draft 2020-12) of the pipeline JSON form, built from the rows of codecs/pipeline.ts
 * (`npm run schema` writes schema/pipeline.schema.json): one property per subobject type's key,
 * its shape (a file path, a list, the used part of a fixed array, or the struct) from its inner
 * struct's fields.
 */
import type { FieldType, Pointee } from '../../codecs/ddi.js';
import type { EnumTable, FlagTable } from '../../codecs/enum-table.js';
import { SUBOBJECTS } from '../../codecs/pipeline.js';
import { structDef } from '../ddi/layout.js';
import { enumSchema, flagsSchema, schemaRef, u32Schema } from '../json/schema.js';
import { shapeOf } from './desc.js';

type Schema = Record<string, unknown>;
const ref = schemaRef;

/** The JSON Schema of the pipeline JSON form (schema/pipeline.schema.json), from the rows. */
export function pipelineJsonSchema(): Schema {
  const defs: Record<string, Schema> = {
    u32: u32Schema(),
    f32: { description: 'A number (rounded to binary32), or the bits as "0x" and 1 to 8 hex digits (NaN and infinities)', anyOf: [{ type: 'number' }, { type: 'string', pattern: '^0[xX][0-9a-fA-F]{1,8}$' }] },
    file: { description: 'A file path, relative to the JSON file', type: 'string', minLength: 1 },
  };
  const tables = new Map<EnumTable | FlagTable, string>();
  const tableRef = (t: EnumTable | FlagTable, kind: 'enum' | 'flags') => {
    let name = tables.get(t);
    if (!name) {
      name = t.type.replace(/^(D3D12|DXGI)_/, '');
      tables.set(t, name);
      defs[name] = kind === 'enum' ? enumSchema(t as EnumTable) : flagsSchema(t as FlagTable, 'a list of flag names and numbers');
    }
    return ref(name);
  };
  const structRef = (name: string): Schema => {
    const key = name.replace(/^(D3D12|DXGI)_/, '');
    if (!defs[key]) {
      defs[key] = {}; // placeholder against recursion
      const def = structDef(name);
      const counts = new Set(def.fields.flatMap((f) => (f.type.kind === 'ptr' && (f.type.to.kind === 'uints' || (f.type.to.kind === 'struct' && f.type.to.count)) ? [(f.type.to as { count: { field: string } }).count.field] : [])));
      const properties: Record<string, Schema> = {};
      for (const f of def.fields) if (!counts.has(f.name)) properties[f.name] = field(f.type);
      defs[key] = { description: `${def.name}; a field left out takes its default`, type: 'object', additionalProperties: false, properties };
    }
    return ref(key);
  };
  const pointee = (to: Pointee): Schema => {
    switch (to.kind) {
      case 'cstring':
        return { anyOf: [{ type: 'string' }, { type: 'null' }] };
      case 'uints':
        return { type: 'array', items: ref('u32') };
      case 'struct':
        return to.count ? { type: 'array', items: structRef(to.struct) } : structRef(to.struct);
      default:
        return {};
    }
  };
  const field = (t: FieldType): Schema => {
    switch (t.kind) {
      case 'enum':
        return tableRef(t.table, 'enum');
      case 'flags':
        return tableRef(t.table, 'flags');
      case 'struct':
        return structRef(t.struct);
      case 'array':
        return { type: 'array', maxItems: t.count, items: field(t.of) };
      case 'ptr':
        return pointee(t.to);
      case 'FLOAT':
        return ref('f32');
      case 'INT':
        return { type: 'integer', minimum: -2147483648, maximum: 2147483647 };
      case 'UINT8':
        return { type: 'integer', minimum: 0, maximum: 255 };
      case 'UINT16':
        return { type: 'integer', minimum: 0, maximum: 65535 };
      case 'SIZE_T':
      case 'interface':
        return { type: 'integer', minimum: 0 };
      default:
        return ref('u32');
    }
  };
  const properties: Record<string, Schema> = { $schema: { type: 'string' } };
  for (const row of SUBOBJECTS) {
    const shape = shapeOf(row);
    let s: Schema;
    if (shape.kind === 'file') s = { ...ref('file'), description: `${row.type}: ${row.stage ? 'the shader (a DXBC or DXIL container)' : row.type === 'SERIALIZED_ROOT_SIGNATURE' ? 'the root signature (a container holding RTS0, or a bare part)' : 'the blob'}, a file path relative to the JSON file` };
    else if (shape.kind === 'list') s = { description: `${row.type}: the list`, type: 'array', items: structRef(shape.struct) };
    else if (shape.kind === 'prefix') s = { description: `${row.type}: the formats of the render targets used (NumRenderTargets is its length)`, type: 'array', maxItems: shape.length, items: field(shape.of) };
    else s = { description: `${row.type}`, ...field(row.inner) };
    properties[row.key] = s;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://dxbin.dev/schema/pipeline.schema.json',
    title: 'dxbin pipeline description (JSON form)',
    description:
      'A D3D12 graphics, compute or mesh pipeline: the fields of D3D12_GRAPHICS_PIPELINE_STATE_DESC and D3D12_COMPUTE_PIPELINE_STATE_DESC, and the pipeline state stream subobjects (AS, MS, DepthStencilState1/2, RasterizerState1/2, ViewInstancingDesc), by their D3D12 names. Enums by name without the prefix; shaders and pRootSignature as file paths relative to the JSON file; lists where D3D12 has a pointer and a count. A key or field left out takes the default of its CD3DX12_PIPELINE_STATE_STREAM_* type (d3dx12.h).',
    type: 'object',
    additionalProperties: false,
    properties,
    $defs: defs,
  };
}
