/**
 * The C preprocessor DXC runs on HLSL sources before it reads root signature text (its clang
 * front end; docs/formats/hlsl-preprocessor.md): conditional groups, object- and function-like
 * macros with `#`, `##` and `__VA_ARGS__`, `#include` with `#pragma once`, `#line`, `#error`,
 * `#warning` and pragmas, integer expressions in 64 bits as clang evaluates them. Directives,
 * pragmas and predefined macros are the rows of codecs/hlsl-preprocessor.ts.
 *
 * Against hostile sources: every file is read once (by its real path, so link loops add nothing)
 * and a guarded header is not read again while its guard is defined (clang's multiple-include
 * optimization). The work is charged to the one work budget (src/bytes/budget.ts, docs/limits.md):
 * bytes read (each include at least READ_MINIMUM), bytes scanned in skipped groups, re-included
 * files and re-scanned arguments, characters produced by expansion, `#`, `##` and builtins, hide
 * sets copied, include probes, and nesting of includes and argument pre-expansion. Conditionals,
 * includes, rescanning, argument pre-expansion and `#if` expressions run on explicit stacks. Errors are HlslError
 * `hlsl-preprocess` (clang's words at file:line:column), `limit-exceeded` (with the budget's
 * LimitError as `limit`) where the budget ran out.
 *
 * The rooms, each importing only those listed before it:
 * - token.ts: the token and its kinds;
 * - lexer.ts: one logical line into tokens, the scans over unread text;
 * - source.ts: sources with their line continuations spliced, the file stack's frames;
 * - options.ts: what a caller gives and gets (options, limits, macros, warnings, the result);
 * - expression.ts: `#if` expressions on explicit stacks;
 * - context.ts: the state every stage shares, the budget, errors at file:line:column;
 * - macros.ts: macro expansion, hide sets, `#` and `##`;
 * - directives.ts: the directive loop, conditionals, includes and the multiple-include optimization;
 * - output.ts: root signature text and the `dxc -P` text from the tokens.
 */
export { TOKEN, type Token } from './token.js';
export { Source } from './source.js';
export { preprocessorWorkLimits, type Macro, type PreprocessorWarning, type PreprocessorLimits, type PreprocessOptions, type Preprocessed, type PragmaLine } from './options.js';
export { preprocess } from './directives.js';
export { tokensToText, preprocessedText } from './output.js';
