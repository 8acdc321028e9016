/**
 * The API reference (docs/api/, written by TypeDoc from the doc comments; `npm run docs`) is current,
 * and TypeDoc finds nothing to warn about with typedoc.json's validation: every export of every entry
 * point documented, every type a signature names exported, every {@link} resolved.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './helpers/corpus.js';

const files = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
};

/** Runs TypeDoc with `options` over a project at `cwd`; the warnings and errors it logged. */
async function typedoc(cwd: string, options: Record<string, unknown>): Promise<string[]> {
  const { Application, Logger, LogLevel } = await import('typedoc');
  const said: string[] = [];
  class Collect extends Logger {
    override log(message: string, level: (typeof LogLevel)[keyof typeof LogLevel]): void {
      super.log(message, level);
      if (level >= LogLevel.Warn) said.push(message);
    }
  }
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const app = await Application.bootstrapWithPlugins(options as never);
    app.logger = new Collect();
    const project = await app.convert();
    if (project) {
      app.validate(project);
      await app.generateOutputs(project);
    } else said.push('no project');
  } finally {
    process.chdir(here);
  }
  return said;
}

test('docs/api is what TypeDoc writes from the sources, and TypeDoc warns of nothing', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dxbin-api-'));
  try {
    const said = await typedoc(ROOT, { options: join(ROOT, 'typedoc.json'), out, logLevel: 'Warn' });
    assert.equal(said, [], 'TypeDoc warnings');
    const want = files(out);
    const have = files(join(ROOT, 'docs/api'));
    assert.equal(have, want, 'the files of docs/api (npm run docs rewrites them)');
    for (const f of want) assert.ok(readFileSync(join(out, f), 'utf8') === readFileSync(join(ROOT, 'docs/api', f), 'utf8'), `docs/api/${f} is stale: npm run docs`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the same validation refuses an undocumented export and an unexported type (planted)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-api-planted-'));
  try {
    mkdirSync(join(dir, 'src'));
    // TypeDoc tells the project's own types from other packages' by package.json's name
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'planted', type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true }, include: ['src'] }));
    writeFileSync(join(dir, 'src/hidden.ts'), '/** Not exported by the entry. */\nexport interface Hidden { a: number }\n');
    writeFileSync(join(dir, 'src/index.ts'), "import type { Hidden } from './hidden.js';\n/** Documented. */\nexport function documented(): Hidden { return { a: 1 }; }\nexport function bare(): number { return 1; }\n");
    const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as Record<string, unknown>;
    const said = await typedoc(dir, {
      entryPoints: ['src/index.ts'],
      tsconfig: join(dir, 'tsconfig.json'),
      out: join(dir, 'out'),
      readme: 'none',
      disableSources: true,
      validation: config.validation,
      requiredToBeDocumented: config.requiredToBeDocumented,
      logLevel: 'Warn',
    });
    assert.ok(said.some((m) => m.includes('bare') && m.includes('documentation')), said.join('\n'));
    assert.ok(said.some((m) => m.includes('Hidden') && m.includes('not included')), said.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
