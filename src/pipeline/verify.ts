/**
 * Does the pipeline work? CreateGraphicsPipelineState's checks offline (docs/formats/pipeline.md,
 * "Verification"; one row per rule in codecs/pipeline-rules.ts with the source that fixes it):
 * the pipeline's stages, its root signature against every stage's bindings (DXC's verifier per
 * stage, src/binding/verify.ts: visibility and the DENY flags of the stages present), the input
 * assembler, stream output and output merger state, the sample description; and, given decoded
 * signatures (`options.signatures`, the one plug-in point), the input layout against the vertex
 * shader's inputs, each stage's outputs against the next stage's inputs, the pixel shader's
 * targets and depth against RTVFormats and DSVFormat, and stream output against the last stage
 * before the rasterizer.
 */
import { GS_INPUT_PRIMITIVES, PIPELINE_LIMITS, pipelineRule, SYSTEM_GENERATED, TESS_FACTORS, TESS_FACTOR_NAMES, TESSELLATOR_OUTPUT_PRIMITIVES, type PipelineRuleCode, type PipelineRuleSource } from '../../codecs/pipeline-rules.js';
import { DXGI_FORMAT, PRIMITIVE_TOPOLOGY_TYPE, SIMULTANEOUS_RENDER_TARGET_COUNT } from '../../codecs/pipeline.js';
import { SIGNATURE_COMPONENT_TYPE, SIGNATURE_SYSTEM_VALUE } from '../../codecs/parts.js';
import { LOCAL_ROOT_SIGNATURE_FLAG } from '../../codecs/binding-rules.js';
import { flag, rowsBy } from '../../codecs/enum-table.js';
import { ROOT_SIGNATURE_FLAGS } from '../../codecs/root-signature.js';
import { DescriptionError, fillMessage } from '../bytes/errors.js';
import { pathKey, quoted } from '../bytes/text.js';
import { expectArray, expectFunction, expectNumber, expectObject, expectObjects, expectOptionKeys, expectOptions } from '../bytes/check.js';
import type { DdiObject } from '../ddi/image.js';
import { enumName } from '../json/vocabulary.js';
import { containerRootSignature, readRootSignatureSource } from '../root-signature/input.js';
import type { RootSignature } from '../root-signature/types.js';
import { readShader, type ShaderBinding, type ShaderInfo } from '../shader/shader.js';
import { NO_PSV0_REASON, verifyBindings, type VerifyResult } from '../binding/verify.js';
import { checkedSubobjects, type Subobject } from './stream.js';
import { readOnce } from '../bytes/once.js';
import { pipelineValue, type Pipeline, type PipelineKind } from './desc.js';
import { formatInfo } from './formats.js';
import { decodePart } from '../parts/part.js';
import { SIGNATURE_PART_ROLE, stageSignaturesFromParts } from './signatures.js';

/** A shader stage key of the pipeline form. */
export type StageKey = 'VS' | 'HS' | 'DS' | 'GS' | 'PS' | 'AS' | 'MS' | 'CS';
/** DXIL::ShaderKind of each stage key. */
export const STAGE_KIND: Readonly<Record<StageKey, number>> = { PS: 0, VS: 1, GS: 2, HS: 3, DS: 4, CS: 5, MS: 13, AS: 14 };
const STAGE_WORD: Readonly<Record<StageKey, string>> = { VS: 'Vertex Shader', HS: 'Hull Shader', DS: 'Domain Shader', GS: 'Geometry Shader', PS: 'Pixel Shader', AS: 'Amplification Shader', MS: 'Mesh Shader', CS: 'Compute Shader' };
const KIND_STAGES: Readonly<Record<PipelineKind, readonly StageKey[]>> = { graphics: ['VS', 'HS', 'DS', 'GS', 'PS'], mesh: ['AS', 'MS', 'PS'], compute: ['CS'] };
const ALL_STAGES: readonly StageKey[] = ['VS', 'HS', 'DS', 'GS', 'PS', 'AS', 'MS', 'CS'];

/** The pipeline's kind (graphics when absent), one of KIND_STAGES' own keys: `toString` or a made-up kind is refused, not looked up. */
function pipelineKindOf(pipeline: Pipeline): PipelineKind {
  const kind: unknown = pipeline.kind ?? 'graphics';
  if (typeof kind === 'string' && Object.hasOwn(KIND_STAGES, kind)) return kind as PipelineKind;
  throw new DescriptionError('bad-name', 'pipeline.kind', `${quoted(kind)} is no pipeline kind (known: ${Object.keys(KIND_STAGES).join(', ')})`);
}

/**
 * One decoded signature element (an ISGN/OSGN/ISG1/OSG1/PSG1 entry). `systemValue` is a D3D_NAME,
 * `componentType` a D3D_REGISTER_COMPONENT_TYPE, `mask` the components declared, `readWriteMask`
 * those read (inputs) or never written (outputs), `stream` the geometry-shader stream (0 otherwise).
 */
export interface SignatureElement {
  semanticName: string;
  semanticIndex: number;
  systemValue: number;
  componentType: number;
  register: number;
  mask: number;
  readWriteMask: number;
  stream: number;
}

/**
 * What a stage shows the next one: its input and output signatures, a mesh shader's primitive
 * outputs, a hull or domain shader's patch-constant signature (PCSG/PSG1), and the runtime facts
 * the linkage rules compare, under PSV0's runtime-info names (DXIL: PSV0; DXBC: the tessellation
 * declarations): control point counts, tessellator domain (1 isoline, 2 tri, 3 quad), the
 * amplification and mesh shaders' payload size.
 */
export interface StageSignatures {
  inputs: readonly SignatureElement[];
  outputs: readonly SignatureElement[];
  primitiveOutputs?: readonly SignatureElement[];
  patchConstants?: readonly SignatureElement[];
  stageInfo?: StageInfo;
}

/**
 * Runtime facts of a stage the linkage rules compare (PSV0 runtime-info names): a hull shader's
 * tessellator output primitive (1 point, 2 line, 3 triangle_cw, 4 triangle_ccw) and a geometry
 * shader's input primitive (1 point, 2 line, 3 triangle, 6 line_adj, 7 triangle_adj, 8..39
 * patch1..32) among them.
 */
export interface StageInfo {
  inputControlPointCount?: number;
  outputControlPointCount?: number;
  tessellatorDomain?: number;
  payloadSizeInBytes?: number;
  tessellatorOutputPrimitive?: number;
  inputPrimitive?: number;
}
const STAGE_INFO_KEYS = ['inputControlPointCount', 'outputControlPointCount', 'tessellatorDomain', 'payloadSizeInBytes', 'tessellatorOutputPrimitive', 'inputPrimitive'] as const;

/** A rule the pipeline breaks (`severity: 'warning'`: reported, but the pipeline still fits). */
export interface PipelineViolation {
  code: PipelineRuleCode;
  severity: 'error' | 'warning';
  message: string;
  /** The public source that fixes the rule. */
  source: PipelineRuleSource;
  /** The pipeline JSON key or field concerned (`InputLayout[1]`, `PS`, `BlendState.RenderTarget[0]`). */
  path?: string;
  /** The stage concerned. */
  stage?: StageKey;
  /** For a binding violation: the binding and DXC's code. */
  binding?: ShaderBinding;
  bindingCode?: string;
}

/** A stage's place in the answer. */
export interface PipelineStageReport {
  key: StageKey;
  /** DXIL::ShaderKind of the shader given. */
  stage: number;
  format: 'dxil' | 'dxbc';
  /** The bindings' verdict against the root signature. */
  bindings: VerifyResult['verdict'];
  reason?: string;
}

/** The outcome of verifyPipeline. */
export interface PipelineVerifyResult {
  /** `fits` when no rule of severity error is broken. */
  verdict: 'fits' | 'does-not-fit';
  kind: PipelineKind;
  /** Where the root signature came from: `pRootSignature`, a stage key (embedded RTS0), or none. */
  rootSignature?: string;
  stages: PipelineStageReport[];
  violations: PipelineViolation[];
  /** Whether the signature rules ran (they need decoded signatures). */
  signatures: 'checked' | 'not-checked';
}

/** Options of verifyPipeline. */
export interface VerifyPipelineOptions {
  /**
   * The decoded signatures of a stage's shader, or undefined when they are not known (then the
   * signature rules do not run: `signatures: 'not-checked'`). By default, the container's own
   * signature parts, decoded by their rows (codecs/parts.ts).
   */
  signatures?: (shader: ShaderInfo, key: StageKey) => StageSignatures | undefined;
}

/** Collects violations in rule words. */
class Report {
  readonly list: PipelineViolation[] = [];
  add(code: PipelineRuleCode, values: Record<string, string | number>, extra: Partial<PipelineViolation> = {}): void {
    const row = pipelineRule(code)!;
    this.list.push({ code, severity: row.severity, message: fillMessage(row.message, values), source: row.source, ...extra });
  }
}

const formatName = (v: number): string => String(enumName(DXGI_FORMAT, v));
const IA_FLAG = flag(ROOT_SIGNATURE_FLAGS, 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT');
const SO_FLAG = flag(ROOT_SIGNATURE_FLAGS, 'ALLOW_STREAM_OUTPUT');
const DUAL_SOURCE = new Set([16, 17, 18, 19]); // D3D12_BLEND_SRC1_COLOR, INV_SRC1_COLOR, SRC1_ALPHA, INV_SRC1_ALPHA

function bytesOf(pipeline: Pipeline, type: string, field: string): Uint8Array | undefined {
  const s = pipeline.subobjects.find((x) => x.type === type);
  const v = s ? (s.inner as DdiObject)[field] : undefined;
  return v instanceof Uint8Array && v.byteLength > 0 ? v : undefined;
}

/**
 * Verifies a pipeline read by pipelineFromJson (or from a decoded stream).
 * @throws {DecodeError} a shader or root signature file that is not one
 * @throws {DescriptionError} bad-name (path `pipeline.kind`) for a kind that is not graphics, mesh or compute
 */
export function verifyPipeline(pipeline: Pipeline, options: VerifyPipelineOptions = {}): PipelineVerifyResult {
  expectObject(pipeline, 'pipeline');
  // read once (src/bytes/once.ts): the checks and the rules see one pipeline
  pipeline = readOnce(pipeline, 1);
  pipeline = { ...pipeline, subobjects: checkedSubobjects(pipeline.subobjects, 'pipeline.subobjects') as Subobject[] };
  expectOptionKeys(options, ['signatures']);
  if (options?.signatures !== undefined) expectFunction(options.signatures, 'options.signatures');
  const kind = pipelineKindOf(pipeline);
  const r = new Report();
  const stages: PipelineStageReport[] = [];
  const infos = new Map<StageKey, ShaderInfo>();

  // the stages: present ones decoded; ones the kind has not, or a shader of another stage, refused
  for (const key of ALL_STAGES) {
    const bytes = bytesOf(pipeline, key, 'pShaderBytecode');
    if (!bytes) continue;
    const info = readShader(bytes);
    infos.set(key, info);
    if (!KIND_STAGES[kind].includes(key)) r.add('stages-mixed', { kind, stage: key, desc: kind.toUpperCase() }, { path: key, stage: key });
    if (info.stage !== STAGE_KIND[key]) r.add('shader-stage-mismatch', { key, actual: stageWord(info.stage), expected: stageWord(STAGE_KIND[key]) }, { path: key, stage: key });
  }
  if (kind === 'graphics' && !infos.has('VS')) r.add('vertex-shader-missing', {}, { path: 'VS' });
  if (kind === 'mesh' && !infos.has('MS')) r.add('mesh-shader-missing', {}, { path: 'MS' });
  if (kind === 'compute' && !infos.has('CS')) r.add('compute-shader-missing', {}, { path: 'CS' });

  // the root signature: pRootSignature, else the one the shaders carry
  let rs: RootSignature | undefined;
  let rsFrom: string | undefined;
  const given = bytesOf(pipeline, 'SERIALIZED_ROOT_SIGNATURE', 'pSerializedBlob');
  if (given) {
    rs = readRootSignatureSource(given).rootSignature;
    rsFrom = 'pRootSignature';
  } else {
    let firstPart: Uint8Array | undefined;
    for (const [key, info] of infos) {
      const embedded = containerRootSignature(info.container);
      if (!embedded) continue;
      if (!rs) {
        rs = embedded.rootSignature;
        rsFrom = key;
        firstPart = embedded.part;
      } else if (!sameBytes(firstPart!, embedded.part)) r.add('root-signature-differs', { key, first: rsFrom! }, { path: key, stage: key });
    }
    if (!rs) r.add('root-signature-missing', {}, { path: 'pRootSignature' });
  }
  if (rs && rs.flags & LOCAL_ROOT_SIGNATURE_FLAG) r.add('root-signature-local', {}, { path: rsFrom });

  // bindings per stage (DXC's verifier; the DENY flag of each stage present)
  for (const [key, info] of infos) {
    if (!rs || !info.bindings) {
      stages.push({ key, stage: info.stage, format: info.format, bindings: 'not-verifiable', reason: !rs ? 'no root signature' : NO_PSV0_REASON });
      continue;
    }
    const v = verifyBindings(info.stage, info.bindings, rs);
    stages.push({ key, stage: info.stage, format: info.format, bindings: v.verdict, ...(v.reason ? { reason: v.reason } : {}) });
    for (const b of v.violations) r.add('binding', { stage: STAGE_WORD[key], message: b.message }, { stage: key, path: b.path ? `${key} ${b.path}` : key, bindingCode: b.code, ...(b.binding ? { binding: b.binding } : {}) });
  }

  if (kind !== 'compute') graphicsState(pipeline, rs, infos, r);

  // signatures, through the one plug-in point
  let signatures: PipelineVerifyResult['signatures'] = 'not-checked';
  const signaturesOf = options?.signatures ?? containerSignatures;
  if (infos.size > 0) {
    const sig: Partial<Record<StageKey, StageSignatures>> = {};
    let all = true;
    for (const [key, info] of infos) {
      const s = signaturesOf(info, key);
      if (s) sig[key] = s;
      else all = false;
    }
    for (const v of verifySignatures(pipeline, sig)) r.list.push(v);
    if (all) signatures = 'checked';
  }
  const failed = r.list.some((v) => v.severity === 'error');
  return { verdict: failed ? 'does-not-fit' : 'fits', kind, ...(rsFrom ? { rootSignature: rsFrom } : {}), stages, violations: r.list, signatures };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function stageWord(kind: number): string {
  const hit = ALL_STAGES.find((k) => STAGE_KIND[k] === kind);
  return hit ? STAGE_WORD[hit].replace(/ Shader$/, '').toLowerCase() : `kind-${kind}`;
}

/** The input assembler, stream output, output merger, rasterizer and sample state. */
function graphicsState(pipeline: Pipeline, rs: RootSignature | undefined, infos: ReadonlyMap<StageKey, ShaderInfo>, r: Report): void {
  const il = pipelineValue(pipeline, 'INPUT_LAYOUT') as { NumElements: number; pInputElementDescs: DdiObject[] | null };
  const elements = il.pInputElementDescs ?? [];
  if (il.NumElements > 0 && rs && !(rs.flags & IA_FLAG)) r.add('input-layout-not-allowed', {}, { path: 'InputLayout' });
  if (il.NumElements > PIPELINE_LIMITS.inputElements) r.add('input-element-count', { count: il.NumElements }, { path: 'InputLayout' });
  elements.forEach((e, i) => {
    const f = formatInfo(e.Format as number);
    if (!f.vertexInput) r.add('input-element-format', { format: formatName(e.Format as number), index: i }, { path: `InputLayout[${i}].Format` });
    if ((e.InputSlot as number) >= PIPELINE_LIMITS.inputSlots) r.add('input-slot', { slot: e.InputSlot as number, index: i }, { path: `InputLayout[${i}].InputSlot` });
  });
  const topology = pipelineValue(pipeline, 'PRIMITIVE_TOPOLOGY') as number;
  if ((infos.has('HS') || infos.has('DS')) && topology !== 4) r.add('patch-topology', {}, { path: 'PrimitiveTopologyType' });
  if (infos.has('HS') !== infos.has('DS')) {
    const [have, missing] = infos.has('HS') ? ['HS', 'DS'] as const : ['DS', 'HS'] as const;
    r.add('hs-ds-pair', { have: STAGE_WORD[have].toLowerCase(), missing: STAGE_WORD[missing].toLowerCase() }, { stage: have, path: missing });
  }

  streamOutput(pipeline, rs, infos, r);

  const rtv = pipelineValue(pipeline, 'RENDER_TARGET_FORMATS') as { RTFormats: number[]; NumRenderTargets: number };
  if (rtv.NumRenderTargets > SIMULTANEOUS_RENDER_TARGET_COUNT) r.add('render-target-count', { count: rtv.NumRenderTargets }, { path: 'RTVFormats' });
  rtv.RTFormats.forEach((f, i) => {
    if (i >= rtv.NumRenderTargets && f !== 0) r.add('rtv-format-inactive', { index: i, format: formatName(f), count: rtv.NumRenderTargets }, { path: `RTVFormats[${i}]` });
    else if (i < rtv.NumRenderTargets && f !== 0 && !formatInfo(f).renderTarget) r.add('rtv-format', { format: formatName(f), index: i }, { path: `RTVFormats[${i}]` });
  });
  const dsv = pipelineValue(pipeline, 'DEPTH_STENCIL_FORMAT') as number;
  if (dsv !== 0 && !formatInfo(dsv).depth) r.add('dsv-format', { format: formatName(dsv) }, { path: 'DSVFormat' });

  const blend = pipelineValue(pipeline, 'BLEND') as { IndependentBlendEnable: number; RenderTarget: DdiObject[] };
  // without IndependentBlendEnable every target uses RenderTarget[0]: checked once
  const active = blend.IndependentBlendEnable ? Math.min(rtv.NumRenderTargets, SIMULTANEOUS_RENDER_TARGET_COUNT) : Math.min(rtv.NumRenderTargets, 1);
  for (let i = 0; i < active; i++) {
    const rt = blend.RenderTarget[blend.IndependentBlendEnable ? i : 0]!;
    if (blend.IndependentBlendEnable && rt.LogicOpEnable) r.add('logic-op-independent-blend', {}, { path: `BlendState.RenderTarget[${i}].LogicOpEnable` });
    if (rt.BlendEnable && rt.LogicOpEnable) r.add('blend-and-logic-op', { index: i }, { path: `BlendState.RenderTarget[${i}]` });
  }
  const rt0 = blend.RenderTarget[0]!;
  const dual = [rt0.SrcBlend, rt0.DestBlend, rt0.SrcBlendAlpha, rt0.DestBlendAlpha].some((b) => DUAL_SOURCE.has(b as number));
  if (dual && rtv.NumRenderTargets > 1) r.add('dual-source-render-targets', {}, { path: 'BlendState.RenderTarget[0]' });
  if (dual && blend.IndependentBlendEnable) {
    for (let i = 1; i < blend.RenderTarget.length; i++) if (blend.RenderTarget[i]!.BlendEnable) r.add('dual-source-blend-enable', { index: i }, { path: `BlendState.RenderTarget[${i}].BlendEnable` });
  }

  const sample = pipelineValue(pipeline, 'SAMPLE_DESC') as { Count: number; Quality: number };
  if (![1, 2, 4, 8, 16, 32].includes(sample.Count)) r.add('sample-count', { count: sample.Count }, { path: 'SampleDesc.Count' });
  else if (sample.Count === 1 && sample.Quality !== 0) r.add('sample-quality', { quality: sample.Quality }, { path: 'SampleDesc.Quality' });
  const raster = rasterizer(pipeline);
  if (![0, 1, 4, 8, 16].includes(raster.ForcedSampleCount as number)) r.add('forced-sample-count', { count: raster.ForcedSampleCount as number }, { path: `${raster.key}.ForcedSampleCount` });
}

/** What one OutputSlot of the declaration takes: bytes, entries, gaps, the stream and entry that claimed it first. */
interface SoSlot {
  bytes: number;
  entries: number;
  gaps: number;
  stream: number;
  first: number;
}

/**
 * Stream output (codecs/pipeline-rules.ts, the stream-output rows): each entry (slot, stream,
 * streams 1..3 only after a geometry shader, components; a gap's StartComponent 0 and SemanticIndex 0, its ComponentCount any above 0), then
 * the declaration as a whole in the same pass: an output component streamed once per stream, a
 * slot given one stream, at most 128 components a stream and 512 bytes a slot; then the strides
 * (when any are given: one for every slot used, at least the bytes its entries take, a multiple
 * of 4, at most 2048) and NumStrides. Linear: each entry is seen once, components are indexed by
 * stream and semantic.
 */
function streamOutput(pipeline: Pipeline, rs: RootSignature | undefined, infos: ReadonlyMap<StageKey, ShaderInfo>, r: Report): void {
  const so = pipelineValue(pipeline, 'STREAM_OUTPUT') as { NumEntries: number; pSODeclaration: DdiObject[] | null; pBufferStrides: number[] | null; NumStrides: number; RasterizedStream: number };
  if (so.NumEntries > 0 && rs && !(rs.flags & SO_FLAG)) r.add('stream-output-not-allowed', {}, { path: 'StreamOutput' });
  const slots: SoSlot[] = Array.from({ length: PIPELINE_LIMITS.soBuffers }, () => ({ bytes: 0, entries: 0, gaps: 0, stream: -1, first: -1 }));
  const streamComponents = new Array<number>(PIPELINE_LIMITS.soStreams).fill(0);
  // stream:SEMANTIC/index -> the entry streaming each of its 4 components (-1: none yet)
  const streamed = new Map<string, number[]>();
  const gsPresent = infos.has('GS');
  (so.pSODeclaration ?? []).forEach((e, i) => {
    const start = e.StartComponent as number;
    const count = e.ComponentCount as number;
    const stream = e.Stream as number;
    const slotIndex = e.OutputSlot as number;
    const gap = e.SemanticName === null;
    const at = { path: `StreamOutput.pSODeclaration[${i}]` };
    let problem: string | undefined;
    if (slotIndex >= PIPELINE_LIMITS.soBuffers) problem = `OutputSlot ${slotIndex} is not below D3D12_SO_BUFFER_SLOT_COUNT (4)`;
    else if (stream >= PIPELINE_LIMITS.soStreams) problem = `Stream ${stream} is not below D3D12_SO_STREAM_COUNT (4)`;
    // only a geometry shader makes streams 1..3 (the D3D11.3 functional spec 14.1, 14.3: without one, stream 0 only)
    else if (stream > 0 && !gsPresent) problem = `Stream ${stream} without a geometry shader: only a geometry shader makes streams 1..3, without one there is stream 0 only`;
    // a gap (SemanticName NULL) skips ComponentCount components, more than 4 allowed (D3D12_SO_DECLARATION_ENTRY);
    // it starts at 0 and has no semantic index (the runtime's INVALIDGAPDEFINITION; Wine's checks)
    else if (gap && (count < 1 || start !== 0 || (e.SemanticIndex as number) !== 0)) problem = `a gap (SemanticName NULL) of StartComponent ${start}, ComponentCount ${count}, SemanticIndex ${e.SemanticIndex}: a gap starts at 0, has no semantic index and skips at least 1 component`;
    else if (!gap && (count < 1 || start + count > 4)) problem = `components ${start}..${start + count - 1} are not within the 4 of a register`;
    if (problem) {
      r.add('stream-output-entry', { index: i, problem }, at);
      return; // an entry out of range counts toward nothing else
    }
    const slot = slots[slotIndex]!;
    slot.bytes += 4 * count;
    slot.entries++;
    if (gap) slot.gaps++;
    if (slot.stream < 0) {
      slot.stream = stream;
      slot.first = i;
    } else if (slot.stream !== stream) r.add('stream-output-slot-streams', { index: i, stream, slot: slotIndex, first: slot.first, firstStream: slot.stream }, at);
    streamComponents[stream]! += count;
    if (gap) return;
    const name = e.SemanticName as string;
    const k = `${stream}:${key({ semanticName: name, semanticIndex: e.SemanticIndex as number })}`;
    let owners = streamed.get(k);
    if (!owners) streamed.set(k, (owners = [-1, -1, -1, -1]));
    let first = -1;
    const repeated: number[] = [];
    for (let c = start; c < start + count; c++) {
      if (owners[c]! >= 0) {
        if (first < 0) first = owners[c]!;
        repeated.push(c);
      } else owners[c] = i;
    }
    if (repeated.length) r.add('stream-output-repeated', { index: i, components: repeated.map((c) => 'xyzw'[c]).join(''), name, semanticIndex: e.SemanticIndex as number, stream, first }, at);
  });
  streamComponents.forEach((n, stream) => {
    if (n > PIPELINE_LIMITS.soStreamComponents) r.add('stream-output-size', { what: `the declaration of stream ${stream}`, have: `${n} components`, limit: 'D3D12_SO_OUTPUT_COMPONENT_COUNT (128 a stream)' }, { path: 'StreamOutput.pSODeclaration' });
  });
  const strides = so.pBufferStrides ?? [];
  if (so.NumStrides > PIPELINE_LIMITS.soBuffers) r.add('stream-output-num-strides', { count: so.NumStrides }, { path: 'StreamOutput.NumStrides' });
  slots.forEach((slot, i) => {
    if (slot.entries === 0) return;
    if (slot.gaps === slot.entries) r.add('stream-output-only-gaps', { stream: slot.stream, slot: i }, { path: 'StreamOutput.pSODeclaration' });
    if (slot.bytes > PIPELINE_LIMITS.soBufferWindow) r.add('stream-output-size', { what: `what OutputSlot ${i} takes a vertex`, have: `${slot.bytes} bytes`, limit: 'D3D12_SO_BUFFER_MAX_WRITE_WINDOW_IN_BYTES (512)' }, { path: 'StreamOutput.pSODeclaration' });
    // no strides at all: not checked (pBufferStrides is optional in D3D11's CreateGeometryShaderWithStreamOutput; Wine checks strides only when given)
    if (so.NumStrides === 0) return;
    const stride = strides[i];
    let problem: string | undefined;
    if (stride === undefined) problem = `no stride: NumStrides ${so.NumStrides} gives none for a slot the entries use`;
    else if (stride < slot.bytes) problem = `pBufferStrides[${i}] ${stride} is less than the ${slot.bytes} bytes its entries take`;
    else if (stride % 4 !== 0) problem = `pBufferStrides[${i}] ${stride} is not a multiple of 4`;
    else if (stride > PIPELINE_LIMITS.soMaxStride) problem = `pBufferStrides[${i}] ${stride} is more than D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES (2048)`;
    if (problem) r.add('stream-output-stride', { slot: i, problem }, { path: stride === undefined ? 'StreamOutput.NumStrides' : `StreamOutput.pBufferStrides[${i}]` });
  });
  if (so.NumEntries > 0 && so.RasterizedStream >= PIPELINE_LIMITS.soStreams && so.RasterizedStream !== PIPELINE_LIMITS.noRasterizedStream) {
    r.add('stream-output-entry', { index: '-', problem: `RasterizedStream ${so.RasterizedStream} is neither a stream (0..3) nor D3D12_SO_NO_RASTERIZED_STREAM` }, { path: 'StreamOutput.RasterizedStream' });
  }
  if (so.NumEntries > 0 && so.RasterizedStream === PIPELINE_LIMITS.noRasterizedStream && infos.has('PS')) r.add('stream-output-not-rasterized', {}, { path: 'StreamOutput.RasterizedStream', stage: 'PS' });
}

function rasterizer(pipeline: Pipeline): DdiObject & { key: string } {
  for (const [type, key] of [['RASTERIZER2', 'RasterizerState2'], ['RASTERIZER1', 'RasterizerState1']] as const) {
    if (pipeline.subobjects.some((s) => s.type === type)) return { ...(pipelineValue(pipeline, type) as DdiObject), key };
  }
  return { ...(pipelineValue(pipeline, 'RASTERIZER') as DdiObject), key: 'RasterizerState' };
}

// ---------------------------------------------------------------- signatures

const mask4 = (m: number) => m & 0xf;
// Names from the signature rows' tables (codecs/parts.ts): a component type in lower case
// (float32, uint16, unknown) and its kind by that name; a system value as DXC spells it.
const typeName = (t: number) => {
  const n = enumName(SIGNATURE_COMPONENT_TYPE, t);
  return typeof n === 'string' ? n.toLowerCase() : String(n);
};
const typeKind = (t: number): 'float' | 'uint' | 'sint' | 'unknown' => (/^(float|uint|sint)\d/.exec(typeName(t))?.[1] as 'float' | 'uint' | 'sint' | undefined) ?? 'unknown';
const sysName = (v: number) => String(enumName(SIGNATURE_SYSTEM_VALUE, v));
const key = (e: Pick<SignatureElement, 'semanticName' | 'semanticIndex'>) => `${e.semanticName.toUpperCase()}/${e.semanticIndex}`;

/**
 * The signature rules on decoded elements: the input layout against the vertex shader's inputs,
 * each stage's outputs against the next stage's inputs, the pixel shader's targets and depth
 * against RTVFormats and DSVFormat, stream output against the last stage before the rasterizer.
 * `signatures` holds the stages whose signatures are known; rules needing an unknown one are skipped.
 * @throws {DescriptionError} unknown-key for a key of `signatures` that is no stage, bad-type for signatures of the wrong shape, bad-name for an unknown `pipeline.kind`
 */
export function verifySignatures(pipeline: Pipeline, signatures: Partial<Record<StageKey, StageSignatures>>): PipelineViolation[] {
  expectObject(pipeline, 'pipeline');
  pipeline = readOnce(pipeline, 1);
  pipeline = { ...pipeline, subobjects: checkedSubobjects(pipeline.subobjects, 'pipeline.subobjects') as Subobject[] };
  expectObject(signatures, 'signatures');
  for (const [k, sig] of Object.entries(signatures)) {
    // a stage key only: a misspelled one (vs, toString) would leave its signatures unchecked without a word
    if (!(ALL_STAGES as readonly string[]).includes(k)) throw new DescriptionError('unknown-key', `signatures${pathKey(k)}`, `no stage ${quoted(k)} (known: ${ALL_STAGES.join(', ')})`);
    if (sig !== undefined) expectStageSignatures(sig, `signatures${pathKey(k)}`);
  }
  const kind = pipelineKindOf(pipeline);
  const r = new Report();
  const present = KIND_STAGES[kind].filter((k) => pipeline.subobjects.some((s) => s.type === k));

  // input layout -> vertex shader inputs
  const vs = signatures.VS;
  if (kind === 'graphics' && vs) {
    const il = pipelineValue(pipeline, 'INPUT_LAYOUT') as { pInputElementDescs: DdiObject[] | null };
    const byKey = new Map<string, { e: DdiObject; i: number }>();
    (il.pInputElementDescs ?? []).forEach((e, i) => {
      if (typeof e.SemanticName === 'string') byKey.set(key({ semanticName: e.SemanticName, semanticIndex: e.SemanticIndex as number }), { e, i });
    });
    for (const input of vs.inputs) {
      if (SYSTEM_GENERATED.has(input.systemValue)) continue;
      const hit = byKey.get(key(input));
      if (!hit) {
        r.add('input-layout-missing-element', { name: input.semanticName, semanticIndex: input.semanticIndex }, { stage: 'VS', path: 'InputLayout' });
        continue;
      }
      const f = formatInfo(hit.e.Format as number);
      const want = typeKind(input.componentType);
      if (f.kind !== 'unknown' && want !== 'unknown' && f.kind !== want) {
        r.add('input-layout-type', { name: input.semanticName, semanticIndex: input.semanticIndex, type: typeName(input.componentType), index: hit.i, format: formatName(hit.e.Format as number) }, { stage: 'VS', path: `InputLayout[${hit.i}].Format` });
      }
      const need = highestComponent(input.readWriteMask || input.mask);
      if (f.components > 0 && f.components < need) r.add('input-layout-components', { index: hit.i, name: input.semanticName, semanticIndex: input.semanticIndex, format: formatName(hit.e.Format as number), have: f.components, need }, { stage: 'VS', path: `InputLayout[${hit.i}].Format` });
    }
  }

  // stage linkage: each stage's inputs against the previous stage's outputs
  const chain = present.filter((k) => k !== 'AS');
  const rasterized = rasterizedStream(pipeline);
  for (let i = 1; i < chain.length; i++) {
    const from = chain[i - 1]!;
    const to = chain[i]!;
    const out = signatures[from];
    const inp = signatures[to];
    if (!out || !inp) continue;
    // D3D12_SO_NO_RASTERIZED_STREAM: no stream goes to the rasterizer (valid, the D3D11.3 functional spec 14.3),
    // so nothing reaches the pixel shader and there is no linkage to check (stream-output-not-rasterized warns)
    if (to === 'PS' && rasterized === PIPELINE_LIMITS.noRasterizedStream) continue;
    const outputs = new Map<string, SignatureElement>();
    // the pixel shader links to the rasterized stream of a geometry shader; before it, every stage has stream 0 only
    const stream = from === 'GS' ? rasterized : 0;
    for (const o of out.outputs) if (o.stream === stream || to !== 'PS') outputs.set(key(o), o);
    for (const o of out.primitiveOutputs ?? []) if (o.stream === stream || to !== 'PS') outputs.set(key(o), o);
    compareElements(r, 'linkage', outputs, inp.inputs, (e) => SYSTEM_GENERATED.has(e.systemValue), { from: STAGE_WORD[from], to: STAGE_WORD[to] }, { stage: to, path: to });
  }

  if (kind === 'graphics') tessellation(signatures.HS, signatures.DS, r);
  if (kind === 'graphics' && present.includes('GS')) gsInputPrimitive(pipeline, present, signatures, r);
  // only the pair is compared: a mesh shader's payload without an amplification shader is refused by
  // no public source (docs/formats/pipeline.md, "A payload without its pair"); an AS's payload before an
  // MS that declares none (PSV0 0) is a mismatch
  const as = signatures.AS?.stageInfo?.payloadSizeInBytes;
  const ms = signatures.MS?.stageInfo?.payloadSizeInBytes;
  if (kind === 'mesh' && present.includes('AS') && as !== undefined && ms !== undefined && as !== ms) r.add('payload-size', { as, ms }, { stage: 'MS', path: 'MS' });

  // pixel shader outputs -> render targets and the depth-stencil view
  const ps = signatures.PS;
  if (ps && kind !== 'compute') {
    const rtv = pipelineValue(pipeline, 'RENDER_TARGET_FORMATS') as { RTFormats: number[]; NumRenderTargets: number };
    const dsv = pipelineValue(pipeline, 'DEPTH_STENCIL_FORMAT') as number;
    for (const o of ps.outputs) {
      const what = outputKind(o);
      if (what === 'target') {
        const n = o.register;
        const format = n < SIMULTANEOUS_RENDER_TARGET_COUNT ? rtv.RTFormats[n]! : 0;
        if (n >= rtv.NumRenderTargets || format === 0) {
          r.add('ps-target-unbound', { index: n, why: n >= rtv.NumRenderTargets ? `past NumRenderTargets ${rtv.NumRenderTargets}` : 'DXGI_FORMAT_UNKNOWN' }, { stage: 'PS', path: 'RTVFormats' });
          continue;
        }
        const f = formatInfo(format);
        const have = typeKind(o.componentType);
        if (f.kind !== 'unknown' && have !== 'unknown' && f.kind !== have) r.add('ps-target-type', { index: n, type: typeName(o.componentType), format: formatName(format), formatType: f.kind }, { stage: 'PS', path: `RTVFormats[${n}]` });
      } else if (what === 'depth') {
        if (dsv === 0) r.add('depth-output-dsv', { name: o.semanticName }, { stage: 'PS', path: 'DSVFormat' });
      } else if (what === 'stencil') {
        if (dsv !== 0 && !formatInfo(dsv).stencil) r.add('stencil-output-dsv', { format: formatName(dsv) }, { stage: 'PS', path: 'DSVFormat' });
      }
    }
  }

  // stream output -> the last stage before the rasterizer
  const so = pipelineValue(pipeline, 'STREAM_OUTPUT') as { pSODeclaration: DdiObject[] | null };
  const soStage = (['GS', 'DS', 'VS'] as const).find((k) => present.includes(k));
  const soSig = soStage ? signatures[soStage] : undefined;
  if (soStage && soSig && (so.pSODeclaration ?? []).length) {
    const outs = new Map<string, SignatureElement>();
    for (const o of soSig.outputs) outs.set(`${o.stream}:${key(o)}`, o);
    (so.pSODeclaration ?? []).forEach((e, i) => {
      if (e.SemanticName === null) return; // a gap ($SKIP)
      const name = e.SemanticName as string;
      const o = outs.get(`${e.Stream}:${key({ semanticName: name, semanticIndex: e.SemanticIndex as number })}`);
      const values = { index: i, name, semanticIndex: e.SemanticIndex as number, stream: e.Stream as number, stage: STAGE_WORD[soStage] };
      const start = e.StartComponent as number;
      const want = ((1 << (e.ComponentCount as number)) - 1) << start;
      if (!o) r.add('stream-output-signature', { ...values, problem: 'no such output' }, { stage: soStage, path: `StreamOutput.pSODeclaration[${i}]` });
      else if ((want & 0xf & ~mask4(o.mask)) !== 0) r.add('stream-output-signature', { ...values, problem: `components ${start}..${start + (e.ComponentCount as number) - 1} are not all written` }, { stage: soStage, path: `StreamOutput.pSODeclaration[${i}]` });
    });
  }
  return r.list;
}

/** The shape of one stage's signatures (element lists of objects, stageInfo numbers), checked once at the boundary. */
function expectStageSignatures(sig: unknown, path: string): void {
  expectObject(sig, path);
  for (const list of ['inputs', 'outputs', 'primitiveOutputs', 'patchConstants'] as const) {
    const v = sig[list];
    if (v === undefined && (list === 'primitiveOutputs' || list === 'patchConstants')) continue;
    expectArray(v, `${path}.${list}`);
    expectObjects(v, `${path}.${list}`);
  }
  if (sig.stageInfo === undefined) return;
  expectObject(sig.stageInfo, `${path}.stageInfo`);
  for (const k of STAGE_INFO_KEYS) if (sig.stageInfo[k] !== undefined) expectNumber(sig.stageInfo[k], `${path}.stageInfo.${k}`);
}

const domainName = (d: number) => TESS_FACTORS[d]?.name ?? `undefined (${d})`;
const gsInput = /* @__PURE__ */ rowsBy(GS_INPUT_PRIMITIVES, 0);
const tessellatorOutput = /* @__PURE__ */ rowsBy(TESSELLATOR_OUTPUT_PRIMITIVES, 0);

/**
 * The geometry shader's input primitive against what reaches it (the runtime's
 * CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH): with tessellation the hull shader's
 * tessellator output primitive (point, line, triangle; no adjacency), else PrimitiveTopologyType
 * (POINT a point, LINE a line or line_adj, TRIANGLE a triangle or triangle_adj, PATCH a patch of
 * any count, which the draw's topology fixes). Unknown facts, an undefined primitive or topology
 * type: not checked.
 */
function gsInputPrimitive(pipeline: Pipeline, present: readonly StageKey[], signatures: Partial<Record<StageKey, StageSignatures>>, r: Report): void {
  const gs = gsInput(signatures.GS?.stageInfo?.inputPrimitive);
  if (!gs) return;
  if (present.includes('HS') || present.includes('DS')) {
    const tess = tessellatorOutput(signatures.HS?.stageInfo?.tessellatorOutputPrimitive);
    if (tess && tess[2] !== gs[0]) r.add('gs-input-primitive', { gs: gs[1], from: 'the tessellator', given: `${tess[1]} primitives (the hull shader's output primitive)` }, { stage: 'GS', path: 'GS' });
    return;
  }
  const topology = pipelineValue(pipeline, 'PRIMITIVE_TOPOLOGY') as number;
  if (topology !== 0 && topology !== gs[2]) r.add('gs-input-primitive', { gs: gs[1], from: 'PrimitiveTopologyType', given: String(enumName(PRIMITIVE_TOPOLOGY_TYPE, topology)) }, { stage: 'GS', path: 'PrimitiveTopologyType' });
}

/**
 * Hull shader -> domain shader: control point counts, tessellator domain, the tessellation
 * factors the domain takes (the hull shader declares exactly them; the domain shader reads no
 * more and none of another domain), and the domain shader's patch constants against the hull
 * shader's patch-constant signature (each present, same register, components within, same system
 * value and component type).
 */
function tessellation(hs: StageSignatures | undefined, ds: StageSignatures | undefined, r: Report): void {
  const hsInfo = hs?.stageInfo ?? {};
  const dsInfo = ds?.stageInfo ?? {};
  if (hs && ds && hsInfo.outputControlPointCount !== undefined && dsInfo.inputControlPointCount !== undefined && hsInfo.outputControlPointCount !== dsInfo.inputControlPointCount) {
    r.add('hs-ds-control-points', { hs: hsInfo.outputControlPointCount, ds: dsInfo.inputControlPointCount }, { stage: 'DS', path: 'DS' });
  }
  const sameDomain = !(hs && ds && hsInfo.tessellatorDomain !== undefined && dsInfo.tessellatorDomain !== undefined && hsInfo.tessellatorDomain !== dsInfo.tessellatorDomain);
  if (!sameDomain) r.add('hs-ds-domain', { hs: domainName(hsInfo.tessellatorDomain!), ds: domainName(dsInfo.tessellatorDomain!) }, { stage: 'DS', path: 'DS' });
  for (const [key, sig, exact] of [['HS', hs, true], ['DS', ds, false]] as const) {
    const domain = sig?.stageInfo?.tessellatorDomain;
    const want = domain === undefined ? undefined : TESS_FACTORS[domain];
    if (!sig?.patchConstants || !want) continue;
    let edge = 0;
    let inside = 0;
    let other = 0;
    for (const e of sig.patchConstants) {
      if (want.edge.includes(e.systemValue)) edge++;
      else if (want.inside.includes(e.systemValue)) inside++;
      else if (TESS_FACTOR_NAMES.has(e.systemValue)) other++;
    }
    const wrong = exact ? edge !== want.edges || inside !== want.insides : edge > want.edges || inside > want.insides;
    if (wrong || other > 0) {
      r.add('tess-factors', { stage: STAGE_WORD[key], domain: want.name, needEdge: want.edges, needInside: want.insides, edge, inside, other: other ? `, and ${other} factor(s) of another domain` : '' }, { stage: key, path: key });
    }
  }
  if (!hs?.patchConstants || !ds?.patchConstants) return;
  const outputs = new Map<string, SignatureElement>();
  for (const o of hs.patchConstants) outputs.set(key(o), o);
  // tessellation factors of two domains are the domain rule's to say
  compareElements(r, 'patch-constant', outputs, ds.patchConstants, (e) => SYSTEM_GENERATED.has(e.systemValue) || (!sameDomain && TESS_FACTOR_NAMES.has(e.systemValue)), {}, { stage: 'DS', path: 'DS' });
}

/**
 * A stage's inputs against the outputs before it (`outputs` by key): each present, in the same
 * register, its components within, the same system value and component type. The linkage rules
 * and the patch-constant rules alike (`prefix`), `words` naming the stages where the rule does.
 */
function compareElements(r: Report, prefix: 'linkage' | 'patch-constant', outputs: ReadonlyMap<string, SignatureElement>, inputs: readonly SignatureElement[], skip: (e: SignatureElement) => boolean, words: Record<string, string>, at: Partial<PipelineViolation>): void {
  for (const e of inputs) {
    if (skip(e)) continue;
    const o = outputs.get(key(e));
    const values = { ...words, name: e.semanticName };
    if (!o) {
      r.add(`${prefix}-missing`, { ...values, semanticIndex: e.semanticIndex }, at);
      continue;
    }
    if (o.register !== e.register) r.add(`${prefix}-register`, { ...values, out: o.register, in: e.register }, at);
    else if ((mask4(e.mask) & ~mask4(o.mask)) !== 0) r.add(`${prefix}-mask`, values, at);
    if (o.systemValue !== e.systemValue) r.add(`${prefix}-system-value`, { ...values, out: sysName(o.systemValue), in: sysName(e.systemValue) }, at);
    const out = typeKind(o.componentType);
    const inp = typeKind(e.componentType);
    if (out !== inp && out !== 'unknown' && inp !== 'unknown') r.add(`${prefix}-type`, { ...values, out: typeName(o.componentType), in: typeName(e.componentType) }, at);
  }
}

/**
 * What a pixel shader output is. DXBC's OSGN gives SV_Target, SV_Depth and SV_StencilRef no
 * system value (0) and names them only; DXIL's OSG1 gives them D3D_NAME 64, 65/67/68 and 69.
 */
function outputKind(o: SignatureElement): 'target' | 'depth' | 'stencil' | undefined {
  const name = o.semanticName.toUpperCase();
  if (o.systemValue === 64 || name === 'SV_TARGET') return 'target';
  if (o.systemValue === 65 || o.systemValue === 67 || o.systemValue === 68 || name === 'SV_DEPTH' || name === 'SV_DEPTHGREATEREQUAL' || name === 'SV_DEPTHLESSEQUAL') return 'depth';
  if (o.systemValue === 69 || name === 'SV_STENCILREF') return 'stencil';
  return undefined;
}

function highestComponent(m: number): number {
  return m & 8 ? 4 : m & 4 ? 3 : m & 2 ? 2 : m & 1 ? 1 : 0;
}

function rasterizedStream(pipeline: Pipeline): number {
  const so = pipelineValue(pipeline, 'STREAM_OUTPUT') as { NumEntries: number; RasterizedStream: number };
  return so.NumEntries > 0 ? so.RasterizedStream : 0;
}

/**
 * A stage's signatures from its container's signature parts (ISGN/ISG1, OSGN/OSG5/OSG1, PCSG/PSG1),
 * decoded by their rows, with the runtime facts of PSV0 (DXIL) or the tessellation declarations (DXBC).
 */
function containerSignatures(info: ShaderInfo): StageSignatures | undefined {
  const parts: { name: string; elements: readonly Record<string, unknown>[] }[] = [];
  for (const p of info.container.parts) {
    if (SIGNATURE_PART_ROLE[p.name] === undefined) continue;
    parts.push({ name: p.name, elements: decodePart(p.name, p.data).blocks.elements as Record<string, unknown>[] });
  }
  const sig = stageSignaturesFromParts(parts, info.stage);
  const facts = info.psv?.stageInfo ?? info.program?.stageInfo;
  if (!sig || !facts) return sig;
  const stageInfo: StageInfo = {};
  for (const k of STAGE_INFO_KEYS) if (typeof facts[k] === 'number') stageInfo[k] = facts[k];
  return { ...sig, stageInfo };
}
