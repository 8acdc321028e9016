/**
 * Output buffers for the writers. Allocating a Uint8Array of more than a few dozen bytes costs
 * V8 an off-heap ArrayBuffer (about 0.5 us for 300 bytes on the bench machine, more than the whole
 * RTS0 encode), so small outputs are carved from a shared 64 KiB slab instead, as Node's
 * `Buffer.allocUnsafe` pool and protobufjs's writer do. Unlike those, the carved bytes are always
 * zero: a slab is fresh memory and no region is handed out twice.
 *
 * What callers see: a result of up to POOLED_MAX bytes is a view whose `buffer` is shared with
 * other results (`byteOffset` is not 0). Read it through the view (or `byteOffset`/`byteLength`);
 * copy it (`slice()`) before transferring its buffer to a worker. A transferred (detached) slab is
 * noticed and replaced, so the results handed out later are not affected.
 */

/** Size of one slab. */
export const SLAB_SIZE = 64 * 1024;
/** Largest output carved from a slab; larger ones get a buffer of their own. */
export const POOLED_MAX = 4 * 1024;

let slab = new ArrayBuffer(SLAB_SIZE);
let used = 0;

/**
 * Zero-filled bytes of exactly `size` (a non-negative integer the caller has checked): a view of
 * the shared slab when small, a buffer of its own otherwise.
 * @param size bytes wanted
 * @returns a zero-filled Uint8Array of `size` bytes
 */
export function allocBytes(size: number): Uint8Array {
  if (size > POOLED_MAX) return new Uint8Array(size);
  if (used + size > SLAB_SIZE || slab.byteLength === 0) {
    slab = new ArrayBuffer(SLAB_SIZE);
    used = 0;
  }
  const out = new Uint8Array(slab, used, size);
  used += (size + 7) & ~7; // 8-byte aligned starts: DataView and word views of the result stay aligned
  return out;
}
