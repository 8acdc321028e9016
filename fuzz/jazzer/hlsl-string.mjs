// Jazzer.js fuzz target: dxbin's 'hlsl-string' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/hlsl-string.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('hlsl-string');
