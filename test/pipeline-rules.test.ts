/**
 * The debug layer's stream-output message IDs that no public source explains (docs/formats/pipeline.md,
 * "Stream-output messages without a rule"): each is named with its number in the docs and beside
 * the rows, and no rule cites one, so dxbin refuses nothing on a name alone.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { PIPELINE_RULES } from '../codecs/pipeline-rules.js';

const UNSOURCED = [
  [76, 'OUTPUTSTREAMSTRIDEUNUSED'],
  [90, 'DECLTOOCOMPLEX'],
  [91, 'MISSINGOUTPUTSIGNATURE'],
  [285, 'UNEXPECTEDENTRIES'],
  [286, 'UNEXPECTEDSTRIDES'],
] as const;

test('stream-output IDs without a public meaning: named with their numbers in the docs and the rules file, cited by no rule', () => {
  const docs = readFileSync(new URL('../docs/formats/pipeline.md', import.meta.url), 'utf8');
  const rules = readFileSync(new URL('../codecs/pipeline-rules.ts', import.meta.url), 'utf8');
  assert.ok(docs.includes('Stream-output messages without a rule'));
  for (const [id, name] of UNSOURCED) {
    assert.ok(docs.includes(`${id} \`${name}\``), `docs: ${id} ${name}`);
    assert.ok(rules.includes(`${id} ${name}`), `rules file: ${id} ${name}`);
    for (const [code, , , message] of PIPELINE_RULES) assert.not.ok(message.includes(name), `${code} cites ${name}`);
  }
});

test.run();
