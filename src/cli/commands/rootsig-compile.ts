/** `dxbin rootsig compile`: HLSL root signature text to a container, as `dxc -T rootsig_1_x`. */
import { FORMAT_VERSION, S } from '../schema.js';
import { Option } from 'commander';
import { RootSignatureText, codecs, compileRootSignature, compileRootSignatureBlob, type RootSignature, printableJson } from '../../index.js';
import { requireFit } from './verify.js';
import type { OnceCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { EXIT } from '../exit.js';
import { depfileText, hlslFileOf, sourceOptions, warningLine, type SourceOptions } from '../includes.js';
import { checkOutputs, readInput, writeOutput, type NamedFile } from '../io.js';

/** The versions DXC has no rootsig_1_x profile for (their rules are the runtime's). */
const NO_DXC_PROFILE = codecs.ROOT_SIGNATURE_VERSIONS.filter((v) => codecs.VERSIONS[v.value].compileTarget !== 'dxc').map((v) => v.name).join(', ');

interface CompileOptions extends SourceOptions {
  file?: string;
  define?: string;
  entry?: string;
  depfile?: string;
  to?: string;
  version?: string;
  output: string;
  raw?: boolean;
  validate?: boolean;
  verify?: string[];
}

export const rootsigCompile: OnceCommand<CompileOptions> = {
  kind: 'once',
  path: ['rootsig', 'compile'],
  description: 'compile HLSL root signature text, like dxc -T rootsig_1_1 -E NAME (a root-signature-only container with a valid digest)',
  examples: [
    'dxbin rootsig compile "RootFlags(0), CBV(b0)" --to 1.1 -o rs.dxbc',
    'dxbin rootsig compile --file shader.hlsl -E main --to 1.1 -o rs.dxbc',
    'dxbin rootsig compile --file rs.hlsli --define MyRS -D USE_SAMPLERS=1 --to 1.0 --raw -o rs.rts0',
    'dxbin rootsig compile --file shader.hlsl -E main -I include/ --to 1.1 -o rs.dxbc --depfile rs.dxbc.d',
  ],
  schema: { file: S.str, output: S.str, version: S.str, size: S.int },
  define: (c) =>
    sourceOptions(c.argument('[string]', 'the root signature text'), 'with --file: ')
      .option('--file <file>', 'an HLSL file (- for standard input)')
      .option('--define <name>', 'with --file: the #define holding the root signature')
      .option('-E, --entry <entry>', 'with --file: the entry function whose [RootSignature(...)] to compile')
      .option('--depfile <out.d>', 'write a Make-syntax depfile: the output depends on the HLSL file and every file it actually includes, each header also an empty rule (gcc -MD -MP)')
      // --to, as rootsig convert spells the target version; --version is the older spelling, kept
      .addOption(new Option('--to <version>', `root signature version (${NO_DXC_PROFILE} has no DXC profile)`).choices(codecs.ROOT_SIGNATURE_VERSIONS.map((v) => v.name)))
      .addOption(new Option('--version <version>', 'the same as --to').choices(codecs.ROOT_SIGNATURE_VERSIONS.map((v) => v.name)).hideHelp())
      .requiredOption('-o, --output <out>', 'output file (- for standard output)')
      .option('--raw', 'write the bare RTS0 part')
      .option('--no-validate', "skip DXC's validation rules (like dxc -Vd)")
      .option('--verify <shaders...>', 'refuse (exit 1, nothing written) unless the root signature fits these shaders'),
  async run(args, o, streams) {
    const text = args[0] as string | undefined;
    if (o.to !== undefined && o.version !== undefined && o.to !== o.version) throw new UsageError(`--to ${o.to} and --version ${o.version} disagree (--version is the old spelling of --to)`);
    const wanted = o.to ?? o.version;
    if (wanted === undefined) throw new UsageError(`rootsig compile needs --to VERSION (${codecs.ROOT_SIGNATURE_VERSIONS.map((v) => v.name).join(', ')})`);
    const version = codecs.ROOT_SIGNATURE_VERSIONS.find((v) => v.name === wanted)!;
    let source: RootSignatureText;
    let description: RootSignature;
    const deps: string[] = [];
    if (o.file !== undefined) {
      if (text !== undefined) throw new UsageError('give either a root signature string or --file, not both');
      if ((o.define === undefined) === (o.entry === undefined)) throw new UsageError('--file needs exactly one of --define NAME or -E ENTRY');
      const hlsl = hlslFileOf(o.file, await readInput(o.file, streams), o);
      source = o.define !== undefined ? hlsl.defineText(o.define) : hlsl.entryText(o.entry!);
      for (const w of hlsl.warnings) streams.err(warningLine(w, o.diagnosticsFormat));
      for (const f of hlsl.files) deps.push(f);
      description = compileRootSignature(source, { version: version.value, validate: o.validate });
    } else {
      if (text === undefined) throw new UsageError('give a root signature string, or --file F with --define NAME or -E ENTRY');
      if (o.define !== undefined || o.entry !== undefined || o.I !== undefined || o.D !== undefined || o.U !== undefined || o.profile !== undefined) throw new UsageError('--define, -E, -D, -U, -I and -T go with --file');
      source = new RootSignatureText(text);
      description = compileRootSignature(source, { version: version.value, validate: o.validate });
    }
    if (o.verify) {
      for (const f of o.verify) deps.push(f);
      await requireFit(description, o.verify, (f) => readInput(f, streams), async (line) => streams.err(line));
    }
    const blob = compileRootSignatureBlob(source, { version: version.value, raw: o.raw, validate: o.validate });
    // every output against the others and against every file read (the HLSL file, its headers, the shaders), before any is written
    const read: NamedFile[] = deps.map((path, i) => ({ path, as: o.file !== undefined && i === 0 ? '--file' : i < deps.length - (o.verify?.length ?? 0) ? 'header' : '--verify shader' }));
    checkOutputs([{ path: o.output, as: '-o' }, ...(o.depfile !== undefined ? [{ path: o.depfile, as: '--depfile' }] : [])], read);
    // the depfile's text before any output: a name it cannot spell refuses the run with nothing written
    const depfile = o.depfile !== undefined ? depfileText(o.output, deps) : undefined;
    await writeOutput(o.output, blob, deps, streams);
    if (o.depfile !== undefined) await writeOutput(o.depfile, depfile!, deps, streams);
    if (o.json) await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, ok: true, file: o.file ?? '<string>', output: o.output, version: version.name, size: blob.byteLength })}\n`);
    return EXIT.ok;
  },
};

