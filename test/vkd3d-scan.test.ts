/**
 * Differential test (test/vkd3d-scan.test.ts) of the DXBC declaration decoder against vkd3d-shader's descriptor scan
 * (test/native/vkd3d-scan.c): on every corpus DXBC shader vkd3d reads, both list the same
 * descriptors (class, space, first register, count, UAV counter).
 */
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { bindingClass, parseContainer, shaderOf } from '../src/index.js';
import { corpusFiles } from './helpers/corpus.js';
import { requires } from './helpers/requires.js';
import { vkd3dScan, vkd3dScanMissing, type Vkd3dDescriptor } from './helpers/vkd3d-scan.js';

const t = requires('vkd3d', vkd3dScanMissing());
const CLASS = { SRV: 0, UAV: 1, CBV: 2, Sampler: 3 } as const;

t('the declarations agree with vkd3d_shader_scan on every corpus DXBC shader vkd3d reads', () => {
  const shaders = corpusFiles('shaders').filter((f) => {
    const c = parseContainer(f.bytes, { mode: 'lenient' });
    return c.parts.some((p) => p.name === 'SHEX' || p.name === 'SHDR');
  });
  assert.is(shaders.length, 1621);
  const answers = vkd3dScan(shaders.map((f) => f.bytes));
  let read = 0;
  const disagreements: string[] = [];
  shaders.forEach((f, i) => {
    const a = answers[i]!;
    if (!a.ok) return;
    read++;
    const ours = shaderOf(parseContainer(f.bytes, { mode: "lenient" })).program!.bindings.map((b) => {
      const d: Vkd3dDescriptor = {
        type: CLASS[bindingClass(b.resType)!],
        space: b.space,
        index: b.lowerBound,
        count: b.upperBound === 0xffffffff ? 0xffffffff : b.upperBound - b.lowerBound + 1,
        resourceType: 0,
        flags: b.counterUsed ? 1 : 0,
      };
      return d;
    });
    // vkd3d 1.2 reports every declaration with count 1 (array sizes came in later versions), so
    // counts are compared only where vkd3d states more than one; its UAV-counter flag means
    // "the program uses the counter", which is what counterUsed records.
    const key = (d: Vkd3dDescriptor, count: boolean) => `${d.type}:${d.space}:${d.index}:${count ? d.count : '*'}:${d.flags & 1}`;
    const counted = a.descriptors.some((d) => d.count !== 1);
    const theirs = a.descriptors.map((d) => key(d, counted)).sort().join(' ');
    const mine = ours.map((d) => key(d, counted)).sort().join(' ');
    if (theirs !== mine) disagreements.push(`${f.name}: vkd3d ${theirs} / dxbin ${mine}`);
  });
  assert.equal(disagreements.slice(0, 10), []);
  assert.is(read, 1581);
});

test.run();
