/**
 * A panel per part of the loaded container: a closed <details> whose summary names the part; opened,
 * it selects the part's bytes in the hex view and draws the part's decode (web/part-json.ts, the
 * JSON form `inspect --json` prints) with one generic renderer: records as key/value tables, arrays
 * of records as tables, scalars as text; rows whose bytes the byte map knows get a button that
 * selects them. Long arrays draw their first rows and a button for more. Text only through textContent.
 */
import { Budget, LimitError, printable, shaderOf, type ParsedContainer } from '../../src/index.js';
import { LEAF_KINDS } from '../../src/inspect/index.js';
import { childPath, columnsOf, isLeaf, isTable, partDecodeJson, partSummary, rowsFirstDrawn, SUMMARY_KEYS, valueText } from '../part-json.js';
import { $, h, message } from '../dom.js';
import { state } from '../state.js';
import { describe, select } from './hex.js';

/** Byte spans of one part by path (its descendants in the byte map), made when its panel opens. */
type SpanPaths = Map<string, { offset: number; size: number }>;

/** Parts decoded when their panel opens, and the kind their summary names until then. */
const LAZY_KINDS: Readonly<Record<string, string>> = { RTS0: 'root-signature', RDAT: 'runtime-data' };

/** Draws the part panels (closed; each decodes and draws when first opened). */
export function showPartPanels(container: ParsedContainer): void {
  const list = $('part-panels');
  list.replaceChildren();
  // the shader's PSV0 as the shader reader decoded it (what inspect --json prints for PSV0)
  let psv;
  try {
    psv = shaderOf(container).psv;
  } catch {
    psv = undefined;
  }
  const budget = Budget.for(state.current?.bytes.byteLength ?? 0);
  container.parts.forEach((p, i) => {
    const at = container.layout.partOffsets[i]!;
    const decode = (): Record<string, unknown> => {
      try {
        return partDecodeJson(p.name, p.data, at + 8, { budget, ...(psv ? { psv } : {}) });
      } catch (e) {
        if (!(e instanceof LimitError)) throw e;
        return { name: p.name, kind: 'error', size: p.data.byteLength, code: e.code, message: message(e) };
      }
    };
    // a root signature or a library may be large (the root signature panel already reads the one):
    // decoded when the panel opens; the other parts now, for their summary line
    const lazy = LAZY_KINDS[p.name];
    let json: Record<string, unknown> | undefined = lazy ? undefined : decode();
    const panel = h('details', undefined, 'part-panel');
    panel.dataset.part = p.name;
    panel.dataset.index = String(i);
    panel.dataset.kind = json ? String(json.kind) : lazy!;
    const summary = h('summary', `${i}. ${partSummary(json ?? { name: p.name, kind: lazy, size: p.data.byteLength })}`);
    panel.appendChild(summary);
    let drawn = false;
    panel.addEventListener('toggle', () => {
      if (!(panel as HTMLDetailsElement).open) return;
      state.cursor = at;
      state.anchor = at;
      select(at, at + 8 + p.data.byteLength, true);
      $('hex-info').textContent = describe(at);
      if (drawn) return;
      drawn = true;
      if (!json) {
        json = decode();
        panel.dataset.kind = String(json.kind);
        summary.textContent = `${i}. ${partSummary(json)}`;
      }
      const spans = partSpanPaths(at);
      const head = h('p', `bytes ${at}..${at + 8 + p.data.byteLength - 1} (${p.data.byteLength} bytes of data at ${at + 8})`, 'info-line');
      panel.appendChild(head);
      const body = h('div', undefined, 'decode');
      // a region of its own: wide tables scroll sideways, by keyboard too
      body.setAttribute('role', 'region');
      body.setAttribute('aria-label', `${printable(p.name, { ascii: true })} decoded`);
      body.tabIndex = 0;
      body.appendChild(recordTable(json!, '', 0, (path) => spans.get(`${p.name}.${path}`) ?? spans.get(`${p.name}.${path.replace(/^[^.[]+\./, '')}`), true));
      panel.appendChild(body);
      panel.dataset.drawn = '1';
    });
    list.appendChild(panel);
  });
}

/** The spans inside the part whose header is at `at`, by path (one walk of its descendants). */
function partSpanPaths(at: number): SpanPaths {
  const out: SpanPaths = new Map();
  const index = state.current?.index;
  if (!index) return out;
  let part = -1;
  // parts are roots or children of a root (container.parts)
  for (let r = index.firstRoot; r >= 0 && part < 0; r = index.nextSibling[r]!) {
    if (index.spans[r]!.kind === 'part' && index.spans[r]!.offset === at) part = r;
    else for (let k = index.firstChild[r]!; k >= 0; k = index.nextSibling[k]!) if (index.spans[k]!.kind === 'part' && index.spans[k]!.offset === at) part = k;
  }
  if (part < 0) return out;
  const stack = [index.firstChild[part]!];
  while (stack.length) {
    const k = stack.pop()!;
    if (k < 0) continue;
    const s = index.spans[k]!;
    if (!out.has(s.path)) out.set(s.path, { offset: s.offset, size: s.size });
    stack.push(index.nextSibling[k]!);
    if (!LEAF_KINDS.has(s.kind)) stack.push(index.firstChild[k]!);
  }
  return out;
}

type SpanOf = (path: string) => { offset: number; size: number } | undefined;

/** A button selecting the bytes of `span` (the row's index as its text). */
function bytesButton(text: string, path: string, span: { offset: number; size: number }): HTMLElement {
  const b = h('button', text, 'link');
  b.title = `select the bytes of ${path} (${span.size} at ${span.offset})`;
  b.setAttribute('aria-label', `bytes of ${path}`);
  b.addEventListener('click', () => {
    state.cursor = span.offset;
    state.anchor = span.offset;
    select(span.offset, span.offset + Math.max(1, span.size), true);
    $('hex-info').textContent = describe(span.offset);
  });
  return b;
}

/** One leaf into `cell`: text, or a scrollable block for multi-line text (SRCI sources). */
function leafInto(cell: HTMLElement, v: unknown, path: string): void {
  cell.dataset.path = path;
  const text = valueText(v);
  if (typeof v === 'string' && (text.includes('\n') || text.length > 160)) {
    const pre = h('pre', text, 'text');
    pre.setAttribute('role', 'region');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', path);
    cell.appendChild(pre);
  } else cell.textContent = text;
}

/** A value drawn by the panels' renderer outside a part (the bindings view): `data-path`s start at `path`. */
export function jsonNode(v: unknown, path: string): HTMLElement {
  if (isLeaf(v)) {
    const cell = h('span');
    leafInto(cell, v, path);
    return cell;
  }
  return valueNode(v, path, 0, () => undefined);
}

/** Any value: a leaf's text, a record's key/value table, an array's table or list. */
function valueNode(v: unknown, path: string, arrays: number, spanOf: SpanOf): HTMLElement {
  if (isTable(v)) return rowsTable(v, path, arrays, spanOf);
  if (Array.isArray(v)) return listTable(v, path, arrays, spanOf);
  return recordTable(v as Record<string, unknown>, path, arrays, spanOf, false);
}

/** A record as key/value rows (at the top, the summary keys left out). */
function recordTable(r: Record<string, unknown>, path: string, arrays: number, spanOf: SpanOf, top: boolean): HTMLElement {
  const body = h('tbody');
  for (const [k, v] of Object.entries(r)) {
    if (top && SUMMARY_KEYS.has(k)) continue;
    const p = childPath(path, k);
    const cell = h('td');
    if (isLeaf(v)) leafInto(cell, v, p);
    else cell.appendChild(valueNode(v, p, arrays, spanOf));
    const span = !isLeaf(v) && !Array.isArray(v) ? spanOf(p) : undefined;
    const key = h('th', undefined, undefined, [span ? bytesButton(k, p, span) : document.createTextNode(k)]);
    key.setAttribute('scope', 'row');
    body.appendChild(h('tr', undefined, undefined, [key, cell]));
  }
  return h('table', undefined, 'kv part-kv', [body]);
}

/** Appends rows [from, to) of `items` with `draw`, then a button for the next ones when some are left. */
function chunked(items: readonly unknown[], first: number, body: HTMLElement, after: HTMLElement, draw: (i: number) => HTMLElement): void {
  const more = (from: number) => {
    const to = Math.min(items.length, from + first);
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) frag.appendChild(draw(i));
    body.appendChild(frag);
    after.replaceChildren();
    if (to < items.length) {
      const b = h('button', `show ${Math.min(first, items.length - to)} more of ${items.length - to} left`, 'more');
      b.addEventListener('click', () => {
        more(to);
        (body.lastElementChild?.querySelector('button, td') as HTMLElement | null)?.focus?.();
      });
      after.appendChild(b);
    }
  };
  more(0);
}

/** An array of records as a table: one column per key, the first column the row's index (a button when the byte map has the row). */
function rowsTable(rows: Record<string, unknown>[], path: string, arrays: number, spanOf: SpanOf): HTMLElement {
  const first = rowsFirstDrawn(arrays);
  const cols = columnsOf(rows.slice(0, first));
  const head = h('tr', undefined, undefined, [h('th', '#')]);
  for (const c of cols) head.appendChild(h('th', c));
  for (const th of head.children) th.setAttribute('scope', 'col');
  const body = h('tbody');
  const after = h('div', undefined, 'more-row');
  const table = h('table', undefined, 'rows', [h('caption', `${path} (${rows.length})`, 'sr-only'), h('thead', undefined, undefined, [head]), body]);
  table.dataset.path = path;
  chunked(rows, first, body, after, (i) => {
    const p = childPath(path, i);
    const span = spanOf(p);
    const tr = h('tr', undefined, undefined, [h('td', undefined, 'idx', [span ? bytesButton(String(i), p, span) : document.createTextNode(String(i))])]);
    const row = rows[i]!;
    for (const c of cols) {
      const cell = h('td');
      const v = row[c];
      if (v === undefined) {
        // a key this row lacks
      } else if (isLeaf(v)) leafInto(cell, v, childPath(p, c));
      else cell.appendChild(valueNode(v, childPath(p, c), arrays + 1, spanOf));
      tr.appendChild(cell);
    }
    // a row may hold keys the first rows did not: shown as a key/value table after the columns
    const extra = Object.keys(row).filter((k) => !cols.includes(k));
    if (extra.length) tr.appendChild(h('td', undefined, undefined, [recordTable(Object.fromEntries(extra.map((k) => [k, row[k]])), p, arrays + 1, spanOf, false)]));
    return tr;
  });
  return h('div', undefined, 'table-wrap', [table, after]);
}

/** An array of mixed items (or of arrays) as index/value rows. */
function listTable(items: unknown[], path: string, arrays: number, spanOf: SpanOf): HTMLElement {
  const body = h('tbody');
  const after = h('div', undefined, 'more-row');
  chunked(items, rowsFirstDrawn(arrays), body, after, (i) => {
    const p = childPath(path, i);
    const cell = h('td');
    const v = items[i];
    if (isLeaf(v)) leafInto(cell, v, p);
    else cell.appendChild(valueNode(v, p, arrays + 1, spanOf));
    const key = h('th', String(i));
    key.setAttribute('scope', 'row');
    return h('tr', undefined, undefined, [key, cell]);
  });
  return h('div', undefined, 'table-wrap', [h('table', undefined, 'kv part-kv', [body]), after]);
}

