/** docs/cli-reference.md is what scripts/write-cli-reference.ts makes of the command definitions today. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI_REFERENCE_PATH, cliReference } from '../scripts/write-cli-reference.js';
import { loadAllCommands } from '../src/cli/commands/index.js';
import { ROOT } from './helpers/corpus.js';

test('the checked-in CLI reference is current (else: npm run docs)', async () => {
  const checkedIn = readFileSync(join(ROOT, CLI_REFERENCE_PATH), 'utf8');
  const fresh = await cliReference();
  if (checkedIn !== fresh) {
    const a = checkedIn.split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    assert.unreachable(`${CLI_REFERENCE_PATH} is stale from line ${line + 1}: run npm run docs\n  checked in: ${a[line]}\n  generated:  ${b[line]}`);
  }
});

test('every command has its section, its options and its examples', async () => {
  const text = await cliReference();
  for (const c of await loadAllCommands()) {
    const heading = `dxbin ${c.path.join(' ')}\n`;
    assert.ok(text.includes(`## ${heading}`), `section ${heading.trim()}`);
    for (const e of c.examples) assert.ok(text.includes(`    ${e}\n`), `example ${e}`);
  }
  assert.match(text, /--to <version>/);
});

test.run();
