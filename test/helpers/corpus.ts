/** The seed corpus (corpus/, real third-party blobs; corpus/MANIFEST.tsv names where each comes from). */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = join(ROOT, 'corpus');

export interface CorpusFile {
  /** Path relative to corpus/, as MANIFEST.tsv names it. */
  name: string;
  bytes: Uint8Array;
}

export function corpusFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(CORPUS, name)));
}

/** Binary files (no .json/.yaml) below corpus/<folder>. */
export function corpusFiles(folder: string): CorpusFile[] {
  const out: CorpusFile[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(CORPUS, rel), { withFileTypes: true })) {
      const name = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(name);
      else if (/\.(dxbc|dxil|rts0)$/.test(entry.name)) out.push({ name, bytes: corpusFile(name) });
    }
  };
  walk(folder);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export interface ManifestRow {
  file: string;
  sha256: string;
  source_repo: string;
  source_path: string;
  commit: string;
  what_it_is: string;
  version: string;
  source_says_it_decodes_to: string;
  notes: string;
}

export function manifest(): ManifestRow[] {
  const [head, ...rows] = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const keys = head!.split('\t') as (keyof ManifestRow)[];
  return rows.map((line) => Object.fromEntries(line.split('\t').map((v, i) => [keys[i], v])) as unknown as ManifestRow);
}

/** LLVM unit-test containers: made by yaml2obj and edited by hand, with fake digests. */
export const isLlvmTestBlob = (name: string) => name.includes('/llvm__');

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** Parses the spec's hex dumps: "0000: 44584243 1dfc4ad6 ..." with little-endian u32 words. */
export function fromWordDump(dump: string): Uint8Array {
  const words = dump
    .trim()
    .split('\n')
    .flatMap((line) => line.replace(/^\s*[0-9a-f]+:/i, '').trim().split(/\s+/));
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, Number.parseInt(w, 16), false));
  return out;
}
