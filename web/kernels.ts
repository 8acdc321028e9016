/** Query kernels: the WASM ones where the page may compile them, else the JS fallback. */
import { activeKernels, kernels, selectKernels } from '../src/query/index.js';


/** The WASM kernels when this page may compile them, else the JS fallback. */
export function chooseKernels(): string {
  for (const name of ['simd', 'scalar'] as const) {
    try {
      kernels(name);
      selectKernels(name);
      return name;
    } catch {
      // unavailable or refused by the CSP: try the next
    }
  }
  selectKernels('js');
  return activeKernels().name;
}
