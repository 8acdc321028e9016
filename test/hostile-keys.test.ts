/**
 * Keys and values the input chose, in the library's JSON readers' errors (2026-12-03, hB): a key
 * of a query column object, a DDI JSON object, a root signature JSON object, the pipeline JSON
 * form (top level, nested in a state, in a list item), a stream's subobject, verifySignatures'
 * stage map and the render-pass JSON form; a value named in a message (a query type name, an
 * ABI, a subobject type, a pipeline kind, the words of pipelineFromJson's reader). Each is given
 * a newline, U+2028, a bidi override, a quote, an ESC sequence and 10,000 characters: the error is
 * a DxbinError naming the field, its path and message hold no raw control, line separator or
 * bidi character, and a long key makes no long message. Then the prototype keys (`__proto__` as
 * an own key through JSON.parse, `constructor`, `toString`), which a `key in TABLE` lookup finds
 * on Object.prototype; and a detached buffer (transferred away) at each decoder of these modules
 * and as a column or a read result.
 *
 * Tally (measured: this file's checks counted one by one over 177aafb, the source as it was):
 * 169 of 226 broke, of these kinds:
 * - input-chosen text raw in a message (92): the path for each hostile key at 12 readers (72; the
 *   10,000-character key made 10,000-character messages), the DDI reader's detail naming the key
 *   (6), a query type, an ABI and a subobject type through JSON.stringify (9: U+2028 and the bidi
 *   override raw, 10,000 characters), pipelineFromJson's `cannot read` repeating the file system's
 *   words with the path in them (5).
 * - taken or lost without a word (61): the render-pass JSON form read any other key as absent at
 *   each of its four levels (40, and its border test) and took a border of "a\nb", -1, 1.5, 2^32,
 *   true (6); verifyPipeline and verifySignatures answered for any `kind` (12); a `__proto__` key in
 *   RasterizerState and BlendState.RenderTarget[0] was lost (2: the merge's assignment set the
 *   prototype).
 * - a raw TypeError, or a transferred buffer read as empty (16): stageSignaturesFromParts for a
 *   part named `__proto__` (1; the rest of that test not reached), pipelineFromJson for a reader
 *   that throws null or undefined (2), the eight decoders for a detached buffer (8), detached
 *   `into` columns, toFloat64's column, an encodeQueryResults column and a read result (5).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { thrown } from './helpers/hostile.js';
import { DxbinError } from '../src/bytes/errors.js';
import { Budget } from '../src/bytes/budget.js';
import { SpanRecorder } from '../src/bytes/spans.js';
import { decodeQueryResult, decodeQueryResults, deltaQueryResults, encodeQueryResults, gatherVirtualQueries, kernels, kernelsAvailable, occlusionToBinary, queryType, soOverflow, sumQueryResults, timestampDurations, toFloat64, type KernelName } from '../src/query/index.js';
import { querySpans } from '../src/query/spans.js';
import { byteMap, timingPicture } from '../src/inspect/index.js';
import { ddiFromJson, ddiToJson, decodeImage, encodeImage, libraryNodeOutputs, renderPassesFromJson, structLayout, type DdiObject } from '../src/ddi/index.js';
import { ddiImageSpans, rdatSpans } from '../src/ddi/spans.js';
import { decodeStream, encodeStream, pipelineFromJson, rootSignatureFromJson, stageSignaturesFromParts, streamFromJson, streamToJson, subobjectRow, verifyPipeline, verifySignatures } from '../src/index.js';

/** Characters a message may not hold raw: C0/C1 controls (newline, ESC), DEL, U+2028/2029, bidi controls, the BOM. */
const RAW = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
/** A message about one key or value, however long the key: its own words and the path. */
const MAX_MESSAGE = 600;

const LONG = 'k'.repeat(10_000);
/** Each hostile key and the path step it must be written as (JSON-quoted, escaped, cut at 64 characters). */
const HOSTILE: readonly [string, string][] = [
  ['a\nb', '["a\\nb"]'],
  ['a\u2028b', '["a\\u2028b"]'],
  ['a\u202eb', '["a\\u202eb"]'],
  ['a"b', '["a\\"b"]'],
  ['a\x1b[31mb', '["a\\u001b[31mb"]'],
  [LONG, `["${'k'.repeat(64)}"…(+9936 characters)]`],
];
const PROTO_KEYS = ['__proto__', 'constructor', 'toString'];

/** What `f` throws, or undefined. */
/** `f` throws a DxbinError with `path`, whose message is `path: ...`, holds nothing raw and is short. */
function refusedAt(f: () => unknown, path: string, what: string): DxbinError {
  const e = thrown(f);
  assert.ok(e instanceof DxbinError, `${what}: expected a DxbinError, got ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 80)}` : String(e)}`);
  const d = e as DxbinError;
  assert.is(d.path, path, `${what}: the path`);
  assert.ok(d.message.startsWith(`${path}:`) || d.message.startsWith(`${path} at byte`), `${what}: the message names the path: ${d.message.slice(0, 120)}`);
  assert.not.ok(RAW.test(d.message), `${what}: a raw control, line separator or bidi character in ${JSON.stringify(d.message.slice(0, 120))}`);
  assert.ok(d.message.length <= MAX_MESSAGE, `${what}: a ${d.message.length}-character message`);
  return d;
}

/** A JSON object with the one key `k` (an own `__proto__` too) and `value`. */
const withKey = (k: string, value: unknown): Record<string, unknown> => JSON.parse(`{${JSON.stringify(k)}: ${JSON.stringify(value)}}`);
const read = () => new Uint8Array(0);

/** Each reader: how it takes a key, and the path of the object holding it. */
const READERS: readonly [string, (k: string) => unknown, string][] = [
  ['encodeQueryResults columns', (k) => encodeQueryResults('timestamp', withKey(k, []) as never), 'data'],
  ['encodeQueryResults records', (k) => encodeQueryResults('timestamp', [withKey(k, 1)] as never), 'data[0]'],
  ['decodeQueryResults into', (k) => decodeQueryResults(new Uint8Array(8), 'timestamp', { into: withKey(k, null) as never }), 'range.into'],
  ['ddiFromJson', (k) => ddiFromJson('D3D12DDI_NODE_ID_0108', withKey(k, 1)), 'D3D12DDI_NODE_ID_0108'],
  ['rootSignatureFromJson', (k) => rootSignatureFromJson({ version: '1.1', ...withKey(k, 1) }), '$'],
  ['rootSignatureFromJson parameter', (k) => rootSignatureFromJson({ version: '1.1', parameters: [{ parameterType: 'CBV', ...withKey(k, 1) }] }), '$.parameters[0]'],
  ['pipelineFromJson', (k) => pipelineFromJson(withKey(k, 1), { read }), 'pipeline'],
  ['pipelineFromJson state', (k) => pipelineFromJson({ RasterizerState: withKey(k, 1) }, { read }), 'pipeline.RasterizerState'],
  ['pipelineFromJson list item', (k) => pipelineFromJson({ InputLayout: [withKey(k, 1)] }, { read }), 'pipeline.InputLayout.pInputElementDescs[0]'],
  ['pipelineFromJson nested list item', (k) => pipelineFromJson({ BlendState: { RenderTarget: [withKey(k, 1)] } }, { read }), 'pipeline.BlendState.RenderTarget[0]'],
  ['streamFromJson', (k) => streamFromJson([{ Type: 'VS', Inner: withKey(k, 1) }]), 'D3D12_PIPELINE_STATE_STREAM_DESC.pPipelineStateSubobjectStream[0].Inner'],
  ['renderPassesFromJson', (k) => renderPassesFromJson({ passes: [], ...withKey(k, 1) }), '$'],
  ['renderPassesFromJson pass', (k) => renderPassesFromJson({ passes: [{ BeginningAccess: { Type: 'PRESERVE' }, EndingAccess: { Type: 'PRESERVE' }, ...withKey(k, 1) }] }), '$.passes[0]'],
  ['renderPassesFromJson access', (k) => renderPassesFromJson({ passes: [{ BeginningAccess: { Type: 'PRESERVE', ...withKey(k, 1) }, EndingAccess: { Type: 'PRESERVE' } }] }), '$.passes[0].BeginningAccess'],
  ['renderPassesFromJson PreserveLocal', (k) => renderPassesFromJson({ passes: [{ BeginningAccess: { Type: 'PRESERVE' }, EndingAccess: { Type: 'PRESERVE_LOCAL_SRV', PreserveLocal: withKey(k, 1) } }] }), '$.passes[0].EndingAccess.PreserveLocal'],
  ['verifySignatures', (k) => verifySignatures({ kind: 'graphics', subobjects: [], files: {} }, withKey(k, 1) as never), 'signatures'],
];

test('a hostile key: each reader names it escaped in the path, one short line', () => {
  for (const [name, f, at] of READERS) {
    for (const [k, step] of HOSTILE) refusedAt(() => f(k), `${at}${step}`, `${name}, key ${JSON.stringify(k.slice(0, 12))}`);
  }
});

test('a plain key is still written .name (paths of ordinary input unchanged)', () => {
  for (const [name, f, at] of READERS) refusedAt(() => f('bogus'), `${at}.bogus`, name);
});

test('the DDI reader names a hostile key in its detail escaped too, a plain one as it is', () => {
  for (const [k] of HOSTILE) {
    const e = refusedAt(() => ddiFromJson('D3D12DDI_NODE_ID_0108', withKey(k, 1)), `D3D12DDI_NODE_ID_0108${HOSTILE.find(([x]) => x === k)![1]}`, 'ddiFromJson detail');
    assert.not.ok(RAW.test(e.detail));
    assert.ok(e.detail.length < 200, `${e.detail.length}-character detail`);
  }
  assert.is(refusedAt(() => ddiFromJson('D3D12DDI_NODE_ID_0108', { bogus: 1 }), 'D3D12DDI_NODE_ID_0108.bogus', 'plain').detail, 'unknown key "bogus" in D3D12DDI_NODE_ID_0108 (allowed: Name, ArrayIndex)');
});

test('a hostile value named in a message: a query type, an ABI, a subobject type, a pipeline kind', () => {
  for (const [v] of HOSTILE) {
    const what = JSON.stringify(v.slice(0, 12));
    refusedAt(() => queryType(v), 'type', `queryType ${what}`);
    refusedAt(() => structLayout('D3D12DDI_NODE_ID_0108', v as never), 'abi', `structLayout abi ${what}`);
    refusedAt(() => subobjectRow(v), 'type', `subobjectRow ${what}`);
    refusedAt(() => verifyPipeline({ kind: v as never, subobjects: [], files: {} }), 'pipeline.kind', `verifyPipeline kind ${what}`);
    refusedAt(() => verifySignatures({ kind: v as never, subobjects: [], files: {} }, {}), 'pipeline.kind', `verifySignatures kind ${what}`);
  }
  // the known kinds still verify
  for (const kind of ['graphics', 'mesh', 'compute'] as const) assert.is(verifyPipeline({ kind, subobjects: [], files: {} }).kind, kind);
  assert.is(verifyPipeline({ subobjects: [], files: {} } as never).kind, 'graphics');
});

test('prototype keys: refused by name as unknown keys, never looked up on Object.prototype nor lost', () => {
  for (const [name, f, at] of READERS) {
    for (const k of PROTO_KEYS) {
      const e = refusedAt(() => f(k), `${at}.${k}`, `${name}, key ${k}`);
      assert.is(e.code, 'unknown-key', `${name}, key ${k}: ${e.message.slice(0, 100)}`);
    }
  }
  for (const k of PROTO_KEYS) {
    // a part so named is no signature part (and no raw TypeError)
    assert.is(stageSignaturesFromParts([{ name: k, elements: [{}] }]), undefined, `part ${k}`);
    refusedAt(() => verifyPipeline({ kind: k as never, subobjects: [], files: {} }), 'pipeline.kind', `kind ${k}`);
    for (const v of [queryType, (x: string) => subobjectRow(x), (x: string) => structLayout('D3D12DDI_NODE_ID_0108', x as never)]) assert.ok(thrown(() => v(k)) instanceof DxbinError, `${k} as a name`);
  }
});

test("pipelineFromJson: the reader's error repeats the hostile path escaped and cut; a reader that throws no Error", () => {
  // as readFileSync words it: the path again, raw
  const fsLike = (p: string): Uint8Array => {
    throw Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: 'ENOENT' });
  };
  for (const [v] of HOSTILE) refusedAt(() => pipelineFromJson({ VS: v }, { read: fsLike }), 'pipeline.VS', `read ${JSON.stringify(v.slice(0, 12))}`);
  for (const t of [null, undefined, 'a\nb', 7]) {
    const e = refusedAt(() => pipelineFromJson({ VS: 'vs.dxbc' }, { read: () => { throw t; } }), 'pipeline.VS', `read throws ${String(t)}`);
    assert.is(e.code, 'bad-name');
  }
});

test('renderPassesFromJson: the PRESERVE_LOCAL border is UINTs, checked (a string or -1 was taken as it was)', () => {
  const border = (w: unknown) => () => renderPassesFromJson({ passes: [{ BeginningAccess: { Type: 'PRESERVE' }, EndingAccess: { Type: 'PRESERVE_LOCAL_SRV', PreserveLocal: { AdditionalWidth: w } } }] });
  for (const w of ['a\nb', LONG, -1, 1.5, 2 ** 32, true]) refusedAt(border(w), '$.passes[0].EndingAccess.PreserveLocal.AdditionalWidth', `AdditionalWidth ${JSON.stringify(String(w).slice(0, 12))}`);
  assert.equal(border('0x10')()[0]!.EndingAccess.PreserveLocal, { AdditionalWidth: 16, AdditionalHeight: 0 });
  assert.equal(border(undefined)()[0]!.EndingAccess.PreserveLocal, { AdditionalWidth: 0, AdditionalHeight: 0 });
  refusedAt(() => renderPassesFromJson({ passes: [5] }), '$.passes[0]', 'a pass that is no object');
  refusedAt(() => renderPassesFromJson({ passes: [{ BeginningAccess: 5, EndingAccess: { Type: 0 } }] }), '$.passes[0].BeginningAccess', 'an access that is no object');
});

/** A view whose buffer has been transferred away: its length reads 0, and no DataView can be made of it. */
function detached(n = 64): Uint8Array {
  const u = new Uint8Array(n);
  structuredClone(u.buffer, { transfer: [u.buffer] });
  return u;
}

test('a detached buffer: each decoder refuses it, typed, at the bytes argument; a detached column or read result too', () => {
  const cases: [string, (b: Uint8Array) => unknown, string][] = [
    ['decodeQueryResults', (b) => decodeQueryResults(b, 'timestamp'), 'bytes'],
    ['decodeQueryResult', (b) => decodeQueryResult(b, 'timestamp'), 'bytes'],
    ['querySpans', (b) => querySpans(b, 'timestamp', new SpanRecorder()), 'bytes'],
    ['decodeImage', (b) => decodeImage('D3D12DDI_NODE_ID_0108', b, 'x64'), 'bytes'],
    ['ddiImageSpans', (b) => ddiImageSpans('D3D12DDI_NODE_ID_0108', b, 'x64', new SpanRecorder()), 'bytes'],
    ['rdatSpans', (b) => rdatSpans(b, new SpanRecorder()), 'bytes'],
    ['libraryNodeOutputs', (b) => libraryNodeOutputs(b), 'library'],
    ['decodeStream', (b) => decodeStream(b, 'x64'), 'bytes'],
  ];
  for (const [name, f, path] of cases) {
    const e = refusedAt(() => f(detached()), path, name);
    assert.is(e.code, 'bad-type', name);
    assert.match(e.detail, /detached/, name);
  }
  // columns: a detached one read as 0 values (encoded as none; written into through a view that cannot be made)
  const detachedColumn = () => {
    const c = new BigUint64Array(4);
    structuredClone(c.buffer, { transfer: [c.buffer] });
    return c;
  };
  for (const [name, f, path] of [
    ['encodeQueryResults column', () => encodeQueryResults('timestamp', { Value: detachedColumn() }), 'data.Value'],
    ['decodeQueryResults into, 0 results', () => decodeQueryResults(new Uint8Array(0), 'timestamp', { into: { Value: detachedColumn() } }), 'range.into.Value'],
    ['decodeQueryResults into, 1 result', () => decodeQueryResults(new Uint8Array(8), 'timestamp', { into: { Value: detachedColumn() } }), 'range.into.Value'],
    ['toFloat64', () => toFloat64(detachedColumn()), 'column'],
    ['pipelineFromJson read', () => pipelineFromJson({ VS: 'vs.dxbc' }, { read: () => detached() }), 'pipeline.VS'],
  ] as const) {
    const e = refusedAt(f, path, name);
    assert.is(e.code, 'bad-type', name);
    assert.match(e.detail, /detached/, name);
  }
  assert.equal(Array.from(toFloat64(new BigUint64Array(0))), []);
  // a short column is named where the argument is, as every other check of `into` names it (it was `into.Value`)
  refusedAt(() => decodeQueryResults(new Uint8Array(16), 'timestamp', { into: { Value: new BigUint64Array(1) } }), 'range.into.Value', 'a short into column');
  // an empty view of a live buffer is no detached one: read as before
  assert.is(decodeQueryResults(new Uint8Array(0), 'timestamp').count, 0);
  assert.is(decodeQueryResults(new Uint8Array(new ArrayBuffer(16), 16), 'timestamp').count, 0);
  const e = thrown(() => decodeImage('D3D12DDI_NODE_ID_0108', new Uint8Array(0), 'x64'));
  assert.ok(e instanceof DxbinError && e.code === 'truncated', 'an empty image is short, not detached');
});

test('a detached buffer: each bulk resolve operation refuses it at its argument, typed, on every kernels (a raw TypeError from the kernels\' views before)', () => {
  const names = (['js', 'simd', 'scalar'] as KernelName[]).filter(kernelsAvailable);
  assert.ok(names.includes('js'));
  for (const name of names) {
    const k = kernels(name);
    const out = () => ({ ticks: new Uint8Array(8), ns: new Uint8Array(8), flags: new Uint8Array(1) });
    const cases: [string, () => unknown, string][] = [
      ['timestampDurations', () => timestampDurations(detached(16), { frequency: 1e6, kernels: k }), 'bytes'],
      ['timestampDurations, a detached out.ticks', () => timestampDurations(new Uint8Array(16), { frequency: 1e6, kernels: k, out: { ...out(), ticks: detached(8) } }), 'options.out.ticks'],
      ['timestampDurations, a detached out.flags', () => timestampDurations(new Uint8Array(16), { frequency: 1e6, kernels: k, out: { ...out(), flags: detached(1) } }), 'options.out.flags'],
      ['sumQueryResults', () => sumQueryResults(detached(88), 'pipeline-statistics', { kernels: k }), 'bytes'],
      ['deltaQueryResults a', () => deltaQueryResults(detached(8), new Uint8Array(8), 'occlusion', k), 'a'],
      ['deltaQueryResults b', () => deltaQueryResults(new Uint8Array(8), detached(8), 'occlusion', k), 'b'],
      ['soOverflow', () => soOverflow(detached(16), { kernels: k }), 'bytes'],
      ['occlusionToBinary', () => occlusionToBinary(detached(8), { kernels: k }), 'bytes'],
      ['gatherVirtualQueries src', () => gatherVirtualQueries(detached(8), 'occlusion', [], { heads: 0, dstCount: 0, kernels: k }), 'src'],
      ['gatherVirtualQueries map', () => gatherVirtualQueries(new Uint8Array(8), 'occlusion', detached(12), { heads: 0, dstCount: 0, kernels: k }), 'map'],
    ];
    for (const [what, f, path] of cases) {
      const e = refusedAt(f, path, `${name}: ${what}`);
      assert.is(e.code, 'bad-type', `${name}: ${what}`);
      assert.match(e.detail, /detached/, `${name}: ${what}`);
    }
    // an empty view of a live buffer is no detached one: no results
    assert.is(timestampDurations(new Uint8Array(0), { frequency: 1e6, kernels: k }).count, 0, `${name}: empty input`);
    assert.is(soOverflow(new Uint8Array(new ArrayBuffer(16), 16), { kernels: k }).overflowed, 0, `${name}: an empty view at the end`);
  }
});

test('a misspelt option of a query operation is refused (unknown-key at its path), not read as absent with its default taken', () => {
  const stamps = new Uint8Array(32);
  const cases: [string, () => unknown, string][] = [
    ['timestampDurations pair', () => timestampDurations(stamps, { frequency: 1e6, pair: false } as never), 'options.pair'],
    ['timestampDurations ofset', () => timestampDurations(stamps, { frequency: 1e6, ofset: 8 } as never), 'options.ofset'],
    ['sumQueryResults', () => sumQueryResults(new Uint8Array(88), 'pipeline-statistics', { cout: 1 } as never), 'range.cout'],
    ['soOverflow', () => soOverflow(new Uint8Array(16), { kernel: 'js' } as never), 'range.kernel'],
    ['occlusionToBinary', () => occlusionToBinary(new Uint8Array(8), { Offset: 8 } as never), 'range.Offset'],
    ['decodeQueryResults', () => decodeQueryResults(new Uint8Array(16), 'timestamp', { ofset: 8 } as never), 'range.ofset'],
    ['decodeQueryResults kernels (it runs none)', () => decodeQueryResults(new Uint8Array(16), 'timestamp', { kernels: undefined } as never), 'range.kernels'],
    ['gatherVirtualQueries', () => gatherVirtualQueries(new Uint8Array(8), 'occlusion', [], { heads: 0, dstCount: 0, dst: 1 } as never), 'options.dst'],
    ['packQueryMap entry', () => gatherVirtualQueries(new Uint8Array(8), 'occlusion', [{ dstIndex: 0, srcIndex: 0, next: 0xffffffff, nxt: 1 } as never], { heads: 1, dstCount: 1 }), 'entries[0].nxt'],
    ['timingPicture bin', () => timingPicture(stamps, { frequency: 1e6, bin: 3 } as never), 'options.bin'],
    ['byteMap of query results windw', () => byteMap(stamps, { format: 'query', type: 'timestamp', windw: { from: 8 } } as never), 'options.windw'],
    ['querySpans pairs (it has none)', () => querySpans(stamps, 'timestamp', new SpanRecorder(), { pairs: false } as never), 'options.pairs'],
    ['a hostile key', () => soOverflow(new Uint8Array(16), JSON.parse('{"x\\"\\n\\u202e": 1}')), 'range["x\\"\\n\\u202e"]'],
  ];
  for (const [what, f, path] of cases) {
    const e = refusedAt(f, path, what);
    assert.is(e.code, 'unknown-key', what);
  }
  // the keys each takes are still taken
  assert.is(timestampDurations(stamps, { frequency: 1e6, pairs: false, offset: 8, count: 2, kernels: kernels('js') }).count, 1);
  assert.is(decodeQueryResults(new Uint8Array(16), 'timestamp', { offset: 8, count: 1, into: { Value: new BigUint64Array(1) } }).count, 1);
  assert.is(timingPicture(stamps, { frequency: 1e6, bins: 3, width: 10, pairs: false }).count, 3);
  assert.ok(byteMap(stamps, { format: 'query', type: 'timestamp', offset: 8, window: { from: 8 } }).spans.length > 0);
});

test('a query type given as an object is one of the QUERY_TYPES rows, or the row of that name from another copy: a look-alike is refused (a raw TypeError, or fields read at no offset)', () => {
  const fake = { name: 'fake', result: { size: 8, fields: [{ name: 'x' }] } };
  refusedAt(() => decodeQueryResult(new Uint8Array(8), { name: 'fake', result: { size: 8, fields: [] } } as never), 'type', 'decodeQueryResult');
  refusedAt(() => decodeQueryResults(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8), fake as never), 'type', 'decodeQueryResults');
  refusedAt(() => encodeQueryResults(fake as never, { x: [1n] } as never), 'type', 'encodeQueryResults');
  // a row's name with another layout size: not that row
  refusedAt(() => decodeQueryResults(new Uint8Array(16), { name: 'TIMESTAMP', result: { size: 16, fields: [] } } as never), 'type', 'a TIMESTAMP of 16 bytes');
  // another copy's row (same name and size): read as ours
  const copy = JSON.parse(JSON.stringify(queryType('timestamp')));
  assert.is(decodeQueryResults(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0), copy).columns.Value![0], 1n);
});

test('a work limit given that is no number of 0 or more is refused at its option, not replaced by the default', () => {
  for (const [v, code] of [[-1, 'out-of-range'], [NaN, 'out-of-range'], ['1e9', 'bad-type']] as const) {
    const e = refusedAt(() => Budget.for(16, { maxResolved: v } as never), 'options.maxResolved', `Budget.for maxResolved ${String(v)}`);
    assert.is(e.code, code, String(v));
  }
  assert.ok(Budget.for(16, { maxResolved: Infinity }), 'Infinity: no limit');
  assert.ok(Budget.for(16, { maxResolved: 0 }), '0');
});

/**
 * The DDI API's typed side (2026-12-03, hE): encodeImage and ddiToJson dropped a key that is no
 * field (a misspelled one) without a word, at the root, in an embedded struct and in a pointee;
 * a detached Uint8Array in a bytes field was written as no bytes ("" in the JSON, an empty run in
 * the image); ddiFromJson took a "$id" that is not a string and dropped it.
 */
const NODE_OUTPUT = 'D3D12DDI_NODE_OUTPUT_0108';
/** A D3D12DDI_NODE_OUTPUT_0108 both writers take, with `extra` merged in at `where`. */
function nodeOutput(where: 'root' | 'FinalName' | 'pRecordDispatchGrid', extra: Record<string, unknown> = {}): DdiObject {
  // each key an own one (as JSON.parse makes it): Object.assign would set the prototype for "__proto__"
  const at = (w: typeof where, o: Record<string, unknown>) => {
    if (w === where) for (const k of Object.keys(extra)) Object.defineProperty(o, k, { value: extra[k], enumerable: true, writable: true, configurable: true });
    return o;
  };
  return at('root', {
    FinalName: at('FinalName', { Name: 'a', ArrayIndex: 0 }),
    OutputIndex: 0,
    NodeIOKind: 6,
    NodeIOFlags: 0,
    RecordSizeInBytes: 4,
    bAllowSparseNodes: 0,
    pRecordDispatchGrid: at('pRecordDispatchGrid', { ByteOffset: 0, NumComponents: 1, b16BitsPerComponent: 0 }),
    pMaxRecords: 1,
    pMaxRecordsSharedWithOutputIndex: null,
    ArraySize: 1,
    pOutputs: null,
  }) as DdiObject;
}
const TYPED_WRITERS: readonly [string, (v: DdiObject) => unknown][] = [
  ['encodeImage x64', (v) => encodeImage(NODE_OUTPUT, v, 'x64')],
  ['encodeImage x86', (v) => encodeImage(NODE_OUTPUT, v, 'x86')],
  ['ddiToJson', (v) => ddiToJson(NODE_OUTPUT, v)],
];

test('encodeImage, ddiToJson: a key that is no field is refused (unknown-key, escaped in the path), not dropped', () => {
  for (const [name, f] of TYPED_WRITERS) {
    f(nodeOutput('root')); // the value without the key is taken
    for (const where of ['root', 'FinalName', 'pRecordDispatchGrid'] as const) {
      const at = where === 'root' ? NODE_OUTPUT : `${NODE_OUTPUT}.${where}`;
      const e = refusedAt(() => f(nodeOutput(where, { RecordSizeInByte: 4 })), `${at}.RecordSizeInByte`, `${name} at ${where}`);
      assert.is(e.code, 'unknown-key', `${name} at ${where}`);
      assert.match(e.detail, /^unknown key "RecordSizeInByte" in \w+ \(allowed: /, `${name} at ${where}`);
      for (const [k, step] of HOSTILE) refusedAt(() => f(nodeOutput(where, withKey(k, 1))), `${at}${step}`, `${name} at ${where}, key ${JSON.stringify(k.slice(0, 12))}`);
      for (const k of PROTO_KEYS) assert.is(refusedAt(() => f(nodeOutput(where, withKey(k, 1))), `${at}.${k}`, `${name} at ${where}, key ${k}`).code, 'unknown-key');
    }
    // "$id" is the JSON form's, never a field of a typed value
    assert.is(refusedAt(() => f(nodeOutput('root', { $id: '1' })), `${NODE_OUTPUT}.$id`, `${name} $id`).code, 'unknown-key');
  }
  // a stream subobject too
  refusedAt(() => encodeStream([{ type: 'VS', inner: { pShaderBytecode: new Uint8Array(4), BytecodeLength: 4, typo: 1 } }], 'x64'), 'D3D12_PIPELINE_STATE_STREAM_DESC.pPipelineStateSubobjectStream[0].Inner.typo', 'encodeStream');
  refusedAt(() => streamToJson([{ type: 'VS', inner: { pShaderBytecode: new Uint8Array(4), BytecodeLength: 4, typo: 1 } }]), 'D3D12_PIPELINE_STATE_STREAM_DESC.pPipelineStateSubobjectStream[0].Inner.typo', 'streamToJson');
});

test('encodeImage, ddiToJson: a detached Uint8Array in a bytes field is refused (bad-type at the field), not written as no bytes', () => {
  const path = 'D3D12_SHADER_BYTECODE.pShaderBytecode';
  for (const length of [0, 8]) {
    const value = () => ({ pShaderBytecode: detached(8), BytecodeLength: length });
    for (const [name, f] of [
      ['encodeImage x64', (v: DdiObject) => encodeImage('D3D12_SHADER_BYTECODE', v, 'x64')],
      ['encodeImage x86', (v: DdiObject) => encodeImage('D3D12_SHADER_BYTECODE', v, 'x86')],
      ['ddiToJson', (v: DdiObject) => ddiToJson('D3D12_SHADER_BYTECODE', v)],
    ] as const) {
      const e = refusedAt(() => f(value()), path, `${name}, BytecodeLength ${length}`);
      assert.is(e.code, 'bad-type', `${name}, BytecodeLength ${length}`);
      assert.match(e.detail, /detached/, `${name}, BytecodeLength ${length}`);
    }
  }
  // an attached empty view is no bytes, and taken
  assert.equal(ddiToJson('D3D12_SHADER_BYTECODE', { pShaderBytecode: new Uint8Array(0), BytecodeLength: 0 }), { pShaderBytecode: '', BytecodeLength: 0 });
  assert.is(encodeImage('D3D12_SHADER_BYTECODE', { pShaderBytecode: new Uint8Array(0), BytecodeLength: 0 }, 'x64').length, 16);
  // inside a stream subobject too
  refusedAt(() => encodeStream([{ type: 'VS', inner: { pShaderBytecode: detached(0), BytecodeLength: 0 } }], 'x64'), 'D3D12_PIPELINE_STATE_STREAM_DESC.pPipelineStateSubobjectStream[0].Inner.pShaderBytecode', 'encodeStream');
});

test('ddiFromJson: a "$id" that is not a string is refused (bad-type at $id), not dropped', () => {
  const root = 'D3D12DDI_NODE_ID_0108';
  for (const id of [1, null, true, ['1'], { a: 1 }]) {
    const e = refusedAt(() => ddiFromJson(root, { $id: id, Name: 'a', ArrayIndex: 0 }), `${root}.$id`, `$id ${JSON.stringify(id)}`);
    assert.is(e.code, 'bad-type', `$id ${JSON.stringify(id)}`);
  }
  // nested, where a "$ref" would look for it
  refusedAt(() => ddiFromJson(NODE_OUTPUT, { ...ddiToJson(NODE_OUTPUT, nodeOutput('root')) as object, pRecordDispatchGrid: { $id: 7, ByteOffset: 0, NumComponents: 1, b16BitsPerComponent: 0 } }), `${NODE_OUTPUT}.pRecordDispatchGrid.$id`, 'nested $id');
  // a string "$id" is still taken, and a "$ref" finds it
  assert.equal(ddiFromJson(root, { $id: 'x', Name: 'a', ArrayIndex: 0 }), { Name: 'a', ArrayIndex: 0 });
});

test('sparse lists of 2^32 - 1 in the stream and pipeline JSON forms: refused at the first hole, in proportion to what the list holds', () => {
  // the old readers allocated the whole list (new Array(length).fill, the budget's extent walk
  // pushing every hole): the process died of "heap out of memory" / "invalid size", no error at all
  const sparse: unknown[] = [];
  sparse.length = 2 ** 32 - 1;
  const refused = (f: () => unknown, path: RegExp) =>
    assert.throws(f, (e: unknown) => e instanceof DxbinError && path.test((e as DxbinError & { path?: string }).path ?? e.message));
  refused(() => streamFromJson(sparse as never), /pPipelineStateSubobjectStream\[0\]/);
  refused(() => streamFromJson([{ Type: 'STREAM_OUTPUT', Inner: { pSODeclaration: sparse, NumEntries: 1, pBufferStrides: [16], NumStrides: 1, RasterizedStream: 0 } }] as never), /pSODeclaration\[0\]/);
  refused(() => pipelineFromJson({ RTVFormats: sparse } as never, { read: () => new Uint8Array(0) }), /RTVFormats/);
  refused(() => pipelineFromJson({ InputLayout: sparse } as never, { read: () => new Uint8Array(0) }), /InputLayout/);
  const holed = [{ SemanticName: 'A', Format: 'R32_FLOAT' }, , { SemanticName: 'B', Format: 'R32_FLOAT' }]; // eslint-disable-line no-sparse-arrays
  refused(() => pipelineFromJson({ InputLayout: holed } as never, { read: () => new Uint8Array(0) }), /InputLayout\[1\]/);
});

test.run();
