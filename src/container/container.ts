/** The in-memory form of a DXBC/DXIL container: header fields and parts, each kept byte for byte. */
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { printable } from '../bytes/text.js';
import { kindOf } from '../bytes/errors.js';
import { expectArray, expectBytes, expectObject, expectObjects } from '../bytes/check.js';

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

/**
 * The part named `name`, or undefined.
 * @throws {DescriptionError} bad-type when `container` is not a container (expectContainer)
 * @throws {DecodeError} duplicate-part when two parts have the name (onlyPartIndex)
 */
export function findPart(container: Container, name: string): ContainerPart | undefined {
  const i = partIndex(container, name);
  return i < 0 ? undefined : container.parts[i];
}

/**
 * The parts of `container`, or DescriptionError bad-type at `container` / `container.parts` when
 * it is not an object with a parts array (one Array.isArray test when it is).
 */
export function expectContainer(container: Container): readonly ContainerPart[] {
  const parts = (container as Container | null | undefined)?.parts;
  if (!Array.isArray(parts)) {
    expectObject(container, 'container');
    expectArray(parts, 'container.parts');
  }
  expectObjects(parts, 'container.parts');
  return parts;
}

/**
 * Absolute offset of a parsed part's data (after its 8-byte header) in the container bytes.
 * @throws {DescriptionError} bad-type when `container` is not a parsed container, out-of-range for an index past its parts
 */
export function partDataOffset(container: ParsedContainer, index: number): number {
  // a number only: a string index read the offset table as an object ("0" a part, "length" its count)
  const at = typeof index === 'number' ? (container as ParsedContainer | null | undefined)?.layout?.partOffsets?.[index] : undefined;
  if (at === undefined) {
    expectObject(container, 'container');
    expectObject(container.layout, 'container.layout'); // a Container that was not parsed
    expectArray(container.layout.partOffsets, 'container.layout.partOffsets');
    if (typeof index !== 'number') throw new DescriptionError('bad-type', 'index', `expected a part index, got ${valueText(index)}`);
    throw new DescriptionError('out-of-range', 'index', `part ${String(index)} of ${container.layout.partOffsets.length}`);
  }
  return at + 8;
}

/**
 * The index of the part named `name`, or -1. A name two parts share is ambiguous: DXC's readers
 * would take the first and its validator refuses the container (a repeated part), so dxbin
 * refuses any lookup of it, naming both (docs/decisions.md, "Ambiguous names"); the parts stay
 * listed (`container.parts`, `inspect`).
 * @throws {DescriptionError} bad-type when `container` is not a container (expectContainer);
 *   ambiguous-name for a repeated part of a container that was not parsed
 * @throws {DecodeError} duplicate-part for a repeated part of a parsed container (at the second one; the detail names both parts' offsets)
 */
export function partIndex(container: Container, name: string): number {
  return lookUpPart(container, name, 'ambiguous-name');
}

/**
 * partIndex's one scan. `unparsed` is the error for a repeated part of a container that was not
 * parsed (no offset to give): partIndex's DescriptionError ambiguous-name, or DecodeError
 * duplicate-part at byte 0 (extractPart, which has always refused a repeat as a decode error).
 * Module-internal (src/container/edit.ts); not exported from src/index.ts.
 */
export function lookUpPart(container: Container, name: string, unparsed: 'ambiguous-name' | 'duplicate-part'): number {
  return indexOfPart(expectContainer(container), (container as Partial<ParsedContainer>).layout?.partOffsets, name, unparsed);
}

/**
 * lookUpPart's scan on parts already checked (expectContainer, or parseContainer's own result):
 * `offsets` are the parsed layout's part offsets, absent for a container that was not parsed.
 * Module-internal (src/root-signature/input.ts reads its own parse with it; arguments are checked
 * once, at the public boundary).
 */
export function indexOfPart(parts: readonly ContainerPart[], offsets: readonly number[] | undefined, name: string, unparsed: 'ambiguous-name' | 'duplicate-part'): number {
  const first = parts.findIndex((p) => p.name === name);
  if (first < 0) return -1;
  for (let j = first + 1; j < parts.length; j++) {
    if (parts[j]!.name !== name) continue;
    const at = offsets?.[j];
    const where = at === undefined ? '' : ` (at bytes ${offsets![first]} and ${at})`;
    const detail = `parts ${first} and ${j} are both named ${valueText(name)}${where}: which one is meant is ambiguous (DXC's validator refuses a repeated part)`;
    if (at === undefined && unparsed === 'ambiguous-name') throw new DescriptionError('ambiguous-name', `container.parts[${j}].name`, detail);
    throw new DecodeError('duplicate-part', at ?? 0, `container.parts[${j}].name`, detail);
  }
  return first;
}

/**
 * The four bytes of a part name.
 * @throws {DescriptionError} bad-name unless the name has exactly four characters
 */
export function fourCCBytes(name: string, path = 'part.name'): Uint8Array {
  if (!isFourCC(name)) throw new DescriptionError('bad-name', path, fourCCProblem(name));
  return Uint8Array.from(name, (c) => c.charCodeAt(0));
}

/**
 * A value for container messages: a short string in quotes, escaped by printable (ASCII only: a
 * part name's C1 or bidi characters as \xNN / \u{...}), a number as is, anything else by kind. Not
 * quoted() (src/bytes/text.ts): the root-signature bundles carry printable already (issue 29 budgets).
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return `"${printable(value.length > 32 ? `${value.slice(0, 32)}…` : value, { ascii: true })}"`;
  return typeof value === 'number' ? String(value) : kindOf(value);
}

/** Why `name` is no FourCC (isFourCC is false), for messages. */
export function fourCCProblem(name: unknown): string {
  return typeof name === 'string' && name.length === 4 ? `a FourCC has 4 characters of one byte each (U+0000..U+00FF), got ${valueText(name)}` : `a FourCC has 4 characters, got ${valueText(name)}`;
}

/**
 * True for a part name a container can hold: four characters of one byte each (Latin-1, as
 * parseContainer gives them). A character past U+00FF was written as its low byte ("\u0100XIL"
 * became "\0XIL").
 */
export function isFourCC(name: unknown): name is string {
  return typeof name === 'string' && name.length === 4 && name.charCodeAt(0) <= 0xff && name.charCodeAt(1) <= 0xff && name.charCodeAt(2) <= 0xff && name.charCodeAt(3) <= 0xff;
}

/**
 * True when the bytes start with the container magic "DXBC".
 * @throws {DescriptionError} bad-type when `bytes` is not a Uint8Array
 */
export function looksLikeContainer(bytes: Uint8Array): boolean {
  expectBytes(bytes, 'bytes');
  return bytes.byteLength >= 4 && bytes[0] === 0x44 && bytes[1] === 0x58 && bytes[2] === 0x42 && bytes[3] === 0x43;
}
