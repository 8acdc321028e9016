/**
 * What a DXGI_FORMAT is, read from its name in the DXGI_FORMAT rows (docs/formats/pipeline.md):
 * its channels (`R32G32B32_FLOAT`: 3), the kind of data a shader sees (FLOAT, UNORM, SNORM and
 * SRGB read as float; UINT; SINT), and whether it can be a vertex input, a render target or a
 * depth-stencil view.
 */
import { DXGI_FORMAT } from '../../codecs/pipeline.js';
import { enumName } from '../json/vocabulary.js';

export interface FormatInfo {
  name: string;
  /** Channels holding data (R, G, B, A; X is padding). */
  components: number;
  kind: 'float' | 'uint' | 'sint' | 'unknown';
  depth: boolean;
  stencil: boolean;
  renderTarget: boolean;
  vertexInput: boolean;
}

const cache = new Map<number, FormatInfo>();

export function formatInfo(value: number): FormatInfo {
  const hit = cache.get(value);
  if (hit) return hit;
  const named = enumName(DXGI_FORMAT, value);
  const name = typeof named === 'string' ? named : '';
  const depth = /^D\d/.test(name);
  const stencil = depth && /S8/.test(name);
  const channels = /^((?:[RGBAX]\d+)+)_/.exec(name)?.[1] ?? '';
  const components = (channels.match(/[RGBA]\d+/g) ?? []).length;
  const suffix = name.slice(name.lastIndexOf('_') + 1);
  const kind: FormatInfo['kind'] = ['FLOAT', 'UNORM', 'SNORM', 'SRGB'].includes(suffix) || name.endsWith('_SHAREDEXP') ? 'float' : suffix === 'UINT' ? 'uint' : suffix === 'SINT' ? 'sint' : 'unknown';
  const plain = components > 0 && !depth && kind !== 'unknown' && !/TYPELESS|SHAREDEXP|_B8G8_|_G8B8_|^R1_|XR_BIAS/.test(name);
  const info: FormatInfo = { name, components, kind: depth ? 'float' : kind, depth, stencil, renderTarget: plain, vertexInput: plain };
  cache.set(value, info);
  return info;
}
