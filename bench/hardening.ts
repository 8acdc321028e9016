/**
 * What the hostile inputs of issue 10 cost now (D1-D7, D9, D10): wall time and heap growth of
 * each, one process per case so heaps do not mix. Targets: D1-D6, D9, D10 under 100 ms and
 * 50 MB; D7 (8,000 root CBVs through validation) under 1 s. A recorded script, not a test.
 * Issue 20 adds a case per class (C1a ... C10, test/helpers/hostile-surfaces.ts; C3 are the include
 * cases: a 75-byte folder link loop, thousands of includes, a 27-level diamond through the rollup
 * plugin): the small input
 * under 100 ms and 50 MB, and a `-10x` case at ten times the size that must take about ten times
 * as long, not a hundred (checked: under 20x the small case). C cases time a second run after a
 * warm-up on the same input (the first compiles the code paths). C5 times SIGINT -> exit of a CLI
 * child in the middle of a long synchronous run.
 *
 *   npx tsx bench/hardening.ts [--json]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CASES = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6a', 'D6b', 'D7', 'D9', 'D10', 'C1a', 'C1a-10x', 'C1b', 'C1b-10x', 'C3a', 'C3b', 'C3b-10x', 'C3c', 'C3c-10x', 'C4a', 'C4a-10x', 'C4b', 'C4b-10x', 'C5', 'C6', 'C6-10x', 'C7', 'C8', 'C9', 'C10'] as const;
type Case = (typeof CASES)[number];

async function runCase(name: Case): Promise<{ ms: number; heapMB: number; rssMB: number; result: string; bytes: number }> {
  const dxbin = { ...(await import('../src/index.js')), ...(await import('../src/ddi/index.js')) };
  const h = await import('../test/helpers/hostile.js');
  const s = await import('../test/helpers/hostile-surfaces.js');
  const inspect = await import('../src/inspect/index.js');
  const glob = await import('../src/cli/glob.js');
  const io = await import('../src/cli/io.js');
  const { shaderLines } = await import('../src/cli/commands/inspect.js');
  let measured: number | undefined;
  const gc = (globalThis as { gc?: () => void }).gc;
  let bytes = 0;
  // inputs are built before the clock starts; only the decoding is timed
  const inputs = {
    D1: h.linkedListImage(5000),
    D2: h.overlappingNamesImage(500, 20_000),
    D3: h.fanOutRdat(500, 800),
    C1a: s.sharedNamePsv0(255, 6_000),
    'C1a-10x': s.sharedNamePsv0(255, 60_000),
    C1b: s.nulStringTable(6_000),
    'C1b-10x': s.nulStringTable(60_000),
    C4a: s.sharedNameRdef(400, 17_000),
    'C4a-10x': s.sharedNameRdef(4000, 170_000),
    C4b: s.missingBindings(600, 450),
    'C4b-10x': s.missingBindings(6000, 4500),
    C7: s.sharedNameRdef(4000, 8),
    C10: s.inverseBounds(),
  };
  const inspectAll = (bytes: Uint8Array) => {
    bytes_(bytes.byteLength);
    const map = inspect.byteMap(bytes);
    return inspect.hexHtml(bytes, map, 'x').length + inspect.hexDump(bytes, map).length + JSON.stringify(dxbin.psv0ToJson(dxbin.readShader(bytes).psv!)).length;
  };
  const bytes_ = (n: number) => (bytes = n);
  const verifyMisses = (m: ReturnType<typeof s.missingBindings>) => {
    bytes_(dxbin.encodeRootSignature(m.rs).byteLength + 16 * m.bindings.length);
    return dxbin.verifyBindings(0, m.bindings, m.rs);
  };
  // class 3, includes: a folder link loop (a -> .), many includes (line numbers), a diamond of headers through the rollup plugin
  const includeTree = (files: Record<string, string | { link: string }>, main: string, text: string) => {
    bytes_(Object.values(files).reduce((n, v) => n + (typeof v === 'string' ? v.length : 0), 0));
    return new dxbin.HlslFile(text, main, {}, {}, { host: dxbin.virtualHost(files), includeDirs: ['inc'] }).preprocessedText();
  };
  const manyIncludes = (n: number) => {
    const files: Record<string, string> = { 'h.h': 'int x;\n' };
    files['m.hlsl'] = `${'#include "h.h"\n'.repeat(n)}#define RS "CBV(b0)"\n`;
    return includeTree(files, 'm.hlsl', files['m.hlsl']);
  };
  const diamond = async (levels: number) => {
    const rollupPlugin = (await import('../src/rollup/index.js')).default;
    const files: Record<string, string> = { '/d/main.rs.hlsl': '#include "h0.h"\nCBV(b0)\n' };
    for (let i = 0; i < levels; i++) files[`/d/h${i}.h`] = `#pragma once\n#include "h${i + 1}.h"\n#include "h${i + 1}.h"\n`;
    files[`/d/h${levels}.h`] = '#define LEAF 1\n';
    bytes_(Object.values(files).reduce((n, v) => n + v.length, 0));
    const plugin = rollupPlugin({ host: dxbin.virtualHost(files) });
    return plugin.load.call({ addWatchFile() {}, error: (e: { message: string }) => { throw new Error(e.message); } } as never, '/d/main.rs.hlsl');
  };
  const globCase = (chars: number) => {
    bytes_(chars);
    return glob.matchSegment(glob.compileSegment('*a*a*a*a*a*a*a*a*a*a*a*a*b'), 'a'.repeat(chars));
  };
  const cases: Record<Case, () => unknown> = {
    C1a: () => inspectAll(inputs.C1a),
    'C1a-10x': () => inspectAll(inputs['C1a-10x']),
    C1b: () => inspectAll(inputs.C1b),
    'C1b-10x': () => inspectAll(inputs['C1b-10x']),
    C3a: () => includeTree({ 'm.hlsl': '#include "a/a/a/a/a/a/a/a/h.h"\n', a: { link: '.' }, 'h.h': '#include "a/h.h"\n' }, 'm.hlsl', '#include "a/a/a/a/a/a/a/a/h.h"\n'),
    C3b: () => manyIncludes(2_000),
    'C3b-10x': () => manyIncludes(20_000),
    C3c: () => diamond(27),
    'C3c-10x': () => diamond(270),
    C4a: () => (bytes_(inputs.C4a.byteLength), dxbin.readShader(inputs.C4a)),
    'C4a-10x': () => (bytes_(inputs['C4a-10x'].byteLength), dxbin.readShader(inputs['C4a-10x'])),
    C4b: () => verifyMisses(inputs.C4b),
    'C4b-10x': () => verifyMisses(inputs['C4b-10x']),
    C5: () => signalCase(),
    C6: () => globCase(20_000),
    'C6-10x': () => globCase(200_000),
    C7: () => (bytes_(inputs.C7.byteLength), shaderLines(dxbin.readShader(inputs.C7))),
    C8: () => {
      const m = s.missingBindings(10_000, 1);
      bytes_(16 * m.bindings.length);
      return dxbin.verifyBindings(0, [...m.bindings, null as never], m.rs);
    },
    C9: async () => io.readInput('/dev/zero', { readStdin: async () => new Uint8Array(0) } as never),
    C10: () => (bytes_(inputs.C10.byteLength), dxbin.verifyRootSignature(inputs.C10, { version: 2, flags: 0, parameters: [], staticSamplers: [] } as never)),
    D1: () => {
      const image = inputs.D1;
      bytes = image.byteLength;
      const list = dxbin.decodeImage('node-list-entry', image, 'x64');
      dxbin.validateDdi('node-list-entry', list);
      return dxbin.ddiToJson('node-list-entry', list);
    },
    D2: () => {
      const image = inputs.D2;
      bytes = image.byteLength;
      return dxbin.ddiToJson('broadcasting-launch-node-properties', dxbin.decodeImage('broadcasting-launch-node-properties', image, 'x64'));
    },
    D3: () => {
      const rdat = inputs.D3;
      bytes = rdat.byteLength;
      return new dxbin.RdatReader(rdat).nodes();
    },
    D4: () => {
      const text = h.doublingMacros(20);
      bytes = text.length;
      return new dxbin.HlslFile(text, 'd4.hlsl').defineText('RS');
    },
    D5: () => {
      const text = h.chainedMacros(5000);
      bytes = text.length;
      return new dxbin.HlslFile(text, 'd5.hlsl').defineText('RS');
    },
    D6a: () => {
      const text = h.unclosedAttributes(10_000);
      bytes = text.length;
      return new dxbin.HlslFile(text, 'd6.hlsl').entryText('main');
    },
    D6b: () => {
      const text = h.attributeThenSpaces(50_000);
      bytes = text.length;
      return new dxbin.HlslFile(text, 'd6.hlsl').entryText('main');
    },
    D7: () => {
      const rs = h.rootCbvs(8000, 8000);
      const text = dxbin.printRootSignature(rs);
      bytes = text.length;
      return dxbin.compileRootSignature(text, { version: 2 });
    },
    D9: () => {
      const json = JSON.parse(JSON.stringify(dxbin.ddiToJson('broadcasting-launch-node-properties', dxbin.decodeImage('broadcasting-launch-node-properties', h.overlappingNamesImage(1, 1), 'x64'))));
      bytes = JSON.stringify(json).length;
      return dxbin.validateDdi('broadcasting-launch-node-properties', dxbin.ddiFromJson('broadcasting-launch-node-properties', { ...json, pDispatchGrid: 5 }));
    },
    D10: () => {
      const text = h.deepNodeListJson(10_000);
      bytes = text.length;
      // what `dxbin ddi validate node-list-entry FILE.json` does
      return dxbin.validateDdi('node-list-entry', dxbin.ddiFromJson('node-list-entry', JSON.parse(text)));
    },
  };
  // issue 20 cases time a second run: the first compiles the code paths (JIT), which is not the input's cost
  if (name.startsWith('C') && name !== 'C5') {
    try {
      await cases[name]();
    } catch {
      // the timed run reports it
    }
  }
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  let result: string;
  let peak = heap0;
  /** C5: SIGINT to a CLI child 1.5 s into a long synchronous run; the time is signal -> exit. */
  async function signalCase() {
    const { spawn } = await import('node:child_process');
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const ranges = Array.from({ length: 400_000 }, (_, i) => ({ rangeType: 0, numDescriptors: 1, baseShaderRegister: i, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0xffffffff }));
    const file = join(mkdtempSync(join(tmpdir(), 'dxbin-c5-')), 'slow.dxbc');
    const data = dxbin.rootSignatureContainer(dxbin.encodeRootSignature({ version: 2, flags: 0, parameters: [{ parameterType: 0, shaderVisibility: 0, ranges }], staticSamplers: [] } as never));
    writeFileSync(file, data);
    bytes = data.byteLength;
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)), 'rootsig', 'validate', file], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 2000));
    const t = process.hrtime.bigint();
    child.kill('SIGINT');
    const [, signal] = await new Promise<[number | null, string | null]>((r) => child.on('exit', (c, sig) => r([c, sig])));
    measured = Number(process.hrtime.bigint() - t) / 1e6;
    return signal;
  }
  try {
    const r = await cases[name]();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    result = `ok (${r === undefined ? 'undefined' : typeof r})`;
  } catch (e) {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    const err = e as { name: string; code?: string; message: string };
    result = `${err.name} ${err.code ?? ''}: ${err.message.slice(0, 90)}`;
  }
  const ms = measured ?? Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, heapMB: (peak - heap0) / 2 ** 20, rssMB: process.memoryUsage().rss / 2 ** 20, result, bytes };
}

const child = process.argv.indexOf('--case');
if (child >= 0) {
  console.log(JSON.stringify(await runCase(process.argv[child + 1] as Case)));
} else {
  const json = process.argv.includes('--json');
  const self = fileURLToPath(import.meta.url);
  const rows: string[] = [];
  const times = new Map<string, number>();
  for (const name of CASES) {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--case', name], { encoding: 'utf8' });
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof runCase>>;
    const limitMs = name === 'D7' ? 1000 : name === 'C5' ? 1000 : 100;
    const small = name.endsWith('-10x') ? times.get(name.slice(0, -4)) : undefined;
    times.set(name, m.ms);
    // a 10x case: about 10x the small case's time (under 20x), not 100x
    const ok = small !== undefined ? m.ms < 20 * Math.max(small, 1) : m.ms < limitMs && m.heapMB < 50;
    if (json) console.log(JSON.stringify({ case: `hardening-${name}`, impl: 'dxbin', median_ns: Math.round(m.ms * 1e6), bytes: m.bytes, heap_mb: +m.heapMB.toFixed(1), within_budget: ok, result: m.result }));
    else rows.push(`${name.padEnd(7)} ${String(m.bytes).padStart(7)} B  ${m.ms.toFixed(1).padStart(8)} ms (${small !== undefined ? `${(m.ms / Math.max(small, 1)).toFixed(1)}x small` : `<${limitMs}`})  ${m.heapMB.toFixed(1).padStart(6)} MB heap (<50)  ${ok ? 'ok  ' : 'OVER'}  ${m.result}`);
  }
  if (!json) console.log(['case   input       time               heap growth', ...rows].join('\n'));
}
