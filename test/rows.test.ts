/** The row interpreter (src/rows/record.ts) on the shapes PSV0, RDAT and the query results use: versions, packed bits, references, unions. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { enumTable } from '../codecs/enum-table.js';
import { record, sequential, versioned, type Field, type UnionType } from '../codecs/rows.js';
import { PSV_ELEMENT, PSV_RUNTIME_INFO, PSV_VERSIONS } from '../codecs/psv0.js';
import { RDAT_TABLES } from '../codecs/rdat.js';
import { RESULT_STRUCTS } from '../codecs/query.js';
import { Budget } from '../src/bytes/budget.js';
import { DescriptionError } from '../src/bytes/errors.js';
import { SpanRecorder } from '../src/bytes/spans.js';
import { encodePsv0, psv0ToJson, type Psv0 } from '../src/index.js';
import { checkRow, mutateRecord, readRecord, recordFromJson, recordSpans, recordToJson, RowReader, rowToJson, writeRecord, type RefResolver } from '../src/rows/record.js';

const reader = (b: Uint8Array, refs?: RefResolver) => new RowReader(b, 0, Budget.for(b.byteLength), refs);

test('a versioned record is the rows whose since is at most the version (PSV0 runtime info)', () => {
  for (const v of PSV_VERSIONS) {
    const def = PSV_RUNTIME_INFO[v.version]!;
    assert.is(def.size, v.runtimeInfoSize);
    assert.ok(def.fields.every((f) => (f.since ?? 0) <= v.version), `v${v.version}`);
  }
  assert.not.ok(PSV_RUNTIME_INFO[0]!.fields.some((f) => f.key === 'shaderStage'));
  assert.ok(PSV_RUNTIME_INFO[1]!.fields.some((f) => f.key === 'shaderStage'));
  assert.equal(versioned('x', 8, [{ key: 'a', type: 'u32', at: 0 }, { key: 'b', type: 'u32', at: 4, since: 2 }], 1).fields.map((f) => f.key), ['a']);
});

test('packed bit fields: every bit must be named; read, written and checked per subfield', () => {
  assert.throws(() => record('bad', 1, [{ key: 'w', type: { packed: 'u8', subfields: [{ key: 'lo', shift: 0, width: 4 }] }, at: 0 }]), /unnamed/);
  const bytes = new Uint8Array(16);
  bytes[10] = 0b1101_0011; // cols 3, startCol 1, allocated 1, reserved10 1
  const row = readRecord(PSV_ELEMENT, reader(bytes), 0, 'e', undefined, 'plain');
  assert.equal([row.cols, row.startCol, row.allocated, row.reserved10], [3, 1, 1, 1]);
  assert.is(row.colsAndStart, undefined, 'the word itself is not kept');
  const out = new Uint8Array(16);
  writeRecord(PSV_ELEMENT, row, new DataView(out.buffer), 0);
  assert.equal(out, bytes);
  assert.throws(() => checkRow(PSV_ELEMENT, { ...row, cols: 16 }, 'e'), (e: unknown) => e instanceof DescriptionError && e.code === 'out-of-range' && e.path === 'e.cols');
});

test('rowToJson of a plain row is the JSON form of a derived read of the same bytes (names beside, subfields of a packed word)', () => {
  const bytes = new Uint8Array(16);
  bytes[10] = 0b0100_0100; // cols 4, allocated 1
  bytes[11] = 3; // semanticKind Position
  const plain = readRecord(PSV_ELEMENT, reader(bytes), 0, 'e', undefined, 'plain');
  const derived = recordToJson(readRecord(PSV_ELEMENT, reader(bytes), 0, 'e'));
  assert.equal(rowToJson(PSV_ELEMENT, plain), derived);
  assert.is(derived.semanticKindName, 'Position');
  assert.is(plain.semanticKindName, undefined);
  // a value that is not an integer is left as given, no name made up
  assert.equal(rowToJson(PSV_ELEMENT, { ...plain, semanticKind: 'x', cols: undefined }).semanticKindName, undefined);
  // an integer field's -0 (a typed description may hold one; the writer takes it) is 0, never the float "-0" its reader refuses
  const zeros = rowToJson(PSV_ELEMENT, { ...plain, semanticName: -0, semanticKind: -0, cols: -0 });
  assert.ok(Object.is(zeros.semanticName, 0) && Object.is(zeros.semanticKind, 0) && Object.is(zeros.cols, 0), JSON.stringify(zeros));
  assert.equal(recordFromJson(PSV_ELEMENT, JSON.parse(JSON.stringify(zeros)), 'e').semanticKind, 0);
});

test('sequential records place fields end to end; a union picks its case by the stored selector and keeps the rest', () => {
  const KIND = enumTable('Kind', '', [['One', 1], ['Two', 2]]);
  const def = sequential('R', [
    { key: 'kind', type: { enum: KIND, width: 'u32' } },
    { key: 'name', type: { ref: 'string' } },
    { key: 'union', type: { union: { by: 'kind', size: 8, cases: { 1: [{ key: 'a', type: 'u32', at: 0 }], 2: [{ key: 'b', type: 'u16', at: 0 }, { key: 'c', type: 'u16', at: 0 }] } } } },
  ]);
  assert.equal(def.fields.map((f) => f.at), [0, 4, 8]);
  assert.is(def.size, 16);
  const u = def.fields[2]!.type as UnionType;
  assert.equal(u.union.cases[2]!.map((f) => f.at), [0, 2], 'case fields placed from the union start');
  const bytes = Uint8Array.of(2, 0, 0, 0, 7, 0, 0, 0, 5, 0, 6, 0, 0, 0, 9, 0);
  const seen: number[] = [];
  const refs: RefResolver = { resolve: (_f, _t, stored) => (seen.push(stored as number), `s${String(stored)}`) };
  const row = recordToJson(readRecord(def, reader(bytes, refs), 0, 'R'));
  assert.equal(row, { kind: 2, kindName: 'Two', name: 's7', b: 5, c: 6, unionRest: '00000900' });
  assert.equal(seen, [7]);
  // back: names to values, the rest as bytes, the reference through the store
  const back = recordFromJson(def, row, 'R');
  assert.is(back.kind, 2);
  const out = new Uint8Array(16);
  writeRecord(def, back, new DataView(out.buffer), 0, { store: (_f, _t, v) => Number(String(v).slice(1)) });
  assert.equal(out, bytes);
  assert.throws(() => recordFromJson(def, { ...row, kind: 'Three' }, 'R'), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-name');
  assert.throws(() => recordFromJson(def, { ...row, name: 3 }, 'R'), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-type' && e.path === 'R.name');
});

test('spans of a plain row: references as their stored words, the union case, its rest as padding', () => {
  const def = RDAT_TABLES.SubobjectTable.layouts[0]!;
  const bytes = new Uint8Array(def.size);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 1, true); // GlobalRootSignature: RootSignature bytes (offset, size)
  v.setUint32(12, 48, true);
  const row = readRecord(def, reader(bytes), 0, 'S', undefined, 'plain');
  const rec = new SpanRecorder();
  recordSpans(def, row, rec, 0, 0, 'S', { record: false });
  const at = (p: string) => rec.spans.find((s) => s.path === p);
  assert.is(at('S.Kind')?.name, 'GlobalRootSignature');
  assert.is(at('S.RootSignature.Size')?.value, 48);
  assert.is(at('S (union rest)')?.size, 8);
});

test('query result structs: the kernels\' fields and padding are the rows', () => {
  const s = RESULT_STRUCTS.VIDEO_DECODE_STATISTICS;
  assert.equal(s.fields.map((f) => f.name), s.record.fields.filter((f) => !f.reserved).map((f) => f.key));
  assert.equal(s.padding, [{ offset: 28, size: 4 }]);
  const bytes = new Uint8Array(32);
  bytes[0] = 3;
  const rec = new SpanRecorder();
  recordSpans(s.record, readRecord(s.record, reader(bytes), 0, 'v', undefined, 'plain'), rec, 0, 0, 'v');
  assert.is(rec.spans.find((x) => x.path === 'v.Status')?.name, 'RESTART');
  assert.is(rec.spans.find((x) => x.path === 'v.Status')?.size, 8);
  assert.equal(rec.spans.filter((x) => x.kind === 'padding').map((x) => [x.offset, x.size]), [[28, 4]]);
});

test('f32 fields: read as numbers, a NaN keeps its payload bits through write, JSON, spans and the mutator', () => {
  const def = record('F', 12, [{ key: 'a', type: 'f32', at: 0 }, { key: 'b', type: 'f32', at: 4 }, { key: 'n', type: 'u32', at: 8 }]);
  const bytes = new Uint8Array(12);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0x7f800001, true); // a signalling NaN
  v.setFloat32(4, 1.5, true);
  v.setUint32(8, 7, true);
  const row = readRecord(def, reader(bytes), 0, 'F', undefined, 'plain');
  assert.ok(Number.isNaN(row.a));
  assert.is(row.b, 1.5);
  assert.equal(row.nanBits, { a: 0x7f800001 });
  const out = new Uint8Array(12);
  writeRecord(def, row, new DataView(out.buffer), 0);
  assert.equal(out, bytes);
  // the quiet NaN needs no bits kept
  v.setUint32(0, 0x7fc00000, true);
  assert.is(readRecord(def, reader(bytes), 0, 'F', undefined, 'plain').nanBits, undefined);
  v.setUint32(0, 0x7f800001, true);
  // JSON: the NaN by its bits, -0 and the infinities as words; nanBits is not a key of its own
  const json = recordToJson(row);
  assert.equal(json, { a: '0x7f800001', b: 1.5, n: 7 });
  const back = recordFromJson(def, JSON.parse(JSON.stringify(json)), 'F');
  const again = new Uint8Array(12);
  writeRecord(def, back, new DataView(again.buffer), 0);
  assert.equal(again, bytes);
  assert.equal(recordToJson({ a: -0, b: -Infinity, n: 0 }), { a: '-0', b: '-Infinity', n: 0 });
  assert.ok(Object.is(recordFromJson(def, { a: '-0', b: 2, n: 0 }, 'F').a, -0));
  assert.ok(Object.is(recordFromJson(record('I', 4, [{ key: 'n', type: 'u32', at: 0 }]), { n: -0 }, 'I').n, 0), 'an integer is never -0');
  assert.throws(() => recordFromJson(def, { b: 1, n: 0 }, 'F'), (e: unknown) => e instanceof DescriptionError && e.code === 'missing-key' && e.path === 'F.a');
  assert.throws(() => recordFromJson(def, { a: 'x', b: 1, n: 0 }, 'F'), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-type' && e.path === 'F.a');
  assert.throws(() => checkRow(def, { a: '1', b: 1, n: 0 }, 'F'), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-type' && e.path === 'F.a');
  checkRow(def, row, 'F');
  // spans: the stored word, named by the float
  const rec = new SpanRecorder();
  recordSpans(def, row, rec, 0, 0, 'F');
  assert.equal(rec.spans.filter((s) => s.path === 'F.a' || s.path === 'F.b').map((s) => [s.size, s.value, s.name]), [[4, 0x7f800001, '0x7f800001'], [4, 0x3fc00000, '1.5']]);
  // the mutator: any f32 it writes reads back as it was made
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  let floats = 0;
  for (let k = 0; k < 200; k++) {
    const m = mutateRecord(def, row, random);
    const mb = new Uint8Array(12);
    writeRecord(def, m, new DataView(mb.buffer), 0);
    const read = readRecord(def, reader(mb), 0, 'F', undefined, 'plain');
    for (const key of ['a', 'b']) assert.ok(Object.is(read[key], m[key]), `${key}: ${String(m[key])}`);
    assert.equal(read.nanBits, m.nanBits);
    if (!Object.is(m.a, row.a) || m.b !== row.b) floats++;
  }
  assert.ok(floats > 50, `${floats} of 200 mutations changed a float`);
});

test("f32 fields' nanBits are checked where a row is taken (checkRow, the encoders' guard; recordToJson and rowToJson, the JSON writers) as RTS0's samplers' are: a NaN's bits, as a u32, for an f32 field that is NaN", () => {
  const def = record('F', 12, [{ key: 'a', type: 'f32', at: 0 }, { key: 'b', type: 'f32', at: 4 }, { key: 'n', type: 'u32', at: 8 }]);
  const row = (nanBits: unknown, a = NaN): Record<string, unknown> => ({ a, b: 1.5, n: 7, nanBits });
  const word = (r: Record<string, unknown>) => {
    const out = new Uint8Array(12);
    writeRecord(def, r, new DataView(out.buffer), 0);
    return new DataView(out.buffer).getUint32(0, true);
  };
  // any NaN's bits (the quiet one too) are taken, and written and spelled as they are
  for (const bits of [0x7fa00001, 0x7f800001, 0xffc00000, 0x7fc00000, 0xffffffff]) {
    checkRow(def, row({ a: bits }), 'F');
    assert.is(word(row({ a: bits })), bits);
    assert.is(recordToJson(row({ a: bits })).a, `0x${bits.toString(16)}`);
    assert.is(rowToJson(def, row({ a: bits })).a, `0x${bits.toString(16)}`);
  }
  checkRow(def, row({}), 'F');
  const N = 'not-representable';
  const refusals: [unknown, number, string, string][] = [
    [{ a: 0x3f800000 }, NaN, N, 'nanBits.a'], // 1.0: written for a NaN, read back as 1
    [{ a: 0x7f800000 }, NaN, N, 'nanBits.a'], // +Infinity: no fraction
    [{ a: 0xff800000 }, NaN, N, 'nanBits.a'],
    [{ a: 0 }, NaN, N, 'nanBits.a'],
    [{ a: -1 }, NaN, N, 'nanBits.a'], // not a u32
    [{ a: 2 ** 32 + 0x7fa00001 }, NaN, N, 'nanBits.a'],
    [{ a: 0x7fa00001 + 0.5 }, NaN, N, 'nanBits.a'],
    [{ a: '0x7fa00001' }, NaN, N, 'nanBits.a'], // the JSON spelling belongs to the JSON form
    [{ a: 0x7fa00001n }, NaN, N, 'nanBits.a'],
    [{ b: 0x7fa00001 }, NaN, N, 'nanBits.b'], // b is 1.5, not a NaN
    [{ a: 0x7fa00001 }, 0, N, 'nanBits.a'],
    [{ a: 0x7fa00001 }, -0, N, 'nanBits.a'],
    [{ n: 0x7fa00001 }, NaN, N, 'nanBits.n'], // not an f32 field (and 7)
    [{ constructor: 0x7fa00001 }, NaN, N, 'nanBits.constructor'],
    [JSON.parse('{"__proto__": 2141192193}'), NaN, N, 'nanBits.__proto__'], // an own key, as JSON.parse makes it
    [Object.defineProperty({}, 'a', { value: 0x3f800000, enumerable: false }), NaN, N, 'nanBits.a'], // an own entry that is not enumerable is one too
    [5, NaN, 'bad-type', 'nanBits'],
    [null, NaN, 'bad-type', 'nanBits'],
    [[0x7fa00001], NaN, 'bad-type', 'nanBits'],
  ];
  for (const [k, [nanBits, a, code, path]] of refusals.entries()) {
    const is = (at: string) => (e: unknown) => e instanceof DescriptionError && e.code === code && e.path === `${at}.${path}`;
    assert.throws(() => checkRow(def, row(nanBits, a), 'F'), is('F'), `checkRow refusal ${k}: ${code} ${path}`);
    assert.throws(() => rowToJson(def, row(nanBits, a), 'T[3]'), is('T[3]'), `rowToJson refusal ${k}`);
    // recordToJson has no definition: a NaN's field is an f32 one, so only the bits and the NaN are asked
    if (path !== 'nanBits.n' && path !== 'nanBits.constructor' && path !== 'nanBits.__proto__') assert.throws(() => recordToJson(row(nanBits, a)), is('row'), `recordToJson refusal ${k}`);
  }
  // recordToJson: bits for a field that is not NaN, and a key with no value, are refused too
  assert.throws(() => recordToJson(row({ n: 0x7fa00001 })), (e: unknown) => e instanceof DescriptionError && e.path === 'row.nanBits.n');
  assert.throws(() => recordToJson(row({ z: 0x7fa00001 })), (e: unknown) => e instanceof DescriptionError && e.path === 'row.nanBits.z');
  // bits a prototype gives are no entry: the NaN is written as the quiet NaN, never as 1.0
  assert.is(word(row(Object.create({ a: 0x3f800000 }))), 0x7fc00000);
  // a union's f32 field is one while its case is chosen
  const u = record('U', 8, [
    { key: 'kind', type: 'u32', at: 0 },
    { key: 'v', type: { union: { by: 'kind', size: 4, cases: { 1: [{ key: 'x', type: 'f32', at: 0 }], 2: [{ key: 'y', type: 'u32', at: 0 }] } } }, at: 4 },
  ]);
  checkRow(u, { kind: 1, x: NaN, nanBits: { x: 0x7fa00001 } }, 'U');
  assert.throws(() => checkRow(u, { kind: 2, y: 0, x: NaN, nanBits: { x: 0x7fa00001 } }, 'U'), (e: unknown) => e instanceof DescriptionError && e.path === 'U.nanBits.x');
});

test('PSV0 records have no f32 field: nanBits on one is refused by encodePsv0 and psv0ToJson naming the record (was: taken and ignored)', () => {
  const psv: Psv0 = {
    runtimeInfoSize: 24, info: { minimumWaveLaneCount: 32, maximumWaveLaneCount: 32 }, stageInfo: {}, runtimeInfoTail: new Uint8Array(0), resourceSize: 16,
    resources: [{ resType: 6, space: 1, lowerBound: 2, upperBound: 3 }], trailing: new Uint8Array(0),
  };
  encodePsv0(psv, { stage: 5 });
  (psv.resources[0] as unknown as Record<string, unknown>).nanBits = { resType: 0x7fa00001 };
  const at = (e: unknown) => e instanceof DescriptionError && e.code === 'not-representable' && e.path === 'PSV0.resources[0].nanBits.resType';
  assert.throws(() => encodePsv0(psv, { stage: 5 }), at);
  assert.throws(() => psv0ToJson(psv), at);
});

test.run();
