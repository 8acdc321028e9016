/**
 * The bindings view: the shader's bindings as `verify` reads them (PSV0 for DXIL, declarations for
 * DXBC; for a DXIL library each export's from RDAT), the verdict against the file's own root
 * signature, and "verify against a root signature file": the library's verifyRootSignature (a
 * shader) or verifyStateObject (a library, the file's root signature as the state object's global
 * one), with every violation. Names from the file pass `printable`; text only through textContent.
 */
import {
  DecodeError,
  decodeRdat,
  describeLibrary,
  findPart,
  formatBinding,
  formatViolation,
  parseJsonText,
  partDataOffset,
  printable,
  readRootSignatureSource,
  resTypeName,
  rootSignatureFromJson,
  shaderOf,
  stageName,
  verifyRootSignature,
  verifyStateObject,
  type BindingViolation,
  type ParsedContainer,
  type RootSignature,
  type ShaderBinding,
  type ShaderInfo,
  type StateObjectReport,
  type StateObjectViolation,
  type VerifyResult,
} from '../../src/index.js';
import { $, h, message } from '../dom.js';
import { state } from '../state.js';
import { jsonNode } from './part-panels.js';

/** Violations listed at most (the count is in the verdict line). */
export const MAX_VIOLATIONS = 1000;

/** What the view verifies: the loaded shader, or the loaded library. */
let subject: { kind: 'shader'; shader: ShaderInfo } | { kind: 'library'; name: string; bytes: Uint8Array } | undefined;

/** The text of a shader binding: `CBV b0, space1 (name)`. */
export function bindingText(b: ShaderBinding): string {
  return `${resTypeName(b.resType)} ${formatBinding(b)}${b.name ? ` (${printable(b.name)})` : ''}`;
}

/** One line per binding violation: `code subject path: message` (the CLI's words). */
export function violationText(v: BindingViolation): string {
  return formatViolation(v, v.binding ? bindingText(v.binding) : '');
}

/** One line per state-object violation: `code export NAME binding subobject NAME: message`. */
export function stateObjectViolationText(v: StateObjectViolation): string {
  const subjectText = [v.export && `export ${printable(v.export)}`, v.binding && printable(v.binding), v.subobject && `subobject ${printable(v.subobject)}`].filter(Boolean).join(' ');
  return `${v.code}${subjectText ? ` ${subjectText}` : ''}${v.path ? ` ${v.path}` : ''}: ${printable(v.message)}`;
}

/** The verdict line of a shader against a root signature named `from`. */
export function verdictText(r: VerifyResult, from: string): string {
  if (r.verdict === 'not-verifiable') return `not verifiable against ${from}: ${printable(r.reason ?? '')}`;
  const n = r.coverage.length + r.violations.filter((v) => v.binding).length;
  const violations = r.violations.length ? `, ${r.violations.length} violation${r.violations.length === 1 ? '' : 's'}` : '';
  return `${stageName(r.stage)} shader ${r.verdict === 'fits' ? 'fits' : 'does not fit'} ${from} (${n} binding${n === 1 ? '' : 's'}${violations})`;
}

/** The verdict line of a state object. */
export function stateObjectText(r: StateObjectReport, from: string): string {
  const fit = r.exports.filter((e) => e.fits).length;
  return `state object ${r.verdict === 'fits' ? 'fits' : 'does not fit'} (${from}): ${fit} of ${r.exports.length} export${r.exports.length === 1 ? '' : 's'} fit${r.violations.length ? `, ${r.violations.length} violation${r.violations.length === 1 ? '' : 's'}` : ''}`;
}

function showVerdict(id: string, text: string, verdict: string, lines: readonly string[], codes: readonly string[]): void {
  const p = $(id);
  p.textContent = text;
  p.dataset.verdict = verdict;
  p.classList.toggle('warn', verdict !== 'fits');
  const list = $(`${id}-violations`);
  // one fragment (a list of violations is as long as the input makes it: no spread)
  const frag = document.createDocumentFragment();
  for (let i = 0; i < Math.min(lines.length, MAX_VIOLATIONS); i++) {
    const li = h('li', lines[i]);
    li.dataset.code = codes[i]!;
    frag.appendChild(li);
  }
  if (lines.length > MAX_VIOLATIONS) frag.appendChild(h('li', `… ${lines.length - MAX_VIOLATIONS} more (dxbin verify lists every one)`, 'more'));
  list.replaceChildren(frag);
}

function showShaderVerdict(r: VerifyResult, from: string): void {
  showVerdict('bindings-verdict', verdictText(r, from), r.verdict, r.violations.map(violationText), r.violations.map((v) => v.code));
}

function showStateObject(r: StateObjectReport, from: string): void {
  showVerdict('bindings-verdict', stateObjectText(r, from), r.verdict, r.violations.map(stateObjectViolationText), r.violations.map((v) => v.code));
  $('bindings-exports').replaceChildren(jsonNode(r.exports.map(({ library: _l, ...e }) => e), 'exports'));
}

/** Draws the view for a loaded container (hidden for one without a program). */
export function showBindings(name: string, bytes: Uint8Array, container: ParsedContainer): void {
  const view = $('bindings-view');
  subject = undefined;
  $('bindings-table').replaceChildren();
  $('bindings-exports').replaceChildren();
  $('bindings-verdict').textContent = '';
  $('bindings-verdict-violations').replaceChildren();
  const rdat = findPart(container, 'RDAT');
  try {
    if (rdat) {
      subject = { kind: 'library', name, bytes };
      view.hidden = false;
      let lib;
      try {
        lib = describeLibrary(decodeRdat(rdat.data, partDataOffset(container, container.parts.indexOf(rdat))));
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        $('bindings-source').textContent = `library: the RDAT part does not decode: ${message(e)}`;
        return;
      }
      $('bindings-source').textContent = `DXIL library: ${lib.exports.length} export${lib.exports.length === 1 ? '' : 's'}, ${lib.subobjects.length} subobject${lib.subobjects.length === 1 ? '' : 's'} (bindings from RDAT)`;
      $('bindings-table').appendChild(jsonNode(lib.exports.map((e) => ({ export: e.name, kind: e.kind, bindings: e.bindings.map(({ resource: _r, ...b }) => b) })), 'library'));
      showStateObject(verifyStateObject([{ name, bytes }]), "the library's own subobjects");
      return;
    }
    let shader: ShaderInfo;
    try {
      shader = shaderOf(container);
    } catch (e) {
      if (e instanceof DecodeError && e.code === 'missing-part') {
        view.hidden = true;
        return;
      }
      throw e;
    }
    subject = { kind: 'shader', shader };
    view.hidden = false;
    const from = shader.psv ? 'PSV0' : shader.format === 'dxbc' ? 'declarations' : 'no PSV0';
    $('bindings-source').textContent = `${stageName(shader.stage)} shader, ${shader.format === 'dxil' ? 'DXIL' : 'DXBC'} SM ${shader.shaderModel}: ${shader.bindings ? `${shader.bindings.length} binding${shader.bindings.length === 1 ? '' : 's'}` : 'bindings unknown'} (${from})`;
    if (shader.bindings) {
      const rows = shader.bindings.map((b) => ({ type: resTypeName(b.resType), registers: formatBinding(b), space: b.space, lowerBound: b.lowerBound, upperBound: b.upperBound, ...(b.name ? { name: b.name } : {}) }));
      $('bindings-table').appendChild(jsonNode(rows, 'bindings'));
    }
    if (findPart(container, 'RTS0')) showShaderVerdict(verifyRootSignature(shader), 'its own root signature');
    else showVerdict('bindings-verdict', 'no root signature in the file: choose one to verify against', 'none', [], []);
  } catch (e) {
    view.hidden = false;
    $('bindings-source').textContent = message(e);
  }
}

/** The root signature of a chosen file: a container holding RTS0, a bare part, or the JSON form. */
function rootSignatureOf(name: string, bytes: Uint8Array): RootSignature {
  if (/\.json$/i.test(name)) return rootSignatureFromJson(parseJsonText(new TextDecoder().decode(bytes), name));
  return readRootSignatureSource(bytes).rootSignature;
}

/** Verifies the loaded shader or library against the root signature in `file`. */
export async function verifyAgainstFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const from = `root signature file ${printable(file.name)}`;
  const loads = state.loads;
  try {
    const rs = rootSignatureOf(file.name, bytes);
    if (loads !== state.loads || !subject) return;
    if (subject.kind === 'shader') showShaderVerdict(verifyRootSignature(subject.shader, rs), from);
    else showStateObject(verifyStateObject([{ name: subject.name, bytes: subject.bytes }], { globalRootSignature: { name: file.name, rootSignature: rs } }), `global ${from}`);
  } catch (e) {
    showVerdict('bindings-verdict', `${from}: ${message(e)}`, 'error', [], []);
  }
  document.body.dataset.verified = String(Number(document.body.dataset.verified ?? 0) + 1);
}
