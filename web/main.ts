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
  pipelineFromJson,
  printRootSignature,
  printable,
  readRootSignatureSource,
  rootSignatureContainer,
  rootSignatureFromJson,
  rootSignatureToJson,
  toHex,
  validateRootSignature,
  verifyPipeline,
  withRootSignature,
  writeEdited,
  type ParsedContainer,
  type RootSignature,
  type RootSignatureSource,
} from '../src/index.js';
import { QUERY_TYPES, activeKernels, decodeQueryResults, kernels, selectKernels, timestampDurations } from '../src/query/index.js';
import { LEAF_KINDS, byteMap, formatNs, spanValueText, timingPicture, timingsSvgTree, type ByteMap, type ByteSpan, type SvgNode } from '../src/inspect/index.js';
import { COPY_LIMIT, ancestors, copyCArray, copyHex, durationStats, findBytes, indexSpans, inspectValues, leafAt, leafPosition, parseOffset, pathIndex, positionsTo, spanByPath, searchPattern, type SpanIndex } from './tools.js';
import { VirtualTree, keepInView, setText, spacerPx, windowOf, type TreeItem } from './virtual.js';

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
  /** The map indexed once (parents, children, leaves by offset). */
  index?: SpanIndex;
  /** Span by path, made when the root signature tree first needs it. */
  byPath?: Map<string, number>;
  container?: ParsedContainer;
  source?: RootSignatureSource;
  /** A query buffer: its type, whole results, and those results' bytes (rows are decoded as they are drawn). */
  query?: { type: (typeof QUERY_TYPES)[number]; count: number; usable: Uint8Array; durations?: { ns: Float64Array; flags: Uint8Array; count: number; pairs: boolean } };
  /** Read as a query buffer (even if that failed, so changing an option reads it again). */
  queryAttempt?: boolean;
}

let current: Loaded | undefined;
/** Loads so far (body[data-loads]); deferred work of an older load stops. */
let loads = 0;
/** The selected bytes [from, to) and where a Shift-extended selection started. */
let selection: { from: number; to: number } | undefined;
let anchor = 0;
/** The hex view's cursor (a byte offset). */
let cursor = 0;
let converted: { bytes: Uint8Array; name: string } | undefined;
let byteTree: VirtualTree;
let rsTree: VirtualTree;

// ---------------------------------------------------------------- loading

async function loadFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  load(file.name, bytes);
}

/** Milliseconds per step of the last load (shown as body[data-render-steps] for the benchmark). */
let steps: string[] = [];
let stepAt = 0;
function lap(what: string): void {
  const now = performance.now();
  steps.push(`${what} ${(now - stepAt).toFixed(0)}`);
  stepAt = now;
}

function load(name: string, bytes: Uint8Array): void {
  const t0 = performance.now();
  loads++;
  steps = [];
  stepAt = t0;
  for (const id of ['container-view', 'rootsig-view', 'query-view']) $(id).hidden = true;
  selection = undefined;
  cursor = 0;
  anchor = 0;
  converted = undefined;
  $('download-converted').hidden = true;
  $('report').textContent = '';
  $('query-info').textContent = '';
  $('query-stats').textContent = '';
  $('timing').textContent = '';
  $('pictures').textContent = '';
  $('hex-info').textContent = '';
  $('copy-out').hidden = true;
  $('query-warning').hidden = true;
  const mode = ($('mode') as HTMLSelectElement).value;
  try {
    if (/\.json$/i.test(name) && mode !== 'query') {
      const rs = rootSignatureFromJson(parseJsonText(new TextDecoder().decode(bytes)));
      showRootSignatureBlob(name, rootSignatureContainer(encodeRootSignature(rs)), `JSON form, encoded as a root-signature-only container`);
    } else if (mode === 'query' || (mode === 'auto' && !looksLikeContainer(bytes) && !decodesAsRootSignature(bytes))) {
      showQuery(name, bytes, mode === 'auto');
    } else showRootSignatureBlob(name, bytes);
  } catch (e) {
    // a failed read as a query buffer stays one, so a corrected option reads it again
    current = { name, bytes, ...(current?.queryAttempt && current.bytes === bytes ? { queryAttempt: true } : {}) };
    $('summary').textContent = `${name}: ${bytes.byteLength} bytes`;
    status(message(e), true);
    byteTree.set([]);
    showHex();
  }
  void document.body.offsetHeight; // layout now, so the time below includes it
  lap('layout');
  document.body.dataset.renderSteps = steps.join(', ');
  document.body.dataset.renderMs = (performance.now() - t0).toFixed(1);
  document.body.dataset.loaded = name;
  document.body.dataset.loads = String(loads);
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
  let container: ParsedContainer | undefined;
  let containerError: string | undefined;
  try {
    container = isContainer ? parseContainer(bytes, { mode: 'lenient' }) : undefined;
  } catch (e) {
    containerError = message(e);
  }
  let source: RootSignatureSource | undefined;
  let rsError: string | undefined;
  try {
    source = readRootSignatureSource(bytes, 'lenient');
  } catch (e) {
    rsError = message(e);
  }
  lap('read');
  let map: ByteMap | undefined;
  try {
    map = byteMap(bytes, isContainer ? { mode: 'lenient' } : { format: 'rts0' });
  } catch (e) {
    // a container too broken to map still shows its bytes
    containerError ??= message(e);
  }
  lap('byte map');
  current = { name, bytes, ...(map ? { map, index: indexSpans(map) } : {}), ...(container ? { container } : {}), ...(source ? { source } : {}) };
  $('summary').textContent = `${name}: ${bytes.byteLength} bytes, ${container ? `container with ${container.parts.length} part${container.parts.length === 1 ? '' : 's'}` : isContainer ? 'unreadable container' : 'bare RTS0 part'}${note ? ` (${note})` : ''}`;
  if (containerError) status(`not a readable container: ${containerError}`, true);
  else status(rsError ? `no root signature: ${rsError}` : 'read', rsError !== undefined && !isContainer);
  lap('index');
  if (container) showParts(bytes, container);
  if (source) showRootSignature(source.rootSignature);
  showBytes();
  lap('byte tree and hex');
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
      h('td', undefined, 'fourcc', [h('button', printable(p.name), 'link')]),
      h('td', String(at)),
      h('td', String(p.data.byteLength)),
      h('td', codecs.PART_KINDS.find((k) => k.fourCC === p.name)?.what ?? 'unknown part'),
    ]);
    row.addEventListener('click', () => {
      cursor = at;
      anchor = at;
      select(at, at + 8 + p.data.byteLength, true);
    });
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

/** Violations listed per validation target at most. */
const MAX_VIOLATIONS = 200;

function showRootSignature(rs: RootSignature): void {
  $('rootsig-view').hidden = false;
  lap('parts');
  setText($('hlsl-out'), printRootSignature(rs, { multiline: true }));
  lap('HLSL');
  const json = rootSignatureToJson(rs);
  // the JSON text (75 MB for 500,000 ranges) is made when its section is opened
  $('json-out').textContent = '';
  jsonPending = () => setText($('json-out'), JSON.stringify(json, null, 2));
  showJsonIfOpen();
  lap('JSON');
  rsTree.set([jsonItem('RTS0', json, 'RTS0')], 2);
  lap('tree');
  // validation runs after the first paint (it is the slowest step on large inputs); a newer load
  // cancels it
  const v = $('validation');
  v.textContent = 'validating…';
  const serial = loads;
  setTimeout(() => {
    if (serial !== loads) return;
    const t0 = performance.now();
    v.textContent = '';
    for (const target of VALIDATION_TARGETS.filter((t) => t !== 'all')) {
      const violations = validateRootSignature(rs, { target });
      const block = h('div', undefined, 'target');
      block.dataset.target = target;
      block.appendChild(h('strong', `${target}: `));
      block.appendChild(h('span', violations.length === 0 ? 'valid' : `${violations.length} violation${violations.length === 1 ? '' : 's'}`, violations.length === 0 ? 'ok' : 'bad'));
      if (violations.length > 0) {
        const items = violations.slice(0, MAX_VIOLATIONS).map((x) => h('li', `${x.code} ${x.path} ${x.message}`));
        if (violations.length > MAX_VIOLATIONS) items.push(h('li', `… ${violations.length - MAX_VIOLATIONS} more`));
        block.appendChild(h('ul', undefined, undefined, items));
      }
      v.appendChild(block);
    }
    document.body.dataset.validateMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.validated = String(serial);
  }, 0);
  const to = $('convert-to') as HTMLSelectElement;
  const other = ROOT_SIGNATURE_VERSIONS.find((x) => x.value !== rs.version);
  if (other && to.value === ROOT_SIGNATURE_VERSIONS.find((x) => x.value === rs.version)?.name) to.value = other.name;
}

/** Writes the JSON text of the loaded root signature when its section is open and the text not yet made. */
let jsonPending: (() => void) | undefined;
function showJsonIfOpen(): void {
  if (!($('json-box') as HTMLDetailsElement).open || !jsonPending) return;
  jsonPending();
  jsonPending = undefined;
}

/** The span of a description path (`RTS0.parameters[1].ranges[0]`) in the loaded map, by an index made once. */
function spanOf(path: string): ByteSpan | undefined {
  if (!current?.index) return undefined;
  current.byPath ??= pathIndex(current.index);
  const i = spanByPath(current.index, current.byPath, path);
  return i === undefined ? undefined : current.index.spans[i];
}

/**
 * One node of the root signature tree, from the JSON form: objects and arrays nest (their children
 * made when first expanded), values are leaves; a node whose path has a span in the byte map
 * selects those bytes when activated.
 */
function jsonItem(label: string, value: unknown, path: string): TreeItem {
  const isObject = typeof value === 'object' && value !== null;
  const span = spanOf(path);
  const item: TreeItem = {
    label: isObject ? `${label}${Array.isArray(value) ? ` [${value.length}]` : ''}` : `${label}: ${JSON.stringify(value)}`,
    cls: isObject ? 'group' : '',
    path,
    ...(span ? { offset: span.offset, size: span.size } : {}),
  };
  if (isObject) {
    item.kids = () =>
      Array.isArray(value) ? value.map((v, i) => jsonItem(`[${i}]`, v, `${path}[${i}]`)) : Object.entries(value as Record<string, unknown>).map(([k, v]) => jsonItem(k, v, `${path}.${k}`));
  }
  return item;
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

// ---------------------------------------------------------------- byte tree

/** A tree item for span `i` of the loaded map; its children come from the index when expanded. */
function spanItem(index: SpanIndex, i: number): TreeItem {
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
function siblingItems(index: SpanIndex, first: number): TreeItem[] {
  const out: TreeItem[] = [];
  for (let k = first; k >= 0; k = index.nextSibling[k]!) out.push(spanItem(index, k));
  return out;
}

function showBytes(): void {
  const index = current?.index;
  byteTree.set(index ? siblingItems(index, index.firstRoot) : [], 2);
  $('structure-title').textContent = index ? `Structure (${index.spans.length} spans)` : current?.query ? 'Structure (one record per result; see the hex view)' : 'Structure';
  showHex();
}

/** Selects the bytes of a tree item and moves the hex cursor to them; Enter also moves the focus there. */
function followItem(item: TreeItem, byKeyboard: boolean): void {
  if (item.offset === undefined) return;
  cursor = item.offset;
  anchor = item.offset;
  select(item.offset, item.offset + Math.max(1, item.size ?? 0), true);
  $('hex-info').textContent = describe(item.offset);
  if (byKeyboard) $('hex').focus();
}

/** Shows the structure node of the byte under the cursor (hex -> tree) and focuses the tree. */
function revealInTree(offset: number): void {
  const index = current?.index;
  if (!index) {
    status('no structure tree for this input');
    return;
  }
  const leaf = leafAt(index, offset);
  if (leaf < 0) return;
  byteTree.reveal(positionsTo(index, leaf));
  $('tree').focus();
}

// ---------------------------------------------------------------- hex view

const ROW = 16;
const ROW_PX = 18;

/** The leaf spans overlapping [from, to): from the index (binary search, then a walk), or for query buffers a windowed map. */
function leavesIn(from: number, to: number): { spans: ByteSpan[]; colour: (k: number) => number } {
  const c = current!;
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
function leafSpanAt(offset: number): ByteSpan | undefined {
  if (current?.query) return leavesIn(offset, offset + 1).spans[0];
  const index = current?.index;
  if (!index) return undefined;
  const i = leafAt(index, offset);
  return i < 0 ? undefined : index.spans[i];
}

function describe(offset: number): string {
  if (!current) return '';
  const index = current.index;
  const leafIndex = index && !current.query ? leafAt(index, offset) : -1;
  const leaf = leafIndex >= 0 ? index!.spans[leafIndex] : leafSpanAt(offset);
  if (!leaf) return `byte ${offset} (0x${offset.toString(16)})`;
  const value = leaf.kind === 'field' ? ` = ${spanValueText(leaf)}` : ` (${leaf.kind}, ${leaf.size} bytes)`;
  const inside = leafIndex >= 0 ? ancestors(index!, leafIndex).map((g) => index!.spans[g]!.path).join(' > ') : '';
  return `byte ${offset} (0x${offset.toString(16)}): ${leaf.path}${value}\nbytes ${leaf.offset}..${leaf.offset + leaf.size - 1}${inside ? ` in ${inside}` : ''}`;
}

const totalRows = () => Math.ceil((current?.bytes.byteLength ?? 0) / ROW);

function showHex(): void {
  const hex = $('hex');
  (hex.querySelector('.spacer') as HTMLElement).style.height = `${spacerPx(totalRows(), ROW_PX)}px`;
  hex.setAttribute('aria-rowcount', String(totalRows()));
  hex.scrollTop = 0;
  renderHex();
  showCursor();
}

function select(from: number, to: number, scroll: boolean): void {
  selection = { from, to };
  if (scroll) keepInView($('hex'), Math.floor(from / ROW), totalRows(), ROW_PX);
  renderHex();
  showCursor();
}

/** Moves the cursor to `at` (clamped); with `extend` the selection runs from the anchor to it, else it is the byte itself. */
function moveCursor(at: number, extend: boolean): void {
  if (!current || current.bytes.byteLength === 0) return;
  cursor = Math.max(0, Math.min(current.bytes.byteLength - 1, at));
  if (!extend) anchor = cursor;
  select(Math.min(anchor, cursor), Math.max(anchor, cursor) + 1, true);
  $('hex-info').textContent = describe(cursor);
}

function renderHex(): void {
  if (!current) return;
  const hex = $('hex');
  const rows = hex.querySelector('.rows') as HTMLElement;
  const bytes = current.bytes;
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
      const inSel = selection !== undefined && at >= selection.from && at < selection.to;
      const cell = h('span', b.toString(16).padStart(2, '0'), `b ${cls[at - from]}${inSel ? ' sel' : ''}${at === cursor ? ' cur' : ''}${i === 7 ? ' gapx' : ''}`);
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
  if (cursor >= from && cursor < to) hex.setAttribute('aria-activedescendant', `hx-${cursor}`);
  else hex.removeAttribute('aria-activedescendant');
}

/** The selection's extent and the data inspector at the cursor. */
function showCursor(): void {
  const info = $('selection-info');
  if (!current) {
    info.textContent = '';
    return;
  }
  const s = selection;
  info.textContent = s
    ? `cursor 0x${cursor.toString(16)} (${cursor}) · selection 0x${s.from.toString(16)}..0x${(s.to - 1).toString(16)} (${s.to - s.from} byte${s.to - s.from === 1 ? '' : 's'})`
    : `cursor 0x${cursor.toString(16)} (${cursor}) · ${current.bytes.byteLength} bytes`;
  info.dataset.length = String(s ? s.to - s.from : 0);
  const body = $('inspector').querySelector('tbody')!;
  body.textContent = '';
  const bigEndian = ($('big-endian') as HTMLInputElement).checked;
  for (const v of inspectValues(current.bytes, cursor, bigEndian)) {
    const row = h('tr', undefined, undefined, [h('td', v.type), h('td', v.value ?? '—')]);
    row.dataset.type = v.type;
    body.appendChild(row);
  }
}

function hexHover(ev: Event): void {
  const t = ev.target as HTMLElement;
  if (!t.dataset?.o) return;
  $('hex-info').textContent = describe(Number(t.dataset.o));
}

/** A click puts the cursor on the byte and selects its field (Shift+click extends the selection). */
function hexClick(ev: MouseEvent): void {
  const t = ev.target as HTMLElement;
  if (!t.dataset?.o) return;
  const at = Number(t.dataset.o);
  if (ev.shiftKey) {
    moveCursor(at, true);
    return;
  }
  cursor = at;
  anchor = at;
  const leaf = leafSpanAt(at);
  $('hex-info').textContent = describe(at);
  if (leaf) select(leaf.offset, leaf.offset + leaf.size, false);
  else select(at, at + 1, false);
}

function hexKey(ev: KeyboardEvent): void {
  if (!current) return;
  const page = Math.max(1, Math.floor(($('hex').clientHeight || 400) / ROW_PX) - 1) * ROW;
  const ctrl = ev.ctrlKey || ev.metaKey;
  const moves: Record<string, number> = {
    ArrowLeft: cursor - 1,
    ArrowRight: cursor + 1,
    ArrowUp: cursor - ROW,
    ArrowDown: cursor + ROW,
    PageUp: cursor - page,
    PageDown: cursor + page,
    Home: ctrl ? 0 : cursor - (cursor % ROW),
    End: ctrl ? current.bytes.byteLength - 1 : cursor - (cursor % ROW) + ROW - 1,
  };
  if (ev.key in moves) moveCursor(moves[ev.key]!, ev.shiftKey);
  else if (ev.key === 'Enter') revealInTree(cursor);
  else return;
  ev.preventDefault();
}

// ---------------------------------------------------------------- go to, search, copy

function goTo(): void {
  if (!current) return;
  const input = $('goto') as HTMLInputElement;
  const at = parseOffset(input.value, cursor);
  if (at === undefined || at < 0 || at >= current.bytes.byteLength) {
    status(`go to: "${input.value}" is not an offset in 0..${current.bytes.byteLength - 1} (decimal, 0x hex, +n or -n)`, true);
    return;
  }
  moveCursor(at, false);
  status(`at 0x${at.toString(16)}`);
  $('hex').focus();
}

function findNext(): void {
  if (!current) return;
  const kind = ($('find-kind') as HTMLSelectElement).value as 'hex' | 'text';
  const text = ($('find') as HTMLInputElement).value;
  const pattern = searchPattern(text, kind);
  if (!pattern) {
    status(kind === 'hex' ? `find: "${text}" is not hex bytes (pairs of hex digits)` : 'find: nothing to look for', true);
    return;
  }
  const from = selection && selection.to - selection.from === pattern.length && selection.from === cursor ? cursor + 1 : cursor;
  const at = findBytes(current.bytes, pattern, from);
  if (at < 0) {
    status(`find: ${kind} ${JSON.stringify(text)} not found`, true);
    return;
  }
  cursor = at;
  anchor = at;
  select(at, at + pattern.length, true);
  $('hex-info').textContent = describe(at);
  status(`found at 0x${at.toString(16)} (${at})`);
}

function copySelection(as: 'hex' | 'c'): void {
  if (!current) return;
  const s = selection ?? { from: cursor, to: cursor + 1 };
  const bytes = current.bytes.subarray(s.from, Math.min(s.to, s.from + COPY_LIMIT));
  const text = as === 'hex' ? copyHex(bytes) : copyCArray(bytes, stem(current.name));
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

function showQuery(name: string, bytes: Uint8Array, guessed: boolean): void {
  const type = QUERY_TYPES.find((q) => q.cli === ($('query-type') as HTMLSelectElement).value) ?? QUERY_TYPES[0]!;
  const frequency = Number(($('frequency') as HTMLInputElement).value);
  const marks = ($('marks') as HTMLInputElement).checked;
  current = { name, bytes, queryAttempt: true };
  const t0 = performance.now();
  const usable = bytes.subarray(0, bytes.byteLength - (bytes.byteLength % type.result.size));
  const columns = { count: usable.byteLength / type.result.size };
  current = { name, bytes, queryAttempt: true, query: { type, count: columns.count, usable } };
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
    current.query!.durations = { ns: d.ns, flags: d.flags, count: d.count, pairs: !marks };
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

/** The duration shown on result row `i`: a pair's on its begin row (its end row shows nothing), a mark's to the next mark. */
function durationText(d: NonNullable<NonNullable<Loaded['query']>['durations']>, i: number): string {
  const k = d.pairs ? (i % 2 === 0 ? i / 2 : -1) : i;
  if (k < 0 || k >= d.count) return '';
  return d.flags[k] !== 0 ? 'flagged' : formatNs(d.ns[k]!);
}

function setupQueryTable(): void {
  const box = $('query-table');
  const q = current!.query!;
  (box.querySelector('.spacer') as HTMLElement).style.height = `${spacerPx(q.count, TABLE_ROW_PX, 1)}px`;
  box.scrollTop = 0;
  const head = box.querySelector('thead')!;
  head.textContent = '';
  head.appendChild(h('tr', undefined, undefined, [h('th', '#'), ...q.type.result.fields.map((f) => h('th', f.name)), ...(q.durations ? [h('th', q.durations.pairs ? 'duration (pair)' : 'duration (to next)')] : [])]));
  renderQueryTable();
}

function renderQueryTable(): void {
  const q = current?.query;
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
      cursor = i * q.type.result.size;
      anchor = cursor;
      select(cursor, (i + 1) * q.type.result.size, true);
    });
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

// ---------------------------------------------------------------- layout

/** A splitter between panes: drag it, or focus it and press Left/Right, to resize the pane it controls. */
/**
 * Verifies the pipeline description among `files`; the files it names are found among the others
 * by their last path component (a page cannot read folders).
 */
async function verifyPipelineFiles(files: readonly File[]): Promise<void> {
  const list = $('pipeline-violations');
  list.replaceChildren();
  const json = files.find((f) => f.name.toLowerCase().endsWith('.json'));
  if (!json) throw new Error('choose the pipeline description (.json) with the files it names');
  const bytes = new Map<string, Uint8Array>();
  for (const f of files) if (f !== json) bytes.set(f.name, new Uint8Array(await f.arrayBuffer()));
  const description = parseJsonText(new TextDecoder().decode(await json.arrayBuffer()), json.name);
  const pipeline = pipelineFromJson(description, {
    read: (path) => {
      const hit = bytes.get(path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1));
      if (!hit) throw new Error(`${path} was not chosen with the description`);
      return hit;
    },
  });
  const r = verifyPipeline(pipeline);
  const stages = r.stages.map((s) => s.key).join(', ') || 'no shaders';
  setText($('pipeline-verdict'), `${json.name}: ${r.kind} pipeline ${r.verdict === 'fits' ? 'fits' : 'does not fit'} (${stages}; root signature ${r.rootSignature ? `from ${r.rootSignature}` : 'missing'}; signatures ${r.signatures.replace('-', ' ')})`);
  $('pipeline-verdict').classList.toggle('warn', r.verdict !== 'fits');
  for (const v of r.violations) list.append(h('li', `${v.severity} ${v.code}${v.path ? ` ${v.path}` : ''}: ${v.message}`, v.severity === 'error' ? 'warn' : undefined));
}

function splitter(id: string, variable: '--left' | '--right'): void {
  const bar = $(id);
  const root = document.documentElement;
  const min = Number(bar.getAttribute('aria-valuemin'));
  const max = Number(bar.getAttribute('aria-valuemax'));
  const set = (px: number) => {
    const v = Math.round(Math.max(min, Math.min(max, px)));
    root.style.setProperty(variable, `${v}px`);
    bar.setAttribute('aria-valuenow', String(v));
    renderHex();
  };
  const now = () => Number(bar.getAttribute('aria-valuenow'));
  bar.addEventListener('keydown', (ev) => {
    const step = ev.shiftKey ? 64 : 16;
    const sign = variable === '--left' ? 1 : -1;
    if (ev.key === 'ArrowRight') set(now() + sign * step);
    else if (ev.key === 'ArrowLeft') set(now() - sign * step);
    else return;
    ev.preventDefault();
  });
  bar.addEventListener('pointerdown', (ev) => {
    bar.setPointerCapture(ev.pointerId);
    const x0 = ev.clientX;
    const w0 = now();
    const move = (e: PointerEvent) => set(variable === '--left' ? w0 + (e.clientX - x0) : w0 - (e.clientX - x0));
    const up = () => {
      bar.removeEventListener('pointermove', move);
      bar.removeEventListener('pointerup', up);
    };
    bar.addEventListener('pointermove', move);
    bar.addEventListener('pointerup', up);
  });
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
  byteTree = new VirtualTree(
    $('tree'),
    (item) => item.offset !== undefined && ($('hex-info').textContent = describe(item.offset)),
    followItem,
  );
  rsTree = new VirtualTree($('rs-tree'), () => undefined, followItem);
  const input = $('file') as HTMLInputElement;
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) void loadFile(f).catch((e) => status(message(e), true));
    input.value = '';
  });
  $('open').addEventListener('click', () => input.click());
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
  const pipelineInput = $('pipeline-files') as HTMLInputElement;
  pipelineInput.addEventListener('change', () => {
    const chosen = Array.from(pipelineInput.files ?? []);
    if (chosen.length) void verifyPipelineFiles(chosen).catch((e) => setText($('pipeline-verdict'), message(e)));
  });
  $('compile').addEventListener('click', compileText);
  $('fix').addEventListener('click', fixDigest);
  $('convert').addEventListener('click', convert);
  $('download-converted').addEventListener('click', () => converted && download(converted.bytes, converted.name));
  const hex = $('hex');
  hex.addEventListener('scroll', () => requestAnimationFrame(renderHex));
  hex.addEventListener('mouseover', hexHover);
  hex.addEventListener('click', hexClick);
  hex.addEventListener('keydown', hexKey);
  $('goto').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') goTo();
  });
  $('find').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') findNext();
  });
  $('find-next').addEventListener('click', findNext);
  $('copy-hex').addEventListener('click', () => copySelection('hex'));
  $('copy-c').addEventListener('click', () => copySelection('c'));
  $('big-endian').addEventListener('change', showCursor);
  $('json-box').addEventListener('toggle', showJsonIfOpen);
  splitter('split-left', '--left');
  splitter('split-right', '--right');
  window.addEventListener('resize', () => requestAnimationFrame(renderHex));
  $('query-table').addEventListener('scroll', () => requestAnimationFrame(renderQueryTable));
  for (const id of ['query-type', 'frequency', 'marks']) {
    $(id).addEventListener('change', () => {
      // also after a failed read (a frequency of 0), so a valid value recovers
      if (current?.queryAttempt) load(current.name, current.bytes);
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
