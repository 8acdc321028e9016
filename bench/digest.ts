/**
 * bench family `digest`: case digest-64k, DXC's modified MD5 over 64 KiB (the bytes a container
 * digest covers). Impls: dxbin (the default path: WebAssembly where it loads), dxbin-js (the JS
 * fallback), node-md5 (node:crypto MD5, OpenSSL), vkd3d-native (vkd3d-shader parsing a container
 * whose digest covers the same 64 KiB and whose RTS0 declares nothing: the digest check is the work).
 * Case digest-batch: the digests of the 862 corpus root-signature containers, one by one (dxbin)
 * or four at a time on the WASM SIMD build (dxbin-batch4), checked equal.
 * `tsx bench/digest.ts [--json]`.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rootSignatureContainer } from '../src/index.js';
import { modifiedMd5Batch, modifiedMd5Into, modifiedMd5JsInto } from '../src/container/digest.js';
import { rootSignatureBlobs } from './lib/corpus.js';
import { wasmDigestAvailable } from '../src/container/digest-wasm.js';
import { buildNative, nativeBuildDir, NativeProcess, note, runCase, timed, type Contender } from './lib/harness.js';

const SIZE = 65536;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// A root-signature container whose digest covers exactly 64 KiB: an empty RTS0 (no parameters,
// no samplers) followed by filler, so vkd3d's parse is its digest check plus a 24-byte header.
const rts0 = new Uint8Array(SIZE + 20 - 44);
for (let i = 24; i < rts0.length; i++) rts0[i] = (i * 2654435761) >>> 24;
new DataView(rts0.buffer).setUint32(0, 1, true); // version 1.0
new DataView(rts0.buffer).setUint32(8, 24, true); // parametersOffset
new DataView(rts0.buffer).setUint32(16, 24, true); // staticSamplersOffset
const container = rootSignatureContainer(rts0);
const message = container.subarray(20);
if (message.byteLength !== SIZE) throw new Error('bench setup: the digest must cover 64 KiB');

const want = new Uint8Array(16);
modifiedMd5Into(message, want);
const out = new Uint8Array(16);
let sink = 0;

const contenders: Contender[] = [
  { impl: 'dxbin', records: 1, bytes: SIZE, pass: timed(() => modifiedMd5Into(message, out)) },
  {
    impl: 'dxbin-js',
    records: 1,
    bytes: SIZE,
    pass: timed(() => modifiedMd5JsInto(message, out)),
    check() {
      const o = new Uint8Array(16);
      modifiedMd5JsInto(message, o);
      return hex(o) === hex(want) ? undefined : `JS ${hex(o)} != ${hex(want)}`;
    },
  },
  {
    impl: 'node-md5',
    records: 1,
    bytes: SIZE,
    pass: timed(() => (sink += createHash('md5').update(message).digest()[0]!)),
    // plain MD5 pads differently from DXC's digest, so it cannot equal dxbin's: check it is MD5 (RFC 1321 A.5)
    check: () => (createHash('md5').update('abc').digest('hex') === '900150983cd24fb0d6963f7d28e17f72' ? undefined : 'not RFC 1321 MD5'),
  },
];

const built = buildNative(join(fileURLToPath(new URL('.', import.meta.url)), 'native/vkd3d.c'), 'vkd3d', { name: 'libvkd3d-shader', debian: 'libvkd3d-dev' });
let native: NativeProcess | undefined;
if ('exe' in built) {
  const dir = nativeBuildDir();
  writeFileSync(join(dir, 'digest-blobs.bin'), new Uint8Array(0));
  writeFileSync(join(dir, 'digest.dxbc'), container);
  const bad = container.slice();
  bad[4] = bad[4]! ^ 1;
  writeFileSync(join(dir, 'digest-bad.dxbc'), bad);
  native = new NativeProcess(built.exe, [join(dir, 'digest-blobs.bin'), join(dir, 'digest.dxbc')]);
  const n = native;
  contenders.push({
    impl: 'vkd3d-native',
    records: 1,
    bytes: SIZE,
    pass: async (reps) => Number(await n.ask(`digest ${reps}`)),
    // vkd3d accepts dxbin's digest and refuses it with one bit flipped: the digests are equal
    check: async () =>
      (await n.ask(`check ${join(dir, 'digest.dxbc')}`)) === '1' && (await n.ask(`check ${join(dir, 'digest-bad.dxbc')}`)) === '0' ? undefined : 'vkd3d does not accept exactly dxbin\'s digest',
  });
}

if (!wasmDigestAvailable()) note('digest-64k: the WebAssembly digest did not load; dxbin is the JS fallback here');
await runCase('digest-64k', contenders);
native?.close();

{
  const messages = rootSignatureBlobs().map((b) => b.subarray(20));
  const bytes = messages.reduce((n, m) => n + m.byteLength, 0);
  const one = new Uint8Array(16 * messages.length);
  const four = new Uint8Array(16 * messages.length);
  const oneByOne = () => {
    for (let i = 0; i < messages.length; i++) modifiedMd5Into(messages[i]!, one, 16 * i);
  };
  oneByOne();
  await runCase('digest-batch', [
    { impl: 'dxbin', records: messages.length, bytes, pass: timed(oneByOne) },
    {
      impl: 'dxbin-batch4',
      records: messages.length,
      bytes,
      pass: timed(() => modifiedMd5Batch(messages, four)),
      check: () => (modifiedMd5Batch(messages, four), hex(four) === hex(one) ? undefined : 'batch digests differ'),
    },
  ]);
}
if (sink === 0.5) console.log(sink);
