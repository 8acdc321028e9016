/** The query panel: a buffer of D3D12 query results as a virtual table, timestamp statistics and pictures. */
import { QUERY_TYPES, activeKernels, decodeQueryResults, kernels, timestampDurations } from '../../src/query/index.js';
import { formatNs, timingPicture, timingsSvgTree } from '../../src/inspect/index.js';
import { durationStats } from '../tools.js';
import { spacerPx, windowOf } from '../virtual.js';
import { $, h, status, svgDom } from '../dom.js';
import { lap, state, type Loaded } from '../state.js';
import { select } from './hex.js';
import { showBytes } from './byte-tree.js';

export function showQuery(name: string, bytes: Uint8Array, guessed: boolean): void {
  const type = QUERY_TYPES.find((q) => q.cli === ($('query-type') as HTMLSelectElement).value) ?? QUERY_TYPES[0]!;
  const frequency = Number(($('frequency') as HTMLInputElement).value);
  const marks = ($('marks') as HTMLInputElement).checked;
  state.current = { name, bytes, queryAttempt: true };
  const t0 = performance.now();
  const usable = bytes.subarray(0, bytes.byteLength - (bytes.byteLength % type.result.size));
  const columns = { count: usable.byteLength / type.result.size };
  state.current = { name, bytes, queryAttempt: true, query: { type, count: columns.count, usable } };
  $('summary').textContent = `${name}: ${bytes.byteLength} bytes, ${columns.count} ${type.name} result${columns.count === 1 ? '' : 's'} (${type.result.name}, ${type.result.size} bytes each)${usable.byteLength < bytes.byteLength ? `, ${bytes.byteLength - usable.byteLength} trailing bytes` : ''}`;
  $('query-view').hidden = false;
  $('query-info').textContent = `kernels: ${activeKernels().name}`;
  const warning = $('query-warning');
  warning.hidden = !guessed;
  warning.textContent = guessed ? `${name} is not a container or a root signature: read as ${type.name} query results (choose "read as" to change)` : '';
  const pictures = $('pictures');
  pictures.textContent = '';
  let timing = `decoded ${columns.count} results`;
  if (type.name === 'TIMESTAMP') {
    if (!(frequency > 0)) throw new Error('the tick frequency must be a positive number of Hz');
    const stamps = marks ? usable : usable.subarray(0, usable.byteLength - (usable.byteLength % 16));
    const d = timestampDurations(stamps, { frequency, pairs: !marks });
    state.current.query!.durations = { ns: d.ns, flags: d.flags, count: d.count, pairs: !marks };
    const st = durationStats(d.ns, d.flags, d.count);
    const stats = $('query-stats');
    stats.textContent = st.valid ? `${st.valid} valid durations: median ${formatNs(st.median)}, p99 ${formatNs(st.p99)}, mean ${formatNs(st.mean)}` : 'no valid duration';
    stats.dataset.median = String(st.median);
    stats.dataset.p99 = String(st.p99);
    stats.dataset.mean = String(st.mean);
    lap('statistics');
    const picture = timingPicture(stamps, { frequency, pairs: !marks, bins: 40, width: 800 });
    lap('durations');
    pictures.appendChild(svgDom(timingsSvgTree(picture, `${name}: ${marks ? 'consecutive marks' : '[begin, end] pairs'}`)));
    lap('pictures');
    timing = `decoded ${columns.count} timestamps and drew ${picture.count} durations (${picture.valid} valid, ${picture.flagged} flagged)`;
  }
  const ms = performance.now() - t0;
  const timingLine = $('timing');
  timingLine.textContent = `${timing} in ${ms.toFixed(1)} ms`;
  timingLine.dataset.ms = ms.toFixed(1);
  status(guessed ? 'read as a query buffer (not recognised as anything else)' : 'read as a query buffer');
  setupQueryTable();
  lap('table');
  showBytes();
  lap('hex');
}
export const TABLE_ROW_PX = 20;

/** The duration shown on result row `i`: a pair's on its begin row (its end row shows nothing), a mark's to the next mark. */
export function durationText(d: NonNullable<NonNullable<Loaded['query']>['durations']>, i: number): string {
  const k = d.pairs ? (i % 2 === 0 ? i / 2 : -1) : i;
  if (k < 0 || k >= d.count) return '';
  return d.flags[k] !== 0 ? 'flagged' : formatNs(d.ns[k]!);
}

export function setupQueryTable(): void {
  const box = $('query-table');
  const q = state.current!.query!;
  (box.querySelector('.spacer') as HTMLElement).style.height = `${spacerPx(q.count, TABLE_ROW_PX, 1)}px`;
  box.scrollTop = 0;
  const head = box.querySelector('thead')!;
  head.textContent = '';
  head.appendChild(h('tr', undefined, undefined, [h('th', '#'), ...q.type.result.fields.map((f) => h('th', f.name)), ...(q.durations ? [h('th', q.durations.pairs ? 'duration (pair)' : 'duration (to next)')] : [])]));
  renderQueryTable();
}

export function renderQueryTable(): void {
  const q = state.current?.query;
  if (!q) return;
  const box = $('query-table');
  const table = box.querySelector('table') as HTMLElement;
  const body = box.querySelector('tbody')!;
  const { first, last, top } = windowOf(box, q.count, TABLE_ROW_PX, 1);
  table.style.top = `${top}px`;
  body.textContent = '';
  const names = q.type.result.fields.map((f) => f.name);
  // only the rows in view are decoded
  const shown = decodeQueryResults(q.usable, q.type, { offset: first * q.type.result.size, count: last - first }).columns;
  for (let i = first; i < last; i++) {
    const row = h('tr', undefined, undefined, [h('td', String(i)), ...names.map((n) => h('td', shown[n]![i - first]!.toString())), ...(q.durations ? [h('td', durationText(q.durations, i))] : [])]);
    row.addEventListener('click', () => {
      state.cursor = i * q.type.result.size;
      state.anchor = state.cursor;
      select(state.cursor, (i + 1) * q.type.result.size, true);
    });
    body.appendChild(row);
  }
}
