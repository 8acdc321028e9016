/**
 * The WebAssembly digest (src/container/assembly/digest.ts, inlined as base64 by
 * `npm run build:wasm`): compiled and instantiated once, at the first digest of a message of
 * WASM_DIGEST_MIN_BYTES or more, never through eval. When WebAssembly is missing or refused (a
 * strict Content-Security-Policy without 'wasm-unsafe-eval'), or `DXBIN_WASM=js`, the JS digest
 * runs instead. The message is copied through one 64 KiB buffer in the module's memory (one chunk
 * per call for messages up to 64 KiB, so nothing is allocated; one view per further chunk).
 */
import { decodeBase64 } from '../bytes/base64.js';
import { DIGEST_WASM } from './digest-wasm-binary.js';

/** Messages shorter than this are hashed in JS: below it the copy and call cost more than they save. */
export const WASM_DIGEST_MIN_BYTES = 128;

interface DigestExports {
  memory: WebAssembly.Memory;
  begin(): void;
  blocks(ptr: number, count: number): void;
  state(out: number): void;
}

const CHUNK = 65536;
const BUF = 1024; // chunk buffer: [BUF, BUF + CHUNK)
const FINAL = BUF + CHUNK; // up to two final blocks
const STATE = FINAL + 128; // 16 bytes of state

let loaded: { x: DigestExports; mem: Uint8Array } | null | undefined;

function load(): { x: DigestExports; mem: Uint8Array } | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  const forced = typeof process !== 'undefined' ? process.env?.DXBIN_WASM : undefined;
  if (forced === 'js' || typeof WebAssembly !== 'object') return loaded;
  try {
    const module = new WebAssembly.Module(decodeBase64(DIGEST_WASM));
    const x = new WebAssembly.Instance(module, { env: { abort: () => { throw new Error('wasm abort'); } } }).exports as unknown as DigestExports;
    const need = STATE + 16;
    if (x.memory.buffer.byteLength < need) x.memory.grow(Math.ceil((need - x.memory.buffer.byteLength) / 65536));
    loaded = { x, mem: new Uint8Array(x.memory.buffer) };
  } catch {
    loaded = null; // CSP or an engine without WebAssembly: the JS digest serves
  }
  return loaded;
}

/** Whether the WebAssembly digest is in use in this process (loads it on first ask). */
export function wasmDigestAvailable(): boolean {
  return load() !== null;
}

/**
 * DXC's modified MD5 of `message` into out[at..at+16) with the WebAssembly digest; false (nothing
 * written) when it is not available.
 */
export function wasmDigestInto(message: Uint8Array, out: Uint8Array, at: number): boolean {
  const w = loaded === undefined ? load() : loaded;
  if (w === null) return false;
  const { x, mem } = w;
  const length = message.byteLength;
  const full = length - (length & 63);
  x.begin();
  if (length <= CHUNK) {
    mem.set(message, BUF);
    if (full > 0) x.blocks(BUF, full >>> 6);
  } else {
    for (let o = 0; o < full; o += CHUNK) {
      const n = Math.min(CHUNK, full - o);
      mem.set(message.subarray(o, o + n), BUF);
      x.blocks(BUF, n >>> 6);
    }
  }
  // DXC's final block: the bit length first, the rest of the message, 0x80, and 2 * length + 1 last.
  const rest = length - full;
  const bits = (length * 8) | 0;
  const tail = (2 * length + 1) | 0;
  mem.fill(0, FINAL, FINAL + 128);
  if (rest < 56) {
    for (let i = 0; i < rest; i++) mem[FINAL + 4 + i] = message[full + i]!;
    mem[FINAL + 4 + rest] = 0x80;
    put(mem, FINAL, bits);
    put(mem, FINAL + 60, tail);
    x.blocks(FINAL, 1);
  } else {
    for (let i = 0; i < rest; i++) mem[FINAL + i] = message[full + i]!;
    mem[FINAL + rest] = 0x80;
    put(mem, FINAL + 64, bits);
    put(mem, FINAL + 124, tail);
    x.blocks(FINAL, 2);
  }
  x.state(STATE);
  for (let i = 0; i < 16; i++) out[at + i] = mem[STATE + i]!;
  return true;
}

function put(mem: Uint8Array, at: number, value: number): void {
  mem[at] = value;
  mem[at + 1] = value >>> 8;
  mem[at + 2] = value >>> 16;
  mem[at + 3] = value >>> 24;
}
