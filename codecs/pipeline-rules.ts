/**
 * Whole-pipeline verification (docs/formats/pipeline.md, "Verification"): one row per rule, its
 * stable code, its message ({placeholders}), whether it fails the pipeline (`error`) or only warns,
 * and the public source that fixes the rule: the D3D12 documentation of
 * CreateGraphicsPipelineState and its structs (`d3d12-docs`), the D3D11/D3D12 runtime's
 * signature-linkage messages (`d3d-runtime`), DXC's signature-linkage rules (`dxc`), vkd3d's
 * d3d12_pipeline_state_init_graphics / _compute (`vkd3d`). src/pipeline/verify.ts checks them.
 */

export type PipelineRuleSource = 'd3d12-docs' | 'd3d-runtime' | 'dxc' | 'vkd3d';

export const PIPELINE_RULES = [
  // the pipeline's shape
  { code: 'stages-mixed', severity: 'error', source: 'd3d12-docs', message: 'a {kind} pipeline has no {stage} shader (D3D12_{desc}_PIPELINE_STATE_DESC has no such stage)' },
  { code: 'vertex-shader-missing', severity: 'error', source: 'd3d12-docs', message: 'a graphics pipeline needs a vertex shader (VS)' },
  { code: 'mesh-shader-missing', severity: 'error', source: 'd3d12-docs', message: 'a mesh pipeline needs a mesh shader (MS)' },
  { code: 'compute-shader-missing', severity: 'error', source: 'd3d12-docs', message: 'a compute pipeline needs a compute shader (CS)' },
  { code: 'shader-stage-mismatch', severity: 'error', source: 'd3d12-docs', message: '{key} holds a {actual} shader, not a {expected} shader' },
  { code: 'root-signature-missing', severity: 'error', source: 'vkd3d', message: 'Root signature is NULL: give pRootSignature, or shaders that carry one (RTS0)' },
  { code: 'root-signature-differs', severity: 'error', source: 'd3d12-docs', message: 'the root signature embedded in {key} differs from the one in {first}; without pRootSignature every embedded root signature must be the same' },
  { code: 'root-signature-local', severity: 'error', source: 'd3d12-docs', message: 'a root signature with D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE is for ray-tracing shader records, not a pipeline state' },
  // bindings, per stage (DXC's words, src/binding/verify.ts)
  { code: 'binding', severity: 'error', source: 'dxc', message: '{stage}: {message}' },
  // input assembler
  { code: 'input-layout-not-allowed', severity: 'error', source: 'vkd3d', message: 'Input layout is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT.' },
  { code: 'input-element-format', severity: 'error', source: 'vkd3d', message: 'Invalid input element format {format} (element {index}).' },
  { code: 'input-slot', severity: 'error', source: 'vkd3d', message: 'Invalid input slot {slot} (element {index}): D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT is 32.' },
  { code: 'input-element-count', severity: 'error', source: 'd3d12-docs', message: '{count} input elements: D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT is 32' },
  { code: 'patch-topology', severity: 'error', source: 'vkd3d', message: 'D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH must be used with tessellation shaders.' },
  // stream output
  { code: 'stream-output-not-allowed', severity: 'error', source: 'vkd3d', message: 'Stream output is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT.' },
  { code: 'stream-output-entry', severity: 'error', source: 'd3d12-docs', message: 'pSODeclaration[{index}]: {problem}' },
  // output merger
  { code: 'rtv-format-inactive', severity: 'error', source: 'vkd3d', message: 'Format must be set to DXGI_FORMAT_UNKNOWN for inactive render targets (RTVFormats[{index}] is {format}, NumRenderTargets {count}).' },
  { code: 'render-target-count', severity: 'error', source: 'd3d12-docs', message: 'NumRenderTargets {count} is more than D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT (8)' },
  { code: 'rtv-format', severity: 'error', source: 'vkd3d', message: 'Invalid RTV format {format} (RTVFormats[{index}]): not a render-target format.' },
  { code: 'dsv-format', severity: 'error', source: 'vkd3d', message: 'Invalid DSV format {format}: not a depth-stencil format.' },
  { code: 'blend-and-logic-op', severity: 'error', source: 'vkd3d', message: 'Only one of BlendEnable or LogicOpEnable can be set to TRUE (RenderTarget[{index}]).' },
  { code: 'logic-op-independent-blend', severity: 'error', source: 'vkd3d', message: 'IndependentBlendEnable must be FALSE when logic operations are enabled.' },
  { code: 'dual-source-render-targets', severity: 'error', source: 'vkd3d', message: 'Only one render target is allowed when dual source blending is used.' },
  { code: 'dual-source-blend-enable', severity: 'error', source: 'vkd3d', message: 'Blend enable cannot be set for render target {index} when dual source blending is used.' },
  // rasterizer and samples
  { code: 'sample-count', severity: 'error', source: 'd3d12-docs', message: 'SampleDesc.Count {count} is not 1, 2, 4, 8, 16 or 32' },
  { code: 'sample-quality', severity: 'error', source: 'd3d12-docs', message: 'SampleDesc.Quality {quality} with Count 1: without multisampling the quality level is 0' },
  { code: 'forced-sample-count', severity: 'error', source: 'd3d12-docs', message: 'RasterizerState.ForcedSampleCount {count} is not 0, 1, 4, 8 or 16' },
  // signatures (decoded ISGN/OSGN/ISG1/OSG1/PSG1 elements; src/pipeline/verify.ts verifySignatures)
  { code: 'input-layout-missing-element', severity: 'error', source: 'd3d-runtime', message: 'Vertex Shader - Input Assembler linkage error: Signatures between stages are incompatible. The input stage requires Semantic/Index ({name},{semanticIndex}) as input, but it is not provided by the output stage.' },
  { code: 'input-layout-type', severity: 'warning', source: 'd3d-runtime', message: 'The provided input signature expects to read an element with SemanticName/Index: \'{name}\'/{semanticIndex} and component(s) of the type \'{type}\'. However, the matching entry in the Input Layout declaration, element[{index}], specifies mismatched format: \'{format}\'.' },
  { code: 'input-layout-components', severity: 'warning', source: 'd3d-runtime', message: 'element[{index}] ({name}/{semanticIndex}) has format {format} with {have} component(s), but the vertex shader reads {need}: the missing ones read as (0, 0, 0, 1)' },
  { code: 'linkage-missing', severity: 'error', source: 'd3d-runtime', message: '{from} - {to} linkage error: Signatures between stages are incompatible. The input stage requires Semantic/Index ({name},{semanticIndex}) as input, but it is not provided by the output stage.' },
  { code: 'linkage-register', severity: 'error', source: 'd3d-runtime', message: '{from} - {to} linkage error: Signatures between stages are incompatible. Semantic \'{name}\' is defined for mismatched hardware registers between the output stage (o{out}) and input stage (v{in}).' },
  { code: 'linkage-mask', severity: 'error', source: 'd3d-runtime', message: '{from} - {to} linkage error: Signatures between stages are incompatible. Semantic \'{name}\' of the input stage has a hardware register component mask that is not a subset of the output of the previous stage.' },
  { code: 'linkage-system-value', severity: 'error', source: 'dxc', message: '{from} - {to} linkage error: Semantic \'{name}\' is the system value {out} in the output stage and {in} in the input stage.' },
  { code: 'linkage-type', severity: 'error', source: 'dxc', message: '{from} - {to} linkage error: Semantic \'{name}\' is {out} in the output stage and {in} in the input stage.' },
  // tessellation: hull shader -> domain shader (the runtime's CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH,
  // _HS_DS_CONTROL_POINT_COUNT_MISMATCH, _HS_DS_TESSELLATOR_DOMAIN_MISMATCH and
  // _SHADER_LINKAGE_HS_DS_SIGNATURE_MISMATCH of d3d12sdklayers.h; tessellation factors: DXC's
  // SmTessFactorForDomain / SmInsideTessFactorForDomain validation rules)
  { code: 'hs-ds-pair', severity: 'error', source: 'd3d-runtime', message: 'a pipeline with a {have} needs a {missing} as well: tessellation takes both stages' },
  { code: 'hs-ds-control-points', severity: 'error', source: 'd3d-runtime', message: 'Hull Shader - Domain Shader linkage error: the hull shader outputs {hs} control point(s) per patch, the domain shader takes {ds}' },
  { code: 'hs-ds-domain', severity: 'error', source: 'd3d-runtime', message: 'Hull Shader - Domain Shader linkage error: the hull shader tessellates the {hs} domain, the domain shader is written for the {ds} domain' },
  { code: 'tess-factors', severity: 'error', source: 'dxc', message: '{stage}: the {domain} domain takes {needEdge} SV_TessFactor and {needInside} SV_InsideTessFactor value(s) in the patch-constant signature; it declares {edge} and {inside}{other}' },
  { code: 'patch-constant-missing', severity: 'error', source: 'd3d-runtime', message: 'Hull Shader - Domain Shader linkage error: the domain shader reads the patch constant ({name},{semanticIndex}), which the hull shader\'s patch-constant signature does not provide' },
  { code: 'patch-constant-register', severity: 'error', source: 'd3d-runtime', message: 'Hull Shader - Domain Shader linkage error: patch constant \'{name}\' is in register {out} of the hull shader\'s patch-constant signature and register {in} of the domain shader\'s' },
  { code: 'patch-constant-mask', severity: 'error', source: 'd3d-runtime', message: 'Hull Shader - Domain Shader linkage error: the domain shader reads components of patch constant \'{name}\' that the hull shader\'s patch-constant signature does not declare' },
  { code: 'patch-constant-system-value', severity: 'error', source: 'd3d-runtime', message: 'Hull Shader - Domain Shader linkage error: patch constant \'{name}\' is the system value {out} in the hull shader and {in} in the domain shader' },
  { code: 'patch-constant-type', severity: 'error', source: 'dxc', message: 'Hull Shader - Domain Shader linkage error: patch constant \'{name}\' is {out} in the hull shader and {in} in the domain shader' },
  // amplification shader -> mesh shader (CREATEMESHSHADER_MISMATCHEDASMSPAYLOADSIZE; PSV0 runtime info's PayloadSizeInBytes)
  { code: 'payload-size', severity: 'error', source: 'd3d-runtime', message: 'the amplification shader\'s payload is {as} bytes, the mesh shader\'s {ms}: the mesh shader must take the payload the amplification shader dispatches' },
  { code: 'ps-target-unbound', severity: 'warning', source: 'd3d12-docs', message: 'the pixel shader writes SV_Target{index}, but render target {index} is {why}: the output is discarded' },
  { code: 'ps-target-type', severity: 'error', source: 'd3d12-docs', message: 'the pixel shader writes SV_Target{index} as {type}, but RTVFormats[{index}] is {format} ({formatType})' },
  { code: 'depth-output-dsv', severity: 'warning', source: 'd3d12-docs', message: 'the pixel shader writes {name}, but DSVFormat is UNKNOWN: the depth output is discarded' },
  { code: 'stencil-output-dsv', severity: 'error', source: 'd3d12-docs', message: 'the pixel shader writes SV_StencilRef, but DSVFormat {format} has no stencil' },
  { code: 'stream-output-signature', severity: 'error', source: 'd3d12-docs', message: 'pSODeclaration[{index}] ({name}/{semanticIndex}, stream {stream}): {problem} in the {stage} output signature' },
] as const satisfies readonly { readonly code: string; readonly severity: 'error' | 'warning'; readonly source: PipelineRuleSource; readonly message: string }[];

export type PipelineRuleCode = (typeof PIPELINE_RULES)[number]['code'];

/**
 * System values (D3D_NAME, codecs/parts.ts SIGNATURE_SYSTEM_VALUE) the pipeline makes for an
 * input (not linked to the previous stage's outputs).
 */
export const SYSTEM_GENERATED: ReadonlySet<number> = new Set([6, 7, 8, 9, 10, 23, 24, 66, 70]);

/**
 * Tessellation factors by tessellator domain (1 isoline, 2 tri, 3 quad; D3D_TESSELLATOR_DOMAIN and
 * PSV0/DXIL alike): the D3D_NAME of the edge factors (SV_TessFactor) and of the inside factors
 * (SV_InsideTessFactor) and how many of each the domain takes. An isoline's two SV_TessFactor
 * values are the detail (D3D_NAME 15) and density (16) factors; it has no inside factor.
 */
export const TESS_FACTORS: Readonly<Record<number, { readonly name: string; readonly edge: readonly number[]; readonly inside: readonly number[]; readonly edges: number; readonly insides: number }>> = {
  1: { name: 'isoline', edge: [15, 16], inside: [], edges: 2, insides: 0 },
  2: { name: 'tri', edge: [13], inside: [14], edges: 3, insides: 1 },
  3: { name: 'quad', edge: [11], inside: [12], edges: 4, insides: 2 },
};
/** Every tessellation-factor D3D_NAME (FINAL_QUAD_EDGE_TESSFACTOR 11 .. FINAL_LINE_DENSITY_TESSFACTOR 16). */
export const TESS_FACTOR_NAMES: ReadonlySet<number> = new Set([11, 12, 13, 14, 15, 16]);

/** Pipeline limits (d3d12.h). */
export const PIPELINE_LIMITS = { inputSlots: 32, inputElements: 32, soBuffers: 4, soStreams: 4, noRasterizedStream: 0xffffffff } as const;
