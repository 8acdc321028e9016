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

test('the checked-in JSON form types are what the rows generate (else: npm run gen)', () => {
  const checkedIn = readFileSync(new URL(`../${JSON_TYPES_PATH}`, import.meta.url), 'utf8');
  assert.ok(checkedIn === generateJsonTypes(), `${JSON_TYPES_PATH} is stale: run npm run gen`);
});

test.run();
