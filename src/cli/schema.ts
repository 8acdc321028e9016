/**
 * JSON Schemas of the CLI's `--json` output (draft 2020-12), written to schema/cli/ by
 * `npm run schema` and checked against real output by test/cli-schema.test.ts. Each object a
 * command prints carries `formatVersion`; a change that breaks a script reading it raises
 * FORMAT_VERSION. A command declares its result properties next to its code (`schema` in its
 * command file); the envelope (`file`, `ok`, `error`) is the same for all.
 */
import type { CliCommand } from './command.js';

/** The version of the `--json` formats; raised on any incompatible change. */
export const FORMAT_VERSION = 2;

type Schema = Record<string, unknown>;
export const S = {
  str: { type: 'string' } as Schema,
  int: { type: 'integer', minimum: 0 } as Schema,
  num: { type: ['number', 'null'] } as Schema,
  bool: { type: 'boolean' } as Schema,
  obj: { type: 'object' } as Schema,
  arr: (items: Schema): Schema => ({ type: 'array', items }),
  enum: (...values: string[]): Schema => ({ enum: values }),
  object: (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({ type: 'object', properties, required, additionalProperties: false }),
};

/** One error, as every `--json` answer with `"ok": false` carries it. */
export const DIAGNOSTIC_SCHEMA: Schema = S.object(
  { code: S.str, file: S.str, message: S.str, field: S.str, offset: S.int, line: S.int, column: S.int },
  ['code', 'message'],
);

/** A command's schema file name: `rootsig-validate.schema.json`. */
export function schemaFileName(c: CliCommand): string {
  return `${c.path.join('-')}.schema.json`;
}

/** The full schema of one command's `--json` output line. */
export function commandSchema(c: CliCommand): Schema {
  const result = c.schema ?? {};
  const perFile = c.kind === 'files';
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `dxbin/schema/cli/${schemaFileName(c)}`,
    title: `dxbin ${c.path.join(' ')} --json`,
    description: `${c.description}. ${perFile ? 'One object per input file per line (NDJSON).' : 'One object per line.'}`,
    type: 'object',
    properties: {
      formatVersion: { const: FORMAT_VERSION },
      ...(perFile ? { file: S.str, ok: S.bool, error: DIAGNOSTIC_SCHEMA } : { ok: S.bool }),
      ...result,
    },
    required: perFile ? ['formatVersion', 'file', 'ok'] : ['formatVersion'],
    additionalProperties: c.schema === undefined,
    ...(perFile ? { if: { properties: { ok: { const: false } } }, then: { required: ['error'] } } : {}),
  };
}
