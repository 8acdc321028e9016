/**
 * Root signatures as users hand them over: a container holding RTS0 (root-signature-only or a
 * shader) or a bare RTS0 part.
 */
import { CONTAINER_HEADER_SIZE } from '../../codecs/container.js';
import { looksLikeContainer, type ParsedContainer } from '../container/container.js';
import { rootSignaturePart } from '../container/edit.js';
import { parseContainer, type ContainerParseMode } from '../container/parse.js';
import { readRootSignature, type RootSignatureLayout } from './decode.js';
import type { RootSignature } from './types.js';

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

export function readRootSignatureSource(bytes: Uint8Array, mode: ContainerParseMode = 'strict'): RootSignatureSource {
  if (!looksLikeContainer(bytes)) {
    const { rootSignature, layout } = readRootSignature(bytes);
    return { kind: 'part', part: bytes, partOffset: 0, rootSignature, layout };
  }
  const container = parseContainer(bytes, { mode });
  const part = rootSignaturePart(container);
  const index = container.parts.findIndex((p) => p.data === part);
  const partOffset = (container.layout.partOffsets[index] ?? CONTAINER_HEADER_SIZE) + 8;
  const { rootSignature, layout } = readRootSignature(part, { base: partOffset });
  return { kind: 'container', container, part, partOffset, rootSignature, layout };
}
