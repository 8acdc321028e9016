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
  decodeDxbcTokens,
  decodePart,
  decodePsv0,
  encodePart,
  encodePsv0,
  findPart,
  parseContainer,
  programBitcode,
  readDxbcProgram,
  writeContainer,
} from '../src/index.js';
import { ROOT } from './helpers/corpus.js';
import { table } from './helpers/hostile-table.js';

// ---------------------------------------------------------------- helpers

/** A DXIL container of the corpus with PSV0 and SFI0 parts. */
const SHADER = new Uint8Array(readFileSync(join(ROOT, 'corpus/shaders/vkd3d-proton/cs_sample_cmp_level_code_dxil.dxil')));
const parsed = () => parseContainer(SHADER);
const PSV0 = findPart(parseContainer(SHADER), 'PSV0')!.data.slice();

/** An empty view of a buffer transferred away (its bytes are gone; it reads as empty). */
function detached(n = 8): Uint8Array {
  const bytes = new Uint8Array(n);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

test('a parse mode other than strict or lenient is refused, not read as lenient', () => {
  table([
    ['mode "Strict"', () => parseContainer(SHADER, { mode: 'Strict' as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode "relaxed"', () => parseContainer(SHADER, { mode: 'relaxed' as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode 1', () => parseContainer(SHADER, { mode: 1 as never }), { code: 'bad-name', path: /^options\.mode$/ }],
    ['mode "lenient" is taken', () => parseContainer(SHADER, { mode: 'lenient' }), (c) => c.parts.length > 0],
    ['mode undefined is strict', () => parseContainer(SHADER, { mode: undefined }), (c) => c.layout.packed],
  ]);
});

test('a detached buffer is refused by name (bad-type), never a raw TypeError or an empty part', () => {
  const bad = (path: RegExp) => ({ code: 'bad-type', path });
  table([
    ['parseContainer', () => parseContainer(detached()), bad(/^container$/)],
    ['decodePsv0', () => decodePsv0(detached()), bad(/^bytes$/)],
    ['decodePart SFI0', () => decodePart('SFI0', detached()), bad(/^data$/)],
    ['decodePart ISG1', () => decodePart('ISG1', detached()), bad(/^data$/)],
    ['readDxbcProgram', () => readDxbcProgram(detached()), bad(/^bytes$/)],
    ['decodeDxbcTokens', () => decodeDxbcTokens(detached()), bad(/^data$/)],
    ['programBitcode', () => programBitcode(detached()), bad(/^data$/)],
    ['writeContainer: a detached part', () => writeContainer({ ...parsed(), parts: [{ name: 'ABCD', data: detached() }] }), bad(/^container\.parts\[0\]\.data$/)],
    ['writeContainer: a detached digest (its length reads 0)', () => writeContainer(parsed(), detached(16)), { code: ['bad-type', 'out-of-range'], path: /^digest$/ }],
    ['encodePsv0: detached trailing', () => encodePsv0({ ...decodePsv0(PSV0), trailing: detached() }), bad(/^PSV0\.trailing$/)],
    ['encodePart: detached kept bytes', () => {
      const p = decodePart('ISG1', findPart(parsed(), 'ISG1')!.data);
      return encodePart({ ...p, kept: [...p.kept, { offset: p.size, bytes: detached() }] });
    }, bad(/^part\.kept\[\d+\]\.bytes$/)],
  ]);
});

test.run();
