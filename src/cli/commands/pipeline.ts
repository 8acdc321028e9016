/**
 * `dxbin pipeline encode | decode`: pipeline state stream images (D3D12_PIPELINE_STATE_STREAM_DESC,
 * relocatable, x64 or x86; docs/formats/pipeline.md). encode takes a pipeline description (its
 * files read relative to it) or a stream's JSON form (a list of subobjects); decode prints the
 * stream's JSON form, which keeps every byte.
 */
import { Option } from 'commander';
import { S } from '../schema.js';
import { decodeStream, encodeStream, streamFromJson, streamToJson, type Subobject } from '../../index.js';
import { ABIS, type Abi } from '../../ddi/index.js';
import type { FileCommand, RunContext } from '../command.js';
import { pipelineOfJson, readJsonFile } from './verify-pipeline.js';

const abiOption = () => new Option('--abi <abi>', 'the ABI of the image').choices(ABIS).default('x64');

export const pipelineEncode: FileCommand<{ abi: Abi }> = {
  kind: 'files',
  path: ['pipeline', 'encode'],
  description: 'a pipeline description (JSON; its files relative to it) or a stream\'s JSON form to a pipeline state stream image',
  examples: ['dxbin pipeline encode pipeline.json --abi x64 -o stream.bin'],
  input: 'file.json',
  schema: { output: S.str, abi: S.str, size: S.int, subobjects: S.arr(S.str) },
  writes: { required: true, ext: () => '.bin' },
  options: (c) => c.addOption(abiOption()),
  async run(file, ctx) {
    const subobjects = await subobjectsOf(file, ctx);
    const data = encodeStream(subobjects, ctx.options.abi);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, abi: ctx.options.abi, size: data.byteLength, subobjects: subobjects.map((s) => s.type) };
  },
};

/** The subobjects of a description or a stream's JSON form in `file` (the JSON not kept past them). */
async function subobjectsOf(file: string, ctx: Pick<RunContext<unknown>, 'read'>): Promise<Subobject[]> {
  const json = await readJsonFile(file, ctx);
  return Array.isArray(json) ? streamFromJson(json) : (await pipelineOfJson(json, file, ctx)).subobjects;
}

export const pipelineDecode: FileCommand<{ abi: Abi }> = {
  kind: 'files',
  path: ['pipeline', 'decode'],
  description: 'a pipeline state stream image to its JSON form (every subobject, bytes as hex)',
  examples: ['dxbin pipeline decode stream.bin --abi x86', "dxbin pipeline decode 'streams/*.bin' --json"],
  input: 'file',
  schema: { abi: S.str, subobjects: S.arr(S.obj) },
  options: (c) => c.addOption(abiOption()),
  async run(file, ctx) {
    const json = streamToJson(decodeStream(await ctx.read(file), ctx.options.abi));
    await ctx.print(JSON.stringify(json, null, 2));
    return { abi: ctx.options.abi, subobjects: json as Record<string, unknown>[] };
  },
};
