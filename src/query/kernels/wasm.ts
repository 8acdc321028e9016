/**
 * The WASM kernels behind the QueryKernels interface. Views that already live in the module's
 * memory (from `allocate`) are used in place. Views in JS memory (the caller's ArrayBuffer) are
 * streamed: the operations that go record by record run in blocks of about 128 KiB through one
 * scratch region reused by every call (input block copied in, kernel, output block copied out, all
 * in cache), so memory does not grow with the input. gatherSum, which reads its source at random,
 * copies its inputs whole.
 */
import { DescriptionError } from '../../bytes/errors.js';
import { kindOf } from '../../bytes/check.js';
import type { KernelName, QueryKernels } from './api.js';

interface Exports {
  memory: WebAssembly.Memory;
  /** End of the module's static data (the kernels' vector constants). */
  dataEnd(): number;
  durations(src: number, count: number, consecutive: number, scale: number, ticks: number, ns: number, flags: number): void;
  sumRecords(src: number, records: number, fields: number, out: number): void;
  subtract(a: number, b: number, words: number, out: number): void;
  soOverflow(src: number, records: number, flags: number): number;
  binaryOcclusion(src: number, count: number, out: number): number;
  gatherSum(src: number, srcCount: number, fields: number, map: number, mapCount: number, heads: number, dst: number, dstCount: number): number;
}

const PAGE = 65536;
/** Bytes of input and output per streamed block (stays in L2 cache). */
export const BLOCK_BYTES = 128 * 1024;
const align = (n: number) => (n + 15) & ~15;
/** Bytes of the streaming scratch region: a block, and room for the bytes read past it. */
const STREAM_BYTES = BLOCK_BYTES + 1024;

/** A region of WASM memory: fill `bytes` and pass it to an operation with no copy. */
export interface WasmBuffer {
  readonly byteLength: number;
  /** A fresh view each time (memory growth replaces the underlying ArrayBuffer). */
  readonly bytes: Uint8Array;
}

/**
 * The kernels of one WebAssembly instance. An operation given views into this instance's memory
 * that needs more memory than there is grows it first, which detaches those views, and throws a
 * DescriptionError `memory-grew` (path `kernels.memory`): take fresh views from WasmBuffer.bytes
 * and call again (the retry does not grow it again).
 */
export class WasmKernels implements QueryKernels {
  private readonly exports: Exports;
  /**
   * The streaming scratch region, after the module's static data, reserved at instantiation so
   * streaming never grows memory (which would detach allocate()d views).
   */
  private readonly streamAt: number;
  private readonly streamEnd: number;
  /** End of the allocate()d buffers; scratch space for a call starts here. */
  private persistentEnd: number;

  constructor(
    readonly name: Exclude<KernelName, 'js'>,
    module: WebAssembly.Module,
  ) {
    if (name !== 'simd' && name !== 'scalar') throw new DescriptionError('bad-name', 'name', unknownKernels(name, 'simd or scalar'));
    if (!(module instanceof WebAssembly.Module)) throw new DescriptionError('bad-type', 'module', `expected a WebAssembly.Module, got ${kindOf(module)}`);
    this.exports = new WebAssembly.Instance(module, { env: { abort: () => { throw new Error('wasm abort'); } } }).exports as unknown as Exports;
    this.streamAt = align(this.exports.dataEnd());
    this.streamEnd = this.streamAt + STREAM_BYTES;
    this.persistentEnd = this.streamEnd;
    this.ensure(this.streamEnd);
  }

  private get memory(): ArrayBuffer {
    return this.exports.memory.buffer as ArrayBuffer;
  }

  private ensure(end: number): void {
    const have = this.memory.byteLength;
    if (end > have) this.exports.memory.grow(Math.ceil((end - have) / PAGE));
  }

  /** Memory that stays valid until `reset()`; pass its `bytes` to operations to avoid copies. */
  allocate(byteLength: number): WasmBuffer {
    const ptr = align(this.persistentEnd);
    this.ensure(ptr + byteLength);
    this.persistentEnd = ptr + byteLength;
    const self = this;
    return {
      byteLength,
      get bytes() {
        return new Uint8Array(self.memory, ptr, byteLength);
      },
    };
  }

  /** Frees every allocate()d buffer. */
  reset(): void {
    this.persistentEnd = this.streamEnd;
  }

  /** Places the views in memory: in place when they live there, else in scratch. */
  private call<T>(inputs: Uint8Array[], outputs: Uint8Array[], run: (ptrs: number[]) => T): T {
    const all = [...inputs, ...outputs];
    const small = all.every((v) => v.buffer !== this.memory) && all.reduce((n, v) => n + align(v.byteLength), 0) <= STREAM_BYTES;
    // small calls from JS memory use the reserved region, so they never grow memory either
    let scratch = small ? this.streamAt : align(this.persistentEnd);
    const placements: { view: Uint8Array; ptr: number; copied: boolean }[] = [];
    for (const view of [...inputs, ...outputs]) {
      if (view.buffer === this.memory) placements.push({ view, ptr: view.byteOffset, copied: false });
      else {
        placements.push({ view, ptr: scratch, copied: true });
        scratch = align(scratch + view.byteLength);
      }
    }
    const grows = scratch > this.memory.byteLength;
    if (grows && placements.some((p) => !p.copied)) {
      // growing would detach the caller's views into memory: make room first and retry
      this.ensure(scratch);
      throw new DescriptionError('memory-grew', 'kernels.memory', 'WASM memory grew during the call; take fresh views from WasmBuffer.bytes and call again');
    }
    this.ensure(scratch);
    const mem = new Uint8Array(this.memory);
    placements.forEach((p, i) => {
      if (!p.copied) return;
      if (i < inputs.length) mem.set(p.view, p.ptr);
      else mem.fill(0, p.ptr, p.ptr + p.view.byteLength); // outputs start as zeros, as fresh JS arrays do
    });
    const result = run(placements.map((p) => p.ptr));
    const after = new Uint8Array(this.memory);
    placements.forEach((p, i) => {
      if (p.copied && i >= inputs.length) p.view.set(after.subarray(p.ptr, p.ptr + p.view.byteLength));
    });
    return result;
  }

  /**
   * Runs `run(ptrs, n, first)` over `items` records in blocks: inputs [view, bytes per record,
   * extra bytes read past the block], outputs [view, bytes per record]. In place when every view
   * lives in WASM memory; whole copies (call) when only some do.
   */
  private stream(items: number, inputs: [Uint8Array, number, number][], outputs: [Uint8Array, number][], run: (ptrs: number[], n: number, first: number) => void): void {
    const memory = this.memory;
    const inWasm = (v: Uint8Array) => v.buffer === memory;
    if (inputs.every(([v]) => inWasm(v)) && outputs.every(([v]) => inWasm(v))) {
      run([...inputs.map(([v]) => v.byteOffset), ...outputs.map(([v]) => v.byteOffset)], items, 0);
      return;
    }
    if (inputs.some(([v]) => inWasm(v)) || outputs.some(([v]) => inWasm(v))) {
      this.call(inputs.map(([v]) => v), outputs.map(([v]) => v), (ptrs) => run(ptrs, items, 0));
      return;
    }
    const perItem = inputs.reduce((n, [, size]) => n + size, 0) + outputs.reduce((n, [, size]) => n + size, 0);
    const block = Math.max(1, Math.min(items, Math.floor(BLOCK_BYTES / perItem)));
    const ptrs: number[] = [];
    let end = this.streamAt;
    for (const [, size, extra] of inputs) {
      ptrs.push(end);
      end = align(end + block * size + extra);
    }
    for (const [, size] of outputs) {
      ptrs.push(end);
      end = align(end + block * size);
    }
    const mem = new Uint8Array(this.memory);
    // views of the output blocks made once (a short last block takes its own)
    const outViews = outputs.map(([, size], i) => mem.subarray(ptrs[inputs.length + i]!, ptrs[inputs.length + i]! + block * size));
    for (let first = 0; first < items; first += block) {
      const n = Math.min(block, items - first);
      for (let i = 0; i < inputs.length; i++) {
        const [v, size, extra] = inputs[i]!;
        mem.set(v.subarray(first * size, (first + n) * size + extra), ptrs[i]!);
      }
      run(ptrs, n, first);
      for (let i = 0; i < outputs.length; i++) {
        const [v, size] = outputs[i]!;
        v.set(n === block ? outViews[i]! : outViews[i]!.subarray(0, n * size), first * size);
      }
    }
  }

  durations(input: Uint8Array, count: number, consecutive: boolean, scale: number, ticks: Uint8Array, ns: Uint8Array, flags: Uint8Array): void {
    const c = consecutive ? 1 : 0;
    this.stream(count, [[input, consecutive ? 8 : 16, consecutive && count > 0 ? 8 : 0]], [[ticks, 8], [ns, 8], [flags, 1]], ([i, t, n, f], items) =>
      this.exports.durations(i!, items, c, scale, t!, n!, f!),
    );
  }
  /** {@inheritDoc QueryKernels.sumRecords} */
  sumRecords(input: Uint8Array, records: number, fields: number, out: Uint8Array): void {
    const stride = fields * 8;
    if (out.buffer === this.memory || input.buffer === this.memory || records * stride <= BLOCK_BYTES) {
      this.call([input], [out], ([i, o]) => this.exports.sumRecords(i!, records, fields, o!));
      return;
    }
    // Streamed: block sums added up mod 2^64 (the kernel starts each block's sums at zero).
    const perBlock = Math.max(1, Math.floor(BLOCK_BYTES / stride));
    const streamAt = this.streamAt;
    const sumsAt = align(streamAt + perBlock * stride);
    const mem = new Uint8Array(this.memory);
    const totals = new BigUint64Array(fields);
    const part = new BigUint64Array(this.memory, sumsAt, fields);
    for (let first = 0; first < records; first += perBlock) {
      const n = Math.min(perBlock, records - first);
      mem.set(input.subarray(first * stride, (first + n) * stride), streamAt);
      this.exports.sumRecords(streamAt, n, fields, sumsAt);
      for (let f = 0; f < fields; f++) totals[f] = totals[f]! + part[f]!;
    }
    out.set(new Uint8Array(totals.buffer));
  }
  /** {@inheritDoc QueryKernels.subtract} */
  subtract(a: Uint8Array, b: Uint8Array, words: number, out: Uint8Array): void {
    this.stream(words, [[a, 8, 0], [b, 8, 0]], [[out, 8]], ([x, y, o], n) => this.exports.subtract(x!, y!, n, o!));
  }
  /** {@inheritDoc QueryKernels.soOverflow} */
  soOverflow(input: Uint8Array, records: number, flags: Uint8Array): number {
    let overflowed = 0;
    this.stream(records, [[input, 16, 0]], [[flags, 1]], ([i, f], n) => (overflowed += this.exports.soOverflow(i!, n, f!)));
    return overflowed;
  }
  /** {@inheritDoc QueryKernels.binaryOcclusion} */
  binaryOcclusion(input: Uint8Array, count: number, out: Uint8Array): number {
    let visible = 0;
    this.stream(count, [[input, 8, 0]], [[out, 8]], ([i, o], n) => (visible += this.exports.binaryOcclusion(i!, n, o!)));
    return visible;
  }
  gatherSum(src: Uint8Array, srcCount: number, fields: number, map: Uint8Array, mapCount: number, heads: number, dst: Uint8Array, dstCount: number): number {
    // dst is read too (chains add into it after the head's copy) but every record written starts from a copy
    return this.call([src, map], [dst], ([s, m, d]) => this.exports.gatherSum(s!, srcCount, fields, m!, mapCount, heads, d!, dstCount));
  }
}

/**
 * The words for a kernels name that is none of `known`: a string given is not shown (JSON.stringify
 * leaves U+2028 and bidi controls raw, and quoted() would not fit the query kernels bundle); the
 * caller has it.
 */
export function unknownKernels(given: unknown, known: string): string {
  return `expected ${known} kernels, got ${typeof given === 'string' ? 'another name' : kindOf(given)}`;
}
