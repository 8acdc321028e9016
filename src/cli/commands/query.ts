/** `dxbin query decode | timings | sum`: resolved query buffers (ResolveQueryData output). */
import { DURATION_FLAGS } from '../../../codecs/query.js';
import { decodeQueryResults } from '../../query/decode.js';
import { summarizeDurations, sumQueryResults, timestampDurations } from '../../query/resolve.js';
import { queryType } from '../../query/types.js';
import { DescriptionError } from '../../bytes/errors.js';
import { UsageError } from '../errors.js';
import { readInput } from '../io.js';

export interface RangeCliOptions {
  offset?: string;
  count?: string;
}

function wholeNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`${option} takes a whole number, got ${text}`);
  return Number(text);
}

function range(o: RangeCliOptions) {
  return { offset: wholeNumber(o.offset, '--offset'), count: wholeNumber(o.count, '--count') };
}

function typeOf(name: string) {
  try {
    return queryType(name);
  } catch (e) {
    if (e instanceof DescriptionError && e.code === 'bad-name') throw new UsageError(e.detail);
    throw e;
  }
}

export function queryDecode(file: string, o: RangeCliOptions & { type: string; format?: string }, out: (line: string) => void): void {
  const format = o.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new UsageError(`--format takes csv or json, got ${format}`);
  const q = typeOf(o.type);
  const { columns, count } = decodeQueryResults(readInput(file), q, range(o));
  const names = q.result.fields.map((f) => f.name);
  if (format === 'csv') {
    out(names.join(','));
    for (let i = 0; i < count; i++) out(names.map((n) => columns[n]![i]!.toString()).join(','));
  } else {
    // exact decimals as strings: JSON numbers lose integers above 2^53
    const rows = Array.from({ length: count }, (_, i) => Object.fromEntries(names.map((n) => [n, columns[n]![i]!.toString()])));
    out(JSON.stringify({ type: q.name, count, results: rows }, null, 2));
  }
}

export function queryTimings(file: string, o: RangeCliOptions & { frequency: string; pairs?: boolean; format?: string }, out: (line: string) => void): void {
  const frequency = Number(o.frequency);
  if (!(frequency > 0) || !Number.isFinite(frequency)) throw new UsageError(`--frequency takes ticks per second, got ${o.frequency}`);
  const d = timestampDurations(readInput(file), { frequency, pairs: o.pairs ?? false, ...range(o) });
  if (o.format === 'csv') {
    out('index,ticks,ns,flag');
    const word = (f: number) => (f === DURATION_FLAGS.NOT_ISSUED ? 'not-issued' : f === DURATION_FLAGS.END_BEFORE_BEGIN ? 'end-before-begin' : '');
    for (let i = 0; i < d.count; i++) out(`${i},${d.flags[i] ? '' : d.ticks[i]!.toString()},${d.flags[i] ? '' : d.ns[i]!},${word(d.flags[i]!)}`);
    return;
  }
  const s = summarizeDurations(d);
  out(`durations ${d.count} (${o.pairs ? '[begin, end] pairs' : 'consecutive marks'}), valid ${s.valid}, flagged ${s.flagged}`);
  out(`min ${s.min} ns, median ${s.median} ns, p99 ${s.p99} ns, max ${s.max} ns`);
}

export function querySum(file: string, o: RangeCliOptions & { type: string }, out: (line: string) => void): void {
  const sums = sumQueryResults(readInput(file), typeOf(o.type), range(o));
  for (const [name, value] of Object.entries(sums)) out(`${name},${value}`);
}
