/**
 * Pipeline state streams (D3D12_PIPELINE_STATE_STREAM_DESC, docs/formats/pipeline.md) as
 * relocatable images of the DDI row model (src/ddi/image.ts, docs/ddi-images.md): the
 * D3D12_PIPELINE_STATE_STREAM_DESC at offset 0, the stream after it (each subobject a
 * CD3DX12_PIPELINE_STATE_STREAM_* struct, `alignas(void*) { Type; Inner; }`), then everything the
 * subobjects point at (bytecode, input elements and their semantic names, stream-output entries,
 * cached blobs, view-instance locations, the serialized root signature), pointers stored as
 * offsets from the image start.
 */
import type { Abi, FieldType } from '../../codecs/ddi.js';
import { PIPELINE_STATE_SUBOBJECT_TYPE, SUBOBJECTS, subobjectStructName, type SubobjectRow } from '../../codecs/pipeline.js';
import { Budget } from '../bytes/budget.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { expectBytes, expectDense, expectKnownKeys, expectOptionKeys, expectOptions, kindOf } from '../bytes/check.js';
import { decodeImage, encodeImage, type DdiObject, type DdiValue } from '../ddi/image.js';
import { ddiFromJson, ddiToJson } from '../ddi/json.js';
import { enumerator } from '../../codecs/enum-table.js';
import { enumName } from '../json/vocabulary.js';
import { pointerSize, structLayout } from '../ddi/layout.js';
import { readOnce } from '../bytes/once.js';

/** The root struct of a stream image. */
export const STREAM_DESC = 'D3D12_PIPELINE_STATE_STREAM_DESC';


/** A subobject: its type (the D3D12_PIPELINE_STATE_SUBOBJECT_TYPE name without the prefix) and what it holds. */
export interface Subobject {
  type: string;
  inner: DdiValue;
}

/**
 * The row of a subobject type.
 * @throws {DescriptionError} bad-name for a name that is no D3D12_PIPELINE_STATE_SUBOBJECT_TYPE
 */
export function subobjectRow(type: string): SubobjectRow {
  return rowOf(type, 'type');
}

/** subobjectRow naming the field (`subobjects[2].type`). */
function rowOf(type: string, path: string): SubobjectRow {
  const name = typeof type === 'string' ? type.replace(/^D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_/, '') : undefined;
  const row = SUBOBJECTS.find((r) => r.type === name);
  if (!row) throw new DescriptionError('bad-name', path, `${typeof type === 'string' ? quoted(type) : kindOf(type)} is no D3D12_PIPELINE_STATE_SUBOBJECT_TYPE (known: ${SUBOBJECTS.map((r) => r.type).join(', ')})`);
  return row;
}

/** The zero-initialized value of a field type (C++ value-initialization). */
export function zeroValue(type: FieldType): DdiValue {
  switch (type.kind) {
    case 'struct': {
      const out: DdiObject = {};
      for (const f of structLayout(type.struct, 'x64').fields) out[f.name] = zeroValue(f.type);
      return out;
    }
    case 'array':
      return Array.from({ length: type.count }, () => zeroValue(type.of));
    case 'ptr':
      return null;
    default:
      return 0;
  }
}

/** What a default-constructed CD3DX12_PIPELINE_STATE_STREAM_* holds (d3dx12.h; zero where it gives none). */
export function subobjectDefault(type: string): DdiValue {
  const row = subobjectRow(type);
  if (row.default === undefined) return zeroValue(row.inner);
  return (ddiFromJson(subobjectStructName(row.type), { Type: row.type, Inner: row.default }) as DdiObject).Inner!;
}

function element(s: Subobject, i: number, path = 'subobjects'): DdiObject {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new DescriptionError('bad-type', `${path}[${i}]`, `expected a subobject {type, inner}, got ${kindOf(s)}`);
  const row = rowOf(s.type, `${path}[${i}].type`);
  return { Type: enumerator(PIPELINE_STATE_SUBOBJECT_TYPE, row.type), Inner: s.inner };
}

/**
 * The one check that a stream's types come once each (a list given, a stream decoded, its JSON
 * form): the returned step takes subobject `i`'s type and throws `refuse(i, first, type)` at its
 * first repeat. The runtime refuses a stream holding a subobject type twice (d3dx12.h
 * D3DX12ParsePipelineStream: "disallow subobject duplicates in a stream", E_INVALIDARG), and a
 * reader of the stream would take one of the two.
 */
function typesOnce(refuse: (i: number, first: number, type: string) => Error): (type: string, i: number) => void {
  const seen = new Map<string, number>();
  return (type, i) => {
    const first = seen.get(type);
    if (first !== undefined) throw refuse(i, first, type);
    seen.set(type, i);
  };
}

const twice = (type: string, first: string) => `a second ${type} subobject (${first} is one): the runtime refuses a stream holding a subobject type twice (D3DX12ParsePipelineStream, E_INVALIDARG), and which one is meant is ambiguous`;

/** The keys of a subobject. */
const SUBOBJECT_KEYS = ['type', 'inner'] as const;

/**
 * Checks a list of subobjects at the public boundary: a dense list (a hole is missing-key at its
 * index, found before anything walks the list: a sparse list of length 2^32 - 1 costs one step)
 * of {type, inner} with known types and no other key (a misspelt or extra key would be dropped).
 * @throws {DescriptionError} bad-type, bad-name, missing-key, unknown-key
 */
export function expectSubobjects(subobjects: unknown, path = 'subobjects'): asserts subobjects is readonly Subobject[] {
  if (!Array.isArray(subobjects)) throw new DescriptionError('bad-type', path, `expected a list of subobjects, got ${kindOf(subobjects)}`);
  expectDense(subobjects, path);
  // each type once, refused at the first repeat (a list of 10^5 VS costs two steps)
  const once = typesOnce((i, first, type) => new DescriptionError('ambiguous-name', `${path}[${i}].type`, twice(type, `${path}[${first}]`)));
  for (let i = 0; i < subobjects.length; i++) {
    const s = subobjects[i] as Subobject;
    const type = enumName(PIPELINE_STATE_SUBOBJECT_TYPE, element(s, i, path).Type as number) as string;
    expectKnownKeys(s, SUBOBJECT_KEYS, `${path}[${i}]`, { form: 'a subobject' });
    if (s.inner === undefined) throw new DescriptionError('missing-key', `${path}[${i}].inner`, 'a subobject holds a value');
    once(type, i);
  }
}

/**
 * A list of subobjects read once (src/bytes/once.ts), checked (expectSubobjects) and each type
 * spelt as its row: what every entry taking one works on, so its check and its work see one input.
 */
export function checkedSubobjects(subobjects: unknown, path = 'subobjects'): readonly Subobject[] {
  const list = readOnce(subobjects, 2); // the list and each {type, inner}: inner is read once by its writer
  expectSubobjects(list, path);
  // each type as its row names it: a prefixed spelling (D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS) was
  // not found by a lookup of CS (pipelineKind said graphics, pipelineValue gave the default)
  return list.map((s) => ({ type: subobjectRow(s.type).type, inner: s.inner }));
}

/** Bytes the stream of `subobjects` takes for `abi` (D3D12_PIPELINE_STATE_STREAM_DESC.SizeInBytes). */
export function streamSize(subobjects: readonly Subobject[], abi: Abi): number {
  subobjects = checkedSubobjects(subobjects);
  pointerSize(abi);
  let size = 0;
  for (const s of subobjects) size += structLayout(subobjectStructName(subobjectRow(s.type).type), abi).size;
  return size;
}

/**
 * The relocatable image of a stream of `subobjects` for `abi`.
 * @throws {DescriptionError} for a subobject type that is not one, or a value its row refuses
 */
export function encodeStream(subobjects: readonly Subobject[], abi: Abi): Uint8Array {
  subobjects = checkedSubobjects(subobjects);
  const stream = subobjects.map((s, i) => element(s, i));
  return encodeImage(STREAM_DESC, { SizeInBytes: streamSize(subobjects, abi), pPipelineStateSubobjectStream: stream }, abi);
}

/** Options of decodeStream. */
export interface DecodeStreamOptions {
  /** The call's work budget (default: one for the image's size). */
  budget?: Budget;
}

/**
 * The subobjects of a stream image.
 * @throws {DecodeError} an image whose pointers, sizes or subobject types do not hold; LimitError past the budget
 */
export function decodeStream(bytes: Uint8Array, abi: Abi, options: DecodeStreamOptions = {}): Subobject[] {
  expectBytes(bytes, 'bytes');
  pointerSize(abi);
  expectOptionKeys(options, ['budget']);
  if (options?.budget !== undefined && !(options.budget instanceof Budget)) throw new DescriptionError('bad-type', 'options.budget', `expected a Budget, got ${kindOf(options.budget)}`);
  const budget = options?.budget ?? Budget.for(bytes.byteLength);
  const desc = decodeImage(STREAM_DESC, bytes, abi, { budget });
  const out = subobjectsOf(desc);
  const once = typesOnce((i, first, type) => {
    // the subobjects lie one after another from the stream pointer (each its struct's size for the ABI)
    const ptr = structLayout(STREAM_DESC, abi).fields.find((f) => f.name === 'pPipelineStateSubobjectStream')!.offset;
    const start = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(ptr, true);
    const offsetOf = (n: number) => {
      let o = start;
      for (let k = 0; k < n; k++) o += structLayout(subobjectStructName(out[k]!.type), abi).size;
      return o;
    };
    return new DecodeError('duplicate-part', offsetOf(i), `pPipelineStateSubobjectStream[${i}].Type`, twice(type, `pPipelineStateSubobjectStream[${first}] at byte ${offsetOf(first)}`));
  });
  out.forEach((o, i) => once(o.type, i));
  return out;
}

/** The subobjects of a decoded D3D12_PIPELINE_STATE_STREAM_DESC (their types known: the stream's cases are the rows). */
function subobjectsOf(desc: DdiObject): Subobject[] {
  return ((desc.pPipelineStateSubobjectStream ?? []) as DdiObject[]).map((o) => ({ type: enumName(PIPELINE_STATE_SUBOBJECT_TYPE, o.Type as number) as string, inner: o.Inner! }));
}

/** The JSON form of a stream (the DDI JSON form of its D3D12_PIPELINE_STATE_STREAM_DESC, without the size). */
export function streamToJson(subobjects: readonly Subobject[]): unknown[] {
  subobjects = checkedSubobjects(subobjects);
  const json = ddiToJson(STREAM_DESC, { SizeInBytes: 0, pPipelineStateSubobjectStream: subobjects.map((s, i) => element(s, i)) }) as { pPipelineStateSubobjectStream: unknown[] | null };
  return json.pPipelineStateSubobjectStream ?? [];
}

/**
 * Subobjects from their JSON form: a list of {"Type": "VS", "Inner": ...}.
 * @throws {DescriptionError} for a value the rows refuse
 */
export function streamFromJson(json: unknown): Subobject[] {
  if (!Array.isArray(json)) throw new DescriptionError('bad-type', STREAM_DESC, `expected a list of subobjects, got ${kindOf(json)}`);
  const desc = ddiFromJson(STREAM_DESC, { SizeInBytes: 0, pPipelineStateSubobjectStream: json });
  const out = subobjectsOf(desc);
  const once = typesOnce((i, first, type) => new DescriptionError('ambiguous-name', `${STREAM_DESC}.pPipelineStateSubobjectStream[${i}].Type`, twice(type, `subobject ${first}`)));
  out.forEach((o, i) => once(o.type, i));
  return out;
}
