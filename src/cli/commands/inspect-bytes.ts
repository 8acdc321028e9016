/** `dxbin inspect FILE --hex | --html OUT`: the byte map as an annotated hex dump or an HTML page. */
import { byteMap, hexDump, hexHtml } from '../../inspect/index.js';
import type { RunContext } from '../command.js';

export interface InspectBytesOptions {
  hex?: boolean;
  html?: string;
  lenient?: boolean;
}

/** Prints the dump (--hex; colours when standard output is a terminal and NO_COLOR is unset) and/or writes the page (--html). */
export async function inspectBytes(file: string, bytes: Uint8Array, ctx: RunContext<InspectBytesOptions>): Promise<Record<string, unknown>> {
  const map = byteMap(bytes, ctx.options.lenient ? { mode: 'lenient' } : {});
  const name = file === '-' ? 'standard input' : file.replace(/^.*[\\/]/, '');
  if (ctx.options.html !== undefined) await ctx.write(ctx.options.html, hexHtml(bytes, map, name), [file]);
  if (ctx.options.hex) {
    const stdout = process.stdout as { isTTY?: boolean };
    const color = stdout.isTTY === true && !process.env.NO_COLOR && !ctx.options.json;
    for (const line of hexDump(bytes, map, { color })) await ctx.print(line);
  }
  // The inspect command's vocabulary (its schema's `kind`), not the byte map's format names.
  const kind = map.format === 'rts0' ? 'rts0-part' : map.format;
  return { kind, size: bytes.byteLength, spans: map.spans.length, ...(ctx.options.html !== undefined ? { html: ctx.options.html } : {}) };
}
