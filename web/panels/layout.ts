/** Pane splitters: drag, or focus and press Left/Right. */
import { $ } from '../dom.js';
import { renderHex } from './hex.js';

/** A splitter between panes: drag it, or focus it and press Left/Right, to resize the pane it controls. */
export function splitter(id: string, variable: '--left' | '--right'): void {
  const bar = $(id);
  const root = document.documentElement;
  const min = Number(bar.getAttribute('aria-valuemin'));
  const max = Number(bar.getAttribute('aria-valuemax'));
  const set = (px: number) => {
    const v = Math.round(Math.max(min, Math.min(max, px)));
    root.style.setProperty(variable, `${v}px`);
    bar.setAttribute('aria-valuenow', String(v));
    renderHex();
  };
  const now = () => Number(bar.getAttribute('aria-valuenow'));
  bar.addEventListener('keydown', (ev) => {
    const step = ev.shiftKey ? 64 : 16;
    const sign = variable === '--left' ? 1 : -1;
    if (ev.key === 'ArrowRight') set(now() + sign * step);
    else if (ev.key === 'ArrowLeft') set(now() - sign * step);
    else return;
    ev.preventDefault();
  });
  bar.addEventListener('pointerdown', (ev) => {
    bar.setPointerCapture(ev.pointerId);
    const x0 = ev.clientX;
    const w0 = now();
    const move = (e: PointerEvent) => set(variable === '--left' ? w0 + (e.clientX - x0) : w0 - (e.clientX - x0));
    const up = () => {
      bar.removeEventListener('pointermove', move);
      bar.removeEventListener('pointerup', up);
    };
    bar.addEventListener('pointermove', move);
    bar.addEventListener('pointerup', up);
  });
}
