/** DOM helpers of the inspector: every string reaches the page through textContent or setAttribute. */
import { DxbinError } from '../src/index.js';
import type { SvgNode } from '../src/inspect/index.js';

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** An element with text (never markup) and optional class and children. */
export function h(tag: string, text?: string, cls?: string, children: Node[] = []): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  for (const c of children) e.appendChild(c);
  return e;
}

export function status(text: string, error = false): void {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', error);
}

export function download(bytes: Uint8Array, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

export function message(e: unknown): string {
  if (e instanceof DxbinError) return e.message;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

export const stem = (name: string) => name.replace(/\.[^.]*$/, '');
export const extension = (name: string) => (/\.[^.]*$/.exec(name)?.[0] ?? '');
export const SVG_NS = 'http://www.w3.org/2000/svg';
/** DOM nodes from an SVG tree: attributes by setAttribute, text by textContent. */
export function svgDom(node: SvgNode): Element {
  const e = document.createElementNS(SVG_NS, node.tag);
  for (const [k, v] of Object.entries(node.attrs)) if (k !== 'xmlns') e.setAttribute(k, String(v));
  if (node.text !== undefined) e.textContent = node.text;
  for (const c of node.children ?? []) e.appendChild(svgDom(c));
  return e;
}
export function options(select: HTMLSelectElement, values: readonly string[], chosen?: string): void {
  for (const v of values) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v;
    select.appendChild(o);
  }
  if (chosen !== undefined) select.value = chosen;
}
