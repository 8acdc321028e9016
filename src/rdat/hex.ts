/** Hex text of bytes and back, for the RDAT description's byte runs. */
import { hexToBytes } from '../rows/record.js';

export { bytesHex as toHex } from '../bytes/hex.js';

/** Bytes of lowercase or uppercase hex text. @throws {DescriptionError} bad-type for other text */
export function hexBytes(text: string, path: string): Uint8Array {
  return hexToBytes(text, undefined, path);
}
