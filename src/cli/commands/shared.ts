/** Helpers the command files share: what a foreign file looks like, and the kind checks before decoding. */
import { codecs, looksLikeContainer, parseContainer, type ParseContainerOptions, type ParsedContainer } from '../../index.js';
import { InputError } from '../errors.js';

/** Formats a foreign file is often in, by the bytes it starts with (`at`: where the magic sits). */
const MAGICS: readonly { name: string; magic: readonly number[]; at?: number }[] = [
  { name: 'a PNG image', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { name: 'a JPEG image', magic: [0xff, 0xd8, 0xff] },
  { name: 'a GIF image', magic: [0x47, 0x49, 0x46, 0x38] },
  { name: 'a DDS texture', magic: [0x44, 0x44, 0x53, 0x20] },
  { name: 'a PDF document', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { name: 'a ZIP archive', magic: [0x50, 0x4b, 0x03, 0x04] },
  { name: 'gzip data', magic: [0x1f, 0x8b] },
  { name: 'xz data', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { name: 'a 7-Zip archive', magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { name: 'a tar archive', magic: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257 },
  { name: 'an ELF executable', magic: [0x7f, 0x45, 0x4c, 0x46] },
  { name: 'a Windows executable (PE)', magic: [0x4d, 0x5a] },
  { name: 'a WebAssembly module', magic: [0x00, 0x61, 0x73, 0x6d] },
  { name: 'a SPIR-V module', magic: [0x03, 0x02, 0x23, 0x07] },
  { name: 'LLVM bitcode (a bare DXIL part?)', magic: [0x42, 0x43, 0xc0, 0xde] },
];

/** What bytes look like, for "not a container" messages: empty, a known format, JSON, text, or binary data. */
export function looksLike(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) return 'an empty file';
  for (const { name, magic, at = 0 } of MAGICS) {
    if (bytes.byteLength >= at + magic.length && magic.every((b, i) => bytes[at + i] === b)) return name;
  }
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

/**
 * Notes, in a command's `check`, whether the run covers several inputs, so that its text results
 * can name each file (`several` travels with the options to worker threads).
 */
export function noteSeveral(options: { several?: boolean }, inputs: readonly string[]): void {
  options.several = inputs.length > 1;
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
