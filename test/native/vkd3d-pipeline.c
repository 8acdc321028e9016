/*
 * vkd3d-pipeline: the differential partner of test/pipeline-vkd3d.test.ts. It asks libvkd3d's
 * ID3D12Device (on whatever Vulkan device the loader offers first: Mesa's lavapipe on a machine
 * without a GPU) whether a graphics pipeline can be created; every verdict is vkd3d's, this file
 * only fills the structs.
 *
 * Built by test/helpers/vkd3d-pipeline.ts into a temporary folder:
 *     cc -O1 $(pkg-config --cflags libvkd3d vulkan) vkd3d-pipeline.c $(pkg-config --libs libvkd3d vulkan)
 *
 * Protocol: one request per line on stdin, one answer line per request on stdout.
 *     version                 -> ok VKD3D_API_VERSION
 *     device                  -> ok | error device HRESULT   (a D3D12 device could be created)
 *     rootsig RS              -> ok | error HRESULT     (CreateRootSignature)
 *     vulkan                  -> ok NAME... | error device HRESULT
 *         what the Vulkan device vkd3d runs on offers for the stages this harness can ask about:
 *         each of VK_EXT_transform_feedback, VK_EXT_mesh_shader, VK_NV_mesh_shader the device lists,
 *         then its features and properties as NAME=0|1 (geometryShader, transformFeedback,
 *         geometryStreams, transformFeedbackRasterizationStreamSelect; the last three 0 without
 *         VK_EXT_transform_feedback), ID3D12Device2=0|1 (whether vkd3d's device has the interface whose
 *         CreatePipelineState makes mesh pipelines), then the device's name as device=NAME (spaces as '_')
 *     pipeline RS VS PS HS DS GS TOPOLOGY NUM_RT RTV0..RTV7 DSV SAMPLE_COUNT SAMPLE_QUALITY N ELEMENT...
 *              SO_N SO_ENTRY... NUM_STRIDES STRIDE... RASTERIZED_STREAM
 *                             -> ok | error HRESULT     (CreateRootSignature, then CreateGraphicsPipelineState)
 *         RS, VS, PS, HS, DS, GS: the bytes in hex (PS, HS, DS, GS may be "-": no such shader); RS is a DXBC
 *         container holding an RTS0 part (a root signature blob, or a shader that embeds one)
 *         TOPOLOGY: D3D12_PRIMITIVE_TOPOLOGY_TYPE; RTV*, DSV: DXGI_FORMAT numbers
 *         ELEMENT: SEMANTIC_NAME SEMANTIC_INDEX FORMAT INPUT_SLOT ALIGNED_BYTE_OFFSET (per-vertex data)
 *         SO_ENTRY: STREAM SEMANTIC_NAME SEMANTIC_INDEX START_COMPONENT COMPONENT_COUNT OUTPUT_SLOT
 *         (a D3D12_SO_DECLARATION_ENTRY; StreamOutput.NumEntries is SO_N, pBufferStrides the STRIDEs).
 *         A gap entry (SemanticName NULL) is refused as "error request SO_GAP": vkd3d 1.2's
 *         vkd3d_dxbc_compiler_decorate_xfb_output compares every entry's name with ascii_strcasecmp
 *         and would read through the NULL pointer.
 * A refusal to create the root signature answers "error rootsig HRESULT"; a malformed request
 * "error request WHAT". Other state is what CD3DX12's defaults give (blend: no blending, write
 * mask all; rasterizer: solid, back-face culling, depth clip; depth test on when DSV is set;
 * sample mask all ones).
 */
#define COBJMACROS
#define INITGUID
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vkd3d.h>

#define MAX_ELEMENTS 64
#define MAX_SO_ENTRIES 64
#define MAX_SO_STRIDES 8

static char *cursor;
static const char *bad;

static char *next_token(void)
{
    char *start;
    while (*cursor == ' ')
        cursor++;
    if (!*cursor)
        return NULL;
    start = cursor;
    while (*cursor && *cursor != ' ')
        cursor++;
    if (*cursor)
        *cursor++ = 0;
    return start;
}

static unsigned int next_u32(const char *what)
{
    char *t = next_token(), *end;
    unsigned long v;
    if (!t)
    {
        if (!bad) bad = what;
        return 0;
    }
    errno = 0;
    v = strtoul(t, &end, 0);
    if (*end || errno || v > 0xffffffffu)
        if (!bad) bad = what;
    return (unsigned int)v;
}

/* Hex text -> bytes (malloc'd); NULL for "-" or bad hex (then `bad` is set). */
static void *next_bytes(const char *what, size_t *size)
{
    char *t = next_token();
    size_t n, i;
    unsigned char *out;
    *size = 0;
    if (!t)
    {
        if (!bad) bad = what;
        return NULL;
    }
    if (!strcmp(t, "-"))
        return NULL;
    n = strlen(t);
    if (n % 2 || !n)
    {
        if (!bad) bad = what;
        return NULL;
    }
    out = malloc(n / 2);
    for (i = 0; i < n / 2; i++)
    {
        unsigned int b;
        if (sscanf(t + 2 * i, "%2x", &b) != 1)
        {
            if (!bad) bad = what;
            free(out);
            return NULL;
        }
        out[i] = (unsigned char)b;
    }
    *size = n / 2;
    return out;
}

static HRESULT signal_event(HANDLE event)
{
    return S_OK;
}

static HRESULT create_device(ID3D12Device **device)
{
    struct vkd3d_instance_create_info instance = {0};
    struct vkd3d_device_create_info info = {0};

    instance.type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    instance.pfn_signal_event = signal_event;
    instance.wchar_size = sizeof(WCHAR);
    instance.pfn_vkGetInstanceProcAddr = vkGetInstanceProcAddr;
    info.type = VKD3D_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.minimum_feature_level = D3D_FEATURE_LEVEL_11_0;
    info.instance_create_info = &instance;
    return vkd3d_create_device(&info, &IID_ID3D12Device, (void **)device);
}

static int has_extension(const VkExtensionProperties *list, uint32_t count, const char *name)
{
    uint32_t i;
    for (i = 0; i < count; i++)
        if (!strcmp(list[i].extensionName, name))
            return 1;
    return 0;
}

/* Whether the device answers for ID3D12Device2, whose CreatePipelineState takes a pipeline state
 * stream (the only way to make a mesh pipeline); 0 when the headers do not declare it. */
static unsigned int has_device2(ID3D12Device *device)
{
#ifdef __ID3D12Device2_INTERFACE_DEFINED__
    ID3D12Device2 *device2;
    if (FAILED(ID3D12Device_QueryInterface(device, &IID_ID3D12Device2, (void **)&device2)))
        return 0;
    ID3D12Device2_Release(device2);
    return 1;
#else
    return 0;
#endif
}

/* What the Vulkan device under vkd3d offers for geometry, stream output and mesh pipelines. */
static void answer_vulkan(ID3D12Device *device)
{
    static const char *const names[] = {"VK_EXT_transform_feedback", "VK_EXT_mesh_shader", "VK_NV_mesh_shader"};
    VkInstance instance = vkd3d_instance_get_vk_instance(vkd3d_instance_from_device(device));
    VkPhysicalDevice physical = vkd3d_get_vk_physical_device(device);
    VkPhysicalDeviceTransformFeedbackPropertiesEXT xfb_properties = {0};
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb_features = {0};
    PFN_vkGetPhysicalDeviceProperties2KHR get_properties2;
    PFN_vkGetPhysicalDeviceFeatures2KHR get_features2;
    VkPhysicalDeviceProperties2 properties2 = {0};
    VkPhysicalDeviceFeatures2 features2 = {0};
    VkExtensionProperties *list;
    uint32_t count = 0, i;
    int xfb;
    char *c;

    if (vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL) != VK_SUCCESS
            || !(list = calloc(count ? count : 1, sizeof(*list)))
            || vkEnumerateDeviceExtensionProperties(physical, NULL, &count, list) != VK_SUCCESS)
    {
        printf("error vulkan extensions\n");
        return;
    }
    xfb = has_extension(list, count, "VK_EXT_transform_feedback");
    get_features2 = (PFN_vkGetPhysicalDeviceFeatures2KHR)vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceFeatures2KHR");
    get_properties2 = (PFN_vkGetPhysicalDeviceProperties2KHR)vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2KHR");
    if (!get_features2 || !get_properties2)
    {
        free(list);
        printf("error vulkan properties2\n");
        return;
    }
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    if (xfb)
    {
        xfb_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
        xfb_properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT;
        features2.pNext = &xfb_features;
        properties2.pNext = &xfb_properties;
    }
    get_features2(physical, &features2);
    get_properties2(physical, &properties2);

    printf("ok");
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (has_extension(list, count, names[i]))
            printf(" %s", names[i]);
    printf(" geometryShader=%u transformFeedback=%u geometryStreams=%u transformFeedbackRasterizationStreamSelect=%u",
            !!features2.features.geometryShader, !!xfb_features.transformFeedback, !!xfb_features.geometryStreams,
            !!xfb_properties.transformFeedbackRasterizationStreamSelect);
    for (c = properties2.properties.deviceName; *c; c++)
        if (*c == ' ')
            *c = '_';
    printf(" ID3D12Device2=%u", has_device2(device));
    printf(" device=%s\n", properties2.properties.deviceName);
    free(list);
}

static void answer_rootsig(ID3D12Device *device)
{
    ID3D12RootSignature *rs;
    size_t size;
    void *bytes = next_bytes("RS", &size);
    HRESULT hr;
    if (bad || !bytes)
    {
        printf("error request %s\n", bad ? bad : "RS");
        free(bytes);
        return;
    }
    hr = ID3D12Device_CreateRootSignature(device, 0, bytes, size, &IID_ID3D12RootSignature, (void **)&rs);
    free(bytes);
    if (FAILED(hr))
    {
        printf("error %#010x\n", (unsigned int)hr);
        return;
    }
    ID3D12RootSignature_Release(rs);
    printf("ok\n");
}

static void answer_pipeline(ID3D12Device *device)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
    D3D12_INPUT_ELEMENT_DESC elements[MAX_ELEMENTS];
    D3D12_SO_DECLARATION_ENTRY so_entries[MAX_SO_ENTRIES];
    UINT so_strides[MAX_SO_STRIDES];
    char *names[MAX_ELEMENTS];
    ID3D12RootSignature *rs = NULL;
    ID3D12PipelineState *state;
    size_t rs_size, vs_size, ps_size, hs_size, ds_size, gs_size;
    void *rs_bytes, *vs_bytes, *ps_bytes, *hs_bytes, *ds_bytes, *gs_bytes;
    unsigned int i, count, so_count = 0, stride_count = 0, rasterized_stream = 0;
    HRESULT hr;

    memset(&desc, 0, sizeof(desc));
    rs_bytes = next_bytes("RS", &rs_size);
    vs_bytes = next_bytes("VS", &vs_size);
    ps_bytes = next_bytes("PS", &ps_size);
    hs_bytes = next_bytes("HS", &hs_size);
    ds_bytes = next_bytes("DS", &ds_size);
    gs_bytes = next_bytes("GS", &gs_size);
    desc.PrimitiveTopologyType = next_u32("TOPOLOGY");
    desc.NumRenderTargets = next_u32("NUM_RT");
    for (i = 0; i < 8; i++)
        desc.RTVFormats[i] = next_u32("RTV");
    desc.DSVFormat = next_u32("DSV");
    desc.SampleDesc.Count = next_u32("SAMPLE_COUNT");
    desc.SampleDesc.Quality = next_u32("SAMPLE_QUALITY");
    count = next_u32("N");
    if (count > MAX_ELEMENTS && !bad)
        bad = "N";
    for (i = 0; i < count && !bad; i++)
    {
        names[i] = next_token();
        if (!names[i])
        {
            bad = "ELEMENT";
            break;
        }
        elements[i].SemanticName = names[i];
        elements[i].SemanticIndex = next_u32("SEMANTIC_INDEX");
        elements[i].Format = next_u32("FORMAT");
        elements[i].InputSlot = next_u32("INPUT_SLOT");
        elements[i].AlignedByteOffset = next_u32("ALIGNED_BYTE_OFFSET");
        elements[i].InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA;
        elements[i].InstanceDataStepRate = 0;
    }
    if (!bad)
        so_count = next_u32("SO_N");
    if (so_count > MAX_SO_ENTRIES && !bad)
        bad = "SO_N";
    for (i = 0; i < so_count && !bad; i++)
    {
        so_entries[i].Stream = next_u32("SO_STREAM");
        so_entries[i].SemanticName = next_token();
        if (!so_entries[i].SemanticName)
        {
            bad = "SO_ENTRY";
            break;
        }
        if (!strcmp(so_entries[i].SemanticName, "-"))
            bad = "SO_GAP";
        so_entries[i].SemanticIndex = next_u32("SO_SEMANTIC_INDEX");
        so_entries[i].StartComponent = (BYTE)next_u32("SO_START_COMPONENT");
        so_entries[i].ComponentCount = (BYTE)next_u32("SO_COMPONENT_COUNT");
        so_entries[i].OutputSlot = (BYTE)next_u32("SO_OUTPUT_SLOT");
    }
    if (!bad)
        stride_count = next_u32("NUM_STRIDES");
    if (stride_count > MAX_SO_STRIDES && !bad)
        bad = "NUM_STRIDES";
    for (i = 0; i < stride_count && !bad; i++)
        so_strides[i] = next_u32("STRIDE");
    if (!bad)
        rasterized_stream = next_u32("RASTERIZED_STREAM");
    if (!bad && next_token())
        bad = "trailing";
    if (bad || !rs_bytes || !vs_bytes)
    {
        printf("error request %s\n", bad ? bad : !rs_bytes ? "RS" : "VS");
        goto done;
    }
    hr = ID3D12Device_CreateRootSignature(device, 0, rs_bytes, rs_size, &IID_ID3D12RootSignature, (void **)&rs);
    if (FAILED(hr))
    {
        printf("error rootsig %#010x\n", (unsigned int)hr);
        goto done;
    }

    desc.pRootSignature = rs;
    desc.VS.pShaderBytecode = vs_bytes;
    desc.VS.BytecodeLength = vs_size;
    desc.PS.pShaderBytecode = ps_bytes;
    desc.PS.BytecodeLength = ps_size;
    desc.HS.pShaderBytecode = hs_bytes;
    desc.HS.BytecodeLength = hs_size;
    desc.DS.pShaderBytecode = ds_bytes;
    desc.DS.BytecodeLength = ds_size;
    desc.GS.pShaderBytecode = gs_bytes;
    desc.GS.BytecodeLength = gs_size;
    desc.StreamOutput.pSODeclaration = so_count ? so_entries : NULL;
    desc.StreamOutput.NumEntries = so_count;
    desc.StreamOutput.pBufferStrides = stride_count ? so_strides : NULL;
    desc.StreamOutput.NumStrides = stride_count;
    desc.StreamOutput.RasterizedStream = rasterized_stream;
    desc.InputLayout.pInputElementDescs = count ? elements : NULL;
    desc.InputLayout.NumElements = count;
    for (i = 0; i < 8; i++)
        desc.BlendState.RenderTarget[i].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    desc.SampleMask = ~0u;
    desc.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    desc.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
    desc.RasterizerState.DepthClipEnable = TRUE;
    desc.DepthStencilState.DepthEnable = desc.DSVFormat != DXGI_FORMAT_UNKNOWN;
    desc.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    desc.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;

    hr = ID3D12Device_CreateGraphicsPipelineState(device, &desc, &IID_ID3D12PipelineState, (void **)&state);
    if (FAILED(hr))
        printf("error %#010x\n", (unsigned int)hr);
    else
    {
        ID3D12PipelineState_Release(state);
        printf("ok\n");
    }

done:
    if (rs)
        ID3D12RootSignature_Release(rs);
    free(rs_bytes);
    free(vs_bytes);
    free(ps_bytes);
    free(hs_bytes);
    free(ds_bytes);
    free(gs_bytes);
}

int main(void)
{
    ID3D12Device *device = NULL;
    size_t cap = 1 << 16, len;
    char *line = malloc(cap);
    HRESULT hr;

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (;;)
    {
        char *verb;
        int c;
        len = 0;
        while ((c = getchar()) != EOF && c != '\n')
        {
            if (len + 1 >= cap)
                line = realloc(line, cap *= 2);
            line[len++] = (char)c;
        }
        if (c == EOF && !len)
            break;
        line[len] = 0;
        cursor = line;
        bad = NULL;
        verb = next_token();
        if (!verb)
        {
            printf("error request empty\n");
            continue;
        }
        if (!strcmp(verb, "version"))
        {
            printf("ok %u\n", (unsigned int)VKD3D_API_VERSION_1_2);
            continue;
        }
        if (!device && FAILED(hr = create_device(&device)))
        {
            printf("error device %#010x\n", (unsigned int)hr);
            device = NULL;
            continue;
        }
        if (!strcmp(verb, "device"))
            printf("ok\n");
        else if (!strcmp(verb, "vulkan"))
            answer_vulkan(device);
        else if (!strcmp(verb, "rootsig"))
            answer_rootsig(device);
        else if (!strcmp(verb, "pipeline"))
            answer_pipeline(device);
        else
            printf("error request verb\n");
    }
    if (device)
        ID3D12Device_Release(device);
    free(line);
    return 0;
}
