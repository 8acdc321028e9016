/**
 * The preprocessor DXC runs before it reads root signature text (its clang 3.7 front end in HLSL
 * mode; docs/formats/hlsl-preprocessor.md): the directives, the pragmas it knows, the macros it
 * predefines and the profiles that set the shader-target macros. One row per fact; the
 * preprocessor in src/root-signature/hlsl/preprocessor/ expands these rows and has no list of
 * its own.
 */
import { enumerator } from './enum-table.js';
import { SHADER_KIND } from './psv0.js';

/** What a directive does; `skipped` ones still count for nesting inside a skipped group. */
export type DirectiveKind = 'if' | 'ifdef' | 'ifndef' | 'elif' | 'else' | 'endif' | 'define' | 'undef' | 'include' | 'include_next' | 'import' | 'line' | 'error' | 'warning' | 'pragma' | 'ignored';

/** Every directive clang accepts in HLSL mode, its name after `#` and its kind (any other name is "invalid preprocessing directive" in a taken group). */
export const DIRECTIVES: Readonly<Record<string, DirectiveKind>> = {
  if: 'if',
  ifdef: 'ifdef',
  ifndef: 'ifndef',
  elif: 'elif',
  else: 'else',
  endif: 'endif',
  define: 'define',
  undef: 'undef',
  include: 'include',
  include_next: 'include_next',
  import: 'import',
  line: 'line',
  error: 'error',
  warning: 'warning',
  pragma: 'pragma',
  ident: 'ignored',
  sccs: 'ignored',
  assert: 'ignored',
  unassert: 'ignored',
};

/** What a known pragma does; any other is "unknown pragma ignored" (a warning). */
export type PragmaKind = 'once' | 'push_macro' | 'pop_macro' | 'message' | 'ignored';

/** Pragmas DXC knows (its own `pack_matrix`, MSVC's and clang's/GCC's namespaces), by name. */
export const PRAGMAS: Readonly<Record<string, PragmaKind>> = {
  once: 'once',
  push_macro: 'push_macro',
  pop_macro: 'pop_macro',
  message: 'message',
  pack_matrix: 'ignored',
  warning: 'ignored',
  region: 'ignored',
  endregion: 'ignored',
  def: 'ignored',
  comment: 'ignored',
  GCC: 'ignored',
  clang: 'ignored',
  STDC: 'ignored',
  dxc: 'ignored',
};

/** The kind of a directive or pragma name in its table, or undefined (own names only: `#constructor` is none). */
export const namedKind = <K extends string>(table: Readonly<Record<string, K>>, name: string): K | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);

/**
 * The DXC release whose predefined version macros dxbin reproduces (`__DXC_VERSION_*`). A build
 * that tests them against another release passes `-D`/`-U` as with any macro.
 */
export const DXC_RELEASE = { major: 1, minor: 8, release: 2505, commits: 0 } as const;

/** HLSL language version DXC defaults to (`-HV 2021`), the value of `__HLSL_VERSION`. */
export const DEFAULT_HLSL_VERSION = 2021;

/** A macro DXC predefines for every HLSL source, with its value and why it is there. */
export interface PredefineRow {
  readonly name: string;
  readonly value: string;
  readonly why: string;
}

/** The shader-stage "enum" macros, one per DXIL shader kind DXC names (`__SHADER_STAGE_VERTEX` = 1, ...). */
const STAGE_MACROS: readonly PredefineRow[] = (
  [
    ['VERTEX', 'Vertex'],
    ['PIXEL', 'Pixel'],
    ['GEOMETRY', 'Geometry'],
    ['HULL', 'Hull'],
    ['DOMAIN', 'Domain'],
    ['COMPUTE', 'Compute'],
    ['AMPLIFICATION', 'Amplification'],
    ['MESH', 'Mesh'],
    ['LIBRARY', 'Library'],
  ] as const
).map(([suffix, kind]) => ({ name: `__SHADER_STAGE_${suffix}`, value: String(enumerator(SHADER_KIND, kind)), why: `DXIL::ShaderKind::${kind}, for comparing with __SHADER_TARGET_STAGE` }));

/** Every macro DXC defines before the source whatever the profile (InitializeStandardPredefinedMacros, HLSL branch). */
export const HLSL_PREDEFINES: readonly PredefineRow[] = [
  { name: '__hlsl_dx_compiler', value: '1', why: 'marks DXC (fxc does not define it)' },
  { name: '__DXC_VERSION_MAJOR', value: String(DXC_RELEASE.major), why: 'DXC release, first field' },
  { name: '__DXC_VERSION_MINOR', value: String(DXC_RELEASE.minor), why: 'DXC release, second field' },
  { name: '__DXC_VERSION_RELEASE', value: String(DXC_RELEASE.release), why: 'DXC release, third field (year and month of the release)' },
  { name: '__DXC_VERSION_COMMITS', value: String(DXC_RELEASE.commits), why: 'DXC release, fourth field' },
  { name: '__HLSL_VERSION', value: String(DEFAULT_HLSL_VERSION), why: 'the HLSL language version (-HV)' },
  ...STAGE_MACROS,
];

/** A compilation profile: its stage (DXIL shader kind) and shader model. */
export interface ProfileRow {
  readonly prefix: string;
  readonly kind: string;
}

/** Profile prefixes (`vs_6_0` is prefix `vs`, model 6.0); `rootsig_1_x` is no shader model: DXC's lookup gives the invalid one. */
export const PROFILE_PREFIXES: readonly ProfileRow[] = [
  { prefix: 'ps', kind: 'Pixel' },
  { prefix: 'vs', kind: 'Vertex' },
  { prefix: 'gs', kind: 'Geometry' },
  { prefix: 'hs', kind: 'Hull' },
  { prefix: 'ds', kind: 'Domain' },
  { prefix: 'cs', kind: 'Compute' },
  { prefix: 'lib', kind: 'Library' },
  { prefix: 'ms', kind: 'Mesh' },
  { prefix: 'as', kind: 'Amplification' },
];

/**
 * The three macros the profile sets: `__SHADER_TARGET_STAGE` (a DXIL shader kind), `__SHADER_TARGET_MAJOR`
 * and `__SHADER_TARGET_MINOR`. A profile DXC's shader model table does not know (`rootsig_1_1`)
 * gives the invalid model: kind Invalid, version 0.0. Undefined for a malformed name.
 */
export function profileMacros(profile: string): readonly PredefineRow[] | undefined {
  const m = /^([a-z]+)_(\d+)_(\d+|x)$/.exec(profile);
  if (!m) return undefined;
  const row = PROFILE_PREFIXES.find((p) => p.prefix === m[1]);
  const kind = row ? enumerator(SHADER_KIND, row.kind) : enumerator(SHADER_KIND, 'Invalid');
  const major = row && m[3] !== 'x' ? m[2]! : '0';
  const minor = row && m[3] !== 'x' ? m[3]! : '0';
  return [
    { name: '__SHADER_TARGET_STAGE', value: String(kind), why: `the profile's stage (${row?.kind ?? 'Invalid'})` },
    { name: '__SHADER_TARGET_MAJOR', value: major, why: "the profile's shader model, major" },
    { name: '__SHADER_TARGET_MINOR', value: minor, why: "the profile's shader model, minor" },
  ];
}

/** The profile DXC compiles root signature text with when none is named (`-T rootsig_1_1`). */
export const ROOTSIG_PROFILE = 'rootsig_1_1';

/** Multi-character punctuators, longest first (single characters are punctuators by themselves). */
export const PUNCTUATORS: readonly string[] = [
  '%:%:', '...', '<<=', '>>=', '->*',
  '##', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '->', '::', '.*', '<:', ':>', '<%', '%>', '%:',
];

/** The language's own limits (the work budget, codecs/limits.ts, bounds the rest: docs/limits.md). */
export const PREPROCESSOR_LIMITS = {
  /** clang's own limit of nested #include (its "nested too deeply"). */
  maxIncludeDepth: 200,
} as const;
