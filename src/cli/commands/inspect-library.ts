/** The library part of `dxbin inspect LIB`: exports and subobjects from the RDAT part (docs/formats/rdat.md). */
import { S } from '../schema.js';
import { DecodeError, decodeRdat, describeLibrary, findPart, libraryJson, libraryLines, partDataOffset, rootSignatureToJson, type ParsedContainer } from '../../index.js';

// a register class, Invalid (ResourceClass 4), or unknown(N) for a stored class no table names (LibraryBinding['class'])
const CLASS = { anyOf: [S.enum('SRV', 'UAV', 'CBV', 'Sampler', 'Invalid'), { type: 'string', pattern: '^unknown\\(\\d+\\)$' }] };
const BINDING = S.object({ class: CLASS, kind: S.str, space: S.int, lowerBound: S.int, upperBound: S.int, name: S.str, flags: S.int });

/** The `library` property of `inspect --json`. */
export const LIBRARY_SCHEMA = S.object({
  // each distinct binding list once; an export names its list by index (exports sharing one stored list, as DXC writes them)
  bindingLists: S.arr(S.arr(BINDING)),
  exports: S.arr(
    S.object(
      {
        name: S.str,
        mangledName: S.str,
        kind: S.str,
        payloadSizeInBytes: S.int,
        attributeSizeInBytes: S.int,
        flags: S.object({ featureInfo1: S.int, featureInfo2: S.int, shaderStageFlag: S.int, minShaderTarget: S.str, shaderFlags: S.int }, ['featureInfo1', 'featureInfo2', 'shaderStageFlag', 'minShaderTarget']),
        bindingList: S.int,
        localRootArgumentsTableIndex: S.int,
      },
      ['name', 'mangledName', 'kind', 'payloadSizeInBytes', 'attributeSizeInBytes', 'flags', 'bindingList'],
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
    // records naming one stored list share one array: 5,000 exports naming one list resolve it once
    lib = describeLibrary(decodeRdat(part.data, partDataOffset(container, container.parts.indexOf(part)), { sharedArrays: true }));
  } catch (e) {
    // the container is still listed; the RDAT part's problem is one line (no `library` in --json)
    if (e instanceof DecodeError) return { lines: [`library: the RDAT part does not decode: ${e.message}`] };
    throw e;
  }
  // each shared binding list once in both (the listing names the first export with it, the JSON indexes it)
  return { lines: libraryLines(lib), json: () => libraryJson(lib, rootSignatureToJson) };
}
