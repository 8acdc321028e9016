/**
 * Container parts as rows (docs/formats/parts.md): signatures (ISGN, OSGN, OSG5, PCSG, ISG1, OSG1,
 * PSG1), SFI0, HASH, ILDN, VERS, the DXIL program header (DXIL, ILDB, STAT of DXIL containers),
 * SRCI section headers, RDEF's header and records and DXBC STAT counters. Layouts from DXC's
 * DxilContainer.h and the D3D10/11 internal shader structures; names as DXC and LLVM spell them.
 * src/parts/ interprets the rows; every byte no row names is kept as it is.
 */
import { enumTable } from './enum-table.js';
import { bits, record, type RecordDef } from './rows.js';
import { SHADER_FEATURE_FLAGS } from './shader-flags.js';
import { SHADER_KIND } from './psv0.js';

/** Where RDEF_RD11 sits in an RDEF part. */
export const RDEF_RD11_AT = 28;

/** D3D_NAME / DxilProgramSigSemantic: a signature element's system value. */
export const SIGNATURE_SYSTEM_VALUE = enumTable('D3D_NAME', '', [
  ['Undefined', 0], ['Position', 1], ['ClipDistance', 2], ['CullDistance', 3], ['RenderTargetArrayIndex', 4],
  ['ViewPortArrayIndex', 5], ['VertexID', 6], ['PrimitiveID', 7], ['InstanceID', 8], ['IsFrontFace', 9],
  ['SampleIndex', 10], ['FinalQuadEdgeTessfactor', 11], ['FinalQuadInsideTessfactor', 12], ['FinalTriEdgeTessfactor', 13],
  ['FinalTriInsideTessfactor', 14], ['FinalLineDetailTessfactor', 15], ['FinalLineDensityTessfactor', 16],
  ['Barycentrics', 23], ['ShadingRate', 24], ['CullPrimitive', 25], ['Target', 64], ['Depth', 65], ['Coverage', 66],
  ['DepthGE', 67], ['DepthLE', 68], ['StencilRef', 69], ['InnerCoverage', 70],
]);

/** D3D_REGISTER_COMPONENT_TYPE / DxilProgramSigCompType. */
export const SIGNATURE_COMPONENT_TYPE = enumTable('DxilProgramSigCompType', '', [
  ['Unknown', 0], ['UInt32', 1], ['SInt32', 2], ['Float32', 3], ['UInt16', 4], ['SInt16', 5], ['Float16', 6],
  ['UInt64', 7], ['SInt64', 8], ['Float64', 9],
]);

/** DxilProgramSigMinPrecision (D3D_MIN_PRECISION). */
export const SIGNATURE_MIN_PRECISION = enumTable('DxilProgramSigMinPrecision', '', [
  ['Default', 0], ['Float16', 1], ['Float2_8', 2], ['Reserved', 3], ['SInt16', 4], ['UInt16', 5], ['Any16', 0xf0], ['Any10', 0xf1],
]);

/** A signature part's header: element count and the offset of the first element (from the part start). */
export const SIGNATURE_HEADER = record('DxilProgramSignature', 8, [
  { key: 'count', type: 'u32', at: 0 },
  { key: 'offset', type: 'u32', at: 4 },
]);

const element = (name: string, size: number, stream: boolean, minPrecision: boolean): RecordDef => {
  const s = stream ? 4 : 0;
  return record(name, size, [
    ...(stream ? [{ key: 'stream', type: 'u32', at: 0 } as const] : []),
    { key: 'semanticName', type: { string: 'table-offset' }, at: s },
    { key: 'semanticIndex', type: 'u32', at: s + 4 },
    { key: 'systemValue', type: { enum: SIGNATURE_SYSTEM_VALUE, width: 'u32' }, at: s + 8 },
    { key: 'componentType', type: { enum: SIGNATURE_COMPONENT_TYPE, width: 'u32' }, at: s + 12 },
    { key: 'register', type: 'u32', at: s + 16 },
    { key: 'mask', type: 'u8', at: s + 20 },
    /** Inputs: the components always read; outputs: the components never written (LLVM: ExclusiveMask). */
    { key: 'rwMask', type: 'u8', at: s + 21 },
    { key: 'reserved', type: 'u16', at: s + 22, reserved: true },
    ...(minPrecision ? [{ key: 'minPrecision', type: { enum: SIGNATURE_MIN_PRECISION, width: 'u32' }, at: s + 24 } as const] : []),
  ]);
};

/** Signature element layouts: 24 bytes (ISGN, OSGN, PCSG), 28 with a stream (OSG5), 32 with stream and min precision (ISG1, OSG1, PSG1). */
export const SIGNATURE_ELEMENT = element('D3D10_INTERNALSHADER_PARAMETER', 24, false, false);
export const SIGNATURE_ELEMENT_5 = element('D3D11_INTERNALSHADER_PARAMETER_FOR_GS', 28, true, false);
export const SIGNATURE_ELEMENT_1 = element('DxilProgramSignatureElement', 32, true, true);

/** The signature parts and their element layout. */
export const SIGNATURE_PARTS: Readonly<Record<string, RecordDef>> = {
  ISGN: SIGNATURE_ELEMENT,
  OSGN: SIGNATURE_ELEMENT,
  PCSG: SIGNATURE_ELEMENT,
  OSG5: SIGNATURE_ELEMENT_5,
  ISG1: SIGNATURE_ELEMENT_1,
  OSG1: SIGNATURE_ELEMENT_1,
  PSG1: SIGNATURE_ELEMENT_1,
};

/** SFI0: one u64 of feature flags. */
export const SFI0 = record('DxilShaderFeatureInfo', 8, [{ key: 'flags', type: { flags: SHADER_FEATURE_FLAGS, width: 'u64' }, at: 0 }]);

/** HASH flags. */
export const HASH_FLAGS = bits([[0, 'IncludesSource']]);
/** HASH: flags, then the standard MD5 of the program (DxilShaderHash). */
export const HASH = record('DxilShaderHash', 20, [
  { key: 'flags', type: { flags: HASH_FLAGS, width: 'u32' }, at: 0 },
  { key: 'digest', type: { bytes: 16 }, at: 4 },
]);

/** ILDN: the debug name (DxilShaderDebugName), then a NUL and zero padding to 4 bytes. */
export const ILDN = record('DxilShaderDebugName', 4, [
  { key: 'flags', type: 'u16', at: 0 },
  { key: 'nameLength', type: 'u16', at: 2 },
  { key: 'name', type: { string: 'counted', count: 'nameLength' }, at: 4 },
]);

/** VERS: the compiler version (DxilCompilerVersion), then up to two NUL-terminated strings. */
export const VERS = record('DxilCompilerVersion', 16, [
  { key: 'major', type: 'u16', at: 0 },
  { key: 'minor', type: 'u16', at: 2 },
  { key: 'versionFlags', type: 'u32', at: 4 },
  { key: 'commitCount', type: 'u32', at: 8 },
  { key: 'versionStringListSize', type: 'u32', at: 12 },
  { key: 'commitSha', type: { string: 'nul' }, at: 16 },
  { key: 'versionString', type: { string: 'nul' }, at: 'after' },
]);

/** The program header of DXIL, ILDB and (DXIL) STAT parts: DxilProgramHeader with its DxilBitcodeHeader. */
export const DXIL_PROGRAM_HEADER = record('DxilProgramHeader', 24, [
  {
    key: 'programVersion',
    type: { width: 'u32', subfields: [{ key: 'minorVersion', shift: 0, width: 4 }, { key: 'majorVersion', shift: 4, width: 4 }, { key: 'shaderKind', shift: 16, width: 16, enum: SHADER_KIND }] },
    at: 0,
  },
  /** Size of the part in u32 units, this header included. */
  { key: 'sizeInUint32', type: 'u32', at: 4 },
  { key: 'magic', type: 'fourcc', at: 8 },
  { key: 'dxilVersion', type: { width: 'u32', subfields: [{ key: 'dxilMinorVersion', shift: 0, width: 8 }, { key: 'dxilMajorVersion', shift: 8, width: 8 }] }, at: 12 },
  /** From the start of the bitcode header (offset 8). */
  { key: 'bitcodeOffset', type: 'u32', at: 16 },
  { key: 'bitcodeSize', type: 'u32', at: 20 },
]);
/** The bitcode header starts at this offset of the program part; bitcodeOffset counts from it. */
export const BITCODE_HEADER_AT = 8;
/** Parts with a DXIL program header. */
export const PROGRAM_PARTS: readonly string[] = ['DXIL', 'ILDB', 'STAT'];

/** SRCI section types (DxilSourceInfoSectionType). */
export const SRCI_SECTION_TYPE = enumTable('DxilSourceInfoSectionType', '', [['SourceContents', 0], ['SourceNames', 1], ['Args', 2]]);
/** SRCI source-contents compression (DxilSourceInfo_SourceContentsCompressType). */
export const SRCI_COMPRESS_TYPE = enumTable('DxilSourceInfo_SourceContentsCompressType', '', [['None', 0], ['Zlib', 1]]);
export const SRCI_HEADER = record('DxilSourceInfo', 8, [
  { key: 'alignedSize', type: 'u32', at: 0 },
  { key: 'flags', type: 'u16', at: 4 },
  { key: 'sectionCount', type: 'u16', at: 6 },
]);
export const SRCI_SECTION = record('DxilSourceInfoSection', 8, [
  /** The section's size: this header, its data and padding. */
  { key: 'alignedSize', type: 'u32', at: 0 },
  { key: 'flags', type: 'u16', at: 4 },
  { key: 'type', type: { enum: SRCI_SECTION_TYPE, width: 'u16' }, at: 6 },
]);
export const SRCI_CONTENTS = record('DxilSourceInfo_SourceContents', 20, [
  { key: 'alignedSize', type: 'u32', at: 0 },
  { key: 'flags', type: 'u16', at: 4 },
  { key: 'compressType', type: { enum: SRCI_COMPRESS_TYPE, width: 'u16' }, at: 6 },
  { key: 'entriesSize', type: 'u32', at: 8 },
  { key: 'uncompressedEntriesSize', type: 'u32', at: 12 },
  { key: 'count', type: 'u32', at: 16 },
]);
export const SRCI_CONTENTS_ENTRY = record('DxilSourceInfo_SourceContentsEntry', 12, [
  { key: 'alignedSize', type: 'u32', at: 0 },
  { key: 'flags', type: 'u32', at: 4 },
  { key: 'contentSize', type: 'u32', at: 8 },
]);
/** Packed to 4 bytes: the u16 size is followed by two bytes of padding (UNVERIFIED by a sample). */
export const SRCI_NAMES = record('DxilSourceInfo_SourceNames', 12, [
  { key: 'flags', type: 'u32', at: 0 },
  { key: 'count', type: 'u32', at: 4 },
  { key: 'entriesSize', type: 'u16', at: 8 },
  { key: 'reserved', type: 'u16', at: 10, reserved: true },
]);
export const SRCI_NAMES_ENTRY = record('DxilSourceInfo_SourceNamesEntry', 16, [
  { key: 'alignedSize', type: 'u32', at: 0 },
  { key: 'flags', type: 'u32', at: 4 },
  { key: 'nameSize', type: 'u32', at: 8 },
  { key: 'contentSize', type: 'u32', at: 12 },
]);
export const SRCI_ARGS = record('DxilSourceInfo_Args', 12, [
  { key: 'flags', type: 'u32', at: 0 },
  { key: 'size', type: 'u32', at: 4 },
  { key: 'count', type: 'u32', at: 8 },
]);

/** RDEF program types in the header's version word (upper 16 bits), as fxc writes them. */
export const RDEF_PROGRAM_TYPE = enumTable('D3D11_SHADER_VERSION_TYPE', '', [
  ['Pixel', 0xffff], ['Vertex', 0xfffe], ['Geometry', 0x4753], ['Hull', 0x4853], ['Domain', 0x4453], ['Compute', 0x4353],
]);
/** RDEF header (D3D11 reflection): constant buffers, bindings, version, flags, creator. */
export const RDEF_HEADER = record('RDEF', 28, [
  { key: 'constantBufferCount', type: 'u32', at: 0 },
  { key: 'constantBufferOffset', type: 'u32', at: 4 },
  { key: 'bindingCount', type: 'u32', at: 8 },
  { key: 'bindingOffset', type: 'u32', at: 12 },
  { key: 'version', type: { width: 'u32', subfields: [{ key: 'minorVersion', shift: 0, width: 8 }, { key: 'majorVersion', shift: 8, width: 8 }, { key: 'programType', shift: 16, width: 16, enum: RDEF_PROGRAM_TYPE }] }, at: 16 },
  { key: 'flags', type: 'u32', at: 20 },
  { key: 'creator', type: { string: 'table-offset' }, at: 24 },
]);
/** The RD11 header of SM 5.0+ RDEF parts, after RDEF_HEADER: the record sizes the part uses. */
export const RDEF_RD11 = record('RD11', 32, [
  { key: 'magic', type: 'fourcc', at: 0 },
  { key: 'headerSize', type: 'u32', at: 4 },
  { key: 'constantBufferSize', type: 'u32', at: 8 },
  { key: 'bindingSize', type: 'u32', at: 12 },
  { key: 'variableSize', type: 'u32', at: 16 },
  { key: 'typeSize', type: 'u32', at: 20 },
  { key: 'memberSize', type: 'u32', at: 24 },
  { key: 'reserved', type: 'u32', at: 28, reserved: true },
]);

/** D3D_SHADER_INPUT_TYPE. */
export const RDEF_INPUT_TYPE = enumTable('D3D_SHADER_INPUT_TYPE', 'D3D_SIT_', [
  ['CBUFFER', 0], ['TBUFFER', 1], ['TEXTURE', 2], ['SAMPLER', 3], ['UAV_RWTYPED', 4], ['STRUCTURED', 5], ['UAV_RWSTRUCTURED', 6],
  ['BYTEADDRESS', 7], ['UAV_RWBYTEADDRESS', 8], ['UAV_APPEND_STRUCTURED', 9], ['UAV_CONSUME_STRUCTURED', 10],
  ['UAV_RWSTRUCTURED_WITH_COUNTER', 11], ['RTACCELERATIONSTRUCTURE', 12], ['UAV_FEEDBACKTEXTURE', 13],
]);
const rdefBinding = (size: number) =>
  record('D3D11_INTERNALSHADER_RESOURCE_DEF', size, [
    { key: 'name', type: { string: 'table-offset' }, at: 0 },
    { key: 'type', type: { enum: RDEF_INPUT_TYPE, width: 'u32' }, at: 4 },
    { key: 'returnType', type: 'u32', at: 8 },
    { key: 'dimension', type: 'u32', at: 12 },
    { key: 'sampleCount', type: 'u32', at: 16 },
    { key: 'bindPoint', type: 'u32', at: 20 },
    { key: 'bindCount', type: 'u32', at: 24 },
    { key: 'flags', type: 'u32', at: 28 },
    ...(size > 32 ? [{ key: 'space', type: 'u32', at: 32 } as const, { key: 'rangeId', type: 'u32', at: 36 } as const] : []),
  ]);
/** RDEF bindings: 32 bytes, 40 from SM 5.1 (space and range ID). */
export const RDEF_BINDING = rdefBinding(32);
export const RDEF_BINDING_51 = rdefBinding(40);
/** RDEF constant buffer records (D3D11_INTERNALSHADER_CONSTANT_BUFFER). */
export const RDEF_CONSTANT_BUFFER = record('D3D11_INTERNALSHADER_CONSTANT_BUFFER', 24, [
  { key: 'name', type: { string: 'table-offset' }, at: 0 },
  { key: 'variableCount', type: 'u32', at: 4 },
  { key: 'variableOffset', type: 'u32', at: 8 },
  { key: 'size', type: 'u32', at: 12 },
  { key: 'flags', type: 'u32', at: 16 },
  { key: 'type', type: 'u32', at: 20 },
]);

/** DXBC STAT: the compiler's statistics, a list of u32 counters (their meanings are not in our notes). */
export const DXBC_STAT_COUNTER = record('u32', 4, [{ key: 'value', type: 'u32', at: 0 }]);

/** D3D_SHADER_VARIABLE_CLASS: a type description's class. */
export const RDEF_VARIABLE_CLASS = enumTable('D3D_SHADER_VARIABLE_CLASS', 'D3D_SVC_', [
  ['SCALAR', 0], ['VECTOR', 1], ['MATRIX_ROWS', 2], ['MATRIX_COLUMNS', 3], ['OBJECT', 4], ['STRUCT', 5], ['INTERFACE_CLASS', 6], ['INTERFACE_POINTER', 7],
]);
/** D3D_SHADER_VARIABLE_TYPE: a type description's base type. */
export const RDEF_VARIABLE_TYPE = enumTable('D3D_SHADER_VARIABLE_TYPE', 'D3D_SVT_', [
  ['VOID', 0], ['BOOL', 1], ['INT', 2], ['FLOAT', 3], ['STRING', 4], ['TEXTURE', 5], ['TEXTURE1D', 6], ['TEXTURE2D', 7], ['TEXTURE3D', 8],
  ['TEXTURECUBE', 9], ['SAMPLER', 10], ['SAMPLER1D', 11], ['SAMPLER2D', 12], ['SAMPLER3D', 13], ['SAMPLERCUBE', 14], ['PIXELSHADER', 15],
  ['VERTEXSHADER', 16], ['PIXELFRAGMENT', 17], ['VERTEXFRAGMENT', 18], ['UINT', 19], ['UINT8', 20], ['GEOMETRYSHADER', 21], ['RASTERIZER', 22],
  ['DEPTHSTENCIL', 23], ['BLEND', 24], ['BUFFER', 25], ['CBUFFER', 26], ['TBUFFER', 27], ['TEXTURE1DARRAY', 28], ['TEXTURE2DARRAY', 29],
  ['RENDERTARGETVIEW', 30], ['DEPTHSTENCILVIEW', 31], ['TEXTURE2DMS', 32], ['TEXTURE2DMSARRAY', 33], ['TEXTURECUBEARRAY', 34], ['HULLSHADER', 35],
  ['DOMAINSHADER', 36], ['INTERFACE_POINTER', 37], ['COMPUTESHADER', 38], ['DOUBLE', 39], ['RWTEXTURE1D', 40], ['RWTEXTURE1DARRAY', 41],
  ['RWTEXTURE2D', 42], ['RWTEXTURE2DARRAY', 43], ['RWTEXTURE3D', 44], ['RWBUFFER', 45], ['BYTEADDRESS_BUFFER', 46], ['RWBYTEADDRESS_BUFFER', 47],
  ['STRUCTURED_BUFFER', 48], ['RWSTRUCTURED_BUFFER', 49], ['APPEND_STRUCTURED_BUFFER', 50], ['CONSUME_STRUCTURED_BUFFER', 51], ['MIN8FLOAT', 52],
  ['MIN10FLOAT', 53], ['MIN16FLOAT', 54], ['MIN12INT', 55], ['MIN16INT', 56], ['MIN16UINT', 57], ['INT16', 58], ['UINT16', 59], ['FLOAT16', 60],
  ['INT64', 61], ['UINT64', 62],
]);
/** D3D_SHADER_VARIABLE_FLAGS. */
export const RDEF_VARIABLE_FLAGS = bits([[0, 'USERPACKED'], [1, 'USED'], [2, 'INTERFACE_POINTER'], [3, 'INTERFACE_PARAMETER']]);

const rdefVariable = (size: number) =>
  record('D3D11_INTERNALSHADER_VARIABLE', size, [
    { key: 'name', type: { string: 'table-offset' }, at: 0 },
    /** Byte offset in the constant buffer. */
    { key: 'startOffset', type: 'u32', at: 4 },
    { key: 'size', type: 'u32', at: 8 },
    { key: 'flags', type: { flags: RDEF_VARIABLE_FLAGS, width: 'u32' }, at: 12 },
    /** Offset (from the part start) of the variable's type description. */
    { key: 'typeOffset', type: 'u32', at: 16 },
    /** Offset of `size` bytes of default value, 0 when there is none (the bytes stay kept). */
    { key: 'defaultValueOffset', type: 'u32', at: 20 },
    ...(size > 24
      ? ([
          /** SM 5.0+: first texture and sampler slots the variable uses and how many (0xffffffff / 0 when none). */
          { key: 'startTexture', type: 'u32', at: 24 },
          { key: 'textureSize', type: 'u32', at: 28 },
          { key: 'startSampler', type: 'u32', at: 32 },
          { key: 'samplerSize', type: 'u32', at: 36 },
        ] as const)
      : []),
  ]);
/** RDEF constant buffer variables: 24 bytes, 40 from SM 5.0 (RD11's variableSize). */
export const RDEF_VARIABLE = rdefVariable(24);
export const RDEF_VARIABLE_5 = rdefVariable(40);

const rdefType = (size: number) =>
  record('D3D11_INTERNALSHADER_TYPE', size, [
    { key: 'class', type: { enum: RDEF_VARIABLE_CLASS, width: 'u16' }, at: 0 },
    { key: 'type', type: { enum: RDEF_VARIABLE_TYPE, width: 'u16' }, at: 2 },
    { key: 'rows', type: 'u16', at: 4 },
    { key: 'columns', type: 'u16', at: 6 },
    /** Array elements (0: not an array). */
    { key: 'elements', type: 'u16', at: 8 },
    { key: 'memberCount', type: 'u16', at: 10 },
    /** Offset (from the part start) of the member list (memberCount records of RDEF_MEMBER). */
    { key: 'memberOffset', type: 'u32', at: 12 },
    ...(size > 16
      ? ([
          /**
           * SM 5.0+ (classes and interfaces, ID3D11ShaderReflectionType's GetSubType, GetBaseClass,
           * GetNumInterfaces, GetInterfaceByIndex; docs/formats/parts.md): offsets from the part
           * start of the sub type and base class type descriptions (0: none), and `interfaceCount`
           * u32 offsets of interface type descriptions at `interfaceOffset` (RDEF_INTERFACE). fxc
           * writes 0 in all four for a type that is not a class. The names are our reading of the
           * reflection methods (public readers call these words unknown); no corpus blob has a
           * class, so they are pinned on a generated part only (docs/formats/parts.md).
           */
          { key: 'subTypeOffset', type: 'u32', at: 16 },
          { key: 'baseClassOffset', type: 'u32', at: 20 },
          { key: 'interfaceCount', type: 'u32', at: 24 },
          { key: 'interfaceOffset', type: 'u32', at: 28 },
          { key: 'name', type: { string: 'table-offset' }, at: 32 },
        ] as const)
      : []),
  ]);
/** RDEF type descriptions: 16 bytes, 36 from SM 5.0 (RD11's typeSize) with the type's name. */
export const RDEF_TYPE = rdefType(16);
export const RDEF_TYPE_5 = rdefType(36);
/** An entry of an SM 5.0 type's interface table (RDEF_TYPE_5's interfaceOffset): the offset of an interface's type description. */
export const RDEF_INTERFACE = record('RDEF_TYPE_INTERFACE', 4, [{ key: 'typeOffset', type: 'u32', at: 0 }]);
/** A member of a struct type: its name, type description and byte offset in the struct. */
export const RDEF_MEMBER = record('D3D11_INTERNALSHADER_TYPE_MEMBER', 12, [
  { key: 'name', type: { string: 'table-offset' }, at: 0 },
  { key: 'typeOffset', type: 'u32', at: 4 },
  { key: 'offset', type: 'u32', at: 8 },
]);
