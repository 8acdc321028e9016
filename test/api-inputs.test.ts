/**
 * Every public function and class of every entry point (dxbin, dxbin/ddi, dxbin/inspect,
 * dxbin/query, dxbin/fuzz), called with null, undefined, 42, 'x' and {} as each of its first three
 * arguments in turn (the others left undefined), returns or throws a DxbinError subclass: never a
 * TypeError, RangeError or plain Error from deep inside (the contract of src/bytes/errors.ts).
 * Then the functions of several arguments again, each argument wrong in turn with the others valid.
 * Then the typed errors themselves for the fixed entries: codes, paths and the known names listed.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as main from '../src/index.js';
import * as ddi from '../src/ddi/index.js';
import * as inspect from '../src/inspect/index.js';
import * as query from '../src/query/index.js';
import * as fuzz from '../src/fuzz/index.js';
import { DescriptionError, DxbinError } from '../src/index.js';
import { corpusFile } from './helpers/corpus.js';

const ENTRIES: Record<string, Record<string, unknown>> = { dxbin: main, 'dxbin/ddi': ddi, 'dxbin/inspect': inspect, 'dxbin/query': query, 'dxbin/fuzz': fuzz };
const VALUES: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['42', 42],
  ["'x'", 'x'],
  ['{}', {}],
];
const POSITIONS = 3;

/**
 * Calls left out, each with its reason: `entry.name` -> the `argN=value` calls skipped (`*` for all).
 * Everything else must answer with a DxbinError or not throw.
 */
const SKIPPED: Record<string, { calls: readonly string[]; reason: string }> = {
  // coverageBuild() and coverageBuild('x') are valid calls: they build the instrumented copy of the
  // sources (slow, and 'x' writes a folder x/). Its other arguments are ignored, so only a wrong
  // type in the first one is tried.
  'dxbin/fuzz.coverageBuild': { calls: ['arg0=undefined', "arg0='x'", 'arg1=*', 'arg2=*'], reason: 'valid calls that build' },
  // buildVkd3dHarness() and buildVkd3dHarness('x') are valid calls: they compile the vkd3d harness
  // (into the cache folder, or into x/); its other arguments are ignored, as coverageBuild's.
  'dxbin/fuzz.buildVkd3dHarness': { calls: ['arg0=undefined', "arg0='x'", 'arg1=*', 'arg2=*'], reason: 'valid calls that build' },
};

function skipped(key: string, call: string): boolean {
  const calls = SKIPPED[key]?.calls ?? [];
  return calls.includes(call) || calls.includes(`${call.split('=')[0]}=*`);
}

const isClass = (fn: Function) => /^class\b/.test(Function.prototype.toString.call(fn));

/** A thrown value (or a rejection within 10 s) that is not a DxbinError, described; undefined when fine. */
async function misbehaviour(call: () => unknown): Promise<string | undefined> {
  const describe = (e: unknown) => (e instanceof DxbinError ? undefined : e instanceof Error ? `${e.name}: ${e.message}` : `threw ${String(e)}`);
  let result: unknown;
  try {
    result = call();
  } catch (e) {
    return describe(e);
  }
  if (result instanceof Promise) {
    const settled = result.then(
      () => undefined,
      (e: unknown) => describe(e),
    );
    let expire = () => {};
    const timeout = new Promise<string>((resolve) => (expire = () => resolve('no answer within 10 s')));
    const timer = setTimeout(() => expire(), 10_000);
    const outcome = await Promise.race([settled, timeout]);
    clearTimeout(timer);
    return outcome;
  }
  return undefined;
}

test('no public function or class of any entry point throws a non-dxbin error for null, undefined, 42, "x" or {}', async () => {
  const problems: string[] = [];
  let calls = 0;
  for (const [entry, mod] of Object.entries(ENTRIES)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      const key = `${entry}.${name}`;
      const fn = value as (...args: unknown[]) => unknown;
      const construct = isClass(fn);
      for (let i = 0; i < POSITIONS; i++) {
        for (const [label, v] of VALUES) {
          const call = `arg${i}=${label}`;
          if (skipped(key, call)) continue;
          const args: unknown[] = [];
          args[i] = v;
          calls++;
          const bad = await misbehaviour(() => (construct ? new (fn as unknown as new (...a: unknown[]) => unknown)(...args) : fn(...args)));
          if (bad !== undefined) problems.push(`${key}(${call}): ${bad.split('\n')[0]}`);
        }
      }
    }
  }
  assert.ok(calls > 1000, `only ${calls} calls: the entry points lost their exports?`);
  assert.equal(problems, []);
});

test('every allowlisted function still exists (the allowlist names real exports)', () => {
  for (const key of Object.keys(SKIPPED)) {
    const at = key.lastIndexOf('.');
    assert.type(ENTRIES[key.slice(0, at)]?.[key.slice(at + 1)], 'function', key);
  }
});

/**
 * Functions with more than one argument, each with arguments that work: each argument in turn is
 * replaced by null, undefined, 42, 'x', {} and [] with the others left valid, so the checks of the
 * later arguments (options, names, maps) are reached too.
 */
function validCalls(): Record<string, unknown[]> {
  const rs = { version: 2, flags: 0, parameters: [{ parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: 1, baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0 }] }], staticSamplers: [] } as main.RootSignature;
  const rts0 = main.encodeRootSignature(rs).slice();
  const container = main.rootSignatureContainer(rts0).slice();
  const parsed = main.parseContainer(container);
  const stamps = new Uint8Array(32);
  const map = inspect.byteMap(rts0);
  const picture = inspect.timingPicture(stamps, { frequency: 1e9 });
  // a structure whose all-zero image decodes (no pointer that may not be NULL)
  const struct = ddi.STRUCTS.map((d) => d.cli).find((n) => {
    try {
      ddi.decodeImage(n, new Uint8Array(256), 'x64');
      return true;
    } catch {
      return false;
    }
  })!;
  const value = ddi.decodeImage(struct, new Uint8Array(256), 'x64');
  const lib = corpusFile('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil').slice();
  const nodeLib = corpusFile('shaders/vkd3d-proton/two_level_thread_node_array_code_dxil.dxil').slice();
  const libRdat = main.readLibraryRdat(lib);
  const rdatBytes = main.findPart(libRdat.container, 'RDAT')!.data.slice();
  const library = main.describeLibrary(libRdat.rdat);
  return {
    'dxbin.decodeRdat': [rdatBytes, 0, {}],
    'dxbin.encodeRdat': [libRdat.rdat],
    'dxbin.readLibraryRdat': [lib, {}],
    'dxbin.describeLibrary': [libRdat.rdat],
    'dxbin.libraryLines': [library, {}],
    'dxbin.libraryJson': [library, (rs: unknown) => rs, {}],
    'dxbin.subobjectRootSignatures': [lib],
    'dxbin.withSubobjectRootSignatures': [lib, new Map()],
    'dxbin.withRdat': [lib, libRdat.rdat],
    'dxbin.suggestLibraryRootSignatures': [[library], {}],
    'dxbin.verifyStateObject': [[{ name: 'lib', bytes: lib }], {}],
    'dxbin.printable': ['x', {}],
    'dxbin.hlslIdentifier': ['x', 'name'],
    'dxbin/ddi.libraryNodeOutputs': [nodeLib, {}],
    'dxbin/ddi.RdatReader': [main.findPart(main.parseContainer(nodeLib), 'RDAT')!.data.slice(), 0, {}],
    'dxbin.convertRootSignature': [rs, 3, {}],
    'dxbin.validateRootSignature': [rs, {}],
    'dxbin.printRootSignature': [rs, {}],
    'dxbin.printRootSignatureDefine': ['RS', rs, {}],
    'dxbin.decodeRootSignature': [rts0, {}],
    'dxbin.readRootSignature': [rts0, {}],
    'dxbin.verifyBindings': [0, [], rs],
    'dxbin.withRootSignature': [parsed, rts0, 'append'],
    'dxbin.writeContainer': [parsed, 'compute'],
    'dxbin.rootSignatureContainer': [rts0, 'compute'],
    'dxbin.writeEdited': [parsed, parsed, container],
    'dxbin.editedDigest': [parsed, container],
    'dxbin.withoutPart': [parsed, 'RTS0'],
    'dxbin.compileRootSignature': ['RootFlags(0)', {}],
    'dxbin.compileRootSignatureBlob': ['RootFlags(0)', {}],
    'dxbin.parseRootSignature': ['RootFlags(0)', {}],
    'dxbin.suggestRootSignature': [[{ stage: 0, bindings: [] }], {}],
    'dxbin.parseContainer': [container, {}],
    'dxbin.modifiedMd5Into': [new Uint8Array(4), new Uint8Array(16), 0],
    'dxbin.digestStatus': [new Uint8Array(16), new Uint8Array(16)],
    'dxbin.equalBytes': [new Uint8Array(1), new Uint8Array(1)],
    'dxbin.partDataOffset': [parsed, 0],
    'dxbin.findPart': [parsed, 'RTS0'],
    'dxbin.formatViolation': [{ code: 'x', message: 'm' }, 's'],
    'dxbin.HlslFile': ['x', {}],
    'dxbin/ddi.encodeImage': [struct, value, 'x64'],
    'dxbin/ddi.decodeImage': [struct, new Uint8Array(256), 'x64', {}],
    'dxbin/ddi.ddiToJson': [struct, value, {}],
    'dxbin/ddi.ddiFromJson': [struct, ddi.ddiToJson(struct, value)],
    'dxbin/ddi.validateDdi': [struct, value],
    'dxbin/ddi.structLayout': [struct, 'x64'],
    'dxbin/inspect.hexDump': [rts0, map, {}],
    'dxbin/inspect.hexHtml': [rts0, map, 't'],
    'dxbin/inspect.byteMap': [rts0, {}],
    'dxbin/inspect.spansAt': [map, 0],
    'dxbin/inspect.enumName': [[['A', 1]], 1],
    'dxbin/inspect.flagNames': [[['A', 1]], 1],
    'dxbin/inspect.timingPicture': [stamps, { frequency: 1e9 }],
    'dxbin/inspect.timingsSvg': [picture, 't'],
    'dxbin/inspect.timingsSvgTree': [picture, 't'],
    'dxbin/query.decodeQueryResult': [stamps, 'timestamp', 0],
    'dxbin/query.decodeQueryResults': [stamps, 'timestamp', {}],
    'dxbin/query.encodeQueryResults': ['timestamp', [{ Value: 1n }]],
    'dxbin/query.timestampDurations': [stamps, { frequency: 1e9 }],
    'dxbin/query.sumQueryResults': [stamps, 'occlusion', {}],
    'dxbin/query.deltaQueryResults': [stamps, stamps, 'occlusion', query.kernels('js')],
    'dxbin/query.soOverflow': [stamps, {}],
    'dxbin/query.occlusionToBinary': [stamps, {}],
    'dxbin/query.gatherVirtualQueries': [stamps, 'occlusion', [], { heads: 0, dstCount: 1 }],
    'dxbin/fuzz.mutate': [rts0, 'rts0', 1],
    'dxbin/fuzz.minimize': [rts0, () => false, 10],
    'dxbin/fuzz.shardOf': [[1, 2], { index: 0, count: 2 }],
    'dxbin/fuzz.parseShard': ['0/2', {}],
    'dxbin/fuzz.runOne': [fuzz.fuzzTarget('rts0'), rts0],
    'dxbin/fuzz.jazzerTarget': ['rts0', (t: unknown) => t],
  };
}

/** Calls of validCalls() left out, with the reason (as SKIPPED). */
const SKIPPED_VALID: Record<string, { calls: readonly string[]; reason: string }> = {};

test('with the other arguments valid, each argument of the wrong type is still a dxbin error', async () => {
  const problems: string[] = [];
  for (const [key, valid] of Object.entries(validCalls())) {
    const at = key.lastIndexOf('.');
    const fn = ENTRIES[key.slice(0, at)]?.[key.slice(at + 1)] as ((...args: unknown[]) => unknown) | undefined;
    assert.type(fn, 'function', key);
    const invoke = (args: unknown[]) => (isClass(fn!) ? new (fn as unknown as new (...a: unknown[]) => unknown)(...args) : fn!(...args));
    const fine = await misbehaviour(() => invoke(valid));
    assert.is(fine, undefined, `${key} with its valid arguments`);
    for (let i = 0; i < valid.length; i++) {
      for (const [label, v] of [...VALUES, ['[]', []] as [string, unknown]]) {
        const call = `arg${i}=${label}`;
        if (SKIPPED_VALID[key]?.calls.includes(call)) continue;
        const args = [...valid];
        args[i] = v;
        const bad = await misbehaviour(() => invoke(args));
        if (bad !== undefined) problems.push(`${key}(${call}): ${bad.split('\n')[0]}`);
      }
    }
  }
  assert.equal(problems, []);
});

function throwsDescription(fn: () => unknown, code: string, path: string, message?: RegExp) {
  try {
    fn();
  } catch (e) {
    assert.instance(e, DescriptionError, `${path}: ${String(e)}`);
    assert.is((e as DescriptionError).code, code, path);
    assert.is((e as DescriptionError).path, path);
    if (message) assert.match((e as Error).message, message);
    return;
  }
  assert.unreachable(`expected DescriptionError ${code} at ${path}`);
}

test('rootCost and suggestRootSignature: bad-type naming the argument or field', () => {
  throwsDescription(() => main.rootCost(null as never), 'bad-type', 'RTS0', /^RTS0: expected an object, got null$/);
  throwsDescription(() => main.rootCost({ version: 2, flags: 0, staticSamplers: [] } as never), 'bad-type', 'RTS0.parameters');
  throwsDescription(() => main.suggestRootSignature(null as never), 'bad-type', 'shaders', /^shaders: expected an array, got null$/);
  throwsDescription(() => main.suggestRootSignature([null as never]), 'bad-type', 'shaders[0]');
  throwsDescription(() => main.suggestRootSignature([{ stage: 0, bindings: 'x' as never }]), 'bad-type', 'shaders[0].bindings');
  throwsDescription(() => main.suggestRootSignature([{ stage: 0, bindings: [null as never] }]), 'bad-type', 'shaders[0].bindings[0]');
  throwsDescription(() => main.suggestRootSignature([], null as never), 'bad-type', 'options');
  assert.is(main.rootCost(main.suggestRootSignature([{ stage: 0, bindings: [] }])), 0);
});

test('dxbin/ddi: an unknown structure is bad-name listing the known ones; wrong values are bad-type with the path', () => {
  const known = ddi.STRUCTS.map((s) => s.cli).join(', ');
  const name = ddi.STRUCTS[0]!.cli;
  for (const call of [() => ddi.structDef('nope'), () => ddi.encodeImage('nope', {}, 'x64'), () => ddi.decodeImage('nope', new Uint8Array(8), 'x64'), () => ddi.ddiToJson('nope', {}), () => ddi.ddiFromJson('nope', {}), () => ddi.validateDdi('nope', {}), () => ddi.structLayout('nope', 'x64')]) {
    throwsDescription(call, 'bad-name', 'type', new RegExp(`^type: unknown structure "nope" \\(known: ${known}\\)$`));
  }
  throwsDescription(() => ddi.validateDdi(null as never, {}), 'bad-type', 'type', new RegExp(`^type: expected a structure name, got null \\(known: ${known}\\)$`));
  throwsDescription(() => ddi.structLayout(name, 'arm' as never), 'bad-name', 'abi', /^abi: unknown ABI "arm" \(known: x64, x86\)$/);
  throwsDescription(() => ddi.decodeImage(name, new Uint8Array(64), null as never), 'bad-name', 'abi');
  const root = ddi.structDef(name).name;
  throwsDescription(() => ddi.validateDdi(name, null as never), 'bad-type', root);
  throwsDescription(() => ddi.ddiToJson(name, 42 as never), 'bad-type', root);
  throwsDescription(() => ddi.ddiToJson(name, {}, null as never), 'bad-type', 'options');
  throwsDescription(() => ddi.decodeImage(name, new Uint8Array(64), 'x64', null as never), 'bad-type', 'options');
  throwsDescription(() => ddi.validateRenderPasses(null as never), 'bad-type', 'passes');
  throwsDescription(() => ddi.validateRenderPasses([{ BeginningAccess: null, EndingAccess: {} } as never]), 'bad-type', 'passes[0].BeginningAccess');
});

test('dxbin/inspect: helpers refuse the wrong types naming the argument', () => {
  const map = inspect.byteMap(main.encodeRootSignature({ version: 2, flags: 0, parameters: [], staticSamplers: [] }));
  throwsDescription(() => inspect.hexDump(null as never, map), 'bad-type', 'bytes');
  throwsDescription(() => inspect.hexDump(new Uint8Array(24), null as never), 'bad-type', 'map');
  throwsDescription(() => inspect.hexDump(new Uint8Array(24), { ...map, spans: [null as never] }), 'bad-type', 'map.spans[0]');
  throwsDescription(() => inspect.hexHtml(new Uint8Array(24), map, undefined as never), 'bad-type', 'title');
  throwsDescription(() => inspect.escapeHtml(null as never), 'bad-type', 'text', /^text: expected a string, got null$/);
  throwsDescription(() => inspect.byteMap(new Uint8Array(24), null as never), 'bad-type', 'options');
  throwsDescription(() => inspect.formatNs('1' as never), 'bad-type', 'ns');
  throwsDescription(() => inspect.timingsSvg({} as never), 'bad-type', 'picture.histogram');
  throwsDescription(() => inspect.svgText({ tag: 'g', attrs: {}, children: [null as never] }), 'bad-type', 'node.children[0]');
  throwsDescription(() => inspect.timingPicture(new Uint8Array(16), null as never), 'bad-type', 'options');
  assert.is(inspect.escapeHtml('<a>'), '&#60;a&#62;');
  assert.equal(inspect.hexDump(new Uint8Array(24), map).length > 0, true);
});

test('dxbin/query: wrong types are bad-type naming the argument; a type that is no row is refused', () => {
  throwsDescription(() => query.decodeQueryResults(null as never, 'timestamp'), 'bad-type', 'bytes');
  throwsDescription(() => query.decodeQueryResult(new Uint8Array(8), null as never), 'bad-type', 'type');
  throwsDescription(() => query.decodeQueryResults(new Uint8Array(8), {} as never), 'bad-type', 'type');
  throwsDescription(() => query.decodeQueryResults(new Uint8Array(8), 'timestamp', null as never), 'bad-type', 'range');
  throwsDescription(() => query.timestampDurations(new Uint8Array(16), null as never), 'bad-type', 'options');
  throwsDescription(() => query.timestampDurations(new Uint8Array(16), { frequency: 1, kernels: {} as never }), 'bad-type', 'options.kernels');
  throwsDescription(() => query.summarizeDurations(null as never), 'bad-type', 'durations');
  throwsDescription(() => query.sumQueryResults(new Uint8Array(8), 'occlusion', null as never), 'bad-type', 'range');
  throwsDescription(() => query.deltaQueryResults(new Uint8Array(8), null as never, 'occlusion'), 'bad-type', 'b');
  throwsDescription(() => query.soOverflow(undefined as never), 'bad-type', 'bytes');
  throwsDescription(() => query.packQueryMap([null as never]), 'bad-type', 'entries[0]');
  throwsDescription(() => query.gatherVirtualQueries(new Uint8Array(8), 'occlusion', [], null as never), 'bad-type', 'options');
  throwsDescription(() => query.toFloat64([1n] as never), 'bad-type', 'column');
  throwsDescription(() => query.encodeQueryResults('occlusion', null as never), 'bad-type', 'data');
  throwsDescription(() => new query.WasmKernels('simd', {} as never), 'bad-type', 'module');
  assert.equal(query.sumQueryResults(new Uint8Array(8), query.QUERY_TYPES.find((q) => q.name === 'OCCLUSION')!), { Value: 0n });
});

/** Nested wrong shapes: arrays of records holding null, numbers, empty records; a container whose parts hold null; an options object whose every usual key is a bigint. */
const POISONED_OPTIONS: Record<string, unknown> = Object.fromEntries(
  ['base', 'stage', 'rdef', 'rdefBase', 'mode', 'format', 'version', 'validate', 'target', 'color', 'from', 'to', 'rootDescriptors', 'maxDepth', 'multiline', 'type', 'abi', 'frequency', 'kernels', 'limits', 'range', 'trailing', 'resources', 'parts', 'bindings', 'info', 'stringTable', 'name', 'data', 'spans', 'length'].map((k) => [k, 1n]),
);
const NESTED: [string, unknown][] = [
  ['[null]', [null]],
  ['[42]', [42]],
  ['[{}]', [{}]],
  ['[[]]', [[]]],
  ['{parts: [null]}', { parts: [null] }],
  ['{bigint options}', POISONED_OPTIONS],
  ['[{stage: 0, bindings: [null]}]', [{ stage: 0, bindings: [null] }]],
];

test('no public function or class throws a non-dxbin error for nested wrong shapes in any of its first three arguments', async () => {
  const problems: string[] = [];
  for (const [entry, mod] of Object.entries(ENTRIES)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      const key = `${entry}.${name}`;
      const fn = value as (...args: unknown[]) => unknown;
      for (let i = 0; i < POSITIONS; i++) {
        for (const [label, v] of NESTED) {
          if (skipped(key, `arg${i}=${label}`) || skipped(key, `arg${i}=*`) || key === 'dxbin/fuzz.coverageBuild') continue;
          const args: unknown[] = [];
          args[i] = v;
          const bad = await misbehaviour(() => (isClass(fn) ? new (fn as unknown as new (...a: unknown[]) => unknown)(...args) : fn(...args)));
          if (bad !== undefined) problems.push(`${key}(arg${i}=${label}): ${bad.split('\n')[0]}`);
        }
      }
    }
  }
  assert.equal(problems, []);
});

test('nested shapes with the other arguments valid: typed errors naming the element and field (issue 20 class 8)', () => {
  const rs = { version: 2, flags: 0, parameters: [], staticSamplers: [] } as main.RootSignature;
  const shex = new Uint8Array(8);
  new DataView(shex.buffer).setUint32(0, 0x00000050, true);
  new DataView(shex.buffer).setUint32(4, 2, true);
  throwsDescription(() => main.readDxbcProgram(shex, { rdef: 42 } as never), 'bad-type', 'options.rdef');
  throwsDescription(() => main.readDxbcProgram(shex, { base: 'x' } as never), 'bad-type', 'options.base');
  throwsDescription(() => main.verifyBindings(0, [null] as never, rs), 'bad-type', 'bindings[0]');
  throwsDescription(() => main.verifyBindings(0, [{ resType: 2, space: 0, lowerBound: 0n, upperBound: 0, offset: 0 }] as never, rs), 'bad-type', 'bindings[0].lowerBound');
  throwsDescription(() => main.verifyBindings(0, [{ resType: 2, space: 0, lowerBound: 0, upperBound: 0, offset: 0, name: 7 }] as never, rs), 'bad-type', 'bindings[0].name');
  throwsDescription(() => main.verifyBindings('0' as never, [], rs), 'bad-type', 'stage');
  const psv = main.decodePsv0(Uint8Array.of(24, 0, 0, 0, ...new Uint8Array(24), 0, 0, 0, 0), { stage: 0 });
  throwsDescription(() => main.encodePsv0({ ...psv, resources: [null as never] }), 'bad-type', 'PSV0.resources[0]');
  throwsDescription(() => main.encodePsv0({ ...psv, trailing: 'x' as never }), 'bad-type', 'PSV0.trailing');
  throwsDescription(() => main.encodePsv0({ ...psv, inputElements: [null as never] }), 'bad-type', 'PSV0.inputElements[0]');
  throwsDescription(() => main.encodePsv0({ ...psv, dependencies: [{ key: 'x', stream: 0, dwords: 5 } as never] }), 'bad-type', 'PSV0.dependencies[0].dwords');
  throwsDescription(() => main.encodePsv0(psv, { stage: 'x' } as never), 'bad-type', 'options.stage');
  throwsDescription(() => main.decodePsv0(new Uint8Array(32), { base: -1 }), 'bad-type', 'options.base');
  throwsDescription(() => main.shaderOf({ parts: [null] } as never), 'bad-type', 'container.parts[0]');
  throwsDescription(() => main.shaderOf({ parts: [{ name: 'DXIL', data: 'x' }] } as never), 'bad-type', 'container.parts[0].data');
  throwsDescription(() => main.suggestRootSignature([{ stage: 0, bindings: [{ resType: 2, space: 0, lowerBound: 1n, upperBound: 1n, offset: 0 }] }] as never), 'bad-type', 'shaders[0].bindings[0].lowerBound');
  throwsDescription(() => main.suggestRootSignature([{ stage: 0, bindings: [{ resType: 2, space: 0, lowerBound: -1, upperBound: 1, offset: 0 }] }] as never), 'out-of-range', 'shaders[0].bindings[0].lowerBound');
  throwsDescription(() => main.suggestRootSignature([{ stage: 'x', bindings: [] }] as never), 'bad-type', 'shaders[0].stage');
});

test('RDAT, library, state-object and HlslFile entries: a wrong member inside a valid-looking argument is a DescriptionError naming it (issue 26 item 6)', () => {
  const lib = corpusFile('shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil');
  const good = main.describeLibrary(main.readLibraryRdat(lib).rdat);
  const e0 = good.exports[0]!;
  throwsDescription(() => main.encodeRdat({ version: 16, parts: [null] } as never), 'bad-type', 'rdat.parts[0]');
  throwsDescription(() => main.encodeRdat({ version: 16, parts: [{ type: 'FunctionTable', stride: 44, records: [42] }] } as never), 'bad-type', 'rdat.parts[0].records[0]');
  throwsDescription(() => main.encodeRdat({ version: 16, parts: [{ type: 'StringBuffer', strings: [''] }, { type: 'FunctionTable', stride: 44, records: [{ Name: 42 }] }] } as never), 'bad-type', 'rdat.parts[1].records[0].Name');
  throwsDescription(() => main.decodeRdat(new Uint8Array(8), 0, { budget: 'x' } as never), 'bad-type', 'options.budget');
  throwsDescription(() => main.libraryLines({ exports: [null], subobjects: [] } as never), 'bad-type', 'library.exports[0]');
  throwsDescription(() => main.libraryLines({ ...good, exports: [{ ...e0, bindings: 'x' }] } as never), 'bad-type', 'library.exports[0].bindings');
  throwsDescription(() => main.libraryLines({ ...good, exports: [{ ...e0, bindings: [{ class: 'SRV', space: '0', lowerBound: 0, upperBound: 0 }] }] } as never), 'bad-type', 'library.exports[0].bindings[0].space');
  throwsDescription(() => main.libraryLines({ ...good, exports: [{ ...e0, name: 7 }] } as never), 'bad-type', 'library.exports[0].name');
  throwsDescription(() => main.libraryJson({ exports: [], subobjects: [{ kind: 'X', name: 7 }] } as never, (x) => x), 'bad-type', 'library.subobjects[0].name');
  throwsDescription(() => main.libraryJson(good, (x) => x, { budget: {} } as never), 'bad-type', 'options.budget');
  throwsDescription(() => main.suggestLibraryRootSignatures([{ exports: [null], subobjects: [] }] as never), 'bad-type', 'libraries[0].exports[0]');
  throwsDescription(() => main.suggestLibraryRootSignatures([{ exports: [{ name: 'a', kind: 'RayGeneration', bindings: [null] }], subobjects: [] }] as never), 'bad-type', 'libraries[0].exports[0].bindings[0]');
  throwsDescription(() => main.verifyStateObject([null] as never), 'bad-type', 'libraries[0]');
  throwsDescription(() => main.verifyStateObject([{ name: 'a', bytes: 1 }] as never), 'bad-type', 'libraries[0].bytes');
  throwsDescription(() => ddi.libraryNodeOutputs(lib, { budget: 3 } as never), 'bad-type', 'options.budget');
  // HlslFile with its host: every answer of the host is checked, naming the member
  const files: Record<string, string> = { 'a.h': '#define X 1\n' };
  const host = (over: Partial<Record<keyof main.IncludeHost, unknown>>) => ({ ...main.virtualHost(files), ...over }) as main.IncludeHost;
  const include = (h: main.IncludeHost) => () => new main.HlslFile('#include "a.h"\n#define RS ""\n', 'f.hlsl', {}, {}, { host: h }).defineText('RS');
  throwsDescription(include(host({ read: () => 42 })), 'bad-type', 'options.host.read()');
  throwsDescription(include(host({ stat: () => ({ real: 1, size: 3, regular: true }) })), 'bad-type', 'options.host.stat()');
  throwsDescription(include(host({ stat: () => 'x' })), 'bad-type', 'options.host.stat()');
  throwsDescription(include(host({ join: () => null })), 'bad-type', 'options.host.join()');
  throwsDescription(include(host({ isAbsolute: () => 'no' })), 'bad-type', 'options.host.isAbsolute()');
  throwsDescription(() => new main.HlslFile('', 'f.hlsl', {}, {}, { host: { ...main.virtualHost(files), read: 1 } as never }), 'bad-type', 'options.host.read');
  include(main.virtualHost(files))(); // the same host unchanged answers
});

test.run();
