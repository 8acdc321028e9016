/**
 * The pipeline paths of `dxbin verify`: `--pipeline` (each input is a pipeline description in the
 * JSON form, docs/formats/pipeline.md; its files are read relative to it) and `--record-size N`
 * (each local root signature of a DXIL library must fit shader records of N bytes).
 */
import { dirname, isAbsolute, join } from 'node:path';
import {
  PIPELINE_FILE_KEYS,
  pipelineFromJson,
  readRootSignatureSource,
  recordSizeProblem,
  shaderRecordLayout,
  subobjectRootSignatures,
  verifyPipeline,
  parseJsonText,
  type Pipeline,
  type PipelineVerifyResult,
  type PipelineViolation,
} from '../../index.js';
import { printableText } from '../../inspect/index.js';
import type { RunContext } from '../command.js';
import { CheckFailed, InOtherFile, InputError, UsageError } from '../errors.js';

/** `severity code path: message`. */
export function pipelineViolationLine(v: PipelineViolation): string {
  return `${v.severity} ${v.code}${v.path ? ` ${printableText(v.path)}` : ''}: ${printableText(v.message)}`;
}

/** The summary line of one pipeline. */
export function pipelineVerdictLine(file: string, r: PipelineVerifyResult): string {
  const errors = r.violations.filter((v) => v.severity === 'error').length;
  const warnings = r.violations.length - errors;
  const counts = [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`].filter(Boolean).join(', ');
  const stages = r.stages.map((s) => s.key).join(', ') || 'no shaders';
  return `${printableText(file)}: ${r.kind} pipeline ${r.verdict === 'fits' ? 'fits' : 'does not fit'} (${stages}; root signature ${r.rootSignature ? `from ${r.rootSignature}` : 'missing'}; signatures ${r.signatures.replace('-', ' ')}${counts ? `; ${counts}` : ''})`;
}

/**
 * The files a pipeline description (`json`, read from `file`) names under PIPELINE_FILE_KEYS,
 * each read once, relative to the description (to the working directory for stdin). A read
 * failure that is not already an InputError is reported in the file that failed.
 */
export async function readPipelineFiles(json: unknown, file: string, ctx: Pick<RunContext<unknown>, 'read'>): Promise<Map<string, Uint8Array>> {
  const base = file === '-' ? '.' : dirname(file);
  const files = new Map<string, Uint8Array>();
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return files;
  for (const key of PIPELINE_FILE_KEYS) {
    const p = (json as Record<string, unknown>)[key];
    if (typeof p !== 'string' || p === '' || files.has(p)) continue;
    const at = isAbsolute(p) ? p : join(base, p);
    try {
      files.set(p, await ctx.read(at, { named: true }));
    } catch (e) {
      throw e instanceof InputError ? e : new InOtherFile(at, e);
    }
  }
  return files;
}

/**
 * The JSON text of `file`, parsed; the bytes and the text are not kept (a caller that holds the
 * result holds the value alone).
 */
export async function readJsonFile(file: string, ctx: Pick<RunContext<unknown>, 'read'>): Promise<unknown> {
  return parseJsonText(new TextDecoder('utf-8', { fatal: false }).decode(await ctx.read(file)), file);
}

/** The pipeline a parsed description gives (its files read relative to `file`); the description is not kept. */
export async function pipelineOfJson(json: unknown, file: string, ctx: Pick<RunContext<unknown>, 'read'>): Promise<Pipeline> {
  const files = await readPipelineFiles(json, file, ctx);
  return pipelineFromJson(json, { read: (p) => files.get(p)! });
}

/** Reads and verifies the pipeline description `file`. */
export async function verifyPipelineFile(file: string, ctx: RunContext<{ recordSize?: string }>): Promise<Record<string, unknown>> {
  // the text and the description die here: verifying holds the pipeline alone
  const pipeline = await pipelineOfJson(await readJsonFile(file, ctx), file, ctx);
  let r: PipelineVerifyResult;
  try {
    r = verifyPipeline(pipeline);
  } catch (e) {
    throw e instanceof InputError ? e : new InOtherFile(file, e);
  }
  await ctx.print(pipelineVerdictLine(file, r));
  for (const v of r.violations) await ctx.print(`  ${pipelineViolationLine(v)}`);
  const result = {
    verdict: r.verdict,
    stage: 'Pipeline',
    violations: r.violations,
    coverage: [],
    pipeline: { kind: r.kind, ...(r.rootSignature ? { rootSignature: r.rootSignature } : {}), stages: r.stages, signatures: r.signatures, files: pipeline.files },
  };
  if (r.verdict === 'does-not-fit') {
    const errors = r.violations.filter((v) => v.severity === 'error');
    throw new CheckFailed(`the pipeline does not fit (${errors.length} error${errors.length === 1 ? '' : 's'})`, result, errors.map((v) => ({ code: v.code, message: `${v.path ? `${v.path}: ` : ''}${v.message}` })));
  }
  return result;
}

/** The --record-size value, checked once. @throws {UsageError} */
export function recordSizeOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new UsageError(`--record-size must be a whole number of bytes, got ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * Checks shader records of `size` bytes against every local root signature of the library; prints
 * a line for each and returns them (with the problems).
 */
export async function recordSizeReport(file: string, bytes: Uint8Array, size: number, ctx: RunContext<unknown>): Promise<{ subobject: string; recordSize: number; stride: number; problem?: string }[]> {
  const out: { subobject: string; recordSize: number; stride: number; problem?: string }[] = [];
  for (const s of subobjectRootSignatures(bytes)) {
    if (s.kind !== 'LocalRootSignature') continue;
    const layout = shaderRecordLayout(readRootSignatureSource(s.bytes).rootSignature);
    const problem = recordSizeProblem(layout, size);
    out.push({ subobject: s.name, recordSize: layout.recordSize, stride: layout.stride, ...(problem ? { problem } : {}) });
    await ctx.print(`${printableText(file)}: local root signature ${printableText(s.name)}: records need ${layout.recordSize} bytes (stride ${layout.stride}); ${size} ${problem ? `does not fit: ${problem}` : 'fits'}`);
  }
  if (out.length === 0) await ctx.print(`${printableText(file)}: no local root signature subobjects for --record-size ${size}`);
  return out;
}
