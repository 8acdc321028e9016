// Jazzer.js fuzz target: dxbin's 'ddi-json' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/ddi-json.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('ddi-json');
