/**
 * `dxbin query decode | timings | sum`: resolved query buffers (ResolveQueryData output), streamed:
 * the input is read in chunks of whole records and the output written with backpressure, so
 * memory stays bounded whatever the file size (files beyond 2 GB included). `timings` in summary
 * form keeps the valid durations (8 bytes each) for the exact median and p99.
 */
import { S, FORMAT_VERSION } from '../schema.js';
import { Option } from 'commander';
import { DURATION_FLAGS, QUERY_TYPES, RESOLVE_OFFSET_ALIGNMENT, queryType, sumQueryResults, summarizeDurations, timestampDurations } from '../../query/index.js';
import type { Command } from 'commander';
import { printableText, timingPicture, timingsSvg } from '../../inspect/index.js';
import type { FileCommand, RunContext } from '../command.js';
import { InputError, UsageError } from '../errors.js';
import { openInput, type Output } from '../io.js';
import { noteSeveral } from './shared.js';

/** Bytes read per chunk (rounded down to whole records). */
const CHUNK_BYTES = 1 << 20;

interface RangeOptions {
  offset?: string;
  count?: string;
  allowPartial?: boolean;
}

function wholeNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`${option} takes a whole number, got ${text}`);
  return Number(text);
}

function checkRange(o: RangeOptions): void {
  const offset = wholeNumber(o.offset, '--offset');
  wholeNumber(o.count, '--count');
  if (offset !== undefined && offset % RESOLVE_OFFSET_ALIGNMENT !== 0) {
    throw new UsageError(`--offset must be a multiple of ${RESOLVE_OFFSET_ALIGNMENT} (ResolveQueryData's AlignedDestinationBufferOffset), got ${offset}`);
  }
}

const rangeOptions = (c: Command) =>
  c
    .option('--offset <n>', 'byte offset of the first result (a multiple of 8)')
    .option('--count <n>', 'number of results (default: all)')
    .option('--allow-partial', 'ignore trailing bytes that are not a whole result (default: an error)');

const typeOption = () => new Option('--type <type>', 'query type').choices(QUERY_TYPES.map((q) => q.cli)).makeOptionMandatory();

/** One chunk of whole records: the bytes (8-aligned, owned until the next chunk) and the absolute offset of its first byte. */
interface Chunk {
  bytes: Uint8Array;
  at: number;
}

/**
 * Reads whole records of `size` bytes from `file` (or standard input) in chunks. Trailing bytes
 * that are not a whole record are an error (absolute offset named) unless allowPartial.
 */
async function* records(file: string, ctx: RunContext<RangeOptions>, size: number, what: string): AsyncGenerator<Chunk> {
  const offset = wholeNumber(ctx.options.offset, '--offset') ?? 0;
  const count = wholeNumber(ctx.options.count, '--count');
  const per = Math.max(1, Math.floor(CHUNK_BYTES / size)) * size;
  const partial = (at: number, left: number) =>
    new InputError(file, 'partial-record', `${left} trailing byte${left === 1 ? ' is' : 's are'} not a whole ${what} result of ${size} bytes (--allow-partial ignores them)`, { field: what, offset: at });
  const short = (available: number) =>
    new InputError(file, 'partial-record', `${count} results of ${size} bytes need ${count! * size} bytes, only ${available} after offset ${offset}`, { field: `${what}.count`, offset });
  if (file === '-') {
    let skipped = 0;
    let done = 0;
    let pending = Buffer.alloc(0);
    for await (const c of ctx.streams.stdinChunks()) {
      let b = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
      if (skipped < offset) {
        const skip = Math.min(offset - skipped, b.byteLength);
        skipped += skip;
        b = b.subarray(skip);
      }
      pending = pending.byteLength ? Buffer.concat([pending, b]) : Buffer.from(b);
      let whole = Math.floor(pending.byteLength / size);
      if (count !== undefined) whole = Math.min(whole, count - done);
      if (whole > 0) {
        const out = new Uint8Array(whole * size);
        out.set(pending.subarray(0, whole * size));
        yield { bytes: out, at: offset + done * size };
        done += whole;
        pending = pending.subarray(whole * size);
      }
      if (count !== undefined && done >= count) return;
    }
    if (skipped < offset) throw new InputError(file, 'partial-record', `offset ${offset} is past the end (${skipped} bytes)`, { field: `${what}.offset`, offset });
    if (count !== undefined && done < count) throw short(done * size + pending.byteLength);
    if (pending.byteLength > 0 && !ctx.options.allowPartial) throw partial(offset + done * size, pending.byteLength);
    return;
  }
  const { handle, size: fileSize } = await openInput(file);
  try {
    if (offset > fileSize) throw new InputError(file, 'partial-record', `offset ${offset} is past the end (${fileSize} bytes)`, { field: `${what}.offset`, offset });
    const available = fileSize - offset;
    const whole = Math.floor(available / size);
    if (count !== undefined && count > whole) throw short(available);
    if (count === undefined && available % size !== 0 && !ctx.options.allowPartial) throw partial(offset + whole * size, available % size);
    const n = count ?? whole;
    const buffer = new Uint8Array(Math.min(per, n * size));
    let at = offset;
    const end = offset + n * size;
    while (at < end) {
      const want = Math.min(buffer.byteLength, end - at);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buffer, got, want - got, at + got);
        if (bytesRead === 0) throw new InputError(file, 'io', 'the file got shorter while it was read', { field: what, offset: at + got });
        got += bytesRead;
      }
      yield { bytes: buffer.subarray(0, want), at };
      at += want;
    }
  } finally {
    await handle.close();
  }
}

/** Where text output goes: -o (safe output) or standard output, with backpressure. */
async function textSink(file: string, ctx: RunContext<unknown>): Promise<Output | undefined> {
  return ctx.output === undefined ? undefined : ctx.open(ctx.output, [file]);
}

/** Buffers small writes into ~1 MB chunks before they go out. */
function batched(write: (s: string) => Promise<void>) {
  let buf = '';
  return {
    async add(s: string) {
      buf += s;
      if (buf.length >= 1 << 20) {
        const b = buf;
        buf = '';
        await write(b);
      }
    },
    async flush() {
      if (buf) await write(buf);
      buf = '';
    },
  };
}

/** Decimal text of a u64 given as two u32 words (exact; plain numbers below 2^53). */
function u64Text(lo: number, hi: number): string {
  if (hi === 0) return String(lo);
  if (hi < 0x200000) return String(hi * 4294967296 + lo);
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

/**
 * The decimal fields of each record of a chunk, straight from its words (the record layout is the
 * query type's row: field offsets and sizes), calling `row` with the texts of one record.
 */
function recordTexts(bytes: Uint8Array, q: ReturnType<typeof queryType>, row: (fields: string[]) => void): number {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  const stride = q.result.size >>> 2;
  const fields = q.result.fields.map((f) => ({ at: f.offset >>> 2, wide: f.size === 8 }));
  const n = bytes.byteLength / q.result.size;
  const texts = new Array<string>(fields.length);
  for (let i = 0, base = 0; i < n; i++, base += stride) {
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k]!;
      texts[k] = u64Text(words[base + f.at]!, f.wide ? words[base + f.at + 1]! : 0);
    }
    row(texts);
  }
  return n;
}

async function withSink<T>(file: string, ctx: RunContext<unknown>, body: (write: (s: string) => Promise<void>) => Promise<T>): Promise<T> {
  const sink = await textSink(file, ctx);
  const write = sink ? (s: string) => sink.write(s) : (s: string) => ctx.streams.write(s);
  try {
    const r = await body(write);
    await sink?.commit();
    return r;
  } catch (e) {
    await sink?.abort();
    throw e;
  }
}

export const queryDecode: FileCommand<RangeOptions & { type: string; format: string; several?: boolean }> = {
  kind: 'files',
  path: ['query', 'decode'],
  description: 'decode packed results: CSV with the D3D12 field names, one row per query, exact decimals (streamed)',
  examples: ['dxbin query decode --type pipeline-statistics stats.bin > stats.csv', 'dxbin query decode --type timestamp stamps.bin --count 2', 'cat stamps.bin | dxbin query decode --type timestamp - --format json'],
  input: 'file',
  schema: { type: S.str, count: S.int, output: S.str, results: S.arr({ type: 'object', additionalProperties: S.str }) },
  streams: true,
  writes: { required: false, ext: (o) => (o.format === 'json' || o.json ? '.json' : '.csv') },
  options: (c) => rangeOptions(c.addOption(typeOption()).addOption(new Option('--format <format>', 'output form (--json: json)').choices(['csv', 'json']).default('csv'))),
  check: (o, _args, inputs) => (checkRange(o), noteSeveral(o, inputs)),
  async run(file, ctx) {
    const q = queryType(ctx.options.type);
    const names = q.result.fields.map((f) => f.name);
    const quoted = names.map((n) => JSON.stringify(n));
    const json = ctx.options.format === 'json' || ctx.options.json === true;
    let count = 0;
    await withSink(file, ctx, async (write) => {
      const out = batched(write);
      if (json) await out.add(`{"formatVersion":${FORMAT_VERSION},${ctx.options.json && ctx.output === undefined ? `"file":${JSON.stringify(file)},"ok":true,` : ''}"type":${JSON.stringify(q.name)},"results":[`);
      // several files on standard output: a heading names each (as head(1) does)
      else await out.add(`${ctx.options.several && ctx.output === undefined ? `==> ${printableText(file)} <==\n` : ''}${names.join(',')}\n`);
      for await (const chunk of records(file, ctx, q.result.size, q.name)) {
        let text = '';
        recordTexts(chunk.bytes, q, (t) => {
          text += json ? `${count ? ',' : ''}{${t.map((v, k) => `${quoted[k]}:"${v}"`).join(',')}}` : `${t.join(',')}\n`;
          count++;
        });
        await out.add(text);
      }
      if (json) await out.add(`],"count":${count}}\n`);
      await out.flush();
    });
    // on standard output the streamed JSON was this input's answer; with -o the answer is a line
    return json && ctx.output === undefined ? undefined : { type: q.name, count, ...(ctx.output !== undefined ? { output: ctx.output } : {}) };
  },
};

export const queryTimings: FileCommand<RangeOptions & { frequency: string; pairs?: boolean; marks?: boolean; format: string; svg?: string; several?: boolean }> = {
  kind: 'files',
  path: ['query', 'timings'],
  description: 'timestamp durations of [begin, end] pairs (default) or --marks (consecutive); a summary, or --format csv per duration',
  examples: ['dxbin query timings stamps.bin --frequency 10000000', 'dxbin query timings stamps.bin --frequency 10000000 --marks --format csv', 'dxbin query timings stamps.bin --frequency 24000000 --json'],
  input: 'file',
  extraOutputs: ['svg'],
  schema: { durations: S.int, form: S.enum('pairs', 'marks'), valid: S.int, flagged: S.int, minNs: S.num, medianNs: S.num, p99Ns: S.num, maxNs: S.num, output: S.str },
  streams: true,
  writes: { required: false, ext: (o) => (o.format === 'csv' ? '.csv' : '.txt') },
  options: (c) =>
    rangeOptions(
      c
        .requiredOption('--frequency <hz>', 'ID3D12CommandQueue::GetTimestampFrequency')
        .option('--pairs', 'the stamps are [begin, end] pairs (the default)')
        .option('--marks', 'the stamps are consecutive marks: duration i = t[i+1] - t[i]')
        .addOption(new Option('--format <format>', 'summary or csv').choices(['summary', 'csv']).default('summary'))
        .option('--svg <out>', 'also write the duration histogram and begin/end timeline as SVG (reads the input whole; one input, not -)'),
    ),
  check(o, _args, inputs) {
    noteSeveral(o, inputs);
    if (o.svg !== undefined && (inputs.length !== 1 || inputs[0] === '-')) throw new UsageError('--svg draws one input file (not -)');
    checkRange(o);
    const f = Number(o.frequency);
    if (!(f > 0) || !Number.isFinite(f)) throw new UsageError(`--frequency takes ticks per second, got ${o.frequency}`);
    if (o.pairs && o.marks) throw new UsageError('--pairs and --marks exclude each other');
    if (o.json && o.format === 'csv') throw new UsageError('--json goes with the summary; --format csv is CSV');
  },
  async run(file, ctx) {
    const frequency = Number(ctx.options.frequency);
    const marks = ctx.options.marks === true;
    const flagWord = (f: number) => (f === DURATION_FLAGS.NOT_ISSUED ? 'not-issued' : f === DURATION_FLAGS.END_BEFORE_BEGIN ? 'end-before-begin' : '');
    const csv = ctx.options.format === 'csv';
    if (ctx.options.svg !== undefined) {
      const range = { offset: wholeNumber(ctx.options.offset, '--offset'), count: wholeNumber(ctx.options.count, '--count') };
      const picture = timingPicture(await ctx.read(file), { frequency, pairs: !marks, ...range });
      await ctx.write(ctx.options.svg, timingsSvg(picture, `${file.replace(/^.*[\\/]/, '')}: ${marks ? 'consecutive marks' : '[begin, end] pairs'}`), [file]);
    }
    let valid = new Float64Array(1024);
    let nValid = 0;
    let total = 0;
    let previous: Uint8Array | undefined; // marks: the last stamp of the chunk before
    let oddStamp: { at: number } | undefined;
    const summary = await withSink(file, ctx, async (write) => {
      const out = batched(write);
      const name = ctx.options.several && ctx.output === undefined ? file : undefined;
      if (csv) await out.add(`${name !== undefined ? `==> ${name} <==\n` : ''}index,ticks,ns,flag\n`);
      for await (const chunk of records(file, ctx, 8, 'TIMESTAMP')) {
        let stamps = chunk.bytes;
        if (marks && previous) {
          const joined = new Uint8Array(stamps.byteLength + 8);
          joined.set(previous);
          joined.set(stamps, 8);
          stamps = joined;
        } else if (!marks && stamps.byteLength % 16 !== 0) {
          // pairs: an odd stamp can only be the last (chunks hold an even number otherwise)
          oddStamp = { at: chunk.at + stamps.byteLength - 8 };
          stamps = stamps.subarray(0, stamps.byteLength - 8);
        }
        if (marks) previous = stamps.slice(stamps.byteLength - 8);
        const d = timestampDurations(stamps, { frequency, pairs: !marks });
        let text = '';
        for (let i = 0; i < d.count; i++) {
          const f = d.flags[i]!;
          if (f === 0) {
            if (nValid === valid.length) {
              const grown = new Float64Array(valid.length * 2);
              grown.set(valid);
              valid = grown;
            }
            valid[nValid++] = d.ns[i]!;
          }
          if (csv) text += `${total + i},${f ? '' : d.ticks[i]!.toString()},${f ? '' : d.ns[i]!},${flagWord(f)}\n`;
        }
        if (csv) await out.add(text);
        total += d.count;
      }
      if (oddStamp && !ctx.options.allowPartial) {
        throw new InputError(file, 'partial-record', 'an odd number of timestamps does not make whole [begin, end] pairs (--marks reads consecutive marks; --allow-partial ignores the last)', { field: 'TIMESTAMP', offset: oddStamp.at });
      }
      const s = summarizeDurations({ count: nValid, ns: valid.subarray(0, nValid), flags: new Uint8Array(nValid), ticks: new BigUint64Array(0) });
      const result = { durations: total, form: marks ? 'marks' : 'pairs', valid: s.valid, flagged: total - s.valid, minNs: s.min, medianNs: s.median, p99Ns: s.p99, maxNs: s.max };
      if (!csv && !ctx.options.json) {
        await out.add(`${name !== undefined ? `${name}: ` : ''}durations ${total} (${marks ? 'consecutive marks' : '[begin, end] pairs'}), valid ${s.valid}, flagged ${total - s.valid}\n`);
        // no valid duration (an empty file, or only never-issued pairs): nothing to take a minimum of
        await out.add((name !== undefined ? `${name}: ` : '') + (s.valid === 0 ? 'no valid durations: no min, median, p99 or max\n' : `min ${s.min} ns, median ${s.median} ns, p99 ${s.p99} ns, max ${s.max} ns\n`));
      }
      await out.flush();
      return result;
    });
    return { ...summary, ...(ctx.output !== undefined ? { output: ctx.output } : {}) };
  },
};

export const querySum: FileCommand<RangeOptions & { type: string; several?: boolean }> = {
  kind: 'files',
  path: ['query', 'sum'],
  description: 'field-wise sums (mod 2^64) of counter results (occlusion, pipeline and SO statistics)',
  examples: ['dxbin query sum --type pipeline-statistics stats.bin', "dxbin query sum --type occlusion 'frames/*.bin' --json"],
  input: 'file',
  schema: { type: S.str, count: S.int, sums: { type: 'object', additionalProperties: S.str } },
  streams: true,
  options: (c) => rangeOptions(c.addOption(typeOption())),
  check: (o, _args, inputs) => (checkRange(o), noteSeveral(o, inputs)),
  async run(file, ctx) {
    const q = queryType(ctx.options.type);
    const sums: Record<string, bigint> = Object.fromEntries(q.result.fields.map((f) => [f.name, 0n]));
    let count = 0;
    for await (const chunk of records(file, ctx, q.result.size, q.name)) {
      const part = sumQueryResults(chunk.bytes, q);
      for (const [name, v] of Object.entries(part)) sums[name] = BigInt.asUintN(64, sums[name]! + v);
      count += chunk.bytes.byteLength / q.result.size;
    }
    const prefix = ctx.options.several ? `${printableText(file)}: ` : '';
    for (const [name, value] of Object.entries(sums)) await ctx.print(`${prefix}${name},${value}`);
    // exact decimals as strings: JSON numbers lose integers above 2^53
    return { type: q.name, count, sums: Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v.toString()])) };
  },
};
