/**
 * Whole-pipeline verification (docs/formats/pipeline.md, "Verification"): one row per rule, a
 * tuple of its stable code, whether it fails the pipeline (`error`) or only warns, the public
 * source that fixes the rule, and its message ({placeholders}); pipelineRule reads a row by code.
 * Sources: the D3D12 documentation of CreateGraphicsPipelineState and its structs (`d3d12-docs`),
 * the D3D11/D3D12 runtime's signature-linkage messages (`d3d-runtime`), DXC's signature-linkage
 * rules (`dxc`), vkd3d's d3d12_pipeline_state_init_graphics / _compute (`vkd3d`).
 * src/pipeline/verify.ts checks them.
 */

import { rowsBy } from './enum-table.js';

/** The public source a pipeline rule comes from: the D3D12 documentation, the runtime's messages, DXC, or vkd3d. */
export type PipelineRuleSource = 'd3d12-docs' | 'd3d-runtime' | 'dxc' | 'vkd3d';

/** One rule: [code, severity, source, message]. */
type PipelineRuleRow = readonly [code: string, severity: 'error' | 'warning', source: PipelineRuleSource, message: string];

export const PIPELINE_RULES = [
  // the pipeline's shape
  ['stages-mixed', 'error', 'd3d12-docs', 'a {kind} pipeline has no {stage} shader (D3D12_{desc}_PIPELINE_STATE_DESC has no such stage)'],
  ['vertex-shader-missing', 'error', 'd3d12-docs', 'a graphics pipeline needs a vertex shader (VS)'],
  ['mesh-shader-missing', 'error', 'd3d12-docs', 'a mesh pipeline needs a mesh shader (MS)'],
  ['compute-shader-missing', 'error', 'd3d12-docs', 'a compute pipeline needs a compute shader (CS)'],
  ['shader-stage-mismatch', 'error', 'd3d12-docs', '{key} holds a {actual} shader, not a {expected} shader'],
  ['root-signature-missing', 'error', 'vkd3d', 'Root signature is NULL: give pRootSignature, or shaders that carry one (RTS0)'],
  ['root-signature-differs', 'error', 'd3d12-docs', 'the root signature embedded in {key} differs from the one in {first}; without pRootSignature every embedded root signature must be the same'],
  ['root-signature-local', 'error', 'd3d12-docs', 'a root signature with D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE is for ray-tracing shader records, not a pipeline state'],
  // bindings, per stage (DXC's words, src/binding/verify.ts)
  ['binding', 'error', 'dxc', '{stage}: {message}'],
  // input assembler
  ['input-layout-not-allowed', 'error', 'vkd3d', 'Input layout is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT.'],
  ['input-element-format', 'error', 'vkd3d', 'Invalid input element format {format} (element {index}).'],
  ['input-slot', 'error', 'vkd3d', 'Invalid input slot {slot} (element {index}): D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT is 32.'],
  ['input-element-count', 'error', 'd3d12-docs', '{count} input elements: D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT is 32'],
  ['patch-topology', 'error', 'vkd3d', 'D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH must be used with tessellation shaders.'],
  // stream output
  ['stream-output-not-allowed', 'error', 'vkd3d', 'Stream output is used without D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT.'],
  ['stream-output-entry', 'error', 'd3d12-docs', 'pSODeclaration[{index}]: {problem}'],
  // The declaration as a whole. The runtime's CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_* messages of
  // d3d12sdklayers.h (the D3D11 runtime's, kept for D3D12's stream output) with the rules of the
  // D3D11.3 functional spec (14.1, 14.3: the DDI's D3D10DDIARG_SO_DECLARATION_ENTRY and
  // pBufferStrideInBytes), the D3D11 documentation of CreateGeometryShaderWithStreamOutput
  // (NumStrides 0..D3D11_SO_BUFFER_SLOT_COUNT) and Wine's d3d11 validate_stream_output_entries,
  // whose tests run on Windows (a slot whose entries are all gaps; a stride for every slot used,
  // a multiple of 4).
  ['stream-output-repeated', 'error', 'd3d-runtime', 'pSODeclaration[{index}] streams component(s) {components} of {name}/{semanticIndex} in stream {stream}, which pSODeclaration[{first}] streams already: an output component goes to stream output once per stream (REPEATEDOUTPUT)'],
  ['stream-output-slot-streams', 'error', 'd3d12-docs', 'pSODeclaration[{index}] writes stream {stream} to OutputSlot {slot}, which pSODeclaration[{first}] gives stream {firstStream}: a buffer takes the data of one stream'],
  ['stream-output-only-gaps', 'error', 'd3d-runtime', 'the entries of stream {stream} for OutputSlot {slot} are all gaps (CANTHAVEONLYGAPS)'],
  ['stream-output-size', 'error', 'd3d12-docs', '{what} is {have}, more than {limit}'],
  ['stream-output-num-strides', 'error', 'd3d-runtime', 'NumStrides {count} is more than D3D12_SO_BUFFER_SLOT_COUNT (4) (INVALIDNUMSTRIDES)'],
  ['stream-output-stride', 'error', 'd3d-runtime', 'OutputSlot {slot}: {problem} (INVALIDOUTPUTSTREAMSTRIDE)'],
  // The debug layer's other stream-output IDs (d3d12sdklayers.h of microsoft/DirectX-Headers,
  // D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_*) have no row here, because no public
  // source says what they refuse beyond the name; dxbin neither refuses nor warns for them
  // (docs/formats/pipeline.md, "Stream-output messages without a rule"):
  //   76 OUTPUTSTREAMSTRIDEUNUSED: the name suggests a stride given for a slot no entry writes; Wine's
  //      d3d11 (validate_stream_output_entries, tests run on Windows) checks strides only for slots
  //      in use and accepts the rest; vkd3d-proton (libs/vkd3d/state.c) copies every stride unchecked.
  //   90 DECLTOOCOMPLEX: no public text says what is too complex; the public limits (128 components a
  //      stream, 512 bytes a slot, 4 slots) are rows above (stream-output-size, -entry).
  //   91 MISSINGOUTPUTSIGNATURE: a stage without an output signature; every named entry of such a
  //      stage is already stream-output-signature ('no such output'), a declaration of gaps only is
  //      stream-output-only-gaps.
  //  285 UNEXPECTEDENTRIES / 286 UNEXPECTEDSTRIDES: the names suggest entries or strides where none
  //      belong. Wine's d3d11 refuses a declaration pointer with NumEntries 0 (d3d_geometry_shader_init)
  //      and nothing about strides; the D3D12 docs of D3D12_STREAM_OUTPUT_DESC state neither.
  // A rule added for one of them without a source saying what the runtime refuses should be a
  // warning, never an error: a refusal could turn away a pipeline the runtime creates.
  // D3D11.3 functional spec 14.3: no stream need go to the rasterizer (StreamToRasterizer); 15.2:
  // without it nothing reaches the pixel shader, whose inputs are then linked to nothing
  ['stream-output-not-rasterized', 'warning', 'd3d12-docs', 'RasterizedStream is D3D12_SO_NO_RASTERIZED_STREAM: nothing is rasterized, so the pixel shader never runs (its inputs are not linked)'],
  // the geometry shader's input primitive (dcl_inputprimitive, PSV0 GSInfo.InputPrimitive) against what
  // reaches it: the runtime's CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH; the D3D11.3
  // functional spec 22.3.6 (the primitive from above in the pipeline must be compatible with the one the
  // GS declares) and 8.15 (tessellation makes no adjacency: a tessellated GS takes the tessellator's
  // output primitive, dcl_tessellator_output_primitive / PSV0 HSInfo.TessellatorOutputPrimitive)
  ['gs-input-primitive', 'error', 'd3d-runtime', 'the geometry shader takes {gs} input primitives, but {from} gives {given} (GS_INPUT_PRIMITIVE_MISMATCH)'],
  // output merger
  ['rtv-format-inactive', 'error', 'vkd3d', 'Format must be set to DXGI_FORMAT_UNKNOWN for inactive render targets (RTVFormats[{index}] is {format}, NumRenderTargets {count}).'],
  ['render-target-count', 'error', 'd3d12-docs', 'NumRenderTargets {count} is more than D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT (8)'],
  ['rtv-format', 'error', 'vkd3d', 'Invalid RTV format {format} (RTVFormats[{index}]): not a render-target format.'],
  ['dsv-format', 'error', 'vkd3d', 'Invalid DSV format {format}: not a depth-stencil format.'],
  ['blend-and-logic-op', 'error', 'vkd3d', 'Only one of BlendEnable or LogicOpEnable can be set to TRUE (RenderTarget[{index}]).'],
  ['logic-op-independent-blend', 'error', 'vkd3d', 'IndependentBlendEnable must be FALSE when logic operations are enabled.'],
  ['dual-source-render-targets', 'error', 'vkd3d', 'Only one render target is allowed when dual source blending is used.'],
  ['dual-source-blend-enable', 'error', 'vkd3d', 'Blend enable cannot be set for render target {index} when dual source blending is used.'],
  // rasterizer and samples
  ['sample-count', 'error', 'd3d12-docs', 'SampleDesc.Count {count} is not 1, 2, 4, 8, 16 or 32'],
  ['sample-quality', 'error', 'd3d12-docs', 'SampleDesc.Quality {quality} with Count 1: without multisampling the quality level is 0'],
  ['forced-sample-count', 'error', 'd3d12-docs', 'RasterizerState.ForcedSampleCount {count} is not 0, 1, 4, 8 or 16'],
  // signatures (decoded ISGN/OSGN/ISG1/OSG1/PSG1 elements; src/pipeline/verify.ts verifySignatures)
  ['input-layout-missing-element', 'error', 'd3d-runtime', 'Vertex Shader - Input Assembler linkage error: Signatures between stages are incompatible. The input stage requires Semantic/Index ({name},{semanticIndex}) as input, but it is not provided by the output stage.'],
  ['input-layout-type', 'warning', 'd3d-runtime', 'The provided input signature expects to read an element with SemanticName/Index: \'{name}\'/{semanticIndex} and component(s) of the type \'{type}\'. However, the matching entry in the Input Layout declaration, element[{index}], specifies mismatched format: \'{format}\'.'],
  ['input-layout-components', 'warning', 'd3d-runtime', 'element[{index}] ({name}/{semanticIndex}) has format {format} with {have} component(s), but the vertex shader reads {need}: the missing ones read as (0, 0, 0, 1)'],
  ['linkage-missing', 'error', 'd3d-runtime', '{from} - {to} linkage error: Signatures between stages are incompatible. The input stage requires Semantic/Index ({name},{semanticIndex}) as input, but it is not provided by the output stage.'],
  ['linkage-register', 'error', 'd3d-runtime', '{from} - {to} linkage error: Signatures between stages are incompatible. Semantic \'{name}\' is defined for mismatched hardware registers between the output stage (o{out}) and input stage (v{in}).'],
  ['linkage-mask', 'error', 'd3d-runtime', '{from} - {to} linkage error: Signatures between stages are incompatible. Semantic \'{name}\' of the input stage has a hardware register component mask that is not a subset of the output of the previous stage.'],
  ['linkage-system-value', 'error', 'dxc', '{from} - {to} linkage error: Semantic \'{name}\' is the system value {out} in the output stage and {in} in the input stage.'],
  ['linkage-type', 'error', 'dxc', '{from} - {to} linkage error: Semantic \'{name}\' is {out} in the output stage and {in} in the input stage.'],
  // tessellation: hull shader -> domain shader (the runtime's CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH,
  // _HS_DS_CONTROL_POINT_COUNT_MISMATCH, _HS_DS_TESSELLATOR_DOMAIN_MISMATCH and
  // _SHADER_LINKAGE_HS_DS_SIGNATURE_MISMATCH of d3d12sdklayers.h; tessellation factors: DXC's
  // SmTessFactorForDomain / SmInsideTessFactorForDomain validation rules)
  ['hs-ds-pair', 'error', 'd3d-runtime', 'a pipeline with a {have} needs a {missing} as well: tessellation takes both stages'],
  ['hs-ds-control-points', 'error', 'd3d-runtime', 'Hull Shader - Domain Shader linkage error: the hull shader outputs {hs} control point(s) per patch, the domain shader takes {ds}'],
  ['hs-ds-domain', 'error', 'd3d-runtime', 'Hull Shader - Domain Shader linkage error: the hull shader tessellates the {hs} domain, the domain shader is written for the {ds} domain'],
  ['tess-factors', 'error', 'dxc', '{stage}: the {domain} domain takes {needEdge} SV_TessFactor and {needInside} SV_InsideTessFactor value(s) in the patch-constant signature; it declares {edge} and {inside}{other}'],
  ['patch-constant-missing', 'error', 'd3d-runtime', 'Hull Shader - Domain Shader linkage error: the domain shader reads the patch constant ({name},{semanticIndex}), which the hull shader\'s patch-constant signature does not provide'],
  ['patch-constant-register', 'error', 'd3d-runtime', 'Hull Shader - Domain Shader linkage error: patch constant \'{name}\' is in register {out} of the hull shader\'s patch-constant signature and register {in} of the domain shader\'s'],
  ['patch-constant-mask', 'error', 'd3d-runtime', 'Hull Shader - Domain Shader linkage error: the domain shader reads components of patch constant \'{name}\' that the hull shader\'s patch-constant signature does not declare'],
  ['patch-constant-system-value', 'error', 'd3d-runtime', 'Hull Shader - Domain Shader linkage error: patch constant \'{name}\' is the system value {out} in the hull shader and {in} in the domain shader'],
  ['patch-constant-type', 'error', 'dxc', 'Hull Shader - Domain Shader linkage error: patch constant \'{name}\' is {out} in the hull shader and {in} in the domain shader'],
  // amplification shader -> mesh shader (CREATEMESHSHADER_MISMATCHEDASMSPAYLOADSIZE; PSV0 runtime info's PayloadSizeInBytes)
  ['payload-size', 'error', 'd3d-runtime', 'the amplification shader\'s payload is {as} bytes, the mesh shader\'s {ms}: the mesh shader must take the payload the amplification shader dispatches'],
  ['ps-target-unbound', 'warning', 'd3d12-docs', 'the pixel shader writes SV_Target{index}, but render target {index} is {why}: the output is discarded'],
  ['ps-target-type', 'error', 'd3d12-docs', 'the pixel shader writes SV_Target{index} as {type}, but RTVFormats[{index}] is {format} ({formatType})'],
  ['depth-output-dsv', 'warning', 'd3d12-docs', 'the pixel shader writes {name}, but DSVFormat is UNKNOWN: the depth output is discarded'],
  ['stencil-output-dsv', 'error', 'd3d12-docs', 'the pixel shader writes SV_StencilRef, but DSVFormat {format} has no stencil'],
  ['stream-output-signature', 'error', 'd3d12-docs', 'pSODeclaration[{index}] ({name}/{semanticIndex}, stream {stream}): {problem} in the {stage} output signature'],
] as const satisfies readonly PipelineRuleRow[];

export type PipelineRuleCode = (typeof PIPELINE_RULES)[number][0];

/** A rule of PIPELINE_RULES, its columns by name. */
export interface PipelineRule {
  readonly code: PipelineRuleCode;
  readonly severity: 'error' | 'warning';
  readonly source: PipelineRuleSource;
  readonly message: string;
}

/** The row of a rule code, or undefined for a code that is none. */
const ruleByCode = /* @__PURE__ */ rowsBy(PIPELINE_RULES, 0);
export function pipelineRule(code: string): PipelineRule | undefined {
  const row = ruleByCode(code);
  return row && { code: row[0], severity: row[1], source: row[2], message: row[3] };
}

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
export const PIPELINE_LIMITS = { inputSlots: 32, inputElements: 32, soBuffers: 4, soStreams: 4, noRasterizedStream: 0xffffffff, soStreamComponents: 128, soBufferWindow: 512, soMaxStride: 2048 } as const;

/**
 * Geometry-shader input primitives (D3D10_SB_PRIMITIVE, DXIL::InputPrimitive alike; the
 * dcl_inputprimitive names): [value, name, the D3D12_PRIMITIVE_TOPOLOGY_TYPE that feeds it
 * without tessellation (1 point, 2 line, 3 triangle, 4 patch)]. Adjacency comes with the LINE and
 * TRIANGLE types (their _ADJ topologies); patch1..32 (8..39) take PATCH.
 */
export const GS_INPUT_PRIMITIVES: readonly (readonly [value: number, name: string, topologyType: number])[] = [
  [1, 'point', 1], [2, 'line', 2], [3, 'triangle', 3], [6, 'line_adj', 2], [7, 'triangle_adj', 3],
  ...Array.from({ length: 32 }, (_, i) => [8 + i, `patch${i + 1}`, 4] as const),
];
/**
 * Tessellator output primitives (D3D11_SB_TESSELLATOR_OUTPUT_PRIMITIVE, DXIL::TessellatorOutputPrimitive):
 * [value, name, the GS input primitive it makes]. Tessellation makes no adjacency (D3D11.3 functional spec 8.15).
 */
export const TESSELLATOR_OUTPUT_PRIMITIVES: readonly (readonly [value: number, name: string, gsInput: number])[] = [
  [1, 'point', 1], [2, 'line', 2], [3, 'triangle_cw', 3], [4, 'triangle_ccw', 3],
];
