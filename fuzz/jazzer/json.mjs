// Jazzer.js fuzz target: dxbin's 'json' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/json.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('json');
