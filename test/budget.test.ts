/**
 * The one work budget (src/bytes/budget.ts, rows in codecs/limits.ts): limits scale with the
 * input, a fixed limit replaces the default, depth pairs enter/leave, every read costs at least
 * READ_MINIMUM, and docs/limits.md lists every kind with its option and default.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { Budget, chargeOne, givenBudget, LimitError, READ_MINIMUM, WORK_KIND_COUNTS, WORK_KIND_UNITS, WORK_KINDS, type WorkKind } from '../src/bytes/budget.js';
import { DescriptionError, DxbinError } from '../src/bytes/errors.js';

const throwsLimit = (f: () => void, kind: WorkKind): LimitError => {
  try {
    f();
  } catch (e) {
    assert.instance(e, LimitError);
    assert.instance(e, DxbinError);
    const l = e as LimitError;
    assert.is(l.code, 'limit-exceeded');
    assert.is(l.kind, kind);
    assert.ok(l.message.includes(WORK_KINDS[kind].option), l.message);
    return l;
  }
  assert.unreachable(`no ${kind} limit`);
  throw new Error('unreachable');
};

test('a proportional limit grows with the input, and with input read later', () => {
  const b = Budget.for(1000);
  const produce = WORK_KINDS.produce;
  assert.is(b.limit('produce'), Math.max(produce.perInputByte * 1000, produce.base));
  b.charge('produce', b.limit('produce'), 'x');
  const e = throwsLimit(() => b.charge('produce', 1, 'file.hlsl:3:7'), 'produce');
  assert.is(e.path, 'file.hlsl:3:7');
  const c = Budget.for(0);
  c.addInput(10);
  assert.is(c.limit('produce'), Math.max(produce.perInputByte * 10, produce.base), 'never less than the base');
  c.addInput(1000);
  assert.is(c.limit('produce'), produce.perInputByte * 1010, 'past the base, in proportion to every byte read');
});

test('a fixed limit replaces the default; where is built only on failure', () => {
  const b = Budget.for(1 << 20, { maxResolved: 5 });
  let made = 0;
  const where = () => `made ${++made}`;
  b.charge('resolve', 5, where);
  assert.is(made, 0);
  throwsLimit(() => b.charge('resolve', 1, where), 'resolve');
  assert.is(made, 1);
});

test('each read costs at least READ_MINIMUM and one file: empty files run out', () => {
  const b = Budget.for(0, { maxReadBytes: 10 * READ_MINIMUM });
  for (let i = 0; i < 10; i++) b.chargeRead(0, 'empty.rsp');
  throwsLimit(() => b.chargeRead(0, 'empty.rsp'), 'read');
  const f = Budget.for(0, { maxFiles: 3 });
  f.chargeRead(1, 'a');
  f.chargeRead(1, 'a');
  f.chargeRead(1, 'a');
  throwsLimit(() => f.chargeRead(1, 'a'), 'files');
});

test('depth: enter and leave pair; the limit stops a deep nest and leaves the level unchanged', () => {
  const b = Budget.for(0, { maxDepth: 3 });
  b.enter('a');
  b.enter('b');
  b.enter('c');
  throwsLimit(() => b.enter('d'), 'depth');
  assert.is(b.depth, 3);
  b.leave();
  b.enter('d');
  b.leave();
  b.leave();
  b.leave();
  b.leave(); // extra leaves do not go below zero
  assert.is(b.depth, 0);
});

test('unlimited never runs out', () => {
  const b = Budget.unlimited();
  b.charge('produce', 1e15, 'x');
  for (let i = 0; i < 5000; i++) b.enter('x');
});

test('docs/limits.md lists every kind with its option', () => {
  const doc = readFileSync(new URL('../docs/limits.md', import.meta.url), 'utf8');
  for (const [kind, row] of Object.entries(WORK_KINDS)) {
    assert.ok(doc.includes(`| \`${kind}\` |`), `docs/limits.md lacks the ${kind} row`);
    assert.ok(doc.includes(`\`${row.option}\``), `docs/limits.md lacks ${row.option}`);
    // what the kind counts: not in the message (the decoders do not carry it), said by the doc
    assert.ok(doc.includes(`| ${WORK_KIND_COUNTS[kind as WorkKind]} |`), `docs/limits.md does not say what ${kind} counts as WORK_KIND_COUNTS does`);
  }
  assert.equal(Object.keys(WORK_KIND_COUNTS), Object.keys(WORK_KINDS));
  assert.equal(Object.keys(WORK_KIND_UNITS), Object.keys(WORK_KINDS));
  assert.ok(WORK_KIND_COUNTS.read.includes(`${READ_MINIMUM / 1024} KiB`), 'the read phrase names READ_MINIMUM');
});

test('chargeOne (one kind, no Budget made) gives the limit and the error Budget.for(...).charge gives', () => {
  for (const [bytes, limits] of [[10, undefined], [1000, undefined], [100000, undefined], [1000, { maxResolved: 5 }], [1000, { maxResolved: 0 }]] as const) {
    const b = Budget.for(bytes, limits);
    const limit = b.limit('resolve');
    chargeOne('resolve', WORK_KINDS.resolve, limit, bytes, limits, 'p'); // at the limit: fine
    const one = throwsLimit(() => chargeOne('resolve', WORK_KINDS.resolve, limit + 1, bytes, limits, () => 'p.q', 7), 'resolve');
    const full = throwsLimit(() => b.charge('resolve', limit + 1, () => 'p.q', 7), 'resolve');
    assert.equal([one.message, one.limit, one.option, one.offset], [full.message, full.limit, full.option, full.offset]);
    assert.match(one.message, /^p\.q: more than maxResolved = \d+ elements \(resolve: see docs\/limits\.md\)$/);
  }
  // a limit that is no number of 0 or more: refused by both alike (it kept the default without a word)
  for (const [v, code] of [[-1, 'out-of-range'], [NaN, 'out-of-range'], ['x', 'bad-type']] as const) {
    const limits = { maxResolved: v as number };
    const a = (() => { try { Budget.for(1000, limits); } catch (e) { return e as DxbinError; } })();
    const b = (() => { try { chargeOne('resolve', WORK_KINDS.resolve, 1, 1000, limits, 'p'); } catch (e) { return e as DxbinError; } })();
    assert.ok(a instanceof DxbinError && b instanceof DxbinError, String(v));
    assert.equal([a.code, a.path, a.message], [code, 'options.maxResolved', b.message]);
  }
});

test('givenBudget takes a Budget and refuses anything else (bad-type)', () => {
  const b = Budget.for(1);
  assert.is(givenBudget(b), b);
  for (const v of [null, {}, Object.create(Budget.prototype), 'budget', 3]) {
    try {
      givenBudget(v, 'options.budget');
      assert.unreachable('accepted');
    } catch (e) {
      assert.instance(e, DescriptionError);
      assert.is((e as DescriptionError).code, 'bad-type');
      assert.is((e as DescriptionError).path, 'options.budget');
    }
  }
});

test.run();
