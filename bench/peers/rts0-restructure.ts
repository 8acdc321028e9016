/**
 * Bench peer: the RTS0 round trip with restructure (a decoder/encoder library users might pick):
 * container header, part headers and every RTS0 record as restructure Structs, read with a
 * DecodeStream at each offset and written with one EncodeStream in the canonical layout. The
 * digest is dxbin's (no library offers DXC's modified MD5).
 */
import * as r from 'restructure';
import { containerDigestMatches, signContainer } from '../../src/container/digest.js';
import type { PeerParameter, PeerRootSignature, PeerSampler } from './rts0-dataview.js';

const u32 = r.uint32le;
const ContainerHeader = new r.Struct({ magic: u32, digest: new r.Buffer(16), major: r.uint16le, minor: r.uint16le, size: u32, partCount: u32 });
const PartHeader = new r.Struct({ fourCC: u32, size: u32 });
const Header = new r.Struct({ version: u32, numParameters: u32, parametersOffset: u32, numStaticSamplers: u32, staticSamplersOffset: u32, flags: u32 });
const Parameter = new r.Struct({ parameterType: u32, shaderVisibility: u32, payloadOffset: u32 });
const Table = new r.Struct({ numDescriptorRanges: u32, descriptorRangesOffset: u32 });
const Range10 = new r.Struct({ rangeType: u32, numDescriptors: u32, baseShaderRegister: u32, registerSpace: u32, offsetInDescriptorsFromTableStart: u32 });
const Range11 = new r.Struct({ rangeType: u32, numDescriptors: u32, baseShaderRegister: u32, registerSpace: u32, flags: u32, offsetInDescriptorsFromTableStart: u32 });
const Constants = new r.Struct({ shaderRegister: u32, registerSpace: u32, num32BitValues: u32 });
const Descriptor10 = new r.Struct({ shaderRegister: u32, registerSpace: u32 });
const Descriptor11 = new r.Struct({ shaderRegister: u32, registerSpace: u32, flags: u32 });
const samplerFields = {
  filter: u32, addressU: u32, addressV: u32, addressW: u32, mipLODBias: r.floatle, maxAnisotropy: u32, comparisonFunc: u32,
  borderColor: u32, minLOD: r.floatle, maxLOD: r.floatle, shaderRegister: u32, registerSpace: u32, shaderVisibility: u32,
};
const Sampler10 = new r.Struct(samplerFields);
const Sampler12 = new r.Struct({ ...samplerFields, flags: u32 });
/** restructure ships no types (bench/types/restructure.d.ts): the stream as this file uses it. */
type Stream = { pos: number };
const ONE_PART = new r.Struct({ header: ContainerHeader, offset: u32, part: PartHeader });

function at<T>(struct: { decode(s: Stream): unknown }, stream: Stream, pos: number): T {
  stream.pos = pos;
  return struct.decode(stream) as T;
}

export function rts0OfContainerRestructure(bytes: Uint8Array): Uint8Array {
  const s = new r.DecodeStream(bytes);
  const h = at<{ magic: number; size: number; partCount: number }>(ContainerHeader, s, 0);
  if (h.magic !== 0x43425844) throw new Error('not a DXBC container');
  if (h.size > bytes.byteLength || !containerDigestMatches(bytes, h.size)) throw new Error('bad digest');
  const offsets = at<number[]>(new r.Array(u32, h.partCount), s, 32);
  for (const o of offsets) {
    const p = at<{ fourCC: number; size: number }>(PartHeader, s, o);
    if (p.fourCC === 0x30535452) return bytes.subarray(o + 8, o + 8 + p.size);
  }
  throw new Error('no RTS0 part');
}

export function decodeRestructure(part: Uint8Array): PeerRootSignature {
  const s = new r.DecodeStream(part);
  const h = at<{ version: number; numParameters: number; parametersOffset: number; numStaticSamplers: number; staticSamplersOffset: number; flags: number }>(Header, s, 0);
  const v = h.version;
  const parameters: PeerParameter[] = [];
  for (let i = 0; i < h.numParameters; i++) {
    const p = at<{ parameterType: number; shaderVisibility: number; payloadOffset: number }>(Parameter, s, h.parametersOffset + 12 * i);
    if (p.parameterType === 0) {
      const t = at<{ numDescriptorRanges: number; descriptorRangesOffset: number }>(Table, s, p.payloadOffset);
      const ranges = at<PeerParameter['ranges']>(new r.Array(v === 1 ? Range10 : Range11, t.numDescriptorRanges), s, t.descriptorRangesOffset)!.map((x) => ({ ...x, flags: x.flags ?? 0 }));
      parameters.push({ parameterType: 0, shaderVisibility: p.shaderVisibility, ranges });
    } else if (p.parameterType === 1) {
      parameters.push({ parameterType: 1, shaderVisibility: p.shaderVisibility, ...at<object>(Constants, s, p.payloadOffset) });
    } else {
      const d = at<{ shaderRegister: number; registerSpace: number; flags?: number }>(v === 1 ? Descriptor10 : Descriptor11, s, p.payloadOffset);
      parameters.push({ parameterType: p.parameterType, shaderVisibility: p.shaderVisibility, shaderRegister: d.shaderRegister, registerSpace: d.registerSpace, flags: d.flags ?? 0 });
    }
  }
  const staticSamplers = at<PeerSampler[]>(new r.Array(v === 3 ? Sampler12 : Sampler10, h.numStaticSamplers), s, h.staticSamplersOffset).map((x) => ({ ...x, flags: x.flags ?? 0 }));
  return { version: v, flags: h.flags, parameters, staticSamplers };
}

/** Encodes with restructure into one buffer sized by the Structs, in the canonical layout. */
export function encodeRestructure(rs: PeerRootSignature): Uint8Array {
  const v = rs.version;
  const Range = v === 1 ? Range10 : Range11;
  const Descriptor = v === 1 ? Descriptor10 : Descriptor11;
  const Sampler = v === 3 ? Sampler12 : Sampler10;
  let size = Header.size() + Parameter.size() * rs.parameters.length + Sampler.size() * rs.staticSamplers.length;
  for (const p of rs.parameters) size += p.parameterType === 0 ? Table.size() + Range.size() * p.ranges!.length : p.parameterType === 1 ? Constants.size() : Descriptor.size();
  const out = new Uint8Array(size);
  const s = new r.EncodeStream(out);
  const payloads: number[] = [];
  let at = Header.size() + Parameter.size() * rs.parameters.length;
  for (const p of rs.parameters) {
    payloads.push(at);
    at += p.parameterType === 0 ? Table.size() + Range.size() * p.ranges!.length : p.parameterType === 1 ? Constants.size() : Descriptor.size();
  }
  Header.encode(s, { version: v, numParameters: rs.parameters.length, parametersOffset: Header.size(), numStaticSamplers: rs.staticSamplers.length, staticSamplersOffset: at, flags: rs.flags });
  rs.parameters.forEach((p, i) => Parameter.encode(s, { parameterType: p.parameterType, shaderVisibility: p.shaderVisibility, payloadOffset: payloads[i] }));
  rs.parameters.forEach((p, i) => {
    if (p.parameterType === 0) {
      Table.encode(s, { numDescriptorRanges: p.ranges!.length, descriptorRangesOffset: payloads[i]! + Table.size() });
      for (const range of p.ranges!) Range.encode(s, range);
    } else if (p.parameterType === 1) Constants.encode(s, p);
    else Descriptor.encode(s, p);
  });
  for (const sampler of rs.staticSamplers) Sampler.encode(s, sampler);
  return out;
}

export function wrapRestructure(rts0: Uint8Array): Uint8Array {
  const out = new Uint8Array(44 + rts0.byteLength);
  const s = new r.EncodeStream(out);
  ONE_PART.encode(s, { header: { magic: 0x43425844, digest: new Uint8Array(16), major: 1, minor: 0, size: out.byteLength, partCount: 1 }, offset: 36, part: { fourCC: 0x30535452, size: rts0.byteLength } });
  out.set(rts0, 44);
  signContainer(out);
  return out;
}

export function roundTripRestructure(container: Uint8Array): Uint8Array {
  return wrapRestructure(encodeRestructure(decodeRestructure(rts0OfContainerRestructure(container))));
}
