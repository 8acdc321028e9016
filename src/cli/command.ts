/**
 * What a command file declares. Adding a command is one file exporting a `CliCommand` and one line
 * in `commands/index.ts`; the registry (program.ts) builds the commander tree, adds the options
 * every command shares (--json, --diagnostics-format, and for file commands --jobs, --progress,
 * -o/--out-dir) and runs it.
 *
 * Two kinds:
 * - `files`: works on each input file on its own (`inputs` positional: several files, globs, `-`);
 *   `run` returns the file's JSON result and prints its text lines with `ctx.print`. The registry
 *   expands globs, plans outputs, runs files in order or on worker threads (--jobs), prints one
 *   line or one NDJSON object per file and exits with the worst file's status.
 * - `once`: runs once with its own arguments (`ddi layout`, `rootsig compile`, `batch`).
 */
import type { Argument, Command } from 'commander';
import type { ExitCode } from './exit.js';
import type { DiagnosticsFormat } from './errors.js';
import type { Output, Streams } from './io.js';

/** Options the registry adds to every command. */
export interface CommonOptions {
  json?: boolean;
  diagnosticsFormat?: DiagnosticsFormat;
  /** --max-input: the most bytes of an input read whole (io.ts inputLimit). */
  maxInput?: string;
}

/** Options the registry adds to every `files` command. */
export interface FileCommonOptions extends CommonOptions {
  jobs?: string;
  progress?: boolean;
  output?: string;
  outDir?: string;
  /** Flush outputs to disk before their rename (--fsync). */
  fsync?: boolean;
}

/** What a command sees while it runs. */
export interface RunContext<O> {
  /** Parsed options (commander's, plain data: they go to worker threads). */
  readonly options: O & FileCommonOptions;
  /** Positional arguments before the inputs (`ddi decode TYPE ...`). */
  readonly args: readonly string[];
  readonly streams: Streams;
  /** Prints one line of text output (ignored with --json, where the result object is printed). */
  print(line: string): Promise<void>;
  /**
   * Reads an input once, without a copy (`-`: standard input). `named`: the file was named by
   * another input (a pipeline description's files), so only a regular file is read (io.ts readNamedInput).
   */
  read(file: string, how?: { named?: boolean }): Promise<Uint8Array>;
  /** This input's output path (from -o, an -o pattern or --out-dir); undefined when none was given. */
  readonly output: string | undefined;
  /** Writes `data` to `out` safely (see io.ts), refusing to write over any of `inputs`. */
  write(out: string, data: Uint8Array | string, inputs: readonly string[]): Promise<Output['kind']>;
  /** Opens `out` for streamed writing (see io.ts). */
  open(out: string, inputs: readonly string[]): Promise<Output>;
}

/** A command that works on each input file on its own. */
export interface FileCommand<O = Record<string, unknown>> {
  readonly kind: 'files';
  /** Where it sits: `['inspect']`, `['rootsig', 'validate']`. */
  readonly path: readonly string[];
  readonly description: string;
  /** Shown under "Examples:" in its help. */
  readonly examples: readonly string[];
  /** JSON Schema properties of its `--json` result (see schema.ts; without one the result is unchecked). */
  readonly schema?: Record<string, Record<string, unknown>>;
  /** The input argument's name in help (`file`, `shader`). */
  readonly input: string;
  /** Positional arguments before the inputs, with their choices. */
  readonly leading?: () => readonly Argument[];
  /** The command writes one output per input; `ext` names outputs in --out-dir (undefined: the input's own). */
  readonly writes?: { required: boolean; ext: (options: O & FileCommonOptions) => string | undefined };
  /** Options (camel-case keys) that name further files it writes (`html`): checked with the outputs before any input runs. */
  readonly extraOutputs?: readonly string[];
  /** Options (camel-case keys) that name further files it reads (`rs`, `rootsig`): no output may be one of them. */
  readonly extraInputs?: readonly string[];
  /** Adds the command's own options. */
  readonly options?: (cmd: Command) => void;
  /** Checks the options once, before any input (throw UsageError). */
  readonly check?: (options: O & FileCommonOptions, args: readonly string[], inputs: readonly string[]) => void;
  /** True when the command may not run on worker threads (it streams to stdout). */
  readonly streams?: boolean;
  /**
   * Runs on one input; returns its JSON result (printed with --json), or undefined when it printed
   * its JSON answer itself (a streamed one). Throws for bad input or a failed check.
   */
  run(file: string, ctx: RunContext<O>): Promise<Record<string, unknown> | undefined>;
}

/** A command that runs once with its own arguments. */
export interface OnceCommand<O = Record<string, unknown>> {
  readonly kind: 'once';
  readonly path: readonly string[];
  readonly description: string;
  readonly examples: readonly string[];
  /** JSON Schema properties of its `--json` output (see schema.ts). */
  readonly schema?: Record<string, Record<string, unknown>>;
  /** Adds arguments and options. */
  readonly define: (cmd: Command) => void;
  /**
   * Runs; `args` are commander's positional values; `dxbin` runs another dxbin command line (for
   * `batch`). Returns the exit status (throw for errors).
   */
  run(args: readonly unknown[], options: O & CommonOptions, streams: Streams, dxbin: (argv: readonly string[], streams: Streams) => Promise<ExitCode>): Promise<ExitCode>;
}

export type CliCommand = FileCommand<any> | OnceCommand<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Descriptions of command groups (`dxbin rootsig ...`); a group is created when a command needs it. */
export const GROUPS: Readonly<Record<string, string>> = {
  rootsig: 'root signatures (RTS0)',
  query: 'resolved query results (ResolveQueryData output)',
  ddi: 'DDI and feature structures (work-graph node outputs, render-pass preserve-local, D3D12_OPTIONS)',
  part: 'container parts: list, extract, remove, add (like llvm-objcopy)',
  pipeline: 'pipeline state streams (D3D12_PIPELINE_STATE_STREAM_DESC images) and pipeline descriptions',
};
