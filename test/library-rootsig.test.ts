/**
 * Root signature subobjects of DXIL libraries as first-class root signatures: extract, embed,
 * rootsig convert | validate | decompile on a library, the digest kept valid and every other byte kept.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerDigestMatches, decodeRootSignature, encodeRootSignature, findPart, parseContainer, type ParsedContainer } from '../src/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { decodeRdat, type RdatRawBytes, type RdatTable } from '../src/rdat/index.js';
import { subobjectRootSignatures, withSubobjectRootSignatures } from '../src/rdat/edit.js';
import { CORPUS, corpusFile, manifest } from './helpers/corpus.js';

const work = mkdtempSync(join(tmpdir(), 'dxbin-librs-'));
const EMBEDDED = 'shaders/vkd3d-proton/embedded_subobject_code_dxil.dxil';
const LRS = 'shaders/vkd3d-proton/local_root_signature_code_dxil.dxil';

async function cli(args: string[]) {
  const s = captureStreams();
  const exit = await run(args, s);
  return { exit, out: s.stdout(), err: s.stderr() };
}

/** Every part but RDAT byte for byte; in RDAT, the subobject table apart from root signatures and every other table equal. */
function assertOnlyRootSignaturesChanged(before: Uint8Array, after: Uint8Array, changed: readonly string[]) {
  const a = parseContainer(before);
  const b = parseContainer(after);
  assert.ok(containerDigestMatches(after), 'digest valid');
  assert.equal(b.parts.map((p) => p.name), a.parts.map((p) => p.name));
  a.parts.forEach((p, i) => {
    if (p.name !== 'RDAT') assert.equal(Buffer.from(b.parts[i]!.data).toString('hex'), Buffer.from(p.data).toString('hex'), p.name);
  });
  const ra = decodeRdat(findPart(a, 'RDAT')!.data);
  const rb = decodeRdat(findPart(b, 'RDAT')!.data);
  ra.parts.forEach((p, i) => {
    const q = rb.parts[i]!;
    if (p.type === 'RawBytes') assert.ok((q as RdatRawBytes).hex.length >= (p as RdatRawBytes).hex.length);
    else if (p.type !== 'SubobjectTable') assert.equal(q, p, String(p.type));
    else
      (p as RdatTable).records.forEach((r, k) => {
        const s = (q as RdatTable).records[k]!;
        const strip = (x: typeof r) => ({ ...x, RootSignature: undefined, refs: { ...x.refs, RootSignature: undefined } });
        assert.equal(strip(s), strip(r));
        if (!changed.includes(String(r.Name))) assert.is(s.RootSignature, r.RootSignature, String(r.Name));
      });
  });
}

test('the 8 corpus root signatures come out of their subobjects byte for byte (extract --subobject --raw)', async () => {
  const rows = manifest().filter((r) => r.what_it_is.includes('raw root signature bytes of RDAT subobject'));
  assert.is(rows.length, 8);
  for (const row of rows) {
    const [, kind, name, lib] = /RDAT subobject (\w+) "([^"]+)" in the DXIL library (\S+)/.exec(row.what_it_is)!;
    const out = join(work, `${name}.rts0`);
    const r = await cli(['extract', join(CORPUS, lib!), '--subobject', name!, '--raw', '-o', out]);
    assert.is(r.exit, 0, r.err);
    assert.equal(readFileSync(out), Buffer.from(corpusFile(row.file)), row.file);
    assert.ok(subobjectRootSignatures(corpusFile(lib!)).some((s) => s.name === name && s.kind === kind));
  }
});

test('rootsig convert LIB --to 1.0 converts every subobject, keeps every other byte, digest valid; back to 1.1 decodes the same', async () => {
  const out = join(work, 'v10.dxil');
  const r = await cli(['rootsig', 'convert', join(CORPUS, EMBEDDED), '--to', '1.0', '-o', out]);
  assert.is(r.exit, 0, r.err);
  const before = corpusFile(EMBEDDED);
  const after = new Uint8Array(readFileSync(out));
  const names = subobjectRootSignatures(before).map((s) => s.name);
  assertOnlyRootSignaturesChanged(before, after, names);
  for (const s of subobjectRootSignatures(after)) assert.is(decodeRootSignature(s.bytes).version, 1, s.name);
  const back = join(work, 'v11.dxil');
  assert.is((await cli(['rootsig', 'convert', out, '--to', '1.1', '-o', back])).exit, 0);
  const again = subobjectRootSignatures(new Uint8Array(readFileSync(back)));
  subobjectRootSignatures(before).forEach((s, i) => assert.equal(decodeRootSignature(again[i]!.bytes).parameters.map((p) => p.parameterType), decodeRootSignature(s.bytes).parameters.map((p) => p.parameterType)));
});

test('rootsig convert LIB --to 1.1 (what the subobjects are) gives back the same file', async () => {
  const out = join(work, 'same.dxil');
  assert.is((await cli(['rootsig', 'convert', join(CORPUS, LRS), '--to', '1.1', '-o', out])).exit, 0);
  assert.equal(readFileSync(out), Buffer.from(corpusFile(LRS)));
});

test('embed LIB --subobject NAME --rs RS replaces that root signature only (same size: in place; the RDAT part keeps its size)', async () => {
  const rs = join(work, 'other.rts0');
  // lrs_other1 (UAV u2) put into lrs_raygen: same size
  assert.is((await cli(['extract', join(CORPUS, EMBEDDED), '--subobject', 'lrs_other1', '--raw', '-o', rs])).exit, 0);
  const out = join(work, 'embedded.dxil');
  const r = await cli(['embed', join(CORPUS, EMBEDDED), '--subobject', 'lrs_raygen', '--rs', rs, '-o', out]);
  assert.is(r.exit, 0, r.err);
  const before = corpusFile(EMBEDDED);
  const after = new Uint8Array(readFileSync(out));
  assert.is(after.byteLength, before.byteLength);
  assertOnlyRootSignaturesChanged(before, after, ['lrs_raygen']);
  const got = subobjectRootSignatures(after).find((s) => s.name === 'lrs_raygen')!;
  assert.equal(Buffer.from(got.bytes), readFileSync(rs));
});

test('a replacement of another size is appended to RawBytes; the old run stays', () => {
  const before = corpusFile(LRS);
  const rs = decodeRootSignature(subobjectRootSignatures(before)[0]!.bytes);
  const smaller = encodeRootSignature({ ...rs, parameters: rs.parameters.slice(0, 1) });
  const after = withSubobjectRootSignatures(before, new Map([['LRS0', smaller]]));
  assertOnlyRootSignaturesChanged(before, after, ['LRS0']);
  const raw = (c: ParsedContainer) => (decodeRdat(findPart(c, 'RDAT')!.data).parts.find((p) => p.type === 'RawBytes') as RdatRawBytes).hex;
  assert.ok(raw(parseContainer(after)).startsWith(raw(parseContainer(before))));
  assert.equal(Buffer.from(subobjectRootSignatures(after)[0]!.bytes), Buffer.from(smaller));
});

test('rootsig validate and decompile LIB: one answer per subobject', async () => {
  const v = await cli(['rootsig', 'validate', join(CORPUS, EMBEDDED)]);
  assert.is(v.exit, 0);
  assert.match(v.out, /LocalRootSignature "lrs_other2": valid/);
  const d = await cli(['rootsig', 'decompile', join(CORPUS, LRS)]);
  assert.is(d.exit, 0);
  // LRS0 = { "UAV(u0, space = 1), RootConstants(num32BitConstants = 1, b0), RootConstants(num32BitConstants = 1, b1)" } (local_root_signature.lib_6_8.hlsl)
  assert.match(d.out, /\/\/ LocalRootSignature LRS0\nRootFlags\(LOCAL_ROOT_SIGNATURE\), UAV\(u0, space = 1\), RootConstants\(num32BitConstants = 1, b0\), RootConstants\(num32BitConstants = 1, b1\)/);
  const j = await cli(['rootsig', 'validate', join(CORPUS, LRS), '--json']);
  assert.equal((JSON.parse(j.out) as { subobjects: { name: string }[] }).subobjects.map((s) => s.name), ['LRS0', 'LRS1']);
});

test('a global root signature subobject with LOCAL_ROOT_SIGNATURE fails validate (rule 29)', async () => {
  const lib = corpusFile(EMBEDDED);
  const local = subobjectRootSignatures(lib).find((s) => s.name === 'lrs_raygen')!.bytes;
  const out = join(work, 'bad.dxil');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(out, withSubobjectRootSignatures(lib, new Map([['grs', local]])));
  const v = await cli(['rootsig', 'validate', out, '--target', 'all']);
  assert.is(v.exit, 1);
  assert.match(v.out, /GlobalRootSignature "grs": 1 violation\n\s+local-flag-in-global/);
});

test('an unknown subobject name, and a library without root signature subobjects, are input errors (exit 1)', async () => {
  const r = await cli(['extract', join(CORPUS, EMBEDDED), '--subobject', 'nope', '-o', join(work, 'x.dxbc')]);
  assert.is(r.exit, 1);
  assert.match(r.err, /no root signature subobject "nope" \(the library has GlobalRootSignature "grs"/);
  const d = await cli(['rootsig', 'decompile', join(CORPUS, 'shaders/vkd3d-proton/default_code_dxil.dxil')]);
  assert.is(d.exit, 1);
  assert.match(d.err, /no RTS0 part and no root signature subobject/);
});


test('a hand-written library description: a subobject Name that is no text is refused naming it (a number too, as encodeRdat refuses it), never listed as "7" or "[object Object]"', async () => {
  const { readLibraryRdat } = await import('../src/rdat/index.js');
  const { subobjectIndex } = await import('../src/rdat/edit.js');
  const { DescriptionError } = await import('../src/index.js');
  const lib = readLibraryRdat(corpusFile(EMBEDDED));
  const table = lib.rdat.parts.find((p) => p.type === 'SubobjectTable') as RdatTable;
  const first = subobjectRootSignatures(lib)[0]!;
  const at = first.subobject;
  const record = table.records[at] as Record<string, unknown>;
  const good = record.Name;
  // a number (once read as a StringBuffer offset, which encodeRdat refuses) and an object
  record.Name = 1_000_000;
  for (const call of [() => subobjectRootSignatures(lib), () => subobjectIndex(lib).one(String(good))]) {
    try {
      call();
      assert.unreachable('refused');
    } catch (e) {
      assert.instance(e, DescriptionError);
      assert.is((e as InstanceType<typeof DescriptionError>).path, `SubobjectTable[${at}].Name`);
      assert.is((e as InstanceType<typeof DescriptionError>).code, 'bad-type');
      assert.match((e as Error).message, /expected a string .*got 1000000/);
    }
  }
  record.Name = {};
  assert.throws(() => subobjectRootSignatures(lib), (e: unknown) => e instanceof DescriptionError && /expected a string/.test((e as Error).message));
  record.Name = good;
  assert.is(subobjectRootSignatures(lib)[0]!.name, first.name);
});

test.run();
