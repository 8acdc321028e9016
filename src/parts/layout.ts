/**
 * A part as blocks of rows: each block is one record or an array of records at an offset the
 * part's earlier blocks give, then walks: records at offsets a graph over the blocks gives (RDEF's
 * variables, types and members). The generic part reader reads the blocks, the writer writes them
 * back over the bytes no block names (kept as they are: string tables, padding, bitcode), so
 * decode then encode gives the same bytes for any part the reader accepts.
 */
import type { RecordDef } from '../../codecs/rows.js';
import {
  BITCODE_HEADER_AT,
  DXBC_STAT_COUNTER,
  DXIL_PROGRAM_HEADER,
  HASH,
  ILDN,
  RDEF_BINDING,
  RDEF_BINDING_51,
  RDEF_CONSTANT_BUFFER,
  RDEF_HEADER,
  RDEF_INTERFACE,
  RDEF_MEMBER,
  RDEF_RD11,
  RDEF_RD11_AT,
  RDEF_TYPE,
  RDEF_TYPE_5,
  RDEF_VARIABLE,
  RDEF_VARIABLE_5,
  SFI0,
  SIGNATURE_HEADER,
  SIGNATURE_PARTS,
  VERS,
} from '../../codecs/parts.js';
import type { Row } from '../rows/record.js';

/** Decoded blocks by key: one record, or an array of records. */
export type Blocks = Record<string, Row | Row[]>;

/** One block of a part. */
export interface Block {
  readonly key: string;
  /** The record layout, which may depend on blocks read before. */
  readonly def: RecordDef | ((b: Blocks) => RecordDef);
  /** Data offset of the block (of its first record). */
  readonly at: (b: Blocks) => number;
  /** Records in the array; absent for a single record. */
  readonly count?: (b: Blocks, data: Uint8Array) => number;
  /** Whether the block is there (absent: always). */
  readonly when?: (b: Blocks) => boolean;
}

/**
 * What a walk is given: records taken at the offsets it computes, appended to the block of `key`.
 * A place is taken once (a second `one` at the same offset of the same key gives the first row
 * back), so shared records (types several variables use) are one row, and decode and encode
 * (which replays the walk over the given rows) place the same records in the same order.
 */
export interface Walker {
  one(def: RecordDef, at: number, key: string): Row;
  /** `count` records from `at` (refused when they cannot fit in the data). */
  list(def: RecordDef, at: number, count: number, key: string): Row[];
  /** A level deeper in the work budget's depth (pair with leave). */
  enter(at: number): void;
  leave(): void;
  /** A typed refusal at `at` (DecodeError when decoding, DescriptionError when encoding). */
  refuse(at: number, path: string, detail: string): never;
}

/** Records at offsets the blocks before give through a graph (RDEF's variables, types and members). */
export interface Walk {
  /** The record layout of each key the walk fills. */
  readonly defs: (b: Blocks) => Readonly<Record<string, RecordDef>>;
  readonly run: (b: Blocks, w: Walker) => void;
}

/** How a part's data is laid out. */
export interface PartLayout {
  /** What the layout reads the part as (`signature`, `program`, ...). */
  readonly kind: string;
  readonly blocks: readonly Block[];
  /** Walks after the blocks. */
  readonly walks?: readonly Walk[];
}

const row = (b: Blocks, key: string) => b[key] as Row;
const num = (b: Blocks, key: string, field: string) => row(b, key)[field] as number;

const signature = (element: RecordDef): PartLayout => ({
  kind: 'signature',
  blocks: [
    { key: 'header', def: SIGNATURE_HEADER, at: () => 0 },
    { key: 'elements', def: element, at: (b) => num(b, 'header', 'offset'), count: (b) => num(b, 'header', 'count') },
  ],
});

/** The program header of DXIL, ILDB and DXIL-era STAT parts. */
export const PROGRAM_LAYOUT: PartLayout = { kind: 'program', blocks: [{ key: 'header', def: DXIL_PROGRAM_HEADER, at: () => 0 }] };

/** DXBC STAT: u32 counters. */
const DXBC_STAT_LAYOUT: PartLayout = { kind: 'statistics', blocks: [{ key: 'counters', def: DXBC_STAT_COUNTER, at: () => 0, count: (_b, d) => Math.floor(d.byteLength / 4) }] };

const rdefSm5 = (b: Blocks) => num(b, 'header', 'majorVersion') >= 5;
function rdefDefs(b: Blocks): Readonly<Record<string, RecordDef>> {
  return rdefSm5(b) ? { variables: RDEF_VARIABLE_5, types: RDEF_TYPE_5, members: RDEF_MEMBER, interfaces: RDEF_INTERFACE } : { variables: RDEF_VARIABLE, types: RDEF_TYPE, members: RDEF_MEMBER };
}

/**
 * RDEF's variables (each constant buffer's list), then the type descriptions they use, depth first
 * through struct members and (SM 5.0) each type's sub type, base class and interface table, each
 * type and each table read once. Types refer to each other by offset, so the walk runs on an
 * explicit stack, a level of the budget's depth per level of nesting, and refuses a type that
 * contains itself (a cycle of member types), which no compiler writes; a sub type, base class or
 * interface already on the path is a reference back, not a containment, and is not walked again.
 */
function rdefWalk(b: Blocks, w: Walker): void {
  const defs = rdefDefs(b);
  const roots: number[] = [];
  for (const cb of b.constantBuffers as Row[]) {
    for (const v of w.list(defs.variables!, cb.variableOffset as number, cb.variableCount as number, 'variables')) roots.push(v.typeOffset as number);
  }
  /** 1: on the path being walked; 2: walked. */
  const state = new Map<number, 1 | 2>();
  /** A type's next types: its members' (contained) then the ones it names (referred to; 0 is none). */
  const stack: { at: number; next: number[]; contained: number; i: number }[] = [];
  const open = (at: number) => {
    w.enter(at);
    const t = w.one(defs.types!, at, 'types');
    state.set(at, 1);
    const count = t.memberCount as number;
    const next = count > 0 ? w.list(defs.members!, t.memberOffset as number, count, 'members').map((m) => m.typeOffset as number) : [];
    const contained = next.length;
    if (defs.interfaces) {
      for (const key of ['subTypeOffset', 'baseClassOffset'] as const) if ((t[key] as number) !== 0) next.push(t[key] as number);
      const interfaces = t.interfaceCount as number;
      if (interfaces > 0) for (const x of w.list(defs.interfaces, t.interfaceOffset as number, interfaces, 'interfaces')) next.push(x.typeOffset as number);
    }
    stack.push({ at, next, contained, i: 0 });
  };
  for (const root of roots) {
    if (state.has(root)) continue;
    open(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i === top.next.length) {
        state.set(top.at, 2);
        stack.pop();
        w.leave();
        continue;
      }
      const member = top.i < top.contained;
      const at = top.next[top.i++]!;
      const seen = state.get(at);
      if (seen === 1 && member) w.refuse(at, 'RDEF.members.typeOffset', `a member of the type at ${top.at} has the type at ${at}, which the walk came through to reach it: a type that contains itself (through members, base classes or sub types)`);
      if (seen === undefined) open(at);
    }
  }
}

const RDEF_LAYOUT: PartLayout = {
  kind: 'resource-definitions',
  blocks: [
    { key: 'header', def: RDEF_HEADER, at: () => 0 },
    { key: 'rd11', def: RDEF_RD11, at: () => RDEF_RD11_AT, when: (b) => num(b, 'header', 'majorVersion') >= 5 },
    { key: 'constantBuffers', def: RDEF_CONSTANT_BUFFER, at: (b) => num(b, 'header', 'constantBufferOffset'), count: (b) => num(b, 'header', 'constantBufferCount') },
    {
      key: 'bindings',
      def: (b) => (num(b, 'header', 'majorVersion') === 5 && num(b, 'header', 'minorVersion') >= 1 ? RDEF_BINDING_51 : RDEF_BINDING),
      at: (b) => num(b, 'header', 'bindingOffset'),
      count: (b) => num(b, 'header', 'bindingCount'),
    },
  ],
  walks: [{ defs: rdefDefs, run: rdefWalk }],
};

const single = (kind: string, def: RecordDef): PartLayout => ({ kind, blocks: [{ key: kind, def, at: () => 0 }] });

/** Part layouts by FourCC (STAT is chosen by its content: DXIL programs carry the "DXIL" magic). */
export const PART_LAYOUTS: Readonly<Record<string, PartLayout>> = {
  ...Object.fromEntries(Object.entries(SIGNATURE_PARTS).map(([name, def]) => [name, signature(def)])),
  SFI0: single('featureInfo', SFI0),
  HASH: single('hash', HASH),
  ILDN: single('debugName', ILDN),
  VERS: single('compilerVersion', VERS),
  DXIL: PROGRAM_LAYOUT,
  ILDB: PROGRAM_LAYOUT,
  RDEF: RDEF_LAYOUT,
};

/** True when a STAT part holds a DXIL program (the bitcode header's magic "DXIL"). */
export function statIsProgram(data: Uint8Array): boolean {
  const m = BITCODE_HEADER_AT;
  return data.byteLength >= 24 && data[m] === 0x44 && data[m + 1] === 0x58 && data[m + 2] === 0x49 && data[m + 3] === 0x4c;
}

/** The layout of a part, or undefined when it has none (its data is kept as bytes). */
export function layoutOf(name: string, data: Uint8Array): PartLayout | undefined {
  if (name === 'STAT') return statIsProgram(data) ? PROGRAM_LAYOUT : DXBC_STAT_LAYOUT;
  return ownLayout(name);
}

/** The layout a decoded part was read with (STAT by its kind), or undefined. */
export function layoutOfKind(name: string, kind: string): PartLayout | undefined {
  if (name === 'STAT') return kind === PROGRAM_LAYOUT.kind ? PROGRAM_LAYOUT : kind === DXBC_STAT_LAYOUT.kind ? DXBC_STAT_LAYOUT : undefined;
  return ownLayout(name);
}

/** The table's own entry only: a name such as "toString" or "__proto__" read Object.prototype's member as a layout (a raw TypeError). */
const ownLayout = (name: string): PartLayout | undefined => (Object.hasOwn(PART_LAYOUTS, name) ? PART_LAYOUTS[name] : undefined);

/** The kind a part read by its own codec is kept as, or undefined (own entries only, as ownLayout). */
export const ownCodecKind = (name: string): string | undefined => (Object.hasOwn(OWN_CODEC_PARTS, name) ? OWN_CODEC_PARTS[name] : undefined);

/** Parts read by their own codecs (src/root-signature, src/shader/psv0.ts, src/rdat): the rows keep their bytes. */
export const OWN_CODEC_PARTS: Readonly<Record<string, string>> = { RTS0: 'root-signature', PSV0: 'psv0', RDAT: 'runtime-data' };
