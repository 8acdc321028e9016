/**
 * `dxbin rootsig record-layout LRS...`: the byte layout of a shader record for a local root
 * signature (the 32-byte shader identifier, then each root argument at its alignment) and the
 * stride of a shader table of such records; for a DXIL library, one layout per local root
 * signature subobject.
 */
import { S } from '../schema.js';
import { readRootSignatureSource, shaderRecordLayout, subobjectRootSignatures, type RecordLayout, printable } from '../../index.js';
import { printableText } from '../../inspect/index.js';
import type { FileCommand } from '../command.js';
import { expectRootSignatureSource } from './shared.js';
import { isLibrary } from './verify-library.js';

const FIELD = S.object({ path: S.str, type: S.str, offset: S.int, size: S.int, align: S.int, holds: S.str, register: S.str }, ['path', 'type', 'offset', 'size', 'align', 'holds']);
const LAYOUT = { local: S.bool, recordSize: S.int, stride: S.int, fitsMaxStride: S.bool, fields: S.arr(FIELD) };

/** The text lines of one layout. */
export function recordLayoutLines(title: string, layout: RecordLayout): string[] {
  const lines = [`${title}: ${layout.local ? 'local root signature' : 'root signature without LOCAL_ROOT_SIGNATURE'}: shader record of ${layout.recordSize} bytes, table stride ${layout.stride}${layout.fitsMaxStride ? '' : ' (over the 4096 maximum)'}`, '  offset  size  argument'];
  for (const f of layout.fields) lines.push(`  ${String(f.offset).padStart(6)}  ${String(f.size).padStart(4)}  ${f.type === 'IDENTIFIER' ? f.holds : `${f.path} ${f.type}: ${f.holds}${f.register ? ` (${f.register})` : ''}`}`);
  return lines;
}

export const rootsigRecordLayout: FileCommand = {
  kind: 'files',
  path: ['rootsig', 'record-layout'],
  description: 'the byte layout of a shader record for a local root signature (identifier, root arguments at their DXR alignment) and the shader table stride',
  examples: ['dxbin rootsig record-layout hitgroup-lrs.cso', 'dxbin rootsig record-layout lib.dxil --json'],
  schema: { ...LAYOUT, subobjects: S.arr(S.object({ name: S.str, ...LAYOUT })) },
  input: 'file',
  async run(file, ctx) {
    const bytes = await ctx.read(file);
    expectRootSignatureSource(file, bytes);
    if (isLibrary(bytes)) {
      const subobjects: Record<string, unknown>[] = [];
      for (const s of subobjectRootSignatures(bytes)) {
        if (s.kind !== 'LocalRootSignature') continue;
        const layout = shaderRecordLayout(readRootSignatureSource(s.bytes).rootSignature);
        for (const line of recordLayoutLines(`${printable(file)}: subobject ${printableText(s.name)}`, layout)) await ctx.print(line);
        subobjects.push({ name: s.name, ...layout });
      }
      if (subobjects.length === 0) await ctx.print(`${printable(file)}: library without local root signature subobjects`);
      return { subobjects };
    }
    const layout = shaderRecordLayout(readRootSignatureSource(bytes).rootSignature);
    for (const line of recordLayoutLines(file, layout)) await ctx.print(line);
    return { ...layout };
  },
};
