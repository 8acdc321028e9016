/**
 * The web inspector (site/ after `npm run build:web`): reads files in the page with dxbin's public
 * API. One module per panel (web/panels/*) around one state object (web/state.ts); this module
 * wires the page's controls to them. Every string from a file reaches the DOM through textContent
 * or setAttribute, never as markup; the page's CSP allows no inline script and no eval (WASM
 * compiles under 'wasm-unsafe-eval'; without it the kernels' JS fallback serves).
 */
import { CONVERSION_SEMANTICS, ROOT_SIGNATURE_VERSIONS } from '../src/index.js';
import { QUERY_TYPES, activeKernels, kernels, selectKernels } from '../src/query/index.js';
import { VirtualTree } from './virtual.js';
import { $, download, message, options, status } from './dom.js';
import { chooseKernels } from './kernels.js';
import { state } from './state.js';
import { copySelection, describe, findNext, goTo, hexClick, hexHover, hexKey, renderHex, showCursor } from './panels/hex.js';
import { followItem } from './panels/byte-tree.js';
import { fixDigest } from './panels/parts.js';
import { convert, showJsonIfOpen } from './panels/rootsig.js';
import { renderQueryTable } from './panels/query.js';
import { load, loadFile } from './load.js';
import { compileText } from './panels/compile.js';
import { splitter } from './panels/layout.js';
import { verifyPipelineFiles } from './panels/pipeline.js';
import { verifyAgainstFile } from './panels/bindings.js';
import { setText } from './virtual.js';

function start(): void {
  const active = chooseKernels();
  document.body.dataset.kernels = active;
  options($('hlsl-version') as HTMLSelectElement, ROOT_SIGNATURE_VERSIONS.map((v) => v.name), '1.1');
  options($('convert-to') as HTMLSelectElement, ROOT_SIGNATURE_VERSIONS.map((v) => v.name), '1.0');
  options($('semantics') as HTMLSelectElement, CONVERSION_SEMANTICS, 'runtime');
  options($('query-type') as HTMLSelectElement, QUERY_TYPES.map((q) => q.cli), 'timestamp');
  state.byteTree = new VirtualTree(
    $('tree'),
    (item) => item.offset !== undefined && ($('hex-info').textContent = describe(item.offset)),
    followItem,
  );
  state.rsTree = new VirtualTree($('rs-tree'), () => undefined, followItem);
  const input = $('file') as HTMLInputElement;
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) void loadFile(f).catch((e) => status(message(e), true));
    input.value = '';
  });
  $('open').addEventListener('click', () => input.click());
  const drop = document.body;
  drop.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    $('drop').classList.add('over');
  });
  drop.addEventListener('dragleave', () => $('drop').classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    $('drop').classList.remove('over');
    const f = ev.dataTransfer?.files?.[0];
    if (f) void loadFile(f).catch((e) => status(message(e), true));
  });
  const pipelineInput = $('pipeline-files') as HTMLInputElement;
  pipelineInput.addEventListener('change', () => {
    const chosen = Array.from(pipelineInput.files ?? []);
    if (chosen.length) void verifyPipelineFiles(chosen).catch((e) => setText($('pipeline-verdict'), message(e)));
  });
  const rsInput = $('verify-rootsig') as HTMLInputElement;
  rsInput.addEventListener('change', () => {
    const f = rsInput.files?.[0];
    if (f) void verifyAgainstFile(f).catch((e) => status(message(e), true));
    rsInput.value = '';
  });
  $('compile').addEventListener('click', compileText);
  $('fix').addEventListener('click', fixDigest);
  $('convert').addEventListener('click', convert);
  $('download-converted').addEventListener('click', () => state.converted && download(state.converted.bytes, state.converted.name));
  const hex = $('hex');
  hex.addEventListener('scroll', () => requestAnimationFrame(renderHex));
  hex.addEventListener('mouseover', hexHover);
  hex.addEventListener('click', hexClick);
  hex.addEventListener('keydown', hexKey);
  $('goto').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') goTo();
  });
  $('find').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') findNext();
  });
  $('find-next').addEventListener('click', findNext);
  $('copy-hex').addEventListener('click', () => copySelection('hex'));
  $('copy-c').addEventListener('click', () => copySelection('c'));
  $('big-endian').addEventListener('change', showCursor);
  $('json-box').addEventListener('toggle', showJsonIfOpen);
  splitter('split-left', '--left');
  splitter('split-right', '--right');
  window.addEventListener('resize', () => requestAnimationFrame(renderHex));
  $('query-table').addEventListener('scroll', () => requestAnimationFrame(renderQueryTable));
  for (const id of ['query-type', 'frequency', 'marks']) {
    $(id).addEventListener('change', () => {
      // also after a failed read (a frequency of 0), so a valid value recovers
      if (state.current?.queryAttempt) load(state.current.name, state.current.bytes);
    });
  }
  // benchmarks and tests may force the JS fallback (bench/web.ts)
  window.addEventListener('dxbin-kernels', (ev) => {
    selectKernels((ev as CustomEvent<'js' | 'simd' | 'scalar'>).detail);
    document.body.dataset.kernels = activeKernels().name;
  });
  status(`ready (query kernels: ${active})`);
  document.body.dataset.ready = '1';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
