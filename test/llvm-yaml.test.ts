/**
 * The LLVM YAML cases (corpus/yaml): each document is turned into bytes as yaml2obj would write
 * them, decoded by dxbin, and the decoded values are compared with the test's expected obj2yaml.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { encodeRootSignature, parseContainer, readRootSignature, writeContainer } from '../src/index.js';
import { CORPUS } from './helpers/corpus.js';
import { describedRootSignature, yaml2objPart } from './helpers/llvm-yaml.js';

/**
 * The expected files are the tests' CHECK lines: the first at column 0, the rest indented by as
 * much as the test happened to use (2 to 4 spaces). Re-indent them under "- " as YAML needs.
 */
function dedentCheckLines(text: string): string {
  const [first, ...rest] = text.trimEnd().split('\n');
  const indent = Math.min(...rest.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return [first, ...rest.map((l) => `  ${l.slice(indent)}`)].join('\n');
}

const dir = join(CORPUS, 'yaml');
const cases = readdirSync(dir).filter((f) => f.endsWith('.yaml') && !f.endsWith('.expected.yaml'));

test('eight LLVM YAML cases are present', () => assert.is(cases.length, 8));

for (const file of cases) {
  test(file, () => {
    const doc = parseAllDocuments(readFileSync(join(dir, file), 'utf8'))[0]!.toJS();
    const part = doc.Parts[0];
    const input = part.RootSignature;
    const expectedPart = (() => {
      const e = parse(dedentCheckLines(readFileSync(join(dir, file.replace(/\.yaml$/, '.expected.yaml')), 'utf8'))) as unknown;
      return (Array.isArray(e) ? e[0] : e) as Record<string, any>;
    })();
    const expected = expectedPart.RootSignature;

    const rts0 = yaml2objPart(encodeRootSignature(describedRootSignature(input)), input, part.Size);
    const container = writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RTS0', data: rts0 }] }, 'zero');
    const decodedPart = parseContainer(container).parts[0]!.data;
    const { rootSignature, layout } = readRootSignature(decodedPart);

    assert.is(decodedPart.byteLength, expectedPart.Size, 'Size');
    assert.is(rootSignature.version, expected.Version, 'Version');
    assert.is(rootSignature.parameters.length, expected.NumRootParameters ?? expected.NumParameters, 'NumRootParameters');
    assert.is(layout.parametersOffset, expected.RootParametersOffset, 'RootParametersOffset');
    assert.is(rootSignature.staticSamplers.length, expected.NumStaticSamplers, 'NumStaticSamplers');
    assert.is(layout.staticSamplersOffset, expected.StaticSamplersOffset, 'StaticSamplersOffset');
    assert.equal(rootSignature, describedRootSignature(expected), 'decoded description');
    (expected.Parameters ?? []).forEach((p: Record<string, any>, i: number) => {
      if (p.Table?.RangesOffset !== undefined) assert.is(layout.rangeOffsets[i], p.Table.RangesOffset, `parameters[${i}] RangesOffset`);
      if (p.Table?.NumRanges !== undefined) assert.is((rootSignature.parameters[i] as { ranges: unknown[] }).ranges.length, p.Table.NumRanges);
    });
  });
}

test.run();
