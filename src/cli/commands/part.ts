/**
 * `dxbin part list | extract NAME | remove NAME | add NAME DATA`: part surgery on containers, as
 * llvm-objcopy does it for DXContainer (--dump-section, --remove-section, --add-section). The
 * digest of an edited container is recomputed when the input's was valid (a sentinel is kept,
 * anything else is zero), as DXC's container builder does.
 */
import { Argument } from 'commander';
import { S } from '../schema.js';
import { codecs, partIndex, printable, programBitcode, withPart, withoutPart, writeEdited, decodePart, partDataOffset, DecodeError, type ParsedContainer } from '../../index.js';
import type { FileCommand } from '../command.js';
import { InputError, UsageError } from '../errors.js';
import { parseContainerFile } from './shared.js';

const nameArgument = () => new Argument('<name>', 'the part FourCC (e.g. DXIL, RTS0, ILDN)');
const checkName = (name: string) => {
  if (typeof name !== 'string' || name.length !== 4 || /[^\x20-\x7e]/.test(name)) throw new UsageError(`a part name is four printable ASCII characters, got ${JSON.stringify(name)}`);
};

/**
 * The index of the one part named `name` in `c`: the library's lookup (partIndex) refuses a
 * repeated name (DecodeError duplicate-part, naming both parts and their offsets); a missing
 * part is InputError no-part.
 */
function onePart(file: string, c: ParsedContainer, name: string): number {
  const at = partIndex(c, name);
  if (at < 0) throw new InputError(file, 'no-part', `the container has no ${printable(name)} part`);
  return at;
}

export const partList: FileCommand<{ lenient?: boolean }> = {
  kind: 'files',
  path: ['part', 'list'],
  description: 'list the parts: name, offset, size and what the rows read them as',
  examples: ['dxbin part list shader.cso', "dxbin part list 'shaders/*.cso' --json"],
  input: 'file',
  schema: { parts: S.arr(S.object({ name: S.str, offset: S.int, size: S.int, what: S.str, kind: S.str })) },
  options: (c) => c.option('--lenient', 'accept containers as vkd3d does (gaps, parts in any order)'),
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    const c = parseContainerFile(file, bytes, { mode: ctx.options.lenient ? 'lenient' : 'strict' });
    const parts = c.parts.map((p, i) => {
      let kind: string;
      try {
        kind = decodePart(p.name, p.data, { base: partDataOffset(c, i) }).kind;
      } catch (e) {
        if (!(e instanceof DecodeError) || e.code === 'limit-exceeded') throw e;
        kind = 'does not decode';
      }
      return { name: printable(p.name), offset: c.layout.partOffsets[i]!, size: p.data.byteLength, what: codecs.PART_KINDS.find((k) => k.fourCC === p.name)?.what ?? 'unknown part', kind };
    });
    for (const p of parts) await ctx.print(`${printable(p.name)}  ${String(p.offset).padStart(8)}  ${String(p.size).padStart(8)}  ${p.what} (${p.kind})`);
    return { parts };
  },
};

export const partExtract: FileCommand<{ bitcode?: boolean }> = {
  kind: 'files',
  path: ['part', 'extract'],
  description: "write one part's data (like llvm-objcopy --dump-section); --bitcode writes a DXIL program's LLVM bitcode alone",
  examples: ['dxbin part extract ILDN shader.cso -o name.bin', 'dxbin part extract DXIL shader.cso --bitcode -o shader.bc'],
  input: 'shader',
  leading: () => [nameArgument()],
  schema: { name: S.str, output: S.str, size: S.int, bitcode: S.bool },
  writes: { required: true, ext: (o) => (o.bitcode ? '.bc' : '.bin') },
  options: (c) => c.option('--bitcode', 'the LLVM bitcode of a DXIL, ILDB or STAT program part, without its program header'),
  check(_o, args) {
    checkName(args[0]!);
  },
  async run(file, ctx) {
    const name = ctx.args[0]!;
    const bytes = await ctx.read(file);
    const c = parseContainerFile(file, bytes);
    const at = onePart(file, c, name);
    let data = c.parts[at]!.data;
    if (ctx.options.bitcode) {
      if (!codecs.PART_KINDS.some((k) => k.fourCC === name) || !['DXIL', 'ILDB', 'STAT'].includes(name)) throw new UsageError(`--bitcode needs a program part (DXIL, ILDB or STAT), not ${printable(name)}`);
      if (name === 'STAT' && decodePart(name, data).kind !== 'program') throw new InputError(file, 'no-part', 'this STAT part is DXBC statistics, not a DXIL program');
      data = programBitcode(data, partDataOffset(c, at));
    }
    await ctx.write(ctx.output!, data, [file]);
    return { name: printable(name), output: ctx.output, size: data.byteLength, bitcode: ctx.options.bitcode === true };
  },
};

export const partRemove: FileCommand = {
  kind: 'files',
  path: ['part', 'remove'],
  description: 'remove a part (like llvm-objcopy --remove-section); the digest stays valid',
  examples: ['dxbin part remove ILDN shader.cso -o out.cso', "dxbin part remove STAT 'shaders/*.cso' --out-dir stripped/"],
  input: 'shader',
  leading: () => [nameArgument()],
  schema: { name: S.str, output: S.str, size: S.int },
  writes: { required: true, ext: () => undefined },
  check(_o, args) {
    checkName(args[0]!);
  },
  async run(file, ctx) {
    const name = ctx.args[0]!;
    const bytes = await ctx.read(file);
    const c = parseContainerFile(file, bytes);
    onePart(file, c, name);
    const data = writeEdited(withoutPart(c, name), c, bytes);
    await ctx.write(ctx.output!, data, [file]);
    return { name: printable(name), output: ctx.output, size: data.byteLength };
  },
};

export const partAdd: FileCommand<{ replace?: boolean }> = {
  kind: 'files',
  path: ['part', 'add'],
  description: 'add a part from a file (like llvm-objcopy --add-section), before PRIV; --replace replaces one in place; the digest stays valid',
  examples: ['dxbin part add PRIV notes.bin shader.cso -o out.cso', 'dxbin part add RTS0 rs.rts0 shader.cso --replace -o out.cso'],
  input: 'shader',
  leading: () => [nameArgument(), new Argument('<data>', 'the file holding the part data')],
  schema: { name: S.str, output: S.str, size: S.int, replaced: S.bool },
  writes: { required: true, ext: () => undefined },
  options: (c) => c.option('--replace', 'replace an existing part of the name where it stands'),
  check(_o, args, inputs) {
    checkName(args[0]!);
    if (args[1] === '-' && inputs.includes('-')) throw new UsageError('standard input (-) can be read only once');
  },
  async run(file, ctx) {
    const [name, dataFile] = ctx.args as [string, string];
    const bytes = await ctx.read(file);
    const c = parseContainerFile(file, bytes);
    const data = await ctx.read(dataFile);
    const exists = partIndex(c, name) >= 0;
    if (exists && !ctx.options.replace) throw new InputError(file, 'no-part', `the container already has a ${printable(name)} part (remove it first, or --replace)`);
    const out = writeEdited(withPart(c, name, data, { replace: ctx.options.replace === true }), c, bytes);
    await ctx.write(ctx.output!, out, [file, dataFile]);
    return { name: printable(name), output: ctx.output, size: out.byteLength, replaced: exists };
  },
};
