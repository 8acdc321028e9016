/** The `dxbin` command's options and dispatch. Exit status: 0 success, 1 bad input or failed check, 2 usage. */
import { Command, CommanderError, Option } from 'commander';
import { RootSignatureValidationError } from '../root-signature/hlsl/compile.js';
import { HlslError } from '../root-signature/hlsl/text.js';
import { hash } from './commands/hash.js';
import { inspect } from './commands/inspect.js';
import { embed, extract, strip } from './commands/parts.js';
import { rootsigDecode, rootsigEncode } from './commands/rootsig.js';
import { rootsigConvert, type ConvertCliOptions } from './commands/convert.js';
import { rootsigValidate } from './commands/validate.js';
import { ddiDecode, ddiEncode, ddiLayout, ddiNodeOutputs, ddiValidate } from './commands/ddi.js';
import { queryDecode, querySum, queryTimings } from './commands/query.js';
import { compileInputName, rootsigCompile, rootsigDecompile, type CompileCliOptions } from './commands/hlsl.js';
import { CheckFailed, EXIT, InputFailure, UsageError, onFile } from './errors.js';

/** Runs a command on `file`; HLSL errors already name their file, line and column. */
function on<T>(file: string, work: () => T): T {
  return onFile(file, work, (e) => e instanceof HlslError || e instanceof RootSignatureValidationError);
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`${line}\n`);

export function buildProgram(): Command {
  const program = new Command('dxbin')
    .description('Bit-exact codecs for Direct3D 12 binary data')
    .version('0.1.0')
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError(false);
  const lenient = new Option('--lenient', "accept containers as vkd3d does (gaps, parts in any order)");

  program
    .command('inspect')
    .description('show a container (header, parts, digest status, root signature) or a bare RTS0 part')
    .argument('<file>')
    .option('--json', 'print JSON')
    .addOption(lenient)
    .action((file: string, o: { json?: boolean; lenient?: boolean }) => on(file, () => inspect(file, o, print)));

  const rootsig = program.command('rootsig').description('root signatures (RTS0)');
  rootsig
    .command('decode')
    .description('decode the root signature of a container or bare RTS0 part to the JSON form')
    .argument('<file>')
    .option('--json', 'print the JSON form (the only output form)')
    .option('-o, --output <out>', 'write to a file instead of standard output')
    .addOption(lenient)
    .action((file: string, o: { output?: string; lenient?: boolean }) => on(file, () => rootsigDecode(file, o, print)));
  rootsig
    .command('encode')
    .description('encode the JSON form to a root-signature-only container with a correct digest')
    .argument('<file.json>')
    .requiredOption('-o, --output <out>', 'output file')
    .option('--raw', 'write the bare RTS0 part instead of a container')
    .action((file: string, o: { output: string; raw?: boolean }) => on(file, () => rootsigEncode(file, o)));

  rootsig
    .command('convert')
    .description('convert between versions 1.0, 1.1 and 1.2; writes the kind of file it read; the report goes to stderr')
    .argument('<file>')
    .requiredOption('--to <version>', '1.0, 1.1 or 1.2')
    .option('--semantics <name>', 'runtime (GetRootSignatureDescAtVersion), vkd3d or d3dx12', 'runtime')
    .option('--strict', 'any loss of information is an error (exit 1, nothing written)')
    .requiredOption('-o, --output <out>', 'output file')
    .action((file: string, o: ConvertCliOptions) => on(file, () => rootsigConvert(file, o, warn)));

  rootsig
    .command('validate')
    .description('check every validation rule; exit 0 valid, 1 invalid with one line per violation (code, path, message)')
    .argument('<file>')
    .option('--target <target>', 'runtime (CreateRootSignature), dxc (DXC validator) or all', 'runtime')
    .option('--global', 'the signature is used as a global root signature (LOCAL_ROOT_SIGNATURE is then an error)')
    .option('--json', 'print the violations as JSON')
    .action((file: string, o: { target?: string; json?: boolean; global?: boolean }) => on(file, () => rootsigValidate(file, o, print)));

  rootsig
    .command('compile')
    .description('compile HLSL root signature text, like dxc -T rootsig_1_1 -E NAME (a root-signature-only container with a valid digest)')
    .argument('[string]', 'the root signature text')
    .option('--file <file>', 'an HLSL file')
    .option('--define <name>', 'with --file: the #define holding the root signature')
    .option('-E, --entry <entry>', "with --file: the entry function whose [RootSignature(...)] to compile")
    .option('-D <name=value>', 'with --file: define a macro, as dxc -D does (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .requiredOption('--version <version>', '1.0, 1.1 or 1.2 (rootsig_1_0, rootsig_1_1; 1.2 has no DXC profile)')
    .requiredOption('-o, --output <out>', 'output file')
    .option('--raw', 'write the bare RTS0 part')
    .option('--no-validate', "skip DXC's validation rules (like dxc -Vd)")
    .action((text: string | undefined, o: CompileCliOptions) => on(compileInputName(text, o), () => rootsigCompile(text, o)));
  rootsig
    .command('decompile')
    .description('print a root signature (container or bare RTS0) as HLSL root signature text')
    .argument('<file>')
    .option('--multiline', 'one clause per line, indented')
    .option('--define <name>', 'wrap the text in #define NAME')
    .action((file: string, o: { multiline?: boolean; define?: string }) => on(file, () => rootsigDecompile(file, o, print)));

  const query = program.command('query').description('resolved query results (ResolveQueryData output)');
  const rangeOptions = (c: Command) => c.option('--offset <n>', 'byte offset of the first result (a multiple of 8)').option('--count <n>', 'number of results (default: all)');
  rangeOptions(
    query
      .command('decode')
      .description('decode packed results: CSV with the D3D12 field names, one row per query, exact decimals')
      .argument('<file>')
      .requiredOption('--type <type>', 'timestamp, occlusion, binary-occlusion, pipeline-statistics, pipeline-statistics1, so-statistics-stream0..3, video-decode-statistics')
      .option('--format <format>', 'csv or json', 'csv'),
  ).action((file: string, o: { type: string; format?: string; offset?: string; count?: string }) => on(file, () => queryDecode(file, o, print)));
  rangeOptions(
    query
      .command('timings')
      .description('timestamp durations: consecutive marks, or --pairs of [begin, end]; summary, or --format csv per duration')
      .argument('<file>')
      .requiredOption('--frequency <hz>', 'ID3D12CommandQueue::GetTimestampFrequency')
      .option('--pairs', 'the stamps are [begin, end] pairs')
      .option('--format <format>', 'summary or csv', 'summary'),
  ).action((file: string, o: { frequency: string; pairs?: boolean; format?: string; offset?: string; count?: string }) => on(file, () => queryTimings(file, o, print)));
  rangeOptions(
    query.command('sum').description('field-wise sums of counter results (occlusion, pipeline and SO statistics)').argument('<file>').requiredOption('--type <type>', 'query type'),
  ).action((file: string, o: { type: string; offset?: string; count?: string }) => on(file, () => querySum(file, o, print)));

  const ddi = program.command('ddi').description('DDI and feature structures (work-graph node outputs, render-pass preserve-local, D3D12_OPTIONS)');
  ddi
    .command('layout')
    .description('size, alignment and every field offset of a structure')
    .argument('<type>', 'node-output, node-id, record-dispatch-grid, node-list-entry, node, shader-node, broadcasting-/coalescing-/thread-launch-node-properties, preserve-local-parameters, d3d12-options, cross-node')
    .option('--abi <abi>', 'x64 or x86', 'x64')
    .option('--json', 'print JSON')
    .action((type: string, o: { abi?: string; json?: boolean }) => ddiLayout(type, o, print));
  ddi
    .command('decode')
    .description('decode a memory image (relocatable for structures with pointers, see docs/ddi-images.md) to JSON')
    .argument('<type>')
    .argument('<file>')
    .option('--abi <abi>', 'x64 or x86', 'x64')
    .option('--json', 'print JSON (the only output form)')
    .action((type: string, file: string, o: { abi?: string }) => on(file, () => ddiDecode(type, file, o, print)));
  ddi
    .command('encode')
    .description('encode the JSON form to a memory image')
    .argument('<type>')
    .argument('<file.json>')
    .option('--abi <abi>', 'x64 or x86', 'x64')
    .requiredOption('-o, --output <out>', 'output file')
    .action((type: string, file: string, o: { abi?: string; output: string }) => on(file, () => ddiEncode(type, file, o)));
  ddi
    .command('validate')
    .description('check the documented constraints; exit 0 valid, 1 with one line per violation (type render-passes: a pass sequence)')
    .argument('<type>')
    .argument('<file.json>')
    .action((type: string, file: string) => on(file, () => ddiValidate(type, file, print)));
  ddi
    .command('node-outputs')
    .description("the D3D12DDI_NODE_OUTPUT_0108 descriptions the runtime builds for every node of a DXIL library (from its RDAT part)")
    .argument('<lib>')
    .option('--json', 'print JSON')
    .action((file: string, o: { json?: boolean }) => on(file, () => ddiNodeOutputs(file, o, print)));

  program
    .command('hash')
    .description('show, check or fix the container digest')
    .argument('<file>')
    .option('--check', 'exit 0 only when the stored digest is right')
    .option('--fix', 'write a copy with the right digest (needs -o)')
    .option('-o, --output <out>', 'output file for --fix')
    .addOption(lenient)
    .action((file: string, o: { check?: boolean; fix?: boolean; output?: string; lenient?: boolean }) => on(file, () => hash(file, o, print)));

  program
    .command('extract')
    .description('write the RTS0 part of a shader as a root-signature-only container (like dxc -extractrootsignature, with a real digest)')
    .argument('<shader>')
    .requiredOption('-o, --output <out>', 'output file')
    .option('--raw', 'write the bare RTS0 part')
    .action((shader: string, o: { output: string; raw?: boolean }) => on(shader, () => extract(shader, o)));
  program
    .command('strip')
    .description('remove the RTS0 part (like dxc -Qstrip_rootsignature)')
    .argument('<shader>')
    .requiredOption('-o, --output <out>', 'output file')
    .action((shader: string, o: { output: string }) => on(shader, () => strip(shader, o)));
  program
    .command('embed')
    .description('set the RTS0 part from a container or bare part (replaced in place, or appended before PRIV)')
    .argument('<shader>')
    .argument('<rs>')
    .requiredOption('-o, --output <out>', 'output file')
    .option('--append', 'remove any RTS0 and append the new one, as dxc -setrootsignature orders parts')
    .action((shader: string, rs: string, o: { output: string; append?: boolean }) => embed(shader, rs, o));
  return program;
}

/** Runs the CLI and returns the exit status (never calls process.exit itself). */
export function run(argv: readonly string[]): number {
  const program = buildProgram();
  program.configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });
  try {
    program.parse(argv as string[], { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof UsageError) {
      process.stderr.write(`dxbin: ${e.message}\n`);
      return EXIT.usage;
    }
    if (e instanceof CheckFailed) {
      process.stderr.write(`dxbin: ${e.message}\n`);
      return EXIT.badInput;
    }
    if (e instanceof HlslError || e instanceof RootSignatureValidationError) {
      process.stderr.write(`dxbin: ${e.message}\n`);
      return EXIT.badInput;
    }
    if (e instanceof InputFailure) {
      process.stderr.write(`dxbin: ${e.file}: ${e.cause.message}\n`);
      return EXIT.badInput;
    }
    throw e;
  }
}
