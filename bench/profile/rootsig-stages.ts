/**
 * Where rootsig-roundtrip's time goes: CPU time per corpus root signature of each stage alone
 * (container parse, digest check, RTS0 decode, encode, wrap with digest) and of the whole trip,
 * best of 15 passes over the blobs bench/rootsig.ts uses. A profile, not a bench family (no peers,
 * no ratios): `npx tsx bench/profile/rootsig-stages.ts`. The README's "Where the time goes" quotes it.
 */
import { parseContainer, findPart, decodeRootSignature, encodeRootSignature, rootSignatureContainer } from '../../src/index.js';
import { containerDigestMatches } from '../../src/container/digest.js';
import { rootSignatureBlobs } from '../lib/corpus.js';
const blobs = rootSignatureBlobs().filter((b) => b[44] === 1 || b[44] === 2);
const cs = blobs.map((b) => parseContainer(b));
const parts = cs.map((c) => findPart(c, 'RTS0')!.data);
const descs = parts.map((p) => decodeRootSignature(p));
const encs = descs.map((d) => encodeRootSignature(d).slice());
function t(name: string, f: (i: number) => unknown) {
  let best = Infinity;
  for (let r = 0; r < 15; r++) {
    const s = process.cpuUsage();
    for (let k = 0; k < 200; k++) for (let i = 0; i < blobs.length; i++) f(i);
    const u = process.cpuUsage(s);
    best = Math.min(best, (u.user + u.system) * 1000 / (200 * blobs.length));
  }
  console.log(name.padEnd(12), best.toFixed(0), 'ns');
}
t('parse', (i) => parseContainer(blobs[i]!));
t('digestchk', (i) => containerDigestMatches(blobs[i]!, blobs[i]!.byteLength));
t('findPart', (i) => findPart(cs[i]!, 'RTS0'));
t('decode', (i) => decodeRootSignature(parts[i]!));
t('encode', (i) => encodeRootSignature(descs[i]!));
t('wrap', (i) => rootSignatureContainer(encs[i]!));
t('all', (i) => { const b = blobs[i]!; const c = parseContainer(b); if (!containerDigestMatches(b, c.layout.declaredSize)) throw 0; return rootSignatureContainer(encodeRootSignature(decodeRootSignature(findPart(c, 'RTS0')!.data))); });
