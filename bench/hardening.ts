/**
 * What the hostile inputs of issue 10 cost now (D1-D7, D9, D10): wall time and heap growth of
 * each, one process per case so heaps do not mix. Targets: D1-D6, D9, D10 under 100 ms and
 * 50 MB; D7 (8,000 root CBVs through validation) under 1 s. A recorded script, not a test.
 *
 *   npx tsx bench/hardening.ts [--json]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CASES = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6a', 'D6b', 'D7', 'D9', 'D10'] as const;
type Case = (typeof CASES)[number];

async function runCase(name: Case): Promise<{ ms: number; heapMB: number; rssMB: number; result: string; bytes: number }> {
  const dxbin = { ...(await import('../src/index.js')), ...(await import('../src/ddi/index.js')) };
  const h = await import('../test/helpers/hostile.js');
  const gc = (globalThis as { gc?: () => void }).gc;
  let bytes = 0;
  // inputs are built before the clock starts; only the decoding is timed
  const inputs = {
    D1: h.linkedListImage(5000),
    D2: h.overlappingNamesImage(500, 20_000),
    D3: h.fanOutRdat(500, 800),
  };
  const cases: Record<Case, () => unknown> = {
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
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  let result: string;
  let peak = heap0;
  try {
    const r = cases[name]();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    result = `ok (${r === undefined ? 'undefined' : typeof r})`;
  } catch (e) {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    const err = e as { name: string; code?: string; message: string };
    result = `${err.name} ${err.code ?? ''}: ${err.message.slice(0, 90)}`;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, heapMB: (peak - heap0) / 2 ** 20, rssMB: process.memoryUsage().rss / 2 ** 20, result, bytes };
}

const child = process.argv.indexOf('--case');
if (child >= 0) {
  console.log(JSON.stringify(await runCase(process.argv[child + 1] as Case)));
} else {
  const json = process.argv.includes('--json');
  const self = fileURLToPath(import.meta.url);
  const rows: string[] = [];
  for (const name of CASES) {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--case', name], { encoding: 'utf8' });
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof runCase>>;
    const limitMs = name === 'D7' ? 1000 : 100;
    const ok = m.ms < limitMs && m.heapMB < 50;
    if (json) console.log(JSON.stringify({ case: `hardening-${name}`, impl: 'dxbin', median_ns: Math.round(m.ms * 1e6), bytes: m.bytes, heap_mb: +m.heapMB.toFixed(1), within_budget: ok, result: m.result }));
    else rows.push(`${name.padEnd(4)} ${String(m.bytes).padStart(7)} B  ${m.ms.toFixed(1).padStart(8)} ms (<${limitMs})  ${m.heapMB.toFixed(1).padStart(6)} MB heap (<50)  ${ok ? 'ok  ' : 'OVER'}  ${m.result}`);
  }
  if (!json) console.log(['case   input       time               heap growth', ...rows].join('\n'));
}
