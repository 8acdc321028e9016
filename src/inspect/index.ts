/**
 * `dxbin/inspect`: seeing the bytes. Byte maps (which field every byte belongs to) of containers,
 * RTS0 parts, query buffers and DDI images; annotated hex dumps as text or a script-free HTML
 * page; timestamp histograms and timelines as SVG (docs/byte-map.md).
 *
 * @module dxbin/inspect
 */
/** Spans, their kinds, the coverage/nesting check and lookup by byte. */
export { checkByteMap, spansAt, leafSpans, enumName, flagNames, SpanRecorder, LEAF_KINDS, type ByteMap, type ByteSpan, type SpanKind } from '../bytes/spans.js';
/** The byte map of a container, bare RTS0 part, query buffer or DDI image; off unless called. */
export { byteMap, PART_SPAN_PRODUCERS, type ByteMapOptions } from './bytemap.js';
/** Annotated hex dump lines (ANSI colours optional) and the self-contained HTML page. */
export { hexDump, hexHtml, escapeHtml, spanValueText, printableText, HEX_PAGE_CSP, type HexOptions } from './hex.js';
/** Duration histogram and begin/end timeline of timestamp queries, and their SVG. */
export { timingPicture, timingsSvg, timingsSvgTree, svgText, formatNs, type TimingPicture, type TimingPictureOptions, type SvgNode } from './timings.js';
/** The text listing of a part decoded from rows. */
export { partLines } from './part-lines.js';
export { partJson, MAX_KEPT_BYTES, type PartJsonContext } from './part-json.js';
