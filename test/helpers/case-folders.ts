/** Test cases as files in folders of their own under one scratch folder (the cpp-compared preprocessor tests). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface CaseFolders {
  /** The scratch folder. */
  readonly work: string;
  /** A case's files written into a folder of their own; the folder and the main (first) file's absolute path. */
  write(files: Record<string, string>): { dir: string; main: string };
  /** Removes the scratch folder. */
  remove(): void;
}

export function caseFolders(prefix: string): CaseFolders {
  const work = mkdtempSync(join(tmpdir(), prefix));
  let cases = 0;
  return {
    work,
    write(files) {
      const dir = join(work, `case-${cases++}`);
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      return { dir, main: join(dir, Object.keys(files)[0]!) };
    },
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}
