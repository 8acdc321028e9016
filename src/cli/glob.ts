/**
 * The CLI's own glob expansion: `*`, `?`, `[abc]`, `[!a-z]`, `{a,b}` and `**` (any folders), a
 * backslash escaping the next character. A name is matched by stepping a set of pattern positions
 * over its characters (no backtracking), so matching costs O(name length x pattern length) for
 * any pattern: `*a*a*a*a*a*a*a*a*a*a*a*a*b` against a long name is as quick as `*` (issue 20,
 * class 6). Names starting with `.` match only a segment that starts with `.`; folders reached by
 * a link are not descended by `**` (a link loop is walked once); only files are returned.
 * The work is charged to the one work budget as `states` (src/bytes/budget.ts): every pattern
 * position stepped over every character of a name, every folder entry looked at; the names of a
 * folder listed join the input the budget is proportional to.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { Budget } from '../index.js';

/** One step of a compiled segment. */
type Token = { kind: 'char'; ch: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negate: boolean; ranges: [string, string][] };

/** True when `pattern` has a wildcard, class or brace that is not escaped. */
export function isGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[' || c === '{') return true;
  }
  return false;
}

/**
 * `{a,b}` alternatives expanded (nested braces too), escapes kept; a brace without a comma is literal.
 * Every pattern made is charged to `budget` as `produce` (its characters), before it is made.
 * @throws {LimitError} the patterns made run past the budget (`{a,b}` eleven times is 2,048 patterns)
 */
export function expandBraces(pattern: string, budget: Budget = Budget.for(pattern.length)): string[] {
  const out: string[] = [];
  const pending = [pattern];
  while (pending.length > 0) {
    const p = pending.pop()!;
    // the scan for braces: a step a character (each pattern made was charged as made)
    budget.charge('states', p.length + 1, pattern);
    const brace = firstBrace(p);
    if (!brace) {
      out.push(p);
      continue;
    }
    const [open, close, commas] = brace;
    const head = p.slice(0, open);
    const tail = p.slice(close + 1);
    const cuts = [open];
    for (const c of commas) cuts.push(c);
    cuts.push(close);
    for (let k = cuts.length - 2; k >= 0; k--) {
      budget.charge('produce', head.length + cuts[k + 1]! - cuts[k]! - 1 + tail.length, pattern);
      pending.push(head + p.slice(cuts[k]! + 1, cuts[k + 1]!) + tail);
    }
  }
  return out;
}

/**
 * The first `{...}` with a top-level comma: [open, close, comma positions], or undefined. One pass
 * with a stack of open braces, so each character is looked at once (a scan from every `{` to its
 * match was quadratic: 10^5 nested braces without a comma, 5 x 10^9 steps); the same braces are
 * found, since the match of a brace is where the depth counted from it returns to 0.
 */
function firstBrace(p: string): [number, number, number[]] | undefined {
  const stack: { open: number; commas: number[] }[] = [];
  let best: [number, number, number[]] | undefined;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') i++;
    else if (c === '{') stack.push({ open: i, commas: [] });
    else if (c === ',') stack[stack.length - 1]?.commas.push(i);
    else if (c === '}') {
      const top = stack.pop();
      if (top !== undefined && top.commas.length > 0 && (best === undefined || top.open < best[0])) best = [top.open, i, top.commas];
      // every brace before here is closed: one that opens later comes after `best`
      if (best !== undefined && stack.length === 0) return best;
    }
  }
  return best;
}

/**
 * One path segment (no `/`) as tokens, in one pass: a `[` with no `]` after it is a literal
 * character, and so is every later one (the search is not repeated: 10^6 unclosed `[` were
 * 5 x 10^11 steps). `budget`, when given, is charged a step a character.
 */
export function compileSegment(segment: string, budget?: Budget): Token[] {
  budget?.charge('states', segment.length + 1, segment);
  const tokens: Token[] = [];
  /** No `]` at or after this index. */
  let noClose = Infinity;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\' && i + 1 < segment.length) tokens.push({ kind: 'char', ch: segment[++i]! });
    else if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const end = i + 2 < noClose ? segment.indexOf(']', i + 2) : -1;
      if (end < 0) {
        noClose = Math.min(noClose, i + 2);
        tokens.push({ kind: 'char', ch: c });
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negate = body[0] === '!' || body[0] === '^';
      if (negate) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          ranges.push([body[k]!, body[k + 2]!]);
          k += 2;
        } else ranges.push([body[k]!, body[k]!]);
      }
      tokens.push({ kind: 'class', negate, ranges });
      i = end;
    } else tokens.push({ kind: 'char', ch: c });
  }
  return tokens;
}

/**
 * Does `name` match the tokens? A set of positions stepped once per character: linear in the name.
 * `budget` (default: one for this name and pattern) is charged every position for every character, before the steps.
 */
export function matchSegment(tokens: readonly Token[], name: string, budget?: Budget): boolean {
  const n = tokens.length;
  let width = 1;
  for (const t of tokens) width += t.kind === 'class' ? t.ranges.length + 1 : 1;
  (budget ?? Budget.for(name.length + width)).charge('states', (name.length + 1) * width, name);
  let states = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  // a star may match nothing: a position before a star also stands after it
  const close = (set: Uint8Array) => {
    for (let k = 0; k < n; k++) if (set[k] && tokens[k]!.kind === 'star') set[k + 1] = 1;
  };
  states[0] = 1;
  close(states);
  for (const ch of name) {
    next.fill(0);
    let any = false;
    for (let k = 0; k < n; k++) {
      if (!states[k]) continue;
      const t = tokens[k]!;
      if (t.kind === 'star') {
        next[k] = 1;
        any = true;
      } else if (t.kind === 'any' || (t.kind === 'char' && t.ch === ch) || (t.kind === 'class' && t.ranges.some(([a, b]) => a <= ch && ch <= b) !== t.negate)) {
        next[k + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    close(next);
    [states, next] = [next, states];
  }
  return states[n] === 1;
}

interface Segment {
  globstar: boolean;
  literal?: string;
  tokens: Token[];
  dot: boolean;
}

function segmentOf(text: string, budget: Budget): Segment {
  if (text === '**') return { globstar: true, tokens: [], dot: false };
  if (!isGlob(text)) return { globstar: false, literal: text.replace(/\\(.)/g, '$1'), tokens: [], dot: true };
  return { globstar: false, tokens: compileSegment(text, budget), dot: text.startsWith('.') };
}

/**
 * Files matching `pattern` (posix separators; relative to `cwd`, or absolute for an absolute
 * pattern), in walk order; the caller sorts.
 * @throws {LimitError} the work budget ran out (brace patterns made, automaton steps, entries listed)
 */
export function globFiles(pattern: string, cwd: string, budget: Budget = Budget.for(pattern.length)): string[] {
  const found = new Set<string>();
  const listed = new Set<string>();
  for (const p of expandBraces(pattern, budget)) {
    const isAbsolute = absolute(p);
    const parts = p.split('/').filter((s, i) => s !== '' || i === 0);
    budget.charge('states', parts.length, pattern);
    let root = isAbsolute ? (parts[0] === '' ? '/' : `${parts[0]}/`) : '';
    let first = isAbsolute ? 1 : 0;
    // the literal folders before the first wildcard are not read, only joined (counted, not cut
    // off one copy at a time: 5 x 10^4 folders were 10^9 steps)
    while (parts.length - first > 1 && !isGlob(parts[first]!)) root += `${parts[first++]!.replace(/\\(.)/g, '$1')}/`;
    let rest = parts.slice(first);
    // a trailing ** is every file below
    if (rest[rest.length - 1] === '**') rest = [...rest, '*'];
    walk(cwd, root, rest.map((r) => segmentOf(r, budget)), found, budget, listed);
  }
  return [...found].map((f) => (absolute(f) ? f : path.posix.normalize(f)));
}

const absolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:\//.test(p);

/** Matches `segments` below the folder `dir` (relative to cwd, '' or ending in '/'); an explicit stack, no recursion. */
function walk(cwd: string, start: string, segments: readonly Segment[], found: Set<string>, budget: Budget, listed: Set<string>): void {
  const stack: { dir: string; at: number }[] = [{ dir: start, at: 0 }];
  const seen = new Set<string>();
  // a folder's entries, each entry a step; the names join the input the first time the folder is listed
  const list = (dir: string): Dirent[] => {
    const entries = listFolder(cwd, dir);
    budget.charge('states', entries.length + 1, dir || '.');
    if (!listed.has(dir)) {
      listed.add(dir);
      let bytes = 0;
      for (const e of entries) bytes += e.name.length + 1;
      budget.addInput(bytes);
    }
    return entries;
  };
  while (stack.length > 0) {
    const { dir, at } = stack.pop()!;
    const key = `${at}\0${dir}`;
    if (seen.has(key)) continue;
    seen.add(key);
    budget.charge('states', 1, dir || '.');
    const seg = segments[at];
    if (!seg) continue;
    const last = at === segments.length - 1;
    if (seg.globstar) {
      // zero folders: the next segment here; one or more: each real subfolder again at `at`
      if (last) continue;
      stack.push({ dir, at: at + 1 });
      for (const e of list(dir)) if (!e.name.startsWith('.') && e.isDirectory()) stack.push({ dir: `${dir}${e.name}/`, at });
      continue;
    }
    if (seg.literal !== undefined) {
      const kind = kindOf(cwd, `${dir}${seg.literal}`);
      if (last ? kind === 'file' : kind === 'dir') (last ? found.add(`${dir}${seg.literal}`) : stack.push({ dir: `${dir}${seg.literal}/`, at: at + 1 }));
      continue;
    }
    for (const e of list(dir)) {
      if (e.name.startsWith('.') && !seg.dot) continue;
      if (!matchSegment(seg.tokens, e.name, budget)) continue;
      const kind = e.isSymbolicLink() ? kindOf(cwd, `${dir}${e.name}`) : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other';
      if (last && kind === 'file') found.add(`${dir}${e.name}`);
      else if (!last && kind === 'dir') stack.push({ dir: `${dir}${e.name}/`, at: at + 1 });
    }
  }
}

function listFolder(cwd: string, dir: string): Dirent[] {
  try {
    return readdirSync(path.resolve(cwd, dir || '.'), { withFileTypes: true });
  } catch {
    return [];
  }
}

function kindOf(cwd: string, p: string): 'file' | 'dir' | 'other' | undefined {
  try {
    const s = statSync(path.resolve(cwd, p));
    return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
  } catch {
    return undefined;
  }
}
