/**
 * `dxbin part list | extract | remove | add` and the library functions under them: parts move byte
 * for byte, the digest stays valid, PRIV stays last, ambiguity is refused; `part extract DXIL
 * --bitcode` writes the bitcode LLVM tools read, checked with llvm-19's llvm-dis where its LLVM
 * can read DXIL's LLVM 3.7-era bitcode (LLVM 19 cannot: the test then checks what it can and says so).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeContainerDigest, decodePart, digestStatus, extractPart, parseContainer, partIndex, programBitcode, withPart, withoutPart, writeContainer, DecodeError, DescriptionError, type Row } from '../src/index.js';
import { CORPUS, ROOT } from './helpers/corpus.js';
import { missingPath, requires } from './helpers/requires.js';

function dxbin(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const work = mkdtempSync(join(tmpdir(), 'dxbin-part-'));
const file = (name: string) => join(work, name);
const bytes = (path: string) => new Uint8Array(readFileSync(path));
const valid = (b: Uint8Array) => digestStatus(parseContainer(b).digest, computeContainerDigest(b)).status === 'valid';
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

const DEBUG = join(CORPUS, 'shaders/brawler/PSODefinition_BC7_ENCODE_BLOCK__BC7_ENCODE_BLOCK__COMPUTE_SHADER_BYTECODE.dxil');
const DXBC = join(CORPUS, 'shaders/vkd3d-proton/d3d12_enhanced_barriers__read_dxbc.dxbc');

test('part list: every part with offset, size and what the rows read it as (text and --json)', () => {
  const r = dxbin('part', 'list', DEBUG, '--json');
  assert.is(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.parts.map((p: { name: string; kind: string }) => `${p.name}:${p.kind}`), ['SFI0:featureInfo', 'ISG1:signature', 'OSG1:signature', 'PSV0:psv0', 'ILDB:program', 'STAT:program', 'ILDN:debugName', 'HASH:hash', 'DXIL:program']);
  const t = dxbin('part', 'list', DXBC);
  assert.match(t.stdout, /SHEX +392 +196 +SM5 bytecode \(tokens\)/);
});

test('part extract writes the data byte for byte; remove and add put it back with a valid digest', () => {
  const original = bytes(DEBUG);
  assert.is(dxbin('part', 'extract', 'ILDN', DEBUG, '-o', file('ildn.bin')).status, 0);
  assert.ok(same(bytes(file('ildn.bin')), extractPart(parseContainer(original), 'ILDN')));
  const rm = dxbin('part', 'remove', 'ILDN', DEBUG, '-o', file('no-ildn.dxil'));
  assert.is(rm.status, 0, rm.stderr);
  const removed = bytes(file('no-ildn.dxil'));
  assert.ok(valid(removed));
  assert.not.ok(parseContainer(removed).parts.some((p) => p.name === 'ILDN'));
  assert.is(removed.byteLength, original.byteLength - 44 - 8 - 4);
  const add = dxbin('part', 'add', 'ILDN', file('ildn.bin'), file('no-ildn.dxil'), '-o', file('ildn-again.dxil'));
  assert.is(add.status, 0, add.stderr);
  const again = bytes(file('ildn-again.dxil'));
  assert.ok(valid(again));
  assert.equal(parseContainer(again).parts.map((p) => p.name).at(-1), 'ILDN');
  assert.is((decodePart('ILDN', extractPart(parseContainer(again), 'ILDN')).blocks.debugName as Row).name, '2cd0b3927d86c13c8e2ab3ec4e527a9b.pdb');
  // --replace in place keeps the order and so the original bytes
  const rep = dxbin('part', 'add', 'ILDN', file('ildn.bin'), DEBUG, '--replace', '-o', file('replaced.dxil'));
  assert.is(rep.status, 0, rep.stderr);
  assert.ok(same(bytes(file('replaced.dxil')), original));
});

test('refusals: a taken name without --replace, a missing part, a bad name, --bitcode on a non-program part', () => {
  const taken = dxbin('part', 'add', 'ILDN', DEBUG, DEBUG, '-o', file('x.dxil'));
  assert.is(taken.status, 1);
  assert.match(taken.stderr, 'already has a ILDN part');
  const missing = dxbin('part', 'extract', 'SRCI', DEBUG, '-o', file('y.bin'));
  assert.is(missing.status, 1);
  assert.match(missing.stderr, 'no SRCI part');
  assert.is(dxbin('part', 'remove', 'TOOLONG', DEBUG, '-o', file('z.dxil')).status, 2);
  const notProgram = dxbin('part', 'extract', 'HASH', DEBUG, '--bitcode', '-o', file('h.bc'));
  assert.is(notProgram.status, 2);
  const dxbcStat = dxbin('part', 'extract', 'STAT', DXBC, '--bitcode', '-o', file('s.bc'));
  assert.is(dxbcStat.status, 1);
  assert.match(dxbcStat.stderr, 'DXBC statistics');
});

test('library: withPart puts a new part before PRIV (PRIV itself last), extractPart refuses duplicates', () => {
  const c = parseContainer(bytes(DXBC));
  const priv = withPart(c, 'PRIV', Uint8Array.of(1, 2, 3));
  const added = withPart(priv, 'XTRA', new Uint8Array(4));
  assert.equal(added.parts.map((p) => p.name).slice(-2), ['XTRA', 'PRIV']);
  const written = writeContainer(added, 'compute');
  assert.ok(valid(written));
  assert.ok(same(extractPart(parseContainer(written), 'PRIV'), Uint8Array.of(1, 2, 3)));
  assert.throws(() => withPart(c, 'SHEX', new Uint8Array(4)), (e: unknown) => e instanceof DescriptionError && e.code === 'bad-name');
  const twice = { ...c, parts: [...c.parts, c.parts[0]!] };
  assert.throws(() => extractPart(twice, 'RDEF'), (e: unknown) => e instanceof DecodeError && e.code === 'duplicate-part');
  assert.equal(withoutPart(twice, 'RDEF').parts.map((p) => p.name), ['ISGN', 'OSGN', 'SHEX', 'STAT']);
});

test('a name two parts share: part extract, remove and add --replace refuse it through the one library lookup, naming both parts and their offsets', () => {
  const c = parseContainer(bytes(DXBC));
  const twice = writeContainer({ ...c, parts: [...c.parts, { name: 'RDEF', data: Uint8Array.of(9, 9, 9, 9) }] });
  writeFileSync(file('two-rdef.dxbc'), twice);
  writeFileSync(file('four.bin'), new Uint8Array(4));
  const offsets = parseContainer(twice).layout.partOffsets;
  const first = c.parts.findIndex((p) => p.name === 'RDEF');
  const second = c.parts.length;
  const words = `parts ${first} and ${second} are both named "RDEF" (at bytes ${offsets[first]} and ${offsets[second]})`;
  // the library's own refusal, word for word, is what the CLI prints
  assert.throws(() => partIndex(parseContainer(twice), 'RDEF'), (e: unknown) => e instanceof DecodeError && e.code === 'duplicate-part' && e.detail.startsWith(words));
  for (const args of [['extract', 'RDEF', file('two-rdef.dxbc'), '-o', file('rdef.bin')], ['remove', 'RDEF', file('two-rdef.dxbc'), '-o', file('r.dxbc')], ['add', 'RDEF', file('four.bin'), file('two-rdef.dxbc'), '--replace', '-o', file('a.dxbc')]]) {
    const r = dxbin('part', ...args);
    assert.is(r.status, 1, args.join(' '));
    assert.match(r.stderr, words, args.join(' '));
  }
  assert.throws(() => withPart(parseContainer(twice), 'RDEF', new Uint8Array(4), { replace: true }), (e: unknown) => e instanceof DecodeError && e.code === 'duplicate-part');
});

const LLVM_DIS = '/usr/lib/llvm-19/bin/llvm-dis';
const withDis = requires('llvm-19 llvm-dis', missingPath(LLVM_DIS));

withDis('part extract DXIL --bitcode: the bitcode alone, as llvm-dis sees it', () => {
  const r = dxbin('part', 'extract', 'DXIL', DEBUG, '--bitcode', '-o', file('shader.bc'));
  assert.is(r.status, 0, r.stderr);
  const bc = bytes(file('shader.bc'));
  const dxil = extractPart(parseContainer(bytes(DEBUG)), 'DXIL');
  const header = decodePart('DXIL', dxil).blocks.header as Row;
  assert.equal(Array.from(bc.subarray(0, 4)), [0x42, 0x43, 0xc0, 0xde], 'bitcode magic BC C0 DE');
  assert.is(bc.byteLength, header.bitcodeSize);
  assert.is(bc.byteLength, dxil.byteLength - 24); // the program header and bitcode header are gone
  assert.ok(same(bc, programBitcode(dxil)));
  const dis = spawnSync(LLVM_DIS, [file('shader.bc'), '-o', '-'], { encoding: 'utf8' });
  if (dis.status === 0) {
    assert.match(dis.stdout, 'target triple = "dxil-ms-dx"');
  } else {
    // DXIL is LLVM 3.7-era bitcode; LLVM 19 refuses its data layout. It did read the stream up
    // to the module's data layout, which a file that is not bitcode never reaches.
    assert.match(dis.stderr, /Invalid ABI alignment|Unknown attribute kind|Invalid record|Malformed/);
    const broken = bc.slice();
    broken.set([0x58, 0x58, 0x58, 0x58]); // the same stream with its magic gone
    writeFileSync(file('not.bc'), broken);
    const garbage = spawnSync(LLVM_DIS, [file('not.bc'), '-o', '-'], { encoding: 'utf8' });
    assert.match(garbage.stderr, /Invalid bitcode signature|doesn't start with bitcode header/);
    console.log(`llvm-dis 19 cannot read DXIL's LLVM 3.7-era bitcode (${dis.stderr.trim().split('\n')[0]}); checked: magic BC C0 DE, size ${bc.byteLength} = the header's bitcodeSize, and llvm-dis gets past the bitcode signature`);
  }
});

test.run();
