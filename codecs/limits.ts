/**
 * The work budget's kinds: one row each, the only place that says what a kind counts, how its
 * default scales with the input and which option raises it. `src/bytes/budget.ts` interprets the
 * rows; docs/limits.md lists them (test/budget.test.ts checks the two agree).
 *
 * A kind's limit is `max(perInputByte x input bytes, base)`, where the input is every byte the call
 * was handed or read (an included file or response file adds its bytes when it is read).
 * `perInputByte: 0` makes the limit absolute.
 */
export interface WorkKindRow {
  /** What one unit is, for messages and docs/limits.md. */
  readonly unit: string;
  readonly perInputByte: number;
  readonly base: number;
  /** The option of `WorkLimits` (and, where one exists, the CLI flag) that sets the limit. */
  readonly option: string;
}

/** The kinds of work a budget counts, one row each (unit, default, option); what each counts is WORK_KIND_COUNTS. */
export const WORK_KINDS = {
  read: {
    unit: 'bytes',
    perInputByte: 0,
    base: 256 * 1024 * 1024,
    option: 'maxReadBytes',
  },
  scan: {
    unit: 'bytes',
    perInputByte: 64,
    base: 1024 * 1024,
    option: 'maxScanBytes',
  },
  produce: {
    unit: 'characters',
    perInputByte: 64,
    // 64 x 64: output stays within 64x the input for every input of 64 bytes or more (the fuzz output oracle's floor)
    base: 4096,
    option: 'maxProducedChars',
  },
  resolve: {
    unit: 'elements',
    perInputByte: 8,
    base: 1024,
    option: 'maxResolved',
  },
  states: {
    unit: 'steps',
    perInputByte: 256,
    base: 1024 * 1024,
    option: 'maxSteps',
  },
  files: {
    unit: 'files',
    perInputByte: 0,
    base: 65536,
    option: 'maxFiles',
  },
  depth: {
    unit: 'levels',
    perInputByte: 0,
    base: 1000,
    option: 'maxDepth',
  },
} as const satisfies Record<string, WorkKindRow>;

/**
 * What each kind counts, one phrase (docs/limits.md says the same). Apart from WORK_KINDS so that a
 * decoder charging the budget does not carry every kind's documentation: a LimitError names the
 * kind, the limit and the option, and docs/limits.md says what the kind counts.
 */
export const WORK_KIND_COUNTS: { readonly [K in keyof typeof WORK_KINDS]: string } = {
  read: 'bytes read from files: includes, response files, inputs; each read costs at least 4 KiB, so reading many empty files still runs out',
  scan: 'bytes looked at more than once: skipped conditional groups, re-included files, re-scanned text',
  produce: 'characters produced: macro expansion, `#` and `##`, string literals, printed text and JSON',
  resolve: 'records, array elements and string characters resolved through offsets or shared references',
  states: 'automaton and search steps: glob matching, include-path probes, macro hide sets copied',
  files: 'files opened: includes and response files, each time one is read',
  depth: 'nesting: expressions, macro expansions, includes, response files, JSON, RDEF member types',
};

/** A kind of work: a key of WORK_KINDS. */
export type WorkKind = keyof typeof WORK_KINDS;

/** The least a read is charged, so that reading many empty files still costs. */
export const READ_MINIMUM = 4096;
