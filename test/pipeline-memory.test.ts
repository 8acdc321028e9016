/**
 * Issue 26's carried-over finding: a 200,000-element InputLayout peaked near 300 MB. The DDI walks
 * under the pipeline paths held a task, a setter and a path string per list element
 * (ddiFromJson, ddiToJson, decodeImage), and pipelineFromJson copied every list item over its zero
 * struct; now a list is one task and the items are read in place. Each path runs in a child
 * process whose old generation is capped (--max-old-space-size) at a fixed base plus a multiple of
 * its input: a path whose live memory grew back past that dies out of memory and the test fails.
 * No timing; the limit does not depend on the machine. Measured with 100,000 elements (7.7 MB of
 * JSON, a 3.9 MB image), the smallest limit each needs (MB): verify 35 (85 before), encode 37-41
 * (83; 41 before encodeImage spelled a scalar's path only for an error and queued pointers in four
 * lists: V8's collector makes the figure move by a few MB from run to run), tojson 39 (81),
 * decode 35 (39).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/corpus.js';
import { decodeStream, encodeStream, printableJson, streamToJson } from '../src/index.js';
import { runOne } from '../src/cli/runner.js';
import { pipelineDecode } from '../src/cli/commands/pipeline.js';
import type { FileCommand } from '../src/cli/command.js';
import type { Streams } from '../src/cli/io.js';

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
test('pipeline encode path (parse, pipelineFromJson, encodeStream): within 24 MB + 4.5x the JSON', () => within('encode', jsonBytes, 4.5));
test('pipeline decode path (decodeStream, streamToJson): within 24 MB + 9x the image', () => within('tojson', imageBytes, 9));
test('decodeStream and verifyPipeline of the image: within 24 MB + 8x the image', () => within('decode', imageBytes, 8));

/**
 * `dxbin pipeline decode --json` of the image, the CLI itself under the cap, its standard output a
 * file, and the line it writes is printableJson of the answer. At this size decoding sets the
 * smallest limit (41 to 43 MB before and after the answer was streamed: the answer's one string
 * was 16 MB of old space, its bytes 16 MB outside it), so this holds the path and its output, and
 * the next case holds the streaming.
 */
test('dxbin pipeline decode --json: within 24 MB + 8x the image, and the line printableJson of the answer', () => {
  const limit = Math.round(BASE_MB + (8 * imageBytes) / MB);
  const out = join(dir, 'decoded.json');
  const fd = openSync(out, 'w');
  let r;
  try {
    r = spawnSync(process.execPath, [`--max-old-space-size=${limit}`, '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'pipeline', 'decode', join(dir, 'stream.bin'), '--json'], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
  } finally {
    closeSync(fd);
  }
  assert.is(r.status, 0, `did not finish within ${limit} MB of old space: ${r.stderr.split('\n').find((l) => /heap|memory/i.test(l)) ?? r.stderr.slice(0, 300)}`);
  const answer = { formatVersion: 2, file: join(dir, 'stream.bin'), ok: true, abi: 'x64', subobjects: streamToJson(decodeStream(readFileSync(join(dir, 'stream.bin')), 'x64')) };
  assert.ok(readFileSync(out, 'utf8') === `${printableJson(answer)}\n`, 'the line is printableJson of the answer');
});

test('dxbin pipeline decode --json writes its answer a piece at a time: no write past 128 Ki characters (it was one write of the whole line), the pieces printableJson of the answer', async () => {
  const n = 30000;
  const subobjects = [{ type: 'INPUT_LAYOUT', inner: { pInputElementDescs: Array.from({ length: n }, (_, i) => ({ SemanticName: `N${i}${i % 7 ? '' : '\u0085'}`, SemanticIndex: 0, Format: 6, InputSlot: 0, AlignedByteOffset: i % 1024, InputSlotClass: 0, InstanceDataStepRate: 0 })), NumElements: n } }];
  const file = join(dir, 'layout.bin');
  writeFileSync(file, encodeStream(subobjects, 'x64'));
  const writes: string[] = [];
  const streams: Streams = {
    write: async (chunk) => void writes.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)),
    err: (line) => assert.unreachable(line),
    readStdin: async () => new Uint8Array(0),
    stdinChunks: async function* () {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  assert.is(await runOne(pipelineDecode as FileCommand, file, undefined, [], { json: true, abi: 'x64' }, streams), 0);
  const line = `${printableJson({ formatVersion: 2, file, ok: true, abi: 'x64', subobjects: streamToJson(decodeStream(readFileSync(file), 'x64')) })}\n`;
  assert.ok(writes.join('') === line, 'the pieces are printableJson of the answer');
  const largest = Math.max(...writes.map((w) => w.length));
  assert.ok(line.length > 4_000_000 && largest <= 128 * 1024, `${writes.length} writes of a ${line.length}-character line, the largest ${largest}`);
});

test.run();
