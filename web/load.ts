/** Loading a file: what it is read as, and which panels show it. */
import { encodeRootSignature, looksLikeContainer, parseContainer, parseJsonText, readRootSignatureSource, rootSignatureContainer, rootSignatureFromJson, type ParsedContainer, type RootSignatureSource } from '../src/index.js';
import { byteMap, type ByteMap } from '../src/inspect/index.js';
import { indexSpans } from './tools.js';
import { $, message, status } from './dom.js';
import { lap, state } from './state.js';
import { showHex } from './panels/hex.js';
import { showBytes } from './panels/byte-tree.js';
import { showParts } from './panels/parts.js';
import { showPartPanels } from './panels/part-panels.js';
import { showBindings } from './panels/bindings.js';
import { showRootSignature } from './panels/rootsig.js';
import { showQuery } from './panels/query.js';

export async function loadFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  load(file.name, bytes);
}
export function load(name: string, bytes: Uint8Array): void {
  const t0 = performance.now();
  state.loads++;
  state.steps = [];
  state.stepAt = t0;
  for (const id of ['container-view', 'bindings-view', 'rootsig-view', 'query-view']) $(id).hidden = true;
  $('part-panels').replaceChildren();
  state.selection = undefined;
  state.cursor = 0;
  state.anchor = 0;
  state.converted = undefined;
  $('download-converted').hidden = true;
  $('report').textContent = '';
  $('query-info').textContent = '';
  $('query-stats').textContent = '';
  $('timing').textContent = '';
  $('pictures').textContent = '';
  $('hex-info').textContent = '';
  $('copy-out').hidden = true;
  $('query-warning').hidden = true;
  const mode = ($('mode') as HTMLSelectElement).value;
  try {
    if (/\.json$/i.test(name) && mode !== 'query') {
      const rs = rootSignatureFromJson(parseJsonText(new TextDecoder().decode(bytes)));
      showRootSignatureBlob(name, rootSignatureContainer(encodeRootSignature(rs)), `JSON form, encoded as a root-signature-only container`);
    } else if (mode === 'query' || (mode === 'auto' && !looksLikeContainer(bytes) && !decodesAsRootSignature(bytes))) {
      showQuery(name, bytes, mode === 'auto');
    } else showRootSignatureBlob(name, bytes);
  } catch (e) {
    // a failed read as a query buffer stays one, so a corrected option reads it again
    state.current = { name, bytes, ...(state.current?.queryAttempt && state.current.bytes === bytes ? { queryAttempt: true } : {}) };
    $('summary').textContent = `${name}: ${bytes.byteLength} bytes`;
    status(message(e), true);
    state.byteTree.set([]);
    showHex();
  }
  void document.body.offsetHeight; // layout now, so the time below includes it
  lap('layout');
  document.body.dataset.renderSteps = state.steps.join(', ');
  document.body.dataset.renderMs = (performance.now() - t0).toFixed(1);
  document.body.dataset.loaded = name;
  document.body.dataset.loads = String(state.loads);
}

export function decodesAsRootSignature(bytes: Uint8Array): boolean {
  try {
    readRootSignatureSource(bytes);
    return true;
  } catch {
    return false;
  }
}

export function showRootSignatureBlob(name: string, bytes: Uint8Array, note?: string): void {
  const isContainer = looksLikeContainer(bytes);
  let container: ParsedContainer | undefined;
  let containerError: string | undefined;
  try {
    container = isContainer ? parseContainer(bytes, { mode: 'lenient' }) : undefined;
  } catch (e) {
    containerError = message(e);
  }
  let source: RootSignatureSource | undefined;
  let rsError: string | undefined;
  try {
    source = readRootSignatureSource(bytes, 'lenient');
  } catch (e) {
    rsError = message(e);
  }
  lap('read');
  let map: ByteMap | undefined;
  try {
    map = byteMap(bytes, isContainer ? { mode: 'lenient' } : { format: 'rts0' });
  } catch (e) {
    // a container too broken to map still shows its bytes
    containerError ??= message(e);
  }
  lap('byte map');
  state.current = { name, bytes, ...(map ? { map, index: indexSpans(map) } : {}), ...(container ? { container } : {}), ...(source ? { source } : {}) };
  $('summary').textContent = `${name}: ${bytes.byteLength} bytes, ${container ? `container with ${container.parts.length} part${container.parts.length === 1 ? '' : 's'}` : isContainer ? 'unreadable container' : 'bare RTS0 part'}${note ? ` (${note})` : ''}`;
  if (containerError) status(`not a readable container: ${containerError}`, true);
  else status(rsError ? `no root signature: ${rsError}` : 'read', rsError !== undefined && !isContainer);
  lap('index');
  if (container) {
    showParts(bytes, container);
    showPartPanels(container);
    showBindings(name, bytes, container);
    lap('part panels and bindings');
  }
  if (source) showRootSignature(source.rootSignature);
  showBytes();
  lap('byte tree and hex');
}

// ---------------------------------------------------------------- parts and digest
