/**
 * Byte map of an RTS0 part: walks the codecs/root-signature.ts record rows (RECORDS: one row per
 * field, offset per version) over a part the decoder has accepted: every version, blocks anywhere,
 * shared range arrays mapped once, bytes no block points at as gaps. See src/bytes/spans.ts.
 */
import { ROOT_SIGNATURE_PART } from '../../codecs/container.js';
import { RECORDS, PARAMETER_TYPES, type FieldRow, type RecordRow, type RootSignatureVersion } from '../../codecs/root-signature.js';
import { enumName, flagNames, type SpanRecorder } from '../bytes/spans.js';
import { readRootSignature } from './decode.js';
import { fieldPath, PARAMETERS_KEY, PAYLOAD_KEY, SAMPLERS_KEY, parameterPath, rangePath, rootPath, samplerPath, tablePath } from './rows.js';

/** The name of a field's value: its enumerator, its flags, its special spelling, or the float. */
function nameOf(row: FieldRow, value: number, view: DataView, at: number): string | undefined {
  const kind = row.kind;
  if (row.special && row.special.value === value) return row.special.json;
  if (kind === 'f32') return String(view.getFloat32(at, true));
  if (typeof kind === 'object' && 'values' in kind) return enumName(kind.values, value);
  if (typeof kind === 'object' && 'bits' in kind) return flagNames(kind.bits, value);
  return undefined;
}

/**
 * Records the spans of an RTS0 part's data (no part header) at absolute offset `base`.
 * @throws {DecodeError} whatever decodeRootSignature throws for these bytes
 */
export function rootSignatureSpans(bytes: Uint8Array, rec: SpanRecorder, base = 0, at: string = ROOT_SIGNATURE_PART): void {
  const { rootSignature, layout } = readRootSignature(bytes, { base, path: at });
  const v = rootSignature.version as RootSignatureVersion;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const seen = new Set<number>(); // record starts already mapped (shared arrays)
  const first = rec.mark();
  const fields = (offset: number, row: RecordRow, path: string) => {
    for (const [name, f] of Object.entries(row.fields)) {
      const o = f.at[v];
      if (o === null) continue;
      const value = view.getUint32(offset + o, true);
      rec.field(base + offset + o, 4, `${path}.${name}`, value, nameOf(f, value, view, offset + o));
    }
  };
  const record = (offset: number, row: RecordRow, path: string) => {
    if (seen.has(offset)) return;
    seen.add(offset);
    rec.add('record', base + offset, row.sizes[v], path, undefined, row.type);
    fields(offset, row, path);
  };

  // the header's fields keep the decoder's paths (RTS0.version, not RTS0.header.version)
  rec.add('record', base, RECORDS.HEADER.sizes[v], `${at}.header`, undefined, RECORDS.HEADER.type);
  fields(0, RECORDS.HEADER, at);
  seen.add(0);

  const params = rootSignature.parameters;
  const P = RECORDS.PARAMETER.sizes[v];
  if (params.length > 0) rec.add('array', base + layout.parametersOffset, params.length * P, rootPath(PARAMETERS_KEY, at));
  params.forEach((_, i) => record(layout.parametersOffset + i * P, RECORDS.PARAMETER, parameterPath(i, at)));
  params.forEach((p, i) => {
    const path = parameterPath(i, at);
    const payload = layout.payloadOffsets[i]!;
    const type = PARAMETER_TYPES.find((t) => t.value === p.parameterType)!;
    if (type.record === 'TABLE') {
      record(payload, RECORDS.TABLE, tablePath(path));
      const ranges = ((p as unknown as Record<string, unknown>)[type.payload] as readonly unknown[] | undefined) ?? [];
      const rangesAt = layout.rangeOffsets[i]!;
      const R = RECORDS.RANGE.sizes[v];
      if (ranges.length > 0 && !seen.has(rangesAt)) rec.add('array', base + rangesAt, ranges.length * R, fieldPath(path, PAYLOAD_KEY.TABLE));
      ranges.forEach((_, j) => record(rangesAt + j * R, RECORDS.RANGE, rangePath(path, j)));
    } else {
      record(payload, RECORDS[type.record], fieldPath(path, type.payload));
    }
  });
  const samplers = rootSignature.staticSamplers;
  const S = RECORDS.SAMPLER.sizes[v];
  if (samplers.length > 0) rec.add('array', base + layout.staticSamplersOffset, samplers.length * S, rootPath(SAMPLERS_KEY, at));
  samplers.forEach((_, k) => record(layout.staticSamplersOffset + k * S, RECORDS.SAMPLER, samplerPath(k, at)));
  rec.fillGaps(base, base + bytes.byteLength, `${at} (unreferenced)`, 'gap', first);
}
