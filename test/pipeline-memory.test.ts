/**
 * Issue 26's carried-over finding: a 200,000-element InputLayout peaked near 300 MB. The DDI walks
 * under the pipeline paths held a task, a setter and a path string per list element
 * (ddiFromJson, ddiToJson, decodeImage), and pipelineFromJson copied every list item over its zero
 * struct; now a list is one task and the items are read in place. Each path runs in a child
 * process whose old generation is capped (--max-old-space-size) at a fixed base plus a multiple of
 * its input: a path whose live memory grew back past that dies out of memory and the test fails.
 * No timing; the limit does not depend on the machine. Measured with 100,000 elements (7.7 MB of
 * JSON, a 3.9 MB image), the smallest limit each needs (MB): verify 35 (85 before), encode 41
 * (83), tojson 39 (81), decode 35 (39).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'dxbin-pmem-'));
const MB = 1 << 20;
/** What the child holds before any input: node, tsx and the modules (about 13 MB), with room. */
const BASE_MB = 24;

function child(args: string[], limitMb?: number) {
  const flags = limitMb === undefined ? [] : [`--max-old-space-size=${limitMb}`];
  return spawnSync(process.execPath, [...flags, '--import', 'tsx', join(ROOT, 'test/helpers/pipeline-memory.ts'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 4 * MB });
}

const made = child(['make', dir, '100000']);
const jsonBytes = statSync(join(dir, 'pipeline.json')).size;
const imageBytes = statSync(join(dir, 'stream.bin')).size;

function within(mode: string, input: number, ratio: number) {
  const limit = Math.round(BASE_MB + (ratio * input) / MB);
  const r = child([mode, dir], limit);
  assert.is(r.status, 0, `${mode} of ${(input / MB).toFixed(1)} MB did not finish within ${limit} MB of old space (${BASE_MB} + ${ratio}x): ${r.stderr.split('\n').find((l) => /heap|memory/i.test(l)) ?? r.stderr.slice(0, 300)}`);
  assert.match(r.stdout, /^ok \d+/);
}

test('the inputs were made', () => {
  assert.is(made.status, 0, made.stderr);
  assert.ok(jsonBytes > 7_000_000 && imageBytes > 3_500_000, `${jsonBytes} and ${imageBytes} bytes`);
});

test('verify --pipeline path (parse, pipelineFromJson, verifyPipeline): within 24 MB + 4.5x the JSON', () => within('verify', jsonBytes, 4.5));
test('pipeline encode path (parse, pipelineFromJson, encodeStream): within 24 MB + 5x the JSON', () => within('encode', jsonBytes, 5));
test('pipeline decode path (decodeStream, streamToJson): within 24 MB + 9x the image', () => within('tojson', imageBytes, 9));
test('decodeStream and verifyPipeline of the image: within 24 MB + 8x the image', () => within('decode', imageBytes, 8));

test.run();
