/**
 * The root signature language parser, following DXC's (docs/formats/hlsl-root-signature.md): it always builds a 1.1
 * description (1.2 when asked, for static sampler flags) and converts it to the requested
 * version at the end. Messages are DXC's.
 */
import { CLAUSES, HLSL_ROOT_FLAGS, hlslSpelling, type HlslEnum, type HlslFlags } from '../../../codecs/hlsl.js';
import { flag } from '../../../codecs/enum-table.js';
import {
  CONSTANTS,
  DESCRIPTOR,
  PARAMETER,
  PARAMETER_TYPES,
  RANGE,
  RANGE_TYPES,
  REGISTER_LETTERS,
  ROOT_SIGNATURE_FLAGS,
  SAMPLER,
  VERSIONS,
  stores,
  type FieldRow,
  type RecordRow,
  type RegisterClass,
  type RootSignatureVersion,
  DEFAULT_TEXT_VERSION,
} from '../../../codecs/root-signature.js';
import { DescriptionError } from '../../bytes/errors.js';
import { expectOptions, kindOf } from '../../bytes/check.js';
import { checkVersion } from '../check.js';
import { convertRootSignature } from '../convert.js';
import { dataFields, keyOf } from '../rows.js';
import type { DescriptorRange, RootParameter, RootSignature, StaticSampler } from '../types.js';
import { enumSpellings, flagSpellings, tokenize, type Token } from './lexer.js';
import { HlslError, RootSignatureText } from './text.js';

/** Options of parseRootSignature. */
export interface ParseOptions {
  /** 1 (1.0), 2 (1.1, the default) or 3 (1.2). */
  version?: RootSignatureVersion;
  /** Compiled as a global root signature: LOCAL_ROOT_SIGNATURE is an error. */
  global?: boolean;
  /** A local root signature: LOCAL_ROOT_SIGNATURE is added to the flags. */
  local?: boolean;
}

const LOCAL_ROOT_SIGNATURE = flag(ROOT_SIGNATURE_FLAGS, 'LOCAL_ROOT_SIGNATURE');

/**
 * Parses root signature text (DXC's grammar and defaults) into a description at `options.version`.
 * @throws {HlslError} text the language rejects
 * @throws {DescriptionError} bad-type (`source` neither a string nor a RootSignatureText), out-of-range (`options.version` no version)
 */
export function parseRootSignature(source: RootSignatureText | string, options: ParseOptions = {}): RootSignature {
  if (typeof source !== 'string' && !(source instanceof RootSignatureText)) throw new DescriptionError('bad-type', 'source', `expected root signature text, got ${kindOf(source)}`);
  expectOptions(options as unknown);
  const text = typeof source === 'string' ? new RootSignatureText(source) : source;
  return new Parser(text, options).parse();
}

type RegisterLetter = 'b' | 't' | 'u' | 's';
const REGISTER_CLAUSE: Record<RegisterLetter, string> = { b: 'CBV', t: 'SRV', u: 'UAV', s: 'Sampler/StaticSampler' };

/** The keyword of a field row that is the clause's register token (b#, t#, u#, s#). */
const REGISTER_KEYWORD = 'register';
type FlagsWhat = 'Root descriptor' | 'Descriptor range' | 'Static sampler';

/** A field a clause item writes: into `target[key]`, read as `row` says. */
interface ClauseItem {
  readonly target: Record<string, number>;
  readonly key: string;
  readonly row: FieldRow;
}
interface ClauseItems {
  readonly byKeyword: ReadonlyMap<string, ClauseItem>;
  readonly register: ClauseItem | undefined;
}

/**
 * What DXC does around a record's fields in one clause (the fields themselves come from the rows):
 * which register tokens the clause takes as its register item (others are unexpected tokens), the
 * item's name in "specified only once", how flag messages name the record, what a field the version
 * does not store gets (DXC's message, or an unexpected token), and the required items' messages in
 * the order DXC checks them (`register` for the register item, otherwise the field's keyword).
 */
interface ClauseRules {
  readonly registerAccepts: (letter: string) => boolean;
  readonly registerSeen: string;
  readonly flagsWhat: FlagsWhat;
  readonly unstored?: string;
  readonly required: readonly (readonly [string, string])[];
}

const RANGE_RULES: ClauseRules = {
  registerAccepts: () => true,
  registerSeen: 'shader register',
  flagsWhat: 'Descriptor range',
  unstored: 'Descriptor range flags cannot be specified for root_sig_1_0',
  required: [[REGISTER_KEYWORD, 'shader register must be defined for each CBV/SRV/UAV']],
};
const SAMPLER_RULES: ClauseRules = {
  registerAccepts: (letter) => letter === REGISTER_LETTERS.SAMPLER,
  registerSeen: 'sampler register s#',
  flagsWhat: 'Static sampler',
  required: [[REGISTER_KEYWORD, 'Sampler register s# must be defined for each static sampler']],
};
/** A descriptor table's own items (visibility); its range clauses are read apart. */
const TABLE_RULES: ClauseRules = { registerAccepts: () => false, registerSeen: '', flagsWhat: 'Root descriptor', required: [] };

/** The record and rules of each root parameter payload that is read as fields (tables hold ranges), by its record's name. */
const PAYLOADS = {
  CONSTANTS: {
    record: CONSTANTS,
    rules: {
      registerAccepts: (letter) => letter === REGISTER_LETTERS.CBV,
      registerSeen: 'cbuffer register b#',
      flagsWhat: 'Root descriptor',
      required: [
        [CONSTANTS.fields.num32BitValues.hlsl.keyword, 'num32BitConstants must be defined for each RootConstants'],
        [REGISTER_KEYWORD, 'Constant buffer register b# must be defined for each RootConstants'],
      ],
    },
  },
  DESCRIPTOR: {
    record: DESCRIPTOR,
    rules: {
      registerAccepts: (letter) => letter !== REGISTER_LETTERS.SAMPLER,
      registerSeen: 'shader register',
      flagsWhat: 'Root descriptor',
      unstored: 'Root descriptor flags cannot be specified for root_sig_1_0',
      required: [[REGISTER_KEYWORD, 'shader register must be defined for each CBV/SRV/UAV']],
    },
  },
} satisfies Record<Exclude<(typeof PARAMETER_TYPES)[number]['record'], 'TABLE'>, { record: RecordRow; rules: ClauseRules }>;

/** Root parameter clauses and descriptor range clauses, by keyword, to their vocabulary rows. */
const PARAMETER_CLAUSES = new Map<string, (typeof PARAMETER_TYPES)[number]>(PARAMETER_TYPES.map((t) => [t.clause, t]));
const RANGE_CLAUSES = new Map<string, (typeof RANGE_TYPES)[number]>(RANGE_TYPES.map((t) => [t.clause, t]));
/** The kind fields the clause keyword sets (not items of the clause). */
const PARAMETER_TYPE_KEY = keyOf(PARAMETER, PARAMETER.fields.parameterType);
const RANGE_TYPE_KEY = keyOf(RANGE, RANGE.fields.rangeType);

class Parser {
  private readonly tokens: Token[];
  private at = 0;
  private readonly version: RootSignatureVersion;

  constructor(
    private readonly source: RootSignatureText,
    private readonly options: ParseOptions,
  ) {
    this.tokens = tokenize(source.text);
    this.version = checkVersion(options.version ?? DEFAULT_TEXT_VERSION, 'options.version');
  }

  private peek(): Token {
    return this.tokens[this.at]!;
  }
  private next(): Token {
    const t = this.tokens[this.at]!;
    if (t.kind !== 'eol') this.at++;
    return t;
  }
  private fail(message: string, token: Token = this.peek()): never {
    throw new HlslError(message, this.source.locate(token.start));
  }
  private isKeyword(t: Token, keyword: string): boolean {
    return t.kind === 'keyword' && t.name === keyword;
  }
  private expect(kind: Token['kind'] | { keyword: string }): Token {
    const t = this.next();
    const ok = typeof kind === 'string' ? t.kind === kind : this.isKeyword(t, kind.keyword);
    if (!ok) this.fail(`Unexpected token '${t.text}'`, t);
    return t;
  }

  parse(): RootSignature {
    const rs: RootSignature = { version: VERSIONS[this.version].parsedAs, flags: 0, parameters: [], staticSamplers: [] };
    let seenFlags = false;
    let t = this.peek();
    while (t.kind !== 'eol') {
      const clause = t.kind === 'keyword' ? t.name : '';
      if (clause === CLAUSES.rootFlags) {
        if (seenFlags) this.fail('RootFlags cannot be specified more than once');
        rs.flags = this.rootFlags();
        seenFlags = true;
      } else if (PARAMETER_CLAUSES.has(clause)) {
        const type = PARAMETER_CLAUSES.get(clause)!;
        rs.parameters.push('registerClass' in type ? this.rootParameter(type, type.registerClass) : this.descriptorTable(type));
      }
      else if (clause === CLAUSES.staticSampler) rs.staticSamplers.push(this.staticSampler());
      else this.fail(`Unexpected token '${t.text}' when parsing root signature`, t);
      t = this.next();
      if (t.kind === 'eol') break;
      if (t.kind !== ',') this.fail(`Expected ',', found: '${t.text}'`, t);
      t = this.peek();
    }
    if (this.options.local) rs.flags = (rs.flags | LOCAL_ROOT_SIGNATURE) >>> 0;
    return rs.version === this.version ? rs : convertRootSignature(rs, this.version).rootSignature;
  }

  /** `name(` then comma-separated parameters until `)`; `each` handles the parameter at the cursor. */
  private clause(keyword: string, each: (t: Token, seen: (name: string) => void) => void): void {
    this.expect({ keyword });
    this.expect('(');
    const seenNames = new Set<string>();
    const seen = (name: string) => {
      if (seenNames.has(name)) this.fail(`Parameter '${name}' can be specified only once`);
      seenNames.add(name);
    };
    for (;;) {
      each(this.peek(), seen);
      const t = this.next();
      if (t.kind === ')') break;
      if (t.kind !== ',') this.fail(`Unexpected token '${t.text}'`, t);
    }
  }

  private unexpected(t: Token): never {
    this.fail(`Unexpected token '${t.text}'`, t);
  }

  private rootFlags(): number {
    this.expect({ keyword: CLAUSES.rootFlags });
    this.expect('(');
    let flags = 0;
    if (this.peek().kind === 'u32') {
      const n = this.next();
      if (n.value !== 0) this.fail(`Root signature flag values can only be 0 or flag enum values, found: '${n.text}'`, n);
    } else {
      flags = this.flagList(HLSL_ROOT_FLAGS, 'Expected a root signature flag value', [')'], (t, bit) => {
        if (bit === LOCAL_ROOT_SIGNATURE && this.options.global) this.fail('LOCAL_ROOT_SIGNATURE flag used in global root signature', t);
      });
    }
    this.expect(')');
    return flags;
  }

  /** NAME | NAME | ... ; stops before a token in `until`. */
  private flagList(table: HlslFlags, expected: string, until: Token['kind'][], check?: (t: Token, bit: number) => void): number {
    const spellings = new Map(flagSpellings(table));
    let flags = 0;
    for (;;) {
      const t = this.next();
      const bit = t.kind === 'keyword' ? spellings.get(t.name) : undefined;
      if (bit === undefined) this.fail(`${expected}, found: '${t.text}'`, t);
      check?.(t, bit);
      flags = (flags | bit) >>> 0;
      if (until.includes(this.peek().kind)) return flags;
      this.expect('|');
    }
  }

  /** `flags = 0` or a flag list, for root descriptors, ranges and (1.2) static samplers. */
  private flagsValue(keyword: string, table: HlslFlags, what: FlagsWhat): number {
    this.expect({ keyword });
    this.expect('=');
    if (this.peek().kind === 'u32') {
      const n = this.next();
      if (n.value !== 0) this.fail(`${what} flag values can only be 0 or flag enum values, found: '${n.text}'`, n);
      return 0;
    }
    return this.flagList(table, `Expected a ${what.toLowerCase()} flag value`, [')', ',']);
  }

  private enumValue(e: HlslEnum, what: string): number {
    const t = this.next();
    const hit = t.kind === 'keyword' ? enumSpellings(e).find(([s]) => s === t.name) : undefined;
    if (!hit) this.fail(`Unexpected ${what} value: '${t.text}'.`, t);
    return hit[1];
  }

  private assignment(keyword: string): void {
    this.expect({ keyword });
    this.expect('=');
  }

  private u32(keyword: string): number {
    this.assignment(keyword);
    return this.expect('u32').value;
  }

  private register(letter: RegisterLetter): number {
    const t = this.next();
    if (t.kind !== 'register') this.fail(`Expected a register token (CBV, SRV, UAV, Sampler), found: '${t.text}'`, t);
    if (t.name !== letter) this.fail(`Incorrect register type '${t.text}' in ${REGISTER_CLAUSE[letter]} (expected ${letter}#)`, t);
    return t.value;
  }

  private float(keyword: string): number {
    this.assignment(keyword);
    const t = this.next();
    if (t.kind === 'u32' || t.kind === 'i32' || t.kind === 'float') return Math.fround(t.value);
    this.fail(`Expected float, found token '${t.text}'`, t);
  }

  /** A record's default values in the language (the HLSL default, else the JSON default, else 0), in row order. */
  private defaults(record: RecordRow): Record<string, number> {
    return Object.fromEntries(dataFields(record).map((f) => [f.key, f.row.hlsl?.default ?? f.row.default ?? 0]));
  }

  /** The items of a clause: fields of records with an HLSL keyword, each written into its target. */
  private items(parts: readonly (readonly [Record<string, number>, RecordRow])[]): ClauseItems {
    const byKeyword = new Map<string, ClauseItem>();
    let register: ClauseItem | undefined;
    for (const [target, record] of parts)
      for (const { key, row } of dataFields(record)) {
        if (!row.hlsl) continue;
        if (row.hlsl.keyword === REGISTER_KEYWORD) register = { target, key, row };
        else byKeyword.set(row.hlsl.keyword, { target, key, row });
      }
    return { byKeyword, register };
  }

  /** One item at the cursor read as its row says; `given` collects what was written. */
  private item(t: Token, seen: (name: string) => void, items: ClauseItems, rules: ClauseRules, letter: RegisterLetter | undefined, given: Set<string>): void {
    if (t.kind === 'register' && items.register && letter && rules.registerAccepts(t.name)) {
      seen(rules.registerSeen);
      items.register.target[items.register.key] = this.register(letter);
      given.add(REGISTER_KEYWORD);
      return;
    }
    const item = t.kind === 'keyword' ? items.byKeyword.get(t.name) : undefined;
    if (!item) this.unexpected(t);
    const { target, key, row } = item;
    const keyword = row.hlsl!.keyword;
    const stored = stores(row, this.version);
    if (!stored && rules.unstored === undefined) this.unexpected(t);
    seen(keyword);
    if (!stored) this.fail(rules.unstored!);
    given.add(keyword);
    target[key] = this.value(row, rules.flagsWhat);
  }

  /** `keyword = value` as the row's kind says (f32, u32 or its special keyword, flags, enum). */
  private value(row: FieldRow, flagsWhat: FlagsWhat): number {
    const keyword = row.hlsl!.keyword;
    const kind = row.kind;
    if (kind === 'f32') return this.float(keyword);
    if (typeof kind === 'string') {
      this.assignment(keyword);
      if (row.special && this.isKeyword(this.peek(), row.special.hlsl)) {
        this.next();
        return row.special.value;
      }
      return this.expect('u32').value;
    }
    if ('bits' in kind) return this.flagsValue(keyword, hlslSpelling(kind) as HlslFlags, flagsWhat);
    this.assignment(keyword);
    const spelling = hlslSpelling(kind) as HlslEnum;
    return this.enumValue(spelling, spelling.what ?? keyword);
  }

  /** A clause whose items are all fields of `parts`; then DXC's checks of required items. */
  private fieldClause(keyword: string, parts: readonly (readonly [Record<string, number>, RecordRow])[], rules: ClauseRules, letter: RegisterLetter): void {
    const items = this.items(parts);
    const given = new Set<string>();
    this.clause(keyword, (t, seen) => this.item(t, seen, items, rules, letter, given));
    for (const [item, message] of rules.required) if (!given.has(item)) this.fail(message);
  }

  /** RootConstants, CBV, SRV, UAV: the parameter's fields and its payload's, by the parameter type row. */
  private rootParameter(type: (typeof PARAMETER_TYPES)[number], registerClass: RegisterClass): RootParameter {
    const parameter = this.defaults(PARAMETER);
    parameter[PARAMETER_TYPE_KEY] = type.value;
    const payload = PAYLOADS[type.record as keyof typeof PAYLOADS];
    const values = this.defaults(payload.record);
    this.fieldClause(type.clause, [[parameter, PARAMETER], [values, payload.record]], payload.rules, REGISTER_LETTERS[registerClass]);
    return { ...parameter, [type.payload]: values } as unknown as RootParameter;
  }

  private descriptorTable(type: (typeof PARAMETER_TYPES)[number]): RootParameter {
    const parameter = this.defaults(PARAMETER);
    parameter[PARAMETER_TYPE_KEY] = type.value;
    const items = this.items([[parameter, PARAMETER]]);
    const ranges: DescriptorRange[] = [];
    const given = new Set<string>();
    this.clause(type.clause, (t, seen) => {
      const range = t.kind === 'keyword' ? RANGE_CLAUSES.get(t.name) : undefined;
      if (range) ranges.push(this.range(range));
      else this.item(t, seen, items, TABLE_RULES, undefined, given);
    });
    return { ...parameter, [type.payload]: ranges } as unknown as RootParameter;
  }

  private range(type: (typeof RANGE_TYPES)[number]): DescriptorRange {
    const r = this.defaults(RANGE);
    r[RANGE_TYPE_KEY] = type.value;
    this.fieldClause(type.clause, [[r, RANGE]], RANGE_RULES, REGISTER_LETTERS[type.name]);
    return r as unknown as DescriptorRange;
  }

  private staticSampler(): StaticSampler {
    const s = this.defaults(SAMPLER);
    this.fieldClause(CLAUSES.staticSampler, [[s, SAMPLER]], SAMPLER_RULES, REGISTER_LETTERS.SAMPLER);
    return s as unknown as StaticSampler;
  }
}
