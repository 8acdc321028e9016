// Jazzer.js fuzz target: dxbin's 'query' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/query.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('query');
