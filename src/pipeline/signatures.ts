/**
 * Decoded signature parts -> the elements verifySignatures takes. A container's signature parts
 * (ISGN/ISG1 inputs; OSGN/OSG5/OSG1 outputs; PCSG/PSG1 the patch constants of a hull or domain
 * shader, or a mesh shader's primitive outputs: the same part serves both), each a list
 * of decoded element rows ({semanticName, semanticIndex, systemValue, componentType, register,
 * mask, rwMask, stream?}, as the row model decodes them: numbers for the enums), become one
 * stage's StageSignatures. The signature decoder itself lives with the container parts.
 */
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectObject, kindOf } from '../bytes/check.js';
import type { SignatureElement, StageSignatures } from './verify.js';

/**
 * Which list each signature part fills. `patchConstants` (PCSG, PSG1) is a hull or domain shader's
 * patch-constant signature, and a mesh shader's primitive outputs (stageSignaturesFromParts's `stage`).
 */
export const SIGNATURE_PART_ROLE: Readonly<Record<string, 'inputs' | 'outputs' | 'patchConstants'>> = {
  ISGN: 'inputs',
  ISG1: 'inputs',
  OSGN: 'outputs',
  OSG5: 'outputs',
  OSG1: 'outputs',
  PCSG: 'patchConstants',
  PSG1: 'patchConstants',
};
/** DXIL::ShaderKind of the mesh shader, whose PSG1 holds primitive outputs. */
const MESH_STAGE = 13;

const NUMBERS = ['semanticIndex', 'systemValue', 'componentType', 'register', 'mask'] as const;

/** One decoded element row as a SignatureElement. @throws {DescriptionError} bad-type for a row without its fields */
export function signatureElement(row: Record<string, unknown>, path: string): SignatureElement {
  expectObject(row, path);
  if (typeof row.semanticName !== 'string') throw new DescriptionError('bad-type', `${path}.semanticName`, `expected a string, got ${kindOf(row.semanticName)}`);
  for (const k of NUMBERS) if (typeof row[k] !== 'number') throw new DescriptionError('bad-type', `${path}.${k}`, `expected a number, got ${kindOf(row[k])}`);
  const rw = row.rwMask ?? row.readWriteMask ?? 0;
  const stream = row.stream ?? 0;
  if (typeof rw !== 'number' || typeof stream !== 'number') throw new DescriptionError('bad-type', path, 'rwMask and stream are numbers');
  return {
    semanticName: row.semanticName,
    semanticIndex: row.semanticIndex as number,
    systemValue: row.systemValue as number,
    componentType: row.componentType as number,
    register: row.register as number,
    mask: row.mask as number,
    readWriteMask: rw,
    stream,
  };
}

/**
 * A stage's signatures from its decoded signature parts; undefined when it has neither an input
 * nor an output signature part. `stage` (DXIL::ShaderKind) says what a PCSG/PSG1 part holds: a mesh
 * shader's (13) primitive outputs, any other stage's patch constants.
 * @throws {DescriptionError} bad-type for parts or rows of the wrong shape
 */
export function stageSignaturesFromParts(parts: readonly { name: string; elements: readonly Record<string, unknown>[] }[], stage?: number): StageSignatures | undefined {
  expectArray(parts, 'parts');
  if (stage !== undefined && (typeof stage !== 'number' || !Number.isInteger(stage))) throw new DescriptionError('bad-type', 'stage', `expected a shader kind (an integer), got ${kindOf(stage)}`);
  const out: { inputs: SignatureElement[]; outputs: SignatureElement[]; patchConstants: SignatureElement[] } = { inputs: [], outputs: [], patchConstants: [] };
  const seen = new Set<string>();
  parts.forEach((p, i) => {
    expectObject(p, `parts[${i}]`);
    // own keys only: a part named toString or __proto__ is no signature part
    const role = Object.hasOwn(SIGNATURE_PART_ROLE, p.name) ? SIGNATURE_PART_ROLE[p.name] : undefined;
    if (!role) return;
    expectArray(p.elements, `parts[${i}].elements`);
    if (seen.has(role)) throw new DescriptionError('bad-type', `parts[${i}]`, `a second ${role} signature part (${p.name}): ambiguous`);
    seen.add(role);
    p.elements.forEach((row, j) => out[role].push(signatureElement(row, `parts[${i}].elements[${j}]`)));
  });
  if (!seen.has('inputs') && !seen.has('outputs')) return undefined;
  const extra = !seen.has('patchConstants') ? {} : stage === MESH_STAGE ? { primitiveOutputs: out.patchConstants } : { patchConstants: out.patchConstants };
  return { inputs: out.inputs, outputs: out.outputs, ...extra };
}
