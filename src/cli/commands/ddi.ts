/** `dxbin ddi layout | decode | encode | validate | node-outputs`. */
import { ABIS, STRUCTS, type Abi } from '../../../codecs/ddi.js';
import { parseContainer } from '../../container/parse.js';
import { findPart, partDataOffset } from '../../container/container.js';
import { decodeImage, encodeImage } from '../../ddi/image.js';
import { ddiFromJson, ddiToJson } from '../../ddi/json.js';
import { structDef, structLayout } from '../../ddi/layout.js';
import { RdatReader } from '../../ddi/rdat.js';
import { renderPassesFromJson, validateDdi, validateRenderPasses } from '../../ddi/validate.js';
import { DecodeError, formatViolation } from '../../bytes/errors.js';
import { parseJsonText } from '../../json/vocabulary.js';
import { CheckFailed, UsageError } from '../errors.js';
import { readInput, writeOutputAtomically } from '../io.js';

const RENDER_PASSES = 'render-passes';

function abiOf(text: string | undefined): Abi {
  const abi = (text ?? 'x64') as Abi;
  if (!ABIS.includes(abi)) throw new UsageError(`--abi takes x64 or x86, got ${text}`);
  return abi;
}

function typeOf(name: string): string {
  try {
    return structDef(name).name;
  } catch {
    throw new UsageError(`unknown type ${name} (known: ${STRUCTS.map((s) => s.cli).join(', ')}, ${RENDER_PASSES})`);
  }
}

export function ddiLayout(type: string, o: { abi?: string; json?: boolean }, out: (line: string) => void): void {
  const layout = structLayout(typeOf(type), abiOf(o.abi));
  if (o.json) {
    out(JSON.stringify({ type: layout.name, abi: layout.abi, size: layout.size, align: layout.align, fields: layout.fields.map((f) => ({ name: f.name, offset: f.offset, size: f.size })) }, null, 2));
    return;
  }
  out(`${layout.name} (${layout.abi}): size ${layout.size}, align ${layout.align}`);
  for (const f of layout.fields) out(`  ${String(f.offset).padStart(4)}  ${String(f.size).padStart(3)}  ${f.name}`);
}

export function ddiDecode(type: string, file: string, o: { abi?: string }, out: (text: string) => void): void {
  const name = typeOf(type);
  out(JSON.stringify(ddiToJson(name, decodeImage(name, readInput(file), abiOf(o.abi))), null, 2));
}

export function ddiEncode(type: string, file: string, o: { abi?: string; output: string }): void {
  const name = typeOf(type);
  const json = parseJsonText(new TextDecoder().decode(readInput(file)));
  writeOutputAtomically(o.output, encodeImage(name, ddiFromJson(name, json), abiOf(o.abi)), [file]);
}

export function ddiValidate(type: string, file: string, out: (line: string) => void): void {
  const json = parseJsonText(new TextDecoder().decode(readInput(file)));
  const violations = type === RENDER_PASSES ? validateRenderPasses(renderPassesFromJson(json)) : validateDdi(typeOf(type), ddiFromJson(typeOf(type), json));
  for (const v of violations) out(formatViolation(v));
  if (violations.length > 0) throw new CheckFailed(`${file}: ${violations.length} violation${violations.length === 1 ? '' : 's'}`);
}

export function ddiNodeOutputs(file: string, o: { json?: boolean }, out: (line: string) => void): void {
  const bytes = readInput(file);
  const container = parseContainer(bytes);
  const rdat = findPart(container, 'RDAT');
  if (!rdat) throw new DecodeError('missing-part', 0, 'container.parts', 'the container has no RDAT part (not a DXIL library)');
  const index = container.parts.indexOf(rdat);
  const nodes = new RdatReader(rdat.data, partDataOffset(container, index)).nodes();
  if (o.json) {
    out(JSON.stringify(nodes.map((n) => ({ ...n, outputs: n.outputs.map((x) => ddiToJson('D3D12DDI_NODE_OUTPUT_0108', x)) })), null, 2));
    return;
  }
  for (const n of nodes) {
    out(`${n.exportName}: node ${n.id.Name}[${n.id.ArrayIndex}], ${n.launch} launch, ${n.outputs.length} output${n.outputs.length === 1 ? '' : 's'}`);
    for (const x of n.outputs) {
      const j = ddiToJson('D3D12DDI_NODE_OUTPUT_0108', x) as Record<string, unknown>;
      const name = x.FinalName as { Name: string; ArrayIndex: number };
      const budget = x.pMaxRecords !== null ? `MaxRecords ${x.pMaxRecords as number}` : `MaxRecordsSharedWith output ${x.pMaxRecordsSharedWithOutputIndex as number}`;
      const array = x.ArraySize === 0xffffffff ? 'unbounded' : String(x.ArraySize);
      out(`  [${x.OutputIndex as number}] -> ${name.Name}[${name.ArrayIndex}] ${String(j.NodeIOKind)} record ${x.RecordSizeInBytes as number} B, ${budget}, ArraySize ${array}${x.bAllowSparseNodes ? ', sparse' : ''}${x.pRecordDispatchGrid ? ', SV_DispatchGrid' : ''}`);
    }
  }
}
