/**
 * The text listing of a decoded part (`dxbin inspect`): a few lines per part, every string from
 * the input through printableText.
 */
import type { DecodedPart } from '../parts/part.js';
import type { Row } from '../rows/record.js';
import { printableText } from './hex.js';
import { expectObject, expectString } from '../bytes/check.js';
import { bytesHex } from '../bytes/hex.js';

const hex = (v: unknown) => `0x${(typeof v === 'bigint' ? v : BigInt(Number(v))).toString(16)}`;
const str = (v: unknown) => printableText(String(v));
const hexBytes = (b: unknown) => (b instanceof Uint8Array ? bytesHex(b) : '');

/** One line per element of a signature. */
function signatureLines(p: DecodedPart): string[] {
  const els = (p.blocks.elements as Row[]) ?? [];
  const lines = [`${els.length} element${els.length === 1 ? '' : 's'}`];
  for (const e of els) {
    const stream = e.stream !== undefined && e.stream !== 0 ? ` stream ${e.stream as number}` : '';
    const prec = e.minPrecision !== undefined && e.minPrecision !== 0 ? ` min precision ${str(e.minPrecisionName ?? e.minPrecision)}` : '';
    lines.push(`  ${str(e.semanticName)}${e.semanticIndex as number} ${str(e.systemValueName ?? e.systemValue)} ${str(e.componentTypeName ?? e.componentType)} r${e.register as number} mask ${hex(e.mask)} rw ${hex(e.rwMask)}${stream}${prec}`);
  }
  return lines;
}

/**
 * The listing of a decoded part (decodePart's answer), without its header line (which the caller prints).
 * @throws {DescriptionError} bad-type when `p` is not a decoded part
 */
export function partLines(p: DecodedPart): string[] {
  expectObject(p, 'part');
  expectString(p.kind, 'part.kind');
  expectObject(p.blocks, 'part.blocks');
  const b = p.blocks;
  const one = (k: string) => b[k] as Row;
  switch (p.kind) {
    case 'signature':
      return signatureLines(p);
    case 'featureInfo': {
      const f = one('featureInfo');
      const names = f.flagsNames as string[];
      return [`flags ${hex(f.flags)}${names.length ? ` (${names.join(' | ')})` : ''}`];
    }
    case 'hash': {
      const h = one('hash');
      return [`flags ${hex(h.flags)}${(h.flagsNames as string[]).length ? ` (${(h.flagsNames as string[]).join(' | ')})` : ''}, digest ${hexBytes(h.digest)}`];
    }
    case 'debugName':
      return [`name ${JSON.stringify(str(one('debugName').name))}`];
    case 'compilerVersion': {
      const v = one('compilerVersion');
      return [`${v.major as number}.${v.minor as number}, flags ${hex(v.versionFlags)}, commit count ${v.commitCount as number}, commit ${JSON.stringify(str(v.commitSha))}, version ${JSON.stringify(str(v.versionString))}`];
    }
    case 'program': {
      const h = one('header');
      return [`${str(h.shaderKindName ?? `kind ${h.shaderKind as number}`)} ${h.majorVersion as number}.${h.minorVersion as number}, DXIL ${h.dxilMajorVersion as number}.${h.dxilMinorVersion as number}, bitcode at ${8 + (h.bitcodeOffset as number)}, ${h.bitcodeSize as number} bytes`];
    }
    case 'statistics':
      return [`${(b.counters as Row[]).length} counters: ${(b.counters as Row[]).map((c) => c.value as number).join(' ')}`];
    case 'resource-definitions': {
      const h = one('header');
      const lines = [`${h.constantBufferCount as number} constant buffer(s), ${h.bindingCount as number} binding(s), target ${h.majorVersion as number}.${h.minorVersion as number}, creator ${JSON.stringify(str(h.creator))}`];
      const variables = (b.variables as Row[] | undefined) ?? [];
      let v = 0;
      for (const c of b.constantBuffers as Row[]) {
        lines.push(`  cbuffer ${str(c.name)}: ${c.variableCount as number} variable(s), ${c.size as number} bytes`);
        // the walk lists each buffer's variables in order (a place two buffers share is listed once)
        for (let k = 0; k < (c.variableCount as number) && v < variables.length; k++, v++) {
          const x = variables[v]!;
          const flags = (x.flagsNames as string[] | undefined) ?? [];
          lines.push(`    ${str(x.name)} at ${x.startOffset as number}, ${x.size as number} bytes, type at ${x.typeOffset as number}${flags.length ? ` (${flags.join(' | ')})` : ''}${x.defaultValueOffset ? `, default at ${x.defaultValueOffset as number}` : ''}`);
        }
      }
      const members = (b.members as Row[] | undefined) ?? [];
      let m = 0;
      for (const t of (b.types as Row[] | undefined) ?? []) {
        const shape = `${t.rows as number}x${t.columns as number}${t.elements ? `[${t.elements as number}]` : ''}`;
        const named = t.name !== undefined && t.name !== '' ? ` ${str(t.name)}` : '';
        const list: string[] = [];
        for (let k = 0; k < (t.memberCount as number) && m < members.length; k++, m++) list.push(`${str(members[m]!.name)} at ${members[m]!.offset as number}`);
        lines.push(`  type${named}: ${str(t.className ?? t.class)} ${str(t.typeName ?? t.type)} ${shape}${list.length ? `, members ${list.join(', ')}` : ''}`);
      }
      for (const x of b.bindings as Row[]) lines.push(`  ${str(x.typeName ?? x.type)} ${str(x.name)} bind ${x.bindPoint as number}${x.bindCount !== 1 ? ` count ${x.bindCount as number}` : ''}${x.space ? ` space ${x.space as number}` : ''}`);
      return lines;
    }
    case 'tokens': {
      const t = p.tokens!;
      const dcl = t.instructions.filter((i) => i.name.startsWith('dcl_')).length;
      return [`${t.programTypeName ?? `type ${t.programType}`} ${t.majorVersion}.${t.minorVersion}, ${t.instructions.length} instructions (${dcl} declarations)${t.declarationsError ? `; declarations: ${str(t.declarationsError)}` : ''}`];
    }
    case 'source-info': {
      const lines: string[] = [];
      for (const s of p.sourceInfo!.sections) {
        const what = s.contents ? `${s.contents.length} source(s)` : s.names ? `names ${s.names.map((n) => JSON.stringify(str(n))).join(', ')}` : s.args ? `${s.args.length} argument(s)` : (s.note ?? '');
        lines.push(`section ${str(s.typeName ?? s.type)}: ${what}`);
      }
      return lines;
    }
    default:
      return [];
  }
}
