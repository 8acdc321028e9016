/**
 * The library path of `dxbin verify LIB... [--rootsig GLOBAL_RS]`: every library among the inputs
 * forms one state object (src/rdat/state-object.ts); each library's answer is its exports and the
 * violations that sit in it. The state object is verified once per run (memo by the run's options).
 */
import { findPart, looksLikeContainer, parseContainer, printable, verifyStateObject, type RootSignature, type StateObjectReport, type StateObjectViolation } from '../../index.js';
import type { RunContext } from '../command.js';
import { CheckFailed } from '../errors.js';

/** True for a container with an RDAT part (a DXIL library). */
export function isLibrary(bytes: Uint8Array): boolean {
  return looksLikeContainer(bytes) && findPart(parseContainer(bytes), 'RDAT') !== undefined;
}

/** One state object per run: keyed by the run's options object (a new one per command line), then by inputs. */
const memo = new WeakMap<object, Map<string, Promise<StateObjectReport>>>();

/** `code export binding subobject: message`. */
export function stateObjectViolationLine(v: StateObjectViolation): string {
  const subject = [v.export && `export ${printable(v.export)}`, v.binding, v.subobject && `subobject ${printable(v.subobject)}`].filter(Boolean).join(' ');
  return `${v.code}${subject ? ` ${subject}` : ''}: ${v.message}`;
}

/** Verifies the state object of all library inputs and answers for `file`. */
export async function verifyLibraryFile(
  file: string,
  ctx: RunContext<{ rootsig?: string; stateObjectInputs?: string[] }>,
  globalRootSignature: RootSignature | undefined,
): Promise<Record<string, unknown>> {
  const inputs = ctx.options.stateObjectInputs ?? [file];
  const key = JSON.stringify([inputs, ctx.options.rootsig ?? null]);
  const runMemo = memo.get(ctx.options) ?? memo.set(ctx.options, new Map()).get(ctx.options)!;
  let pending = runMemo.get(key);
  if (!pending) {
    pending = (async () => {
      const libraries: { name: string; bytes: Uint8Array }[] = [];
      for (const f of inputs) {
        const bytes = await ctx.read(f);
        if (isLibrary(bytes)) libraries.push({ name: f, bytes });
      }
      return verifyStateObject(libraries, globalRootSignature ? { globalRootSignature: { name: ctx.options.rootsig!, rootSignature: globalRootSignature } } : {});
    })();
    runMemo.set(key, pending);
  }
  const report = await pending;
  const exports = report.exports.filter((e) => e.library === file);
  const violations = report.violations.filter((v) => v.library === file);
  const fit = exports.filter((e) => e.fits).length;
  const libraries = report.libraries.length;
  await ctx.print(`${printable(file)}: library in a state object of ${libraries} librar${libraries === 1 ? 'y' : 'ies'}: ${fit} of ${exports.length} export${exports.length === 1 ? '' : 's'} fit${violations.length ? `, ${violations.length} violation${violations.length === 1 ? '' : 's'}` : ''}`);
  for (const v of violations) await ctx.print(`  ${stateObjectViolationLine(v)}`);
  const result = {
    verdict: violations.length ? 'does-not-fit' : 'fits',
    stage: 'Library',
    violations: violations.map(({ library: _l, ...v }) => v),
    coverage: [],
    stateObject: { libraries: report.libraries, exports, verdict: report.verdict },
  };
  if (violations.length) throw new CheckFailed(`the state object does not fit (${violations.length} violation${violations.length === 1 ? '' : 's'} in ${printable(file)})`, result);
  return result;
}
