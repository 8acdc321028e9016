/** `dxbin extract | strip | embed`: move RTS0 between containers, as `dxc -dumpbin` does. */
import { ROOT_SIGNATURE_PART } from '../../../codecs/container.js';
import { findPart } from '../../container/container.js';
import { rootSignaturePart, withoutPart, withRootSignature, writeEdited } from '../../container/edit.js';
import { parseContainer } from '../../container/parse.js';
import { rootSignatureContainer } from '../../container/write.js';
import { containerRootSignature, readRootSignatureSource } from '../../root-signature/input.js';
import { UsageError, onFile } from '../errors.js';
import { readInput, writeOutputAtomically } from '../io.js';

export function extract(shader: string, options: { output: string; raw?: boolean }): void {
  const container = parseContainer(readInput(shader));
  const rts0 = rootSignaturePart(container);
  containerRootSignature(container); // refuse to extract a part that does not decode (offsets absolute in SHADER)
  writeOutputAtomically(options.output, options.raw ? rts0 : rootSignatureContainer(rts0), [shader]);
}

export function strip(shader: string, options: { output: string }): void {
  const bytes = readInput(shader);
  const container = parseContainer(bytes);
  if (!findPart(container, ROOT_SIGNATURE_PART)) throw new UsageError(`${shader} has no RTS0 part to strip`);
  writeOutputAtomically(options.output, writeEdited(withoutPart(container, ROOT_SIGNATURE_PART), container, bytes), [shader]);
}

export function embed(shader: string, rootSignature: string, options: { output: string; append?: boolean }): void {
  const bytes = readInput(shader);
  const container = onFile(shader, () => parseContainer(bytes));
  const source = onFile(rootSignature, () => readRootSignatureSource(readInput(rootSignature)));
  const edited = withRootSignature(container, source.part, options.append ? 'append' : 'in-place');
  writeOutputAtomically(options.output, writeEdited(edited, container, bytes), [shader, rootSignature]);
}
