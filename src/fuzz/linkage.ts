/**
 * The `pipeline-linkage` fuzz target's generator: bytes -> the signatures and runtime facts of a
 * tessellation pipeline (VS, HS, DS, PS) or a mesh pipeline (AS, MS, PS), for verifySignatures.
 * Mutation of shader containers seldom reaches signatures that almost link (the same semantics,
 * tessellation factors, counts and domains); the generator draws from the few values that matter.
 * Each element takes 4 bytes and stands for the 32-byte signature record (ISG1/OSG1/PSG1) it is;
 * the elements end with the input, so the work is linear in it.
 */
import type { SignatureElement, StageInfo, StageKey, StageSignatures } from '../pipeline/verify.js';

const NAMES = ['SV_TessFactor', 'SV_InsideTessFactor', 'ARG', 'SV_Position', 'COLOR', 'SV_Target'] as const;
/** D3D_NAME values: none, position, the tessellation factors of each domain, target, primitive ID. */
const SYSTEM_VALUES = [0, 1, 11, 12, 13, 14, 15, 16, 64, 7] as const;
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
  const mesh = (byte() & 1) === 1;
  const stages: StageKey[] = mesh ? ['AS', 'MS', 'PS'] : ['VS', 'HS', 'DS', 'PS'];
  let elements = 0;
  const list = (max: number): SignatureElement[] => {
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
        stream: 0,
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
    const sig: StageSignatures = { inputs: list(6), outputs: list(6), stageInfo };
    if (flags & 16) (key === 'MS' ? ((sig as { primitiveOutputs?: SignatureElement[] }).primitiveOutputs = list(4)) : ((sig as { patchConstants?: SignatureElement[] }).patchConstants = list(8)));
    signatures[key] = sig;
  }
  const json: Record<string, unknown> = { RTVFormats: ['R8G8B8A8_UNORM'] };
  for (const key of stages) json[key] = key.toLowerCase();
  if (!mesh) json.PrimitiveTopologyType = 'PATCH';
  return { json, signatures, elements };
}

/** One element of a seed: a name, D3D_NAME and component type from the generator's lists, register, masks. */
export type SeedElement = readonly [name: (typeof NAMES)[number], semanticIndex: number, systemValue: (typeof SYSTEM_VALUES)[number], componentType: number, register: number, mask: number, readWriteMask: number];
/** One stage of a seed: its runtime facts, inputs, outputs and patch constants (primitive outputs for MS). */
export interface SeedStage {
  info?: StageInfo;
  inputs?: readonly SeedElement[];
  outputs?: readonly SeedElement[];
  extra?: readonly SeedElement[];
}

/** The bytes linkageCase reads back as the given stages (VS, HS, DS, PS; or AS, MS, PS for `mesh`). */
export function linkageBytes(mesh: boolean, stages: readonly SeedStage[]): Uint8Array {
  const out: number[] = [mesh ? 1 : 0];
  const list = (l: readonly SeedElement[] = []) => {
    out.push(l.length);
    for (const [name, index, sv, type, register, mask, rw] of l) out.push(NAMES.indexOf(name) | (index << 4), SYSTEM_VALUES.indexOf(sv) | (type << 4), register | (mask << 3), rw);
  };
  for (const s of stages) {
    const i = s.info ?? {};
    const flags = (i.inputControlPointCount !== undefined ? 1 : 0) | (i.outputControlPointCount !== undefined ? 2 : 0) | (i.tessellatorDomain !== undefined ? 4 : 0) | (i.payloadSizeInBytes !== undefined ? 8 : 0) | (s.extra ? 16 : 0);
    out.push(flags);
    if (i.inputControlPointCount !== undefined) out.push(i.inputControlPointCount);
    if (i.outputControlPointCount !== undefined) out.push(i.outputControlPointCount);
    if (i.tessellatorDomain !== undefined) out.push(i.tessellatorDomain);
    if (i.payloadSizeInBytes !== undefined) out.push(i.payloadSizeInBytes / 4);
    list(s.inputs);
    list(s.outputs);
    if (s.extra) list(s.extra);
  }
  return Uint8Array.from(out);
}
