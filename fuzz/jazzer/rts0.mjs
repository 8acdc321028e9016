// Jazzer.js fuzz target: dxbin's 'rts0' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/rts0.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('rts0');
