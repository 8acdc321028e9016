/** The error of text that parses but breaks validation rules, in a module of its own so that code catching it (the CLI's messages) need not load the compiler. */
import { DxbinError, type RootSignatureValidationErrorCode } from '../../bytes/errors.js';
import type { Violation } from '../validate.js';

/** The text parsed but breaks validation rules (DXC: "root signature validation errors"). */
export class RootSignatureValidationError extends DxbinError<RootSignatureValidationErrorCode> {
  constructor(
    readonly file: string,
    readonly violations: Violation[],
  ) {
    // an error's constructor never throws: violations that are not an array of objects read as none / as written
    const list: unknown[] = Array.isArray(violations) ? violations : [];
    const detail = `root signature validation errors: ${list.map((v) => (typeof v === 'object' && v !== null ? `${(v as Violation).message} [${(v as Violation).code}]` : String(v))).join(' ')}`;
    super('hlsl-validation', file, detail, `${file}: error: ${detail}`);
  }
}
