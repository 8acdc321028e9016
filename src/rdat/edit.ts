/**
 * Root signature subobjects of a DXIL library as first-class root signatures: list them, replace
 * them. A replacement edits the RDAT description and encodes it (docs/formats/rdat.md): a run of
 * the same size used by this subobject alone is overwritten where it lies, any other is appended
 * to RawBytes; every other byte of the part and every other part stay as they were, and the
 * container digest follows DXC's container builder (recomputed when it was valid).
 */
import { DescriptionError, kindOf } from '../bytes/errors.js';
import { expectBytes, expectObject, expectString } from '../bytes/check.js';
import { printable } from '../bytes/text.js';
import type { Container } from '../container/container.js';
import { writeEdited } from '../container/edit.js';
import { decodeRootSignature } from '../root-signature/decode.js';
import type { RootSignature } from '../root-signature/types.js';
import { encodeRdat } from './encode.js';
import { hexBytes, toHex } from './hex.js';
import { readLibraryRdat, type LibraryRdat } from './index.js';
import { tableRecords, textField } from './library.js';
import { enumName, enumValue } from '../json/vocabulary.js';
import { checkedParts } from './check.js';
import { SUBOBJECT_KIND_TABLE } from '../../codecs/rdat.js';
import type { RdatDescription, RdatRawBytes, RdatRecord } from './types.js';

const ROOT_SIGNATURE_KINDS = new Set(['GlobalRootSignature', 'LocalRootSignature']);
/**
 * A subobject record's kind by name, read as describeLibrary reads it: the stored value through the
 * table (digits for one it lacks), or a name of the table in place; anything else is refused
 * naming the field (a Kind of "Bogus\x1b..." was passed through, into messages too).
 */
const subobjectKind = (r: RdatRecord, i: number): string => String(enumName(SUBOBJECT_KIND_TABLE, enumValue(SUBOBJECT_KIND_TABLE, r.Kind, `SubobjectTable[${i}].Kind`)));

/** A root signature subobject: its name, kind, stored RTS0 bytes and index in the subobject table. */
export interface SubobjectRootSignature {
  name: string;
  kind: 'GlobalRootSignature' | 'LocalRootSignature';
  bytes: Uint8Array;
  subobject: number;
}

/** The subobject table's records, read as describeLibrary reads them (one SubobjectTable, no holes, each an object). */
function subobjectRecords(lib: LibraryRdat): RdatRecord[] {
  return tableRecords(lib.rdat, 'SubobjectTable', 'library.rdat') as RdatRecord[];
}

/**
 * Each subobject's name by the rule describeLibrary and encodeRdat read string fields with (text
 * only): a hand-written description's `Name: 7` (once read as a StringBuffer offset, which
 * encodeRdat refuses) or `{}` is an error naming the field, never the text "7" or "[object Object]".
 */
function subobjectNames(_lib: LibraryRdat, records: readonly RdatRecord[]): string[] {
  return records.map((r, i) => textField(r.Name, `SubobjectTable[${i}].Name`));
}

/** A library's bytes read, or a LibraryRdat checked at the boundary (DescriptionError bad-type naming the member). */
function checkedLibrary(library: Uint8Array | LibraryRdat): LibraryRdat {
  if (library instanceof Uint8Array) return readLibraryRdat(library);
  expectObject(library, 'library');
  expectObject(library.rdat, 'library.rdat');
  checkedParts(library.rdat, 'library.rdat'); // one part per type, no holes (a second SubobjectTable was ignored)
  return library;
}

/**
 * The root signature subobjects of a library, in table order.
 * @throws {DecodeError} a malformed container or RDAT part, missing-part without RDAT
 */
export function subobjectRootSignatures(library: Uint8Array | LibraryRdat): SubobjectRootSignature[] {
  const lib = checkedLibrary(library);
  const out: SubobjectRootSignature[] = [];
  const records = subobjectRecords(lib);
  const names = subobjectNames(lib, records);
  records.forEach((r, i) => {
    const kind = subobjectKind(r, i);
    if (ROOT_SIGNATURE_KINDS.has(kind)) {
      out.push({ name: names[i]!, kind: kind as SubobjectRootSignature['kind'], bytes: hexBytes(r.RootSignature, `SubobjectTable[${i}].RootSignature`), subobject: i });
    }
  });
  return out;
}

/**
 * Subobjects by name, for lookups that must find one: every name of the subobject table with the
 * table indices that carry it. `one(name)` is the index, undefined for none, and a DescriptionError
 * ambiguous-name naming both (indices and kinds) when two subobjects share the name: dxbin never
 * picks one (the runtime refuses such a state object; docs/decisions.md, "Ambiguous names").
 */
export function subobjectIndex(library: Uint8Array | LibraryRdat): {
  /** The table index of the subobject named `name`, undefined for none; a DescriptionError when two carry it. */
  one(name: string): number | undefined;
  /** Every name two or more subobjects carry, with their table indices. */
  duplicates(): { name: string; subobjects: number[] }[];
} {
  const lib = checkedLibrary(library);
  const records = subobjectRecords(lib);
  const names = subobjectNames(lib, records);
  const byName = new Map<string, number[]>();
  records.forEach((_, i) => {
    const name = names[i]!;
    const list = byName.get(name);
    if (list) list.push(i);
    else byName.set(name, [i]);
  });
  const describe = (i: number) => `SubobjectTable[${i}] (${subobjectKind(records[i]!, i)})`;
  return {
    one(name) {
      expectString(name, 'name');
      const list = byName.get(name);
      if (list === undefined) return undefined;
      if (list.length > 1) throw new DescriptionError('ambiguous-name', `SubobjectTable[${list[1]}].Name`, `two subobjects are named "${printable(name)}": ${describe(list[0]!)} and ${describe(list[1]!)}${list.length > 2 ? ` (and ${list.length - 2} more)` : ''}; a name must be unique to be edited or extracted`);
      return list[0];
    },
    duplicates: () => Array.from(byName).filter(([, l]) => l.length > 1).map(([name, subobjects]) => ({ name, subobjects })),
  };
}

/** A subobject root signature decoded (offsets relative to its bytes). */
export function decodeSubobjectRootSignature(s: SubobjectRootSignature): RootSignature {
  return decodeRootSignature(s.bytes);
}

/**
 * The library with the root signatures of the named subobjects replaced by the given RTS0 bytes.
 * @param replacements subobject name -> RTS0 bytes
 * @throws {DescriptionError} bad-name for a name that is no root signature subobject of the library;
 *   ambiguous-name for a name two subobjects share (subobjectIndex)
 * @throws {DecodeError} a malformed container or RDAT part
 */
export function withSubobjectRootSignatures(library: Uint8Array, replacements: ReadonlyMap<string, Uint8Array>): Uint8Array {
  expectBytes(library, 'library');
  if (!(replacements instanceof Map)) throw new DescriptionError('bad-type', 'replacements', `expected a Map of subobject name -> RTS0 bytes, got ${kindOf(replacements)}`);
  const lib = readLibraryRdat(library);
  const records = subobjectRecords(lib);
  const raw = lib.rdat.parts.find((p) => p.type === 'RawBytes') as RdatRawBytes | undefined;
  const users = new Map<string, number>();
  for (const r of records) {
    const ref = r.refs?.RootSignature;
    if (Array.isArray(ref)) users.set(ref.join('+'), (users.get(ref.join('+')) ?? 0) + 1);
  }
  const index = subobjectIndex(lib);
  const names = subobjectNames(lib, records);
  const rsNames = () => records.flatMap((r, i) => (ROOT_SIGNATURE_KINDS.has(subobjectKind(r, i)) ? [`"${printable(names[i]!)}"`] : []));
  // one pass: in-place overwrites go into one copy of RawBytes, turned back into hex once
  let rawBytes: Uint8Array | undefined;
  for (const [name, bytes] of replacements) {
    expectString(name, 'subobject name');
    expectBytes(bytes, `replacements.${printable(name)}`);
    const at = index.one(name);
    const rec = at === undefined || !ROOT_SIGNATURE_KINDS.has(subobjectKind(records[at]!, at)) ? undefined : records[at]!;
    if (!rec) throw new DescriptionError('bad-name', 'subobject', `the library has no root signature subobject "${printable(name)}" (it has ${rsNames().join(', ') || 'none'})`);
    const hex = toHex(bytes);
    const ref = rec.refs?.RootSignature;
    if (raw && Array.isArray(ref) && ref[1] === bytes.byteLength && users.get(ref.join('+')) === 1) {
      // overwrite in place: the run is this subobject's alone and the size is the same
      rawBytes ??= hexBytes(raw.hex, 'RawBytes');
      rawBytes.set(bytes, ref[0]!);
    }
    rec.RootSignature = hex;
  }
  if (raw && rawBytes) raw.hex = toHex(rawBytes);
  return writeRdat(lib, library);
}

/** The library container with its RDAT part encoded from `lib.rdat`; every other part kept, the digest by DXC's rule. */
function writeRdat(lib: LibraryRdat, original: Uint8Array): Uint8Array {
  const rdat = encodeRdat(lib.rdat);
  const edited: Container = { ...lib.container, parts: lib.container.parts.map((p, i) => (i === lib.partIndex ? { ...p, data: rdat } : p)) };
  return writeEdited(edited, lib.container, original);
}

/**
 * The library with its RDAT part replaced by an edited description (decode with readLibraryRdat,
 * edit the JSON form, encode here).
 * @throws {DescriptionError} a description encodeRdat refuses
 * @throws {DecodeError} a malformed container
 */
export function withRdat(library: Uint8Array, rdat: RdatDescription): Uint8Array {
  expectBytes(library, 'library');
  const lib = readLibraryRdat(library);
  return writeRdat({ ...lib, rdat }, library);
}
