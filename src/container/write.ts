/**
 * Container writer: header, offset table and parts packed back to back (the layout fxc, DXC and
 * the runtime write), with the digest computed, kept or zeroed.
 */
import {
  CONTAINER_HEADER,
  CONTAINER_HEADER_SIZE,
  CONTAINER_MAGIC,
  CONTAINER_VERSION,
  PART_HEADER_SIZE,
  ROOT_SIGNATURE_PART,
} from '../../codecs/container.js';
import { DescriptionError } from '../bytes/errors.js';
import { ByteWriter } from '../bytes/writer.js';
import { fourCCBytes, type Container } from './container.js';
import { computeContainerDigest } from './digest.js';

/** `compute`: the real digest; `zero`: unsigned; or exactly these 16 bytes. */
export type DigestChoice = 'compute' | 'zero' | Uint8Array;

/**
 * Writes a container: header, offset table, parts packed back to back.
 * @throws {DescriptionError} a part name that is not four characters, a digest that is not 16 bytes
 */
export function writeContainer(container: Container, digest: DigestChoice = 'compute'): Uint8Array {
  const w = new ByteWriter(CONTAINER_HEADER_SIZE + container.parts.reduce((n, p) => n + PART_HEADER_SIZE + p.data.byteLength, 4 * container.parts.length));
  w.u32(CONTAINER_MAGIC);
  w.zeros(16);
  w.u16(container.majorVersion);
  w.u16(container.minorVersion);
  const sizeAt = w.placeholderU32();
  w.u32(container.parts.length);
  const offsetsAt = container.parts.map(() => w.placeholderU32());
  container.parts.forEach((part, i) => {
    w.patchU32(offsetsAt[i]!, w.position);
    w.bytes(fourCCBytes(part.name, `container.parts[${i}].name`));
    w.u32(part.data.byteLength);
    w.bytes(part.data);
  });
  w.patchU32(sizeAt, w.position);
  const out = w.finish();
  const at = CONTAINER_HEADER.digest.offset;
  if (digest === 'compute') out.set(computeContainerDigest(out), at);
  else if (digest !== 'zero') {
    if (!(digest instanceof Uint8Array) || digest.byteLength !== 16) throw new DescriptionError('out-of-range', 'digest', `a digest has 16 bytes, got ${String((digest as { byteLength?: unknown }).byteLength)}`);
    out.set(digest, at);
  }
  return out;
}

/** A root-signature-only container around a bare RTS0 part, as fxc /T rootsig_1_x writes it. */
export function rootSignatureContainer(rts0: Uint8Array, digest: DigestChoice = 'compute'): Uint8Array {
  return writeContainer(
    { digest: new Uint8Array(16), majorVersion: CONTAINER_VERSION.major, minorVersion: CONTAINER_VERSION.minor, parts: [{ name: ROOT_SIGNATURE_PART, data: rts0 }] },
    digest,
  );
}
