/**
 * Crafted inputs whose strings are markup and script (`<script>`, `<img onerror>`, `javascript:`):
 * the web inspector and `inspect --html` must show them as text. Each payload, if it ever ran,
 * would set `window.__pwned` (the browser test checks it stays undefined).
 */
import { encodeRootSignature, writeContainer } from '../../src/index.js';

export const PAYLOADS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=2">',
  'javascript:window.__pwned=3',
  '"><svg onload="window.__pwned=4">',
] as const;

/** An RDAT part (version 0x10) holding only a string buffer with these strings. */
export function rdatWithStrings(strings: readonly string[]): Uint8Array {
  const text = new TextEncoder().encode(strings.map((s) => `${s}\0`).join(''));
  const size = text.byteLength;
  const out = new Uint8Array(12 + 8 + size);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x10, true);
  v.setUint32(4, 1, true);
  v.setUint32(8, 12, true);
  v.setUint32(12, 1, true); // StringBuffer
  v.setUint32(16, size, true);
  out.set(text, 20);
  return out;
}

/** A container with markup FourCCs, a valid RTS0 and an RDAT part full of payloads. */
export function hostileContainer(): Uint8Array {
  const rts0 = encodeRootSignature({ version: 2, flags: 0, parameters: [{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 0, registerSpace: 0, num32BitValues: 1 } }], staticSamplers: [] });
  return writeContainer({
    digest: new Uint8Array(16),
    majorVersion: 1,
    minorVersion: 0,
    parts: [
      { name: '<scr', data: new TextEncoder().encode(PAYLOADS[0]) },
      { name: '"><i', data: new TextEncoder().encode(PAYLOADS[1]) },
      { name: 'RTS0', data: rts0 },
      { name: 'RDAT', data: rdatWithStrings(PAYLOADS) },
    ],
  });
}

/** JSON form text whose keys and values are payloads (the decoder refuses it, naming them). */
export function hostileJson(): string {
  return JSON.stringify({ version: '1.1', [PAYLOADS[0]]: PAYLOADS[1], flags: [PAYLOADS[2]], parameters: [], staticSamplers: [] });
}

/** Root signature text with payloads where names and numbers go. */
export function hostileHlsl(): string {
  return `RootFlags(${PAYLOADS[1]}), CBV(b0, space = ${PAYLOADS[0]})`;
}
