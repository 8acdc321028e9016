/**
 * One entry point for byte maps of every format dxbin reads: containers (with the parts whose
 * data it maps: RTS0, PSV0, RDAT), bare RTS0 parts, packed query results and DDI memory images.
 * Nothing here runs unless a map is asked for; decoders are not touched (src/bytes/spans.ts).
 */
import type { Abi } from '../../codecs/ddi.js';
import { SpanRecorder, type ByteMap } from '../bytes/spans.js';
import { expectOptionKeys, expectOptions } from '../bytes/check.js';
import { looksLikeContainer, type ContainerPart } from '../container/container.js';
import type { ContainerParseMode } from '../container/parse.js';
import { containerSpans } from '../container/spans.js';
import { ddiImageSpans, rdatSpans } from '../ddi/spans.js';
import { queryType } from '../query/types.js';
import { querySpans, type QuerySpanOptions } from '../query/spans.js';
import { rootSignatureSpans } from '../root-signature/spans.js';
import { psv0Spans } from '../shader/psv0-spans.js';
import { DecodeError, DescriptionError } from '../bytes/errors.js';
import { quoted } from '../bytes/text.js';
import { decodePart, partSpans } from '../parts/part.js';

/** Span producers for part data, by FourCC. A part without one is a single `data` span. */
export const PART_SPAN_PRODUCERS: Record<string, (data: Uint8Array, rec: SpanRecorder, base: number, path: string) => void> = {
  RTS0: rootSignatureSpans,
  RDAT: rdatSpans,
  PSV0: psv0Spans,
};

export type ByteMapOptions =
  | { format?: 'auto'; mode?: ContainerParseMode }
  | { format: 'container'; mode?: ContainerParseMode }
  | { format: 'rts0' }
  | ({ format: 'query'; type: string | number } & QuerySpanOptions)
  | { format: 'ddi'; type: string; abi: Abi };

/** The keys of byteMap's options, by format. */
const BYTE_MAP_KEYS = {
  auto: ['format', 'mode'],
  container: ['format', 'mode'],
  rts0: ['format'],
  query: ['format', 'type', 'offset', 'count', 'window'],
  ddi: ['format', 'type', 'abi'],
} as const satisfies Record<NonNullable<ByteMapOptions['format']>, readonly string[]>;

/**
 * The byte map of `bytes`: `auto` reads a container when the bytes start with DXBC, else a bare
 * RTS0 part.
 * @throws {DecodeError} whatever the format's decoder throws for these bytes
 * @throws {DescriptionError} unknown-key for an option its format does not have; bad-name (`options.format`) for a format of no row
 */
export function byteMap(bytes: Uint8Array, options: ByteMapOptions = {}): ByteMap {
  expectOptions(options as unknown);
  const rec = new SpanRecorder();
  const format = options.format ?? 'auto';
  // each format its keys: a misspelt one (`{ format: 'ddi', abbi: 'x86' }`) or format is refused, never read as absent
  const keys = Object.hasOwn(BYTE_MAP_KEYS, format) ? BYTE_MAP_KEYS[format as keyof typeof BYTE_MAP_KEYS] : undefined;
  if (!keys) throw new DescriptionError('bad-name', 'options.format', `unknown format ${quoted(format)} (allowed: ${Object.keys(BYTE_MAP_KEYS).join(', ')})`);
  expectOptionKeys(options as unknown, keys);
  if (format === 'query') {
    const o = options as Extract<ByteMapOptions, { format: 'query' }>;
    const q = queryType(o.type);
    querySpans(bytes, q, rec, { offset: o.offset, count: o.count, window: o.window });
    return rec.finish(`query:${q.cli}`, bytes.byteLength);
  }
  if (format === 'ddi') {
    const o = options as Extract<ByteMapOptions, { format: 'ddi' }>;
    rec.add('file', 0, bytes.byteLength, o.type);
    ddiImageSpans(o.type, bytes, o.abi, rec);
    return rec.finish(`ddi:${o.type}/${o.abi}`, bytes.byteLength);
  }
  if (format === 'container' || (format === 'auto' && looksLikeContainer(bytes))) {
    const mode = (options as { mode?: ContainerParseMode }).mode;
    const produce = (part: ContainerPart, r: SpanRecorder, base: number, path: string) => {
      const producer = PART_SPAN_PRODUCERS[part.name];
      if (producer) {
        producer(part.data, r, base, path);
        return true;
      }
      return rowPartSpans(part, r, base, path);
    };
    containerSpans(bytes, rec, produce, mode);
    return rec.finish('container', bytes.byteLength);
  }
  rootSignatureSpans(bytes, rec, 0);
  return rec.finish('rts0', bytes.byteLength);
}

/**
 * Spans of a part decoded from rows (src/parts/): fields, instructions, kept bytes. A part whose
 * rows do not decode (or that has none) stays one `data` span, as before.
 */
function rowPartSpans(part: ContainerPart, rec: SpanRecorder, base: number, path: string): boolean {
  let decoded;
  try {
    decoded = decodePart(part.name, part.data, { base });
  } catch (e) {
    if (e instanceof DecodeError) return false;
    throw e;
  }
  if (Object.keys(decoded.blocks).length === 0 && !decoded.tokens && !decoded.sourceInfo) return false;
  partSpans(decoded, part.data, rec, base, path);
  return true;
}
