/**
 * Issue 26: a 20 MB persistent-worker request once took 289 MB, then about 4 copies of itself
 * (the decoded chunks, the joined text, JSON.parse's strings, and the young generation's share).
 * Now the worker holds 2: the text it framed (the decoded chunks, never joined) and the request
 * read from it in place (parseWorkRequest over framePieces; the arguments the only strings made),
 * and a name longer than any path is refused before path work copies it. Measured in a child
 * process as the growth of its peak resident set (process.resourceUsage().maxRSS), the young
 * generation pinned small (--max-semi-space-size=1) so that its size, which V8 picks from the
 * machine's memory, is not part of the measure; no timing. Bound 2.5x: 1.9-2.0x measured, 2.8x
 * before (the same flag).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'dxbin-wmem-'));
const MB = 1 << 20;

function serve(request: string, mode: 'stub' | 'real', chunk = 65536): { added: number; exitCode: number; outputChars: number } {
  const file = join(work, 'request.json');
  writeFileSync(file, request);
  const r = spawnSync(process.execPath, ['--max-semi-space-size=1', '--expose-gc', '--import', 'tsx', join(ROOT, 'test/helpers/worker-memory.ts'), file, mode, String(chunk)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * MB });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

// one argument of 20 MB: framing, parsing, and the command refusing a name no system opens
const huge = `${JSON.stringify({ arguments: ['rootsig', 'validate', 'x'.repeat(20 * 1000 * 1000)], requestId: 1 })}\n`;

test('a 20 MB request: framing and parsing add at most 2.5x its size (stub command)', () => {
  const r = serve(huge, 'stub');
  assert.is(r.exitCode, 0);
  assert.ok(r.added <= 2.5 * huge.length, `added ${(r.added / MB).toFixed(0)} MiB for a ${(huge.length / MB).toFixed(0)} MiB request`);
});

test('a 20 MB request run for real: at most 2.5x its size, one short answer (the name is refused before path work)', () => {
  const r = serve(huge, 'real');
  assert.is(r.exitCode, 1);
  assert.ok(r.outputChars < 4096, `${r.outputChars} characters of answer`);
  assert.ok(r.added <= 2.5 * huge.length, `added ${(r.added / MB).toFixed(0)} MiB for a ${(huge.length / MB).toFixed(0)} MiB request`);
});

test('a 20 MB request in 4 MiB chunks: still at most 2.5x (stdin is decoded a bounded piece at a time, never into one external two-byte string)', () => {
  const r = serve(huge, 'stub', 4 << 20);
  assert.is(r.exitCode, 0);
  assert.ok(r.added <= 2.5 * huge.length, `added ${(r.added / MB).toFixed(0)} MiB for a ${(huge.length / MB).toFixed(0)} MiB request`);
});

test.run();
