// Jazzer.js fuzz target: dxbin's 'convert' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/convert.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('convert');
