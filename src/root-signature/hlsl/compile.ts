/**
 * Compiling root signature text the way `dxc -T rootsig_1_x` / `fxc /T rootsig_1_x` do: parse,
 * validate with DXC's rules (the runtime's for 1.2, which DXC does not know), serialize.
 */
import { DxbinError } from '../../bytes/errors.js';
import { rootSignatureContainer } from '../../container/write.js';
import { encodeRootSignature } from '../encode.js';
import type { RootSignature } from '../types.js';
import { validateRootSignature, type Violation } from '../validate.js';
import { parseRootSignature, type ParseOptions } from './parser.js';
import { RootSignatureText } from './source.js';

export interface CompileOptions extends ParseOptions {
  /** Run the validator (default true), as DXC does unless -Vd. */
  validate?: boolean;
}

/** The text parsed but breaks validation rules (DXC: "root signature validation errors"). */
export class RootSignatureValidationError extends DxbinError {
  constructor(
    readonly file: string,
    readonly violations: Violation[],
  ) {
    super(`${file}: error: root signature validation errors: ${violations.map((v) => `${v.message} [${v.code}]`).join(' ')}`, 'hlsl-validation', file);
  }
}

export function compileRootSignature(source: RootSignatureText | string, options: CompileOptions = {}): RootSignature {
  const text = typeof source === 'string' ? new RootSignatureText(source) : source;
  const rs = parseRootSignature(text, options);
  if (options.validate ?? true) {
    const violations = validateRootSignature(rs, { target: rs.version === 3 ? 'runtime' : 'dxc', global: options.global });
    if (violations.length > 0) throw new RootSignatureValidationError(text.file, violations);
  }
  return rs;
}

/** Text -> root-signature-only container with a valid digest, like `dxc -T rootsig_1_1 -E RS`. */
export function compileRootSignatureBlob(source: RootSignatureText | string, options: CompileOptions & { raw?: boolean } = {}): Uint8Array {
  const rts0 = encodeRootSignature(compileRootSignature(source, options));
  return options.raw ? rts0 : rootSignatureContainer(rts0);
}
