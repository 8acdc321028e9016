/**
 * Hostile input: decoding returns or throws DecodeError, nothing else, and what it returns is
 * bounded by the input's size. Anything else is a crash.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  DecodeError,
  decodeRootSignature,
  encodeRootSignature,
  looksLikeContainer,
  parseContainer,
  readRootSignatureSource,
  type RootSignature,
} from '../src/index.js';
import { corpusFiles } from './helpers/corpus.js';

const seeds = [...corpusFiles('rootsig').filter((f) => !f.name.includes('invalid_header')), ...corpusFiles('shaders/vkd3d').slice(0, 40), ...corpusFiles('shaders/dxtk12').slice(0, 40)].map((f) => f.bytes);
const parts = seeds.map((b) => (looksLikeContainer(b) ? parseContainer(b, { mode: 'lenient' }).parts.find((p) => p.name === 'RTS0')?.data : b)).filter((p): p is Uint8Array => !!p);

const INTERESTING = [0, 1, 2, 3, 4, 5, 0x18, 0x24, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff];

type Mutation = { kind: 'byte' | 'word' | 'truncate' | 'extend'; at: number; value: number };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('byte', 'word', 'word', 'truncate', 'extend'),
  at: fc.nat(),
  value: fc.oneof(fc.constantFrom(...INTERESTING), fc.nat({ max: 0xffffffff })),
});

function mutate(original: Uint8Array, mutations: Mutation[]): Uint8Array {
  let b = original.slice();
  for (const m of mutations) {
    if (b.byteLength === 0) break;
    const at = m.at % b.byteLength;
    if (m.kind === 'byte') b[at] = m.value & 0xff;
    else if (m.kind === 'word' && at + 4 <= b.byteLength) new DataView(b.buffer).setUint32(at & ~3, m.value >>> 0, true);
    else if (m.kind === 'truncate') b = b.slice(0, at);
    else if (m.kind === 'extend') {
      const longer = new Uint8Array(b.byteLength + (m.value % 64));
      longer.set(b);
      b = longer;
    }
  }
  return b;
}

function records(rs: RootSignature): number {
  return rs.parameters.length + rs.staticSamplers.length + rs.parameters.reduce((n, p) => n + (p.parameterType === 0 ? p.ranges.length : 0), 0);
}

/** Runs `fn`; DecodeError is an answer, anything else fails the property. */
function decodesOrRefuses<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DecodeError) {
      assert.type(e.offset, 'number');
      assert.ok(e.path.length > 0);
      return undefined;
    }
    throw e;
  }
}

/** What decodes re-encodes canonically and decodes to the same description, within the size bound. */
function checkDecoded(bytes: Uint8Array, rs: RootSignature | undefined) {
  if (!rs) return;
  assert.ok(records(rs) <= bytes.byteLength / 4 + 1, 'records bounded by input size');
  const again = encodeRootSignature(rs);
  assert.equal(decodeRootSignature(again), rs);
}

test('mutated corpus RTS0 parts: decoded or DecodeError', () => {
  fc.assert(
    fc.property(fc.constantFrom(...parts), fc.array(mutation, { minLength: 1, maxLength: 4 }), (part, ms) => {
      const bytes = mutate(part, ms);
      checkDecoded(bytes, decodesOrRefuses(() => decodeRootSignature(bytes)));
    }),
    { numRuns: 4000, seed: 20261129 },
  );
});

test('mutated corpus containers: strict and lenient parse, RTS0 lookup', () => {
  fc.assert(
    fc.property(fc.constantFrom(...seeds.filter(looksLikeContainer)), fc.array(mutation, { minLength: 1, maxLength: 4 }), (container, ms) => {
      const bytes = mutate(container, ms);
      decodesOrRefuses(() => parseContainer(bytes));
      decodesOrRefuses(() => parseContainer(bytes, { mode: 'lenient' }));
      const source = decodesOrRefuses(() => readRootSignatureSource(bytes, 'lenient'));
      if (source) checkDecoded(source.part, source.rootSignature);
    }),
    { numRuns: 3000, seed: 7 },
  );
});

test('random bytes, with and without a plausible header', () => {
  const header = fc.tuple(fc.constantFrom(1, 2, 3), fc.nat({ max: 40 }), fc.constantFrom(24, 0, 36, 0xffffffff), fc.nat({ max: 8 }), fc.nat({ max: 600 }), fc.nat());
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), fc.option(header), (tail, h) => {
      let bytes = tail;
      if (h) {
        bytes = new Uint8Array(24 + tail.byteLength);
        const v = new DataView(bytes.buffer);
        h.forEach((x, i) => v.setUint32(i * 4, x >>> 0, true));
        bytes.set(tail, 24);
      }
      checkDecoded(bytes, decodesOrRefuses(() => decodeRootSignature(bytes)));
      decodesOrRefuses(() => parseContainer(bytes, { mode: 'lenient' }));
    }),
    { numRuns: 4000, seed: 99 },
  );
});

test.run();
