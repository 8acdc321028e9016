/**
 * Compiling root signature text the way `dxc -T rootsig_1_x` / `fxc /T rootsig_1_x` do: parse,
 * validate with DXC's rules (the runtime's for 1.2, which DXC does not know), serialize.
 */
import { VERSIONS } from '../../../codecs/root-signature.js';
import { rootSignatureContainer } from '../../container/write.js';
import { encodeRootSignature } from '../encode.js';
import type { RootSignature } from '../types.js';
import { validateRootSignature, type Violation } from '../validate.js';
import { parseRootSignature, type ParseOptions } from './parser.js';
import { RootSignatureText } from './text.js';
import { RootSignatureValidationError } from './validation-error.js';

export { RootSignatureValidationError };

/** Options of compileRootSignature: the parse options and whether to validate. */
export interface CompileOptions extends ParseOptions {
  /** Run the validator (default true), as DXC does unless -Vd. */
  validate?: boolean;
}

/**
 * Compiles root signature text as `dxc -T rootsig_1_x` does: parse, validate (unless
 * `validate: false`), return the description.
 * @throws {HlslError} text the language rejects (DXC's message, file:line:column)
 * @throws {RootSignatureValidationError} text that parses but breaks validation rules
 * @throws {DescriptionError} bad-type (`source` not text), out-of-range (`options.version` no version)
 */
export function compileRootSignature(source: RootSignatureText | string, options: CompileOptions = {}): RootSignature {
  const text = typeof source === 'string' ? new RootSignatureText(source) : source;
  const rs = parseRootSignature(text, options);
  if (options.validate ?? true) {
    const violations = validateRootSignature(rs, { target: VERSIONS[rs.version].compileTarget, global: options.global });
    if (violations.length > 0) throw new RootSignatureValidationError(text.file, violations);
  }
  return rs;
}

/**
 * Text -> root-signature-only container with a valid digest, like `dxc -T rootsig_1_1 -E RS`
 * (`raw`: the bare RTS0 part).
 * @throws {HlslError} text the language rejects (DXC's message, file:line:column)
 * @throws {RootSignatureValidationError} text that parses but breaks validation rules
 * @throws {DescriptionError} bad-type (`source` not text), out-of-range (`options.version` no version), not-representable (a value the version cannot store, with `validate: false`)
 */
export function compileRootSignatureBlob(source: RootSignatureText | string, options: CompileOptions & { raw?: boolean } = {}): Uint8Array {
  const rts0 = encodeRootSignature(compileRootSignature(source, options));
  return options.raw ? rts0 : rootSignatureContainer(rts0);
}
