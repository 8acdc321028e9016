/** `dxbin rootsig convert FILE... --to V [--semantics S] [--strict] -o OUT`. */
import { S } from '../schema.js';
import { Option } from 'commander';
import { CONVERSION_SEMANTICS, codecs, convertRootSignature, describeConversionReport, encodeRootSignature, readRootSignatureSource, withRootSignature, writeEdited } from '../../index.js';
import type { FileCommand } from '../command.js';
import { CheckFailed, formatDiagnostic, type Diagnostic } from '../errors.js';
import { refuseInputs } from '../io.js';
import type { ConversionReport } from '../../index.js';

/** One diagnostic per item of a conversion report: `added` items are warnings; losses are warnings, or errors when `strict`. */
export function lossDiagnostics(file: string, report: ConversionReport, strict: boolean): Diagnostic[] {
  const lines = describeConversionReport(report);
  return lines.map((message, i) => {
    const code = i < report.added.length ? 'conversion-added' : i < report.added.length + report.dropped.length ? 'conversion-dropped' : 'conversion-not-expressible';
    return { code, file, message, ...(strict && code !== 'conversion-added' ? {} : { severity: 'warning' as const }) };
  });
}
import { expectRootSignatureSource } from './shared.js';
import { convertLibrary, isLibraryWithoutRts0, SUBOBJECTS_SCHEMA } from './library-rootsig.js';

export const rootsigConvert: FileCommand<{ to: string; semantics: string; strict?: boolean }> = {
  kind: 'files',
  path: ['rootsig', 'convert'],
  description: 'convert between root signature versions; writes the kind of file it read; the loss report goes to stderr (and into --json)',
  examples: ['dxbin rootsig convert shader.cso --to 1.0 -o shader.v10.cso', "dxbin rootsig convert 'cso/*.cso' --to 1.1 --strict --out-dir v11/"],
  schema: { to: S.str, semantics: S.str, report: S.obj, output: S.str, subobjects: SUBOBJECTS_SCHEMA },
  input: 'file',
  writes: { required: true, ext: () => undefined },
  options: (c) =>
    c
      .addOption(new Option('--to <version>', 'target version').choices(codecs.ROOT_SIGNATURE_VERSIONS.map((v) => v.name)).makeOptionMandatory())
      .addOption(new Option('--semantics <name>', 'runtime (GetRootSignatureDescAtVersion), vkd3d or d3dx12').choices(CONVERSION_SEMANTICS).default('runtime'))
      .option('--strict', 'any loss of information is an error (exit 1, nothing written)'),
  async run(file, ctx) {
    const target = codecs.ROOT_SIGNATURE_VERSIONS.find((v) => v.name === ctx.options.to)!;
    // -o naming the input is refused before anything is read or reported (the write would refuse it anyway)
    refuseInputs(ctx.output!, [file]);
    const bytes = await ctx.read(file);
    expectRootSignatureSource(file, bytes);
    if (isLibraryWithoutRts0(bytes)) return convertLibrary(file, bytes, ctx);
    const source = readRootSignatureSource(bytes);
    const { rootSignature, report } = convertRootSignature(source.rootSignature, target.value, { semantics: ctx.options.semantics as 'runtime' });
    const result = { to: target.name, semantics: ctx.options.semantics, report };
    // one diagnostic per loss, naming the file: warnings, or errors with --strict
    const strict = ctx.options.strict === true && !report.lossless;
    const losses = lossDiagnostics(file, report, strict);
    if (strict) {
      const summary = `converting to ${target.name} loses information (${report.dropped.length} dropped, ${report.notExpressible.length} not expressible); nothing written`;
      throw new CheckFailed(summary, result, [...losses, { code: 'check-failed', message: summary }]);
    }
    if (!ctx.options.json) for (const d of losses) ctx.streams.err(formatDiagnostic(d, ctx.options.diagnosticsFormat));
    const rts0 = encodeRootSignature(rootSignature);
    const out = source.container ? writeEdited(withRootSignature(source.container, rts0), source.container, bytes) : rts0;
    await ctx.write(ctx.output!, out, [file]);
    return { ...result, output: ctx.output };
  },
};
