/**
 * Byte map of a PSV0 part over a part decodePsv0 has accepted: the records through the rows'
 * span interpreter (src/rows/record.ts recordSpans), the framing walked here:
 * runtime info (named fields, the stage union by the stage's view or raw, bytes no view names as
 * padding), resources, string table (one span per string), semantic indexes, signature elements
 * (bit fields sharing a byte as one span naming each), dependency blocks, trailing bytes.
 * A v0 part does not store its stage: its union is mapped raw. See src/bytes/spans.ts.
 */
import { PSV_ELEMENT, PSV_RUNTIME_INFO, psvResourceRecord } from '../../codecs/psv0.js';
import { recordSpans, type Row } from '../rows/record.js';
import type { SpanRecorder } from '../bytes/spans.js';
import { tableNames } from '../bytes/strings.js';
import { decodePsv0, dependencyLayout, knownRuntimeInfo, psvVersionOf, stageViewRecord } from './psv0.js';

/**
 * Records the spans of a PSV0 part's data at absolute offset `base`.
 * @throws {DecodeError} whatever decodePsv0 throws for these bytes
 */
export function psv0Spans(data: Uint8Array, rec: SpanRecorder, base = 0, at = 'PSV0', stage?: number): void {
  const psv = decodePsv0(data, { base, ...(stage !== undefined ? { stage } : {}) });
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = psvVersionOf(psv.runtimeInfoSize);
  const u32 = (o: number) => view.getUint32(o, true);
  const field = (o: number, size: number, path: string, name?: string) => {
    const value = size === 1 ? view.getUint8(o) : size === 2 ? view.getUint16(o, true) : u32(o);
    rec.field(base + o, size, path, value, name);
  };

  const S = psv.runtimeInfoSize;
  const first = rec.mark();
  field(0, 4, `${at}.runtimeInfoSize`, `PSV v${version}`);
  rec.add('record', base + 4, S, `${at}.runtimeInfo`);
  recordSpans(PSV_RUNTIME_INFO[version]!, psv.info, rec, base, 4, `${at}.runtimeInfo`, { record: false });
  const stageView = psv.stageInfo ? stageViewRecord(psv.info.shaderStage ?? stage, version) : undefined;
  if (stageView) recordSpans(stageView, psv.stageInfo!, rec, base, 4, `${at}.runtimeInfo`, { record: false });
  else {
    rec.add('data', base + 4, 16, `${at}.runtimeInfo.stageUnion (raw)`);
    if (version >= 1) field(4 + 26, 2, `${at}.runtimeInfo.word26 (raw)`);
  }
  const KNOWN = knownRuntimeInfo(S);
  if (S > KNOWN) rec.add('data', base + 4 + KNOWN, S - KNOWN, `${at}.runtimeInfo (newer fields)`);
  rec.fillGaps(base + 4, base + 4 + S, `${at}.runtimeInfo (unused)`, 'padding', first);

  let p = 4 + S;
  const R = psv.resources.length;
  field(p, 4, `${at}.resourceCount`);
  p += 4;
  if (R > 0) {
    const B = psv.resourceSize;
    field(p, 4, `${at}.resourceSize`);
    p += 4;
    rec.add('array', base + p, R * B, `${at}.resources`);
    const def = psvResourceRecord(B);
    for (let i = 0; i < R; i++) {
      rec.add('record', base + p, B, `${at}.resources[${i}]`, undefined, def.name);
      recordSpans(def, psv.resources[i] as unknown as Row, rec, base, p, `${at}.resources[${i}]`, { record: false });
      if (B > def.size) rec.add('data', base + p + def.size, B - def.size, `${at}.resources[${i}] (newer fields)`);
      p += B;
    }
  }
  if (psv.stringTable === undefined) {
    rec.fillGaps(base, base + data.byteLength, `${at} (trailing)`, 'gap', first);
    return;
  }
  const T = psv.stringTable.byteLength;
  field(p, 4, `${at}.stringTableSize`);
  p += 4;
  if (T > 0) rec.add('array', base + p, T, `${at}.stringTable`);
  // one span per string and one per run of NULs (a table of NULs is one span, not one per byte)
  const strings = tableNames(data.subarray(p, p + T), Infinity);
  for (let s = p; s < p + T; ) {
    let e = s;
    if (data[s] === 0) {
      while (e < p + T && data[e] === 0) e++;
      rec.add('padding', base + s, e - s, `${at}.stringTable (NUL)`);
      s = e;
      continue;
    }
    const nul = strings.endOf(s - p);
    e = nul < 0 ? p + T : p + nul;
    rec.field(base + s, Math.min(e + 1, p + T) - s, `${at}.stringTable[${s - p}]`, strings(s - p)!);
    s = e + 1;
  }
  p += T;
  const I = psv.semanticIndexes!.length;
  field(p, 4, `${at}.semanticIndexCount`);
  p += 4;
  for (let k = 0; k < I; k++) field(p + 4 * k, 4, `${at}.semanticIndexes[${k}]`);
  p += 4 * I;
  const lists = [
    ['inputElements', psv.inputElements!],
    ['outputElements', psv.outputElements!],
    ['patchConstOrPrimElements', psv.patchConstOrPrimElements!],
  ] as const;
  if (lists.some(([, l]) => l.length > 0)) {
    const E = psv.elementSize!;
    // elements may share one long name: each offset decoded once, long names cut
    const names = tableNames(psv.stringTable);
    field(p, 4, `${at}.elementSize`);
    p += 4;
    const label = { semanticName: (offset: number) => { const name = names(offset); return name !== undefined ? JSON.stringify(name) : undefined; } };
    for (const [key, list] of lists) {
      for (let i = 0; i < list.length; i++) {
        const path = `${at}.${key}[${i}]`;
        rec.add('record', base + p, E, path, undefined, PSV_ELEMENT.name);
        recordSpans(PSV_ELEMENT, list[i]!, rec, base, p, path, { record: false, label });
        if (E > PSV_ELEMENT.size) rec.add('data', base + p + PSV_ELEMENT.size, E - PSV_ELEMENT.size, `${path} (newer fields)`);
        p += E;
      }
    }
  }
  for (const b of dependencyLayout(psv.info, psv.stageInfo, psv.stageRaw)) {
    const path = `${at}.dependencies.${b.key}[${b.stream}]`;
    rec.add('array', base + p, 4 * b.size, path);
    for (let k = 0; k < b.size; k++) field(p + 4 * k, 4, `${path}[${k}]`);
    p += 4 * b.size;
  }
  if (p < data.byteLength) rec.add('gap', base + p, data.byteLength - p, `${at} (trailing)`);
}
