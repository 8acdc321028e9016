/**
 * Fuzz targets: what each feeds its input to, and its oracle (docs/fuzzing.md). A target returns
 * the size of what it produced (for the 64x output oracle) or throws. Throwing a DxbinError is an
 * answer; anything else is a crash, and so is a round trip that does not give back what went in
 * (thrown as FuzzOracleError).
 */
import { ABIS, STRUCTS } from '../../codecs/ddi.js';
import { PSV_RESOURCE_CLASS } from '../../codecs/psv0.js';
import { QUERY_TYPES } from '../../codecs/query.js';
import { DescriptionError, DxbinError } from '../bytes/errors.js';
import { parseContainer } from '../container/parse.js';
import { writeContainer } from '../container/write.js';
import { rootSignatureContainer } from '../container/write.js';
import { decodeImage, encodeImage } from '../ddi/image.js';
import { ddiFromJson, ddiToJson } from '../ddi/json.js';
import { RdatReader } from '../ddi/rdat.js';
import { decodeRdat } from '../rdat/decode.js';
import { encodeRdat } from '../rdat/encode.js';
import { describeLibrary, libraryLines } from '../rdat/library.js';
import { verifyStateObject } from '../rdat/state-object.js';
import { suggestLibraryRootSignatures } from '../rdat/suggest.js';
import { validateDdi } from '../ddi/validate.js';
import { decodeQueryResults, encodeQueryResults } from '../query/decode.js';
import { convertRootSignature } from '../root-signature/convert.js';
import { decodeRootSignature } from '../root-signature/decode.js';
import { encodeRootSignature } from '../root-signature/encode.js';
import { compileRootSignature } from '../root-signature/hlsl/compile.js';
import { HlslFile } from '../root-signature/hlsl/hlsl-file.js';
import { virtualHost, type VirtualEntry } from '../root-signature/hlsl/source.js';
import dxbinRollup from '../rollup/index.js';
import { printRootSignature } from '../root-signature/hlsl/printer.js';
import { rootSignatureFromJson, rootSignatureToJson } from '../root-signature/json.js';
import { validateRootSignature } from '../root-signature/validate.js';
import type { RootSignature } from '../root-signature/types.js';
import type { MutationKind } from './mutate.js';
import { checkByteMap, SpanRecorder } from '../bytes/spans.js';
import { decodePsv0, encodePsv0 } from '../shader/psv0.js';
import { psv0FromJson, psv0ToJson } from '../shader/psv0-json.js';
import { psv0Spans } from '../shader/psv0-spans.js';
import { readShader } from '../shader/shader.js';
import { verifyBindings, verifyRootSignature } from '../binding/verify.js';
import { suggestRootSignature } from '../binding/suggest.js';
import { NOT_VERIFIABLE_STAGES } from '../../codecs/binding-rules.js';
import { RequestFramer, parseWorkRequest, responseLine, type Frame } from '../cli/work-requests.js';
import { batchJob } from '../cli/commands/batch.js';
import { expandResponseFiles } from '../cli/argfiles.js';
import { InputError, UsageError } from '../cli/errors.js';
import { Budget } from '../bytes/budget.js';
import { decodeStream, encodeStream, streamFromJson, streamToJson } from '../pipeline/stream.js';
import { pipelineFromJson, pipelineToJson } from '../pipeline/desc.js';
import { verifyPipeline } from '../pipeline/verify.js';

/** A round trip that did not return what went in: a finding, like a crash. */
export class FuzzOracleError extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'FuzzOracleError';
  }
}

export interface FuzzTarget {
  readonly name: string;
  readonly kind: MutationKind;
  /** What counts as wrong besides a non-dxbin error. */
  readonly oracle: string;
  /** Runs one input; returns the size of the output it produced. */
  run(data: Uint8Array): number;
}

const text = (data: Uint8Array) => new TextDecoder().decode(data);
const same = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
function check(ok: boolean, what: string): void {
  if (!ok) throw new FuzzOracleError(what);
}
/** JSON.parse of the fuzzer's own text: malformed text is not dxbin's to answer. */
function parseJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(text(data));
  } catch {
    return undefined;
  }
}

/** RTS0 canonical form: encode(decode(encode(x))) is encode(x). */
function rts0RoundTrip(rs: RootSignature): number {
  const bytes = encodeRootSignature(rs);
  check(same(encodeRootSignature(decodeRootSignature(bytes)), bytes), 'RTS0 decode(encode(x)) does not encode to the same bytes');
  return bytes.byteLength;
}

function container(mode: 'strict' | 'lenient'): FuzzTarget {
  return {
    name: `container-${mode}`,
    kind: 'container',
    oracle: 'typed errors only; a packed container writes back to the same bytes',
    run(data) {
      const c = parseContainer(data, { mode });
      if (c.layout.packed && c.layout.trailingBytes === 0) check(same(writeContainer(c, c.digest), data), 'packed container does not write back to its bytes');
      return c.parts.reduce((n, p) => n + p.data.byteLength, 0);
    },
  };
}

/** A batch job's or a response file's refusal: an answer (the CLI's typed error), like a DxbinError. */
function answered<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof InputError || e instanceof UsageError) return undefined;
    throw e;
  }
}

/** The worker's frames of `t`, fed in chunks whose sizes come from the input's first byte. */
function framesInChunks(t: string, step: number, max: number): Frame[] {
  const f = new RequestFramer(max);
  const frames: Frame[] = [];
  for (let i = 0; i < t.length; i += step) frames.push(...f.push(t.slice(i, i + step)));
  return [...frames, ...f.end()];
}

export const TARGETS: readonly FuzzTarget[] = [
  container('strict'),
  container('lenient'),
  {
    name: 'rts0',
    kind: 'rts0',
    oracle: 'decode -> encode -> decode -> encode gives the same bytes (1.0, 1.1, 1.2)',
    run: (data) => rts0RoundTrip(decodeRootSignature(data)),
  },
  {
    name: 'json',
    kind: 'json',
    oracle: 'fromJson -> encode -> decode -> toJson -> fromJson -> encode gives the same bytes',
    run(data) {
      const json = parseJson(data);
      if (json === undefined) return 0;
      const rs = rootSignatureFromJson(json);
      const bytes = encodeRootSignature(rs);
      const again = encodeRootSignature(rootSignatureFromJson(JSON.parse(JSON.stringify(rootSignatureToJson(decodeRootSignature(bytes))))));
      check(same(again, bytes), 'JSON form round trip changed the bytes');
      return bytes.byteLength;
    },
  },
  {
    name: 'hlsl-string',
    kind: 'hlsl',
    oracle: 'compile -> decompile -> compile gives the same bytes',
    run(data) {
      const rs = compileRootSignature(text(data), { version: 2, validate: false });
      const bytes = encodeRootSignature(rs);
      check(same(encodeRootSignature(compileRootSignature(printRootSignature(rs), { version: 2, validate: false })), bytes), 'decompiled text compiles to other bytes');
      return bytes.byteLength;
    },
  },
  {
    name: 'hlsl-file',
    kind: 'hlsl',
    oracle: 'typed errors only (#define RS and [RootSignature] of main), expansion within budget',
    run(data) {
      return compileDefineAndEntry(new HlslFile(text(data), 'fuzz.hlsl'));
    },
  },
  {
    name: 'hlsl-preprocess',
    kind: 'hlsl',
    oracle: 'typed errors only over a virtual tree with folder links (//@ file NAME, //@ link NAME TARGET); every file read once; output within budget',
    run(data) {
      const { files, defines } = virtualTree(text(data));
      const host = virtualHost(files);
      const file = new HlslFile(String(files['main.hlsl'] ?? ''), 'main.hlsl', {}, {}, { host, includeDirs: ['inc'], defines });
      let n = 0;
      try {
        n += file.preprocessedText().length;
      } finally {
        const read = file.filesRead;
        check(new Set(read.map((f) => host.stat(f)?.real ?? f)).size === read.length, 'a file was read twice');
      }
      return n + compileDefineAndEntry(file);
    },
  },
  {
    name: 'rollup-load',
    kind: 'hlsl',
    oracle: "the plugin's load answers a module or a bundler error (this.error) for an HLSL import over a virtual tree; nothing else escapes",
    run(data) {
      const { files, defines } = virtualTree(text(data));
      const tree: Record<string, VirtualEntry> = {};
      for (const [k, v] of Object.entries(files)) tree[`/app/${k}`] = typeof v === 'object' && !(v instanceof Uint8Array) ? { link: v.link } : v;
      const plugin = dxbinRollup({ host: virtualHost(tree), includeDirs: ['/app/inc'], defines: defines.filter(([k]) => k === 'D').map(([, v]) => v) });
      const ctx = {
        addWatchFile() {},
        error(e: { message: string }): never {
          throw new RollupError(e.message);
        },
      };
      let n = 0;
      for (const id of ['/app/main.hlsl?define=RS&rootsig', '/app/main.hlsl?entry=main&rootsig', '/app/main.rs.hlsl']) {
        try {
          n += (plugin.load.call(ctx, id) ?? '').length;
        } catch (e) {
          if (!(e instanceof RollupError)) throw e;
        }
      }
      return n;
    },
  },
  {
    name: 'convert',
    kind: 'rts0',
    oracle: 'validate (all targets), convert to every version, decompile -> compile gives the same bytes',
    run(data) {
      const rs = decodeRootSignature(data);
      let n = 0;
      for (const target of ['runtime', 'dxc', 'all'] as const) n += validateRootSignature(rs, { target }).length;
      for (const to of [1, 2, 3] as const) {
        try {
          n += rts0RoundTrip(convertRootSignature(rs, to).rootSignature);
        } catch (e) {
          if (!(e instanceof DxbinError)) throw e;
        }
      }
      let printed: string | undefined;
      try {
        printed = printRootSignature(rs);
      } catch (e) {
        if (!(e instanceof DxbinError)) throw e;
      }
      if (printed !== undefined) {
        const back = compileRootSignature(printed, { version: rs.version, validate: false });
        check(same(encodeRootSignature(back), encodeRootSignature(rs)), 'decompile -> compile changed the root signature');
      }
      return n + rootSignatureContainer(encodeRootSignature(rs)).byteLength;
    },
  },
  {
    name: 'query',
    kind: 'query',
    oracle: 'decode -> encode gives the same bytes for the whole records',
    run(data) {
      if (data.byteLength === 0) return 0;
      const type = QUERY_TYPES[data[0]! % QUERY_TYPES.length]!;
      const body = data.subarray(1);
      const cols = decodeQueryResults(body, type);
      const back = encodeQueryResults(type, cols.columns);
      const expected = body.slice(0, back.byteLength);
      // padding inside a record is not data: the encoder writes zeros there
      for (let r = 0; r < cols.count; r++) for (const pad of type.result.padding) expected.fill(0, r * type.result.size + pad.offset, r * type.result.size + pad.offset + pad.size);
      check(same(back, expected) && back.byteLength === cols.count * type.result.size, 'query results do not encode back');
      return back.byteLength;
    },
  },
  {
    name: 'ddi-image',
    kind: 'ddi',
    oracle: 'decode -> encode -> decode gives the same JSON form; output within 64x',
    run(data) {
      if (data.byteLength === 0) return 0;
      const struct = STRUCTS[data[0]! % STRUCTS.length]!.name;
      const abi = ABIS[(data[0]! >> 5) & 1]!;
      const image = data.subarray(1);
      const value = decodeImage(struct, image, abi);
      let json: string;
      try {
        json = JSON.stringify(ddiToJson(struct, value));
      } catch (e) {
        if (e instanceof DxbinError) return 0;
        throw e;
      }
      validateDdi(struct, value);
      const again = JSON.stringify(ddiToJson(struct, decodeImage(struct, encodeImage(struct, value, abi), abi)));
      check(again === json, 'DDI image round trip changed the structure');
      return json.length;
    },
  },
  {
    name: 'ddi-json',
    kind: 'json',
    oracle: 'fromJson -> validate -> encode -> decode -> toJson -> fromJson -> encode gives the same image',
    run(data) {
      const json = parseJson(data) as { type?: unknown; value?: unknown } | undefined;
      if (!json || typeof json !== 'object') return 0;
      const struct = STRUCTS[Math.abs(Number(json.type) | 0) % STRUCTS.length]!.name;
      const value = ddiFromJson(struct, json.value);
      validateDdi(struct, value);
      const image = encodeImage(struct, value, 'x64');
      const back = encodeImage(struct, ddiFromJson(struct, ddiToJson(struct, decodeImage(struct, image, 'x64'), { maxDepth: 100_000 })), 'x64');
      check(same(back, image), 'DDI JSON round trip changed the image');
      return image.byteLength;
    },
  },
  {
    name: 'pipeline-stream',
    kind: 'ddi',
    oracle: 'first byte the ABI, then a D3D12_PIPELINE_STATE_STREAM_DESC image: decode (budgeted by the input) -> JSON -> subobjects -> encode -> decode gives the same JSON; the pipeline JSON form of it reads back to the same image',
    run(data) {
      if (data.byteLength === 0) return 0;
      const abi = ABIS[data[0]! & 1]!;
      const image = data.subarray(1);
      const subobjects = decodeStream(image, abi, { budget: Budget.for(image.byteLength) });
      const json = JSON.stringify(streamToJson(subobjects));
      const encoded = encodeStream(streamFromJson(JSON.parse(json)), abi);
      check(JSON.stringify(streamToJson(decodeStream(encoded, abi))) === json, 'stream image -> JSON -> image changed the subobjects');
      let form: ReturnType<typeof pipelineToJson> | undefined;
      try {
        form = pipelineToJson(subobjects, { path: (key) => `${key}.bin` });
      } catch (e) {
        if (!(e instanceof DescriptionError)) throw e; // a type twice, formats past NumRenderTargets: not in the pipeline form
      }
      if (form) {
        const files = new Map(form.files.map((f) => [f.path, f.bytes]));
        const again = pipelineFromJson(form.json, { read: (p) => files.get(p)!, budget: Budget.for(image.byteLength) });
        check(again.subobjects.length === subobjects.length, 'the pipeline form lost subobjects');
      }
      return json.length;
    },
  },
  {
    name: 'pipeline-json',
    kind: 'json',
    oracle: 'a pipeline description whose files are generated from their paths (the path bytes, so a mutated path is a mutated shader): read (budgeted) -> verify -> stream image (x64, x86) -> decode -> pipeline form -> read gives the same image',
    run(data) {
      const json = parseJson(data);
      if (json === undefined) return 0;
      const read = (path: string) => new TextEncoder().encode(path);
      const pipeline = pipelineFromJson(json, { read, budget: Budget.for(data.byteLength) });
      const verdict = answered(() => verifyPipeline(pipeline));
      let out = verdict ? JSON.stringify(verdict.violations).length : 0;
      for (const abi of ABIS) {
        const image = encodeStream(pipeline.subobjects, abi);
        const form = pipelineToJson(decodeStream(image, abi), { path: (key) => `${key}.bin` });
        const files = new Map(form.files.map((f) => [f.path, f.bytes]));
        check(same(encodeStream(pipelineFromJson(form.json, { read: (p) => files.get(p)! }).subobjects, abi), image), 'pipeline form -> stream -> pipeline form changed the image');
        out += image.byteLength;
      }
      return out;
    },
  },
  {
    name: 'rdat',
    kind: 'rdat',
    oracle: 'typed errors only; node outputs within 64x the input',
    run(data) {
      const nodes = new RdatReader(data).nodes();
      return JSON.stringify(nodes).length;
    },
  },
  {
    name: 'psv0',
    kind: 'rts0',
    oracle: 'first byte the stage, then PSV0 part data: decode -> encode gives the bytes; JSON round trip gives them too; the byte map tiles them',
    run(data) {
      if (data.byteLength === 0) return 0;
      const stage = data[0]! % 16;
      const part = data.subarray(1);
      const psv = decodePsv0(part, { stage });
      check(same(encodePsv0(psv, { stage }), part), 'PSV0 decode -> encode changed the bytes');
      const json = JSON.stringify(psv0ToJson(psv));
      check(same(encodePsv0(psv0FromJson(JSON.parse(json)), { stage }), part), 'PSV0 JSON round trip changed the bytes');
      const rec = new SpanRecorder();
      psv0Spans(part, rec, 0, 'PSV0', stage);
      const map = rec.finish('psv0', part.byteLength);
      const problems = checkByteMap(map);
      check(problems.length === 0, `PSV0 byte map: ${problems[0]}`);
      return json.length + map.spans.reduce((n, sp) => n + sp.path.length + (typeof sp.value === 'string' ? sp.value.length : 8), 0);
    },
  },
  {
    name: 'shader',
    kind: 'container',
    oracle: 'typed errors only: a shader container (DXIL with PSV0, DXBC declarations with RDEF names) read to its stage and bindings',
    run(data) {
      const s = readShader(data, 'lenient');
      return JSON.stringify(s.bindings ?? []).length + (s.psv ? JSON.stringify(psv0ToJson(s.psv)).length : 0);
    },
  },
  {
    name: 'verify',
    kind: 'container',
    oracle: "typed errors only: a shader container checked against its own RTS0 part (shader x root signature pairs); one answer per binding",
    run(data) {
      const s = readShader(data, 'lenient');
      const r = verifyRootSignature(s);
      if (r.verdict !== 'not-verifiable') {
        const answered = r.coverage.length + r.violations.filter((v) => v.binding && v.code === 'not-fully-bound').length;
        const counted = (s.bindings ?? []).filter((b) => bindingCounts(b.resType)).length;
        check(answered === counted, `verify answered ${answered} of ${counted} bindings`);
      }
      return JSON.stringify(r).length;
    },
  },
  {
    name: 'suggest',
    kind: 'container',
    oracle: "the suggested root signature fits the shader it was suggested for (verify's own rules)",
    run(data) {
      const s = readShader(data, 'lenient');
      if (!s.bindings || NOT_VERIFIABLE_STAGES.includes(s.stage)) return 0;
      const rs = suggestRootSignature([{ stage: s.stage, bindings: s.bindings }]);
      const r = verifyBindings(s.stage, s.bindings, rs);
      check(r.verdict === 'fits', `the suggestion does not fit: ${r.violations[0]?.message}`);
      return encodeRootSignature(rs).byteLength;
    },
  },
  // the byte streams of `dxbin batch` and `dxbin --persistent_worker` (issue 20, class 2)
  {
    name: 'worker-stream',
    kind: 'json',
    oracle: 'framing is the same in any chunking; every frame gets exactly one response line (JSON, its requestId a whole number); responses within 64x',
    run(data) {
      const t = text(data);
      const max = 2048;
      const whole = framesInChunks(t, Math.max(1, t.length), max);
      const chunked = framesInChunks(t, 1 + ((data[0] ?? 0) % 13), max);
      check(JSON.stringify(whole) === JSON.stringify(chunked), 'framing depends on how the stream is chunked');
      let n = 0;
      for (const frame of whole) {
        const req = 'text' in frame ? parseWorkRequest(frame.text) : { error: frame.error, requestId: frame.requestId ?? 0 };
        const line = 'error' in req ? responseLine(req.requestId, { exitCode: 2, output: req.error }) : responseLine(req.requestId, req.cancel ? { wasCancelled: true } : { exitCode: 0, output: '' });
        const back = JSON.parse(line) as { requestId?: unknown };
        check(back.requestId === undefined || (Number.isSafeInteger(back.requestId) && (back.requestId as number) > 0), 'a response carries a requestId that is not a whole number');
        if (!('error' in req)) answered(() => expandResponseFiles(req.arguments, () => t, 4096));
        n += line.length;
      }
      return n;
    },
  },
  {
    name: 'batch-stream',
    kind: 'json',
    oracle: 'every line is a job or a typed refusal; its answer prints as one JSON line; response files expand within a budget (the input as every file)',
    run(data) {
      const t = text(data);
      let n = 0;
      const lines = t.split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        const job = answered(() => batchJob(lines[i]!, 'fuzz', i + 1));
        const line = JSON.stringify({ line: i + 1, ...(job?.id !== undefined ? { id: job.id } : {}), exit: job ? 0 : 2 });
        check(!line.includes('\n'), 'an answer spans lines');
        if (job) n += answered(() => expandResponseFiles(job.args, () => t, 4096))?.length ?? 0;
        n += line.length;
      }
      return n;
    },
  },
  {
    name: 'rdat-codec',
    kind: 'rdat',
    oracle: 'decode -> JSON -> encode gives the input bytes back',
    run(data) {
      const json = JSON.stringify(decodeRdat(data));
      check(same(encodeRdat(JSON.parse(json)), data), 'RDAT encode(decode(x)) is not x');
      return json.length;
    },
  },
  {
    name: 'rdat-library',
    kind: 'rdat',
    oracle: 'typed errors only: decode -> exports and subobjects -> listing -> state-object verification -> suggestion',
    run(data) {
      const library = describeLibrary(decodeRdat(data));
      const lines = libraryLines(library).join('\n').length;
      const report = verifyStateObject([{ name: 'fuzz', library }], { maxViolations: Math.floor(data.byteLength / 4) + 64 });
      const suggestion = suggestLibraryRootSignatures([library], { localSpace: 1 });
      return lines + JSON.stringify(report).length + suggestion.locals.length;
    },
  },
];

/** Compiles `#define RS` and the `[RootSignature]` of `main` (a dxbin error is an answer); the bytes made. */
function compileDefineAndEntry(file: HlslFile): number {
  let n = 0;
  for (const get of [() => file.defineText('RS'), () => file.entryText('main')]) {
    try {
      n += encodeRootSignature(compileRootSignature(get(), { version: 2 })).byteLength;
    } catch (e) {
      if (!(e instanceof DxbinError)) throw e;
    }
  }
  return n;
}

/** A bundler error raised through the plugin context: an answer, not a crash. */
class RollupError extends DxbinError {
  constructor(message: string) {
    super('hlsl-syntax', 'rollup', message);
  }
}

/**
 * A fuzz input as a tree of files: text up to the first `//@` line is main.hlsl; `//@ file NAME`
 * starts another file, `//@ link NAME TARGET` makes a link (folder links allowed), `//@ D NAME=V`
 * and `//@ U NAME` are -D/-U. main.rs.hlsl is main.hlsl too.
 */
export function virtualTree(source: string): { files: Record<string, VirtualEntry>; defines: ['D' | 'U', string][] } {
  const files: Record<string, VirtualEntry> = {};
  const defines: ['D' | 'U', string][] = [];
  let name = 'main.hlsl';
  let lines: string[] = [];
  const flush = () => {
    files[name] = lines.join('\n');
    lines = [];
  };
  for (const line of source.split('\n')) {
    const m = /^\/\/@ (file|link|D|U) (\S+)(?: (\S+))?/.exec(line);
    if (!m) {
      lines.push(line);
      continue;
    }
    if (m[1] === 'D' || m[1] === 'U') defines.push([m[1], m[2]!]);
    else if (m[1] === 'link') files[m[2]!] = { link: m[3] ?? '.' };
    else {
      flush();
      name = m[2]!;
    }
  }
  flush();
  if (typeof files['main.hlsl'] === 'string') files['main.rs.hlsl'] = files['main.hlsl'];
  return { files, defines };
}

/** Resource types verify checks (those with a register class). */
function bindingCounts(resType: number): boolean {
  return PSV_RESOURCE_CLASS[resType] !== undefined;
}

export const TARGET_NAMES: readonly string[] = TARGETS.map((t) => t.name);

/**
 * The target called `name`.
 * @throws {DescriptionError} bad-name for a name that is not in TARGET_NAMES
 */
export function fuzzTarget(name: string): FuzzTarget {
  const t = TARGETS.find((x) => x.name === name);
  if (!t) throw new DescriptionError('bad-name', 'target', `unknown fuzz target ${String(name)} (known: ${TARGET_NAMES.join(', ')})`);
  return t;
}

/** The outcome of one input: an answer (ok or a dxbin error) or a finding. */
export interface Outcome {
  finding?: 'crash' | 'oracle' | 'output-size';
  /** Error name and message, for findings. */
  error?: string;
  /** The first stack frame inside dxbin, for deduplication. */
  frame?: string;
  outputSize: number;
}

/** Runs `data` through `target` and applies the oracle. */
export function runOne(target: FuzzTarget, data: Uint8Array): Outcome {
  let outputSize = 0;
  try {
    outputSize = target.run(data);
  } catch (e) {
    if (e instanceof DxbinError) return { outputSize: 0 };
    const err = e instanceof Error ? e : new Error(String(e));
    if (err instanceof FuzzOracleError) return { finding: 'oracle', error: `${err.name}: ${err.message}`, frame: `${target.name}: ${err.message}`, outputSize: 0 };
    return { finding: 'crash', error: `${err.name}: ${err.message}`, frame: topFrame(err), outputSize: 0 };
  }
  if (outputSize > 64 * Math.max(data.byteLength, 64)) return { finding: 'output-size', error: `output ${outputSize} bytes from a ${data.byteLength}-byte input (over 64x)`, frame: target.name, outputSize };
  return { outputSize };
}

/** The first stack frame naming a source file (without line/column, so it survives edits elsewhere in the file). */
export function topFrame(e: Error): string {
  // anything may be thrown: a value without a string stack has no frame
  const stack = typeof e === 'object' && e !== null && typeof e.stack === 'string' ? e.stack : '';
  for (const line of stack.split('\n').slice(1)) {
    const m = /at (?:(\S+) \()?.*?([\w.-]+\/[\w.-]+)\.[jt]s/.exec(line);
    if (m) return `${m[1] ?? '<anonymous>'} ${m[2]}`;
  }
  return '<no frame>';
}
