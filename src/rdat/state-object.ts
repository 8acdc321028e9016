/**
 * DXIL libraries verified as one state object, as CreateStateObject would (docs/formats/rdat.md,
 * "State objects"; rules in codecs/state-object-rules.ts from the DXR spec): subobject
 * associations (explicit beats default, defaults per library, conflicts are errors, hit groups
 * pass theirs to their members), every binding of every export covered by its global plus local
 * root signature (the coverage rule of src/binding/verify.ts), hit groups naming exports of the
 * right kinds, shader config sizes, and local root signatures for nodes with local root arguments.
 * Names are indexed once; each export is resolved in time proportional to its associations.
 */
import { readOnce } from '../bytes/once.js';
import {
  ASSOCIATION_TYPE,
  HIT_GROUP_MEMBERS,
  MAX_ATTRIBUTE_SIZE,
  RAY_TRACING_KINDS,
  STATE_OBJECT_RULES,
  type StateObjectViolationCode,
} from '../../codecs/state-object-rules.js';
import { limitKeys, Budget, budgetOf } from '../bytes/budget.js';
import { fillMessage } from '../bytes/errors.js';
import { expectArray, expectBytes, expectObject, expectOptionKeys, expectOptions, expectString } from '../bytes/check.js';
import { BINDING_RULES } from '../../codecs/binding-rules.js';
import { heapIndexingViolations, rootSignatureIntervals } from '../binding/verify.js';
import type { RootSignature } from '../root-signature/types.js';
import { readLibraryRdat } from './index.js';
import { checkLibrary, describeLibrary, formatLibraryBinding, type Library, type LibraryBinding, type LibraryExport, type LibrarySubobject } from './library.js';

export type { StateObjectViolationCode };

/** A table's row for a key from input: an own key only (a hand-made Library's kind "constructor" or "toString" is none, not Object's members). */
const own = <T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined => (typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined);

/** One broken rule: the export, binding and subobject it concerns, and the library it sits in. */
export interface StateObjectViolation {
  code: StateObjectViolationCode;
  message: string;
  library: string;
  export?: string;
  binding?: string;
  subobject?: string;
  /** The root parameter concerned (`RTS0.parameters[0]`), where one is. */
  path?: string;
}

/** What one export resolved to and whether it fits. */
export interface StateObjectExport {
  library: string;
  name: string;
  kind: string;
  globalRootSignature?: string;
  localRootSignature?: string;
  shaderConfig?: string;
  fits: boolean;
}

/** The outcome of verifyStateObject: every export with what it resolved to, and every violation. */
export interface StateObjectReport {
  verdict: 'fits' | 'does-not-fit';
  /** The libraries' names, in the order given. */
  libraries: string[];
  exports: StateObjectExport[];
  violations: StateObjectViolation[];
}

/** A library of the state object: a label for messages and its container bytes (or its description). */
export interface StateObjectLibrary {
  name: string;
  bytes?: Uint8Array;
  library?: Library;
}

/** Options of verifyStateObject. */
export interface StateObjectOptions {
  /** A global root signature declared at state-object scope: it overrides every library's (DXR spec, overriding DXIL library associations). */
  globalRootSignature?: { name: string; rootSignature: RootSignature };
  /** Local root signatures associated at state-object scope, by export name: they override the libraries'. */
  localRootSignatures?: ReadonlyMap<string, { name: string; rootSignature: RootSignature }>;
  /**
   * The call's work budget: each violation reported is charged to its `produce` kind (the
   * characters of its message plus 64): exports sharing one resource list could otherwise turn a
   * small part into a huge report. Without it, one for the libraries' container bytes (64 x, at
   * least 4 Ki; `maxProducedChars` sets the limit), or none when libraries are given as descriptions.
   */
  budget?: Budget;
  /** The `produce` limit when no `budget` is given (docs/limits.md). */
  maxProducedChars?: number;
  /** @deprecated Sets the `produce` limit to maxViolations x 256 characters when no `budget` or `maxProducedChars` is given. */
  maxViolations?: number;
}

/** What one violation costs of the `produce` kind besides its message (its code, library, export and binding). */
const VIOLATION_CHARS = 64;

const LOCAL_FLAG = 0x80;
/** Register classes by a binding's class; `Invalid` and `unknown(N)` have none, so no range covers such a binding. */
const CLASS_NUMBER: Readonly<Partial<Record<LibraryBinding['class'], number>>> = { SRV: 0, UAV: 1, CBV: 2, Sampler: 3 };
const UNTYPED = new Set(['RawBuffer', 'StructuredBuffer', 'RTAccelerationStructure']);
const UAV_COUNTER = 2;

interface Placed<T> {
  lib: number;
  item: T;
}

const message = (code: StateObjectViolationCode, values: Record<string, string | number>) => fillMessage(STATE_OBJECT_RULES.find((r) => r.code === code)!.message, values);

/** `a, b, c, d and 96 more`: a list of names of bounded length. */
const nameList = (list: readonly string[]) => (list.length <= 4 ? list.join(', ') : `${list.slice(0, 4).join(', ')} and ${list.length - 4} more`);

/** A stable identity of a subobject's definition, so that identical duplicates do not conflict. */
const definition = (s: LibrarySubobject) => JSON.stringify([s.kind, s.contents, s.rootSignature ? Array.from(s.rootSignature.bytes) : null]);

/**
 * Verifies DXIL libraries as one state object.
 * @throws {DecodeError} a library whose container or RDAT part is malformed
 * @throws {DescriptionError} bad-type for arguments of the wrong type
 * @throws {LimitError} limit-exceeded: the report past the budget's `produce`
 */
export function verifyStateObject(libraries: readonly StateObjectLibrary[], options: StateObjectOptions = {}): StateObjectReport {
  libraries = readOnce(libraries, 7); // read once (src/bytes/once.ts): each library checked is the one verified
  expectArray(libraries, 'libraries');
  expectOptionKeys(options, limitKeys('globalRootSignature', 'localRootSignatures', 'maxViolations'));
  const libs = libraries.map((l, i) => {
    expectObject(l, `libraries[${i}]`);
    expectString(l.name, `libraries[${i}].name`);
    if (l.library) {
      checkLibrary(l.library, `libraries[${i}].library`);
      return l.library;
    }
    expectBytes(l.bytes, `libraries[${i}].bytes`);
    return describeLibrary(readLibraryRdat(l.bytes, { sharedArrays: true }).rdat);
  });
  const names = libraries.map((l) => l.name);
  const violations: StateObjectViolation[] = [];
  const rdatBytes = libraries.reduce((n, l) => n + (l.library ? Infinity : l.bytes!.byteLength), 0);
  const maxProducedChars = options.maxProducedChars ?? (options.maxViolations === undefined ? undefined : options.maxViolations * 256);
  const budget = options.budget === undefined && maxProducedChars === undefined && rdatBytes === Infinity ? Budget.unlimited() : budgetOf({ budget: options.budget, maxProducedChars }, rdatBytes);
  const report = (code: StateObjectViolationCode, lib: number, values: Record<string, string | number>, where: Omit<StateObjectViolation, 'code' | 'message' | 'library'> = {}) => {
    const text = message(code, { library: names[lib]!, ...values });
    budget.charge('produce', text.length + VIOLATION_CHARS, 'libraries'); // exports sharing resource lists fan out
    violations.push({ code, message: text, library: names[lib]!, ...where });
  };

  // Index every export and subobject by name once.
  const exports = new Map<string, Placed<LibraryExport>>();
  const subobjects = new Map<string, Placed<LibrarySubobject>>();
  libs.forEach((lib, l) => {
    for (const e of lib.exports) {
      const seen = exports.get(e.name);
      if (seen) report('duplicate-export', l, { export: e.name, other: names[seen.lib]!, otherIndex: seen.item.function, index: e.function }, { export: e.name });
      else exports.set(e.name, { lib: l, item: e });
    }
    for (const s of lib.subobjects) {
      const seen = subobjects.get(s.name);
      if (seen) report('duplicate-subobject', l, { subobject: s.name, other: names[seen.lib]!, otherIndex: seen.item.subobject, otherKind: seen.item.kind, index: s.subobject, kind: s.kind }, { subobject: s.name });
      else subobjects.set(s.name, { lib: l, item: s });
    }
  });
  const hitGroupsOf = new Map<string, string[]>();
  for (const [name, { item }] of subobjects) {
    if (item.kind !== 'HitGroup') continue;
    for (const m of HIT_GROUP_MEMBERS) {
      const member = item.contents[m.field];
      if (typeof member !== 'string' || !member) continue;
      const list = hitGroupsOf.get(member);
      if (list) list.push(name);
      else hitGroupsOf.set(member, [name]);
    }
  }

  // Associations: explicit (target -> type -> subobjects) and defaults (library -> type -> subobjects).
  const explicit = new Map<string, Map<string, Set<string>>>();
  const defaults = libs.map(() => new Map<string, Set<string>>());
  const add = (m: Map<string, Set<string>>, type: string, name: string) => (m.get(type) ?? m.set(type, new Set()).get(type)!).add(name);
  libs.forEach((lib, l) => {
    const referenced = new Set<string>();
    for (const a of lib.subobjects) {
      if (a.kind !== 'SubobjectToExportsAssociation') continue;
      const target = String(a.contents.Subobject ?? '');
      const so = subobjects.get(target);
      if (!so) {
        report('unresolved-subobject', l, { association: a.name, subobject: target }, { subobject: a.name });
        continue;
      }
      const type = own(ASSOCIATION_TYPE, so.item.kind);
      if (!type) continue;
      const list = Array.isArray(a.contents.Exports) ? (a.contents.Exports as string[]) : [];
      if (list.length === 0) add(defaults[l]!, type, target);
      for (const x of list) {
        if (!exports.has(x) && !(subobjects.get(x)?.item.kind === 'HitGroup')) report('unresolved-export', l, { association: a.name, export: x }, { export: x, subobject: a.name });
        add(explicit.get(x) ?? explicit.set(x, new Map()).get(x)!, type, target);
        if (subobjects.get(target)!.lib === l) referenced.add(target);
      }
    }
    for (const s of lib.subobjects) {
      const type = own(ASSOCIATION_TYPE, s.kind);
      if (type && !referenced.has(s.name)) add(defaults[l]!, type, s.name);
    }
  });

  /** Distinct definitions among subobject names (identical duplicates count once); each definition computed once. */
  const definitions = new Map<string, string>();
  const definitionOf = (n: string) => definitions.get(n) ?? definitions.set(n, definition(subobjects.get(n)!.item)).get(n)!;
  const distinct = (set: Iterable<string>) => {
    const seen = new Map<string, string>();
    for (const n of set) {
      const d = definitionOf(n);
      if (!seen.has(d)) seen.set(d, n);
    }
    return [...seen.values()];
  };
  const defaultsMemo = new Map<string, string[]>();
  const distinctDefaults = (l: number, type: string) => {
    const key = `${l}/${type}`;
    return defaultsMemo.get(key) ?? defaultsMemo.set(key, distinct(defaults[l]!.get(type) ?? [])).get(key)!;
  };
  const resolve = (x: string, l: number, type: string): string | undefined => {
    const own = distinct(explicit.get(x)?.get(type) ?? []);
    if (own.length > 1) report('conflicting-associations', l, { export: x, type, subobjects: nameList(own) }, { export: x, subobject: nameList(own) });
    const groups = hitGroupsOf.get(x) ?? [];
    const viaGroups = distinct(groups.flatMap((g) => [...(explicit.get(g)?.get(type) ?? [])]));
    for (const g of groups) {
      const theirs = distinct(explicit.get(g)?.get(type) ?? []);
      if (own.length && theirs.length && theirs[0] !== own[0]) report('hit-group-mismatch', l, { hitGroup: g, type, subobject: theirs[0]!, export: x, other: own[0]! }, { export: x, subobject: theirs[0] });
    }
    if (own.length) return own[0];
    if (viaGroups.length > 1) report('hit-group-mismatch', l, { hitGroup: nameList(groups), type, subobject: viaGroups[0]!, export: x, other: nameList(viaGroups.slice(1)) }, { export: x, subobject: nameList(viaGroups) });
    if (viaGroups.length) return viaGroups[0];
    const d = distinctDefaults(l, type);
    if (d.length > 1) report('conflicting-defaults', l, { export: x, type, subobjects: nameList(d) }, { export: x, subobject: nameList(d) });
    return d[0];
  };

  // Root signatures: decoded once, intervals built once, flags checked once per use.
  const intervals = new Map<string, { sets: ReturnType<typeof rootSignatureIntervals>; flags: number } | null>();
  const checkedAs = new Set<string>();
  const rootSignature = (name: string | undefined, as: 'global' | 'local'): { name: string; sets: ReturnType<typeof rootSignatureIntervals>; flags: number } | undefined => {
    if (name === undefined) return undefined;
    const given = as === 'global' ? options.globalRootSignature : undefined;
    const key = `${as}:${name}`;
    if (!intervals.has(key)) {
      const so = given ? undefined : subobjects.get(name);
      const rs = given ? given.rootSignature : so?.item.rootSignature?.description;
      const l = so?.lib ?? 0;
      if (!rs) {
        if (so?.item.rootSignature?.error) report('root-signature-undecodable', l, { subobject: name, detail: so.item.rootSignature.error }, { subobject: name });
        intervals.set(key, null);
      } else {
        intervals.set(key, { sets: rootSignatureIntervals(rs), flags: rs.flags });
        if (!checkedAs.has(key)) {
          checkedAs.add(key);
          if (as === 'global' && rs.flags & LOCAL_FLAG) report('global-root-signature-is-local', l, { subobject: name }, { subobject: name, path: 'RTS0.flags' });
          if (as === 'local' && !(rs.flags & LOCAL_FLAG)) report('local-root-signature-not-local', l, { subobject: name }, { subobject: name, path: 'RTS0.flags' });
        }
      }
    }
    const known = intervals.get(key);
    return known ? { name, ...known } : undefined;
  };

  // Hit groups name existing exports of the right kinds.
  for (const [name, { lib: l, item }] of subobjects) {
    if (item.kind !== 'HitGroup') continue;
    for (const m of HIT_GROUP_MEMBERS) {
      const member = item.contents[m.field];
      if (typeof member !== 'string' || !member) continue;
      const e = exports.get(member);
      if (!e) report('hit-group-member-missing', l, { hitGroup: name, role: m.role, export: member }, { subobject: name, export: member });
      else if (e.item.kind !== m.kind) report('hit-group-member-kind', l, { hitGroup: name, role: m.role, export: member, kind: e.item.kind }, { subobject: name, export: member });
    }
    const intersection = typeof item.contents.Intersection === 'string' && item.contents.Intersection !== '';
    if (item.contents.Type === 'Triangle' && intersection) report('hit-group-intersection', l, { hitGroup: name, detail: 'a triangle hit group has no intersection shader' }, { subobject: name });
    if (item.contents.Type === 'ProceduralPrimitive' && !intersection) report('hit-group-intersection', l, { hitGroup: name, detail: 'a procedural primitive hit group needs an intersection shader' }, { subobject: name });
  }

  // Each entry point.
  const out: StateObjectExport[] = [];
  const configsUsed = new Set<string>();
  libs.forEach((lib, l) => {
    for (const e of lib.exports) {
      if (e.kind === 'Library' || exports.get(e.name)?.item !== e) continue;
      const before = violations.length;
      const globalName = options.globalRootSignature ? options.globalRootSignature.name : resolve(e.name, l, 'GlobalRootSignature');
      const givenLocal = options.localRootSignatures?.get(e.name);
      const localName = givenLocal ? givenLocal.name : resolve(e.name, l, 'LocalRootSignature');
      const g = rootSignature(globalName, 'global');
      const lo = givenLocal ? { name: givenLocal.name, sets: rootSignatureIntervals(givenLocal.rootSignature) } : rootSignature(localName, 'local');
      // The runtime's descriptor-heap rule, per export (its FeatureInfo1) against the global root
      // signature's flags, before the bindings; no global root signature opens no heap (one that does
      // not decode is reported as such, not again here).
      const globalUnreadable = globalName !== undefined && g === undefined;
      for (const code of globalUnreadable ? [] : heapIndexingViolations(e.flags.featureInfo1, g?.flags ?? 0)) {
        report(code, l, { export: e.name, global: globalName ?? '(none)', message: BINDING_RULES.find((r) => r.code === code)!.message }, { export: e.name, ...(globalName ? { subobject: globalName, path: 'RTS0.flags' } : {}) });
      }
      for (const b of e.bindings) {
        const key = `${Object.hasOwn(CLASS_NUMBER, b.class) ? CLASS_NUMBER[b.class] : 'none'}/${b.space}/0`;
        const ub = b.upperBound === 0xffffffff ? b.lowerBound : b.upperBound;
        const inGlobal = g?.sets.get(key)?.containing(b.lowerBound, ub);
        const inLocal = lo?.sets.get(key)?.containing(b.lowerBound, ub);
        const binding = formatLibraryBinding(b);
        if (!inGlobal && !inLocal) {
          report('binding-not-covered', l, { export: e.name, binding, global: globalName ?? '(none)', local: localName ?? '(none)' }, { export: e.name, binding, subobject: [globalName, localName].filter(Boolean).join(', ') || undefined });
          continue;
        }
        if (inGlobal && inLocal) report('binding-covered-twice', l, { export: e.name, binding, global: globalName!, local: localName!, globalPath: inGlobal.path, localPath: inLocal.path }, { export: e.name, binding, subobject: `${globalName}, ${localName}` });
        const hit = inGlobal ?? inLocal!;
        const typed = !UNTYPED.has(b.kind) || (b.class === 'UAV' && b.flags & UAV_COUNTER);
        if (hit.rootDescriptor && (b.class === 'SRV' || b.class === 'UAV') && typed) {
          const subobject = inGlobal ? globalName! : localName!;
          report('root-descriptor-refuses', l, { export: e.name, binding, kind: b.kind, path: hit.path, subobject }, { export: e.name, binding, subobject, path: hit.path });
        }
      }
      let configName: string | undefined;
      const rt = own(RAY_TRACING_KINDS, e.kind);
      if (rt) {
        configName = resolve(e.name, l, 'RaytracingShaderConfig');
        const config = configName ? subobjects.get(configName)!.item : undefined;
        if (!config) report('no-shader-config', l, { export: e.name, kind: e.kind }, { export: e.name });
        else {
          configsUsed.add(configName!);
          const maxPayload = Number(config.contents.MaxPayloadSizeInBytes ?? 0);
          const maxAttributes = Number(config.contents.MaxAttributeSizeInBytes ?? 0);
          if (rt.payload && e.payloadSizeInBytes > maxPayload) report('payload-too-large', l, { export: e.name, size: e.payloadSizeInBytes, max: maxPayload, subobject: configName! }, { export: e.name, subobject: configName });
          if (rt.attributes && e.attributeSizeInBytes > maxAttributes) report('attributes-too-large', l, { export: e.name, size: e.attributeSizeInBytes, max: maxAttributes, subobject: configName! }, { export: e.name, subobject: configName });
        }
      }
      if (e.localRootArgumentsTableIndex !== undefined && !localName) report('local-root-arguments-without-local-root-signature', l, { export: e.name, index: e.localRootArgumentsTableIndex }, { export: e.name });
      out.push({
        library: names[l]!,
        name: e.name,
        kind: e.kind,
        ...(globalName ? { globalRootSignature: globalName } : {}),
        ...(localName ? { localRootSignature: localName } : {}),
        ...(configName ? { shaderConfig: configName } : {}),
        fits: violations.slice(before).every((v) => v.export !== e.name),
      });
    }
  });
  for (const c of configsUsed) {
    const { lib: l, item } = subobjects.get(c)!;
    if (Number(item.contents.MaxAttributeSizeInBytes) > MAX_ATTRIBUTE_SIZE) report('attribute-limit', l, { subobject: c, max: Number(item.contents.MaxAttributeSizeInBytes) }, { subobject: c });
  }
  const configs = distinct(configsUsed);
  if (configs.length > 1) report('shader-configs-differ', subobjects.get(configs[0]!)!.lib, { subobjects: nameList(configs) }, { subobject: nameList(configs) });
  return { verdict: violations.length ? 'does-not-fit' : 'fits', libraries: names, exports: out, violations };
}
