/** The HLSL root signature language (docs/formats/hlsl-root-signature.md): worked examples, every quoted corpus string, round trips, DXC's test cases. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  HlslError,
  HlslFile,
  RootSignatureValidationError,
  compileRootSignature,
  compileRootSignatureBlob,
  decodeRootSignature,
  encodeRootSignature,
  looksLikeContainer,
  parseContainer,
  printRootSignature,
  printRootSignatureDefine,
  type RootSignature,
} from '../src/index.js';
import { floatText } from '../src/root-signature/hlsl/printer.js';
import { corpusFile, corpusFiles, fromWordDump, hex, isLlvmTestBlob } from './helpers/corpus.js';
import { quotedRootSignatures } from './helpers/manifest-hlsl.js';

const rts0Of = (bytes: Uint8Array) => (looksLikeContainer(bytes) ? parseContainer(bytes).parts.find((p) => p.name === 'RTS0')?.data : bytes);

// ---------------------------------------------------------------- worked examples, full containers with digests

const examples: [name: string, version: 1 | 2, text: string, dump: string][] = [
  ['empty', 1, '', '44584243 1dfc4ad6 3577c25d 4acbda9e faa7d86b 01000000 44000000 01000000 24000000 52545330 18000000 01000000 00000000 18000000 00000000 18000000 00000000'],
  ['E1 1.0', 1, 'CBV(b3, space = 0)', '44584243 7e08c58d 0dbfb95c e35a462e e0e09162 01000000 58000000 01000000 24000000 52545330 2c000000 01000000 01000000 18000000 00000000 2c000000 00000000 02000000 00000000 24000000 03000000 00000000'],
  [
    'E2 1.1',
    2,
    'DescriptorTable(CBV(b1, space = 7), SRV(t16, numDescriptors = 8), UAV(u3, numDescriptors = unbounded, offset = 44))',
    '44584243 ac029373 967fb39d c8eed91a cb085d7a 01000000 a0000000 01000000 24000000 52545330 74000000 02000000 01000000 18000000 00000000 74000000 00000000 00000000 00000000 24000000 03000000 2c000000 02000000 01000000 01000000 07000000 00000000 ffffffff 00000000 08000000 10000000 00000000 00000000 ffffffff 01000000 ffffffff 03000000 00000000 00000000 2c000000',
  ],
  [
    'E3 1.0 (case-insensitive names)',
    1,
    'StaticSampler(s0, filter = FILTER_MIN_MAG_MIP_POINT, addressV = TEXTURE_ADDRESS_CLAMP, visibility = SHADER_VISIBILITY_PIXEL), StaticSampler(s0, filter = FILTER_MIN_MAG_POINT_MIP_LINEAR, AddressW = TEXTURE_ADDRESS_BORDER, MipLODBias = 1, maxLod = 10, borderColor = STATIC_BORDER_COLOR_OPAQUE_BLACK, space = 3)',
    '44584243 6c52ed52 7c2d2c89 2311abb8 7d723a7e 01000000 ac000000 01000000 24000000 52545330 80000000 01000000 00000000 18000000 02000000 18000000 00000000 00000000 01000000 03000000 01000000 00000000 10000000 04000000 02000000 00000000 ffff7f7f 00000000 00000000 05000000 01000000 01000000 01000000 04000000 0000803f 10000000 04000000 01000000 00000000 00002041 00000000 03000000 00000000',
  ],
  [
    'E4 1.0',
    1,
    'RootConstants(num32BitConstants=3, b4), RootConstants(num32BitConstants=4, b5, space = 3)',
    '44584243 905501bc 45a3a4a9 5068447e 8152e02b 01000000 74000000 01000000 24000000 52545330 48000000 01000000 02000000 18000000 00000000 48000000 00000000 01000000 00000000 30000000 01000000 00000000 3c000000 04000000 00000000 03000000 05000000 03000000 04000000',
  ],
  [
    'E5 1.1',
    2,
    'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), CBV(b0, space=1, flags=DATA_STATIC), DescriptorTable(SRV(t0, numDescriptors=4), UAV(u1, numDescriptors=unbounded, flags=DESCRIPTORS_VOLATILE), visibility=SHADER_VISIBILITY_PIXEL), DescriptorTable(Sampler(s0, numDescriptors=2)), RootConstants(num32BitConstants=4, b2), StaticSampler(s3, filter=FILTER_MIN_MAG_MIP_LINEAR, addressU=TEXTURE_ADDRESS_CLAMP)',
    '44584243 93fd77b7 06549a4b 2a1e36c5 8127e2de 01000000 18010000 01000000 24000000 52545330 ec000000 02000000 04000000 18000000 01000000 b8000000 01000000 02000000 00000000 48000000 00000000 05000000 54000000 00000000 00000000 8c000000 01000000 00000000 ac000000 00000000 01000000 08000000 02000000 5c000000 00000000 04000000 00000000 00000000 00000000 ffffffff 01000000 ffffffff 01000000 00000000 01000000 ffffffff 01000000 94000000 03000000 02000000 00000000 00000000 00000000 ffffffff 02000000 00000000 04000000 15000000 03000000 01000000 01000000 00000000 10000000 04000000 02000000 00000000 ffff7f7f 03000000 00000000 00000000',
  ],
];
for (const [name, version, text, dump] of examples) {
  test(`compiles spec example ${name} to the bytes shown, digest included`, () => {
    assert.is(hex(compileRootSignatureBlob(text, { version })), hex(fromWordDump(dump)));
  });
}
test('E1 as 1.1, E2 with flags, E5 without flags as 1.0: the digests the spec gives', () => {
  const digest = (text: string, version: 1 | 2) => hex(compileRootSignatureBlob(text, { version }).subarray(4, 20));
  assert.is(digest('CBV(b3, space = 0)', 2), 'ade4f3663c5838993347af4e73ab4079');
  assert.is(digest('', 2), 'cb82187939dbc18393dc7e325b086331');
  assert.is(
    digest('DescriptorTable(CBV(b1, space = 7, flags = DESCRIPTORS_VOLATILE), SRV(t16, numDescriptors = 8, flags = DESCRIPTORS_VOLATILE | DATA_VOLATILE), UAV(u3, numDescriptors = unbounded, offset = 44, flags = DATA_STATIC))', 2),
    '8ffa7fe7d552b5fad4156e58266c184c',
  );
  assert.is(
    digest('RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), CBV(b0, space=1), DescriptorTable(SRV(t0, numDescriptors=4), UAV(u1, numDescriptors=unbounded), visibility=SHADER_VISIBILITY_PIXEL), DescriptorTable(Sampler(s0, numDescriptors=2)), RootConstants(num32BitConstants=4, b2), StaticSampler(s3, filter=FILTER_MIN_MAG_MIP_LINEAR, addressU=TEXTURE_ADDRESS_CLAMP)', 1),
    'b4f62b9ff884c985e496f6b216e4376b',
  );
});

// ---------------------------------------------------------------- the corpus

test('every root signature string MANIFEST.tsv quotes compiles, at the blob\'s version, to the Microsoft-made bytes', () => {
  const quoted = quotedRootSignatures();
  assert.is(quoted.length, 888);
  let compiled = 0;
  for (const { file, text } of quoted) {
    const part = rts0Of(corpusFile(file));
    // one DXIL library quotes an attribute but keeps its root signature in RDAT, not in RTS0
    if (!part) continue;
    const version = decodeRootSignature(part).version;
    assert.is(hex(compileRootSignatureBlob(text, { version, raw: true })), hex(part), `${file}: ${text}`);
    compiled++;
  }
  assert.is(compiled, 887);
});

function decompileRoundTrip(part: Uint8Array, name: string) {
  const rs = decodeRootSignature(part);
  const canonical = hex(encodeRootSignature(rs));
  for (const multiline of [false, true]) {
    const text = printRootSignature(rs, { multiline });
    const again = multiline ? new HlslFile(printRootSignatureDefine('RS', rs, { multiline }), `${name}.hlsl`).defineText('RS') : text;
    assert.is(hex(encodeRootSignature(compileRootSignature(again, { version: rs.version, validate: false }))), canonical, `${name} (${multiline ? 'multiline #define' : 'one line'}): ${text}`);
  }
}

test('compile(decompile(blob)) == blob for every corpus root signature (LLVM test blobs: their canonical encoding)', () => {
  let n = 0;
  for (const f of [...corpusFiles('rootsig'), ...corpusFiles('shaders')]) {
    if (f.name.includes('invalid_header')) continue;
    const part = rts0Of(f.bytes);
    if (!part) continue;
    decompileRoundTrip(part, f.name);
    if (!isLlvmTestBlob(f.name)) assert.is(hex(encodeRootSignature(decodeRootSignature(part))), hex(part));
    n++;
  }
  assert.is(n, 930);
});

test('printer: defaults are left out, every other value is printed', () => {
  const rs = compileRootSignature('StaticSampler(s0, space = 0, maxLOD = 3.402823466e+38, visibility = SHADER_VISIBILITY_ALL), CBV(b1, flags = 0)');
  assert.is(printRootSignature(rs), 'CBV(b1), StaticSampler(s0)');
  assert.is(floatText(3.4028234663852886e38, 'x'), '3.402823466e+38');
  assert.is(floatText(Math.fround(1.23), 'x'), '1.23');
  assert.is(floatText(-0, 'x'), '-0.0');
  assert.is(floatText(Math.fround(-3e9), 'x'), '-3000000000.0');
  assert.throws(() => printRootSignature({ version: 2, flags: 0x1000, parameters: [], staticSamplers: [] }), /bits 0x1000 have no HLSL spelling/);
});

test('random descriptions the language can spell survive print -> compile, both forms', () => {
  const spellable = fc.record({
    version: fc.constantFrom(1 as const, 2 as const, 3 as const),
    registers: fc.array(fc.nat({ max: 0xffffffff }), { minLength: 6, maxLength: 6 }),
    floats: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 3, maxLength: 3 }),
    vis: fc.nat({ max: 7 }),
    rootFlags: fc.nat({ max: 0xfff }),
    rangeFlags: fc.constantFrom(0, 1, 2, 4, 8, 0x10000, 0x10008),
    filter: fc.constantFrom(0, 0x15, 0x55, 0x95, 0xd5, 0x1d5),
  });
  fc.assert(
    fc.property(spellable, (o) => {
      const flags = (v: number) => (o.version >= 2 ? v : 0);
      const rs: RootSignature = {
        version: o.version,
        flags: o.rootFlags,
        parameters: [
          { parameterType: 0, shaderVisibility: o.vis, ranges: [{ rangeType: 1, numDescriptors: o.registers[0]!, baseShaderRegister: o.registers[1]!, registerSpace: o.registers[2]!, flags: flags(o.rangeFlags), offsetInDescriptorsFromTableStart: o.registers[3]! }] },
          { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: o.registers[4]!, registerSpace: 0, num32BitValues: o.registers[5]! } },
          { parameterType: 3, shaderVisibility: o.vis, descriptor: { shaderRegister: 1, registerSpace: o.registers[0]!, flags: flags(8) } },
        ],
        staticSamplers: [
          {
            filter: o.filter, addressU: 5, addressV: 4, addressW: 1, mipLODBias: Math.fround(o.floats[0]!), maxAnisotropy: o.registers[1]!, comparisonFunc: 8, borderColor: 4,
            minLOD: Math.fround(o.floats[1]!), maxLOD: Math.fround(o.floats[2]!), shaderRegister: o.registers[2]!, registerSpace: 9, shaderVisibility: o.vis, flags: o.version === 3 ? 3 : 0,
          },
        ],
      };
      decompileRoundTrip(encodeRootSignature(rs), 'random');
    }),
    { numRuns: 400, seed: 17 },
  );
});

// ---------------------------------------------------------------- errors, as DXC reports them

const fails: [text: string, version: 1 | 2, column: number, message: string][] = [
  ['XescriptorTable(SRV(x))', 2, 1, "Unexpected token 'XescriptorTable' when parsing root signature"],
  ['CBV(b0', 2, 7, "Unexpected token ''"],
  ['CBV(t3)', 2, 5, "Incorrect register type 't3' in CBV (expected b#)"],
  ['DescriptorTable(Sampler(t0))', 2, 25, "Incorrect register type 't0' in Sampler/StaticSampler (expected s#)"],
  ['CBV(s0)', 2, 5, "Unexpected token 's0'"],
  ['RootConstants(num32BitConstants=1, t0)', 2, 36, "Unexpected token 't0'"],
  ['RootFlags(1)', 2, 11, "Root signature flag values can only be 0 or flag enum values, found: '1'"],
  ['RootFlags(0 | ALLOW_STREAM_OUTPUT)', 2, 13, "Unexpected token '|'"],
  ['RootFlags()', 2, 11, "Expected a root signature flag value, found: ')'"],
  ['RootFlags(0), RootFlags(0)', 2, 15, 'RootFlags cannot be specified more than once'],
  ['DescriptorTable()', 2, 17, "Unexpected token ')'"],
  ['CBV(b0),,', 2, 9, "Unexpected token ',' when parsing root signature"],
  ['CBV(b0) SRV(t0)', 2, 9, "Expected ',', found: 'SRV'"],
  ['CBV(b0,)', 2, 8, "Unexpected token ')'"],
  ['CBV(b0)\tSRV(t0)', 2, 8, "Expected ',', found: '\t'"],
  ['CBV(b0, space = 1, space = 2)', 2, 20, "Parameter 'space' can be specified only once"],
  ['CBV(b0, b1)', 2, 9, "Parameter 'shader register' can be specified only once"],
  ['CBV(space = 1)', 2, 15, 'shader register must be defined for each CBV/SRV/UAV'],
  ['RootConstants(b0)', 2, 18, 'num32BitConstants must be defined for each RootConstants'],
  ['RootConstants(num32BitConstants = 1)', 2, 37, 'Constant buffer register b# must be defined for each RootConstants'],
  ['StaticSampler(filter = FILTER_ANISOTROPIC)', 2, 43, 'Sampler register s# must be defined for each static sampler'],
  ['CBV(b0, space = -1)', 2, 17, "Unexpected token '-1'"],
  ['CBV(b0, space = 4294967296)', 2, 17, "Unexpected token '4294967296'"],
  ['CBV(b0, visibility = SHADER_VISIBILITY_COMPUTE)', 2, 22, "Unexpected visibility value: 'SHADER_VISIBILITY_COMPUTE'."],
  ['StaticSampler(s0, filter = FILTER_MIN_MAG_ANISOTROPIC_MIP_POINT)', 2, 28, "Unexpected filter value: 'FILTER_MIN_MAG_ANISOTROPIC_MIP_POINT'."],
  ['StaticSampler(s0, addressU = WRAP)', 2, 30, "Unexpected texture address mode value: 'WRAP'."],
  ['StaticSampler(s0, maxLOD = FLT_MAX)', 2, 28, "Expected float, found token 'FLT_MAX'"],
  ['StaticSampler(s0, maxLOD = 3.4028235e+38)', 2, 28, "Expected float, found token '3.4028235e+38'"],
  ['CBV(b0, flags = DATA_STATIC)', 1, 9, 'Root descriptor flags cannot be specified for root_sig_1_0'],
  ['DescriptorTable(SRV(t0, flags = 0))', 1, 25, 'Descriptor range flags cannot be specified for root_sig_1_0'],
  ['CBV(b0, flags = DESCRIPTORS_VOLATILE)', 2, 17, "Expected a root descriptor flag value, found: 'DESCRIPTORS_VOLATILE'"],
  ['DescriptorTable(SRV(t0, flags = 2))', 2, 33, "Descriptor range flag values can only be 0 or flag enum values, found: '2'"],
  ['StaticSampler(s0, flags = UINT_BORDER_COLOR)', 2, 19, "Unexpected token 'flags'"],
  ['Sampler(s0)', 2, 1, "Unexpected token 'Sampler' when parsing root signature"],
  ['CBV(B0)', 2, 5, "Unexpected token 'B0'"],
  ['CBV(b0)#', 2, 8, "Expected ',', found: '#'"],
];
for (const [text, version, column, message] of fails) {
  test(`rejects ${JSON.stringify(text)}: ${message}`, () => {
    try {
      compileRootSignature(text, { version });
      assert.unreachable('accepted');
    } catch (e) {
      assert.instance(e, HlslError);
      assert.is((e as HlslError).detail, message);
      assert.equal((e as HlslError).location, { file: '<string>', line: 1, column });
      assert.is((e as Error).message, `<string>:1:${column}: error: root signature error - ${message}`);
    }
  });
}

const accepts: [text: string, check: (rs: RootSignature) => void][] = [
  ['', (rs) => assert.equal(rs.parameters, [])],
  ['CBV(b0),', (rs) => assert.is(rs.parameters.length, 1)],
  ['cbv(B0_IS_NOT_A_REGISTER_BUT_b0_IS, b0)'.replace('B0_IS_NOT_A_REGISTER_BUT_b0_IS, ', ''), (rs) => assert.is(rs.parameters[0]!.parameterType, 2)],
  ['RootFlags(0)', (rs) => assert.is(rs.flags, 0)],
  ['rootflags(deny_vertex_shader_root_access|Allow_Stream_Output)', (rs) => assert.is(rs.flags, 0x42)],
  ['DescriptorTable(visibility = SHADER_VISIBILITY_MESH)', (rs) => assert.equal(rs.parameters[0], { parameterType: 0, shaderVisibility: 7, ranges: [] })],
  ['DescriptorTable(SRV(t0, numDescriptors = 4294967295, offset = 4294967295))', (rs) => assert.equal((rs.parameters[0] as { ranges: { numDescriptors: number }[] }).ranges[0]!.numDescriptors, 0xffffffff)],
  ['StaticSampler(s0, mipLODBias = -2, minLOD = .5, maxLOD = 16f)', (rs) => assert.equal([rs.staticSamplers[0]!.mipLODBias, rs.staticSamplers[0]!.minLOD, rs.staticSamplers[0]!.maxLOD], [-2, 0.5, 16])],
  ['StaticSampler(s0, comparisonFunc = COMPARISON_NONE, filter = FILTER_MAXIMUM_ANISOTROPIC)', (rs) => assert.equal([rs.staticSamplers[0]!.comparisonFunc, rs.staticSamplers[0]!.filter], [0, 0x1d5])],
  ['CBV(b0, flags = DATA_STATIC_WHILE_SET_AT_EXECUTE | DATA_STATIC_WHILE_SET_AT_EXECUTE)', (rs) => assert.is((rs.parameters[0] as { descriptor: { flags: number } }).descriptor.flags, 4)],
];
for (const [text, check] of accepts) test(`accepts ${JSON.stringify(text)}`, () => check(compileRootSignature(text)));

test('1.2: static sampler flags (Clang spelling) and version 1.2 output', () => {
  const rs = compileRootSignature('StaticSampler(s0, borderColor = STATIC_BORDER_COLOR_OPAQUE_BLACK_UINT, flags = UINT_BORDER_COLOR)', { version: 3 });
  assert.is(rs.version, 3);
  assert.is(rs.staticSamplers[0]!.flags, 1);
  assert.is(compileRootSignatureBlob('', { version: 3, raw: true }).byteLength, 24);
});

test('validation runs as in DXC: the text parses, the signature is invalid', () => {
  try {
    compileRootSignature('DescriptorTable(SRV(t0), Sampler(s0))');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, RootSignatureValidationError);
    assert.equal((e as RootSignatureValidationError).violations.map((v) => v.code), ['table-mixes-samplers']);
  }
  assert.is(compileRootSignature('DescriptorTable(SRV(t0), Sampler(s0))', { validate: false }).parameters.length, 1);
});

test('LOCAL_ROOT_SIGNATURE: an error in a global root signature, added to a local one', () => {
  assert.throws(() => compileRootSignature('RootFlags(LOCAL_ROOT_SIGNATURE)', { global: true }), /LOCAL_ROOT_SIGNATURE flag used in global root signature/);
  assert.is(compileRootSignature('CBV(b0)', { local: true }).flags, 0x80);
});

// ---------------------------------------------------------------- HLSL files, and DXC's own test cases

/**
 * Cases from DXC's test suite (microsoft/DirectXShaderCompiler tools/clang/test/DXILValidation,
 * commit 5d1f9fcaa627), rewritten here as the defines they test: what DXC does with each, and why.
 */
const dxcCases: { file: string; hlsl: string; use: { define?: string; entry?: string; D?: Record<string, string> }; version: 1 | 2; expect: string | RegExp }[] = [
  { file: 'rootSigDefine1.hlsl', hlsl: '#define RS "DescriptorTable" \\\n           "(SRV(t3))"\n', use: { define: 'RS' }, version: 2, expect: 'DescriptorTable(SRV(t3))' },
  { file: 'rootSigDefine2.hlsl', hlsl: '#define RS XescriptorTable(SRV(x))\n', use: { define: 'RS' }, version: 2, expect: /Unexpected token 'XescriptorTable' when parsing root signature/ },
  { file: 'rootSigDefine3.hlsl', hlsl: '#define RS \n', use: { define: 'RS' }, version: 2, expect: '' },
  { file: 'rootSigDefine5.hlsl', hlsl: '#define RS ""\n', use: { define: 'RS' }, version: 2, expect: '' },
  { file: 'rootSigDefine7.hlsl', hlsl: '#define YYY "DescriptorTable" "(SRV(t3))"\n#define RS YYY\n', use: { define: 'RS' }, version: 2, expect: 'DescriptorTable(SRV(t3))' },
  { file: 'rootSigDefine8.hlsl', hlsl: '#define YYY(x) DescriptorTable(SRV(x))\n#define RS YYY(t3)\n', use: { define: 'RS' }, version: 2, expect: 'DescriptorTable(SRV(t3))' },
  {
    file: 'rootSigDefine (attribute overridden)',
    hlsl: '#define RS DescriptorTable(SRV(t3))\n[RootSignature("SRV(t0)")]\nfloat main(float i : I) : SV_Target { return i; }\n',
    use: { entry: 'main' },
    version: 2,
    expect: 'SRV(t0)',
  },
  { file: 'rootSigProfile5.hlsl', hlsl: '#define YYY "DescriptorTable" "(SRV(t3))"\n#define RS YYY\n', use: { define: 'RS' }, version: 1, expect: 'DescriptorTable(SRV(t3))' },
  { file: 'rootSigProfile2.hlsl (/Dmain="SRV(t0)")', hlsl: '#define MyRS2 RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)\n', use: { define: 'main', D: { main: '"SRV(t0)"' } }, version: 1, expect: 'SRV(t0)' },
  {
    file: 'rootSigProfile.hlsl',
    hlsl:
      '#define main "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), ' +
      ['PIXEL', 'VERTEX', 'GEOMETRY', 'HULL', 'DOMAIN']
        .map((v) => `DescriptorTable( visibility=SHADER_VISIBILITY_${v}, SRV(t0, numDescriptors=16) ), DescriptorTable( visibility=SHADER_VISIBILITY_${v}, CBV(b0, numDescriptors=8) ), DescriptorTable( visibility=SHADER_VISIBILITY_${v}, Sampler(s0, numDescriptors=16) ), `)
        .join('') +
      'DescriptorTable( visibility=SHADER_VISIBILITY_ALL, UAV(u0, numDescriptors=8) )"\n',
    use: { define: 'main' },
    version: 1,
    expect: /^RootFlags\(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT\), DescriptorTable\( visibility=SHADER_VISIBILITY_PIXEL/,
  },
];
for (const c of dxcCases) {
  test(`DXC test ${c.file}: ${c.expect instanceof RegExp && /Unexpected/.test(String(c.expect)) ? 'rejected' : 'accepted'}`, () => {
    const file = new HlslFile(c.hlsl, c.file, c.use.D);
    const run = () => {
      const text = c.use.define ? file.defineText(c.use.define) : file.entryText(c.use.entry!);
      compileRootSignature(text, { version: c.version });
      return text.text;
    };
    if (typeof c.expect === 'string') assert.is(run(), c.expect);
    else if (/Unexpected/.test(String(c.expect))) assert.throws(run, c.expect);
    else assert.match(run(), c.expect);
  });
}

test('errors in an HLSL file point at the file line and column of the offending character', () => {
  const hlsl = '// RS for the pass\n#define RS "CBV(b0), " \\\n    "SRV(b1)"\n';
  try {
    compileRootSignature(new HlslFile(hlsl, 'pass.hlsl').defineText('RS'));
    assert.unreachable();
  } catch (e) {
    assert.is((e as Error).message, "pass.hlsl:3:10: error: root signature error - Incorrect register type 'b1' in SRV (expected t#)");
  }
  assert.throws(() => new HlslFile(hlsl, 'pass.hlsl').defineText('NOPE'), /undeclared identifier NOPE/);
  assert.throws(() => new HlslFile(hlsl, 'pass.hlsl').entryText('main'), /missing entry point definition: no function 'main' in this file/);
});

test.run();
