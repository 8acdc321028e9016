/**
 * The hostile inputs of issue 10 (D1-D12), built small and deterministically. Shared by
 * test/hardening.test.ts (what each must give) and bench/hardening.ts (what each costs).
 */
import * as assert from 'uvu/assert';
import { DxbinError, type RootSignature } from '../../src/index.js';
import { encodeImage, structLayout, type DdiObject } from '../../src/ddi/index.js';
import { encodeRdat } from '../../src/rdat/index.js';
import { NULL_REF, RDAT_PART_TYPE, RDAT_VERSION, SHADER_KIND_NODE } from '../../codecs/rdat.js';

/** D1: `count` chained D3D12DDI_NODE_LIST_ENTRY_0108 (16 bytes each on x64), all naming one node. */
export function linkedListImage(count: number): Uint8Array {
  const node: DdiObject = { VersionAdded: 0, NodeType: 0, Shader: { Shader: 'S', PropertiesType: 3, pProperties: null } };
  let next: DdiObject | null = null;
  for (let i = 0; i < count; i++) next = { pNode: node, pNext: next };
  return encodeImage('D3D12DDI_NODE_LIST_ENTRY_0108', next!, 'x64');
}

/**
 * D2: broadcasting launch properties with `outputs` node outputs whose FinalName.Name each
 * point 2 bytes further into one `chars`-character string.
 */
export function overlappingNamesImage(outputs: number, chars: number): Uint8Array {
  const output = (i: number): DdiObject => ({
    FinalName: { Name: 'A', ArrayIndex: 0 }, OutputIndex: i, NodeIOKind: 6, NodeIOFlags: 0, RecordSizeInBytes: 4,
    bAllowSparseNodes: 0, pRecordDispatchGrid: null, pMaxRecords: null, pMaxRecordsSharedWithOutputIndex: null, ArraySize: 1, pOutputs: null,
  });
  const props: DdiObject = {
    FinalName: { Name: 'N', ArrayIndex: 0 }, bProgramEntry: 0, InputNodeIOKind: 0x61, InputNodeIOFlags: 0, InputRecordSizeInBytes: 0,
    GroupSharedUsageInBytes: 0, MaxRecursionDepth: 0, pLocalRootArgumentsTableIndex: null, pShareInputOfNode: null,
    pDispatchGrid: null, pMaxDispatchGrid: null, pRecordDispatchGrid: null, pInputNodes: null, pNodesSharingInputWithThisNode: null,
    NumOutputs: outputs, pOutputs: Array.from({ length: outputs }, (_, i) => output(i)),
  };
  const base = encodeImage('D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108', props, 'x64');
  const strAt = Math.ceil(base.byteLength / 2) * 2;
  const image = new Uint8Array(strAt + 2 * (chars + 1));
  image.set(base);
  for (let i = 0; i < chars; i++) image[strAt + 2 * i] = 0x41 + (i % 26);
  const v = new DataView(image.buffer);
  const layout = structLayout('D3D12DDI_BROADCASTING_LAUNCH_NODE_PROPERTIES_0108', 'x64');
  const pOutputs = Number(v.getBigUint64(layout.fields.find((f) => f.name === 'pOutputs')!.offset, true));
  const outSize = structLayout('D3D12DDI_NODE_OUTPUT_0108', 'x64').size;
  for (let i = 0; i < outputs; i++) v.setBigUint64(pOutputs + i * outSize, BigInt(strAt + 2 * i), true); // FinalName.Name is at offset 0
  return image;
}

/** D3: an RDAT part whose `functions` node functions share one NodeShaderInfo naming IONode 0 `outputs` times. */
export function fanOutRdat(functions: number, outputs: number): Uint8Array {
  const u32s = (...xs: number[]) => xs;
  const table = (count: number, stride: number, record: (i: number) => number[]) => {
    const words = u32s(count, stride);
    for (let i = 0; i < count; i++) {
      const r = record(i);
      for (let w = 0; w < stride / 4; w++) words.push(r[w] ?? 0);
    }
    return words;
  };
  const fn = (): number[] => {
    const r = new Array(13).fill(0);
    r[2] = NULL_REF; // no Resources list (the decoder checks every list against its table)
    r[3] = NULL_REF; // no FunctionDependencies
    r[4] = SHADER_KIND_NODE; // shaderKind at byte 16
    r[12] = 0; // nodeShaderInfo at byte 48
    return r;
  };
  const parts: [number, number[]][] = [
    [RDAT_PART_TYPE.StringBuffer, [0x00000066]], // "f\0\0\0"
    [RDAT_PART_TYPE.IndexArrays, [outputs, ...new Array(outputs).fill(0)]],
    [RDAT_PART_TYPE.FunctionTable, table(functions, 52, fn)],
    [RDAT_PART_TYPE.NodeShaderInfoTable, table(1, 20, () => [1, 0, NULL_REF, 0, NULL_REF])],
    [RDAT_PART_TYPE.IONodeTable, table(1, 8, () => [6, NULL_REF])],
  ];
  const words: number[] = [RDAT_VERSION, parts.length];
  let at = 8 + 4 * parts.length;
  for (const [, data] of parts) {
    words.push(at);
    at += 8 + 4 * data.length;
  }
  for (const [type, data] of parts) words.push(type, 4 * data.length, ...data);
  return new Uint8Array(Uint32Array.from(words.map((w) => w >>> 0)).buffer);
}

/** D4: each macro expands to two copies of the next: 2^levels tokens from a few hundred bytes. */
export function doublingMacros(levels = 20): string {
  const lines = Array.from({ length: levels }, (_, i) => `#define L${i} L${i + 1} L${i + 1}`);
  return `${lines.join('\n')}\n#define L${levels} x\n#define RS L0\n`;
}

/** D5: `count` chained object-like macros ending in CBV(b0). */
export function chainedMacros(count: number): string {
  const lines = Array.from({ length: count }, (_, i) => `#define M${i} M${i + 1}`);
  return `${lines.join('\n')}\n#define M${count} CBV(b0)\n#define RS M0\n`;
}

/** D6a: `count` unclosed `[RootSignature(` attributes. */
export const unclosedAttributes = (count: number) => '[RootSignature(\n'.repeat(count);
/** D6b: an attribute, `int` and `spaces` spaces (no function name). */
export const attributeThenSpaces = (spaces: number) => `[RootSignature("CBV(b0)")]\nint${' '.repeat(spaces)}`;

/** D7: `count` root CBVs, the first `clashing` of them at b0 (overlapping), the rest on their own registers. */
export function rootCbvs(count: number, clashing = 0): RootSignature {
  return {
    version: 2,
    flags: 0,
    parameters: Array.from({ length: count }, (_, i) => ({
      parameterType: 2 as const,
      shaderVisibility: 0,
      descriptor: { shaderRegister: i < clashing ? 0 : i, registerSpace: 0, flags: 0 },
    })),
    staticSamplers: [],
  } as RootSignature;
}

/** D10: the JSON form of a node list nested `depth` deep through pNext. */
export function deepNodeListJson(depth: number): string {
  const entry = '{"pNode":{"$ref":"1"},"pNext":';
  const first = '{"pNode":{"$id":"1","VersionAdded":0,"NodeType":"SHADER","Shader":{"Shader":"S","PropertiesType":"THREAD_LAUNCH","pProperties":null}},"pNext":';
  return first + entry.repeat(depth - 1) + 'null' + '}'.repeat(depth);
}

/** Issue 26: one node whose export name and node ID are one 150,000-character string, output three times. */
export function longNamesRdat(): Uint8Array {
  const long = 'n'.repeat(150_000);
  return encodeRdat({
    version: 16,
    parts: [
      { type: 'StringBuffer', strings: [''] },
      { type: 'IndexArrays', values: [] },
      { type: 'FunctionTable', stride: 52, records: [{ Name: long, UnmangledName: long, Resources: null, FunctionDependencies: null, ShaderKind: 'Node', PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0, MinimumExpectedWaveLaneCount: 0, MaximumExpectedWaveLaneCount: 0, ShaderFlags: 0, Node: 0 }] },
      { type: 'NodeIDTable', stride: 8, records: [{ Name: long, Index: 3 }] },
      { type: 'NodeShaderIOAttribTable', stride: 8, records: [{ AttribKind: 'OutputID', OutputID: 0 }, { AttribKind: 'MaxRecords', MaxRecords: 7 }] },
      { type: 'IONodeTable', stride: 8, records: [{ IOFlagsAndKind: 6, Attribs: [0, 1] }] },
      { type: 'NodeShaderInfoTable', stride: 20, records: [{ LaunchType: 'Thread', GroupSharedBytesUsed: 0, Attribs: null, Outputs: [0, 0, 0], Inputs: null }] },
    ],
  } as never);
}

/** What `f` throws, or undefined when it returns (for judging the error of a hostile input). */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Characters a message may not hold raw: C0/C1 controls (newline, ESC), DEL, U+2028/2029, bidi controls, the BOM. */
export const RAW = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
export const MAX_MESSAGE = 600;

/** `f` throws a DxbinError of `code` at `path`, its message nothing raw and short. */
export function refused(f: () => unknown, code: string, path: string | RegExp | undefined, label: string): DxbinError {
  const e = thrown(f);
  assert.ok(e instanceof DxbinError, `${label}: expected a DxbinError, got ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 100)}` : String(e)}`);
  const d = e as DxbinError;
  assert.is(d.code, code, `${label}: ${d.message.slice(0, 200)}`);
  if (typeof path === 'string') assert.is(d.path, path, `${label}: ${d.message.slice(0, 200)}`);
  else if (path) assert.match(d.path ?? '', path, `${label}: ${d.message.slice(0, 200)}`);
  assert.not.ok(RAW.test(d.message), `${label}: raw text in ${JSON.stringify(d.message.slice(0, 200))}`);
  assert.ok(d.message.length <= MAX_MESSAGE, `${label}: a ${d.message.length}-character message`);
  return d;
}

/**
 * A container of one 4-byte part named by the bytes `fourCC` (any bytes: controls, `<!-`), its
 * digest left zero: for names no real container holds (read with `--lenient` where it must be).
 */
export function onePartContainer(fourCC: readonly number[]): Uint8Array {
  const total = 32 + 4 + 8 + 4;
  const c = new Uint8Array(total);
  const v = new DataView(c.buffer);
  c.set([0x44, 0x58, 0x42, 0x43]); // DXBC
  v.setUint16(20, 1, true); // version 1.0
  v.setUint32(24, total, true);
  v.setUint32(28, 1, true); // one part
  v.setUint32(32, 36, true); // at 36
  c.set(fourCC, 36);
  v.setUint32(40, 4, true);
  return c;
}

/** A plugin context for calling the rollup plugin's hooks directly: `this.error` throws an Error marked `bundler`. */
export const rollupContext: { addWatchFile(f: string): void; error(e: { message: string }): never } = {
  addWatchFile() {},
  error(e) {
    throw Object.assign(new Error(e.message), { bundler: true });
  },
};
