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
import { RdatReader } from '../ddi/nodes.js';
import { decodeRdat } from '../rdat/decode.js';
import { encodeRdat } from '../rdat/encode.js';
import { describeLibrary, libraryJson, libraryLines } from '../rdat/library.js';
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
import { decodePart, encodePart, partFromJson, partSpans, partToJson, programBitcode, type DecodedPart } from '../parts/part.js';
import { layoutOfKind } from '../parts/layout.js';
import { mutateRecord, type Row } from '../rows/record.js';
import { withPart, withoutPart } from '../container/edit.js';
import { PART_FUZZ_NAMES } from './seeds.js';
import { verifyBindings, verifyRootSignature } from '../binding/verify.js';
import { suggestRootSignature } from '../binding/suggest.js';
import { NOT_VERIFIABLE_STAGES } from '../../codecs/binding-rules.js';
import { hlslIdentifier, printable, printableJson } from '../bytes/text.js';
import { RequestFramer, framePieces, parseWorkRequest, responseLine, type Frame } from '../build-step/work-requests.js';
import { batchJob } from '../build-step/batch-jobs.js';
import { expandResponseFiles } from '../build-step/argfiles.js';
import { Budget, LimitError } from '../bytes/budget.js';
import { containerDigestMatches, modifiedMd5, modifiedMd5Batch, modifiedMd5Into, modifiedMd5JsInto, signContainer } from '../container/digest.js';
import { generateProgram, type GeneratedProgram } from './hlsl-generator.js';
import { generateJson } from './json-generator.js';
import { splitParamLines } from '../build-step/param-files.js';
import { InputError, UsageError } from '../build-step/errors.js';
import { crashClass, parseAnswerText } from './answers.js';
import { decodeStream, encodeStream, streamFromJson, streamToJson } from '../pipeline/stream.js';
import { pipelineFromJson, pipelineToJson } from '../pipeline/desc.js';
import { verifyPipeline, verifySignatures } from '../pipeline/verify.js';
import { pipelineRule } from '../../codecs/pipeline-rules.js';
import { answerOf, kernelRuns, queryCall, QueryOracleError } from './query-recipe.js';
import { TOKEN } from '../root-signature/hlsl/preprocessor/token.js';
import { LINKAGE_ELEMENT_BYTES, LINKAGE_RECORD_BYTES, linkageCase } from './linkage.js';

/** A round trip that did not return what went in: a finding, like a crash. */
export class FuzzOracleError extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'FuzzOracleError';
  }
}

/** One fuzz target: its name, the mutator it takes inputs from, its oracle, and its seeds. */
export interface FuzzTarget {
  readonly name: string;
  readonly kind: MutationKind;
  /** What counts as wrong besides a non-dxbin error. */
  readonly oracle: string;
  /** Runs one input; returns the size of the output it produced. */
  run(data: Uint8Array): number;
  /** What an input stands for in bytes (a generator's program; default the input's own size): output and resources are measured against it. */
  inputSize?(data: Uint8Array): number;
  /** The resource oracle: CPU time and heap growth one input may cost, per byte it stands for plus a base. */
  readonly resources?: ResourceBounds;
}

/** Bounds of the resource oracle (checked per input by the engine for targets that have them). */
export interface ResourceBounds {
  readonly cpuMsBase: number;
  readonly cpuMsPerByte: number;
  readonly heapBytesBase: number;
  readonly heapBytesPerByte: number;
}

/** What one input has cost so far: CPU time (the process's, user and system) and the heap in use, from `startMeter`. */
export interface Meter {
  readonly cpu: { user: number; system: number };
  readonly heap: number;
}

export function startMeter(): Meter {
  return { cpu: process.cpuUsage(), heap: process.memoryUsage().heapUsed };
}

/** The bytes an input stands for. */
export function inputSizeOf(target: FuzzTarget, data: Uint8Array): number {
  if (!(data instanceof Uint8Array)) return 0;
  return target.inputSize?.(data) ?? data.byteLength;
}

/**
 * The output and resource oracles for one input that ran (to a result or a typed error): output
 * within 64x what it stands for, CPU time and heap growth within the target's bounds. Heap growth
 * is heapUsed after minus before: a collection in between makes it less than the peak.
 */
export function boundsFinding(target: FuzzTarget, data: Uint8Array, outputSize: number, meter?: Meter): Outcome | undefined {
  const size = inputSizeOf(target, data);
  if (outputSize > 64 * Math.max(size, 64)) return { finding: 'output-size', error: `output ${outputSize} bytes from a ${size}-byte input (over 64x)`, frame: `${target.name} output size`, outputSize };
  const bounds = target.resources;
  if (bounds === undefined || meter === undefined) return undefined;
  const cpu = process.cpuUsage(meter.cpu);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const heap = process.memoryUsage().heapUsed - meter.heap;
  const cpuLimit = bounds.cpuMsBase + bounds.cpuMsPerByte * size;
  const heapLimit = bounds.heapBytesBase + bounds.heapBytesPerByte * size;
  if (cpuMs > cpuLimit) return { finding: 'resource', error: `${Math.round(cpuMs)} ms of CPU for a ${size}-byte input (over ${Math.round(cpuLimit)})`, frame: `${target.name} cpu`, outputSize };
  if (heap > heapLimit) return { finding: 'resource', error: `heap grew ${heap} bytes for a ${size}-byte input (over ${heapLimit})`, frame: `${target.name} heap`, outputSize };
  return undefined;
}

const text = (data: Uint8Array) => new TextDecoder().decode(data);

/**
 * What one preprocessor input may cost: the work budget allows 64 produced characters per input
 * byte (plus 64 Ki) and about as much scanning, each a few hundred nanoseconds and a share of a
 * token object; the bounds leave room for the coverage build and a loaded machine, and still catch
 * work that grows faster than the input.
 */
const PREPROCESSOR_RESOURCES: ResourceBounds = { cpuMsBase: 1500, cpuMsPerByte: 0.25, heapBytesBase: 128 * 1024 * 1024, heapBytesPerByte: 4096 };

/** The program of the last recipe (inputSize and run ask for the same one). */
let lastRecipe: { data: Uint8Array; program: GeneratedProgram } | undefined;
function programOf(data: Uint8Array): GeneratedProgram {
  if (lastRecipe?.data !== data) lastRecipe = { data, program: generateProgram(data) };
  return lastRecipe.program;
}
/** What printed text must not hold raw (C0/C1 controls, DEL, separators, bidi controls, the BOM, lone surrogates). */
const UNSAFE_TEXT = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
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
    if (e instanceof InputError || e instanceof UsageError || e instanceof LimitError) return undefined;
    throw e;
  }
}

/** A decode's typed refusal as undefined (the target goes on with the rest of its oracle). */
function answeredDecode<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof DxbinError) return undefined;
    throw e;
  }
}

/** The worker's frames of `t`, fed in chunks whose sizes come from the input's first byte. */
function framesInChunks(t: string, step: number, max: number): Frame[] {
  const f = new RequestFramer(max);
  const frames: Frame[] = [];
  for (let i = 0; i < t.length; i += step) for (const frame of f.push(t.slice(i, i + step))) frames.push(frame);
  for (const frame of f.end()) frames.push(frame);
  return frames;
}

/**
 * The part-json target's edit that JSON mutation rarely makes: one offset of the description (a
 * key ending in "Offset" or "offset", kept runs included) set to another one's value, plus 0 or 4,
 * so that records and runs share or overlap places (chosen by the input's last two bytes).
 */
function placeEdit(json: unknown, data: Uint8Array): void {
  const pick = data.length >= 2 ? data[data.length - 1]! | (data[data.length - 2]! << 8) : 0;
  if ((pick & 3) !== 0) return;
  const places: { o: Record<string, unknown>; k: string }[] = [];
  const stack: unknown[] = [json];
  while (stack.length > 0 && places.length < 4096) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'number' && /[oO]ffset$/.test(k)) places.push({ o: v as Record<string, unknown>, k });
      else if (typeof x === 'object') stack.push(x);
    }
  }
  if (places.length < 2) return;
  const to = places[(pick >> 2) % places.length]!;
  const from = places[(pick >> 7) % places.length]!;
  to.o[to.k] = (from.o[from.k] as number) + (pick & 0x8000 ? 4 : 0);
}

/** The digest target's recipe: alignment, place and length from bytes 0-3, the message from the rest, repeated to its length. */
function digestRecipe(data: Uint8Array): { message: Uint8Array; at: number; outLength: number } {
  const align = (data[0] ?? 0) & 7;
  const pick = data[1] ?? 0;
  const length = ((data[2] ?? 0) | ((data[3] ?? 0) << 8)) * (pick & 0x40 ? 4 : 1);
  const rest = data.subarray(4);
  const buffer = new Uint8Array(align + length);
  for (let i = 0; i < length; i++) buffer[align + i] = rest.length ? rest[i % rest.length]! : i & 0xff;
  const outLength = 16 + (pick & 15);
  // an `at` with room, or one without: past the end, negative, fractional, NaN
  const at = pick & 0x80 ? [outLength - 15, -1, 1.5, NaN][pick & 3]! : ((pick >> 4) & 3) % (outLength - 15);
  return { message: buffer.subarray(align), at, outLength };
}

/** Every fuzz target (docs/fuzzing.md has the table). */
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
    oracle: 'typed errors only over a virtual tree with folder links (//@ file NAME, //@ link NAME TARGET); every file read once; output within 64x; CPU time and heap growth within the resource bounds',
    resources: PREPROCESSOR_RESOURCES,
    run(data) {
      const { file, host } = treeFile(data);
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
  // the preprocessed text (`rootsig preprocess`, dxc -P) with pragma lines and _Pragma: what lines the input can make
  {
    name: 'preprocess',
    kind: 'hlsl',
    oracle: "HLSL text (a virtual tree as hlsl-preprocess reads it; seeds with #pragma, _Pragma, #line and character constants) to preprocessedText: typed errors only; every line beginning with # is a #line marker, one of the pragmas the preprocessor passed on, or starts with a # token of the output (a macro's); as many #pragma lines as pragmas passed on plus such tokens; no CR and no line break inside a pragma; the text preprocessed again gives itself when no # token, unterminated literal or stray backslash is in the output; within 64x and the resource bounds",
    resources: PREPROCESSOR_RESOURCES,
    run(data) {
      const { file, host, main, defines } = treeFile(data);
      const out = file.preprocessedText();
      const result = file.preprocessed();
      check(!out.includes('\r'), 'a CR in the preprocessed text');
      for (const p of result.pragmas) check(!/[\r\n]/.test(p.text) && p.text.startsWith('#pragma'), `a pragma line that is not one line of #pragma: ${printable(p.text.slice(0, 200))}`);
      let hashTokens = 0;
      // an unterminated literal (a token of kind other holding a quote) lexes otherwise when read again, up to the next quote;
      let openQuote = false;
      for (const t of result.output) {
        if (t.text === '#' || t.text === '%:' || t.text === '##' || t.text === '%:%:') hashTokens++;
        // and a stray backslash (a token) at the end of a line splices the next line to it
        else if (t.kind === TOKEN.other && /["'\\]/.test(t.text)) openQuote = true;
      }
      let hashLines = 0;
      let markers = 0;
      let pragmaLines = 0;
      for (const line of out.split('\n')) {
        if (!/^[ \t\f\v]*(?:#|%:)/.test(line)) continue;
        hashLines++;
        if (/^#line \d+ "(?:[^"\\]|\\.)*"$/.test(line)) markers++;
        if (/^[ \t\f\v]*(?:#|%:)[ \t\f\v]*pragma\b/.test(line)) pragmaLines++;
      }
      check(hashLines <= markers + result.pragmas.length + hashTokens, `${hashLines} lines begin with #: ${markers} markers, ${result.pragmas.length} pragmas, ${hashTokens} # tokens`);
      check(pragmaLines <= result.pragmas.length + hashTokens, `${pragmaLines} #pragma lines from ${result.pragmas.length} pragmas and ${hashTokens} # tokens`);
      // idempotence: the text has no macros left and its markers restate its places (not when a # token could make a directive, an unterminated literal would take in what follows it, a stray backslash splice a line, or a predefined macro was undefined)
      if (hashTokens === 0 && !openQuote && out.length <= 16 * data.byteLength + 4096 && !defines.some(([k]) => k === 'U') && !/#\s*undef/.test(main)) {
        const again = new HlslFile(out, 'main.hlsl', {}, {}, { host: virtualHost({ 'main.hlsl': out }) }).preprocessedText();
        if (again !== out) {
          let at = 0;
          while (at < out.length && again.charCodeAt(at) === out.charCodeAt(at)) at++;
          check(false, `preprocessing the preprocessed text again changed it (${out.length} -> ${again.length} characters; first difference at ${at})`);
        }
      }
      return out.length;
    },
  },
  {
    name: 'hlsl-generated',
    kind: 'bytes',
    oracle: 'a recipe made into a hostile program (hlsl-generator.ts: doubling macros, deep #if, long literals, include graphs guarded and not, argument nests, macro chains): typed errors only, every file read once, output within 64x the program, CPU time and heap growth within the resource bounds per program byte',
    inputSize: (data) => programOf(data).size,
    resources: PREPROCESSOR_RESOURCES,
    run(data) {
      const program = programOf(data);
      const host = virtualHost(program.files);
      const file = new HlslFile(String(program.files['main.hlsl'] ?? ''), 'main.hlsl', {}, {}, { host });
      let n = 0;
      try {
        n += file.preprocessedText().length;
      } finally {
        const read = file.filesRead;
        check(new Set(read).size === read.length, 'a file was read twice');
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
  // the bulk query operations' options (issue: every new surface a target): arguments mutation cannot make
  {
    name: 'query-resolve',
    kind: 'bytes',
    oracle: "a recipe (query-recipe.ts: byte 0 the operation, bytes 1-5 its options: odd, negative, fractional and past-the-end offsets and counts, misspelt keys, out views too small, misaligned, detached or shared, query types by row, name, value or none, query maps packed or as entries; the rest the results at an alignment): typed errors only, and the js, simd and scalar kernels (and the active ones) give the same answer, or the same error code and path; decodeQueryResults' columns equal decodeQueryResult's records",
    run(data) {
      const call = queryCall(data);
      const last = data[data.length - 1] ?? 0;
      // now and then a kernels value that is none (the same for every run)
      const bad = data.length > 6 && (last & 0x1f) === 0x1f ? { bad: [{}, 'js', null, { name: 'js', durations: 1 }, 0, []][(last >> 5) % 6] } : undefined;
      const runs = !call.kernels ? [undefined] : bad ? [bad] : [undefined, ...kernelRuns()];
      const answers = runs.map((k) => {
        try {
          return answerOf(() => call.run(k));
        } catch (e) {
          if (e instanceof QueryOracleError) check(false, e.message);
          throw e;
        }
      });
      for (let i = 1; i < answers.length; i++) check(answers[i]!.key === answers[0]!.key, `${call.operation}: the ${(runs[i] as { name?: string } | undefined)?.name ?? 'active'} kernels answer ${answers[i]!.key.slice(0, 300)}, the active ones ${answers[0]!.key.slice(0, 300)}`);
      return answers[0]!.size;
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
      const back = JSON.stringify(streamToJson(decodeStream(encoded, abi)));
      if (back !== json) {
        // a pointee shared by two subobjects ($id/$ref) is written once per subobject (docs/formats/pipeline.md):
        // the values are kept, the sharing is not; then the written image must be a fixed point
        check(json.includes('"$ref"'), 'stream image -> JSON -> image changed the subobjects');
        check(same(encodeStream(streamFromJson(JSON.parse(back)), abi), encoded), 'stream image -> JSON -> image is not a fixed point after sharing was written out');
      }
      let form: ReturnType<typeof pipelineToJson> | undefined;
      try {
        form = pipelineToJson(subobjects, { path: (key) => `${key}.bin` });
      } catch (e) {
        if (!(e instanceof DescriptionError)) throw e; // formats past NumRenderTargets, a NULL list with a count: not in the pipeline form (a type twice never decodes)
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
  // issue 31: signatures that almost link, generated (mutation of containers seldom gets there)
  {
    name: 'pipeline-linkage',
    kind: 'bytes',
    oracle: 'generated stage signatures and runtime facts (counts, domains, payloads, input primitives) of a tessellation, geometry-shader (streams, stream-output entries, rasterized stream) or mesh pipeline: verifySignatures answers with rows of codecs/pipeline-rules.ts (code, severity, source), every placeholder filled, the same answer twice',
    inputSize: (data) => Math.max(1, Math.floor(data.byteLength / LINKAGE_ELEMENT_BYTES)) * LINKAGE_RECORD_BYTES,
    run(data) {
      const c = linkageCase(data);
      const pipeline = pipelineFromJson(c.json, { read: (p) => new TextEncoder().encode(p) });
      const violations = verifySignatures(pipeline, c.signatures);
      for (const v of violations) {
        const row = pipelineRule(v.code);
        check(row !== undefined && row.severity === v.severity && row.source === v.source, `violation ${v.code} is not its row`);
        check(!/\{[A-Za-z]+\}/.test(v.message), `${v.code}: a placeholder left in "${v.message}"`);
      }
      const json = JSON.stringify(violations);
      check(JSON.stringify(verifySignatures(pipeline, c.signatures)) === json, 'verifySignatures answered twice differently');
      return json.length;
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
    name: 'part',
    kind: 'bytes',
    oracle: 'byte 0 picks the FourCC (PART_FUZZ_NAMES), then part data: decode -> encode gives the bytes; JSON round trip gives them too; the byte map tiles them; a row mutated by the rows mutator encodes, decodes and encodes to the same bytes',
    run(data) {
      if (data.byteLength === 0) return 0;
      const name = PART_FUZZ_NAMES[data[0]! % PART_FUZZ_NAMES.length]!;
      const part = data.subarray(1);
      const d = decodePart(name, part);
      check(same(encodePart(d), part), `${name} decode -> encode changed the bytes`);
      // the program header as `part extract --bitcode` reads it (as DXC's IsValidDxilProgramHeader, in exact
      // arithmetic): refused, or a bitcode inside the part from a header that claims no more words than it has
      if (name === 'DXIL' || name === 'ILDB') {
        const bitcode = answeredDecode(() => programBitcode(part));
        if (bitcode) {
          check(bitcode.byteOffset - part.byteOffset + bitcode.byteLength <= part.byteLength, 'bitcode past the part');
          check(new DataView(part.buffer, part.byteOffset).getUint32(4, true) * 4 <= part.byteLength, 'a program header claiming more words than the part has was accepted');
        }
      }
      const json = JSON.stringify(partToJson(d));
      check(same(encodePart(partFromJson(JSON.parse(json))), part), `${name} JSON round trip changed the bytes`);
      const rec = new SpanRecorder();
      partSpans(d, part, rec, 0, name);
      rec.fillGaps(0, part.byteLength, name);
      const map = rec.finish('part', part.byteLength);
      const problems = checkByteMap(map);
      check(problems.length === 0, `${name} byte map: ${problems[0]}`);
      return json.length + map.spans.length * 16 + mutatedRoundTrip(d, data);
    },
  },
  {
    name: 'parts',
    kind: 'container',
    oracle: 'every part of a container decodes from its rows and encodes to its bytes; removing the last part and adding it back writes the same container',
    run(data) {
      const c = parseContainer(data, { mode: 'lenient' });
      let out = 0;
      for (const p of c.parts) {
        const d = decodePart(p.name, p.data);
        check(same(encodePart(d), p.data), `${p.name} decode -> encode changed the bytes`);
        out += JSON.stringify(partToJson(d, { maxKeptBytes: 64 })).length;
      }
      const last = c.parts[c.parts.length - 1];
      if (last && c.parts.filter((p) => p.name === last.name).length === 1 && last.name !== 'PRIV' && last.name.length === 4) {
        const back = withPart(withoutPart(c, last.name), last.name, last.data);
        check(same(writeContainer(back, c.digest), writeContainer(c, c.digest)), 'remove + add of the last part changed the container');
      }
      return out;
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
      // with the SFI0 flags: a heap-indexing shader's suggestion opens its heaps (verify's runtime rule)
      const rs = suggestRootSignature([{ stage: s.stage, bindings: s.bindings, ...(s.features ? { features: s.features } : {}) }]);
      const r = verifyBindings(s.stage, s.bindings, rs, s.features);
      check(r.verdict === 'fits', `the suggestion does not fit: ${r.violations[0]?.message}`);
      return encodeRootSignature(rs).byteLength;
    },
  },
  // the byte streams of `dxbin batch` and `dxbin --persistent_worker` (issue 20, class 2)
  {
    name: 'worker-stream',
    kind: 'json',
    oracle: 'framing is the same in any chunking; a request read in place from the pieces it was framed in (framePieces, as the worker reads it) is the request read from its joined text; every frame gets exactly one response line (JSON, its requestId an int32 from 1); responses within 64x',
    run(data) {
      const t = text(data);
      const max = 2048;
      const whole = framesInChunks(t, Math.max(1, t.length), max);
      const chunked = framesInChunks(t, 1 + ((data[0] ?? 0) % 13), max);
      check(JSON.stringify(whole) === JSON.stringify(chunked), 'framing depends on how the stream is chunked');
      let n = 0;
      for (let i = 0; i < chunked.length; i++) {
        const frame = chunked[i]!;
        // the worker reads a frame's pieces in place (persistent-worker.ts); chunks of 1..13
        // characters split it into many, across strings, escapes and surrogate pairs
        const req = 'text' in frame ? parseWorkRequest(framePieces(frame)) : { error: frame.error, requestId: frame.requestId ?? 0 };
        const w = whole[i]!;
        if ('text' in w) check(JSON.stringify(req) === JSON.stringify(parseWorkRequest(w.text)), 'a request read from its pieces is not the request its joined text reads as');
        const line = 'error' in req ? responseLine(req.requestId, { exitCode: 2, output: req.error }) : responseLine(req.requestId, req.cancel ? { wasCancelled: true } : { exitCode: 0, output: '' });
        const back = JSON.parse(line) as { requestId?: unknown };
        check(back.requestId === undefined || (Number.isSafeInteger(back.requestId) && (back.requestId as number) > 0 && (back.requestId as number) <= 2 ** 31 - 1), 'a response carries a requestId that is not an int32 from 1');
        if (!('error' in req)) answered(() => expandResponseFiles(req.arguments, () => t, Budget.for(t.length, { maxReadBytes: 16384 })));
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
        if (job) n += answered(() => expandResponseFiles(job.args, () => t, Budget.for(t.length, { maxReadBytes: 16384 })))?.length ?? 0;
        n += line.length;
      }
      return n;
    },
  },
  // response files in the default reading, Bazel's three param file formats told apart (issue 27)
  {
    name: 'param-file',
    kind: 'json',
    oracle: 'items (the input split at NUL) written as Bazel writes a shell-format param file read back exactly; any text reads as at most one argument per input character',
    run(data) {
      const t = text(data);
      const items = t.split('\0').slice(0, 256);
      const shell = items.map((i) => `${/^[A-Za-z0-9@%_+:,./-]+$/.test(i) ? i : `'${i.replace(/'/g, "'\\''")}'`}\n`).join('');
      check(JSON.stringify(splitParamLines(shell)) === JSON.stringify(items), 'a Bazel shell-format param file does not read back its items');
      const any = splitParamLines(t);
      check(any.length <= t.length, 'more arguments than characters');
      return shell.length + any.length;
    },
  },
  {
    name: 'rdat-codec',
    kind: 'rdat',
    oracle: "decode -> JSON -> encode gives the input bytes back; as a hash of the input chooses, encodeRdat's options ({maxResolved} low, a budget made with it, a budget that is none) give limit-exceeded (or bad-type for the budget that is none) or the same bytes, and a version other than 16 is refused at rdat.version",
    run(data) {
      const json = JSON.stringify(decodeRdat(data));
      check(same(encodeRdat(JSON.parse(json)), data), 'RDAT encode(decode(x)) is not x');
      // encodeRdat's options and its version check, chosen by a hash of the input (any mutation that still decodes picks anew; the input stays plain RDAT)
      let hash = data.byteLength;
      for (let i = 0; i < data.byteLength; i++) hash = (Math.imul(hash, 31) + data[i]!) >>> 0;
      const pick = (hash ^ (hash >>> 8) ^ (hash >>> 16)) & 0xff;
      const low = [0, 1, 8, 64, 255, 1024, data.byteLength, 4 * data.byteLength][(pick >> 3) & 7]!;
      if ((pick & 3) === 0) {
        const options = pick & 4 ? { budget: Budget.for(0, { maxResolved: low }) } : { maxResolved: low };
        let bytes: Uint8Array | undefined;
        try {
          bytes = encodeRdat(JSON.parse(json), options);
        } catch (e) {
          if (!(e instanceof LimitError)) throw e instanceof DxbinError ? new FuzzOracleError(`encodeRdat with maxResolved ${low} answered ${e.code} at ${e.path}, not limit-exceeded`) : e;
        }
        if (bytes) check(same(bytes, data), `RDAT encode(decode(x), { maxResolved: ${low} }) is not x`);
      } else if ((pick & 7) === 1) {
        const badBudget = [{}, null, low, { charge() {} }][(pick >> 3) & 3];
        let refused: DxbinError | undefined;
        try {
          encodeRdat(JSON.parse(json), { budget: badBudget as never });
        } catch (e) {
          if (!(e instanceof DxbinError)) throw e;
          refused = e;
        }
        check(refused?.code === 'bad-type', `encodeRdat took a budget that is none (${refused ? `${refused.code} at ${refused.path}` : 'encoded'})`);
      } else if ((pick & 7) === 2) {
        const description = JSON.parse(json) as { version: unknown };
        description.version = [0, 0x11, 15, 1.5, -16, '16', 0x10000010, 0xffffffff][(pick >> 3) & 7];
        let refused: DxbinError | undefined;
        try {
          encodeRdat(description as never);
        } catch (e) {
          if (!(e instanceof DxbinError)) throw e;
          refused = e;
        }
        check(refused?.path === 'rdat.version', `version ${String(description.version)} was ${refused ? `refused at ${refused.path}` : 'encoded'}`);
      }
      return json.length;
    },
  },
  {
    name: 'rdat-library',
    kind: 'rdat',
    oracle: 'typed errors only: decode -> exports and subobjects -> listing -> state-object verification -> suggestion',
    run(data) {
      const library = describeLibrary(decodeRdat(data, 0, { sharedArrays: true }));
      // the listing and the JSON share one budget: together within 64x the input
      const text = Budget.for(data.byteLength);
      const lines = libraryLines(library, { budget: text }).join('\n').length + JSON.stringify(libraryJson(library, rootSignatureToJson, { budget: text })).length;
      const report = verifyStateObject([{ name: 'fuzz', library }], { maxProducedChars: 16 * data.byteLength + 4096 });
      const suggestion = suggestLibraryRootSignatures([library], { localSpace: 1 });
      return lines + JSON.stringify(report).length + suggestion.locals.length;
    },
  },
  // issue 30: what another implementation answers `dxbin fuzz --against` is input too
  {
    name: 'against-answer',
    kind: 'bytes',
    oracle: "the other side's answer text reads to an answer or a typed refusal; its stderr to a one-line crash class; both within 64x",
    run(data) {
      const t = text(data);
      let n = 0;
      try {
        n += JSON.stringify(parseAnswerText(t)).length;
      } catch (e) {
        if (!(e instanceof DxbinError)) throw e;
      }
      const c = crashClass('killed by SIGSEGV', t);
      check(!c.key.includes('\n'), 'a crash class spans lines');
      return n + c.key.length + c.kind.length;
    },
  },
  {
    name: 'json-generated',
    kind: 'bytes',
    oracle: 'a recipe made into a hostile JSON value (json-generator.ts: lists and objects up to 120,000 deep, 1 MB strings with ESC and newlines, 50,000-item lists, wrong kinds, cycles) under a key of the pipeline form, the root signature JSON form or the stream form: typed errors only, each message under 4 KiB, within 64x and the resource bounds',
    inputSize: (data) => generateJson(data).size,
    resources: { cpuMsBase: 1500, cpuMsPerByte: 0.05, heapBytesBase: 128 * 1024 * 1024, heapBytesPerByte: 512 },
    run(data) {
      const { value, form } = generateJson(data);
      try {
        if (form === 'pipeline') {
          const pipeline = pipelineFromJson(value, { read: (p) => new TextEncoder().encode(p) });
          return JSON.stringify(answered(() => verifyPipeline(pipeline))?.violations ?? []).length;
        }
        if (form === 'rootsig') return encodeRootSignature(rootSignatureFromJson(value)).byteLength;
        return encodeStream(streamFromJson(value), 'x64').byteLength;
      } catch (e) {
        // a message never quotes a value whole (src/bytes/text.ts quoted)
        if (e instanceof DxbinError) check(e.message.length < 4096, `a ${e.message.length}-character message: ${e.message.slice(0, 200)}`);
        throw e;
      }
    },
  },
  // the digest's entries (the WebAssembly digest written at load, its JS fallback, the batch): mutation cannot make messages past 64 KiB or choose alignments and places
  {
    name: 'digest',
    kind: 'bytes',
    oracle: 'a recipe (byte 0 the message\'s alignment, byte 1 the place `at`, bytes 2-3 its length up to 256 KiB, the rest its bytes repeated): the WebAssembly digest equals the JS digest at any alignment, into out[at..at+16) only (an `at` without room is out-of-range and out unchanged), on a SharedArrayBuffer, in a batch with its prefixes and suffixes; a signed container matches, a size outside 20..length is refused',
    inputSize: (data) => digestRecipe(data).message.byteLength + data.byteLength,
    resources: { cpuMsBase: 1500, cpuMsPerByte: 0.01, heapBytesBase: 64 * 1024 * 1024, heapBytesPerByte: 64 },
    run(data) {
      const { message, at, outLength } = digestRecipe(data);
      const js = new Uint8Array(16);
      modifiedMd5JsInto(message, js, 0);
      const one = modifiedMd5(message);
      check(same(one, js), `the digest of ${message.byteLength} bytes at alignment ${message.byteOffset & 7} differs from the JS digest`);
      const out = new Uint8Array(outLength).fill(0xa5);
      const fits = Number.isSafeInteger(at) && at >= 0 && at + 16 <= outLength;
      let refused = false;
      try {
        modifiedMd5Into(message, out, at);
      } catch (e) {
        if (!(e instanceof DescriptionError) || (e.code !== 'out-of-range' && e.code !== 'bad-type')) throw e;
        refused = true;
      }
      check(refused === !fits, `at ${at} of a ${outLength}-byte out was ${refused ? 'refused' : 'taken'}`);
      for (let i = 0; i < outLength; i++) check(out[i] === (fits && i >= at && i < at + 16 ? one[i - at] : 0xa5), `out[${i}] ${fits ? 'outside the digest was written' : 'was written by a refused call'}`);
      const shared = new Uint8Array(new SharedArrayBuffer(message.byteLength));
      shared.set(message);
      check(same(modifiedMd5(shared), one), 'the digest of the same bytes on a SharedArrayBuffer differs');
      const parts = [message, message.subarray(1), message.subarray(0, message.byteLength >>> 1), message.subarray(message.byteLength), message.subarray(3)];
      const batch = modifiedMd5Batch(parts);
      parts.forEach((m, i) => check(same(batch.subarray(16 * i, 16 * i + 16), modifiedMd5(m)), `batch digest ${i} (${m.byteLength} bytes) differs from the single one`));
      // a container: the header's 20 bytes, then the message; signed, it matches over its length and a size outside 20..length is refused
      const c = new Uint8Array(20 + message.byteLength);
      c.set(message, 20);
      signContainer(c);
      check(containerDigestMatches(c), 'a signed container does not match its digest');
      for (const size of [19, c.byteLength + 1, -1]) {
        let ok = false;
        try {
          containerDigestMatches(c, size);
        } catch (e) {
          if (!(e instanceof DescriptionError)) throw e;
          ok = true;
        }
        check(ok, `container digest size ${size} of ${c.byteLength} bytes was taken`);
      }
      return 16 * (parts.length + 4);
    },
  },
  // the parts' JSON form written by hand: kinds, offsets, counts and kept runs that no decode gives
  {
    name: 'part-json',
    kind: 'json',
    oracle: 'a part\'s JSON form (partToJson of the part seeds, mutated as JSON; in a quarter of the inputs one offset set to another\'s, so that records share or overlap places): partFromJson -> encodePart answers with typed errors only; bytes it writes decode (or are refused, never as records over one another) and encode back to themselves, and their JSON form reads back to them; the bytes within 64x the JSON',
    run(data) {
      const json = parseJson(data);
      if (json === undefined) return 0;
      placeEdit(json, data);
      const bytes = answeredDecode(() => encodePart(partFromJson(json)));
      if (!bytes) return 0;
      check(bytes.byteLength <= 64 * data.byteLength + 64, `${bytes.byteLength} bytes from ${data.byteLength} bytes of JSON`);
      const name = (json as { name: string }).name;
      let d: DecodedPart;
      try {
        d = decodePart(name, bytes);
      } catch (e) {
        // the writer never writes what the reader calls ambiguous (records over one another); other refusals (a string offset outside the part) are the description's
        if (e instanceof DxbinError && e.code !== 'part-layout') return bytes.byteLength;
        throw e;
      }
      check(same(encodePart(d), bytes), `${name}: the bytes a description wrote do not decode and encode to themselves`);
      check(same(encodePart(partFromJson(JSON.parse(JSON.stringify(partToJson(d))))), bytes), `${name}: the JSON form of the bytes a description wrote does not read back to them`);
      return bytes.byteLength;
    },
  },
  // the one text boundary (issue 26): any code units, lone surrogates included
  {
    name: 'text-boundary',
    kind: 'json',
    oracle: 'printable leaves no control, separator, bidi or lone surrogate and no newline (lines: only \\n and \\t); printableJson parses back to the value; hlslIdentifier accepts exactly identifiers',
    run(data) {
      // the bytes as UTF-16 code units (a loop: no spread into fromCharCode), so lone surrogates occur
      let units = '';
      for (let i = 0; i + 1 < data.length; i += 2) units += String.fromCharCode(data[i]! | (data[i + 1]! << 8));
      let out = 0;
      for (const s of [text(data), units]) {
        const one = printable(s);
        check(!UNSAFE_TEXT.test(one) && !one.includes('\n'), 'printable left a raw control, separator or lone surrogate');
        const lines = printable(s, { lines: true });
        check(!UNSAFE_TEXT.test(lines.replace(/[\n\t]/g, '')), 'printable(lines) left a raw control other than newline and tab');
        check(!/[^\x20-\x7e]/.test(printable(s, { ascii: true })), 'printable(ascii) left a character outside printable ASCII');
        check(JSON.parse(printableJson({ s })).s === s, 'printableJson changed the value');
        const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
        let accepted = false;
        try {
          accepted = hlslIdentifier(s) === s;
        } catch (e) {
          if (!(e instanceof DescriptionError)) throw e;
        }
        check(accepted === identifier, 'hlslIdentifier disagrees with the identifier rule');
        out += one.length + lines.length;
      }
      return out;
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

/** A fuzz input's tree (virtualTree) as main.hlsl over a virtual host, with its -D/-U and `inc` to search. */
function treeFile(data: Uint8Array): { file: HlslFile; host: ReturnType<typeof virtualHost>; main: string; defines: ['D' | 'U', string][] } {
  const { files, defines } = virtualTree(text(data));
  const host = virtualHost(files);
  const main = String(files['main.hlsl'] ?? '');
  return { file: new HlslFile(main, 'main.hlsl', {}, {}, { host, includeDirs: ['inc'], defines }), host, main, defines };
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

/** The names of TARGETS, as `dxbin fuzz` takes them. */
export const TARGET_NAMES: readonly string[] = TARGETS.map((t) => t.name);


/** The rows mutator on the first record of a decoded part: what it encodes to decodes and encodes the same. */
function mutatedRoundTrip(d: DecodedPart, data: Uint8Array): number {
  const layout = layoutOfKind(d.name, d.kind);
  const block = layout?.blocks[0];
  if (!layout || !block || block.count) return 0;
  const def = typeof block.def === 'function' ? block.def(d.blocks) : block.def;
  let seed = data.byteLength * 2654435761 + (data[data.byteLength - 1] ?? 0);
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const mutated: DecodedPart = { ...d, blocks: { ...d.blocks, [block.key]: mutateRecord(def, d.blocks[block.key] as Row, random) } };
  let bytes: Uint8Array;
  try {
    bytes = encodePart(mutated);
  } catch (e) {
    if (e instanceof DxbinError) return 0; // e.g. arrays that no longer fit: a typed refusal
    throw e;
  }
  let again: DecodedPart;
  try {
    again = decodePart(d.name, bytes);
  } catch (e) {
    if (e instanceof DxbinError) return 0; // the mutated counts or offsets point outside: a typed answer
    throw e;
  }
  check(same(encodePart(again), bytes), `${d.name}: a mutated record does not encode back to its bytes`);
  return bytes.byteLength;
}

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
  finding?: 'crash' | 'oracle' | 'output-size' | 'resource';
  /** Error name and message, for findings. */
  error?: string;
  /** The first stack frame inside dxbin, for deduplication. */
  frame?: string;
  outputSize: number;
}

/** Runs `data` through `target` and applies the oracle. */
export function runOne(target: FuzzTarget, data: Uint8Array): Outcome {
  let outputSize = 0;
  // anything may be passed: a target that is not an object fails in `run`, as a crash
  const meter = typeof target === 'object' && target !== null && target.resources ? startMeter() : undefined;
  try {
    outputSize = target.run(data);
  } catch (e) {
    if (e instanceof DxbinError) return (meter && boundsFinding(target, data, 0, meter)) || { outputSize: 0 };
    const err = e instanceof Error ? e : new Error(String(e));
    if (err instanceof FuzzOracleError) return { finding: 'oracle', error: `${err.name}: ${err.message}`, frame: `${target.name}: ${err.message}`, outputSize: 0 };
    return { finding: 'crash', error: `${err.name}: ${err.message}`, frame: topFrame(err), outputSize: 0 };
  }
  return boundsFinding(target, data, outputSize, meter) ?? { outputSize };
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
