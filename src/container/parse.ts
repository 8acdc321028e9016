/**
 * Container reader. `strict` applies DXC's IsValidDxilContainer checks; `lenient` accepts the
 * layouts vkd3d accepts (gaps such as vkd3d's 0xAB alignment filler, parts in any order inside the
 * buffer). Both refuse a major version other than 1, as DXC does; neither refuses a repeated part
 * name (DXC's reader does not; lookups take the first part of a name).
 */
import {
  CONTAINER_HEADER,
  CONTAINER_HEADER_SIZE,
  CONTAINER_MAGIC,
  MAX_CONTAINER_SIZE,
  PART_HEADER_SIZE,
} from '../../codecs/container.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { expectBytes, expectOptions, kindOf } from '../bytes/check.js';
import { getU32 } from '../bytes/le.js';
import { ByteReader } from '../bytes/reader.js';
import { printable } from '../bytes/text.js';
import { valueText } from './container.js';
import type { ContainerPart, ParsedContainer } from './container.js';

/** `strict`: DXC's IsValidDxilContainer rules; `lenient`: vkd3d's (gaps, parts anywhere). */
export type ContainerParseMode = 'strict' | 'lenient';

/** Options of parseContainer. */
export interface ParseContainerOptions {
  mode?: ContainerParseMode;
}

const H = CONTAINER_HEADER;
const OFFSETS = H.partOffsets.offset;

const u32 = getU32;

/**
 * FourCCs seen so far by their u32 value, so that parsing a part name builds its string once per
 * process, not once per parse. Filled as names are met rather than from codecs/ PART_KINDS, so an
 * app that parses containers does not carry the part descriptions (issue 29's bundle budgets);
 * bounded, so input cannot grow it (a name past the bound is built each time, as before).
 */
const FOURCCS = new Map<number, string>();
const FOURCCS_MAX = 64;

function fourCCAt(bytes: Uint8Array, at: number): string {
  const key = u32(bytes, at);
  let name = FOURCCS.get(key);
  if (name === undefined) {
    name = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    if (FOURCCS.size < FOURCCS_MAX) FOURCCS.set(key, name);
  }
  return name;
}

/**
 * Parses a DXBC/DXIL container; parts are kept byte for byte. Parts and the digest are views of
 * `bytes` (no copies): they change if `bytes` is changed afterwards, so copy the input first when
 * you mean to edit it in place.
 * @throws {DecodeError} bad-magic, truncated, container-size, part-layout, count-exceeds-data, ...
 * @throws {DescriptionError} bad-type when `bytes` is not a Uint8Array
 */
export function parseContainer(bytes: Uint8Array, options: ParseContainerOptions = {}): ParsedContainer {
  expectBytes(bytes, 'container'); // null, an ArrayBuffer, ...: bad-type
  if (typeof options !== 'object' || options === null) expectOptions(options as unknown);
  const mode = options.mode ?? 'strict';
  // a misspelt mode ('Strict', 'relaxed') is refused, not read as lenient
  if (mode !== 'strict' && mode !== 'lenient') throw new DescriptionError('bad-name', 'options.mode', `expected 'strict' or 'lenient', got ${valueText(mode)}`);
  const strict = mode === 'strict';
  if (bytes.byteLength < CONTAINER_HEADER_SIZE) new ByteReader(bytes).need(0, CONTAINER_HEADER_SIZE, 'container.header');
  const magic = u32(bytes, H.magic.offset);
  if (magic !== CONTAINER_MAGIC) {
    throw new DecodeError('bad-magic', 0, 'container.header.magic', `expected "DXBC", found 0x${magic.toString(16).padStart(8, '0')}`);
  }
  const digest = bytes.subarray(H.digest.offset, H.digest.offset + H.digest.size);
  const majorVersion = bytes[H.majorVersion.offset]! | (bytes[H.majorVersion.offset + 1]! << 8);
  const minorVersion = bytes[H.minorVersion.offset]! | (bytes[H.minorVersion.offset + 1]! << 8);
  const declaredSize = u32(bytes, H.containerSize.offset);
  const partCount = u32(bytes, H.partCount.offset);

  // Both modes: DXC's IsValidDxilContainer refuses any major version but 1 and ignores the minor
  // version; vkd3d refuses a version word other than 1 (docs/formats/container.md).
  if (majorVersion !== 1) {
    throw new DecodeError('unsupported-version', H.majorVersion.offset, 'container.header.majorVersion', `major version ${majorVersion}, expected 1`);
  }
  if (strict && (declaredSize > bytes.byteLength || declaredSize > MAX_CONTAINER_SIZE)) {
    throw new DecodeError(
      'container-size',
      H.containerSize.offset,
      'container.header.containerSize',
      `declares ${declaredSize} bytes, the data has ${bytes.byteLength}`,
    );
  }
  // Strict readers bound everything by the declared size; lenient ones by the buffer, as vkd3d does.
  const limit = strict ? declaredSize : bytes.byteLength;
  if (OFFSETS > limit || partCount * 4 > limit - OFFSETS) {
    new ByteReader(bytes.subarray(0, limit)).needArray(OFFSETS, partCount, 4, 'container.header.partOffsets');
  }

  const partOffsets: number[] = new Array<number>(partCount);
  const parts: ContainerPart[] = new Array<ContainerPart>(partCount);
  let expectedNext = OFFSETS + 4 * partCount;
  let packed = true;
  for (let i = 0; i < partCount; i++) {
    const offset = u32(bytes, OFFSETS + 4 * i);
    if (offset > limit - PART_HEADER_SIZE || limit < PART_HEADER_SIZE) {
      throw new DecodeError('bad-offset', OFFSETS + 4 * i, `container.partOffsets[${i}]`, `part header at ${offset} does not fit in ${limit} bytes`);
    }
    if (offset !== expectedNext) {
      packed = false;
      if (strict) {
        throw new DecodeError('part-layout', OFFSETS + 4 * i, `container.partOffsets[${i}]`, `part starts at ${offset}, expected ${expectedNext} (parts must be packed back to back)`);
      }
    }
    const name = fourCCAt(bytes, offset);
    const size = u32(bytes, offset + 4);
    const dataStart = offset + PART_HEADER_SIZE;
    if (size > limit - dataStart) {
      throw new DecodeError('truncated', offset + 4, `container.parts[${i}].size`, `part "${fourCcText(name)}" of ${size} bytes runs past the end (${limit - dataStart} left)`);
    }
    partOffsets[i] = offset;
    parts[i] = { name, data: bytes.subarray(dataStart, dataStart + size) };
    expectedNext = dataStart + size;
  }
  if (expectedNext !== declaredSize) {
    packed = false;
    if (strict) {
      throw new DecodeError('container-size', H.containerSize.offset, 'container.header.containerSize', `declares ${declaredSize} bytes, the parts end at ${expectedNext}`);
    }
  }
  return {
    digest,
    majorVersion,
    minorVersion,
    parts,
    layout: { declaredSize, partOffsets, packed, trailingBytes: Math.max(0, bytes.byteLength - declaredSize) },
  };
}

/** A FourCC for messages: printable ASCII as is, other bytes as \xNN (src/bytes/text.ts, the one text boundary). */
export const fourCcText = (name: string): string => printable(name, { ascii: true });
