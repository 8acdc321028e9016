// Jazzer.js fuzz target: dxbin's 'container-lenient' target (docs/fuzzing.md). npx jazzer fuzz/jazzer/container-lenient.mjs
import { jazzerTarget } from 'dxbin/fuzz';

export const fuzz = jazzerTarget('container-lenient');
