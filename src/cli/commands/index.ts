/**
 * Every dxbin command, one line each: to add a command, write its file (a `FileCommand` or
 * `OnceCommand`, see ../command.ts) and list it here with its path and a loader. Groups (`rootsig`,
 * `query`, `ddi`) come from GROUPS in ../command.ts. The order is the order of `dxbin --help`.
 *
 * A command's file is imported only when the command runs (or help lists it): in the built CLI
 * each is its own chunk, so `dxbin rootsig decode` never loads the inspector, the fuzzer, the DDI
 * tables or the query code (issue 27). The path here is checked against the loaded file's own
 * (test/cli-lazy.test.ts), so the two cannot drift.
 */
import type { CliCommand } from '../command.js';

/** A command as the registry knows it before its file is loaded: where it sits, and how to load it. */
export interface CommandEntry {
  readonly path: readonly string[];
  readonly load: () => Promise<CliCommand>;
}

const entry = (path: readonly string[], load: () => Promise<CliCommand>): CommandEntry => ({ path, load });

export const COMMAND_ENTRIES: readonly CommandEntry[] = [
  entry(['inspect'], async () => (await import('./inspect.js')).inspect),
  entry(['verify'], async () => (await import('./verify.js')).verify),
  entry(['rootsig', 'decode'], async () => (await import('./rootsig-decode.js')).rootsigDecode),
  entry(['rootsig', 'encode'], async () => (await import('./rootsig-encode.js')).rootsigEncode),
  entry(['rootsig', 'convert'], async () => (await import('./rootsig-convert.js')).rootsigConvert),
  entry(['rootsig', 'validate'], async () => (await import('./rootsig-validate.js')).rootsigValidate),
  entry(['rootsig', 'compile'], async () => (await import('./rootsig-compile.js')).rootsigCompile),
  entry(['rootsig', 'preprocess'], async () => (await import('./rootsig-preprocess.js')).rootsigPreprocess),
  entry(['rootsig', 'decompile'], async () => (await import('./rootsig-decompile.js')).rootsigDecompile),
  entry(['rootsig', 'suggest'], async () => (await import('./rootsig-suggest.js')).rootsigSuggest),
  entry(['rootsig', 'record-layout'], async () => (await import('./rootsig-record-layout.js')).rootsigRecordLayout),
  entry(['query', 'decode'], async () => (await import('./query.js')).queryDecode),
  entry(['query', 'timings'], async () => (await import('./query.js')).queryTimings),
  entry(['query', 'sum'], async () => (await import('./query.js')).querySum),
  entry(['ddi', 'layout'], async () => (await import('./ddi.js')).ddiLayout),
  entry(['ddi', 'decode'], async () => (await import('./ddi.js')).ddiDecode),
  entry(['ddi', 'encode'], async () => (await import('./ddi.js')).ddiEncode),
  entry(['ddi', 'validate'], async () => (await import('./ddi.js')).ddiValidate),
  entry(['ddi', 'node-outputs'], async () => (await import('./ddi.js')).ddiNodeOutputs),
  entry(['hash'], async () => (await import('./hash.js')).hash),
  entry(['extract'], async () => (await import('./parts.js')).extract),
  entry(['strip'], async () => (await import('./parts.js')).strip),
  entry(['embed'], async () => (await import('./parts.js')).embed),
  entry(['part', 'list'], async () => (await import('./part.js')).partList),
  entry(['part', 'extract'], async () => (await import('./part.js')).partExtract),
  entry(['part', 'remove'], async () => (await import('./part.js')).partRemove),
  entry(['part', 'add'], async () => (await import('./part.js')).partAdd),
  entry(['pipeline', 'encode'], async () => (await import('./pipeline.js')).pipelineEncode),
  entry(['pipeline', 'decode'], async () => (await import('./pipeline.js')).pipelineDecode),
  entry(['fuzz'], async () => (await import('./fuzz.js')).fuzz),
  entry(['batch'], async () => (await import('./batch.js')).batch),
];

/** Every command, loaded (help listings, the schema script, tests). */
export function loadAllCommands(): Promise<CliCommand[]> {
  return Promise.all(COMMAND_ENTRIES.map((e) => e.load()));
}
