/** DDI structures: layouts against gcc, images both ways, hostile images, validation, RDAT node outputs. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { join } from 'node:path';
import { ABIS, STRUCTS } from '../codecs/ddi.js';
import { DecodeError, parseContainer } from '../src/index.js';
import {
  RdatReader,
  ddiFromJson,
  ddiToJson,
  decodeImage,
  encodeImage,
  renderPassesFromJson,
  structLayout,
  validateDdi,
  validateRenderPasses,
  type DdiObject,
} from '../src/ddi/index.js';
import { nodeReports } from '../src/ddi/nodes.js';
import { decodeRdat } from '../src/rdat/decode.js';
import { describeLibrary } from '../src/rdat/library.js';
import type { RdatDescription } from '../src/rdat/types.js';
import { Budget } from '../src/bytes/budget.js';
import { DescriptionError } from '../src/bytes/errors.js';
import { ROOT, corpusFile } from './helpers/corpus.js';
import { randomDdi } from './helpers/ddi-random.js';
import { missingCompiler, missingPath, requires } from './helpers/requires.js';
import { probe } from './helpers/gcc-probe.js';

// ---------------------------------------------------------------- layouts

test('layouts the spec gives (A.1-A.10, B.2, C.2)', () => {
  const sizes = (name: string) => ABIS.map((abi) => structLayout(name, abi).size);
  assert.equal(sizes('node-output'), [80, 48]);
  assert.equal(sizes('node-id'), [16, 8]);
  assert.equal(sizes('record-dispatch-grid'), [8, 8]);
  assert.equal(sizes('node-list-entry'), [16, 8]);
  assert.equal(sizes('shader-node'), [24, 12]);
  assert.equal(sizes('node'), [32, 20]);
  assert.equal(sizes('broadcasting-launch-node-properties'), [112, 68]);
  assert.equal(sizes('coalescing-launch-node-properties'), [96, 60]);
  assert.equal(sizes('thread-launch-node-properties'), [88, 56]);
  assert.equal(sizes('preserve-local-parameters'), [8, 8]);
  assert.equal(sizes('d3d12-options'), [60, 60]);
  const out = structLayout('node-output', 'x64').fields.map((f) => [f.name, f.offset]);
  assert.equal(out, [['FinalName', 0], ['OutputIndex', 16], ['NodeIOKind', 20], ['NodeIOFlags', 24], ['RecordSizeInBytes', 28], ['bAllowSparseNodes', 32], ['pRecordDispatchGrid', 40], ['pMaxRecords', 48], ['pMaxRecordsSharedWithOutputIndex', 56], ['ArraySize', 64], ['pOutputs', 72]]);
  assert.is(structLayout('d3d12-options', 'x86').fields.find((f) => f.name === 'CrossNodeSharingTier')!.offset, 44);
});

const UNION_NAME: Record<string, string> = { pProperties: 'pBroadcastingLaunchNodeProperties' };

for (const abi of ABIS) {
  const m = abi === 'x86' ? ['-m32'] : ['-m64'];
  const multilib = abi === 'x86' ? ' and 32-bit libraries (gcc-multilib, g++-multilib)' : '';
  const withGcc = requires(`gcc${multilib}`, missingCompiler('gcc', m));
  const withGxx = requires(`g++${multilib} and DirectX-Headers (directx-headers-dev)`, missingCompiler('g++', m) ?? missingPath('/usr/include/directx/d3d12.h', '/usr/include/wsl/winadapter.h'));
  withGcc(`gcc ${abi}: every DDI mirror struct (written from the documented syntax) has dxbin's size and offsets`, () => {
    const ddi = STRUCTS.filter((s) => s.name.startsWith('D3D12DDI_'));
    const seen = probe('gcc', [...m, `-I${join(ROOT, 'test/probes')}`], '#include "ddi-mirror.h"', ddi.map((s) => ({ c: s.name === 'D3D12DDI_NODE_0108' ? 'struct _D3D12DDI_NODE_0108' : s.name, name: s.name, fields: s.fields.map((f) => ({ c: UNION_NAME[f.name] ?? f.name, name: f.name })) })));
    for (const s of ddi) {
      const layout = structLayout(s.name, abi);
      assert.is(seen.get(`${s.name} sizeof`), layout.size, `${s.name} size`);
      for (const f of layout.fields) {
        assert.is(seen.get(`${s.name} ${f.name} offset`), f.offset, `${s.name}.${f.name} offset`);
        assert.is(seen.get(`${s.name} ${f.name} size`), f.size, `${s.name}.${f.name} size`);
      }
    }
  });
  withGxx(`g++ ${abi}: D3D12_FEATURE_DATA_D3D12_OPTIONS and D3D12_FEATURE_DATA_CROSS_NODE from the real d3d12.h (directx-headers-dev)`, () => {
    const api = STRUCTS.filter((s) => s.name.startsWith('D3D12_FEATURE_DATA_'));
    const seen = probe('g++', [...m, '-I/usr/include/wsl/stubs', '-I/usr/include'], '#include <wsl/winadapter.h>\n#include <directx/d3d12.h>', api.map((s) => ({ c: s.name, name: s.name, fields: s.fields.map((f) => ({ c: f.name, name: f.name })) })));
    for (const s of api) {
      const layout = structLayout(s.name, abi);
      assert.is(seen.get(`${s.name} sizeof`), layout.size, `${s.name} size`);
      for (const f of layout.fields) assert.is(seen.get(`${s.name} ${f.name} offset`), f.offset, `${s.name}.${f.name}`);
    }
  });
}

// ---------------------------------------------------------------- images

for (const s of STRUCTS) {
  for (const abi of ABIS) {
    test(`${s.cli} ${abi}: random values survive image and JSON round trips`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 0x7fffffff }), (seed) => {
          const value = randomDdi(s.name, seed);
          const image = encodeImage(s.name, value, abi);
          const decoded = decodeImage(s.name, image, abi);
          const json = JSON.parse(JSON.stringify(ddiToJson(s.name, value)));
          assert.equal(JSON.parse(JSON.stringify(ddiToJson(s.name, decoded))), json);
          assert.equal(encodeImage(s.name, decoded, abi), image);
          assert.equal(encodeImage(s.name, ddiFromJson(s.name, json), abi), image);
        }),
        { numRuns: 60, seed: s.name.length * 31 + (abi === 'x64' ? 1 : 2) },
      );
    });
  }
}

test('malformed images give DecodeError with offset and path, nothing else', () => {
  const names = STRUCTS.map((s) => s.name);
  fc.assert(
    fc.property(fc.constantFrom(...names), fc.constantFrom(...ABIS), fc.integer({ min: 1, max: 0x7fffffff }), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 6 }), fc.nat({ max: 64 }), (name, abi, seed, flips, cut) => {
      const image = encodeImage(name, randomDdi(name, seed), abi);
      const bad = image.slice(0, Math.max(0, image.byteLength - cut));
      for (const [at, v] of flips) if (bad.byteLength) bad[at % bad.byteLength] = v;
      try {
        decodeImage(name, bad, abi);
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        assert.type(e.offset, 'number');
        assert.ok(e.path.startsWith('D3D12'));
      }
    }),
    { numRuns: 2000, seed: 5 },
  );
  assert.throws(() => decodeImage('node-output', new Uint8Array(79), 'x64'), (e: unknown) => e instanceof DecodeError && e.message === 'D3D12DDI_NODE_OUTPUT_0108 at byte 0: needs 80 bytes, only 79 left');
  const noName = new Uint8Array(80);
  assert.throws(() => decodeImage('node-output', noName, 'x64'), (e: unknown) => e instanceof DecodeError && e.message === 'D3D12DDI_NODE_OUTPUT_0108.FinalName.Name at byte 0: Name may not be NULL');
});

test('lists of different lengths over one array come back as copies, and encode then decode keeps the JSON (dxbin fuzz ddi-image)', () => {
  // found by the 2026-12-02 campaign (seed 20261205), minimized: an x86 D3D12DDI_NODE_OUTPUT_0108 whose
  // nodes point pOutputs at one address with NumOutputs 2 and 1. Element 0 was one object shared by
  // both lists, which the writer (placing whole pointed-at values) wrote twice: the second decode
  // had two objects where the first had one.
  const hex =
    '22080000001c00000000000000ffffff7f240000004e000000e2000000300000001c0000001c000000010000004c0000000200000020000000300000000100000024000000200000001c0000001c000000400000001400000000000000000000000200000024000000080000008a0000001c0000001c0000004000000030000000000000001c0000000100000024000000';
  const data = Uint8Array.from(hex.match(/../g)!, (h) => Number.parseInt(h, 16));
  const struct = STRUCTS[data[0]! % STRUCTS.length]!.name;
  const abi = ABIS[(data[0]! >> 5) & 1]!;
  assert.equal([struct, abi], ['D3D12DDI_NODE_OUTPUT_0108', 'x86']);
  const value = decodeImage(struct, data.subarray(1), abi);
  const json = JSON.stringify(ddiToJson(struct, value));
  assert.equal(JSON.stringify(ddiToJson(struct, decodeImage(struct, encodeImage(struct, value, abi), abi))), json);
  // every list element is its list's own object: no object is an element of two lists
  const owner = new Map<object, unknown[]>();
  const seen = new Set<object>();
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const item of v) {
        if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
          assert.ok(!owner.has(item) || owner.get(item) === v, 'an object is an element of two lists');
          owner.set(item, v);
        }
        walk(item);
      }
    } else for (const x of Object.values(v)) walk(x);
  };
  walk(value);
  assert.ok(owner.size >= 3);
});

test('the image format: struct at 0, targets after it, pointers as offsets, UTF-16LE names', () => {
  const output = ddiFromJson('node-output', {
    FinalName: { Name: 'B', ArrayIndex: 1 }, OutputIndex: 0, NodeIOKind: 'NODE_OUTPUT', NodeIOFlags: [], RecordSizeInBytes: 12,
    bAllowSparseNodes: 0, pRecordDispatchGrid: null, pMaxRecords: 8, pMaxRecordsSharedWithOutputIndex: null, ArraySize: 1, pOutputs: null,
  });
  const image = encodeImage('node-output', output, 'x86');
  const v = new DataView(image.buffer);
  assert.is(v.getUint32(0, true), 48, 'Name points just after the 48-byte struct');
  assert.equal([...image.subarray(48, 52)], [0x42, 0, 0, 0], '"B" NUL-terminated UTF-16LE');
  assert.is(v.getUint32(32, true), 52, 'pMaxRecords');
  assert.is(v.getUint32(52, true), 8);
  assert.is(v.getUint32(36, true), 0, 'NULL');
});

// ---------------------------------------------------------------- validation

const output = (o: Record<string, unknown> = {}) => ({
  FinalName: { Name: 'N', ArrayIndex: 0 }, OutputIndex: 0, NodeIOKind: 'NODE_OUTPUT', NodeIOFlags: [], RecordSizeInBytes: 4,
  bAllowSparseNodes: 0, pRecordDispatchGrid: null, pMaxRecords: 1, pMaxRecordsSharedWithOutputIndex: null, ArraySize: 1, pOutputs: null, ...o,
});
const check = (type: string, json: unknown) => validateDdi(type, ddiFromJson(type, json)).map((v) => [v.code, v.path, v.message]);

test('validation: node output rules', () => {
  const N = 'D3D12DDI_NODE_OUTPUT_0108';
  assert.equal(check('node-output', output()), []);
  assert.equal(check('node-output', output({ ArraySize: 0xffffffff, NodeIOKind: 'NODE_OUTPUT_ARRAY' })), [['unbounded-without-sparse', `${N}.ArraySize`, 'ArraySize 0xFFFFFFFF (unbounded) requires bAllowSparseNodes']]);
  assert.equal(check('node-output', output({ ArraySize: 0xffffffff, NodeIOKind: 'NODE_OUTPUT_ARRAY', bAllowSparseNodes: 1 })), []);
  assert.equal(check('node-output', output({ ArraySize: 0 })), [['array-size-zero', `${N}.ArraySize`, 'ArraySize must be at least 1']]);
  assert.equal(check('node-output', output({ RecordSizeInBytes: 0 })), [['record-size-zero', `${N}.RecordSizeInBytes`, 'RecordSizeInBytes 0 is allowed only for empty outputs']]);
  assert.equal(check('node-output', output({ RecordSizeInBytes: 0, NodeIOKind: 'EMPTY_OUTPUT_ARRAY', ArraySize: 2 })), []);
  assert.equal(check('node-output', output({ pMaxRecords: null })), [['max-records-exactly-one', `${N}.pMaxRecords`, 'exactly one of pMaxRecords and pMaxRecordsSharedWithOutputIndex must be set']]);
  assert.equal(check('node-output', output({ pMaxRecordsSharedWithOutputIndex: 1 })).map((v) => v[0]), ['max-records-exactly-one']);
  assert.equal(check('node-output', output({ NodeIOKind: 'THREAD_NODE_INPUT_RECORD' })).map((v) => v[0]), ['output-kind']);
  assert.equal(check('node-output', output({ NodeIOKind: 99 })).map((v) => v[0]), ['enum-out-of-range', 'output-kind']);
  assert.equal(check('node-output', output({ pRecordDispatchGrid: { ByteOffset: 0, NumComponents: 4, b16BitsPerComponent: 0 } })).map((v) => v[0]), ['dispatch-grid-components']);
});

test('validation: output lists (OutputIndex, shared budgets; list order is not assumed)', () => {
  const props = (outputs: unknown[], o: Record<string, unknown> = {}) => ({
    FinalName: { Name: 'E', ArrayIndex: 0 }, bProgramEntry: 1, InputNodeIOKind: 'EMPTY_INPUT', InputNodeIOFlags: 0, InputRecordSizeInBytes: 0,
    GroupSharedUsageInBytes: 0, MaxRecursionDepth: 0, pLocalRootArgumentsTableIndex: null, pShareInputOfNode: null, pInputNodes: null,
    pNodesSharingInputWithThisNode: null, NumOutputs: outputs.length, pOutputs: outputs.length ? outputs : null, ...o,
  });
  const P = 'D3D12DDI_THREAD_LAUNCH_NODE_PROPERTIES_0108.pOutputs';
  assert.equal(check('thread-launch-node-properties', props([output(), output({ OutputIndex: 1, pMaxRecords: null, pMaxRecordsSharedWithOutputIndex: 0 })])), []);
  assert.equal(check('thread-launch-node-properties', props([output(), output({ OutputIndex: 2 })])), [['output-index', `${P}[1].OutputIndex`, "OutputIndex 2 differs from the output's position 1 in pOutputs"]]);
  assert.equal(check('thread-launch-node-properties', props([output(), output({ OutputIndex: 1, pMaxRecords: null, pMaxRecordsSharedWithOutputIndex: 5 })])), [['shared-index-unknown', `${P}[1].pMaxRecordsSharedWithOutputIndex`, 'pMaxRecordsSharedWithOutputIndex 5 names no other output of this node']]);
  assert.equal(check('thread-launch-node-properties', props([output({ pMaxRecords: null, pMaxRecordsSharedWithOutputIndex: 0 })])).map((v) => v[0]), ['shared-index-unknown']);
  assert.equal(
    check('thread-launch-node-properties', props([output({ pMaxRecords: null, pMaxRecordsSharedWithOutputIndex: 1 }), output({ OutputIndex: 1, pMaxRecords: null, pMaxRecordsSharedWithOutputIndex: 0 })])).map((v) => v[0]),
    ['shared-index-without-budget', 'shared-index-without-budget'],
  );
  // targets listed in any order (AddToStateObject prepends): no violation
  const node = (name: string, index: number) => ({ VersionAdded: 0, NodeType: 'SHADER', Shader: { Shader: name, PropertiesType: 'THREAD_LAUNCH', pProperties: null } });
  const list = { pNode: node('T', 1), pNext: { pNode: node('T', 0), pNext: null } };
  assert.equal(check('thread-launch-node-properties', props([output({ NodeIOKind: 'NODE_OUTPUT_ARRAY', ArraySize: 2, pOutputs: list })])), []);
  const grid = check('broadcasting-launch-node-properties', { ...props([]), pDispatchGrid: [65536, 1, 1], pMaxDispatchGrid: [4096, 4096, 2], pRecordDispatchGrid: null });
  assert.equal(grid.map((v) => [v[0], v[1]]), [['dispatch-grid-limit', 'D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108.pDispatchGrid'], ['dispatch-grid-limit', 'D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108.pMaxDispatchGrid']]);
});

test('validation: render passes with PRESERVE_LOCAL accesses', () => {
  const pass = (begin: string, end: string, bw = 0, bh = 0, ew = 0, eh = 0) => ({
    BeginningAccess: { Type: begin, PreserveLocal: { AdditionalWidth: bw, AdditionalHeight: bh } },
    EndingAccess: { Type: end, PreserveLocal: { AdditionalWidth: ew, AdditionalHeight: eh } },
  });
  const run = (passes: unknown[]) => validateRenderPasses(renderPassesFromJson({ passes })).map((v) => [v.code, v.path, v.message]);
  assert.equal(run([pass('CLEAR', 'PRESERVE_LOCAL_SRV', 0, 0, 1, 2), pass('PRESERVE_LOCAL_SRV', 'PRESERVE', 1, 2)]), []);
  assert.equal(run([pass('CLEAR', 'PRESERVE_LOCAL_RENDER', 0, 0, 1, 0), pass('PRESERVE_LOCAL_RENDER', 'PRESERVE', 1, 0)]).map((v) => v[0]), ['preserve-local-render-border', 'preserve-local-render-border']);
  assert.equal(run([pass('CLEAR', 'PRESERVE_LOCAL_SRV', 0, 0, 1, 2), pass('PRESERVE_LOCAL_UAV', 'PRESERVE', 1, 2)]), [['preserve-local-unpaired', 'passes[1].BeginningAccess.Type', 'pass 0 ends with PRESERVE_LOCAL_SRV but pass 1 begins with PRESERVE_LOCAL_UAV']]);
  assert.equal(run([pass('CLEAR', 'PRESERVE_LOCAL_UAV', 0, 0, 1, 2), pass('PRESERVE_LOCAL_UAV', 'PRESERVE', 2, 1)]), [['preserve-local-parameters-differ', 'passes[1].BeginningAccess.PreserveLocal', 'pass 0 ends with border 1x2 but pass 1 begins with border 2x1']]);
  assert.equal(run([pass('CLEAR', 'PRESERVE_LOCAL_UAV')]).map((v) => v[0]), ['preserve-local-at-end']);
  assert.equal(run([{ BeginningAccess: { Type: 7 }, EndingAccess: { Type: 'PRESERVE' } }]).map((v) => v[0]), ['enum-out-of-range']);
});

// ---------------------------------------------------------------- work-graph libraries

/**
 * What the HLSL sources say (HansKristian-Work/vkd3d-proton tests/shaders/workgraph/*.lib_6_8*.hlsl,
 * all sixteen read with the search tool and transcribed here by hand).
 * Per node: its ID and its outputs as [target, index, kind, record bytes, MaxRecords | 'shared:N',
 * ArraySize, sparse, SV_DispatchGrid, flags].
 */
type Out = [string, number, string, number, number | string, number, 0 | 1, 0 | 1, number];
const NO: Out[] = [];
const hlsl: Record<string, Record<string, [string, number, Out[]]>> = {
  basic: { BroadcastNode: ['BroadcastNode', 0, NO] },
  broadcast_custom_input: { BroadcastNode: ['BroadcastNode', 0, NO] },
  broadcast_custom_input_u16_2: { BroadcastNode: ['BroadcastNode', 0, NO] },
  broadcast_custom_input_uint2: { BroadcastNode: ['BroadcastNode', 0, NO] },
  broadcast_custom_input_uint: { BroadcastNode: ['BroadcastNode', 0, NO] },
  coalesce_custom_input: { CoalesceNode: ['CoalesceNode', 0, NO] },
  thread_custom_input: { ThreadNode: ['ThreadNode', 0, NO] },
  basic_recursion: {
    EntryNode: ['EntryNode', 0, [['Recursive', 0, 'NODE_OUTPUT', 4, 2, 1, 0, 0, 0]]],
    Recursive: ['Recursive', 0, [['Recursive', 0, 'NODE_OUTPUT', 4, 2, 1, 0, 0, 0]]],
  },
  cross_group_sharing: {
    EntryNode: ['EntryNode', 0, [['Broadcast', 0, 'NODE_OUTPUT_ARRAY', 8, 2, 2, 0, 1, 0x100]]],
    Broadcast0: ['Broadcast', 0, NO],
    Broadcast1: ['Broadcast', 1, NO],
  },
  local_root_signature: {
    EntryNode: ['EntryNode', 0, [['A', 0, 'EMPTY_OUTPUT', 0, 64, 1, 0, 0, 0], ['B', 0, 'EMPTY_OUTPUT', 0, 64, 1, 0, 0, 0]]],
    A: ['A', 0, NO],
    B: ['B', 0, NO],
  },
  shared_inputs: {
    EntryNode: ['EntryNode', 0, [['Broadcast', 0, 'NODE_OUTPUT', 8, 1, 1, 0, 1, 0]]],
    Broadcast: ['Broadcast', 0, NO],
    TappedInput: ['TappedInput', 0, NO],
  },
  two_level_broadcast: {
    EntryNode: ['EntryNode', 0, [['Broadcast0', 0, 'NODE_OUTPUT', 12, 8, 1, 0, 1, 0], ['Broadcast1', 0, 'NODE_OUTPUT', 12, 8, 1, 0, 1, 0]]],
    Broadcast0: ['Broadcast0', 0, NO],
    Broadcast1: ['Broadcast1', 0, NO],
  },
  two_level_broadcast_node_array: {
    EntryNode: ['EntryNode', 0, [['B', 0, 'NODE_OUTPUT_ARRAY', 12, 8, 2, 0, 1, 0]]],
    Broadcast0: ['B', 0, NO],
    Broadcast1: ['B', 1, NO],
  },
  two_level_empty_node: {
    EntryNode: [
      'EntryNode',
      0,
      [
        ['A', 0, 'EMPTY_OUTPUT', 0, 16, 1, 0, 0, 0],
        ['B', 0, 'EMPTY_OUTPUT', 0, 16, 1, 0, 0, 0],
        ['C', 0, 'EMPTY_OUTPUT_ARRAY', 0, 16, 2, 0, 0, 0],
        ['D', 0, 'EMPTY_OUTPUT_ARRAY', 0, 16, 2, 0, 0, 0],
        ['E', 0, 'EMPTY_OUTPUT_ARRAY', 0, 16, 4, 1, 0, 0],
        ['F', 0, 'EMPTY_OUTPUT_ARRAY', 0, 16, 4, 1, 0, 0],
        ['G', 0, 'EMPTY_OUTPUT_ARRAY', 0, 16, 0xffffffff, 1, 0, 0],
        ['H', 0, 'EMPTY_OUTPUT_ARRAY', 0, 16, 0xffffffff, 1, 0, 0],
      ],
    ],
    A: ['A', 0, NO], B: ['B', 0, NO], C0: ['C', 0, NO], C1: ['C', 1, NO], D0: ['D', 0, NO], D1: ['D', 1, NO],
    E0: ['E', 1, NO], E1: ['E', 3, NO], F0: ['F', 1, NO], F1: ['F', 3, NO], G0: ['G', 7, NO], G1: ['G', 8, NO], H0: ['H', 7, NO], H1: ['H', 8, NO],
  },
  two_level_thread: {
    EntryNode: ['EntryNode', 0, [['Thread0', 0, 'NODE_OUTPUT', 8, 256, 1, 0, 0, 0], ['Thread1', 0, 'NODE_OUTPUT', 8, 'shared:0', 1, 0, 0, 0]]],
    Thread0: ['Thread0', 0, NO],
    Thread1: ['Thread1', 0, NO],
  },
  two_level_thread_node_array: {
    EntryNode: ['EntryNode', 0, [['T', 0, 'NODE_OUTPUT_ARRAY', 8, 256, 2, 0, 0, 0]]],
    Thread0: ['T', 0, NO],
    Thread1: ['T', 1, NO],
  },
};

test('every work-graph library: the node outputs read from RDAT agree with the HLSL source', () => {
  assert.is(Object.keys(hlsl).length, 16);
  for (const [lib, nodes] of Object.entries(hlsl)) {
    const container = parseContainer(corpusFile(`shaders/vkd3d-proton/${lib}_code_dxil.dxil`));
    const found = new RdatReader(container.parts.find((p) => p.name === 'RDAT')!.data).nodes();
    assert.equal(found.map((n) => n.exportName).sort(), Object.keys(nodes).sort(), `${lib}: nodes`);
    for (const n of found) {
      const [id, index, outs] = nodes[n.exportName]!;
      assert.equal(n.id, { Name: id, ArrayIndex: index }, `${lib} ${n.exportName}: node id`);
      const got = n.outputs.map((o): Out => {
        const j = ddiToJson('node-output', o) as Record<string, unknown>;
        const name = o.FinalName as { Name: string; ArrayIndex: number };
        return [name.Name, name.ArrayIndex, j.NodeIOKind as string, o.RecordSizeInBytes as number, o.pMaxRecords !== null ? (o.pMaxRecords as number) : `shared:${o.pMaxRecordsSharedWithOutputIndex as number}`, o.ArraySize as number, o.bAllowSparseNodes as 0 | 1, o.pRecordDispatchGrid ? 1 : 0, o.NodeIOFlags as number];
      });
      assert.equal(got, outs, `${lib} ${n.exportName}: outputs`);
      n.outputs.forEach((o, i) => assert.is(o.OutputIndex, i));
      assert.equal(validateDdi('thread-launch-node-properties', { ...(ddiFromJson('thread-launch-node-properties', { FinalName: { Name: id, ArrayIndex: index }, bProgramEntry: 0, InputNodeIOKind: 'EMPTY_INPUT', InputNodeIOFlags: 0, InputRecordSizeInBytes: 0, GroupSharedUsageInBytes: 0, MaxRecursionDepth: 0, pLocalRootArgumentsTableIndex: null, pShareInputOfNode: null, pInputNodes: null, pNodesSharingInputWithThisNode: null, NumOutputs: 0, pOutputs: null }) as DdiObject), NumOutputs: n.outputs.length, pOutputs: n.outputs.length ? n.outputs : null }), [], `${lib} ${n.exportName}: valid`);
    }
  }
});

test('node reports read ShaderKind, AttribKind and LaunchType as describeLibrary does: the stored number or the name of its table in place (a name beside is not needed), anything else a DescriptionError naming the field', () => {
  /** The decoded description with each enumerated field respelled: `names` the table's name in place, else the number alone; the `<key>Name` beside removed. */
  const respelled = (rdat: RdatDescription, names: boolean): RdatDescription => {
    const copy = structuredClone(rdat) as unknown as { parts: { records?: Record<string, unknown>[] }[] };
    for (const part of copy.parts) {
      for (const rec of part.records ?? []) {
        for (const key of ['ShaderKind', 'AttribKind', 'LaunchType']) {
          if (!(`${key}Name` in rec)) continue;
          if (names) rec[key] = rec[`${key}Name`];
          delete rec[`${key}Name`];
        }
      }
    }
    return copy as unknown as RdatDescription;
  };
  const reports = (rdat: RdatDescription) => nodeReports(rdat, Budget.for(1 << 20));
  let nodes = 0;
  for (const lib of Object.keys(hlsl)) {
    const rdat = decodeRdat(parseContainer(corpusFile(`shaders/vkd3d-proton/${lib}_code_dxil.dxil`)).parts.find((p) => p.name === 'RDAT')!.data);
    const want = reports(rdat);
    nodes += want.length;
    for (const names of [true, false]) {
      const other = respelled(rdat, names);
      assert.equal(reports(other), want, `${lib}: ${names ? 'names in place' : 'numbers alone'}`);
      assert.equal(describeLibrary(other).exports.map((e) => [e.kind, e.localRootArgumentsTableIndex]), describeLibrary(rdat).exports.map((e) => [e.kind, e.localRootArgumentsTableIndex]), `${lib}: describeLibrary`);
    }
  }
  assert.is(nodes, Object.values(hlsl).reduce((n, l) => n + Object.keys(l).length, 0)); // every node of the HLSL table above
  // anything but a number or a name of the table: refused by both readers, naming the field
  const rdat = respelled(decodeRdat(parseContainer(corpusFile('shaders/vkd3d-proton/two_level_thread_node_array_code_dxil.dxil')).parts.find((p) => p.name === 'RDAT')!.data), true);
  const table = (name: string) => (rdat.parts as unknown as { type: string; records: Record<string, unknown>[] }[]).find((p) => p.type === name)!.records;
  const refused = (read: () => unknown, code: string, path: string) =>
    assert.throws(read, (e: unknown) => e instanceof DescriptionError && e.code === code && e.path === path && !/TypeError/.test(e.message), `${code} ${path}`);
  const fn = table('FunctionTable').findIndex((f) => f.ShaderKind === 'Node');
  for (const [bad, code] of [['node', 'bad-name'], ['Nod', 'bad-name'], [true, 'bad-type'], [undefined, 'bad-type'], [1.5, 'bad-type']] as const) {
    const saved = table('FunctionTable')[fn]!.ShaderKind;
    table('FunctionTable')[fn]!.ShaderKind = bad;
    refused(() => reports(rdat), code, `RDAT.FunctionTable[${fn}].ShaderKind`);
    refused(() => describeLibrary(rdat), code, `RDAT.FunctionTable[${fn}].ShaderKind`);
    table('FunctionTable')[fn]!.ShaderKind = saved;
  }
  // the first attribute of the first output a node has
  const io = table('NodeShaderInfoTable').flatMap((n) => n.Outputs as number[]).map((o) => (table('IONodeTable')[o]!.Attribs as number[])[0]!)[0]!;
  const kept = table('NodeShaderIOAttribTable')[io]!.AttribKind;
  table('NodeShaderIOAttribTable')[io]!.AttribKind = 'Maxrecords';
  refused(() => reports(rdat), 'bad-name', `RDAT.NodeShaderIOAttribTable[${io}].AttribKind`);
  table('NodeShaderIOAttribTable')[io]!.AttribKind = kept;
  table('NodeShaderFuncAttribTable')[0]!.AttribKind = {};
  refused(() => reports(rdat), 'bad-type', 'RDAT.NodeShaderFuncAttribTable[0].AttribKind');
});

test('RDAT record dispatch grid: offset, component count and 16-bit components', () => {
  const lib = parseContainer(corpusFile('shaders/vkd3d-proton/cross_group_sharing_code_dxil.dxil'));
  const out = new RdatReader(lib.parts.find((p) => p.name === 'RDAT')!.data).nodes().find((n) => n.exportName === 'EntryNode')!.outputs[0]!;
  assert.equal(out.pRecordDispatchGrid, { ByteOffset: 0, NumComponents: 1, b16BitsPerComponent: 0 });
});

test.run();
