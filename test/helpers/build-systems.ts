/**
 * For the tests of examples/ (docs/build-systems.md): a private copy of the examples and a `dxbin`
 * command (a shell script running the built CLI with this Node) on a PATH of its own.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { builtCli } from './built-cli.js';
import { ROOT } from './corpus.js';

export interface ExampleWorkspace {
  /** The copy of examples/. */
  dir: string;
  /** The `dxbin` script. */
  dxbin: string;
  /** Environment with the script's folder first on PATH. */
  env: NodeJS.ProcessEnv;
}

/** Copies examples/ to a temp folder and writes the `dxbin` script for it. */
export async function exampleWorkspace(prefix: string): Promise<ExampleWorkspace> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(root, 'examples');
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const dxbin = join(bin, 'dxbin');
  writeFileSync(dxbin, `#!/bin/sh\nexec '${process.execPath}' '${await builtCli()}' "$@"\n`, { mode: 0o755 });
  return { dir, dxbin, env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` } };
}

/** The bytes of a file as hex (for byte-identity asserts with readable diffs). */
export const fileHex = (path: string) => readFileSync(path).toString('hex');
