/** The --json output of every command against its schema in schema/cli/ (files current, real output valid). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { loadAllCommands } from '../src/cli/commands/index.js';

const COMMANDS = await loadAllCommands();
import { commandSchema, schemaFileName, FORMAT_VERSION } from '../src/cli/schema.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { decodeRdat, encodeRdat, findPart, parseContainer, withPart, writeContainer } from '../src/index.js';
import { encodeQueryResults } from '../src/query/index.js';
import { CORPUS, ROOT } from './helpers/corpus.js';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as unknown as new (o: object) => { compile(s: object): Validator; getSchema(id: string): Validator | undefined };
type Validator = ((d: unknown) => boolean) & { errors?: unknown };
const ajv = new Ajv2020({ strict: false, allErrors: true });
const work = mkdtempSync(join(tmpdir(), 'dxbin-schema-'));
const SHADER = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc');
const RS = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');

test('schema/cli/ holds the current schema of every command (npm run schema writes them)', () => {
  const dir = join(ROOT, 'schema/cli');
  for (const c of COMMANDS) {
    const onDisk = JSON.parse(readFileSync(join(dir, schemaFileName(c)), 'utf8'));
    assert.equal(onDisk, commandSchema(c), `${schemaFileName(c)} is stale: run npm run schema`);
  }
  assert.is(readdirSync(dir).length, COMMANDS.length, 'no schema of a command that is gone');
});

async function jsonLines(args: string[]): Promise<{ exit: number; lines: Record<string, unknown>[] }> {
  const s = captureStreams();
  const exit = await run([...args, '--json'], s);
  return { exit, lines: s.stdout().trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

test('real --json output of the commands is valid against its schema, ok and failing answers alike', async () => {
  const stamps = join(work, 'stamps.bin');
  writeFileSync(stamps, encodeQueryResults('TIMESTAMP', [{ Value: 1n }, { Value: 5n }, { Value: 7n }, { Value: 9n }]));
  writeFileSync(join(work, 'junk.cso'), 'not a shader\n');
  const part = join(work, 'rs.rts0');
  writeFileSync(part, parseContainer(new Uint8Array(readFileSync(RS))).parts[0]!.data);
  // a library whose first resource has a class no register class is (9) and one with Invalid (4):
  // describeLibrary names them unknown(9) and Invalid, which the schema must allow
  const libs = [9, 4].map((cls) => {
    const lib = parseContainer(new Uint8Array(readFileSync(join(CORPUS, 'shaders/vkd3d-proton/static_sampler_rt_lib_code_dxil.dxil'))));
    const rdat = decodeRdat(findPart(lib, 'RDAT')!.data) as unknown as { parts: { type: string; records?: Record<string, unknown>[] }[] };
    const first = rdat.parts.find((t) => t.type === 'ResourceTable')!.records![0]!;
    first.Class = cls;
    delete first.ClassName;
    const file = join(work, `class${cls}.dxil`);
    writeFileSync(file, writeContainer(withPart(lib, 'RDAT', encodeRdat(rdat as never), { replace: true })));
    return file;
  });
  const runs: [string, string[]][] = [
    ['inspect', ['inspect', SHADER, RS, part, join(work, 'junk.cso')]],
    ['inspect', ['inspect', ...libs]],
    ['inspect', ['inspect', '--hex', SHADER, RS, part, join(work, 'junk.cso')]],
    ['inspect', ['inspect', '--html', join(work, 'rs.html'), part]],
    ['hash', ['hash', SHADER, join(work, 'missing.cso')]],
    ['rootsig-decode', ['rootsig', 'decode', RS]],
    ['rootsig-validate', ['rootsig', 'validate', RS, SHADER]],
    ['rootsig-decompile', ['rootsig', 'decompile', RS]],
    ['rootsig-convert', ['rootsig', 'convert', RS, '--to', '1.0', '-o', join(work, 'c.dxbc')]],
    ['extract', ['extract', SHADER, '--out-dir', join(work, 'x')]],
    ['strip', ['strip', SHADER, '-o', join(work, 's.dxbc')]],
    ['embed', ['embed', join(work, 's.dxbc'), '--rs', RS, '-o', join(work, 'e.dxbc')]],
    ['rootsig-encode', ['rootsig', 'encode', join(work, 'missing.json'), '-o', join(work, 'n.dxbc')]],
    ['query-sum', ['query', 'sum', '--type', 'occlusion', stamps]],
    ['query-timings', ['query', 'timings', stamps, '--frequency', '1000']],
    ['query-decode', ['query', 'decode', '--type', 'timestamp', stamps]],
    ['ddi-layout', ['ddi', 'layout', 'node-output']],
    ['ddi-node-outputs', ['ddi', 'node-outputs', join(CORPUS, 'shaders/vkd3d-proton/two_level_thread_code_dxil.dxil')]],
    ['rootsig-compile', ['rootsig', 'compile', 'CBV(b0)', '--version', '1.1', '-o', join(work, 'k.dxbc')]],
    ['verify', ['verify', SHADER]],
  ];
  for (const [name, args] of runs) {
    const schema = commandSchema(COMMANDS.find((c) => schemaFileName(c) === `${name}.schema.json`)!);
    const validate = ajv.getSchema(schema.$id as string) ?? ajv.compile(schema);
    const { lines } = await jsonLines(args);
    assert.ok(lines.length > 0, `${name} printed JSON`);
    for (const line of lines) {
      assert.is(line.formatVersion, FORMAT_VERSION, name);
      assert.ok(validate(line), `${name}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(line).slice(0, 300)}`);
    }
  }
  const hex = await jsonLines(['inspect', '--hex', RS, part]);
  assert.equal(hex.lines.map((l) => l.kind), ['container', 'rts0-part'], 'inspect --hex names formats as plain inspect does');
  assert.ok(hex.lines.every((l) => typeof l.spans === 'number' && l.spans > 0), 'inspect --hex counts its spans');
  const page = await jsonLines(['inspect', '--html', join(work, 'rs2.html'), RS]);
  assert.is(page.lines[0]!.html, join(work, 'rs2.html'));
  assert.ok(readFileSync(join(work, 'rs2.html'), 'utf8').includes('RTS0'), 'the page was written');
  const broken = await jsonLines(['inspect', join(work, 'junk.cso')]);
  const validate = new Ajv2020({ strict: false }).compile(commandSchema(COMMANDS.find((c) => c.path[0] === 'inspect')!));
  assert.not.ok(validate({ ...broken.lines[0], ok: true, kind: 'elephant' }), 'the schema can fail');
});

test.run();
