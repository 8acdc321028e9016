/** `dxbin ddi layout | decode | encode | validate | node-outputs`. */
import { S, FORMAT_VERSION } from '../schema.js';
import { Argument, Option } from 'commander';
import { DecodeError, equalBytes, printable, printableJson } from '../../index.js';
import { formatViolation } from '../../index.js';
import {
  ABIS,
  STRUCTS,
  ddiFromJson,
  ddiToJson,
  decodeImage,
  encodeImage,
  libraryNodeOutputs,
  renderPassesFromJson,
  structDef,
  structLayout,
  validateDdi,
  validateRenderPasses,
  type Abi,
} from '../../ddi/index.js';
import { parseJsonText } from '../../index.js';
import type { FileCommand, OnceCommand } from '../command.js';
import { CheckFailed, InputError } from '../errors.js';
import { EXIT } from '../exit.js';
import { expectContainer, utf8 } from './shared.js';

const RENDER_PASSES = 'render-passes';
const structNames = () => STRUCTS.map((s) => s.cli);
const abiOption = () => new Option('--abi <abi>', 'the ABI of the image').choices(ABIS).default('x64');
const typeArgument = (extra: readonly string[] = []) => new Argument('<type>', 'the structure').choices([...structNames(), ...extra]);
const typeName = (cli: string) => structDef(cli).name;

export const ddiLayout: OnceCommand<{ abi: Abi }> = {
  kind: 'once',
  path: ['ddi', 'layout'],
  description: 'size, alignment and every field offset of a structure',
  examples: ['dxbin ddi layout node-output --abi x86', 'dxbin ddi layout d3d12-options --json'],
  schema: { type: S.str, abi: S.str, size: S.int, align: S.int, fields: S.arr(S.object({ name: S.str, offset: S.int, size: S.int })) },
  define: (c) => c.addArgument(typeArgument()).addOption(abiOption()),
  async run(args, o, streams) {
    const layout = structLayout(typeName(args[0] as string), o.abi);
    if (o.json) {
      await streams.write(`${JSON.stringify({ formatVersion: FORMAT_VERSION, ok: true, type: layout.name, abi: layout.abi, size: layout.size, align: layout.align, fields: layout.fields.map((f) => ({ name: f.name, offset: f.offset, size: f.size })) })}\n`);
      return EXIT.ok;
    }
    await streams.write(`${layout.name} (${layout.abi}): size ${layout.size}, align ${layout.align}\n`);
    for (const f of layout.fields) await streams.write(`  ${String(f.offset).padStart(4)}  ${String(f.size).padStart(3)}  ${f.name}\n`);
    return EXIT.ok;
  },
};

export const ddiDecode: FileCommand<{ abi: Abi }> = {
  kind: 'files',
  path: ['ddi', 'decode'],
  description: 'decode a memory image (relocatable for structures with pointers, see docs/ddi-images.md) to JSON',
  examples: ['dxbin ddi decode node-output image.bin --abi x64', "dxbin ddi decode d3d12-options 'caps/*.bin' --json"],
  input: 'file',
  schema: { type: S.str, abi: S.str, value: S.obj },
  leading: () => [typeArgument()],
  options: (c) => c.addOption(abiOption()),
  async run(file, ctx) {
    const name = typeName(ctx.args[0]!);
    const bytes = await ctx.read(file);
    const abi = ctx.options.abi;
    const other = ABIS.find((a) => a !== abi)!;
    // exact on the other ABI: decodes there and writes back to these very bytes
    const exactOn = (a: Abi) => {
      try {
        return equalBytes(encodeImage(name, decodeImage(name, bytes, a), a), bytes);
      } catch {
        return false;
      }
    };
    const mismatch = () => new InputError(file, 'foreign', `this is not a ${name} image for ${abi}; it is an exact ${other} image (check --abi)`, { field: name, offset: 0 });
    let value;
    try {
      value = decodeImage(name, bytes, abi);
    } catch (e) {
      throw exactOn(other) ? mismatch() : e;
    }
    if (!equalBytes(encodeImage(name, value, abi), bytes) && exactOn(other)) throw mismatch();
    const json = ddiToJson(name, value);
    await ctx.print(printableJson(json, 2));
    return { type: name, abi, value: json };
  },
};

export const ddiEncode: FileCommand<{ abi: Abi }> = {
  kind: 'files',
  path: ['ddi', 'encode'],
  description: 'encode the JSON form to a memory image',
  examples: ['dxbin ddi encode node-output out.json --abi x86 -o image.bin'],
  input: 'file.json',
  schema: { output: S.str, type: S.str, abi: S.str, size: S.int },
  leading: () => [typeArgument()],
  writes: { required: true, ext: () => '.bin' },
  options: (c) => c.addOption(abiOption()),
  async run(file, ctx) {
    const name = typeName(ctx.args[0]!);
    const json = parseJsonText(utf8(await ctx.read(file)));
    const data = encodeImage(name, ddiFromJson(name, json), ctx.options.abi);
    await ctx.write(ctx.output!, data, [file]);
    return { output: ctx.output, type: name, abi: ctx.options.abi, size: data.byteLength };
  },
};

export const ddiValidate: FileCommand = {
  kind: 'files',
  path: ['ddi', 'validate'],
  description: 'check the documented constraints; exit 0 valid, 1 with one line per violation (type render-passes: a pass sequence)',
  examples: ['dxbin ddi validate node-output out.json', 'dxbin ddi validate render-passes passes.json --json'],
  input: 'file.json',
  schema: { type: S.str, valid: S.bool, violations: S.arr(S.obj) },
  leading: () => [typeArgument([RENDER_PASSES])],
  async run(file, ctx) {
    const type = ctx.args[0]!;
    const json = parseJsonText(utf8(await ctx.read(file)));
    const violations = type === RENDER_PASSES ? validateRenderPasses(renderPassesFromJson(json)) : validateDdi(typeName(type), ddiFromJson(typeName(type), json));
    for (const v of violations) await ctx.print(formatViolation(v));
    const result = { type, valid: violations.length === 0, violations };
    if (violations.length > 0) throw new CheckFailed(`${violations.length} violation${violations.length === 1 ? '' : 's'}`, result);
    return result;
  },
};

export const ddiNodeOutputs: FileCommand = {
  kind: 'files',
  path: ['ddi', 'node-outputs'],
  description: 'the D3D12DDI_NODE_OUTPUT_0108 descriptions the runtime builds for every node of a DXIL library (from its RDAT part)',
  examples: ['dxbin ddi node-outputs lib.dxil', "dxbin ddi node-outputs 'libs/*.dxil' --json"],
  input: 'lib',
  schema: { nodes: S.arr(S.obj) },
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    expectContainer(file, bytes);
    let nodes;
    try {
      nodes = libraryNodeOutputs(bytes);
    } catch (e) {
      if (e instanceof DecodeError && e.code === 'missing-part') throw new InputError(file, 'no-part', e.detail);
      throw e;
    }
    for (const n of nodes) {
      await ctx.print(`${printable(n.exportName)}: node ${printable(n.id.Name)}[${n.id.ArrayIndex}], ${n.launch} launch, ${n.outputs.length} output${n.outputs.length === 1 ? '' : 's'}`);
      for (const x of n.outputs) {
        const j = ddiToJson('D3D12DDI_NODE_OUTPUT_0108', x) as Record<string, unknown>;
        const name = x.FinalName as { Name: string; ArrayIndex: number };
        const budget = x.pMaxRecords !== null ? `MaxRecords ${x.pMaxRecords as number}` : `MaxRecordsSharedWith output ${x.pMaxRecordsSharedWithOutputIndex as number}`;
        const array = x.ArraySize === 0xffffffff ? 'unbounded' : String(x.ArraySize);
        await ctx.print(`  [${x.OutputIndex as number}] -> ${printable(name.Name)}[${name.ArrayIndex}] ${String(j.NodeIOKind)} record ${x.RecordSizeInBytes as number} B, ${budget}, ArraySize ${array}${x.bAllowSparseNodes ? ', sparse' : ''}${x.pRecordDispatchGrid ? ', SV_DispatchGrid' : ''}`);
      }
    }
    return { nodes: nodes.map((n) => ({ ...n, outputs: n.outputs.map((x) => ddiToJson('D3D12DDI_NODE_OUTPUT_0108', x)) })) };
  },
};
