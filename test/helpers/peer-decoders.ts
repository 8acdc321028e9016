/**
 * An independent RTS0 decoder written with binary-parser (a peer library users might otherwise
 * pick), used only to cross-check dxbin's decoder on real blobs.
 */
import { Parser } from 'binary-parser';
import type { RootSignature } from '../../src/index.js';

function build(version: 1 | 2 | 3) {
  const flagsIfStored = (p: Parser, name: string) => (version >= 2 ? p.uint32le(name) : p);
  const range = flagsIfStored(new Parser().useContextVars().endianness('little').uint32le('rangeType').uint32le('numDescriptors').uint32le('baseShaderRegister').uint32le('registerSpace'), 'flags').uint32le(
    'offsetInDescriptorsFromTableStart',
  );
  const table = new Parser().useContextVars()
    .endianness('little')
    .uint32le('numDescriptorRanges')
    .uint32le('descriptorRangesOffset')
    .pointer('ranges', { offset: 'descriptorRangesOffset', type: new Parser().useContextVars().array('items', { type: range, length: function (this: any) { return this.$parent.numDescriptorRanges; } }) });
  const constants = new Parser().useContextVars().endianness('little').uint32le('shaderRegister').uint32le('registerSpace').uint32le('num32BitValues');
  const descriptor = flagsIfStored(new Parser().useContextVars().endianness('little').uint32le('shaderRegister').uint32le('registerSpace'), 'flags');
  const parameter = new Parser().useContextVars()
    .endianness('little')
    .uint32le('parameterType')
    .uint32le('shaderVisibility')
    .uint32le('payloadOffset')
    .pointer('payload', {
      offset: 'payloadOffset',
      type: new Parser().useContextVars().choice('value', { tag: function (this: any) { return this.$parent.parameterType; }, choices: { 0: table, 1: constants, 2: descriptor, 3: descriptor, 4: descriptor } }),
    });
  let sampler = new Parser().useContextVars()
    .endianness('little')
    .uint32le('filter').uint32le('addressU').uint32le('addressV').uint32le('addressW').floatle('mipLODBias').uint32le('maxAnisotropy')
    .uint32le('comparisonFunc').uint32le('borderColor').floatle('minLOD').floatle('maxLOD').uint32le('shaderRegister').uint32le('registerSpace').uint32le('shaderVisibility');
  if (version === 3) sampler = sampler.uint32le('flags');
  return new Parser().useContextVars()
    .endianness('little')
    .uint32le('version')
    .uint32le('numParameters')
    .uint32le('parametersOffset')
    .uint32le('numStaticSamplers')
    .uint32le('staticSamplersOffset')
    .uint32le('flags')
    .pointer('parameters', { offset: 'parametersOffset', type: new Parser().useContextVars().array('items', { type: parameter, length: function (this: any) { return this.$parent.numParameters; } }) })
    .pointer('staticSamplers', { offset: 'staticSamplersOffset', type: new Parser().useContextVars().array('items', { type: sampler, length: function (this: any) { return this.$parent.numStaticSamplers; } }) });
}

const parsers = { 1: build(1), 2: build(2), 3: build(3) };

/** Decodes with binary-parser and reshapes into dxbin's typed description. */
export function decodeWithBinaryParser(part: Uint8Array): RootSignature {
  const version = new DataView(part.buffer, part.byteOffset).getUint32(0, true) as 1 | 2 | 3;
  const raw = parsers[version].parse(Buffer.from(part.buffer, part.byteOffset, part.byteLength)) as any;
  return {
    version,
    flags: raw.flags,
    parameters: raw.parameters.items.map((p: any) => {
      const v = p.payload.value;
      if (p.parameterType === 0) {
        return {
          parameterType: 0,
          shaderVisibility: p.shaderVisibility,
          ranges: v.ranges.items.map((r: any) => ({ ...r, flags: r.flags ?? 0 })),
        };
      }
      if (p.parameterType === 1) return { parameterType: 1, shaderVisibility: p.shaderVisibility, constants: { ...v } };
      return { parameterType: p.parameterType, shaderVisibility: p.shaderVisibility, descriptor: { shaderRegister: v.shaderRegister, registerSpace: v.registerSpace, flags: v.flags ?? 0 } };
    }),
    staticSamplers: raw.staticSamplers.items.map((s: any) => ({ ...s, flags: s.flags ?? 0 })),
  };
}
