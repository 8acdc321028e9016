/**
 * Hostile preprocessor programs made from a recipe (issue 26, item 7): the fuzz input is a stream
 * of choices, not the program text, so that mutation reaches shapes that text mutation cannot
 * (a macro that doubles 28 times, a 30,000-deep expression, a 64 KB literal, a diamond of 20
 * include levels over a large skipped group, guarded or not). One byte of the recipe picks the
 * shape, the next ones its sizes; a recipe that runs out reads zeros, so every byte string is a
 * program. The program is the target's input as far as the budget and the resource oracle go.
 */
import type { VirtualEntry } from '../root-signature/hlsl/source.js';

/** A generated program: the files of a virtual tree (the main one `main.hlsl`) and their total size. */
export interface GeneratedProgram {
  readonly shape: string;
  readonly files: Record<string, VirtualEntry>;
  /** Characters over every file: the input the budget and the oracles measure against. */
  readonly size: number;
}

/** Reads a recipe's bytes as choices (zeros once it runs out). */
class Recipe {
  private i = 0;
  constructor(private readonly data: Uint8Array) {}
  byte(): number {
    return this.i < this.data.byteLength ? this.data[this.i++]! : 0;
  }
  /** 0..n-1. */
  below(n: number): number {
    return n <= 1 ? 0 : ((this.byte() << 8) | this.byte()) % n;
  }
  /** A size up to `max`, small ones likelier (a byte's cube, scaled). */
  size(max: number): number {
    const b = this.byte() / 255;
    return Math.floor(b * b * b * max);
  }
}

/** The shapes, in the order the first byte picks them. */
export const PROGRAM_SHAPES = ['doubling', 'deep-expression', 'long-literal', 'include-graph', 'argument-nest', 'macro-chain'] as const;

const RS_TAIL = '\n#ifndef RS\n#define RS "CBV(b0)"\n#endif\n[RootSignature(RS)]\nvoid main() {}\n';

/** The program a recipe stands for. */
export function generateProgram(data: Uint8Array): GeneratedProgram {
  const r = new Recipe(data);
  const shape = PROGRAM_SHAPES[r.byte() % PROGRAM_SHAPES.length]!;
  const files: Record<string, VirtualEntry> = {};
  let main = '';
  switch (shape) {
    case 'doubling': {
      // A_i made of two A_{i-1}: by juxtaposition, by ## through an indirection, or by # of the pair
      const levels = 1 + r.below(32);
      const how = r.below(3);
      main += '#define CAT(a, b) a##b\n#define X(a, b) CAT(a, b)\n#define S(x) #x\n#define XS(x) S(x)\n';
      main += `#define A0 ${['x', 'ab', '"s"'][r.below(3)]}\n`;
      for (let i = 1; i <= levels; i++) main += `#define A${i} ${how === 0 ? `A${i - 1} A${i - 1}` : how === 1 ? `X(A${i - 1}, A${i - 1})` : `XS(A${i - 1} A${i - 1})`}\n`;
      main += `#define RS A${levels}\nRS\n`;
      break;
    }
    case 'deep-expression': {
      const depth = 1 + r.size(30_000);
      const kind = r.below(6);
      const e =
        kind === 0 ? `${'1 ? '.repeat(depth)}1${' : 0'.repeat(depth)}`
        : kind === 1 ? `${'0 ? 1 : '.repeat(depth)}1`
        : kind === 2 ? `${'('.repeat(depth)}1${')'.repeat(depth)}`
        : kind === 3 ? `${'- '.repeat(depth)}1`
        : kind === 4 ? `${'!'.repeat(depth)}0`
        : `${'1 + '.repeat(depth)}1`;
      // sometimes left open: the error must be typed too
      const broken = r.below(8) === 0 ? e.slice(0, e.length - 1 - r.below(Math.min(e.length, 16))) : e;
      main += `#if ${broken}\n#define RS "CBV(b1)"\n#endif\n`;
      break;
    }
    case 'long-literal': {
      const n = r.size(65_536);
      const kind = r.below(4);
      if (kind === 0) main += `#define RS "${'C'.repeat(n)}"\nRS RS RS RS\n`;
      else if (kind === 1) main += `#if ${'9'.repeat(1 + n)}\n#endif\n`;
      else if (kind === 2) main += `#if '${'a'.repeat(1 + n)}' == 'aaaa'\n#endif\n`;
      else main += `#line 1 "${'n'.repeat(n)}"\n${'__FILE__ '.repeat(1 + r.size(4096))}\n`;
      break;
    }
    case 'include-graph': {
      // levels of headers, each including the next `fan` times; the leaf holds a large skipped group
      const levels = 1 + r.below(24);
      const fan = 1 + r.below(3);
      const style = r.below(5); // none, #ifndef, #if !defined, #pragma once, a guard with text after it
      const skipped = `#if 0\n${`${'x'.repeat(63)}\n`.repeat(r.size(2048))}#endif\n`;
      const wrap = (name: string, body: string, s: number) =>
        s === 1 ? `#ifndef ${name}\n#define ${name}\n${body}#endif\n`
        : s === 2 ? `// ${name}\n#if !defined(${name})\n#define ${name}\n${body}#endif\n`
        : s === 3 ? `#pragma once\n${body}`
        : s === 4 ? `#ifndef ${name}\n#define ${name}\n${body}#endif\nint after_${name};\n`
        : body;
      for (let i = 0; i < levels; i++) {
        const next = i === levels - 1 ? 'leaf.h' : `h${i + 1}.h`;
        files[`h${i}.h`] = wrap(`H${i}_H`, `#include "${next}"\n`.repeat(fan), r.below(4) === 0 ? r.below(5) : style);
      }
      files['leaf.h'] = wrap('LEAF_H', `${skipped}#define LEAF "CBV(b2)"\n`, style);
      main += '#include "h0.h"\n#define RS LEAF\n';
      break;
    }
    case 'argument-nest': {
      const depth = 1 + r.size(3000);
      main += `#define F(x) ${['x', 'x x', '(x)'][r.below(3)]}\n#define RS ${'F('.repeat(depth)}"CBV(b0)"${')'.repeat(depth)}\n`;
      break;
    }
    default: {
      // a chain of object-like macros used many times (hide sets)
      const length = 1 + r.size(1000);
      const uses = 1 + r.size(5000);
      for (let i = 0; i < length; i++) main += `#define M${i} M${i + 1}\n`;
      main += `#define M${length} x\n${'M0 '.repeat(uses)}\n`;
    }
  }
  files['main.hlsl'] = main + RS_TAIL;
  let size = 0;
  for (const v of Object.values(files)) size += typeof v === 'string' ? v.length : 0;
  return { shape, files, size };
}

/** A recipe for each shape, the first byte choosing it and the rest middling sizes (the seed corpus). */
export function programSeeds(): Uint8Array[] {
  return PROGRAM_SHAPES.map((_, i) => new Uint8Array([i, 0, 9, 0, 120, 3, 0, 40, 1, 200, 7, 0, 100]));
}
