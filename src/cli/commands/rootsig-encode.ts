/** `dxbin rootsig encode FILE.json... -o OUT`: JSON form to a root-signature-only container. */
import { S } from '../schema.js';
import { encodeRootSignature, looksLikeContainer, parseJsonText, rootSignatureContainer, rootSignatureFromJson } from '../../index.js';
import type { FileCommand } from '../command.js';
import { looksLike, looksLikeRootSignaturePart, utf8 } from './shared.js';
import { InputError } from '../errors.js';

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
    const bytes = await ctx.read(file);
    // a binary file is refused by what it looks like, not with JSON.parse's message about its first byte
    const what = looksLikeContainer(bytes) ? 'a DXBC/DXIL container' : looksLikeRootSignaturePart(bytes) ? 'a bare RTS0 part' : looksLike(bytes);
    if (what !== 'JSON text' && what !== 'text') throw new InputError(file, 'foreign', `not the JSON form of a root signature (it looks like ${what}; rootsig decode writes the JSON form)`);
    const rts0 = encodeRootSignature(rootSignatureFromJson(parseJsonText(utf8(bytes))));
    const data = ctx.options.raw ? rts0 : rootSignatureContainer(rts0);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, size: data.byteLength, raw: ctx.options.raw === true };
  },
};
