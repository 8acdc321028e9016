/**
 * `dxbin/ddi`: DDI and feature structures (work-graph node outputs, render-pass preserve-local,
 * D3D12_OPTIONS): layouts per ABI, relocatable memory images, the JSON form, validation, and the
 * node outputs a DXIL library's RDAT part describes.
 *
 * @module dxbin/ddi
 */
import { DecodeError } from '../bytes/errors.js';
import { findPart, partDataOffset } from '../container/container.js';
import { parseContainer } from '../container/parse.js';
import { RdatReader, type NodeReport, type RdatOptions } from './nodes.js';
import { expectBytes } from '../bytes/check.js';

export { ABIS, STRUCTS, type Abi, type StructDef, type StructField, type DdiValidationCode, type FieldType, type Pointee } from '../../codecs/ddi.js';
export { structLayout, structDef, type StructLayout, type FieldLayout } from './layout.js';
export { encodeImage, decodeImage, type DdiObject, type DdiValue, type DecodeImageOptions } from './image.js';
export { ddiToJson, ddiFromJson, type DdiToJsonOptions } from './json.js';
export { validateDdi, validateRenderPasses, renderPassesFromJson, type DdiViolation, type RenderPass, type RenderPassAccess } from './validate.js';
export { RdatReader, OUTPUT_CHARS, type NodeReport, type RdatOptions } from './nodes.js';

/**
 * The node outputs of every node of a DXIL library, as the runtime builds them from its RDAT part.
 * @param library the library's container bytes
 * @param options the work limits, or the call's budget (decoding charges `resolve`, each node and output `produce`)
 * @throws {DecodeError} a malformed container or RDAT part; missing-part when there is no RDAT
 * @throws {LimitError} limit-exceeded: shared lists that fan out past the budget
 */
export function libraryNodeOutputs(library: Uint8Array, options: RdatOptions = {}): NodeReport[] {
  expectBytes(library, 'library');
  const container = parseContainer(library);
  const rdat = findPart(container, 'RDAT');
  if (!rdat) throw new DecodeError('missing-part', 0, 'container.parts', 'the container has no RDAT part (not a DXIL library)');
  return new RdatReader(rdat.data, partDataOffset(container, container.parts.indexOf(rdat)), options).nodes();
}
