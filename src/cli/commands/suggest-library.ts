/** The library path of `dxbin rootsig suggest LIB... [--local-space N]` (src/rdat/suggest.ts). */
import { describeLibrary, encodeRootSignature, printRootSignature, printable, printableJson, readLibraryRdat, rootCost, rootSignatureContainer, suggestLibraryRootSignatures } from '../../index.js';
import { EXIT, type ExitCode } from '../exit.js';
import { writeOutput } from '../io.js';
import { UsageError } from '../errors.js';
import { FORMAT_VERSION } from '../schema.js';
import type { Streams } from '../io.js';

/** Suggests for the libraries given as `[file, bytes]`; prints HLSL (or JSON), `-o` writes the global one. */
export async function suggestForLibraries(
  inputs: readonly [string, Uint8Array][],
  o: { rootDescriptors?: boolean; output?: string; raw?: boolean; multiline?: boolean; json?: boolean; localSpace?: string },
  streams: Streams,
): Promise<ExitCode> {
  const localSpace = o.localSpace === undefined ? undefined : Number(o.localSpace);
  if (localSpace !== undefined && !(Number.isInteger(localSpace) && localSpace >= 0 && localSpace <= 0xffffffff && /^\d+$/.test(o.localSpace!))) throw new UsageError(`--local-space ${o.localSpace}: expected a register space (0 to 4294967295)`);
  const libraries = inputs.map(([, bytes]) => describeLibrary(readLibraryRdat(bytes).rdat));
  const s = suggestLibraryRootSignatures(libraries, { localSpace, rootDescriptors: o.rootDescriptors });
  if (o.output !== undefined) {
    if (!s.global) throw new UsageError('-o: no binding is left for a global root signature');
    const part = encodeRootSignature(s.global);
    await writeOutput(o.output, o.raw ? part : rootSignatureContainer(part), inputs.map(([f]) => f), streams);
  }
  const global = s.global ? printRootSignature(s.global, { multiline: o.multiline }) : undefined;
  const locals = s.locals.map((l) => ({ export: l.export, cost: rootCost(l.rootSignature), hlsl: printRootSignature(l.rootSignature, { multiline: o.multiline }) }));
  if (o.output === '-') return EXIT.ok;
  if (o.json) {
    await streams.write(`${printableJson({ formatVersion: FORMAT_VERSION, ok: true, libraries: inputs.length, ...(s.global ? { cost: rootCost(s.global), parameters: s.global.parameters.length, hlsl: global } : {}), locals, ...(o.output ? { output: o.output } : {}) })}\n`);
  } else {
    if (global !== undefined) await streams.write(`${localSpace !== undefined ? '// global root signature\n' : ''}${global}\n`);
    for (const l of locals) await streams.write(`// local root signature of ${printable(l.export, { backslash: true })}\n${l.hlsl}\n`);
  }
  return EXIT.ok;
}
