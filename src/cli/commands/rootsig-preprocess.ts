import { printableJson } from '../../index.js';
/** `dxbin rootsig preprocess`: an HLSL file through DXC's preprocessor, as `dxc -P` writes it, to see which branch was taken. */
import { FORMAT_VERSION, S } from '../schema.js';
import type { OnceCommand } from '../command.js';
import { EXIT } from '../exit.js';
import { depfileText, hlslFileOf, sourceOptions, warningLine, type SourceOptions } from '../includes.js';
import { checkOutputs, readInput, writeOutput } from '../io.js';

interface PreprocessOptions extends SourceOptions {
  file: string;
  output?: string;
  depfile?: string;
}

export const rootsigPreprocess: OnceCommand<PreprocessOptions> = {
  kind: 'once',
  path: ['rootsig', 'preprocess'],
  description: 'preprocess an HLSL file as DXC does before it reads root signature text (like dxc -P): the text of the taken branches, with #line markers',
  examples: [
    'dxbin rootsig preprocess --file shader.hlsl -D USE_BINDLESS -I include/',
    'dxbin rootsig preprocess --file rs.hlsli -U LEGACY -T vs_6_6 -o rs.pp.hlsl',
  ],
  schema: { file: S.str, output: S.str, files: S.arr(S.str), warnings: S.int, text: S.str },
  define: (c) =>
    sourceOptions(c.requiredOption('--file <file>', 'the HLSL file (- for standard input)'))
      .option('-o, --output <out>', 'write the text here (default: standard output)')
      .option('--depfile <out.d>', 'write a Make-syntax depfile of the files read (needs -o)'),
  async run(_args, o, streams) {
    const hlsl = hlslFileOf(o.file, await readInput(o.file, streams), o);
    const text = hlsl.preprocessedText();
    for (const w of hlsl.warnings) streams.err(warningLine(w, o.diagnosticsFormat));
    const files = [...hlsl.files];
    // every output against the others and against every file read, before any is written
    checkOutputs(
      [...(o.output !== undefined ? [{ path: o.output, as: '-o' }] : []), ...(o.depfile !== undefined ? [{ path: o.depfile, as: '--depfile' }] : [])],
      files.map((path, i) => ({ path, as: i === 0 ? '--file' : 'header' })),
    );
    // the depfile's text before any output: a name it cannot spell refuses the run with nothing written
    const depfile = o.depfile !== undefined ? depfileText(o.output ?? '-', files) : undefined;
    if (o.output === undefined || o.output === '-') {
      if (o.json) await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, ok: true, file: o.file, output: '-', files, warnings: hlsl.warnings.length, text })}\n`);
      else await streams.write(text);
    } else {
      await writeOutput(o.output, text, files, streams);
      if (o.json) await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, ok: true, file: o.file, output: o.output, files, warnings: hlsl.warnings.length })}\n`);
    }
    if (o.depfile !== undefined) await writeOutput(o.depfile, depfile!, files, streams);
    return EXIT.ok;
  },
};
