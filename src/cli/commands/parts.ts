import { S } from '../schema.js';
/** `dxbin extract | strip | embed`: move RTS0 between containers, as `dxc -dumpbin` does. */
import { codecs, containerRootSignature, findPart, readRootSignatureSource, rootSignatureContainer, rootSignaturePart, withRootSignature, withoutPart, writeEdited } from '../../index.js';
import type { FileCommand } from '../command.js';
import type { ParsedContainer, RootSignature } from '../../index.js';
import { requireFit } from './verify.js';
import { InOtherFile, InputError, UsageError } from '../errors.js';
import { expectRootSignatureSource, parseContainerFile } from './shared.js';
import { embedSubobject, extractSubobject } from './library-rootsig.js';

/** Refuses a container without an RTS0 part; `verb` is what the command would do with it. */
function requireRootSignaturePart(file: string, container: ParsedContainer, verb: string): void {
  if (!findPart(container, codecs.ROOT_SIGNATURE_PART)) throw new InputError(file, 'no-part', `the container has no RTS0 part to ${verb}`);
}

export const extract: FileCommand<{ raw?: boolean; subobject?: string }> = {
  kind: 'files',
  path: ['extract'],
  description: 'write the RTS0 part of a shader as a root-signature-only container (like dxc -extractrootsignature, with a real digest)',
  examples: ['dxbin extract shader.cso -o rs.dxbc', "dxbin extract 'shaders/*.cso' --out-dir rs/ --raw"],
  input: 'shader',
  schema: { output: S.str, size: S.int, raw: S.bool, subobject: S.str },
  writes: { required: true, ext: (o) => (o.raw ? '.rts0' : '.dxbc') },
  options: (c) => c.option('--raw', 'write the bare RTS0 part').option('--subobject <name>', "a DXIL library's root signature subobject (RDAT) instead of RTS0"),
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    const container = parseContainerFile(file, bytes);
    if (ctx.options.subobject !== undefined) return extractSubobject(file, bytes, ctx);
    requireRootSignaturePart(file, container, 'extract');
    const rts0 = rootSignaturePart(container);
    containerRootSignature(container); // refuse to extract a part that does not decode (offsets absolute in the file)
    const data = ctx.options.raw ? rts0 : rootSignatureContainer(rts0);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, size: data.byteLength, raw: ctx.options.raw === true };
  },
};

export const strip: FileCommand = {
  kind: 'files',
  path: ['strip'],
  description: 'remove the RTS0 part (like dxc -Qstrip_rootsignature)',
  examples: ['dxbin strip shader.cso -o stripped.cso', "dxbin strip 'shaders/*.cso' -o 'out/{name}.cso'"],
  input: 'shader',
  schema: { output: S.str, size: S.int, removed: S.str },
  writes: { required: true, ext: () => undefined },
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    const container = parseContainerFile(file, bytes);
    requireRootSignaturePart(file, container, 'strip');
    const data = writeEdited(withoutPart(container, codecs.ROOT_SIGNATURE_PART), container, bytes);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, size: data.byteLength, removed: codecs.ROOT_SIGNATURE_PART };
  },
};

export const embed: FileCommand<{ rs: string; append?: boolean; verify?: boolean; subobject?: string }> = {
  kind: 'files',
  path: ['embed'],
  description: 'set the RTS0 part from a container or bare part (replaced in place, or appended before PRIV)',
  examples: ['dxbin embed shader.cso --rs rs.dxbc -o out.cso', "dxbin embed 'shaders/*.cso' --rs rs.rts0 --out-dir embedded/ --append"],
  input: 'shader',
  extraInputs: ['rs'],
  schema: { output: S.str, size: S.int, rootSignature: S.str, subobject: S.str },
  writes: { required: true, ext: () => undefined },
  options: (c) =>
    c.requiredOption('--rs <file>', 'the root signature: a container holding RTS0 or a bare RTS0 part').option('--append', 'remove any RTS0 and append the new one, as dxc -setrootsignature orders parts')
      .option('--verify', 'refuse (exit 1, nothing written) unless the root signature fits the shader')
      .option('--subobject <name>', "replace a DXIL library's root signature subobject (RDAT) instead of RTS0"),
  check(o, _args, inputs) {
    if (inputs.includes(o.rs) && o.rs === '-') throw new UsageError('standard input (-) can be read only once');
  },
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    const container = parseContainerFile(file, bytes);
    const rsFile = ctx.options.rs;
    const rsBytes = await ctx.read(rsFile);
    let part: Uint8Array;
    let rootSignature: RootSignature;
    try {
      expectRootSignatureSource(rsFile, rsBytes);
      ({ part, rootSignature } = readRootSignatureSource(rsBytes));
    } catch (e) {
      // errors in the root signature name its file, not the shader's
      throw e instanceof InputError ? e : new InOtherFile(rsFile, e);
    }
    if (ctx.options.subobject !== undefined) return embedSubobject(file, bytes, part, rsFile, ctx);
    if (ctx.options.verify) await requireFit(rootSignature, [file], async () => bytes, async (line) => ctx.streams.err(line));
    const edited = withRootSignature(container, part, ctx.options.append ? 'append' : 'in-place');
    const data = writeEdited(edited, container, bytes);
    await ctx.write(ctx.output!, data, [file, rsFile]);
    return { output: ctx.output, size: data.byteLength, rootSignature: rsFile };
  },
};
