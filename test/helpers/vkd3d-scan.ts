/**
 * The vkd3d descriptor-scan harness (test/native/vkd3d-scan.c; libvkd3d-shader does the work):
 * built once per test process into a temporary folder with the system's C compiler and
 * `pkg-config libvkd3d-shader`, then fed batches of shaders over one pipe.
 */
import { spawnSync } from 'node:child_process';
import { buildVkd3dHarness, type Built } from './vkd3d-build.js';

let built: Built | undefined;

/** Builds the harness once; the reason when it cannot be built (no compiler, no libvkd3d-dev). */
export function vkd3dScanMissing(): string | undefined {
  if (!built) built = buildVkd3dHarness('vkd3d-scan', 'dxbin-vkd3d-scan-', 'the built scan harness');
  return built.missing;
}

/** One descriptor as vkd3d lists it (vkd3d_shader_descriptor_info). */
export interface Vkd3dDescriptor {
  /** 0 SRV, 1 UAV, 2 CBV, 3 sampler. */
  type: number;
  space: number;
  index: number;
  /** 0xFFFFFFFF for unbounded arrays. */
  count: number;
  resourceType: number;
  /** bit 0 UAV counter, bit 1 UAV read, bit 2 comparison sampler. */
  flags: number;
}

/** vkd3d's answer for one shader: its descriptors, or its refusal (error code, or `crash`). */
export type ScanAnswer = { ok: true; descriptors: Vkd3dDescriptor[] } | { ok: false; error: string };

/** Scans every container; a harness crash on one input is that input's answer, the rest go on. */
export function vkd3dScan(containers: Uint8Array[]): ScanAnswer[] {
  if (vkd3dScanMissing()) throw new Error(`vkd3d scan harness unavailable: ${vkd3dScanMissing()}`);
  const answers: ScanAnswer[] = [];
  while (answers.length < containers.length) {
    const rest = containers.slice(answers.length);
    const r = spawnSync(built!.path!, [], { input: rest.map((b) => `scan ${Buffer.from(b).toString('hex')}`).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, VKD3D_SHADER_DEBUG: 'none' } });
    const lines = r.stdout.split('\n').slice(0, -1);
    for (const line of lines) answers.push(parse(line));
    if (lines.length < rest.length) answers.push({ ok: false, error: `crash (${r.status ?? r.signal})` });
  }
  return answers;
}

function parse(line: string): ScanAnswer {
  if (!line.startsWith('ok ')) return { ok: false, error: line.replace(/^error /, '') };
  const n = line.slice(3).split(' ').map(Number);
  const descriptors: Vkd3dDescriptor[] = [];
  for (let i = 0; i < n[0]!; i++) {
    const [type, space, index, count, resourceType, flags] = n.slice(1 + 6 * i, 7 + 6 * i) as number[];
    descriptors.push({ type: type!, space: space!, index: index!, count: count!, resourceType: resourceType!, flags: flags! });
  }
  return { ok: true, descriptors };
}
