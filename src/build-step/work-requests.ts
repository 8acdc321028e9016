/**
 * The byte-level half of the persistent worker (src/cli/persistent-worker.ts): framing a stream of
 * WorkRequests linearly, checking each one, and writing WorkResponse lines. Pure and synchronous,
 * so the fuzzer drives it directly (src/fuzz/targets.ts, `worker-stream`).
 */

/** The largest WorkRequest read (docs/limits.md). */
export const MAX_REQUEST_BYTES = 64 << 20;

/**
 * One framed request: its JSON text, or why the bytes there are not one (with the id read from
 * them, if any). A request's `text` is joined from the pieces it was framed in when it is read;
 * parseWorkRequest reads a frame's pieces without joining them (framePieces).
 */
export type Frame = { text: string } | { error: string; requestId?: number };

/** The pieces each request frame was framed in (their text is the frame's `text`). */
const PIECES = new WeakMap<object, readonly string[]>();

/** A request frame over `pieces`: `text` joins them on each read (nothing joined is kept). */
function requestFrame(pieces: readonly string[]): Frame {
  const frame = {} as { text: string };
  Object.defineProperty(frame, 'text', { enumerable: true, get: () => (pieces.length === 1 ? pieces[0]! : pieces.join('')) });
  PIECES.set(frame, pieces);
  return frame;
}

/** The text of a request frame as the pieces it was framed in (one piece for a frame made otherwise). */
export function framePieces(frame: { text: string }): readonly string[] {
  return PIECES.get(frame) ?? [frame.text];
}

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

/**
 * Reads a requestId out of text that is not valid JSON, so its answer can still carry it: a
 * number or a decimal string, as parseWorkRequest takes them, and only one it would take (an
 * int32 from 0).
 */
function salvageId(text: string): number | undefined {
  const m = /"requestId"\s*:\s*(?:(\d{1,10})|"(\d{1,10})")\s*[,}]/.exec(text);
  const id = m ? Number(m[1] ?? m[2]) : undefined;
  return id !== undefined && id <= INT32_MAX ? id : undefined;
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
    const finish = (frame: ((text: string) => Frame) | 'request') => {
      // a request keeps the pieces it came in (joining them would be a second copy of it); reset
      // gives the framer a new parts array, so the frame's pieces stay its own
      frames.push(this.over ? { error: `request larger than ${this.maxBytes} bytes`, requestId: salvageId(this.head) ?? salvageId(this.tail) } : frame === 'request' ? requestFrame(this.parts) : frame(this.parts.join('')));
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
        finish('request');
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

/** A cursor over the pieces of one text (a frame as it was framed), read as JSON in place. */
class PieceReader {
  private p = 0;
  private i = 0;

  constructor(private readonly pieces: readonly string[]) {
    this.settle();
  }

  /** Moves past ended pieces. */
  private settle(): void {
    while (this.p < this.pieces.length && this.i >= this.pieces[this.p]!.length) {
      this.p++;
      this.i = 0;
    }
  }

  /** The UTF-16 code unit at the cursor, -1 at the end. */
  peek(): number {
    return this.p < this.pieces.length ? this.pieces[this.p]!.charCodeAt(this.i) : -1;
  }

  next(): number {
    const c = this.peek();
    if (c >= 0) {
      this.i++;
      this.settle();
    }
    return c;
  }

  /** JSON whitespace. */
  ws(): void {
    for (let c = this.peek(); c === 32 || c === 9 || c === 10 || c === 13; c = this.peek()) this.next();
  }

  /**
   * The run of code units from the cursor that `take` accepts, as slices of the pieces (kept in
   * `out` when given); how many there were.
   */
  run(take: (c: number) => boolean, out?: string[]): number {
    let n = 0;
    while (this.p < this.pieces.length) {
      const piece = this.pieces[this.p]!;
      let j = this.i;
      while (j < piece.length && take(piece.charCodeAt(j))) j++;
      if (out && j > this.i) out.push(piece.slice(this.i, j));
      n += j - this.i;
      this.i = j;
      if (j < piece.length) break;
      this.settle();
    }
    return n;
  }

  /** A JSON string's value, the cursor past its opening quote (`keep` false: checked, '' given); undefined when it is not one. */
  string(keep: boolean): string | undefined {
    const out: string[] | undefined = keep ? [] : undefined;
    for (;;) {
      this.run(plainChar, out);
      const c = this.next();
      if (c === 34) return out ? (out.length === 1 ? out[0]! : out.join('')) : '';
      if (c !== 92) return undefined; // the end, or a control character JSON strings may not hold raw
      const e = this.next();
      let ch: string;
      if (e === 117) {
        let code = 0;
        for (let k = 0; k < 4; k++) {
          const h = hexDigit(this.next());
          if (h < 0) return undefined;
          code = code * 16 + h;
        }
        ch = String.fromCharCode(code);
      } else {
        const esc = ESCAPES[e];
        if (esc === undefined) return undefined;
        ch = esc;
      }
      out?.push(ch);
    }
  }

  /** A JSON number's value, the cursor at its first character; undefined when it is not one. */
  number(keep: boolean): number | undefined {
    const out: string[] | undefined = keep ? [] : undefined;
    if (this.peek() === 45) {
      this.next();
      out?.push('-');
    }
    const first = this.peek();
    const int = this.run(isDigit, out);
    if (int === 0 || (int > 1 && first === 48)) return undefined;
    if (this.peek() === 46) {
      this.next();
      out?.push('.');
      if (this.run(isDigit, out) === 0) return undefined;
    }
    if (this.peek() === 101 || this.peek() === 69) {
      this.next();
      out?.push('e');
      const sign = this.peek();
      if (sign === 43 || sign === 45) {
        this.next();
        out?.push(sign === 45 ? '-' : '+');
      }
      if (this.run(isDigit, out) === 0) return undefined;
    }
    return out ? Number(out.join('')) : 0;
  }

  /** `word` (true, false, null) at the cursor. */
  word(word: string): boolean {
    for (let k = 0; k < word.length; k++) if (this.next() !== word.charCodeAt(k)) return false;
    return true;
  }
}

const plainChar = (c: number) => c !== 34 && c !== 92 && c >= 32;
const isDigit = (c: number) => c >= 48 && c <= 57;
const hexDigit = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);
const ESCAPES: Record<number, string> = { 34: '"', 92: '\\', 47: '/', 98: '\b', 102: '\f', 110: '\n', 114: '\r', 116: '\t' };

/** Stands for an object value, and for a list that is not all strings: only their kind is looked at. */
const AN_OBJECT = Object.freeze({});
const NOT_STRINGS = Object.freeze([null]);

/**
 * One JSON value at the cursor, iteratively (nesting costs a stack entry, never a call): a string,
 * number, true, false or null as itself; a list of strings as the list when `keep`; any other
 * list or object as a stand-in of its kind. Undefined when the text there is not JSON.
 */
function readValue(r: PieceReader, keep: boolean): unknown {
  const c = r.peek();
  if (c === 34) {
    r.next();
    return r.string(keep);
  }
  if (c === 45 || isDigit(c)) return r.number(keep);
  if (c === 116) return r.word('true') ? true : undefined;
  if (c === 102) return r.word('false') ? false : undefined;
  if (c === 110) return r.word('null') ? null : undefined;
  if (c !== 91 && c !== 123) return undefined;
  r.next();
  let strings: string[] | undefined = keep && c === 91 ? [] : undefined;
  const result = c === 91 ? () => strings ?? NOT_STRINGS : () => AN_OBJECT;
  const stack: boolean[] = [c === 123]; // true: an object
  let state: 'open' | 'value' | 'after' = 'open';
  for (;;) {
    r.ws();
    const object = stack[stack.length - 1]!;
    const close = object ? 125 : 93;
    if (state === 'after' || (state === 'open' && r.peek() === close)) {
      const d = r.next();
      if (d === 44 && state === 'after') {
        state = 'value';
        continue;
      }
      if (d !== close) return undefined;
      stack.pop();
      if (stack.length === 0) return result();
      state = 'after';
      continue;
    }
    if (object) {
      if (r.next() !== 34 || r.string(false) === undefined) return undefined;
      r.ws();
      if (r.next() !== 58) return undefined;
      r.ws();
    }
    const item = stack.length === 1 && strings !== undefined;
    const d = r.peek();
    if (d === 91 || d === 123) {
      r.next();
      if (item) strings = undefined;
      stack.push(d === 123);
      state = 'open';
      continue;
    }
    const v = readValue(r, item && d === 34); // a scalar: no deeper
    if (v === undefined) return undefined;
    if (item) {
      if (typeof v === 'string') strings!.push(v);
      else strings = undefined;
    }
    state = 'after';
  }
}

/** The fields parseWorkRequest looks at, read from the pieces of one text; undefined when the text is not JSON. */
function readRequest(pieces: readonly string[]): { value: unknown } | undefined {
  const r = new PieceReader(pieces);
  r.ws();
  if (r.peek() !== 123) {
    const v = readValue(r, false);
    r.ws();
    return v === undefined || r.peek() !== -1 ? undefined : { value: v };
  }
  r.next();
  const fields: Record<string, unknown> = {};
  r.ws();
  if (r.peek() === 125) r.next();
  else
    for (;;) {
      r.ws();
      if (r.next() !== 34) return undefined;
      const key = r.string(true);
      if (key === undefined) return undefined;
      r.ws();
      if (r.next() !== 58) return undefined;
      r.ws();
      const known = REQUEST_FIELDS.has(key);
      const v = readValue(r, known);
      if (v === undefined) return undefined;
      if (known) fields[key] = v; // a repeated key: the last one, as JSON.parse
      r.ws();
      const d = r.next();
      if (d === 125) break;
      if (d !== 44) return undefined;
    }
  r.ws();
  return r.peek() === -1 ? { value: fields } : undefined;
}

const REQUEST_FIELDS = new Set(['requestId', 'arguments', 'cancel', 'sandboxDir', 'verbosity']);

/** A checked WorkRequest. */
export interface WorkRequest {
  requestId: number;
  arguments: string[];
  cancel: boolean;
  sandboxDir?: string;
  verbosity: number;
}

/**
 * A UTF-16 code unit of a surrogate pair without its other half (JSON's `"\\ud800"`): no file name
 * or option holds one, and the system is handed U+FFFD in its place, so a request naming
 * `a\\ud800` would open a file named `a\ufffd`.
 */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * An int32 field as the proto3 JSON mapping gives it: a JSON number with an integral value, or a
 * string of decimal digits (an optional '-' first); null or absent is 0. Undefined for anything
 * else or a value outside lo..INT32_MAX.
 */
function int32Field(v: unknown, lo: number): number | undefined {
  if (v === undefined || v === null) return 0;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?[0-9]+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= lo && n <= INT32_MAX ? n + 0 : undefined; // + 0: -0 is 0
}

/**
 * A WorkRequest from one frame's text (or the pieces it was framed in, framePieces), or the error
 * response's words (with the id when it is readable). The text is read in place as JSON.parse
 * reads it: only the fields a request has are made (the arguments as the text's own slices where
 * they hold no escape), so a request costs its pieces and its arguments, not a joined copy and a
 * parsed one besides.
 *
 * Each field is read as the proto3 JSON mapping of Bazel's WorkRequest gives it, and one rule
 * holds for all of them: null or absent is the field's default; `requestId` (from 0) and
 * `verbosity` are int32s, a JSON number or a decimal string; `arguments` an array of strings,
 * `sandboxDir` a string, `cancel` true or false; any other value is an error naming the field
 * (never read as the default).
 */
export function parseWorkRequest(text: string | readonly string[]): WorkRequest | { error: string; requestId: number } {
  const read = readRequest(typeof text === 'string' ? [text] : text);
  if (read === undefined) return { error: 'not a JSON request', requestId: salvageId(typeof text === 'string' ? text : text.join('')) ?? 0 };
  const v = read.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'a request is a JSON object', requestId: 0 };
  const r = v as Record<string, unknown>;
  const id = int32Field(r.requestId, 0);
  if (id === undefined) return { error: `requestId is a whole number 0..${INT32_MAX} (a JSON number or a decimal string)`, requestId: 0 };
  const args = r.arguments ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return { error: 'arguments is an array of strings', requestId: id };
  const unpaired = args.findIndex((a) => LONE_SURROGATE.test(a));
  if (unpaired >= 0) return { error: `arguments[${unpaired}] holds a lone surrogate, which no file name or option can (the system would be handed U+FFFD in its place)`, requestId: id };
  const sandboxDir = r.sandboxDir ?? undefined;
  if (sandboxDir !== undefined && typeof sandboxDir !== 'string') return { error: 'sandboxDir is a string', requestId: id };
  if (sandboxDir !== undefined && (sandboxDir.includes('\0') || LONE_SURROGATE.test(sandboxDir))) return { error: 'sandboxDir holds a NUL or a lone surrogate, which no folder name can (the system would be handed another name)', requestId: id };
  const verbosity = int32Field(r.verbosity, INT32_MIN);
  if (verbosity === undefined) return { error: `verbosity is a whole number ${INT32_MIN}..${INT32_MAX} (a JSON number or a decimal string)`, requestId: id };
  const cancel = r.cancel ?? false;
  if (typeof cancel !== 'boolean') return { error: 'cancel is true or false', requestId: id };
  return { requestId: id, arguments: args as string[], cancel, verbosity, ...(sandboxDir ? { sandboxDir } : {}) };
}

/** One WorkResponse line. */
export function responseLine(requestId: number, fields: { exitCode?: number; output?: string; wasCancelled?: boolean }): string {
  // requestId 0 (singleplex) is left out, as protobuf's JSON form leaves out default values
  return `${JSON.stringify({ ...fields, ...(requestId ? { requestId } : {}) })}\n`;
}

