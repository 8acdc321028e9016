/** `dxbin inspect FILE...`: header, parts, digest status and the root signature. */
import { S } from '../schema.js';
import {
  codecs,
  containerRootSignature,
  digestStatus,
  encodeRootSignature,
  equalBytes,
  looksLikeContainer,
  parseContainer,
  printable,
  readRootSignature,
  rootSignatureToJson,
  summarizeRootSignature,
  toHex,
  shaderOf,
  psv0ToJson,
  psvVersionOf,
  formatBinding,
  resTypeName,
  stageName,
  DecodeError,
  decodePart,
  partToJson,
  Budget,
  type ShaderInfo,
  type DecodedPart,
} from '../../index.js';
import { printableText, partLines, partJson } from '../../inspect/index.js';
import type { FileCommand } from '../command.js';
import { inspectBytes } from './inspect-bytes.js';
import { inspectLibrary, LIBRARY_SCHEMA } from './inspect-library.js';
import { UsageError } from '../errors.js';
import { NOT_COMPUTABLE_SCHEMA, containerDigestOrReason, notComputable, notComputableText, reasonJson, sentinelNote } from './not-computable.js';
import { expectRootSignatureSource } from './shared.js';

export const inspect: FileCommand<{ lenient?: boolean; hex?: boolean; html?: string }> = {
  kind: 'files',
  path: ['inspect'],
  description: 'show a container (header, parts, digest status, root signature) or a bare RTS0 part',
  examples: ['dxbin inspect shader.cso', "dxbin inspect --json 'build/**/*.cso' > report.ndjson"],
  schema: {
    kind: S.enum('container', 'rts0-part'),
    size: S.int,
    version: S.str,
    packed: S.bool,
    trailingBytes: S.int,
    digest: S.object({ stored: S.str, status: S.enum('valid', 'sentinel', 'invalid', 'not-computable'), sentinel: S.str, expected: S.str, reason: NOT_COMPUTABLE_SCHEMA }, ['stored', 'status']),
    parts: S.arr(S.object({ name: S.str, offset: S.int, size: S.int, decode: S.obj })),
    shader: S.obj,
    canonicalLayout: S.bool,
    rootSignature: S.obj,
    rootSignatureCanonicalLayout: S.bool,
    library: LIBRARY_SCHEMA,
    spans: S.int,
    html: S.str,
  },
  input: 'file',
  extraOutputs: ['html'],
  options: (c) =>
    c
      .option('--lenient', 'accept containers as vkd3d does (gaps, parts in any order)')
      .option('--hex', 'annotated hex dump: every byte beside the field it belongs to (colours on a terminal)')
      .option('--html <out>', 'write the annotated hex dump as a self-contained HTML page (one input)'),
  check(o, _args, inputs) {
    if (o.html !== undefined && inputs.length !== 1) throw new UsageError('--html writes one page: give one input');
  },
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    expectRootSignatureSource(file, bytes);
    if (ctx.options.hex || ctx.options.html !== undefined) return inspectBytes(file, bytes, ctx);
    if (!looksLikeContainer(bytes)) {
      const { rootSignature, layout } = readRootSignature(bytes);
      const canonical = equalBytes(encodeRootSignature(rootSignature), bytes);
      await ctx.print(`${printable(file)}: bare RTS0 part, ${bytes.byteLength} bytes${canonical ? ', canonical layout' : ', non-canonical layout'} (parameters at ${layout.parametersOffset}, static samplers at ${layout.staticSamplersOffset})`);
      for (const line of summarizeRootSignature(rootSignature)) await ctx.print(`  ${line}`);
      return { kind: 'rts0-part', size: bytes.byteLength, canonicalLayout: canonical, rootSignature: rootSignatureToJson(rootSignature) };
    }
    const container = parseContainer(bytes, { mode: ctx.options.lenient ? 'lenient' : 'strict' });
    // lenient: a declared size outside 20..the data leaves no digest to compare; said, not thrown
    const computed = containerDigestOrReason(container, bytes);
    const status = computed instanceof DecodeError ? notComputable(container.digest, computed) : digestStatus(container.digest, computed);
    const rts = containerRootSignature(container);
    const canonical = rts ? equalBytes(encodeRootSignature(rts.rootSignature), rts.part) : undefined;
    const shader = shaderIn(container);
    await ctx.print(`${printable(file)}: container ${container.majorVersion}.${container.minorVersion}, ${container.layout.declaredSize === bytes.byteLength ? `${bytes.byteLength} bytes` : `declares ${container.layout.declaredSize} bytes, the data has ${bytes.byteLength}`}, ${container.parts.length} part${container.parts.length === 1 ? '' : 's'}${container.layout.packed ? '' : ' (not packed)'}`);
    const digestLine =
      status.status === 'valid' ? 'valid'
      : status.status === 'sentinel' ? `sentinel (${status.sentinel})`
      : status.status === 'invalid' ? `INVALID (expected ${toHex(status.expected)})`
      : `${notComputableText(status.reason)}${sentinelNote(status)}`;
    await ctx.print(`  digest ${toHex(container.digest)}: ${digestLine}`);
    const budget = Budget.for(bytes.byteLength);
    const decoded = container.parts.map((p, i) => decodeOrError(p.name, p.data, container.layout.partOffsets[i]! + 8, budget));
    for (let i = 0; i < container.parts.length; i++) {
      const p = container.parts[i]!;
      const what = codecs.PART_KINDS.find((k) => k.fourCC === p.name)?.what ?? 'unknown part';
      await ctx.print(`  part ${i}: ${printable(p.name, { ascii: true })} at ${container.layout.partOffsets[i]}, ${p.data.byteLength} bytes (${what})`);
      const d = decoded[i]!;
      const lines = d instanceof DecodeError ? [`does not decode: ${printableText(d.message)}`] : partLines(d);
      for (const line of lines) await ctx.print(`    ${line}`);
    }
    if (shader) for (const line of shaderLines(shader)) await ctx.print(`  ${line}`);
    if (rts) {
      await ctx.print(`  root signature${canonical ? '' : ' (non-canonical layout)'}:`);
      for (const line of summarizeRootSignature(rts.rootSignature)) await ctx.print(`    ${line}`);
    }
    const library = inspectLibrary(container);
    for (const line of library?.lines ?? []) await ctx.print(`  ${line}`);
    return {
      kind: 'container',
      size: container.layout.declaredSize,
      version: `${container.majorVersion}.${container.minorVersion}`,
      packed: container.layout.packed,
      trailingBytes: container.layout.trailingBytes,
      digest: {
        stored: toHex(container.digest),
        status: status.status,
        ...((status.status === 'sentinel' || status.status === 'not-computable') && status.sentinel ? { sentinel: status.sentinel } : {}),
        ...(status.status === 'invalid' ? { expected: toHex(status.expected) } : {}),
        ...(status.status === 'not-computable' ? { reason: reasonJson(status.reason) } : {}),
      },
      parts: container.parts.map((p, i) => ({ name: printable(p.name, { ascii: true }), offset: container.layout.partOffsets[i], size: p.data.byteLength, decode: partJson(p.name, decoded[i]!, { rootSignature: rts?.rootSignature, psv: shader?.psv }) })),
      ...(shader ? { shader: shaderJson(shader) } : {}),
      ...(rts ? { rootSignature: rootSignatureToJson(rts.rootSignature), rootSignatureCanonicalLayout: canonical } : {}),
      ...(library?.json && ctx.options.json ? { library: library.json() } : {}),
    };
  },
};

/** The shader a container holds, or undefined for containers without a program (root signatures). */
function shaderIn(container: Parameters<typeof shaderOf>[0]): ShaderInfo | undefined {
  try {
    return shaderOf(container);
  } catch (e) {
    if (e instanceof DecodeError && e.code === 'missing-part') return undefined;
    throw e;
  }
}

function shaderJson(s: ShaderInfo) {
  return {
    format: s.format,
    stage: stageName(s.stage),
    shaderModel: s.shaderModel,
    ...(s.psv ? { psv0: psv0ToJson(s.psv) } : {}),
    bindings: s.bindings?.map((b) => ({ type: resTypeName(b.resType), space: b.space, lowerBound: b.lowerBound, upperBound: b.upperBound, ...(b.name ? { name: b.name } : {}) })) ?? null,
  };
}

/** The shader's lines of the text listing: stage, where the bindings come from, one line per binding. */
export function shaderLines(s: ShaderInfo): string[] {
  const source = s.psv ? `PSV0 v${psvVersionOf(s.psv.runtimeInfoSize)}` : s.format === 'dxbc' ? 'declarations' : 'no PSV0';
  const lines = [`shader: ${stageName(s.stage)}, ${s.format === 'dxil' ? 'DXIL' : 'DXBC'} SM ${s.shaderModel}, ${s.bindings ? `${s.bindings.length} binding${s.bindings.length === 1 ? '' : 's'}` : 'bindings unknown'} (${source})`];
  for (const b of s.bindings ?? []) lines.push(`  ${resTypeName(b.resType)} ${formatBinding(b)}${b.name ? ` ${printableText(b.name)}` : ''}`);
  return lines;
}

/** A part's decode from rows, or the DecodeError that stopped it (shown, not thrown: the other parts still list). */
function decodeOrError(name: string, data: Uint8Array, base: number, budget: Budget): DecodedPart | DecodeError {
  try {
    return decodePart(name, data, { base, budget });
  } catch (e) {
    if (e instanceof DecodeError && e.code !== 'limit-exceeded') return e;
    throw e;
  }
}
