/**
 * The byte layout of a shader record for a local root signature (docs/formats/pipeline.md): the
 * 32-byte shader identifier, then each root parameter's argument in order (root constants 4 bytes
 * a value at 4-byte alignment; root descriptors 8-byte GPU virtual addresses and descriptor tables
 * 8-byte GPU descriptor handles, each at 8-byte alignment), the record's size, and the stride a
 * shader table of such records needs (a multiple of 32, at most 4096).
 */
import { readOnce } from '../bytes/once.js';
import { LOCAL_ROOT_SIGNATURE_FLAG } from '../../codecs/binding-rules.js';
import { ROOT_PARAMETER_TYPE } from '../../codecs/root-signature.js';
import { SHADER_RECORD, SHADER_RECORD_ARGUMENTS } from '../../codecs/pipeline.js';
import { DescriptionError } from '../bytes/errors.js';
import { checkDescription } from '../root-signature/check.js';
import { parameterPath } from '../root-signature/rows.js';
import type { DescriptorTableParameter, RootConstantsParameter, RootDescriptorParameter, RootSignature } from '../root-signature/types.js';
import { enumName } from '../json/vocabulary.js';
import { expectNumber, expectObject } from '../bytes/check.js';

/** One root argument of a shader record. */
export interface RecordField {
  /** The root parameter (`RTS0.parameters[2]`), or `identifier` for the shader identifier. */
  path: string;
  /** The parameter type (D3D12_ROOT_PARAMETER_TYPE name), or `IDENTIFIER`. */
  type: string;
  offset: number;
  size: number;
  align: number;
  /** What the bytes hold (`D3D12_GPU_VIRTUAL_ADDRESS`, `4 32-bit constants`). */
  holds: string;
  /** The register it binds (`b0 space 1`), where it is one. */
  register?: string;
}

/** A shader record's layout. */
export interface RecordLayout {
  /** The root signature has the LOCAL_ROOT_SIGNATURE flag. */
  local: boolean;
  /** Identifier and arguments: the bytes a record must hold. */
  recordSize: number;
  /** The smallest stride of a shader table of these records (recordSize rounded up to 32). */
  stride: number;
  /** The stride is at most D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE. */
  fitsMaxStride: boolean;
  fields: RecordField[];
}

const align = (n: number, a: number) => Math.ceil(n / a) * a;

/**
 * The shader record layout of a (local) root signature.
 * @throws {DescriptionError} for a description that is not one, or a parameter type no row has
 */
export function shaderRecordLayout(rs: RootSignature): RecordLayout {
  rs = readOnce(rs, 5); // read once (src/bytes/once.ts): the description checked is the one laid out
  checkDescription(rs);
  const fields: RecordField[] = [{ path: 'identifier', type: 'IDENTIFIER', offset: 0, size: SHADER_RECORD.identifierSize, align: SHADER_RECORD.recordAlignment, holds: 'shader identifier' }];
  let at: number = SHADER_RECORD.identifierSize;
  rs.parameters.forEach((p, i) => {
    const path = parameterPath(i);
    const type = enumName(ROOT_PARAMETER_TYPE, p.parameterType);
    const row = typeof type === 'string' ? SHADER_RECORD_ARGUMENTS[type] : undefined;
    if (!row) throw new DescriptionError('out-of-range', `${path}.parameterType`, `${String(type)} is no root parameter type`);
    let size = row.size;
    let holds = row.holds;
    let register: string | undefined;
    if (row.perValue) {
      const c = (p as RootConstantsParameter).constants;
      size = row.size * c.num32BitValues;
      holds = `${c.num32BitValues} ${row.holds}`;
      register = `b${c.shaderRegister} space ${c.registerSpace}`;
    } else if (type !== 'DESCRIPTOR_TABLE') {
      const d = (p as RootDescriptorParameter).descriptor;
      register = `${type === 'CBV' ? 'b' : type === 'SRV' ? 't' : 'u'}${d.shaderRegister} space ${d.registerSpace}`;
    } else holds = `${row.holds} (${(p as DescriptorTableParameter).ranges.length} range${(p as DescriptorTableParameter).ranges.length === 1 ? '' : 's'})`;
    at = align(at, row.align);
    fields.push({ path, type: type as string, offset: at, size, align: row.align, holds, ...(register ? { register } : {}) });
    at += size;
  });
  const stride = align(at, SHADER_RECORD.recordAlignment);
  return { local: (rs.flags & LOCAL_ROOT_SIGNATURE_FLAG) !== 0, recordSize: at, stride, fitsMaxStride: stride <= SHADER_RECORD.maxStride, fields };
}

/** Why a shader table stride does not hold records of `layout`, or undefined when it does. */
export function recordSizeProblem(layout: RecordLayout, size: number): string | undefined {
  expectObject(layout, 'layout');
  expectNumber(layout.recordSize, 'layout.recordSize');
  expectNumber(size, 'size');
  if (!Number.isInteger(size) || size < 0) return `record size ${size} is not a whole number of bytes`;
  if (size < layout.recordSize) return `record size ${size} is less than the ${layout.recordSize} bytes the shader identifier and root arguments take`;
  if (size % SHADER_RECORD.recordAlignment !== 0) return `record size ${size} is not a multiple of D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT (${SHADER_RECORD.recordAlignment})`;
  if (size > SHADER_RECORD.maxStride) return `record size ${size} exceeds D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE (${SHADER_RECORD.maxStride})`;
  return undefined;
}
