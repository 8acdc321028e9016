/**
 * Container reader. `strict` applies DXC's IsValidDxilContainer checks; `lenient` accepts what
 * vkd3d accepts (gaps such as vkd3d's 0xAB alignment filler, parts in any order inside the buffer).
 */
import {
  CONTAINER_HEADER,
  CONTAINER_HEADER_SIZE,
  CONTAINER_MAGIC,
  MAX_CONTAINER_SIZE,
  PART_HEADER_SIZE,
} from '../../codecs/container.js';
import { DecodeError } from '../bytes/errors.js';
import { ByteReader } from '../bytes/reader.js';
import type { ContainerPart, ParsedContainer } from './container.js';

export type ContainerParseMode = 'strict' | 'lenient';

export interface ParseContainerOptions {
  mode?: ContainerParseMode;
}

const H = CONTAINER_HEADER;

/**
 * Parses a DXBC/DXIL container; parts are kept byte for byte.
 * @throws {DecodeError} bad-magic, truncated, container-size, part-layout, count-exceeds-data, ...
 */
export function parseContainer(bytes: Uint8Array, options: ParseContainerOptions = {}): ParsedContainer {
  const strict = (options.mode ?? 'strict') === 'strict';
  const r = new ByteReader(bytes);
  r.need(0, CONTAINER_HEADER_SIZE, 'container.header');
  const magic = r.u32(H.magic.offset, 'container.header.magic');
  if (magic !== CONTAINER_MAGIC) {
    throw new DecodeError('bad-magic', 0, 'container.header.magic', `expected "DXBC", found 0x${magic.toString(16).padStart(8, '0')}`);
  }
  const digest = bytes.slice(H.digest.offset, H.digest.offset + H.digest.size);
  const majorVersion = r.u16(H.majorVersion.offset, 'container.header.majorVersion');
  const minorVersion = r.u16(H.minorVersion.offset, 'container.header.minorVersion');
  const declaredSize = r.u32(H.containerSize.offset, 'container.header.containerSize');
  const partCount = r.u32(H.partCount.offset, 'container.header.partCount');

  if (strict && majorVersion !== 1) {
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
  const bounded = new ByteReader(bytes.subarray(0, limit));
  bounded.needArray(H.partOffsets.offset, partCount, 4, 'container.header.partOffsets');

  const partOffsets: number[] = [];
  const parts: ContainerPart[] = [];
  let expectedNext = H.partOffsets.offset + 4 * partCount;
  let packed = true;
  for (let i = 0; i < partCount; i++) {
    const offset = bounded.u32(H.partOffsets.offset + 4 * i, `container.partOffsets[${i}]`);
    const path = `container.parts[${i}]`;
    if (offset > limit - PART_HEADER_SIZE || limit < PART_HEADER_SIZE) {
      throw new DecodeError('bad-offset', H.partOffsets.offset + 4 * i, `container.partOffsets[${i}]`, `part header at ${offset} does not fit in ${limit} bytes`);
    }
    if (offset !== expectedNext) {
      packed = false;
      if (strict) {
        throw new DecodeError('part-layout', H.partOffsets.offset + 4 * i, `container.partOffsets[${i}]`, `part starts at ${offset}, expected ${expectedNext} (parts must be packed back to back)`);
      }
    }
    const name = bounded.fourCC(offset, `${path}.fourCC`);
    const size = bounded.u32(offset + 4, `${path}.size`);
    const dataStart = offset + PART_HEADER_SIZE;
    if (size > limit - dataStart) {
      throw new DecodeError('truncated', offset + 4, `${path}.size`, `part "${printable(name)}" of ${size} bytes runs past the end (${limit - dataStart} left)`);
    }
    partOffsets.push(offset);
    parts.push({ name, data: bytes.slice(dataStart, dataStart + size) });
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

/** A FourCC for messages: printable ASCII as is, other bytes as \xNN. */
export function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
