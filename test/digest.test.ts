/**
 * The container digest (the JS fallback, and the WebAssembly builds written from the step table)
 * against the original loop implementation kept in test/helpers/reference-digest.ts: random
 * messages of every length class and alignment, every corpus container, and the writer's in-place digest.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { computeContainerDigest, DescriptionError, modifiedMd5, parseContainer, rootSignatureContainer, writeContainer } from '../src/index.js';
import { containerDigestMatches, modifiedMd5Batch, modifiedMd5Into, modifiedMd5JsInto, signContainer } from '../src/container/digest.js';
import { digestModule, wasmDigestAvailable, wasmDigestInto, wasmDigestSimd } from '../src/container/digest-wasm.js';
import { corpusFiles, hex, isLlvmTestBlob, ROOT } from './helpers/corpus.js';
import { referenceModifiedMd5 } from './helpers/reference-digest.js';

function jsDigest(m: Uint8Array): string {
  const out = new Uint8Array(16);
  modifiedMd5JsInto(m, out);
  return hex(out);
}
function wasmDigest(m: Uint8Array): string {
  const out = new Uint8Array(20).fill(0xee);
  assert.ok(wasmDigestInto(m, out, 2));
  assert.equal([out[0], out[1], out[18], out[19]], [0xee, 0xee, 0xee, 0xee], 'writes exactly out[at..at+16)');
  return hex(out.subarray(2, 18));
}

/** A message at any byte offset of its buffer (aligned and unaligned word reads). */
const placed = fc
  .tuple(fc.uint8Array({ minLength: 0, maxLength: 700 }), fc.integer({ min: 0, max: 7 }))
  .map(([data, shift]) => {
    const buf = new Uint8Array(shift + data.byteLength);
    buf.set(data, shift);
    return buf.subarray(shift);
  });

test('the WebAssembly digest loads on this engine, the SIMD build with it', () => {
  assert.ok(wasmDigestAvailable());
  assert.ok(wasmDigestSimd());
});

test('property: batches (four messages at once, any mix of lengths) equal the reference', () => {
  fc.assert(
    fc.property(fc.array(placed, { minLength: 0, maxLength: 11 }), (messages) => {
      const out = modifiedMd5Batch(messages);
      assert.is(out.byteLength, 16 * messages.length);
      messages.forEach((m, i) => assert.is(hex(out.subarray(16 * i, 16 * i + 16)), hex(referenceModifiedMd5(m)), `message ${i} of ${messages.length}, ${m.byteLength} bytes`));
    }),
    { numRuns: 150 },
  );
});

test('batches with long lanes of unequal length (blocks4 for the shortest, then each alone), and into a given buffer', () => {
  const sizes = [70_000, 55, 0, 131_072 + 63, 64, 56, 1 << 16, 200];
  const messages = sizes.map((n, k) => new Uint8Array(n).map((_, i) => (i * 131 + k * 7) & 0xff));
  const out = new Uint8Array(16 * sizes.length + 5).fill(0xcc);
  modifiedMd5Batch(messages, out);
  messages.forEach((m, i) => assert.is(hex(out.subarray(16 * i, 16 * i + 16)), hex(referenceModifiedMd5(m)), `${sizes[i]} bytes`));
  assert.ok(out.subarray(16 * sizes.length).every((b) => b === 0xcc));
  assert.throws(() => modifiedMd5Batch(messages, new Uint8Array(16)), (e: unknown) => e instanceof DescriptionError && e.code === 'out-of-range');
});

test('the digest modules are written at load: both validate, the build without SIMD has no blocks4', () => {
  const names = (simd: boolean) => WebAssembly.Module.exports(new WebAssembly.Module(digestModule(simd))).map((e) => e.name).sort();
  assert.equal(names(false), ['blocks', 'digest', 'memory']);
  assert.equal(names(true), ['blocks', 'blocks4', 'digest', 'memory']);
  assert.ok(digestModule(false).byteLength < digestModule(true).byteLength);
});

test('property: JS and WASM digests equal the reference on random messages at any alignment', () => {
  fc.assert(
    fc.property(placed, (m) => {
      const want = hex(referenceModifiedMd5(m));
      assert.is(jsDigest(m), want);
      assert.is(wasmDigest(m), want);
      assert.is(hex(modifiedMd5(m)), want);
    }),
    { numRuns: 400 },
  );
});

test('every length 0..200 (both final-block layouts, 55/56/63/64 boundaries) equals the reference', () => {
  const buf = new Uint8Array(201).map((_, i) => (i * 37 + 11) & 0xff);
  for (let n = 0; n <= 200; n++) {
    const m = buf.subarray(1, 1 + n);
    const want = hex(referenceModifiedMd5(m));
    assert.is(jsDigest(m), want, `length ${n}`);
    assert.is(wasmDigest(m), want, `length ${n}`);
  }
});

test('messages longer than the 64 KiB WASM chunk, and unaligned large ones, equal the reference', () => {
  for (const [n, shift] of [[65536, 0], [65536 * 2 + 64, 0], [65536 * 3 + 17, 3], [200_001, 1]] as const) {
    const buf = new Uint8Array(n + shift);
    for (let i = 0; i < buf.length; i++) buf[i] = (i * 2654435761) >>> 24;
    const m = buf.subarray(shift);
    const want = hex(referenceModifiedMd5(m));
    assert.is(jsDigest(m), want, `${n}+${shift}`);
    assert.is(wasmDigest(m), want, `${n}+${shift}`);
  }
});

test('every corpus container: JS, WASM and reference agree, and the stored digest check matches', () => {
  const files = corpusFiles('.').filter((f) => f.bytes.byteLength >= 32 && f.bytes[0] === 0x44);
  assert.ok(files.length > 800, `${files.length} containers`);
  let valid = 0;
  for (const f of files) {
    let c;
    try {
      c = parseContainer(f.bytes);
    } catch {
      continue;
    }
    const m = f.bytes.subarray(20, c.layout.declaredSize);
    const want = hex(referenceModifiedMd5(m));
    assert.is(jsDigest(m), want, f.name);
    assert.is(wasmDigest(m), want, f.name);
    assert.is(hex(computeContainerDigest(f.bytes, c.layout.declaredSize)), want, f.name);
    const stored = hex(c.digest) === want;
    assert.is(containerDigestMatches(f.bytes, c.layout.declaredSize), stored, f.name);
    if (stored) valid++;
    else assert.ok(isLlvmTestBlob(f.name) || /^(00|01|02)\1{15}$/.test(hex(c.digest)), `${f.name}: stored ${hex(c.digest)} is neither the digest nor a sentinel`);
  }
  assert.ok(valid > 800, `${valid} corpus containers carry the digest the reference computes`);
});

test('writeContainer computes the digest into its own output, as the reference does', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), (rts0) => {
      const out = rootSignatureContainer(rts0);
      assert.is(out.byteLength, 44 + rts0.byteLength);
      assert.is(hex(out.subarray(4, 20)), hex(referenceModifiedMd5(out.subarray(20))));
      const zero = writeContainer(parseContainer(out), 'zero');
      assert.is(hex(zero.subarray(4, 20)), '0'.repeat(32));
      assert.is(hex(zero.subarray(20)), hex(out.subarray(20)));
    }),
    { numRuns: 200 },
  );
});

test('property: signing and checking a container whose declared size is shorter than its buffer, at any offset, digest only bytes 20..size', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 20, maxLength: 900 }), fc.nat(300), fc.integer({ min: 0, max: 7 }), (body, extra, shift) => {
      const size = body.byteLength;
      const buf = new Uint8Array(shift + size + extra).fill(0xa5);
      buf.set(body, shift);
      const container = buf.subarray(shift);
      const tail = hex(container.subarray(size));
      const want = hex(referenceModifiedMd5(container.subarray(20, size)));
      signContainer(container, size);
      assert.is(hex(container.subarray(4, 20)), want, `size ${size}`);
      assert.is(hex(container.subarray(size)), tail, 'bytes past size untouched');
      assert.ok(containerDigestMatches(container, size));
      container[4] = container[4]! ^ 1;
      assert.not.ok(containerDigestMatches(container, size));
    }),
    { numRuns: 400 },
  );
});

test('modifiedMd5Into writes only out[at..at+16), at both final-block layouts', () => {
  for (const n of [0, 1, 31, 55, 56, 63, 64, 119, 120]) {
    const m = new Uint8Array(n).fill(7);
    const out = new Uint8Array(40).fill(0xaa);
    modifiedMd5Into(m, out, 12);
    assert.is(hex(out.subarray(12, 28)), hex(referenceModifiedMd5(m)));
    assert.ok(out.subarray(0, 12).every((b) => b === 0xaa) && out.subarray(28).every((b) => b === 0xaa));
  }
});

/** Runs `script` (ES module, from the repository root) with DXBIN_WASM set; its stdout. */
function forced(mode: string, script: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, DXBIN_WASM: mode }, encoding: 'utf8' }).trim();
}
const lengths = [0, 1, 31, 55, 56, 64, 1000, 70000];
const messageOf = (n: number) => new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
const forcedScript = `import { wasmDigestAvailable, wasmDigestSimd } from './src/container/digest-wasm.ts'; import { modifiedMd5, modifiedMd5Batch } from './src/container/digest.ts';
const ms = ${JSON.stringify(lengths)}.map((n) => new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff));
process.stdout.write([wasmDigestAvailable(), wasmDigestSimd(), ...ms.map((m) => Buffer.from(modifiedMd5(m)).toString('hex')), Buffer.from(modifiedMd5Batch(ms)).toString('hex')].join(' '));`;
const wanted = () => {
  const ms = lengths.map(messageOf);
  return [...ms.map((m) => hex(referenceModifiedMd5(m))), ms.map((m) => hex(referenceModifiedMd5(m))).join('')].join(' ');
};

test('DXBIN_WASM=js keeps the digest in JS (the fallback where WebAssembly is refused), batches too', () => {
  assert.is(forced('js', forcedScript), `false false ${wanted()}`);
});

test('DXBIN_WASM=scalar keeps batches on the build without SIMD (blocks per lane)', () => {
  assert.is(forced('scalar', forcedScript), `true false ${wanted()}`);
});

test.run();
