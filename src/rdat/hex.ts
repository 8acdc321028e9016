/** Hex text of bytes and back, for the RDAT description's byte runs. */
import { DescriptionError } from '../bytes/errors.js';

export { toHex } from '../container/digest.js';

/** Bytes of lowercase or uppercase hex text. @throws {DescriptionError} bad-type for other text */
export function hexBytes(text: string, path: string): Uint8Array {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw new DescriptionError('bad-type', path, 'expected hex text (two digits per byte)');
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
