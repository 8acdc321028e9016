// Jazzer.js fuzz target: dxbin's 'hlsl-file' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/hlsl-file.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('hlsl-file');
