/**
 * The compiler's own layouts and bytes, read from the assembly it writes (`gcc -S`): nothing is
 * run, so x86 is checked on a kernel that cannot execute 32-bit programs.
 *
 * - probeNumbers: a table of 32-bit values (sizeof, offsetof, alignof), one `.long` each (a run of
 *   zeros may be one `.zero N`).
 * - probeBytes: the bytes of one statically initialized object, with each pointer into the object
 *   itself (`.quad sym+N` / `.long sym+N`) read as its offset N: a relocatable image.
 */
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function assemble(compiler: string, flags: string[], src: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'dxbin-probe-'));
  try {
    const file = join(dir, compiler === 'g++' ? 'probe.cpp' : 'probe.c');
    writeFileSync(file, src);
    const asm = join(dir, 'probe.s');
    execFileSync(compiler, [...flags, '-S', '-O0', file, '-o', asm], { stdio: 'pipe' });
    return readFileSync(asm, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The data directives after `symbol:` up to the end of the object. */
function dataLines(text: string, symbol: string): string[] {
  const start = text.search(new RegExp(`^_?${symbol}\\w*:`, 'm'));
  assert.ok(start >= 0, `${symbol} is in the assembly`);
  const lines: string[] = [];
  for (const line of text.slice(start).split('\n').slice(1)) {
    if (/^\s*\.(size|text|section|ident|globl|data|bss|type)\b|^\S/.test(line)) break;
    lines.push(line);
  }
  return lines;
}

/** Sizes and offsets: `values` (C expressions) in the order of `keys`. */
export function probeNumbers(compiler: string, flags: string[], prelude: string, entries: readonly (readonly [key: string, expr: string])[]): Map<string, number> {
  const src = `${prelude}\n#include <stddef.h>\nunsigned int dxbin_probe_table[] = {\n${entries.map(([, v]) => `  (unsigned int)(${v}),`).join('\n')}\n};\n`;
  const numbers: number[] = [];
  for (const line of dataLines(assemble(compiler, flags, src), 'dxbin_probe_table')) {
    const m = /^\s*\.(long|zero)\s+(\d+)/.exec(line);
    if (!m) continue;
    if (m[1] === 'long') numbers.push(Number(m[2]));
    else for (let k = 0; k < Number(m[2]) / 4; k++) numbers.push(0);
  }
  assert.is(numbers.length, entries.length, 'one value a key');
  return new Map(entries.map(([k], i) => [k, numbers[i]!]));
}

/** The struct layouts probe of test/ddi.test.ts: `sizeof`, and each field's offset and size. */
export function probe(compiler: string, flags: string[], prelude: string, structs: { c: string; name: string; fields: { c: string; name: string }[] }[]): Map<string, number> {
  const entries: [string, string][] = [];
  for (const s of structs) {
    entries.push([`${s.name} sizeof`, `sizeof(${s.c})`]);
    for (const f of s.fields) entries.push([`${s.name} ${f.name} offset`, `offsetof(${s.c}, ${f.c})`], [`${s.name} ${f.name} size`, `sizeof(((${s.c}*)0)->${f.c})`]);
  }
  return probeNumbers(compiler, flags, prelude, entries);
}

const WIDTH: Record<string, number> = { byte: 1, value: 2, short: 2, '2byte': 2, long: 4, '4byte': 4, quad: 8, '8byte': 8 };

/** Bytes of a C string literal body as gas writes it (`\NNN` octal, `\"`, `\\`, `\n`...). */
function gasString(body: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out.push(c.charCodeAt(0));
      continue;
    }
    const n = body[++i]!;
    if (/[0-7]/.test(n)) {
      let oct = n;
      while (oct.length < 3 && /[0-7]/.test(body[i + 1] ?? '')) oct += body[++i];
      out.push(Number.parseInt(oct, 8));
    } else out.push({ n: 10, t: 9, r: 13, b: 8, f: 12 }[n] ?? n.charCodeAt(0));
  }
  return out;
}

/**
 * The bytes of the object `symbol` the source defines (static initialization only), each pointer
 * to `symbol+N` written as N.
 */
export function probeBytes(compiler: string, flags: string[], src: string, symbol: string): Uint8Array {
  const out: number[] = [];
  for (const line of dataLines(assemble(compiler, flags, src), symbol)) {
    const m = /^\s*\.(\w+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, dir, arg] = m as unknown as [string, string, string];
    if (dir === 'zero') for (let k = 0; k < Number(arg); k++) out.push(0);
    else if (dir === 'ascii' || dir === 'string') {
      for (const b of gasString(/^"(.*)"$/.exec(arg.trim())![1]!)) out.push(b);
      if (dir === 'string') out.push(0);
    } else if (WIDTH[dir]) {
      const rel = new RegExp(`^_?${symbol}(?:\\+(\\d+))?$`).exec(arg.trim());
      let v = rel ? BigInt(rel[1] ?? 0) : BigInt(arg.trim());
      if (v < 0n) v += 1n << BigInt(8 * WIDTH[dir]);
      for (let k = 0; k < WIDTH[dir]; k++) out.push(Number((v >> BigInt(8 * k)) & 0xffn));
    } else if (dir !== 'align' && dir !== 'p2align') throw new Error(`unexpected directive in ${symbol}: ${line.trim()}`);
  }
  return Uint8Array.from(out);
}
