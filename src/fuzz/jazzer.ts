/**
 * Jazzer.js-compatible entry points: `fuzz(data)` returns for every answer dxbin gives (its own
 * typed errors included) and throws for a finding, which is what Jazzer.js, and libFuzzer-style
 * engines built on it (OSS-Fuzz, ClusterFuzzLite), treat as a crash. One module per target is in
 * fuzz/jazzer/ (docs/fuzzing.md).
 */
import { fuzzTarget, runOne, type FuzzTarget } from './targets.js';
import { expectFunction } from '../bytes/check.js';

/** The `fuzz(data)` function of a target; `plant` swaps in a test build of the target. */
export function jazzerTarget(name: string, plant?: (t: FuzzTarget) => FuzzTarget): (data: Uint8Array) => void {
  if (plant !== undefined) expectFunction(plant, 'plant');
  const target = plant ? plant(fuzzTarget(name)) : fuzzTarget(name);
  return (data: Uint8Array) => {
    const outcome = runOne(target, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (outcome.finding) throw new Error(`${name}: ${outcome.finding}: ${outcome.error} (at ${outcome.frame})`);
  };
}
