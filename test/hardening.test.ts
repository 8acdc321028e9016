/**
 * Issue 10's hostile inputs D1-D12 (D8 is the typed encoder's, tested with it): each gives the
 * correct result or a typed error naming the limit. Their cost is measured by bench/hardening.ts
 * (no timed tests here).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  Budget,
  LimitError,
  DecodeError,
  DescriptionError,
  DxbinError,
  HlslError,
  HlslFile,
  compileRootSignature,
  convertRootSignature,
  encodeRootSignature,
  parseContainer,
  printRootSignature,
  rootSignatureToJson,
  summarizeRootSignature,
  validateRootSignature,
  type RootSignature,
} from '../src/index.js';
import { RdatReader, ddiFromJson, ddiToJson, decodeImage, encodeImage, validateDdi, type DdiObject } from '../src/ddi/index.js';
import { partDataOffset } from '../src/container/container.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { CORPUS } from './helpers/corpus.js';
import {
  attributeThenSpaces,
  chainedMacros,
  deepNodeListJson,
  doublingMacros,
  fanOutRdat,
  linkedListImage,
  overlappingNamesImage,
  rootCbvs,
  unclosedAttributes,
} from './helpers/hostile.js';

const is = <T>(type: new (...a: never[]) => T, check: (e: T) => boolean) => (e: unknown) => e instanceof type && check(e);

test('D1: a 5,000-entry linked list decodes (no recursion); JSON refuses the depth with a typed error', () => {
  const image = linkedListImage(5000);
  assert.is(image.byteLength > 80_000, true);
  const list = decodeImage('node-list-entry', image, 'x64');
  let n = 0;
  const node = list.pNode;
  for (let e: DdiObject | null = list; e; e = e.pNext as DdiObject | null) {
    assert.is(e.pNode, node, 'one shared node');
    n++;
  }
  assert.is(n, 5000);
  assert.equal(validateDdi('node-list-entry', list), []);
  assert.equal(encodeImage('node-list-entry', list, 'x64'), image);
  assert.throws(() => ddiToJson('node-list-entry', list), is(LimitError, (e) => e.code === 'limit-exceeded' && e.kind === 'depth' && /maxDepth = 1000/.test(e.message)));
  const shallow = decodeImage('node-list-entry', linkedListImage(100), 'x64');
  assert.is(JSON.stringify(ddiToJson('node-list-entry', shallow)).split('"pNext"').length - 1, 100);
});

test('D2: names overlapping in one long string are budgeted by characters, not only objects', () => {
  const image = overlappingNamesImage(500, 20_000);
  assert.throws(() => decodeImage('broadcasting-launch-node-properties', image, 'x64'), is(LimitError, (e) => e.code === 'limit-exceeded' && e.kind === 'resolve' && /maxResolved/.test(e.message) && e.path.includes('FinalName.Name')));
  // the budget is an option: with room for it the same image decodes to what it says
  const decoded = decodeImage('broadcasting-launch-node-properties', overlappingNamesImage(5, 40), 'x64', { maxStringChars: 1000 });
  const names = (decoded.pOutputs as DdiObject[]).map((o) => (o.FinalName as DdiObject).Name as string);
  assert.is(names[0]!.length, 40);
  assert.is(names[4], names[0]!.slice(4));
  assert.throws(() => decodeImage('broadcasting-launch-node-properties', overlappingNamesImage(5, 40), 'x64', { maxStringChars: 100 }), is(LimitError, (e) => e.code === 'limit-exceeded'));
  assert.throws(() => decodeImage('broadcasting-launch-node-properties', overlappingNamesImage(5, 40), 'x64', { maxResolved: 100 }), is(LimitError, (e) => e.code === 'limit-exceeded' && e.kind === 'resolve'));
  // the call's budget is the one charged: a budget spent elsewhere leaves less for the image
  const spent = Budget.for(0, { maxResolved: 1000 });
  spent.charge('resolve', 990, 'elsewhere');
  assert.throws(() => decodeImage('broadcasting-launch-node-properties', overlappingNamesImage(5, 40), 'x64', { budget: spent }), is(LimitError, (e) => e.kind === 'resolve'));
});

test('D3: RDAT functions sharing one output list fan out only within the produce budget', () => {
  const rdat = fanOutRdat(500, 800);
  assert.ok(rdat.byteLength < 30_000);
  assert.throws(() => new RdatReader(rdat, 100).nodes(), is(LimitError, (e) => e.code === 'limit-exceeded' && e.kind === 'produce' && /maxProducedChars = /.test(e.message)));
  const small = new RdatReader(fanOutRdat(2, 3)).nodes();
  assert.equal(small.map((n) => n.outputs.length), [3, 3]);
  assert.equal(small[0]!.outputs.map((o) => o.OutputIndex), [0, 1, 2]);
  assert.throws(() => new RdatReader(fanOutRdat(2, 3), 0, { maxRecords: 5 }).nodes(), is(LimitError, (e) => e.code === 'limit-exceeded'));
});

test('D4: doubling macros stop at the budget of produced characters with an HLSL error at the macro', () => {
  const text = doublingMacros(20);
  assert.ok(text.length < 600);
  assert.throws(() => new HlslFile(text, 'd4.hlsl').defineText('RS'), is(HlslError, (e) => e.code === 'limit-exceeded' && e.limit?.kind === 'produce' && /maxProducedChars/.test(e.message) && e.message.startsWith('d4.hlsl:')));
  // below the budget the expansion is exact
  assert.is(new HlslFile(doublingMacros(4), 'ok.hlsl').defineText('RS').text, Array(16).fill('x').join(' '));
});

test('D5: 5,000 chained macros: a typed depth error; a 900-long chain expands exactly', () => {
  assert.throws(() => new HlslFile(chainedMacros(5000), 'd5.hlsl').defineText('RS'), is(HlslError, (e) => e.code === 'limit-exceeded' && e.limit?.kind === 'depth' && /maxDepth = 1000/.test(e.message)));
  assert.is(new HlslFile(chainedMacros(900), 'ok.hlsl').defineText('RS').text, 'CBV(b0)');
  assert.is(new HlslFile(chainedMacros(5000), 'ok.hlsl', {}, { maxExpansionDepth: 6000 }).defineText('RS').text, 'CBV(b0)');
});

test('D6: unclosed attributes and long runs of spaces are linear scans', () => {
  assert.throws(() => new HlslFile(unclosedAttributes(10_000), 'd6.hlsl').entryText('main'), is(HlslError, (e) => e.code === 'hlsl-missing'));
  assert.throws(() => new HlslFile(attributeThenSpaces(50_000), 'd6.hlsl').entryText('main'), is(HlslError, (e) => e.code === 'hlsl-missing'));
  // the same shapes with a function still find it
  assert.is(new HlslFile(`${attributeThenSpaces(5000)}main() {}`, 'ok.hlsl').entryText('main').text, 'CBV(b0)');
  assert.is(new HlslFile(`${unclosedAttributes(50)}[RootSignature("CBV(b1)")] [numthreads(1,1,1)]\nvoid   main(uint i : SV_GroupIndex) {}`, 'ok.hlsl').entryText('main').text, 'CBV(b1)');
  assert.is(new HlslFile('[RootSignature("CBV(b2)")]\nconst Foo<int, 2>::T\n  main (float x) {}', 'ok.hlsl').entryText('main').text, 'CBV(b2)');
  assert.throws(() => new HlslFile('[RootSignature("CBV(b2)")]\n3int main() {}', 'no.hlsl').entryText('main'), is(HlslError, (e) => e.code === 'hlsl-missing'));
});

/** Rule 18 by its definition: every earlier interval, the first that meets (the old all-pairs check). */
function overlapsByDefinition(rs: RootSignature): string[] {
  const seen: { i: number; vis: number; lb: number; ub: number; cls: string }[] = [];
  const out: string[] = [];
  rs.parameters.forEach((p, i) => {
    if (p.parameterType < 2) return;
    const d = (p as { descriptor: { shaderRegister: number; registerSpace: number } }).descriptor;
    const it = { i, vis: p.shaderVisibility, lb: d.shaderRegister, ub: d.shaderRegister, cls: `${p.parameterType}/${d.registerSpace}` };
    const other = seen.find((o) => o.cls === it.cls && o.lb <= it.ub && it.lb <= o.ub && (o.vis === it.vis || o.vis === 0 || it.vis === 0));
    seen.push(it);
    if (other) out.push(`${i}<-${other.i}`);
  });
  return out;
}

test('D7: rule 18 with sorted intervals gives the all-pairs answer', () => {
  const many = validateRootSignature(rootCbvs(8000, 8000), { target: 'dxc' }).filter((v) => v.code === 'register-overlap');
  assert.is(many.length, 7999);
  assert.is(many[7998]!.message, 'Shader register range of type CBV (root parameter [7999], visibility ALL) overlaps with another shader register range (root parameter [0], visibility ALL).');
  assert.equal(validateRootSignature(rootCbvs(8000), { target: 'dxc' }), []);
  fc.assert(
    fc.property(fc.array(fc.record({ t: fc.integer({ min: 2, max: 4 }), vis: fc.integer({ min: 0, max: 5 }), reg: fc.integer({ min: 0, max: 6 }), space: fc.integer({ min: 0, max: 1 }) }), { maxLength: 30 }), (params) => {
      const rs = {
        version: 2, flags: 0, staticSamplers: [],
        parameters: params.map((p) => ({ parameterType: p.t, shaderVisibility: p.vis, descriptor: { shaderRegister: p.reg, registerSpace: p.space, flags: 0 } })),
      } as unknown as RootSignature;
      const got = validateRootSignature(rs, { target: 'dxc' })
        .filter((v) => v.code === 'register-overlap')
        .map((v) => `${/\[(\d+)\]/.exec(v.message)![1]}<-${/another .*\[(\d+)\]/.exec(v.message)![1]}`);
      assert.equal(got, overlapsByDefinition(rs));
    }),
    { numRuns: 500, seed: 10 },
  );
});

test('D9: a DDI JSON value of the wrong type is a DescriptionError, not a TypeError in validation', () => {
  const json = JSON.parse(JSON.stringify(ddiToJson('broadcasting-launch-node-properties', decodeImage('broadcasting-launch-node-properties', overlappingNamesImage(1, 1), 'x64'))));
  for (const [field, value, code] of [['pDispatchGrid', 5, 'bad-type'], ['pMaxDispatchGrid', [1, 2], 'bad-type'], ['pDispatchGrid', [1, 2, -1], 'out-of-range'], ['GroupSharedUsageInBytes', 'x', 'bad-type'], ['NumOutputs', 2 ** 32, 'out-of-range']] as const) {
    assert.throws(() => validateDdi('broadcasting-launch-node-properties', ddiFromJson('broadcasting-launch-node-properties', { ...json, [field]: value })), is(DescriptionError, (e) => e.code === code && e.path.includes(field)), field);
  }
  assert.throws(() => ddiFromJson('node-id', { Name: 7, ArrayIndex: 0 }), is(DescriptionError, (e) => e.code === 'bad-type' && e.path === 'D3D12DDI_NODE_ID_0108.Name'));
  // validating a hand-made object with a non-list grid does not throw either
  assert.not.throws(() => validateDdi('broadcasting-launch-node-properties', { ...ddiFromJson('broadcasting-launch-node-properties', json), pDispatchGrid: 5 } as DdiObject));
});

test('D10: a pNext chain 10,000 deep in DDI JSON reads, validates and encodes (no recursion)', () => {
  const json = JSON.parse(deepNodeListJson(10_000));
  const list = ddiFromJson('node-list-entry', json);
  let n = 0;
  for (let e: DdiObject | null = list; e; e = e.pNext as DdiObject | null) n++;
  assert.is(n, 10_000);
  assert.equal(validateDdi('node-list-entry', list), []);
  const image = encodeImage('node-list-entry', list, 'x86');
  const back = decodeImage('node-list-entry', image, 'x86');
  let m = 0;
  for (let e: DdiObject | null = back; e; e = e.pNext as DdiObject | null, m++) assert.is(e.pNode, back.pNode);
  assert.is(m, 10_000);
  assert.throws(() => ddiToJson('node-list-entry', list), is(LimitError, (e) => e.code === 'limit-exceeded' && e.kind === 'depth'));
  assert.is((ddiToJson('node-list-entry', list, { maxDepth: 30_000 }) as { pNext: unknown }).pNext !== null, true);
});

test('D11: extract names the absolute offset of a bad RTS0 inside a shader', async () => {
  const shader = new Uint8Array(readFileSync(join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc')));
  const c = parseContainer(shader);
  const index = c.parts.findIndex((p) => p.name === 'RTS0');
  const at = partDataOffset(c, index);
  assert.ok(at > 0);
  const bad = shader.slice();
  bad[at] = 9; // RTS0.version
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-d11-'));
  writeFileSync(join(dir, 'bad.dxbc'), bad);
  const streams = captureStreams();
  assert.is(await run(['extract', join(dir, 'bad.dxbc'), '-o', join(dir, 'out.dxbc'), '--json'], streams), 1);
  const answer = JSON.parse(streams.stdout());
  assert.is(answer.error.field, 'RTS0.version');
  assert.is(answer.error.offset, at);
  assert.match(streams.stderr(), `(RTS0.version at byte ${at})`);
});

test('D12: a table with no ranges decompiles to text that compiles back to it', () => {
  for (const version of [1, 2, 3] as const) {
    for (const shaderVisibility of [0, 5]) {
      const rs = { version, flags: 0, parameters: [{ parameterType: 0, shaderVisibility, ranges: [] }], staticSamplers: [] } as unknown as RootSignature;
      const text = printRootSignature(rs);
      assert.ok(text !== 'DescriptorTable()', text);
      assert.equal(compileRootSignature(text, { version }), rs, text);
    }
  }
});

test('ill-typed descriptions: every function that takes one answers or throws a DxbinError, never a TypeError or RangeError', () => {
  const value = fc.oneof(fc.integer({ min: -2, max: 6 }), fc.constantFrom(null, undefined, [], {}, true, '1', 0.5, NaN), fc.string({ maxLength: 3 }));
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: value });
  const fields = (keys: string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, maybe(fc.integer({ min: 0, max: 5 }))])), { requiredKeys: [] });
  const range = maybe(fields(['rangeType', 'numDescriptors', 'baseShaderRegister', 'registerSpace', 'flags', 'offsetInDescriptorsFromTableStart']));
  const parameter = maybe(
    fc.record(
      {
        parameterType: maybe(fc.integer({ min: 0, max: 5 })),
        shaderVisibility: maybe(fc.integer({ min: 0, max: 8 })),
        ranges: maybe(fc.array(range, { maxLength: 3 })),
        constants: maybe(fields(['shaderRegister', 'registerSpace', 'num32BitValues'])),
        descriptor: maybe(fields(['shaderRegister', 'registerSpace', 'flags'])),
      },
      { requiredKeys: [] },
    ),
  );
  const sampler = maybe(
    fields(['filter', 'addressU', 'addressV', 'addressW', 'mipLODBias', 'maxAnisotropy', 'comparisonFunc', 'borderColor', 'minLOD', 'maxLOD', 'shaderRegister', 'registerSpace', 'shaderVisibility', 'flags']),
  );
  const description = maybe(
    fc.record({ version: maybe(fc.integer({ min: 1, max: 3 })), flags: maybe(fc.integer({ min: 0, max: 3 })), parameters: maybe(fc.array(parameter, { maxLength: 3 })), staticSamplers: maybe(fc.array(sampler, { maxLength: 2 })) }),
  );
  const calls: ((rs: RootSignature) => unknown)[] = [
    (rs) => encodeRootSignature(rs),
    (rs) => validateRootSignature(rs, { target: 'all' }),
    (rs) => rootSignatureToJson(rs),
    (rs) => summarizeRootSignature(rs),
    (rs) => printRootSignature(rs),
    (rs) => convertRootSignature(rs, 1),
    (rs) => convertRootSignature(rs, 3, { semantics: 'vkd3d' }),
  ];
  fc.assert(
    fc.property(description, (rs) => {
      for (const call of calls) {
        try {
          call(rs as RootSignature);
        } catch (e) {
          if (!(e instanceof DxbinError)) throw e;
        }
      }
    }),
    { numRuns: 3000, seed: 11 },
  );
});

test('issue 26: a command line of 100,000 arguments is a usage error naming the limit, not a RangeError from the argument parser', async () => {
  const streams = captureStreams();
  const args = Array.from({ length: 100_000 }, (_, i) => `f${i}.dxil`);
  const code = await run(['hash', ...args.slice(0, 10)].concat(args.slice(10)), streams);
  assert.is(code, 2, streams.stderr());
  assert.match(streams.stderr(), /100001 arguments; at most 65536/);
  assert.not.match(streams.stderr(), /internal error|RangeError/);
});

test.run();
