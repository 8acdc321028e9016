/** `dxbin rootsig decompile FILE...`: HLSL root signature text. */
import { S } from '../schema.js';
import { printRootSignature, printRootSignatureDefine, readRootSignatureSource, printable } from '../../index.js';
import type { FileCommand } from '../command.js';
import { expectRootSignatureSource, noteSeveral } from './shared.js';
import { decompileLibrary, isLibraryWithoutRts0, SUBOBJECTS_SCHEMA } from './library-rootsig.js';

export const rootsigDecompile: FileCommand<{ multiline?: boolean; define?: string; several?: boolean }> = {
  kind: 'files',
  path: ['rootsig', 'decompile'],
  description: 'print a root signature (container or bare RTS0) as HLSL root signature text',
  examples: ['dxbin rootsig decompile shader.cso --multiline', 'dxbin rootsig decompile rs.dxbc --define MyRS -o rs.hlsli'],
  schema: { output: S.str, text: S.str, subobjects: SUBOBJECTS_SCHEMA },
  input: 'file',
  writes: { required: false, ext: () => '.hlsli' },
  options: (c) => c.option('--multiline', 'one clause per line, indented').option('--define <name>', 'wrap the text in #define NAME'),
  check: (o, _args, inputs) => noteSeveral(o, inputs),
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    expectRootSignatureSource(file, bytes);
    if (isLibraryWithoutRts0(bytes)) return decompileLibrary(file, bytes, ctx);
    const { rootSignature } = readRootSignatureSource(bytes);
    const o = ctx.options;
    const text = o.define ? printRootSignatureDefine(o.define, rootSignature, { multiline: o.multiline }) : printRootSignature(rootSignature, { multiline: o.multiline });
    if (ctx.output !== undefined) {
      await ctx.write(ctx.output, `${text}\n`, [file]);
      return { output: ctx.output };
    }
    // several files: an HLSL comment names each, so the output is still root signature text
    if (ctx.options.several) await ctx.print(`// ${printable(file, { backslash: true })}`);
    await ctx.print(text);
    return { text };
  },
};
