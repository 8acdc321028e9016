/**
 * The `dxbin` command: builds the commander tree from the command files listed in
 * commands/index.ts (each loaded when a command line needs it), adds the shared options, and runs. Exit status from exit.ts; messages from
 * errors.ts; never calls process.exit itself.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Argument, Command, CommanderError, Option } from 'commander';
import { COMMAND_ENTRIES, type CommandEntry } from './commands/index.js';
import { GROUPS, type CliCommand, type FileCommand } from './command.js';
import { DIAGNOSTICS_FORMATS, UsageError, diagnosticOf, formatDiagnostic, outcomeOf, type DiagnosticsFormat } from './errors.js';
import { EXIT, exitCode, type ExitCode } from './exit.js';
import { runFiles } from './runner.js';
import { PARAM_FILE_FORMATS, expandResponseFiles } from '../build-step/argfiles.js';
import { DEFAULT_PARAM_FILE_FORMAT, PARAM_FILE_FORMAT_HELP } from '../build-step/param-files.js';
import { withFsync } from './io.js';
import type { Streams } from './io.js';
import { printable } from '../index.js';

/** A quoted argument in commander's message cut past 256 characters (a 1 MB response-file line is not echoed whole). */
function cutQuoted(message: string): string {
  return message.replace(/'([^'\n]{256})([^'\n]+)'/g, (_, head: string, rest: string) => `'${head}…(+${rest.length} characters)'`);
}

/** Commander's error message as one escaped line, and its `(Did you mean X?)` line (X one of its own names) kept. */
function oneLineError(message: string): string {
  const hint = /\n\(Did you mean [^\n]*\?\)$/.exec(message);
  const head = hint ? message.slice(0, hint.index) : message;
  return `${printable(head)}${hint ? hint[0] : ''}\n`;
}

/** The package's version, read once per process from its package.json (found above this module: src/cli, dist/cli, or the tests' bundle in node_modules/.cache). */
let version: string | undefined;
export function packageVersion(): string {
  if (version !== undefined) return version;
  let dir = dirname(fileURLToPath(import.meta.url));
  // up to the root: the code may sit a few folders below the package (dist/cli/, a test's build cache)
  for (let up = ''; up !== dir; dir = dirname((up = dir))) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'dxbin' && pkg.version) return (version = pkg.version);
    } catch {
      /* not here */
    }
  }
  return (version = 'unknown');
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/** The registry entry at `path`. */
export function findEntry(path: readonly string[]): CommandEntry | undefined {
  return COMMAND_ENTRIES.find((c) => samePath(c.path, path));
}

/** The command file registered at `path`, loaded. */
export async function findCommand(path: readonly string[]): Promise<CliCommand | undefined> {
  return findEntry(path)?.load();
}

/** The `files` command registered at `path` (worker threads look commands up by path). */
export async function findFileCommand(path: readonly string[]): Promise<FileCommand> {
  const c = await findCommand(path);
  if (!c || c.kind !== 'files') throw new Error(`no files command ${path.join(' ')}`);
  return c;
}

const diagnosticsOption = () => new Option('--diagnostics-format <style>', 'message style: gnu (dxbin: FILE: ...) or msvc (FILE(line,col): error CODE: ...)').choices(DIAGNOSTICS_FORMATS).default('gnu');

function examplesText(examples: readonly string[]): string {
  return examples.length ? `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n` : '';
}

/** The common jobs, shown under `dxbin help`. */
const ROOT_EXAMPLES = [
  'dxbin inspect shader.cso',
  'dxbin verify shader.cso',
  'dxbin rootsig validate rs.dxbc',
  'dxbin rootsig convert rs.dxbc --to 1.0 -o rs10.dxbc',
  'dxbin rootsig compile "RootFlags(0), CBV(b0)" --to 1.1 -o rs.dxbc',
  'dxbin query decode --type timestamp stamps.bin',
];

/** Where the command line being parsed sends its text and its exit status (set just before each parse). */
interface ParseContext {
  readonly streams: Streams;
  done(code: ExitCode): void;
}

/**
 * The commander tree of one process, built once and parsed once per command line (a run, each
 * `batch` job, each worker request): commands are added as they are first needed (see
 * commands/index.ts), so a command line builds and loads only its own command. Parsing is
 * synchronous up to the action, which takes its streams from `context` at once, so command lines
 * parsed concurrently (multiplex worker requests) never see each other's.
 */
class Program {
  readonly root: Command;
  context: ParseContext | undefined;
  private readonly groups = new Map<string, Command>();
  private readonly added = new Set<CommandEntry>();
  private readonly order = new Map<Command, number>();

  constructor() {
    const out = () => this.context!.streams;
    this.root = new Command('dxbin')
      .description('Bit-exact codecs for Direct3D 12 binary data')
      .version(packageVersion())
      .enablePositionalOptions()
      .exitOverride()
      .helpCommand(false)
      .showHelpAfterError(false);
    this.root.configureOutput({
      writeOut: (s) => void out().write(s),
      // commander's messages quote the arguments (a response file's line among them): escaped
      // like every other line the CLI prints, and an argument cut, so the input chooses nothing
      writeErr: (s) => out().err(printable(s.replace(/\n$/, ''), { lines: true })),
      // an error is one line (the arguments it quotes escaped, a newline among them), then
      // commander's own suggestion line when it has one (a name of its command tree)
      outputError: (s, write) => write(oneLineError(cutQuoted(s.replace(/^error: /, 'dxbin: ').replace(/\n$/, '')))),
    });
    // taken out of the command line before commander parses it (run); listed here for help
    this.root.option('--persistent_worker', "serve Bazel's JSON persistent-worker protocol on stdin/stdout (docs/build-systems.md)");
    this.root.addOption(new Option('--param-file-format <format>', PARAM_FILE_FORMAT_HELP).choices(PARAM_FILE_FORMATS).default(DEFAULT_PARAM_FILE_FORMAT));
    // wrap command lists too when their names are long (commander leaves a description column under 40 unwrapped)
    this.root.configureHelp({ minWidthToWrap: 24 });
    this.root.addHelpText('after', `${examplesText(ROOT_EXAMPLES)}\nResponse files: any argument @FILE is replaced by the arguments in FILE (@@x for a literal @x).\nExit status: 0 success, 1 bad input or failed check, 2 usage.\nHelp on a command: dxbin help rootsig compile\n`);
  }

  /** Loads and adds the commands `argv` may need: its own, or all of a group or all (help, a name commander must suggest for). */
  async need(argv: readonly string[]): Promise<void> {
    const entries = entriesFor(argv);
    const specs = await Promise.all(entries.map((e) => (this.added.has(e) ? undefined : e.load())));
    entries.forEach((e, i) => {
      if (specs[i] && !this.added.has(e)) this.add(e, specs[i]!);
    });
  }

  private parentOf(path: readonly string[]): Command {
    if (path.length === 1) return this.root;
    const name = path[0]!;
    let g = this.groups.get(name);
    if (!g) {
      g = this.root.command(name).description(GROUPS[name] ?? name).helpCommand(false);
      g.configureOutput(this.root.configureOutput());
      this.groups.set(name, g);
      this.order.set(g, COMMAND_ENTRIES.findIndex((e) => e.path[0] === name));
    }
    return g;
  }

  private add(entry: CommandEntry, spec: CliCommand): void {
    this.added.add(entry);
    const rank = COMMAND_ENTRIES.indexOf(entry);
    const parent = this.parentOf(spec.path);
    const cmd = parent.command(spec.path[spec.path.length - 1]!).description(spec.description);
    this.order.set(cmd, rank);
    // help lists commands in the registry's order, whatever order they were loaded in
    (parent.commands as Command[]).sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
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
        const ctx = this.context!;
        const c = a[a.length - 1] as Command;
        const opts = c.opts();
        const positional = a.slice(0, -2);
        const args = positional.slice(0, leading.length) as string[];
        const files = positional[leading.length] as string[];
        ctx.done(await runFiles(spec, args, files, opts, withFsync(ctx.streams, opts.fsync)));
      });
    } else {
      spec.define(cmd);
      cmd.action(async (...a: unknown[]) => {
        const ctx = this.context!;
        const c = a[a.length - 1] as Command;
        const opts = c.opts();
        ctx.done(await spec.run(a.slice(0, -2), opts, withFsync(ctx.streams, opts.fsync), run));
      });
    }
  }
}

/** Options before the command name that take a value (`--param-file-format lines`). */
const VALUED_GLOBALS = new Set(['--param-file-format']);

/** The registry entries a command line needs: the one it names, else its group's, else all. */
function entriesFor(argv: readonly string[]): readonly CommandEntry[] {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) i += VALUED_GLOBALS.has(argv[i]!) ? 2 : 1;
  const names = argv[i] === 'help' ? argv.slice(i + 1, i + 3) : argv.slice(i, i + 2);
  const helpAsked = argv[i] === 'help' || argv.includes('--help') || argv.includes('-h');
  const top = names[0];
  // `dxbin -V` needs no command; `dxbin` alone and `dxbin --help` list them all
  if (top === undefined) return !helpAsked && (argv.includes('-V') || argv.includes('--version')) ? [] : COMMAND_ENTRIES;
  if (GROUPS[top] === undefined) {
    const one = findEntry([top]);
    return one ? [one] : COMMAND_ENTRIES;
  }
  const sub = names[1];
  const one = sub !== undefined && !sub.startsWith('-') ? findEntry([top, sub]) : undefined;
  return one ? [one] : COMMAND_ENTRIES.filter((e) => e.path[0] === top);
}

let program: Program | undefined;
/** This process's commander tree with the commands `argv` needs (tests and batch reuse it). */
export async function programFor(argv: readonly string[]): Promise<Command> {
  program ??= new Program();
  await program.need(argv);
  return program.root;
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
    // arguments that were all empty response files name no command: one line, not the help text
    // (a batch job `["@empty.rsp"]` was answered with 10 KB of it)
    if (expanded.length === 0 && argv.length > 0) throw new UsageError('the response files give no arguments, so no command (dxbin help lists them)');
  } catch (e) {
    return reportError(e, argv, streams);
  }
  return runExpanded(expanded, streams);
}

/** The most arguments one command line may have, response files expanded (docs/limits.md). */
export const MAX_ARGUMENTS = 65536;

/** Runs a command line whose response files are already expanded; returns the exit status. */
export async function runExpanded(argv: readonly string[], streams: Streams): Promise<ExitCode> {
  if (argv.includes('--persistent_worker')) {
    const prefix = argv.filter((a) => a !== '--persistent_worker');
    const { servePersistentWorker } = await import('./persistent-worker.js');
    return servePersistentWorker(prefix, streams.stdinChunks(), streams, runExpanded);
  }
  let root: Command;
  try {
    root = await programFor(argv);
  } catch (e) {
    return reportError(e, argv, streams);
  }
  let code: ExitCode = EXIT.ok;
  // synchronous from here to the action, which takes this context at once (see Program)
  program!.context = {
    streams,
    done: (c) => {
      code = c;
    },
  };
  if (argv[0] === 'help') {
    const cmd = helpFor(root, argv.slice(1));
    if (!cmd) {
      streams.err(formatDiagnostic({ code: 'usage', message: `no command ${argv.slice(1).join(' ')} (dxbin help lists them)` }));
      return EXIT.usage;
    }
    cmd.outputHelp();
    return EXIT.ok;
  }
  try {
    // commander hands the rest of a command line on with push(...rest): past the engine's argument
    // limit that is a RangeError, so a longer line is refused here, by name, before it is parsed
    if (argv.length > MAX_ARGUMENTS) throw new UsageError(`${argv.length} arguments; at most ${MAX_ARGUMENTS} (give a glob pattern, or split the job)`);
    await root.parseAsync(argv as string[], { from: 'user' });
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
