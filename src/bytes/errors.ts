/**
 * The error contract: every failure dxbin reports about a caller's input is a `DxbinError`
 * subclass with a stable `code` from that class's union, the `path` of the offending field, and a
 * `detail` sentence apart from the formatted `message`. Decide on `code` (and `path`, `offset`),
 * never on the text. Anything else escaping a decoder is a bug: the fuzz properties in test/ treat
 * it as a crash.
 */
import { printable } from './text.js';

/** Codes of `DecodeError`: bytes that are not a well-formed container, RTS0 part or record. */
export type DecodeErrorCode =
  | 'truncated' // a field or record lies past the end of the bytes
  | 'bad-magic'
  | 'unsupported-version'
  | 'bad-offset' // an offset points outside the data it must lie in
  | 'count-exceeds-data' // count x record size is more than the bytes left
  | 'unknown-parameter-type' // a root parameter whose payload layout is unknown
  | 'container-size' // the header's size field disagrees with the data
  | 'part-layout' // parts overlap, leave gaps or run past the container (strict mode)
  | 'duplicate-part'
  | 'missing-part'
  | 'bad-token' // a DXBC token that does not decode (length, operand type, index form)
  | 'limit-exceeded'; // the work budget ran out (a LimitError, src/bytes/budget.ts; docs/limits.md)

/** Codes of `DescriptionError`: a typed or JSON description, or an argument, that cannot be used. */
export type DescriptionErrorCode =
  | 'bad-json' // JSON text that does not parse
  | 'unknown-key'
  | 'missing-key'
  | 'bad-type' // a value of the wrong type (a string where a number belongs, ...)
  | 'bad-name' // a name that is not in the table it must come from
  | 'ambiguous-name' // a name that two entries share where a lookup needs one (two subobjects with one name)
  | 'out-of-range'
  | 'not-representable' // a value the chosen version or language has no way to store
  | 'unavailable' // the engine cannot do what was asked (e.g. run the WebAssembly kernels)
  | 'memory-grew' // a call had to grow WebAssembly memory, detaching the caller's views into it: take fresh views and call again
  | 'limit-exceeded'; // a documented budget (docs/limits.md) is exceeded

/** Codes of `ConversionError`. */
export type ConversionErrorCode = 'conversion-refused';

/** Codes of `HlslError`: the root signature language. */
export type HlslErrorCode =
  | 'hlsl-syntax' // the text does not follow the grammar (DXC's message)
  | 'hlsl-missing' // the #define or entry attribute named is not there
  | 'hlsl-ambiguous' // the entry named is not one function with one definition (overloads, a redefinition: DXC's ambiguous entry point function), or which attribute DXC uses cannot be told
  | 'hlsl-preprocess' // the preprocessor refused the source (#error, a bad directive or #if expression, an include not found): clang's words
  | 'limit-exceeded'; // the work budget ran out (docs/limits.md): `limit` is the LimitError naming the kind

/** Codes of `RootSignatureValidationError`. */
export type RootSignatureValidationErrorCode = 'hlsl-validation';

/** Every code any `DxbinError` carries. */
export type DxbinErrorCode = DecodeErrorCode | DescriptionErrorCode | ConversionErrorCode | HlslErrorCode | RootSignatureValidationErrorCode;

/** Base class: everything dxbin reports about a caller's input. */
export class DxbinError<Code extends DxbinErrorCode = DxbinErrorCode> extends Error {
  /**
   * @param code   stable code from the subclass's union
   * @param path   the field (`RTS0.parameters[3].ranges[1].flags`, `$.version`) or place (`file:line:col`)
   * @param detail what is wrong, one sentence without the path
   * @param message the formatted message (by default `path: detail`)
   */
  constructor(
    readonly code: Code,
    readonly path: string,
    readonly detail: string,
    message = formatProblem(path, detail),
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Malformed bytes: names the absolute byte offset and the field path. */
export class DecodeError extends DxbinError<DecodeErrorCode> {
  /**
   * @param offset absolute byte offset in the caller's input
   */
  constructor(
    code: DecodeErrorCode,
    readonly offset: number,
    path: string,
    detail: string,
  ) {
    super(code, path, detail, formatProblem(path, detail, offset));
  }
}

/** A description (typed or JSON) or argument that cannot be turned into bytes; names the path. */
export class DescriptionError extends DxbinError<DescriptionErrorCode> {
  constructor(code: DescriptionErrorCode, path: string, detail: string) {
    super(code, path, detail);
  }
}

/**
 * The one formatter of problems: `path: detail`, or `path at byte N: detail` when an offset is
 * known. Error messages and CLI lines are made with it.
 */
export function formatProblem(path: string, detail: string, offset?: number): string {
  return offset === undefined ? `${path}: ${detail}` : `${path} at byte ${offset}: ${detail}`;
}

/** A rule broken by a description (root signature or DDI validation): code, path and message. */
export interface RuleViolation {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/**
 * Fills a rule's `{name}` placeholders; an unknown name stays as written. String values are
 * names from input (libraries, exports, subobjects, bindings): they pass the text boundary
 * (`printable`), so a message stays one line whatever a name holds.
 */
export function fillMessage(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_m, key: string) => {
    const v = values[key];
    return v === undefined || v === null ? `{${key}}` : typeof v === 'string' ? printable(v) : String(v);
  });
}

/** How a value is named in messages: `null`, `undefined`, `an array`, `a string`, `a number`. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/**
 * The one line per violation the CLI prints: `code path message` for a rule broken by a
 * description; with a `subject` (the shader binding a violation is about, `CBV b2`; may be
 * empty), `code subject path: message`, the colon setting DXC's sentence apart from the binding.
 * @throws {DescriptionError} bad-type when `v` is not an object
 */
export function formatViolation(v: { readonly code: string; readonly path?: string; readonly message: string }, subject?: string): string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DescriptionError('bad-type', 'violation', `expected an object, got ${kindOf(v)}`);
  if (subject === undefined) return `${v.code} ${v.path ?? ''} ${v.message}`;
  return `${v.code}${subject ? ` ${subject}` : ''}${v.path ? ` ${v.path}` : ''}: ${v.message}`;
}
