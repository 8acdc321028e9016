/**
 * Issue 26, part B: no silently wrong answer. The runtime's descriptor-heap rule in `verify`
 * (shaders and library exports), include paths resolved as the operating system resolves them,
 * outputs checked against each other and the inputs before anything is written, output names up to
 * NAME_MAX, and lookups by name that could match twice refused.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileRootSignature, encodeRootSignature, parseContainer, rootSignatureContainer, shaderFeatures, shaderOf, suggestRootSignature, verifyBindings, verifyRootSignature } from '../src/index.js';
import { SHADER_FEATURE_INFO1 } from '../codecs/shader-flags.js';
import { readLibraryRdat, type RdatTable } from '../src/rdat/index.js';
import { withRdat } from '../src/rdat/edit.js';
import { verifyStateObject } from '../src/rdat/state-object.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { corpusFile, corpusFiles } from './helpers/corpus.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-trust-'));
const cli = async (...args: string[]) => {
  const s = captureStreams();
  const status = await run(args, s);
  return { status, stdout: s.stdout(), stderr: s.stderr() };
};

// ---------------------------------------------------------------------------------------------
// 1. SFI0 feature flags against the root signature's DIRECTLY_INDEXED flags

const RESOURCE_HEAP = 'Shader uses resource descriptor heap indexing, but root signature is missing the D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED flag.';
const SAMPLER_HEAP = 'Shader uses sampler descriptor heap indexing, but root signature is missing the D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED flag.';
const R = 'resource-heap-not-indexable';
const S = 'sampler-heap-not-indexable';
/** The corpus shaders whose SFI0 says they index a descriptor heap, and which heaps. */
const HEAP_SHADERS: Record<string, string[]> = {
  bindless_heap_sm66: [R, S],
  bindless_heap_sm66_uav_counter: [R],
  cs_integer_sampling: [R, S],
  ps_discard_atomic_loop: [R],
  undefined_descriptor_heap_mismatch_types_cbv: [R],
  undefined_descriptor_heap_mismatch_types_srv_raw: [R],
  undefined_descriptor_heap_mismatch_types_srv_tex: [R],
  undefined_descriptor_heap_mismatch_types_srv_typed: [R],
  undefined_descriptor_heap_mismatch_types_uav_raw: [R],
  undefined_descriptor_heap_mismatch_types_uav_tex: [R],
  undefined_descriptor_heap_mismatch_types_uav_typed: [R],
};
const heapShader = (name: string) => `shaders/vkd3d-proton/${name}_code_dxil.dxil`;

test('the flag rows: DXC bit values of the heap-indexing features', () => {
  assert.is(SHADER_FEATURE_INFO1.bits.find(([n]) => n === 'ResourceDescriptorHeapIndexing')?.[1], 0x2000000);
  assert.is(SHADER_FEATURE_INFO1.bits.find(([n]) => n === 'SamplerDescriptorHeapIndexing')?.[1], 0x4000000);
  assert.is(SHADER_FEATURE_INFO1.bits.find(([n]) => n === 'SampleCmpGradientOrBias')?.[1], 0x80000000);
});

test('exactly eleven corpus shaders index a descriptor heap (SFI0), the ones listed', () => {
  const found: string[] = [];
  for (const f of corpusFiles('shaders')) {
    let c;
    try {
      c = parseContainer(f.bytes);
    } catch {
      continue;
    }
    const flags = shaderFeatures(c)?.featureInfo1 ?? 0;
    if (flags & 0x6000000) found.push(f.name);
  }
  assert.equal(found.sort(), Object.keys(HEAP_SHADERS).map(heapShader).sort());
});

for (const [name, expected] of Object.entries(HEAP_SHADERS)) {
  test(`verify ${name}: without the DIRECTLY_INDEXED flags the runtime's refusal, with them it fits`, () => {
    const bytes = corpusFile(heapShader(name));
    const info = shaderOf(parseContainer(bytes));
    // a root signature covering every binding, then the same without the heap flags
    const withFlags = suggestRootSignature([{ stage: info.stage, bindings: info.bindings!, features: shaderFeatures(info.container)! }]);
    const without = { ...withFlags, flags: withFlags.flags & ~0xc00 };
    assert.is(withFlags.flags & 0xc00, expected.length === 2 ? 0xc00 : 0x400, 'suggest opens the heaps the shader indexes');
    const fits = verifyRootSignature(bytes, withFlags);
    assert.is(fits.verdict, 'fits', JSON.stringify(fits.violations));
    const no = verifyRootSignature(bytes, without);
    assert.is(no.verdict, 'does-not-fit');
    assert.equal(no.violations.map((v) => v.code), expected);
    assert.equal(no.violations.map((v) => v.message), expected.map((c) => (c === R ? RESOURCE_HEAP : SAMPLER_HEAP)));
    assert.ok(no.violations.every((v) => v.path === 'RTS0.flags'));
  });
}

test('verifyBindings takes the feature flags: none given, no heap rule; a bad value is a DescriptionError naming it', () => {
  const rs = compileRootSignature('RootFlags(0)', { version: 2 });
  assert.is(verifyBindings(5, [], rs).verdict, 'fits');
  assert.equal(verifyBindings(5, [], rs, { featureInfo1: 0x4000000, featureInfo2: 0 }).violations.map((v) => v.code), [S]);
  assert.is(verifyBindings(5, [], compileRootSignature('RootFlags(SAMPLER_HEAP_DIRECTLY_INDEXED)', { version: 2 }), { featureInfo1: 0x4000000, featureInfo2: 0 }).verdict, 'fits');
  assert.throws(() => verifyBindings(5, [], rs, { featureInfo1: -1, featureInfo2: 0 }), (e: unknown) => (e as { path?: string }).path === 'features.featureInfo1');
});

test('dxbin verify SHADER --rootsig: exit 1 in the runtime words without the flags, exit 0 with them', async () => {
  const no = join(work, 'noheap.dxbc');
  const yes = join(work, 'heap.dxbc');
  // bindless_heap_sm66 also reads CBV b0
  writeFileSync(no, rootSignatureContainer(encodeRootSignature(compileRootSignature('CBV(b0)', { version: 2 }))));
  writeFileSync(yes, rootSignatureContainer(encodeRootSignature(compileRootSignature('RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | SAMPLER_HEAP_DIRECTLY_INDEXED), CBV(b0)', { version: 2 }))));
  const shader = join('corpus', heapShader('bindless_heap_sm66'));
  const bad = await cli('verify', shader, '--rootsig', no);
  assert.is(bad.status, 1, bad.stderr);
  assert.match(bad.stdout, 'Compute shader does not fit the root signature (1 binding, 2 violations)');
  assert.match(bad.stdout, `  ${R} RTS0.flags: ${RESOURCE_HEAP}`);
  assert.match(bad.stdout, `  ${S} RTS0.flags: ${SAMPLER_HEAP}`);
  const good = await cli('verify', shader, '--rootsig', yes);
  assert.is(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout, 'Compute shader fits the root signature (1 binding)');
  // embed --verify refuses the root signature that lacks the flags, nothing written
  const out = join(work, 'embedded.dxil');
  const embed = await cli('embed', shader, '--rs', no, '--verify', '-o', out);
  assert.is(embed.status, 1, embed.stderr);
  assert.match(embed.stderr, RESOURCE_HEAP);
});

/** A corpus library with one function record's FeatureInfo1 set. */
function libraryWithFeatures(name: string, exportName: string, featureInfo1: number): Uint8Array {
  const bytes = corpusFile(`shaders/vkd3d-proton/${name}_code_dxil.dxil`);
  const { rdat } = readLibraryRdat(bytes);
  const functions = (rdat.parts.find((p) => p.type === 'FunctionTable') as RdatTable).records;
  const record = functions.find((r) => r.UnmangledName === exportName)!;
  record.FeatureInfo1 = featureInfo1;
  return withRdat(bytes, rdat);
}

test('library exports: each export whose RDAT FeatureInfo1 indexes a heap needs the flag in its global root signature', async () => {
  const lib = libraryWithFeatures('local_root_signature', 'EntryNode', 0x6000000);
  const r = verifyStateObject([{ name: 'lib', bytes: lib }]);
  assert.equal(r.violations.map((v) => [v.code, v.export]), [[R, 'EntryNode'], [S, 'EntryNode']]);
  assert.is(r.violations[0]!.message, `export EntryNode (global root signature (none)): ${RESOURCE_HEAP}`);
  assert.equal(r.exports.map((e) => [e.name, e.fits]), [['EntryNode', false], ['A', true], ['B', true]]);
  const open = compileRootSignature('RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | SAMPLER_HEAP_DIRECTLY_INDEXED)', { version: 2 });
  assert.is(verifyStateObject([{ name: 'lib', bytes: lib }], { globalRootSignature: { name: 'open', rootSignature: open } }).verdict, 'fits');
  const half = compileRootSignature('RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED)', { version: 2 });
  assert.equal(verifyStateObject([{ name: 'lib', bytes: lib }], { globalRootSignature: { name: 'half', rootSignature: half } }).violations.map((v) => [v.code, v.export, v.subobject, v.path]), [[S, 'EntryNode', 'half', 'RTS0.flags']]);
  // the unedited library fits without any flag
  assert.is(verifyStateObject([{ name: 'lib', bytes: corpusFile('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil') }]).verdict, 'fits');

  // through the CLI
  const file = join(work, 'heap-lib.dxil');
  writeFileSync(file, lib);
  const rs = join(work, 'open.rts0');
  writeFileSync(rs, encodeRootSignature(open));
  const bad = await cli('verify', file);
  assert.is(bad.status, 1);
  assert.match(bad.stdout, `${R} export EntryNode: export EntryNode (global root signature (none)): ${RESOURCE_HEAP}`);
  const good = await cli('verify', file, '--rootsig', rs);
  assert.is(good.status, 0, good.stdout + good.stderr);
});

void mkdirSync;
test.run();
