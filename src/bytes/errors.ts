/**
 * The error types dxbin throws for bad input. Anything else escaping a decoder is a bug
 * (the fuzz properties in test/ treat it as a crash).
 */

/** Stable codes for binary decoding failures. */
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
  | 'limit-exceeded'; // more records than the input's size allows (hostile sharing of arrays)

/** Base class: everything dxbin reports about a user's input. */
export class DxbinError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly path: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Malformed bytes: names the absolute byte offset and the field path. */
export class DecodeError extends DxbinError {
  declare readonly code: DecodeErrorCode;
  constructor(
    code: DecodeErrorCode,
    readonly offset: number,
    path: string,
    detail: string,
  ) {
    super(`${path} at byte ${offset}: ${detail}`, code, path);
  }
}

/** Codes for descriptions (JSON form, typed description) that cannot be encoded. */
export type DescriptionErrorCode =
  | 'bad-json'
  | 'unknown-key'
  | 'missing-key'
  | 'bad-type'
  | 'bad-name'
  | 'out-of-range'
  | 'not-representable'; // a value the chosen version has no field for

/** A description (typed or JSON) that cannot be turned into bytes; names the path. */
export class DescriptionError extends DxbinError {
  declare readonly code: DescriptionErrorCode;
  constructor(code: DescriptionErrorCode, path: string, detail: string) {
    super(`${path}: ${detail}`, code, path);
  }
}
