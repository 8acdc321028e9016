/**
 * The recipe targets added for surfaces that mutation cannot reach: query-resolve (the bulk query
 * operations' options, the kernels compared), preprocess (the lines of the preprocessed text) and
 * rdat-codec's encodeRdat options. Their seeds reach results, and their oracles see what they
 * are there to see (a kernel that answers otherwise, a line made of a macro's tokens).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fuzzTarget, runOne, seedInputs } from '../src/fuzz/index.js';
import { answerOf, kernelRuns, queryCall, QUERY_OPERATIONS } from '../src/fuzz/query-recipe.js';
import { kernels } from '../src/query/index.js';
import { HlslFile } from '../src/index.js';

test('query-resolve seeds: every operation answers with a result, the same on every kernels build', () => {
  const reached = new Set<string>();
  for (const s of seedInputs('query-resolve')) {
    const call = queryCall(s);
    const answers = [undefined, ...kernelRuns()].map((k) => answerOf(() => call.run(k)).key);
    assert.not.match(answers[0]!, /^error /, `${call.operation}: ${answers[0]!.slice(0, 120)}`);
    for (const a of answers) assert.is(a, answers[0], call.operation);
    reached.add(call.operation);
  }
  assert.equal([...reached].sort(), [...QUERY_OPERATIONS].sort());
});

test('query-resolve: a kernels build that answers otherwise (one tick more) gives another answer key', () => {
  const seed = seedInputs('query-resolve').find((s) => queryCall(s).operation === 'timestampDurations')!;
  const js = kernels('js');
  const planted = {
    ...js,
    durations(...args: Parameters<typeof js.durations>) {
      js.durations(...args);
      args[4][0] = (args[4][0] ?? 0) + 1;
    },
  };
  const call = queryCall(seed);
  assert.is.not(answerOf(() => call.run(planted)).key, answerOf(() => call.run(js)).key);
});

test('query-resolve: an options object that is none, a misspelt key and a detached out answer with typed errors on every build', () => {
  // byte 0 the operation (timestampDurations); then options that are `true` (b = 0xe0), a stray key "into " (b = 0x1b), a detached out.ns (c = 4), a misaligned out.ticks (c = 3)
  for (const head of [[0, 0, 0xe0, 0, 0, 0], [0, 0, 0x1b, 0, 0, 0], [0, 0, 0, 4, 0, 0], [0, 0, 0, 3, 0, 0]]) {
    const s = Uint8Array.from([...head, ...new Uint8Array(32).fill(1)]);
    const call = queryCall(s);
    const answers = [undefined, ...kernelRuns()].map((k) => answerOf(() => call.run(k)).key);
    assert.match(answers[0]!, /^error (bad-type|unknown-key) at options/, answers[0]!);
    for (const a of answers) assert.is(a, answers[0]);
    assert.is(runOne(fuzzTarget('query-resolve'), s).finding, undefined);
  }
});

test('preprocess: lines made of a macro\'s # tokens are counted as such; text preprocessed again gives itself', () => {
  const t = '#define H #pragma from_a_macro\nH\n#pragma real\n#define P(x) _Pragma(#x)\nP(one) P(two)\n';
  const out = new HlslFile(t, 'main.hlsl').preprocessedText();
  assert.match(out, /^#pragma from_a_macro$/m);
  assert.is(runOne(fuzzTarget('preprocess'), new TextEncoder().encode(t)).finding, undefined);
  const plain = '#pragma pack(push, 1)\n#line 40 "x.hlsl"\n#if \'a\' == 97\n_Pragma("message(\\"m\\")") ok\n#endif\n';
  const once = new HlslFile(plain, 'main.hlsl').preprocessedText();
  assert.is(new HlslFile(once, 'main.hlsl').preprocessedText(), once);
  assert.is(runOne(fuzzTarget('preprocess'), new TextEncoder().encode(plain)).finding, undefined);
});

test.run();
