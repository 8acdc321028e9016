/**
 * `dxbin pipeline encode | decode`: pipeline state stream images (D3D12_PIPELINE_STATE_STREAM_DESC,
 * relocatable, x64 or x86; docs/formats/pipeline.md). encode takes a pipeline description (its
 * files read relative to it) or a stream's JSON form (a list of subobjects); decode prints the
 * stream's JSON form, which keeps every byte.
 */
import { Option } from 'commander';
import { FORMAT_VERSION, S } from '../schema.js';
import { decodeStream, encodeStream, printableJson, streamFromJson, streamToJson, type Subobject } from '../../index.js';
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
    if (!ctx.options.json) {
      await printIndented(json, (text) => ctx.print(text));
      return { abi: ctx.options.abi, subobjects: json as Record<string, unknown>[] };
    }
    // the answer line the runner prints for a result (printableJson of it), written a piece at a
    // time: the one string of it, and its bytes, were each several times the image
    await writeJsonText({ formatVersion: FORMAT_VERSION, file, ok: true, abi: ctx.options.abi, subobjects: json }, (text) => ctx.streams.write(text));
    await ctx.streams.write('\n');
    return undefined;
  },
};

/**
 * About how many characters printIndented and writeJsonText give their sink at a time: a piece's
 * small strings die young at this size (at 1 MiB they outlived the young generation and the old
 * one grew by several times the output before it was collected).
 */
const PRINT_CHARS = 1 << 16;

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
};
/** A value JSON.stringify leaves out of an object (and writes as null in a list). */
const unwritten = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * Prints `JSON.stringify(value, null, 2)` as whole lines about PRINT_CHARS at a time (each `print`
 * ends its text with a newline, so the lines come out as one text would), without making the text
 * whole: a decoded stream's JSON form is several times its image, and the one string, its escaped
 * copy and its bytes were each that size.
 */
export function printIndented(value: unknown, print: (text: string) => Promise<void>, chunk = PRINT_CHARS): Promise<void> {
  return walkJson(value, print, chunk, '  ', (v) => JSON.stringify(v, null, 2));
}

/**
 * Writes `printableJson(value)` (compact JSON, the characters a terminal reads escaped) to `write`
 * in pieces of about PRINT_CHARS characters, cut between list items and object members only, so
 * the pieces joined are that one text and no piece holds it whole. `--json` of `pipeline decode`.
 */
export function writeJsonText(value: unknown, write: (text: string) => Promise<void>, chunk = PRINT_CHARS): Promise<void> {
  return walkJson(value, write, chunk, '', (v) => (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'null') : typeof v === 'boolean' || v === null ? String(v) : printableJson(v)));
}

/**
 * JSON text of `value` given to `put` a piece at a time. With a `step` (the indent of one level)
 * it is `JSON.stringify(value, null, step.length)` in whole lines: a line break where a piece ends
 * is `put`'s to write (printIndented's sink ends each piece with one). Without, the compact text,
 * cut between items. Plain objects and lists are walked with an explicit stack; anything else is
 * `leaf`'s text (JSON.stringify's or printableJson's, its lines indented to where it stands), and
 * so is each key.
 */
async function walkJson(value: unknown, put: (text: string) => Promise<void>, chunk: number, step: string, leaf: (v: unknown) => string | undefined): Promise<void> {
  interface Open {
    list?: readonly unknown[];
    object?: Record<string, unknown>;
    keys?: string[];
    next: number;
    indent: string;
  }
  const stack: Open[] = [];
  const colon = step ? ': ' : ':';
  let pieces: string[] = [];
  let size = 0;
  let line = '';
  /** Where the indented text breaks its line (the compact text: between items) before `indent`. */
  const breakLine = async (indent: string) => {
    pieces.push(line);
    size += line.length + (step ? 1 : 0);
    line = indent;
    if (size >= chunk) {
      const text = pieces.join('');
      pieces = [];
      size = 0;
      await put(text);
    } else if (step) pieces.push('\n');
  };
  /** Writes `v` where the line stands; opens it (on the stack) when it is a list or object with items. */
  const write = (v: unknown, indent: string, inList: boolean) => {
    if (typeof v === 'object' && v !== null && (Array.isArray(v) || isPlainObject(v))) {
      if (Array.isArray(v)) {
        if (v.length === 0) line += '[]';
        else {
          line += '[';
          stack.push({ list: v, next: 0, indent });
        }
        return;
      }
      const keys = Object.keys(v).filter((k) => !unwritten(v[k]));
      if (keys.length === 0) line += '{}';
      else {
        line += '{';
        stack.push({ object: v, keys, next: 0, indent });
      }
      return;
    }
    if (inList && unwritten(v)) line += 'null';
    else {
      const text = leaf(v);
      line += text === undefined ? 'null' : step ? text.replaceAll('\n', `\n${indent}`) : text;
    }
  };
  write(value, '', true);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const n = top.list ? top.list.length : top.keys!.length;
    if (top.next < n) {
      const i = top.next++;
      if (i > 0) line += ',';
      const inner = `${top.indent}${step}`;
      await breakLine(inner);
      if (top.list) write(top.list[i], inner, true);
      else {
        const key = top.keys![i]!;
        line += `${leaf(key)}${colon}`;
        write(top.object![key], inner, false);
      }
      continue;
    }
    await breakLine(top.indent);
    line += top.list ? ']' : '}';
    stack.pop();
  }
  pieces.push(line);
  await put(pieces.join(''));
}
