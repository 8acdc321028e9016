/** The root signature panel: HLSL, JSON, the description tree, validation per target, conversion. */
import { CONVERSION_SEMANTICS, ROOT_SIGNATURE_VERSIONS, VALIDATION_TARGETS, convertRootSignature, describeConversionReport, encodeRootSignature, printRootSignature, rootSignatureToJson, validateRootSignature, withRootSignature, writeEdited, type RootSignature } from '../../src/index.js';
import { type ByteSpan } from '../../src/inspect/index.js';
import { pathIndex, spanByPath } from '../tools.js';
import { setText, type TreeItem } from '../virtual.js';
import { $, extension, h, message, status, stem } from '../dom.js';
import { lap, state } from '../state.js';

/** Violations listed per validation target at most. */
export const MAX_VIOLATIONS = 200;

export function showRootSignature(rs: RootSignature): void {
  $('rootsig-view').hidden = false;
  lap('parts');
  setText($('hlsl-out'), printRootSignature(rs, { multiline: true }));
  lap('HLSL');
  const json = rootSignatureToJson(rs);
  // the JSON text (75 MB for 500,000 ranges) is made when its section is opened
  $('json-out').textContent = '';
  state.jsonPending = () => setText($('json-out'), JSON.stringify(json, null, 2));
  showJsonIfOpen();
  lap('JSON');
  state.rsTree.set([jsonItem('RTS0', json, 'RTS0')], 2);
  lap('tree');
  // validation runs after the first paint (it is the slowest step on large inputs); a newer load
  // cancels it
  const v = $('validation');
  v.textContent = 'validating…';
  const serial = state.loads;
  setTimeout(() => {
    if (serial !== state.loads) return;
    const t0 = performance.now();
    v.textContent = '';
    for (const target of VALIDATION_TARGETS.filter((t) => t !== 'all')) {
      const violations = validateRootSignature(rs, { target });
      const block = h('div', undefined, 'target');
      block.dataset.target = target;
      block.appendChild(h('strong', `${target}: `));
      block.appendChild(h('span', violations.length === 0 ? 'valid' : `${violations.length} violation${violations.length === 1 ? '' : 's'}`, violations.length === 0 ? 'ok' : 'bad'));
      if (violations.length > 0) {
        const items = violations.slice(0, MAX_VIOLATIONS).map((x) => h('li', `${x.code} ${x.path} ${x.message}`));
        if (violations.length > MAX_VIOLATIONS) items.push(h('li', `… ${violations.length - MAX_VIOLATIONS} more`));
        block.appendChild(h('ul', undefined, undefined, items));
      }
      v.appendChild(block);
    }
    document.body.dataset.validateMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.validated = String(serial);
  }, 0);
  const to = $('convert-to') as HTMLSelectElement;
  const other = ROOT_SIGNATURE_VERSIONS.find((x) => x.value !== rs.version);
  if (other && to.value === ROOT_SIGNATURE_VERSIONS.find((x) => x.value === rs.version)?.name) to.value = other.name;
}

/** Writes the JSON text of the loaded root signature when its section is open and the text not yet made. */
export function showJsonIfOpen(): void {
  if (!($('json-box') as HTMLDetailsElement).open || !state.jsonPending) return;
  state.jsonPending();
  state.jsonPending = undefined;
}

/** The span of a description path (`RTS0.parameters[1].ranges[0]`) in the loaded map, by an index made once. */
export function spanOf(path: string): ByteSpan | undefined {
  if (!state.current?.index) return undefined;
  state.current.byPath ??= pathIndex(state.current.index);
  const i = spanByPath(state.current.index, state.current.byPath, path);
  return i === undefined ? undefined : state.current.index.spans[i];
}

/**
 * One node of the root signature tree, from the JSON form: objects and arrays nest (their children
 * made when first expanded), values are leaves; a node whose path has a span in the byte map
 * selects those bytes when activated.
 */
export function jsonItem(label: string, value: unknown, path: string): TreeItem {
  const isObject = typeof value === 'object' && value !== null;
  const span = spanOf(path);
  const item: TreeItem = {
    label: isObject ? `${label}${Array.isArray(value) ? ` [${value.length}]` : ''}` : `${label}: ${JSON.stringify(value)}`,
    cls: isObject ? 'group' : '',
    path,
    ...(span ? { offset: span.offset, size: span.size } : {}),
  };
  if (isObject) {
    item.kids = () =>
      Array.isArray(value) ? value.map((v, i) => jsonItem(`[${i}]`, v, `${path}[${i}]`)) : Object.entries(value as Record<string, unknown>).map(([k, v]) => jsonItem(k, v, `${path}.${k}`));
  }
  return item;
}

export function convert(): void {
  const src = state.current?.source;
  if (!state.current || !src) return;
  try {
    const target = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === ($('convert-to') as HTMLSelectElement).value)!;
    const semantics = ($('semantics') as HTMLSelectElement).value as (typeof CONVERSION_SEMANTICS)[number];
    const { rootSignature, report } = convertRootSignature(src.rootSignature, target.value, { semantics });
    const rts0 = encodeRootSignature(rootSignature);
    const bytes = src.container ? writeEdited(withRootSignature(src.container, rts0), src.container, state.current.bytes) : rts0;
    state.converted = { bytes, name: `${stem(state.current.name)}.v${target.name}${extension(state.current.name) || '.dxbc'}` };
    $('report').textContent = [`${report.lossless ? 'lossless' : 'LOSSY'}: ${report.added.length} added, ${report.dropped.length} dropped, ${report.notExpressible.length} not expressible`, ...describeConversionReport(report)].join('\n');
    $('download-converted').hidden = false;
    status(`state.converted to ${target.name} (${semantics} semantics)`);
  } catch (e) {
    state.converted = undefined;
    $('download-converted').hidden = true;
    $('report').textContent = message(e);
    status(message(e), true);
  }
}
