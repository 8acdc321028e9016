/**
 * RTS0's records in the one row vocabulary: the generic row interpreter (src/rows/record.ts),
 * given each record's RecordDef at its version (src/root-signature/rows.ts recordDefAt), reads every
 * record of the corpus's root signatures to the fields the generated readers give, and writes the
 * record's bytes back; the generated writers give the same bytes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CONSTANTS,
  DESCRIPTOR,
  HEADER,
  PARAMETER,
  RANGE,
  ROOT_SIGNATURE_VERSIONS,
  SAMPLER,
  TABLE,
  type RecordRow,
  type RootSignatureVersion,
} from '../codecs/root-signature.js';
import type { RecordDef } from '../codecs/rows.js';
import { Budget } from '../src/bytes/budget.js';
import { f32FromBits } from '../src/bytes/f32.js';
import { looksLikeContainer, parseContainer } from '../src/index.js';
import { readRootSignature } from '../src/root-signature/decode.js';
import { RECORD_READERS, RECORD_WRITERS } from '../src/root-signature/records.generated.js';
import { dataFields, PAYLOAD_BY_TYPE, PAYLOAD_KEY, recordDefAt } from '../src/root-signature/rows.js';
import { readRecord, recordFromJson, recordToJson, RowReader, writeRecord, type Row } from '../src/rows/record.js';
import { corpusFiles } from './helpers/corpus.js';

type Fields = { [key: string]: unknown };
type Read = (b: Uint8Array, o: number) => Fields;
type Write = (out: Uint8Array, o: number, r: Fields, path: (i: number, j: number) => string, i: number, j: number) => void;

/** Every RTS0 part below corpus/rootsig the decoder accepts (containers and bare parts). */
function corpusParts(): { name: string; part: Uint8Array }[] {
  const out: { name: string; part: Uint8Array }[] = [];
  for (const f of corpusFiles('rootsig')) {
    try {
      const part = looksLikeContainer(f.bytes) ? parseContainer(f.bytes).parts.find((p) => p.name === 'RTS0')?.data : f.bytes;
      if (part === undefined) continue;
      readRootSignature(part);
      out.push({ name: f.name, part });
    } catch {
      // the LLVM negative tests (an invalid header): not records to compare
    }
  }
  return out;
}

/**
 * Compares the generic and generated reading and writing of the record `row` at `at` of `part`.
 * `generated` is the generated reader's fields. Returns the generic row.
 */
function compare(part: Uint8Array, row: RecordRow, v: RootSignatureVersion, at: number, generated: Fields, write: Write | undefined, where: string): Row {
  const def: RecordDef = recordDefAt(row, v);
  assert.is(def.size, row.sizes[v], `${where}: size`);
  const generic = readRecord(def, new RowReader(part, 0, Budget.for(part.byteLength)), at, where, undefined, 'plain');
  for (const { key, row: f } of dataFields(row)) {
    if (f.at[v] === null) {
      assert.is(generic[key], undefined, `${where}.${key}: the version does not store it`);
      assert.is(generated[key], f.default ?? 0, `${where}.${key}: the generated reader gives the default`);
    } else assert.ok(Object.is(generic[key], generated[key]), `${where}.${key}: generic ${String(generic[key])}, generated ${String(generated[key])}`);
  }
  assert.equal(generic.nanBits, generated.nanBits, `${where}: NaN bits`);
  const bytes = part.slice(at, at + def.size);
  // the generic writer: the record's bytes, structure words (counts, offsets, version) included
  const mine = new Uint8Array(def.size);
  writeRecord(def, generic, new DataView(mine.buffer), 0);
  assert.equal(mine, bytes, `${where}: the generic writer`);
  // through the generic JSON form too
  const back = recordFromJson(def, JSON.parse(JSON.stringify(recordToJson(generic))), where);
  const again = new Uint8Array(def.size);
  writeRecord(def, back, new DataView(again.buffer), 0);
  assert.equal(again, bytes, `${where}: the generic JSON form`);
  if (write) {
    // the generated writer stores the data fields; the structure words are the codec's (written here generically)
    const data = new Set(dataFields(row).map((f) => f.key));
    const theirs = new Uint8Array(def.size);
    writeRecord({ ...def, fields: def.fields.filter((f) => !data.has(f.key)) }, generic, new DataView(theirs.buffer), 0);
    write(theirs, 0, generated, () => where, 0, 0);
    assert.equal(theirs, bytes, `${where}: the generated writer`);
  }
  return generic;
}

test('the generic reader, given recordDefAt, reads every record of the corpus root signatures as the generated readers do; both writers give its bytes', () => {
  const parts = corpusParts();
  const versions = new Set<number>();
  const records: Record<string, number> = {};
  const count = (r: RecordRow) => (records[r.type] = (records[r.type] ?? 0) + 1);
  for (const { name, part } of parts) {
    const { rootSignature, layout } = readRootSignature(part);
    const v = rootSignature.version as RootSignatureVersion;
    versions.add(v);
    const read = RECORD_READERS[v]!;
    const write = RECORD_WRITERS[v]! as unknown as Record<string, Write>;
    const header = compare(part, HEADER, v, 0, read.readHeader(part, 0, [], []), write.writeHeader, `${name} header`);
    count(HEADER);
    assert.is(header.version, v);
    assert.is(header.parametersOffset, layout.parametersOffset);
    assert.is(header.staticSamplersOffset, layout.staticSamplersOffset);
    assert.is(header.numParameters, rootSignature.parameters.length);
    assert.is(header.numStaticSamplers, rootSignature.staticSamplers.length);
    for (let i = 0; i < rootSignature.parameters.length; i++) {
      const at = layout.parametersOffset + i * PARAMETER.sizes[v];
      const type = (rootSignature.parameters[i] as unknown as Fields).parameterType as number;
      const payload = PAYLOAD_BY_TYPE[type]!;
      const p = compare(part, PARAMETER, v, at, read.readParameter[payload]!(part, at, null), write.writeParameter, `${name} parameter ${i}`);
      count(PARAMETER);
      const payloadAt = layout.payloadOffsets[i]!;
      assert.is(p.payloadOffset, payloadAt);
      if (payload === PAYLOAD_KEY.TABLE) {
        const table = compare(part, TABLE, v, payloadAt, {}, undefined, `${name} parameter ${i} table`);
        count(TABLE);
        assert.is(table.descriptorRangesOffset, layout.rangeOffsets[i]);
        for (let j = 0; j < (table.numDescriptorRanges as number); j++) {
          const r = layout.rangeOffsets[i]! + j * RANGE.sizes[v];
          compare(part, RANGE, v, r, read.readRange(part, r), write.writeRange, `${name} parameter ${i} range ${j}`);
          count(RANGE);
        }
      } else {
        const [row, readPayload, writePayload] =
          payload === PAYLOAD_KEY.CONSTANTS ? [CONSTANTS, read.readConstants, write.writeConstants] : [DESCRIPTOR, read.readDescriptor, write.writeDescriptor];
        compare(part, row, v, payloadAt, (readPayload as Read)(part, payloadAt), writePayload, `${name} parameter ${i} ${payload}`);
        count(row);
      }
    }
    for (let k = 0; k < rootSignature.staticSamplers.length; k++) {
      const at = layout.staticSamplersOffset + k * SAMPLER.sizes[v];
      compare(part, SAMPLER, v, at, read.readSampler(part, at), write.writeSampler, `${name} sampler ${k}`);
      count(SAMPLER);
    }
  }
  assert.ok(parts.length >= 100, `${parts.length} root signatures`);
  assert.equal([...versions].sort(), ROOT_SIGNATURE_VERSIONS.map((x) => x.value), 'a root signature of every version (a new version needs one in corpus/rootsig)');
  for (const r of [HEADER, PARAMETER, TABLE, RANGE, CONSTANTS, DESCRIPTOR, SAMPLER]) assert.ok((records[r.type] ?? 0) > 0, `no ${r.type} in the corpus`);
});

test('a sampler whose floats are NaNs with payloads, infinities and -0: both readers keep the bits, both writers give them back', () => {
  const floats = dataFields(SAMPLER).filter((f) => f.row.kind === 'f32');
  const bits = [0x7fa00001, 0xff800000, 0x80000000]; // a signalling NaN, -Infinity, -0
  for (const { value: v } of ROOT_SIGNATURE_VERSIONS) {
    const size = SAMPLER.sizes[v];
    const part = new Uint8Array(size + 4);
    const view = new DataView(part.buffer);
    for (let o = 0; o < size; o += 4) view.setUint32(4 + o, o / 4 + 1, true);
    floats.forEach((f, k) => view.setUint32(4 + f.row.at[v]!, bits[k]!, true));
    const generated = RECORD_READERS[v]!.readSampler(part, 4);
    assert.equal(generated.nanBits, { mipLODBias: 0x7fa00001 });
    const generic = compare(part, SAMPLER, v, 4, generated, RECORD_WRITERS[v]!.writeSampler as Write, `sampler v${v}`);
    assert.ok(Number.isNaN(generic.mipLODBias) && generic.minLOD === -Infinity && Object.is(generic.maxLOD, -0));
    assert.equal(recordToJson(generic).mipLODBias, '0x7fa00001', 'the JSON form spells the NaN by its bits');
    assert.is(recordToJson(generic).nanBits, undefined, 'and leaves nanBits out');
    assert.is(f32FromBits(bits[2]!), 0);
  }
});

test.run();
