/**
 * Bench peer: the RTS0 round trip as a developer would hand-write it with DataView (named fields
 * per record, bounds left to DataView's RangeError, canonical layout on encode). The container
 * framing is hand-written too; the digest is dxbin's (no library offers DXC's modified MD5).
 */
import { containerDigestMatches, signContainer } from '../../src/container/digest.js';

export interface PeerRange {
  rangeType: number;
  numDescriptors: number;
  baseShaderRegister: number;
  registerSpace: number;
  flags: number;
  offsetInDescriptorsFromTableStart: number;
}
export interface PeerParameter {
  parameterType: number;
  shaderVisibility: number;
  ranges?: PeerRange[];
  shaderRegister?: number;
  registerSpace?: number;
  num32BitValues?: number;
  flags?: number;
}
export interface PeerSampler {
  filter: number;
  addressU: number;
  addressV: number;
  addressW: number;
  mipLODBias: number;
  maxAnisotropy: number;
  comparisonFunc: number;
  borderColor: number;
  minLOD: number;
  maxLOD: number;
  shaderRegister: number;
  registerSpace: number;
  shaderVisibility: number;
  flags: number;
}
export interface PeerRootSignature {
  version: number;
  flags: number;
  parameters: PeerParameter[];
  staticSamplers: PeerSampler[];
}

/** The RTS0 part of a container (a view), after checking the magic and the digest. */
export function rts0OfContainer(bytes: Uint8Array): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, true) !== 0x43425844) throw new Error('not a DXBC container');
  const size = v.getUint32(24, true);
  if (size > bytes.byteLength) throw new Error('container size past the data');
  if (!containerDigestMatches(bytes, size)) throw new Error('bad digest');
  const count = v.getUint32(28, true);
  for (let i = 0; i < count; i++) {
    const at = v.getUint32(32 + 4 * i, true);
    if (v.getUint32(at, true) === 0x30535452) return bytes.subarray(at + 8, at + 8 + v.getUint32(at + 4, true));
  }
  throw new Error('no RTS0 part');
}

/** A root-signature-only container around `rts0`, with its digest. */
export function wrapRts0(rts0: Uint8Array): Uint8Array {
  const out = new Uint8Array(44 + rts0.byteLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x43425844, true);
  v.setUint16(20, 1, true);
  v.setUint32(24, out.byteLength, true);
  v.setUint32(28, 1, true);
  v.setUint32(32, 36, true);
  v.setUint32(36, 0x30535452, true);
  v.setUint32(40, rts0.byteLength, true);
  out.set(rts0, 44);
  signContainer(out);
  return out;
}

export function decodeDataView(part: Uint8Array): PeerRootSignature {
  const v = new DataView(part.buffer, part.byteOffset, part.byteLength);
  const version = v.getUint32(0, true);
  if (version < 1 || version > 3) throw new Error(`version ${version}`);
  const numParameters = v.getUint32(4, true);
  const parametersOffset = v.getUint32(8, true);
  const numStaticSamplers = v.getUint32(12, true);
  const staticSamplersOffset = v.getUint32(16, true);
  const parameters: PeerParameter[] = [];
  for (let i = 0; i < numParameters; i++) {
    const at = parametersOffset + 12 * i;
    const parameterType = v.getUint32(at, true);
    const shaderVisibility = v.getUint32(at + 4, true);
    const payload = v.getUint32(at + 8, true);
    if (parameterType === 0) {
      const n = v.getUint32(payload, true);
      const rangesAt = v.getUint32(payload + 4, true);
      const size = version === 1 ? 20 : 24;
      const ranges: PeerRange[] = [];
      for (let j = 0; j < n; j++) {
        const r = rangesAt + size * j;
        ranges.push({
          rangeType: v.getUint32(r, true),
          numDescriptors: v.getUint32(r + 4, true),
          baseShaderRegister: v.getUint32(r + 8, true),
          registerSpace: v.getUint32(r + 12, true),
          flags: version === 1 ? 0 : v.getUint32(r + 16, true),
          offsetInDescriptorsFromTableStart: v.getUint32(r + size - 4, true),
        });
      }
      parameters.push({ parameterType, shaderVisibility, ranges });
    } else if (parameterType === 1) {
      parameters.push({ parameterType, shaderVisibility, shaderRegister: v.getUint32(payload, true), registerSpace: v.getUint32(payload + 4, true), num32BitValues: v.getUint32(payload + 8, true) });
    } else if (parameterType <= 4) {
      parameters.push({ parameterType, shaderVisibility, shaderRegister: v.getUint32(payload, true), registerSpace: v.getUint32(payload + 4, true), flags: version === 1 ? 0 : v.getUint32(payload + 8, true) });
    } else throw new Error(`parameter type ${parameterType}`);
  }
  const samplerSize = version === 3 ? 56 : 52;
  const staticSamplers: PeerSampler[] = [];
  for (let k = 0; k < numStaticSamplers; k++) {
    const s = staticSamplersOffset + samplerSize * k;
    staticSamplers.push({
      filter: v.getUint32(s, true),
      addressU: v.getUint32(s + 4, true),
      addressV: v.getUint32(s + 8, true),
      addressW: v.getUint32(s + 12, true),
      mipLODBias: v.getFloat32(s + 16, true),
      maxAnisotropy: v.getUint32(s + 20, true),
      comparisonFunc: v.getUint32(s + 24, true),
      borderColor: v.getUint32(s + 28, true),
      minLOD: v.getFloat32(s + 32, true),
      maxLOD: v.getFloat32(s + 36, true),
      shaderRegister: v.getUint32(s + 40, true),
      registerSpace: v.getUint32(s + 44, true),
      shaderVisibility: v.getUint32(s + 48, true),
      flags: version === 3 ? v.getUint32(s + 52, true) : 0,
    });
  }
  return { version, flags: v.getUint32(20, true), parameters, staticSamplers };
}

/** Canonical RTS0: header, parameter records, payloads in order (ranges after their table), samplers. */
export function encodeDataView(rs: PeerRootSignature): Uint8Array {
  const version = rs.version;
  const rangeSize = version === 1 ? 20 : 24;
  const descriptorSize = version === 1 ? 8 : 12;
  const samplerSize = version === 3 ? 56 : 52;
  let size = 24 + 12 * rs.parameters.length + samplerSize * rs.staticSamplers.length;
  for (const p of rs.parameters) size += p.parameterType === 0 ? 8 + rangeSize * p.ranges!.length : p.parameterType === 1 ? 12 : descriptorSize;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setUint32(0, version, true);
  v.setUint32(4, rs.parameters.length, true);
  v.setUint32(8, 24, true);
  v.setUint32(12, rs.staticSamplers.length, true);
  v.setUint32(20, rs.flags, true);
  let at = 24 + 12 * rs.parameters.length;
  rs.parameters.forEach((p, i) => {
    const record = 24 + 12 * i;
    v.setUint32(record, p.parameterType, true);
    v.setUint32(record + 4, p.shaderVisibility, true);
    v.setUint32(record + 8, at, true);
    if (p.parameterType === 0) {
      v.setUint32(at, p.ranges!.length, true);
      v.setUint32(at + 4, at + 8, true);
      at += 8;
      for (const r of p.ranges!) {
        v.setUint32(at, r.rangeType, true);
        v.setUint32(at + 4, r.numDescriptors, true);
        v.setUint32(at + 8, r.baseShaderRegister, true);
        v.setUint32(at + 12, r.registerSpace, true);
        if (version !== 1) v.setUint32(at + 16, r.flags, true);
        v.setUint32(at + rangeSize - 4, r.offsetInDescriptorsFromTableStart, true);
        at += rangeSize;
      }
    } else if (p.parameterType === 1) {
      v.setUint32(at, p.shaderRegister!, true);
      v.setUint32(at + 4, p.registerSpace!, true);
      v.setUint32(at + 8, p.num32BitValues!, true);
      at += 12;
    } else {
      v.setUint32(at, p.shaderRegister!, true);
      v.setUint32(at + 4, p.registerSpace!, true);
      if (version !== 1) v.setUint32(at + 8, p.flags!, true);
      at += descriptorSize;
    }
  });
  v.setUint32(16, at, true);
  for (const s of rs.staticSamplers) {
    v.setUint32(at, s.filter, true);
    v.setUint32(at + 4, s.addressU, true);
    v.setUint32(at + 8, s.addressV, true);
    v.setUint32(at + 12, s.addressW, true);
    v.setFloat32(at + 16, s.mipLODBias, true);
    v.setUint32(at + 20, s.maxAnisotropy, true);
    v.setUint32(at + 24, s.comparisonFunc, true);
    v.setUint32(at + 28, s.borderColor, true);
    v.setFloat32(at + 32, s.minLOD, true);
    v.setFloat32(at + 36, s.maxLOD, true);
    v.setUint32(at + 40, s.shaderRegister, true);
    v.setUint32(at + 44, s.registerSpace, true);
    v.setUint32(at + 48, s.shaderVisibility, true);
    if (version === 3) v.setUint32(at + 52, s.flags, true);
    at += samplerSize;
  }
  return out;
}

/** The whole round trip: container in, container out. */
export function roundTripDataView(container: Uint8Array): Uint8Array {
  return wrapRts0(encodeDataView(decodeDataView(rts0OfContainer(container))));
}
