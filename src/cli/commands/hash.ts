/** `dxbin hash FILE... [--check | --fix -o OUT]`: the container digest. */
import { S } from '../schema.js';
import { codecs, digestStatus, toHex, printable, DecodeError } from '../../index.js';
import type { FileCommand } from '../command.js';
import { CheckFailed, UsageError } from '../errors.js';
import { noteSeveral, parseContainerFile } from './shared.js';
import { NOT_COMPUTABLE_SCHEMA, containerDigestOrReason, notComputable, notComputableText, reasonJson, sentinelNote } from './not-computable.js';

export const hash: FileCommand<{ check?: boolean; fix?: boolean; lenient?: boolean; several?: boolean }> = {
  kind: 'files',
  path: ['hash'],
  description: 'show, check or fix the container digest',
  examples: ["dxbin hash --check 'shaders/**/*.cso'", 'dxbin hash --fix shader.cso -o fixed.cso', "dxbin hash --fix 'in/*.cso' --out-dir fixed/"],
  schema: { stored: S.str, computed: S.str, status: S.enum('valid', 'sentinel', 'invalid', 'not-computable'), sentinel: S.str, reason: NOT_COMPUTABLE_SCHEMA, output: S.str },
  input: 'file',
  writes: { required: false, ext: () => undefined },
  options: (c) =>
    c
      .option('--check', 'exit 0 only when the stored digest is right')
      .option('--fix', 'write a copy with the right digest (needs -o or --out-dir)')
      .option('--lenient', 'accept containers as vkd3d does (gaps, parts in any order)'),
  check(o, _args, inputs) {
    noteSeveral(o, inputs);
    if (o.check && o.fix) throw new UsageError('--check and --fix exclude each other');
    if (o.fix && o.output === undefined && o.outDir === undefined) throw new UsageError('--fix needs -o OUT or --out-dir DIR');
    if (!o.fix && (o.output !== undefined || o.outDir !== undefined)) throw new UsageError('-o and --out-dir go with --fix');
  },
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    const container = parseContainerFile(file, bytes, { mode: ctx.options.lenient ? 'lenient' : 'strict' });
    // several files: each line names its file
    const prefix = ctx.options.several ? `${printable(file)}: ` : '';
    // lenient: a declared size outside 20..the data leaves no digest to compute; said, not thrown
    const computed = containerDigestOrReason(container, bytes);
    if (computed instanceof DecodeError) {
      const status = notComputable(container.digest, computed);
      await ctx.print(`${prefix}stored   ${toHex(container.digest)}`);
      await ctx.print(`${prefix}computed none, ${notComputableText(computed)}`);
      await ctx.print(`${prefix}status   not computable${sentinelNote(status)}`);
      const result = { stored: toHex(container.digest), status: status.status, ...(status.sentinel ? { sentinel: status.sentinel } : {}), reason: reasonJson(computed) };
      // no right digest exists to write, nor can the stored one be right
      if (ctx.options.fix) throw new DecodeError(computed.code, computed.offset, computed.path, `${computed.detail}: no digest can be computed to write`);
      if (ctx.options.check) throw new CheckFailed(notComputableText(computed), result);
      return result;
    }
    const status = digestStatus(container.digest, computed);
    const word = status.status === 'valid' ? 'valid' : status.status === 'sentinel' ? `sentinel (${status.sentinel})` : 'invalid';
    await ctx.print(`${prefix}stored   ${toHex(container.digest)}`);
    await ctx.print(`${prefix}computed ${toHex(computed)}`);
    await ctx.print(`${prefix}status   ${word}`);
    const result: Record<string, unknown> = { stored: toHex(container.digest), computed: toHex(computed), status: status.status, ...(status.status === 'sentinel' ? { sentinel: status.sentinel } : {}) };
    if (ctx.options.fix) {
      const fixed = bytes.slice();
      fixed.set(computed, codecs.CONTAINER_HEADER.digest.offset);
      await ctx.write(ctx.output!, fixed, [file]);
      result.output = ctx.output;
    } else if (ctx.options.check && status.status !== 'valid') {
      throw new CheckFailed(`digest ${word}, expected ${toHex(computed)}`, result);
    }
    return result;
  },
};
