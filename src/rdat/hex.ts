/** Hex text of bytes and back, for the RDAT description's byte runs. */
import { hexToBytes } from '../rows/record.js';

export { bytesHex as toHex } from '../bytes/hex.js';

/** Bytes of lowercase or uppercase hex text. @throws {DescriptionError} bad-type for other text, or for anything but text (a number is no hex) */
export function hexBytes(text: unknown, path: string): Uint8Array {
  return hexToBytes(text, undefined, path);
}
