/**
 * Issue 29's CLI rough edges, one test each: text results covering several files name each file;
 * no NaN from `query timings`; ``verify` prints each violation once in the combined
 * output; `--to` for compile as for convert (`--version` kept); `rootsig validate` says so on
 * success; `rootsig encode` and the kind checks name what a binary file is; `compile -E` tells a
 * missing function from a function without the attribute; `convert -o INPUT` refuses before any
 * report; `query decode --format json` carries formatVersion; `dxbin help` has examples and
 * group help is wrapped.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { FORMAT_VERSION } from '../src/cli/schema.js';

function dxbin(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: r.stdout + r.stderr };
}

const work = mkdtempSync(join(tmpdir(), 'dxbin-edges-'));
const A = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');
const B = join(CORPUS, 'rootsig/brawler__RootSignatureDefinition__BC6H_BC7_COMPRESSION__SERIALIZED_ROOT_SIGNATURE_VERSION_1_1.dxbc');
const SHADER = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc');
const count = (text: string, part: string) => text.split(part).length - 1;

test('hash --check A B names each file on each line; one file keeps the plain form', () => {
  const r = dxbin(['hash', '--check', A, B]);
  assert.is(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.is(lines.length, 6);
  assert.ok(lines.slice(0, 3).every((l) => l.startsWith(`${A}: `)), r.stdout);
  assert.ok(lines.slice(3).every((l) => l.startsWith(`${B}: `)), r.stdout);
  assert.match(dxbin(['hash', A]).stdout, /^stored {3}[0-9a-f]{32}\n/);
});

test('rootsig decode A B and rootsig decompile A B name each file', () => {
  const d = dxbin(['rootsig', 'decode', A, B]);
  assert.is(d.status, 0, d.stderr);
  assert.is(count(d.stdout, `==> ${A} <==\n{`), 1, d.stdout);
  assert.is(count(d.stdout, `==> ${B} <==\n{`), 1);
  assert.ok(dxbin(['rootsig', 'decode', A]).stdout.startsWith('{'), 'one file: the JSON alone');
  const c = dxbin(['rootsig', 'decompile', A, B]);
  assert.is(c.status, 0, c.stderr);
  const lines = c.stdout.trimEnd().split('\n');
  assert.equal([lines[0], lines[2]], [`// ${A}`, `// ${B}`]);
  assert.ok(!dxbin(['rootsig', 'decompile', A]).stdout.startsWith('//'));
});

test('query decode, sum and timings name each file when there are several', () => {
  const one = join(work, 'one.bin');
  const two = join(work, 'two.bin');
  writeFileSync(one, new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]));
  writeFileSync(two, new Uint8Array([2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]));
  assert.is(dxbin(['query', 'decode', '--type', 'timestamp', one, two]).stdout, `==> ${one} <==\nValue\n1\n3\n==> ${two} <==\nValue\n2\n5\n`);
  assert.is(dxbin(['query', 'sum', '--type', 'occlusion', one, two]).stdout, `${one}: Value,4\n${two}: Value,7\n`);
  const t = dxbin(['query', 'timings', one, two, '--frequency', '1000000000']).stdout.trimEnd().split('\n');
  assert.equal(t.map((l) => l.slice(0, l.indexOf(': '))), [one, one, two, two]);
  assert.is(dxbin(['query', 'decode', '--type', 'timestamp', one]).stdout, 'Value\n1\n3\n');
});

test('query timings: no NaN for an empty file or one of never-issued (all-zero) pairs', () => {
  writeFileSync(join(work, 'empty.bin'), new Uint8Array(0));
  writeFileSync(join(work, 'zeros.bin'), new Uint8Array(64));
  for (const f of ['empty.bin', 'zeros.bin']) {
    const r = dxbin(['query', 'timings', join(work, f), '--frequency', '10000000']);
    assert.is(r.status, 0, r.stderr);
    assert.not.match(r.stdout, /NaN/, r.stdout);
    assert.match(r.stdout, /no valid durations/);
  }
  assert.match(dxbin(['query', 'timings', join(work, 'zeros.bin'), '--frequency', '10000000']).stdout, /durations 4 .*valid 0, flagged 4/);
});

test('verify prints each violation once in the combined output', () => {
  const empty = join(work, 'empty-rs.dxbc');
  assert.is(dxbin(['rootsig', 'compile', 'RootFlags(0)', '--to', '1.1', '-o', empty]).status, 0);
  const v = dxbin(['verify', SHADER, '--rootsig', empty]);
  assert.is(v.status, 1);
  assert.match(v.stdout, /does not fit the root signature \(3 bindings, 3 violations\)/);
  const codes = [...v.all.matchAll(/^.*(CBV b0|Sampler s0|SRVTyped t0).*$/gm)].map((m) => m[1]);
  assert.equal(codes.sort(), ['CBV b0', 'SRVTyped t0', 'Sampler s0'], v.all);
});

test('rootsig validate says so on success', () => {
  const r = dxbin(['rootsig', 'validate', A]);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, `${A}: valid (target runtime)\n`);
});

test('compile takes --to as convert does; --version is kept as its alias; both disagreeing is a usage error', () => {
  const to = join(work, 'to.dxbc');
  const version = join(work, 'version.dxbc');
  assert.is(dxbin(['rootsig', 'compile', 'CBV(b0)', '--to', '1.0', '-o', to]).status, 0);
  assert.is(dxbin(['rootsig', 'compile', 'CBV(b0)', '--version', '1.0', '-o', version]).status, 0);
  assert.equal(readFileSync(to), readFileSync(version));
  const both = dxbin(['rootsig', 'compile', 'CBV(b0)', '--to', '1.0', '--version', '1.1', '-o', to]);
  assert.is(both.status, 2);
  assert.match(both.stderr, /--to 1\.0 and --version 1\.1 disagree/);
  const none = dxbin(['rootsig', 'compile', 'CBV(b0)', '-o', to]);
  assert.is(none.status, 2);
  assert.match(none.stderr, /needs --to VERSION/);
  assert.match(dxbin(['help', 'rootsig', 'compile']).stdout, /--to <version>/);
});

test('rootsig encode on a binary file says what it is; a PNG is named, not "binary data"', () => {
  const png = join(work, 'image.png');
  writeFileSync(png, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
  const e = dxbin(['rootsig', 'encode', png, '-o', join(work, 'x.dxbc')]);
  assert.is(e.status, 1);
  assert.is(e.stderr, `dxbin: ${png}: not the JSON form of a root signature (it looks like a PNG image; rootsig decode writes the JSON form)\n`);
  const c = dxbin(['rootsig', 'encode', A, '-o', join(work, 'x.dxbc')]);
  assert.match(c.stderr, /it looks like a DXBC\/DXIL container/);
  assert.match(dxbin(['inspect', png]).stderr, /looks like a PNG image/);
  const elf = dxbin(['rootsig', 'decode', process.execPath]);
  assert.match(elf.stderr, /looks like an ELF executable/);
});

test('compile -E NAME: a function that does not exist is said so, apart from one without [RootSignature]', () => {
  const hlsl = join(work, 'shader.hlsl');
  writeFileSync(hlsl, '#define RS "CBV(b0)"\n[RootSignature(RS)]\nfloat4 main() : SV_Target { return 0; }\nfloat4 other() : SV_Target { return 1; }\n');
  const missing = dxbin(['rootsig', 'compile', '--file', hlsl, '-E', 'nosuch', '--to', '1.1', '-o', join(work, 'o.dxbc')]);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /missing entry point definition: no function 'nosuch'/);
  const bare = dxbin(['rootsig', 'compile', '--file', hlsl, '-E', 'other', '--to', '1.1', '-o', join(work, 'o.dxbc')]);
  assert.match(bare.stderr, /no \[RootSignature\(\.\.\.\)\] attribute on entry function 'other'/);
  assert.is(dxbin(['rootsig', 'compile', '--file', hlsl, '-E', 'main', '--to', '1.1', '-o', join(work, 'o.dxbc')]).status, 0);
});

test('convert -o INPUT refuses before printing any loss', () => {
  const copy = join(work, 'in.dxbc');
  copyFileSync(B, copy);
  const r = dxbin(['rootsig', 'convert', copy, '--to', '1.0', '-o', copy]);
  assert.is(r.status, 2);
  assert.not.match(r.stderr, /dropped/, r.stderr);
  assert.match(r.stderr, /refusing to overwrite the input/);
  assert.equal(readFileSync(copy), readFileSync(B), 'the input is untouched');
});

test('query decode --format json carries formatVersion', () => {
  const stamps = join(work, 'stamps.bin');
  writeFileSync(stamps, new Uint8Array(16).fill(1));
  const r = dxbin(['query', 'decode', '--type', 'timestamp', stamps, '--format', 'json']);
  assert.is(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { formatVersion: number; count: number };
  assert.is(j.formatVersion, FORMAT_VERSION);
  assert.is(j.count, 2);
  const out = join(work, 'stamps.json');
  assert.is(dxbin(['query', 'decode', '--type', 'timestamp', stamps, '--format', 'json', '-o', out]).status, 0);
  assert.ok(existsSync(out));
  assert.is((JSON.parse(readFileSync(out, 'utf8')) as { formatVersion: number }).formatVersion, FORMAT_VERSION);
});

test('dxbin help has examples; help ddi wraps its command list to the width', () => {
  const h = dxbin(['help']);
  assert.is(h.status, 0);
  assert.match(h.stdout, /\nExamples:\n {2}\$ dxbin inspect /);
  const ddi = dxbin(['help', 'ddi']).stdout;
  const long = ddi.split('\n').filter((l) => l.length > 80);
  assert.equal(long, [], 'every line within 80 columns');
});


/** SHADER with its header's size field set to `size` (a lenient reading takes it; the digest's range 20..size is not in the file). */
function declaring(size: number, name: string): string {
  const bytes = new Uint8Array(readFileSync(SHADER));
  new DataView(bytes.buffer).setUint32(24, size, true);
  const file = join(work, name);
  writeFileSync(file, bytes);
  return file;
}

test('inspect --lenient and hash --lenient of a declared size outside 20..the file: the rest shown, "digest not computable" with the field', () => {
  const length = readFileSync(SHADER).byteLength;
  for (const [file, why] of [
    [declaring(length + 100, 'past.dxbc'), `declares ${length + 100} bytes, the data has ${length}`],
    [declaring(10, 'inside.dxbc'), "declares 10 bytes, the digest's range begins at byte 20"],
  ] as const) {
    const said = `digest not computable: ${why} (container.header.containerSize at byte 24)`;
    const i = dxbin(['inspect', '--lenient', file]);
    assert.is(i.status, 0, i.stderr);
    assert.match(i.stdout, `: ${said}\n`);
    // the header line says what the header declares beside what the file holds, not one as the other
    const declared = file.endsWith('past.dxbc') ? length + 100 : 10;
    assert.match(i.stdout, `: container 1.0, declares ${declared} bytes, the data has ${length}, `);
    assert.match(i.stdout, /\n {2}part 0: /, 'the parts still listed');
    assert.match(i.stdout, /\n {2}shader: Pixel, DXBC SM 5\.0/, 'the shader still shown');
    const h = dxbin(['hash', '--lenient', file]);
    assert.is(h.status, 0, h.stderr);
    assert.match(h.stdout, /^stored {3}[0-9a-f]{32}\n/);
    assert.match(h.stdout, `\ncomputed none, ${said}\nstatus   not computable\n`);
    // a check cannot pass, a fix has nothing to write: exit 1, each naming the field
    const c = dxbin(['hash', '--lenient', '--check', file]);
    assert.is(c.status, 1);
    assert.match(c.stderr, said);
    const out = join(work, 'fixed.dxbc');
    const f = dxbin(['hash', '--lenient', '--fix', file, '-o', out]);
    assert.is(f.status, 1);
    assert.match(f.stderr, /no digest can be computed to write \(container\.header\.containerSize at byte 24\)/);
    assert.not.ok(existsSync(out));
    assert.not.match(i.stderr + h.stderr + c.stderr + f.stderr, /RangeError|TypeError|\(size\)|\n\s+at /);
  }
  // not lenient: as before, the typed container-size error, exit 1
  const strict = dxbin(['hash', declaring(length + 100, 'past-strict.dxbc')]);
  assert.is(strict.status, 1);
  assert.match(strict.stderr, `declares ${length + 100} bytes, the data has ${length} (container.header.containerSize at byte 24)`);
  assert.is(dxbin(['inspect', join(work, 'past-strict.dxbc')]).status, 1);
});

test('--json of the same: digest status "not-computable" with the reason as a field (code, message, field, offset), valid against the schemas', async () => {
  const { default: Ajv } = (await import('ajv/dist/2020.js')) as unknown as { default: new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown } } };
  const { commandSchema } = await import('../src/cli/schema.js');
  const { loadAllCommands } = await import('../src/cli/commands/index.js');
  const commands = await loadAllCommands();
  const validate = (name: string) => new Ajv({ strict: false, allErrors: true }).compile(commandSchema(commands.find((c) => c.path.join(' ') === name)!));
  const file = declaring(readFileSync(SHADER).byteLength + 100, 'past-json.dxbc');
  const reason = { code: 'container-size', message: `declares ${readFileSync(SHADER).byteLength + 100} bytes, the data has ${readFileSync(SHADER).byteLength}`, field: 'container.header.containerSize', offset: 24 };
  const i = dxbin(['inspect', '--lenient', '--json', file]);
  assert.is(i.status, 0, i.stderr);
  const ij = JSON.parse(i.stdout) as { ok: boolean; digest: Record<string, unknown>; parts: unknown[] };
  assert.equal([ij.ok, ij.digest.status, ij.digest.reason, 'expected' in ij.digest], [true, 'not-computable', reason, false]);
  assert.ok(ij.parts.length > 0);
  const vi = validate('inspect');
  assert.ok(vi(ij), JSON.stringify(vi.errors));
  const h = dxbin(['hash', '--lenient', '--json', file]);
  assert.is(h.status, 0, h.stderr);
  const hj = JSON.parse(h.stdout) as Record<string, unknown>;
  assert.equal([hj.ok, hj.status, hj.reason, 'computed' in hj], [true, 'not-computable', reason, false]);
  const vh = validate('hash');
  assert.ok(vh(hj), JSON.stringify(vh.errors));
  // a sentinel stored digest is still named
  const zero = new Uint8Array(readFileSync(file));
  zero.fill(0, 4, 20);
  writeFileSync(file, zero);
  const z = JSON.parse(dxbin(['hash', '--lenient', '--json', file]).stdout) as Record<string, unknown>;
  assert.equal([z.status, typeof z.sentinel], ['not-computable', 'string']);
});

test.run();
