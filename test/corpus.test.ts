/** Every real blob in corpus/: containers, digests and root signatures, byte for byte. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  computeContainerDigest,
  decodeRootSignature,
  digestStatus,
  encodeRootSignature,
  looksLikeContainer,
  parseContainer,
  rootSignatureContainer,
  rootSignatureFromJson,
  rootSignatureToJson,
  writeContainer,
} from '../src/index.js';
import { CORPUS, corpusFiles, hex, isLlvmTestBlob, manifest } from './helpers/corpus.js';
import { fromOracleJson } from './helpers/oracle-json.js';
import { decodeWithBinaryParser } from './helpers/peer-decoders.js';

const rootsigs = corpusFiles('rootsig');
const shaders = corpusFiles('shaders');
const containers = [...rootsigs, ...shaders].filter((f) => looksLikeContainer(f.bytes));
const microsoftContainers = containers.filter((f) => !isLlvmTestBlob(f.name));

test('the corpus is what MANIFEST.tsv lists', async () => {
  const { createHash } = await import('node:crypto');
  const rows = manifest();
  assert.ok(rows.length > 2000, `${rows.length} rows`);
  for (const row of rows) {
    const digest = createHash('sha256').update(readFileSync(join(CORPUS, row.file))).digest('hex');
    assert.is(digest, row.sha256, row.file);
  }
});

test('every container parses strictly, except the LLVM negative test', () => {
  const failed: string[] = [];
  for (const f of containers) {
    try {
      parseContainer(f.bytes);
    } catch {
      failed.push(f.name);
    }
  }
  assert.equal(failed, ['rootsig/llvm__DXContainerTest__ParseRootFlags_2_invalid_header.dxbc']);
});

test('every digest written by Microsoft tools verifies; LLVM test blobs carry fake digests', () => {
  const counts = { valid: 0, sentinel: 0 };
  for (const f of microsoftContainers) {
    const c = parseContainer(f.bytes);
    const s = digestStatus(c.digest, computeContainerDigest(f.bytes, c.layout.declaredSize));
    assert.ok(s.status !== 'invalid', `${f.name}: digest ${hex(c.digest)} is wrong`);
    counts[s.status as 'valid' | 'sentinel']++;
  }
  assert.ok(counts.valid > 2000, `${counts.valid} valid digests`);
  for (const f of containers.filter((c) => isLlvmTestBlob(c.name) && !c.name.includes('invalid_header'))) {
    const c = parseContainer(f.bytes);
    assert.is(digestStatus(c.digest, computeContainerDigest(f.bytes, c.layout.declaredSize)).status, 'invalid', f.name);
  }
});

test('every container re-written gives back the same bytes, digest included', () => {
  for (const f of containers.filter((c) => !c.name.includes('invalid_header'))) {
    const c = parseContainer(f.bytes);
    const original = f.bytes.subarray(0, c.layout.declaredSize); // an LLVM test buffer has 11 bytes past the container
    assert.is(hex(writeContainer(c, c.digest)), hex(original), f.name);
    if (!isLlvmTestBlob(f.name)) {
      const s = digestStatus(c.digest, computeContainerDigest(original));
      if (s.status === 'valid') assert.is(hex(writeContainer(c, 'compute')), hex(original), `${f.name} with a recomputed digest`);
    }
  }
});

function everyRts0(): { name: string; part: Uint8Array; container?: Uint8Array }[] {
  const out: { name: string; part: Uint8Array; container?: Uint8Array }[] = [];
  for (const f of [...rootsigs, ...shaders]) {
    if (f.name.includes('invalid_header')) continue;
    if (!looksLikeContainer(f.bytes)) out.push({ name: f.name, part: f.bytes });
    else {
      const part = parseContainer(f.bytes).parts.find((p) => p.name === 'RTS0');
      if (part) out.push({ name: f.name, part: part.data, container: f.bytes });
    }
  }
  return out;
}

test('every Microsoft-made RTS0 decodes and decode -> JSON -> encode gives the same bytes', () => {
  const all = everyRts0().filter((b) => !isLlvmTestBlob(b.name));
  assert.is(all.length, 923, 'RTS0 parts made by Microsoft tools');
  for (const { name, part } of all) {
    const rs = decodeRootSignature(part);
    const json = JSON.parse(JSON.stringify(rootSignatureToJson(rs)));
    assert.is(hex(encodeRootSignature(rootSignatureFromJson(json))), hex(part), name);
  }
});

test('root-signature-only containers are reproduced from the description, digest included', () => {
  let n = 0;
  for (const f of rootsigs.filter((r) => looksLikeContainer(r.bytes) && !isLlvmTestBlob(r.name))) {
    const part = parseContainer(f.bytes).parts[0]!.data;
    assert.is(hex(rootSignatureContainer(encodeRootSignature(decodeRootSignature(part)))), hex(f.bytes), f.name);
    n++;
  }
  assert.is(n, 43);
});

test('LLVM test blobs decode to what their tests assert; re-encoding gives the canonical layout (blob and spec disagree on layout only)', () => {
  const blob = rootsigs.find((f) => f.name.endsWith('RootParameters_offset36.dxbc'))!;
  const part = parseContainer(blob.bytes).parts[0]!.data;
  const rs = decodeRootSignature(part);
  assert.equal(rs, {
    version: 2,
    flags: 17,
    parameters: [{ parameterType: 1, shaderVisibility: 2, constants: { shaderRegister: 15, registerSpace: 14, num32BitValues: 16 } }],
    staticSamplers: [],
  });
  const again = encodeRootSignature(rs);
  assert.is.not(hex(again), hex(part), 'the LLVM blob has padding and 45 trailing bytes');
  assert.equal(decodeRootSignature(again), rs);
});

test('decodes equal the D3D12 descriptions transcribed next to the blobs in their sources', () => {
  let n = 0;
  for (const f of rootsigs) {
    const jsonPath = join(CORPUS, `${f.name}.json`);
    if (!existsSync(jsonPath)) continue;
    const expected = fromOracleJson(JSON.parse(readFileSync(jsonPath, 'utf8')));
    const part = parseContainer(f.bytes).parts[0]!.data;
    assert.equal(decodeRootSignature(part), expected, f.name);
    assert.is(hex(encodeRootSignature(expected)), hex(part), `${f.name}: encoding the transcription`);
    n++;
  }
  assert.is(n, 25);
});

test('an independent binary-parser decoder agrees with dxbin on every corpus RTS0 (LLVM layouts included)', () => {
  const all = everyRts0();
  for (const { name, part } of all) assert.equal(decodeWithBinaryParser(part), decodeRootSignature(part), name);
  assert.is(all.length, 930);
});

test.run();
