/**
 * One check of "a key the form does not have" (src/bytes/check.ts expectKnownKeys, 2026-12-03):
 * every JSON reader and typed writer that refuses an unknown key gives the same code
 * (unknown-key), the key written into the path through pathKey (`["x\"\n"]`), and one wording
 * of the detail (`unknown key "x\"\n" in <form> (allowed: ...)`). Before, five copies wrote five
 * wordings (`has no field`, `is not a key of this form`, `... it would be lost`) and two wrote the
 * key after a dot through `printable` (`.x"\n`, a path that reads back as another one). And one
 * code for a hole in an array: missing-key at its index (RDAT's denseArray said bad-type, the
 * other readers' expectDense missing-key).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { thrown } from './helpers/hostile.js';
import { DescriptionError } from '../src/bytes/errors.js';
import { expectDense, expectKnownKeys } from '../src/bytes/check.js';
import { pathKey } from '../src/bytes/text.js';
import { denseArray } from '../src/rdat/check.js';
import { ddiFromJson, ddiToJson, encodeImage, renderPassesFromJson } from '../src/ddi/index.js';
import { describeLibrary } from '../src/rdat/library.js';
import { encodePsv0, encodeRdat, pipelineFromJson, psv0FromJson, rootSignatureFromJson, streamFromJson, type RdatDescription } from '../src/index.js';

const KEY = 'x"\n';
/** The step pathKey writes for KEY: JSON-quoted in brackets, the newline escaped. */
const STEP = '["x\\"\\n"]';
const K = { [KEY]: 1 };

const INFO = { minimumWaveLaneCount: 0, maximumWaveLaneCount: 0 };
const NODE_ID = 'D3D12DDI_NODE_ID_0108';
const read = () => new Uint8Array(0);
const rdat = (edit: (parts: Record<string, unknown>[]) => void = () => {}): RdatDescription => {
  const parts: Record<string, unknown>[] = [
    { type: 'StringBuffer', strings: ['', 'tex', 'hg', 'ch', ''] },
    { type: 'ResourceTable', stride: 32, records: [{ Class: 1, Kind: 2, ID: 0, Space: 0, LowerBound: 3, UpperBound: 3, Name: 'tex', Flags: 0 }] },
    { type: 'SubobjectTable', stride: 24, records: [{ Kind: 11, Name: 'hg', Type: 0, AnyHit: '', ClosestHit: 'ch', Intersection: '' }] },
  ];
  edit(parts);
  return { version: 16, parts } as unknown as RdatDescription;
};
const record = (parts: Record<string, unknown>[], i: number) => (parts[i]!.records as Record<string, unknown>[])[0]!;

/** Each reader or writer that refuses an unknown key: the call with KEY added, and the path of the object holding it. */
const READERS: readonly [string, () => unknown, string][] = [
  ['ddiFromJson', () => ddiFromJson(NODE_ID, { Name: 'n', ArrayIndex: 0, ...K }), NODE_ID],
  ['ddiToJson', () => ddiToJson(NODE_ID, { Name: 'n', ArrayIndex: 0, ...K } as never), NODE_ID],
  ['encodeImage', () => encodeImage(NODE_ID, { Name: 'n', ArrayIndex: 0, ...K } as never, 'x64'), NODE_ID],
  ['renderPassesFromJson', () => renderPassesFromJson({ passes: [{ BeginningAccess: { Type: 'PRESERVE', ...K }, EndingAccess: { Type: 'PRESERVE' } }] }), '$.passes[0].BeginningAccess'],
  ['pipelineFromJson', () => pipelineFromJson({ RasterizerState: { ...K } }, { read }), 'pipeline.RasterizerState'],
  ['streamFromJson', () => streamFromJson([{ Type: 'VS', Inner: { ...K } }]), 'D3D12_PIPELINE_STATE_STREAM_DESC.pPipelineStateSubobjectStream[0].Inner'],
  ['psv0FromJson', () => psv0FromJson({ runtimeInfoSize: 24, info: INFO, ...K }), '$'],
  ['psv0FromJson info', () => psv0FromJson({ runtimeInfoSize: 24, info: { ...INFO, ...K } }), '$.info'],
  ['psv0FromJson v0 stageInfo', () => psv0FromJson({ runtimeInfoSize: 24, info: INFO, stageInfo: { ...K } }), '$.stageInfo'],
  ['encodePsv0 stageInfo', () => encodePsv0({ ...psv0FromJson({ runtimeInfoSize: 24, info: INFO }), stageInfo: { ...K } } as never, { stage: 0 }), 'PSV0.stageInfo'],
  ['rootSignatureFromJson', () => rootSignatureFromJson({ version: '1.1', ...K }), '$'],
  ['rootSignatureFromJson parameter', () => rootSignatureFromJson({ version: '1.1', parameters: [{ parameterType: 'CBV', ...K }] }), '$.parameters[0]'],
  ['encodeRdat part', () => encodeRdat(rdat((p) => Object.assign(p[0]!, K))), 'rdat.parts[0]'],
  ['encodeRdat record', () => encodeRdat(rdat((p) => Object.assign(record(p, 1), K))), 'rdat.parts[1].records[0]'],
  ['describeLibrary subobject', () => describeLibrary(rdat((p) => Object.assign(record(p, 2), K))), 'RDAT.SubobjectTable[0]'],
];

/** The one wording: `unknown key "<key>"`, the form it is not a key of, the keys it has. */
const DETAIL = /^unknown key "x\\"\\n"( in [^\n]+)? \(allowed: [^\n]+\)$/;

test('every reader using the one check refuses an unknown key alike: unknown-key, the path through pathKey, one wording', () => {
  assert.is(pathKey(KEY), STEP);
  for (const [name, f, at] of READERS) {
    const e = thrown(f);
    assert.ok(e instanceof DescriptionError, `${name}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    const d = e as DescriptionError;
    assert.is(d.code, 'unknown-key', `${name}: ${d.message}`);
    assert.is(d.path, `${at}${STEP}`, name);
    assert.ok(d.path.endsWith(STEP), name);
    assert.match(d.detail, DETAIL, `${name}: ${d.detail}`);
    assert.is(d.message, `${d.path}: ${d.detail}`, name);
  }
});

test('the check looks at own keys only, asks the known keys by has/includes (never `in`), and lists a long list short', () => {
  const proto = JSON.parse('{"__proto__": 1}');
  for (const known of [new Set(['a']), ['a'], (k: string) => k === 'a'] as const) {
    expectKnownKeys(Object.create({ inherited: 1 }), known, 'o'); // an inherited key is none of the object's
    for (const o of [proto, { constructor: 1 }, { toString: 1 }]) {
      const e = thrown(() => expectKnownKeys(o, known, 'o'));
      assert.ok(e instanceof DescriptionError && e.code === 'unknown-key' && e.path === `o.${Object.keys(o)[0]}`, String(e));
    }
  }
  // undefinedIsAbsent: a typed description's { x: undefined } loses nothing
  expectKnownKeys({ x: undefined }, ['a'], 'o', { undefinedIsAbsent: true });
  assert.ok(thrown(() => expectKnownKeys({ x: undefined }, ['a'], 'o')) instanceof DescriptionError);
  const many = Array.from({ length: 500 }, (_, i) => `field${i}`);
  const e = thrown(() => expectKnownKeys({ bogus: 1 }, many, () => 'lazy', { form: () => 'a form' })) as DescriptionError;
  assert.is(e.path, 'lazy.bogus');
  assert.match(e.detail, /^unknown key "bogus" in a form \(allowed: field0, field1, .*, and \d+ more\)$/);
  assert.ok(e.detail.length < 400, `${e.detail.length} characters`);
});

test('a hole in an array is one code everywhere: missing-key at its index (RDAT denseArray said bad-type)', () => {
  // eslint-disable-next-line no-sparse-arrays
  const holed = [1, , 3];
  const a = thrown(() => expectDense(holed, 'list')) as DescriptionError;
  const b = thrown(() => denseArray(holed, 'list', 10, '4 bytes')) as DescriptionError;
  for (const e of [a, b]) assert.ok(e instanceof DescriptionError && e.code === 'missing-key' && e.path === 'list[1]', String(e));
  assert.is(b.detail, a.detail);
  // through the public readers: an RDAT description and a PSV0 JSON form give the same code
  const r = thrown(() => encodeRdat(rdat((p) => { p[0]!.strings = holed; }))) as DescriptionError;
  assert.is(r.code, 'missing-key');
  assert.is(r.path, 'rdat.parts[0].strings[1]');
  const s = thrown(() => psv0FromJson({ runtimeInfoSize: 24, info: INFO, resources: holed })) as DescriptionError;
  assert.is(s.code, 'missing-key');
});

test.run();
