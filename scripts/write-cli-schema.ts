/** Writes schema/cli/<command>.schema.json for every command (the `--json` output formats); `npm run schema`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllCommands } from '../src/cli/commands/index.js';

const COMMANDS = await loadAllCommands();
import { commandSchema, schemaFileName } from '../src/cli/schema.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema', 'cli');
mkdirSync(dir, { recursive: true });
for (const c of COMMANDS) writeFileSync(join(dir, schemaFileName(c)), `${JSON.stringify(commandSchema(c), null, 2)}\n`);
console.log(`wrote ${COMMANDS.length} schemas to schema/cli/`);
