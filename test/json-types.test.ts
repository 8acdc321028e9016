/**
 * The typed JSON form: a TypeScript consumer reads `json.parameters.length`, narrows a parameter by
 * `parameterType` and is told about keys the form does not have (tsc on a consumer file, strict,
 * nodenext); and the types say what the rows make rootSignatureToJson return on every corpus blob
 * (each key it writes is a property of the type, each required property is written).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readRootSignatureSource, rootSignatureToJson } from '../src/index.js';
import { generateJsonTypes } from '../scripts/gen-json-types.js';
import { ROOT, corpusFiles } from './helpers/corpus.js';

test('a TypeScript consumer type-checks against RootSignatureJson (tsc, strict, nodenext)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-consumer-'));
  const index = pathToFileURL(join(ROOT, 'src/index.js')).pathname;
  const ok = join(dir, 'consumer.ts');
  writeFileSync(
    ok,
    [
      `import { readRootSignatureSource, rootSignatureToJson, type RootSignatureJson, type DescriptorRangeJson } from ${JSON.stringify(index)};`,
      'declare const bytes: Uint8Array;',
      'const json: RootSignatureJson = rootSignatureToJson(readRootSignatureSource(bytes).rootSignature);',
      'export const count: number = json.parameters.length;',
      "export const version: '1.0' | '1.1' | '1.2' = json.version;",
      'const p = json.parameters[0];',
      "if (p && p.parameterType === 'DESCRIPTOR_TABLE') { const r: DescriptorRangeJson[] = p.ranges; console.log(r.length, r[0]?.numDescriptors); }",
      "if (p && p.parameterType === 'CBV') console.log(p.descriptor.shaderRegister);",
      'console.log(json.staticSamplers.map((s) => s.filter));',
      '',
    ].join('\n'),
  );
  const bad = join(dir, 'bad.ts');
  writeFileSync(bad, `import { rootSignatureToJson } from ${JSON.stringify(index)};\ndeclare const rs: Parameters<typeof rootSignatureToJson>[0];\nexport const x: string = rootSignatureToJson(rs).nope;\nconst p = rootSignatureToJson(rs).parameters[0]!;\nexport const y = p.ranges;\n`);
  const tsc = (file: string) =>
    spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--types', 'node', '--skipLibCheck', '--typeRoots', join(ROOT, 'node_modules/@types'), file], { cwd: dir, encoding: 'utf8' });
  const good = tsc(ok);
  assert.is(good.status, 0, good.stdout + good.stderr);
  const wrong = tsc(bad);
  assert.is(wrong.status, 2, 'the bad consumer does not compile');
  assert.match(wrong.stdout, /bad\.ts\(3,\d+\): error TS2339: Property 'nope' does not exist on type 'RootSignatureJson'/);
  assert.match(wrong.stdout, /bad\.ts\(5,\d+\): error TS2339: Property 'ranges' does not exist on type 'RootParameterJson'/);
});

/** Property names and which are optional, per interface, read from the generated text. */
function interfaces(text: string): Map<string, { required: Set<string>; all: Set<string> }> {
  const out = new Map<string, { required: Set<string>; all: Set<string> }>();
  for (const m of text.matchAll(/export interface (\w+) \{\n([\s\S]*?)\n\}/g)) {
    const required = new Set<string>();
    const all = new Set<string>();
    for (const p of m[2]!.matchAll(/^ {2}(\w+)(\??): /gm)) {
      all.add(p[1]!);
      if (!p[2]) required.add(p[1]!);
    }
    out.set(m[1]!, { required, all });
  }
  return out;
}

test('on every corpus root signature, rootSignatureToJson writes exactly what the types say', () => {
  const types = interfaces(generateJsonTypes());
  const check = (value: Record<string, unknown>, name: string, where: string) => {
    const t = types.get(name)!;
    for (const k of Object.keys(value)) assert.ok(t.all.has(k), `${where}: key ${k} is not in ${name}`);
    for (const k of t.required) assert.ok(k in value, `${where}: ${name}.${k} is required but not written`);
  };
  let n = 0;
  for (const blob of [...corpusFiles('rootsig'), ...corpusFiles('shaders')]) {
    let json;
    try {
      json = rootSignatureToJson(readRootSignatureSource(blob.bytes).rootSignature);
    } catch {
      continue; // blobs without RTS0, and those the corpus holds to be refused
    }
    n++;
    check(json as unknown as Record<string, unknown>, 'RootSignatureJson', blob.name);
    for (const p of json.parameters) {
      const name = p.parameterType === 'DESCRIPTOR_TABLE' ? 'RootParameterRangesJson' : p.parameterType === '32BIT_CONSTANTS' ? 'RootParameterConstantsJson' : 'RootParameterDescriptorJson';
      check(p as unknown as Record<string, unknown>, name, blob.name);
      if ('ranges' in p) for (const r of p.ranges) check(r as unknown as Record<string, unknown>, 'DescriptorRangeJson', blob.name);
      if ('constants' in p) check(p.constants as unknown as Record<string, unknown>, 'RootConstantsJson', blob.name);
      if ('descriptor' in p) check(p.descriptor as unknown as Record<string, unknown>, 'RootDescriptorJson', blob.name);
    }
    for (const s of json.staticSamplers) check(s as unknown as Record<string, unknown>, 'StaticSamplerJson', blob.name);
  }
  assert.ok(n > 100, `${n} root signatures`);
});

test.run();
