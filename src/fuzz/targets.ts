/**
 * Fuzz targets: what each feeds its input to, and its oracle (docs/fuzzing.md). A target returns
 * the size of what it produced (for the 64x output oracle) or throws. Throwing a DxbinError is an
 * answer; anything else is a crash, and so is a round trip that does not give back what went in
 * (thrown as FuzzOracleError).
 */
import { ABIS, STRUCTS } from '../../codecs/ddi.js';
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
import { printRootSignature } from '../root-signature/hlsl/printer.js';
import { rootSignatureFromJson, rootSignatureToJson } from '../root-signature/json.js';
import { validateRootSignature } from '../root-signature/validate.js';
import type { RootSignature } from '../root-signature/types.js';
import type { MutationKind } from './mutate.js';

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
      const file = new HlslFile(text(data), 'fuzz.hlsl');
      let n = 0;
      for (const get of [() => file.defineText('RS'), () => file.entryText('main')]) {
        try {
          n += encodeRootSignature(compileRootSignature(get(), { version: 2 })).byteLength;
        } catch (e) {
          if (!(e instanceof DxbinError)) throw e;
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
    name: 'rdat',
    kind: 'rdat',
    oracle: 'typed errors only; node outputs within 64x the input',
    run(data) {
      const nodes = new RdatReader(data).nodes();
      return JSON.stringify(nodes).length;
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
