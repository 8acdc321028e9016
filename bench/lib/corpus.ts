/** Bench inputs from the repository's corpus/ (real third-party blobs, see corpus/MANIFEST.tsv). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPart, parseContainer, rootSignatureContainer } from '../../src/index.js';
import { containerDigestMatches } from '../../src/container/digest.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every file below corpus/<folder> whose name matches. */
export function corpusPaths(folder: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (pattern.test(e.name)) out.push(join(dir, e.name));
    }
  };
  walk(join(ROOT, 'corpus', folder));
  return out.sort();
}

/**
 * The RTS0 part of every corpus container that carries one with a right digest, each wrapped
 * alone in a root-signature container (as `dxbin extract` writes it): the round-trip inputs.
 */
export function rootSignatureBlobs(): Uint8Array[] {
  const blobs: Uint8Array[] = [];
  for (const path of corpusPaths('.', /\.(dxbc|dxil)$/)) {
    const bytes = new Uint8Array(readFileSync(path));
    try {
      const c = parseContainer(bytes);
      const part = findPart(c, 'RTS0');
      if (part && containerDigestMatches(bytes, c.layout.declaredSize)) blobs.push(rootSignatureContainer(part.data));
    } catch {
      // LLVM's hand-edited test blobs and other non-strict containers are not round-trip inputs
    }
  }
  return blobs;
}
