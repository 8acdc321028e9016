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
  readonly perInputByte: number;
  readonly base: number;
  /** The option of `WorkLimits` (and, where one exists, the CLI flag) that sets the limit. */
  readonly option: string;
}

/** Each kind's row (default and option), a const of its own so that code charging one kind imports only its row. */
export const READ_WORK = {
  perInputByte: 0,
  base: 256 * 1024 * 1024,
  option: 'maxReadBytes',
} as const satisfies WorkKindRow;
export const SCAN_WORK = {
  perInputByte: 64,
  base: 1024 * 1024,
  option: 'maxScanBytes',
} as const satisfies WorkKindRow;
export const PRODUCE_WORK = {
  perInputByte: 64,
  // 64 x 64: output stays within 64x the input for every input of 64 bytes or more (the fuzz output oracle's floor)
  base: 4096,
  option: 'maxProducedChars',
} as const satisfies WorkKindRow;
export const RESOLVE_WORK = {
  perInputByte: 8,
  base: 1024,
  option: 'maxResolved',
} as const satisfies WorkKindRow;
export const STATES_WORK = {
  perInputByte: 256,
  base: 1024 * 1024,
  option: 'maxSteps',
} as const satisfies WorkKindRow;
export const FILES_WORK = {
  perInputByte: 0,
  base: 65536,
  option: 'maxFiles',
} as const satisfies WorkKindRow;
export const DEPTH_WORK = {
  perInputByte: 0,
  base: 1000,
  option: 'maxDepth',
} as const satisfies WorkKindRow;

/** The kinds of work a budget counts, one row each (default, option); what a unit is: WORK_KIND_UNITS; what each counts: WORK_KIND_COUNTS. */
export const WORK_KINDS = {
  read: READ_WORK,
  scan: SCAN_WORK,
  produce: PRODUCE_WORK,
  resolve: RESOLVE_WORK,
  states: STATES_WORK,
  files: FILES_WORK,
  depth: DEPTH_WORK,
} as const;

/** What one unit of each kind is, for messages and docs/limits.md. */
export const WORK_KIND_UNITS: { readonly [K in keyof typeof WORK_KINDS]: string } = {
  read: 'bytes',
  scan: 'bytes',
  produce: 'characters',
  resolve: 'elements',
  states: 'steps',
  files: 'files',
  depth: 'levels',
};

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
