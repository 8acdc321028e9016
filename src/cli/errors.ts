/**
 * The CLI's error contract: what goes wrong at the edge (usage, unusable inputs, failed checks) and
 * one formatter for every message: `dxbin: FILE: what (field at byte N)`, or with
 * `--diagnostics-format msvc` `FILE(line,col): error CODE: what` as MSBuild and Visual Studio read it.
 * Decisions are made on error classes and `code`, never on message text.
 */
import { DecodeError, DescriptionError, DxbinError, HlslError, RootSignatureValidationError, hlslMessage, printable } from '../index.js';
import type { Outcome } from './exit.js';
import { InputError, UsageError } from '../build-step/errors.js';

// the two classes the build-step protocols throw live with them (src/build-step/errors.ts); the
// CLI's error contract still names them here, so commands keep one door for their errors
export { InputError, UsageError, type InputErrorCode } from '../build-step/errors.js';

/** A check that ran and said no (`hash --check` on a wrong digest, `validate` with violations): exit 1. */
export class CheckFailed extends Error {
  override name = 'CheckFailed';
  constructor(
    message: string,
    /** The command's JSON result, still printed with `--json`. */
    readonly result?: Record<string, unknown>,
    /** One diagnostic per violation, printed instead of the one-line summary (its `file` filled in by the runner). */
    readonly diagnostics?: readonly Diagnostic[],
  ) {
    super(message);
  }
}

/** An error that belongs to another file than the input being worked on (`embed`'s --rs file). */
export class InOtherFile extends Error {
  override name = 'InOtherFile';
  constructor(
    readonly file: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Message styles: `gnu` (`dxbin: FILE: ...`, `FILE:LINE:COL: error: ...`) or `msvc` (`FILE(LINE,COL): error CODE: ...`). */
export const DIAGNOSTICS_FORMATS = ['gnu', 'msvc'] as const;
export type DiagnosticsFormat = (typeof DIAGNOSTICS_FORMATS)[number];

/** One error as data: what `--json` prints and what the formatter turns into a line. */
export interface Diagnostic {
  code: string;
  /** The input it is about, when there is one. */
  file?: string;
  message: string;
  field?: string;
  offset?: number;
  line?: number;
  column?: number;
  /** `warning` for what does not fail the run (conversion losses without --strict); absent: an error. */
  severity?: 'warning';
}

/** The outcome an error stands for; undefined for anything that is not a dxbin error (a bug). */
export function outcomeOf(e: unknown): Outcome | undefined {
  if (e instanceof InOtherFile) return outcomeOf(e.cause);
  if (e instanceof UsageError) return 'usage';
  if (e instanceof CheckFailed) return 'check-failed';
  if (e instanceof InputError || e instanceof DxbinError) return 'bad-input';
  return undefined;
}

/** `e` as a Diagnostic, `file` naming the input it came from (errors that name their own file keep it). */
export function diagnosticOf(e: unknown, file?: string): Diagnostic {
  if (e instanceof InOtherFile) return diagnosticOf(e.cause, e.file);
  if (e instanceof HlslError) return { code: e.code, file: e.location.file, message: hlslMessage(e.code, e.detail), line: e.location.line, column: e.location.column };
  if (e instanceof RootSignatureValidationError) return { code: e.code, file: e.file, message: e.detail };
  if (e instanceof InputError) return { code: e.code, file: e.file, message: e.detail, field: e.at?.field, offset: e.at?.offset };
  if (e instanceof DecodeError) {
    // a missing part has no position worth naming
    return e.code === 'missing-part' ? { code: e.code, file, message: e.detail } : { code: e.code, file, message: e.detail, field: e.path, offset: e.offset };
  }
  if (e instanceof DescriptionError) return { code: e.code, file, message: e.detail, field: e.path };
  if (e instanceof DxbinError) return { code: e.code, file, message: e.detail, field: e.path };
  if (e instanceof CheckFailed) return { code: 'check-failed', file, message: e.message };
  if (e instanceof UsageError) return { code: 'usage', message: e.message };
  return { code: 'internal', file, message: e instanceof Error ? e.message : String(e) };
}

/**
 * One line for a diagnostic, in the chosen style (no trailing newline). One line whatever the
 * message quotes: a newline in it (a file name, an option value the input chose) is escaped too,
 * so no line of the CLI's messages starts with text the input chose.
 */
export function formatDiagnostic(d: Diagnostic, style: DiagnosticsFormat = 'gnu'): string {
  return printable(diagnosticText(d, style));
}

/** A file name or field longer than this is shown cut (a line names its input, it need not repeat 20 MB of it). */
const NAME_CHARS = 4096;
const cut = (s: string) => (s.length > NAME_CHARS ? `${s.slice(0, NAME_CHARS)}…(+${s.length - NAME_CHARS} chars)` : s);

function diagnosticText(diagnostic: Diagnostic, style: DiagnosticsFormat): string {
  // the file and field came from input: one line each, whatever they hold
  const d = { ...diagnostic, file: diagnostic.file === undefined ? undefined : printable(cut(diagnostic.file)), field: diagnostic.field === undefined ? undefined : printable(cut(diagnostic.field)) };
  const where = d.field !== undefined ? ` (${d.field}${d.offset !== undefined ? ` at byte ${d.offset}` : ''})` : '';
  const severity = d.severity ?? 'error';
  if (style === 'msvc') {
    const origin = d.file === undefined ? 'dxbin' : d.line !== undefined ? `${d.file}(${d.line},${d.column ?? 1})` : d.file;
    return `${origin}: ${severity} ${d.code}: ${d.message}${where}`;
  }
  if (d.line !== undefined) return `dxbin: ${d.file}:${d.line}:${d.column ?? 1}: ${severity}: ${d.message}`;
  return `dxbin: ${d.file !== undefined ? `${d.file}: ` : ''}${d.severity ? `${d.severity}: ` : ''}${d.message}${where}`;
}
