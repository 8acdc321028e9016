/**
 * The byte-level half of the persistent worker (src/cli/persistent-worker.ts): framing a stream of
 * WorkRequests linearly, checking each one, and writing WorkResponse lines. Pure and synchronous,
 * so the fuzzer drives it directly (src/fuzz/targets.ts, `worker-stream`).
 */

/** The largest WorkRequest read (docs/limits.md). */
export const MAX_REQUEST_BYTES = 64 << 20;

/** One framed request: its JSON text, or why the bytes there are not one (with the id read from them, if any). */
export type Frame = { text: string } | { error: string; requestId?: number };

const WS = new Set([' ', '\t', '\r', '\n']);

/**
 * The UTF-8 bytes of `text` (the stream was UTF-8 before it was decoded): the request limit is in
 * bytes, and a character past U+007F is 2 or 3 of them (a surrogate pair's 4, 2 per half).
 */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return n;
}

/** Reads a requestId out of text that is not valid JSON, so its answer can still carry it. */
function salvageId(text: string): number | undefined {
  const m = /"requestId"\s*:\s*(\d{1,15})\s*[,}]/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * Splits a byte stream into JSON objects, linearly: state is kept between chunks, each character
 * is scanned once. Text outside an object up to the end of its line is one bad frame; a newline
 * inside a string ends the object as a bad frame (JSON strings hold no raw newline), so a stray
 * quote costs one request, not the rest of the stream.
 */
export class RequestFramer {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private garbage = false;
  private parts: string[] = [];
  private size = 0;
  private over = false;
  /** Head and tail of an oversized request, kept for its requestId. */
  private head = '';
  private tail = '';

  constructor(private readonly maxBytes = MAX_REQUEST_BYTES) {}

  /** Feeds one chunk; returns the frames it completed. */
  push(chunk: string): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    const keep = (end: number) => {
      if (end <= start) return;
      const piece = chunk.slice(start, end);
      this.size += utf8Length(piece);
      if (this.size > this.maxBytes) {
        // head and tail are the request's first and last 4096 characters however the stream was
        // chunked (the tail starts from all of it, not from the piece that crossed the limit), so
        // the requestId salvaged from them is too (found by dxbin fuzz worker-stream)
        if (!this.over) {
          const all = this.parts.join('') + piece;
          this.head = all.slice(0, 4096);
          this.tail = all.slice(-4096);
          this.parts = [];
          this.over = true;
        } else this.tail = (this.tail + piece).slice(-4096);
      } else this.parts.push(piece);
    };
    const finish = (frame: (text: string) => Frame) => {
      const text = this.over ? `${this.head}${this.tail}` : this.parts.join('');
      frames.push(this.over ? { error: `request larger than ${this.maxBytes} bytes`, requestId: salvageId(this.head) ?? salvageId(this.tail) } : frame(text));
      this.reset();
    };
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.garbage) {
        if (c === '\n') {
          keep(i);
          start = i + 1;
          finish((t) => ({ error: `not a JSON request: ${JSON.stringify(t.slice(0, 60))}`, requestId: salvageId(t) }));
        }
        continue;
      }
      if (this.depth === 0) {
        if (WS.has(c)) continue;
        start = i;
        if (c === '{') this.depth = 1;
        else this.garbage = true;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        else if (c === '\n') {
          keep(i);
          start = i + 1;
          finish((t) => ({ error: 'not a JSON request: a string runs past the end of its line (a stray quote?)', requestId: salvageId(t) }));
        }
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth++;
      else if ((c === '}' || c === ']') && --this.depth === 0) {
        keep(i + 1);
        start = i + 1;
        finish((t) => ({ text: t }));
      }
    }
    if (this.depth > 0 || this.garbage) keep(chunk.length);
    return frames;
  }

  /** The end of the stream: an unfinished request is a bad frame. */
  end(): Frame[] {
    if (this.depth === 0 && !this.garbage) return [];
    const text = this.parts.join('') || this.head;
    const frame: Frame = { error: 'not a JSON request: the stream ended inside it', requestId: salvageId(text) ?? salvageId(this.tail) };
    this.reset();
    return [frame];
  }

  /** Between requests: nothing kept (the size too, so the next request is measured from 0). */
  private reset(): void {
    this.parts = [];
    this.size = 0;
    this.over = false;
    this.head = this.tail = '';
    this.depth = 0;
    this.inString = this.escaped = this.garbage = false;
  }
}

/** A checked WorkRequest. */
export interface WorkRequest {
  requestId: number;
  arguments: string[];
  cancel: boolean;
  sandboxDir?: string;
  verbosity: number;
}

/** A WorkRequest from one frame's text, or the error response's words (with the id when it is readable). */
export function parseWorkRequest(text: string): WorkRequest | { error: string; requestId: number } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { error: 'not a JSON request', requestId: salvageId(text) ?? 0 };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'a request is a JSON object', requestId: 0 };
  const r = v as Record<string, unknown>;
  const id = r.requestId ?? 0;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return { error: 'requestId is a whole number from 0', requestId: 0 };
  const args = r.arguments ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return { error: 'arguments is an array of strings', requestId: id };
  if (r.sandboxDir !== undefined && typeof r.sandboxDir !== 'string') return { error: 'sandboxDir is a string', requestId: id };
  const verbosity = typeof r.verbosity === 'number' && Number.isFinite(r.verbosity) ? r.verbosity : 0;
  return { requestId: id, arguments: args as string[], cancel: r.cancel === true, verbosity, ...(r.sandboxDir ? { sandboxDir: r.sandboxDir as string } : {}) };
}

/** One WorkResponse line. */
export function responseLine(requestId: number, fields: { exitCode?: number; output?: string; wasCancelled?: boolean }): string {
  // requestId 0 (singleplex) is left out, as protobuf's JSON form leaves out default values
  return `${JSON.stringify({ ...fields, ...(requestId ? { requestId } : {}) })}\n`;
}

