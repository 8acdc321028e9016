/**
 * A container digest that cannot be computed (a lenient parse whose declared size lies outside
 * 20..the data), as `hash` and `inspect` both say it: the reason as a DecodeError, its text, its
 * JSON and schema.
 */
import { S } from '../schema.js';
import { codecs, computeContainerDigest, digestSentinel, printable, DecodeError, type ParsedContainer } from '../../index.js';
import { diagnosticOf } from '../errors.js';

/** Why no digest can be computed, in --json: the fields of a CLI diagnostic (as the strict reading's `error` has them). */
export const NOT_COMPUTABLE_SCHEMA = S.object({ code: S.str, message: S.str, field: S.str, offset: S.int });

/**
 * The digest `container` (parsed from `bytes`) should carry, over bytes 20..its declared size; or,
 * when that range is not inside `bytes` (a lenient parse takes a declared size past the data, or
 * inside the header), the container-size DecodeError saying why none can be computed: returned,
 * not thrown, so a lenient reading shows the rest (as a part that does not decode is shown).
 */
export function containerDigestOrReason(container: ParsedContainer, bytes: Uint8Array): Uint8Array | DecodeError {
  const size = container.layout.declaredSize;
  const from = codecs.DIGEST_COVERS_FROM;
  if (size >= from && size <= bytes.byteLength) return computeContainerDigest(bytes, size);
  const detail = size > bytes.byteLength ? `declares ${size} bytes, the data has ${bytes.byteLength}` : `declares ${size} bytes, the digest's range begins at byte ${from}`;
  return new DecodeError('container-size', codecs.CONTAINER_HEADER.containerSize.offset, 'container.header.containerSize', detail);
}

/** A digest status with no computed digest: why not, and the sentinel the stored digest is, if it is one. */
export interface NotComputable {
  status: 'not-computable';
  reason: DecodeError;
  sentinel?: string;
}

/** The status of a stored digest that cannot be checked (`reason` says why). */
export function notComputable(stored: Uint8Array, reason: DecodeError): NotComputable {
  const sentinel = digestSentinel(stored);
  return { status: 'not-computable', reason, ...(sentinel ? { sentinel } : {}) };
}

/** The text: `digest not computable: what (field at byte N)`, placed as the CLI's error lines place a problem. */
export function notComputableText(reason: DecodeError): string {
  return `digest not computable: ${printable(reason.detail)} (${reason.path} at byte ${reason.offset})`;
}

/** The JSON of why: code, message, field, offset (a CLI diagnostic without its file). */
export function reasonJson(reason: DecodeError): { code: string; message: string; field?: string; offset?: number } {
  const d = diagnosticOf(reason);
  return { code: d.code, message: d.message, ...(d.field !== undefined ? { field: d.field } : {}), ...(d.offset !== undefined ? { offset: d.offset } : {}) };
}

/** ` (stored: the 0x01 sentinel)` when the stored digest is a sentinel, else nothing. */
export function sentinelNote(status: NotComputable): string {
  return status.sentinel ? ` (stored: the ${status.sentinel} sentinel)` : '';
}
