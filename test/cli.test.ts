/** The dxbin command as build steps call it: exit codes, messages, atomic outputs. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeContainerDigest, digestStatus, parseContainer, rootSignatureContainer } from '../src/index.js';
import { CORPUS, ROOT, hex } from './helpers/corpus.js';
import { FORMAT_VERSION } from '../src/cli/schema.js';

function dxbin(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const work = mkdtempSync(join(tmpdir(), 'dxbin-cli-'));
const file = (name: string) => join(work, name);
const bytes = (path: string) => new Uint8Array(readFileSync(path));
const digestIsValid = (b: Uint8Array) => {
  const c = parseContainer(b);
  return digestStatus(c.digest, computeContainerDigest(b)).status === 'valid';
};

const RS = join(CORPUS, 'rootsig/vkd3d__descriptor_table_flags_rootsig1.dxbc');
const SHADER = join(CORPUS, 'shaders/dxtk12/AlphaTestEffect_PSAlphaTestEqNe.dxbc');
const LLVM = join(CORPUS, 'rootsig/llvm__DXContainerTest__ParseRootConstant.dxbc');
const BROKEN = join(CORPUS, 'rootsig/llvm__DXContainerTest__ParseRootFlags_2_invalid_header.dxbc');

test('inspect prints header, parts, digest status and the root signature', () => {
  const r = dxbin('inspect', RS);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'container 1.0, 160 bytes, 1 part');
  assert.match(r.stdout, 'digest 8ffa7fe7d552b5fad4156e58266c184c: valid');
  assert.match(r.stdout, 'ranges[2] UAV base 3 count unbounded space 0 offset 44 flags DATA_STATIC');
});

test('inspect --json', () => {
  const r = dxbin('inspect', SHADER, '--json');
  assert.is(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.digest.status, 'valid');
  assert.ok(j.parts.some((p: { name: string }) => p.name === 'RTS0'));
  assert.ok(j.rootSignature.version === '1.0' || j.rootSignature.version === '1.1');
});

test('bad input: exit 1 and one line naming file, field and byte offset', () => {
  const r = dxbin('inspect', BROKEN);
  assert.is(r.status, 1);
  assert.is(r.stderr, `dxbin: ${BROKEN}: declares 68 bytes, the data has 64 (container.header.containerSize at byte 24)\n`);
  const garbage = file('garbage.rts0');
  writeFileSync(garbage, Uint8Array.of(1, 0, 0, 0, 9, 0, 0, 0));
  const g = dxbin('rootsig', 'decode', garbage, '--json');
  assert.is(g.status, 1);
  assert.is(g.stderr, `dxbin: ${garbage}: needs 24 bytes, only 8 left (RTS0.header at byte 0)\n`);
});

test('usage errors exit 2', () => {
  assert.is(dxbin('inspect').status, 2);
  assert.is(dxbin('frobnicate').status, 2);
  assert.is(dxbin('hash', RS, '--fix').status, 2);
  assert.is(dxbin('rootsig', 'validate', RS, '--target', 'nope').status, 2, 'option values are checked');
});

test('rootsig decode --json then encode gives back the container, digest included; --raw the bare part', () => {
  const json = file('rs.json');
  assert.is(dxbin('rootsig', 'decode', RS, '-o', json).status, 0);
  const out = file('rs.dxbc');
  const r = dxbin('rootsig', 'encode', json, '-o', out);
  assert.is(r.status, 0, r.stderr);
  assert.is(hex(bytes(out)), hex(bytes(RS)));
  assert.is(dxbin('rootsig', 'encode', json, '-o', file('rs.rts0'), '--raw').status, 0);
  assert.is(hex(bytes(file('rs.rts0'))), hex(parseContainer(bytes(RS)).parts[0]!.data));
  const fromPart = dxbin('rootsig', 'decode', file('rs.rts0'));
  assert.equal(JSON.parse(fromPart.stdout), JSON.parse(readFileSync(json, 'utf8')));
  const line = dxbin('rootsig', 'decode', file('rs.rts0'), '--json');
  assert.equal(JSON.parse(line.stdout), { formatVersion: FORMAT_VERSION, file: file('rs.rts0'), ok: true, rootSignature: JSON.parse(readFileSync(json, 'utf8')) });
});

test('rootsig encode reports JSON mistakes with their path', () => {
  const bad = file('bad.json');
  writeFileSync(bad, JSON.stringify({ version: '1.1', parameters: [{ parameterType: 'CBV', descriptor: { shaderRegister: -1 } }] }));
  const r = dxbin('rootsig', 'encode', bad, '-o', file('never.dxbc'));
  assert.is(r.status, 1);
  assert.is(r.stderr, `dxbin: ${bad}: -1 does not fit in 32 bits ($.parameters[0].descriptor.shaderRegister)\n`);
  assert.not.ok(readdirSync(work).includes('never.dxbc'));
});

test('hash --check and --fix', () => {
  assert.is(dxbin('hash', RS, '--check').status, 0);
  const r = dxbin('hash', LLVM, '--check');
  assert.is(r.status, 1);
  assert.match(r.stdout, 'status   invalid');
  const fixed = file('fixed.dxbc');
  assert.is(dxbin('hash', LLVM, '--fix', '-o', fixed).status, 0);
  assert.is(dxbin('hash', fixed, '--check').status, 0);
  assert.is(hex(bytes(fixed).subarray(20)), hex(bytes(LLVM).subarray(20)));
});

test('extract, strip and embed: embed(strip(shader), extract(shader)) is the shader again', () => {
  const rs = file('extracted.dxbc');
  assert.is(dxbin('extract', SHADER, '-o', rs).status, 0);
  const part = parseContainer(bytes(SHADER)).parts.find((p) => p.name === 'RTS0')!.data;
  assert.is(hex(bytes(rs)), hex(rootSignatureContainer(part)));
  const stripped = file('stripped.dxbc');
  assert.is(dxbin('strip', SHADER, '-o', stripped).status, 0);
  assert.not.ok(parseContainer(bytes(stripped)).parts.some((p) => p.name === 'RTS0'));
  assert.ok(digestIsValid(bytes(stripped)), 'a valid digest is recomputed');
  const again = file('again.dxbc');
  assert.is(dxbin('embed', stripped, '--rs', rs, '-o', again).status, 0);
  assert.is(hex(bytes(again)), hex(bytes(SHADER)));
  const viaPart = file('again2.dxbc');
  writeFileSync(file('part.rts0'), part);
  assert.is(dxbin('embed', stripped, '--rs', file('part.rts0'), '-o', viaPart).status, 0);
  assert.is(hex(bytes(viaPart)), hex(bytes(SHADER)));
  writeFileSync(file('junk.rts0'), Uint8Array.of(0xff, 0));
  const junk = dxbin('embed', stripped, '--rs', file('junk.rts0'), '-o', file('never.dxbc'));
  assert.is(junk.status, 1);
  assert.is(junk.stderr, `dxbin: ${file('junk.rts0')}: not a DXBC/DXIL container nor an RTS0 part (it looks like binary data)\n`, 'the error names the root signature file');
  writeFileSync(file('cut.rts0'), part.subarray(0, 30));
  const cut = dxbin('embed', stripped, '--rs', file('cut.rts0'), '-o', file('never.dxbc'));
  assert.is(cut.status, 1);
  assert.match(cut.stderr, `dxbin: ${file('cut.rts0')}: `);
});

test('an edited container with a wrong digest gets a zero digest; a sentinel is kept', () => {
  const zeroed = file('zero-digest.dxbc');
  const b = bytes(SHADER);
  b.fill(0, 4, 20);
  writeFileSync(zeroed, b);
  assert.is(dxbin('strip', zeroed, '-o', file('z.dxbc')).status, 0);
  assert.is(hex(bytes(file('z.dxbc')).subarray(4, 20)), '00'.repeat(16));
  b.fill(1, 4, 20);
  writeFileSync(zeroed, b);
  assert.is(dxbin('strip', zeroed, '-o', file('z.dxbc')).status, 0);
  assert.is(hex(bytes(file('z.dxbc')).subarray(4, 20)), '01'.repeat(16));
  b[4] = 7;
  writeFileSync(zeroed, b);
  assert.is(dxbin('strip', zeroed, '-o', file('z.dxbc')).status, 0);
  assert.is(hex(bytes(file('z.dxbc')).subarray(4, 20)), '00'.repeat(16));
});

test('an input is never overwritten and no temporary file is left behind', () => {
  const copy = file('input.dxbc');
  copyFileSync(SHADER, copy);
  const r = dxbin('strip', copy, '-o', copy);
  assert.is(r.status, 2);
  assert.match(r.stderr, 'refusing to overwrite the input');
  assert.is(hex(bytes(copy)), hex(bytes(SHADER)));
  assert.is(dxbin('hash', copy, '--fix', '-o', join(work, '.', 'input.dxbc')).status, 2);
  assert.equal(readdirSync(work).filter((f) => f.endsWith('.tmp')), []);
});

test('rootsig convert writes the kind of file it read and reports on stderr; --strict refuses losses', () => {
  const out = file('converted.dxbc');
  const r = dxbin('rootsig', 'convert', RS, '--to', '1.0', '-o', out);
  assert.is(r.status, 0, r.stderr);
  assert.is(
    r.stderr.replaceAll(`dxbin: ${RS}: warning: `, ''),
    'dropped RTS0.parameters[0].ranges[0].flags = 1: DESCRIPTORS_VOLATILE cannot be stored in version 1.0, which means DESCRIPTORS_VOLATILE | DATA_VOLATILE\n' +
      'dropped RTS0.parameters[0].ranges[2].flags = 8: DATA_STATIC cannot be stored in version 1.0, which means DESCRIPTORS_VOLATILE | DATA_VOLATILE\n',
  );
  assert.ok(digestIsValid(bytes(out)));
  assert.is(hex(bytes(out).subarray(44, 48)), '01000000', 'RTS0 version 1');
  const strict = dxbin('rootsig', 'convert', RS, '--to', '1.0', '--strict', '-o', file('strict.dxbc'));
  assert.is(strict.status, 1);
  assert.match(strict.stderr, 'loses information (2 dropped, 0 not expressible); nothing written');
  assert.match(strict.stderr, `dxbin: ${RS}: dropped RTS0.parameters[0].ranges[0].flags`, '--strict: the losses are errors, each naming the file');
  const msvc = dxbin('rootsig', 'convert', RS, '--to', '1.0', '--diagnostics-format', 'msvc', '-o', file('msvc.dxbc'));
  assert.is(msvc.stderr.trimEnd().split('\n').filter((l) => l.startsWith(`${RS}: warning conversion-dropped: dropped RTS0.parameters`)).length, 2, msvc.stderr);
  assert.not.ok(readdirSync(work).includes('strict.dxbc'));
  // a bare part in, a bare part out; a shader in, the shader with its RTS0 converted out
  writeFileSync(file('p.rts0'), parseContainer(bytes(RS)).parts[0]!.data);
  assert.is(dxbin('rootsig', 'convert', file('p.rts0'), '--to', '1.2', '--strict', '-o', file('p12.rts0')).status, 0);
  assert.is(hex(bytes(file('p12.rts0')).subarray(0, 4)), '03000000');
  assert.is(dxbin('rootsig', 'convert', SHADER, '--to', '1.1', '-o', file('shader11.dxbc')).status, 0);
  const parts = parseContainer(bytes(file('shader11.dxbc'))).parts.map((p) => p.name);
  assert.equal(parts, parseContainer(bytes(SHADER)).parts.map((p) => p.name));
  assert.is(dxbin('rootsig', 'convert', RS, '--to', '2.0', '-o', file('x.dxbc')).status, 2);
});

test('rootsig validate: exit 0 when valid, 1 with one line per violation', () => {
  assert.is(dxbin('rootsig', 'validate', RS).status, 0);
  const bad = file('invalid.json');
  writeFileSync(bad, JSON.stringify({ version: '1.1', parameters: [{ parameterType: 'CBV', descriptor: { shaderRegister: 0 } }, { parameterType: 'CBV', descriptor: { shaderRegister: 0, flags: 1 } }] }));
  assert.is(dxbin('rootsig', 'encode', bad, '-o', file('invalid.dxbc')).status, 0);
  const r = dxbin('rootsig', 'validate', file('invalid.dxbc'));
  assert.is(r.status, 1);
  assert.is(
    r.stdout,
    'root-descriptor-flags-unsupported RTS0.parameters[1].descriptor.flags Unsupported bit-flag set (root descriptor flags 1).\n' +
      'register-overlap RTS0.parameters[1].descriptor Shader register range of type CBV (root parameter [1], visibility ALL) overlaps with another shader register range (root parameter [0], visibility ALL).\n',
  );
  const msvc = dxbin('rootsig', 'validate', file('invalid.dxbc'), '--diagnostics-format', 'msvc');
  assert.equal(
    msvc.stderr.trimEnd().split('\n').map((l) => l.slice(0, l.indexOf(':', file('invalid.dxbc').length + 2))),
    [`${file('invalid.dxbc')}: error root-descriptor-flags-unsupported`, `${file('invalid.dxbc')}: error register-overlap`],
    'one msvc diagnostic per violation, naming the file',
  );
  const j = dxbin('rootsig', 'validate', file('invalid.dxbc'), '--json', '--target', 'dxc');
  assert.is(JSON.parse(j.stdout).violations.length, 2);
  assert.is(dxbin('rootsig', 'validate', RS, '--target', 'nope').status, 2);
});

test('rootsig compile (string, --define, -E) and decompile', () => {
  const out = file('e1.dxbc');
  assert.is(dxbin('rootsig', 'compile', 'CBV(b3, space = 0)', '--version', '1.0', '-o', out).status, 0);
  assert.is(hex(bytes(out).subarray(4, 20)), '7e08c58d0dbfb95ce35a462ee0e09162');
  const hlsl = file('shader.hlsl');
  writeFileSync(hlsl, '#define MainRS "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), " \\\n  "CBV(b0)"\n[RootSignature(MainRS)]\nfloat4 main() : SV_Target { return 0; }\n');
  assert.is(dxbin('rootsig', 'compile', '--file', hlsl, '--define', 'MainRS', '--version', '1.1', '-o', file('a.dxbc')).status, 0);
  assert.is(dxbin('rootsig', 'compile', '--file', hlsl, '-E', 'main', '--version', '1.1', '-o', file('b.dxbc')).status, 0);
  assert.is(hex(bytes(file('a.dxbc'))), hex(bytes(file('b.dxbc'))));
  const d = dxbin('rootsig', 'decompile', file('a.dxbc'));
  assert.is(d.stdout, 'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), CBV(b0)\n');
  const m = dxbin('rootsig', 'decompile', RS, '--multiline');
  assert.match(m.stdout, 'DescriptorTable(\n    CBV(b1, space = 7, flags = DESCRIPTORS_VOLATILE),');
  const bad = dxbin('rootsig', 'compile', 'CBV(t0)', '--version', '1.1', '-o', file('bad.dxbc'));
  assert.is(bad.status, 1);
  assert.is(bad.stderr, "dxbin: <string>:1:5: error: root signature error - Incorrect register type 't0' in CBV (expected b#)\n");
  assert.is(dxbin('rootsig', 'compile', '--file', hlsl, '--version', '1.1', '-o', file('c.dxbc')).status, 2, '--file needs --define or -E');
  assert.is(dxbin('rootsig', 'compile', '--file', hlsl, '-E', 'main', '--version', '1.1', '-o', hlsl).status, 2, 'never over the input');
});

test('ddi layout, encode/decode, validate and node-outputs', () => {
  const layout = dxbin('ddi', 'layout', 'node-output', '--abi', 'x86', '--json');
  assert.is(JSON.parse(layout.stdout).size, 48);
  const json = file('output.json');
  writeFileSync(json, JSON.stringify({
    FinalName: { Name: 'Thread0', ArrayIndex: 0 }, OutputIndex: 0, NodeIOKind: 'NODE_OUTPUT', NodeIOFlags: [], RecordSizeInBytes: 8,
    bAllowSparseNodes: 0, pRecordDispatchGrid: null, pMaxRecords: 256, pMaxRecordsSharedWithOutputIndex: null, ArraySize: 1, pOutputs: null,
  }));
  assert.is(dxbin('ddi', 'encode', 'node-output', json, '--abi', 'x64', '-o', file('output.bin')).status, 0);
  const back = dxbin('ddi', 'decode', 'node-output', file('output.bin'), '--abi', 'x64');
  assert.equal(JSON.parse(back.stdout), JSON.parse(readFileSync(json, 'utf8')));
  assert.equal(JSON.parse(dxbin('ddi', 'decode', 'node-output', file('output.bin'), '--json').stdout).value, JSON.parse(readFileSync(json, 'utf8')));
  assert.is(dxbin('ddi', 'validate', 'node-output', json).status, 0);
  writeFileSync(file('bad-output.json'), readFileSync(json, 'utf8').replace('"ArraySize":1', '"ArraySize":0'));
  const bad = dxbin('ddi', 'validate', 'node-output', file('bad-output.json'));
  assert.is(bad.status, 1);
  assert.is(bad.stdout, 'array-size-zero D3D12DDI_NODE_OUTPUT_0108.ArraySize ArraySize must be at least 1\n');
  writeFileSync(file('cut.bin'), bytes(file('output.bin')).subarray(0, 40));
  const broken = dxbin('ddi', 'decode', 'node-output', file('cut.bin'), '--abi', 'x64');
  assert.is(broken.status, 1);
  assert.is(broken.stderr, `dxbin: ${file('cut.bin')}: needs 80 bytes, only 40 left (D3D12DDI_NODE_OUTPUT_0108 at byte 0)\n`);
  const nodes = dxbin('ddi', 'node-outputs', join(CORPUS, 'shaders/vkd3d-proton/two_level_thread_code_dxil.dxil'));
  assert.match(nodes.stdout, '[1] -> Thread1[0] NODE_OUTPUT record 8 B, MaxRecordsSharedWith output 0, ArraySize 1');
  assert.is(dxbin('ddi', 'layout', 'no-such-struct').status, 2);
});

test.run();
