/**
 * DXIL libraries as their RDAT part declares them: the exports (kind, bindings) and subobjects
 * (kind, name, contents) of all 29 corpus libraries, against what each library's HLSL source says.
 * The expectations below were written by reading the sources in HansKristian-Work/vkd3d-proton at
 * commit d01924b6f02fa3f78e3d371269267355363dbcb7 (the commit corpus/MANIFEST.tsv names):
 * tests/shaders/rt/<name>.lib_6_3.hlsl (omm: .lib_6_8) and tests/shaders/workgraph/<name>.lib_6_8.hlsl
 * (broadcast_custom_input_u16_2: .lib_6_8.enable-16bit-types.hlsl). A binding is listed where the
 * function's body (or a function it calls) uses the resource; `b0@1` is register b0 in space 1.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { readLibraryRdat } from '../src/rdat/index.js';
import { describeLibrary, type Library } from '../src/rdat/library.js';
import { CORPUS, corpusFile, manifest } from './helpers/corpus.js';

const SOURCE_COMMIT = 'd01924b6f02fa3f78e3d371269267355363dbcb7';

/** `Name:Kind[bindings]` per export, sorted by name; `name:Kind` per subobject in declaration order. */
const EXPECTED: Record<string, { exports: string[]; subobjects?: string[] }> = {
  // rt/collection_handle_invariance.lib_6_3.hlsl: two miss shaders write the payload only; RayGen traces AS (t0), writes RWBuf (u0)
  collection_handle_invariance: { exports: ['Miss1:Miss[]', 'Miss2:Miss[]', 'RayGen:RayGeneration[t0 u0]'] },
  // rt/default.lib_6_3.hlsl: miss and closest hit read LocalConstants (b0, space1) and LocalConstants2 (b1, space1)
  default: {
    exports: [
      'RayAnyAABB:AnyHit[]',
      'RayAnyTriangle:AnyHit[]',
      'RayClosest:ClosestHit[b0@1 b1@1]',
      'RayGen:RayGeneration[b0 t0 t1 u0]',
      'RayIntersect:Intersection[]',
      'RayMiss:Miss[b0@1 b1@1]',
    ],
  },
  // rt/default_assignment_bindings_rt.lib_6_3.hlsl
  default_assignment_bindings_rt: { exports: ['Entry1:RayGeneration[u0 u3]', 'Entry2:RayGeneration[u1 u3]', 'Entry3:RayGeneration[u1 u2]', 'Entry4:RayGeneration[u1 u3]'] },
  // rt/dummy_raygen.lib_6_3.hlsl
  dummy_raygen: { exports: ['main:RayGeneration[u0]'] },
  // rt/embedded_root_signature_subobject_rt.lib_6_3.hlsl: GlobalRootSignature grs = { "UAV(u0)" }
  embedded_root_signature_subobject_rt: { exports: ['main:RayGeneration[u0]'], subobjects: ['grs:GlobalRootSignature'] },
  embedded_root_signature_subobject_rt_conflict: { exports: ['main:RayGeneration[u0]'], subobjects: ['grs:GlobalRootSignature', 'grs2:GlobalRootSignature'] },
  // [shader("compute")] main in a library, with a [RootSignature] attribute (not a subobject)
  embedded_root_signature_subobject_rt_conflict_mixed: { exports: ['main:Compute[u0]'], subobjects: ['grs:GlobalRootSignature'] },
  embedded_subobject: {
    exports: ['RayClosestHit:ClosestHit[u0 u2]', 'RayClosestHitAABB:ClosestHit[u0 u3]', 'RayGen:RayGeneration[u0 u1]', 'RayIntersect:Intersection[u3]'],
    subobjects: [
      'config:RaytracingShaderConfig',
      'pconfig:RaytracingPipelineConfig',
      'grs:GlobalRootSignature',
      'grs_dummy:GlobalRootSignature',
      'lrs_raygen:LocalRootSignature',
      'lrs_other1:LocalRootSignature',
      'lrs_other2:LocalRootSignature',
      'thg:HitGroup',
      'phg:HitGroup',
      'exports1:SubobjectToExportsAssociation',
      'exports2:SubobjectToExportsAssociation',
      'exports3:SubobjectToExportsAssociation',
      'exports4:SubobjectToExportsAssociation',
    ],
  },
  embedded_subobject_dupe: {
    exports: ['RayGen:RayGeneration[]'],
    subobjects: ['config:RaytracingShaderConfig', 'pconfig:RaytracingPipelineConfig', 'config1:RaytracingShaderConfig', 'pconfig1:RaytracingPipelineConfig'],
  },
  misfire: { exports: ['GenShader:RayGeneration[t0 u0 u1]', 'MissShader:Miss[u0 u1]'] },
  // multi_rs: both raygen shaders call run(), which samples T (t0) with S (s0) and adds to U (u0)
  multi_rs: { exports: ['RayGen:RayGeneration[s0 t0 u0]', 'RayGenCol:RayGeneration[s0 t0 u0]'] },
  // rt/omm.lib_6_8.hlsl: only GenShader touches resources (Constants b0, AS t0, Origins t1, Buf u0)
  omm: { exports: ['AnyHit:AnyHit[]', 'ClosestHit:ClosestHit[]', 'GenShader:RayGeneration[b0 t0 t1 u0]', 'MissShader:Miss[]'] },
  // rt/static_sampler_rt_lib.lib_6_3.hlsl: RayClosest1 samples Tex with ClampSampler (s0) and ClampWrapSampler (s2), RayClosest2 with WrapSampler (s1) and s2
  static_sampler_rt_lib: { exports: ['RayClosest1:ClosestHit[s0 s2 t1]', 'RayClosest2:ClosestHit[s1 s2 t1]', 'RayGen:RayGeneration[t0 u0]', 'RayMiss:Miss[]'] },
  // workgraph/*.lib_6_8.hlsl
  basic: { exports: ['BroadcastNode:Node[u0]'] },
  basic_recursion: { exports: ['EntryNode:Node[]', 'Recursive:Node[u0]'] },
  broadcast_custom_input: { exports: ['BroadcastNode:Node[u0]'] },
  broadcast_custom_input_u16_2: { exports: ['BroadcastNode:Node[u0]'] },
  broadcast_custom_input_uint: { exports: ['BroadcastNode:Node[u0]'] },
  broadcast_custom_input_uint2: { exports: ['BroadcastNode:Node[u0]'] },
  coalesce_custom_input: { exports: ['CoalesceNode:Node[u0]'] },
  cross_group_sharing: { exports: ['Broadcast0:Node[u0]', 'Broadcast1:Node[u0]', 'EntryNode:Node[]'] },
  // A reads U0 (u0, space1) at Index (Cbuf0 b0) adding Count (Cbuf1 b1); B the same with U1
  local_root_signature: {
    exports: ['A:Node[b0 b1 u0@1]', 'B:Node[b0 b1 u1@1]', 'EntryNode:Node[]'],
    subobjects: ['LRS0:LocalRootSignature', 'LRS1:LocalRootSignature', 'assoc1:SubobjectToExportsAssociation', 'assoc2:SubobjectToExportsAssociation'],
  },
  shared_inputs: { exports: ['Broadcast:Node[u0]', 'EntryNode:Node[]', 'TappedInput:Node[u0]'] },
  thread_custom_input: { exports: ['ThreadNode:Node[u0]'] },
  two_level_broadcast: { exports: ['Broadcast0:Node[u0]', 'Broadcast1:Node[u1]', 'EntryNode:Node[]'] },
  two_level_broadcast_node_array: { exports: ['Broadcast0:Node[u0]', 'Broadcast1:Node[u1]', 'EntryNode:Node[]'] },
  two_level_empty_node: {
    exports: ['A', 'B', 'C0', 'C1', 'D0', 'D1', 'E0', 'E1', 'EntryNode', 'F0', 'F1', 'G0', 'G1', 'H0', 'H1'].map((n) => `${n}:Node[${n === 'EntryNode' ? '' : 'u0'}]`),
  },
  two_level_thread: { exports: ['EntryNode:Node[]', 'Thread0:Node[u0]', 'Thread1:Node[u1]'] },
  two_level_thread_node_array: { exports: ['EntryNode:Node[]', 'Thread0:Node[u0]', 'Thread1:Node[u1]'] },
};

const LETTER = { SRV: 't', UAV: 'u', CBV: 'b', Sampler: 's' } as const;
const LIBRARIES = manifest().filter((r) => r.version.startsWith('lib_'));
const short = (file: string) => file.replace(/^shaders\/vkd3d-proton\//, '').replace(/_code_dxil\.dxil$/, '');
const libraryOf = (name: string): Library => describeLibrary(readLibraryRdat(corpusFile(`shaders/vkd3d-proton/${name}_code_dxil.dxil`)).rdat);

test('every corpus library comes from the commit the expectations were read at', () => {
  assert.is(LIBRARIES.length, 29);
  for (const row of LIBRARIES) {
    assert.is(row.commit, SOURCE_COMMIT, row.file);
    assert.ok(EXPECTED[short(row.file)], `expectation for ${row.file}`);
  }
});

test('exports and their bindings, and subobjects, as each HLSL source declares them', () => {
  for (const row of LIBRARIES) {
    const name = short(row.file);
    const lib = libraryOf(name);
    const exports = lib.exports
      .map((e) => `${e.name}:${e.kind}[${e.bindings.map((b) => `${LETTER[b.class as keyof typeof LETTER]}${b.lowerBound}${b.space ? `@${b.space}` : ''}`).sort().join(' ')}]`)
      .sort();
    assert.equal(exports, EXPECTED[name]!.exports, name);
    assert.equal(lib.subobjects.map((s) => `${s.name}:${s.kind}`), EXPECTED[name]!.subobjects ?? [], name);
  }
});

test('subobject contents: embedded_subobject.lib_6_3.hlsl', () => {
  const lib = libraryOf('embedded_subobject');
  const so = new Map(lib.subobjects.map((s) => [s.name, s]));
  // RaytracingShaderConfig config = { 4, 8 }; RaytracingPipelineConfig pconfig = { 1 };
  assert.equal(so.get('config')!.contents, { MaxPayloadSizeInBytes: 4, MaxAttributeSizeInBytes: 8 });
  assert.equal(so.get('pconfig')!.contents, { MaxTraceRecursionDepth: 1 });
  // TriangleHitGroup thg = { "", "RayClosestHit" }; ProceduralPrimitiveHitGroup phg = { "", "RayClosestHitAABB", "RayIntersect" };
  assert.equal(so.get('thg')!.contents, { Type: 'Triangle', AnyHit: '', ClosestHit: 'RayClosestHit', Intersection: '' });
  assert.equal(so.get('phg')!.contents, { Type: 'ProceduralPrimitive', AnyHit: '', ClosestHit: 'RayClosestHitAABB', Intersection: 'RayIntersect' });
  // SubobjectToExportsAssociation exports1 = { "grs", "thg;phg;RayGen" }; ...
  assert.equal(so.get('exports1')!.contents, { Subobject: 'grs', Exports: ['thg', 'phg', 'RayGen'] });
  assert.equal(so.get('exports4')!.contents, { Subobject: 'lrs_other2', Exports: ['phg'] });
  // GlobalRootSignature grs = { "UAV(u0)" }; grs_dummy = { "UAV(u10)" }; LocalRootSignature lrs_raygen = { "UAV(u1)" } ...
  const reg = (n: string) => so.get(n)!.rootSignature!.description!.parameters.map((p) => ('descriptor' in p ? `${p.parameterType}:${p.descriptor.shaderRegister}/${p.descriptor.registerSpace}` : '?'));
  assert.equal([reg('grs'), reg('grs_dummy'), reg('lrs_raygen'), reg('lrs_other1'), reg('lrs_other2')], [['4:0/0'], ['4:10/0'], ['4:1/0'], ['4:2/0'], ['4:3/0']]);
  assert.is(so.get('lrs_raygen')!.rootSignature!.description!.flags & 0x80, 0x80, 'a local root signature has LOCAL_ROOT_SIGNATURE');
  assert.is(so.get('grs')!.rootSignature!.description!.flags & 0x80, 0);
});

test('subobject contents: embedded_subobject_dupe and local_root_signature', () => {
  const dupe = new Map(libraryOf('embedded_subobject_dupe').subobjects.map((s) => [s.name, s.contents]));
  // RaytracingShaderConfig config1 = { 8, 12 }; RaytracingPipelineConfig pconfig1 = { 2 };
  assert.equal(dupe.get('config1'), { MaxPayloadSizeInBytes: 8, MaxAttributeSizeInBytes: 12 });
  assert.equal(dupe.get('pconfig1'), { MaxTraceRecursionDepth: 2 });
  const lrs = libraryOf('local_root_signature');
  // LRS0 = "UAV(u0, space = 1), RootConstants(num32BitConstants = 1, b0), RootConstants(num32BitConstants = 1, b1)"
  assert.equal(lrs.subobjects[0]!.rootSignature!.summary.length, 4);
  assert.equal(lrs.subobjects[2]!.contents, { Subobject: 'LRS0', Exports: ['A'] });
  // [NodeLocalRootArgumentsTableIndex(0)] void A(); (1) void B(); EntryNode has none
  const idx = Object.fromEntries(lrs.exports.map((e) => [e.name, e.localRootArgumentsTableIndex]));
  assert.equal(idx, { EntryNode: undefined, A: 0, B: 1 });
});

test('payload and attribute sizes: default.lib_6_3.hlsl (RayPayload float2 = 8 B, AABBAttribs float = 4 B, triangle attributes 8 B)', () => {
  const e = new Map(libraryOf('default').exports.map((x) => [x.name, x]));
  assert.equal([e.get('RayMiss')!.payloadSizeInBytes, e.get('RayClosest')!.attributeSizeInBytes, e.get('RayAnyAABB')!.attributeSizeInBytes], [8, 8, 4]);
  assert.is(e.get('RayGen')!.bindings.find((b) => b.class === 'SRV' && b.lowerBound === 0)!.kind, 'RTAccelerationStructure');
});

test('dxbin inspect LIB lists exports and subobjects; --json carries them', async () => {
  const file = `${CORPUS}/shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil`;
  let s = captureStreams();
  assert.is(await run(['inspect', file], s), 0);
  const text = s.stdout();
  assert.match(text, /library: 4 exports, 13 subobjects/);
  assert.match(text, /export RayIntersect: Intersection .*1 binding\n\s+UAV u3 space0 StructuredBuffer RW4/);
  assert.match(text, /subobject phg: HitGroup, procedural: closest hit RayClosestHitAABB, any hit -, intersection RayIntersect/);
  assert.match(text, /subobject thg: HitGroup, triangles: closest hit RayClosestHit, any hit -, intersection -/);
  assert.match(text, /subobject exports1: SubobjectToExportsAssociation, grs -> thg, phg, RayGen/);
  s = captureStreams();
  assert.is(await run(['inspect', file, '--json'], s), 0);
  const json = JSON.parse(s.stdout()) as { library: { exports: { name: string }[]; subobjects: { name: string; rootSignature?: { version: string } }[] } };
  assert.is(json.library.exports.length, 4);
  assert.is(json.library.subobjects.find((x) => x.name === 'grs')!.rootSignature!.version, '1.1');
});

test('inspect of a library whose RDAT part does not decode still lists the container (exit 0) and says why', async () => {
  const { parseContainer, writeContainer } = await import('../src/index.js');
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const c = parseContainer(corpusFile('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil'));
  const file = `${mkdtempSync(`${tmpdir()}/dxbin-lib-`)}/bad.dxil`;
  writeFileSync(file, writeContainer({ ...c, parts: c.parts.map((p) => (p.name === 'RDAT' ? { ...p, data: p.data.slice(0, 40) } : p)) }));
  const s = captureStreams();
  assert.is(await run(['inspect', file], s), 0);
  assert.match(s.stdout(), /library: the RDAT part does not decode: RDAT\.parts\[0\] at byte \d+: needs/);
});

test.run();
