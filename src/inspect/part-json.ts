/**
 * The JSON of one decoded part, as `dxbin inspect --json` writes each entry's `decode` and the web
 * inspector's part panels draw it: the rows' JSON form (kept runs over 64 bytes as offset and size;
 * SHEX/SHDR instructions with their length rather than every token), RTS0 and PSV0 through their own
 * codecs when the caller has them decoded, a part that did not decode as its error.
 */
import { DecodeError } from '../bytes/errors.js';
import { expectOptions, expectString } from '../bytes/check.js';
import { partToJson, type DecodedPart } from '../parts/part.js';
import { rootSignatureToJson } from '../root-signature/json.js';
import { psv0ToJson } from '../shader/psv0-json.js';
import type { Psv0 } from '../shader/psv0.js';
import type { RootSignature } from '../root-signature/types.js';

/** Kept runs longer than this show only offset and size. */
export const MAX_KEPT_BYTES = 64;

/** What a part's JSON may use besides its own decode: the container's root signature and the shader's PSV0, as their readers decoded them. */
export interface PartJsonContext {
  rootSignature?: RootSignature;
  psv?: Psv0;
}

const errorJson = (e: DecodeError): Record<string, unknown> => ({ kind: 'error', code: e.code, path: e.path, message: e.message });

/**
 * The decode of part `name` as JSON (see the module comment); `d` is decodePart's answer or the
 * DecodeError that stopped it (`{ kind: 'error', code, path, message }`).
 * @throws {DescriptionError} bad-type when `name` is not a string, `d` not a decoded part or DecodeError
 */
export function partJson(name: string, d: DecodedPart | DecodeError, known: PartJsonContext = {}): Record<string, unknown> {
  expectString(name, 'name');
  expectOptions(known, 'known');
  if (d instanceof DecodeError) return errorJson(d);
  if (name === 'RTS0' && known.rootSignature) return { kind: 'root-signature', ...rootSignatureToJson(known.rootSignature) };
  if (name === 'PSV0' && known.psv) return { kind: 'psv0', ...psv0ToJson(known.psv) };
  const json = partToJson(d, { maxKeptBytes: MAX_KEPT_BYTES });
  if (d.tokens) json.program = { ...d.tokens, instructions: d.tokens.instructions.map(({ tokens, ...rest }) => ({ ...rest, length: tokens.length })) };
  return json;
}
