/** `dxbin rootsig compile`: HLSL root signature text to a container, as `dxc -T rootsig_1_x`. */
import { FORMAT_VERSION, S } from '../schema.js';
import { Option } from 'commander';
import { readFileSync } from 'node:fs';
import { HlslFile, RootSignatureText, codecs, compileRootSignature, compileRootSignatureBlob, type RootSignature } from '../../index.js';
import { requireFit } from './verify.js';
import type { OnceCommand } from '../command.js';
import { InputError, UsageError } from '../errors.js';
import { EXIT } from '../exit.js';
import { depfileText, joinIncludes, relocate } from '../includes.js';
import { errnoWords, readInput, view, writeOutput } from '../io.js';

/** The versions DXC has no rootsig_1_x profile for (their rules are the runtime's). */
const NO_DXC_PROFILE = codecs.ROOT_SIGNATURE_VERSIONS.filter((v) => codecs.VERSIONS[v.value].compileTarget !== 'dxc').map((v) => v.name).join(', ');
import { utf8 } from './shared.js';

interface CompileOptions {
  file?: string;
  define?: string;
  entry?: string;
  D?: string[];
  I?: string[];
  depfile?: string;
  version: string;
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
    'dxbin rootsig compile "RootFlags(0), CBV(b0)" --version 1.1 -o rs.dxbc',
    'dxbin rootsig compile --file shader.hlsl -E main --version 1.1 -o rs.dxbc',
    'dxbin rootsig compile --file rs.hlsli --define MyRS -D USE_SAMPLERS=1 --version 1.0 --raw -o rs.rts0',
    'dxbin rootsig compile --file shader.hlsl -E main -I include/ --version 1.1 -o rs.dxbc --depfile rs.dxbc.d',
  ],
  schema: { file: S.str, output: S.str, version: S.str, size: S.int },
  define: (c) =>
    c
      .argument('[string]', 'the root signature text')
      .option('--file <file>', 'an HLSL file (- for standard input)')
      .option('--define <name>', 'with --file: the #define holding the root signature')
      .option('-E, --entry <entry>', 'with --file: the entry function whose [RootSignature(...)] to compile')
      .option('-D <name=value>', 'with --file: define a macro, as dxc -D does (repeatable)', (v: string, all: string[] = []) => [...all, v])
      .option('-I <dir>', 'with --file: a folder #include searches, as dxc -I (repeatable; "name" looks next to the including file first)', (v: string, all: string[] = []) => [...all, v])
      .option('--depfile <out.d>', 'write a Make-syntax depfile (the output depends on the HLSL file and everything it includes)')
      .addOption(new Option('--version <version>', `root signature version (${NO_DXC_PROFILE} has no DXC profile)`).choices(codecs.ROOT_SIGNATURE_VERSIONS.map((v) => v.name)).makeOptionMandatory())
      .requiredOption('-o, --output <out>', 'output file (- for standard output)')
      .option('--raw', 'write the bare RTS0 part')
      .option('--no-validate', "skip DXC's validation rules (like dxc -Vd)")
      .option('--verify <shaders...>', 'refuse (exit 1, nothing written) unless the root signature fits these shaders'),
  async run(args, o, streams) {
    const text = args[0] as string | undefined;
    const version = codecs.ROOT_SIGNATURE_VERSIONS.find((v) => v.name === o.version)!;
    let source: RootSignatureText;
    let description: RootSignature;
    const deps: string[] = [];
    if (o.file !== undefined) {
      if (text !== undefined) throw new UsageError('give either a root signature string or --file, not both');
      if ((o.define === undefined) === (o.entry === undefined)) throw new UsageError('--file needs exactly one of --define NAME or -E ENTRY');
      const defines: Record<string, string> = {};
      for (const d of o.D ?? []) {
        const eq = d.indexOf('=');
        defines[eq < 0 ? d : d.slice(0, eq)] = eq < 0 ? '1' : d.slice(eq + 1);
      }
      const joined = joinIncludes(o.file, utf8(await readInput(o.file, streams)), o.I ?? [], readText);
      deps.push(...joined.files);
      try {
        const hlsl = new HlslFile(joined.text, o.file, defines);
        source = o.define !== undefined ? hlsl.defineText(o.define) : hlsl.entryText(o.entry!);
        description = compileRootSignature(source, { version: version.value, validate: o.validate });
      } catch (e) {
        throw relocate(e, joined, o.file);
      }
    } else {
      if (text === undefined) throw new UsageError('give a root signature string, or --file F with --define NAME or -E ENTRY');
      if (o.define !== undefined || o.entry !== undefined || o.I !== undefined) throw new UsageError('--define, -E and -I go with --file');
      source = new RootSignatureText(text);
      description = compileRootSignature(source, { version: version.value, validate: o.validate });
    }
    if (o.verify) {
      deps.push(...o.verify);
      await requireFit(description, o.verify, (f) => readInput(f, streams), async (line) => streams.err(line));
    }
    const blob = compileRootSignatureBlob(source, { version: version.value, raw: o.raw, validate: o.validate });
    await writeOutput(o.output, blob, deps, streams);
    if (o.depfile !== undefined) await writeOutput(o.depfile, depfileText(o.output, deps), deps, streams);
    if (o.json) await streams.write(`${JSON.stringify({ formatVersion: FORMAT_VERSION, ok: true, file: o.file ?? '<string>', output: o.output, version: version.name, size: blob.byteLength })}\n`);
    return EXIT.ok;
  },
};

/** An included file's text (InputError when it cannot be read). */
function readText(file: string): string {
  try {
    return utf8(view(readFileSync(file)));
  } catch (e) {
    throw new InputError(file, 'not-readable', `cannot read: ${errnoWords(e)}`);
  }
}
