/**
 * encodePsv0 against hostile descriptions: every declared size is backed by the bytes it implies
 * before anything of that size is made (a record size of 2^28 with a short tail allocated 2^28
 * bytes first, then refused), the bytes written are charged to the work budget (records sharing
 * one tail wrote a part out of proportion to the description), counts are what the lists hold (a
 * hole in a list was left out of it, under a count that said it), and a tail no record takes is
 * refused rather than dropped.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Budget, LimitError } from '../src/bytes/budget.js';
import { DescriptionError, decodePsv0, encodePsv0, findPart, parseContainer, psv0FromJson, psv0ToJson, type Psv0 } from '../src/index.js';
import { corpusFiles, hex } from './helpers/corpus.js';
import { versionDescription } from './helpers/psv0.js';

/** A small description of a PSV0 of `size` runtime-info bytes with one resource. */
const description = versionDescription;

/** A corpus shader's PSV0 with signature elements and dependency tables. */
function withElements(): { psv: Psv0; part: Uint8Array; stage: number } {
  for (const f of corpusFiles('shaders')) {
    const c = parseContainer(f.bytes, { mode: 'lenient' });
    const part = findPart(c, 'PSV0');
    const dxil = findPart(c, 'DXIL');
    if (!part || !dxil) continue;
    const stage = new DataView(dxil.data.buffer, dxil.data.byteOffset).getUint32(0, true) >>> 16;
    const psv = decodePsv0(part.data, { stage });
    if ((psv.inputElements?.length ?? 0) > 1 && (psv.dependencies?.length ?? 0) > 0 && (psv.semanticIndexes?.length ?? 0) > 0) return { psv, part: part.data, stage };
  }
  throw new Error('no corpus PSV0 with elements, dependencies and semantic indexes');
}

const MiB = 2 ** 20;
/** Runs `call`, which must throw, and gives what it threw and how many bytes of array buffers it left made (not yet collected). */
function thrown(call: () => unknown): { error: unknown; grown: number } {
  const before = process.memoryUsage().arrayBuffers;
  try {
    call();
  } catch (error) {
    return { error, grown: process.memoryUsage().arrayBuffers - before };
  }
  throw new Error('expected a throw');
}
const description_ = (code: string, path: string) => (e: unknown) => e instanceof DescriptionError && e.code === code && e.path === path;

test('a huge declared record size with a short tail is refused naming the tail before anything of that size is made (was: made, then refused)', () => {
  const big = 256 * MiB;
  const cases: [string, (d: Psv0) => void, string][] = [
    ['resourceSize', (d) => (d.resourceSize = big), 'PSV0.resources[0].tail'],
    ['runtimeInfoSize', (d) => (d.runtimeInfoSize = big), 'PSV0.runtimeInfoTail'],
    ['elementSize', (d) => {
      d.info.sigInputElements = 1;
      d.inputElements = [{ semanticName: 1, semanticIndexes: 0, rows: 1, startRow: 0, cols: 4, startCol: 0, allocated: 1, semanticKind: 0, componentType: 3, interpolationMode: 0, dynamicIndexMask: 0, outputStream: 0 }];
      d.elementSize = big;
    }, 'PSV0.elementTails[0]'],
  ];
  for (const [name, hostile, path] of cases) {
    const d = description(52);
    hostile(d);
    const { error, grown } = thrown(() => encodePsv0(d));
    assert.ok(description_('out-of-range', path)(error), `${name}: ${String(error)}`);
    assert.ok(grown < 16 * MiB, `${name}: ${(grown / MiB).toFixed(1)} MiB of buffers made for a refused description`);
  }
  // the same through the JSON form (a resourceSize of 1e9 in a few hundred bytes of JSON)
  const json = psv0ToJson(description(52));
  const { error, grown } = thrown(() => encodePsv0(psv0FromJson({ ...json, resourceSize: 1e9 })));
  assert.ok(description_('out-of-range', 'PSV0.resources[0].tail')(error), String(error));
  assert.ok(grown < 16 * MiB, `${(grown / MiB).toFixed(1)} MiB`);
});

test('records sharing one tail: the bytes written are charged to the work budget (resolve), refused past 8x the description by default, taken with a budget that allows them', () => {
  const d = description(52);
  const tail = new Uint8Array(64 * 1024).fill(0xab);
  d.resourceSize = 24 + tail.byteLength;
  d.resources = Array.from({ length: 64 }, (_, i) => ({ resType: 6, space: 1, lowerBound: i, upperBound: i, resKind: 2, resFlags: 0, tail }));
  // 64 records of 64 KiB from one 64 KiB array: 4 MiB written from about 66 KiB of description
  assert.throws(
    () => encodePsv0(d),
    (e: unknown) => e instanceof LimitError && e.kind === 'resolve' && e.option === 'maxResolved' && e.path === 'PSV0.resources[1].tail',
  );
  const bytes = encodePsv0(d, { maxResolved: 8 * MiB });
  assert.is(bytes.byteLength, 4 + 52 + 4 + 4 + 64 * (24 + tail.byteLength) + 4 + 8 + 4 + 4 * 0);
  const back = decodePsv0(bytes);
  assert.is(back.resources.length, 64);
  assert.equal(back.resources[63]!.tail, tail);
  // the same records each with its own tail are the description's own bytes: taken by default
  d.resources = d.resources.map((r) => ({ ...r, tail: tail.slice() }));
  assert.is(hex(encodePsv0(d)), hex(bytes));
});

test("the caller's budget is charged the bytes written, before the part is made: a small one refuses a corpus part", () => {
  const { psv, part, stage } = withElements();
  const budget = Budget.for(0);
  assert.is(hex(encodePsv0(psv, { stage, budget })), hex(part));
  assert.is(budget.used('resolve'), part.byteLength);
  assert.throws(() => encodePsv0(psv, { stage, budget: Budget.for(0, { maxResolved: 64 }) }), (e: unknown) => e instanceof LimitError && e.kind === 'resolve' && e.limit === 64);
  assert.throws(() => encodePsv0(psv, { stage, maxResolved: 64 }), (e: unknown) => e instanceof LimitError && e.kind === 'resolve');
  assert.throws(() => encodePsv0(psv, { stage, budget: {} as never }), description_('bad-type', 'options.budget'));
});

test('a hole in semanticIndexes or a dependency table is a missing value naming it (was: left out, under a count that said it)', () => {
  const { psv, stage } = withElements();
  const indexes = [...psv.semanticIndexes!];
  indexes.length += 3; // three holes: the count would say them
  assert.throws(() => encodePsv0({ ...psv, semanticIndexes: indexes }, { stage }), description_('missing-key', `PSV0.semanticIndexes[${psv.semanticIndexes!.length}]`));
  const dwords = [...psv.dependencies![0]!.dwords];
  delete dwords[1];
  const dependencies = [{ ...psv.dependencies![0]!, dwords }, ...psv.dependencies!.slice(1)];
  assert.throws(() => encodePsv0({ ...psv, dependencies }, { stage }), description_('missing-key', 'PSV0.dependencies[0].dwords[1]'));
});

test('a tail no record takes is refused, not dropped: a resource tail at the known record size, a runtime-info tail at a known size, element tails past the elements', () => {
  const d = description(52);
  d.resources[0]!.tail = Uint8Array.of(1, 2, 3, 4);
  assert.throws(() => encodePsv0(d), description_('out-of-range', 'PSV0.resources[0].tail'));
  const r = description(52);
  r.runtimeInfoTail = Uint8Array.of(1, 2, 3, 4);
  assert.throws(() => encodePsv0(r), description_('out-of-range', 'PSV0.runtimeInfoTail'));
  const { psv, stage } = withElements();
  assert.throws(() => encodePsv0({ ...psv, elementTails: [Uint8Array.of(1)] }, { stage }), description_('out-of-range', 'PSV0.elementTails'));
  const n = psv.inputElements!.length + psv.outputElements!.length + psv.patchConstOrPrimElements!.length;
  const wide = { ...psv, elementSize: psv.elementSize! + 4, elementTails: Array.from({ length: n + 1 }, () => new Uint8Array(4)) };
  assert.throws(() => encodePsv0(wide, { stage }), description_('out-of-range', 'PSV0.elementTails'));
  wide.elementTails.pop();
  assert.equal(decodePsv0(encodePsv0(wide, { stage }), { stage }).elementTails, wide.elementTails);
  // an empty tail where none is needed is none
  d.resources[0]!.tail = new Uint8Array(0);
  encodePsv0(d);
});

test.run();
