/** `dxbin hash FILE [--check | --fix -o OUT]`: the container digest. */
import { CONTAINER_HEADER } from '../../../codecs/container.js';
import { computeContainerDigest, digestStatus, toHex } from '../../container/digest.js';
import { parseContainer } from '../../container/parse.js';
import { CheckFailed, UsageError } from '../errors.js';
import { readInput, writeOutputAtomically } from '../io.js';

export function hash(file: string, options: { check?: boolean; fix?: boolean; output?: string; lenient?: boolean }, out: (line: string) => void): void {
  if (options.check && options.fix) throw new UsageError('--check and --fix exclude each other');
  if (options.fix && !options.output) throw new UsageError('--fix needs -o OUT');
  if (!options.fix && options.output) throw new UsageError('-o goes with --fix');
  const bytes = readInput(file);
  const container = parseContainer(bytes, { mode: options.lenient ? 'lenient' : 'strict' });
  const computed = computeContainerDigest(bytes, container.layout.declaredSize);
  const status = digestStatus(container.digest, computed);
  const word = status.status === 'valid' ? 'valid' : status.status === 'sentinel' ? `sentinel (${status.sentinel})` : 'invalid';
  out(`stored   ${toHex(container.digest)}`);
  out(`computed ${toHex(computed)}`);
  out(`status   ${word}`);
  if (options.fix) {
    const fixed = bytes.slice();
    fixed.set(computed, CONTAINER_HEADER.digest.offset);
    writeOutputAtomically(options.output!, fixed, [file]);
  } else if (options.check && status.status !== 'valid') {
    throw new CheckFailed(`${file}: digest ${word}, expected ${toHex(computed)}`);
  }
}
