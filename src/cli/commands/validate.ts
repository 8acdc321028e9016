/** `dxbin rootsig validate FILE [--target runtime|dxc|all] [--json]`: exit 0 valid, 1 invalid. */
import { VALIDATION_TARGETS, type ValidationTarget } from '../../../codecs/validation-rules.js';
import { readRootSignatureSource } from '../../root-signature/input.js';
import { validateRootSignature } from '../../root-signature/validate.js';
import { formatViolation } from '../../bytes/errors.js';
import { CheckFailed, UsageError } from '../errors.js';
import { readInput } from '../io.js';

export function rootsigValidate(file: string, options: { target?: string; json?: boolean; global?: boolean }, out: (line: string) => void): void {
  const target = (options.target ?? 'runtime') as ValidationTarget;
  if (!VALIDATION_TARGETS.includes(target)) throw new UsageError(`--target takes ${VALIDATION_TARGETS.join(', ')}; got ${options.target}`);
  const { rootSignature } = readRootSignatureSource(readInput(file));
  const violations = validateRootSignature(rootSignature, { target, global: options.global });
  if (options.json) out(JSON.stringify({ file, target, valid: violations.length === 0, violations }, null, 2));
  else for (const v of violations) out(formatViolation(v));
  if (violations.length > 0) throw new CheckFailed(`${file}: ${violations.length} violation${violations.length === 1 ? '' : 's'} (target ${target})`);
}
