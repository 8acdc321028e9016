/**
 * DXIL libraries verified as a state object (src/rdat/state-object.ts, rules from the DXR spec in
 * codecs/state-object-rules.ts): every corpus library alone, pairs, and mutations made through the
 * RDAT JSON form and `embed --subobject`.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget, compileRootSignature, DescriptionError, encodeRootSignature, LimitError } from '../src/index.js';
import { decodeRdat, encodeRdat } from '../src/rdat/index.js';
import { describeLibrary } from '../src/rdat/library.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { readLibraryRdat, type RdatTable } from '../src/rdat/index.js';
import { subobjectRootSignatures, withRdat, withSubobjectRootSignatures } from '../src/rdat/edit.js';
import { verifyStateObject, type StateObjectReport } from '../src/rdat/state-object.js';
import { CORPUS, corpusFile, manifest } from './helpers/corpus.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-so-'));
const lib = (name: string) => corpusFile(`shaders/vkd3d-proton/${name}_code_dxil.dxil`);
const verifyOne = (name: string, bytes = lib(name)) => verifyStateObject([{ name, bytes }]);
const codes = (r: StateObjectReport) => r.violations.map((v) => `${v.code}${v.export ? ` ${v.export}` : ''}${v.binding ? ` ${v.binding}` : ''}${v.subobject ? ` [${v.subobject}]` : ''}`);

/**
 * Each library as its own state object: exports that fit / exports, and how many violations of
 * each code. Why, from the HLSL sources (vkd3d-proton d01924b6, tests/shaders/{rt,workgraph}/):
 * libraries that declare no root signature leave every binding unbound (vkd3d-proton adds the root
 * signatures through the API); ray-tracing libraries without a RaytracingShaderConfig lack one;
 * embedded_subobject and local_root_signature declare everything they use and fit;
 * embedded_root_signature_subobject_rt* bind a RWBuffer (typed UAV) through a root UAV descriptor,
 * which DXC's verifier refuses; _conflict declares two global root signatures (both defaults);
 * _conflict_mixed's compute shader uses u0 while grs binds u1; embedded_subobject_dupe declares two
 * different shader configs (both defaults).
 */
const EXPECTED: Record<string, [fit: number, exports: number, codes: Record<string, number>]> = {
  basic: [0, 1, { 'binding-not-covered': 1 }],
  basic_recursion: [1, 2, { 'binding-not-covered': 1 }],
  broadcast_custom_input: [0, 1, { 'binding-not-covered': 1 }],
  broadcast_custom_input_u16_2: [0, 1, { 'binding-not-covered': 1 }],
  broadcast_custom_input_uint: [0, 1, { 'binding-not-covered': 1 }],
  broadcast_custom_input_uint2: [0, 1, { 'binding-not-covered': 1 }],
  coalesce_custom_input: [0, 1, { 'binding-not-covered': 1 }],
  collection_handle_invariance: [0, 3, { 'binding-not-covered': 2, 'no-shader-config': 3 }],
  cross_group_sharing: [1, 3, { 'binding-not-covered': 2 }],
  default: [0, 6, { 'binding-not-covered': 8, 'no-shader-config': 6 }],
  default_assignment_bindings_rt: [0, 4, { 'binding-not-covered': 8, 'no-shader-config': 4 }],
  dummy_raygen: [0, 1, { 'binding-not-covered': 1, 'no-shader-config': 1 }],
  embedded_root_signature_subobject_rt: [0, 1, { 'root-descriptor-refuses': 1, 'no-shader-config': 1 }],
  embedded_root_signature_subobject_rt_conflict: [0, 1, { 'conflicting-defaults': 1, 'root-descriptor-refuses': 1, 'no-shader-config': 1 }],
  embedded_root_signature_subobject_rt_conflict_mixed: [0, 1, { 'binding-not-covered': 1 }],
  embedded_subobject: [4, 4, {}],
  embedded_subobject_dupe: [0, 1, { 'conflicting-defaults': 1 }],
  local_root_signature: [3, 3, {}],
  misfire: [0, 2, { 'binding-not-covered': 5, 'no-shader-config': 2 }],
  multi_rs: [0, 2, { 'binding-not-covered': 6, 'no-shader-config': 2 }],
  omm: [0, 4, { 'binding-not-covered': 4, 'no-shader-config': 4 }],
  shared_inputs: [1, 3, { 'binding-not-covered': 2 }],
  static_sampler_rt_lib: [0, 4, { 'binding-not-covered': 8, 'no-shader-config': 4 }],
  thread_custom_input: [0, 1, { 'binding-not-covered': 1 }],
  two_level_broadcast: [1, 3, { 'binding-not-covered': 2 }],
  two_level_broadcast_node_array: [1, 3, { 'binding-not-covered': 2 }],
  two_level_empty_node: [1, 15, { 'binding-not-covered': 14 }],
  two_level_thread: [1, 3, { 'binding-not-covered': 2 }],
  two_level_thread_node_array: [1, 3, { 'binding-not-covered': 2 }],
};

test('every corpus library verified against its own subobjects (the README line: 15 of 79 exports fit)', () => {
  const rows = manifest().filter((r) => r.version.startsWith('lib_'));
  assert.is(rows.length, 29);
  let fit = 0;
  let total = 0;
  for (const row of rows) {
    const name = row.file.replace(/^shaders\/vkd3d-proton\//, '').replace(/_code_dxil\.dxil$/, '');
    const r = verifyOne(name);
    const counts: Record<string, number> = {};
    for (const v of r.violations) counts[v.code] = (counts[v.code] ?? 0) + 1;
    assert.equal([r.exports.filter((e) => e.fits).length, r.exports.length, counts], EXPECTED[name], name);
    for (const v of r.violations) assert.ok(v.export || v.subobject, `${name}: ${v.code} names an export or a subobject`);
    fit += r.exports.filter((e) => e.fits).length;
    total += r.exports.length;
  }
  assert.equal([fit, total], [15, 79]); // the sums of the table above
});

test('embedded_subobject: associations resolve as the DXR spec says (explicit, through hit groups; grs_dummy is an unused default)', () => {
  const r = verifyOne('embedded_subobject');
  const by = Object.fromEntries(r.exports.map((e) => [e.name, [e.globalRootSignature, e.localRootSignature, e.shaderConfig]]));
  assert.equal(by, {
    RayClosestHit: ['grs', 'lrs_other1', 'config'],
    RayClosestHitAABB: ['grs', 'lrs_other2', 'config'],
    RayIntersect: ['grs', 'lrs_other2', 'config'],
    RayGen: ['grs', 'lrs_raygen', 'config'],
  });
});

test('violations name the export, the binding and the subobject', () => {
  const v = verifyOne('embedded_root_signature_subobject_rt_conflict_mixed').violations[0]!;
  assert.equal([v.code, v.export, v.binding, v.subobject, v.library], ['binding-not-covered', 'main', 'UAV u0 space0', 'grs', 'embedded_root_signature_subobject_rt_conflict_mixed']);
  assert.match(v.message, /export main: UAV u0 space0 is not bound by its global root signature grs nor its local root signature \(none\)/);
});

/** The library with its subobject table edited through the RDAT JSON form. */
function editSubobjects(bytes: Uint8Array, edit: (records: RdatTable['records']) => void): Uint8Array {
  const { rdat } = readLibraryRdat(bytes);
  edit((rdat.parts.find((p) => p.type === 'SubobjectTable') as RdatTable).records);
  return withRdat(bytes, rdat);
}

test('mutation: an association removed (exports1: grs -> thg;phg;RayGen) makes grs a default beside grs_dummy', () => {
  const bytes = editSubobjects(lib('embedded_subobject'), (rs) => rs.splice(rs.findIndex((r) => r.Name === 'exports1'), 1));
  const r = verifyOne('m', bytes);
  assert.ok(codes(r).includes('conflicting-defaults RayGen [grs, grs_dummy]'), codes(r).join('\n'));
  assert.is(r.exports.filter((e) => e.fits).length, 0);
});

test("mutation: a local root signature's register moved (embed --subobject lrs_raygen with UAV(u5)) uncovers RayGen's u1", async () => {
  const rs = join(work, 'lrs.rts0');
  writeFileSync(rs, encodeRootSignature(compileRootSignature('RootFlags(LOCAL_ROOT_SIGNATURE), UAV(u5)')));
  const out = join(work, 'moved.dxil');
  const s = captureStreams();
  assert.is(await run(['embed', join(CORPUS, 'shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil'), '--subobject', 'lrs_raygen', '--rs', rs, '-o', out], s), 0, s.stderr());
  const v = captureStreams();
  assert.is(await run(['verify', out], v), 1);
  assert.match(v.stdout(), /0 of 4|3 of 4 exports fit, 1 violation/);
  assert.match(v.stdout(), /binding-not-covered export RayGen UAV u1 space0 subobject grs, lrs_raygen: export RayGen: UAV u1 space0 is not bound by its global root signature grs nor its local root signature lrs_raygen/);
});

test('mutation: the global root signature swapped (--rootsig with UAV(u10), as grs_dummy) uncovers u0 in every export', async () => {
  const rs = join(work, 'g.rts0');
  writeFileSync(rs, subobjectRootSignatures(lib('embedded_subobject')).find((s) => s.name === 'grs_dummy')!.bytes);
  const s = captureStreams();
  assert.is(await run(['verify', join(CORPUS, 'shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil'), '--rootsig', rs, '--json'], s), 1);
  const j = JSON.parse(s.stdout()) as { violations: { code: string; export: string; binding: string; subobject: string }[]; stateObject: { exports: { globalRootSignature: string }[] } };
  assert.equal(j.violations.map((v) => `${v.code} ${v.export} ${v.binding}`).sort(), ['RayClosestHit', 'RayClosestHitAABB', 'RayGen'].map((e) => `binding-not-covered ${e} UAV u0 space0`));
  assert.ok(j.stateObject.exports.every((e) => e.globalRootSignature === rs));
});

test('mutation: a hit group member renamed (thg closest hit -> RayClosestHitX)', () => {
  const bytes = editSubobjects(lib('embedded_subobject'), (rs) => {
    rs.find((r) => r.Name === 'thg')!.ClosestHit = 'RayClosestHitX';
  });
  const c = codes(verifyOne('m', bytes));
  assert.ok(c.includes('hit-group-member-missing RayClosestHitX [thg]'), c.join('\n'));
  // RayClosestHit no longer gets thg's grs and lrs_other1: the unused grs_dummy (u10) is its default
  assert.ok(c.includes('binding-not-covered RayClosestHit UAV u0 space0 [grs_dummy]'), c.join('\n'));
  assert.ok(c.includes('binding-not-covered RayClosestHit UAV u2 space0 [grs_dummy]'), c.join('\n'));
});

test('mutation: a hit group member of the wrong kind, a triangle hit group with an intersection shader', () => {
  const bytes = editSubobjects(lib('embedded_subobject'), (rs) => {
    const thg = rs.find((r) => r.Name === 'thg')!;
    thg.AnyHit = 'RayGen';
    thg.Intersection = 'RayIntersect';
  });
  const c = codes(verifyOne('m', bytes));
  assert.ok(c.includes('hit-group-member-kind RayGen [thg]'), c.join('\n'));
  assert.ok(c.includes('hit-group-intersection [thg]'), c.join('\n'));
});

test('mutation: a node with local root arguments loses its local root signature (LRS0 and assoc1 removed)', () => {
  const bytes = editSubobjects(lib('local_root_signature'), (rs) => {
    rs.splice(rs.findIndex((r) => r.Name === 'assoc1'), 1);
    rs.splice(rs.findIndex((r) => r.Name === 'LRS0'), 1);
  });
  const c = codes(verifyOne('m', bytes));
  assert.ok(c.includes('local-root-arguments-without-local-root-signature A'), c.join('\n'));
  assert.ok(c.includes('binding-not-covered A CBV b0 space0'), c.join('\n'));
  assert.not.ok(c.some((x) => x.includes(' B ')), 'B keeps LRS1');
});

test('mutation: a shader config too small for the payload and attributes', () => {
  const bytes = editSubobjects(lib('embedded_subobject'), (rs) => {
    const config = rs.find((r) => r.Name === 'config')!;
    config.MaxPayloadSizeInBytes = 2;
    config.MaxAttributeSizeInBytes = 4;
  });
  const c = codes(verifyOne('m', bytes));
  // struct Payload { float i; } = 4 bytes; BuiltInTriangleIntersectionAttributes = 8 bytes (embedded_subobject.lib_6_3.hlsl)
  assert.ok(c.includes('payload-too-large RayClosestHit [config]'), c.join('\n'));
  assert.ok(c.includes('attributes-too-large RayClosestHit [config]'), c.join('\n'));
  assert.not.ok(c.includes('attributes-too-large RayClosestHitAABB [config]'), 'struct Attr { float v; } is 4 bytes');
});

test('two libraries in one state object: duplicate exports and subobject names are errors; disjoint libraries each keep their verdicts', () => {
  const r = verifyStateObject([
    { name: 'a', bytes: lib('embedded_subobject') },
    { name: 'b', bytes: lib('embedded_subobject_dupe') },
  ]);
  assert.ok(codes(r).includes('duplicate-export RayGen'));
  assert.ok(codes(r).includes('duplicate-subobject [config]'));
  const both = verifyStateObject([
    { name: 'a', bytes: lib('embedded_subobject') },
    { name: 'b', bytes: lib('local_root_signature') },
  ]);
  assert.is(both.verdict, 'fits');
  assert.is(both.exports.length, 7);
});

test('hostile: 2,000 exports sharing one resource list and 2,000 conflicting default root signatures stay linear and bounded', () => {
  const rs = '020000000100000018000000000000003000000000000000040000000000000024000000000000000000000000000000';
  const bytes = encodeRdat({
    version: 16,
    parts: [
      { type: 'StringBuffer', strings: [''] },
      { type: 'ResourceTable', stride: 32, records: [{ Class: 'UAV', Kind: 'StructuredBuffer', ID: 0, Space: 0, LowerBound: 5, UpperBound: 5, Name: 'U', Flags: 0 }] },
      {
        type: 'FunctionTable',
        stride: 44,
        records: Array.from({ length: 2000 }, (_, i) => ({ Name: `f${i}`, UnmangledName: `f${i}`, Resources: [0], FunctionDependencies: null, ShaderKind: 'Node', PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0 })),
      },
      { type: 'IndexArrays', values: [] },
      { type: 'RawBytes', hex: '' },
      { type: 'SubobjectTable', stride: 24, records: Array.from({ length: 2000 }, (_, i) => ({ Kind: 'GlobalRootSignature', Name: `g${i}`, RootSignature: rs.replace(/^(.{80})../, `$1${(i % 256).toString(16).padStart(2, '0')}`) })) },
    ],
  });
  const library = describeLibrary(decodeRdat(bytes));
  const r = verifyStateObject([{ name: 'h', library }]);
  const conflicts = r.violations.filter((v) => v.code === 'conflicting-defaults');
  assert.is(conflicts.length, 2000);
  assert.match(conflicts[0]!.message, /g0, g1, g2, g3 and 25\d more/); // 256 distinct definitions, the list cut at 4
  assert.ok(JSON.stringify(r).length < 200 * bytes.byteLength);
  // as bytes inside a container the default budget applies; a small budget is a typed error
  assert.throws(() => verifyStateObject([{ name: 'h', library }], { maxViolations: 100 }), (e: unknown) => e instanceof LimitError && e.code === 'limit-exceeded' && e.kind === 'produce');
  assert.throws(() => verifyStateObject([{ name: 'h', library }], { maxProducedChars: 10_000 }), (e: unknown) => e instanceof LimitError && e.kind === 'produce');
  assert.throws(() => verifyStateObject([{ name: 'h', library }], { budget: Budget.for(0, { maxProducedChars: 10_000 }) }), (e: unknown) => e instanceof LimitError && e.kind === 'produce');
});

test('dxbin verify LIB text and exit codes', async () => {
  const ok = captureStreams();
  assert.is(await run(['verify', join(CORPUS, 'shaders/vkd3d-proton/local_root_signature_code_dxil.dxil')], ok), 0);
  assert.match(ok.stdout(), /library in a state object of 1 library: 3 of 3 exports fit/);
});

test.run();
