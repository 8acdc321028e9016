/** The container panel: its parts and the digest, with a fixed copy to download. */
import { codecs, computeContainerDigest, digestStatus, printable, toHex, type ParsedContainer } from '../../src/index.js';
import { $, download, extension, h, status, stem } from '../dom.js';
import { state } from '../state.js';
import { select } from './hex.js';

export function showParts(bytes: Uint8Array, c: ParsedContainer): void {
  $('container-view').hidden = false;
  const st = digestStatus(c.digest, computeContainerDigest(bytes, c.layout.declaredSize));
  const digest = $('digest');
  digest.textContent = '';
  digest.appendChild(h('span', `digest ${toHex(c.digest)}: `));
  const word = st.status === 'valid' ? 'valid' : st.status === 'sentinel' ? `sentinel (${st.sentinel})` : `invalid (expected ${toHex(st.expected)})`;
  digest.appendChild(h('span', word, st.status === 'valid' ? 'ok' : st.status === 'sentinel' ? 'warn' : 'bad'));
  digest.dataset.status = st.status;
  $('fix').hidden = st.status === 'valid';
  const body = $('parts').querySelector('tbody')!;
  body.textContent = '';
  c.parts.forEach((p, i) => {
    const at = c.layout.partOffsets[i]!;
    const row = h('tr', undefined, 'part', [
      h('td', String(i)),
      h('td', undefined, 'fourcc', [h('button', printable(p.name, { ascii: true }), 'link')]),
      h('td', String(at)),
      h('td', String(p.data.byteLength)),
      h('td', codecs.PART_KINDS.find((k) => k.fourCC === p.name)?.what ?? 'unknown part'),
    ]);
    row.addEventListener('click', () => {
      state.cursor = at;
      state.anchor = at;
      select(at, at + 8 + p.data.byteLength, true);
    });
    body.appendChild(row);
  });
}

export function fixDigest(): void {
  if (!state.current?.container) return;
  const fixed = state.current.bytes.slice();
  fixed.set(computeContainerDigest(fixed, state.current.container.layout.declaredSize), 4);
  download(fixed, `${stem(state.current.name)}.fixed${extension(state.current.name)}`);
  status('digest fixed: downloaded a copy with the computed digest');
}
