/** `dxbin inspect FILE [--json]`: header, parts, digest status and the root signature. */
import { computeContainerDigest, digestStatus, toHex } from '../../container/digest.js';
import { looksLikeContainer } from '../../container/container.js';
import { parseContainer, printable, type ContainerParseMode } from '../../container/parse.js';
import { readRootSignature } from '../../root-signature/decode.js';
import { encodeRootSignature } from '../../root-signature/encode.js';
import { rootSignatureToJson } from '../../root-signature/json.js';
import { summarizeRootSignature } from '../../root-signature/summary.js';
import { equalBytes } from '../../container/digest.js';
import { PART_KINDS } from '../../../codecs/container.js';
import { containerRootSignature } from '../../root-signature/input.js';
import { readInput } from '../io.js';
import { shaderOf, psv0ToJson, psvVersionOf, formatBinding, resTypeName, stageName, DecodeError, type ShaderInfo } from '../../index.js';

export interface InspectOptions {
  json?: boolean;
  lenient?: boolean;
}

export function inspect(file: string, options: InspectOptions, out: (line: string) => void): void {
  const bytes = readInput(file);
  const mode: ContainerParseMode = options.lenient ? 'lenient' : 'strict';
  if (!looksLikeContainer(bytes)) {
    const { rootSignature, layout } = readRootSignature(bytes);
    const canonical = equalBytes(encodeRootSignature(rootSignature), bytes);
    if (options.json) out(JSON.stringify({ file, kind: 'rts0-part', size: bytes.byteLength, canonicalLayout: canonical, rootSignature: rootSignatureToJson(rootSignature) }, null, 2));
    else {
      out(`${file}: bare RTS0 part, ${bytes.byteLength} bytes${canonical ? ', canonical layout' : ', non-canonical layout'} (parameters at ${layout.parametersOffset}, static samplers at ${layout.staticSamplersOffset})`);
      for (const line of summarizeRootSignature(rootSignature)) out(`  ${line}`);
    }
    return;
  }
  const container = parseContainer(bytes, { mode });
  const status = digestStatus(container.digest, computeContainerDigest(bytes, container.layout.declaredSize));
  const rts = containerRootSignature(container);
  const canonical = rts ? equalBytes(encodeRootSignature(rts.rootSignature), rts.part) : undefined;
  const shader = shaderIn(container);

  if (options.json) {
    out(
      JSON.stringify(
        {
          file,
          kind: 'container',
          size: container.layout.declaredSize,
          version: `${container.majorVersion}.${container.minorVersion}`,
          packed: container.layout.packed,
          trailingBytes: container.layout.trailingBytes,
          digest: {
            stored: toHex(container.digest),
            status: status.status,
            ...(status.status === 'sentinel' ? { sentinel: status.sentinel } : {}),
            ...(status.status === 'invalid' ? { expected: toHex(status.expected) } : {}),
          },
          parts: container.parts.map((p, i) => ({ name: printable(p.name), offset: container.layout.partOffsets[i], size: p.data.byteLength })),
          ...(shader ? { shader: shaderJson(shader) } : {}),
          ...(rts ? { rootSignature: rootSignatureToJson(rts.rootSignature), rootSignatureCanonicalLayout: canonical } : {}),
        },
        null,
        2,
      ),
    );
    return;
  }
  out(`${file}: container ${container.majorVersion}.${container.minorVersion}, ${container.layout.declaredSize} bytes, ${container.parts.length} part${container.parts.length === 1 ? '' : 's'}${container.layout.packed ? '' : ' (not packed)'}`);
  const digestLine =
    status.status === 'valid' ? 'valid' : status.status === 'sentinel' ? `sentinel (${status.sentinel})` : `INVALID (expected ${toHex(status.expected)})`;
  out(`  digest ${toHex(container.digest)}: ${digestLine}`);
  container.parts.forEach((p, i) => {
    const what = PART_KINDS.find((k) => k.fourCC === p.name)?.what ?? 'unknown part';
    out(`  part ${i}: ${printable(p.name)} at ${container.layout.partOffsets[i]}, ${p.data.byteLength} bytes (${what})`);
  });
  if (shader) for (const line of shaderLines(shader)) out(`  ${line}`);
  if (rts) {
    out(`  root signature${canonical ? '' : ' (non-canonical layout)'}:`);
    for (const line of summarizeRootSignature(rts.rootSignature)) out(`    ${line}`);
  }
}

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
  for (const b of s.bindings ?? []) lines.push(`  ${resTypeName(b.resType)} ${formatBinding(b)}${b.name ? ` ${b.name}` : ''}`);
  return lines;
}
