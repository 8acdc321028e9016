/**
 * The vkd3d differential harness (test/native/vkd3d-harness.c, libvkd3d-shader does the work):
 * built once per test process into a temporary folder, then fed batches of requests over one pipe.
 * Descriptions cross as the harness's DESC text (u32 in decimal, floats as their 8 hex bit digits),
 * written and read here independently of dxbin's own JSON form.
 */
import { spawnSync } from 'node:child_process';
import type { DescriptorRange, RootParameter, RootSignature, SamplerFloatField, StaticSampler } from '../../src/index.js';
import { buildVkd3dHarness, type Built } from './vkd3d-build.js';

let built: Built | undefined;

/** Builds the harness (once); the reason when it cannot be built (no compiler, no libvkd3d-dev). */
export function vkd3dMissing(): string | undefined {
  if (!built) built = buildVkd3dHarness('vkd3d-harness', 'dxbin-vkd3d-', 'the built harness');
  return built.missing;
}

/** One answer: `ok` and its value, or vkd3d's refusal. */
export type Answer = { ok: true; value: string } | { ok: false; error: string };

/** Sends requests (one line each) and returns one answer per request; throws a readable error when the harness dies. */
export function harness(requests: string[]): Answer[] {
  if (vkd3dMissing()) throw new Error(`vkd3d harness unavailable: ${vkd3dMissing()}`);
  const r = spawnSync(built!.path!, [], { input: requests.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, VKD3D_SHADER_DEBUG: 'none' } });
  const lines = r.stdout.split('\n').slice(0, -1);
  if (lines.length !== requests.length) {
    const at = requests[lines.length] ?? '';
    throw new Error(
      `the vkd3d harness stopped after ${lines.length} of ${requests.length} requests (exit ${r.status ?? r.signal}; libvkd3d-shader 1.2 crashes on some malformed input) at: ${at.slice(0, 200)}${at.length > 200 ? '...' : ''} ${r.stderr}`,
    );
  }
  return lines.map((line) => (line.startsWith('ok ') ? { ok: true, value: line.slice(3) } : { ok: false, error: line.replace(/^error /, '') }));
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

/** vkd3d_shader_serialize_root_signature of each description: the container, or why vkd3d refused. */
export function vkd3dSerialize(list: RootSignature[]): (Uint8Array | string)[] {
  return harness(list.map((rs) => `serialize ${toDesc(rs)}`)).map((a) => (a.ok ? bytesOf(a.value) : a.error));
}

/** vkd3d_shader_parse_root_signature of each container: DESC text, or why vkd3d refused. */
export function vkd3dParse(list: Uint8Array[]): Answer[] {
  return harness(list.map((b) => `parse ${hexOf(b)}`));
}

/** Parse, then vkd3d_shader_convert_root_signature to 1.0 or 1.1: DESC text, or why vkd3d refused. */
export function vkd3dConvert(list: Uint8Array[], to: '1.0' | '1.1'): Answer[] {
  return harness(list.map((b) => `convert ${to} ${hexOf(b)}`));
}

/** The RTS0 part of a one-part container, read here without dxbin (header: part count at 28, offsets from 32). */
export function onlyPart(container: Uint8Array): Uint8Array {
  const view = new DataView(container.buffer, container.byteOffset, container.byteLength);
  if (view.getUint32(28, true) !== 1) throw new Error(`expected a one-part container, found ${view.getUint32(28, true)} parts`);
  const offset = view.getUint32(32, true);
  const size = view.getUint32(offset + 4, true);
  return container.slice(offset + 8, offset + 8 + size);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function floatBits(s: StaticSampler, field: SamplerFloatField): string {
  const x = s[field];
  if (Number.isNaN(x) && s.nanBits?.[field] !== undefined) return (s.nanBits[field]! >>> 0).toString(16).padStart(8, '0');
  f32[0] = x;
  return u32[0]!.toString(16).padStart(8, '0');
}
function bitsFloat(hex: string): number {
  u32[0] = Number.parseInt(hex, 16);
  return f32[0]!;
}

/** A description as the harness's DESC text (flags written as 0 where the version has none). */
export function toDesc(rs: RootSignature): string {
  const v11 = rs.version >= 2;
  const out: (string | number)[] = [rs.version, rs.flags >>> 0, rs.parameters.length];
  for (const p of rs.parameters) {
    out.push(p.parameterType, p.shaderVisibility);
    if (p.parameterType === 0) {
      out.push(p.ranges.length);
      for (const r of p.ranges) out.push(r.rangeType, r.numDescriptors, r.baseShaderRegister, r.registerSpace, v11 ? r.flags : 0, r.offsetInDescriptorsFromTableStart);
    } else if (p.parameterType === 1) out.push(p.constants.shaderRegister, p.constants.registerSpace, p.constants.num32BitValues);
    else out.push(p.descriptor.shaderRegister, p.descriptor.registerSpace, v11 ? p.descriptor.flags : 0);
  }
  out.push(rs.staticSamplers.length);
  for (const s of rs.staticSamplers) {
    out.push(s.filter, s.addressU, s.addressV, s.addressW, floatBits(s, 'mipLODBias'), s.maxAnisotropy, s.comparisonFunc, s.borderColor);
    out.push(floatBits(s, 'minLOD'), floatBits(s, 'maxLOD'), s.shaderRegister, s.registerSpace, s.shaderVisibility);
  }
  return out.join(' ');
}

/** DESC text back to a description (vkd3d 1.2 knows versions 1.0 and 1.1: sampler flags are 0). */
export function fromDesc(text: string): RootSignature {
  const t = text.trim().split(' ');
  let i = 0;
  const n = () => {
    if (i >= t.length) throw new Error(`DESC ends early: ${text}`);
    return Number(t[i++]);
  };
  const version = n() as 1 | 2;
  const flags = n();
  const parameters: RootParameter[] = [];
  for (let k = n(); k > 0; k--) {
    const parameterType = n();
    const shaderVisibility = n();
    if (parameterType === 0) {
      const ranges: DescriptorRange[] = [];
      for (let j = n(); j > 0; j--) ranges.push({ rangeType: n(), numDescriptors: n(), baseShaderRegister: n(), registerSpace: n(), flags: n(), offsetInDescriptorsFromTableStart: n() });
      parameters.push({ parameterType: 0, shaderVisibility, ranges });
    } else if (parameterType === 1) {
      parameters.push({ parameterType: 1, shaderVisibility, constants: { shaderRegister: n(), registerSpace: n(), num32BitValues: n() } });
    } else {
      parameters.push({ parameterType: parameterType as 2 | 3 | 4, shaderVisibility, descriptor: { shaderRegister: n(), registerSpace: n(), flags: n() } });
    }
  }
  const staticSamplers: StaticSampler[] = [];
  for (let k = n(); k > 0; k--) {
    const filter = n(), addressU = n(), addressV = n(), addressW = n();
    const mipLODBias = bitsFloat(t[i++]!);
    const maxAnisotropy = n(), comparisonFunc = n(), borderColor = n();
    const minLOD = bitsFloat(t[i++]!), maxLOD = bitsFloat(t[i++]!);
    staticSamplers.push({ filter, addressU, addressV, addressW, mipLODBias, maxAnisotropy, comparisonFunc, borderColor, minLOD, maxLOD, shaderRegister: n(), registerSpace: n(), shaderVisibility: n(), flags: 0 });
  }
  if (i !== t.length) throw new Error(`DESC has ${t.length - i} tokens too many: ${text}`);
  return { version, flags, parameters, staticSamplers };
}
