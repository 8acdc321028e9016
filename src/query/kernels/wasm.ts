/**
 * The WASM kernels behind the QueryKernels interface. Views that already live in the module's
 * memory (from `allocate`) are used in place; any other view is copied into scratch memory for
 * the call, and outputs copied back.
 */
import type { KernelName, QueryKernels } from './api.js';

interface Exports {
  memory: WebAssembly.Memory;
  durations(src: number, count: number, consecutive: number, scale: number, ticks: number, ns: number, flags: number): void;
  sumRecords(src: number, records: number, fields: number, out: number): void;
  subtract(a: number, b: number, words: number, out: number): void;
  soOverflow(src: number, records: number, flags: number): number;
  binaryOcclusion(src: number, count: number, out: number): number;
  gatherSum(src: number, srcCount: number, fields: number, map: number, mapCount: number, heads: number, dst: number, dstCount: number): number;
}

const PAGE = 65536;
const align = (n: number) => (n + 15) & ~15;

/** A region of WASM memory: fill `bytes` and pass it to an operation with no copy. */
export interface WasmBuffer {
  readonly byteLength: number;
  /** A fresh view each time (memory growth replaces the underlying ArrayBuffer). */
  readonly bytes: Uint8Array;
}

export class WasmKernels implements QueryKernels {
  private readonly exports: Exports;
  /** End of the allocate()d buffers; scratch space for a call starts here. */
  private persistentEnd = 1024;

  constructor(
    readonly name: Exclude<KernelName, 'js'>,
    module: WebAssembly.Module,
  ) {
    this.exports = new WebAssembly.Instance(module, { env: { abort: () => { throw new Error('wasm abort'); } } }).exports as unknown as Exports;
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
    this.persistentEnd = 1024;
  }

  /** Places the views in memory: in place when they live there, else in scratch. */
  private call<T>(inputs: Uint8Array[], outputs: Uint8Array[], run: (ptrs: number[]) => T): T {
    let scratch = align(this.persistentEnd);
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
      throw new RangeError('dxbin: WASM memory grew during the call; take fresh views from WasmBuffer.bytes and call again');
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

  durations(input: Uint8Array, count: number, consecutive: boolean, scale: number, ticks: Uint8Array, ns: Uint8Array, flags: Uint8Array): void {
    this.call([input], [ticks, ns, flags], ([i, t, n, f]) => this.exports.durations(i!, count, consecutive ? 1 : 0, scale, t!, n!, f!));
  }
  sumRecords(input: Uint8Array, records: number, fields: number, out: Uint8Array): void {
    this.call([input], [out], ([i, o]) => this.exports.sumRecords(i!, records, fields, o!));
  }
  subtract(a: Uint8Array, b: Uint8Array, words: number, out: Uint8Array): void {
    this.call([a, b], [out], ([x, y, o]) => this.exports.subtract(x!, y!, words, o!));
  }
  soOverflow(input: Uint8Array, records: number, flags: Uint8Array): number {
    return this.call([input], [flags], ([i, f]) => this.exports.soOverflow(i!, records, f!));
  }
  binaryOcclusion(input: Uint8Array, count: number, out: Uint8Array): number {
    return this.call([input], [out], ([i, o]) => this.exports.binaryOcclusion(i!, count, o!));
  }
  gatherSum(src: Uint8Array, srcCount: number, fields: number, map: Uint8Array, mapCount: number, heads: number, dst: Uint8Array, dstCount: number): number {
    // dst is read too (chains add into it after the head's copy) but every record written starts from a copy
    return this.call([src, map], [dst], ([s, m, d]) => this.exports.gatherSum(s!, srcCount, fields, m!, mapCount, heads, d!, dstCount));
  }
}
