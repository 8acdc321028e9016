/**
 * Hostile input for RDAT (the DXIL library runtime data part), 2026-12-03 (hC): the findings of a
 * probe of 55 inputs (25 broke) through decodeRdat, encodeRdat, describeLibrary and the subobject
 * edits. Each must give a typed DxbinError naming its field, or the right answer; never a raw
 * RangeError/TypeError, a hang, a silently dropped or misread value, or input-chosen text raw in a
 * message. The checks live at one boundary (src/rdat/check.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { thrown } from './helpers/hostile.js';
import { described, type Parts, type Rec } from './helpers/rdat-description.js';
import { Budget, DecodeError, DescriptionError, DxbinError } from '../src/index.js';
import { decodeRdat, encodeRdat, readLibraryRdat, type RdatDescription } from '../src/rdat/index.js';
import { rdatParts } from '../src/rdat/decode.js';
import { describeLibrary, libraryLines, type Library } from '../src/rdat/library.js';
import { verifyStateObject } from '../src/rdat/state-object.js';
import { suggestLibraryRootSignatures } from '../src/rdat/suggest.js';
import { subobjectIndex, subobjectRootSignatures } from '../src/rdat/edit.js';


/** `f` throws a DescriptionError of `code` at `path` (a string: equal; a RegExp: matching). */
function refused(f: () => unknown, code: string, path: string | RegExp, label = String(path)): DescriptionError {
  const e = thrown(f);
  assert.ok(e instanceof DescriptionError, `${label}: expected a DescriptionError, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  const d = e as DescriptionError;
  assert.is(d.code, code, `${label}: ${d.message}`);
  if (typeof path === 'string') assert.is(d.path, path, `${label}: ${d.message}`);
  else assert.match(d.path, path, `${label}: ${d.message}`);
  return d;
}

/** A sparse array of length 2^32-1: one comparison if its size is checked first, 4 billion steps if walked. */
function sparse(): unknown[] {
  const a: unknown[] = [];
  a.length = 2 ** 32 - 1;
  return a;
}

/** Bytes whose buffer has been transferred away (detached). */
function detached(): Uint8Array {
  const b = encodeRdat(described());
  structuredClone(b.buffer, { transfer: [b.buffer as ArrayBuffer] });
  return b;
}

// ------------------------------------------------------------------ the bytes' entries

test('decodeRdat and rdatParts check base at the boundary: -1, "0", NaN, 1.5 and 2^60 are refused naming base (all were taken)', () => {
  const bytes = encodeRdat(described());
  for (const base of [-1, '0', NaN, 1.5, 2 ** 60, null]) {
    refused(() => decodeRdat(bytes, base as never), 'bad-type', 'base', `decodeRdat base ${String(base)}`);
    refused(() => rdatParts(bytes, base as never), 'bad-type', 'base', `rdatParts base ${String(base)}`);
  }
  // a good base still names absolute offsets
  const e = thrown(() => decodeRdat(bytes.subarray(0, 6), 100));
  assert.ok(e instanceof DecodeError && e.offset >= 100, String(e));
});

test('a detached buffer is a DescriptionError naming the argument (was a raw TypeError from the DataView)', () => {
  refused(() => decodeRdat(detached()), 'bad-type', 'bytes', 'decodeRdat');
  refused(() => rdatParts(detached()), 'bad-type', 'bytes', 'rdatParts');
  refused(() => readLibraryRdat(detached()), 'bad-type', 'library', 'readLibraryRdat');
  refused(() => subobjectRootSignatures(detached()), 'bad-type', 'library', 'subobjectRootSignatures');
  // describeLibrary takes a description: a buffer (detached or not) is none
  const view = detached();
  refused(() => describeLibrary(view.buffer as never), 'bad-type', 'rdat.parts', 'describeLibrary(buffer)');
  refused(() => describeLibrary(view as never), 'bad-type', 'rdat.parts', 'describeLibrary(view)');
  // an empty live view is no detached one: it is read (and is too short)
  assert.ok(thrown(() => decodeRdat(new Uint8Array(0))) instanceof DecodeError);
});

test('two parts of one type in the bytes: the DecodeError names both offsets (DXC keeps the last; was "a second part of type 4" alone)', () => {
  const one = encodeRdat(described((p) => p.parts.splice(1)));
  // header 8, one offset 4, the StringBuffer part at 12 (type, size, data): append a copy of it
  const dv = new DataView(one.buffer, one.byteOffset);
  const partSize = dv.getUint32(16, true);
  const part = one.subarray(12, 12 + 8 + partSize);
  const two = new Uint8Array(8 + 8 + 2 * part.byteLength);
  const w = new DataView(two.buffer);
  w.setUint32(0, 0x10, true);
  w.setUint32(4, 2, true);
  w.setUint32(8, 16, true);
  w.setUint32(12, 16 + part.byteLength, true);
  two.set(part, 16);
  two.set(part, 16 + part.byteLength);
  const e = thrown(() => decodeRdat(two, 1000));
  assert.ok(e instanceof DecodeError && e.code === 'duplicate-part', String(e));
  const d = e as DecodeError;
  assert.is(d.offset, 1000 + 16 + part.byteLength);
  assert.match(d.message, `the first is at byte ${1000 + 16}`);
  assert.match(d.message, 'StringBuffer');
});

// ------------------------------------------------------------------ the description's parts

test('a second part of one type in a description is refused naming both (encodeRdat wrote two tables and used the first pool; describeLibrary read the first)', () => {
  const cases: [string, (p: Parts) => void, number, number][] = [
    ['FunctionTable', (p) => p.parts.push({ type: 'FunctionTable', stride: 44, records: [] }), 2, 4],
    ['StringBuffer', (p) => p.parts.push({ type: 'StringBuffer', strings: ['zz'] }), 0, 4],
    ['SubobjectTable', (p) => p.parts.splice(1, 0, { type: 'SubobjectTable', stride: 24, records: [] }), 1, 4],
    ['opaque 99', (p) => p.parts.push({ type: 99, hex: '' }, { type: 99, hex: '00' }), 4, 5],
  ];
  for (const [label, edit, first, second] of cases) {
    for (const [name, call] of [
      ['encodeRdat', () => encodeRdat(described(edit))],
      ['describeLibrary', () => describeLibrary(described(edit))],
    ] as const) {
      const e = refused(call, 'ambiguous-name', `rdat.parts[${second}].type`, `${name} ${label}`);
      assert.match(e.message, `rdat.parts[${first}]`, `${name} ${label}`);
    }
  }
  // the subobject edits read a LibraryRdat's description the same way
  const lib = readLibraryRdat(encodeLibrary(described()));
  const at = lib.rdat.parts.push({ type: 'SubobjectTable', stride: 24, records: [] } as never) - 1;
  for (const [name, call] of [['subobjectRootSignatures', () => subobjectRootSignatures(lib)], ['subobjectIndex', () => subobjectIndex(lib)]] as const) {
    const e = refused(call, 'ambiguous-name', `library.rdat.parts[${at}].type`, name);
    assert.match(e.message, 'library.rdat.parts[3]', name);
  }
  // an opaque part numbered as a part dxbin names would be a second one in the bytes: given by name
  refused(() => encodeRdat(described((p) => p.parts.push({ type: 4, hex: '' }))), 'bad-name', 'rdat.parts[4].type', 'type 4');
});

test('part types are own names only: "constructor", "__proto__", "toString" are no part type (bad-name; "constructor" read as a table before, a missing stride reported)', () => {
  for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    refused(() => encodeRdat(described((p) => p.parts.push({ type, stride: 8, records: [] }))), 'bad-name', 'rdat.parts[4].type', type);
    refused(() => describeLibrary(described((p) => p.parts.push({ type, stride: 8, records: [] }))), 'bad-name', 'rdat.parts[4].type', type);
  }
});

test('input-chosen text in messages is escaped: a part type, an unknown key (was a raw ESC in "is not a part type")', () => {
  const type = 'x\u001b[31mred\u202e';
  const e = refused(() => encodeRdat(described((p) => p.parts.push({ type, hex: '' }))), 'bad-name', 'rdat.parts[4].type');
  assert.not.match(e.message, /[\u001b\u202e]/);
  assert.match(e.message, '\\u001b');
  const k = refused(() => encodeRdat(described((p) => { p.resource[`Na\u001bme`] = 1; })), 'unknown-key', 'rdat.parts[1].records[0]["Na\\u001bme"]');
  assert.not.match(k.message + k.path, /\u001b/);
  const long = refused(() => encodeRdat(described((p) => p.parts.push({ type: 'y'.repeat(100_000), hex: '' }))), 'bad-name', 'rdat.parts[4].type');
  assert.ok(long.message.length < 1000, `${long.message.length} characters`);
});

// ------------------------------------------------------------------ holes and sizes

test('sparse arrays of length 2^32-1: a typed error before any walk (was a raw RangeError, or a 4-billion-step walk in describeLibrary)', () => {
  const cases: [string, (p: Parts) => void, RegExp, string][] = [
    ['parts', (p) => { p.parts.length = 2 ** 32 - 1; }, /^rdat\.parts$/, 'out-of-range'],
    ['records', (p) => { p.parts[2]!.records = sparse(); }, /^(rdat\.parts\[2\]\.records|RDAT\.FunctionTable)$/, 'out-of-range'],
    // a part holds 2^32-1 one-byte strings: the length fits, the walk stops at the first hole
    ['strings', (p) => { p.strings.strings = sparse(); }, /^rdat\.parts\[0\]\.strings\[0\]$/, 'missing-key'],
    ['values', (p) => p.parts.push({ type: 'IndexArrays', values: sparse() }), /^rdat\.parts\[4\]\.values$/, 'out-of-range'],
    ['Resources', (p) => { p.fn.Resources = sparse(); }, /(FunctionTable|records)\[0\]\.Resources$/, 'out-of-range'],
    ['Exports', (p) => { p.hitGroup.Kind = 8; p.hitGroup.Subobject = 'hg'; p.hitGroup.Exports = sparse(); delete p.hitGroup.Type; delete p.hitGroup.AnyHit; delete p.hitGroup.ClosestHit; delete p.hitGroup.Intersection; }, /(SubobjectTable|parts\[3\]\.records)\[0\]\.Exports$/, 'out-of-range'],
  ];
  for (const [label, edit, path, code] of cases) {
    for (const [name, call] of [
      ['encodeRdat', () => encodeRdat(described(edit))],
      ['describeLibrary', () => describeLibrary(described(edit))],
    ] as const) {
      if (name === 'describeLibrary' && (label === 'strings' || label === 'values')) continue; // describeLibrary reads no pool
      const e = thrown(call);
      assert.ok(e instanceof DescriptionError, `${name} ${label}: ${String(e)}`);
      assert.match((e as DescriptionError).path, path, `${name} ${label}: ${(e as DescriptionError).path}`);
      assert.is((e as DescriptionError).code, code, `${name} ${label}: ${(e as DescriptionError).message}`);
    }
  }
});

test('holes are refused naming their index (a hole record was written as zeros, read as a hole; a hole or a number in strings joined silently)', () => {
  const hole = (rec: Rec) => {
    const a: unknown[] = [];
    a[1] = rec;
    return a;
  };
  refused(() => encodeRdat(described((p) => { p.parts[1]!.records = hole(p.resource); })), 'missing-key', 'rdat.parts[1].records[0]', 'encode record hole');
  refused(() => describeLibrary(described((p) => { p.parts[2]!.records = hole(p.fn); })), 'missing-key', 'RDAT.FunctionTable[0]', 'describe record hole');
  // eslint-disable-next-line no-sparse-arrays
  refused(() => encodeRdat(described((p) => { p.strings.strings = ['', 'tex', , 'rg', 'ch']; })), 'missing-key', 'rdat.parts[0].strings[2]', 'string hole');
  refused(() => encodeRdat(described((p) => { p.strings.strings = ['', 'tex', 5, 'rg', 'ch']; })), 'bad-type', 'rdat.parts[0].strings[2]', 'string number');
  // eslint-disable-next-line no-sparse-arrays
  refused(() => encodeRdat(described((p) => { p.fn.Resources = [, 0]; })), 'missing-key', 'rdat.parts[2].records[0].Resources[0]', 'index hole');
  // eslint-disable-next-line no-sparse-arrays
  refused(() => describeLibrary(described((p) => { p.fn.Resources = [0, , 0]; })), 'missing-key', 'RDAT.FunctionTable[0].Resources[1]', 'describe Resources hole');
  // eslint-disable-next-line no-sparse-arrays
  refused(() => encodeRdat(described((p) => p.parts.push({ type: 'IndexArrays', values: [1, , 3] }))), 'missing-key', 'rdat.parts[4].values[1]', 'values hole');
  // the same strings without holes encode and read back
  const back = decodeRdat(encodeRdat(described()));
  assert.equal((back.parts[0] as { strings: string[] }).strings.slice(0, 4), ['', 'tex', 'rg', 'ch']);
});

// ------------------------------------------------------------------ fields

test('describeLibrary reads integer fields as u32 (was num(): "3", missing, 1.5, 2^32, -1 and NaN taken as 0 or as given)', () => {
  const fields: [keyof Parts, string, string][] = [
    ['resource', 'Space', 'RDAT.ResourceTable[0].Space'],
    ['resource', 'LowerBound', 'RDAT.ResourceTable[0].LowerBound'],
    ['resource', 'UpperBound', 'RDAT.ResourceTable[0].UpperBound'],
    ['resource', 'Flags', 'RDAT.ResourceTable[0].Flags'],
    ['fn', 'PayloadSizeInBytes', 'RDAT.FunctionTable[0].PayloadSizeInBytes'],
    ['fn', 'AttributeSizeInBytes', 'RDAT.FunctionTable[0].AttributeSizeInBytes'],
    ['fn', 'FeatureInfo1', 'RDAT.FunctionTable[0].FeatureInfo1'],
    ['fn', 'FeatureInfo2', 'RDAT.FunctionTable[0].FeatureInfo2'],
    ['fn', 'ShaderStageFlag', 'RDAT.FunctionTable[0].ShaderStageFlag'],
    ['fn', 'MinShaderTarget', 'RDAT.FunctionTable[0].MinShaderTarget'],
  ];
  for (const [part, key, path] of fields) {
    for (const [value, code] of [['3', 'bad-type'], [undefined, 'missing-key'], [1.5, 'out-of-range'], [2 ** 32, 'out-of-range'], [-1, 'out-of-range'], [NaN, 'out-of-range'], [null, 'bad-type']] as const) {
      refused(() => describeLibrary(described((p) => { (p[part] as Rec)[key] = value; })), code, path, `${key} = ${String(value)}`);
    }
  }
  // a FunctionInfo2 field: absent in a 44-byte FunctionInfo, a u16 when given (was dropped when not a number)
  for (const v of ['3', 70000, 1.5]) refused(() => describeLibrary(described((p) => { p.fn.ShaderFlags = v; })), v === '3' ? 'bad-type' : 'out-of-range', 'RDAT.FunctionTable[0].ShaderFlags', `ShaderFlags ${v}`);
  assert.is(describeLibrary(described((p) => { p.fn.ShaderFlags = 5; })).exports[0]!.flags.shaderFlags, 5);
  // the values as given still read
  const lib = describeLibrary(described((p) => { p.resource.Space = 0xffffffff; }));
  assert.is(lib.exports[0]!.bindings[0]!.space, 0xffffffff);
});

test('a number in a string field is refused by describeLibrary and the subobject edits as encodeRdat refuses it (was read as a StringBuffer offset)', () => {
  // offset 1 is "tex", 5 is "rg" in the StringBuffer: the old reading gave those names
  refused(() => describeLibrary(described((p) => { p.resource.Name = 1; })), 'bad-type', 'RDAT.ResourceTable[0].Name');
  refused(() => encodeRdat(described((p) => { p.resource.Name = 1; })), 'bad-type', 'rdat.parts[1].records[0].Name');
  refused(() => describeLibrary(described((p) => { p.fn.Name = 5; })), 'bad-type', 'RDAT.FunctionTable[0].Name');
  const lib = readLibraryRdat(encodeLibrary(described()));
  const so = (lib.rdat.parts.find((p) => p.type === 'SubobjectTable') as { records: Rec[] }).records[0]!;
  so.Name = 8; // "ch"
  refused(() => subobjectIndex(lib), 'bad-type', 'SubobjectTable[0].Name');
  refused(() => subobjectRootSignatures(lib), 'bad-type', 'SubobjectTable[0].Name');
  so.Name = 'hg';
  assert.is(subobjectIndex(lib).one('hg'), 0);
});

test('encodeRdat refuses record keys it would drop: unknown keys, keys of another union case, part keys; a name beside that does not name the value', () => {
  refused(() => encodeRdat(described((p) => { p.resource.Bogus = 5; })), 'unknown-key', 'rdat.parts[1].records[0].Bogus');
  // a misspelling of an optional key was lost
  refused(() => encodeRdat(described((p) => { p.resource.tial = '00'; })), 'unknown-key', 'rdat.parts[1].records[0].tial');
  // a hit group (Kind 11) has no MaxTraceRecursionDepth: that is RaytracingPipelineConfig's (10)
  const u = refused(() => encodeRdat(described((p) => { p.hitGroup.MaxTraceRecursionDepth = 5; })), 'unknown-key', 'rdat.parts[3].records[0].MaxTraceRecursionDepth');
  assert.match(u.message, 'Kind 11');
  // a part's misspelled key: `string` for `strings` made an empty StringBuffer... refused, as are strings and hex together
  refused(() => encodeRdat(described((p) => { p.parts[2]!.recrods = []; })), 'unknown-key', 'rdat.parts[2].recrods');
  refused(() => encodeRdat(described((p) => { p.strings.hex = '00'; })), 'unknown-key', 'rdat.parts[0].strings');
  // KindName edited alone was ignored (Kind kept): refused, naming what Kind names
  const n = refused(() => encodeRdat(described((p) => { p.hitGroup.KindName = 'StateObjectConfig'; })), 'bad-name', 'rdat.parts[3].records[0].KindName');
  assert.match(n.message, 'HitGroup');
  // the helpers as decodeRdat writes them still encode, to the same bytes
  const bytes = encodeRdat(described());
  const d = decodeRdat(bytes);
  assert.ok(JSON.stringify(d).includes('"KindName":"HitGroup"'));
  assert.equal(Array.from(encodeRdat(JSON.parse(JSON.stringify(d)) as RdatDescription)), Array.from(bytes));
  // an undefined key carries nothing and is no key of JSON: let through
  assert.equal(Array.from(encodeRdat(described((p) => { p.resource.Extra = undefined; }))), Array.from(bytes));
});

test('hex fields take text only: a number was read as its digits (tail 1234 stored as two bytes 12 34)', () => {
  refused(() => encodeRdat(described((p) => { p.resource.tail = 1234; p.parts[1]!.stride = 34; })), 'bad-type', 'rdat.parts[1].records[0].tail');
  refused(() => encodeRdat(described((p) => p.parts.push({ type: 'RawBytes', hex: 1234 }))), 'bad-type', 'rdat.parts[4].hex');
  refused(() => encodeRdat(described((p) => p.parts.push({ type: 77, hex: 1234 }))), 'bad-type', 'rdat.parts[4].hex');
  refused(() => encodeRdat(described((p) => { delete p.strings.strings; p.strings.hex = 1234; })), 'bad-type', 'rdat.parts[0].hex');
});

test('describeLibrary reads a list shared by F functions once (without refs too): F exports share one bindings array, not F copies', () => {
  const list = Array.from({ length: 50 }, () => 0);
  const d = described((p) => {
    p.fn.Resources = list;
    const records = p.parts[2]!.records as Rec[];
    for (let i = 1; i < 200; i++) records.push({ ...p.fn, Name: `f${i}`, UnmangledName: `f${i}` });
  });
  const lib = describeLibrary(d);
  assert.is(lib.exports.length, 200);
  assert.ok(lib.exports.every((e) => e.bindings === lib.exports[0]!.bindings && e.bindings.length === 50));
  // an edited list beside an unedited stored ref reads as edited (a ref alone never picks a list)
  const refd = described((p) => {
    const records = p.parts[2]!.records as Rec[];
    p.fn.refs = { Resources: 0 };
    records.push({ ...p.fn, Name: 'g', UnmangledName: 'g', Resources: [0, 0], refs: { Resources: 0 } });
  });
  assert.equal(describeLibrary(refd).exports.map((e) => e.bindings.length), [1, 2]);
});

test('every refusal above is a DxbinError, never a raw TypeError/RangeError, for each entry over a batch of odd descriptions', () => {
  const odd: unknown[] = [null, 7, 'x', [], {}, { parts: null }, { parts: [null] }, { parts: [{}] }, { parts: [{ type: 'FunctionTable' }] }, { parts: [{ type: 'FunctionTable', stride: 44, records: [null] }] }, { parts: [{ type: 'FunctionTable', stride: 44, records: [{}] }] }, { parts: sparse() }];
  for (const [i, d] of odd.entries()) {
    for (const call of [() => encodeRdat(d as never), () => describeLibrary(d as never)]) {
      const e = thrown(call);
      assert.ok(e === undefined || e instanceof DxbinError, `${i}: ${String(e)}`);
    }
  }
});

// ------------------------------------------------------------------ printed text

test('libraryLines and suggestLibraryRootSignatures escape what a hand-made Library holds (minShaderTarget, class, RTS0 version, summary lines, localSpace were printed raw)', () => {
  const esc = 'x\u001b]0;owned\u0007\u202e';
  const lib = describeLibrary(described());
  const e = lib.exports[0]!;
  e.flags.minShaderTarget = esc;
  (e.bindings[0] as { class: string }).class = esc;
  lib.subobjects.push({ kind: 'GlobalRootSignature', name: 'g', contents: {}, subobject: 1, rootSignature: { bytes: new Uint8Array(4), version: esc, summary: [esc] } });
  lib.subobjects.push({ kind: 'StateObjectConfig', name: 'c', contents: { Flags: esc, Other: { toString: () => esc } }, subobject: 2 });
  const text = libraryLines(lib).join('\n');
  assert.not.match(text, /[\u0007\u001b\u202e]/);
  assert.match(text, 'x\\x1b]0;owned\\x07');
  const s = refused(() => suggestLibraryRootSignatures([lib], { localSpace: esc as never }), 'out-of-range', 'options.localSpace');
  assert.not.match(s.message, /[\u0007\u001b\u202e]/);
});

// ------------------------------------------------------------------ fan-out (step counters)

/** `list` behind a Proxy that counts reads of its elements and length (an Array to Array.isArray). */
function counted<T>(list: T[]): { list: T[]; reads: () => number } {
  let n = 0;
  const proxy = new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string') n++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { list: proxy, reads: () => n };
}

test('encodeRdat stores an array shared by many records once (decodeRdat sharedArrays gives one per stored list): 200 records x 100 elements read about 100 x, not 20,000 x', () => {
  const shared = counted(Array.from({ length: 100 }, () => 0));
  const d = described((p) => {
    p.fn.Resources = shared.list;
    const records = p.parts[2]!.records as Rec[];
    for (let i = 1; i < 200; i++) records.push({ ...p.fn, Name: `f${i}`, UnmangledName: `f${i}` });
  });
  const bytes = encodeRdat(d);
  assert.ok(shared.reads() < 2000, `${shared.reads()} reads`);
  // the same bytes as 200 separate copies give
  const copies = described((p) => {
    p.fn.Resources = Array.from({ length: 100 }, () => 0);
    const records = p.parts[2]!.records as Rec[];
    for (let i = 1; i < 200; i++) records.push({ ...p.fn, Name: `f${i}`, UnmangledName: `f${i}`, Resources: Array.from({ length: 100 }, () => 0) });
  });
  assert.equal(Array.from(bytes), Array.from(encodeRdat(copies)));
  // a decoded description with shared arrays encodes back to its bytes
  assert.equal(Array.from(encodeRdat(decodeRdat(bytes, 0, { sharedArrays: true }))), Array.from(bytes));
});

test('a byte run ref outside the pool is not kept ([-4, 0] was written as offset 0xfffffffc); an empty run without a RawBytes part decodes (the part was left out, so decodeRdat refused the bytes)', () => {
  for (const ref of [[-4, 0], [0.5, 0], [2 ** 40, 0]]) {
    const d = described((p) => {
      p.parts.push({ type: 'RawBytes', hex: '0102030405060708' });
      p.hitGroup.Kind = 1;
      p.hitGroup.RootSignature = '';
      p.hitGroup.refs = { RootSignature: ref };
      for (const k of ['Type', 'AnyHit', 'ClosestHit', 'Intersection']) delete p.hitGroup[k];
    });
    const back = decodeRdat(encodeRdat(d));
    const rec = (back.parts.find((p) => p.type === 'SubobjectTable') as { records: Rec[] }).records[0]!;
    const stored = (rec.refs as Rec).RootSignature as number[];
    assert.ok(stored[0]! >= 0 && stored[0]! < 16 && Number.isInteger(stored[0]), `${String(ref)}: stored ${String(stored)}`);
  }
  const empty = described((p) => {
    p.hitGroup.Kind = 1;
    p.hitGroup.RootSignature = '';
    for (const k of ['Type', 'AnyHit', 'ClosestHit', 'Intersection']) delete p.hitGroup[k];
  });
  const rec = (decodeRdat(encodeRdat(empty)).parts.find((p) => p.type === 'SubobjectTable') as { records: Rec[] }).records[0]!;
  assert.is(rec.RootSignature, '');
});

test('describeLibrary decodes a root signature run shared by many subobjects once, and refuses one that is no hex text (was dropped)', () => {
  const lib = readLibraryRdat(encodeLibrary(described()));
  const table = lib.rdat.parts.find((p) => p.type === 'SubobjectTable') as { records: Rec[] };
  const rs = '02000000000000000000000018000000000000000000000000000000'; // RTS0 1.1, no parameters
  table.records = Array.from({ length: 50 }, (_, i) => ({ Kind: 1, Name: `g${i}`, RootSignature: rs }));
  const subobjects = describeLibrary(lib.rdat).subobjects;
  assert.is(subobjects.length, 50);
  assert.ok(subobjects.every((s) => s.rootSignature !== undefined && s.rootSignature === subobjects[0]!.rootSignature));
  table.records[3]!.RootSignature = 5;
  refused(() => describeLibrary(lib.rdat), 'bad-type', 'RDAT.SubobjectTable[3].RootSignature');
});

// ------------------------------------------------------------------ hand-made Library objects

/** A hand-made Library: one export of `kind`, one subobject of `subKind` with `contents`. */
function handMade(kind: string, subKind = 'StateObjectConfig', contents: Rec = { Flags: 0 }): Library {
  return {
    exports: [{ name: 'e', mangledName: 'e', kind, payloadSizeInBytes: 0, attributeSizeInBytes: 0, flags: { featureInfo1: 0, featureInfo2: 0, shaderStageFlag: 0, minShaderTarget: 'RayGeneration 6.3' }, bindings: [], function: 0 }],
    subobjects: [{ kind: subKind, name: 's', contents, subobject: 0 }],
  };
}

test('verifyStateObject looks kinds up as own keys: an export of kind "constructor" or "toString" is no ray-tracing shader (it was told it lacks a shader config)', () => {
  for (const kind of ['constructor', 'toString', '__proto__']) {
    const report = verifyStateObject([{ name: 'a', library: handMade(kind) }]);
    assert.equal(report.violations.map((v) => v.code), [], kind);
  }
  // a real ray-tracing kind still needs one
  assert.ok(verifyStateObject([{ name: 'a', library: handMade('RayGeneration') }]).violations.some((v) => v.code === 'no-shader-config'));
});

test('checkLibrary (libraryLines, libraryJson, verifyStateObject, suggest) refuses holes in a Library\'s lists, naming the index (a binding hole was a raw TypeError; a 2^32-1-long Exports a raw RangeError in libraryLines)', () => {
  const holes: unknown[] = [];
  holes[1] = { class: 'SRV', kind: 'Texture2D', space: 0, lowerBound: 0, upperBound: 0, name: 't', flags: 0, resource: 0 };
  const withHole = handMade('RayGeneration');
  withHole.exports[0]!.bindings = holes as never;
  refused(() => verifyStateObject([{ name: 'a', library: withHole }]), 'missing-key', 'libraries[0].library.exports[0].bindings[0]');
  refused(() => libraryLines(withHole), 'missing-key', 'library.exports[0].bindings[0]');
  refused(() => suggestLibraryRootSignatures([withHole]), 'missing-key', 'libraries[0].exports[0].bindings[0]');
  const assoc = handMade('RayGeneration', 'SubobjectToExportsAssociation', { Subobject: 's', Exports: sparse() });
  refused(() => libraryLines(assoc), 'missing-key', 'library.subobjects[0].contents.Exports[0]');
  refused(() => verifyStateObject([{ name: 'a', library: assoc }]), 'missing-key', 'libraries[0].library.subobjects[0].contents.Exports[0]');
  const exportsHole: unknown[] = [];
  exportsHole[1] = handMade('RayGeneration').exports[0];
  refused(() => libraryLines({ exports: exportsHole, subobjects: [] } as never), 'missing-key', 'library.exports[0]');
});

test('the subobject edits read a Kind as describeLibrary does and a root signature run as hex text: "Bogus\\x1b..." was passed through (ignored, or raw in a message), RootSignature 5 skipped', () => {
  const lib = readLibraryRdat(encodeLibrary(described()));
  const so = (lib.rdat.parts.find((p) => p.type === 'SubobjectTable') as { records: Rec[] }).records[0]!;
  so.Kind = 'Bogus\u001b[2J';
  // Changed 2026-12-04: the table's records are checked where they are read (library.ts tableOf,
  // describeLibrary's check of every record's keys), which names the field as describeLibrary does
  const e = refused(() => subobjectRootSignatures(lib), 'bad-name', 'RDAT.SubobjectTable[0].Kind');
  assert.not.match(e.message, /\u001b/);
  so.Kind = 'GlobalRootSignature';
  // Changed 2026-12-04: the hit group's fields (and its KindName) on a root signature record are
  // refused as keys of no field of that kind (unknown-key, bad-name), as encodeRdat refuses them
  refused(() => subobjectRootSignatures(lib), 'unknown-key', /^RDAT\.SubobjectTable\[0\]\.(Type|AnyHit|ClosestHit|Intersection|TypeName)$/);
  for (const k of ['Type', 'TypeName', 'AnyHit', 'ClosestHit', 'Intersection']) delete so[k];
  refused(() => subobjectRootSignatures(lib), 'bad-name', 'RDAT.SubobjectTable[0].KindName');
  delete so.KindName;
  so.RootSignature = 5;
  refused(() => subobjectRootSignatures(lib), 'bad-type', 'SubobjectTable[0].RootSignature');
  so.RootSignature = '02000000000000000000000018000000000000000000000000000000';
  assert.equal(subobjectRootSignatures(lib).map((s) => [s.name, s.kind, s.bytes.byteLength]), [['hg', 'GlobalRootSignature', 28]]);
});

/** A library container of an RDAT description. */
function encodeLibrary(d: RdatDescription): Uint8Array {
  return writeLibrary(encodeRdat(d));
}

test('encodeRdat refuses a version decodeRdat does not read (out-of-range naming rdat.version; 0, 17 and 0x20 were written, and the bytes refused by every reader)', () => {
  assert.equal(decodeRdat(encodeRdat(described())).version, 16);
  assert.equal(decodeRdat(encodeRdat({ ...described(), version: undefined } as never)).version, 16);
  for (const version of [0, 15, 17, 0x20, 2 ** 32 - 1]) {
    const e = refused(() => encodeRdat({ ...described(), version } as never), 'out-of-range', 'rdat.version', `version ${version}`);
    assert.match(e.detail, '0x10');
  }
  refused(() => encodeRdat({ ...described(), version: '16' } as never), 'bad-type', 'rdat.version');
});

test('encodeRdat takes a work budget: the tables\' bytes are charged as resolve before they are made; one record object repeated is refused past 8x the description\'s own bytes (was a table of 200,000 records from one object, 6.4 MB, made without a word)', () => {
  // a decoded description (each record once) always fits the default budget
  const bytes = encodeRdat(described());
  assert.equal(encodeRdat(decodeRdat(bytes)), bytes);
  const repeated = (n: number) => described((p) => { p.parts[1]!.records = new Array(n).fill(p.resource); });
  assert.ok(encodeRdat(repeated(8)).byteLength > 0, 'a few repeats fit');
  const e = thrown(() => encodeRdat(repeated(200_000)));
  assert.ok(e instanceof DxbinError && e.code === 'limit-exceeded' && e.path === 'rdat.parts[1].records', String(e));
  assert.match((e as DxbinError).message, 'maxResolved');
  // the limit is the caller's to raise, or to lower; a caller's Budget is charged
  assert.ok(encodeRdat(repeated(200_000), { maxResolved: 10_000_000 }).byteLength > 6_400_000);
  assert.is((thrown(() => encodeRdat(described(), { maxResolved: 10 })) as DxbinError).code, 'limit-exceeded');
  const budget = Budget.for(0, { maxResolved: 1e6 });
  encodeRdat(described(), { budget });
  assert.ok(budget.used('resolve') >= 32 + 44 + 24, `${budget.used('resolve')} charged`);
  refused(() => encodeRdat(described(), null as never), 'bad-type', 'options');
  refused(() => encodeRdat(described(), { budget: {} } as never), 'bad-type', 'options.budget');
});

import { writeContainer } from '../src/index.js';
const writeLibrary = (rdat: Uint8Array) => writeContainer({ majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDAT', data: rdat }] } as never, 'compute');

test('encodeRdat: a version given as null is refused (bad-type at rdat.version), not taken for absent; absent is 16', () => {
  refused(() => encodeRdat({ ...described(), version: null } as never), 'bad-type', 'rdat.version');
  const { version: _v, ...rest } = described() as unknown as Record<string, unknown>;
  assert.equal(encodeRdat(rest as never), encodeRdat(described()));
});

test('encodeRdat: a tail not given is zero-filled up to the stride and charged as made, not owned (a stride of 256 MiB on one record was a 256 MiB table by default, up to 2 GiB)', () => {
  const wide = (stride: number) => described((p) => { p.parts[1]!.stride = stride; });
  // a real file's records with all-zero tails of a few bytes (decodeRdat omits them) still fit
  const bytes = encodeRdat(wide(48));
  assert.equal(encodeRdat(decodeRdat(bytes)), bytes);
  // one record with a huge stride: refused before the table is made
  const e = thrown(() => encodeRdat(wide(0x10000000)));
  assert.ok(e instanceof DxbinError && e.code === 'limit-exceeded' && e.path === 'rdat.parts[1].records', String(e));
  // a tail given is the description's own bytes
  const tail = '11'.repeat(64);
  const given = encodeRdat(described((p) => { p.parts[1]!.stride = 96; p.resource.tail = tail; }));
  assert.equal(encodeRdat(decodeRdat(given)), given);
});

test.run();
