/**
 * Differential fuzzing (docs/fuzzing.md, "Differential fuzzing"): `dxbin fuzz TARGET --against
 * IMPL`. Every input goes to dxbin and to another implementation (other-side.ts); the answers are
 * compared in order: accept or refuse, the description, the canonical bytes, each conversion.
 * A disagreement that one of the other side's documented choices explains (docs/decisions.md) is a
 * known class, counted and never a finding: dxbin answers again with that choice made its way, and
 * when that answer matches, the class is known. Everything else is a finding, written as libFuzzer
 * does (one file per class, named by kind and SHA-1, minimized, with a .txt of both answers).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HEADER, PARAMETER, PARAMETER_TYPES, RANGE_TYPES, TABLE } from '../../codecs/root-signature.js';
import type { ConversionSemantics } from '../../codecs/conversion.js';
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectBytes, expectFunction, expectNumber, expectObject, expectString } from '../bytes/check.js';
import * as plainApi from '../index.js';
import type { RootSignature } from '../root-signature/types.js';
import { answerKey, Features } from './features.js';
import { coverageBuild } from './instrument.js';
import { mutateInput, Random, type MutationKind } from './mutate.js';
import { seedInputs } from './seeds.js';
import { implCommand, OtherSide, type Hello, type SideReply } from './other-side.js';
import { readCorpus, shardOf, shrinkSteps } from './engine.js';
import { crashClass, descText, parseAnswerText, type SideAnswer } from './answers.js';

/** Targets that can be compared with another implementation: the bare part and the two container modes. */
export const AGAINST_TARGETS: readonly string[] = ['rts0', 'container-strict', 'container-lenient'];

/**
 * The other side's documented choices dxbin can answer by (docs/decisions.md, "Differential
 * fuzzing against vkd3d"), in the order they are tried. A hello answer's `known` lines name them.
 */
export const KNOWN_CHOICES = ['every-rts0-part', 'no-version-1.2', 'container-version-word', 'empty-array-offset', 'digest-checked', 'lenient-layout', 'serializer-validates'] as const;
/** A difference with the other side that a differential campaign may be told to expect. */
export type KnownChoice = (typeof KNOWN_CHOICES)[number];

/** One finding of a differential campaign. */
export interface AgainstFinding {
  target: string;
  kind: string;
  /** The deduplication class (kind and what it hinges on). */
  key: string;
  file?: string;
  size: number;
  originalSize: number;
  afterExecs: number;
  dxbin: string;
  other: string;
  reproduce: string;
}

/** What a differential campaign found against another implementation. */
export interface AgainstSummary {
  target: string;
  against: string;
  semantics: string;
  seed: number;
  shard?: { index: number; count: number };
  execs: number;
  seconds: number;
  /** Inputs per class: agree-accept, agree-refuse, known:CHOICE, and the finding kinds. */
  classes: Record<string, number>;
  /** Crashes of the other side by how they crashed (read-past-end, null, address, abort, ...). */
  crashKinds: Record<string, number>;
  dxbin: { ms: number; perSecond: number };
  other: { ms: number; perSecond: number; starts: number };
  slowest: { side: 'dxbin' | 'other'; ms: number; sha1: string; size: number }[];
  findings: AgainstFinding[];
  coverage: 'counters' | 'answers';
}

/** A differential campaign: targets, the other side, conversion rules, seed, time or runs. */
export interface AgainstOptions {
  targets: string[];
  /** `vkd3d` or `exec:CMD`. */
  against: string;
  /** Conversion rules dxbin compares with (default: the other side's own, from its hello). */
  semantics?: ConversionSemantics;
  timeMs?: number;
  /** Mutated inputs per target after the corpus replay (0: replay only, no built-in seeds). */
  runs?: number;
  seed?: number;
  corpusDir?: string;
  outDir?: string;
  shard?: { index: number; count: number };
  timeoutMs?: number;
  maxLen?: number;
  coverage?: boolean;
  /** Stop a target's run once a finding of one of these kinds is made. */
  stopOn?: readonly string[];
  progressMs?: number;
  /** Called with a progress line. */
  onProgress?: (line: string) => void;
}

const sha1 = (d: Uint8Array) => createHash('sha1').update(d).digest('hex');
const hex = (d: Uint8Array) => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');

// ---------------------------------------------------------------- dxbin's answer

/** The public API dxbin answers with: the plain modules, or the coverage build's copy of them. */
type Api = Pick<typeof plainApi, 'parseContainer' | 'decodeRootSignature' | 'encodeRootSignature' | 'rootSignatureContainer' | 'convertRootSignature' | 'containerDigestMatches' | 'DxbinError'>;

/** A non-dxbin error escaping dxbin: a finding of kind crash. */
class DxbinCrash extends Error {
  constructor(readonly thrown: unknown) {
    super(thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown));
  }
}

const TABLE_TYPE = PARAMETER_TYPES.find((t) => t.name === 'DESCRIPTOR_TABLE')!.value;
const at = (row: { at: Readonly<Record<1 | 2 | 3, number | null>> }) => row.at[1]!;

/** The part with every empty array's offset set to 0 (vkd3d never looks at it). */
function withEmptyOffsetsZeroed(part: Uint8Array): Uint8Array {
  const b = part.slice();
  const v = new DataView(b.buffer);
  const get = (o: number) => (o + 4 <= b.byteLength ? v.getUint32(o, true) : undefined);
  const F = HEADER.fields;
  if (b.byteLength < HEADER.sizes[1]) return b;
  if (get(at(F.numParameters)) === 0) v.setUint32(at(F.parametersOffset), 0, true);
  if (get(at(F.numStaticSamplers)) === 0) v.setUint32(at(F.staticSamplersOffset), 0, true);
  const count = get(at(F.numParameters)) ?? 0;
  const base = get(at(F.parametersOffset)) ?? 0;
  for (let i = 0; i < count; i++) {
    const p = base + i * PARAMETER.sizes[1];
    if (p + PARAMETER.sizes[1] > b.byteLength) break;
    if (get(p + at(PARAMETER.fields.parameterType)) !== TABLE_TYPE) continue;
    const t = get(p + at(PARAMETER.fields.payloadOffset))!;
    if (t + TABLE.sizes[1] > b.byteLength || t + TABLE.sizes[1] < t) continue;
    if (get(t + at(TABLE.fields.numDescriptorRanges)) === 0) v.setUint32(t + at(TABLE.fields.descriptorRangesOffset), 0, true);
  }
  return b;
}

const SAMPLER_RANGE = RANGE_TYPES.find((t) => t.name === 'SAMPLER')!.value;
const RANGE_VALUES = new Set<number>(RANGE_TYPES.map((t) => t.value));

/** What vkd3d's serializer writes: tables of known range types that do not mix samplers with CBV/SRV/UAV ranges. */
function serializable(rs: RootSignature): boolean {
  for (const p of rs.parameters) {
    if (p.parameterType !== 0) continue;
    let samplers = 0;
    for (const r of p.ranges) {
      if (!RANGE_VALUES.has(r.rangeType)) return false;
      if (r.rangeType === SAMPLER_RANGE) samplers++;
    }
    if (samplers !== 0 && samplers !== p.ranges.length) return false;
  }
  return true;
}

/** Reads the part's version field (0 when the part is shorter than that). */
const versionOf = (part: Uint8Array) => (part.byteLength >= 4 ? new DataView(part.buffer, part.byteOffset, 4).getUint32(at(HEADER.fields.version), true) : 0);

const CONVERT_TO: readonly { name: string; version: 1 | 2 | 3 }[] = [
  { name: '1.0', version: 1 },
  { name: '1.1', version: 2 },
  { name: '1.2', version: 3 },
];

/**
 * dxbin's answer for one input of `target`, with the other side's `choices` made its way.
 * @throws {DxbinCrash} when something other than a DxbinError escapes dxbin
 */
function dxbinAnswer(api: Api, target: string, data: Uint8Array, semantics: ConversionSemantics, versions: readonly string[], choices: ReadonlySet<KnownChoice>): SideAnswer {
  const refuse = (error: string, errorKey: string): SideAnswer => ({ accepted: false, error, errorKey, convert: {} });
  const guard = <T>(f: () => T): T | { refused: SideAnswer } => {
    try {
      return f();
    } catch (e) {
      if (e instanceof api.DxbinError) return { refused: refuse(`${e.name}: ${e.message}`, answerKey(e)) };
      throw new DxbinCrash(e);
    }
  };
  let parts: Uint8Array[];
  if (target === 'rts0') parts = [data];
  else {
    const mode = choices.has('lenient-layout') || target === 'container-lenient' ? 'lenient' : 'strict';
    const c = guard(() => api.parseContainer(data, { mode }));
    if ('refused' in c) return c.refused;
    if (choices.has('container-version-word') && new DataView(data.buffer, data.byteOffset).getUint32(20, true) !== 1) return refuse('container version word is not 1', 'container-version-word');
    if (choices.has('digest-checked') && !api.containerDigestMatches(data, data.byteLength)) return refuse('digest over the whole buffer does not match', 'digest');
    const rts0 = c.parts.filter((p) => p.name === 'RTS0').map((p) => p.data);
    if (rts0.length === 0) return refuse('no RTS0 part', 'no-rts0');
    parts = choices.has('every-rts0-part') ? rts0 : rts0.slice(0, 1);
  }
  let rs: RootSignature | undefined;
  for (const part of parts) {
    const bytes = choices.has('empty-array-offset') ? withEmptyOffsetsZeroed(part) : part;
    if (choices.has('no-version-1.2') && versionOf(bytes) === 3) return refuse('version 1.2', 'no-version-1.2');
    const r = guard(() => api.decodeRootSignature(bytes));
    if ('refused' in r) return r.refused;
    rs = r;
  }
  const got = rs!;
  const answer: SideAnswer = { accepted: true, desc: descText(got), convert: {} };
  const written = guard(() => hex(api.rootSignatureContainer(api.encodeRootSignature(got))));
  if (choices.has('serializer-validates') && !serializable(got)) answer.bytesError = 'serializer-validates';
  else if (typeof written === 'string') answer.bytes = written;
  else answer.bytesError = written.refused.errorKey;
  for (const to of CONVERT_TO) {
    if (to.version === got.version || !versions.includes(to.name)) continue;
    const conv = guard(() => descText(api.convertRootSignature(got, to.version, { semantics }).rootSignature));
    answer.convert[to.name] = typeof conv === 'string' ? { desc: conv } : { error: conv.refused.errorKey };
  }
  return answer;
}

/** The first way the answers differ (kind and deduplication key), or undefined when they agree. */
function firstDifference(dx: SideAnswer, other: SideAnswer): { kind: string; key: string } | undefined {
  if (dx.accepted !== other.accepted) return dx.accepted ? { kind: 'refuses-what-we-accept', key: `refuses-what-we-accept ${other.errorKey ?? ''}` } : { kind: 'accepts-what-we-refuse', key: `accepts-what-we-refuse ${dx.errorKey ?? ''}` };
  if (!dx.accepted) return undefined;
  const version = dx.desc!.split(' ')[0];
  if (dx.desc !== other.desc) {
    const a = dx.desc!.split(' ');
    const b = (other.desc ?? '').split(' ');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return { kind: 'description-differs', key: `description-differs version ${version} ${i < 3 ? `header word ${i}` : a.length !== b.length ? 'length' : 'record field'}` };
  }
  if (other.bytes !== undefined || other.bytesError !== undefined) {
    if (other.bytes === undefined && dx.bytes === undefined) {
      // both refuse to write
    } else if (other.bytes === undefined || dx.bytes === undefined) return { kind: 'bytes-differ', key: `bytes-differ ${other.bytes === undefined ? 'other refuses to write' : 'dxbin refuses to write'}` };
    else if (dx.bytes !== other.bytes) return { kind: 'bytes-differ', key: `bytes-differ version ${version}` };
  }
  for (const [to, mine] of Object.entries(dx.convert)) {
    const theirs = other.convert[to];
    if (!theirs || !mine) continue;
    if (mine.desc !== theirs.desc || (mine.desc === undefined && (mine.error === undefined) !== (theirs.error === undefined))) return { kind: 'conversion-differs', key: `conversion-differs ${version} to ${to}` };
  }
  return undefined;
}

// ---------------------------------------------------------------- the campaign

/** Shrinks `data` while `same(candidate)` holds (chunk removal, halving down to single bytes); asynchronous. */
async function minimizeAsync(data: Uint8Array, same: (d: Uint8Array) => Promise<boolean>, maxAttempts: number): Promise<Uint8Array> {
  const steps = shrinkSteps(data, maxAttempts);
  for (let step = steps.next(false); ; ) {
    if (step.done) return step.value;
    step = steps.next(await same(step.value));
  }
}

/** The outcome of one input. */
interface Verdict {
  /** agree-accept, agree-refuse, known:CHOICE, or a finding kind. */
  cls: string;
  finding?: { kind: string; key: string };
  crashKind?: string;
  dx: string;
  other: string;
  dxMs: number;
  otherMs: number;
  feature: string;
}

const describe = (a: SideAnswer) => (a.accepted ? `accepts: ${a.desc}\n  writes: ${a.bytes ?? `refuses (${a.bytesError})`}\n  converts: ${Object.entries(a.convert).map(([k, v]) => `to ${k}: ${v?.desc ?? `refuses (${v?.error})`}`).join('; ') || '-'}` : `refuses: ${a.error}`);

/** A differential session of one target: dxbin's API, the other side, its hello. */
class Session {
  constructor(
    readonly target: string,
    readonly api: Api,
    readonly side: OtherSide,
    readonly hello: Hello,
    readonly semantics: ConversionSemantics,
  ) {}

  /** The bytes the other side gets: the input container, or the bare part in a one-part container. */
  sent(data: Uint8Array): Uint8Array {
    return this.target === 'rts0' ? plainApi.rootSignatureContainer(data) : data;
  }

  async judge(data: Uint8Array): Promise<Verdict> {
    const known = KNOWN_CHOICES.filter((c) => this.hello.known.includes(c));
    const t0 = performance.now();
    let dx: SideAnswer;
    try {
      dx = dxbinAnswer(this.api, this.target, data, this.semantics, this.hello.versions, new Set());
    } catch (e) {
      if (!(e instanceof DxbinCrash)) throw e;
      const frame = e.thrown instanceof Error ? (e.thrown.stack ?? '').split('\n')[1]?.trim().replace(/:\d+:\d+\)?$/, '') ?? '' : '';
      return { cls: 'crash', finding: { kind: 'crash', key: `crash ${e.message.split(':')[0]} ${frame}` }, dx: `crashed: ${e.message}\n  at ${frame}`, other: '-', dxMs: performance.now() - t0, otherMs: 0, feature: 'crash' };
    }
    const dxMs = performance.now() - t0;
    const reply: SideReply = await this.side.request('r', this.sent(data));
    const base = { dx: describe(dx), dxMs, otherMs: reply.ms };
    if (reply.kind === 'hang') return { ...base, cls: 'other-hang', finding: { kind: 'other-hang', key: 'other-hang' }, other: `no answer within the timeout`, feature: 'hang' };
    if (reply.kind === 'crash') {
      const c = crashClass(reply.status, reply.stderr);
      return { ...base, cls: 'other-crash', crashKind: c.kind, finding: { kind: 'other-crash', key: c.key }, other: `crashed: ${c.text}`, feature: c.key };
    }
    let other: SideAnswer;
    try {
      other = parseAnswerText(reply.text);
    } catch (e) {
      return { ...base, cls: 'other-protocol', finding: { kind: 'other-protocol', key: 'other-protocol' }, other: `broke the protocol: ${(e as Error).message}`, feature: 'protocol' };
    }
    const feature = `${dx.errorKey ?? dx.desc?.split(' ')[0]}|${other.errorKey ?? 'ok'}`;
    const diff = firstDifference(dx, other);
    const withOther = { ...base, other: describe(other) };
    if (!diff) return { ...withOther, cls: dx.accepted ? 'agree-accept' : 'agree-refuse', feature: `agree|${feature}` };
    const answerWith = (choices: KnownChoice[], semantics = this.semantics) => {
      try {
        return dxbinAnswer(this.api, this.target, data, semantics, this.hello.versions, new Set(choices));
      } catch {
        return undefined;
      }
    };
    for (const c of known) {
      const a = answerWith([c]);
      // an empty array's offset: dxbin's only refusal (patching the offset may change bytes other records overlap)
      const emptyOnly = c === 'empty-array-offset' && !dx.accepted && other.accepted && dx.errorKey?.startsWith('bad-offset') && a?.accepted;
      if (a && (!firstDifference(a, other) || emptyOnly)) return { ...withOther, cls: `known:${c}`, feature: `known:${c}|${feature}` };
    }
    const all = answerWith(known);
    if (all && !firstDifference(all, other)) {
      const which = known.filter((c) => {
        const a = answerWith([c]);
        return a !== undefined && firstDifference(a, dx) !== undefined;
      });
      return { ...withOther, cls: `known:${which.join('+') || 'combined'}`, feature: `known:${which.join('+')}|${feature}` };
    }
    if (diff.kind === 'conversion-differs' && this.hello.semantics && this.hello.semantics !== this.semantics) {
      const theirs = answerWith([], this.hello.semantics as ConversionSemantics);
      if (theirs && !firstDifference(theirs, other)) return { ...withOther, cls: 'known:conversion-rules', feature: `known:conversion-rules|${feature}` };
    }
    return { ...withOther, cls: diff.kind, finding: diff, feature: `${diff.key}|${feature}` };
  }
}

/** dxbin's API for answering: the coverage build's copy (with its counters) when asked and available. */
async function loadApi(coverage: boolean): Promise<{ api: Api; counters?: Uint8Array }> {
  if (!coverage) return { api: plainApi };
  const build = await coverageBuild();
  if (!build) return { api: plainApi };
  const counters = new Uint8Array(Math.max(1, build.counters));
  (globalThis as { __dxbinCov?: Uint8Array }).__dxbinCov = counters;
  const api = (await import(pathToFileURL(join(build.dir, 'src', 'index.js')).href)) as Api;
  return { api, counters };
}

/** Sets up the other side for `against`: the child, its hello, the semantics to compare. */
async function openSide(against: string, timeoutMs: number, semantics?: ConversionSemantics): Promise<{ side: OtherSide; hello: Hello; semantics: ConversionSemantics }> {
  const side = new OtherSide(implCommand(against), timeoutMs);
  const hello = await side.hello();
  const own = hello.semantics === 'vkd3d' || hello.semantics === 'runtime' || hello.semantics === 'd3dx12' ? hello.semantics : 'runtime';
  return { side, hello, semantics: semantics ?? own };
}

/**
 * Runs the differential campaign over `options.targets`; resolves with one summary per target.
 * @throws {DescriptionError} bad-name for a target that cannot be compared, or an IMPL that cannot be started
 */
export async function runAgainst(options: AgainstOptions): Promise<AgainstSummary[]> {
  expectObject(options, 'options');
  expectArray(options.targets, 'options.targets');
  expectString(options.against, 'options.against');
  if (options.onProgress !== undefined) expectFunction(options.onProgress, 'options.onProgress');
  for (const t of options.targets) if (!AGAINST_TARGETS.includes(t)) throw new DescriptionError('bad-name', 'target', `--against compares ${AGAINST_TARGETS.join(', ')}; ${t} has no counterpart`);
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 2000;
  expectNumber(timeoutMs, 'options.timeoutMs');
  const { api, counters } = await loadApi(options.coverage ?? true);
  const out: AgainstSummary[] = [];
  const perTargetMs = options.timeMs !== undefined ? options.timeMs / options.targets.length : undefined;
  for (const [ti, target] of options.targets.entries()) {
    const { side, hello, semantics } = await openSide(options.against, timeoutMs, options.semantics);
    try {
      out.push(await campaign(new Session(target, api, side, hello, semantics), options, { seed, ti, perTargetMs, counters }));
    } finally {
      await side.close();
    }
  }
  return out;
}

async function campaign(s: Session, o: AgainstOptions, c: { seed: number; ti: number; perTargetMs?: number; counters?: Uint8Array }): Promise<AgainstSummary> {
  const target = s.target;
  const corpusDir = o.corpusDir ? join(o.corpusDir, target) : undefined;
  const replayOnly = o.runs === 0;
  const corpus = shardOf([...(replayOnly ? [] : seedInputs(target)), ...(corpusDir ? readCorpus(corpusDir) : [])], o.shard);
  const known = new Set(corpus.map(sha1));
  const features = new Features(c.counters ?? new Uint8Array(1));
  const summary: AgainstSummary = {
    target, against: s.hello.name, semantics: s.semantics, seed: c.seed, ...(o.shard ? { shard: o.shard } : {}), execs: 0, seconds: 0,
    classes: {}, crashKinds: {}, dxbin: { ms: 0, perSecond: 0 }, other: { ms: 0, perSecond: 0, starts: 0 }, slowest: [], findings: [], coverage: c.counters ? 'counters' : 'answers',
  };
  const keys = new Set<string>();
  const kind = (target === 'rts0' ? 'rts0' : 'container') as MutationKind;
  const rnd = new Random((c.seed * 7919 + (o.shard?.index ?? 0) * 104729 + c.ti * 613) >>> 0);
  const t0 = Date.now();
  let lastProgress = t0;
  const slow = (side: 'dxbin' | 'other', ms: number, data: Uint8Array) => {
    const list = summary.slowest;
    if (list.filter((x) => x.side === side).length >= 5 && !list.some((x) => x.side === side && x.ms < ms)) return;
    list.push({ side, ms: Math.round(ms * 1000) / 1000, sha1: sha1(data), size: data.byteLength });
    list.sort((a, b) => b.ms - a.ms);
    const mine = list.filter((x) => x.side === side);
    if (mine.length > 5) list.splice(list.indexOf(mine[mine.length - 1]!), 1);
  };
  const stopped = () => o.stopOn !== undefined && summary.findings.some((f) => o.stopOn!.includes(f.kind));
  const record = async (data: Uint8Array, v: Verdict) => {
    summary.execs++;
    summary.classes[v.cls] = (summary.classes[v.cls] ?? 0) + 1;
    if (v.crashKind) summary.crashKinds[v.crashKind] = (summary.crashKinds[v.crashKind] ?? 0) + 1;
    summary.dxbin.ms += v.dxMs;
    summary.other.ms += v.otherMs;
    slow('dxbin', v.dxMs, data);
    slow('other', v.otherMs, data);
    if (!v.finding || keys.has(v.finding.key)) return;
    keys.add(v.finding.key);
    await report(data, v);
  };
  const resign = target !== 'rts0' ? data0DigestOk(s.api) : () => false;
  const report = async (data: Uint8Array, v: Verdict) => {
    const f = v.finding!;
    const signed = resign(data);
    const prepare = (d: Uint8Array) => {
      if (!signed || d.byteLength < 20) return d;
      plainApi.signContainer(d, d.byteLength);
      return d;
    };
    let small = data;
    if (f.kind !== 'other-hang') {
      small = await minimizeAsync(data, async (d) => {
        const cand = prepare(d);
        const again = await s.judge(cand);
        return again.finding?.key === f.key;
      }, 800);
      small = prepare(small);
    }
    const final = small === data ? v : await s.judge(small);
    let file: string | undefined;
    const prefix = f.kind;
    const name = `${prefix}-${sha1(small)}`;
    const text = `${target} against ${s.hello.name} (semantics ${s.semantics}): ${f.kind}\nclass: ${f.key}\nsize ${small.byteLength}, minimized from ${data.byteLength}\ndxbin ${final.dx}\n${s.hello.name} ${final.other}\n`;
    if (o.outDir) {
      mkdirSync(o.outDir, { recursive: true });
      file = join(o.outDir, name);
      writeFileSync(file, small);
      writeFileSync(`${file}.txt`, text);
    }
    summary.findings.push({
      target, kind: f.kind, key: f.key, file, size: small.byteLength, originalSize: data.byteLength, afterExecs: summary.execs, dxbin: final.dx, other: final.other,
      reproduce: `npx dxbin fuzz ${target} --against ${o.against} --reproduce ${file ?? name}`,
    });
  };
  const fresh = (v: Verdict) => features.record(v.feature);

  for (const data of corpus) {
    if (stopped()) break;
    const v = await s.judge(data);
    fresh(v);
    await record(data, v);
  }
  if (corpus.length === 0 && !replayOnly) corpus.push(new Uint8Array(0));
  const runs = o.runs;
  const timeUp = () => c.perTargetMs !== undefined && Date.now() - t0 >= c.perTargetMs;
  const budgetLeft = (done: number) => (runs === undefined || done < runs) && !timeUp() && (runs !== undefined || c.perTargetMs !== undefined);
  for (let done = 0; !replayOnly && budgetLeft(done) && !stopped(); done++) {
    let data = corpus[rnd.below(corpus.length)]!;
    const stack = 1 + rnd.below(rnd.chance(4) ? 8 : 2);
    for (let k = 0; k < stack; k++) data = mutateInput(data, kind, rnd.next());
    if (data.byteLength > (o.maxLen ?? 1 << 16)) data = data.subarray(0, o.maxLen ?? 1 << 16);
    const v = await s.judge(data);
    if (fresh(v) && !v.finding) {
      const h = sha1(data);
      if (!known.has(h)) {
        known.add(h);
        corpus.push(data);
        if (corpusDir) {
          mkdirSync(corpusDir, { recursive: true });
          if (!existsSync(join(corpusDir, h))) writeFileSync(join(corpusDir, h), data);
        }
      }
    }
    await record(data, v);
    const now = Date.now();
    if (o.onProgress && now - lastProgress >= (o.progressMs ?? 10_000)) {
      lastProgress = now;
      o.onProgress(`#${summary.execs} ${target} vs ${s.hello.name} corp: ${corpus.length} exec/s: ${Math.round((summary.execs * 1000) / Math.max(1, now - t0))} findings: ${summary.findings.length} other crashes: ${summary.classes['other-crash'] ?? 0}`);
    }
  }
  summary.seconds = (Date.now() - t0) / 1000;
  summary.dxbin.perSecond = summary.dxbin.ms > 0 ? Math.round((summary.execs * 1000) / summary.dxbin.ms) : 0;
  summary.other.perSecond = summary.other.ms > 0 ? Math.round((summary.execs * 1000) / summary.other.ms) : 0;
  summary.dxbin.ms = Math.round(summary.dxbin.ms);
  summary.other.ms = Math.round(summary.other.ms);
  summary.other.starts = s.side.starts;
  return summary;
}

/** Whether an input container's digest was right over its whole buffer (then minimized candidates are signed again). */
function data0DigestOk(api: Api): (data: Uint8Array) => boolean {
  return (data) => data.byteLength >= 20 && api.containerDigestMatches(data, data.byteLength);
}

/**
 * One input through both sides: the verdict as text, and whether it is a finding (the reproduce
 * command of a finding).
 */
export async function reproduceAgainst(target: string, against: string, data: Uint8Array, o: { semantics?: ConversionSemantics; timeoutMs?: number } = {}): Promise<{ cls: string; finding?: string; text: string }> {
  expectString(target, 'target');
  expectBytes(data, 'data');
  if (!AGAINST_TARGETS.includes(target)) throw new DescriptionError('bad-name', 'target', `--against compares ${AGAINST_TARGETS.join(', ')}; ${target} has no counterpart`);
  const { side, hello, semantics } = await openSide(against, o.timeoutMs ?? 2000, o.semantics);
  try {
    const v = await new Session(target, plainApi, side, hello, semantics).judge(data);
    return { cls: v.cls, finding: v.finding?.key, text: `${target} against ${hello.name} (semantics ${semantics}): ${v.cls}${v.finding ? ` (${v.finding.key})` : ''}\ndxbin ${v.dx}\n${hello.name} ${v.other}\n` };
  } finally {
    await side.close();
  }
}

/** A summary as runAgainst makes it (the fields the report prints), or a bad-type DescriptionError naming the field. */
function checkSummary(s: AgainstSummary, i: number): void {
  const at = `summaries[${i}]`;
  expectObject(s, at);
  for (const k of ['target', 'against', 'semantics', 'coverage'] as const) expectString(s[k], `${at}.${k}`);
  for (const k of ['seed', 'execs', 'seconds'] as const) expectNumber(s[k], `${at}.${k}`);
  for (const k of ['classes', 'crashKinds', 'dxbin', 'other'] as const) expectObject(s[k], `${at}.${k}`);
  for (const k of ['ms', 'perSecond'] as const) {
    expectNumber(s.dxbin[k], `${at}.dxbin.${k}`);
    expectNumber(s.other[k], `${at}.other.${k}`);
  }
  expectNumber(s.other.starts, `${at}.other.starts`);
  if (s.shard !== undefined) expectObject(s.shard, `${at}.shard`);
  expectArray(s.slowest, `${at}.slowest`);
  s.slowest.forEach((x, j) => {
    expectObject(x, `${at}.slowest[${j}]`);
    expectString(x.sha1, `${at}.slowest[${j}].sha1`);
  });
  expectArray(s.findings, `${at}.findings`);
  s.findings.forEach((f, j) => expectObject(f, `${at}.findings[${j}]`));
}

/** The report of a campaign as text: counts per class, crash kinds, throughput of each side, the slowest inputs, the findings. */
export function againstReport(summaries: readonly AgainstSummary[]): string {
  expectArray(summaries, 'summaries');
  summaries.forEach(checkSummary);
  const lines: string[] = [];
  for (const s of summaries) {
    lines.push(`${s.target} against ${s.against} (semantics ${s.semantics}, seed ${s.seed}${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}): ${s.execs} inputs in ${s.seconds.toFixed(1)} s, coverage ${s.coverage}`);
    const classes = Object.entries(s.classes).sort((a, b) => b[1] - a[1]);
    let width = 8;
    for (const [k] of classes) width = Math.max(width, k.length);
    for (const [k, n] of classes) lines.push(`  ${k.padEnd(width)} ${String(n).padStart(9)}  ${k.startsWith('known:') ? 'documented choice (docs/decisions.md)' : k.startsWith('agree') ? '' : 'finding kind'}`.trimEnd());
    const kinds = Object.entries(s.crashKinds);
    if (kinds.length) lines.push(`  crash kinds: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    lines.push(`  dxbin: ${s.dxbin.ms} ms busy, ${s.dxbin.perSecond} inputs/s; ${s.against}: ${s.other.ms} ms per request round trip in all, ${s.other.perSecond} inputs/s, ${s.other.starts} start${s.other.starts === 1 ? '' : 's'}`);
    if (s.slowest.length) lines.push(`  slowest: ${s.slowest.map((x) => `${x.side} ${x.ms} ms (${x.size} bytes, ${x.sha1.slice(0, 12)})`).join('; ')}`);
    for (const f of s.findings) lines.push(`  ${f.kind}: ${f.key} (${f.size} bytes, from ${f.originalSize})\n    reproduce: ${f.reproduce}`);
  }
  return `${lines.join('\n')}\n`;
}
