/**
 * src/root-signature/records.generated.ts is what scripts/gen-rts0-records.ts makes of the
 * codecs/ rows today, and the records it reads and writes are the rows' records.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RANGE, ROOT_SIGNATURE_VERSIONS, SAMPLER } from '../codecs/root-signature.js';
import { GENERATED_PATH, generateRts0Records } from '../scripts/gen-rts0-records.js';
import { RECORD_READERS, RECORD_WRITERS } from '../src/root-signature/records.generated.js';
import { dataFields } from '../src/root-signature/rows.js';
import { JSON_TYPES_PATH, generateJsonTypes } from '../scripts/gen-json-types.js';
import { GeneratedRecords } from '../scripts/gen-records.js';
import { record } from '../codecs/rows.js';

test('the checked-in file is what the rows generate (else: npm run gen)', () => {
  const checkedIn = readFileSync(new URL(`../${GENERATED_PATH}`, import.meta.url), 'utf8');
  const fresh = generateRts0Records();
  if (checkedIn !== fresh) {
    const a = checkedIn.split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    assert.unreachable(`${GENERATED_PATH} is stale from line ${line + 1}: run npm run gen\n  checked in: ${a[line]}\n  generated:  ${b[line]}`);
  }
});

test('every version has its readers and writers; each reads and writes every stored field at its row offset', () => {
  for (const { value: v } of ROOT_SIGNATURE_VERSIONS) {
    const c = { ...RECORD_READERS[v]!, ...RECORD_WRITERS[v]! };
    for (const [record, read, write] of [
      [RANGE, c.readRange, c.writeRange],
      [SAMPLER, c.readSampler, c.writeSampler],
    ] as const) {
      const fields = dataFields(record).filter((f) => f.row.at[v] !== null);
      // a distinct value per field (f32 fields: small integers, exact in binary32)
      const values = Object.fromEntries(fields.map((f, k) => [f.key, k + 1]));
      const bytes = new Uint8Array(record.sizes[v]);
      write(bytes, 0, values, () => 'x', 0, 0);
      const view = new DataView(bytes.buffer);
      for (const [k, f] of fields.entries()) {
        const at = f.row.at[v]!;
        assert.is(f.row.kind === 'f32' ? view.getFloat32(at, true) : view.getUint32(at, true), k + 1, `${record.type} v${v} ${f.key} at ${at}`);
      }
      const back = read(bytes, 0);
      for (const f of dataFields(record)) assert.is(back[f.key], f.row.at[v] === null ? (f.row.default ?? 0) : values[f.key], `${record.type} v${v} ${f.key} read back`);
      assert.equal(Object.keys(back), dataFields(record).map((f) => f.key), 'keys in storage order');
    }
  }
});

test('the generic generator: a layout written once under two names; what it cannot write is refused by name', () => {
  const def = record('R', 8, [{ key: 'a', type: 'u32', at: 0 }, { key: 'b', type: 'f32', at: 4 }]);
  const file = new GeneratedRecords(['// test'], './support.js');
  file.add([{ reader: { name: 'readR1', def } }, { writer: { name: 'writeR1', def } }]);
  file.add([{ reader: { name: 'readR2', def } }, { reader: { name: 'readR3', def, keys: ['b', 'a'] } }]);
  assert.is(file.nameOf('readR2'), 'readR1', 'the same text is not written again');
  assert.is(file.nameOf('readR3'), 'readR3', 'another key order is another literal');
  const text = file.text();
  assert.ok(text.includes('    a: u32(b, o),\n    b: f32(b, o + 4),'), text);
  assert.ok(text.includes("keepNanBits(b, o, r, ['b'], [4])"), 'a NaN keeps its bits');
  assert.ok(text.includes("import { keepNanBits, nanBits, notNumber, notU32, type Fields, type PathOf } from './support.js';"), 'imports what it uses');
  assert.not.ok(text.includes('readR2'));
  const u16 = record('S', 2, [{ key: 'w', type: 'u16', at: 0 }]);
  assert.throws(() => new GeneratedRecords([], '').add([{ reader: { name: 'readS', def: u16 } }]), /S\.w: "u16" is not a type the generator writes/);
  assert.throws(() => new GeneratedRecords([], '').add([{ reader: { name: 'readT', def, keys: ['c'] } }]), /R has no field c/);
  assert.throws(() => new GeneratedRecords([], '').add([{ writer: { name: 'writeT', def, keys: ['c'] } }]), /no layout/);
});

test('the checked-in JSON form types are what the rows generate (else: npm run gen)', () => {
  const checkedIn = readFileSync(new URL(`../${JSON_TYPES_PATH}`, import.meta.url), 'utf8');
  assert.ok(checkedIn === generateJsonTypes(), `${JSON_TYPES_PATH} is stale: run npm run gen`);
});

test.run();
