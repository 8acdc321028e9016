// Jazzer.js fuzz target: dxbin's 'rdat' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/rdat.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('rdat');
