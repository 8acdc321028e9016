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
 *     pipeline RS VS PS HS DS TOPOLOGY NUM_RT RTV0..RTV7 DSV SAMPLE_COUNT SAMPLE_QUALITY N ELEMENT...
 *                             -> ok | error HRESULT     (CreateRootSignature, then CreateGraphicsPipelineState)
 *         RS, VS, PS, HS, DS: the bytes in hex (PS, HS, DS may be "-": no such shader); RS is a DXBC container
 *         holding an RTS0 part (a root signature blob, or a shader that embeds one)
 *         TOPOLOGY: D3D12_PRIMITIVE_TOPOLOGY_TYPE; RTV*, DSV: DXGI_FORMAT numbers
 *         ELEMENT: SEMANTIC_NAME SEMANTIC_INDEX FORMAT INPUT_SLOT ALIGNED_BYTE_OFFSET (per-vertex data)
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
    char *names[MAX_ELEMENTS];
    ID3D12RootSignature *rs = NULL;
    ID3D12PipelineState *state;
    size_t rs_size, vs_size, ps_size, hs_size, ds_size;
    void *rs_bytes, *vs_bytes, *ps_bytes, *hs_bytes, *ds_bytes;
    unsigned int i, count;
    HRESULT hr;

    memset(&desc, 0, sizeof(desc));
    rs_bytes = next_bytes("RS", &rs_size);
    vs_bytes = next_bytes("VS", &vs_size);
    ps_bytes = next_bytes("PS", &ps_size);
    hs_bytes = next_bytes("HS", &hs_size);
    ds_bytes = next_bytes("DS", &ds_size);
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
