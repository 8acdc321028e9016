/**
 * Root signatures as users hand them over: a container holding RTS0 (root-signature-only or a
 * shader) or a bare RTS0 part.
 */
import { PART_HEADER_SIZE, ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import { indexOfPart, looksLikeContainer, partDataOffset, partIndex, type ParsedContainer } from '../container/container.js';
import { noRootSignaturePart } from '../container/edit.js';
import { parseContainer, type ContainerParseMode } from '../container/parse.js';
import { readRootSignature, type RootSignatureLayout } from './decode.js';
import type { RootSignature } from './types.js';

/** A root signature as handed over: the container (if any), the RTS0 bytes, where they were, the description and its layout. */
export interface RootSignatureSource {
  kind: 'container' | 'part';
  /** The container, when the input was one. */
  container?: ParsedContainer;
  /** The RTS0 part's bytes. */
  part: Uint8Array;
  /** Absolute offset of the part's data in the input. */
  partOffset: number;
  rootSignature: RootSignature;
  layout: RootSignatureLayout;
}

/**
 * The root signature of a container holding RTS0 or of a bare RTS0 part.
 * @throws {DecodeError} malformed container or RTS0; missing-part when a container has no RTS0
 * @throws {DescriptionError} bad-type when `bytes` is not a Uint8Array
 */
export function readRootSignatureSource(bytes: Uint8Array, mode: ContainerParseMode = 'strict'): RootSignatureSource {
  if (!looksLikeContainer(bytes)) { // checks `bytes` (bad-type)
    const { rootSignature, layout } = readRootSignature(bytes);
    return { kind: 'part', part: bytes, partOffset: 0, rootSignature, layout };
  }
  const container = parseContainer(bytes, { mode });
  // the container is parseContainer's own: no shape to check again (containerRootSignature checks a caller's)
  const offsets = container.layout.partOffsets;
  const index = indexOfPart(container.parts, offsets, ROOT_SIGNATURE_PART, 'duplicate-part');
  if (index < 0) throw noRootSignaturePart();
  return rootSignatureAt(container, index, offsets[index]! + PART_HEADER_SIZE);
}

/**
 * The RTS0 part of a parsed container, decoded with absolute offsets; undefined when it has none.
 * @throws {DecodeError} as decodeRootSignature: a malformed RTS0 part
 * @throws {DescriptionError} bad-type when `container` is not a container
 */
export function containerRootSignature(container: ParsedContainer): RootSignatureSource | undefined {
  const index = partIndex(container, ROOT_SIGNATURE_PART);
  if (index < 0) return undefined;
  return rootSignatureAt(container, index, partDataOffset(container, index));
}

/** The RTS0 part at `index` of `container`, its data at `partOffset` in the container's bytes. */
function rootSignatureAt(container: ParsedContainer, index: number, partOffset: number): RootSignatureSource {
  const part = container.parts[index]!.data;
  const { rootSignature, layout } = readRootSignature(part, { base: partOffset });
  return { kind: 'container', container, part, partOffset, rootSignature, layout };
}
