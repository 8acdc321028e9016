/** DXC's RDAT part (runtime data of DXIL libraries), as far as node I/O needs it (docs/formats/ddi.md). */

export const RDAT_VERSION = 0x10;

export const RDAT_PART_TYPE = {
  StringBuffer: 1,
  IndexArrays: 2,
  ResourceTable: 3,
  FunctionTable: 4,
  RawBytes: 5,
  SubobjectTable: 6,
  NodeIDTable: 7,
  NodeShaderIOAttribTable: 8,
  NodeShaderFuncAttribTable: 9,
  IONodeTable: 10,
  NodeShaderInfoTable: 11,
} as const;

/** Record sizes DXC writes; a table's stride may be larger (newer records), never smaller. */
export const RDAT_RECORD_SIZE = {
  FunctionInfo: 44,
  FunctionInfo2: 52,
  NodeShaderInfo: 20,
  IONode: 8,
  NodeShaderIOAttrib: 8,
  NodeShaderFuncAttrib: 8,
  NodeID: 8,
} as const;

/** Field offsets within records. */
export const FUNCTION_INFO = { name: 0, unmangledName: 4, shaderKind: 16, shaderFlags: 46, nodeShaderInfo: 48 } as const;
export const NODE_SHADER_INFO = { launchType: 0, groupSharedBytesUsed: 4, attribs: 8, outputs: 12, inputs: 16 } as const;
export const SHADER_KIND_NODE = 15;
export const NULL_REF = 0xffffffff;

export const NODE_ATTRIB_KIND = {
  None: 0,
  OutputID: 1,
  MaxRecords: 2,
  MaxRecordsSharedWith: 3,
  RecordSizeInBytes: 4,
  RecordDispatchGrid: 5,
  OutputArraySize: 6,
  AllowSparseNodes: 7,
  RecordAlignmentInBytes: 8,
} as const;

export const NODE_FUNC_ATTRIB_KIND = {
  None: 0,
  ID: 1,
  NumThreads: 2,
  ShareInputOf: 3,
  DispatchGrid: 4,
  MaxRecursionDepth: 5,
  LocalRootArgumentsTableIndex: 6,
  MaxDispatchGrid: 7,
} as const;

/** DXIL component types in RecordDispatchGrid (bits 2..15 of ComponentNumAndType). */
export const DXIL_COMPONENT_TYPE = { U16: 3, U32: 5 } as const;

export const NODE_LAUNCH_TYPE = { 1: 'broadcasting', 2: 'coalescing', 3: 'thread' } as const;
