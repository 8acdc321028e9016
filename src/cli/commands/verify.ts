/**
 * `dxbin verify SHADER... [--rootsig RS]`: does the root signature (each shader's own, or RS) fit
 * each shader? Exit 1 for a shader that does not; "not verifiable" is reported, never as fitting.
 * Also the check behind `embed --verify` and `rootsig compile --verify`.
 */
import { S } from '../schema.js';
import {
  formatViolation,
  printable,
  formatBinding,
  readRootSignatureSource,
  resTypeName,
  shaderOf,
  stageName,
  verifyRootSignature,
  type BindingViolation,
  type RootSignature,
  type ShaderBinding,
  type VerifyResult,
} from '../../index.js';
import { printableText } from '../../inspect/index.js';
import type { FileCommand } from '../command.js';
import { CheckFailed, InOtherFile, InputError, formatDiagnostic } from '../errors.js';
import { expectRootSignatureSource, parseContainerFile } from './shared.js';
import { isLibrary, verifyLibraryFile } from './verify-library.js';
import { recordSizeOption, recordSizeReport, verifyPipelineFile } from './verify-pipeline.js';

const bindingJson = (b: ShaderBinding) => ({ type: resTypeName(b.resType), space: b.space, lowerBound: b.lowerBound, upperBound: b.upperBound, ...(b.name ? { name: b.name } : {}) });

/** One result as JSON. */
export function verifyJson(r: VerifyResult): Record<string, unknown> {
  return {
    verdict: r.verdict,
    ...(r.reason ? { reason: r.reason } : {}),
    stage: stageName(r.stage),
    violations: r.violations.map((v) => ({ code: v.code, message: v.message, ...(v.binding ? { binding: bindingJson(v.binding) } : {}), ...(v.path ? { path: v.path } : {}) })),
    coverage: r.coverage.map((c) => ({ binding: bindingJson(c.binding), path: c.path })),
  };
}

/** `code binding path: message`, one line per violation (formatViolation with the binding as subject). */
export function violationLine(v: BindingViolation): string {
  return formatViolation(v, violationSubject(v));
}

function violationSubject(v: BindingViolation): string {
  return v.binding ? `${resTypeName(v.binding.resType)} ${formatBinding(v.binding)}${v.binding.name ? ` (${printableText(v.binding.name)})` : ''}` : '';
}

/** One violation as a diagnostic (the file is filled in by the runner). */
export function violationDiagnostic(v: BindingViolation): { code: string; message: string } {
  const where = [violationSubject(v), v.path ?? ''].filter((x) => x !== '').join(' ');
  return { code: v.code, message: `${where ? `${where}: ` : ''}${v.message}` };
}

/** The summary line of one shader. */
export function verdictLine(file: string, r: VerifyResult): string {
  if (r.verdict === 'not-verifiable') return `${printable(file)}: not verifiable (${r.reason})`;
  const n = r.coverage.length + r.violations.filter((v) => v.binding).length;
  const violations = r.violations.length ? `, ${r.violations.length} violation${r.violations.length === 1 ? '' : 's'}` : '';
  return `${printable(file)}: ${stageName(r.stage)} shader ${r.verdict === 'fits' ? 'fits' : 'does not fit'} the root signature (${n} binding${n === 1 ? '' : 's'}${violations})`;
}

/** A shader file's verdict against `rs` (its own RTS0 when undefined). */
export function verifyShaderBytes(file: string, bytes: Uint8Array, rs: RootSignature | undefined): VerifyResult {
  return verifyRootSignature(shaderOf(parseContainerFile(file, bytes)), rs);
}

/** The root signature in `file` (container or bare part); its errors name it. */
export function rootSignatureFrom(file: string, bytes: Uint8Array): RootSignature {
  try {
    expectRootSignatureSource(file, bytes);
    return readRootSignatureSource(bytes).rootSignature;
  } catch (e) {
    throw e instanceof InputError ? e : new InOtherFile(file, e);
  }
}

/**
 * Refuses `rs` unless it fits every shader (`embed --verify`, `rootsig compile --verify`).
 * @throws {CheckFailed} naming each shader that does not fit and why
 */
export async function requireFit(rs: RootSignature, shaders: readonly string[], read: (file: string) => Promise<Uint8Array>, warn: (line: string) => Promise<void>): Promise<void> {
  const lines: string[] = [];
  for (const file of shaders) {
    const bytes = await read(file);
    let r: VerifyResult;
    try {
      r = verifyShaderBytes(file, bytes, rs);
    } catch (e) {
      throw e instanceof InputError ? e : new InOtherFile(file, e);
    }
    if (r.verdict === 'not-verifiable') await warn(`dxbin: ${verdictLine(file, r)}`);
    if (r.verdict !== 'does-not-fit') continue;
    lines.push(verdictLine(file, r));
    for (const v of r.violations) lines.push(`  ${violationLine(v)}`);
  }
  if (lines.length) throw new CheckFailed(`the root signature does not fit; nothing written\n${lines.join('\n')}`);
}

export const verify: FileCommand<{ rootsig?: string; stateObjectInputs?: string[]; pipeline?: boolean; recordSize?: string }> = {
  kind: 'files',
  path: ['verify'],
  description: "does the root signature fit the shader? DXC's check on DXIL (PSV0) and DXBC (declarations); exit 1 when one does not fit",
  examples: ["dxbin verify 'build/**/*.cso'", 'dxbin verify vs.cso ps.cso --rootsig rs.dxbc --json', 'dxbin verify --pipeline pipeline.json', 'dxbin verify lib.dxil --record-size 64'],
  input: 'shader',
  extraInputs: ['rootsig'],
  schema: { verdict: S.enum('fits', 'does-not-fit', 'not-verifiable'), reason: S.str, stage: S.str, violations: S.arr(S.obj), coverage: S.arr(S.obj), stateObject: S.obj, pipeline: S.obj, recordSizes: S.arr(S.obj) },
  options: (c) =>
    c
      .option('--rootsig <rs>', "the root signature (a container holding RTS0, or a bare part); default: each shader's own; for DXIL libraries, a global root signature for the whole state object")
      .option('--pipeline', 'each input is a pipeline description (JSON, docs/formats/pipeline.md): verify the whole pipeline as CreateGraphicsPipelineState would')
      .option('--record-size <n>', 'for DXIL libraries: shader records of N bytes must hold each local root signature\'s arguments'),
  check(o, _args, inputs) {
    o.stateObjectInputs = [...inputs]; // DXIL libraries among the inputs form one state object
    recordSizeOption(o.recordSize);
  },
  async run(file, ctx) {
    if (ctx.options.pipeline) return verifyPipelineFile(file, ctx);
    const rsFile = ctx.options.rootsig;
    const rs = rsFile === undefined ? undefined : rootSignatureFrom(rsFile, await ctx.read(rsFile));
    const bytes = await ctx.read(file);
    const recordSize = recordSizeOption(ctx.options.recordSize);
    if (isLibrary(bytes) && recordSize !== undefined) {
      const recordSizes = await recordSizeReport(file, bytes, recordSize, ctx);
      const failed = recordSizes.filter((x) => x.problem);
      const library = await verifyLibraryFile(file, ctx, rs).catch((e: unknown) => {
        if (e instanceof CheckFailed && e.result) throw new CheckFailed(e.message, { ...e.result, recordSizes }, e.diagnostics);
        throw e;
      });
      if (failed.length) throw new CheckFailed(`shader records of ${recordSize} bytes do not fit ${failed.length} local root signature${failed.length === 1 ? '' : 's'}`, { ...library, verdict: 'does-not-fit', recordSizes }, failed.map((x) => ({ code: 'record-size', message: `${printable(x.subobject)}: ${x.problem}` })));
      return { ...library, recordSizes };
    }
    if (isLibrary(bytes)) return verifyLibraryFile(file, ctx, rs);
    const r = verifyShaderBytes(file, bytes, rs);
    await ctx.print(verdictLine(file, r));
    // the violations of a shader that does not fit go to stderr once, as diagnostics (below); the
    // other verdicts have none to print
    if (r.verdict !== 'does-not-fit') for (const v of r.violations) await ctx.print(`  ${violationLine(v)}`);
    const result = verifyJson(r);
    if (r.verdict === 'not-verifiable') ctx.streams.err(formatDiagnostic({ code: 'not-verifiable', file, message: `not verifiable (${r.reason})`, severity: 'warning' }, ctx.options.diagnosticsFormat));
    if (r.verdict === 'does-not-fit') {
      const diagnostics = r.violations.map(violationDiagnostic);
      throw new CheckFailed(`does not fit the root signature (${r.violations.length} violation${r.violations.length === 1 ? '' : 's'})`, result, diagnostics);
    }
    return result;
  },
};
