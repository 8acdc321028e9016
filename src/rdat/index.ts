/**
 * RDAT, the runtime data of DXIL libraries, as data (docs/formats/rdat.md): decode, encode, the
 * JSON form, the library's exports and subobjects, and the container-level edits.
 */
import { DecodeError } from '../bytes/errors.js';
import { expectBytes } from '../bytes/check.js';
import { findPart, partDataOffset, type ParsedContainer } from '../container/container.js';
import { parseContainer } from '../container/parse.js';
import { decodeRdat } from './decode.js';
import type { RdatDecodeOptions, RdatDescription } from './types.js';

export { decodeRdat, layoutForStride, recordSize } from './decode.js';
export { encodeRdat, type RdatEncodeOptions } from './encode.js';
export type * from './types.js';

/** A parsed library: its container, the RDAT part's index and absolute data offset, and the description. */
export interface LibraryRdat {
  container: ParsedContainer;
  partIndex: number;
  base: number;
  rdat: RdatDescription;
}

/**
 * Parses a DXIL library container and decodes its RDAT part.
 * @throws {DecodeError} a malformed container or RDAT part; missing-part when there is no RDAT
 */
export function readLibraryRdat(bytes: Uint8Array, options?: RdatDecodeOptions): LibraryRdat {
  expectBytes(bytes, 'library');
  const container = parseContainer(bytes);
  const part = findPart(container, 'RDAT');
  if (!part) throw new DecodeError('missing-part', 0, 'container.parts', 'the container has no RDAT part (not a DXIL library)');
  const partIndex = container.parts.indexOf(part);
  const base = partDataOffset(container, partIndex);
  return { container, partIndex, base, rdat: decodeRdat(part.data, base, options) };
}
