/** `dxbin rootsig compile` and `dxbin rootsig decompile`: the HLSL root signature language. */
import { ROOT_SIGNATURE_VERSIONS } from '../../../codecs/root-signature.js';
import { compileRootSignatureBlob } from '../../root-signature/hlsl/compile.js';
import { HlslFile } from '../../root-signature/hlsl/hlsl-file.js';
import { printRootSignature, printRootSignatureDefine } from '../../root-signature/hlsl/printer.js';
import { RootSignatureText } from '../../root-signature/hlsl/text.js';
import { readRootSignatureSource } from '../../root-signature/input.js';
import { UsageError } from '../errors.js';
import { readInput, writeOutputAtomically } from '../io.js';

export interface CompileCliOptions {
  file?: string;
  define?: string;
  entry?: string;
  D?: string[];
  version: string;
  output: string;
  raw?: boolean;
  validate?: boolean;
}

/** What the command compiles, for error messages: the file or "<string>". */
export function compileInputName(text: string | undefined, options: CompileCliOptions): string {
  return options.file ?? text ?? '<string>';
}

export function rootsigCompile(text: string | undefined, options: CompileCliOptions): void {
  const version = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === options.version);
  if (!version) throw new UsageError(`--version takes ${ROOT_SIGNATURE_VERSIONS.map((v) => v.name).join(', ')}; got ${options.version}`);
  let source: RootSignatureText;
  if (options.file !== undefined) {
    if (text !== undefined) throw new UsageError('give either a root signature string or --file, not both');
    if ((options.define === undefined) === (options.entry === undefined)) throw new UsageError('--file needs exactly one of --define NAME or -E ENTRY');
    const defines: Record<string, string> = {};
    for (const d of options.D ?? []) {
      const eq = d.indexOf('=');
      defines[eq < 0 ? d : d.slice(0, eq)] = eq < 0 ? '1' : d.slice(eq + 1);
    }
    const hlsl = new HlslFile(new TextDecoder().decode(readInput(options.file)), options.file, defines);
    source = options.define !== undefined ? hlsl.defineText(options.define) : hlsl.entryText(options.entry!);
  } else {
    if (text === undefined) throw new UsageError('give a root signature string, or --file F with --define NAME or -E ENTRY');
    if (options.define !== undefined || options.entry !== undefined) throw new UsageError('--define and -E go with --file');
    source = new RootSignatureText(text);
  }
  const blob = compileRootSignatureBlob(source, { version: version.value, raw: options.raw, validate: options.validate });
  writeOutputAtomically(options.output, blob, options.file ? [options.file] : []);
}

export function rootsigDecompile(file: string, options: { multiline?: boolean; define?: string }, out: (text: string) => void): void {
  const { rootSignature } = readRootSignatureSource(readInput(file));
  out(options.define ? printRootSignatureDefine(options.define, rootSignature, options) : printRootSignature(rootSignature, options));
}
