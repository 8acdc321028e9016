/** Helpers the command files share: what a foreign file looks like, and the kind checks before decoding. */
import { codecs, looksLikeContainer, parseContainer, type ParseContainerOptions, type ParsedContainer } from '../../index.js';
import { InputError } from '../errors.js';

/** What bytes look like, for "not a container" messages: empty, JSON, text, or binary data. */
export function looksLike(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) return 'an empty file';
  const head = bytes.subarray(0, 4096);
  let text = true;
  for (const b of head) if (b === 0 || (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12)) text = false;
  if (!text) return 'binary data';
  const start = new TextDecoder().decode(head).replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) return 'JSON text';
  return 'text';
}

function firstU32(bytes: Uint8Array): number | undefined {
  return bytes.byteLength >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : undefined;
}

/** True when the bytes start like a bare RTS0 part (a known version number). */
export function looksLikeRootSignaturePart(bytes: Uint8Array): boolean {
  const v = firstU32(bytes);
  return codecs.ROOT_SIGNATURE_VERSIONS.some((r) => r.value === v);
}

/** Refuses, with what the file looks like, anything that is neither a container nor a bare RTS0 part. */
export function expectRootSignatureSource(file: string, bytes: Uint8Array): void {
  if (looksLikeContainer(bytes) || looksLikeRootSignaturePart(bytes)) return;
  throw new InputError(file, 'foreign', `not a DXBC/DXIL container nor an RTS0 part (it looks like ${looksLike(bytes)})`);
}

/** Refuses anything that is not a container, saying what it looks like (a bare RTS0 part included). */
export function expectContainer(file: string, bytes: Uint8Array): void {
  if (looksLikeContainer(bytes)) return;
  const what = looksLikeRootSignaturePart(bytes) ? 'a bare RTS0 part' : looksLike(bytes);
  throw new InputError(file, 'foreign', `not a DXBC/DXIL container (it looks like ${what})`);
}

/** The kind check, then the parse: a file that is no container is refused by what it looks like. */
export function parseContainerFile(file: string, bytes: Uint8Array, options?: ParseContainerOptions): ParsedContainer {
  expectContainer(file, bytes);
  return parseContainer(bytes, options);
}

/** Decodes UTF-8 text (a BOM dropped). */
export function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
