/**
 * The vkd3d pipeline harness (test/native/vkd3d-pipeline.c: libvkd3d's ID3D12Device on the first
 * Vulkan device, Mesa's lavapipe on a machine without a GPU): built once per test process into a
 * temporary folder, then fed one batch of requests over one pipe. Requests are made here from a
 * pipeline's subobject values (pipelineValue), independently of dxbin's verifier.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './corpus.js';

let built: { path?: string; missing?: string } | undefined;

/** Builds the harness and creates a device (once); the reason when either cannot be done. */
export function vkd3dPipelineMissing(): string | undefined {
  if (built) return built.missing;
  const flags = spawnSync('pkg-config', ['--cflags', '--libs', 'libvkd3d', 'vulkan'], { encoding: 'utf8' });
  if (flags.error) return (built = { missing: 'pkg-config not found (apt-get install pkg-config libvkd3d-dev libvulkan-dev)' }).missing;
  if (flags.status !== 0) return (built = { missing: 'pkg-config knows no libvkd3d or vulkan (apt-get install libvkd3d-dev libvulkan-dev)' }).missing;
  const out = join(mkdtempSync(join(tmpdir(), 'dxbin-vkd3d-pipeline-')), 'vkd3d-pipeline');
  const cc = process.env.CC ?? 'cc';
  const r = spawnSync(cc, ['-O1', '-std=gnu11', '-Wall', '-o', out, join(ROOT, 'test/native/vkd3d-pipeline.c'), ...flags.stdout.trim().split(/\s+/)], { encoding: 'utf8' });
  if (r.error) return (built = { missing: `${cc} not found (apt-get install gcc)` }).missing;
  if (r.status !== 0) return (built = { missing: `${cc} could not build test/native/vkd3d-pipeline.c: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}` }).missing;
  const v = spawnSync(out, [], { input: 'device\n', encoding: 'utf8', env: quiet() });
  if (v.status !== 0 || v.stdout !== 'ok\n') return (built = { missing: `no D3D12 device through libvkd3d (is a Vulkan driver installed? apt-get install mesa-vulkan-drivers): ${v.stdout.trim()} ${v.stderr.trim().split('\n').slice(-2).join(' | ')}` }).missing;
  built = { path: out };
  return undefined;
}

const quiet = () => ({ ...process.env, VKD3D_DEBUG: 'none', VKD3D_SHADER_DEBUG: 'none' });

/** What the harness needs of one graphics pipeline (numbers as D3D12 and DXGI number them). */
export interface HarnessPipeline {
  /** A DXBC container holding an RTS0 part: a root signature blob or a shader that embeds one. */
  rootSignature: Uint8Array;
  VS: Uint8Array;
  PS?: Uint8Array;
  HS?: Uint8Array;
  DS?: Uint8Array;
  GS?: Uint8Array;
  topologyType: number;
  numRenderTargets: number;
  rtvFormats: readonly number[];
  dsvFormat: number;
  sampleCount: number;
  sampleQuality: number;
  inputLayout: readonly { SemanticName: string; SemanticIndex: number; Format: number; InputSlot: number; AlignedByteOffset: number }[];
  /** D3D12_STREAM_OUTPUT_DESC: the entries (a D3D12_SO_DECLARATION_ENTRY each; no gaps), pBufferStrides, RasterizedStream. */
  streamOutput?: {
    entries: readonly { Stream: number; SemanticName: string; SemanticIndex: number; StartComponent: number; ComponentCount: number; OutputSlot: number }[];
    strides: readonly number[];
    rasterizedStream: number;
  };
}

/** What the Vulkan device under vkd3d offers for geometry, stream-output and mesh pipelines (the harness's `vulkan` answer). */
export interface Vkd3dVulkanInfo {
  /** Of VK_EXT_transform_feedback, VK_EXT_mesh_shader, VK_NV_mesh_shader: those the device lists. */
  extensions: string[];
  geometryShader: boolean;
  transformFeedback: boolean;
  geometryStreams: boolean;
  transformFeedbackRasterizationStreamSelect: boolean;
  /** Whether vkd3d's device has ID3D12Device2 (CreatePipelineState, the way to a mesh pipeline). */
  device2: boolean;
  device: string;
}

let vulkan: Vkd3dVulkanInfo | undefined;

/** The harness's `vulkan` request, asked once. */
export function vkd3dVulkanInfo(): Vkd3dVulkanInfo {
  if (vulkan) return vulkan;
  const missing = vkd3dPipelineMissing();
  if (missing) throw new Error(`vkd3d pipeline harness unavailable: ${missing}`);
  const r = spawnSync(built!.path!, [], { input: 'vulkan\n', encoding: 'utf8', env: quiet() });
  const words = r.stdout.trim().split(' ');
  if (words[0] !== 'ok') throw new Error(`the vkd3d pipeline harness answered ${JSON.stringify(r.stdout)} to vulkan (exit ${r.status ?? r.signal})`);
  const facts = new Map(words.slice(1).filter((w) => w.includes('=')).map((w) => w.split('=', 2) as [string, string]));
  const flag = (k: string) => {
    const v = facts.get(k);
    if (v !== '0' && v !== '1') throw new Error(`the vkd3d pipeline harness gave no ${k} in ${JSON.stringify(r.stdout)}`);
    return v === '1';
  };
  return (vulkan = {
    extensions: words.slice(1).filter((w) => !w.includes('=')),
    geometryShader: flag('geometryShader'),
    transformFeedback: flag('transformFeedback'),
    geometryStreams: flag('geometryStreams'),
    transformFeedbackRasterizationStreamSelect: flag('transformFeedbackRasterizationStreamSelect'),
    device2: flag('ID3D12Device2'),
    device: facts.get('device') ?? '',
  });
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** CreateGraphicsPipelineState's answer for each pipeline: 'ok', or the refusal (`0x80070057`, `rootsig 0x...`). */
export function vkd3dCreatePipelines(list: readonly HarnessPipeline[]): string[] {
  const missing = vkd3dPipelineMissing();
  if (missing) throw new Error(`vkd3d pipeline harness unavailable: ${missing}`);
  const lines = list.map((p) => {
    const elements = p.inputLayout.map((e) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.SemanticName)) throw new Error(`semantic name ${JSON.stringify(e.SemanticName)} cannot cross the harness protocol`);
      return `${e.SemanticName} ${e.SemanticIndex} ${e.Format} ${e.InputSlot} ${e.AlignedByteOffset}`;
    });
    const rtv = Array.from({ length: 8 }, (_, i) => p.rtvFormats[i] ?? 0);
    const so = p.streamOutput ?? { entries: [], strides: [], rasterizedStream: 0 };
    const entries = so.entries.map((e) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.SemanticName)) throw new Error(`stream-output semantic name ${JSON.stringify(e.SemanticName)} cannot cross the harness protocol (a gap entry: vkd3d 1.2 would read its NULL name)`);
      return `${e.Stream} ${e.SemanticName} ${e.SemanticIndex} ${e.StartComponent} ${e.ComponentCount} ${e.OutputSlot}`;
    });
    return [
      'pipeline', hex(p.rootSignature), hex(p.VS), ...[p.PS, p.HS, p.DS, p.GS].map((b) => (b ? hex(b) : '-')), p.topologyType, p.numRenderTargets, ...rtv, p.dsvFormat, p.sampleCount, p.sampleQuality,
      elements.length, ...elements, entries.length, ...entries, so.strides.length, ...so.strides, so.rasterizedStream,
    ].join(' ');
  });
  const r = spawnSync(built!.path!, [], { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28, env: quiet() });
  const answers = r.stdout.split('\n').slice(0, -1);
  if (answers.length !== list.length) throw new Error(`the vkd3d pipeline harness answered ${answers.length} of ${list.length} requests (exit ${r.status ?? r.signal}): ${r.stderr.slice(-500)}`);
  return answers.map((a) => (a === 'ok' ? 'ok' : a.replace(/^error /, '')));
}
