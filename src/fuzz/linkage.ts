/**
 * The `pipeline-linkage` fuzz target's generator: bytes -> the signatures and runtime facts of a
 * tessellation pipeline (VS, HS, DS, PS), a geometry-shader pipeline (VS, [HS, DS,] GS, PS, with
 * a topology type, stream-output entries and a rasterized stream) or a mesh pipeline (AS, MS, PS),
 * for verifySignatures. Mutation of shader containers seldom reaches signatures that almost link
 * (the same semantics, tessellation factors, counts and domains, streams, input primitives); the
 * generator draws from the few values that matter. Each element takes 4 bytes and stands for the
 * 32-byte signature record (ISG1/OSG1/PSG1) it is; the elements end with the input, so the work is
 * linear in it.
 */
import type { SignatureElement, StageInfo, StageKey, StageSignatures } from '../pipeline/verify.js';

const NAMES = ['SV_TessFactor', 'SV_InsideTessFactor', 'ARG', 'SV_Position', 'COLOR', 'SV_Target'] as const;
/** D3D_NAME values: none, position, the tessellation factors of each domain, target, primitive ID. */
const SYSTEM_VALUES = [0, 1, 11, 12, 13, 14, 15, 16, 64, 7] as const;
/** Topology types a geometry-shader pipeline without tessellation draws, and the rasterized streams it picks (D3D12_SO_NO_RASTERIZED_STREAM last). */
const TOPOLOGY_TYPES = ['POINT', 'LINE', 'TRIANGLE', 'PATCH'] as const;
const RASTERIZED = [0, 1, 3, 0xffffffff] as const;
/** Bytes each generated element takes, and the signature record it stands for. */
export const LINKAGE_ELEMENT_BYTES = 4;
export const LINKAGE_RECORD_BYTES = 32;

/** One generated case: the pipeline description's keys and each stage's signatures. */
export interface LinkageCase {
  json: Record<string, unknown>;
  signatures: Partial<Record<StageKey, StageSignatures>>;
  elements: number;
}

/** The case the bytes describe (every byte string describes one). */
export function linkageCase(data: Uint8Array): LinkageCase {
  let at = 0;
  const byte = () => (at < data.length ? data[at++]! : 0);
  const left = () => data.length - at;
  const first = byte();
  const mesh = (first & 1) === 1;
  const gs = !mesh && (first & 2) === 2;
  // a geometry-shader pipeline: tessellation or not, the topology type, the rasterized stream, up to 3 stream-output entries (2 bytes each)
  const shape = gs ? byte() : 0;
  const tessellation = !gs || (shape & 1) === 1;
  const entries: Record<string, unknown>[] = [];
  for (let i = 0, n = (shape >> 5) & 3; i < n; i++) {
    const a = byte();
    const b = byte();
    entries.push({ SemanticName: NAMES[(a & 15) % NAMES.length]!, SemanticIndex: (a >> 4) & 3, Stream: b & 3, StartComponent: (b >> 2) & 3, ComponentCount: 1 + ((b >> 4) & 3) });
  }
  const stages: StageKey[] = mesh ? ['AS', 'MS', 'PS'] : [...(['VS'] as const), ...(tessellation ? (['HS', 'DS'] as const) : []), ...(gs ? (['GS'] as const) : []), 'PS'];
  let elements = 0;
  const list = (max: number, streams: boolean): SignatureElement[] => {
    const n = Math.min(byte() % (max + 1), Math.floor(left() / LINKAGE_ELEMENT_BYTES));
    const out: SignatureElement[] = [];
    for (let i = 0; i < n; i++) {
      const a = byte();
      const b = byte();
      const c = byte();
      const d = byte();
      out.push({
        semanticName: NAMES[(a & 15) % NAMES.length]!,
        semanticIndex: (a >> 4) & 3,
        systemValue: SYSTEM_VALUES[(b & 15) % SYSTEM_VALUES.length]!,
        componentType: (b >> 4) & 3,
        register: c & 7,
        mask: (c >> 3) & 15,
        readWriteMask: d & 15,
        // a geometry shader's outputs go to one of 4 streams; every other element is of stream 0
        stream: streams ? (d >> 4) & 3 : 0,
      });
    }
    elements += n;
    return out;
  };
  const signatures: Partial<Record<StageKey, StageSignatures>> = {};
  for (const key of stages) {
    const flags = byte();
    const stageInfo: StageInfo = {};
    if (flags & 1) stageInfo.inputControlPointCount = byte() % 5;
    if (flags & 2) stageInfo.outputControlPointCount = byte() % 5;
    if (flags & 4) stageInfo.tessellatorDomain = byte() % 4;
    if (flags & 8) stageInfo.payloadSizeInBytes = (byte() % 4) * 4;
    if (flags & 32) stageInfo.inputPrimitive = byte() % 40;
    if (flags & 64) stageInfo.tessellatorOutputPrimitive = byte() % 5;
    const sig: StageSignatures = { inputs: list(6, false), outputs: list(6, key === 'GS'), stageInfo };
    if (flags & 16) (key === 'MS' ? ((sig as { primitiveOutputs?: SignatureElement[] }).primitiveOutputs = list(4, false)) : ((sig as { patchConstants?: SignatureElement[] }).patchConstants = list(8, false)));
    signatures[key] = sig;
  }
  const json: Record<string, unknown> = { RTVFormats: ['R8G8B8A8_UNORM'] };
  for (const key of stages) json[key] = key.toLowerCase();
  if (!mesh) json.PrimitiveTopologyType = tessellation ? 'PATCH' : TOPOLOGY_TYPES[(shape >> 1) & 3];
  if (gs) json.StreamOutput = { pSODeclaration: entries, RasterizedStream: RASTERIZED[(shape >> 3) & 3] };
  return { json, signatures, elements };
}

/**
 * One element of a seed: a name, D3D_NAME and component type from the generator's lists, register,
 * masks, and (for a geometry shader's outputs) the stream.
 */
export type SeedElement = readonly [name: (typeof NAMES)[number], semanticIndex: number, systemValue: (typeof SYSTEM_VALUES)[number], componentType: number, register: number, mask: number, readWriteMask: number, stream?: number];
/** One stage of a seed: its runtime facts, inputs, outputs and patch constants (primitive outputs for MS). */
export interface SeedStage {
  info?: StageInfo;
  inputs?: readonly SeedElement[];
  outputs?: readonly SeedElement[];
  extra?: readonly SeedElement[];
}
/** A geometry-shader pipeline's shape: tessellation before the GS, the topology type without it, the rasterized stream, stream-output entries. */
export interface SeedGeometry {
  tessellation: boolean;
  topology?: (typeof TOPOLOGY_TYPES)[number];
  rasterized: (typeof RASTERIZED)[number];
  entries?: readonly { name: (typeof NAMES)[number]; semanticIndex?: number; stream?: number; start?: number; count: 1 | 2 | 3 | 4 }[];
}

/**
 * The bytes linkageCase reads back as the given stages (VS, HS, DS, PS; AS, MS, PS for `mesh`;
 * VS, [HS, DS,] GS, PS with `geometry`).
 */
export function linkageBytes(mesh: boolean, stages: readonly SeedStage[], geometry?: SeedGeometry): Uint8Array {
  const out: number[] = [mesh ? 1 : geometry ? 2 : 0];
  if (geometry && !mesh) {
    const entries = geometry.entries ?? [];
    out.push((geometry.tessellation ? 1 : 0) | (TOPOLOGY_TYPES.indexOf(geometry.topology ?? 'POINT') << 1) | (RASTERIZED.indexOf(geometry.rasterized) << 3) | (entries.length << 5));
    for (const e of entries) out.push(NAMES.indexOf(e.name) | ((e.semanticIndex ?? 0) << 4), (e.stream ?? 0) | ((e.start ?? 0) << 2) | ((e.count - 1) << 4));
  }
  const list = (l: readonly SeedElement[] = []) => {
    out.push(l.length);
    for (const [name, index, sv, type, register, mask, rw, stream] of l) out.push(NAMES.indexOf(name) | (index << 4), SYSTEM_VALUES.indexOf(sv) | (type << 4), register | (mask << 3), rw | ((stream ?? 0) << 4));
  };
  for (const s of stages) {
    const i = s.info ?? {};
    const flags = (i.inputControlPointCount !== undefined ? 1 : 0) | (i.outputControlPointCount !== undefined ? 2 : 0) | (i.tessellatorDomain !== undefined ? 4 : 0) | (i.payloadSizeInBytes !== undefined ? 8 : 0) | (s.extra ? 16 : 0) | (i.inputPrimitive !== undefined ? 32 : 0) | (i.tessellatorOutputPrimitive !== undefined ? 64 : 0);
    out.push(flags);
    if (i.inputControlPointCount !== undefined) out.push(i.inputControlPointCount);
    if (i.outputControlPointCount !== undefined) out.push(i.outputControlPointCount);
    if (i.tessellatorDomain !== undefined) out.push(i.tessellatorDomain);
    if (i.payloadSizeInBytes !== undefined) out.push(i.payloadSizeInBytes / 4);
    if (i.inputPrimitive !== undefined) out.push(i.inputPrimitive);
    if (i.tessellatorOutputPrimitive !== undefined) out.push(i.tessellatorOutputPrimitive);
    list(s.inputs);
    list(s.outputs);
    if (s.extra) list(s.extra);
  }
  return Uint8Array.from(out);
}
