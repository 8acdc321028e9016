/**
 * The coverage build: dxbin's own sources compiled to JavaScript with a counter increment per
 * branch (block, case, arm of ?:, right side of && || ??, arrow body), written to a cache folder.
 * A counter is one byte of `globalThis.__dxbinCov`; reading them after an input costs a scan of a
 * few thousand bytes, against ~0.5 ms for a V8 precise-coverage snapshot. Needs the `typescript`
 * package and the sources (a checkout of dxbin); without them fuzzing runs without coverage.
 */
import { expectString } from '../bytes/check.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The library built with coverage counters, for the coverage-guided engine. */
export interface CoverageBuild {
  /** Folder holding src/ and codecs/ as instrumented JavaScript. */
  dir: string;
  /** Number of counters. */
  counters: number;
}

/** The checkout's root when dxbin runs from its TypeScript sources, else undefined. */
export function sourceRoot(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = join(here, '..', '..');
  return existsSync(join(root, 'src', 'fuzz', 'instrument.ts')) && existsSync(join(root, 'codecs')) ? root : undefined;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'assembly') for (const f of files(p)) out.push(f);
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Builds (or reuses, keyed by the sources' hash) the instrumented copy; undefined when it cannot. */
export async function coverageBuild(cacheRoot?: string): Promise<CoverageBuild | undefined> {
  if (cacheRoot !== undefined) expectString(cacheRoot, 'cacheRoot');
  const root = sourceRoot();
  if (!root) return undefined;
  let ts: typeof import('typescript');
  try {
    ts = (await import('typescript')).default;
  } catch {
    return undefined;
  }
  const sources = [...files(join(root, 'codecs')), ...files(join(root, 'src'))];
  const hash = createHash('sha1');
  for (const f of sources) hash.update(f).update(readFileSync(f));
  const key = hash.digest('hex').slice(0, 16);
  const dir = join(cacheRoot ?? join(root, 'node_modules', '.cache', 'dxbin-fuzz'), key);
  const manifest = join(dir, 'coverage.json');
  if (existsSync(manifest)) return { dir, counters: (JSON.parse(readFileSync(manifest, 'utf8')) as { counters: number }).counters };

  let next = 0;
  const f = ts.factory;
  const bump = () => f.createPostfixIncrement(f.createElementAccessExpression(f.createIdentifier('__c'), f.createNumericLiteral(next++)));
  const bumpStatement = () => f.createExpressionStatement(bump());
  const withBump = (e: import('typescript').Expression) => f.createParenthesizedExpression(f.createCommaListExpression([bump(), e]));
  const transformer: import('typescript').TransformerFactory<import('typescript').SourceFile> = (context) => {
    const visit = (node: import('typescript').Node): import('typescript').Node => {
      const n = ts.visitEachChild(node, visit, context);
      if (ts.isBlock(n) && !ts.isSourceFile(n.parent ?? n)) return f.updateBlock(n, [bumpStatement(), ...n.statements]);
      if (ts.isCaseClause(n)) return f.updateCaseClause(n, n.expression, [bumpStatement(), ...n.statements]);
      if (ts.isDefaultClause(n)) return f.updateDefaultClause(n, [bumpStatement(), ...n.statements]);
      if (ts.isIfStatement(n)) {
        const wrap = (s: import('typescript').Statement | undefined) => (s && !ts.isBlock(s) && !ts.isIfStatement(s) ? f.createBlock([bumpStatement(), s], true) : s);
        return f.updateIfStatement(n, n.expression, wrap(n.thenStatement)!, wrap(n.elseStatement));
      }
      if (ts.isConditionalExpression(n)) return f.updateConditionalExpression(n, n.condition, n.questionToken, withBump(n.whenTrue), n.colonToken, withBump(n.whenFalse));
      if (ts.isBinaryExpression(n) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(n.operatorToken.kind)) {
        return f.updateBinaryExpression(n, n.left, n.operatorToken, withBump(n.right));
      }
      if (ts.isArrowFunction(n) && !ts.isBlock(n.body)) return f.updateArrowFunction(n, n.modifiers, n.typeParameters, n.parameters, n.type, n.equalsGreaterThanToken, withBump(n.body as import('typescript').Expression));
      return n;
    };
    return (sf) => ts.visitNode(sf, visit) as import('typescript').SourceFile;
  };
  for (const file of sources) {
    const out = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false, verbatimModuleSyntax: false, isolatedModules: true },
      transformers: { before: [transformer] },
    });
    const target = join(dir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `const __c = globalThis.__dxbinCov;\n${out.outputText}`);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(manifest, JSON.stringify({ counters: next }));
  return { dir, counters: next };
}
