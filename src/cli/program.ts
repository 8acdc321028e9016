/**
 * The `dxbin` command: builds the commander tree from the command files listed in
 * commands/index.ts, adds the shared options, and runs. Exit status from exit.ts; messages from
 * errors.ts; never calls process.exit itself.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Argument, Command, CommanderError, Option } from 'commander';
import { COMMANDS } from './commands/index.js';
import { GROUPS, type CliCommand, type FileCommand } from './command.js';
import { DIAGNOSTICS_FORMATS, UsageError, diagnosticOf, formatDiagnostic, outcomeOf, type DiagnosticsFormat } from './errors.js';
import { EXIT, exitCode, type ExitCode } from './exit.js';
import { runFiles } from './runner.js';
import { servePersistentWorker } from './persistent-worker.js';
import { PARAM_FILE_FORMATS, expandResponseFiles } from './argfiles.js';
import { withFsync } from './io.js';
import type { Streams } from './io.js';

/** The package's version, read from its package.json (found above this module, in src/cli or dist). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'dxbin' && pkg.version) return pkg.version;
    } catch {
      /* not here */
    }
  }
  return 'unknown';
}

/** The command file registered at `path`. */
export function findCommand(path: readonly string[]): CliCommand | undefined {
  return COMMANDS.find((c) => c.path.length === path.length && c.path.every((p, i) => p === path[i]));
}

/** The `files` command registered at `path` (worker threads look commands up by path). */
export function findFileCommand(path: readonly string[]): FileCommand {
  const c = findCommand(path);
  if (!c || c.kind !== 'files') throw new Error(`no files command ${path.join(' ')}`);
  return c;
}

const diagnosticsOption = () => new Option('--diagnostics-format <style>', 'message style: gnu (dxbin: FILE: ...) or msvc (FILE(line,col): error CODE: ...)').choices(DIAGNOSTICS_FORMATS).default('gnu');

function examplesText(examples: readonly string[]): string {
  return examples.length ? `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n` : '';
}

/** Builds the commander tree; `done` receives each action's exit status. */
export function buildProgram(streams: Streams, done: (code: ExitCode) => void): Command {
  const program = new Command('dxbin')
    .description('Bit-exact codecs for Direct3D 12 binary data')
    .version(packageVersion())
    .enablePositionalOptions()
    .exitOverride()
    .helpCommand(false)
    .showHelpAfterError(false);
  program.configureOutput({
    writeOut: (s) => void streams.write(s),
    writeErr: (s) => streams.err(s.replace(/\n$/, '')),
    outputError: (s, write) => write(s.replace(/^error: /, 'dxbin: ')),
  });
  // taken out of the command line before commander parses it (run); listed here for help
  program.option('--persistent_worker', "serve Bazel's JSON persistent-worker protocol on stdin/stdout (docs/build-systems.md)");
  program.addOption(new Option('--param-file-format <format>', 'how @FILE response files are split: lines (one argument per line), shell (quoted words) or msbuild (.rsp quoting)').choices(PARAM_FILE_FORMATS).default('lines'));
  program.addHelpText('after', '\nResponse files: any argument @FILE is replaced by the arguments in FILE (@@x for a literal @x).\nExit status: 0 success, 1 bad input or failed check, 2 usage.\nHelp on a command: dxbin help rootsig compile\n');
  const groups = new Map<string, Command>();
  const parentOf = (path: readonly string[]): Command => {
    if (path.length === 1) return program;
    const name = path[0]!;
    let g = groups.get(name);
    if (!g) {
      g = program.command(name).description(GROUPS[name] ?? name).helpCommand(false);
      g.configureOutput(program.configureOutput());
      groups.set(name, g);
    }
    return g;
  };
  for (const spec of COMMANDS) {
    const cmd = parentOf(spec.path).command(spec.path[spec.path.length - 1]!).description(spec.description);
    cmd.addHelpText('after', examplesText(spec.examples));
    cmd.option('--json', 'print JSON: one object per input, one line each (NDJSON); schemas in schema/cli/');
    cmd.addOption(diagnosticsOption());
    cmd.option('--max-input <bytes>', 'refuse an input read whole that is larger (default 268435456: 256 MiB; docs/limits.md)');
    cmd.option('--fsync', 'flush each output to disk before renaming it into place (default: rename only, which is atomic but not durable across a power loss)');
    if (spec.kind === 'files') {
      const leading = spec.leading?.() ?? [];
      for (const a of leading) cmd.addArgument(a);
      cmd.addArgument(new Argument(`<${spec.input}...>`, 'input files, globs (expanded by dxbin) or - for standard input'));
      spec.options?.(cmd);
      if (spec.writes) {
        cmd.option('-o, --output <out>', 'output file (- for standard output), or a pattern with {name} {base} {dir} for several inputs');
        cmd.option('--out-dir <dir>', 'write each output to DIR, named after its input');
      }
      cmd.option('-j, --jobs <n>', 'run inputs on N worker threads (or auto)');
      cmd.option('--no-progress', 'no progress bar on a terminal');
      cmd.action(async (...a: unknown[]) => {
        const c = a[a.length - 1] as Command;
        const positional = a.slice(0, -2);
        const args = positional.slice(0, leading.length) as string[];
        const files = positional[leading.length] as string[];
        done(await runFiles(spec, args, files, c.opts(), withFsync(streams, c.opts().fsync)));
      });
    } else {
      spec.define(cmd);
      cmd.action(async (...a: unknown[]) => {
        const c = a[a.length - 1] as Command;
        done(await spec.run(a.slice(0, -2), c.opts(), withFsync(streams, c.opts().fsync), run));
      });
    }
  }
  return program;
}

/** `dxbin help A B`: the help of `dxbin A B`. */
function helpFor(program: Command, path: readonly string[]): Command | undefined {
  let cmd: Command | undefined = program;
  for (const name of path) cmd = cmd?.commands.find((c) => c.name() === name || c.aliases().includes(name));
  return cmd;
}

function styleOf(argv: readonly string[]): DiagnosticsFormat {
  const i = argv.findIndex((a) => a === '--diagnostics-format' || a.startsWith('--diagnostics-format='));
  const v = i < 0 ? undefined : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  return v === 'msvc' ? 'msvc' : 'gnu';
}

/** Runs the CLI on `argv` (without node and script): response files expanded, then {@link runExpanded}. */
export async function run(argv: readonly string[], streams: Streams): Promise<ExitCode> {
  let expanded: string[];
  try {
    expanded = expandResponseFiles(argv);
  } catch (e) {
    return reportError(e, argv, streams);
  }
  return runExpanded(expanded, streams);
}

/** The most arguments one command line may have, response files expanded (docs/limits.md). */
export const MAX_ARGUMENTS = 65536;

/** Runs a command line whose response files are already expanded; returns the exit status. */
export async function runExpanded(argv: readonly string[], streams: Streams): Promise<ExitCode> {
  let code: ExitCode = EXIT.ok;
  const program = buildProgram(streams, (c) => {
    code = c;
  });
  if (argv.includes('--persistent_worker')) {
    const prefix = argv.filter((a) => a !== '--persistent_worker');
    return servePersistentWorker(prefix, streams.stdinChunks(), streams, runExpanded);
  }
  if (argv[0] === 'help') {
    const cmd = helpFor(program, argv.slice(1));
    if (!cmd) {
      streams.err(`dxbin: no command ${argv.slice(1).join(' ')} (dxbin help lists them)`);
      return EXIT.usage;
    }
    cmd.outputHelp();
    return EXIT.ok;
  }
  try {
    // commander hands the rest of a command line on with push(...rest): past the engine's argument
    // limit that is a RangeError, so a longer line is refused here, by name, before it is parsed
    if (argv.length > MAX_ARGUMENTS) throw new UsageError(`${argv.length} arguments; at most ${MAX_ARGUMENTS} (give a glob pattern, or split the job)`);
    await program.parseAsync(argv as string[], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportError(e, argv, streams);
  }
}

/** Prints an error that ended a whole command line; returns its exit status. */
function reportError(e: unknown, argv: readonly string[], streams: Streams): ExitCode {
  const outcome = outcomeOf(e);
  const d = diagnosticOf(e);
  if (outcome === undefined) {
    d.message = `internal error: ${d.message}`;
    if (process.env.DXBIN_DEBUG) streams.err(String((e as Error).stack));
  }
  streams.err(formatDiagnostic(d, styleOf(argv)));
  return outcome === undefined ? EXIT.failed : exitCode(outcome);
}
