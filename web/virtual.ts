/**
 * Virtual lists for the web inspector: only the rows in view are in the DOM, so a tree of three
 * million spans or a table of four million results costs what one screen costs. The tree keeps a
 * flat array of its visible rows (expanding a node inserts its children once; nothing is searched
 * per node) and follows the WAI-ARIA tree pattern with aria-activedescendant.
 */

/**
 * Browsers cap an element's height (Chromium near 2^25 px), so a virtual list taller than this
 * scrolls scaled: the spacer stays this tall and the scroll position is a fraction of the rows.
 */
const MAX_SCROLL_PX = 8_000_000;

/** The rows to draw for a scroll box holding `rows` rows of `rowPx`, and where to draw them. */
export function windowOf(box: HTMLElement, rows: number, rowPx: number, header = 0): { first: number; last: number; top: number } {
  const h = box.clientHeight || 400;
  const visible = Math.ceil(h / rowPx) + 2;
  const full = (rows + header) * rowPx;
  let first: number;
  let top: number;
  if (full <= MAX_SCROLL_PX) {
    first = Math.max(0, Math.floor(box.scrollTop / rowPx) - 2);
    top = first * rowPx;
  } else {
    const fraction = Math.min(1, box.scrollTop / Math.max(1, MAX_SCROLL_PX - h));
    const fit = Math.max(1, Math.floor(h / rowPx) - header); // rows that fit under the header
    first = Math.floor(fraction * Math.max(0, rows - fit));
    top = box.scrollTop;
  }
  return { first, last: Math.min(rows, first + visible + 4), top };
}

/** The spacer height of such a box. */
export const spacerPx = (rows: number, rowPx: number, header = 0) => Math.min(MAX_SCROLL_PX, (rows + header) * rowPx);

/** Scrolls `box` so that `row` is near its top. */
export function scrollToRow(box: HTMLElement, row: number, rows: number, rowPx: number): void {
  const h = box.clientHeight || 400;
  if (rows * rowPx <= MAX_SCROLL_PX) box.scrollTop = Math.max(0, (row - 2) * rowPx);
  else box.scrollTop = (row / Math.max(1, rows - Math.ceil(h / rowPx) - 1)) * (MAX_SCROLL_PX - h);
}

/** Scrolls `box` only when `row` lies outside the rows it shows. */
export function keepInView(box: HTMLElement, row: number, rows: number, rowPx: number, header = 0): void {
  const shown = windowOf(box, rows, rowPx, header);
  const fit = Math.max(1, Math.floor((box.clientHeight || 400) / rowPx) - header);
  const firstShown = rows * rowPx <= MAX_SCROLL_PX ? Math.ceil(box.scrollTop / rowPx) : shown.first;
  if (row < firstShown || row >= firstShown + fit - 1) scrollToRow(box, row, rows, rowPx);
}

/** One node of a virtual tree; children are made when it is first expanded. */
export interface TreeItem {
  label: string;
  /** Extra classes of the row (colours by kind). */
  cls: string;
  /** Shown as data-path (tests and links). */
  path: string;
  /** The bytes the node stands for, when it has any. */
  offset?: number;
  size?: number;
  /** Set for nodes that can hold children (even none). */
  kids?: () => TreeItem[];
}

interface Row {
  item: TreeItem;
  depth: number;
  expanded: boolean;
  parent: Row | undefined;
  /** 1-based position among its siblings, and their number (aria-posinset / aria-setsize). */
  pos: number;
  setSize: number;
  children?: Row[];
  id: number;
}

const TREE_ROW_PX = 20;

/** A keyboard-navigable, virtualized tree in `box` (which gets role="tree"). */
export class VirtualTree {
  private rows: Row[] = [];
  private roots: Row[] = [];
  private active = -1;
  private serial = 0;
  private readonly list: HTMLElement;
  private readonly spacer: HTMLElement;
  private pending = false;

  /** `onActive` runs when the active row changes, `onActivate` on Enter or a click. */
  constructor(
    private readonly box: HTMLElement,
    private readonly onActive: (item: TreeItem) => void,
    private readonly onActivate: (item: TreeItem, byKeyboard: boolean) => void,
  ) {
    box.setAttribute('role', 'tree');
    box.tabIndex = 0;
    box.classList.add('vtree');
    box.textContent = '';
    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    this.spacer.setAttribute('role', 'none');
    this.list = document.createElement('div');
    this.list.className = 'rows';
    this.list.setAttribute('role', 'none');
    box.append(this.spacer, this.list);
    box.addEventListener('scroll', () => this.schedule());
    box.addEventListener('keydown', (ev) => this.key(ev));
    box.addEventListener('click', (ev) => {
      const row = (ev.target as HTMLElement).closest<HTMLElement>('[data-row]');
      if (!row) return;
      const i = Number(row.dataset.row);
      const toggle = (ev.target as HTMLElement).classList.contains('twisty');
      this.setActive(i);
      if (toggle) this.toggle(i);
      else this.onActivate(this.rows[i]!.item, false);
    });
  }

  /** Replaces the tree's content; nodes up to depth `open` start expanded. */
  set(roots: TreeItem[], open = 1): void {
    this.serial = 0;
    const rows: Row[] = [];
    const add = (items: TreeItem[], depth: number, parent: Row | undefined) => {
      const made = items.map((item, i) => this.row(item, depth, parent, i, items.length));
      if (parent) parent.children = made;
      for (const r of made) {
        rows.push(r);
        if (r.item.kids && depth < open) {
          r.expanded = true;
          add(r.item.kids(), depth + 1, r);
        }
      }
    };
    add(roots, 0, undefined);
    this.rows = rows;
    this.roots = rows.filter((r) => r.depth === 0);
    this.active = rows.length ? 0 : -1;
    this.box.scrollTop = 0;
    this.layout();
  }

  /** The number of rows now visible (expanded). */
  get visibleRows(): number {
    return this.rows.length;
  }

  /** The active item. */
  get current(): TreeItem | undefined {
    return this.rows[this.active]?.item;
  }

  /**
   * Expands the path of child positions from the roots (`[2, 0, 5]`) and makes its last node
   * active, scrolled into view. Returns false when a position does not exist.
   */
  reveal(positions: readonly number[]): boolean {
    let siblings = this.roots;
    let row: Row | undefined;
    for (const p of positions) {
      if (row) {
        const i = this.indexOf(row);
        if (!row.expanded) this.expand(i);
        siblings = row.children ?? [];
      }
      row = siblings[p];
      if (!row) return false;
    }
    if (!row) return false;
    this.setActive(this.indexOf(row));
    return true;
  }

  private row(item: TreeItem, depth: number, parent: Row | undefined, i: number, n: number): Row {
    return { item, depth, expanded: false, parent, pos: i + 1, setSize: n, id: this.serial++ };
  }

  /** A row's index among the visible rows: a binary search is not possible (depths interleave), so rows carry no index; this walks from its parent, which is bounded by the parent's visible subtree. */
  private indexOf(row: Row): number {
    const start = row.parent ? this.indexOf(row.parent) : 0;
    for (let i = start; i < this.rows.length; i++) if (this.rows[i] === row) return i;
    return -1;
  }

  private expand(i: number): void {
    const r = this.rows[i]!;
    if (!r.item.kids || r.expanded) return;
    if (!r.children) {
      const kids = r.item.kids();
      r.children = kids.map((item, k) => this.row(item, r.depth + 1, r, k, kids.length));
    }
    r.expanded = true;
    const shown: Row[] = [];
    const walk = (rows: Row[]) => {
      for (const c of rows) {
        shown.push(c);
        if (c.expanded && c.children) walk(c.children);
      }
    };
    walk(r.children);
    this.rows = this.rows.slice(0, i + 1).concat(shown, this.rows.slice(i + 1));
    this.layout();
  }

  private collapse(i: number): void {
    const r = this.rows[i]!;
    if (!r.expanded) return;
    let end = i + 1;
    while (end < this.rows.length && this.rows[end]!.depth > r.depth) end++;
    r.expanded = false;
    this.rows = this.rows.slice(0, i + 1).concat(this.rows.slice(end));
    if (this.active > i && this.active < end) this.active = i;
    this.layout();
  }

  private toggle(i: number): void {
    if (this.rows[i]!.expanded) this.collapse(i);
    else this.expand(i);
  }

  private setActive(i: number): void {
    if (i < 0 || i >= this.rows.length) return;
    this.active = i;
    keepInView(this.box, i, this.rows.length, TREE_ROW_PX);
    this.render();
    this.onActive(this.rows[i]!.item);
  }

  private key(ev: KeyboardEvent): void {
    const i = this.active;
    const r = this.rows[i];
    if (!r) return;
    const page = Math.max(1, Math.floor((this.box.clientHeight || 400) / TREE_ROW_PX) - 1);
    switch (ev.key) {
      case 'ArrowDown':
        this.setActive(i + 1);
        break;
      case 'ArrowUp':
        this.setActive(i - 1);
        break;
      case 'PageDown':
        this.setActive(Math.min(this.rows.length - 1, i + page));
        break;
      case 'PageUp':
        this.setActive(Math.max(0, i - page));
        break;
      case 'Home':
        this.setActive(0);
        break;
      case 'End':
        this.setActive(this.rows.length - 1);
        break;
      case 'ArrowRight':
        if (r.item.kids && !r.expanded) {
          this.expand(i);
          this.render();
        } else if (r.expanded && r.children?.length) this.setActive(i + 1);
        break;
      case 'ArrowLeft':
        if (r.expanded) {
          this.collapse(i);
          this.render();
        } else if (r.parent) this.setActive(this.indexOf(r.parent));
        break;
      case 'Enter':
        this.onActivate(r.item, true);
        break;
      case ' ':
        if (r.item.kids) {
          this.toggle(i);
          this.render();
        }
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  private layout(): void {
    this.spacer.style.height = `${spacerPx(this.rows.length, TREE_ROW_PX)}px`;
    this.box.setAttribute('aria-busy', 'false');
    this.schedule(true);
  }

  private schedule(now = false): void {
    if (now) {
      this.render();
      return;
    }
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.render();
    });
  }

  private render(): void {
    const { first, last, top } = windowOf(this.box, this.rows.length, TREE_ROW_PX);
    this.list.style.top = `${top}px`;
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const r = this.rows[i]!;
      const e = document.createElement('div');
      e.setAttribute('role', 'treeitem');
      e.id = `${this.box.id}-n${r.id}`;
      e.className = `node ${r.item.cls}${i === this.active ? ' active' : ''}`;
      e.dataset.row = String(i);
      e.dataset.path = r.item.path;
      if (r.item.offset !== undefined) {
        e.dataset.offset = String(r.item.offset);
        e.dataset.size = String(r.item.size ?? 0);
      }
      e.setAttribute('aria-level', String(r.depth + 1));
      e.setAttribute('aria-posinset', String(r.pos));
      e.setAttribute('aria-setsize', String(r.setSize));
      e.setAttribute('aria-selected', i === this.active ? 'true' : 'false');
      if (r.item.kids) e.setAttribute('aria-expanded', r.expanded ? 'true' : 'false');
      e.style.paddingLeft = `${r.depth * 14 + 4}px`;
      const twisty = document.createElement('span');
      twisty.className = 'twisty';
      twisty.setAttribute('aria-hidden', 'true');
      twisty.textContent = r.item.kids ? (r.expanded ? '▾' : '▸') : ' ';
      e.append(twisty, document.createTextNode(r.item.label));
      frag.appendChild(e);
    }
    this.list.textContent = '';
    this.list.appendChild(frag);
    const activeRow = this.rows[this.active];
    if (activeRow && this.active >= first && this.active < last) this.box.setAttribute('aria-activedescendant', `${this.box.id}-n${activeRow.id}`);
    else this.box.removeAttribute('aria-activedescendant');
  }
}

/**
 * Text in a <pre>: set whole when short, else drawn a window of lines at a time (a 500,000-range
 * root signature prints some four million lines). The element's `dataset.lines` holds the count.
 */
export function setText(pre: HTMLElement, text: string, maxWhole = 5000): void {
  const state = pre as HTMLElement & { __lines?: string[]; __wired?: boolean };
  pre.textContent = '';
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0 && lines <= maxWhole; i = text.indexOf('\n', i + 1)) lines++;
  if (lines <= maxWhole) {
    pre.classList.remove('vtext');
    state.__lines = undefined;
    pre.textContent = text;
    pre.dataset.lines = String(lines + 1);
    return;
  }
  const all = text.split('\n');
  state.__lines = all;
  pre.dataset.lines = String(all.length);
  pre.classList.add('vtext');
  const spacer = document.createElement('div');
  spacer.className = 'spacer';
  const body = document.createElement('div');
  body.className = 'lines';
  pre.append(spacer, body);
  spacer.style.height = `${spacerPx(all.length, TEXT_LINE_PX)}px`;
  const draw = () => {
    const shown = state.__lines;
    if (!shown) return;
    const { first, last, top } = windowOf(pre, shown.length, TEXT_LINE_PX);
    body.style.top = `${top}px`;
    body.textContent = shown.slice(first, last).join('\n');
  };
  if (!state.__wired) {
    state.__wired = true;
    pre.addEventListener('scroll', () => requestAnimationFrame(() => pre.classList.contains('vtext') && draw()));
  }
  pre.scrollTop = 0;
  draw();
}

const TEXT_LINE_PX = 16;
