/**
 * Issue 26, part B: no silently wrong answer. The runtime's descriptor-heap rule in `verify`
 * (shaders and library exports), include paths resolved as the operating system resolves them,
 * outputs checked against each other and the inputs before anything is written, output names up to
 * NAME_MAX, and lookups by name that could match twice refused.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecodeError, DescriptionError, HlslFile, compileRootSignature, encodeRootSignature, findPart, readRootSignatureSource, writeContainer, parseContainer, rootSignatureContainer, shaderFeatures, shaderOf, suggestRootSignature, verifyBindings, verifyRootSignature } from '../src/index.js';
import { SHADER_FEATURE_INFO1 } from '../codecs/shader-flags.js';
import { readLibraryRdat, type RdatTable } from '../src/rdat/index.js';
import { subobjectIndex, withRdat, withSubobjectRootSignatures } from '../src/rdat/edit.js';
import { verifyStateObject } from '../src/rdat/state-object.js';
import { STRUCTS } from '../codecs/ddi.js';
import { structDef } from '../src/ddi/layout.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { checkOutputs, tempName } from '../src/cli/io.js';
import { corpusFile, corpusFiles } from './helpers/corpus.js';
import { missingCommand, requires } from './helpers/requires.js';
import { spawnSync } from 'node:child_process';
import { posixDirname, posixJoin, virtualHost } from '../src/root-signature/hlsl/source.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-trust-'));
const cli = async (...args: string[]) => {
  const s = captureStreams();
  const status = await run(args, s);
  return { status, stdout: s.stdout(), stderr: s.stderr() };
};

// ---------------------------------------------------------------------------------------------
// 1. SFI0 feature flags against the root signature's DIRECTLY_INDEXED flags

const RESOURCE_HEAP = 'Shader uses resource descriptor heap indexing, but root signature is missing the D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED flag.';
const SAMPLER_HEAP = 'Shader uses sampler descriptor heap indexing, but root signature is missing the D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED flag.';
const R = 'resource-heap-not-indexable';
const S = 'sampler-heap-not-indexable';
/** The corpus shaders whose SFI0 says they index a descriptor heap, and which heaps. */
const HEAP_SHADERS: Record<string, string[]> = {
  bindless_heap_sm66: [R, S],
  bindless_heap_sm66_uav_counter: [R],
  cs_integer_sampling: [R, S],
  ps_discard_atomic_loop: [R],
  undefined_descriptor_heap_mismatch_types_cbv: [R],
  undefined_descriptor_heap_mismatch_types_srv_raw: [R],
  undefined_descriptor_heap_mismatch_types_srv_tex: [R],
  undefined_descriptor_heap_mismatch_types_srv_typed: [R],
  undefined_descriptor_heap_mismatch_types_uav_raw: [R],
  undefined_descriptor_heap_mismatch_types_uav_tex: [R],
  undefined_descriptor_heap_mismatch_types_uav_typed: [R],
};
const heapShader = (name: string) => `shaders/vkd3d-proton/${name}_code_dxil.dxil`;

test('the flag rows: DXC bit values of the heap-indexing features', () => {
  assert.is(SHADER_FEATURE_INFO1.bits.find(([n]) => n === 'ResourceDescriptorHeapIndexing')?.[1], 0x2000000);
  assert.is(SHADER_FEATURE_INFO1.bits.find(([n]) => n === 'SamplerDescriptorHeapIndexing')?.[1], 0x4000000);
  assert.is(SHADER_FEATURE_INFO1.bits.find(([n]) => n === 'SampleCmpGradientOrBias')?.[1], 0x80000000);
});

test('exactly eleven corpus shaders index a descriptor heap (SFI0), the ones listed', () => {
  const found: string[] = [];
  for (const f of corpusFiles('shaders')) {
    let c;
    try {
      c = parseContainer(f.bytes);
    } catch {
      continue;
    }
    const flags = shaderFeatures(c)?.featureInfo1 ?? 0;
    if (flags & 0x6000000) found.push(f.name);
  }
  assert.equal(found.sort(), Object.keys(HEAP_SHADERS).map(heapShader).sort());
});

for (const [name, expected] of Object.entries(HEAP_SHADERS)) {
  test(`verify ${name}: without the DIRECTLY_INDEXED flags the runtime's refusal, with them it fits`, () => {
    const bytes = corpusFile(heapShader(name));
    const info = shaderOf(parseContainer(bytes));
    // a root signature covering every binding, then the same without the heap flags
    const withFlags = suggestRootSignature([{ stage: info.stage, bindings: info.bindings!, features: shaderFeatures(info.container)! }]);
    const without = { ...withFlags, flags: withFlags.flags & ~0xc00 };
    assert.is(withFlags.flags & 0xc00, expected.length === 2 ? 0xc00 : 0x400, 'suggest opens the heaps the shader indexes');
    const fits = verifyRootSignature(bytes, withFlags);
    assert.is(fits.verdict, 'fits', JSON.stringify(fits.violations));
    const no = verifyRootSignature(bytes, without);
    assert.is(no.verdict, 'does-not-fit');
    assert.equal(no.violations.map((v) => v.code), expected);
    assert.equal(no.violations.map((v) => v.message), expected.map((c) => (c === R ? RESOURCE_HEAP : SAMPLER_HEAP)));
    assert.ok(no.violations.every((v) => v.path === 'RTS0.flags'));
  });
}

test('shaderFeatures: an SFI0 part shorter than 8 bytes is truncated (typed), a hand-made part of the wrong type is bad-type', () => {
  const c = parseContainer(corpusFile(heapShader('ps_discard_atomic_loop')));
  assert.equal(shaderFeatures(c), { featureInfo1: 0x2004000, featureInfo2: 0 });
  const short = writeContainer({ ...c, parts: c.parts.map((p) => (p.name === 'SFI0' ? { name: 'SFI0', data: p.data.subarray(0, 4) } : p)) });
  assert.throws(() => shaderFeatures(parseContainer(short)), (e: unknown) => e instanceof DecodeError && e.code === 'truncated' && e.path === 'SFI0');
  assert.throws(() => verifyRootSignature(short, compileRootSignature('RootFlags(0)', { version: 2 })), (e: unknown) => e instanceof DecodeError && e.code === 'truncated');
  assert.throws(() => shaderFeatures({ ...c, parts: [{ name: 'SFI0', data: 42 as unknown as Uint8Array }] }), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-type');
});

test('verifyBindings takes the feature flags: none given, no heap rule; a bad value is a DescriptionError naming it', () => {
  const rs = compileRootSignature('RootFlags(0)', { version: 2 });
  assert.is(verifyBindings(5, [], rs).verdict, 'fits');
  assert.equal(verifyBindings(5, [], rs, { featureInfo1: 0x4000000, featureInfo2: 0 }).violations.map((v) => v.code), [S]);
  assert.is(verifyBindings(5, [], compileRootSignature('RootFlags(SAMPLER_HEAP_DIRECTLY_INDEXED)', { version: 2 }), { featureInfo1: 0x4000000, featureInfo2: 0 }).verdict, 'fits');
  assert.throws(() => verifyBindings(5, [], rs, { featureInfo1: -1, featureInfo2: 0 }), (e: unknown) => (e as { path?: string }).path === 'features.featureInfo1');
});

test('dxbin verify SHADER --rootsig: exit 1 in the runtime words without the flags, exit 0 with them', async () => {
  const no = join(work, 'noheap.dxbc');
  const yes = join(work, 'heap.dxbc');
  // bindless_heap_sm66 also reads CBV b0
  writeFileSync(no, rootSignatureContainer(encodeRootSignature(compileRootSignature('CBV(b0)', { version: 2 }))));
  writeFileSync(yes, rootSignatureContainer(encodeRootSignature(compileRootSignature('RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | SAMPLER_HEAP_DIRECTLY_INDEXED), CBV(b0)', { version: 2 }))));
  const shader = join('corpus', heapShader('bindless_heap_sm66'));
  const bad = await cli('verify', shader, '--rootsig', no);
  assert.is(bad.status, 1, bad.stderr);
  assert.match(bad.stdout, 'Compute shader does not fit the root signature (1 binding, 2 violations)');
  // each violation once in the combined output (a diagnostic on stderr for a shader that does not fit)
  const all = bad.stdout + bad.stderr;
  assert.match(all, `RTS0.flags: ${RESOURCE_HEAP}`);
  assert.match(all, `RTS0.flags: ${SAMPLER_HEAP}`);
  assert.is(all.split(RESOURCE_HEAP).length, 2, 'the resource-heap violation is printed once');
  const good = await cli('verify', shader, '--rootsig', yes);
  assert.is(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout, 'Compute shader fits the root signature (1 binding)');
  // embed --verify refuses the root signature that lacks the flags, nothing written
  const out = join(work, 'embedded.dxil');
  const embed = await cli('embed', shader, '--rs', no, '--verify', '-o', out);
  assert.is(embed.status, 1, embed.stderr);
  assert.match(embed.stderr, RESOURCE_HEAP);
});

/** A corpus library with one function record's FeatureInfo1 set. */
function libraryWithFeatures(name: string, exportName: string, featureInfo1: number): Uint8Array {
  const bytes = corpusFile(`shaders/vkd3d-proton/${name}_code_dxil.dxil`);
  const { rdat } = readLibraryRdat(bytes);
  const functions = (rdat.parts.find((p) => p.type === 'FunctionTable') as RdatTable).records;
  const record = functions.find((r) => r.UnmangledName === exportName)!;
  record.FeatureInfo1 = featureInfo1;
  return withRdat(bytes, rdat);
}

test('library exports: each export whose RDAT FeatureInfo1 indexes a heap needs the flag in its global root signature', async () => {
  const lib = libraryWithFeatures('local_root_signature', 'EntryNode', 0x6000000);
  const r = verifyStateObject([{ name: 'lib', bytes: lib }]);
  assert.equal(r.violations.map((v) => [v.code, v.export]), [[R, 'EntryNode'], [S, 'EntryNode']]);
  assert.is(r.violations[0]!.message, `export EntryNode (global root signature (none)): ${RESOURCE_HEAP}`);
  assert.equal(r.exports.map((e) => [e.name, e.fits]), [['EntryNode', false], ['A', true], ['B', true]]);
  const open = compileRootSignature('RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | SAMPLER_HEAP_DIRECTLY_INDEXED)', { version: 2 });
  assert.is(verifyStateObject([{ name: 'lib', bytes: lib }], { globalRootSignature: { name: 'open', rootSignature: open } }).verdict, 'fits');
  const half = compileRootSignature('RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED)', { version: 2 });
  assert.equal(verifyStateObject([{ name: 'lib', bytes: lib }], { globalRootSignature: { name: 'half', rootSignature: half } }).violations.map((v) => [v.code, v.export, v.subobject, v.path]), [[S, 'EntryNode', 'half', 'RTS0.flags']]);
  // the unedited library fits without any flag
  assert.is(verifyStateObject([{ name: 'lib', bytes: corpusFile('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil') }]).verdict, 'fits');

  // through the CLI
  const file = join(work, 'heap-lib.dxil');
  writeFileSync(file, lib);
  const rs = join(work, 'open.rts0');
  writeFileSync(rs, encodeRootSignature(open));
  const bad = await cli('verify', file);
  assert.is(bad.status, 1);
  assert.match(bad.stdout, `${R} export EntryNode: export EntryNode (global root signature (none)): ${RESOURCE_HEAP}`);
  const good = await cli('verify', file, '--rootsig', rs);
  assert.is(good.status, 0, good.stdout + good.stderr);
});

// ---------------------------------------------------------------------------------------------
// 2. -I and #include paths resolved as the system resolves them (`..` through a link)

const withCpp = requires('GNU cpp', missingCommand('cpp'));

/** A tree where `link` is a symbolic link to real/sub: `link/..` is `real`, not `.`. */
function linkTree(): string {
  const dir = mkdtempSync(join(work, 'links-'));
  mkdirSync(join(dir, 'real', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'real', 'inc'));
  mkdirSync(join(dir, 'inc'));
  symlinkSync('real/sub', join(dir, 'link'));
  writeFileSync(join(dir, 'real', 'inc', 'x.h'), '#define RS "CBV(b1)"\n');
  writeFileSync(join(dir, 'inc', 'x.h'), '#define RS "CBV(b0)"\n');
  writeFileSync(join(dir, 'real', 'sub', 'q.h'), '#include "../inc/x.h"\n');
  writeFileSync(join(dir, 'angle.hlsl'), '#include <x.h>\nRS\n');
  writeFileSync(join(dir, 'quoted.hlsl'), '#include "link/q.h"\nRS\n');
  return dir;
}

/** GNU cpp's answer in `dir`: the text it expands RS to and its dependency list (`cpp -M`), without system headers. */
function cppSays(dir: string, file: string, args: string[]): { text: string; deps: string[] } {
  const text = spawnSync('cpp', ['-P', ...args, file], { cwd: dir, encoding: 'utf8' }).stdout.trim();
  const m = spawnSync('cpp', ['-M', ...args, file], { cwd: dir, encoding: 'utf8' }).stdout;
  const deps = m.replace(/\\\n/g, ' ').split(':').slice(1).join(':').trim().split(/\s+/).filter((d) => !d.startsWith('/usr/'));
  return { text, deps };
}

withCpp('-I link/../inc and #include "../inc/x.h" from link/q.h read the header cpp reads; the depfile names what was read, as cpp -M spells it', async () => {
  const dir = linkTree();
  const cases: [file: string, args: string[]][] = [
    ['angle.hlsl', ['-I', 'link/../inc']],
    ['quoted.hlsl', []],
    ['angle.hlsl', ['-I', 'link/../inc/']],
    ['angle.hlsl', ['-I', `${dir}/link/../inc`]],
  ];
  for (const [file, args] of cases) {
    const cpp = cppSays(dir, file, args);
    assert.is(cpp.text, '"CBV(b1)"', 'cpp reads real/inc/x.h');
    const prev = process.cwd();
    process.chdir(dir);
    try {
      const r = await cli('rootsig', 'preprocess', '--file', file, ...args, '-o', 'pp.txt', '--depfile', 'pp.d');
      assert.is(r.status, 0, r.stderr);
      assert.match(readFileSync('pp.txt', 'utf8'), '"CBV(b1)"', `${file} ${args.join(' ')}: the header cpp reads`);
      const depfile = readFileSync('pp.d', 'utf8');
      const deps = depfile.split('\n\n')[0]!.replace(/\\\n/g, ' ').split(':').slice(1).join(':').trim().split(/\s+/);
      assert.equal(deps, cpp.deps, `${file} ${args.join(' ')}: depfile as cpp -M`);
      const compiled = await cli('rootsig', 'compile', '--file', file, ...args.map((a) => a), '--define', 'RS', '--version', '1.1', '-o', 'rs.dxbc');
      assert.is(compiled.status, 0, compiled.stderr);
      assert.equal(Array.from(readRootSignatureSource(new Uint8Array(readFileSync('rs.dxbc'))).rootSignature.parameters.map((p) => (p as { descriptor: { shaderRegister: number } }).descriptor.shaderRegister)), [1]);
    } finally {
      process.chdir(prev);
    }
  }
});

test('the path rules: join and dirname keep `..` as spelled; the virtual host resolves `..` against the real parent too', () => {
  assert.is(posixJoin('link/../inc', 'x.h'), 'link/../inc/x.h');
  assert.is(posixJoin('inc/', 'x.h'), 'inc/x.h');
  assert.is(posixJoin('.', 'x.h'), 'x.h');
  assert.is(posixJoin('/', 'x.h'), '/x.h');
  assert.is(posixJoin('a', '/abs.h'), '/abs.h');
  assert.is(posixDirname('link/../inc/x.h'), 'link/../inc');
  assert.is(posixDirname('main.hlsl'), '.');
  assert.is(posixDirname('/main.hlsl'), '/');
  const host = virtualHost({ 'real/inc/x.h': 'real', 'inc/x.h': 'lexical', link: { link: 'real/sub' }, 'real/sub/q.h': 'q' });
  assert.is(host.stat('link/../inc/x.h')?.real, 'real/inc/x.h');
  assert.is(host.stat('link/q.h')?.real, 'real/sub/q.h');
  assert.is(host.stat('inc/x.h')?.real, 'inc/x.h');
  const h = new HlslFile('#include <x.h>\n', 'main.hlsl', {}, {}, { host: virtualHost({ 'real/inc/x.h': '#define RS "CBV(b1)"\n', 'inc/x.h': '#define RS "CBV(b0)"\n', link: { link: 'real/sub' }, 'real/sub/.keep': '' }), includeDirs: ['link/../inc'] });
  assert.is(h.defineText('RS').text, 'CBV(b1)');
  assert.equal(h.files, ['main.hlsl', 'link/../inc/x.h']);
});

// ---------------------------------------------------------------------------------------------
// 3. Outputs checked against each other and the inputs before anything is written; NAME_MAX

const RS_TEXT = 'RootFlags(0), CBV(b0)';

test('rootsig compile -o X --depfile X: usage error naming both, nothing written (before: the depfile over the blob, exit 0)', async () => {
  const dir = mkdtempSync(join(work, 'same-'));
  const x = join(dir, 'rs.dxbc');
  const r = await cli('rootsig', 'compile', RS_TEXT, '--version', '1.1', '-o', x, '--depfile', x);
  assert.is(r.status, 2);
  assert.match(r.stderr, `-o ${x} and --depfile ${x} are the same file`);
  assert.not.ok(existsSync(x), 'nothing written');
  assert.equal(readdirSync(dir), [], 'no temp file left');
});

test('outputs equal through another spelling, a symbolic link or a hard link are refused; the existing file is untouched', async () => {
  const dir = mkdtempSync(join(work, 'spell-'));
  const x = join(dir, 'rs.dxbc');
  writeFileSync(x, 'old');
  symlinkSync(x, join(dir, 'link.dxbc'));
  linkSync(x, join(dir, 'hard.dxbc'));
  mkdirSync(join(dir, 'sub'));
  symlinkSync(dir, join(dir, 'sub', 'up'));
  for (const other of [join(dir, '.', 'rs.dxbc'), join(dir, 'link.dxbc'), join(dir, 'hard.dxbc'), join(dir, 'sub', 'up', 'rs.dxbc')]) {
    const r = await cli('rootsig', 'compile', RS_TEXT, '--version', '1.1', '-o', x, '--depfile', other);
    assert.is(r.status, 2, other);
    assert.match(r.stderr, `and --depfile ${other} are the same file`);
    assert.is(readFileSync(x, 'utf8'), 'old', other);
  }
  // a file not there yet, reached through a folder link
  const fresh = join(dir, 'new.dxbc');
  const viaLink = join(dir, 'sub', 'up', 'new.dxbc');
  const r = await cli('rootsig', 'compile', RS_TEXT, '--version', '1.1', '-o', fresh, '--depfile', viaLink);
  assert.is(r.status, 2);
  assert.not.ok(existsSync(fresh));
  // distinct outputs are fine
  const ok = await cli('rootsig', 'compile', RS_TEXT, '--version', '1.1', '-o', fresh, '--depfile', `${fresh}.d`);
  assert.is(ok.status, 0, ok.stderr);
});

test('an output that is an input (the HLSL file, a header it includes, a --verify shader, --rs, --rootsig, --html) is refused before anything is written', async () => {
  const dir = mkdtempSync(join(work, 'inputs-'));
  const main = join(dir, 'rs.hlsl');
  const header = join(dir, 'inc.h');
  writeFileSync(main, '#include "inc.h"\n#define RS "CBV(b0)"\n');
  writeFileSync(header, '// header\n');
  const out = join(dir, 'rs.dxbc');
  const viaDepfile = await cli('rootsig', 'compile', '--file', main, '--define', 'RS', '--version', '1.1', '-o', out, '--depfile', header);
  assert.is(viaDepfile.status, 2);
  assert.match(viaDepfile.stderr, `--depfile ${header} is the header ${header}: refusing to overwrite the input`);
  assert.not.ok(existsSync(out), '-o is not written either');
  assert.is(readFileSync(header, 'utf8'), '// header\n');
  const viaOutput = await cli('rootsig', 'compile', '--file', main, '--define', 'RS', '--version', '1.1', '-o', main);
  assert.is(viaOutput.status, 2);
  assert.match(viaOutput.stderr, `-o ${main} is the --file ${main}`);
  const pp = await cli('rootsig', 'preprocess', '--file', main, '-o', join(dir, 'pp.hlsl'), '--depfile', join(dir, '.', 'inc.h'));
  assert.is(pp.status, 2);
  assert.not.ok(existsSync(join(dir, 'pp.hlsl')));
  // files commands: --rs and --rootsig are inputs too, --html an output
  const shader = join('corpus', heapShader('bindless_heap_sm66'));
  const rs = join(dir, 'own.dxbc');
  writeFileSync(rs, rootSignatureContainer(encodeRootSignature(compileRootSignature('CBV(b0)', { version: 2 }))));
  const embed = await cli('embed', shader, '--rs', rs, '-o', join(dir, '.', 'own.dxbc'));
  assert.is(embed.status, 2);
  assert.match(embed.stderr, `is the --rs ${rs}`);
  const html = await cli('inspect', shader, '--html', shader);
  assert.is(html.status, 2);
  assert.match(html.stderr, `--html ${shader} is the input ${shader}`);
});

test('files commands: two inputs whose outputs are one file through a folder link are refused before either is written', async () => {
  const dir = mkdtempSync(join(work, 'runner-'));
  mkdirSync(join(dir, 'd'));
  symlinkSync(join(dir, 'd'), join(dir, 'alias'));
  writeFileSync(join(dir, 'd', 'x.dxbc'), corpusFile('shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe_2.dxbc'));
  const r = await cli('strip', join(dir, 'd', 'x.dxbc'), join(dir, 'alias', 'x.dxbc'), '-o', '{dir}/{name}.out');
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, 'are the same file');
  assert.equal(readdirSync(join(dir, 'd')), ['x.dxbc']);
  const ok = await cli('strip', join(dir, 'd', 'x.dxbc'), '-o', '{dir}/{name}.out');
  assert.is(ok.status, 0, ok.stderr);
  // one spelling twice: refused naming both inputs
  mkdirSync(join(dir, 'e'));
  writeFileSync(join(dir, 'e', 'x.dxbc'), readFileSync(join(dir, 'd', 'x.dxbc')));
  const twice = await cli('strip', join(dir, 'd', 'x.dxbc'), join(dir, 'e', 'x.dxbc'), '--out-dir', join(dir, 'o'));
  assert.is(twice.status, 2);
  assert.match(twice.stderr, `${join(dir, 'd', 'x.dxbc')} and ${join(dir, 'e', 'x.dxbc')} would both be written to`);
  // link/../x.out and ./x.out are two files (the link's parent is real/): both written, none refused
  mkdirSync(join(dir, 'real', 'sub'), { recursive: true });
  symlinkSync(join(dir, 'real', 'sub'), join(dir, 'link'));
  writeFileSync(join(dir, 'real', 'x.dxbc'), readFileSync(join(dir, 'd', 'x.dxbc')));
  writeFileSync(join(dir, 'x.dxbc'), readFileSync(join(dir, 'd', 'x.dxbc')));
  const prev = process.cwd();
  process.chdir(dir);
  try {
    const two = await cli('strip', 'link/../x.dxbc', 'x.dxbc', '-o', '{dir}/{name}.out');
    assert.is(two.status, 0, two.stderr);
    assert.ok(existsSync(join(dir, 'real', 'x.out')) && existsSync(join(dir, 'x.out')));
  } finally {
    process.chdir(prev);
  }
});

test('--out-dir link/../out writes where the system resolves it (beside the link target), not a lexical ./out', async () => {
  const dir = mkdtempSync(join(work, 'outdir-'));
  mkdirSync(join(dir, 'real', 'sub'), { recursive: true });
  symlinkSync(join(dir, 'real', 'sub'), join(dir, 'link'));
  const input = join(dir, 'x.dxbc');
  writeFileSync(input, corpusFile('shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe_2.dxbc'));
  const r = await cli('strip', input, '--out-dir', `${dir}/link/../out`);
  assert.is(r.status, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'real', 'out', 'x.dxbc')), 'real/out/x.dxbc');
  assert.not.ok(existsSync(join(dir, 'out')), 'no lexical ./out');
});

test('checkOutputs: by identity; devices and the null device may repeat, standard output may not', () => {
  const dir = mkdtempSync(join(work, 'ids-'));
  mkdirSync(join(dir, 'real'));
  symlinkSync(join(dir, 'real'), join(dir, 'alias'));
  assert.throws(() => checkOutputs([{ path: join(dir, 'real', 'a'), as: '-o' }, { path: join(dir, 'alias', 'a'), as: '--depfile' }], []), /same file/);
  assert.throws(() => checkOutputs([{ path: '-', as: '-o' }, { path: '/dev/stdout', as: '--depfile' }], []), /same file/);
  checkOutputs([{ path: '/dev/null', as: '-o' }, { path: '/dev/null', as: '--depfile' }], [{ path: '-', as: 'input' }]);
  checkOutputs([{ path: join(dir, 'real', 'a'), as: '-o' }, { path: join(dir, 'real', 'b'), as: '--depfile' }], []);
});

test('any output name the system takes is written: temp names stay within NAME_MAX (250-byte and multi-byte names)', async () => {
  const dir = mkdtempSync(join(work, 'long-'));
  for (const name of ['r'.repeat(250), `${'€'.repeat(84)}`, `${'é'.repeat(127)}x`]) {
    assert.ok(Buffer.byteLength(name) >= 250 && Buffer.byteLength(name) <= 255, name);
    const t = tempName(join(dir, name));
    assert.ok(Buffer.byteLength(t.slice(dir.length + 1)) <= 255, 'temp name within NAME_MAX');
    assert.not.match(t.slice(dir.length + 1), /\uFFFD/);
    const out = join(dir, name);
    const r = await cli('rootsig', 'compile', RS_TEXT, '--version', '1.1', '-o', out, '--depfile', join(dir, 'd'));
    assert.is(r.status, 0, r.stderr);
    assert.ok(existsSync(out));
  }
  assert.ok(readdirSync(dir).every((n) => !n.endsWith('.tmp')));
});

// ---------------------------------------------------------------------------------------------
// 4. Ambiguity is an error

/** local_root_signature with its second local root signature renamed to the first's name. */
function twoNamedAlike(): Uint8Array {
  const bytes = corpusFile('shaders/vkd3d-proton/local_root_signature_code_dxil.dxil');
  const { rdat } = readLibraryRdat(bytes);
  const subobjects = (rdat.parts.find((p) => p.type === 'SubobjectTable') as RdatTable).records;
  assert.equal(subobjects.slice(0, 2).map((r) => r.Name), ['LRS0', 'LRS1']);
  subobjects[1]!.Name = 'LRS0';
  return withRdat(bytes, rdat);
}
const BOTH = 'two subobjects are named "LRS0": SubobjectTable[0] (LocalRootSignature) and SubobjectTable[1] (LocalRootSignature)';

test('two subobjects with one name: convert, embed --subobject, extract --subobject and decompile --define refuse, exit 1 naming both; nothing written', async () => {
  const dir = mkdtempSync(join(work, 'dup-'));
  const lib = join(dir, 'lib.dxil');
  writeFileSync(lib, twoNamedAlike());
  const rs = join(dir, 'lrs.rts0');
  writeFileSync(rs, encodeRootSignature(compileRootSignature('RootFlags(LOCAL_ROOT_SIGNATURE), UAV(u5)', { version: 2 })));
  const runs: [string, string[]][] = [
    ['convert', ['rootsig', 'convert', lib, '--to', '1.0', '-o', join(dir, 'conv.dxil')]],
    ['embed', ['embed', lib, '--subobject', 'LRS0', '--rs', rs, '-o', join(dir, 'emb.dxil')]],
    ['extract', ['extract', lib, '--subobject', 'LRS0', '-o', join(dir, 'ext.dxbc')]],
    ['decompile', ['rootsig', 'decompile', lib, '--define', 'RS', '-o', join(dir, 'dec.hlsl')]],
  ];
  for (const [what, args] of runs) {
    const r = await cli(...args);
    assert.is(r.status, 1, `${what}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, BOTH, what);
    assert.equal(readdirSync(dir).sort(), ['lib.dxil', 'lrs.rts0'], `${what}: nothing written`);
  }
  // the API: withSubobjectRootSignatures and subobjectIndex refuse the name; verify reports the duplicate
  assert.throws(() => withSubobjectRootSignatures(twoNamedAlike(), new Map([['LRS0', readFileSync(rs)]])), (e: unknown) => e instanceof DescriptionError && e.code === 'ambiguous-name' && e.message.includes(BOTH));
  assert.equal(subobjectIndex(readLibraryRdat(twoNamedAlike())).duplicates(), [{ name: 'LRS0', subobjects: [0, 1] }]);
  const dup = verifyStateObject([{ name: 'lib', bytes: twoNamedAlike() }]).violations.find((v) => v.code === 'duplicate-subobject');
  assert.is(dup?.message, 'subobject LRS0 is defined in lib (SubobjectTable[0], LocalRootSignature) and again in lib (SubobjectTable[1], LocalRootSignature)');
  const verified = await cli('verify', lib);
  assert.is(verified.status, 1);
  assert.match(verified.stdout, 'duplicate-subobject subobject LRS0: subobject LRS0 is defined in');
  // decompile without --define prints both, each labelled with its kind and name (no lookup by name)
  const listed = await cli('rootsig', 'decompile', lib);
  assert.is(listed.status, 0, listed.stderr);
  assert.is(listed.stdout.split('// LocalRootSignature LRS0').length - 1, 2);
});

test('-E ENTRY with two functions of that name (overloads) is ambiguous (as DXC: ambiguous entry point function)', async () => {
  const text = '[RootSignature("CBV(b0)")]\nfloat4 main(float4 p : A) : SV_Target { return p; }\n[RootSignature("CBV(b1)")]\nfloat4 main(float2 p : A) : SV_Target { return p.xyxy; }\n';
  const h = new HlslFile(text, 'two.hlsl');
  assert.throws(() => h.entryText('main'), (e: unknown) => (e as { code?: string }).code === 'hlsl-ambiguous' && /declarations at two\.hlsl:2:8 and two\.hlsl:4:8 have different parameter lists/.test((e as Error).message));
  const file = join(work, 'two.hlsl');
  writeFileSync(file, text);
  const r = await cli('rootsig', 'compile', '--file', file, '-E', 'main', '--version', '1.1', '-o', join(work, 'two.dxbc'));
  assert.is(r.status, 1);
  assert.match(r.stderr, 'ambiguous entry point function');
  assert.not.ok(existsSync(join(work, 'two.dxbc')));
  // one attributed function of that name (a forward declaration without the attribute beside it) is not ambiguous
  assert.is(new HlslFile('float4 main();\n[RootSignature("CBV(b0)")]\nfloat4 main() : SV_Target { return 0; }\n', 'one.hlsl').entryText('main').text, 'CBV(b0)');
});

test('--define NAME: the definition in force at the end of the file (a redefinition warns), as DXC reads -rootsig-define', () => {
  const h = new HlslFile('#define RS "CBV(b0)"\n#define RS "CBV(b1)"\n', 'redef.hlsl');
  assert.is(h.defineText('RS').text, 'CBV(b1)');
  assert.ok(h.warnings.some((w) => /redefined/.test(w.message)), JSON.stringify(h.warnings));
  // -D then #define: the file's definition wins, with the warning; -D twice: the last
  const d = new HlslFile('#define RS "CBV(b2)"\n', 'd.hlsl', {}, {}, { defines: [['D', 'RS="CBV(b9)"']] });
  assert.is(d.defineText('RS').text, 'CBV(b2)');
  const dd = new HlslFile('', 'dd.hlsl', {}, {}, { defines: [['D', 'RS="CBV(b3)"'], ['D', 'RS="CBV(b4)"']] });
  assert.is(dd.defineText('RS').text, 'CBV(b4)');
});

test('DDI structure names: every spelling (C name, bare name, CLI name) answers exactly one structure', () => {
  for (const st of STRUCTS) {
    for (const spelling of [st.name, st.cli, st.name.replace(/^D3D12(DDI)?_/, '')]) {
      const bare = spelling.replace(/^D3D12(DDI)?_/, '');
      const answering = STRUCTS.filter((x) => x.name === spelling || x.cli === spelling || x.name.replace(/^D3D12(DDI)?_/, '') === bare);
      assert.equal(answering.map((x) => x.name), [st.name], spelling);
      assert.is(structDef(spelling).name, st.name);
    }
  }
});

test('a part two parts of a container share is ambiguous: every lookup by that name refuses, naming both; the parts stay listed', async () => {
  const one = rootSignatureContainer(encodeRootSignature(compileRootSignature('CBV(b0)', { version: 2 })));
  const rts0 = findPart(parseContainer(one), 'RTS0')!.data;
  const other = encodeRootSignature(compileRootSignature('CBV(b1)', { version: 2 }));
  const two = writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RTS0', data: rts0 }, { name: 'RTS0', data: other }] });
  const parsed = parseContainer(two);
  assert.is(parsed.parts.length, 2);
  assert.throws(() => findPart(parsed, 'RTS0'), (e: unknown) => e instanceof DecodeError && e.code === 'duplicate-part' && /parts 0 and 1 are both named "RTS0"/.test(e.message));
  assert.throws(() => readRootSignatureSource(two), (e: unknown) => e instanceof DecodeError && e.code === 'duplicate-part');
  const file = join(work, 'two-rts0.dxbc');
  writeFileSync(file, two);
  for (const args of [['extract', file, '-o', join(work, 'x.dxbc')], ['rootsig', 'decode', file], ['verify', join('corpus', heapShader('bindless_heap_sm66')), '--rootsig', file]]) {
    const r = await cli(...args);
    assert.is(r.status, 1, args.join(' '));
    assert.match(r.stderr, 'parts 0 and 1 are both named "RTS0"', args.join(' '));
  }
  assert.not.ok(existsSync(join(work, 'x.dxbc')));
  // a DXBC shader with both SHEX and SHDR has two token streams: refused too, not the first read
  const dxbc = parseContainer(corpusFile('shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe_2.dxbc'));
  const program = dxbc.parts.find((p) => p.name === 'SHEX' || p.name === 'SHDR')!;
  const both = writeContainer({ ...dxbc, parts: [...dxbc.parts, { name: program.name === 'SHEX' ? 'SHDR' : 'SHEX', data: program.data }] });
  assert.throws(() => shaderOf(parseContainer(both)), (e: unknown) => e instanceof DecodeError && e.code === 'duplicate-part' && /SHEX and SHDR/.test(e.message));
});

test.run();
