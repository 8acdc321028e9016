/*
 * Mirror definitions of the D3D12 DDI structures dxbin encodes, written from the documented
 * syntax (the "...(d3d12umddi.h)" reference pages and DirectX-Specs WorkGraphs.md /
 * RenderPasses.md), since d3d12umddi.h ships only in the WDK. Compiled by test/ddi.test.ts for
 * x64 and x86 (-m32) to check dxbin's layouts.
 */
#include <stdint.h>
typedef uint32_t UINT;
typedef int BOOL;
typedef uint16_t UINT16;
typedef uint8_t UINT8;
typedef const uint16_t *LPCWSTR;

typedef enum D3D12DDI_NODE_IO_KIND_0108 { D3D12DDI_NODE_IO_KIND_INVALID = 0 } D3D12DDI_NODE_IO_KIND_0108;
typedef enum D3D12DDI_NODE_TYPE_0108 { D3D12DDI_NODE_TYPE_SHADER_0108 = 0 } D3D12DDI_NODE_TYPE_0108;
typedef enum D3D12DDI_NODE_PROPERTIES_TYPE_0108 { D3D12DDI_NODE_PROPERTIES_TYPE_BROADCASTING_LAUNCH_0108 = 1 } D3D12DDI_NODE_PROPERTIES_TYPE_0108;

typedef struct D3D12DDI_NODE_ID_0108 {
  LPCWSTR Name;
  UINT ArrayIndex;
} D3D12DDI_NODE_ID_0108;

typedef struct D3D12DDI_RECORD_DISPATCH_GRID_0108 {
  UINT16 ByteOffset;
  UINT8 NumComponents;
  BOOL b16BitsPerComponent;
} D3D12DDI_RECORD_DISPATCH_GRID_0108;

struct _D3D12DDI_NODE_0108;
typedef struct D3D12DDI_NODE_LIST_ENTRY_0108 {
  const struct _D3D12DDI_NODE_0108 *pNode;
  const struct D3D12DDI_NODE_LIST_ENTRY_0108 *pNext;
} D3D12DDI_NODE_LIST_ENTRY_0108;

typedef struct D3D12DDI_NODE_OUTPUT_0108 {
  D3D12DDI_NODE_ID_0108 FinalName;
  UINT OutputIndex;
  D3D12DDI_NODE_IO_KIND_0108 NodeIOKind;
  UINT NodeIOFlags;
  UINT RecordSizeInBytes;
  BOOL bAllowSparseNodes;
  const D3D12DDI_RECORD_DISPATCH_GRID_0108 *pRecordDispatchGrid;
  const UINT *pMaxRecords;
  const UINT *pMaxRecordsSharedWithOutputIndex;
  UINT ArraySize;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pOutputs;
} D3D12DDI_NODE_OUTPUT_0108;

typedef struct D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108 {
  D3D12DDI_NODE_ID_0108 FinalName;
  BOOL bProgramEntry;
  D3D12DDI_NODE_IO_KIND_0108 InputNodeIOKind;
  UINT InputNodeIOFlags;
  UINT InputRecordSizeInBytes;
  UINT GroupSharedUsageInBytes;
  UINT MaxRecursionDepth;
  const UINT *pLocalRootArgumentsTableIndex;
  const struct _D3D12DDI_NODE_0108 *pShareInputOfNode;
  const UINT *pDispatchGrid;
  const UINT *pMaxDispatchGrid;
  const D3D12DDI_RECORD_DISPATCH_GRID_0108 *pRecordDispatchGrid;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pInputNodes;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pNodesSharingInputWithThisNode;
  UINT NumOutputs;
  const D3D12DDI_NODE_OUTPUT_0108 *pOutputs;
} D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108;

typedef struct D3D12DDI_COALESCING_LAUNCH_NODE_PROPERTIES_0108 {
  D3D12DDI_NODE_ID_0108 FinalName;
  BOOL bProgramEntry;
  D3D12DDI_NODE_IO_KIND_0108 InputNodeIOKind;
  UINT InputNodeIOFlags;
  UINT InputRecordSizeInBytes;
  UINT InputMaxRecordArraySize;
  UINT GroupSharedUsageInBytes;
  UINT MaxRecursionDepth;
  const UINT *pLocalRootArgumentsTableIndex;
  const struct _D3D12DDI_NODE_0108 *pShareInputOfNode;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pInputNodes;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pNodesSharingInputWithThisNode;
  UINT NumOutputs;
  const D3D12DDI_NODE_OUTPUT_0108 *pOutputs;
} D3D12DDI_COALESCING_LAUNCH_NODE_PROPERTIES_0108;

typedef struct D3D12DDI_THREAD_LAUNCH_NODE_PROPERTIES_0108 {
  D3D12DDI_NODE_ID_0108 FinalName;
  BOOL bProgramEntry;
  D3D12DDI_NODE_IO_KIND_0108 InputNodeIOKind;
  UINT InputNodeIOFlags;
  UINT InputRecordSizeInBytes;
  UINT GroupSharedUsageInBytes;
  UINT MaxRecursionDepth;
  const UINT *pLocalRootArgumentsTableIndex;
  const struct _D3D12DDI_NODE_0108 *pShareInputOfNode;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pInputNodes;
  const D3D12DDI_NODE_LIST_ENTRY_0108 *pNodesSharingInputWithThisNode;
  UINT NumOutputs;
  const D3D12DDI_NODE_OUTPUT_0108 *pOutputs;
} D3D12DDI_THREAD_LAUNCH_NODE_PROPERTIES_0108;

typedef struct D3D12DDI_SHADER_NODE_0108 {
  LPCWSTR Shader;
  D3D12DDI_NODE_PROPERTIES_TYPE_0108 PropertiesType;
  union {
    const D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108 *pBroadcastingLaunchNodeProperties;
    const D3D12DDI_COALESCING_LAUNCH_NODE_PROPERTIES_0108 *pCoalescingLaunchNodeProperties;
    const D3D12DDI_THREAD_LAUNCH_NODE_PROPERTIES_0108 *pThreadLaunchNodeProperties;
  };
} D3D12DDI_SHADER_NODE_0108;

typedef struct _D3D12DDI_NODE_0108 {
  UINT VersionAdded;
  D3D12DDI_NODE_TYPE_0108 NodeType;
  union {
    D3D12DDI_SHADER_NODE_0108 Shader;
  };
} D3D12DDI_NODE_0108;

typedef struct D3D12DDI_RENDER_PASS_BEGINNING_ACCESS_PRESERVE_LOCAL_PARAMETERS_0101 {
  UINT AdditionalWidth;
  UINT AdditionalHeight;
} D3D12DDI_RENDER_PASS_BEGINNING_ACCESS_PRESERVE_LOCAL_PARAMETERS_0101;

typedef struct D3D12DDI_RENDER_PASS_ENDING_ACCESS_PRESERVE_LOCAL_PARAMETERS_0101 {
  UINT AdditionalWidth;
  UINT AdditionalHeight;
} D3D12DDI_RENDER_PASS_ENDING_ACCESS_PRESERVE_LOCAL_PARAMETERS_0101;
