/**
 * The library paths of `extract`, `embed` and `rootsig convert | validate | decompile`: root
 * signatures that DXIL libraries keep as RDAT subobjects (docs/formats/rdat.md). The commands
 * send a container with an RDAT part and no RTS0 part here (or any library with --subobject).
 */
import { S } from '../schema.js';
import {
  codecs,
  convertRootSignature,
  describeConversionReport,
  encodeRootSignature,
  findPart,
  formatViolation,
  looksLikeContainer,
  parseContainer,
  printRootSignature,
  printRootSignatureDefine,
  printable,
  readLibraryRdat,
  readRootSignature,
  rootSignatureContainer,
  subobjectIndex,
  subobjectRootSignatures,
  validateRootSignature,
  withSubobjectRootSignatures,
  type ConversionReport,
  type RootSignature,
  type SubobjectRootSignature,
  type ValidationTarget,
} from '../../index.js';
import type { RunContext } from '../command.js';
import { CheckFailed, InputError } from '../errors.js';

/** The `subobjects` property the commands add to their --json results for libraries. */
export const SUBOBJECTS_SCHEMA = S.arr(S.obj);

/** True for a container holding an RDAT part and no RTS0 part: a DXIL library whose root signatures are subobjects. */
export function isLibraryWithoutRts0(bytes: Uint8Array): boolean {
  if (!looksLikeContainer(bytes)) return false;
  const c = parseContainer(bytes);
  return findPart(c, 'RDAT') !== undefined && findPart(c, codecs.ROOT_SIGNATURE_PART) === undefined;
}

/** The library's root signature subobjects, decoded; refuses a library without any. */
function rootSignaturesOf(file: string, bytes: Uint8Array): (SubobjectRootSignature & { rootSignature: RootSignature })[] {
  const lib = readLibraryRdat(bytes);
  const list = subobjectRootSignatures(lib);
  if (list.length === 0) throw new InputError(file, 'no-part', 'the library has no RTS0 part and no root signature subobject');
  return list.map((s) => ({ ...s, rootSignature: readRootSignature(s.bytes, { base: lib.base }).rootSignature }));
}

/** Refuses (DescriptionError ambiguous-name, exit 1) a library where two subobjects share the name of a root signature subobject: each lookup by that name would pick one. */
function refuseAmbiguous(bytes: Uint8Array, list: readonly SubobjectRootSignature[]): void {
  const index = subobjectIndex(readLibraryRdat(bytes));
  for (const s of list) index.one(s.name);
}

function named(file: string, bytes: Uint8Array, name: string): SubobjectRootSignature & { rootSignature: RootSignature } {
  const list = rootSignaturesOf(file, bytes);
  const at = subobjectIndex(readLibraryRdat(bytes)).one(name);
  const hit = list.find((s) => s.subobject === at);
  if (!hit) throw new InputError(file, 'no-part', `no root signature subobject "${printable(name)}" (the library has ${list.map((s) => `${s.kind} "${printable(s.name)}"`).join(', ')})`);
  return hit;
}

/** `extract LIB --subobject NAME [--raw]`. */
export async function extractSubobject(file: string, bytes: Uint8Array, ctx: RunContext<{ raw?: boolean; subobject?: string }>) {
  const s = named(file, bytes, ctx.options.subobject!);
  const data = ctx.options.raw ? s.bytes : rootSignatureContainer(s.bytes);
  await ctx.write(ctx.output!, data, [file]);
  return { output: ctx.output, size: data.byteLength, raw: ctx.options.raw === true, subobject: s.name };
}

/** `embed LIB --subobject NAME --rs RS`: the subobject's RTS0 bytes replaced by `part`. */
export async function embedSubobject(file: string, bytes: Uint8Array, part: Uint8Array, rsFile: string, ctx: RunContext<{ subobject?: string }>) {
  const s = named(file, bytes, ctx.options.subobject!);
  const data = withSubobjectRootSignatures(bytes, new Map([[s.name, part]]));
  await ctx.write(ctx.output!, data, [file, rsFile]);
  return { output: ctx.output, size: data.byteLength, rootSignature: rsFile, subobject: s.name };
}

/** `rootsig convert LIB --to V`: every root signature subobject converted, every other byte kept. */
export async function convertLibrary(file: string, bytes: Uint8Array, ctx: RunContext<{ to: string; semantics: string; strict?: boolean }>) {
  const target = codecs.ROOT_SIGNATURE_VERSIONS.find((v) => v.name === ctx.options.to)!;
  const replacements = new Map<string, Uint8Array>();
  const subobjects: { name: string; kind: string; report: ConversionReport }[] = [];
  const list = rootSignaturesOf(file, bytes);
  refuseAmbiguous(bytes, list); // replacements go by name: two with one name would be converted once and reported twice
  for (const s of list) {
    const { rootSignature, report } = convertRootSignature(s.rootSignature, target.value, { semantics: ctx.options.semantics as 'runtime' });
    if (!ctx.options.json) for (const line of describeConversionReport(report)) ctx.streams.err(printable(`${s.name}: ${line}`));
    replacements.set(s.name, encodeRootSignature(rootSignature));
    subobjects.push({ name: s.name, kind: s.kind, report });
  }
  const lossless = subobjects.every((s) => s.report.lossless);
  const report = { lossless, dropped: subobjects.flatMap((s) => s.report.dropped), notExpressible: subobjects.flatMap((s) => s.report.notExpressible) };
  const result = { to: target.name, semantics: ctx.options.semantics, report, subobjects };
  if (ctx.options.strict && !lossless) throw new CheckFailed(`converting to ${target.name} loses information (${report.dropped.length} dropped, ${report.notExpressible.length} not expressible); nothing written`, result);
  await ctx.write(ctx.output!, withSubobjectRootSignatures(bytes, replacements), [file]);
  return { ...result, output: ctx.output };
}

/** `rootsig validate LIB`: each subobject, a global one also against LOCAL_ROOT_SIGNATURE (rule 29). */
export async function validateLibrary(file: string, bytes: Uint8Array, ctx: RunContext<{ target: ValidationTarget; global?: boolean }>) {
  const target = ctx.options.target;
  const subobjects = rootSignaturesOf(file, bytes).map((s) => {
    const violations = validateRootSignature(s.rootSignature, { target, global: s.kind === 'GlobalRootSignature' });
    return { name: s.name, kind: s.kind, valid: violations.length === 0, violations };
  });
  for (const s of subobjects) {
    await ctx.print(`${s.kind} "${printable(s.name)}": ${s.valid ? 'valid' : `${s.violations.length} violation${s.violations.length === 1 ? '' : 's'}`}`);
    for (const v of s.violations) await ctx.print(`  ${formatViolation(v)}`);
  }
  const violations = subobjects.flatMap((s) => s.violations.map((v) => ({ ...v, path: `${s.name}:${v.path}` })));
  const result = { target, valid: violations.length === 0, violations, subobjects };
  if (violations.length > 0) throw new CheckFailed(`${violations.length} violation${violations.length === 1 ? '' : 's'} (target ${target})`, result);
  return result;
}

/** `rootsig decompile LIB`: each subobject as HLSL text (`--define` names each NAME_subobject). */
export async function decompileLibrary(file: string, bytes: Uint8Array, ctx: RunContext<{ multiline?: boolean; define?: string }>) {
  const o = ctx.options;
  const list = rootSignaturesOf(file, bytes);
  if (o.define) refuseAmbiguous(bytes, list); // NAME_subobject would be defined twice
  const parts = list.map((s) => ({
    name: s.name,
    kind: s.kind,
    // a macro name is an identifier or refused (hlslIdentifier in printRootSignatureDefine)
    text: o.define ? printRootSignatureDefine(`${o.define}_${s.name}`, s.rootSignature, { multiline: o.multiline }) : printRootSignature(s.rootSignature, { multiline: o.multiline }),
  }));
  // the name is one escaped line of comment: no newline, no trailing `\` continuing the comment
  const text = parts.map((p) => `// ${p.kind} ${printable(p.name, { backslash: true })}\n${p.text}`).join('\n');
  if (ctx.output !== undefined) {
    await ctx.write(ctx.output, `${text}\n`, [file]);
    return { output: ctx.output, subobjects: parts };
  }
  for (const line of text.split('\n')) await ctx.print(line);
  return { text, subobjects: parts };
}
