/**
 * Every container part decoded from rows and written back bit-exact (src/parts/): the corpus
 * round trip (bytes and JSON form), values a peer fact pins (HASH = MD5 of the bitcode, VERS
 * strings, ILDN names, SHEX instruction names), SRCI with zlib sources, budgets and typed errors.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  Budget,
  DecodeError,
  LimitError,
  decodePart,
  encodePart,
  parseContainer,
  partFromJson,
  partToJson,
  programBitcode,
  type Row,
} from '../src/index.js';
import { mutateRecord, recordFromJson, recordToJson, readRecord, RowReader, writeRecord } from '../src/rows/record.js';
import { SIGNATURE_ELEMENT_1, SFI0 } from '../codecs/parts.js';
import { corpusFile, corpusFiles } from './helpers/corpus.js';

const containers = corpusFiles('shaders').flatMap((f) => {
  try {
    return [{ name: f.name, container: parseContainer(f.bytes, { mode: 'lenient' }) }];
  } catch {
    return [];
  }
});
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

test('every part of every corpus container: decode, encode gives the same bytes; so does the JSON form', () => {
  let parts = 0;
  const kinds: Record<string, number> = {};
  for (const { name, container } of containers) {
    for (const p of container.parts) {
      const d = decodePart(p.name, p.data);
      kinds[d.kind] = (kinds[d.kind] ?? 0) + 1;
      assert.ok(same(encodePart(d), p.data), `${name} ${p.name}: encode differs`);
      const back = partFromJson(JSON.parse(JSON.stringify(partToJson(d))));
      assert.ok(same(encodePart(back), p.data), `${name} ${p.name}: JSON round trip differs`);
      parts++;
    }
  }
  assert.ok(parts > 8000, `${parts} parts`);
  // every kind the rows know occurs in the corpus (SRCI has its own test below)
  for (const k of ['signature', 'program', 'featureInfo', 'hash', 'debugName', 'compilerVersion', 'statistics', 'resource-definitions', 'tokens']) assert.ok(kinds[k]! > 0, k);
});

test('HASH holds the standard MD5 of the DXIL bitcode (programBitcode) on every corpus container with both', () => {
  let n = 0;
  for (const { name, container } of containers) {
    const hash = container.parts.find((p) => p.name === 'HASH');
    const dxil = container.parts.find((p) => p.name === 'DXIL');
    if (!hash || !dxil) continue;
    const h = decodePart('HASH', hash.data).blocks.hash as Row;
    if ((h.flags as number) !== 0) continue; // IncludesSource hashes more than the bitcode
    assert.is(Buffer.from(h.digest as Uint8Array).toString('hex'), createHash('md5').update(programBitcode(dxil.data)).digest('hex'), name);
    n++;
  }
  assert.ok(n > 300, `${n}`);
});

test('the DXIL program header: shader kind, model, DXIL version, bitcode starting with BC C0 DE', () => {
  const c = parseContainer(corpusFile('shaders/vkd3d-proton/control_point_phase_ds_code_dxil.dxil'));
  const dxil = c.parts.find((p) => p.name === 'DXIL')!.data;
  const h = decodePart('DXIL', dxil).blocks.header as Row;
  assert.equal([h.shaderKindName, h.majorVersion, h.minorVersion, h.dxilMajorVersion, h.dxilMinorVersion, h.magic, h.bitcodeOffset, h.bitcodeSize], ['Domain', 6, 0, 1, 0, 'DXIL', 16, 1368]);
  assert.is(h.sizeInUint32, dxil.byteLength / 4);
  assert.equal(Array.from(programBitcode(dxil).subarray(0, 4)), [0x42, 0x43, 0xc0, 0xde]);
});

test('signatures: names, system values, component types and masks of a domain shader (PSG1)', () => {
  const c = parseContainer(corpusFile('shaders/vkd3d-proton/control_point_phase_ds_code_dxil.dxil'));
  const els = decodePart('PSG1', c.parts.find((p) => p.name === 'PSG1')!.data).blocks.elements as Row[];
  assert.equal(
    els.map((e) => `${e.semanticName}${e.semanticIndex} ${e.systemValueName} ${e.componentTypeName} r${e.register} ${e.mask} ${e.minPrecisionName}`),
    ['SV_TessFactor0 FinalTriEdgeTessfactor Float32 r0 8 Default', 'SV_TessFactor1 FinalTriEdgeTessfactor Float32 r1 8 Default', 'SV_TessFactor2 FinalTriEdgeTessfactor Float32 r2 8 Default', 'SV_InsideTessFactor0 FinalTriInsideTessfactor Float32 r3 1 Default'],
  );
});

test('VERS and ILDN strings; SFI0 flags by name as a 64-bit integer', () => {
  const lib = parseContainer(corpusFile('shaders/vkd3d-proton/basic_code_dxil.dxil'));
  const v = decodePart('VERS', lib.parts.find((p) => p.name === 'VERS')!.data).blocks.compilerVersion as Row;
  assert.equal([v.major, v.minor, v.commitCount, v.commitSha, v.versionString, v.versionStringListSize], [1, 8, 4458, 'c9660a8c', '1.8.2403.34', 21]);
  const dbg = parseContainer(corpusFile('shaders/brawler/PSODefinition_BC7_ENCODE_BLOCK__BC7_ENCODE_BLOCK__COMPUTE_SHADER_BYTECODE.dxil'));
  const n = decodePart('ILDN', dbg.parts.find((p) => p.name === 'ILDN')!.data).blocks.debugName as Row;
  assert.equal([n.flags, n.nameLength, n.name], [0, 36, '2cd0b3927d86c13c8e2ab3ec4e527a9b.pdb']);
  const data = new Uint8Array(8);
  new DataView(data.buffer).setBigUint64(0, (1n << 2n) | (1n << 25n) | (1n << 40n), true);
  const f = decodePart('SFI0', data).blocks.featureInfo as Row;
  assert.is(f.flags, (1n << 2n) | (1n << 25n) | (1n << 40n));
  assert.equal(f.flagsNames, ['UAVsAtEveryStage', 'ResourceDescriptorHeapIndexing', 'UsesDerivatives']);
  assert.is((partToJson(decodePart('SFI0', data)).featureInfo as Row).flags, 4 + 2 ** 25 + 2 ** 40);
});

test('SHEX/SHDR: every instruction named, lengths tile the program, declarations beside', () => {
  const c = parseContainer(corpusFile('shaders/vkd3d-proton/d3d12_enhanced_barriers__read_dxbc.dxbc'));
  const d = decodePart('SHEX', c.parts.find((p) => p.name === 'SHEX')!.data);
  const t = d.tokens!;
  assert.is(t.programTypeName, 'compute');
  assert.is(t.instructions.reduce((s, i) => s + i.tokens.length, 2), t.length);
  assert.equal(t.instructions.at(-1)!.name, 'ret');
  assert.ok(t.instructions.some((i) => i.name === 'dcl_thread_group'));
  assert.equal(t.declarations!.map((x) => x.declaration), ['dcl_uav_typed', 'dcl_uav_structured']);
  let unnamed = 0;
  for (const { container } of containers) for (const p of container.parts) if (p.name === 'SHEX' || p.name === 'SHDR') unnamed += decodePart(p.name, p.data).tokens!.instructions.filter((i) => i.name.startsWith('opcode_')).length;
  assert.is(unnamed, 0);
});

test('RDEF: bindings and constant buffers named; SM 5 parts carry RD11 with the record sizes the part uses', () => {
  let n = 0;
  for (const { name, container } of containers) {
    const p = container.parts.find((x) => x.name === 'RDEF');
    if (!p) continue;
    const d = decodePart('RDEF', p.data);
    const h = d.blocks.header as Row;
    const bindings = d.blocks.bindings as Row[];
    if ((h.majorVersion as number) >= 5) {
      const rd = d.blocks.rd11 as Row;
      assert.equal([rd.magic, rd.headerSize, rd.constantBufferSize, rd.bindingSize, rd.variableSize], ['RD11', 60, 24, (h.minorVersion as number) >= 1 ? 40 : 32, 40], name);
    } else assert.is(d.blocks.rd11, undefined);
    assert.is(bindings.length, h.bindingCount);
    for (const b of bindings) assert.ok(typeof b.name === 'string' && b.typeName !== undefined, name);
    n++;
  }
  assert.is(n, 14);
  const c = parseContainer(corpusFile('shaders/vkd3d-proton/d3d12_enhanced_barriers__read_dxbc.dxbc'));
  const d = decodePart('RDEF', c.parts.find((p) => p.name === 'RDEF')!.data);
  assert.equal((d.blocks.bindings as Row[]).map((b) => `${b.typeName} ${b.name} ${b.bindPoint}`), ['UAV_RWTYPED UAVUint32 1', 'UAV_RWSTRUCTURED Readback 2']);
  assert.equal((d.blocks.constantBuffers as Row[]).map((b) => `${b.name} ${b.size}`), ['Readback 4']);
});

/** An SRCI part with one zlib-compressed source, its name and two arguments. */
function srci(text: string, name: string): Uint8Array {
  const pad = (n: number) => (n + 3) & ~3;
  const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
  const u16 = (v: number) => [v & 0xff, v >>> 8];
  const content = [...Buffer.from(text + '\0')];
  const entry = [...u32(pad(12 + content.length)), ...u32(0), ...u32(content.length), ...content, ...new Array(pad(content.length) - content.length).fill(0)];
  const z = [...deflateSync(Uint8Array.from(entry))];
  const zPadded = [...z, ...new Array(pad(z.length) - z.length).fill(0)];
  const contents = [...u32(20 + zPadded.length), ...u16(0), ...u16(1), ...u32(z.length), ...u32(entry.length), ...u32(1), ...zPadded];
  const nm = [...Buffer.from(name + '\0')];
  const nEntry = [...u32(pad(16 + nm.length)), ...u32(0), ...u32(nm.length), ...u32(content.length), ...nm, ...new Array(pad(nm.length) - nm.length).fill(0)];
  const names = [...u32(0), ...u32(1), ...u16(nEntry.length), ...u16(0), ...nEntry];
  const argBytes = [...Buffer.from('T\0ps_6_0\0E\0main\0')];
  const args = [...u32(0), ...u32(argBytes.length), ...u32(2), ...argBytes];
  const section = (type: number, body: number[]) => [...u32(8 + pad(body.length)), ...u16(0), ...u16(type), ...body, ...new Array(pad(body.length) - body.length).fill(0)];
  const body = [...section(0, contents), ...section(1, names), ...section(2, args)];
  return Uint8Array.from([...u32(8 + body.length), ...u16(0), ...u16(3), ...body]);
}

test('SRCI: zlib sources inflated, names and arguments read, bytes written back; inflation bounded by the header and the budget', () => {
  const data = srci('float4 main() : SV_Target { return 1; }', 'shader.hlsl');
  const d = decodePart('SRCI', data);
  const [contents, names, args] = d.sourceInfo!.sections;
  assert.equal(contents!.contents, ['float4 main() : SV_Target { return 1; }']);
  assert.equal(names!.names, ['shader.hlsl']);
  assert.equal(args!.args, [['T', 'ps_6_0'], ['E', 'main']]);
  assert.ok(same(encodePart(d), data));
  assert.ok(same(encodePart(partFromJson(JSON.parse(JSON.stringify(partToJson(d))))), data));
  // a header that understates the inflated size: refused, nothing past the bound produced
  const lie = data.slice();
  new DataView(lie.buffer).setUint32(8 + 8 + 12, 8, true);
  try {
    decodePart('SRCI', lie);
    assert.unreachable();
  } catch (e) {
    assert.instance(e, DecodeError);
    assert.is((e as DecodeError).code, 'bad-token');
  }
  // the budget's produce kind bounds what inflation may make
  try {
    decodePart('SRCI', srci('x'.repeat(100000), 'big.hlsl'), { budget: Budget.for(0, { maxProducedChars: 1000 }) });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, LimitError);
    assert.is((e as LimitError).kind, 'produce');
  }
});

test('many elements naming one long string are charged to the budget (limit-exceeded, not quadratic output)', () => {
  const count = 2000;
  const strAt = 8 + 32 * count;
  const data = new Uint8Array(strAt + 4000);
  const v = new DataView(data.buffer);
  v.setUint32(0, count, true);
  v.setUint32(4, 8, true);
  for (let i = 0; i < count; i++) v.setUint32(8 + 32 * i + 4, strAt, true);
  data.fill(0x41, strAt, strAt + 3999);
  try {
    decodePart('ISG1', data);
    assert.unreachable();
  } catch (e) {
    assert.instance(e, LimitError);
    assert.is((e as LimitError).kind, 'resolve');
  }
});

test('bad parts give typed errors with offsets: truncated, bad-offset, count-exceeds-data, overlapping records', () => {
  const cases: [string, Uint8Array, string][] = [
    ['SFI0', new Uint8Array(4), 'truncated'],
    ['ISG1', Uint8Array.from([1, 0, 0, 0, 8, 0, 0, 0]), 'count-exceeds-data'],
    ['DXIL', new Uint8Array(10), 'truncated'],
  ];
  const bad = new Uint8Array(40);
  new DataView(bad.buffer).setUint32(0, 1, true);
  new DataView(bad.buffer).setUint32(4, 8, true);
  new DataView(bad.buffer).setUint32(12, 999, true);
  cases.push(['ISG1', bad, 'bad-offset']);
  const overlap = new Uint8Array(40);
  new DataView(overlap.buffer).setUint32(0, 1, true);
  new DataView(overlap.buffer).setUint32(4, 4, true);
  cases.push(['ISG1', overlap, 'part-layout']);
  for (const [name, data, code] of cases) {
    try {
      decodePart(name, data, { base: 100 });
      assert.unreachable(`${name} ${code}`);
    } catch (e) {
      assert.instance(e, DecodeError, `${name}: ${String(e)}`);
      assert.is((e as DecodeError).code, code, `${name}: ${(e as Error).message}`);
      assert.ok((e as DecodeError).offset >= 100);
    }
  }
});

test('the row interpreter: read, write, JSON and the mutator agree on a record', () => {
  const data = new Uint8Array(64);
  const v = new DataView(data.buffer);
  for (let i = 0; i < 8; i++) v.setUint32(4 * i, i * 0x01010101, true);
  v.setUint32(4, 40, true); // name offset
  data.set(Buffer.from('TEXCOORD\0'), 40);
  const r = new RowReader(data, 0, Budget.for(64));
  const row = readRecord(SIGNATURE_ELEMENT_1, r, 0, 'e');
  assert.is(row.semanticName, 'TEXCOORD');
  const out = new Uint8Array(64);
  out.set(data.subarray(32)); // the strings are kept bytes
  out.set(data.subarray(32), 32);
  writeRecord(SIGNATURE_ELEMENT_1, recordFromJson(SIGNATURE_ELEMENT_1, JSON.parse(JSON.stringify(recordToJson(row))), '$'), new DataView(out.buffer), 0);
  assert.ok(same(out.subarray(0, 32), data.subarray(0, 32)));
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const m = mutateRecord(SFI0, readRecord(SFI0, new RowReader(new Uint8Array(8), 0, Budget.for(8)), 0, 's'), random);
  assert.is(typeof m.flags, 'bigint');
});

test.run();
