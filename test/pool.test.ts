/**
 * Writer outputs come from a shared slab (src/bytes/pool.ts): each is zero-filled, exactly sized,
 * never overlaps another live result, and a slab whose buffer was transferred away is replaced.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allocBytes, POOLED_MAX, SLAB_SIZE } from '../src/bytes/pool.js';
import { decodeRootSignature, encodeRootSignature, rootSignatureContainer, type RootSignature } from '../src/index.js';

const overlap = (a: Uint8Array, b: Uint8Array) => a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;

test('small results are exact-size, zeroed, 8-byte aligned views that never overlap', () => {
  const live: Uint8Array[] = [];
  // enough to fill several slabs, sizes 0..POOLED_MAX
  for (let i = 0, total = 0; total < 3 * SLAB_SIZE; i++) {
    const size = (i * 389) % (POOLED_MAX + 1);
    const b = allocBytes(size);
    assert.is(b.byteLength, size);
    assert.is(b.byteOffset % 8, 0);
    assert.ok(b.every((x) => x === 0), `result ${i} is zero-filled`);
    b.fill(0xa5); // a later result must not see these bytes
    live.push(b);
    total += size;
  }
  const shared = live.filter((b, i) => i > 0 && b.buffer === live[i - 1]!.buffer).length;
  assert.ok(shared > 10, 'small results share slabs');
  for (let i = 1; i < live.length; i++) assert.not.ok(overlap(live[i - 1]!, live[i]!), `results ${i - 1} and ${i} overlap`);
  assert.ok(live.every((b) => b.every((x) => x === 0xa5)), 'no result was handed out twice');
});

test('large results get a buffer of their own', () => {
  const b = allocBytes(POOLED_MAX + 1);
  assert.is(b.byteOffset, 0);
  assert.is(b.buffer.byteLength, POOLED_MAX + 1);
});

test('a transferred (detached) slab is replaced; earlier results keep their bytes', () => {
  const a = allocBytes(16);
  a.fill(7);
  const keep = allocBytes(16);
  keep.fill(9);
  structuredClone(a.buffer, { transfer: [a.buffer] }); // the caller transfers a result's buffer: the slab is detached
  assert.is(keep.byteLength, 0, 'views of a detached slab are empty (the platform, not dxbin)');
  const c = allocBytes(32);
  assert.is(c.byteLength, 32);
  assert.ok(c.every((x) => x === 0));
});

test('encoder and container results are pooled views holding the right bytes', () => {
  const rs: RootSignature = { version: 2, flags: 1, parameters: [{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 3, registerSpace: 0, num32BitValues: 4 } }], staticSamplers: [] };
  const first = encodeRootSignature(rs);
  const second = encodeRootSignature({ ...rs, flags: 2 });
  assert.not.ok(overlap(first, second));
  assert.equal(decodeRootSignature(first), rs, 'the first result is intact after the second');
  const container = rootSignatureContainer(first);
  assert.equal([...container.subarray(44)], [...first]);
  assert.is(new DataView(first.buffer, first.byteOffset).getUint32(0, true), 2, 'read through byteOffset');
});

test.run();
