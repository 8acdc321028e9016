/**
 * A DXIL library as its RDAT part declares it (docs/formats/rdat.md): exports (functions with
 * kind, flags, payload sizes and bindings) and subobjects (kind, name, contents, root signature).
 * Built once from a description: names are indexed, never searched in a loop.
 */
import { readOnce } from '../bytes/once.js';
import { FUNC_ATTRIB_KIND_TABLE, HIT_GROUP_TYPE_TABLE, NODE_FUNC_ATTRIB_KIND, RDAT_TABLES, RESOURCE_CLASS_TABLE, SUBOBJECT_KIND_TABLE, hitGroupTypeName, shaderKindName, type RdatTableName } from '../../codecs/rdat.js';
import { PSV_RESOURCE_KIND, SHADER_KIND as SHADER_KIND_TABLE } from '../../codecs/psv0.js';
import type { EnumTable } from '../../codecs/enum-table.js';
import { enumName, enumValue } from '../json/vocabulary.js';
import { DecodeError, DescriptionError, kindOf } from '../bytes/errors.js';
import { limitKeys, budgetOf as budgetFrom, type Budget, type WorkLimits } from '../bytes/budget.js';
import { expectFunction, expectNumber, expectObject, expectOptionKeys, expectOptions, expectString } from '../bytes/check.js';
import { printable, quoted } from '../bytes/text.js';
import { checkedParts, checkRecordKeys, denseArray, MAX_PART_BYTES, recordKeys, u32, type CheckedParts } from './check.js';
import type { RecordDef } from '../../codecs/rows.js';
import type { Row } from '../rows/record.js';
import { decodeRootSignature } from '../root-signature/decode.js';
import { summarizeRootSignature } from '../root-signature/summary.js';
import type { RootSignature } from '../root-signature/types.js';
import { hexBytes } from './hex.js';
import type { RdatDescription, RdatRecord } from './types.js';

/** A u16 field (FunctionInfo2's ShaderFlags). */
function u16(value: unknown, path: string): number {
  const v = u32(value, path);
  if (v > 0xffff) throw new DescriptionError('out-of-range', path, `${v} is not an unsigned 16-bit integer`);
  return v;
}

/** How a Library names an enumerated value its table lacks: `unknown(17)`, the stored number kept. */
export type UnknownName = `unknown(${number})`;

/** A binding of an export, from the resource table. */
export interface LibraryBinding {
  /**
   * Register class: SRV, UAV, CBV or Sampler; `Invalid` (hlsl::DXIL::ResourceClass 4) or
   * `unknown(N)` for a stored class that is no register class (such a binding fits no range).
   */
  class: 'SRV' | 'UAV' | 'CBV' | 'Sampler' | 'Invalid' | UnknownName;
  /** DXIL resource kind (Texture2D, RawBuffer, RTAccelerationStructure, ...), `unknown(N)` for a value the table lacks. */
  kind: string;
  space: number;
  lowerBound: number;
  /** Last register, inclusive; 0xFFFFFFFF for an unbounded array. */
  upperBound: number;
  name: string;
  /** DxilResourceFlag bits (1 globally coherent, 2 UAV counter, 4 ROV, 8 dynamic indexing, 16 64-bit atomics). */
  flags: number;
  /** Index in the resource table. */
  resource: number;
}

/** An exported function of a library (a shader entry point or a plain function), from the function table. */
export interface LibraryExport {
  /** The export name (unmangled; the mangled name when there is none). */
  name: string;
  mangledName: string;
  /** hlsl::DXIL::ShaderKind name: RayGeneration, ClosestHit, Node, Library (a plain function), ...; `unknown(N)` for a value the table lacks. */
  kind: string;
  payloadSizeInBytes: number;
  attributeSizeInBytes: number;
  flags: { featureInfo1: number; featureInfo2: number; shaderStageFlag: number; minShaderTarget: string; shaderFlags?: number };
  bindings: LibraryBinding[];
  /** Node shaders: the local root arguments table index, when the node reads local root arguments. */
  localRootArgumentsTableIndex?: number;
  /** Index in the function table. */
  function: number;
}

/** A subobject of a library, from the subobject table. */
export interface LibrarySubobject {
  /** hlsl::DXIL::SubobjectKind name, `unknown(N)` for a value the table lacks. */
  kind: string;
  name: string;
  /** The kind's fields (flags, sizes, hit group members, association subobject and exports). */
  contents: Record<string, unknown>;
  /** Root signature subobjects: the RTS0 bytes decoded, or why not. */
  rootSignature?: { bytes: Uint8Array; version?: string; description?: RootSignature; summary: string[]; error?: string };
  /** Index in the subobject table. */
  subobject: number;
}

/** A DXIL library as its RDAT part declares it. */
export interface Library {
  exports: LibraryExport[];
  subobjects: LibrarySubobject[];
}

/** `unknown(N)`: a value its table has no name for, the number kept (the rows' JSON form gives the bare number, src/json/vocabulary.ts enumName). */
export const unknownName = (value: number): UnknownName => `unknown(${value})`;

/**
 * An enumerated field's name, read as the rows' JSON form writes it (a stored number) or a
 * description spells it (a name of the table in place): the table's name, or `unknown(N)` for a
 * number the table lacks, never a wrong name.
 * @throws {DescriptionError} bad-name for a name the table lacks, bad-type for anything else (the field's path named)
 */
function enumLabel(table: EnumTable, given: unknown, path: string): string {
  const name = enumName(table, enumValue(table, given, path));
  return typeof name === 'number' ? unknownName(name) : name;
}

/** A binding's class by its RDAT class (hlsl::DXIL::ResourceClass) value. */
const CLASS_BY_VALUE: readonly LibraryBinding['class'][] = ['SRV', 'UAV', 'CBV', 'Sampler', 'Invalid'];
const VERSION_NAMES: Readonly<Record<number, string>> = { 1: '1.0', 2: '1.1', 3: '1.2' };

/**
 * A table's records at their stored indices (references name them): a record that is no object,
 * or a hole, is refused, not dropped or read as an empty record (either moved or changed what
 * later references name). The count is bounded as the part's u32 size bounds it, before the walk.
 */
function tableOf(parts: CheckedParts, type: RdatTableName): readonly RdatRecord[] {
  const i = parts.byType.get(type);
  if (i === undefined) return [];
  const p = parts.parts[i]!;
  if (p.records === undefined) return [];
  const layouts = RDAT_TABLES[type].layouts;
  const records = denseArray(p.records, `RDAT.${type}`, Math.floor((MAX_PART_BYTES - 8) / layouts[0]!.size), `${layouts[0]!.size} bytes or more`);
  // the newest layout holds the older ones' fields: its keys are what any stride's record may give
  const layout = layouts[layouts.length - 1]!;
  records.forEach((r, k) => {
    const at = `RDAT.${type}[${k}]`;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new DescriptionError('bad-type', at, `expected a record (an object), got ${kindOf(r)}`);
    // every record's keys the record form's for its union case (encodeRdat's one check): a misspelt
    // key, a field of another case, a `<field>Name` that does not name its value would be taken
    // silently (read as absent, or the name ignored); each value read once
    const rec = r as Record<string, unknown>;
    const row = selectorRow(layout, rec, at);
    checkRecordKeys(layout, rec, row, at, () => `a ${type} record${Object.keys(row).map((key) => ` of ${key} ${row[key]}`).join('')}`, (key, table) => (Object.hasOwn(row, key) ? row[key] : enumValue(table, rec[key], `${at}.${key}`)));
  });
  return records as readonly RdatRecord[];
}

/** The values of a record's union selectors (a stored number, or a name of the field's table), what its keys depend on. */
function selectorRow(layout: RecordDef, rec: Record<string, unknown>, path: string): Row {
  const row: Row = {};
  for (const f of layout.fields) {
    const t = f.type;
    if (typeof t !== 'object' || !('union' in t)) continue;
    const by = t.union.by;
    const sel = layout.fields.find((g) => g.key === by)!.type;
    row[by] = typeof sel === 'object' && 'enum' in sel ? enumValue(sel.enum, rec[by], `${path}.${by}`) : u32(rec[by], `${path}.${by}`);
  }
  return row;
}

/** A table's records of a description (its parts checked as describeLibrary checks them). */
export function tableRecords(rdat: RdatDescription, type: RdatTableName, path = 'rdat'): readonly RdatRecord[] {
  return tableOf(checkedParts(rdat, path), type);
}

/** A list field of a record (null or absent for none): an array without holes, each element then read by the caller. */
function listOf(value: unknown, path: string): readonly unknown[] {
  if (value === undefined || value === null) return [];
  return denseArray(value, path, MAX_PART_BYTES >>> 2, '4 bytes');
}

/**
 * A record's string field as text, as encodeRdat takes it: a string. A number is refused (it was
 * read as an offset into the StringBuffer, while encodeRdat refuses it: a decoded description
 * holds the text, the stored offset is in `refs`), so is a missing field.
 * @throws {DescriptionError} missing-key, bad-type naming the field
 */
export function textField(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  if (value === undefined) throw new DescriptionError('missing-key', path, 'expected a string, got nothing');
  throw new DescriptionError('bad-type', path, `expected a string (the text; a stored offset belongs in refs), got ${quoted(value)}`);
}

/** `RayGeneration 6.3`-style name of a MinShaderTarget word (kind << 16 | major << 4 | minor); a kind the table lacks is `unknown(N)`. */
export function shaderTargetName(word: number): string {
  const kind = shaderKindName((word >>> 16) & 0xffff) ?? unknownName((word >>> 16) & 0xffff);
  return `${kind} ${(word >>> 4) & 0xf}.${word & 0xf}`;
}

/** The root signature subobject's contents, decoded when they decode. */
function rootSignatureOf(hex: string): NonNullable<LibrarySubobject['rootSignature']> {
  const bytes = hexBytes(hex, 'RootSignature');
  try {
    const description = decodeRootSignature(bytes);
    return { bytes, version: VERSION_NAMES[description.version] ?? String(description.version), description, summary: summarizeRootSignature(description) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { bytes, summary: [], error: e.message };
  }
}

/** The subobject record's layout (the table has one). */
const SUBOBJECT_LAYOUT = RDAT_TABLES.SubobjectTable.layouts[0]!;

/** The string fields of the subobject union (codecs/rdat.ts SubobjectTable): association and hit group names. */
const STRING_FIELDS: ReadonlySet<string> = new Set(['Subobject', 'AnyHit', 'ClosestHit', 'Intersection']);

/**
 * The exports and subobjects an RDAT description declares. A function's ShaderKind (and a node's
 * attribute kinds) is a stored number or a name of its table (codecs/psv0.ts SHADER_KIND), as a
 * decoded description or one in the JSON form spells it; so are a resource's Class and Kind, a
 * subobject's Kind and a hit group's Type. A value the table lacks is named `unknown(N)`. String
 * fields are text (a number is refused, as encodeRdat refuses it); integer fields are u32 numbers
 * (ShaderFlags a u16), never "3", 1.5, 2^32 or missing. The parts are checked as encodeRdat checks
 * them: one per type (a second FunctionTable is refused, never the first or last read), arrays
 * without holes, their lengths bounded before any walk. A subobject record's keys are the ones
 * the record form has for its Kind (as encodeRdat takes them): `contents` holds that kind's fields
 * and the record's bytes past them (`unionRest`, `tail`), never a key of no field. Every record of
 * every table (resources, node tables, those it does not list) has its newest layout's keys for its
 * union case, whatever the stride (a function's `Node` for a node shader only). A name beside an
 * enumerated value (`ShaderKindName`, `ClassName`, `AttribKindName`, `LaunchTypeName`, ...) must
 * name it, as encodeRdat takes it.
 * @throws {DescriptionError} unknown-key for a record key the record form of its union case does not have (a misspelt field, one of another kind); bad-name for a `<field>Name` that does not name its value; bad-type when `rdat` is not a description, a table record is no object or an array has a hole; bad-name, bad-type for an enumerated field that is neither a number nor a name of its table; missing-key, bad-type, out-of-range for an integer or string field that is none; out-of-range for a record reference past its table; ambiguous-name for a second part of one type (the field's path named)
 */
export function describeLibrary(rdat: RdatDescription): Library {
  const parts = checkedParts(rdat, 'rdat');
  // every table's records checked once, those describeLibrary reads and the rest (NodeIDTable,
  // IONodeTable, ...): a misspelt key or a stale `<field>Name` is refused wherever it stands
  const tables = new Map<RdatTableName, readonly RdatRecord[]>();
  for (const name of Object.keys(RDAT_TABLES) as RdatTableName[]) tables.set(name, tableOf(parts, name));
  const recordsOf = (name: RdatTableName) => tables.get(name)!;
  const resources = recordsOf('ResourceTable');
  const funcAttribs = recordsOf('NodeShaderFuncAttribTable');
  const nodeInfos = recordsOf('NodeShaderInfoTable');
  const text = textField;
  /** Record `index` of a table, or a DescriptionError naming the reference (a decoded description's are checked; a hand-written one's may not be). */
  const recordOf = (records: readonly RdatRecord[], table: string, index: unknown, path: string): RdatRecord => {
    const rec = typeof index === 'number' ? records[index] : undefined;
    if (!rec) throw new DescriptionError('out-of-range', path, `record ${typeof index === 'number' ? index : kindOf(index)} of the ${records.length}-record ${table}`);
    return rec;
  };
  const binding = (i: number, ref: string): LibraryBinding => {
    const r = recordOf(resources, 'ResourceTable', i, ref);
    const p = `RDAT.ResourceTable[${i}]`;
    const cls = enumValue(RESOURCE_CLASS_TABLE, r.Class, `${p}.Class`);
    return {
      class: CLASS_BY_VALUE[cls] ?? unknownName(cls),
      kind: enumLabel(PSV_RESOURCE_KIND, r.Kind, `${p}.Kind`),
      space: u32(r.Space, `${p}.Space`),
      lowerBound: u32(r.LowerBound, `${p}.LowerBound`),
      upperBound: u32(r.UpperBound, `${p}.UpperBound`),
      name: text(r.Name, `${p}.Name`),
      flags: u32(r.Flags, `${p}.Flags`),
      resource: i,
    };
  };
  // functions sharing one array of the description (decodeRdat's sharedArrays gives one per stored
  // list: DXC deduplicates index arrays) share one list of bindings, read once, not once per function.
  // Never by the stored ref alone: an edited list beside an unedited ref would read as the other list.
  const sharedLists = new Map<unknown, LibraryBinding[]>();
  const bindingsOf = (f: RdatRecord, path: string): LibraryBinding[] => {
    if (f.Resources === null || f.Resources === undefined) return [];
    const hit = sharedLists.get(f.Resources);
    if (hit) return hit;
    const list = listOf(f.Resources, `${path}.Resources`).map((r, k) => binding(r as number, `${path}.Resources[${k}]`));
    sharedLists.set(f.Resources, list);
    return list;
  };
  // a node's local root arguments table index, read once per node record (functions may share one)
  const localRootArguments = new Map<number, number | undefined>();
  const localRootArgumentsOf = (node: number, path: string): number | undefined => {
    if (localRootArguments.has(node)) return localRootArguments.get(node);
    const info = recordOf(nodeInfos, 'NodeShaderInfoTable', node, path);
    let found: number | undefined;
    for (const [k, a] of listOf(info.Attribs, `RDAT.NodeShaderInfoTable[${node}].Attribs`).entries()) {
      const rec = recordOf(funcAttribs, 'NodeShaderFuncAttribTable', a, `RDAT.NodeShaderInfoTable[${node}].Attribs[${k}]`);
      const q = `RDAT.NodeShaderFuncAttribTable[${a as number}]`;
      if (enumValue(FUNC_ATTRIB_KIND_TABLE, rec.AttribKind, `${q}.AttribKind`) === NODE_FUNC_ATTRIB_KIND.LocalRootArgumentsTableIndex) found = u32(rec.LocalRootArgumentsTableIndex, `${q}.LocalRootArgumentsTableIndex`);
    }
    localRootArguments.set(node, found);
    return found;
  };
  const exports = recordsOf('FunctionTable').map((f: RdatRecord, i): LibraryExport => {
    const p = `RDAT.FunctionTable[${i}]`;
    // its keys checked by tableOf (the record form's for its ShaderKind: Node only for a node shader)
    const shaderKind = enumValue(SHADER_KIND_TABLE, f.ShaderKind, `${p}.ShaderKind`);
    const unmangled = text(f.UnmangledName, `${p}.UnmangledName`);
    const mangled = text(f.Name, `${p}.Name`);
    const out: LibraryExport = {
      name: unmangled || mangled,
      mangledName: mangled,
      // a stored number or a name of the table, as src/ddi/nodes.ts reads it; anything else refused
      kind: enumLabel(SHADER_KIND_TABLE, shaderKind, `${p}.ShaderKind`),
      payloadSizeInBytes: u32(f.PayloadSizeInBytes, `${p}.PayloadSizeInBytes`),
      attributeSizeInBytes: u32(f.AttributeSizeInBytes, `${p}.AttributeSizeInBytes`),
      flags: {
        featureInfo1: u32(f.FeatureInfo1, `${p}.FeatureInfo1`),
        featureInfo2: u32(f.FeatureInfo2, `${p}.FeatureInfo2`),
        shaderStageFlag: u32(f.ShaderStageFlag, `${p}.ShaderStageFlag`),
        minShaderTarget: shaderTargetName(u32(f.MinShaderTarget, `${p}.MinShaderTarget`)),
        // FunctionInfo2 only (a 44-byte FunctionInfo has none): absent, or a u16
        ...(f.ShaderFlags !== undefined ? { shaderFlags: u16(f.ShaderFlags, `${p}.ShaderFlags`) } : {}),
      },
      bindings: bindingsOf(f, p),
      function: i,
    };
    if (f.Node !== undefined && f.Node !== null) {
      const local = localRootArgumentsOf(u32(f.Node, `${p}.Node`), `${p}.Node`);
      if (local !== undefined) out.localRootArgumentsTableIndex = local;
    }
    return out;
  });
  // subobjects sharing one Exports array of the description read it once
  const exportLists = new Map<unknown, string[]>();
  const rootSignatures = new Map<string, NonNullable<LibrarySubobject['rootSignature']>>();
  const subobjects = recordsOf('SubobjectTable').map((s: RdatRecord, i): LibrarySubobject => {
    const p = `RDAT.SubobjectTable[${i}]`;
    const kindValue = enumValue(SUBOBJECT_KIND_TABLE, s.Kind, `${p}.Kind`);
    const kind = enumLabel(SUBOBJECT_KIND_TABLE, kindValue, `${p}.Kind`);
    // its keys checked by tableOf (the record form's for this kind, a KindName or TypeName naming its
    // value): a misspelt key, a field of another kind's case, was copied into contents as a field
    const { names } = recordKeys(SUBOBJECT_LAYOUT, { Kind: kindValue });
    const contents: Record<string, unknown> = {};
    // the union's fields, a hit group's Type by name (the names beside stored values are the
    // description's helpers), its string fields as text; the record's bytes past its fields
    // (`unionRest`, `tail`) as the record form names them
    for (const [k, v] of Object.entries(s)) {
      if (v === undefined || k === 'Kind' || k === 'Name' || k === 'refs' || k === 'RootSignature' || names.some(([f]) => k === `${f}Name`)) continue;
      if (k === 'Type' && kind === 'HitGroup') contents[k] = enumLabel(HIT_GROUP_TYPE_TABLE, v, `${p}.Type`);
      else if (STRING_FIELDS.has(k)) contents[k] = text(v, `${p}.${k}`);
      else if (k === 'Exports' && v !== null) {
        let list = exportLists.get(v);
        if (!list) exportLists.set(v, (list = listOf(v, `${p}.Exports`).map((x, n) => text(x, `${p}.Exports[${n}]`))));
        contents[k] = list;
      }
      else contents[k] = v;
    }
    const out: LibrarySubobject = { kind, name: text(s.Name, `${p}.Name`), contents, subobject: i };
    if (s.RootSignature !== undefined && typeof s.RootSignature !== 'string') throw new DescriptionError('bad-type', `${p}.RootSignature`, `expected the RTS0 bytes as hex, got ${quoted(s.RootSignature)}`);
    if (typeof s.RootSignature === 'string') {
      // subobjects holding one run (one string) decode it once
      let rs = rootSignatures.get(s.RootSignature);
      if (!rs) rootSignatures.set(s.RootSignature, (rs = rootSignatureOf(s.RootSignature)));
      out.rootSignature = rs;
    }
    return out;
  });
  return { exports, subobjects };
}

/**
 * Checks a Library's shape once, at a public entry: every export, binding and subobject member a
 * listing reads, each wrong one a DescriptionError naming it (`library.exports[2].bindings[0].space`).
 * @throws {DescriptionError} bad-type naming the member
 */
export function checkLibrary(lib: unknown, path = 'library'): asserts lib is Library {
  expectObject(lib, path);
  // lists without holes (forEach skipped them, and a reader then met undefined), each walked only up to its first hole
  const exports = denseArray(lib.exports, `${path}.exports`, MAX_PART_BYTES, 'one record');
  const subobjects = denseArray(lib.subobjects, `${path}.subobjects`, MAX_PART_BYTES, 'one record');
  const checked = new Set<unknown>();
  exports.forEach((e, i) => {
    const p = `${path}.exports[${i}]`;
    expectObject(e, p);
    expectString(e.name, `${p}.name`);
    expectString(e.kind, `${p}.kind`);
    if (e.mangledName !== undefined) expectString(e.mangledName, `${p}.mangledName`);
    if (e.flags !== undefined) expectObject(e.flags, `${p}.flags`);
    if (checked.has(e.bindings)) return; // a shared list, checked once
    const bindings = denseArray(e.bindings, `${p}.bindings`, MAX_PART_BYTES, 'one record');
    checked.add(e.bindings);
    bindings.forEach((b, k) => {
      const q = `${p}.bindings[${k}]`;
      expectObject(b, q);
      for (const key of ['space', 'lowerBound', 'upperBound'] as const) expectNumber(b[key], `${q}.${key}`);
      expectString(b.class, `${q}.class`);
      if (b.name !== undefined) expectString(b.name, `${q}.name`);
    });
  });
  subobjects.forEach((o, i) => {
    const p = `${path}.subobjects[${i}]`;
    expectObject(o, p);
    expectString(o.kind, `${p}.kind`);
    expectString(o.name, `${p}.name`);
    if (o.contents !== undefined) {
      expectObject(o.contents, `${p}.contents`);
      // an association's export names, which verifyStateObject and libraryLines walk
      const names = o.contents.Exports;
      if (names !== undefined && names !== null) denseArray(names, `${p}.contents.Exports`, MAX_PART_BYTES, 'one name').forEach((x, k) => expectString(x, `${p}.contents.Exports[${k}]`));
    }
  });
}

/** Options of libraryLines and libraryJson: the work limits, or the call's budget. */
export interface LibraryTextOptions extends WorkLimits {
  /** Charged `produce` for every binding and line written; default `Budget.for(the library's size in RDAT bytes, these limits)`. */
  budget?: Budget;
}

/** What one binding or line costs the `produce` budget besides its names (its JSON is about this long). */
const ITEM_CHARS = 96;

/**
 * About the bytes of the RDAT part a library was described from (records, names, each distinct
 * binding list once): what printed text and JSON are measured against.
 */
function libraryBytes(lib: Library): number {
  let n = 64;
  const lists = new Set<readonly LibraryBinding[]>();
  for (const e of lib.exports) {
    n += 52 + String(e.name).length + String(e.mangledName).length;
    if (Array.isArray(e.bindings) && !lists.has(e.bindings)) {
      lists.add(e.bindings);
      for (const b of e.bindings) n += 36 + (typeof b?.name === 'string' ? b.name.length : 0);
    }
  }
  for (const s of lib.subobjects) n += 24 + String(s?.name).length + (s?.rootSignature?.bytes?.byteLength ?? 0);
  return n;
}

function libraryBudget(lib: Library, options: LibraryTextOptions | undefined): Budget {
  expectOptionKeys(options as unknown, limitKeys());
  return budgetFrom(options, libraryBytes(lib));
}

/**
 * One line per export and subobject, for `dxbin inspect LIB`. Exports sharing one binding list
 * (one stored list, as describeLibrary gives them) print it once: the later ones name the first.
 * @throws {DescriptionError} bad-type when `lib` is not a Library
 * @throws {LimitError} limit-exceeded past the `produce` budget
 */
export function libraryLines(lib: Library, options?: LibraryTextOptions): string[] {
  lib = readOnce(lib, 5); // read once (src/bytes/once.ts): the check and the lines see one library
  checkLibrary(lib);
  const budget = libraryBudget(lib, options);
  const lines = [`library: ${lib.exports.length} export${lib.exports.length === 1 ? '' : 's'}, ${lib.subobjects.length} subobject${lib.subobjects.length === 1 ? '' : 's'}`];
  const firstWith = new Map<readonly LibraryBinding[], string>();
  for (const e of lib.exports) {
    const sizes = e.payloadSizeInBytes || e.attributeSizeInBytes ? `, payload ${shown(e.payloadSizeInBytes)} B, attributes ${shown(e.attributeSizeInBytes)} B` : '';
    const local = e.localRootArgumentsTableIndex !== undefined ? `, local root arguments table ${shown(e.localRootArgumentsTableIndex)}` : '';
    const same = firstWith.get(e.bindings);
    const count = `${e.bindings.length} binding${e.bindings.length === 1 ? '' : 's'}`;
    const line = `  export ${printable(e.name)}: ${printable(e.kind)} (${shown(e.flags.minShaderTarget)}${sizes}${local}), ${count}${same !== undefined && e.bindings.length > 0 ? ` (the list of export ${same})` : ''}`;
    budget.charge('produce', line.length, `library.exports`);
    lines.push(line);
    if (same !== undefined) continue;
    firstWith.set(e.bindings, printable(e.name));
    for (const b of e.bindings) {
      const text = `    ${formatLibraryBinding(b)} ${printable(b.kind)}${b.name ? ` ${printable(b.name)}` : ''}`;
      budget.charge('produce', text.length, `library.exports`);
      lines.push(text);
    }
  }
  for (const s of lib.subobjects) {
    const c = s.contents;
    let what = '';
    if (s.kind === 'SubobjectToExportsAssociation') what = `${printable(String(c.Subobject))} -> ${Array.isArray(c.Exports) && c.Exports.length ? c.Exports.map(shown).join(', ') : '(default: every export)'}`;
    else if (s.kind === 'HitGroup') what = `${c.Type === hitGroupTypeName(0) ? 'triangles' : c.Type === hitGroupTypeName(1) ? 'procedural' : printable(String(c.Type))}: closest hit ${printable(String(c.ClosestHit || '-'))}, any hit ${printable(String(c.AnyHit || '-'))}, intersection ${printable(String(c.Intersection || '-'))}`;
    else if (s.rootSignature) what = s.rootSignature.error ? `undecodable RTS0 (${printable(s.rootSignature.error)})` : `RTS0 v${shown(s.rootSignature.version)}, ${shown(s.rootSignature.bytes?.byteLength)} bytes`;
    else what = Object.entries(c).map(([k, v]) => `${printable(k)} ${shown(v)}`).join(', ');
    const line = `  subobject ${printable(s.name)}: ${printable(s.kind)}${what ? `, ${what}` : ''}`;
    budget.charge('produce', line.length, 'library.subobjects');
    lines.push(line);
    for (const summary of s.rootSignature?.summary ?? []) {
      const text = `    ${shown(summary)}`;
      budget.charge('produce', text.length, 'library.subobjects');
      lines.push(text);
    }
  }
  return lines;
}

const LETTERS: Readonly<Record<string, string>> = { SRV: 't', UAV: 'u', CBV: 'b', Sampler: 's' };

/**
 * A value of a Library as it may stand in a printed line: text escaped (printable), a number as
 * its digits, anything else by its kind (quoted): a hand-made Library's `minShaderTarget` or
 * summary line cannot drive the terminal, nor an object's toString run.
 */
function shown(v: unknown): string {
  return typeof v === 'string' ? printable(v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : quoted(v);
}

/** `SRV t0 space0`, `UAV u1-u4 space2`, `SRV t0-unbounded space1`; a class that is no register class has no letter (`Invalid 0 space0`). */
export function formatLibraryBinding(b: LibraryBinding): string {
  const l = Object.hasOwn(LETTERS, b.class) ? LETTERS[b.class]! : '';
  const range = b.upperBound === b.lowerBound ? `${l}${b.lowerBound}` : b.upperBound === 0xffffffff ? `${l}${b.lowerBound}-unbounded` : `${l}${b.lowerBound}-${l}${b.upperBound}`;
  return `${shown(b.class)} ${range} space${shown(b.space)}`;
}

/** A binding as `libraryJson` writes it (the resource record index left out). */
export type LibraryBindingJson = Omit<LibraryBinding, 'resource'>;

/**
 * The JSON of a library for `inspect --json` (root signatures as their JSON form by the caller).
 * Each distinct binding list is written once, in `bindingLists`; an export names its list by index
 * (`bindingList`), so exports sharing one stored list (DXC shares identical lists: 5,000 exports
 * naming one list of 400 resources) cost one index each. Every item is charged to the `produce`
 * budget: the JSON stays within 64x the RDAT bytes.
 * @throws {DescriptionError} bad-type when `lib` is not a Library or `rootSignatureJson` not a function
 * @throws {LimitError} limit-exceeded past the `produce` budget
 */
export function libraryJson(lib: Library, rootSignatureJson: (rs: RootSignature) => unknown, options?: LibraryTextOptions) {
  lib = readOnce(lib, 5);
  checkLibrary(lib);
  expectFunction(rootSignatureJson, 'rootSignatureJson');
  const budget = libraryBudget(lib, options);
  const bindingLists: LibraryBindingJson[][] = [];
  const listIndex = new Map<readonly LibraryBinding[], number>();
  let emptyList: number | undefined;
  const listOf = (e: LibraryExport, i: number): number => {
    const known = listIndex.get(e.bindings);
    if (known !== undefined) return known;
    if (e.bindings.length === 0 && emptyList !== undefined) return emptyList;
    const out: LibraryBindingJson[] = [];
    for (const { resource: _r, ...b } of e.bindings) {
      budget.charge('produce', ITEM_CHARS + String(b.name).length + String(b.kind).length, `library.exports[${i}].bindings`);
      out.push(b);
    }
    const index = bindingLists.push(out) - 1;
    listIndex.set(e.bindings, index);
    if (out.length === 0) emptyList = index;
    return index;
  };
  const exports = lib.exports.map(({ function: _f, bindings: _b, ...e }, i) => {
    // an export's JSON (flags, sizes, its list's index) is about twice a binding's
    budget.charge('produce', 2 * ITEM_CHARS + String(e.name).length + String(e.mangledName).length + String(e.kind).length, `library.exports[${i}]`);
    return { ...e, bindingList: listOf(lib.exports[i]!, i) };
  });
  return {
    bindingLists,
    exports,
    subobjects: lib.subobjects.map((s) => ({
      kind: s.kind,
      name: s.name,
      contents: s.contents,
      ...(s.rootSignature
        ? {
            rootSignature: {
              size: s.rootSignature.bytes.byteLength,
              ...(s.rootSignature.version ? { version: s.rootSignature.version } : {}),
              summary: s.rootSignature.summary,
              ...(s.rootSignature.description ? { description: rootSignatureJson(s.rootSignature.description) } : {}),
              ...(s.rootSignature.error ? { error: s.rootSignature.error } : {}),
            },
          }
        : {}),
    })),
  };
}
