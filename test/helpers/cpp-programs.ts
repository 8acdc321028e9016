/**
 * Generated HLSL programs for the differential test against GNU cpp (test/preprocessor-cpp.test.ts):
 * a main file and four headers whose conditionals, -D/-U flags, include guards, `#pragma once`,
 * comments, line continuations, stringizing, pasting, variadic macros and adjacent string literals
 * decide which root signature text the macro RS holds at the end. Every RS text the generator
 * writes is a valid root signature, and different texts give different bytes, so a wrong branch
 * shows as different bytes.
 *
 * The generator stays off what DXC's clang and C-mode cpp legitimately read differently:
 * `true`/`false` in #if (1 in clang's HLSL mode, 0 in C), HLSL's literal suffixes, shifts by a negative or out-of-range amount (GCC shifts the other way, clang clamps:
 * `1 >> -1` is 2 to GCC, 0 to clang; the 100,000-program run met it as `1 >> 1 * -1`),
 * the comma operator in #if, `__FILE__` (the probe file differs), `__LINE__` across continued
 * lines (GCC and clang count differently inside macro calls), a `#line` continued over lines
 * (clang counts from its number's line, GCC from its end), and two headers with the same
 * contents under `#pragma once` (GCC takes them for one file, clang goes by the file's identity).
 */
import fc from 'fast-check';

/** A -D NAME[=VALUE] or -U NAME flag, in command-line order. */
export type Flag = readonly ['D' | 'U', string];

/** One generated program: its files (relative POSIX paths), its flags and which include host dxbin uses. */
export interface CppProgram {
  readonly files: Readonly<Record<string, string>>;
  readonly flags: readonly Flag[];
  readonly host: 'virtual' | 'fs';
}

/** The main file and the folder searched by -I (both relative to the program's folder). */
export const MAIN = 'main.hlsl';
export const INCLUDE_DIR = 'lib';

/**
 * The program with its -I headers renamed `lib/<tag>_h2.h` (and their includes), so that many
 * programs can share one -I folder. Both sides get the renamed program.
 */
export function tagged(p: CppProgram, tag: string): CppProgram {
  // `#line N "LINE_TAG.hlsl"` names too, so that cpp's messages after it still name the program
  const rename = (s: string) => s.replace(/\bh([23])\.h\b/g, `${tag}_h$1.h`).replace(/\bLINE_TAG\b/g, `${tag}_line`);
  // a last line naming the program: GCC's #pragma once skips a file whose contents it has seen (see headerArb)
  return { ...p, files: Object.fromEntries(Object.entries(p.files).map(([name, text]) => [rename(name), `${rename(text)}// ${tag}\n`])) };
}

/** Headers, in the order they may include each other (a header includes only later ones: no cycles). */
const HEADERS = ['inc/h0.h', 'inc/sub/h1.h', 'lib/h2.h', 'lib/h3.h'] as const;

/**
 * Root signature fragments with distinct registers (any in-order selection validates); a text is
 * a non-empty selection, so two selections give two different byte strings.
 */
const FRAGMENTS = [
  'RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)',
  'CBV(b0)',
  'SRV(t3)',
  'RootConstants(num32BitConstants=2, b1)',
  'DescriptorTable(UAV(u0))',
  'UAV(u2)',
  'DescriptorTable(SRV(t0, numDescriptors=2), CBV(b7))',
  'CBV(b5, space=1)',
  'StaticSampler(s0)',
  'SRV(t1, space=2)',
] as const;

/** Macros the #if expressions test: numbers (or expressions) when defined. */
const VALUE_NAMES = ['A', 'B', 'C', 'V'] as const;
/** Macros tested only with defined / #ifdef (may be defined empty). */
const FLAG_NAMES = ['F', 'G', 'H'] as const;
/** DXC's predefined macros a program may read (both sides see the same values). */
const PREDEFINED_NAMES = ['__hlsl_dx_compiler', '__HLSL_VERSION', '__DXC_VERSION_MAJOR', '__SHADER_TARGET_STAGE', '__SHADER_TARGET_MAJOR', '__SHADER_STAGE_PIXEL'] as const;

const guardName = (h: number) => `H${h}_GUARD`;

/** The helper macros every main file starts with (stringizing, pasting, variadic). */
const HELPERS = [
  '#define STR(x) #x',
  '#define XSTR(x) STR(x)',
  '#define VSTR(...) #__VA_ARGS__',
  '#define XVSTR(...) VSTR(__VA_ARGS__)',
  '#define CAT(a, b) a ## b',
  '#define XCAT(a, b) CAT(a, b)',
  '#define PICK(first, ...) __VA_ARGS__',
];

const rnd = fc.integer;

/** A non-empty in-order selection of fragments. */
const fragmentsArb = fc.subarray([...FRAGMENTS], { minLength: 1, maxLength: 4 });

/** Splits `text` into adjacent string literals at fragment boundaries or inside a fragment (between characters). */
const literalsArb = (frags: string[]): fc.Arbitrary<string> => {
  const text = frags.join(', ');
  return fc.array(rnd({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 3 }).chain((cuts) =>
    fc.constantFrom(' ', ' \\\n  ', ' /*join*/ ', '\t').map((gap) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b).filter((c) => c > 0 && c < text.length);
      const pieces: string[] = [];
      let from = 0;
      for (const p of [...points, text.length]) {
        pieces.push(JSON.stringify(text.slice(from, p)));
        from = p;
      }
      return pieces.join(gap);
    }),
  );
};

/** The right side of `#define RS ...` (plus definitions it needs first), for a selection of fragments. */
const rsBodyArb = (k: number): fc.Arbitrary<{ before: readonly string[]; body: string }> =>
  fragmentsArb.chain((frags) =>
    fc.oneof(
      literalsArb(frags).map((body) => ({ before: [], body })),
      fc.constant({ before: [], body: frags.length === 1 ? `STR( ${frags[0]} )` : `VSTR(${frags.join(', ')})` }),
      fc.constant({ before: [`#define FRAGS_${k} ${frags.join(', ')}`], body: frags.length === 1 ? `XSTR(FRAGS_${k})` : `XVSTR(FRAGS_${k})` }),
      literalsArb(frags).map((lit) => ({ before: [`#define RSTEXT_${k} ${lit}`], body: `CAT(RSTEXT_, ${k})` })),
      literalsArb(frags).map((lit) => ({ before: [`#define RSTEXT_${k} ${lit}`, `#define NUM_${k} ${k}`], body: `XCAT(RSTEXT_, NUM_${k})` })),
      literalsArb(frags).map((lit) => ({ before: [], body: `PICK(ignored junk, ${lit})` })),
    ),
  );

/** A decimal, hex or octal integer literal, sometimes unsigned, sometimes large. */
const numberArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: rnd({ min: 0, max: 12 }).map(String) },
  { weight: 2, arbitrary: rnd({ min: 0, max: 255 }).map((n) => `0x${n.toString(16).toUpperCase()}`) },
  { weight: 1, arbitrary: rnd({ min: 0, max: 63 }).map((n) => `0${n.toString(8)}`) },
  { weight: 2, arbitrary: fc.tuple(rnd({ min: 0, max: 9 }), fc.constantFrom('u', 'U')).map(([n, s]) => `${n}${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('0xFFFFFFFFFFFFFFFF', '9223372036854775807', '0x8000000000000000', '4294967296', '18446744073709551615u') },
);

/** An operand of an #if expression (`defined` only in the #if line itself: from a macro it is undefined behaviour). */
const atomArb = (withDefined: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: numberArb },
    { weight: 4, arbitrary: fc.constantFrom(...VALUE_NAMES) },
    { weight: withDefined ? 3 : 0, arbitrary: fc.tuple(fc.constantFrom(...VALUE_NAMES, ...FLAG_NAMES, ...PREDEFINED_NAMES, 'RS', 'STR', guardName(2)), fc.constantFrom('defined X', 'defined(X)', 'defined ( X )')).map(([n, f]) => f.replace('X', n)) },
    { weight: 1, arbitrary: fc.constantFrom(...PREDEFINED_NAMES) },
    { weight: 1, arbitrary: fc.constant('UNDEFINED_NAME') },
    // character constants as cpp reads them (dxbin follows cpp: UTF-8 bytes, multi-character ints, wide code units)
    { weight: 1, arbitrary: fc.constantFrom("'a'", "'\\0'", "'\\377'", "'\\x41'", "'ab'", "'é'", "'\\u00e9'", "L'a'", "L'é'", "u'\\xffff'", "U'b'", "'\\n'") },
  );

const BINARY = ['*', '/', '%', '+', '-', '<', '>', '<=', '>=', '==', '!=', '&', '^', '|', '&&', '||'];

/** An integer constant expression, printed without structure (the reader's precedence decides). */
const expressionArb = (withDefined: boolean): fc.Arbitrary<string> => fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: atomArb(withDefined) },
    // a space where two signs would make `--` or `++` (not operators of #if)
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('-', '+', '!', '~', '!!'), tie('e')).map(([op, e]) => (/^[-+]/.test(e) ? `${op} ${e}` : `${op}${e}`)) },
    { weight: 5, arbitrary: fc.tuple(tie('e'), fc.constantFrom(...BINARY), tie('e')).map(([a, op, b]) => `${a} ${op} ${b}`) },
    // parenthesized, so that no operator after it makes the amount other than 0..40 (`1 >> 1 * -1` shifts by -1)
    { weight: 1, arbitrary: fc.tuple(tie('e'), fc.constantFrom('<<', '>>'), rnd({ min: 0, max: 40 })).map(([a, op, n]) => `(${a} ${op} ${n})`) },
    { weight: 1, arbitrary: fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `${a} ? ${b} : ${c}`) },
    { weight: 3, arbitrary: tie('e').map((e) => `(${e})`) },
  ),
})).e;

/** Expressions of #if/#elif lines, and of macro values (no `defined`). */
const exprArb = expressionArb(true);
const valueArb = expressionArb(false);

/** Line continuations and comments between the tokens of a directive line (same meaning on both sides). */
const spacingArb = (line: string): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(' \\\n', ' /*c*/ ', ' /*two\nlines*/ ', '\t'), { maxLength: 2 }).chain((gaps) => {
    const parts = line.split(' ');
    // places between tokens outside string literals (an even count of quotes before them)
    const places: number[] = [];
    let quotes = 0;
    parts.forEach((part, i) => {
      if (i >= 2 && quotes % 2 === 0) places.push(i);
      quotes += part.split('"').length - 1;
    });
    if (places.length === 0 || gaps.length === 0) return fc.constant(line);
    return fc.array(fc.constantFrom(...places), { minLength: gaps.length, maxLength: gaps.length }).map((at) => {
      const out = [...parts];
      at.forEach((i, k) => (out[i] = `${gaps[k]}${out[i]}`));
      return out.join(' ');
    });
  });

/** Lines that look like directives but are inside comments or continued comments (never seen). */
const FAKE_DIRECTIVES = [
  '/*\n#define RS "UAV(u9)"\n#include "missing.h"\n*/',
  '// #define RS "UAV(u9)"',
  '// a comment continued \\\n#define RS "UAV(u9)"',
  '/* #error not here */ static const int k = 1;',
  'static const char* s = "#define RS \\"UAV(u9)\\"";',
  '/* #if 1 */',
];

/** Lines of a file at `file` (index `at` in [main, ...HEADERS]); `k` numbers the RS definitions. */
function linesArb(at: number, depth: number, k: { n: number }): fc.Arbitrary<string[]> {
  const canInclude = HEADERS.map((_, h) => h).filter((h) => h + 1 > at);
  const stmt = (): fc.Arbitrary<string[]> => {
    const options: fc.WeightedArbitrary<string[]>[] = [
      { weight: 10, arbitrary: fc.constant(null).chain(() => rsBodyArb(k.n++)).chain(({ before, body }) => spacingArb(`#define RS ${body}`).map((line) => [...before, line])) },
      { weight: 1, arbitrary: fc.constant(['#undef RS']) },
      { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...VALUE_NAMES), valueArb).map(([n, e]) => [`#define ${n} ${e}`]) },
      { weight: 4, arbitrary: fc.constantFrom(...VALUE_NAMES, ...FLAG_NAMES).map((n) => [`#undef ${n}`]) },
      { weight: 4, arbitrary: fc.constantFrom(...FLAG_NAMES).map((n) => [`#define ${n}`]) },
      { weight: 4, arbitrary: fc.constantFrom(...FAKE_DIRECTIVES).map((l) => [l]) },
      { weight: 2, arbitrary: fc.constant(['#if 0', '#include "missing.h"', '#error never taken', '#endif']) },
      { weight: 2, arbitrary: fc.constant(['static const int x = A + B;', 'float4 main() : SV_Target { return 0; }']) },
      { weight: 1, arbitrary: fc.constant(['#error taken error']) },
      // a missing header in a taken group is fatal for cpp (and ends a batch of programs): kept rare
      { weight: 1, arbitrary: fc.constant(['#ifdef H', '#include "missing.h"', '#endif']) },
      { weight: 1, arbitrary: fc.constantFrom(['#warning careful'], ['#pragma dxbin_unknown_pragma'], ['#pragma pack_matrix(row_major)']) },
      // pragma lines cpp passes on (dxbin's text too: the lines after them must still agree), _Pragma operators in the text and from a macro
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ['#pragma GCC diagnostic push', 'static const int g = 1;'],
          ['#pragma STDC FP_CONTRACT ON'],
          ['#pragma message("note")'],
          ['static const int p _Pragma("dxbin_op x") = 1;'],
          ['_Pragma ( "dxbin_op" ) static const int p = 2; _Pragma("dxbin_second")'],
          ['#define PRAG_OP(x) _Pragma(#x) static const int q = 3;', 'PRAG_OP(dxbin_op y) PRAG_OP(z)'],
          // an operator split by a directive line (cpp runs the directive, then the operator), a call over lines, an L string
          ['static const int s _Pragma(', '#define SPLIT_X 4', '"dxbin_split") = SPLIT_X;'],
          ['#define PRAG_LINES(x) _Pragma("dxbin_lines") x', 'PRAG_LINES(', 'static const int r = 5;', ')'],
          ['_Pragma(L"dxbin_l") static const int u = 6;'],
          // a poisoned name pushed: both refuse
          ['#pragma GCC poison DXBIN_POISONED', '#pragma push_macro("DXBIN_POISONED")'],
        ),
      },
      // #line on a line of its own (clang notes it at its number, GCC after the directive: the same line unless it is continued),
      // its number within 31 bits (GCC and clang both take it), with or without a name; text after it shows the lines
      {
        weight: 2,
        arbitrary: fc
          .tuple(rnd({ min: 1, max: 5000 }), fc.constantFrom('', ' "LINE_TAG.hlsl"', ' "sub/LINE_TAG.h"'), fc.constantFrom([], ['static const int l = __LINE__;'], ['#if __LINE__ & 1', 'static const int odd = 1;', '#endif']))
          .map(([n, name, after]) => [`#line ${n}${name}`, ...after]),
      },
    ];
    if (canInclude.length > 0) {
      options.push({
        weight: 6,
        arbitrary: fc.tuple(fc.constantFrom(...canInclude), fc.boolean()).map(([h, angle]) => [includeLine(at, h, angle)]),
      });
    }
    if (depth < 3) options.push({ weight: 8, arbitrary: conditionalArb(at, depth, k) });
    return fc.oneof(...options);
  };
  return fc.array(fc.constant(null).chain(stmt), { minLength: 1, maxLength: depth === 0 ? 6 : 3 }).map((blocks) => blocks.flat());
}

/** `#include` of header `h` from the file at index `at`, spelled as it is found (next to the file, or through -I). */
function includeLine(at: number, h: number, angle: boolean): string {
  const target = HEADERS[h]!;
  if (target.startsWith(`${INCLUDE_DIR}/`)) {
    const name = target.slice(INCLUDE_DIR.length + 1);
    return angle ? `#include <${name}>` : `#include "${name}"`;
  }
  const from = at === 0 ? '' : HEADERS[at - 1]!.split('/').slice(0, -1).join('/');
  const up = from === '' ? '' : from.split('/').map(() => '..').join('/') + '/';
  return `#include "${up}${target}"`;
}

/** An #if/#ifdef/#ifndef group with #elif and #else, nested. */
function conditionalArb(at: number, depth: number, k: { n: number }): fc.Arbitrary<string[]> {
  const name = fc.constantFrom(...VALUE_NAMES, ...FLAG_NAMES, 'RS', guardName(2), '__hlsl_dx_compiler');
  const opener = fc.oneof(
    fc.tuple(exprArb, fc.constantFrom('', ' // why')).chain(([e, c]) => spacingArb(`#if ${e}`).map((l) => l + c)),
    name.map((n) => `#ifdef ${n}`),
    name.map((n) => `#ifndef ${n}`),
    fc.constant('#if 0'),
    fc.constant('#if 1'),
    // __LINE__ only on a line of its own (GCC and clang count continued lines differently)
    fc.constant('#if __LINE__ & 1'),
  );
  const body = () => fc.constant(null).chain(() => linesArb(at, depth + 1, k));
  return fc
    .tuple(opener, body(), fc.array(fc.tuple(exprArb, body()), { maxLength: 2 }), fc.option(body()), fc.constantFrom('#endif', '#endif // done', '# endif'))
    .map(([open, first, elifs, otherwise, close]) => [
      open,
      ...first,
      ...elifs.flatMap(([e, b]) => [`#elif ${e}`, ...b]),
      ...(otherwise === null ? [] : ['#else', ...otherwise]),
      close,
    ]);
}

/**
 * A header's text: its lines, wrapped in a guard, `#pragma once` or nothing. Its first line names
 * it: GCC's `#pragma once` also skips a different file with the same contents (and time), clang's
 * only the same file, so no two headers are alike.
 */
const headerArb = (h: number, k: { n: number }): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('guard', 'once', 'none'), linesArb(h + 1, 1, k)).map(([wrap, lines]) => {
    const body = [`// ${HEADERS[h]}`, ...lines].join('\n');
    if (wrap === 'guard') return `#ifndef ${guardName(h)}\n#define ${guardName(h)}\n${body}\n#endif\n`;
    if (wrap === 'once') return `#pragma once\n${body}\n`;
    return `${body}\n`;
  });

/** -D and -U flags: names, values, and RS texts through -D. */
const flagArb: fc.Arbitrary<Flag> = fc.oneof(
  fc.constantFrom(...VALUE_NAMES, ...FLAG_NAMES, guardName(2), guardName(0)).map((n): Flag => ['D', n]),
  fc.tuple(fc.constantFrom(...VALUE_NAMES), fc.oneof(numberArb, fc.constant('(1+2)'), fc.constant('B'))).map(([n, v]): Flag => ['D', `${n}=${v}`]),
  fc.constantFrom(...VALUE_NAMES, ...FLAG_NAMES, 'RS').map((n): Flag => ['U', n]),
  fragmentsArb.map((f): Flag => ['D', `RS=${JSON.stringify(f.join(', '))}`]),
);

/** A whole program: main (helpers first, RS maybe taken from -D), four headers, flags, host. */
export const programArb: fc.Arbitrary<CppProgram> = fc.constant(null).chain(() => {
  const k = { n: 0 };
  return fc
    .tuple(
      fc.option(fragmentsArb.chain(literalsArb), { freq: 3 }),
      linesArb(0, 0, k),
      headerArb(0, k),
      headerArb(1, k),
      headerArb(2, k),
      headerArb(3, k),
      fc.array(flagArb, { maxLength: 4 }),
      fc.constantFrom('virtual' as const, 'fs' as const),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([initial, main, h0, h1, h2, h3, flags, host, eol]) => {
      const first = initial === null ? [] : [`#define RS ${initial}`];
      const files: Record<string, string> = { [MAIN]: [...HELPERS, ...first, ...main].join('\n').replaceAll('\n', eol) + eol };
      [h0, h1, h2, h3].forEach((text, h) => (files[HEADERS[h]!] = text));
      return { files, flags, host };
    });
});
