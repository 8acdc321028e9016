/**
 * Part edits on a container, as `dxc -dumpbin` does them: extract the root signature, strip it,
 * or set it; and any part, as `llvm-objcopy` does for DXContainer: extract, remove, add. The digest of an edited container follows DXC's container builder: recomputed when
 * the input's digest was right, a sentinel kept as it was, zero otherwise.
 */
import { readOnce } from '../bytes/once.js';
import { DIGEST_COVERS_FROM, PRIVATE_DATA_PART, ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { fourCcText } from './parse.js';
import { quoted } from '../bytes/text.js';
import { expectBytes, expectObject, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { expectContainer, findPart, fourCCBytes, lookUpPart, partIndex, type Container, type ContainerPart } from './container.js';
import { computeContainerDigest, digestSentinel, digestStatus } from './digest.js';
import type { ParsedContainer } from './container.js';
import { writeContainer, type DigestChoice } from './write.js';

/**
 * The RTS0 part's data.
 * @throws {DecodeError} missing-part when the container has no RTS0 part
 * @throws {DescriptionError} bad-type when `container` is not a container
 */
export function rootSignaturePart(container: Container): Uint8Array {
  container = readOnce(container, 3); // read once: its checks and the edit see one container (src/bytes/once.ts)
  const part = findPart(container, ROOT_SIGNATURE_PART);
  if (!part) throw noRootSignaturePart();
  return part.data;
}

/** The missing-part DecodeError of a container without RTS0. Module-internal (src/root-signature/input.ts). */
export function noRootSignaturePart(): DecodeError {
  return new DecodeError('missing-part', 0, 'container.parts', 'the container has no RTS0 part');
}

/**
 * How an edited copy of `original` (parsed from `originalBytes`) gets its digest. A declared
 * size outside 20..the data (a lenient parse) leaves no right digest: a sentinel is kept, else zero.
 * @throws {DescriptionError} bad-type when `original` is not a container or `originalBytes` not a Uint8Array
 */
export function editedDigest(original: ParsedContainer, originalBytes: Uint8Array): DigestChoice {
  expectContainer(original);
  expectObject(original.layout, 'original.layout');
  expectBytes(originalBytes, 'originalBytes');
  const size = original.layout.declaredSize;
  // a whole number outside the range, as a lenient parse gives it (anything else: computeContainerDigest's bad-type)
  if (Number.isSafeInteger(size) && (size < DIGEST_COVERS_FROM || size > originalBytes.byteLength)) return digestSentinel(original.digest) !== undefined ? original.digest : 'zero';
  const status = digestStatus(original.digest, computeContainerDigest(originalBytes, size));
  if (status.status === 'valid') return 'compute';
  if (status.status === 'sentinel') return original.digest;
  return 'zero';
}

/**
 * A copy of the container without the parts named `name`.
 * @throws {DescriptionError} bad-type when `container` is not a container, bad-name for a name that is no FourCC
 */
export function withoutPart(container: Container, name: string): Container {
  container = readOnce(container, 3); // read once: its checks and the edit see one container (src/bytes/once.ts)
  const parts = expectContainer(container);
  fourCCBytes(name, 'name'); // a name no part can have (5, "PSV") removed nothing, silently
  return { ...container, parts: parts.filter((p) => p.name !== name) };
}

/** Where withRootSignature puts RTS0: replacing the existing part in place, or appended. */
export type RootSignaturePlacement = 'in-place' | 'append';

/**
 * Sets the RTS0 part. `in-place` replaces an existing part where it stands and appends a new one;
 * `append` removes any existing part and appends, as `dxc -setrootsignature` does. Appending puts
 * the part before PRIV, which must stay last.
 * @throws {DescriptionError} bad-type when `container` is not a container or `rts0` not bytes, bad-name for another placement
 */
export function withRootSignature(container: Container, rts0: Uint8Array, placement: RootSignaturePlacement = 'in-place'): Container {
  container = readOnce(container, 3); // read once: its checks and the edit see one container (src/bytes/once.ts)
  expectContainer(container);
  expectBytes(rts0, 'rts0');
  // a misspelt placement was taken as 'append'
  if (placement !== 'in-place' && placement !== 'append') throw new DescriptionError('bad-name', 'placement', `expected 'in-place' or 'append', got ${quoted(placement)}`);
  const part: ContainerPart = { name: ROOT_SIGNATURE_PART, data: rts0 };
  const at = partIndex(container, ROOT_SIGNATURE_PART);
  if (placement === 'in-place' && at >= 0) {
    return { ...container, parts: container.parts.map((p, i) => (i === at ? part : p)) };
  }
  const parts = container.parts.filter((p) => p.name !== ROOT_SIGNATURE_PART);
  const priv = parts.findIndex((p) => p.name === PRIVATE_DATA_PART);
  parts.splice(priv >= 0 ? priv : parts.length, 0, part);
  return { ...container, parts };
}

/**
 * Writes an edited container with the digest rule above (editedDigest).
 * @throws {DescriptionError} as writeContainer (bad-name, bad-type), bad-type when `originalBytes` is not a Uint8Array
 */
export function writeEdited(edited: Container, original: ParsedContainer, originalBytes: Uint8Array): Uint8Array {
  edited = readOnce(edited, 3);
  return writeContainer(edited, editedDigest(original, originalBytes));
}

/**
 * The data of the one part named `name` (like `llvm-objcopy --dump-section`).
 * @throws {DecodeError} missing-part when there is none, duplicate-part when the name is there twice (ambiguous)
 * @throws {DescriptionError} bad-type when `container` is not a container
 */
export function extractPart(container: Container, name: string): Uint8Array {
  container = readOnce(container, 3); // read once: its checks and the edit see one container (src/bytes/once.ts)
  const parts = expectContainer(container);
  fourCCBytes(name, 'name');
  const at = lookUpPart(container, name, 'duplicate-part');
  if (at < 0) throw new DecodeError('missing-part', 0, 'container.parts', `the container has no ${fourCcText(name)} part`);
  return parts[at]!.data;
}

/** Options of withPart. */
export interface WithPartOptions {
  /** Replace an existing part of the name where it stands (default: refuse, the name is taken). */
  replace?: boolean;
}

/**
 * A copy with part `name` added (like `llvm-objcopy --add-section`): appended before PRIV, which
 * stays last (PRIV itself goes last); with `replace`, an existing part is replaced where it stands.
 * @throws {DescriptionError} bad-name for a name that is not four characters or is taken (without `replace`), bad-type;
 *   ambiguous-name (DecodeError duplicate-part for a parsed container) when two parts have the name (partIndex)
 */
export function withPart(container: Container, name: string, data: Uint8Array, options: WithPartOptions = {}): Container {
  container = readOnce(container, 3); // read once: its checks and the edit see one container (src/bytes/once.ts)
  const parts = expectContainer(container);
  fourCCBytes(name, 'name');
  expectBytes(data, 'data');
  expectOptionKeys(options as unknown, ['replace']);
  const part: ContainerPart = { name, data };
  // one lookup for every caller: a name two parts share is refused, not the first replaced
  const at = partIndex(container, name);
  if (at >= 0) {
    if (!options.replace) throw new DescriptionError('bad-name', 'name', `the container already has a ${fourCcText(name)} part (remove it first, or replace it)`);
    return { ...container, parts: parts.map((p, i) => (i === at ? part : p)) };
  }
  const list = parts.slice();
  const priv = name === PRIVATE_DATA_PART ? -1 : list.findIndex((p) => p.name === PRIVATE_DATA_PART);
  list.splice(priv >= 0 ? priv : list.length, 0, part);
  return { ...container, parts: list };
}
