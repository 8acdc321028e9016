/**
 * The `json-generated` fuzz target's recipes: a few bytes made into a hostile JSON value that
 * byte mutation of a JSON text cannot reach (a 100,000-deep list costs 200 KB of brackets, and a
 * mutator seldom balances them): nesting to a depth the bytes give, a long string, a long list of
 * one item, a value of the wrong kind, a cycle, put under a key the bytes pick of the pipeline
 * form, the root signature JSON form or the stream form.
 */
import { PIPELINE_KEYS } from '../pipeline/desc.js';

/** What a recipe makes: the value, which reader it is for, and about how many bytes it stands for. */
export interface GeneratedJson {
  readonly value: unknown;
  readonly form: 'pipeline' | 'rootsig' | 'stream';
  readonly size: number;
}

const ROOTSIG_KEYS = ['version', 'flags', 'parameters', 'staticSamplers'];
const u16 = (d: Uint8Array, i: number) => (d[i] ?? 0) | ((d[i + 1] ?? 0) << 8);

/** The value a recipe makes. Byte 0: form and shape; 1: the key; 2-3: a size; 4: the item. */
export function generateJson(data: Uint8Array): GeneratedJson {
  const b0 = data[0] ?? 0;
  const form = (['pipeline', 'rootsig', 'stream'] as const)[b0 % 3]!;
  const shape = Math.floor(b0 / 3) % 6;
  const n = 1 + ((u16(data, 2) * 7) % 120_000);
  const item = [0, 1, -1, 1e300, 'x', null, true, {}, []][(data[4] ?? 0) % 9];
  let inner: unknown;
  let size: number;
  switch (shape) {
    case 0: {
      // a list n deep
      let v: unknown = item;
      for (let i = 0; i < n; i++) v = [v];
      inner = v;
      size = 2 * n;
      break;
    }
    case 1: {
      // an object n deep under one repeated key
      let v: unknown = item;
      for (let i = 0; i < n; i++) v = { k: v };
      inner = v;
      size = 6 * n;
      break;
    }
    case 2:
      inner = 'S\u001b[2J\n#include '.repeat(Math.ceil((n * 8) / 16));
      size = n * 8;
      break;
    case 3:
      inner = Array.from({ length: Math.min(n, 50_000) }, () => item);
      size = 4 * Math.min(n, 50_000);
      break;
    case 4: {
      // a cycle (no JSON text makes one; a library caller can)
      const o: Record<string, unknown> = {};
      o.self = [o];
      inner = o;
      size = 64;
      break;
    }
    default:
      inner = item;
      size = 8;
  }
  const keys = form === 'pipeline' ? PIPELINE_KEYS : form === 'rootsig' ? ROOTSIG_KEYS : ['Type', 'Inner'];
  const key = keys[(data[1] ?? 0) % keys.length]!;
  const base: Record<string, unknown> = form === 'rootsig' ? { version: '1.1' } : {};
  base[key] = inner;
  return { value: form === 'stream' ? [{ Type: 'VS', ...base }] : base, form, size: Math.max(size, data.byteLength) };
}
