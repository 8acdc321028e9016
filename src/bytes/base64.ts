/** Base64 to bytes with atob (every engine the package supports has it: browsers, workers, Node 16+), for the inlined WebAssembly modules. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
