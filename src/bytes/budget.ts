/**
 * The one work budget. A public call (or one batch job, one worker request) makes one `Budget`
 * from the size of its input and passes it down; every surface charges it at its few choke points
 * (reads, skipped scans, produced characters, resolved references, automaton steps, files,
 * nesting). Exceeding a kind throws `LimitError` (`limit-exceeded`) naming the kind, the limit,
 * the option that raises it and where it ran out. No surface keeps a private counter.
 *
 * The kinds, their defaults and options are rows in codecs/limits.ts; docs/limits.md lists them.
 */
import { READ_MINIMUM, WORK_KINDS, type WorkKind } from '../../codecs/limits.js';
import { DescriptionError, DxbinError, kindOf } from './errors.js';

export { WORK_KINDS, READ_MINIMUM, type WorkKind };

/** Absolute limits that replace a kind's default (`WORK_KINDS[kind].option` names each). */
export type WorkLimits = { readonly [K in WorkKind as (typeof WORK_KINDS)[K]['option']]?: number };

/** A place for messages: a path or `file:line:col`; a function is called only when an error is made. */
export type Where = string | (() => string);

/** The budget ran out: `kind` names what, `limit` the number, `option` the `WorkLimits` key that raises it. */
export class LimitError extends DxbinError<'limit-exceeded'> {
  constructor(
    readonly kind: WorkKind,
    readonly limit: number,
    readonly option: string,
    path: string,
    /** Absolute byte offset where known, else undefined. */
    readonly offset?: number,
  ) {
    const row = (WORK_KINDS as Record<string, (typeof WORK_KINDS)[WorkKind] | undefined>)[kind];
    if (!row) throw new DescriptionError('bad-name', 'kind', `unknown work kind ${typeof kind === 'string' ? `"${kind}"` : kindOf(kind)} (known: ${Object.keys(WORK_KINDS).join(', ')})`);
    super('limit-exceeded', path, `more than ${option} = ${limit} ${row.unit} (${kind}: ${row.counts})`);
  }
}

/**
 * The budget an options object names (`options.budget`), else a new one for `inputBytes` with the
 * options as limits: the one way a public entry takes its budget.
 * @throws {DescriptionError} bad-type when `budget` is given and is not a Budget
 */
export function budgetOf(options: ({ budget?: unknown } & WorkLimits) | undefined, inputBytes: number, path = 'options.budget'): Budget {
  const given = options?.budget;
  if (given === undefined) return Budget.for(inputBytes, options);
  if (given instanceof Budget) return given;
  throw new DescriptionError('bad-type', path, `expected a Budget, got ${kindOf(given)}`);
}

const KINDS = Object.keys(WORK_KINDS) as WorkKind[];
const INDEX = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<WorkKind, number>;
const OPTIONS = KINDS.map((k) => WORK_KINDS[k].option);
/** The fixed limits of a budget made with none: shared, read only. */
const DEFAULTS: readonly (number | undefined)[] = Object.freeze(KINDS.map(() => undefined));

/** One call's work budget: `Budget.for(inputBytes)`, then `charge`, `chargeRead`, `enter`/`leave` at the choke points. */
export class Budget {
  // a plain array, not a Float64Array: a typed array's backing store costs a decode on a hot path more than its work
  private readonly spent: number[] = KINDS.map(() => 0);
  private readonly fixed: readonly (number | undefined)[];
  private inputBytes: number;
  private level = 0;

  private constructor(inputBytes: number, limits: WorkLimits | undefined) {
    this.inputBytes = inputBytes;
    // no limits given (the usual call): one shared row of defaults, never written (a decode on a hot path makes a budget)
    let fixed: (number | undefined)[] | undefined;
    if (limits !== undefined) {
      for (let i = 0; i < KINDS.length; i++) {
        const v = (limits as Record<string, unknown>)[OPTIONS[i]!];
        if (typeof v === 'number' && v >= 0) (fixed ??= new Array<number | undefined>(KINDS.length).fill(undefined))[i] = v;
      }
    }
    this.fixed = fixed ?? DEFAULTS;
  }

  /** A budget for a call handed `inputBytes` bytes (or characters); `limits` replace defaults. */
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
    const row = WORK_KINDS[kind];
    // in proportion to the input, never less than the base: so output within 64x holds for any input of 64 bytes or more
    return Math.max(row.perInputByte * this.inputBytes, row.base);
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
