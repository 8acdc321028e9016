/** The one bytes -> lowercase hex text function (digests, kept runs, byte pointees, the byte map). */

let digits: string[] | undefined;

/** Lowercase hex of `bytes`, two digits a byte. */
export function bytesHex(bytes: Uint8Array): string {
  const d = (digits ??= Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')));
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += d[bytes[i]!]!;
  return s;
}
