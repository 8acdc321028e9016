/** PSV0 descriptions the PSV0 tests build (test/psv0.test.ts, test/psv0-encode.test.ts). */
import { psvVersionOf, type Psv0 } from '../../src/index.js';

/** A small description of a PSV0 of `size` runtime-info bytes (its version follows from the size) with one resource. */
export function versionDescription(size: number): Psv0 {
  const v = psvVersionOf(size);
  const info: Record<string, number> = { minimumWaveLaneCount: 32, maximumWaveLaneCount: 32 };
  if (v >= 1) Object.assign(info, { shaderStage: 5, usesViewID: 0, sigInputElements: 0, sigOutputElements: 0, sigPatchConstOrPrimElements: 0, sigInputVectors: 0, sigOutputVectors0: 0, sigOutputVectors1: 0, sigOutputVectors2: 0, sigOutputVectors3: 0 });
  if (v >= 2) Object.assign(info, { numThreadsX: 8, numThreadsY: 8, numThreadsZ: 1 });
  if (v >= 3) info.entryFunctionName = 1;
  if (v >= 4) info.numBytesGroupSharedMemory = 4096;
  const psv: Psv0 = {
    runtimeInfoSize: size, info, stageInfo: {}, runtimeInfoTail: new Uint8Array(0), resourceSize: v >= 2 ? 24 : 16,
    resources: [{ resType: 6, space: 1, lowerBound: 2, upperBound: 0xffffffff, ...(v >= 2 ? { resKind: 2, resFlags: 1 } : {}) }],
    trailing: new Uint8Array(0),
  };
  if (v >= 1) Object.assign(psv, { stringTable: new TextEncoder().encode('\0main\0\0\0'), semanticIndexes: [], elementSize: 0, inputElements: [], outputElements: [], patchConstOrPrimElements: [], dependencies: [] });
  return psv;
}
