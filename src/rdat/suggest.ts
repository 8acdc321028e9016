/**
 * Root signatures for DXIL libraries (`rootsig suggest LIB...`): the cheapest global root signature
 * covering every export's bindings (suggestRootSignature's rules, visibility ALL as library shaders
 * see it); with `localSpace`, the bindings in that register space go to one local root signature
 * per export instead (LOCAL_ROOT_SIGNATURE set).
 */
import { readOnce } from '../bytes/once.js';
import { DescriptionError } from '../bytes/errors.js';
import { printable, quoted } from '../bytes/text.js';
import { expectArray, expectObject, expectOptionKeys, expectOptions } from '../bytes/check.js';
import { suggestRootSignature } from '../binding/suggest.js';
import type { RootSignature } from '../root-signature/types.js';
import type { ShaderBinding } from '../shader/shader.js';
import { checkLibrary, type Library, type LibraryBinding } from './library.js';

/** Options of suggestLibraryRootSignatures. */
export interface LibrarySuggestOptions {
  /** Bindings in this register space go to a local root signature per export. */
  localSpace?: number;
  /** Prefer root descriptors where the rules allow (suggestRootSignature's option). */
  rootDescriptors?: boolean;
}

/** The suggestion: a global root signature (none when no binding is left for it) and the local ones. */
export interface LibrarySuggestion {
  global?: RootSignature;
  locals: { export: string; rootSignature: RootSignature }[];
}

/** Compute: a stage that sees visibility ALL only and has no DENY flag, as library shaders. */
const ALL_STAGE = 5;
const LOCAL_FLAG = 0x80;

const REGISTER_CLASSES: ReadonlySet<string> = new Set(['SRV', 'UAV', 'CBV', 'Sampler']);

/** PSVResourceType of a library binding (codecs/psv0.ts): typed, raw or structured, counter. */
export function psvResourceType(b: LibraryBinding): number {
  if (b.class === 'Sampler') return 1;
  if (b.class === 'CBV') return 2;
  const raw = b.kind === 'RawBuffer' || b.kind === 'RTAccelerationStructure';
  const structured = b.kind === 'StructuredBuffer';
  if (b.class === 'SRV') return raw ? 4 : structured ? 5 : 3;
  if (structured && b.flags & 2) return 9;
  return raw ? 7 : structured ? 8 : 6;
}

const shaderBinding = (b: LibraryBinding): ShaderBinding => ({ resType: psvResourceType(b), space: b.space, lowerBound: b.lowerBound, upperBound: b.upperBound, name: b.name, offset: 0 });

/**
 * Suggests the root signatures of libraries' exports (plain functions left out).
 * @throws {DescriptionError} out-of-range when the bindings fit no root signature; bad-type for bad arguments
 */
export function suggestLibraryRootSignatures(libraries: readonly Library[], options: LibrarySuggestOptions = {}): LibrarySuggestion {
  libraries = readOnce(libraries, 6); // read once (src/bytes/once.ts): each library checked is the one read
  expectArray(libraries, 'libraries');
  expectOptionKeys(options, ['localSpace', 'rootDescriptors']);
  const local = options.localSpace;
  if (local !== undefined && (!Number.isInteger(local) || local < 0 || local > 0xffffffff)) throw new DescriptionError('out-of-range', 'options.localSpace', `${quoted(local)} is not a register space`);
  const global: ShaderBinding[] = [];
  const locals: LibrarySuggestion['locals'] = [];
  libraries.forEach((lib, i) => {
    checkLibrary(lib, `libraries[${i}]`);
    expectArray(lib.exports, `libraries[${i}].exports`);
    lib.exports.forEach((e, j) => {
      if (e.kind === 'Library') return;
      // a binding of no register class (Invalid, unknown(N)) has no range to suggest: refused, never taken for a UAV
      e.bindings.forEach((b, k) => {
        if (!REGISTER_CLASSES.has(b.class)) throw new DescriptionError('out-of-range', `libraries[${i}].exports[${j}].bindings[${k}].class`, `${printable(String(b.class))} is no register class (SRV, UAV, CBV, Sampler): no root signature range can hold it`);
      });
      const mine = e.bindings.filter((b) => b.space === local);
      for (const b of e.bindings) if (b.space !== local) global.push(shaderBinding(b));
      if (mine.length) {
        const rs = suggestRootSignature([{ stage: ALL_STAGE, bindings: mine.map(shaderBinding) }], { rootDescriptors: options.rootDescriptors });
        locals.push({ export: e.name, rootSignature: { ...rs, flags: LOCAL_FLAG } });
      }
    });
  });
  const out: LibrarySuggestion = { locals };
  if (global.length) out.global = { ...suggestRootSignature([{ stage: ALL_STAGE, bindings: global }], { rootDescriptors: options.rootDescriptors }), flags: 0 };
  return out;
}
