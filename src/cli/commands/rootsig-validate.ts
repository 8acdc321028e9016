/** `dxbin rootsig validate FILE... [--target runtime|dxc|all] [--global]`: exit 0 valid, 1 invalid. */
import { S } from '../schema.js';
import { Option } from 'commander';
import { VALIDATION_TARGETS, codecs, readRootSignatureSource, validateRootSignature, type ValidationTarget, printable } from '../../index.js';
import { formatViolation } from '../../index.js';
import type { FileCommand } from '../command.js';
import { CheckFailed } from '../errors.js';
import { expectRootSignatureSource } from './shared.js';
import { validateLibrary, isLibraryWithoutRts0, SUBOBJECTS_SCHEMA } from './library-rootsig.js';

export const rootsigValidate: FileCommand<{ target: ValidationTarget; global?: boolean }> = {
  kind: 'files',
  path: ['rootsig', 'validate'],
  description: 'check every validation rule; exit 0 valid, 1 invalid with one line per violation (code, path, message)',
  examples: ["dxbin rootsig validate 'shaders/**/*.cso'", 'dxbin rootsig validate rs.dxbc --target all --json'],
  schema: { target: S.str, valid: S.bool, violations: S.arr(S.obj), subobjects: SUBOBJECTS_SCHEMA },
  input: 'file',
  options: (c) =>
    c
      .addOption(new Option('--target <target>', 'runtime (CreateRootSignature), dxc (DXC validator) or all').choices(VALIDATION_TARGETS).default('runtime'))
      .option('--global', 'the signature is used as a global root signature (LOCAL_ROOT_SIGNATURE is then an error)'),
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    expectRootSignatureSource(file, bytes);
    if (isLibraryWithoutRts0(bytes)) return validateLibrary(file, bytes, ctx);
    const { rootSignature } = readRootSignatureSource(bytes);
    const target = ctx.options.target;
    const violations = validateRootSignature(rootSignature, { target, global: ctx.options.global });
    const result = { target, valid: violations.length === 0, violations };
    const count = `${violations.length} violation${violations.length === 1 ? '' : 's'} (target ${target})`;
    // one `code path message` line per violation; success is said too
    for (const v of violations) await ctx.print(formatViolation(v));
    if (violations.length === 0) await ctx.print(`${printable(file)}: valid (target ${target})`);
    if (violations.length > 0) {
      const diagnostics = violations.map((v) => ({ code: v.code, message: `${v.path ? `${v.path}: ` : ''}${v.message} (target ${target})` }));
      throw new CheckFailed(count, result, diagnostics);
    }
    return result;
  },
};
