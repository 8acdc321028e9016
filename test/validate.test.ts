/**
 * One test per validation rule (docs/formats/rts0.md, validation): a minimal offending description, its code, path and exact
 * message. The messages of the DXC rules are DXC's own text, taken from DXC's source
 * (lib/DxilRootSignature/DxilRootSignatureValidator.cpp; docs/decisions.md, "Validation messages"),
 * not from dxbin's output; DXC's oddities included (no brackets or period after ParameterType, no
 * period after a descriptor range overflow, the count of DATA_* flags, `root parameter[i]` and the
 * ALL visibility in overlaps). Rules 21 and 24 print a float, whose spelling DXC leaves to its
 * stream (see docs/decisions.md): their text is dxbin's. Rules 14 and 25-28 are not DXC's.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateRootSignature, type DescriptorRange, type RootParameter, type RootSignature, type StaticSampler, type ValidationTarget } from '../src/index.js';
import { VALIDATION_RULES } from '../codecs/validation-rules.js';
import { corpusFiles, isLlvmTestBlob } from './helpers/corpus.js';
import { readRootSignatureSource } from '../src/index.js';

const APPEND = 0xffffffff;
const range = (o: Partial<DescriptorRange> = {}): DescriptorRange => ({ rangeType: 0, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: APPEND, ...o });
const table = (ranges: DescriptorRange[], shaderVisibility = 0): RootParameter => ({ parameterType: 0, shaderVisibility, ranges });
const cbv = (shaderRegister: number, o: { space?: number; flags?: number; visibility?: number; type?: 2 | 3 | 4 } = {}): RootParameter => ({
  parameterType: o.type ?? 2,
  shaderVisibility: o.visibility ?? 0,
  descriptor: { shaderRegister, registerSpace: o.space ?? 0, flags: o.flags ?? 0 },
});
const sampler = (o: Partial<StaticSampler> = {}): StaticSampler => ({
  filter: 0x55, addressU: 1, addressV: 1, addressW: 1, mipLODBias: 0, maxAnisotropy: 16, comparisonFunc: 4, borderColor: 2,
  minLOD: 0, maxLOD: 3.4028234663852886e38, shaderRegister: 0, registerSpace: 0, shaderVisibility: 0, flags: 0, ...o,
});
const rs = (o: Partial<RootSignature>): RootSignature => ({ version: 2, flags: 0, parameters: [], staticSamplers: [], ...o });

/**
 * Where each rule applies, written here by hand (not read from codecs/validation-rules.ts, the
 * table under test). DXC: the rules DXC's validator checks (DxilRootSignatureValidator.cpp and,
 * for #29, its root signature parser); it does not check 14, 25, 27 and 28, and 26 does not apply. Runtime: every rule but #28 (LLVM's alone) and #29 (a DXC parser check), as
 * docs/decisions.md records ("Runtime-only rules: #14, #25, #26, #27").
 */
const DXC_RULES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 29]);
const RUNTIME_RULES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]);

/** Expects exactly one violation under `target` (stable code written by hand), and checks which targets apply the rule. */
function rule(n: number, code: string, desc: RootSignature, path: string, message: string, options: { target?: ValidationTarget; global?: boolean } = {}) {
  test(`rule ${n} ${code}`, () => {
    const target = options.target ?? 'all';
    const found = validateRootSignature(desc, { target, global: options.global });
    assert.equal(found, [{ code, rule: n, path, message }]);
    for (const [t, set] of [['runtime', RUNTIME_RULES], ['dxc', DXC_RULES]] as const) {
      const applies = set.has(n);
      assert.is(validateRootSignature(desc, { target: t, global: options.global }).some((v) => v.rule === n), applies, `rule ${n} ${applies ? 'applies' : 'does not apply'} under target ${t}`);
    }
  });
}

rule(1, 'root-flags-unsupported', rs({ flags: 0x1000 }), 'RTS0.flags', 'Unsupported bit-flag set (root signature flags 1000).');
test('rule 1: 0x80000000 is accepted by DXC only', () => {
  assert.equal(validateRootSignature(rs({ flags: 0x80000000 }), { target: 'dxc' }), []);
  assert.is(validateRootSignature(rs({ flags: 0x80000000 }), { target: 'runtime' })[0]!.code, 'root-flags-unsupported');
});
rule(2, 'parameter-type-unsupported', rs({ parameters: [{ parameterType: 5, shaderVisibility: 0 } as unknown as RootParameter] }), 'RTS0.parameters[0].parameterType', 'Unsupported ParameterType value 5 (root parameter 0)');
rule(3, 'shader-visibility-unsupported', rs({ parameters: [cbv(0, { visibility: 9 })] }), 'RTS0.parameters[0].shaderVisibility', 'Unsupported ShaderVisibility value 9 (root parameter [0]).');
test('rule 3 on a static sampler', () => {
  assert.equal(validateRootSignature(rs({ staticSamplers: [sampler({ shaderVisibility: 8 })] })).map((v) => v.message), ['Unsupported ShaderVisibility value 8 (static sampler [0]).']);
});
rule(4, 'range-type-unsupported', rs({ parameters: [table([range({ rangeType: 4 })])] }), 'RTS0.parameters[0].ranges[0].rangeType', 'Unsupported RangeType value 4 (descriptor table slot [0], root parameter [0]).');
rule(5, 'table-mixes-samplers', rs({ parameters: [table([range(), range({ rangeType: 3 })])] }), 'RTS0.parameters[0].ranges[1]', 'Samplers cannot be mixed with other resource types in a descriptor table (root parameter [0]).');
rule(6, 'range-empty', rs({ parameters: [table([range({ numDescriptors: 0 })])] }), 'RTS0.parameters[0].ranges[0].numDescriptors', 'NumDescriptors cannot be 0 (descriptor table slot [0], root parameter [0]).');
rule(
  7,
  'append-after-unbounded',
  rs({ parameters: [table([range({ numDescriptors: 0xffffffff }), range({ registerSpace: 1 })])] }),
  'RTS0.parameters[0].ranges[1].offsetInDescriptorsFromTableStart',
  'Cannot append range with implicit lower bound after an unbounded range (descriptor table slot [1], root parameter [0]).',
);
rule(
  8,
  'register-range-overflow',
  rs({ parameters: [table([range({ baseShaderRegister: 0xffffffff, numDescriptors: 2, offsetInDescriptorsFromTableStart: 0 })])] }),
  'RTS0.parameters[0].ranges[0]',
  'Overflow for shader register range: BaseShaderRegister=4294967295, NumDescriptor=2; (descriptor table slot [0], root parameter [0]).',
);
rule(9, 'descriptor-range-overflow', rs({ parameters: [table([range({ numDescriptors: 3, offsetInDescriptorsFromTableStart: 0xfffffffe })])] }), 'RTS0.parameters[0].ranges[0]', 'Overflow for descriptor range (descriptor table slot [0], root parameter [0])');
rule(10, 'range-flags-unsupported', rs({ parameters: [table([range({ flags: 0x20 })])] }), 'RTS0.parameters[0].ranges[0].flags', 'Unsupported bit-flag set (descriptor range flags 20).');
rule(
  11,
  'sampler-range-data-flags',
  rs({ parameters: [table([range({ rangeType: 3, flags: 0x2 })])] }),
  'RTS0.parameters[0].ranges[0].flags',
  "Sampler descriptor ranges can't specify DATA_* flags since there is no data pointed to by samplers (descriptor range flags 2).",
);
rule(12, 'range-multiple-data-flags', rs({ parameters: [table([range({ flags: 0x6 })])] }), 'RTS0.parameters[0].ranges[0].flags', 'Descriptor range flags cannot specify more than one DATA_* flag at a time (descriptor range flags 6).');
rule(
  13,
  'range-volatile-data-static',
  rs({ parameters: [table([range({ flags: 0x9 })])] }),
  'RTS0.parameters[0].ranges[0].flags',
  "Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with the DATA_STATIC flag at the same time (descriptor range flags 9). DATA_STATIC_WHILE_SET_AT_EXECUTE is fine to combine with DESCRIPTORS_VOLATILE, since DESCRIPTORS_VOLATILE still requires descriptors don't change during execution. ",
);
rule(
  14,
  'range-volatile-keeping-bounds-checks',
  rs({ parameters: [table([range({ flags: 0x10001 })])] }),
  'RTS0.parameters[0].ranges[0].flags',
  'Descriptor range flags cannot specify DESCRIPTORS_VOLATILE with DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS (descriptor range flags 10001).',
);
rule(15, 'root-descriptor-flags-unsupported', rs({ parameters: [cbv(0, { flags: 0x1 })] }), 'RTS0.parameters[0].descriptor.flags', 'Unsupported bit-flag set (root descriptor flags 1).');
rule(16, 'root-descriptor-multiple-data-flags', rs({ parameters: [cbv(0, { flags: 0xa })] }), 'RTS0.parameters[0].descriptor.flags', 'Root descriptor flags cannot specify more than one DATA_* flag at a time (root descriptor flags 2).');
rule(
  17,
  'register-space-reserved',
  rs({ parameters: [cbv(0, { space: 0xfffffff0 })] }),
  'RTS0.parameters[0].descriptor.registerSpace',
  'Root parameter [0] specifies RegisterSpace=fffffff0, which is invalid since RegisterSpace values in the range [fffffff0,ffffffff] are reserved for system use.',
);
rule(
  18,
  'register-overlap',
  rs({ parameters: [cbv(0), cbv(0)] }),
  'RTS0.parameters[1].descriptor',
  'Shader register range of type CBV (root parameter [1], visibility ALL) overlaps with another shader register range (root parameter [0], visibility ALL).',
);
test('rule 18: classes, spaces, visibilities and static samplers', () => {
  const messages = (d: RootSignature) => validateRootSignature(d).map((v) => v.message);
  assert.equal(messages(rs({ parameters: [cbv(0, { visibility: 1 }), cbv(0, { visibility: 5 })] })), [], 'VERTEX and PIXEL do not overlap');
  assert.equal(messages(rs({ parameters: [cbv(0), cbv(0, { space: 1 })] })), [], 'other space');
  assert.equal(messages(rs({ parameters: [cbv(3, { type: 3 }), cbv(3, { type: 4 })] })), [], 'SRV and UAV are different classes');
  assert.equal(messages(rs({ parameters: [{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 0, registerSpace: 0, num32BitValues: 1 } }, cbv(0)] })), [
    'Shader register range of type CBV (root parameter [1], visibility ALL) overlaps with another shader register range (root parameter [0], visibility ALL).',
  ]);
  assert.equal(messages(rs({ parameters: [table([range({ rangeType: 3 })], 5)], staticSamplers: [sampler({ shaderVisibility: 0 })] })), [
    'Shader register range of type SAMPLER (static sampler [0], visibility ALL) overlaps with another shader register range (root parameter[0], visibility ALL, descriptor table slot [0]).',
  ]);
  assert.equal(messages(rs({ parameters: [table([range({ numDescriptors: 2 }), range({ baseShaderRegister: 1 })])] })), [
    'Shader register range of type SRV (root parameter [0], visibility ALL, descriptor table slot [1]) overlaps with another shader register range (root parameter[0], visibility ALL, descriptor table slot [0]).',
  ]);
});
rule(19, 'sampler-filter-unrecognized', rs({ staticSamplers: [sampler({ filter: 0x2 })] }), 'RTS0.staticSamplers[0].filter', 'Static sampler: Filter unrecognized.');
test('rule 19: MIN_MAG_ANISOTROPIC_MIP_POINT is known to the runtime, not to DXC', () => {
  assert.equal(validateRootSignature(rs({ staticSamplers: [sampler({ filter: 0x54 })] }), { target: 'runtime' }), []);
  assert.is(validateRootSignature(rs({ staticSamplers: [sampler({ filter: 0x54 })] }), { target: 'dxc' })[0]!.code, 'sampler-filter-unrecognized');
});
rule(20, 'sampler-address-unrecognized', rs({ staticSamplers: [sampler({ addressV: 0 })] }), 'RTS0.staticSamplers[0].addressV', 'Static sampler: AddressV unrecognized.');
rule(21, 'sampler-mip-lod-bias-range', rs({ staticSamplers: [sampler({ mipLODBias: 20 })] }), 'RTS0.staticSamplers[0].mipLODBias', 'Static sampler: MipLODBias must be in the range [-16 to 15.99].  20 specified (static sampler [0]).');
test('rule 21: 15.99 itself (as f32) and -16 are accepted', () => {
  assert.equal(validateRootSignature(rs({ staticSamplers: [sampler({ mipLODBias: Math.fround(15.99) }), sampler({ mipLODBias: -16, shaderRegister: 1 })] })), []);
});
rule(22, 'sampler-max-anisotropy-range', rs({ staticSamplers: [sampler({ maxAnisotropy: 17 })] }), 'RTS0.staticSamplers[0].maxAnisotropy', 'Static sampler: MaxAnisotropy must be in the range [0 to 16].  17 specified.');
rule(23, 'sampler-comparison-func-unrecognized', rs({ staticSamplers: [sampler({ filter: 0xd5, comparisonFunc: 0 })] }), 'RTS0.staticSamplers[0].comparisonFunc', 'Static sampler: ComparisonFunc unrecognized.');
test('rule 23: non-comparison filters accept any ComparisonFunc', () => {
  assert.equal(validateRootSignature(rs({ staticSamplers: [sampler({ comparisonFunc: 0 })] })), []);
});
rule(24, 'sampler-lod-nan', rs({ staticSamplers: [sampler({ maxLOD: NaN })] }), 'RTS0.staticSamplers[0].maxLOD', 'Static sampler: MaxLOD must be in the range [-INF to +INF].  NaN specified (static sampler [0]).');
rule(25, 'sampler-border-color-unrecognized', rs({ staticSamplers: [sampler({ borderColor: 5 })] }), 'RTS0.staticSamplers[0].borderColor', 'Static sampler: BorderColor unrecognized (5) (static sampler [0]).');
rule(26, 'sampler-flags-unsupported', rs({ version: 3, staticSamplers: [sampler({ flags: 0x4 })] }), 'RTS0.staticSamplers[0].flags', 'Unsupported bit-flag set (static sampler flags 4) (static sampler [0]).');
rule(27, 'root-cost-exceeded', rs({ parameters: [{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 0, registerSpace: 0, num32BitValues: 65 } }] }), 'RTS0.parameters', 'Root signature cost 65 exceeds maximum allowed cost 64.');
test('rule 27: cost exactly 64 is accepted (32 root CBVs)', () => {
  assert.equal(validateRootSignature(rs({ parameters: Array.from({ length: 32 }, (_, i) => cbv(i)) })), []);
  assert.is(validateRootSignature(rs({ parameters: Array.from({ length: 33 }, (_, i) => cbv(i)) }))[0]!.message, 'Root signature cost 66 exceeds maximum allowed cost 64.');
});
rule(28, 'shader-register-max', rs({ parameters: [cbv(0xffffffff)] }), 'RTS0.parameters[0].descriptor.shaderRegister', 'ShaderRegister 0xffffffff is not a usable register (root parameter [0]).');
rule(29, 'local-flag-in-global', rs({ flags: 0x80 }), 'RTS0.flags', 'LOCAL_ROOT_SIGNATURE flag used in global root signature.', { global: true });

test('version 1.0 is checked in its 1.1 form: a 1.0 sampler table is valid', () => {
  assert.equal(validateRootSignature(rs({ version: 1, parameters: [table([range({ rangeType: 3 })])] }), { target: 'all' }), []);
});

test('all violations are reported, in order', () => {
  const found = validateRootSignature(rs({ flags: 0x1000, parameters: [table([range({ numDescriptors: 0 }), range({ flags: 0x20 })])], staticSamplers: [sampler({ addressU: 9, maxAnisotropy: 99 })] }));
  assert.equal(found.map((v) => v.code), ['root-flags-unsupported', 'range-empty', 'range-flags-unsupported', 'sampler-address-unrecognized', 'sampler-max-anisotropy-range']);
});

test('every Microsoft-made corpus root signature validates clean under runtime and dxc', () => {
  let n = 0;
  for (const f of [...corpusFiles('rootsig'), ...corpusFiles('shaders')]) {
    if (isLlvmTestBlob(f.name)) continue;
    let source;
    try {
      source = readRootSignatureSource(f.bytes);
    } catch {
      continue; // a shader without RTS0
    }
    for (const target of ['runtime', 'dxc'] as const) assert.equal(validateRootSignature(source.rootSignature, { target }), [], `${f.name} (${target})`);
    n++;
  }
  assert.is(n, 923);
});

test('the rule table holds rules 1 to 29, each tested above', () => {
  assert.equal(VALIDATION_RULES.map(([rule]) => rule), Array.from({ length: 29 }, (_, i) => i + 1));
});

test.run();
