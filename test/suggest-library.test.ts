/** `rootsig suggest LIB... [--local-space N]`: root signatures for DXIL libraries that their exports then fit. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';
import { readLibraryRdat } from '../src/rdat/index.js';
import { describeLibrary } from '../src/rdat/library.js';
import { suggestLibraryRootSignatures } from '../src/rdat/suggest.js';
import { verifyStateObject } from '../src/rdat/state-object.js';
import type { RootSignature } from '../src/index.js';
import { CORPUS, corpusFile, manifest } from './helpers/corpus.js';

const LIBRARIES = manifest().filter((r) => r.version.startsWith('lib_'));
const EMPTY_LOCAL: RootSignature = { version: 2, flags: 0x80, parameters: [], staticSamplers: [] };
const BINDING_CODES = new Set(['binding-not-covered', 'binding-covered-twice', 'root-descriptor-refuses', 'global-root-signature-is-local', 'local-root-signature-not-local']);

test('every corpus library fits the suggestion: no binding violation left (global only, and space 1 local)', () => {
  for (const row of LIBRARIES) {
    const bytes = corpusFile(row.file);
    const lib = describeLibrary(readLibraryRdat(bytes).rdat);
    for (const localSpace of [undefined, 1]) {
      for (const rootDescriptors of [false, true]) {
        const s = suggestLibraryRootSignatures([lib], { localSpace, rootDescriptors });
        const r = verifyStateObject([{ name: row.file, library: lib }], {
          ...(s.global ? { globalRootSignature: { name: 'suggested', rootSignature: s.global } } : {}),
          // the suggestion replaces the libraries' own local root signatures: an export without a suggested one gets an empty one
          localRootSignatures: new Map(lib.exports.map((e) => [e.name, { name: `local:${e.name}`, rootSignature: s.locals.find((l) => l.export === e.name)?.rootSignature ?? EMPTY_LOCAL }])),
        });
        const left = r.violations.filter((v) => BINDING_CODES.has(v.code));
        assert.equal(left.map((v) => v.message), [], `${row.file} localSpace ${localSpace} rootDescriptors ${rootDescriptors}`);
        if (localSpace !== undefined) for (const l of s.locals) assert.ok(l.rootSignature.flags & 0x80);
      }
    }
  }
});

test('default.lib_6_3.hlsl: LocalConstants (b0, space1) and LocalConstants2 (b1, space1) go local with --local-space 1', () => {
  const lib = describeLibrary(readLibraryRdat(corpusFile('shaders/vkd3d-proton/default_code_dxil.dxil')).rdat);
  const s = suggestLibraryRootSignatures([lib], { localSpace: 1 });
  assert.equal(s.locals.map((l) => l.export).sort(), ['RayClosest', 'RayMiss']);
  assert.ok(s.global!.parameters.every((p) => !('ranges' in p) || p.ranges.every((r) => r.registerSpace === 0)));
  const all = suggestLibraryRootSignatures([lib]);
  assert.is(all.locals.length, 0);
});

test('dxbin rootsig suggest LIB --local-space 1 prints the global and each local root signature', async () => {
  const s = captureStreams();
  assert.is(await run(['rootsig', 'suggest', join(CORPUS, 'shaders/vkd3d-proton/local_root_signature_code_dxil.dxil'), '--local-space', '1'], s), 0, s.stderr());
  // A and B use Cbuf0 (b0) and Cbuf1 (b1) in space 0, U0 (u0, space1) and U1 (u1, space1) (local_root_signature.lib_6_8.hlsl)
  assert.is(s.stdout(), '// global root signature\nDescriptorTable(CBV(b0, numDescriptors = 2))\n// local root signature of A\nRootFlags(LOCAL_ROOT_SIGNATURE), DescriptorTable(UAV(u0, space = 1))\n// local root signature of B\nRootFlags(LOCAL_ROOT_SIGNATURE), DescriptorTable(UAV(u1, space = 1))\n');
  const bad = captureStreams();
  assert.is(await run(['rootsig', 'suggest', join(CORPUS, 'shaders/vkd3d-proton/default_code_dxil.dxil'), '--local-space', 'x'], bad), 2);
});

test.run();
