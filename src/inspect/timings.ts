/**
 * Pictures of timestamp queries: a duration histogram and a timeline of begin/end intervals,
 * computed once (typed arrays, linear in the pairs) and drawn as SVG by `timingsSvg`. When there
 * are more intervals than pixels the timeline is binned: each pixel column shows how many
 * intervals cover it. Used by `dxbin query timings --svg` and by the web inspector.
 */
import { DURATION_KEYS, timestampDurations, type DurationOptions } from '../query/resolve.js';
import { escapeText } from './hex.js';
import { DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { expectArray, expectKnownKeys, expectNumber, expectObject, expectString, kindOf } from '../bytes/check.js';

export interface TimingPictureOptions extends Omit<DurationOptions, 'out'> {
  /** Histogram bars (default 40). */
  bins?: number;
  /** Timeline width in pixels (default 800): above this many intervals the timeline is binned. */
  width?: number;
}

export interface TimingPicture {
  /** Durations in all, valid (unflagged) ones and flagged ones. */
  count: number;
  valid: number;
  flagged: number;
  histogram: { minNs: number; maxNs: number; binNs: number; counts: Uint32Array };
  timeline:
    | { kind: 'intervals'; spanNs: number; starts: Float64Array; lengths: Float64Array }
    | { kind: 'binned'; spanNs: number; width: number; occupancy: Uint32Array };
}

/** The most histogram bars and timeline pixels a picture has (a count the caller names, not the input: 1e9 bars were 4 GB). */
export const MAX_PICTURE_SIZE = 65536;

/** A count of bars or pixels: a whole number 1..MAX_PICTURE_SIZE (NaN gave an empty picture). */
function pictureSize(v: unknown, absent: number, path: string): number {
  if (v === undefined) return absent;
  if (typeof v !== 'number' || Number.isNaN(v)) throw new DescriptionError('bad-type', path, `expected a number, got ${kindOf(v)}${typeof v === 'number' ? ' NaN' : ''}`);
  const n = Math.floor(v);
  if (!(n >= 1 && n <= MAX_PICTURE_SIZE)) throw new DescriptionError('out-of-range', path, `expected 1..${MAX_PICTURE_SIZE}, got ${v}`);
  return n;
}

/** The keys of timingPicture's options: timestampDurations' and the picture's. */
const PICTURE_KEYS: readonly string[] = [...DURATION_KEYS, 'bins', 'width'];

/** Histogram and timeline of the durations in a buffer of TIMESTAMP results. */
export function timingPicture(bytes: Uint8Array, options: TimingPictureOptions): TimingPicture {
  expectObject(options, 'options');
  expectKnownKeys(options, PICTURE_KEYS, 'options');
  // the durations' own options: bins and width are the picture's (checked above: at most these few keys)
  const { bins: _bins, width: _width, ...durations } = options;
  const d = timestampDurations(bytes, durations);
  const pairs = options.pairs ?? true;
  const bins = pictureSize(options.bins, 40, 'options.bins');
  const width = pictureSize(options.width, 800, 'options.width');
  let minNs = Infinity;
  let maxNs = -Infinity;
  let valid = 0;
  for (let i = 0; i < d.count; i++) {
    if (d.flags[i] !== 0) continue;
    const v = d.ns[i]!;
    if (v < minNs) minNs = v;
    if (v > maxNs) maxNs = v;
    valid++;
  }
  if (valid === 0) minNs = maxNs = 0;
  const binNs = maxNs > minNs ? (maxNs - minNs) / bins : 1;
  const counts = new Uint32Array(bins);
  for (let i = 0; i < d.count; i++) {
    if (d.flags[i] !== 0) continue;
    counts[Math.min(bins - 1, Math.floor((d.ns[i]! - minNs) / binNs))]!++;
  }

  // begin of each interval, in ns from the earliest valid begin
  const offset = options.offset ?? 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset);
  const stride = pairs ? 16 : 8;
  const nsPerTick = 1e9 / options.frequency;
  const starts = new Float64Array(d.count);
  let first = Infinity;
  for (let i = 0; i < d.count; i++) {
    const t = view.getUint32(i * stride + 4, true) * 4294967296 + view.getUint32(i * stride, true);
    starts[i] = t;
    if (d.flags[i] === 0 && t < first) first = t;
  }
  let spanNs = 0;
  for (let i = 0; i < d.count; i++) {
    starts[i] = (starts[i]! - first) * nsPerTick;
    if (d.flags[i] === 0) spanNs = Math.max(spanNs, starts[i]! + d.ns[i]!);
  }
  let timeline: TimingPicture['timeline'];
  if (valid <= width) {
    const s = new Float64Array(valid);
    const l = new Float64Array(valid);
    for (let i = 0, n = 0; i < d.count; i++) if (d.flags[i] === 0) (s[n] = starts[i]!), (l[n++] = d.ns[i]!);
    timeline = { kind: 'intervals', spanNs, starts: s, lengths: l };
  } else {
    const diff = new Int32Array(width + 1);
    const scale = spanNs > 0 ? width / spanNs : 0;
    for (let i = 0; i < d.count; i++) {
      if (d.flags[i] !== 0) continue;
      const a = Math.min(width - 1, Math.floor(starts[i]! * scale));
      const b = Math.min(width - 1, Math.max(a, Math.floor((starts[i]! + d.ns[i]!) * scale)));
      diff[a]!++;
      diff[b + 1]!--;
    }
    const occupancy = new Uint32Array(width);
    for (let x = 0, run = 0; x < width; x++) occupancy[x] = run += diff[x]!;
    timeline = { kind: 'binned', spanNs, width, occupancy };
  }
  return { count: d.count, valid, flagged: d.count - valid, histogram: { minNs, maxNs, binNs, counts }, timeline };
}

/** A duration for axis labels: ns, µs, ms or s with three significant digits. */
export function formatNs(ns: number): string {
  expectNumber(ns, 'ns');
  return nsText(ns);
}

/** formatNs without the check (per histogram bar). */
function nsText(ns: number): string {
  const [v, unit] = ns >= 1e9 ? [ns / 1e9, 's'] : ns >= 1e6 ? [ns / 1e6, 'ms'] : ns >= 1e3 ? [ns / 1e3, 'µs'] : [ns, 'ns'];
  return `${Number(v.toPrecision(3))} ${unit}`;
}

/** An SVG element as data: the CLI serializes it (`svgText`), the web inspector builds DOM nodes from it. */
export interface SvgNode {
  tag: string;
  attrs: Record<string, string | number>;
  /** Text content (escaped when serialized; textContent in the DOM). */
  text?: string;
  children?: SvgNode[];
}

const el = (tag: string, attrs: Record<string, string | number>, children?: SvgNode[], text?: string): SvgNode => ({ tag, attrs, ...(children ? { children } : {}), ...(text !== undefined ? { text } : {}) });

/**
 * The picture as an SVG tree: the histogram (one `rect.bar` per bin, its range and count as
 * `<title>`) above the timeline (one `rect.interval` per interval, or one `rect.column` per pixel
 * column when binned).
 */
export function timingsSvgTree(p: TimingPicture, title = 'timestamp durations'): SvgNode {
  checkPicture(p);
  expectString(title, 'title');
  const W = p.timeline.kind === 'binned' ? p.timeline.width : 800;
  const margin = 40;
  const histH = 160;
  const laneH = 6;
  const lanes = p.timeline.kind === 'intervals' ? Math.min(40, Math.max(1, p.timeline.starts.length)) : 0;
  const tlH = p.timeline.kind === 'intervals' ? lanes * laneH : 100;
  const H = margin + histH + 50 + tlH + 40;
  const counts = p.histogram.counts;
  let peak = 1;
  for (const c of counts) if (c > peak) peak = c;
  const bw = W / counts.length;
  const hist: SvgNode[] = [];
  counts.forEach((c, i) => {
    const h = (c / peak) * histH;
    const from = p.histogram.minNs + i * p.histogram.binNs;
    hist.push(el('rect', { class: 'bar', x: (i * bw).toFixed(2), y: (histH - h).toFixed(2), width: Math.max(0.5, bw - 1).toFixed(2), height: h.toFixed(2), fill: '#3b7dd8' }, [el('title', {}, undefined, `${nsText(from)} – ${nsText(from + p.histogram.binNs)}: ${c}`)]));
  });
  hist.push(el('line', { x1: 0, y1: histH, x2: W, y2: histH, stroke: '#333' }));
  hist.push(el('text', { x: 0, y: histH + 14 }, undefined, nsText(p.histogram.minNs)));
  hist.push(el('text', { x: W, y: histH + 14, 'text-anchor': 'end' }, undefined, nsText(p.histogram.maxNs)));
  hist.push(el('text', { x: W / 2, y: histH + 28, 'text-anchor': 'middle' }, undefined, `duration (peak ${peak})`));
  // axes with scale: duration ticks (with units) at quarters, counts at 0, half and peak
  for (let q = 1; q < 4; q++) {
    hist.push(el('line', { class: 'tick', x1: (q * W) / 4, y1: histH, x2: (q * W) / 4, y2: histH + 4, stroke: '#333' }));
    hist.push(el('text', { class: 'tick', x: (q * W) / 4, y: histH + 14, 'text-anchor': 'middle' }, undefined, nsText(p.histogram.minNs + (q / 4) * (p.histogram.maxNs - p.histogram.minNs))));
  }
  hist.push(el('line', { x1: 0, y1: 0, x2: 0, y2: histH, stroke: '#333' }));
  for (const c of [0, Math.round(peak / 2), peak]) {
    const y = histH - (c / peak) * histH;
    hist.push(el('line', { class: 'tick', x1: -4, y1: y, x2: 0, y2: y, stroke: '#333' }));
    hist.push(el('text', { class: 'tick', x: -6, y: y + 4, 'text-anchor': 'end' }, undefined, String(c)));
  }
  hist.push(el('text', { x: -6, y: -8, 'text-anchor': 'start' }, undefined, 'count'));
  const t = p.timeline;
  const scale = t.spanNs > 0 ? W / t.spanNs : 0;
  const line: SvgNode[] = [];
  if (t.kind === 'intervals') {
    for (let i = 0; i < t.starts.length; i++) {
      line.push(el('rect', { class: 'interval', x: (t.starts[i]! * scale).toFixed(2), y: (i % lanes) * laneH, width: Math.max(0.5, t.lengths[i]! * scale).toFixed(2), height: laneH - 1, fill: '#d8773b' }));
    }
  } else {
    let peakColumn = 1;
    for (const c of t.occupancy) if (c > peakColumn) peakColumn = c;
    for (let x = 0; x < t.width; x++) {
      const h = (t.occupancy[x]! / peakColumn) * tlH;
      if (h > 0) line.push(el('rect', { class: 'column', x, y: (tlH - h).toFixed(2), width: 1, height: h.toFixed(2), fill: '#d8773b' }));
    }
  }
  line.push(el('line', { x1: 0, y1: tlH, x2: W, y2: tlH, stroke: '#333' }));
  line.push(el('text', { x: 0, y: tlH + 14 }, undefined, '0'));
  line.push(el('text', { x: W, y: tlH + 14, 'text-anchor': 'end' }, undefined, nsText(t.spanNs)));
  line.push(el('text', { x: W / 2, y: tlH + 28, 'text-anchor': 'middle' }, undefined, t.kind === 'binned' ? 'intervals covering each pixel (binned)' : 'begin/end intervals'));
  for (let q = 1; q < 4; q++) {
    line.push(el('line', { class: 'tick', x1: (q * W) / 4, y1: tlH, x2: (q * W) / 4, y2: tlH + 4, stroke: '#333' }));
    line.push(el('text', { class: 'tick', x: (q * W) / 4, y: tlH + 14, 'text-anchor': 'middle' }, undefined, nsText((q / 4) * t.spanNs)));
  }
  return el('svg', { xmlns: 'http://www.w3.org/2000/svg', width: W + 2 * margin, height: H, viewBox: `0 0 ${W + 2 * margin} ${H}`, 'font-family': 'sans-serif', 'font-size': 11 }, [
    el('title', {}, undefined, title),
    el('rect', { width: '100%', height: '100%', fill: '#fff' }),
    el('text', { x: margin, y: 16, 'font-size': 13 }, undefined, `${title}: ${p.count} durations, ${p.valid} valid, ${p.flagged} flagged`),
    el('g', { class: 'histogram', transform: `translate(${margin},${margin})` }, hist),
    el('g', { class: 'timeline', transform: `translate(${margin},${margin + histH + 50})` }, line),
  ]);
}

/**
 * Throws DescriptionError bad-type (path `picture...`) unless `p` has a TimingPicture's shape: a
 * histogram with typed or plain array counts and an intervals or binned timeline with its arrays.
 */
function checkPicture(p: TimingPicture): void {
  expectObject(p, 'picture');
  expectObject(p.histogram, 'picture.histogram');
  arrayLike(p.histogram.counts, 'picture.histogram.counts');
  for (const key of ['minNs', 'maxNs', 'binNs'] as const) expectNumber(p.histogram[key], `picture.histogram.${key}`);
  expectObject(p.timeline, 'picture.timeline');
  const t = p.timeline;
  expectNumber(t.spanNs, 'picture.timeline.spanNs');
  if (t.kind === 'intervals') {
    arrayLike(t.starts, 'picture.timeline.starts');
    arrayLike(t.lengths, 'picture.timeline.lengths');
  } else if (t.kind === 'binned') {
    arrayLike(t.occupancy, 'picture.timeline.occupancy');
  } else throw new DescriptionError('bad-name', 'picture.timeline.kind', `unknown timeline kind ${quoted(String((t as { kind?: unknown }).kind))} (known: intervals, binned)`);
}

function arrayLike(value: unknown, path: string): void {
  if (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))) return;
  throw new DescriptionError('bad-type', path, `expected an array or typed array, got ${kindOf(value)}`);
}

/**
 * An SVG tree as XML text; every attribute value and text escaped.
 * @throws {DescriptionError} bad-type (path `node`, `node.children[i]`...) for a node that is not an object with an attrs object
 */
export function svgText(node: SvgNode): string {
  return svg(node, 'node');
}

function svg(node: SvgNode, path: string): string {
  expectObject(node, path);
  expectObject(node.attrs, `${path}.attrs`);
  if (node.children !== undefined) expectArray(node.children, `${path}.children`);
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeText(String(v))}"`)
    .join('');
  const inner = (node.text !== undefined ? escapeText(String(node.text)) : '') + (node.children ?? []).map((c, i) => svg(c, `${path}.children[${i}]`)).join(node.tag === 'svg' || node.tag === 'g' ? '\n' : '');
  return inner === '' ? `<${node.tag}${attrs}/>` : `<${node.tag}${attrs}>${node.children && (node.tag === 'svg' || node.tag === 'g') ? '\n' : ''}${inner}</${node.tag}>`;
}

/** The picture as one SVG document (see timingsSvgTree). @param title text only (escaped) */
export function timingsSvg(p: TimingPicture, title = 'timestamp durations'): string {
  return svg(timingsSvgTree(p, title), 'node') + '\n';
}
