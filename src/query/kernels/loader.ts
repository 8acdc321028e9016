/**
 * One loader for the query kernels: compiled once, cached, and chosen at first use — SIMD when it
 * compiles here, else scalar WASM, else plain JS (a strict Content-Security-Policy, an engine
 * without WebAssembly); kernelsUnavailableReason says why a build was passed over. `DXBIN_WASM=simd|scalar|js`
 * (or `selectKernels`) forces one, for tests and benchmarks.
 */
import { DescriptionError } from '../../bytes/errors.js';
import type { KernelName, QueryKernels } from './api.js';
import { jsKernels } from './js.js';
import { unknownKernels, WasmKernels } from './wasm.js';
import { BYTE_SHIFT, SCALAR_WASM, SIMD_WASM } from './wasm-binaries.js';

const cache = new Map<KernelName, QueryKernels>();
let chosen: QueryKernels | undefined;
/** Per WASM build: its instantiated kernels, or why this engine cannot run them. */
const built = new Map<Exclude<KernelName, 'js'>, WasmKernels | string>();

/**
 * Compiles and instantiates one WASM build once; the reason in words when it fails. `validate`
 * alone is not enough: a Content-Security-Policy without 'wasm-unsafe-eval' validates the bytes
 * and then refuses to compile them.
 */
function build(name: Exclude<KernelName, 'js'>): WasmKernels | string {
  let b = built.get(name);
  if (b !== undefined) return b;
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.Module !== 'function') b = 'this engine has no WebAssembly';
  else {
    const bytes = Uint8Array.from(name === 'simd' ? SIMD_WASM : SCALAR_WASM, (c) => (c.charCodeAt(0) - BYTE_SHIFT) & 255);
    if (!WebAssembly.validate(bytes)) b = `this engine does not accept the ${name} WebAssembly kernels${name === 'simd' ? ' (no fixed-width SIMD)' : ''}`;
    else {
      try {
        b = new WasmKernels(name, new WebAssembly.Module(bytes));
      } catch (e) {
        const err = e as { name?: string; message?: string };
        b = `compiling the ${name} WebAssembly kernels failed (${err.name ?? 'Error'}: ${err.message ?? String(e)}); a Content-Security-Policy without 'wasm-unsafe-eval' does this`;
      }
    }
  }
  built.set(name, b);
  return b;
}

/** Whether this engine can run the named kernels: they compile and instantiate here (checked once). */
export function kernelsAvailable(name: KernelName): boolean {
  if (name === 'js') return true;
  if (name !== 'simd' && name !== 'scalar') return false;
  return typeof build(name) !== 'string';
}

/** Why the named kernels cannot run in this engine (a CSP, no WebAssembly, no SIMD), or undefined when they can. */
export function kernelsUnavailableReason(name: KernelName): string | undefined {
  if (name === 'js') return undefined;
  if (name !== 'simd' && name !== 'scalar') return unknownKernels(name, 'simd, scalar or js');
  const b = build(name);
  return typeof b === 'string' ? b : undefined;
}

/**
 * The named kernels.
 * @throws {DescriptionError} unavailable (with the reason) when this engine cannot run them; bad-name for an unknown name
 */
export function kernels(name: KernelName): QueryKernels {
  let k = cache.get(name);
  if (k) return k;
  if (name !== 'js' && name !== 'simd' && name !== 'scalar') throw new DescriptionError('bad-name', 'kernels', unknownKernels(name, 'simd, scalar or js'));
  if (name === 'js') k = jsKernels;
  else {
    const b = build(name);
    if (typeof b === 'string') throw new DescriptionError('unavailable', 'kernels', b);
    k = b;
  }
  cache.set(name, k);
  return k;
}

/**
 * The kernels in use: DXBIN_WASM if set, else the fastest this engine runs.
 * @throws {DescriptionError} bad-name when DXBIN_WASM names no kernels
 */
export function activeKernels(): QueryKernels {
  if (chosen) return chosen;
  const forced = typeof process !== 'undefined' ? process.env?.DXBIN_WASM : undefined;
  if (forced !== undefined && forced !== '') {
    if (forced !== 'simd' && forced !== 'scalar' && forced !== 'js') throw new DescriptionError('bad-name', 'DXBIN_WASM', unknownKernels(forced, 'simd, scalar or js'));
    return (chosen = kernels(forced));
  }
  const best = (['simd', 'scalar'] as const).find(kernelsAvailable) ?? 'js';
  return (chosen = kernels(best));
}

/** Forces the kernels for the rest of the process (tests, benchmarks); undefined: choose again. */
export function selectKernels(name: KernelName | undefined): void {
  chosen = name === undefined ? undefined : kernels(name);
}
