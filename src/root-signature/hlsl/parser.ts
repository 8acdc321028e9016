/**
 * The root signature language parser, following DXC's (docs/formats/hlsl-root-signature.md): it always builds a 1.1
 * description (1.2 when asked, for static sampler flags) and converts it to the requested
 * version at the end. Messages are DXC's.
 */
import {
  APPEND_KEYWORD,
  CLAUSES,
  DEFAULTS,
  HLSL_RANGE_FLAGS,
  HLSL_ROOT_DESCRIPTOR_FLAGS,
  HLSL_ROOT_FLAGS,
  HLSL_VISIBILITY,
  PARAMETERS,
  UNBOUNDED_KEYWORD,
  hlslSpelling,
  type HlslEnum,
  type HlslFlags,
} from '../../../codecs/hlsl.js';
import { flag } from '../../../codecs/enum-table.js';
import {
  DESCRIPTOR,
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  RANGE,
  ROOT_SIGNATURE_FLAGS,
  REGISTER_LETTERS,
  SAMPLER,
  SHADER_VISIBILITY,
  UNBOUNDED_DESCRIPTORS,
  VERSIONS,
  stores,
  type RootSignatureVersion,
} from '../../../codecs/root-signature.js';
import { convertRootSignature } from '../convert.js';
import { dataFields } from '../rows.js';
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

/** The static sampler's `keyword = value` fields by keyword, and the key its register goes to. */
const SAMPLER_KEYWORDS = new Map(dataFields(SAMPLER).filter((f) => f.row.hlsl && f.row.hlsl.keyword !== 'register').map((f) => [f.row.hlsl!.keyword, f]));
const SAMPLER_REGISTER_KEY = dataFields(SAMPLER).find((f) => f.row.hlsl?.keyword === 'register')!.key;

/**
 * Parses root signature text (DXC's grammar and defaults) into a description at `options.version`.
 * @throws {HlslError} text the language rejects
 */
export function parseRootSignature(source: RootSignatureText | string, options: ParseOptions = {}): RootSignature {
  const text = typeof source === 'string' ? new RootSignatureText(source) : source;
  return new Parser(text, options).parse();
}

type RegisterLetter = 'b' | 't' | 'u' | 's';
const REGISTER_CLAUSE: Record<RegisterLetter, string> = { b: 'CBV', t: 'SRV', u: 'UAV', s: 'Sampler/StaticSampler' };

class Parser {
  private readonly tokens: Token[];
  private at = 0;
  private readonly version: RootSignatureVersion;

  constructor(
    private readonly source: RootSignatureText,
    private readonly options: ParseOptions,
  ) {
    this.tokens = tokenize(source.text);
    this.version = options.version ?? 2;
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
      } else if (clause === CLAUSES.rootConstants) rs.parameters.push(this.rootConstants());
      else if (clause === CLAUSES.cbv) rs.parameters.push(this.rootDescriptor(2, 'b'));
      else if (clause === CLAUSES.srv) rs.parameters.push(this.rootDescriptor(3, 't'));
      else if (clause === CLAUSES.uav) rs.parameters.push(this.rootDescriptor(4, 'u'));
      else if (clause === CLAUSES.descriptorTable) rs.parameters.push(this.descriptorTable());
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
  private flagsValue(table: HlslFlags, what: 'Root descriptor' | 'Descriptor range' | 'Static sampler'): number {
    this.expect({ keyword: PARAMETERS.flags });
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

  private visibility(): number {
    this.assignment(PARAMETERS.visibility);
    return this.enumValue(HLSL_VISIBILITY, 'visibility');
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

  private rootConstants(): RootParameter {
    const c = { shaderRegister: 0, registerSpace: 0, num32BitValues: 0 };
    let shaderVisibility = 0;
    let count = false;
    let reg = false;
    this.clause(CLAUSES.rootConstants, (t, seen) => {
      if (this.isKeyword(t, PARAMETERS.num32BitConstants)) {
        seen('num32BitConstants');
        c.num32BitValues = this.u32(PARAMETERS.num32BitConstants);
        count = true;
      } else if (t.kind === 'register' && t.name === 'b') {
        seen('cbuffer register b#');
        c.shaderRegister = this.register('b');
        reg = true;
      } else if (this.isKeyword(t, PARAMETERS.space)) {
        seen('space');
        c.registerSpace = this.u32(PARAMETERS.space);
      } else if (this.isKeyword(t, PARAMETERS.visibility)) {
        seen('visibility');
        shaderVisibility = this.visibility();
      } else this.unexpected(t);
    });
    if (!count) this.fail('num32BitConstants must be defined for each RootConstants');
    if (!reg) this.fail('Constant buffer register b# must be defined for each RootConstants');
    return { parameterType: 1, shaderVisibility, constants: c };
  }

  private rootDescriptor(parameterType: 2 | 3 | 4, letter: 'b' | 't' | 'u'): RootParameter {
    const d = { shaderRegister: 0, registerSpace: 0, flags: 0 };
    let shaderVisibility = 0;
    let reg = false;
    const keyword = parameterType === 2 ? CLAUSES.cbv : parameterType === 3 ? CLAUSES.srv : CLAUSES.uav;
    this.clause(keyword, (t, seen) => {
      if (t.kind === 'register' && t.name !== 's') {
        seen('shader register');
        d.shaderRegister = this.register(letter);
        reg = true;
      } else if (this.isKeyword(t, PARAMETERS.flags)) {
        seen('flags');
        if (!stores(DESCRIPTOR.fields.flags, this.version)) this.fail('Root descriptor flags cannot be specified for root_sig_1_0');
        d.flags = this.flagsValue(HLSL_ROOT_DESCRIPTOR_FLAGS, 'Root descriptor');
      } else if (this.isKeyword(t, PARAMETERS.space)) {
        seen('space');
        d.registerSpace = this.u32(PARAMETERS.space);
      } else if (this.isKeyword(t, PARAMETERS.visibility)) {
        seen('visibility');
        shaderVisibility = this.visibility();
      } else this.unexpected(t);
    });
    if (!reg) this.fail('shader register must be defined for each CBV/SRV/UAV');
    return { parameterType, shaderVisibility, descriptor: d };
  }

  private descriptorTable(): RootParameter {
    const ranges: DescriptorRange[] = [];
    let shaderVisibility = 0;
    this.clause(CLAUSES.descriptorTable, (t, seen) => {
      const kind = t.kind === 'keyword' ? t.name : '';
      if (kind === CLAUSES.cbv) ranges.push(this.range(CLAUSES.cbv, 2, 'b'));
      else if (kind === CLAUSES.srv) ranges.push(this.range(CLAUSES.srv, 0, 't'));
      else if (kind === CLAUSES.uav) ranges.push(this.range(CLAUSES.uav, 1, 'u'));
      else if (kind === CLAUSES.sampler) ranges.push(this.range(CLAUSES.sampler, 3, 's'));
      else if (kind === PARAMETERS.visibility) {
        seen('visibility');
        shaderVisibility = this.visibility();
      } else this.unexpected(t);
    });
    return { parameterType: 0, shaderVisibility, ranges };
  }

  private range(keyword: string, rangeType: number, letter: RegisterLetter): DescriptorRange {
    const r: DescriptorRange = {
      rangeType,
      numDescriptors: DEFAULTS.numDescriptors,
      baseShaderRegister: 0,
      registerSpace: DEFAULTS.space,
      flags: DEFAULTS.flags,
      offsetInDescriptorsFromTableStart: DESCRIPTOR_RANGE_OFFSET_APPEND,
    };
    let reg = false;
    this.clause(keyword, (t, seen) => {
      if (t.kind === 'register') {
        seen('shader register');
        r.baseShaderRegister = this.register(letter);
        reg = true;
      } else if (this.isKeyword(t, PARAMETERS.numDescriptors)) {
        seen('numDescriptors');
        this.assignment(PARAMETERS.numDescriptors);
        if (this.isKeyword(this.peek(), UNBOUNDED_KEYWORD)) {
          this.next();
          r.numDescriptors = UNBOUNDED_DESCRIPTORS;
        } else r.numDescriptors = this.expect('u32').value;
      } else if (this.isKeyword(t, PARAMETERS.space)) {
        seen('space');
        r.registerSpace = this.u32(PARAMETERS.space);
      } else if (this.isKeyword(t, PARAMETERS.flags)) {
        seen('flags');
        if (!stores(RANGE.fields.flags, this.version)) this.fail('Descriptor range flags cannot be specified for root_sig_1_0');
        r.flags = this.flagsValue(HLSL_RANGE_FLAGS, 'Descriptor range');
      } else if (this.isKeyword(t, PARAMETERS.offset)) {
        seen('offset');
        this.assignment(PARAMETERS.offset);
        if (this.isKeyword(this.peek(), APPEND_KEYWORD)) {
          this.next();
          r.offsetInDescriptorsFromTableStart = DESCRIPTOR_RANGE_OFFSET_APPEND;
        } else r.offsetInDescriptorsFromTableStart = this.expect('u32').value;
      } else this.unexpected(t);
    });
    if (!reg) this.fail('shader register must be defined for each CBV/SRV/UAV');
    return r;
  }

  private staticSampler(): StaticSampler {
    const s = Object.fromEntries(dataFields(SAMPLER).map((f) => [f.key, f.row.hlsl?.default ?? f.row.default ?? 0])) as unknown as Record<string, number>;
    let reg = false;
    this.clause(CLAUSES.staticSampler, (t, seen) => {
      if (t.kind === 'register' && t.name === REGISTER_LETTERS.SAMPLER) {
        seen('sampler register s#');
        s[SAMPLER_REGISTER_KEY] = this.register(REGISTER_LETTERS.SAMPLER);
        reg = true;
        return;
      }
      // every other item is `keyword = value`, read as the field's row says
      const field = t.kind === 'keyword' ? SAMPLER_KEYWORDS.get(t.name) : undefined;
      if (!field || (!stores(field.row, this.version) && field.row.default !== undefined)) this.unexpected(t);
      const { key, row } = field;
      const keyword = row.hlsl!.keyword;
      seen(keyword);
      const kind = row.kind;
      if (kind === 'f32') s[key] = this.float(keyword);
      else if (typeof kind === 'string') s[key] = this.u32(keyword);
      else if ('bits' in kind) s[key] = this.flagsValue(hlslSpelling(kind) as HlslFlags, 'Static sampler');
      else if (kind === SHADER_VISIBILITY) s[key] = this.visibility();
      else {
        this.assignment(keyword);
        const spelling = hlslSpelling(kind) as HlslEnum;
        s[key] = this.enumValue(spelling, spelling.what ?? keyword);
      }
    });
    if (!reg) this.fail('Sampler register s# must be defined for each static sampler');
    return s as unknown as StaticSampler;
  }
}
