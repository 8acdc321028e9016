/** The library part of `dxbin inspect LIB`: exports and subobjects from the RDAT part (docs/formats/rdat.md). */
import { S } from '../schema.js';
import { DecodeError, decodeRdat, describeLibrary, findPart, libraryJson, libraryLines, partDataOffset, rootSignatureToJson, type ParsedContainer } from '../../index.js';

const BINDING = S.object({ class: S.enum('SRV', 'UAV', 'CBV', 'Sampler'), kind: S.str, space: S.int, lowerBound: S.int, upperBound: S.int, name: S.str, flags: S.int });

/** The `library` property of `inspect --json`. */
export const LIBRARY_SCHEMA = S.object({
  exports: S.arr(
    S.object(
      {
        name: S.str,
        mangledName: S.str,
        kind: S.str,
        payloadSizeInBytes: S.int,
        attributeSizeInBytes: S.int,
        flags: S.object({ featureInfo1: S.int, featureInfo2: S.int, shaderStageFlag: S.int, minShaderTarget: S.str, shaderFlags: S.int }, ['featureInfo1', 'featureInfo2', 'shaderStageFlag', 'minShaderTarget']),
        bindings: S.arr(BINDING),
        localRootArgumentsTableIndex: S.int,
      },
      ['name', 'mangledName', 'kind', 'payloadSizeInBytes', 'attributeSizeInBytes', 'flags', 'bindings'],
    ),
  ),
  subobjects: S.arr(
    S.object(
      {
        kind: S.str,
        name: S.str,
        contents: S.obj,
        rootSignature: S.object({ size: S.int, version: S.str, summary: S.arr(S.str), description: S.obj, error: S.str }, ['size', 'summary']),
      },
      ['kind', 'name', 'contents'],
    ),
  ),
});

/** Lines and JSON of a container's library, or undefined when it has no RDAT part. */
export function inspectLibrary(container: ParsedContainer): { lines: string[]; json?: () => ReturnType<typeof libraryJson> } | undefined {
  const part = findPart(container, 'RDAT');
  if (!part) return undefined;
  let lib;
  try {
    lib = describeLibrary(decodeRdat(part.data, partDataOffset(container, container.parts.indexOf(part))));
  } catch (e) {
    // the container is still listed; the RDAT part's problem is one line (no `library` in --json)
    if (e instanceof DecodeError) return { lines: [`library: the RDAT part does not decode: ${e.message}`] };
    throw e;
  }
  // JSON repeats every shared binding list (charged to the produce budget): built only for --json
  return { lines: libraryLines(lib), json: () => libraryJson(lib, rootSignatureToJson) };
}
