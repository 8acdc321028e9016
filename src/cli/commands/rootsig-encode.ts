/** `dxbin rootsig encode FILE.json... -o OUT`: JSON form to a root-signature-only container. */
import { S } from '../schema.js';
import { encodeRootSignature, parseJsonText, rootSignatureContainer, rootSignatureFromJson } from '../../index.js';
import type { FileCommand } from '../command.js';
import { utf8 } from './shared.js';

export const rootsigEncode: FileCommand<{ raw?: boolean }> = {
  kind: 'files',
  path: ['rootsig', 'encode'],
  description: 'encode the JSON form to a root-signature-only container with a correct digest',
  examples: ['dxbin rootsig encode rs.json -o rs.dxbc', "dxbin rootsig encode 'json/*.json' --out-dir rs/ --raw"],
  schema: { output: S.str, size: S.int, raw: S.bool },
  input: 'file.json',
  writes: { required: true, ext: (o) => (o.raw ? '.rts0' : '.dxbc') },
  options: (c) => c.option('--raw', 'write the bare RTS0 part instead of a container'),
  async run(file, ctx) {
    const rts0 = encodeRootSignature(rootSignatureFromJson(parseJsonText(utf8(await ctx.read(file)))));
    const data = ctx.options.raw ? rts0 : rootSignatureContainer(rts0);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, size: data.byteLength, raw: ctx.options.raw === true };
  },
};
