/**
 * dxbin: bit-exact codecs for Direct3D 12 binary data. This module is the contract: DXBC/DXIL
 * containers, RTS0 root signatures (bytes, typed description, JSON form, HLSL text, conversion,
 * validation), the error types, and the tables the choices come from. Format-specific parts are
 * subpath exports: `dxbin/query` (query results), `dxbin/ddi` (DDI structures). The surface is
 * recorded in api/dxbin.api.md (`npx tsx scripts/api-report.ts` after a deliberate change).
 *
 * @module dxbin
 */

// ---------------------------------------------------------------- errors

/** The base class of every error about a caller's input (`code`, `path`, `detail`). */
export { DxbinError } from './bytes/errors.js';
/** Malformed bytes: `code`, absolute byte `offset`, field `path`. */
export { DecodeError } from './bytes/errors.js';
/** A description (typed, JSON) or argument that cannot be used: `code`, `path`. */
export { DescriptionError } from './bytes/errors.js';
/** The one work budget and its typed error (docs/limits.md). */
export { Budget, LimitError, WORK_KINDS, type WorkKind, type WorkLimits, type Where } from './bytes/budget.js';
/** `path: detail` or `path at byte N: detail`: how every message and CLI line is formatted. */
export { formatProblem } from './bytes/errors.js';
/** `code path message`: one line per validation violation. */
export { formatViolation } from './bytes/errors.js';
export type {
  DxbinErrorCode,
  DecodeErrorCode,
  DescriptionErrorCode,
  ConversionErrorCode,
  HlslErrorCode,
  RootSignatureValidationErrorCode,
  RuleViolation,
} from './bytes/errors.js';

// ---------------------------------------------------------------- containers

/** The in-memory container: header fields and parts kept byte for byte. */
export type { Container, ContainerPart, ContainerLayout, ParsedContainer } from './container/container.js';
/** The part with a FourCC (or undefined) and its index (or -1); a name two parts share is refused as ambiguous, naming both. */
export { findPart, partIndex } from './container/container.js';
/** True when the bytes start with "DXBC". */
export { looksLikeContainer } from './container/container.js';
/** Parses a container (`strict` as DXC, or `lenient` as vkd3d); throws DecodeError. */
export { parseContainer, type ContainerParseMode, type ParseContainerOptions } from './container/parse.js';
/** Writes a container with the digest computed, zeroed or given. */
export { writeContainer, type DigestChoice } from './container/write.js';
/** A root-signature-only container around a bare RTS0 part, as fxc /T rootsig_1_x writes. */
export { rootSignatureContainer } from './container/write.js';
/** The container digest (DXBC's modified MD5 over the bytes after the digest field). */
export { computeContainerDigest } from './container/digest.js';
/** Compares a stored digest with the computed one: valid, sentinel or invalid. */
export { digestStatus, type DigestStatus } from './container/digest.js';
/** The sentinel a digest is (all 0x00, 0x01 or 0x02), or undefined. */
export { digestSentinel } from './container/digest.js';
/** DXBC's modified MD5 of any bytes. */
export { modifiedMd5 } from './container/digest.js';
/** The same into out[at..at+16), allocating nothing (WebAssembly from 32 bytes, else JS). */
export { modifiedMd5Into } from './container/digest.js';
/** Digests of many messages, four at a time on the WebAssembly SIMD build. */
export { modifiedMd5Batch } from './container/digest.js';
/** True when a container's stored digest is right; allocates nothing. */
export { containerDigestMatches } from './container/digest.js';
/** Computes a container's digest into its own header. */
export { signContainer } from './container/digest.js';
/** Lower-case hex of bytes (how digests are shown), and byte-wise equality. */
export { toHex, equalBytes } from './container/digest.js';
/** The one text boundary: input text made safe to print (controls, newlines, bidi, lone surrogates escaped); `{ ascii: true }` for FourCCs. */
export { printable, printableJson, quoted, hlslIdentifier, isHlslIdentifier, type PrintableOptions } from './bytes/text.js';
/** Absolute byte offset of part `index`'s data in the bytes a container was parsed from. */
export { partDataOffset } from './container/container.js';
/** The RTS0 part's bytes (throws DecodeError missing-part). */
export { rootSignaturePart } from './container/edit.js';
/** The container without the named part. */
export { withoutPart } from './container/edit.js';
/** The container with RTS0 replaced in place or appended. */
export { withRootSignature, type RootSignaturePlacement } from './container/edit.js';
/** The digest an edited container gets, as DXC's container builder decides it. */
export { editedDigest } from './container/edit.js';
/** Writes an edited container with `editedDigest`. */
export { writeEdited } from './container/edit.js';
/** Any part: its data, a copy with one added (before PRIV) or replaced. */
export { extractPart, withPart, type WithPartOptions } from './container/edit.js';

// ---------------------------------------------------------------- root signatures

/** The typed description (D3D12_VERSIONED_ROOT_SIGNATURE_DESC in camelCase, raw numbers). */
export type * from './root-signature/types.js';
/** RTS0 bytes -> typed description; throws DecodeError. */
export { decodeRootSignature } from './root-signature/decode.js';
/** RTS0 bytes -> typed description and where its blocks were. */
export { readRootSignature, type RootSignatureLayout, type DecodeRootSignatureOptions } from './root-signature/decode.js';
/** Typed description -> canonical RTS0 bytes; throws DescriptionError. */
export { encodeRootSignature } from './root-signature/encode.js';
/** Typed description -> JSON form (D3D12 names, lossless). */
export { rootSignatureToJson } from './root-signature/json.js';
/** The JSON form's types, generated from the rows (scripts/gen-json-types.ts): what rootSignatureToJson returns. */
export type { RootSignatureJson, RootParameterJson, RootParameterRangesJson, RootParameterConstantsJson, RootParameterDescriptorJson, DescriptorRangeJson, RootConstantsJson, RootDescriptorJson, StaticSamplerJson } from './root-signature/json-types.generated.js';
/** JSON form -> typed description; throws DescriptionError. */
export { rootSignatureFromJson } from './root-signature/json.js';
/** JSON Schema (draft 2020-12) of the JSON form. */
export { rootSignatureJsonSchema } from './root-signature/schema.js';
/** JSON text -> value; throws DescriptionError bad-json. */
export { parseJsonText } from './json/vocabulary.js';
/** A container holding RTS0 or a bare RTS0 part -> the decoded root signature and where it was. */
export { readRootSignatureSource, type RootSignatureSource } from './root-signature/input.js';
/** The RTS0 of a parsed container, decoded with absolute offsets, or undefined. */
export { containerRootSignature } from './root-signature/input.js';
/** One line per parameter and sampler, for people. */
export { summarizeRootSignature } from './root-signature/summary.js';
/** Converts between versions with a report of what was added, dropped or not expressible. */
export { convertRootSignature, describeConversionReport, ConversionError, type ConversionReport, type ConversionItem, type ConvertOptions } from './root-signature/convert.js';
/** Every validation rule the target applies; all violations. */
export { validateRootSignature, type Violation, type ValidateOptions } from './root-signature/validate.js';

// ---------------------------------------------------------------- HLSL root signature language

/** Text -> validated typed description, as dxc -T rootsig_1_x. */
export { compileRootSignature, type CompileOptions } from './root-signature/hlsl/compile.js';
/** Text -> root-signature-only container (or bare part). */
export { compileRootSignatureBlob } from './root-signature/hlsl/compile.js';
/** The text parsed but breaks validation rules. */
export { RootSignatureValidationError } from './root-signature/hlsl/compile.js';
/** Text -> typed description without validation. */
export { parseRootSignature, type ParseOptions } from './root-signature/hlsl/parser.js';
/** Typed description -> text (defaults left out). */
export { printRootSignature, printRootSignatureDefine, type PrintOptions } from './root-signature/hlsl/printer.js';
/** An HLSL file: #define and [RootSignature(...)] extraction. */
export { HlslFile, type HlslFileLimits, type HlslFileOptions } from './root-signature/hlsl/hlsl-file.js';
/** DXC's preprocessor: conditionals, macros, includes through a host (docs/formats/hlsl-preprocessor.md). */
export { type Preprocessed, type PragmaLine, type PreprocessOptions, type PreprocessorLimits, type PreprocessorWarning, type Macro, type Token } from './root-signature/hlsl/preprocessor/index.js';
export type { HideSet } from './root-signature/hlsl/preprocessor/token.js';
/** HLSL sources as DXC reads them (UTF-8, UTF-16 with a BOM) and include hosts (the file system, a virtual tree). */
export { decodeHlslSource, fileSystemHost, virtualHost, type IncludeHost, type HostFile, type NodeFileSystem, type VirtualEntry } from './root-signature/hlsl/source.js';
/** Root signature text with locations; the language's error. */
export { RootSignatureText, HlslError, hlslMessage, type SourceLocation, type CharLocator } from './root-signature/hlsl/text.js';

// ---------------------------------------------------------------- shaders and bindings

/** A shader container's stage and resource bindings (PSV0 for DXIL, declarations for DXBC). */
export { readShader, shaderOf, shaderFeatures, bindingClass, formatBinding, stageName, resTypeName, REGISTER_CLASS, type ShaderInfo, type ShaderBinding, type ShaderFeatures, type RegisterClass } from './shader/shader.js';
/** PSV0 part data <-> typed description (versions 0-4, bit-exact). */
export { decodePsv0, encodePsv0, psvVersionOf, psvString, type Psv0, type PsvResource, type PsvElement, type PsvDependencyBlock, type DecodePsv0Options, type EncodePsv0Options, type PsvFields } from './shader/psv0.js';
/** PSV0 typed description <-> JSON form. */
export { psv0ToJson, psv0FromJson } from './shader/psv0-json.js';
/** DXBC SHDR/SHEX token stream -> stage and binding declarations. */
export { readDxbcProgram, type DxbcProgram, type DxbcDeclaration, type ReadDxbcOptions } from './shader/dxbc.js';
/** SHDR/SHEX as instructions with opcode names (and their binding declarations). */
export { decodeDxbcTokens, encodeDxbcTokens, type DxbcTokens, type DxbcInstruction } from './shader/dxbc.js';
/** Every container part decoded from rows and written back bit-exact; the LLVM bitcode of a program part. */
export { decodePart, encodePart, partToJson, partFromJson, programBitcode, type DecodedPart, type DecodePartOptions, type EncodePartOptions, type KeptBytes, type PartJsonOptions } from './parts/part.js';
export type { SrciDecode, SrciSection, SrciRecord } from './parts/srci.js';
export type { Blocks } from './parts/layout.js';
/** A decoded record of rows (src/rows/record.ts): field keys and the names beside them. */
export type { Row } from './rows/record.js';
/** Does a root signature fit a shader? DXC's verifier, every violation, for DXIL and DXBC. */
export { verifyRootSignature, verifyBindings, rootSignatureIntervals, type VerifyResult, type BindingViolation, type BindingViolationCode } from './binding/verify.js';
export type { HeapIndexingCode } from '../codecs/binding-rules.js';
/** The cheapest 1.1 root signature that a set of shaders fits (and its root cost in DWORDs). */
export { suggestRootSignature, rootCost, type SuggestInput, type SuggestOptions } from './binding/suggest.js';

// ---------------------------------------------------------------- DXIL libraries (RDAT)

/** RDAT part data <-> JSON-ready description (bit-exact); a library container's RDAT decoded. */
export { decodeRdat, encodeRdat, readLibraryRdat, type RdatDescription, type RdatDecodeOptions, type RdatEncodeOptions, type LibraryRdat } from './rdat/index.js';
export type { RdatPartDescription, RdatStringBuffer, RdatIndexArrays, RdatRawBytes, RdatTable, RdatOpaquePart, RdatRecord, RdatRefs, RdatValue } from './rdat/types.js';
export type { RdatTableName } from '../codecs/rdat.js';
/** A library's exports and subobjects, and their text listing. */
export { describeLibrary, libraryLines, libraryJson, type Library, type LibraryExport, type LibrarySubobject, type LibraryBinding, type LibraryBindingJson, type LibraryTextOptions, type UnknownName } from './rdat/library.js';
/** Root signature subobjects: list, replace; a library with an edited RDAT description. */
export { subobjectIndex, subobjectRootSignatures, withSubobjectRootSignatures, withRdat, type SubobjectRootSignature } from './rdat/edit.js';
/** Root signatures for libraries: a global one, and with `localSpace` a local one per export. */
export { suggestLibraryRootSignatures, type LibrarySuggestOptions, type LibrarySuggestion } from './rdat/suggest.js';
/** DXIL libraries verified as one state object (associations, bindings, hit groups, configs). */
export { verifyStateObject, type StateObjectReport, type StateObjectViolation, type StateObjectExport, type StateObjectLibrary, type StateObjectOptions } from './rdat/state-object.js';
export type { StateObjectViolationCode } from '../codecs/state-object-rules.js';

// ---------------------------------------------------------------- tables and choices

/** The declarative tables (container, RTS0 rows and versions, enums and flags with D3D12 names). */
export * as codecs from '../codecs/index.js';
/** The root signature versions, `{ value, name }` ("1.0", "1.1", "1.2"). */
export { ROOT_SIGNATURE_VERSIONS, type RootSignatureVersionName } from '../codecs/root-signature.js';
/** Conversion semantics names (`runtime`, `vkd3d`, `d3dx12`). */
export { CONVERSION_SEMANTICS, type ConversionSemantics } from '../codecs/conversion.js';
/** Validation targets (`runtime`, `dxc`, `all`). */
export { VALIDATION_TARGETS, type ValidationTarget, type ValidationCode } from '../codecs/validation-rules.js';

// ---------------------------------------------------------------- pipelines

/** Pipeline state streams (D3D12_PIPELINE_STATE_STREAM_DESC) as relocatable images, x64 and x86; their JSON form; CD3DX12 defaults. */
export { encodeStream, decodeStream, streamToJson, streamFromJson, streamSize, subobjectDefault, subobjectRow, type Subobject, type DecodeStreamOptions } from './pipeline/stream.js';
export type { SubobjectRow } from '../codecs/pipeline.js';
/** The pipeline JSON form (D3D12_GRAPHICS/COMPUTE_PIPELINE_STATE_DESC names, files relative to the JSON, CD3DX12 defaults) to and from subobjects. */
export { pipelineFromJson, pipelineToJson, pipelineValue, pipelineKind, PIPELINE_KEYS, PIPELINE_FILE_KEYS, type Pipeline, type PipelineKind, type PipelineFile, type PipelineFromJsonOptions } from './pipeline/desc.js';
/** JSON Schema of the pipeline JSON form (schema/pipeline.schema.json). */
export { pipelineJsonSchema } from './pipeline/schema.js';
/** Does the pipeline work? CreateGraphicsPipelineState's checks offline; the signature rules on decoded elements. */
export { verifyPipeline, verifySignatures, STAGE_KIND, type PipelineVerifyResult, type PipelineViolation, type PipelineStageReport, type VerifyPipelineOptions, type SignatureElement, type StageSignatures, type StageInfo, type StageKey } from './pipeline/verify.js';
export type { PipelineRuleSource } from '../codecs/pipeline-rules.js';
/** Decoded signature parts (ISGN/ISG1, OSGN/OSG5/OSG1, PSG1 element rows) as a stage's signatures for verifySignatures. */
export { stageSignaturesFromParts, signatureElement, SIGNATURE_PART_ROLE } from './pipeline/signatures.js';
/** Shader records of a local root signature: the layout after the shader identifier, the table stride, a record size checked. */
export { shaderRecordLayout, recordSizeProblem, type RecordLayout, type RecordField } from './pipeline/record.js';
