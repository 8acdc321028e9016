/**
 * What a shader container says about itself: its stage, its resource bindings (from PSV0 for
 * DXIL, from the SHDR/SHEX declarations for DXBC, with RDEF names where present) and its own
 * root signature. The bindings use PSV0's resource types for both formats (docs/formats/psv0.md).
 */
import { PSV_RESOURCE_CLASS, PSV_RESOURCE_TYPE, SHADER_KIND } from '../../codecs/psv0.js';
import { SFI0 } from '../../codecs/parts.js';
import { Budget } from '../bytes/budget.js';
import { RowReader, readRecord } from '../rows/record.js';
import { DecodeError, DescriptionError, kindOf } from '../bytes/errors.js';
import { expectArray, expectBytes, expectObject, expectObjects, expectString } from '../bytes/check.js';
import { expectContainer, findPart, partIndex, partDataOffset, type ParsedContainer } from '../container/container.js';
import { parseContainer, type ContainerParseMode } from '../container/parse.js';
import { decodePsv0, type Psv0 } from './psv0.js';
import { readDxbcProgram, type DxbcProgram } from './dxbc.js';

/** Register classes in D3D12 range-type numbering. */
export const REGISTER_CLASS = ['SRV', 'UAV', 'CBV', 'Sampler'] as const;
/** A shader binding's register class. */
export type RegisterClass = (typeof REGISTER_CLASS)[number];
/** The register letter of each class. */
export const REGISTER_LETTER: Record<RegisterClass, string> = { SRV: 't', UAV: 'u', CBV: 'b', Sampler: 's' };

/** One resource binding of a shader, as DXC's root-signature check sees it. */
export interface ShaderBinding {
  /** PSVResourceType (codecs/psv0.ts), also for DXBC declarations. */
  resType: number;
  space: number;
  lowerBound: number;
  /** Last register, inclusive; 0xFFFFFFFF = unbounded array. */
  upperBound: number;
  /** Name from RDEF (DXBC) when the container has one. */
  name?: string;
  /** Absolute byte offset of the record or declaration that states the binding. */
  offset: number;
}

/** Shader feature flags (codecs/shader-flags.ts): bits 0-31 and 32-63 of SFI0, as RDAT's FeatureInfo1/FeatureInfo2. */
export interface ShaderFeatures {
  featureInfo1: number;
  featureInfo2: number;
}

/** What a shader container says about itself: stage and bindings. */
export interface ShaderInfo {
  container: ParsedContainer;
  format: 'dxil' | 'dxbc';
  /** DXIL::ShaderKind numbering (0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute, 6 library, ...). */
  stage: number;
  /** Shader model major.minor. */
  shaderModel: string;
  /** Decoded PSV0 (DXIL). */
  psv?: Psv0;
  /** Decoded token-stream declarations (DXBC). */
  program?: DxbcProgram;
  /** The bindings, in PSV order for DXIL and declaration order for DXBC; undefined when unknown (no PSV0). */
  bindings?: ShaderBinding[];
  /** The SFI0 part's feature flags (shaderFeatures); absent when the container has no SFI0 part. */
  features?: ShaderFeatures;
}

/**
 * The feature flags of a container's SFI0 part (codecs/shader-flags.ts), or undefined without one.
 * @throws {DecodeError} truncated when the part is shorter than its 8 bytes; duplicate-part for two SFI0 parts
 * @throws {DescriptionError} bad-type when `container` is not a container or the part's data not bytes
 */
export function shaderFeatures(container: ParsedContainer): ShaderFeatures | undefined {
  const i = partIndex(container, 'SFI0');
  if (i < 0) return undefined;
  const data = container.parts[i]!.data;
  expectBytes(data, `container.parts[${i}].data`);
  // the SFI0 row (codecs/parts.ts) reads the 64-bit word; RDAT's FeatureInfo1/2 are its halves
  const flags = readRecord(SFI0, new RowReader(data, partDataOffset(container, i), Budget.for(data.byteLength)), 0, 'SFI0').flags as bigint;
  return { featureInfo1: Number(flags & 0xffffffffn), featureInfo2: Number(flags >> 32n) };
}

const BINDING_FIELDS = ['resType', 'space', 'lowerBound', 'upperBound'] as const;

/**
 * Checks bindings given by a caller (verifyBindings, suggestRootSignature): an array of objects whose
 * resType, space, lowerBound and upperBound are 32-bit unsigned integers and whose name, when
 * present, is a string.
 * @throws {DescriptionError} bad-type or out-of-range naming the element and field
 */
export function checkBindings(bindings: unknown, path: string): asserts bindings is readonly ShaderBinding[] {
  expectArray(bindings, path);
  expectObjects(bindings, path);
  for (let i = 0; i < bindings.length; i++) {
    const b = bindings[i] as Record<string, unknown>;
    for (const key of BINDING_FIELDS) {
      const v = b[key];
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff) continue;
      throw new DescriptionError(typeof v === 'number' ? 'out-of-range' : v === undefined ? 'missing-key' : 'bad-type', `${path}[${i}].${key}`, `expected an integer 0..4294967295, got ${kindOf(v)}${typeof v === 'number' ? ` ${v}` : ''}`);
    }
    if (b.name !== undefined) expectString(b.name, `${path}[${i}].name`);
  }
}

/** The register class of a PSV resource type, or undefined for Invalid and unknown values. */
export function bindingClass(resType: number): RegisterClass | undefined {
  const c = PSV_RESOURCE_CLASS[resType];
  return c === undefined ? undefined : REGISTER_CLASS[c];
}

/** The name of a shader stage (PSV0 numbering). */
export function stageName(stage: number): string {
  return SHADER_KIND.values.find(([, v]) => v === stage)?.[0] ?? `kind ${stage}`;
}

/** The name of a PSV0 resource type. */
export function resTypeName(resType: number): string {
  return PSV_RESOURCE_TYPE.values.find(([, v]) => v === resType)?.[0] ?? `type ${resType}`;
}

/**
 * `t3` or `t3..t5` or `t3..` (unbounded), with `, space1` when the space is not 0.
 * @throws {DescriptionError} bad-type when `b` is not an object
 */
export function formatBinding(b: ShaderBinding): string {
  expectObject(b, 'binding');
  const letter = REGISTER_LETTER[bindingClass(b.resType) ?? 'SRV'];
  const range = b.upperBound === 0xffffffff ? `${letter}${b.lowerBound}..` : b.upperBound === b.lowerBound ? `${letter}${b.lowerBound}` : `${letter}${b.lowerBound}..${letter}${b.upperBound}`;
  return `${range}${b.space ? `, space${b.space}` : ''}`;
}

/**
 * Reads a shader container's stage and bindings.
 * @throws {DecodeError} malformed container, PSV0 or token stream; missing-part when the container
 *   has neither a DXIL program nor a DXBC token stream
 */
export function readShader(bytes: Uint8Array, mode: ContainerParseMode = 'strict'): ShaderInfo {
  return shaderOf(parseContainer(bytes, { mode }));
}

/**
 * readShader on a container already parsed.
 * @throws {DecodeError} as readShader: a malformed DXIL program header, PSV0, SFI0 or token stream; missing-part
 *   when the container has neither a DXIL program nor a DXBC token stream
 * @throws {DescriptionError} bad-type when `container` is not a container
 */
export function shaderOf(container: ParsedContainer): ShaderInfo {
  const parts = expectContainer(container);
  expectObjects(parts, 'container.parts');
  for (let i = 0; i < parts.length; i++) {
    if (typeof parts[i]!.name !== 'string') expectString(parts[i]!.name, `container.parts[${i}].name`);
    expectBytes(parts[i]!.data, `container.parts[${i}].data`);
  }
  const dxilIndex = partIndex(container, 'DXIL');
  if (dxilIndex >= 0) {
    const dxil = container.parts[dxilIndex]!.data;
    const base = partDataOffset(container, dxilIndex);
    if (dxil.byteLength < 4) throw new DecodeError('truncated', base, 'DXIL.programVersion', 'the DXIL part has no program header');
    const programVersion = new DataView(dxil.buffer, dxil.byteOffset).getUint32(0, true);
    const stage = programVersion >>> 16;
    const shaderModel = `${(programVersion >>> 4) & 0xf}.${programVersion & 0xf}`;
    const features = shaderFeatures(container);
    const withFeatures = features ? { features } : {};
    const psvIndex = partIndex(container, 'PSV0');
    if (psvIndex < 0) return { container, format: 'dxil', stage, shaderModel, ...withFeatures };
    const psvBase = partDataOffset(container, psvIndex);
    const psv = decodePsv0(container.parts[psvIndex]!.data, { base: psvBase, stage });
    const size = psv.resourceSize;
    const recordsAt = psvBase + 4 + psv.runtimeInfoSize + 8;
    const bindings = psv.resources.map((r, i) => ({ resType: r.resType, space: r.space, lowerBound: r.lowerBound, upperBound: r.upperBound, offset: recordsAt + i * size }));
    return { container, format: 'dxil', stage, shaderModel, psv, bindings, ...withFeatures };
  }
  // one token stream: SHEX or SHDR (each lookup refuses a repeated part; both at once are as ambiguous)
  const shex = partIndex(container, 'SHEX');
  const shdr = partIndex(container, 'SHDR');
  if (shex >= 0 && shdr >= 0) {
    const [first, second] = shex < shdr ? [shex, shdr] : [shdr, shex];
    throw new DecodeError('duplicate-part', partDataOffset(container, second) - 8, `container.parts[${second}].name`, `parts ${first} and ${second} are both a DXBC token stream (SHEX and SHDR): which one is meant is ambiguous`);
  }
  const shexIndex = shex >= 0 ? shex : shdr;
  if (shexIndex >= 0) {
    const rdef = findPart(container, 'RDEF');
    const rdefIndex = partIndex(container, 'RDEF');
    const program = readDxbcProgram(container.parts[shexIndex]!.data, {
      base: partDataOffset(container, shexIndex),
      ...(rdef ? { rdef: rdef.data, rdefBase: partDataOffset(container, rdefIndex) } : {}),
    });
    const features = shaderFeatures(container);
    return { container, format: 'dxbc', stage: program.stage, shaderModel: `${program.major}.${program.minor}`, program, bindings: program.bindings, ...(features ? { features } : {}) };
  }
  throw new DecodeError('missing-part', 0, 'container.parts', 'the container has no shader program (DXIL, SHEX or SHDR part)');
}
