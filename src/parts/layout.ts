/**
 * A part as blocks of rows: each block is one record or an array of records at an offset the
 * part's earlier blocks give. The generic part reader reads the blocks, the writer writes them
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
  RDEF_RD11,
  RDEF_RD11_AT,
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

/** How a part's data is laid out. */
export interface PartLayout {
  /** What the layout reads the part as (`signature`, `program`, ...). */
  readonly kind: string;
  readonly blocks: readonly Block[];
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
  return PART_LAYOUTS[name];
}

/** The layout a decoded part was read with (STAT by its kind), or undefined. */
export function layoutOfKind(name: string, kind: string): PartLayout | undefined {
  if (name === 'STAT') return kind === PROGRAM_LAYOUT.kind ? PROGRAM_LAYOUT : kind === DXBC_STAT_LAYOUT.kind ? DXBC_STAT_LAYOUT : undefined;
  return PART_LAYOUTS[name];
}

/** Parts read by their own codecs (src/root-signature, src/shader/psv0.ts, src/rdat): the rows keep their bytes. */
export const OWN_CODEC_PARTS: Readonly<Record<string, string>> = { RTS0: 'root-signature', PSV0: 'psv0', RDAT: 'runtime-data' };
