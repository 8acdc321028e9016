/**
 * Differential tests against vkd3d (libvkd3d-shader through test/native/vkd3d-harness.c): seeded
 * random descriptions serialized by vkd3d come back byte-identical through dxbin, dxbin encodes
 * them to vkd3d's bytes and converts them as vkd3d does, and vkd3d decodes what dxbin writes to
 * the same description. Needs libvkd3d-dev, pkg-config and a C compiler; without them every test
 * here is reported as skipped (a failure under DXBIN_REQUIRE_ALL=1).
 */
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { test as uvu } from 'uvu';
import {
  compileRootSignature,
  printRootSignature,
  convertRootSignature,
  decodeRootSignature,
  encodeRootSignature,
  parseContainer,
  rootSignatureContainer,
  rootSignatureFromJson,
  rootSignatureToJson,
  writeContainer,
  type RootSignature,
} from '../src/index.js';
import { corpusFiles, hex, isLlvmTestBlob } from './helpers/corpus.js';
import { rootSignatureArbitrary } from './helpers/arbitraries.js';
import { randomRootSignature } from './helpers/random-rootsig.js';
import { fromDesc, onlyPart, toDesc, vkd3dConvert, vkd3dMissing, vkd3dParse, vkd3dSerialize } from './helpers/vkd3d.js';
import { requires } from './helpers/requires.js';

const test = requires('vkd3d (libvkd3d-dev, pkg-config, a C compiler)', vkd3dMissing());
const COUNT = Number(process.env.DXBIN_VKD3D_COUNT ?? 1000);

/** The answer's DESC, or a failure that says what vkd3d refused and why. */
function ok(answer: { ok: true; value: string } | { ok: false; error: string }, what: string): string {
  if (!answer.ok) assert.unreachable(`${what}: vkd3d refused: ${answer.error}`);
  return (answer as { value: string }).value;
}

for (const [version, seed] of [[1, 20261129], [2, 20261130]] as const) {
  test(`${COUNT} random version 1.${version - 1} root signatures serialized by vkd3d: dxbin reads and writes the same bytes, converts them as vkd3d does, and decompiles them to HLSL that compiles back`, () => {
    const generated = Array.from({ length: COUNT }, (_, i) => randomRootSignature(seed, i, [version]));
    const containers = vkd3dSerialize(generated).map((c, i) => {
      if (typeof c === 'string') assert.unreachable(`item ${i} (randomRootSignature(${seed}, ${i})): vkd3d would not serialize it: ${c}`);
      return c as Uint8Array;
    });
    // the generator and the harness agree before dxbin is asked anything
    const parsed = vkd3dParse(containers);
    const converted = vkd3dConvert(containers, version === 1 ? '1.1' : '1.0');
    for (let i = 0; i < COUNT; i++) {
      const name = `item ${i} (randomRootSignature(${seed}, ${i}, [${version}]))`;
      assert.is(ok(parsed[i]!, name), toDesc(generated[i]!), `${name}: vkd3d decodes its own blob to the generated description`);
      const dxbc = containers[i]!;
      const rts0 = onlyPart(dxbc);
      const expected = fromDesc(ok(parsed[i]!, name));
      const container = parseContainer(dxbc);
      assert.is(hex(container.parts[0]!.data), hex(rts0), `${name}: RTS0 part`);
      const decoded = decodeRootSignature(rts0);
      assert.equal(decoded, expected, `${name}: dxbin decodes vkd3d's blob to the description`);
      assert.is(hex(writeContainer(container, container.digest)), hex(dxbc), `${name}: container rewrite`);
      assert.is(hex(rootSignatureContainer(encodeRootSignature(expected))), hex(dxbc), `${name}: dxbin encodes the description to vkd3d's container, digest included`);
      const viaJson = rootSignatureFromJson(JSON.parse(JSON.stringify(rootSignatureToJson(decoded))));
      assert.is(hex(encodeRootSignature(viaJson)), hex(rts0), `${name}: through the JSON form`);
      // vkd3d_shader_convert_root_signature against convertRootSignature(..., { semantics: 'vkd3d' })
      const ours = convertRootSignature(decoded, version === 1 ? 2 : 1, { semantics: 'vkd3d' }).rootSignature;
      assert.is(toDesc(ours), ok(converted[i]!, `${name}: conversion`), `${name}: dxbin converts to 1.${2 - version} as vkd3d does`);
      // and through the HLSL language: compile(decompile(blob)) == blob
      const text = printRootSignature(decoded);
      assert.is(hex(encodeRootSignature(compileRootSignature(text, { version: decoded.version, validate: false }))), hex(rts0), `${name}: HLSL ${text}`);
    }
  });
}

test('vkd3d decodes random dxbin encodings (any u32 values) to the same description', () => {
  const samples = fc.sample(rootSignatureArbitrary([1, 2]), { numRuns: 150, seed: 11 });
  const answers = vkd3dParse(samples.map((rs) => rootSignatureContainer(encodeRootSignature(rs))));
  samples.forEach((rs: RootSignature, i) => {
    const what = `sample ${i} of rootSignatureArbitrary([1, 2]) (fast-check seed 11): ${JSON.stringify(rootSignatureToJson(rs))}`;
    assert.is(ok(answers[i]!, what), toDesc(rs), `${what}: vkd3d's decode of dxbin's blob`);
  });
});

test('vkd3d and dxbin decode every Microsoft-made corpus root signature alike', () => {
  const files = corpusFiles('rootsig').filter((f) => !isLlvmTestBlob(f.name) && !f.name.includes('rs_blob_dxbc')); // vkd3d 1.2 cannot read the 1.2 blob
  // a raw part is wrapped in a container (with its digest) for vkd3d, which checks the digest
  const containers = files.map((f) => (f.name.endsWith('.rts0') ? rootSignatureContainer(f.bytes) : f.bytes));
  const answers = vkd3dParse(containers);
  files.forEach((f, i) => {
    const part = f.name.endsWith('.rts0') ? f.bytes : parseContainer(f.bytes).parts[0]!.data;
    assert.equal(decodeRootSignature(part), fromDesc(ok(answers[i]!, f.name)), `${f.name}: dxbin and vkd3d decode alike`);
  });
  assert.is(files.length, 102, 'the 43 Microsoft containers and 60 raw parts, less the 1.2 blob');
});

uvu.run();
