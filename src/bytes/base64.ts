/** Base64 to bytes with Node's Buffer or the browser's atob (for the inlined WebAssembly modules). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const g = globalThis as { Buffer?: { from(s: string, e: string): Uint8Array }; atob?: (s: string) => string };
  if (g.Buffer) return new Uint8Array(g.Buffer.from(text, 'base64'));
  const bin = g.atob!(text);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
