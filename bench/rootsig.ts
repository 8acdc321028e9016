/**
 * bench family `rootsig`: case rootsig-roundtrip, the work a build step or fuzzer does per root
 * signature: parse the container, check its digest, decode RTS0, encode it, wrap it in a container
 * with its digest. Inputs: every corpus root signature (RTS0 parts of corpus containers with a
 * right digest, each in its own container, versions 1.0 and 1.1: the ones vkd3d-shader 1.2 reads).
 * Impls: dxbin; vkd3d-native (vkd3d_shader_parse_root_signature + vkd3d_shader_serialize_root_signature
 * in C, bench/native/vkd3d.c); restructure, binary-parser (decode only; encodes with the DataView
 * writer) and dataview-handwritten (bench/peers/). Every impl's output bytes are checked equal to
 * dxbin's for every blob before timing. `tsx bench/rootsig.ts [--json]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeRootSignature, encodeRootSignature, findPart, parseContainer, rootSignatureContainer } from '../src/index.js';
import { containerDigestMatches } from '../src/container/digest.js';
import { rootSignatureBlobs } from './lib/corpus.js';
import { buildNative, nativeBuildDir, NativeProcess, note, runCase, timed, type Contender } from './lib/harness.js';
import { roundTripBinaryParser } from './peers/rts0-binary-parser.js';
import { roundTripDataView } from './peers/rts0-dataview.js';
import { roundTripRestructure } from './peers/rts0-restructure.js';

/** dxbin's round trip, through the public API (plus the allocation-free digest check). */
function roundTripDxbin(bytes: Uint8Array): Uint8Array {
  const c = parseContainer(bytes);
  if (!containerDigestMatches(bytes, c.layout.declaredSize)) throw new Error('bad digest');
  const part = findPart(c, 'RTS0');
  if (!part) throw new Error('no RTS0 part');
  return rootSignatureContainer(encodeRootSignature(decodeRootSignature(part.data)));
}

const all = rootSignatureBlobs();
const blobs = all.filter((b) => b[44] === 1 || b[44] === 2);
const bytes = blobs.reduce((n, b) => n + b.byteLength, 0);
note(`rootsig-roundtrip: ${blobs.length} corpus root signatures (${Math.min(...blobs.map((b) => b.byteLength))}-${Math.max(...blobs.map((b) => b.byteLength))} bytes; ${all.length - blobs.length} of version 1.2 left out, vkd3d-shader 1.2 cannot read them)`);
const expected = blobs.map(roundTripDxbin);
const same = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);

function jsContender(impl: string, roundTrip: (b: Uint8Array) => Uint8Array): Contender {
  let sink = 0;
  return {
    impl,
    records: blobs.length,
    bytes,
    pass: timed(() => {
      for (let i = 0; i < blobs.length; i++) sink += roundTrip(blobs[i]!).byteLength;
    }),
    check() {
      const bad = blobs.filter((b, i) => !same(roundTrip(b), expected[i]!)).length;
      return bad ? `${bad} of ${blobs.length} outputs differ` : sink === -1 ? 'never' : undefined;
    },
  };
}

const contenders: Contender[] = [jsContender('dxbin', roundTripDxbin)];
const built = buildNative(join(fileURLToPath(new URL('.', import.meta.url)), 'native/vkd3d.c'), 'vkd3d', { name: 'libvkd3d-shader', debian: 'libvkd3d-dev' });
let native: NativeProcess | undefined;
if ('exe' in built) {
  const dir = nativeBuildDir();
  const file = new Uint8Array(bytes + 4 * blobs.length);
  let at = 0;
  for (const b of blobs) {
    new DataView(file.buffer).setUint32(at, b.byteLength, true);
    file.set(b, at + 4);
    at += 4 + b.byteLength;
  }
  writeFileSync(join(dir, 'rootsig-blobs.bin'), file);
  writeFileSync(join(dir, 'empty.dxbc'), blobs[0]!);
  native = new NativeProcess(built.exe, [join(dir, 'rootsig-blobs.bin'), join(dir, 'empty.dxbc')]);
  const n = native;
  contenders.push({
    impl: 'vkd3d-native',
    records: blobs.length,
    bytes,
    pass: async (reps) => Number(await n.ask(`roundtrip ${reps}`)),
    async check() {
      await n.ask(`dump ${join(dir, 'rootsig-out.bin')}`);
      const out = new Uint8Array(readFileSync(join(dir, 'rootsig-out.bin')));
      let bad = 0;
      for (let i = 0, at = 0; i < blobs.length; i++) {
        const size = new DataView(out.buffer).getUint32(at, true);
        if (!same(out.subarray(at + 4, at + 4 + size), expected[i]!)) bad++;
        at += 4 + size;
      }
      return bad ? `${bad} of ${blobs.length} outputs differ` : undefined;
    },
  });
}
contenders.push(jsContender('restructure', roundTripRestructure), jsContender('binary-parser', roundTripBinaryParser), jsContender('dataview-handwritten', roundTripDataView));

await runCase('rootsig-roundtrip', contenders);
native?.close();
