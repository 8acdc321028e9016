/** The hex view: rows drawn as they scroll into view, cursor and selection, go to, find, copy. */
import { LEAF_KINDS, byteMap, spanValueText, type ByteSpan } from '../../src/inspect/index.js';
import { COPY_LIMIT, positionsTo, ancestors, copyCArray, copyHex, findBytes, inspectValues, leafAt, leafPosition, parseOffset, searchPattern } from '../tools.js';
import { keepInView, spacerPx, windowOf } from '../virtual.js';
import { $, h, status, stem } from '../dom.js';
import { state } from '../state.js';

export const ROW = 16;
export const ROW_PX = 18;

/** The leaf spans overlapping [from, to): from the index (binary search, then a walk), or for query buffers a windowed map. */
export function leavesIn(from: number, to: number): { spans: ByteSpan[]; colour: (k: number) => number } {
  const c = state.current!;
  if (c.query) {
    const spans = byteMap(c.bytes, { format: 'query', type: c.query.type.value, window: { from, to } }).spans.filter((s) => LEAF_KINDS.has(s.kind));
    return { spans, colour: (k) => Math.floor(spans[k]!.offset / 4) };
  }
  const index = c.index;
  if (!index) return { spans: [], colour: () => 0 };
  const start = leafPosition(index, from);
  const spans: ByteSpan[] = [];
  for (let p = start; p < index.leaves.length; p++) {
    const s = index.spans[index.leaves[p]!]!;
    if (s.offset >= to) break;
    spans.push(s);
  }
  return { spans, colour: (k) => start + k };
}

/** The leaf holding `offset`. */
export function leafSpanAt(offset: number): ByteSpan | undefined {
  if (state.current?.query) return leavesIn(offset, offset + 1).spans[0];
  const index = state.current?.index;
  if (!index) return undefined;
  const i = leafAt(index, offset);
  return i < 0 ? undefined : index.spans[i];
}

export function describe(offset: number): string {
  if (!state.current) return '';
  const index = state.current.index;
  const leafIndex = index && !state.current.query ? leafAt(index, offset) : -1;
  const leaf = leafIndex >= 0 ? index!.spans[leafIndex] : leafSpanAt(offset);
  if (!leaf) return `byte ${offset} (0x${offset.toString(16)})`;
  const value = leaf.kind === 'field' ? ` = ${spanValueText(leaf)}` : ` (${leaf.kind}, ${leaf.size} bytes)`;
  const inside = leafIndex >= 0 ? ancestors(index!, leafIndex).map((g) => index!.spans[g]!.path).join(' > ') : '';
  return `byte ${offset} (0x${offset.toString(16)}): ${leaf.path}${value}\nbytes ${leaf.offset}..${leaf.offset + leaf.size - 1}${inside ? ` in ${inside}` : ''}`;
}

export const totalRows = () => Math.ceil((state.current?.bytes.byteLength ?? 0) / ROW);

export function showHex(): void {
  const hex = $('hex');
  (hex.querySelector('.spacer') as HTMLElement).style.height = `${spacerPx(totalRows(), ROW_PX)}px`;
  hex.setAttribute('aria-rowcount', String(totalRows()));
  hex.scrollTop = 0;
  renderHex();
  showCursor();
}

export function select(from: number, to: number, scroll: boolean): void {
  state.selection = { from, to };
  if (scroll) keepInView($('hex'), Math.floor(from / ROW), totalRows(), ROW_PX);
  renderHex();
  showCursor();
}

/** Moves the cursor to `at` (clamped); with `extend` the selection runs from the anchor to it, else it is the byte itself. */
export function moveCursor(at: number, extend: boolean): void {
  if (!state.current || state.current.bytes.byteLength === 0) return;
  state.cursor = Math.max(0, Math.min(state.current.bytes.byteLength - 1, at));
  if (!extend) state.anchor = state.cursor;
  select(Math.min(state.anchor, state.cursor), Math.max(state.anchor, state.cursor) + 1, true);
  $('hex-info').textContent = describe(state.cursor);
}

export function renderHex(): void {
  if (!state.current) return;
  const hex = $('hex');
  const rows = hex.querySelector('.rows') as HTMLElement;
  const bytes = state.current.bytes;
  const { first, last, top } = windowOf(hex, totalRows(), ROW_PX);
  rows.style.top = `${top}px`;
  rows.textContent = '';
  const from = first * ROW;
  const to = Math.min(bytes.byteLength, last * ROW);
  // leaf per byte of the window, with a colour index per field
  const { spans, colour } = leavesIn(from, to);
  const cls = new Array<string>(to - from).fill('');
  spans.forEach((s, k) => {
    const c = s.kind === 'field' ? `c${colour(k) % 5}` : `k-${s.kind}`;
    for (let b = Math.max(from, s.offset); b < Math.min(to, s.offset + s.size); b++) cls[b - from] = c;
  });
  const frag = document.createDocumentFragment();
  for (let r = first; r < last; r++) {
    const line = h('div', undefined, 'r');
    line.setAttribute('role', 'row');
    line.setAttribute('aria-rowindex', String(r + 1));
    const head = h('span', (r * ROW).toString(16).padStart(8, '0'), 'o');
    head.setAttribute('role', 'rowheader');
    line.appendChild(head);
    let ascii = '';
    for (let i = 0; i < ROW; i++) {
      const at = r * ROW + i;
      if (at >= bytes.byteLength) break;
      const b = bytes[at]!;
      const inSel = state.selection !== undefined && at >= state.selection.from && at < state.selection.to;
      const cell = h('span', b.toString(16).padStart(2, '0'), `b ${cls[at - from]}${inSel ? ' sel' : ''}${at === state.cursor ? ' cur' : ''}${i === 7 ? ' gapx' : ''}`);
      cell.setAttribute('role', 'gridcell');
      cell.id = `hx-${at}`;
      cell.setAttribute('aria-selected', inSel ? 'true' : 'false');
      cell.dataset.o = String(at);
      line.appendChild(cell);
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    const text = h('span', ascii, 'a');
    text.setAttribute('aria-hidden', 'true');
    line.appendChild(text);
    frag.appendChild(line);
  }
  rows.appendChild(frag);
  if (state.cursor >= from && state.cursor < to) hex.setAttribute('aria-activedescendant', `hx-${state.cursor}`);
  else hex.removeAttribute('aria-activedescendant');
}

/** The selection's extent and the data inspector at the cursor. */
export function showCursor(): void {
  const info = $('selection-info');
  if (!state.current) {
    info.textContent = '';
    return;
  }
  const s = state.selection;
  info.textContent = s
    ? `cursor 0x${state.cursor.toString(16)} (${state.cursor}) · selection 0x${s.from.toString(16)}..0x${(s.to - 1).toString(16)} (${s.to - s.from} byte${s.to - s.from === 1 ? '' : 's'})`
    : `cursor 0x${state.cursor.toString(16)} (${state.cursor}) · ${state.current.bytes.byteLength} bytes`;
  info.dataset.length = String(s ? s.to - s.from : 0);
  const body = $('inspector').querySelector('tbody')!;
  body.textContent = '';
  const bigEndian = ($('big-endian') as HTMLInputElement).checked;
  for (const v of inspectValues(state.current.bytes, state.cursor, bigEndian)) {
    const row = h('tr', undefined, undefined, [h('td', v.type), h('td', v.value ?? '—')]);
    row.dataset.type = v.type;
    body.appendChild(row);
  }
}

export function hexHover(ev: Event): void {
  const t = ev.target as HTMLElement;
  if (!t.dataset?.o) return;
  $('hex-info').textContent = describe(Number(t.dataset.o));
}

/** A click puts the cursor on the byte and selects its field (Shift+click extends the selection). */
export function hexClick(ev: MouseEvent): void {
  const t = ev.target as HTMLElement;
  if (!t.dataset?.o) return;
  const at = Number(t.dataset.o);
  if (ev.shiftKey) {
    moveCursor(at, true);
    return;
  }
  state.cursor = at;
  state.anchor = at;
  const leaf = leafSpanAt(at);
  $('hex-info').textContent = describe(at);
  if (leaf) select(leaf.offset, leaf.offset + leaf.size, false);
  else select(at, at + 1, false);
}

export function hexKey(ev: KeyboardEvent): void {
  if (!state.current) return;
  const page = Math.max(1, Math.floor(($('hex').clientHeight || 400) / ROW_PX) - 1) * ROW;
  const ctrl = ev.ctrlKey || ev.metaKey;
  const moves: Record<string, number> = {
    ArrowLeft: state.cursor - 1,
    ArrowRight: state.cursor + 1,
    ArrowUp: state.cursor - ROW,
    ArrowDown: state.cursor + ROW,
    PageUp: state.cursor - page,
    PageDown: state.cursor + page,
    Home: ctrl ? 0 : state.cursor - (state.cursor % ROW),
    End: ctrl ? state.current.bytes.byteLength - 1 : state.cursor - (state.cursor % ROW) + ROW - 1,
  };
  if (ev.key in moves) moveCursor(moves[ev.key]!, ev.shiftKey);
  else if (ev.key === 'Enter') revealInTree(state.cursor);
  else return;
  ev.preventDefault();
}


export function goTo(): void {
  if (!state.current) return;
  const input = $('goto') as HTMLInputElement;
  const at = parseOffset(input.value, state.cursor);
  if (at === undefined || at < 0 || at >= state.current.bytes.byteLength) {
    status(`go to: "${input.value}" is not an offset in 0..${state.current.bytes.byteLength - 1} (decimal, 0x hex, +n or -n)`, true);
    return;
  }
  moveCursor(at, false);
  status(`at 0x${at.toString(16)}`);
  $('hex').focus();
}

export function findNext(): void {
  if (!state.current) return;
  const kind = ($('find-kind') as HTMLSelectElement).value as 'hex' | 'text';
  const text = ($('find') as HTMLInputElement).value;
  const pattern = searchPattern(text, kind);
  if (!pattern) {
    status(kind === 'hex' ? `find: "${text}" is not hex bytes (pairs of hex digits)` : 'find: nothing to look for', true);
    return;
  }
  const from = state.selection && state.selection.to - state.selection.from === pattern.length && state.selection.from === state.cursor ? state.cursor + 1 : state.cursor;
  const at = findBytes(state.current.bytes, pattern, from);
  if (at < 0) {
    status(`find: ${kind} ${JSON.stringify(text)} not found`, true);
    return;
  }
  state.cursor = at;
  state.anchor = at;
  select(at, at + pattern.length, true);
  $('hex-info').textContent = describe(at);
  status(`found at 0x${at.toString(16)} (${at})`);
}

export function copySelection(as: 'hex' | 'c'): void {
  if (!state.current) return;
  const s = state.selection ?? { from: state.cursor, to: state.cursor + 1 };
  const bytes = state.current.bytes.subarray(s.from, Math.min(s.to, s.from + COPY_LIMIT));
  const text = as === 'hex' ? copyHex(bytes) : copyCArray(bytes, stem(state.current.name));
  const out = $('copy-out') as HTMLTextAreaElement;
  out.hidden = false;
  out.value = text;
  const note = `${bytes.byteLength} byte${bytes.byteLength === 1 ? '' : 's'} as ${as === 'hex' ? 'hex' : 'a C array'}${s.to - s.from > bytes.byteLength ? ` (the first ${COPY_LIMIT} of ${s.to - s.from})` : ''}`;
  navigator.clipboard?.writeText(text).then(
    () => status(`copied ${note}`),
    () => status(`${note} in the box below the hex view (the clipboard refused)`),
  ) ?? status(`${note} in the box below the hex view`);
}

// ---------------------------------------------------------------- query buffers

/** Shows the structure node of the byte under the cursor (hex -> tree) and focuses the tree. */
export function revealInTree(offset: number): void {
  const index = state.current?.index;
  if (!index) {
    status('no structure tree for this input');
    return;
  }
  const leaf = leafAt(index, offset);
  if (leaf < 0) return;
  state.byteTree.reveal(positionsTo(index, leaf));
  $('tree').focus();
}
