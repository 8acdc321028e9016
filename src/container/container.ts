/** The in-memory form of a DXBC/DXIL container: header fields and parts, each kept byte for byte. */
import { DescriptionError } from '../bytes/errors.js';

/** A container part: FourCC and data, byte for byte. */
export interface ContainerPart {
  /** FourCC, one character per byte (Latin-1), so any four bytes survive. */
  readonly name: string;
  readonly data: Uint8Array;
}

/** A DXBC/DXIL container: digest, version and parts in file order. */
export interface Container {
  readonly digest: Uint8Array;
  readonly majorVersion: number;
  readonly minorVersion: number;
  readonly parts: readonly ContainerPart[];
}

/** Where things were in the bytes a container was parsed from. */
export interface ContainerLayout {
  /** The header's container size field. */
  readonly declaredSize: number;
  readonly partOffsets: readonly number[];
  /** True when the parts are packed back to back after the offset table and end at the declared size. */
  readonly packed: boolean;
  /** Bytes in the buffer after the declared size. */
  readonly trailingBytes: number;
}

/** A container with the layout it was parsed from. */
export interface ParsedContainer extends Container {
  readonly layout: ContainerLayout;
}

/** The first part named `name`, or undefined. */
export function findPart(container: Container, name: string): ContainerPart | undefined {
  return container.parts.find((p) => p.name === name);
}

/** Absolute offset of a parsed part's data (after its 8-byte header) in the container bytes. */
export function partDataOffset(container: ParsedContainer, index: number): number {
  return container.layout.partOffsets[index]! + 8;
}

export function partIndex(container: Container, name: string): number {
  return container.parts.findIndex((p) => p.name === name);
}

/**
 * The four bytes of a part name.
 * @throws {DescriptionError} bad-name unless the name has exactly four characters
 */
export function fourCCBytes(name: string, path = 'part.name'): Uint8Array {
  if (typeof name !== 'string' || name.length !== 4) throw new DescriptionError('bad-name', path, `a FourCC has 4 characters, got ${JSON.stringify(name)}`);
  return Uint8Array.from(name, (c) => c.charCodeAt(0) & 0xff);
}

/** True when the bytes start with the container magic "DXBC". */
export function looksLikeContainer(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && bytes[0] === 0x44 && bytes[1] === 0x58 && bytes[2] === 0x42 && bytes[3] === 0x43;
}
