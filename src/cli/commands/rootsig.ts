/** `dxbin rootsig decode|encode`: root signature <-> JSON form. */
import { rootSignatureContainer } from '../../container/write.js';
import { encodeRootSignature } from '../../root-signature/encode.js';
import { rootSignatureFromJson, rootSignatureToJson } from '../../root-signature/json.js';
import { parseJsonText } from '../../json/vocabulary.js';
import { readRootSignatureSource } from '../../root-signature/input.js';
import { readInput, writeOutputAtomically } from '../io.js';

export function rootsigDecode(file: string, options: { output?: string; lenient?: boolean }, out: (text: string) => void): void {
  const source = readRootSignatureSource(readInput(file), options.lenient ? 'lenient' : 'strict');
  const text = `${JSON.stringify(rootSignatureToJson(source.rootSignature), null, 2)}\n`;
  if (options.output) writeOutputAtomically(options.output, text, [file]);
  else out(text.trimEnd());
}

export function rootsigEncode(file: string, options: { output: string; raw?: boolean }): void {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(readInput(file));
  const rts0 = encodeRootSignature(rootSignatureFromJson(parseJsonText(text)));
  writeOutputAtomically(options.output, options.raw ? rts0 : rootSignatureContainer(rts0), [file]);
}
