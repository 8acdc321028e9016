/**
 * Container writer: header, offset table and parts packed back to back (the layout fxc, DXC and
 * the runtime write), with the digest computed, kept or zeroed.
 */
import {
  CONTAINER_HEADER,
  CONTAINER_HEADER_SIZE,
  CONTAINER_MAGIC,
  CONTAINER_VERSION,
  MAX_CONTAINER_SIZE,
  PART_HEADER_SIZE,
  ROOT_SIGNATURE_PART,
} from '../../codecs/container.js';
import { DescriptionError } from '../bytes/errors.js';
import { setU16, setU32 } from '../bytes/le.js';
import { allocBytes } from '../bytes/pool.js';
import { expectArray, expectBytes, expectObject, kindOf } from '../bytes/check.js';
import { fourCCProblem, isFourCC, valueText, type Container } from './container.js';
import { signContainer } from './digest.js';

/** `compute`: the real digest; `zero`: unsigned; or exactly these 16 bytes. */
export type DigestChoice = 'compute' | 'zero' | Uint8Array;

/**
 * Writes a container: header, offset table, parts packed back to back, in one allocation of
 * exactly the final size, the digest computed into the header (no intermediate copies).
 * The result may be a view of a buffer shared with other results (src/bytes/pool.ts): read it
 * through the view or its byteOffset, and slice() it before transferring its buffer.
 * @throws {DescriptionError} bad-name (a part name that is not four one-byte characters), out-of-range (a digest that is not 16 bytes, a container over 2 GiB, a version past u16), missing-key (no version), bad-type (a container, parts list, part or part data of the wrong type)
 */
export function writeContainer(container: Container, digest: DigestChoice = 'compute'): Uint8Array {
  expectObject(container, 'container');
  const parts = container.parts;
  expectArray(parts, 'container.parts');
  const count = parts.length;
  let size = HEADER_SIZE + 4 * count;
  for (let i = 0; i < count; i++) {
    const part = parts[i];
    expectObject(part, `container.parts[${i}]`);
    const name = part.name;
    if (!isFourCC(name)) throw new DescriptionError('bad-name', `container.parts[${i}].name`, fourCCProblem(name));
    expectBytes(part.data, `container.parts[${i}].data`);
    size += PART_HEADER + part.data.byteLength;
  }
  // before anything of `size` is made: parts sharing one buffer can sum past what the header's
  // u32 size holds (a raw RangeError, or a size field that wraps) and past DXC's 2 GiB limit
  if (size > MAX_SIZE) throw new DescriptionError('out-of-range', 'container.parts', `the parts make a container of ${size} bytes; DXC refuses containers over ${MAX_SIZE} bytes (its size field is a u32)`);
  if (digest !== 'compute' && digest !== 'zero' && (!(digest instanceof Uint8Array) || digest.byteLength !== 16)) {
    if (!(digest instanceof Uint8Array)) throw new DescriptionError('bad-type', 'digest', `expected 'compute', 'zero' or 16 bytes, got ${valueText(digest)}`);
    throw new DescriptionError('out-of-range', 'digest', `a digest has 16 bytes, got ${digest.byteLength}`);
  }
  if (digest instanceof Uint8Array) expectBytes(digest, 'digest');
  // u16 fields: a version of 70000, -1, 1.5, "1" or none was written as its low 16 bits (or 0)
  const major = u16Field(container.majorVersion, 'container.majorVersion');
  const minor = u16Field(container.minorVersion, 'container.minorVersion');
  const out = alloc(size);
  put32(out, 0, MAGIC);
  put16(out, MAJOR_AT, major);
  put16(out, MINOR_AT, minor);
  put32(out, SIZE_AT, size);
  put32(out, COUNT_AT, count);
  let at = HEADER_SIZE + 4 * count;
  for (let i = 0; i < count; i++) {
    const { name, data } = parts[i]!;
    put32(out, OFFSETS_AT + 4 * i, at);
    out[at] = name.charCodeAt(0);
    out[at + 1] = name.charCodeAt(1);
    out[at + 2] = name.charCodeAt(2);
    out[at + 3] = name.charCodeAt(3);
    put32(out, at + 4, data.byteLength);
    out.set(data, at + PART_HEADER);
    at += PART_HEADER + data.byteLength;
  }
  if (digest === 'compute') sign(out);
  else if (digest !== 'zero') out.set(digest, DIGEST_AT);
  return out;
}

/** A header version field: an integer 0..65535, else DescriptionError naming it. */
function u16Field(v: unknown, path: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff) return v;
  throw new DescriptionError(v === undefined ? 'missing-key' : typeof v === 'number' ? 'out-of-range' : 'bad-type', path, `expected an integer 0..65535, got ${valueText(v)}`);
}

// The rows' offsets as module constants: read once at load, not through the imports per call.
const HEADER_SIZE = CONTAINER_HEADER_SIZE;
const PART_HEADER = PART_HEADER_SIZE;
const MAGIC = CONTAINER_MAGIC;
const MAJOR_AT = CONTAINER_HEADER.majorVersion.offset;
const MINOR_AT = CONTAINER_HEADER.minorVersion.offset;
const SIZE_AT = CONTAINER_HEADER.containerSize.offset;
const COUNT_AT = CONTAINER_HEADER.partCount.offset;
const OFFSETS_AT = CONTAINER_HEADER.partOffsets.offset;
const DIGEST_AT = CONTAINER_HEADER.digest.offset;
const MAJOR = CONTAINER_VERSION.major;
const MINOR = CONTAINER_VERSION.minor;
const MAX_SIZE = MAX_CONTAINER_SIZE;
const RTS0_NAME = ROOT_SIGNATURE_PART;
// imported functions as module constants, as in encode.ts
const put32 = setU32;
const put16 = setU16;
const alloc = allocBytes;
const sign = signContainer;

/**
 * A root-signature-only container around a bare RTS0 part, as fxc /T rootsig_1_x writes it.
 * The result may be a view of a buffer shared with other results (src/bytes/pool.ts): read it
 * through the view or its byteOffset, and slice() it before transferring its buffer.
 * @throws {DescriptionError} bad-type (`rts0` not a Uint8Array), out-of-range (a digest that is not 16 bytes)
 */
export function rootSignatureContainer(rts0: Uint8Array, digest: DigestChoice = 'compute'): Uint8Array {
  expectBytes(rts0, 'rts0');
  if (digest !== 'compute') return writeContainer({ digest: NO_DIGEST, majorVersion: MAJOR, minorVersion: MINOR, parts: [{ name: RTS0_NAME, data: rts0 }] }, digest);
  // the common case written directly: one part, no description objects
  const at = HEADER_SIZE + 4;
  const out = alloc(at + PART_HEADER + rts0.byteLength);
  put32(out, 0, MAGIC);
  put16(out, MAJOR_AT, MAJOR);
  put16(out, MINOR_AT, MINOR);
  put32(out, SIZE_AT, out.byteLength);
  put32(out, COUNT_AT, 1);
  put32(out, OFFSETS_AT, at);
  out[at] = RTS0_NAME.charCodeAt(0);
  out[at + 1] = RTS0_NAME.charCodeAt(1);
  out[at + 2] = RTS0_NAME.charCodeAt(2);
  out[at + 3] = RTS0_NAME.charCodeAt(3);
  put32(out, at + 4, rts0.byteLength);
  out.set(rts0, at + PART_HEADER);
  sign(out);
  return out;
}

const NO_DIGEST = new Uint8Array(16);
