/**
 * Mutators that know the formats, plus byte-level ones and a dictionary (docs/fuzzing.md).
 * `mutate(bytes, kind, seed)` is deterministic in its arguments and never throws for bytes: a
 * structure mutator that cannot parse its input falls back to the byte-level ones.
 */
import { expectBytes } from '../bytes/check.js';
import { ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import { parseContainer } from '../container/parse.js';
import { writeContainer } from '../container/write.js';

/** What the bytes are, so the mutator can keep them close to well-formed. */
export type MutationKind = 'bytes' | 'container' | 'rts0' | 'hlsl' | 'json' | 'ddi' | 'rdat' | 'query';
/** Every mutator, by the format it knows. */
export const MUTATION_KINDS: readonly MutationKind[] = ['bytes', 'container', 'rts0', 'hlsl', 'json', 'ddi', 'rdat', 'query'];

/** xorshift32: small, fast, deterministic. */
export class Random {
  private s: number;
  constructor(seed: number) {
    this.s = (seed >>> 0) || 0x9e3779b9;
  }
  /** The next 32-bit value. */
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  /** 0 <= n < max */
  below(max: number): number {
    return max <= 0 ? 0 : this.next() % max;
  }
  /** One element of a non-empty array. */
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }
  /** True one time in `oneIn`. */
  chance(oneIn: number): boolean {
    return this.below(oneIn) === 0;
  }
}

/** 32-bit values that sit on boundaries decoders check. */
export const INTERESTING_U32 = [0, 1, 2, 3, 4, 7, 8, 16, 0x18, 0x20, 0x24, 0x40, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffff0, 0xfffffffe, 0xffffffff];

/** Tokens of the formats: FourCCs, RTS0 versions, HLSL keywords, JSON and DDI names. */
export const DICTIONARY: readonly string[] = [
  'DXBC', ROOT_SIGNATURE_PART, 'DXIL', 'ILDB', 'ILDN', 'HASH', 'PSV0', 'RDAT', 'SFI0', 'ISG1', 'OSG1', 'PSG1', 'STAT', 'PRIV', 'SHEX', 'SHDR', 'ISGN', 'OSGN',
  'RootFlags', 'RootConstants', 'DescriptorTable', 'CBV', 'SRV', 'UAV', 'Sampler', 'StaticSampler', 'visibility', 'space', 'flags', 'numDescriptors',
  'offset', 'unbounded', 'DESCRIPTOR_RANGE_OFFSET_APPEND', 'num32BitConstants', 'SHADER_VISIBILITY_ALL', 'SHADER_VISIBILITY_PIXEL', 'DATA_STATIC',
  'DESCRIPTORS_VOLATILE', 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', 'LOCAL_ROOT_SIGNATURE', 'filter', 'FILTER_MIN_MAG_MIP_LINEAR', 'addressU', 'TEXTURE_ADDRESS_CLAMP',
  'mipLODBias', 'maxAnisotropy', 'comparisonFunc', 'borderColor', 'minLOD', 'maxLOD', 'b0', 't0', 'u0', 's0', 'b4294967295', '#define', 'RootSignature',
  '[RootSignature(', ')]', '"', '\\', '(', ')', ',', '=', '|', '1e38', '-0.0', 'nan', '0x',
  '"$id"', '"$ref"', 'null', 'true', '[]', '{}', '"version"', '"parameters"', '"ranges"', '"staticSamplers"', '"Name"', '"pNext"', '"pNode"', '"pOutputs"', '"NumOutputs"',
];

const HLSL_TOKEN = /[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*|"(?:[^"\\]|\\.)*"?|\s+|./gs;

function bytesMutation(data: Uint8Array, r: Random): Uint8Array {
  let b: Uint8Array = data.slice();
  const rounds = 1 + r.below(4);
  for (let k = 0; k < rounds; k++) {
    const op = r.below(10);
    if (b.byteLength === 0) {
      b = Uint8Array.from({ length: 1 + r.below(16) }, () => r.below(256));
      continue;
    }
    const at = r.below(b.byteLength);
    if (op === 0) b[at] = r.below(256);
    else if (op === 1) b[at]! ^= 1 << r.below(8);
    else if (op === 2 && at + 4 <= b.byteLength) new DataView(b.buffer).setUint32(at & ~3, r.pick(INTERESTING_U32), true);
    else if (op === 3 && at + 4 <= b.byteLength) {
      const v = new DataView(b.buffer);
      v.setUint32(at & ~3, (v.getUint32(at & ~3, true) + r.below(17) - 8) >>> 0, true);
    } else if (op === 4) b = b.slice(0, at);
    else if (op === 5) b = concat(b.subarray(0, at), b.subarray(Math.min(b.byteLength, at + 1 + r.below(16))));
    else if (op === 6) {
      const len = 1 + r.below(Math.min(64, b.byteLength - at));
      b = concat(b.subarray(0, at), b.subarray(at, at + len), b.subarray(at));
    } else if (op === 7) b = concat(b.subarray(0, at), new TextEncoder().encode(r.pick(DICTIONARY)), b.subarray(at));
    else if (op === 8) b = concat(b, Uint8Array.from({ length: 1 + r.below(32) }, () => r.below(256)));
    else b[at] = r.pick([0, 1, 0x7f, 0x80, 0xff]);
  }
  return b;
}

function concat(...xs: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(xs.reduce((n, x) => n + x.byteLength, 0));
  let at = 0;
  for (const x of xs) {
    out.set(x, at);
    at += x.byteLength;
  }
  return out;
}

/** Mutates one part of a container (or the part table), then writes it back with the digest fixed up. */
function containerMutation(data: Uint8Array, r: Random): Uint8Array {
  let c;
  try {
    c = parseContainer(data, { mode: 'lenient' });
  } catch {
    return bytesMutation(data, r);
  }
  const parts = c.parts.map((p) => ({ name: p.name, data: p.data }));
  const op = r.below(6);
  if (parts.length > 0 && op <= 2) {
    const i = r.below(parts.length);
    const p = parts[i]!;
    parts[i] = { name: p.name, data: p.name === ROOT_SIGNATURE_PART ? rts0Mutation(p.data, r) : bytesMutation(p.data, r) };
  } else if (parts.length > 0 && op === 3) parts.splice(r.below(parts.length), 1);
  else if (parts.length > 0 && op === 4) parts.push(parts[r.below(parts.length)]!);
  else parts.push({ name: r.pick(['RTS0', 'RDAT', 'PSV0', 'DXIL', 'XXXX']), data: Uint8Array.from({ length: r.below(64) }, () => r.below(256)) });
  // a buffer of its own: writeContainer's result may be a view of a shared 64 KiB slab
  // (src/bytes/pool.ts), which a corpus entry would keep alive and postMessage would copy whole
  const written = writeContainer({ digest: c.digest, majorVersion: c.majorVersion, minorVersion: c.minorVersion, parts }).slice();
  // now and then break the layout itself, after the digest was computed (or recompute nothing)
  return r.chance(8) ? bytesMutation(written, r) : written;
}

/** RTS0: change a header count or offset, a record field, or a range count, at 4-byte granularity. */
function rts0Mutation(data: Uint8Array, r: Random): Uint8Array {
  if (data.byteLength < 24) return bytesMutation(data, r);
  const b = data.slice();
  const v = new DataView(b.buffer);
  const op = r.below(5);
  if (op === 0) v.setUint32(0, r.pick([1, 2, 3, 4, 0, 0xffffffff]), true); // version
  else if (op === 1) {
    const field = r.pick([4, 8, 12, 16, 20]); // counts and offsets of the header
    v.setUint32(field, r.chance(2) ? r.pick(INTERESTING_U32) : (v.getUint32(field, true) + r.below(5) - 2) >>> 0, true);
  } else if (op === 2) {
    const at = 4 * r.below(b.byteLength >> 2);
    v.setUint32(at, r.pick(INTERESTING_U32), true);
  } else if (op === 3) {
    const at = 4 * r.below(b.byteLength >> 2);
    v.setUint32(at, (v.getUint32(at, true) + r.below(3) - 1) >>> 0, true);
  } else return bytesMutation(b, r);
  return b;
}

/** HLSL: delete, duplicate, swap or insert tokens (dictionary words, numbers, punctuation). */
function hlslMutation(data: Uint8Array, r: Random): Uint8Array {
  const text = new TextDecoder().decode(data);
  const tokens = text.match(HLSL_TOKEN) ?? [];
  if (tokens.length === 0 || r.chance(10)) return bytesMutation(data, r);
  const rounds = 1 + r.below(3);
  for (let k = 0; k < rounds; k++) {
    const at = r.below(tokens.length);
    const op = r.below(6);
    if (op === 0) tokens.splice(at, 1);
    else if (op === 1) tokens.splice(at, 0, tokens[r.below(tokens.length)]!);
    else if (op === 2) {
      const j = r.below(tokens.length);
      [tokens[at], tokens[j]] = [tokens[j]!, tokens[at]!];
    } else if (op === 3) tokens.splice(at, 0, r.pick(DICTIONARY));
    else if (op === 4) tokens[at] = String(r.pick(INTERESTING_U32));
    else tokens.splice(at, 0, r.pick([' ', ',', '(', ')', '=', '|', '"', '\n#define X ', ' X ']));
  }
  return new TextEncoder().encode(tokens.join(''));
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** JSON: replace, delete or duplicate one value somewhere in the tree. */
function jsonMutation(data: Uint8Array, r: Random): Uint8Array {
  let root: Json;
  try {
    root = JSON.parse(new TextDecoder().decode(data)) as Json;
  } catch {
    return hlslMutation(data, r);
  }
  const holders: { parent: Json[] | { [k: string]: Json }; key: string | number }[] = [];
  const stack: Json[] = [root];
  while (stack.length > 0 && holders.length < 5000) {
    const v = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => (holders.push({ parent: v, key: i }), stack.push(x)));
    else if (v && typeof v === 'object') for (const k of Object.keys(v)) holders.push({ parent: v, key: k }), stack.push(v[k]!);
  }
  if (holders.length === 0) return hlslMutation(data, r);
  const h = r.pick(holders);
  const parent = h.parent as Record<string | number, Json>;
  const op = r.below(5);
  const replacement = (): Json => r.pick<Json>([null, true, 0, -1, 1.5, 4294967295, 4294967296, 'x', '', [], {}, [1, 2, 3], 'NaN', 'APPEND', 'UNBOUNDED', { $ref: '1' }, r.pick(DICTIONARY)]);
  if (op === 0) parent[h.key] = replacement();
  else if (op === 1 && Array.isArray(parent)) parent.splice(h.key as number, 1);
  else if (op === 1) delete parent[h.key];
  else if (op === 2 && Array.isArray(parent)) parent.splice(h.key as number, 0, structuredClone(parent[h.key]!));
  else if (op === 3 && typeof parent[h.key] === 'number') parent[h.key] = (parent[h.key] as number) + r.below(5) - 2;
  else parent[h.key] = structuredClone(r.pick(holders).parent as Json);
  return new TextEncoder().encode(JSON.stringify(root));
}

/** DDI images: point an aligned pointer-sized word at another plausible offset (or past the end). */
function ddiMutation(data: Uint8Array, r: Random): Uint8Array {
  // byte 0 selects the struct and ABI (see targets), the image follows
  if (data.byteLength < 9 || r.chance(4)) return bytesMutation(data, r);
  const b = data.slice();
  const v = new DataView(b.buffer, 1);
  const words = (b.byteLength - 1) >> 2;
  const at = 4 * r.below(words);
  const op = r.below(4);
  if (op === 0) v.setUint32(at, 2 * r.below((b.byteLength + 8) >> 1), true); // another offset, maybe the end
  else if (op === 1) v.setUint32(at, v.getUint32(4 * r.below(words), true), true); // alias another pointer
  else if (op === 2) v.setUint32(at, 0, true); // NULL
  else v.setUint32(at, r.pick(INTERESTING_U32), true);
  return b;
}

/**
 * One mutation of `bytes` for the format `kind`, deterministic in (bytes, kind, seed). Container
 * mutations rewrite the container with its digest recomputed, so checks past the digest are reached.
 */
export function mutate(bytes: Uint8Array, kind: MutationKind, seed: number): Uint8Array {
  expectBytes(bytes, 'bytes');
  return mutateInput(bytes, kind, seed);
}

/** mutate without the check of `bytes` (the fuzz worker's loop, which makes its own bytes). */
export function mutateInput(bytes: Uint8Array, kind: MutationKind, seed: number): Uint8Array {
  const r = new Random(seed);
  if (r.chance(5)) return bytesMutation(bytes, r);
  switch (kind) {
    case 'container':
      return containerMutation(bytes, r);
    case 'rts0':
      return rts0Mutation(bytes, r);
    case 'hlsl':
      return hlslMutation(bytes, r);
    case 'json':
      return jsonMutation(bytes, r);
    case 'ddi':
      return ddiMutation(bytes, r);
    case 'rdat':
    case 'query':
      return r.chance(2) ? rts0Mutation(bytes, r) : bytesMutation(bytes, r);
    default:
      return bytesMutation(bytes, r);
  }
}

/** The dictionary as a libFuzzer/AFL dictionary file (`name="value"` lines, escaped). */
export function libFuzzerDictionary(): string {
  const esc = (s: string) => Array.from(new TextEncoder().encode(s), (c) => (c === 0x22 || c === 0x5c || c < 0x20 || c > 0x7e ? `\\x${c.toString(16).padStart(2, '0')}` : String.fromCharCode(c))).join('');
  const words = DICTIONARY.map((w, i) => `kw${i}="${esc(w)}"`);
  const ints = INTERESTING_U32.map((n, i) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    return `u32_${i}="${Array.from(b, (c) => `\\x${c.toString(16).padStart(2, '0')}`).join('')}"`;
  });
  return `# dxbin dictionary: FourCCs, root signature language, JSON and DDI names, boundary u32 (little-endian)\n${[...words, ...ints].join('\n')}\n`;
}
