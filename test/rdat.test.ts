/** RDAT as data: every corpus library's part decodes and encodes to the same bytes; the JSON form; typed errors; budgets. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DecodeError, DescriptionError, LimitError, findPart, parseContainer } from '../src/index.js';
import { decodeRdat, encodeRdat, readLibraryRdat, type RdatDescription, type RdatTable } from '../src/rdat/index.js';
import { fuzzTarget } from '../src/fuzz/targets.js';
import { seedInputs } from '../src/fuzz/seeds.js';
import { corpusFile, manifest } from './helpers/corpus.js';
import { longNamesRdat, thrown } from './helpers/hostile.js';
import { byteMap, checkByteMap } from '../src/inspect/index.js';
import { Budget, describeLibrary, libraryJson, libraryLines, rootSignatureToJson, suggestLibraryRootSignatures, writeContainer } from '../src/index.js';
import { RdatReader } from '../src/ddi/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const work = mkdtempSync(join(tmpdir(), 'dxbin-rdat-'));
async function cli(args: string[]) {
  const s = captureStreams();
  const exit = await run(args, s);
  return { exit, out: s.stdout(), err: s.stderr() };
}
const asLibrary = (rdat: Uint8Array) => writeContainer({ majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDAT', data: rdat }] } as never, 'compute');

const LIBRARIES = manifest().filter((r) => r.version.startsWith('lib_'));
const rdatOf = (file: string) => findPart(parseContainer(corpusFile(file)), 'RDAT')!.data;
const table = (d: RdatDescription, type: string) => d.parts.find((p) => p.type === type) as RdatTable | undefined;

test('the corpus has 29 DXIL libraries', () => {
  assert.is(LIBRARIES.length, 29);
});

test('every corpus RDAT part decodes, goes through JSON text, and encodes to the same bytes', () => {
  for (const row of LIBRARIES) {
    const bytes = rdatOf(row.file);
    const back = encodeRdat(JSON.parse(JSON.stringify(decodeRdat(bytes))));
    assert.equal(Buffer.from(back).toString('hex'), Buffer.from(bytes).toString('hex'), row.file);
  }
});

test('function tables: FunctionInfo (44-byte stride) or FunctionInfo2 (52, validator 1.8 on; every lib_6_8); strides kept', () => {
  const strides = new Set<number>();
  for (const row of LIBRARIES) {
    const f = table(decodeRdat(rdatOf(row.file)), 'FunctionTable')!;
    strides.add(f.stride);
    if (row.version.startsWith('lib_6_8')) assert.is(f.stride, 52, row.file);
    for (const rec of f.records) assert.is('ShaderFlags' in rec, f.stride === 52, row.file);
  }
  assert.equal([...strides].sort(), [44, 52]);
});

test('JSON form resolves names: subobjects of embedded_subobject (kinds, names, associations, hit group members)', () => {
  const d = decodeRdat(rdatOf('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil'));
  const so = table(d, 'SubobjectTable')!.records;
  // the rows' JSON form, as parts give it: an enumerated field's stored value, its name beside
  assert.equal(so.map((r) => [r.Kind, r.KindName, r.Name]).slice(0, 5), [
    [9, 'RaytracingShaderConfig', 'config'],
    [10, 'RaytracingPipelineConfig', 'pconfig'],
    [1, 'GlobalRootSignature', 'grs'],
    [1, 'GlobalRootSignature', 'grs_dummy'],
    [2, 'LocalRootSignature', 'lrs_raygen'],
  ]);
  const phg = so.find((r) => r.Name === 'phg')!;
  assert.equal([phg.Type, phg.TypeName, phg.ClosestHit, phg.Intersection, phg.AnyHit], [1, 'ProceduralPrimitive', 'RayClosestHitAABB', 'RayIntersect', '']);
  assert.equal(so.find((r) => r.Name === 'exports1')!.Exports, ['thg', 'phg', 'RayGen']);
  // The root signature bytes are those the manifest took from this subobject.
  assert.is(so.find((r) => r.Name === 'grs_dummy')!.RootSignature, Buffer.from(corpusFile('rootsig/vkd3d-proton__embedded_subobject_code_dxil__grs_dummy.rts0')).toString('hex'));
  const res = table(d, 'ResourceTable')!.records;
  assert.ok(res.every((r) => typeof r.Name === 'string' && typeof r.Class === 'number' && typeof r.ClassName === 'string'));
  // a description written by hand may spell the value by name in place: it encodes to the same bytes
  const named = { ...d, parts: d.parts.map((p) => (p.type === 'SubobjectTable' ? { ...p, records: (p as RdatTable).records.map((r) => ({ ...r, Kind: r.KindName ?? r.Kind, KindName: undefined })) } : p)) };
  assert.equal(encodeRdat(JSON.parse(JSON.stringify(named))), encodeRdat(d));
});

test('node tables resolve: local_root_signature has LocalRootArgumentsTableIndex attributes', () => {
  const d = decodeRdat(rdatOf('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil'));
  const attribs = table(d, 'NodeShaderFuncAttribTable')!.records;
  assert.ok(attribs.some((a) => a.AttribKind === 6 && a.AttribKindName === 'LocalRootArgumentsTableIndex' && typeof a.LocalRootArgumentsTableIndex === 'number'));
});

test('NodeShaderIOAttrib kind 9 is MaxRecordsPerNode (DXC RDAT_LibraryTypes.inl NodeAttribKind): named when decoded, spelled by name when encoded, its u32 read from the union', () => {
  const bytes = encodeRdat({ version: 16, parts: [{ type: 'NodeShaderIOAttribTable', stride: 8, records: [{ AttribKind: 'MaxRecordsPerNode', MaxRecordsPerNode: 12 }] }] } as never);
  const rec = table(decodeRdat(bytes), 'NodeShaderIOAttribTable')!.records[0]!;
  assert.equal([rec.AttribKind, rec.AttribKindName, rec.MaxRecordsPerNode], [9, 'MaxRecordsPerNode', 12]);
  assert.equal(Array.from(bytes.subarray(bytes.byteLength - 8)), [9, 0, 0, 0, 12, 0, 0, 0]);
});

test('an edited string is appended to the string buffer; every other byte stays', () => {
  const bytes = rdatOf('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil');
  const d = decodeRdat(bytes);
  const hg = table(d, 'SubobjectTable')!.records.find((r) => r.Name === 'thg')!;
  hg.ClosestHit = 'Renamed';
  const back = decodeRdat(encodeRdat(d));
  assert.is(table(back, 'SubobjectTable')!.records.find((r) => r.Name === 'thg')!.ClosestHit, 'Renamed');
  assert.is(table(back, 'SubobjectTable')!.records.find((r) => r.Name === 'phg')!.ClosestHit, 'RayClosestHitAABB');
  // an edit to an existing string reuses it
  hg.ClosestHit = 'RayClosestHitAABB';
  assert.is(encodeRdat(d).byteLength, bytes.byteLength);
});

test('typed errors name offset and field', () => {
  const bytes = rdatOf('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil');
  const bad = (mutate: (v: DataView) => void, code: string, path: RegExp) => {
    const b = bytes.slice();
    mutate(new DataView(b.buffer));
    try {
      decodeRdat(b, 100);
      assert.unreachable('decoded');
    } catch (e) {
      assert.instance(e, DecodeError);
      assert.is((e as DecodeError).code, code);
      assert.match((e as DecodeError).path, path);
      assert.ok((e as DecodeError).offset >= 100);
    }
  };
  bad((v) => v.setUint32(0, 0x11, true), 'unsupported-version', /RDAT\.version/);
  bad((v) => v.setUint32(12, 99, true), 'part-layout', /partOffsets\[1\]/);
  // subobject 0's name offset (SubobjectTable at 1048: data at 1056, records at 1064)
  bad((v) => v.setUint32(1064 + 4, 100000, true), 'bad-offset', /SubobjectTable\[0\]\.Name/);
  // grs's root signature size
  bad((v) => v.setUint32(1064 + 2 * 24 + 12, 100000, true), 'bad-offset', /SubobjectTable\[2\]\.RootSignature/);
  assert.throws(() => decodeRdat(bytes.subarray(0, 30)), (e: unknown) => e instanceof DecodeError);
  assert.throws(() => encodeRdat({ version: 16, parts: [{ type: 'Nope' as never, hex: '' }] }), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-name');
});

test('maxResolved bounds what shared references fan out to', () => {
  const bytes = rdatOf('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil');
  assert.throws(() => decodeRdat(bytes, 0, { maxResolved: 50 }), (e: unknown) => e instanceof LimitError && e.code === 'limit-exceeded' && e.kind === 'resolve');
  decodeRdat(bytes); // the default holds real data
});

test('hostile: 300 records naming one 4,000-character string stop at the default budget', () => {
  const long = 'x'.repeat(4000);
  const bytes = encodeRdat({
    version: 16,
    parts: [
      { type: 'StringBuffer', strings: [''] },
      { type: 'SubobjectTable', stride: 24, records: Array.from({ length: 300 }, () => ({ Kind: 'RaytracingPipelineConfig', Name: long, MaxTraceRecursionDepth: 1 })) },
    ],
  });
  assert.ok(bytes.byteLength < 12000);
  assert.throws(() => decodeRdat(bytes), (e: unknown) => e instanceof LimitError && e.code === 'limit-exceeded' && /SubobjectTable\[\d+\]\.Name/.test(e.path));
});

test('byte map (inspect --hex/--html): every table record field by field from the rows', () => {
  for (const row of LIBRARIES) {
    const map = byteMap(corpusFile(row.file));
    assert.equal(checkByteMap(map), [], row.file);
    assert.ok(map.spans.some((s) => /^RDAT\.FunctionTable\[0\]\.ShaderKind$/.test(s.path) && s.size === 4 && typeof s.name === 'string'), row.file);
  }
  const map = byteMap(corpusFile('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil'));
  const at = (path: string) => map.spans.find((s) => s.path === path);
  assert.equal([at('RDAT.SubobjectTable[2].Kind')?.name, at('RDAT.SubobjectTable[2].RootSignature.Size')?.value], ['GlobalRootSignature', 48]);
  assert.is(at('RDAT.SubobjectTable[0] (union rest)')?.size, 8);
  const lib68 = byteMap(corpusFile('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil'));
  assert.is(lib68.spans.find((s) => s.path === 'RDAT.FunctionTable[0].ShaderFlags')?.size, 2);
});

test('readLibraryRdat finds the part and its absolute offset', () => {
  const lib = readLibraryRdat(corpusFile('shaders/vkd3d-proton/multi_rs_code_dxil.dxil'));
  assert.ok(lib.base > 0);
  assert.ok(table(lib.rdat, 'FunctionTable')!.records.length === 2);
  assert.throws(() => readLibraryRdat(corpusFile('rootsig/vkd3d-proton__embedded_subobject_code_dxil__grs_dummy.rts0')), (e: unknown) => e instanceof DecodeError);
});

test('fuzz target rdat-codec: seeds and corpus parts pass the round trip oracle', () => {
  const t = fuzzTarget('rdat-codec');
  for (const seed of seedInputs('rdat-codec')) assert.ok(t.run(seed) > 0);
  for (const row of LIBRARIES.slice(0, 5)) assert.ok(t.run(rdatOf(row.file)) > 0);
});

/** F functions sharing one stored list of N resources (DXC deduplicates index arrays). */
function sharedResources(F: number, N: number): Uint8Array {
  const list = Array.from({ length: N }, (_, i) => i);
  return encodeRdat({
    version: 16,
    parts: [
      { type: 'StringBuffer', strings: [''] },
      { type: 'IndexArrays', values: [] },
      { type: 'ResourceTable', stride: 32, records: list.map((i) => ({ Class: 'SRV', Kind: 'Texture2D', ID: i, Space: 0, LowerBound: i, UpperBound: i, Name: `tex${i}`, Flags: 0 })) },
      { type: 'FunctionTable', stride: 44, records: Array.from({ length: F }, (_, i) => ({ Name: `f${i}`, UnmangledName: `f${i}`, Resources: list, FunctionDependencies: null, ShaderKind: 'RayGeneration', PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0x70063 })) },
    ],
  } as never);
}

test('describeLibrary: a hand-written resource Class naming an Object.prototype member ("constructor", "toString") is refused as no class name (bad-name), never a function nor a silent SRV', () => {
  const d = decodeRdat(sharedResources(1, 1));
  const res = d.parts.find((p) => (p as RdatTable).type === 'ResourceTable') as RdatTable;
  assert.equal(describeLibrary(d).exports[0]!.bindings.map((b) => b.class), ['SRV']);
  for (const name of ['constructor', 'toString', '__proto__', 'Bogus']) {
    res.records[0]!.Class = name;
    const e = thrown(() => describeLibrary(d));
    assert.ok(e instanceof DescriptionError && e.code === 'bad-name' && e.path === 'RDAT.ResourceTable[0].Class', `${name}: ${String(e)}`);
  }
  // Changed 2026-12-04: the decoded record's ClassName ("SRV") beside an edited Class was taken
  // silently (the binding read as UAV, the record naming SRV); a name that disagrees with its value
  // is ambiguous and refused, as encodeRdat refuses it: edit the value and drop (or fix) the name
  res.records[0]!.Class = 'UAV';
  const stale = thrown(() => describeLibrary(d));
  assert.ok(stale instanceof DescriptionError && stale.code === 'bad-name' && stale.path === 'RDAT.ResourceTable[0].ClassName', String(stale));
  delete res.records[0]!.ClassName;
  assert.equal(describeLibrary(d).exports[0]!.bindings.map((b) => b.class), ['UAV']);
  // a subobject's keys are its record form's (Changed 2026-12-03: FlagsName and toStringName, keys of
  // no field, were copied into contents as if fields of the kind): a name beside an enumerated
  // field (KindName) is the form's helper, left out; any other key is refused, as encodeRdat refuses it
  const sub = { Kind: 'StateObjectConfig', KindName: 'StateObjectConfig', Name: 'c', Flags: 1 } as Record<string, unknown>;
  d.parts.push({ type: 'SubobjectTable', stride: 0, records: [sub] } as unknown as RdatTable);
  assert.equal(describeLibrary(d).subobjects[0]!.contents, { Flags: 1 });
  for (const key of ['FlagsName', 'toStringName', 'Flgs', 'constructor']) {
    const e = thrown(() => describeLibrary({ ...d, parts: [...d.parts.slice(0, -1), { type: 'SubobjectTable', stride: 0, records: [{ ...sub, [key]: 'x' }] }] } as unknown as RdatDescription));
    assert.ok(e instanceof DescriptionError && e.code === 'unknown-key' && e.path === `RDAT.SubobjectTable[0].${key}`, `${key}: ${String(e)}`);
  }
});

/** A library description with one resource, one function and a hit group, each field replaceable. */
function handWritten(edit: (parts: { resource: Record<string, unknown>; fn: Record<string, unknown>; hitGroup: Record<string, unknown> }) => void): RdatDescription {
  const resource: Record<string, unknown> = { Class: 1, Kind: 2, ID: 0, Space: 0, LowerBound: 3, UpperBound: 3, Name: 'tex', Flags: 0 };
  const fn: Record<string, unknown> = { Name: 'rg', UnmangledName: 'rg', Resources: [0], FunctionDependencies: null, ShaderKind: 7, PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0x70063 };
  const hitGroup: Record<string, unknown> = { Kind: 11, Name: 'hg', Type: 0, AnyHit: '', ClosestHit: 'ch', Intersection: '' };
  edit({ resource, fn, hitGroup });
  return {
    version: 16,
    parts: [
      // offsets: 0 "", 1 "tex", 5 "rg", 8 "ch"
      { type: 'StringBuffer', strings: ['', 'tex', 'rg', 'ch', ''] },
      { type: 'ResourceTable', stride: 32, records: [resource] },
      { type: 'FunctionTable', stride: 44, records: [fn] },
      { type: 'SubobjectTable', stride: 24, records: [hitGroup] },
    ],
  } as unknown as RdatDescription;
}

test('describeLibrary: enumerated values the tables lack are named unknown(N), never a wrong name nor bare digits; every listing line says so', () => {
  const plain = describeLibrary(handWritten(() => {}));
  assert.equal([plain.exports[0]!.kind, plain.exports[0]!.bindings[0]!.class, plain.exports[0]!.bindings[0]!.kind, plain.subobjects[0]!.kind, plain.subobjects[0]!.contents.Type], ['RayGeneration', 'UAV', 'Texture2D', 'HitGroup', 'Triangle']);
  // before: class 9 was shown as SRV, kind 99 as "99", a hit group Type 7 printed as "procedural"
  const lib = describeLibrary(handWritten((p) => {
    p.resource.Class = 9;
    p.resource.Kind = 99;
    p.fn.ShaderKind = 40;
    p.fn.MinShaderTarget = 0x280063;
  }));
  const b = lib.exports[0]!.bindings[0]!;
  assert.equal([b.class, b.kind, lib.exports[0]!.kind, lib.exports[0]!.flags.minShaderTarget], ['unknown(9)', 'unknown(99)', 'unknown(40)', 'unknown(40) 6.3']);
  const invalid = describeLibrary(handWritten((p) => { p.resource.Class = 4; })).exports[0]!.bindings[0]!;
  assert.is(invalid.class, 'Invalid');
  const lines = libraryLines(lib).join('\n');
  assert.match(lines, 'unknown(40)');
  assert.match(lines, 'unknown(9) 3 space0 unknown(99) tex');
  assert.not.match(lines, 'SRV');
  const hg = describeLibrary(handWritten((p) => { p.hitGroup.Type = 7; }));
  assert.is(hg.subobjects[0]!.contents.Type, 'unknown(7)');
  assert.match(libraryLines(hg).join('\n'), 'subobject hg: HitGroup, unknown(7): closest hit ch');
  // a kind the table lacks has no fields: its union's bytes are unionRest (a hit group's fields on it are refused, never shown as its)
  const kind = describeLibrary(handWritten((p) => { p.hitGroup = Object.assign(p.hitGroup, { Kind: 30, unionRest: '01000000000000000000000000000000' }); for (const k of ['Type', 'AnyHit', 'ClosestHit', 'Intersection']) delete p.hitGroup[k]; }));
  assert.is(kind.subobjects[0]!.kind, 'unknown(30)');
  assert.equal(kind.subobjects[0]!.contents, { unionRest: '01000000000000000000000000000000' });
  const other = thrown(() => describeLibrary(handWritten((p) => { p.hitGroup.Kind = 30; })));
  assert.ok(other instanceof DescriptionError && other.code === 'unknown-key' && other.path === 'RDAT.SubobjectTable[0].Type', String(other));
  // a name the table lacks, given in place, is refused naming the field (was passed through as if a name)
  for (const [edit, path] of [
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.resource.Kind = 'Texture9D'; }, 'RDAT.ResourceTable[0].Kind'],
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.hitGroup.Kind = 'NoSuchKind'; }, 'RDAT.SubobjectTable[0].Kind'],
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.hitGroup.Type = 'Quads'; }, 'RDAT.SubobjectTable[0].Type'],
  ] as const) {
    const e = thrown(() => describeLibrary(handWritten(edit)));
    assert.ok(e instanceof DescriptionError && e.code === 'bad-name' && e.path === path, `${path}: ${String(e)}`);
  }
  // a binding of no register class is suggested no range (was taken for a UAV)
  const e = thrown(() => suggestLibraryRootSignatures([lib]));
  assert.ok(e instanceof DescriptionError && e.code === 'out-of-range' && e.path === 'libraries[0].exports[0].bindings[0].class', String(e));
});

test('describeLibrary: a string field holds text; a number (once read as a StringBuffer offset) is refused naming the field, as encodeRdat refuses it', () => {
  // Changed 2026-12-03: numbers in string fields were read as StringBuffer offsets here (and by
  // subobjectNames) while encodeRdat refused them, so one description had two readings; a decoded
  // description holds the text (the stored offset is in refs), so both now refuse the number.
  const lib = describeLibrary(handWritten(() => {}));
  assert.equal([lib.exports[0]!.bindings[0]!.name, lib.exports[0]!.name, lib.exports[0]!.mangledName, lib.subobjects[0]!.contents.ClosestHit, lib.subobjects[0]!.name], ['tex', 'rg', 'rg', 'ch', 'hg']);
  for (const [edit, path, value] of [
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.resource.Name = 1; }, 'RDAT.ResourceTable[0].Name', 1],
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.fn.UnmangledName = 5; }, 'RDAT.FunctionTable[0].UnmangledName', 5],
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.fn.Name = -1; }, 'RDAT.FunctionTable[0].Name', -1],
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.hitGroup.Name = 0; }, 'RDAT.SubobjectTable[0].Name', 0],
    [(p: Parameters<Parameters<typeof handWritten>[0]>[0]) => { p.hitGroup.ClosestHit = 8; }, 'RDAT.SubobjectTable[0].ClosestHit', 8],
  ] as const) {
    const e = thrown(() => describeLibrary(handWritten(edit)));
    assert.ok(e instanceof DescriptionError && e.code === 'bad-type' && e.path === path && e.message.includes(`got ${value}`), `${path}: ${String(e)}`);
    // encodeRdat refuses the same description, naming the same field
    const enc = thrown(() => encodeRdat(handWritten(edit)));
    assert.ok(enc instanceof DescriptionError && enc.code === 'bad-type' && enc.path.endsWith(path.replace(/^RDAT\.\w+\[0\]/, 'records[0]')), `encodeRdat ${path}: ${String(enc)}`);
  }
  // a value that is not text is refused (was String(value))
  const e = thrown(() => describeLibrary(handWritten((p) => { p.resource.Name = { x: 1 }; })));
  assert.ok(e instanceof DescriptionError && e.code === 'bad-type' && e.path === 'RDAT.ResourceTable[0].Name', String(e));
  // a resource reference past the table is refused (was a binding of class SRV and kind "undefined")
  const r = thrown(() => describeLibrary(handWritten((p) => { p.fn.Resources = [0, 5]; })));
  assert.ok(r instanceof DescriptionError && r.code === 'out-of-range' && r.path === 'RDAT.FunctionTable[0].Resources[1]', String(r));
});

test('issue 26: 500 functions sharing one 400-resource list: the listing and the JSON write it once, never 32 MB', async () => {
  const rdat = sharedResources(500, 400);
  assert.ok(rdat.byteLength < 50_000, `${rdat.byteLength}`);
  const lib = describeLibrary(decodeRdat(rdat, 0, { sharedArrays: true }));
  assert.ok(lib.exports.every((e) => e.bindings === lib.exports[0]!.bindings), 'one array for the shared list');
  const lines = libraryLines(lib);
  assert.is(lines.filter((l) => l.includes('SRV t')).length, 400, 'the list printed once');
  assert.ok(lines.some((l) => l.includes('(the list of export f0)')));
  // the JSON: one list in bindingLists, every export naming it by index
  const j = libraryJson(lib, rootSignatureToJson);
  assert.is(j.bindingLists.length, 1);
  assert.is(j.bindingLists[0]!.length, 400);
  assert.ok(j.exports.every((e) => e.bindingList === 0));
  assert.equal(j.bindingLists[j.exports[499]!.bindingList]![7], { class: 'SRV', kind: 'Texture2D', space: 0, lowerBound: 7, upperBound: 7, name: 'tex7', flags: 0 });
  assert.ok(JSON.stringify(j).length <= 64 * rdat.byteLength);
  // decoding shares the stored list: its elements are resolved once, each further reference costs one
  const budget = Budget.for(rdat.byteLength);
  decodeRdat(rdat, 0, { sharedArrays: true, budget });
  const unshared = Budget.for(rdat.byteLength);
  decodeRdat(rdat, 0, { budget: unshared });
  assert.ok(budget.used('resolve') < 500 * 20 + 400 * 20, `${budget.used('resolve')}`);
  assert.ok(unshared.used('resolve') > 500 * 400, `${unshared.used('resolve')}`);
  const file = join(work, 'shared.dxil');
  const bytes = asLibrary(rdat);
  writeFileSync(file, bytes);
  const text = await cli(['inspect', file]);
  assert.is(text.exit, 0, text.err);
  assert.ok(text.out.length <= 64 * bytes.byteLength, `${text.out.length} characters from ${bytes.byteLength} bytes`);
  const json = await cli(['inspect', file, '--json']);
  assert.is(json.exit, 0, json.err);
  assert.ok(json.out.length <= 64 * bytes.byteLength, `${json.out.length} characters from ${bytes.byteLength} bytes`);
  const parsed = JSON.parse(json.out) as { library: { bindingLists: unknown[][]; exports: { name: string; bindingList: number }[] } };
  assert.is(parsed.library.exports.length, 500);
  assert.is(parsed.library.bindingLists.length, 1);
  // read back: each export's bindings are the stored list, in order
  const back = parsed.library.exports.map((e) => (parsed.library.bindingLists[e.bindingList] as { lowerBound: number }[]).map((b) => b.lowerBound));
  assert.ok(back.every((l) => l.length === 400 && l.every((v, i) => v === i)));
});

test('issue 26: 5,000 functions sharing one list: inspect --json answers (exit 0) within 64x', async () => {
  const rdat = sharedResources(5000, 400);
  const file = join(work, 'shared5000.dxil');
  const bytes = asLibrary(rdat);
  writeFileSync(file, bytes);
  const json = await cli(['inspect', file, '--json']);
  assert.is(json.exit, 0, json.err);
  assert.ok(json.out.length <= 64 * bytes.byteLength, `${json.out.length} characters from ${bytes.byteLength} bytes`);
  assert.is((JSON.parse(json.out) as { library: { exports: unknown[] } }).library.exports.length, 5000);
  // verify reads the library the same way (one shared list), so it answers too
  const verify = await cli(['verify', file]);
  assert.ok(verify.exit === 0 || verify.exit === 1, verify.err);
  assert.ok(!/limit-exceeded|maxResolved/.test(verify.err), verify.err);
});

test('issue 26: ddi node-outputs over a 152 KB RDAT of long names reads each string once through src/rdat (budget counters, not time)', async () => {
  const rdat = longNamesRdat();
  assert.ok(rdat.byteLength > 150_000 && rdat.byteLength < 160_000);
  const budget = Budget.for(rdat.byteLength);
  const nodes = new RdatReader(rdat, 0, { budget }).nodes();
  assert.is(nodes.length, 1);
  assert.is(nodes[0]!.outputs.length, 3);
  assert.is((nodes[0]!.outputs[0]!.FinalName as { Name: string }).Name.length, 150_000);
  assert.equal(nodes[0]!.launch, 'thread');
  // three references to the long string (Name, UnmangledName, NodeID.Name), each charged once, plus the short lists
  const resolved = budget.used('resolve');
  assert.ok(resolved >= 3 * 150_001 && resolved < 3 * 150_001 + 100, `resolved ${resolved}`);
  assert.ok(budget.used('produce') <= 64 * rdat.byteLength);
  // the CLI answers within 64x the input, each output naming its node (escaped, one line each)
  const file = join(work, 'long.dxil');
  const bytes = asLibrary(rdat);
  writeFileSync(file, bytes);
  const r = await cli(['ddi', 'node-outputs', file]);
  assert.is(r.exit, 0, r.err);
  assert.is(r.out.trim().split('\n').length, 4);
  assert.ok(r.out.length <= 64 * bytes.byteLength);
  // more references than the budget allows: a typed limit, not a long run
  assert.throws(() => new RdatReader(rdat, 0, { maxResolved: 200_000 }).nodes(), (e: unknown) => e instanceof LimitError && e.kind === 'resolve');
});

test('describeLibrary: a table record that is no object is refused at its stored index, never dropped so that later references shift', () => {
  const d = handWritten(() => {});
  const res = d.parts.find((p) => p.type === 'ResourceTable') as RdatTable;
  const uav = res.records[0]!;
  const other = { ...uav, LowerBound: 7, Name: 'rg' };
  res.records.splice(0, 1, null as never, uav, other);
  const fn = (d.parts.find((p) => p.type === 'FunctionTable') as RdatTable).records[0]!;
  for (const ref of [[1], [2]]) {
    fn.Resources = ref;
    // before: null was filtered out, so [1] gave the t7 record and [2] was past a 2-record table
    const e = thrown(() => describeLibrary(d));
    assert.ok(e instanceof DescriptionError && e.code === 'bad-type' && e.path === 'RDAT.ResourceTable[0]', String(e));
  }
  res.records.splice(0, 1);
  fn.Resources = [1];
  assert.is(describeLibrary(d).exports[0]!.bindings[0]!.lowerBound, 7);
});

test.run();
