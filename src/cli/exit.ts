/**
 * The exit status of the `dxbin` command, decided in one place (pure: no I/O, no error classes).
 * 0 every input succeeded; 1 an input was bad (unreadable, missing, foreign, malformed) or a check
 * said no; 2 the command line itself was wrong. A run over several inputs exits with the worst.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** One of the three exit statuses. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What happened to one input, or to the command line. */
export type Outcome = 'ok' | 'bad-input' | 'check-failed' | 'usage';

const BY_OUTCOME: Readonly<Record<Outcome, ExitCode>> = { ok: EXIT.ok, 'bad-input': EXIT.failed, 'check-failed': EXIT.failed, usage: EXIT.usage };

/** The exit status that stands for `outcome`. */
export function exitCode(outcome: Outcome): ExitCode {
  return BY_OUTCOME[outcome];
}

/** The exit status of a run over several inputs: the worst one (0 when there were none). */
export function worstExit(codes: Iterable<ExitCode>): ExitCode {
  let worst: ExitCode = EXIT.ok;
  for (const c of codes) if (c > worst) worst = c;
  return worst;
}
