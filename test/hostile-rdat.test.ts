/**
 * Hostile input for RDAT (the DXIL library runtime data part), 2026-12-03 (hC): the findings of a
 * probe of 55 inputs (25 broke) through decodeRdat, encodeRdat, describeLibrary and the subobject
 * edits. Each must give a typed DxbinError naming its field, or the right answer; never a raw
 * RangeError/TypeError, a hang, a silently dropped or misread value, or input-chosen text raw in a
 * message. The checks live at one boundary (src/rdat/check.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DecodeError, DescriptionError, DxbinError } from '../src/index.js';
import { decodeRdat, encodeRdat, readLibraryRdat, type RdatDescription } from '../src/rdat/index.js';
import { rdatParts } from '../src/rdat/decode.js';
import { describeLibrary } from '../src/rdat/library.js';
import { subobjectRootSignatures } from '../src/rdat/edit.js';

type Rec = Record<string, unknown>;
type Parts = { strings: Rec; resource: Rec; fn: Rec; hitGroup: Rec; parts: Rec[] };

/** A small library description (one resource, one function, a hit group), each part editable. */
function described(edit: (p: Parts) => void = () => {}): RdatDescription {
  const strings: Rec = { type: 'StringBuffer', strings: ['', 'tex', 'rg', 'ch', ''] };
  const resource: Rec = { Class: 1, Kind: 2, ID: 0, Space: 0, LowerBound: 3, UpperBound: 3, Name: 'tex', Flags: 0 };
  const fn: Rec = { Name: 'rg', UnmangledName: 'rg', Resources: [0], FunctionDependencies: null, ShaderKind: 7, PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0x70063 };
  const hitGroup: Rec = { Kind: 11, Name: 'hg', Type: 0, AnyHit: '', ClosestHit: 'ch', Intersection: '' };
  const parts: Rec[] = [
    strings,
    { type: 'ResourceTable', stride: 32, records: [resource] },
    { type: 'FunctionTable', stride: 44, records: [fn] },
    { type: 'SubobjectTable', stride: 24, records: [hitGroup] },
  ];
  edit({ strings, resource, fn, hitGroup, parts });
  return { version: 16, parts } as unknown as RdatDescription;
}

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

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

/** A library container of an RDAT description. */
function encodeLibrary(d: RdatDescription): Uint8Array {
  return writeLibrary(encodeRdat(d));
}

import { writeContainer } from '../src/index.js';
const writeLibrary = (rdat: Uint8Array) => writeContainer({ majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDAT', data: rdat }] } as never, 'compute');

test.run();
