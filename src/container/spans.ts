/**
 * Byte map of a container: header fields from codecs/container.ts, the part offset table, each
 * part's header, and its data (handed to `partData`, which maps the formats it knows; anything it
 * leaves is one `data` span). Bytes between parts and after the declared size are gaps.
 */
import { CONTAINER_HEADER, PART_HEADER_SIZE, PART_KINDS } from '../../codecs/container.js';
import type { SpanRecorder } from '../bytes/spans.js';
import type { ContainerPart, ParsedContainer } from './container.js';
import { fourCcText, parseContainer, type ContainerParseMode } from './parse.js';
import { bytesHex } from '../bytes/hex.js';

/**
 * Maps one part's data at absolute offset `base` with path prefix `path`; returns false to leave
 * the data as one opaque span.
 */
export type PartSpans = (part: ContainerPart, rec: SpanRecorder, base: number, path: string) => boolean;

/**
 * Records the spans of a container (parsed again here, so errors are the parser's).
 * @returns the parsed container
 */
export function containerSpans(bytes: Uint8Array, rec: SpanRecorder, partData: PartSpans, mode: ContainerParseMode = 'strict'): ParsedContainer {
  const c = parseContainer(bytes, { mode });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const H = CONTAINER_HEADER;
  const end = c.layout.declaredSize;
  rec.add('record', 0, H.partOffsets.offset, 'container.header');
  rec.field(H.magic.offset, 4, 'container.header.magic', 'DXBC');
  rec.field(H.digest.offset, H.digest.size, 'container.header.digest', bytesHex(c.digest));
  rec.field(H.majorVersion.offset, 2, 'container.header.majorVersion', c.majorVersion);
  rec.field(H.minorVersion.offset, 2, 'container.header.minorVersion', c.minorVersion);
  rec.field(H.containerSize.offset, 4, 'container.header.containerSize', end);
  rec.field(H.partCount.offset, 4, 'container.header.partCount', c.parts.length);
  if (c.parts.length > 0) rec.add('array', H.partOffsets.offset, 4 * c.parts.length, 'container.partOffsets');
  c.parts.forEach((_, i) => rec.field(H.partOffsets.offset + 4 * i, 4, `container.partOffsets[${i}]`, c.layout.partOffsets[i]!));
  c.parts.forEach((part, i) => {
    const at = c.layout.partOffsets[i]!;
    const name = fourCcText(part.name);
    const path = `container.parts[${i}]`;
    rec.add('part', at, PART_HEADER_SIZE + part.data.byteLength, `${path} ${name}`, name, PART_KINDS.find((k) => k.fourCC === part.name)?.what);
    rec.field(at, 4, `${path}.fourCC`, name);
    rec.field(at + 4, 4, `${path}.size`, view.getUint32(at + 4, true));
    const dataAt = at + PART_HEADER_SIZE;
    if (part.data.byteLength > 0 && !partData(part, rec, dataAt, name)) rec.add('data', dataAt, part.data.byteLength, `${name}.data`);
  });
  rec.fillGaps(0, end, 'container (between parts)');
  rec.fillGaps(end, bytes.byteLength, 'trailing bytes (after containerSize)');
  return c;
}
