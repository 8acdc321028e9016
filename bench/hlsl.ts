/**
 * bench family `hlsl`: case hlsl-compile, the root signature language compiled to a container with
 * its digest (`dxbin rootsig compile`), over every root-signature string corpus/MANIFEST.tsv
 * quotes, at its blob's version. `median_ns` is per pass over all strings; `ns_per_record` per
 * string. Every output's RTS0 is checked equal to the Microsoft-made part of the corpus blob.
 * `tsx bench/hlsl.ts [--json]`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileRootSignatureBlob, decodeRootSignature, findPart, looksLikeContainer, parseContainer } from '../src/index.js';
import { quotedRootSignatures } from '../test/helpers/manifest-hlsl.js';
import { note, ROOT_DIR, runCase, timed } from './lib/harness.js';

const cases: { text: string; version: 1 | 2 | 3; part: Uint8Array }[] = [];
for (const { file, text } of quotedRootSignatures()) {
  const bytes = new Uint8Array(readFileSync(join(ROOT_DIR, 'corpus', file)));
  const part = looksLikeContainer(bytes) ? findPart(parseContainer(bytes), 'RTS0')?.data : bytes; // .rts0: a bare part
  if (part) cases.push({ text, version: decodeRootSignature(part).version as 1 | 2 | 3, part });
}
const chars = cases.reduce((n, c) => n + c.text.length, 0);
note(`hlsl-compile: ${cases.length} corpus strings, ${chars} characters`);
let sink = 0;

await runCase('hlsl-compile', [
  {
    impl: 'dxbin',
    records: cases.length,
    bytes: chars,
    pass: timed(() => {
      for (const c of cases) sink += compileRootSignatureBlob(c.text, { version: c.version }).byteLength;
    }),
    check() {
      const bad = cases.filter((c) => {
        const out = findPart(parseContainer(compileRootSignatureBlob(c.text, { version: c.version })), 'RTS0')!.data;
        return out.byteLength !== c.part.byteLength || out.some((b, i) => b !== c.part[i]);
      }).length;
      return bad ? `${bad} of ${cases.length} strings compile to other bytes than the corpus blob` : sink < 0 ? 'never' : undefined;
    },
  },
]);
