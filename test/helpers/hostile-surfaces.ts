/**
 * The hostile inputs of issue 20 (classes 1, 4, 7, 10) for the shader surfaces, built small and
 * deterministically from the fuzz seeds' writers. Shared by test/hostile-surfaces.test.ts (what
 * each must give) and bench/hardening.ts (what each costs).
 */
import { seedDxbcShader, seedDxilShader } from '../../src/fuzz/seeds.js';
import type { RootSignature, ShaderBinding } from '../../src/index.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Class 1: a DXIL shader whose `elements` input elements (at most 255) all name one `chars`-byte string. */
export function sharedNamePsv0(elements: number, chars: number): Uint8Array {
  // offset 0 is the empty name (DXC's tables start with a NUL): the shared name starts at 1
  return seedDxilShader({ strings: utf8(`\0${'N'.repeat(chars)}\0`), elementNames: Array.from({ length: elements }, () => 1) });
}

/** Class 1: a DXIL shader whose PSV0 string table is `bytes` NULs. */
export function nulStringTable(bytes: number): Uint8Array {
  return seedDxilShader({ strings: new Uint8Array(bytes) });
}

/** Class 4: a DXBC shader with `bindings` cbuffers whose RDEF records all name one `chars`-byte string. */
export function sharedNameRdef(bindings: number, chars: number): Uint8Array {
  return seedDxbcShader(bindings, 'R'.repeat(chars));
}

/** Class 7: a DXBC shader whose binding names hold ESC, BEL and CR. */
export function controlCharNames(): Uint8Array {
  return seedDxbcShader(2, ['evil\x1b[2J\x07', 'cr\rname']);
}

/**
 * Class 4: `bindings` CBVs at registers past the `ranges` single-register CBV ranges of one table,
 * so every binding is a miss whose near-miss lookup once scanned every range.
 */
export function missingBindings(bindings: number, ranges: number): { bindings: ShaderBinding[]; rs: RootSignature } {
  const rs: RootSignature = {
    version: 2,
    flags: 0,
    parameters: [{ parameterType: 0, shaderVisibility: 0, ranges: Array.from({ length: ranges }, (_, i) => ({ rangeType: 2, numDescriptors: 1, baseShaderRegister: i, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff })) }],
    staticSamplers: [],
  } as RootSignature;
  const list: ShaderBinding[] = Array.from({ length: bindings }, (_, i) => ({ resType: 2, space: 0, lowerBound: ranges + i, upperBound: ranges + i, offset: 0 }));
  return { bindings: list, rs };
}

/** Class 10: a DXIL shader with a PSV0 string table of `size` bytes (DXC refuses sizes that are not a multiple of 4). */
export function oddStringTable(size: number): Uint8Array {
  const ok = seedDxilShader({ strings: new Uint8Array(8) });
  // the string table size field follows resourceCount (no resources): 8 + 4 + 36 + 4 within the part data
  const bytes = new Uint8Array(ok);
  const view = new DataView(bytes.buffer);
  const partAt = view.getUint32(32 + 4 * 1, true); // second part (PSV0)
  view.setUint32(partAt + 8 + 4 + 36 + 4, size, true);
  return bytes;
}

/** Class 10: a compute shader with one SRV whose LowerBound (5) is above its UpperBound (3). */
export function inverseBounds(): Uint8Array {
  return seedDxilShader({ stage: 5, resources: [[3, 0, 5, 3]] });
}
