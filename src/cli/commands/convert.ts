/** `dxbin rootsig convert FILE --to V [--semantics S] [--strict] -o OUT`. */
import { CONVERSION_SEMANTICS, type ConversionSemantics } from '../../../codecs/conversion.js';
import { ROOT_SIGNATURE_VERSIONS } from '../../../codecs/root-signature.js';
import { withRootSignature, writeEdited } from '../../container/edit.js';
import { convertRootSignature, describeConversionReport } from '../../root-signature/convert.js';
import { encodeRootSignature } from '../../root-signature/encode.js';
import { readRootSignatureSource } from '../../root-signature/input.js';
import { CheckFailed, UsageError } from '../errors.js';
import { readInput, writeOutputAtomically } from '../io.js';

export interface ConvertCliOptions {
  to: string;
  semantics?: string;
  strict?: boolean;
  output: string;
}

export function rootsigConvert(file: string, options: ConvertCliOptions, warn: (line: string) => void): void {
  const target = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === options.to);
  if (!target) throw new UsageError(`--to takes ${ROOT_SIGNATURE_VERSIONS.map((v) => v.name).join(', ')}; got ${options.to}`);
  const semantics = (options.semantics ?? 'runtime') as ConversionSemantics;
  if (!CONVERSION_SEMANTICS.includes(semantics)) throw new UsageError(`--semantics takes ${CONVERSION_SEMANTICS.join(', ')}; got ${options.semantics}`);

  const bytes = readInput(file);
  const source = readRootSignatureSource(bytes);
  const { rootSignature, report } = convertRootSignature(source.rootSignature, target.value, { semantics });
  for (const line of describeConversionReport(report)) warn(line);
  if (options.strict && !report.lossless) {
    throw new CheckFailed(`${file}: converting to ${target.name} loses information (${report.dropped.length} dropped, ${report.notExpressible.length} not expressible); nothing written`);
  }
  const rts0 = encodeRootSignature(rootSignature);
  const out = source.container ? writeEdited(withRootSignature(source.container, rts0), source.container, bytes) : rts0;
  writeOutputAtomically(options.output, out, [file]);
}
