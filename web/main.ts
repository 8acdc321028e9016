/**
 * The web inspector (site/ after `npm run build:web`): reads files in the page with dxbin's public
 * API. Every string from a file reaches the DOM through textContent or setAttribute, never as
 * markup; the page's CSP allows no inline script and no eval (WASM compiles under
 * 'wasm-unsafe-eval'; without it the kernels' JS fallback serves).
 */
import {
  CONVERSION_SEMANTICS,
  DxbinError,
  ROOT_SIGNATURE_VERSIONS,
  VALIDATION_TARGETS,
  codecs,
  compileRootSignatureBlob,
  HlslFile,
  computeContainerDigest,
  convertRootSignature,
  describeConversionReport,
  digestStatus,
  encodeRootSignature,
  looksLikeContainer,
  parseContainer,
  parseJsonText,
  printRootSignature,
  printable,
  readRootSignatureSource,
  rootSignatureContainer,
  rootSignatureFromJson,
  rootSignatureToJson,
  toHex,
  validateRootSignature,
  withRootSignature,
  writeEdited,
  type ParsedContainer,
  type RootSignature,
  type RootSignatureSource,
} from '../src/index.js';
import { QUERY_TYPES, activeKernels, decodeQueryResults, kernels, selectKernels, type QueryColumns } from '../src/query/index.js';
import { LEAF_KINDS, byteMap, spanValueText, timingPicture, timingsSvgTree, type ByteMap, type ByteSpan, type SvgNode } from '../src/inspect/index.js';

// ---------------------------------------------------------------- DOM helpers

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** An element with text (never markup) and optional class and children. */
function h(tag: string, text?: string, cls?: string, children: Node[] = []): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  for (const c of children) e.appendChild(c);
  return e;
}

function status(text: string, error = false): void {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', error);
}

function download(bytes: Uint8Array, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

function message(e: unknown): string {
  if (e instanceof DxbinError) return e.message;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

const stem = (name: string) => name.replace(/\.[^.]*$/, '');
const extension = (name: string) => (/\.[^.]*$/.exec(name)?.[0] ?? '');

// ---------------------------------------------------------------- kernels

/** The WASM kernels when this page may compile them, else the JS fallback. */
function chooseKernels(): string {
  for (const name of ['simd', 'scalar'] as const) {
    try {
      kernels(name);
      selectKernels(name);
      return name;
    } catch {
      // unavailable or refused by the CSP: try the next
    }
  }
  selectKernels('js');
  return activeKernels().name;
}

// ---------------------------------------------------------------- state

interface Loaded {
  name: string;
  bytes: Uint8Array;
  map?: ByteMap;
  /** Leaves sorted by offset, for lookups by byte. */
  leaves?: ByteSpan[];
  /** A leaf's position among the leaves (its colour). */
  leafIndex?: Map<ByteSpan, number>;
  container?: ParsedContainer;
  source?: RootSignatureSource;
  query?: { type: (typeof QUERY_TYPES)[number]; columns: QueryColumns };
}

let current: Loaded | undefined;
let selection: { from: number; to: number } | undefined;
let converted: { bytes: Uint8Array; name: string } | undefined;

// ---------------------------------------------------------------- loading

async function loadFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  load(file.name, bytes);
}

function load(name: string, bytes: Uint8Array): void {
  for (const id of ['container-view', 'rootsig-view', 'bytes-view', 'query-view']) $(id).hidden = true;
  selection = undefined;
  converted = undefined;
  $('download-converted').hidden = true;
  $('report').textContent = '';
  const mode = ($('mode') as HTMLSelectElement).value;
  try {
    if (/\.json$/i.test(name) && mode !== 'query') {
      const rs = rootSignatureFromJson(parseJsonText(new TextDecoder().decode(bytes)));
      showRootSignatureBlob(name, rootSignatureContainer(encodeRootSignature(rs)), `JSON form, encoded as a root-signature-only container`);
      return;
    }
    if (mode === 'query' || (mode === 'auto' && !looksLikeContainer(bytes) && !decodesAsRootSignature(bytes))) {
      showQuery(name, bytes);
      return;
    }
    showRootSignatureBlob(name, bytes);
  } catch (e) {
    current = undefined;
    $('summary').textContent = `${name}: ${bytes.byteLength} bytes`;
    status(message(e), true);
  }
}

function decodesAsRootSignature(bytes: Uint8Array): boolean {
  try {
    readRootSignatureSource(bytes);
    return true;
  } catch {
    return false;
  }
}

function showRootSignatureBlob(name: string, bytes: Uint8Array, note?: string): void {
  const isContainer = looksLikeContainer(bytes);
  const container = isContainer ? parseContainer(bytes, { mode: 'lenient' }) : undefined;
  let source: RootSignatureSource | undefined;
  let rsError: string | undefined;
  try {
    source = readRootSignatureSource(bytes, 'lenient');
  } catch (e) {
    rsError = message(e);
  }
  const map = byteMap(bytes, isContainer ? { mode: 'lenient' } : { format: 'rts0' });
  const leaves = map.spans.filter((s) => LEAF_KINDS.has(s.kind));
  current = { name, bytes, map, leaves, leafIndex: new Map(leaves.map((s, i) => [s, i])), ...(container ? { container } : {}), ...(source ? { source } : {}) };
  $('summary').textContent = `${name}: ${bytes.byteLength} bytes, ${isContainer ? `container with ${container!.parts.length} part${container!.parts.length === 1 ? '' : 's'}` : 'bare RTS0 part'}${note ? ` (${note})` : ''}`;
  status(rsError ? `no root signature: ${rsError}` : 'read', rsError !== undefined && !isContainer);
  if (container) showParts(bytes, container);
  if (source) showRootSignature(source.rootSignature);
  showBytes();
}

// ---------------------------------------------------------------- parts and digest

function showParts(bytes: Uint8Array, c: ParsedContainer): void {
  $('container-view').hidden = false;
  const st = digestStatus(c.digest, computeContainerDigest(bytes, c.layout.declaredSize));
  const digest = $('digest');
  digest.textContent = '';
  digest.appendChild(h('span', `digest ${toHex(c.digest)}: `));
  const word = st.status === 'valid' ? 'valid' : st.status === 'sentinel' ? `sentinel (${st.sentinel})` : `invalid (expected ${toHex(st.expected)})`;
  digest.appendChild(h('span', word, st.status === 'valid' ? 'ok' : st.status === 'sentinel' ? 'warn' : 'bad'));
  digest.dataset.status = st.status;
  $('fix').hidden = st.status === 'valid';
  const body = $('parts').querySelector('tbody')!;
  body.textContent = '';
  c.parts.forEach((p, i) => {
    const at = c.layout.partOffsets[i]!;
    const row = h('tr', undefined, 'part', [
      h('td', String(i)),
      h('td', printable(p.name), 'fourcc'),
      h('td', String(at)),
      h('td', String(p.data.byteLength)),
      h('td', codecs.PART_KINDS.find((k) => k.fourCC === p.name)?.what ?? 'unknown part'),
    ]);
    row.addEventListener('click', () => select(at, at + 8 + p.data.byteLength, true));
    body.appendChild(row);
  });
}

function fixDigest(): void {
  if (!current?.container) return;
  const fixed = current.bytes.slice();
  fixed.set(computeContainerDigest(fixed, current.container.layout.declaredSize), 4);
  download(fixed, `${stem(current.name)}.fixed${extension(current.name)}`);
  status('digest fixed: downloaded a copy with the computed digest');
}

// ---------------------------------------------------------------- root signature

function showRootSignature(rs: RootSignature): void {
  $('rootsig-view').hidden = false;
  $('hlsl-out').textContent = printRootSignature(rs, { multiline: true });
  const json = rootSignatureToJson(rs);
  $('json-out').textContent = JSON.stringify(json, null, 2);
  const rsTree = $('rs-tree');
  rsTree.textContent = '';
  rsTree.appendChild(h('ul', undefined, undefined, [jsonNode('RTS0', json, 'RTS0')]));
  const v = $('validation');
  v.textContent = '';
  for (const target of VALIDATION_TARGETS.filter((t) => t !== 'all')) {
    const violations = validateRootSignature(rs, { target });
    const block = h('div', undefined, 'target');
    block.dataset.target = target;
    block.appendChild(h('strong', `${target}: `));
    block.appendChild(h('span', violations.length === 0 ? 'valid' : `${violations.length} violation${violations.length === 1 ? '' : 's'}`, violations.length === 0 ? 'ok' : 'bad'));
    if (violations.length > 0) block.appendChild(h('ul', undefined, undefined, violations.map((x) => h('li', `${x.code} ${x.path} ${x.message}`))));
    v.appendChild(block);
  }
  const to = $('convert-to') as HTMLSelectElement;
  const other = ROOT_SIGNATURE_VERSIONS.find((x) => x.value !== rs.version);
  if (other && to.value === ROOT_SIGNATURE_VERSIONS.find((x) => x.value === rs.version)?.name) to.value = other.name;
}

/** The span of a description path (`RTS0.parameters[1].ranges[0]`) in the loaded map. */
function spanOf(path: string): ByteSpan | undefined {
  return current?.map?.spans.find((s) => s.path === path || s.path === `${path}.header`);
}

/**
 * One node of the root signature tree, from the JSON form: objects and arrays nest, values are
 * leaves; a node whose path has a span in the byte map selects those bytes when clicked.
 */
function jsonNode(label: string, value: unknown, path: string): HTMLElement {
  const isObject = typeof value === 'object' && value !== null;
  const span = spanOf(path);
  const text = isObject ? `${label}${Array.isArray(value) ? ` [${value.length}]` : ''}` : `${label}: ${JSON.stringify(value)}`;
  const node = h('span', text, `node${isObject ? ' group' : ''}`);
  node.dataset.path = path;
  if (span) {
    node.dataset.offset = String(span.offset);
    node.dataset.size = String(span.size);
    node.addEventListener('click', (ev) => {
      ev.stopPropagation();
      for (const n of document.querySelectorAll('.tree .node.sel')) n.classList.remove('sel');
      node.classList.add('sel');
      select(span.offset, span.offset + span.size, true);
      $('hex-info').textContent = describe(span.offset);
    });
  }
  const li = h('li', undefined, undefined, [node]);
  if (isObject) {
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v, `${path}[${i}]`] as const) : Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, v, `${path}.${k}`] as const);
    li.appendChild(h('ul', undefined, undefined, entries.map(([k, v, p]) => jsonNode(k, v, p))));
  }
  return li;
}

function convert(): void {
  const src = current?.source;
  if (!current || !src) return;
  try {
    const target = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === ($('convert-to') as HTMLSelectElement).value)!;
    const semantics = ($('semantics') as HTMLSelectElement).value as (typeof CONVERSION_SEMANTICS)[number];
    const { rootSignature, report } = convertRootSignature(src.rootSignature, target.value, { semantics });
    const rts0 = encodeRootSignature(rootSignature);
    const bytes = src.container ? writeEdited(withRootSignature(src.container, rts0), src.container, current.bytes) : rts0;
    converted = { bytes, name: `${stem(current.name)}.v${target.name}${extension(current.name) || '.dxbc'}` };
    $('report').textContent = [`${report.lossless ? 'lossless' : 'LOSSY'}: ${report.added.length} added, ${report.dropped.length} dropped, ${report.notExpressible.length} not expressible`, ...describeConversionReport(report)].join('\n');
    $('download-converted').hidden = false;
    status(`converted to ${target.name} (${semantics} semantics)`);
  } catch (e) {
    converted = undefined;
    $('download-converted').hidden = true;
    $('report').textContent = message(e);
    status(message(e), true);
  }
}

// ---------------------------------------------------------------- byte tree and hex view

const ROW = 16;
const ROW_PX = 18;

/**
 * Browsers cap an element's height (Chromium near 2^25 px), so a virtual list taller than this
 * scrolls scaled: the spacer stays this tall and the scroll position is a fraction of the rows.
 */
const MAX_SCROLL_PX = 8_000_000;

/** The rows to draw for a scroll box holding `rows` rows of `rowPx`, and where to draw them. */
function windowOf(box: HTMLElement, rows: number, rowPx: number, header = 0): { first: number; last: number; top: number } {
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
const spacerPx = (rows: number, rowPx: number, header = 0) => Math.min(MAX_SCROLL_PX, (rows + header) * rowPx);

/** Scrolls `box` so that `row` is near its top. */
function scrollToRow(box: HTMLElement, row: number, rows: number, rowPx: number): void {
  const h = box.clientHeight || 400;
  if (rows * rowPx <= MAX_SCROLL_PX) box.scrollTop = Math.max(0, (row - 2) * rowPx);
  else box.scrollTop = (row / Math.max(1, rows - Math.ceil(h / rowPx) - 1)) * (MAX_SCROLL_PX - h);
}

/** The innermost leaf holding `offset` (binary search over sorted leaves). */
function leafAt(offset: number): ByteSpan | undefined {
  if (current?.query) {
    const m = byteMap(current.bytes, { format: 'query', type: current.query.type.value, window: { from: offset, to: offset + 1 } });
    return m.spans.find((s) => LEAF_KINDS.has(s.kind));
  }
  const leaves = current?.leaves ?? [];
  let lo = 0;
  let hi = leaves.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = leaves[mid]!;
    if (offset < s.offset) hi = mid - 1;
    else if (offset >= s.offset + s.size) lo = mid + 1;
    else return s;
  }
  return undefined;
}

function groupsAt(offset: number): ByteSpan[] {
  if (!current?.map || current.query) return [];
  return current.map.spans.filter((s) => !LEAF_KINDS.has(s.kind) && s.offset <= offset && offset < s.offset + s.size);
}

function describe(offset: number): string {
  const leaf = leafAt(offset);
  if (!leaf) return `byte ${offset}`;
  const value = leaf.kind === 'field' ? ` = ${spanValueText(leaf)}` : ` (${leaf.kind}, ${leaf.size} bytes)`;
  const inside = groupsAt(offset).map((g) => g.path).join(' > ');
  return `byte ${offset} (0x${offset.toString(16)}): ${leaf.path}${value}\nbytes ${leaf.offset}..${leaf.offset + leaf.size - 1}${inside ? ` in ${inside}` : ''}`;
}

function showBytes(): void {
  $('bytes-view').hidden = false;
  const tree = $('tree');
  tree.textContent = '';
  if (current?.map) tree.appendChild(buildTree(current.map));
  const hex = $('hex');
  (hex.querySelector('.spacer') as HTMLElement).style.height = `${spacerPx(Math.ceil(current!.bytes.byteLength / ROW), ROW_PX)}px`;
  hex.scrollTop = 0;
  renderHex();
}

/** The map's spans as nested lists, by byte containment (enclosing spans hold what lies inside them). */
function buildTree(map: ByteMap): HTMLElement {
  const root = h('ul');
  const stack: { span: ByteSpan | undefined; list: HTMLElement }[] = [{ span: undefined, list: root }];
  let nodes = 0;
  for (const s of map.spans) {
    if (++nodes > 20000) {
      root.appendChild(h('li', `… ${map.spans.length - 20000} more spans (see the hex view)`));
      break;
    }
    while (stack.length > 1 && stack[stack.length - 1]!.span!.offset + stack[stack.length - 1]!.span!.size <= s.offset) stack.pop();
    const parent = stack[stack.length - 1]!;
    const group = !LEAF_KINDS.has(s.kind);
    const label = group ? `${s.path}${s.name ? ` (${s.name})` : ''} · ${s.size} bytes at ${s.offset}` : `${s.path}${s.kind === 'field' ? ` = ${spanValueText(s)}` : ` · ${s.kind}, ${s.size} bytes`}`;
    const node = h('span', label, `node ${group ? 'group' : `k-${s.kind}`}`);
    node.dataset.offset = String(s.offset);
    node.dataset.size = String(s.size);
    node.dataset.path = s.path;
    node.addEventListener('click', (ev) => {
      ev.stopPropagation();
      for (const n of document.querySelectorAll('.tree .node.sel')) n.classList.remove('sel');
      node.classList.add('sel');
      select(s.offset, s.offset + s.size, true);
      $('hex-info').textContent = describe(s.offset);
    });
    const li = h('li', undefined, undefined, [node]);
    parent.list.appendChild(li);
    if (group) {
      const list = h('ul');
      li.appendChild(list);
      stack.push({ span: s, list });
    }
  }
  return root;
}

function select(from: number, to: number, scroll: boolean): void {
  selection = { from, to };
  if (scroll) {
    const hex = $('hex');
    const row = Math.floor(from / ROW);
    const shown = windowOf(hex, Math.ceil(current!.bytes.byteLength / ROW), ROW_PX);
    if (row < shown.first + 2 || row > shown.first + Math.floor(hex.clientHeight / ROW_PX) - 1) scrollToRow(hex, row, Math.ceil(current!.bytes.byteLength / ROW), ROW_PX);
  }
  renderHex();
}

function renderHex(): void {
  if (!current) return;
  const hex = $('hex');
  const rows = hex.querySelector('.rows') as HTMLElement;
  const bytes = current.bytes;
  const total = Math.ceil(bytes.byteLength / ROW);
  const { first, last, top } = windowOf(hex, total, ROW_PX);
  rows.style.top = `${top}px`;
  rows.textContent = '';
  const from = first * ROW;
  const to = Math.min(bytes.byteLength, last * ROW);
  // leaf per byte of the window, with a colour index per field
  const spans = current.query
    ? byteMap(bytes, { format: 'query', type: current.query.type.value, window: { from, to } }).spans.filter((s) => LEAF_KINDS.has(s.kind))
    : (current.leaves ?? []).filter((s) => s.offset < to && s.offset + s.size > from);
  const cls = new Array<string>(to - from).fill('');
  for (const s of spans) {
    const c = s.kind === 'field' ? `c${(current.query ? Math.floor(s.offset / 4) : (current.leafIndex?.get(s) ?? 0)) % 5}` : `k-${s.kind}`;
    for (let b = Math.max(from, s.offset); b < Math.min(to, s.offset + s.size); b++) cls[b - from] = c;
  }
  const frag = document.createDocumentFragment();
  for (let r = first; r < last; r++) {
    const line = h('div', undefined, 'r');
    line.appendChild(h('span', (r * ROW).toString(16).padStart(8, '0'), 'o'));
    let ascii = '';
    for (let i = 0; i < ROW; i++) {
      const at = r * ROW + i;
      if (at >= bytes.byteLength) break;
      const b = bytes[at]!;
      const sel = selection && at >= selection.from && at < selection.to ? ' sel' : '';
      const cell = h('span', b.toString(16).padStart(2, '0'), `b ${cls[at - from]}${sel}`);
      cell.dataset.o = String(at);
      line.appendChild(cell);
      if (i === 7) line.appendChild(document.createTextNode(' '));
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    line.appendChild(h('span', ascii, 'a'));
    frag.appendChild(line);
  }
  rows.appendChild(frag);
}

function hexHover(ev: Event): void {
  const t = ev.target as HTMLElement;
  if (!t.dataset?.o) return;
  $('hex-info').textContent = describe(Number(t.dataset.o));
}

function hexClick(ev: Event): void {
  const t = ev.target as HTMLElement;
  if (!t.dataset?.o) return;
  const at = Number(t.dataset.o);
  const leaf = leafAt(at);
  $('hex-info').textContent = describe(at);
  if (leaf) select(leaf.offset, leaf.offset + leaf.size, false);
}

// ---------------------------------------------------------------- query buffers

function showQuery(name: string, bytes: Uint8Array): void {
  const type = QUERY_TYPES.find((q) => q.cli === ($('query-type') as HTMLSelectElement).value) ?? QUERY_TYPES[0]!;
  const frequency = Number(($('frequency') as HTMLInputElement).value);
  const marks = ($('marks') as HTMLInputElement).checked;
  const t0 = performance.now();
  const usable = bytes.subarray(0, bytes.byteLength - (bytes.byteLength % type.result.size));
  const columns = decodeQueryResults(usable, type);
  current = { name, bytes, query: { type, columns } };
  $('summary').textContent = `${name}: ${bytes.byteLength} bytes, ${columns.count} ${type.name} result${columns.count === 1 ? '' : 's'} (${type.result.name}, ${type.result.size} bytes each)${usable.byteLength < bytes.byteLength ? `, ${bytes.byteLength - usable.byteLength} trailing bytes` : ''}`;
  $('query-view').hidden = false;
  $('query-info').textContent = `kernels: ${activeKernels().name}`;
  const pictures = $('pictures');
  pictures.textContent = '';
  let timing = `decoded ${columns.count} results`;
  if (type.name === 'TIMESTAMP') {
    if (!(frequency > 0)) throw new Error('the tick frequency must be a positive number of Hz');
    const stamps = marks ? usable : usable.subarray(0, usable.byteLength - (usable.byteLength % 16));
    const picture = timingPicture(stamps, { frequency, pairs: !marks, bins: 40, width: 800 });
    pictures.appendChild(svgDom(timingsSvgTree(picture, `${name}: ${marks ? 'consecutive marks' : '[begin, end] pairs'}`)));
    timing = `decoded ${columns.count} timestamps and drew ${picture.count} durations (${picture.valid} valid, ${picture.flagged} flagged)`;
  }
  const ms = performance.now() - t0;
  const timingLine = $('timing');
  timingLine.textContent = `${timing} in ${ms.toFixed(1)} ms`;
  timingLine.dataset.ms = ms.toFixed(1);
  status('read as a query buffer');
  setupQueryTable();
  showBytes();
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** DOM nodes from an SVG tree: attributes by setAttribute, text by textContent. */
function svgDom(node: SvgNode): Element {
  const e = document.createElementNS(SVG_NS, node.tag);
  for (const [k, v] of Object.entries(node.attrs)) if (k !== 'xmlns') e.setAttribute(k, String(v));
  if (node.text !== undefined) e.textContent = node.text;
  for (const c of node.children ?? []) e.appendChild(svgDom(c));
  return e;
}

const TABLE_ROW_PX = 20;

function setupQueryTable(): void {
  const box = $('query-table');
  const q = current!.query!;
  (box.querySelector('.spacer') as HTMLElement).style.height = `${spacerPx(q.columns.count, TABLE_ROW_PX, 1)}px`;
  box.scrollTop = 0;
  const head = box.querySelector('thead')!;
  head.textContent = '';
  head.appendChild(h('tr', undefined, undefined, [h('th', '#'), ...q.type.result.fields.map((f) => h('th', f.name))]));
  renderQueryTable();
}

function renderQueryTable(): void {
  const q = current?.query;
  if (!q) return;
  const box = $('query-table');
  const table = box.querySelector('table') as HTMLElement;
  const body = box.querySelector('tbody')!;
  const { first, last, top } = windowOf(box, q.columns.count, TABLE_ROW_PX, 1);
  table.style.top = `${top}px`;
  body.textContent = '';
  const names = q.type.result.fields.map((f) => f.name);
  for (let i = first; i < last; i++) {
    const row = h('tr', undefined, undefined, [h('td', String(i)), ...names.map((n) => h('td', q.columns.columns[n]![i]!.toString()))]);
    row.addEventListener('click', () => select(i * q.type.result.size, (i + 1) * q.type.result.size, true));
    body.appendChild(row);
  }
}

// ---------------------------------------------------------------- HLSL text

/**
 * The compile box: HLSL through DXC's preprocessor, as the CLI reads a file. With a macro name the
 * root signature is that macro at the end of the text (`--define NAME`); without one, the taken
 * text itself. `-D NAME[=VALUE]` and `-U NAME` words apply in order, as on dxc's command line.
 */
function compileText(): void {
  const text = ($('hlsl') as HTMLTextAreaElement).value;
  const define = ($('hlsl-define') as HTMLInputElement).value.trim();
  const flags = ($('hlsl-flags') as HTMLInputElement).value.trim();
  const version = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === ($('hlsl-version') as HTMLSelectElement).value)!.value;
  try {
    const defines: ['D' | 'U', string][] = [];
    const words = flags === '' ? [] : flags.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const m = /^-([DU])(.*)$/.exec(words[i]!);
      if (!m) throw new Error(`flags: ${words[i]} is neither -D NAME[=VALUE] nor -U NAME`);
      const arg = m[2] !== '' ? m[2]! : words[++i];
      if (arg === undefined) throw new Error(`flags: -${m[1]} needs a name`);
      defines.push([m[1] as 'D' | 'U', arg]);
    }
    const file = new HlslFile(text, 'pasted.hlsl', {}, {}, { defines });
    const source = define !== '' ? file.defineText(define) : file.takenText();
    const blob = compileRootSignatureBlob(source, { version });
    ($('mode') as HTMLSelectElement).value = 'auto';
    load('pasted.rs.dxbc', blob);
    status(`compiled as root signature ${ROOT_SIGNATURE_VERSIONS.find((v) => v.value === version)!.name}`);
  } catch (e) {
    status(message(e), true);
  }
}

// ---------------------------------------------------------------- wiring

function options(select: HTMLSelectElement, values: readonly string[], chosen?: string): void {
  for (const v of values) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v;
    select.appendChild(o);
  }
  if (chosen !== undefined) select.value = chosen;
}

function start(): void {
  const active = chooseKernels();
  document.body.dataset.kernels = active;
  options($('hlsl-version') as HTMLSelectElement, ROOT_SIGNATURE_VERSIONS.map((v) => v.name), '1.1');
  options($('convert-to') as HTMLSelectElement, ROOT_SIGNATURE_VERSIONS.map((v) => v.name), '1.0');
  options($('semantics') as HTMLSelectElement, CONVERSION_SEMANTICS, 'runtime');
  options($('query-type') as HTMLSelectElement, QUERY_TYPES.map((q) => q.cli), 'timestamp');
  const input = $('file') as HTMLInputElement;
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) void loadFile(f).catch((e) => status(message(e), true));
    input.value = '';
  });
  const drop = document.body;
  drop.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    $('drop').classList.add('over');
  });
  drop.addEventListener('dragleave', () => $('drop').classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    $('drop').classList.remove('over');
    const f = ev.dataTransfer?.files?.[0];
    if (f) void loadFile(f).catch((e) => status(message(e), true));
  });
  $('compile').addEventListener('click', compileText);
  $('fix').addEventListener('click', fixDigest);
  $('convert').addEventListener('click', convert);
  $('download-converted').addEventListener('click', () => converted && download(converted.bytes, converted.name));
  const hex = $('hex');
  hex.addEventListener('scroll', () => requestAnimationFrame(renderHex));
  hex.addEventListener('mouseover', hexHover);
  hex.addEventListener('click', hexClick);
  $('query-table').addEventListener('scroll', () => requestAnimationFrame(renderQueryTable));
  for (const id of ['query-type', 'frequency', 'marks']) {
    $(id).addEventListener('change', () => {
      if (current?.query) load(current.name, current.bytes);
    });
  }
  // benchmarks and tests may force the JS fallback (bench/web.ts)
  window.addEventListener('dxbin-kernels', (ev) => {
    selectKernels((ev as CustomEvent<'js' | 'simd' | 'scalar'>).detail);
    document.body.dataset.kernels = activeKernels().name;
  });
  status(`ready (query kernels: ${active})`);
  document.body.dataset.ready = '1';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
