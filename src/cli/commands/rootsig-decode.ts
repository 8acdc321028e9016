/** `dxbin rootsig decode FILE...`: the JSON form of a root signature. */
import { S } from '../schema.js';
import { readRootSignatureSource, rootSignatureToJson, printable, printableJson } from '../../index.js';
import type { FileCommand } from '../command.js';
import { expectRootSignatureSource, noteSeveral } from './shared.js';

export const rootsigDecode: FileCommand<{ lenient?: boolean; several?: boolean }> = {
  kind: 'files',
  path: ['rootsig', 'decode'],
  description: 'decode the root signature of a container or bare RTS0 part to the JSON form (printed, or written with -o/--out-dir)',
  examples: ['dxbin rootsig decode shader.cso', 'dxbin rootsig decode shaders/*.cso --out-dir json/', 'dxbin rootsig decode - < shader.cso'],
  schema: { output: S.str, version: S.str, rootSignature: S.obj },
  input: 'file',
  writes: { required: false, ext: () => '.json' },
  options: (c) => c.option('--lenient', 'accept containers as vkd3d does (gaps, parts in any order)'),
  check: (o, _args, inputs) => noteSeveral(o, inputs),
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    expectRootSignatureSource(file, bytes);
    const source = readRootSignatureSource(bytes, ctx.options.lenient ? 'lenient' : 'strict');
    const json = rootSignatureToJson(source.rootSignature);
    const text = `${printableJson(json, 2)}\n`;
    if (ctx.output !== undefined) {
      await ctx.write(ctx.output, text, [file]);
      return { output: ctx.output, version: json.version };
    }
    // several files: a heading names each, as head(1) does
    if (ctx.options.several) await ctx.print(`==> ${printable(file)} <==`);
    await ctx.print(text.trimEnd());
    return { rootSignature: json };
  },
};
