/**
 * One loader for the query kernels: compiled once, cached, and chosen at first use — SIMD when
 * `WebAssembly.validate` accepts it, else scalar WASM, else plain JS. `DXBIN_WASM=simd|scalar|js`
 * (or `selectKernels`) forces one, for tests and benchmarks.
 */
import { DescriptionError } from '../../bytes/errors.js';
import type { KernelName, QueryKernels } from './api.js';
import { decodeBase64 } from '../../bytes/base64.js';
import { jsKernels } from './js.js';
import { WasmKernels } from './wasm.js';
import { SCALAR_WASM, SIMD_WASM } from './wasm-binaries.js';

const cache = new Map<KernelName, QueryKernels>();
let chosen: QueryKernels | undefined;

/** Whether this engine can run the named kernels. */
export function kernelsAvailable(name: KernelName): boolean {
  if (name === 'js') return true;
  if (typeof WebAssembly !== 'object') return false;
  return WebAssembly.validate(decodeBase64(name === 'simd' ? SIMD_WASM : SCALAR_WASM));
}

/**
 * The named kernels.
 * @throws {DescriptionError} unavailable when this engine cannot run them; bad-name for an unknown name
 */
export function kernels(name: KernelName): QueryKernels {
  let k = cache.get(name);
  if (k) return k;
  if (name !== 'js' && name !== 'simd' && name !== 'scalar') throw new DescriptionError('bad-name', 'kernels', `unknown kernels ${JSON.stringify(name)} (known: simd, scalar, js)`);
  if (name === 'js') k = jsKernels;
  else {
    if (!kernelsAvailable(name)) throw new DescriptionError('unavailable', 'kernels', `this engine cannot run the ${name} WebAssembly kernels`);
    k = new WasmKernels(name, new WebAssembly.Module(decodeBase64(name === 'simd' ? SIMD_WASM : SCALAR_WASM)));
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
    if (forced !== 'simd' && forced !== 'scalar' && forced !== 'js') throw new DescriptionError('bad-name', 'DXBIN_WASM', `must be simd, scalar or js, not ${forced}`);
    return (chosen = kernels(forced));
  }
  const best = (['simd', 'scalar'] as const).find(kernelsAvailable) ?? 'js';
  return (chosen = kernels(best));
}

/** Forces the kernels for the rest of the process (tests, benchmarks); undefined: choose again. */
export function selectKernels(name: KernelName | undefined): void {
  chosen = name === undefined ? undefined : kernels(name);
}
