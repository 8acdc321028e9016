/**
 * Version conversion between 1.0, 1.1 and 1.2 with a report of what was added, dropped or could
 * not be expressed. The values come from codecs/conversion.ts, one row per semantics.
 *
 * A dropped flag is reported only when it carried information: a 1.1 flag equal to what converting
 * 1.0 up would store again (1.0's "everything volatile") is expressed by 1.0 itself. So a report
 * with nothing dropped and nothing inexpressible means converting back gives the same bytes.
 */
import { CONVERSION_RULES, type ConversionRules, type ConversionSemantics } from '../../codecs/conversion.js';
import type { FlagTable } from '../../codecs/enum-table.js';
import {
  DESCRIPTOR,
  DESCRIPTOR_RANGE_FLAGS,
  RANGE,
  RANGE_TYPES,
  ROOT_DESCRIPTOR_FLAGS,
  SAMPLER,
  SAMPLER_FLAGS,
  STATIC_BORDER_COLOR,
  stores,
  versionRow,
  type FieldRow,
} from '../../codecs/root-signature.js';
import { DescriptionError, DxbinError, type ConversionErrorCode } from '../bytes/errors.js';
import { KEYS, fieldPath, PAYLOAD_KEY, VERSION_KEY, parameterPath, parameterTypeRow, rangePath, samplerPath, versionName } from './rows.js';
import { enumName, flagNames } from '../json/vocabulary.js';
import type { DescriptorRange, DescriptorTableParameter, RootConstantsParameter, RootDescriptorParameter, RootParameter, RootSignature, RootSignatureVersion, StaticSampler } from './types.js';
import { checkDescription } from './check.js';
import { expectArray, expectObject, expectOptions } from '../bytes/check.js';

/** One report item: the field, its value before and after, and why. */
export interface ConversionItem {
  path: string;
  /** The value before conversion. */
  from: number;
  /** The value after conversion (absent when the field no longer exists). */
  to?: number;
  detail: string;
}

/** What a conversion added, dropped or could not express. */
export interface ConversionReport {
  from: RootSignatureVersion;
  to: RootSignatureVersion;
  semantics: ConversionSemantics;
  added: ConversionItem[];
  dropped: ConversionItem[];
  notExpressible: ConversionItem[];
  /** No information lost: nothing dropped, nothing inexpressible. */
  lossless: boolean;
}

/** A conversion the chosen semantics refuses (e.g. d3dx12 and NON_NORMALIZED_COORDINATES). */
export class ConversionError extends DxbinError<ConversionErrorCode> {
  constructor(path: string, detail: string) {
    super('conversion-refused', path, detail);
  }
}

/** Options of convertRootSignature. */
export interface ConvertOptions {
  semantics?: ConversionSemantics;
}

const SAMPLER_RANGE = RANGE_TYPES.find((t) => t.name === 'SAMPLER')!.value;
const vname = versionName;
const flagText = (table: FlagTable, value: number) => flagNames(table, value).map(String).join(' | ') || 'NONE';

/**
 * Converts a description to another version under the chosen semantics, with a report.
 * @throws {ConversionError} conversion-refused where the semantics refuse (d3dx12 and sampler flags)
 * @throws {DescriptionError} an unknown semantics or target version; bad-type, missing-key or out-of-range (the version) for a description that is not one (checkDescription)
 */
export function convertRootSignature(
  rs: RootSignature,
  to: RootSignatureVersion,
  options: ConvertOptions = {},
): { rootSignature: RootSignature; report: ConversionReport } {
  expectOptions(options);
  const semantics = options.semantics ?? 'runtime';
  const rules = CONVERSION_RULES[semantics];
  if (!rules) throw new DescriptionError('bad-name', 'semantics', `unknown semantics ${String(semantics)}`);
  if (!versionRow(to)) throw new DescriptionError('out-of-range', VERSION_KEY, `unknown target version ${String(to)}`);
  checkDescription(rs);
  const report: ConversionReport = { from: rs.version, to, semantics, added: [], dropped: [], notExpressible: [], lossless: true };
  /** Range and root descriptor flags across the versions that store them and the ones that do not. */
  const convertFlags = (row: FieldRow, value: number, restored: number, path: string, table: FlagTable): number => {
    const hadFlags = stores(row, rs.version);
    const hasFlags = stores(row, to);
    if (hadFlags === hasFlags) return value;
    if (hasFlags) {
      report.added.push({ path, from: 0, to: restored, detail: `${flagText(table, restored)} keeps version ${vname(rs.version)}'s meaning` });
      return restored;
    }
    if (value !== restored) {
      report.dropped.push({ path, from: value, detail: `${flagText(table, value)} cannot be stored in version ${vname(to)}, which means ${flagText(table, restored)}` });
    }
    return 0;
  };

  const parameters = rs.parameters.map((p, i): RootParameter => {
    const at = parameterPath(i);
    const record = parameterTypeRow(p.parameterType)?.record;
    if (record === 'TABLE') {
      const t = p as DescriptorTableParameter;
      return {
        ...t,
        ranges: t.ranges.map(
          (r, j): DescriptorRange => ({
            ...r,
            flags: convertFlags(RANGE.fields.flags, r.flags, restoredRangeFlags(rules, r), `${rangePath(at, j)}.${KEYS.RANGE.flags}`, DESCRIPTOR_RANGE_FLAGS),
          }),
        ),
      };
    }
    if (record === 'CONSTANTS') {
      const c = p as RootConstantsParameter;
      return { ...c, constants: { ...c.constants } };
    }
    // a root descriptor (and any type no row has, as a root descriptor; one without a descriptor is copied as it is, validate reports it)
    const d = p as RootDescriptorParameter;
    if (record === undefined && (typeof d.descriptor !== 'object' || d.descriptor === null)) return { ...d };
    return { ...d, descriptor: { ...d.descriptor, flags: convertFlags(DESCRIPTOR.fields.flags, d.descriptor.flags, rules.upRootDescriptorFlags, fieldPath(fieldPath(at, PAYLOAD_KEY.DESCRIPTOR), KEYS.DESCRIPTOR.flags), ROOT_DESCRIPTOR_FLAGS) } };
  });

  const staticSamplers = rs.staticSamplers.map((s, k): StaticSampler => {
    const path = `${samplerPath(k)}.${KEYS.SAMPLER.flags}`;
    const copy: StaticSampler = { ...s, ...(s.nanBits ? { nanBits: { ...s.nanBits } } : {}) };
    const samplerFlags = SAMPLER.fields.flags;
    if (stores(samplerFlags, rs.version) && !stores(samplerFlags, to)) {
      const refused = (s.flags & rules.downSamplerFlagsRefused) >>> 0;
      if (refused !== 0) {
        throw new ConversionError(path, `${flagText(SAMPLER_FLAGS, refused)} cannot be converted to version ${vname(to)} (${rules.after} fails with E_INVALIDARG)`);
      }
      if (s.flags !== rules.upSamplerFlags) {
        const colour = String(enumName(STATIC_BORDER_COLOR, s.borderColor));
        report.notExpressible.push({
          path,
          from: s.flags,
          detail: `version ${vname(to)} has no sampler flags; ${flagText(SAMPLER_FLAGS, s.flags)} is lost (border colour ${colour} is kept as it is)`,
        });
      }
      copy.flags = 0;
    } else if (!stores(samplerFlags, rs.version) && stores(samplerFlags, to)) {
      copy.flags = rules.upSamplerFlags;
      if (rules.upSamplerFlags !== 0) report.added.push({ path, from: 0, to: rules.upSamplerFlags, detail: `sampler flags of version ${vname(to)}` });
    }
    return copy;
  });

  report.lossless = report.dropped.length === 0 && report.notExpressible.length === 0;
  return { rootSignature: { version: to, flags: rs.flags, parameters, staticSamplers }, report };
}

function restoredRangeFlags(rules: ConversionRules, r: DescriptorRange): number {
  return r.rangeType === SAMPLER_RANGE ? rules.upSamplerRangeFlags : rules.upRangeFlags;
}

/**
 * One line per report item, for stderr.
 * @throws {DescriptionError} bad-type when `report` is not an object
 */
export function describeConversionReport(report: ConversionReport): string[] {
  expectObject(report, 'report');
  expectArray(report.added, 'report.added');
  expectArray(report.dropped, 'report.dropped');
  expectArray(report.notExpressible, 'report.notExpressible');
  return [
    ...report.added.map((i) => `added ${i.path} = ${i.to}: ${i.detail}`),
    ...report.dropped.map((i) => `dropped ${i.path} = ${i.from}: ${i.detail}`),
    ...report.notExpressible.map((i) => `not expressible ${i.path} = ${i.from}: ${i.detail}`),
  ];
}
