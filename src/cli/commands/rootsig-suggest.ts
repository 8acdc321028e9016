/** `dxbin rootsig suggest SHADER... [--root-descriptors] [-o OUT]`: the cheapest root signature the shaders fit. */
import { DescriptionError, encodeRootSignature, parseContainer, printRootSignature, printable, rootCost, rootSignatureContainer, shaderOf, suggestRootSignature, type SuggestInput, printableJson } from '../../index.js';
import type { OnceCommand } from '../command.js';
import { InOtherFile, InputError, UsageError } from '../errors.js';
import { EXIT } from '../exit.js';
import { inputLimit, readInput, writeOutput } from '../io.js';
import { expandInputs } from '../paths.js';
import { expectContainer } from './shared.js';
import { isLibrary } from './verify-library.js';
import { suggestForLibraries } from './suggest-library.js';

interface SuggestCliOptions {
  rootDescriptors?: boolean;
  maxInput?: string;
  output?: string;
  raw?: boolean;
  multiline?: boolean;
  localSpace?: string;
}

const NOT_VERIFIABLE_STAGES = new Set([6, 7, 8, 9, 10, 11, 12, 15]);

export const rootsigSuggest: OnceCommand<SuggestCliOptions> = {
  kind: 'once',
  path: ['rootsig', 'suggest'],
  description: 'suggest a 1.1 root signature that covers the bindings of all given shaders with the lowest root cost (printed as HLSL; -o writes the blob)',
  examples: ['dxbin rootsig suggest vs.cso ps.cso', "dxbin rootsig suggest 'build/*.cso' --root-descriptors -o rs.dxbc"],
  define: (c) =>
    c
      .argument('<shaders...>')
      .option('--root-descriptors', 'prefer root CBVs and root SRV/UAV buffers where the rules allow (faster binding, higher cost)')
      .option('-o, --output <out>', 'also write the root signature as a root-signature-only container (- for standard output)')
      .option('--raw', 'with -o: write the bare RTS0 part')
      .option('--multiline', 'print one clause per line')
      .option('--local-space <n>', 'DXIL libraries: bindings in register space N go to a local root signature per export'),
  async run(args, o, streams) {
    const files: string[] = [];
    for (const e of expandInputs(args[0] as string[])) {
      if (e.files.length === 0) throw new InputError(e.pattern, 'not-found', 'no file matches this pattern');
      for (const f of e.files) files.push(f);
    }
    const limit = inputLimit(o.maxInput);
    const shaders: SuggestInput[] = [];
    /** The file of each entry of `shaders`, so an error about shaders[i] names its file. */
    const fileOf: string[] = [];
    const libraries: [string, Uint8Array][] = [];
    for (const file of files) {
      const bytes = await readInput(file, streams, limit);
      expectContainer(file, bytes);
      if (isLibrary(bytes)) {
        libraries.push([file, bytes]);
        continue;
      }
      let s;
      try {
        s = shaderOf(parseContainer(bytes));
      } catch (e) {
        throw e instanceof InputError ? e : new InOtherFile(file, e);
      }
      if (!s.bindings || NOT_VERIFIABLE_STAGES.has(s.stage)) {
        streams.err(`dxbin: ${printable(file)}: left out (${s.bindings ? 'a library or ray-tracing shader' : 'no PSV0 part: bindings unknown'})`);
        continue;
      }
      shaders.push({ stage: s.stage, bindings: s.bindings, ...(s.features ? { features: s.features } : {}) });
      fileOf.push(file);
    }
    if (libraries.length) {
      if (shaders.length) throw new UsageError('give DXIL libraries or shaders, not both');
      return suggestForLibraries(libraries, o, streams);
    }
    if (o.localSpace !== undefined) throw new UsageError('--local-space is for DXIL libraries');
    if (shaders.length === 0) throw new UsageError('no shader with known bindings to suggest a root signature for');
    let rs;
    try {
      rs = suggestRootSignature(shaders, { rootDescriptors: o.rootDescriptors });
    } catch (e) {
      const i = e instanceof DescriptionError ? /^shaders\[(\d+)\]/.exec(e.path)?.[1] : undefined;
      throw i === undefined ? e : new InOtherFile(fileOf[Number(i)]!, e);
    }
    const text = printRootSignature(rs, { multiline: o.multiline });
    if (o.output !== undefined) {
      const part = encodeRootSignature(rs);
      await writeOutput(o.output, o.raw ? part : rootSignatureContainer(part), files, streams);
    }
    if (o.output !== '-') {
      if (o.json) await streams.write(`${printableJson({ ok: true, shaders: shaders.length, cost: rootCost(rs), parameters: rs.parameters.length, hlsl: text, ...(o.output ? { output: o.output } : {}) })}\n`);
      else await streams.write(`${text}\n`);
    }
    return EXIT.ok;
  },
};
