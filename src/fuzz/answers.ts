/**
 * What the other side of `dxbin fuzz --against` says, read (docs/fuzzing.md, "The framed
 * protocol"): DESC text of a description, the answer lines of a run, the crash report of our
 * harnesses' signal handler. Input from another program, so read with typed refusals only (the
 * `against-answer` fuzz target).
 */
import { DescriptionError } from '../bytes/errors.js';
import { expectArray, expectObject, expectString } from '../bytes/check.js';
import type { RootSignature, SamplerFloatField, StaticSampler } from '../root-signature/types.js';

/** What one side answered for one input. */
export interface SideAnswer {
  accepted: boolean;
  /** Why it refused (text). */
  error?: string;
  /** The refusal's shape, for deduplication (dxbin: code and path; other: its code). */
  errorKey?: string;
  /** The description as DESC text (docs/fuzzing.md). */
  desc?: string;
  /** The container this side writes for its description, as hex. */
  bytes?: string;
  bytesError?: string;
  /** Conversions to other versions: DESC text or a refusal. */
  convert: Partial<Record<string, { desc?: string; error?: string }>>;
}

// ---------------------------------------------------------------- DESC text

const f32 = new Float32Array(1);
const u32v = new Uint32Array(f32.buffer);
function floatBits(s: StaticSampler, field: SamplerFloatField): string {
  const x = s[field];
  if (Number.isNaN(x) && s.nanBits?.[field] !== undefined) return (s.nanBits[field]! >>> 0).toString(16).padStart(8, '0');
  f32[0] = x;
  return u32v[0]!.toString(16).padStart(8, '0');
}

/**
 * A description as DESC text (docs/fuzzing.md): version flags count PARAMETER... count SAMPLER...;
 * u32 in decimal, floats as 8 hex digits of their bits; flags 0 where the version has none;
 * version 3 samplers end with their flags.
 */
export function descText(rs: RootSignature): string {
  expectObject(rs, 'rs');
  expectArray(rs.parameters, 'rs.parameters');
  expectArray(rs.staticSamplers, 'rs.staticSamplers');
  const v11 = rs.version >= 2;
  const out: (string | number)[] = [rs.version, rs.flags >>> 0, rs.parameters.length];
  for (const p of rs.parameters) {
    out.push(p.parameterType, p.shaderVisibility >>> 0);
    if (p.parameterType === 0) {
      out.push(p.ranges.length);
      for (const r of p.ranges) out.push(r.rangeType >>> 0, r.numDescriptors >>> 0, r.baseShaderRegister >>> 0, r.registerSpace >>> 0, v11 ? r.flags >>> 0 : 0, r.offsetInDescriptorsFromTableStart >>> 0);
    } else if (p.parameterType === 1) out.push(p.constants.shaderRegister >>> 0, p.constants.registerSpace >>> 0, p.constants.num32BitValues >>> 0);
    else out.push(p.descriptor.shaderRegister >>> 0, p.descriptor.registerSpace >>> 0, v11 ? p.descriptor.flags >>> 0 : 0);
  }
  out.push(rs.staticSamplers.length);
  for (const s of rs.staticSamplers) {
    out.push(s.filter >>> 0, s.addressU >>> 0, s.addressV >>> 0, s.addressW >>> 0, floatBits(s, 'mipLODBias'), s.maxAnisotropy >>> 0, s.comparisonFunc >>> 0, s.borderColor >>> 0);
    out.push(floatBits(s, 'minLOD'), floatBits(s, 'maxLOD'), s.shaderRegister >>> 0, s.registerSpace >>> 0, s.shaderVisibility >>> 0);
    if (rs.version >= 3) out.push(s.flags >>> 0);
  }
  return out.join(' ');
}

/**
 * The other side's answer text (docs/fuzzing.md): `parse ok DESC` or `parse error CODE ...`, then
 * `serialize ok HEX` / `serialize error ...` and `convert V ok DESC` / `convert V error ...`.
 * @throws {DescriptionError} bad-type when the text has no parse line (the other side broke the protocol)
 */
export function parseAnswerText(text: string): SideAnswer {
  expectString(text, 'text');
  const answer: SideAnswer = { accepted: false, convert: {} };
  let parsed = false;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const m = /^(parse|serialize|convert (\S+)) (ok|error)(?: (.*))?$/.exec(line);
    if (!m) throw new DescriptionError('bad-type', 'answer', `unreadable answer line: ${line.slice(0, 120)}`);
    const ok = m[3] === 'ok';
    const rest = (m[4] ?? '').trim();
    if (m[1] === 'parse') {
      parsed = true;
      answer.accepted = ok;
      if (ok) answer.desc = rest;
      else {
        answer.error = rest;
        answer.errorKey = rest.split(' ')[0] ?? '';
      }
    } else if (m[1] === 'serialize') {
      if (ok) answer.bytes = rest.toLowerCase();
      else answer.bytesError = rest;
    } else answer.convert[m[2]!] = ok ? { desc: rest } : { error: rest.split(' ')[0] ?? '' };
  }
  if (!parsed) throw new DescriptionError('bad-type', 'answer', 'the answer has no parse line');
  return answer;
}

// ---------------------------------------------------------------- the other side's crash

/** How the other side crashed and where (our harness's handler prints `dxbin-crash` lines), as a class. */
export function crashClass(status: string, stderr: string): { kind: string; key: string; text: string } {
  expectString(status, 'status');
  expectString(stderr, 'stderr');
  const lines = stderr.split('\n');
  const start = lines.findIndex((l) => l.startsWith('dxbin-crash '));
  if (start < 0) {
    const last = lines.map((l) => l.trim()).filter(Boolean).pop() ?? '';
    const words = last.replace(/0x[0-9a-f]+|\d+/gi, 'N').slice(0, 80);
    return { kind: status.replace(/^killed by /, ''), key: `other-crash ${status} ${words}`, text: `${status}${last ? `; last words: ${last}` : ''}` };
  }
  const head = lines[start]!.split(' ');
  const signal = head[1] ?? '?';
  const how = head[2] ?? (signal === 'SIGABRT' ? 'abort' : signal);
  const frames = lines.slice(start + 1).filter((l) => !l.startsWith('dxbin-crash-end'));
  const inLib = frames.map((f) => /(libvkd3d[\w.-]*\([^)]*\))/.exec(f)?.[1]).filter((f): f is string => f !== undefined);
  const before = lines.slice(0, start).map((l) => l.trim()).filter(Boolean).pop();
  const kind = how === 'read-past-end' ? 'read-past-end' : how === 'null' ? 'null-dereference' : how === 'address' ? 'bad-address' : signal === 'SIGABRT' ? 'abort' : signal;
  const where = inLib[0] ?? frames.find((f) => !/vkd3d-against|libc\.so|\[0x/.test(f))?.trim() ?? '?';
  const detail = how === 'read-past-end' ? `read ${Number.parseInt(head[3] ?? '0', 16) + 1} or more bytes past the end of the input` : head.slice(2).join(' ');
  return { kind, key: `other-crash ${signal} ${kind} ${where}`, text: `killed by ${signal} (${kind}: ${detail}) in ${where}${before ? `; last words: ${before}` : ''}\nframes:\n${frames.slice(0, 12).join('\n')}` };
}

