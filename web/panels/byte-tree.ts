/** The structure tree: the byte map's spans, children made when expanded; following a node selects its bytes. */
import { LEAF_KINDS, spanValueText } from '../../src/inspect/index.js';
import { type SpanIndex } from '../tools.js';
import { type TreeItem } from '../virtual.js';
import { $ } from '../dom.js';
import { state } from '../state.js';
import { describe, select, showHex } from './hex.js';

export function spanItem(index: SpanIndex, i: number): TreeItem {
  const s = index.spans[i]!;
  const group = !LEAF_KINDS.has(s.kind);
  const item: TreeItem = {
    label: group ? `${s.path}${s.name ? ` (${s.name})` : ''} · ${s.size} bytes at ${s.offset}` : `${s.path}${s.kind === 'field' ? ` = ${spanValueText(s)}` : ` · ${s.kind}, ${s.size} bytes`}`,
    cls: group ? 'group' : `k-${s.kind}`,
    path: s.path,
    offset: s.offset,
    size: s.size,
  };
  if (group) item.kids = () => siblingItems(index, index.firstChild[i]!);
  return item;
}

/** Items for a chain of siblings starting at span `first`. */
export function siblingItems(index: SpanIndex, first: number): TreeItem[] {
  const out: TreeItem[] = [];
  for (let k = first; k >= 0; k = index.nextSibling[k]!) out.push(spanItem(index, k));
  return out;
}

export function showBytes(): void {
  const index = state.current?.index;
  state.byteTree.set(index ? siblingItems(index, index.firstRoot) : [], 2);
  $('structure-title').textContent = index ? `Structure (${index.spans.length} spans)` : state.current?.query ? 'Structure (one record per result; see the hex view)' : 'Structure';
  showHex();
}

/** Selects the bytes of a tree item and moves the hex cursor to them; Enter also moves the focus there. */
export function followItem(item: TreeItem, byKeyboard: boolean): void {
  if (item.offset === undefined) return;
  state.cursor = item.offset;
  state.anchor = item.offset;
  select(item.offset, item.offset + Math.max(1, item.size ?? 0), true);
  $('hex-info').textContent = describe(item.offset);
  if (byKeyboard) $('hex').focus();
}

