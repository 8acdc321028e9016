// Jazzer.js fuzz target: dxbin's 'ddi-image' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/ddi-image.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('ddi-image');
