/** Root signature strings that MANIFEST.tsv quotes from the sources the blobs came from. */
import { manifest } from './corpus.js';

export interface QuotedRootSignature {
  file: string;
  text: string;
}

/** Rows whose "source_says_it_decodes_to" quotes the HLSL: `NAME = "..."`, `RS string...: "..."` or `[RootSignature("...")]`. */
export function quotedRootSignatures(): QuotedRootSignature[] {
  const out: QuotedRootSignature[] = [];
  for (const row of manifest()) {
    const says = row.source_says_it_decodes_to ?? '';
    const m = /(?:\w+ = |RS string[^:]*: |\[RootSignature\()"(.*?)"(?:\)\])?(?:;|$)/.exec(says);
    if (m) out.push({ file: row.file, text: m[1]! });
  }
  return out;
}
