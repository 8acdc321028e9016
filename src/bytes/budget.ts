/**
 * The one work budget. A public call (or one batch job, one worker request) makes one `Budget`
 * from the size of its input and passes it down; every surface charges it at its few choke points
 * (reads, skipped scans, produced characters, resolved references, automaton steps, files,
 * nesting). Exceeding a kind throws `LimitError` (`limit-exceeded`) naming the kind, the limit,
 * the option that raises it and where it ran out. No surface keeps a private counter.
 *
 * The kinds, their defaults and options are rows in codecs/limits.ts; docs/limits.md lists them.
 */
import { READ_MINIMUM, WORK_KINDS, WORK_KIND_COUNTS, WORK_KIND_UNITS, type WorkKind, type WorkKindRow } from '../../codecs/limits.js';
import { DescriptionError, DxbinError, kindOf } from './errors.js';

export { WORK_KINDS, WORK_KIND_COUNTS, WORK_KIND_UNITS, READ_MINIMUM, type WorkKind };

/** Absolute limits that replace a kind's default (`WORK_KINDS[kind].option` names each). */
export type WorkLimits = { readonly [K in WorkKind as (typeof WORK_KINDS)[K]['option']]?: number };

/** A place for messages: a path or `file:line:col`; a function is called only when an error is made. */
export type Where = string | (() => string);

/**
 * The budget ran out: `kind` names what, `limit` the number, `option` the `WorkLimits` key that raises it.
 * The message names all three and points at docs/limits.md for what the kind counts
 * (WORK_KIND_COUNTS: kept out of the message so a decoder does not carry every kind's phrase).
 */
export class LimitError extends DxbinError<'limit-exceeded'> {
  constructor(
    readonly kind: WorkKind,
    readonly limit: number,
    readonly option: string,
    path: string,
    /** Absolute byte offset where known, else undefined. */
    readonly offset?: number,
  ) {
    const unit = (WORK_KIND_UNITS as Record<string, string | undefined>)[kind];
    if (unit === undefined) throw new DescriptionError('bad-name', 'kind', `unknown work kind ${typeof kind === 'string' ? `"${kind}"` : kindOf(kind)} (known: ${Object.keys(WORK_KIND_UNITS).join(', ')})`);
    super('limit-exceeded', path, `more than ${option} = ${limit} ${unit} (${kind}: see docs/limits.md)`);
  }
}

/** The options every entry that makes a work budget takes: `budget` and the work limits (`maxResolved`, ...: WORK_KINDS' `option`s), and `more`. */
export function limitKeys(...more: string[]): string[] {
  return ['budget', ...Object.values(WORK_KINDS).map((k) => k.option), ...more];
}

/**
 * The budget an options object names (`options.budget`), else a new one for `inputBytes` with the
 * options as limits: the one way a public entry takes its budget.
 * @throws {DescriptionError} bad-type when `budget` is given and is not a Budget
 */
export function budgetOf(options: ({ budget?: unknown } & WorkLimits) | undefined, inputBytes: number, path = 'options.budget'): Budget {
  const given = options?.budget;
  return given === undefined ? Budget.for(inputBytes, options) : givenBudget(given, path);
}

/**
 * Budgets made by this module (the check of a caller's `budget` option without the class, so that
 * an entry charging one kind does not carry Budget's bookkeeping: see chargeOne).
 */
const BUDGETS = /* @__PURE__ */ new WeakSet<object>();

/**
 * `budget` as a Budget (a caller's option).
 * @throws {DescriptionError} bad-type when it is not one
 */
export function givenBudget(budget: unknown, path = 'options.budget'): Budget {
  if (typeof budget === 'object' && budget !== null && BUDGETS.has(budget)) return budget as Budget;
  throw new DescriptionError('bad-type', path, `expected a Budget, got ${kindOf(budget)}`);
}

/**
 * The limit a set of WorkLimits gives one option, if it gives one: a number >= 0 (Infinity: none).
 * Anything else given is refused, not replaced by the default without a word (-1, NaN, '1e9').
 * @throws {DescriptionError} out-of-range for a number below 0 or NaN, bad-type for what is no number
 */
function fixedLimit(limits: WorkLimits | undefined, option: string): number | undefined {
  const v = limits === undefined ? undefined : (limits as Record<string, unknown>)[option];
  if (v === undefined || (typeof v === 'number' && v >= 0)) return v;
  throw new DescriptionError(typeof v === 'number' ? 'out-of-range' : 'bad-type', `options.${option}`, `expected a limit of 0 or more, got ${typeof v === 'number' ? v : kindOf(v)}`);
}

/** A kind's limit for an input: in proportion to it, never less than the base (so output within 64x holds for any input of 64 bytes or more). */
function proportional(row: WorkKindRow, inputBytes: number): number {
  return Math.max(row.perInputByte * inputBytes, row.base);
}

/**
 * The budget of a call that charges only `kind` and has no caller's Budget: `used` units are
 * charged at once against the limit `Budget.for(inputBytes, limits)` would give `kind` (the same
 * rows and rule), throwing its LimitError past it. For a decoder on a hot path that keeps the
 * running total it needs anyway and makes no Budget (RTS0 decode); with a caller's budget it
 * charges that one instead. `row` is the kind's row (`RESOLVE_WORK` for `resolve`): the caller
 * names it so that only that row is imported, not every kind's.
 */
export function chargeOne<K extends WorkKind>(kind: K, row: (typeof WORK_KINDS)[K], used: number, inputBytes: number, limits: WorkLimits | undefined, where: Where, offset?: number): void {
  const limit = fixedLimit(limits, row.option) ?? proportional(row, Math.max(0, inputBytes | 0));
  if (used > limit) throw new LimitError(kind, limit, row.option, typeof where === 'function' ? where() : where, offset);
}

// pure: an entry that never makes a Budget (RTS0 decode: chargeOne) drops these and the class
const KINDS = /* @__PURE__ */ Object.keys(WORK_KINDS) as WorkKind[];
const INDEX = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ KINDS.map((k, i) => [k, i])) as Record<WorkKind, number>;
const OPTIONS = /* @__PURE__ */ KINDS.map((k) => WORK_KINDS[k].option);
/** The fixed limits of a budget made with none: shared, read only. */
const DEFAULTS: readonly (number | undefined)[] = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ KINDS.map(() => undefined));

/** One call's work budget: `Budget.for(inputBytes)`, then `charge`, `chargeRead`, `enter`/`leave` at the choke points. */
export class Budget {
  // a plain array, not a Float64Array: a typed array's backing store costs a decode on a hot path more than its work
  private readonly spent: number[] = KINDS.map(() => 0);
  private readonly fixed: readonly (number | undefined)[];
  private inputBytes: number;
  private level = 0;

  private constructor(inputBytes: number, limits: WorkLimits | undefined) {
    if (limits !== undefined && (typeof limits !== 'object' || limits === null)) throw new DescriptionError('bad-type', 'limits', `expected an object of limits, got ${kindOf(limits)}`);
    this.inputBytes = inputBytes;
    BUDGETS.add(this);
    // no limits given (the usual call): one shared row of defaults, never written (a decode on a hot path makes a budget)
    let fixed: (number | undefined)[] | undefined;
    if (limits !== undefined) {
      for (let i = 0; i < KINDS.length; i++) {
        const v = fixedLimit(limits, OPTIONS[i]!);
        if (v !== undefined) (fixed ??= new Array<number | undefined>(KINDS.length).fill(undefined))[i] = v;
      }
    }
    this.fixed = fixed ?? DEFAULTS;
  }

  /**
   * A budget for a call handed `inputBytes` bytes (or characters); `limits` replace defaults.
   * @throws {DescriptionError} bad-type when `limits` is given and is not an object
   */
  static for(inputBytes: number, limits?: WorkLimits): Budget {
    return new Budget(Math.max(0, inputBytes | 0), limits);
  }

  /** A budget that never runs out (tests and trusted callers only). */
  static unlimited(): Budget {
    return new Budget(0, Object.fromEntries(OPTIONS.map((o) => [o, Infinity])) as WorkLimits);
  }

  /** Input read later (an included file): the proportional limits grow with it. */
  addInput(bytes: number): void {
    this.inputBytes += bytes;
  }

  /** The limit of a kind now. */
  limit(kind: WorkKind): number {
    const i = INDEX[kind];
    const f = this.fixed[i];
    if (f !== undefined) return f;
    return proportional(WORK_KINDS[kind], this.inputBytes);
  }

  /** How much of a kind has been charged. */
  used(kind: WorkKind): number {
    return this.spent[INDEX[kind]]!;
  }

  /** Charges `n` units of `kind`; throws LimitError past the limit. */
  charge(kind: WorkKind, n: number, where: Where, offset?: number): void {
    const i = INDEX[kind];
    const total = (this.spent[i]! += n);
    if (total > this.limit(kind)) this.fail(kind, where, offset);
  }

  /** Charges one read of `bytes` (at least READ_MINIMUM) and one file; the bytes join the input. */
  chargeRead(bytes: number, where: Where): void {
    this.charge('files', 1, where);
    this.charge('read', Math.max(bytes, READ_MINIMUM), where);
    this.inputBytes += bytes;
  }

  /** One level deeper; pair with `leave()` (in a finally where a throw may pass). */
  enter(where: Where, offset?: number): void {
    if (++this.level > this.limit('depth')) {
      this.level--;
      this.fail('depth', where, offset);
    }
  }

  /** The level of an explicit stack's entry (a walk with no recursion): past the depth limit, a LimitError. */
  checkDepth(level: number, where: Where, offset?: number): void {
    if (level > this.limit('depth')) this.fail('depth', where, offset);
  }

  /** One level back up, after `enter`. */
  leave(): void {
    if (this.level > 0) this.level--;
  }

  /** The nesting now. */
  get depth(): number {
    return this.level;
  }

  private fail(kind: WorkKind, where: Where, offset: number | undefined): never {
    throw new LimitError(kind, this.limit(kind), WORK_KINDS[kind].option, typeof where === 'function' ? where() : where, offset);
  }
}
