/** `dxbin hash FILE... [--check | --fix -o OUT]`: the container digest. */
import { S } from '../schema.js';
import { codecs, computeContainerDigest, digestSentinel, digestStatus, toHex, printable, DecodeError, type ParsedContainer } from '../../index.js';
import type { FileCommand } from '../command.js';
import { CheckFailed, UsageError, diagnosticOf } from '../errors.js';
import { noteSeveral, parseContainerFile } from './shared.js';

/** Why no digest can be computed, in --json: the fields of a CLI diagnostic (as the strict reading's `error` has them). */
export const NOT_COMPUTABLE_SCHEMA = S.object({ code: S.str, message: S.str, field: S.str, offset: S.int });

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
      const sentinel = status.sentinel ? ` (stored: the ${status.sentinel} sentinel)` : '';
      await ctx.print(`${prefix}stored   ${toHex(container.digest)}`);
      await ctx.print(`${prefix}computed none, ${notComputableText(computed)}`);
      await ctx.print(`${prefix}status   not computable${sentinel}`);
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

/**
 * The digest `container` (parsed from `bytes`) should carry, over bytes 20..its declared size; or,
 * when that range is not inside `bytes` (a lenient parse takes a declared size past the data, or
 * inside the header), the container-size DecodeError saying why none can be computed: returned,
 * not thrown, so a lenient reading shows the rest (as a part that does not decode is shown).
 */
export function containerDigestOrReason(container: ParsedContainer, bytes: Uint8Array): Uint8Array | DecodeError {
  const size = container.layout.declaredSize;
  const from = codecs.DIGEST_COVERS_FROM;
  if (size >= from && size <= bytes.byteLength) return computeContainerDigest(bytes, size);
  const detail = size > bytes.byteLength ? `declares ${size} bytes, the data has ${bytes.byteLength}` : `declares ${size} bytes, the digest's range begins at byte ${from}`;
  return new DecodeError('container-size', codecs.CONTAINER_HEADER.containerSize.offset, 'container.header.containerSize', detail);
}

/** A digest status with no computed digest: why not, and the sentinel the stored digest is, if it is one. */
export interface NotComputable {
  status: 'not-computable';
  reason: DecodeError;
  sentinel?: string;
}

/** The status of a stored digest that cannot be checked (`reason` says why). */
export function notComputable(stored: Uint8Array, reason: DecodeError): NotComputable {
  const sentinel = digestSentinel(stored);
  return { status: 'not-computable', reason, ...(sentinel ? { sentinel } : {}) };
}

/** The text: `digest not computable: what (field at byte N)`, placed as the CLI's error lines place a problem. */
export function notComputableText(reason: DecodeError): string {
  return `digest not computable: ${printable(reason.detail)} (${reason.path} at byte ${reason.offset})`;
}

/** The JSON of why: code, message, field, offset (a CLI diagnostic without its file). */
export function reasonJson(reason: DecodeError): { code: string; message: string; field?: string; offset?: number } {
  const d = diagnosticOf(reason);
  return { code: d.code, message: d.message, ...(d.field !== undefined ? { field: d.field } : {}), ...(d.offset !== undefined ? { offset: d.offset } : {}) };
}
