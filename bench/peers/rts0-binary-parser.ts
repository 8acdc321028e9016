/**
 * Bench peer: the RTS0 round trip with binary-parser, which decodes only: the container and the
 * RTS0 part are parsed with binary-parser (pointers for the offset-addressed blocks), then encoded
 * with the hand-written DataView writer of rts0-dataview.ts. The digest is dxbin's.
 */
import { Parser } from 'binary-parser';
import { containerDigestMatches } from '../../src/container/digest.js';
import { encodeDataView, wrapRts0, type PeerParameter, type PeerRootSignature } from './rts0-dataview.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const container = new Parser()
  .endianness('little')
  .uint32('magic')
  .buffer('digest', { length: 16 })
  .uint16('major')
  .uint16('minor')
  .uint32('size')
  .uint32('partCount')
  .array('offsets', { type: 'uint32le', length: 'partCount' });
const partHeader = new Parser().endianness('little').uint32('fourCC').uint32('size');

function build(version: 1 | 2 | 3) {
  const withFlags = (p: Parser, name: string) => (version >= 2 ? p.uint32le(name) : p);
  const range = withFlags(new Parser().endianness('little').uint32('rangeType').uint32('numDescriptors').uint32('baseShaderRegister').uint32('registerSpace'), 'flags').uint32('offsetInDescriptorsFromTableStart');
  const table = new Parser().endianness('little').uint32('numDescriptorRanges').uint32('descriptorRangesOffset')
    .pointer('ranges', { offset: 'descriptorRangesOffset', type: new Parser().array('items', { type: range, length: function (this: any) { return this.$parent.numDescriptorRanges; } }) });
  const constants = new Parser().endianness('little').uint32('shaderRegister').uint32('registerSpace').uint32('num32BitValues');
  const descriptor = withFlags(new Parser().endianness('little').uint32('shaderRegister').uint32('registerSpace'), 'flags');
  const parameter = new Parser().useContextVars().endianness('little').uint32('parameterType').uint32('shaderVisibility').uint32('payloadOffset')
    .pointer('payload', { offset: 'payloadOffset', type: new Parser().useContextVars().choice('value', { tag: function (this: any) { return this.$parent.parameterType; }, choices: { 0: table, 1: constants, 2: descriptor, 3: descriptor, 4: descriptor } }) });
  let sampler = new Parser().endianness('little').uint32('filter').uint32('addressU').uint32('addressV').uint32('addressW').floatle('mipLODBias').uint32('maxAnisotropy')
    .uint32('comparisonFunc').uint32('borderColor').floatle('minLOD').floatle('maxLOD').uint32('shaderRegister').uint32('registerSpace').uint32('shaderVisibility');
  if (version === 3) sampler = sampler.uint32('flags');
  return new Parser().useContextVars().endianness('little').uint32('version').uint32('numParameters').uint32('parametersOffset').uint32('numStaticSamplers').uint32('staticSamplersOffset').uint32('flags')
    .pointer('parameters', { offset: 'parametersOffset', type: new Parser().useContextVars().array('items', { type: parameter, length: function (this: any) { return this.$parent.numParameters; } }) })
    .pointer('staticSamplers', { offset: 'staticSamplersOffset', type: new Parser().useContextVars().array('items', { type: sampler, length: function (this: any) { return this.$parent.numStaticSamplers; } }) });
}
const parsers = { 1: build(1), 2: build(2), 3: build(3) };

export function decodeBinaryParser(part: Uint8Array): PeerRootSignature {
  const version = (part[0]! | (part[1]! << 8)) as 1 | 2 | 3;
  const raw = parsers[version].parse(part) as any;
  return {
    version,
    flags: raw.flags,
    parameters: raw.parameters.items.map((p: any): PeerParameter => {
      const v = p.payload.value;
      if (p.parameterType === 0) return { parameterType: 0, shaderVisibility: p.shaderVisibility, ranges: v.ranges.items.map((x: any) => ({ ...x, flags: x.flags ?? 0 })) };
      if (p.parameterType === 1) return { parameterType: 1, shaderVisibility: p.shaderVisibility, shaderRegister: v.shaderRegister, registerSpace: v.registerSpace, num32BitValues: v.num32BitValues };
      return { parameterType: p.parameterType, shaderVisibility: p.shaderVisibility, shaderRegister: v.shaderRegister, registerSpace: v.registerSpace, flags: v.flags ?? 0 };
    }),
    staticSamplers: raw.staticSamplers.items.map((x: any) => ({ ...x, flags: x.flags ?? 0 })),
  };
}

export function roundTripBinaryParser(bytes: Uint8Array): Uint8Array {
  const h = container.parse(bytes) as { magic: number; size: number; offsets: number[] };
  if (h.magic !== 0x43425844) throw new Error('not a DXBC container');
  if (h.size > bytes.byteLength || !containerDigestMatches(bytes, h.size)) throw new Error('bad digest');
  for (const o of h.offsets) {
    const p = partHeader.parse(bytes.subarray(o)) as { fourCC: number; size: number };
    if (p.fourCC === 0x30535452) return wrapRts0(encodeDataView(decodeBinaryParser(bytes.subarray(o + 8, o + 8 + p.size))));
  }
  throw new Error('no RTS0 part');
}
