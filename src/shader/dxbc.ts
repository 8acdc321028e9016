/**
 * DXBC (SM 4.0-5.1) SHDR/SHEX token streams: the stage from the version token and the binding
 * declarations (dcl_constantbuffer, dcl_resource*, dcl_sampler, dcl_uav_*), with RDEF names where
 * the container has them (docs/formats/dxbc-declarations.md). Every instruction's length is
 * checked; a bad token is a DecodeError naming its byte offset.
 */
import {
  COUNTER_OPCODES,
  DECLARATIONS,
  STAGE_DECLARATIONS,
  INDEX_REPRESENTATION,
  OPERAND_IMMEDIATE,
  INDEX_IMMEDIATE32,
  OPCODE_CUSTOMDATA,
  OPCODE_NAMES,
  OPCODE_TOKEN,
  OPERAND_TOKEN,
  PROGRAM_TYPES,
  RDEF,
  RDEF_INPUT_CLASS,
  UAV_HAS_COUNTER,
  VERSION_TOKEN,
  type BitField,
  type DeclarationRow,
} from '../../codecs/dxbc-tokens.js';
import { PSV_RESOURCE_CLASS } from '../../codecs/psv0.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { Budget } from '../bytes/budget.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { ByteReader } from '../bytes/reader.js';
import { expectBytes, expectOffset, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { tableNames } from '../bytes/strings.js';
import type { ShaderBinding } from './shader.js';

/** One binding declaration of the token stream. */
export interface DxbcDeclaration extends ShaderBinding {
  /** dcl_resource, dcl_uav_structured, ... */
  declaration: string;
  /** SM 5.1 range ID (the operand's first index); the register for earlier models. */
  rangeId: number;
  /** Opcode-specific control bits (dimension, flags) as stored. */
  control: number;
  /** dcl_uav_structured with the order-preserving-counter flag. */
  counterDeclared: boolean;
  /** An imm_atomic_alloc / imm_atomic_consume of the program uses this UAV's counter. */
  counterUsed: boolean;
}

/** A DXBC shader program: its stage, version and declarations (resource bindings among them). */
export interface DxbcProgram {
  /** SHDR/SHEX program type = DXIL::ShaderKind 0-5. */
  stage: number;
  major: number;
  minor: number;
  /** Length in DWORDs from the second token. */
  length: number;
  declarations: DxbcDeclaration[];
  /** The declarations as bindings (names from RDEF where present). */
  bindings: DxbcDeclaration[];
  /**
   * Tessellation and geometry-shader declarations (codecs/dxbc-tokens.ts STAGE_DECLARATIONS) under
   * PSV0's runtime-info names: inputControlPointCount, outputControlPointCount, tessellatorDomain,
   * tessellatorOutputPrimitive, inputPrimitive; the first of each.
   */
  stageInfo: Record<string, number>;
}

/** Options of the DXBC program reader. */
export interface ReadDxbcOptions {
  /** Absolute offset of the token stream in the caller's bytes. */
  base?: number;
  /** RDEF part data, for names. */
  rdef?: Uint8Array;
  rdefBase?: number;
}

const field = (token: number, f: BitField) => (token >>> f.shift) & f.mask;
const BY_OPCODE = new Map<number, DeclarationRow>(DECLARATIONS.map((d) => [d.opcode, d]));
const STAGE_BY_OPCODE = new Map(STAGE_DECLARATIONS.map((d) => [d.opcode, d]));

/**
 * SHDR/SHEX part data -> stage, version and binding declarations.
 * @throws {DecodeError} truncated, bad-token (a length of 0, a wrong operand type, an index that
 *   is not an immediate, an instruction longer than the program), unsupported-version
 */
export function readDxbcProgram(data: Uint8Array, options: ReadDxbcOptions = {}): DxbcProgram {
  expectBytes(data, 'bytes'); // the path ByteReader's check names
  expectOptionKeys(options as unknown, ['base', 'rdef', 'rdefBase']);
  if (options.rdef !== undefined) expectBytes(options.rdef, 'options.rdef');
  for (const key of ['base', 'rdefBase'] as const) if (options[key] !== undefined) expectOffset(options[key], `options.${key}`);
  const r = new ByteReader(data, options.base ?? 0);
  const version = r.u32(0, 'SHEX.version');
  const stage = field(version, VERSION_TOKEN.programType);
  const major = field(version, VERSION_TOKEN.major);
  const minor = field(version, VERSION_TOKEN.minor);
  if (!PROGRAM_TYPES.some((p) => p.value === stage) || major < 4 || major > 5) {
    throw new DecodeError('unsupported-version', r.base, 'SHEX.version', `program type ${stage}, model ${major}.${minor}: not a SM 4.0-5.1 shader program`);
  }
  const sm51 = major === 5 && minor >= 1;
  const length = programLength(r, data);
  const declarations: DxbcDeclaration[] = [];
  const counterUses = new Set<number>();
  const stageInfo: Record<string, number> = {};
  const end = length * 4;
  let at = 8;
  let index = 0;
  while (at < end) {
    const path = `SHEX.instructions[${index}]`;
    const token = r.u32(at, `${path}.opcode`);
    const opcode = field(token, OPCODE_TOKEN.opcode);
    const size = instructionSize(r, at, end, token, path);
    const row = BY_OPCODE.get(opcode);
    const fact = STAGE_BY_OPCODE.get(opcode);
    if (row) declarations.push(readDeclaration(r, at, size * 4, token, row, sm51, path));
    else if (fact && stageInfo[fact.key] === undefined) stageInfo[fact.key] = field(token, fact.value);
    else if (COUNTER_OPCODES.includes(opcode)) counterUses.add(counterRange(r, at, size * 4, token, path));
    at += size * 4;
    index++;
  }
  for (const d of declarations) {
    if (d.declaration.startsWith('dcl_uav') && counterUses.has(d.rangeId)) {
      d.counterUsed = true;
      // A counter in use needs a counter descriptor: the binding is a structured UAV with counter.
      if (d.resType === 8) d.resType = 9;
    }
  }
  const names = options.rdef ? rdefNames(options.rdef) : undefined;
  const bindings = declarations.map((d) => {
    const name = names?.get(`${PSV_RESOURCE_CLASS[d.resType]}:${d.space}:${d.lowerBound}`);
    return name === undefined ? d : { ...d, name };
  });
  return { stage, major, minor, length, declarations, bindings, stageInfo };
}

/** The program's length in DWORDs (its second token), at least the two header tokens and within the part. */
function programLength(r: ByteReader, data: Uint8Array): number {
  const length = r.u32(4, 'SHEX.length');
  if (length < 2 || length > data.byteLength / 4) throw new DecodeError('bad-token', r.base + 4, 'SHEX.length', `program of ${length} DWORDs, the part holds ${Math.floor(data.byteLength / 4)}`);
  return length;
}

/** DWORDs of the instruction at `at` whose opcode token is `token` (customdata: its second token), within the program ending at `end`. */
function instructionSize(r: ByteReader, at: number, end: number, token: number, path: string): number {
  const opcode = field(token, OPCODE_TOKEN.opcode);
  const size = opcode === OPCODE_CUSTOMDATA ? r.u32(at + 4, `${path}.customdataLength`) : field(token, OPCODE_TOKEN.length);
  if (size === 0 || size > (end - at) / 4) throw new DecodeError('bad-token', r.base + at, `${path}.length`, `instruction of ${size} DWORDs (opcode 0x${opcode.toString(16)}), ${(end - at) / 4} left in the program`);
  return size;
}

function readDeclaration(r: ByteReader, start: number, size: number, token: number, row: DeclarationRow, sm51: boolean, path: string): DxbcDeclaration {
  const limit = start + size;
  let at = start + 4;
  const next = (what: string) => {
    if (at + 4 > limit) throw new DecodeError('bad-token', r.base + start, `${path}.${what}`, `${row.name} ends before its ${what} (${size / 4} DWORDs)`);
    const v = r.u32(at, path); // inside the instruction, whose length was checked: the field is named only on error above
    at += 4;
    return v;
  };
  if (field(token, OPCODE_TOKEN.extended)) while (field(next('extendedOpcode'), OPCODE_TOKEN.extended));
  const operandAt = at;
  const operand = next('operand');
  if (field(operand, OPERAND_TOKEN.extended)) while (field(next('extendedOperand'), OPERAND_TOKEN.extended));
  const type = field(operand, OPERAND_TOKEN.operandType);
  if (type !== row.operandType) {
    throw new DecodeError('bad-token', r.base + operandAt, `${path}.operand.type`, `${row.name} declares operand type ${type}, expected ${row.operandType}`);
  }
  const dims = field(operand, OPERAND_TOKEN.indexDimension);
  const wanted = sm51 ? 3 : row.extra51.length ? 2 : 1;
  if (dims !== wanted) {
    throw new DecodeError('bad-token', r.base + operandAt, `${path}.operand.indexDimension`, `${row.name} has ${dims} operand indices, SM ${sm51 ? '5.1' : '4.0-5.0'} declares ${wanted}`);
  }
  const reps = [OPERAND_TOKEN.indexRepresentation0, OPERAND_TOKEN.indexRepresentation1, OPERAND_TOKEN.indexRepresentation2];
  const indices: number[] = [];
  for (let k = 0; k < dims; k++) {
    if (field(operand, reps[k]!) !== INDEX_IMMEDIATE32) {
      throw new DecodeError('bad-token', r.base + operandAt, `${path}.operand.index${k}`, `${row.name} index ${k} is not a 32-bit immediate`);
    }
    indices.push(next(`operand.index${k}`));
  }
  for (const e of row.extra) next(e);
  let space = 0;
  let lowerBound = indices[0]!;
  let upperBound = indices[0]!;
  if (sm51) {
    lowerBound = indices[1]!;
    upperBound = indices[2]!;
    for (const e of row.extra51) next(e);
    space = next('space');
  }
  const counter = row.counterType !== undefined && (token & UAV_HAS_COUNTER) !== 0;
  return {
    declaration: row.name,
    resType: counter ? row.counterType! : row.resType,
    space,
    lowerBound,
    upperBound,
    rangeId: indices[0]!,
    control: field(token, OPCODE_TOKEN.control),
    counterDeclared: counter,
    counterUsed: false,
    offset: r.base + start,
  };
}

/** The UAV register (SM 5.1: range ID) whose counter an imm_atomic_alloc/consume uses. */
function counterRange(r: ByteReader, start: number, size: number, token: number, path: string): number {
  const limit = start + size;
  let at = start + 4;
  const next = (what: string) => {
    if (at + 4 > limit) throw new DecodeError('bad-token', r.base + start, `${path}.${what}`, `instruction ends inside its operands (${size / 4} DWORDs)`);
    const v = r.u32(at, path); // inside the instruction, whose length was checked: the field is named only on error above
    at += 4;
    return v;
  };
  if (field(token, OPCODE_TOKEN.extended)) while (field(next('extendedOpcode'), OPCODE_TOKEN.extended));
  // Operands nest through relative indices (a nested operand follows its index's immediates);
  // an explicit stack keeps the order, and every operand takes a token, so the instruction's
  // length bounds the work.
  const reps = [OPERAND_TOKEN.indexRepresentation0, OPERAND_TOKEN.indexRepresentation1, OPERAND_TOKEN.indexRepresentation2];
  const skipOperand = () => {
    const stack: { operand: number; k: number }[] = [];
    const begin = () => {
      const operand = next('operand');
      if (field(operand, OPERAND_TOKEN.extended)) while (field(next('extendedOperand'), OPERAND_TOKEN.extended));
      const words = OPERAND_IMMEDIATE[field(operand, OPERAND_TOKEN.operandType) as keyof typeof OPERAND_IMMEDIATE];
      if (words) for (let k = 0; k < words * (field(operand, OPERAND_TOKEN.numComponents) === 2 ? 4 : 1); k++) next('immediate');
      stack.push({ operand, k: 0 });
    };
    begin();
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.k >= field(top.operand, OPERAND_TOKEN.indexDimension)) {
        stack.pop();
        continue;
      }
      const code = field(top.operand, reps[top.k]!);
      const rep = INDEX_REPRESENTATION[code];
      if (!rep) throw new DecodeError('bad-token', r.base + at - 4, `${path}.operand.index${top.k}`, `unknown index representation ${code}`);
      top.k++;
      for (let w = 0; w < rep.immediates; w++) next('operand.index');
      if (rep.relative) begin();
    }
  };
  skipOperand();
  const uavAt = at;
  const uav = next('operand');
  if (field(uav, OPERAND_TOKEN.operandType) !== 30 || field(uav, OPERAND_TOKEN.indexDimension) < 1) {
    throw new DecodeError('bad-token', r.base + uavAt, `${path}.operand.type`, 'a counter instruction whose second operand is not a UAV');
  }
  if (field(uav, OPERAND_TOKEN.extended)) while (field(next('extendedOperand'), OPERAND_TOKEN.extended));
  if (field(uav, OPERAND_TOKEN.indexRepresentation0) !== INDEX_IMMEDIATE32) {
    throw new DecodeError('bad-token', r.base + uavAt, `${path}.operand.index0`, 'the UAV of a counter instruction is not named by an immediate');
  }
  return next('operand.index0');
}

/** RDEF binding names by `class:space:bindPoint`; names are a convenience, so a damaged RDEF gives none. */
function rdefNames(rdef: Uint8Array): Map<string, string> {
  const names = new Map<string, string>();
  if (rdef.byteLength < 28) return names;
  const v = new DataView(rdef.buffer, rdef.byteOffset, rdef.byteLength);
  const count = v.getUint32(RDEF.bindingCount, true);
  const offset = v.getUint32(RDEF.bindingOffset, true);
  const sm51 = rdef[RDEF.major] === 5 && rdef[RDEF.minor]! >= 1;
  const size = sm51 ? RDEF.bindingSize51 : RDEF.bindingSize;
  if (offset > rdef.byteLength || count > (rdef.byteLength - offset) / size) return names;
  // many bindings may name one long string: each offset decoded once, long names cut
  const nameOf = tableNames(rdef);
  for (let i = 0; i < count; i++) {
    const at = offset + i * size;
    const cls = RDEF_INPUT_CLASS[v.getUint32(at + RDEF.binding.type, true)];
    const nameAt = v.getUint32(at + RDEF.binding.name, true);
    if (cls === undefined || nameAt >= rdef.byteLength) continue;
    const name = nameOf(nameAt)!;
    const space = sm51 ? v.getUint32(at + RDEF.binding.space, true) : 0;
    names.set(`${cls}:${space}:${v.getUint32(at + RDEF.binding.bindPoint, true)}`, name);
  }
  return names;
}

/** One instruction of a token stream: where it is, its opcode (with name) and every token it holds. */
export interface DxbcInstruction {
  /** Offset of the opcode token in the part data. */
  offset: number;
  opcode: number;
  /** The opcode's name (codecs/dxbc-tokens.ts OPCODE_NAMES), or `opcode_N` for numbers past the table. */
  name: string;
  /** Opcode-specific control bits (bits 11-23). */
  control: number;
  /** Tokens, the opcode token first (its length is `tokens.length`). */
  tokens: number[];
}

/** A SHDR/SHEX part as tokens: the version and length tokens, the instructions, and the binding declarations where they decode. */
export interface DxbcTokens {
  version: number;
  programType: number;
  programTypeName?: string;
  majorVersion: number;
  minorVersion: number;
  /** Program length in DWORDs (the second token), the two header tokens included. */
  length: number;
  instructions: DxbcInstruction[];
  /** Binding declarations (readDxbcProgram), or why they did not decode. */
  declarations?: DxbcDeclaration[];
  declarationsError?: string;
}

/**
 * SHDR/SHEX part data -> every instruction with its opcode name (any version token: the split
 * needs only lengths). Charges one `resolve` per token to the budget.
 * @throws {DecodeError} truncated, bad-token (a length of 0 or past the program)
 * @throws {LimitError} limit-exceeded
 */
export function decodeDxbcTokens(data: Uint8Array, options: { base?: number; budget?: Budget } = {}): DxbcTokens {
  expectBytes(data, 'data');
  const base = options.base ?? 0;
  const budget = options.budget ?? Budget.for(data.byteLength);
  const r = new ByteReader(data, base);
  const version = r.u32(0, 'SHEX.version');
  const length = programLength(r, data);
  budget.charge('resolve', length, 'SHEX');
  const programType = field(version, VERSION_TOKEN.programType);
  const instructions: DxbcInstruction[] = [];
  const end = length * 4;
  let at = 8;
  while (at < end) {
    const path = `SHEX.instructions[${instructions.length}]`;
    const token = r.u32(at, `${path}.opcode`);
    const opcode = field(token, OPCODE_TOKEN.opcode);
    const size = instructionSize(r, at, end, token, path);
    const tokens = new Array<number>(size);
    for (let k = 0; k < size; k++) tokens[k] = r.view.getUint32(at + 4 * k, true);
    instructions.push({ offset: at, opcode, name: OPCODE_NAMES[opcode] ?? `opcode_${opcode}`, control: field(token, OPCODE_TOKEN.control), tokens });
    at += size * 4;
  }
  const out: DxbcTokens = {
    version,
    programType,
    ...(PROGRAM_TYPES.find((p) => p.value === programType) ? { programTypeName: PROGRAM_TYPES.find((p) => p.value === programType)!.name } : {}),
    majorVersion: field(version, VERSION_TOKEN.major),
    minorVersion: field(version, VERSION_TOKEN.minor),
    length,
    instructions,
  };
  try {
    out.declarations = readDxbcProgram(data, { base }).declarations;
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    out.declarationsError = e.message;
  }
  return out;
}

/**
 * Writes the tokens of `t` into a part's data view (version, length, each instruction in order).
 * @throws {DescriptionError} out-of-range when the instructions run past the view or past `length`
 */
export function encodeDxbcTokens(t: DxbcTokens, out: DataView): void {
  if (!(out instanceof DataView)) throw new DescriptionError('bad-type', 'out', 'expected a DataView');
  if (typeof t?.version !== 'number' || typeof t.length !== 'number') throw new DescriptionError('bad-type', 'program', 'expected numbers version and length');
  if (typeof t !== 'object' || t === null || !Array.isArray(t.instructions)) throw new DescriptionError('bad-type', 'program', 'expected { version, length, instructions }');
  if (out.byteLength < 8) throw new DescriptionError('out-of-range', 'program', `the version and length tokens take 8 bytes, the part has ${out.byteLength}`);
  out.setUint32(0, t.version >>> 0, true);
  out.setUint32(4, t.length >>> 0, true);
  let at = 8;
  for (let i = 0; i < t.instructions.length; i++) {
    const ins = t.instructions[i];
    if (typeof ins !== 'object' || ins === null) throw new DescriptionError('bad-type', `program.instructions[${i}]`, 'expected an instruction');
    const tokens = ins.tokens;
    if (!Array.isArray(tokens) || at + 4 * tokens.length > out.byteLength) throw new DescriptionError('out-of-range', `program.instructions[${i}]`, `the instruction runs past the part's ${out.byteLength} bytes`);
    for (const v of tokens) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new DescriptionError('bad-type', `program.instructions[${i}].tokens`, 'expected u32 tokens');
      out.setUint32(at, v, true);
      at += 4;
    }
  }
}

/** Byte-map spans of a token stream: version and length, each instruction's opcode token and operands. */
export function dxbcTokenSpans(t: DxbcTokens, rec: SpanRecorder, base: number, path: string): void {
  rec.field(base, 4, `${path}.version`, t.version, `${t.programTypeName ?? 'type ' + t.programType} ${t.majorVersion}.${t.minorVersion}`);
  rec.field(base + 4, 4, `${path}.length`, t.length);
  t.instructions.forEach((ins, i) => {
    const p = `${path}.instructions[${i}]`;
    rec.add('record', base + ins.offset, ins.tokens.length * 4, p, undefined, ins.name);
    rec.field(base + ins.offset, 4, `${p}.opcode`, ins.tokens[0]!, ins.name);
    if (ins.tokens.length > 1) rec.field(base + ins.offset + 4, (ins.tokens.length - 1) * 4, `${p}.operands`);
  });
}
