/** dxbin: bit-exact codecs for Direct3D 12 binary data. */
export { DecodeError, DescriptionError, DxbinError } from './bytes/errors.js';
export type { DecodeErrorCode, DescriptionErrorCode } from './bytes/errors.js';
export { ByteReader } from './bytes/reader.js';
export { ByteWriter } from './bytes/writer.js';

export type { Container, ContainerPart, ContainerLayout, ParsedContainer } from './container/container.js';
export { findPart, looksLikeContainer } from './container/container.js';
export { parseContainer, type ContainerParseMode, type ParseContainerOptions } from './container/parse.js';
export { writeContainer, rootSignatureContainer, type DigestChoice } from './container/write.js';
export { computeContainerDigest, digestSentinel, digestStatus, modifiedMd5, type DigestStatus } from './container/digest.js';
export { rootSignaturePart, withoutPart, withRootSignature, editedDigest, writeEdited, type RootSignaturePlacement } from './container/edit.js';

export type * from './root-signature/types.js';
export { decodeRootSignature, readRootSignature, type RootSignatureLayout, type DecodeRootSignatureOptions } from './root-signature/decode.js';
export { encodeRootSignature } from './root-signature/encode.js';
export { rootSignatureToJson, rootSignatureFromJson } from './root-signature/json.js';
export { readRootSignatureSource, type RootSignatureSource } from './root-signature/source.js';

export * as codecs from '../codecs/index.js';
export { convertRootSignature, describeConversionReport, ConversionError, type ConversionReport, type ConversionItem, type ConvertOptions } from './root-signature/convert.js';
export type { ConversionSemantics } from '../codecs/conversion.js';
export { validateRootSignature, type Violation, type ValidateOptions } from './root-signature/validate.js';
export type { ValidationTarget, ValidationCode } from '../codecs/validation-rules.js';
export { compileRootSignature, compileRootSignatureBlob, RootSignatureValidationError, type CompileOptions } from './root-signature/hlsl/compile.js';
export { parseRootSignature, type ParseOptions } from './root-signature/hlsl/parser.js';
export { printRootSignature, printRootSignatureDefine, type PrintOptions } from './root-signature/hlsl/printer.js';
export { HlslFile } from './root-signature/hlsl/hlsl-file.js';
export { RootSignatureText, HlslError, type SourceLocation } from './root-signature/hlsl/source.js';
export { queryType, type RecordRange } from './query/types.js';
export { decodeQueryResult, decodeQueryResults, encodeQueryResults, toFloat64, type QueryColumns } from './query/decode.js';
export {
  timestampDurations,
  summarizeDurations,
  sumQueryResults,
  deltaQueryResults,
  soOverflow,
  occlusionToBinary,
  gatherVirtualQueries,
  packQueryMap,
  type Durations,
  type DurationOptions,
  type DurationSummary,
  type QueryMapEntry,
} from './query/resolve.js';
export { kernels, activeKernels, selectKernels, kernelsAvailable } from './query/kernels/loader.js';
export type { QueryKernels, KernelName } from './query/kernels/api.js';
export { WasmKernels, type WasmBuffer } from './query/kernels/wasm.js';
export { structLayout, structDef, type StructLayout, type FieldLayout } from './ddi/layout.js';
export { encodeImage, decodeImage, type DdiObject, type DdiValue } from './ddi/image.js';
export { ddiToJson, ddiFromJson } from './ddi/json.js';
export { validateDdi, validateRenderPasses, renderPassesFromJson, type DdiViolation, type RenderPass } from './ddi/validate.js';
export { RdatReader, type NodeReport } from './ddi/rdat.js';
