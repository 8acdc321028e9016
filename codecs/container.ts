/**
 * The DXBC/DXIL container: header layout, part FourCCs and digest sentinels.
 * One source of truth for src/container (docs/formats/container.md).
 */

/** "DXBC" read as a little-endian u32. */
export const CONTAINER_MAGIC = 0x43425844;

/** Fixed header fields: byte offset and width. The part offset table follows at `partOffsets`. */
export const CONTAINER_HEADER = {
  magic: { offset: 0, size: 4 },
  digest: { offset: 4, size: 16 },
  majorVersion: { offset: 20, size: 2 },
  minorVersion: { offset: 22, size: 2 },
  containerSize: { offset: 24, size: 4 },
  partCount: { offset: 28, size: 4 },
  partOffsets: { offset: 32, size: 4 },
} as const;

/** Bytes of the container header before the part offset table: magic, digest, version, size, part count. */
export const CONTAINER_HEADER_SIZE = 32;
/** Bytes of a part header: FourCC and data size. */
export const PART_HEADER_SIZE = 8;
/** The digest covers the container from this offset (the version field) to its end. */
export const DIGEST_COVERS_FROM = 20;
/** DXC refuses containers larger than this. */
export const MAX_CONTAINER_SIZE = 0x80000000;
/** Version written by every producer (major 1, minor 0). */
export const CONTAINER_VERSION = { major: 1, minor: 0 } as const;

/** A known part: its FourCC, what it holds, and whether DXIL containers, DXBC containers or both carry it. */
export interface PartKind {
  readonly fourCC: string;
  readonly what: string;
  readonly era: 'dxil' | 'dxbc' | 'both';
}

/** Known part FourCCs (docs/formats/container.md). Unknown FourCCs are kept byte for byte all the same. */
export const PART_KINDS: readonly PartKind[] = [
  { fourCC: 'DXIL', what: 'DXIL program (header + LLVM bitcode)', era: 'dxil' },
  { fourCC: 'ILDB', what: 'DXIL program with debug info', era: 'dxil' },
  { fourCC: 'ILDN', what: 'debug name', era: 'dxil' },
  { fourCC: 'ISG1', what: 'input signature', era: 'both' },
  { fourCC: 'OSG1', what: 'output signature', era: 'both' },
  { fourCC: 'PSG1', what: 'patch constant or primitive signature', era: 'both' },
  { fourCC: 'PSV0', what: 'pipeline state validation data', era: 'dxil' },
  { fourCC: 'RTS0', what: 'root signature', era: 'both' },
  { fourCC: 'SFI0', what: 'shader feature info', era: 'both' },
  { fourCC: 'HASH', what: 'shader hash (MD5 of the program)', era: 'dxil' },
  { fourCC: 'STAT', what: 'statistics / reflection', era: 'both' },
  { fourCC: 'RDAT', what: 'runtime data (libraries)', era: 'dxil' },
  { fourCC: 'PRIV', what: 'private data (last, any size)', era: 'dxil' },
  { fourCC: 'SRCI', what: 'source info', era: 'dxil' },
  { fourCC: 'PDBI', what: 'PDB info', era: 'dxil' },
  { fourCC: 'VERS', what: 'compiler version', era: 'dxil' },
  { fourCC: 'RDEF', what: 'resource definitions', era: 'both' },
  { fourCC: 'SHDR', what: 'SM4 bytecode', era: 'dxbc' },
  { fourCC: 'SHEX', what: 'SM5 bytecode', era: 'dxbc' },
  { fourCC: 'ISGN', what: 'input signature', era: 'dxbc' },
  { fourCC: 'OSGN', what: 'output signature', era: 'dxbc' },
  { fourCC: 'OSG5', what: 'output signature (SM5 streams)', era: 'dxbc' },
  { fourCC: 'PCSG', what: 'patch constant signature', era: 'dxbc' },
  { fourCC: 'SDBG', what: 'shader debug info', era: 'dxbc' },
  { fourCC: 'Aon9', what: 'feature level 9 shader', era: 'dxbc' },
  { fourCC: 'XNAP', what: 'XNA prepass shader', era: 'dxbc' },
  { fourCC: 'XNAS', what: 'XNA shadow shader', era: 'dxbc' },
  { fourCC: 'TEXT', what: 'text', era: 'dxbc' },
];

/** The part that holds a serialized root signature. */
export const ROOT_SIGNATURE_PART = 'RTS0';
/** The part that must come last and may have any size. */
export const PRIVATE_DATA_PART = 'PRIV';

/** Digests that are not checksums (docs/formats/container.md): every byte the same value. */
export const DIGEST_SENTINELS = [
  { byte: 0x00, name: 'unsigned' },
  { byte: 0x01, name: 'bypass' },
  { byte: 0x02, name: 'preview' },
] as const;
/** The name of a digest sentinel: all 0x00, 0x01 (bypass) or 0x02 (preview). */
export type DigestSentinel = (typeof DIGEST_SENTINELS)[number]['name'];
