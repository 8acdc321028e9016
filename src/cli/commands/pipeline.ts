/**
 * `dxbin pipeline encode | decode`: pipeline state stream images (D3D12_PIPELINE_STATE_STREAM_DESC,
 * relocatable, x64 or x86; docs/formats/pipeline.md). encode takes a pipeline description (its
 * files read relative to it) or a stream's JSON form (a list of subobjects); decode prints the
 * stream's JSON form, which keeps every byte.
 */
import { Option } from 'commander';
import { S } from '../schema.js';
import { decodeStream, encodeStream, parseJsonText, pipelineFromJson, streamFromJson, streamToJson, type Subobject } from '../../index.js';
import { ABIS, type Abi } from '../../ddi/index.js';
import type { FileCommand } from '../command.js';
import { readPipelineFiles } from './verify-pipeline.js';
import { utf8 } from './shared.js';

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
    const json = parseJsonText(utf8(await ctx.read(file)), file);
    let subobjects: Subobject[];
    if (Array.isArray(json)) subobjects = streamFromJson(json);
    else {
      const files = await readPipelineFiles(json, file, ctx);
      subobjects = pipelineFromJson(json, { read: (p) => files.get(p)! }).subobjects;
    }
    const data = encodeStream(subobjects, ctx.options.abi);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, abi: ctx.options.abi, size: data.byteLength, subobjects: subobjects.map((s) => s.type) };
  },
};

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
