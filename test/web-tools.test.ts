/**
 * The web inspector's DOM-free tools (web/tools.ts): the byte map indexed once agrees with the
 * linear lookups it replaces (spansAt, a path search) on every corpus file; the data inspector,
 * go-to offsets, search patterns and copy formats.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LEAF_KINDS, byteMap, spansAt } from '../src/inspect/index.js';
import { ancestors, copyCArray, durationStats, copyHex, findBytes, half, indexSpans, inspectValues, leafAt, parseOffset, pathIndex, positionsTo, searchPattern, spanByPath } from '../web/tools.js';
import { corpusFiles } from './helpers/corpus.js';
import { looksLikeContainer } from '../src/index.js';
import { summarizeDurations } from '../src/query/index.js';

const files = [...corpusFiles('rootsig'), ...corpusFiles('shaders')].filter((f) => {
  try {
    byteMap(f.bytes, looksLikeContainer(f.bytes) ? { mode: 'lenient' } : { format: 'rts0' });
    return true;
  } catch {
    return false;
  }
});

test('the span index answers as the linear lookups do: leaf and enclosing spans at every byte, spans by path, positions', () => {
  assert.ok(files.length > 300, `${files.length} files`);
  let bytesChecked = 0;
  for (const f of files) {
    const map = byteMap(f.bytes, looksLikeContainer(f.bytes) ? { mode: 'lenient' } : { format: 'rts0' });
    const index = indexSpans(map);
    // every 7th byte (and the last): the same leaf and the same enclosing spans as spansAt's walk
    for (let at = 0; at < f.bytes.byteLength; at += at + 7 < f.bytes.byteLength ? 7 : Math.max(1, f.bytes.byteLength - 1 - at)) {
      const want = spansAt(map, at);
      const leaf = leafAt(index, at);
      assert.is(leaf < 0 ? undefined : map.spans[leaf], want.leaf, `${f.name} @${at}`);
      if (leaf >= 0) assert.equal(ancestors(index, leaf).map((i) => map.spans[i]), want.groups, `${f.name} @${at} groups`);
      bytesChecked++;
      if (at === f.bytes.byteLength - 1) break;
    }
    // spans by path, for the paths the root signature tree asks (RTS0...): the first span whose
    // path is it (or its .header), as the page's old linear find
    const byPath = pathIndex(index);
    for (const s of map.spans.filter((x, i) => i % 3 === 0 && /^RTS0[.[][^ ]*$/.test(x.path))) {
      const linear = map.spans.find((x) => x.path === s.path || x.path === `${s.path}.header`);
      const got = spanByPath(index, byPath, s.path);
      assert.is(got === undefined ? undefined : map.spans[got], linear, `${f.name} ${s.path}`);
    }
    // positions from the top: following children by position lands on the span
    for (let i = 0; i < map.spans.length; i += 11) {
      const path = positionsTo(index, i);
      let k = -1;
      for (const [depth, p] of path.entries()) {
        k = depth === 0 ? index.firstRoot : index.firstChild[k]!;
        for (let n = 0; n < p; n++) k = index.nextSibling[k]!;
      }
      assert.is(k, i, `${f.name} span ${i}`);
    }
    const leaves = map.spans.filter((s) => LEAF_KINDS.has(s.kind));
    assert.is(index.leaves.length, leaves.length);
  }
  assert.ok(bytesChecked > 10000);
});

test('data inspector: every width and order at the cursor, nothing past the end', () => {
  const b = new Uint8Array([0x00, 0x3c, 0x00, 0x00, 0x80, 0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0, 0x3f]);
  const at = (bytes: Uint8Array, i: number, be = false) => Object.fromEntries(inspectValues(bytes, i, be).map((v) => [v.type, v.value]));
  const le = at(b, 0);
  assert.is(le.u8, '0 (0x00)');
  assert.is(le.u16, '15360 (0x3c00)');
  assert.is(le.f16, '1');
  assert.is(le.u32, '15360 (0x00003c00)');
  assert.is(at(b, 2).f32, '1');
  assert.is(at(b, 6).i64, '-1');
  assert.is(at(b, 6).u64, '18446744073709551615 (0xffffffffffffffff)');
  assert.is(at(new Uint8Array([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]), 0).f64, '1');
  assert.is(at(new Uint8Array([0x3f, 0xf0, 0, 0, 0, 0, 0, 0]), 0, true).f64, '1');
  const be = at(b, 0, true);
  assert.is(be.u16, '60 (0x003c)');
  assert.is(be.i32, String(0x003c0000));
  assert.is(at(b, 15).u8, '63 (0x3f)');
  assert.is(at(b, 15).u16, undefined);
  assert.is(at(b, 15).char, '"?"');
  assert.is(half(0x7c00), Infinity);
  assert.ok(Number.isNaN(half(0x7e00)));
  assert.is(half(0x0001), 2 ** -24);
  assert.is(half(0xc000), -2);
});

test('go to, search patterns and find: decimal, hex, relative; hex pairs and text; wraps once', () => {
  assert.is(parseOffset('0x1f', 0), 31);
  assert.is(parseOffset(' 42 ', 0), 42);
  assert.is(parseOffset('+16', 100), 116);
  assert.is(parseOffset('-0x10', 100), 84);
  assert.is(parseOffset('12abc', 0), undefined);
  assert.is(parseOffset('', 0), undefined);
  assert.equal([...searchPattern('de ad,BE0xef', 'hex')!], [0xde, 0xad, 0xbe, 0xef]);
  assert.is(searchPattern('abc', 'hex'), undefined);
  assert.is(searchPattern('zz', 'hex'), undefined);
  assert.equal([...searchPattern('é', 'text')!], [0xc3, 0xa9]);
  const bytes = new TextEncoder().encode('abcabcab');
  const abc = searchPattern('abc', 'text')!;
  assert.is(findBytes(bytes, abc, 0), 0);
  assert.is(findBytes(bytes, abc, 1), 3);
  assert.is(findBytes(bytes, abc, 4), 0, 'wraps to the start');
  assert.is(findBytes(bytes, searchPattern('ca', 'text')!, 6), 2);
  assert.is(findBytes(bytes, searchPattern('abd', 'text')!, 0), -1);
});

test('duration statistics by selection agree with summarizeDurations (a sort) and the mean', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (const n of [0, 1, 2, 3, 10, 99, 100, 101, 1000, 4097]) {
    const ns = Float64Array.from({ length: n }, () => Math.floor(rand() * 50) * 10);
    const flags = Uint8Array.from({ length: n }, () => (rand() < 0.1 ? 1 : 0));
    const want = summarizeDurations({ count: n, ns, flags, ticks: new BigUint64Array(n) });
    const got = durationStats(ns, flags, n);
    assert.is(got.valid, want.valid, `n=${n}`);
    assert.equal([got.median, got.p99], [want.median, want.p99], `n=${n}`);
    let sum = 0;
    for (let i = 0; i < n; i++) if (!flags[i]) sum += ns[i]!;
    if (want.valid) assert.is(got.mean, sum / want.valid);
    else assert.ok(Number.isNaN(got.mean));
  }
});

test('copy as hex and as a C array', () => {
  const b = Uint8Array.from({ length: 18 }, (_, i) => i * 15);
  assert.is(copyHex(b), '00 0f 1e 2d 3c 4b 5a 69 78 87 96 a5 b4 c3 d2 e1\nf0 ff');
  assert.is(copyCArray(b.subarray(0, 13), '1 x.y'), 'const unsigned char _1_x_y[13] = {\n    0x00, 0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5,\n    0xb4,\n};');
});

test.run();
