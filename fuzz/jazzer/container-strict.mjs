// Jazzer.js fuzz target: dxbin's 'container-strict' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/container-strict.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('container-strict');
