/**
 * bench family `hlsl-preprocess`: case hlsl-preprocess, a generated ~1 MB include tree (headers
 * with guards and `#pragma once`, object- and function-like macros, nested conditionals, comments,
 * line continuations, HLSL-like text) preprocessed whole: dxbin in process
 * (`new HlslFile(...).preprocessedText()` over fileSystemHost, file read included) against GNU
 * `cpp -P` on the same files. cpp's time is its run on the tree less its run on an empty file
 * (process start-up is not preprocessing), in the same round. Both outputs are checked to hold the
 * same tokens first. Issue 19's goal: dxbin at least 0.5x cpp's speed (cpp's row `x` >= 0.5).
 * `tsx bench/hlsl-preprocess.ts [--json]`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { dirname, join } from 'node:path';
import { HLSL_PREDEFINES, ROOTSIG_PROFILE, profileMacros } from '../codecs/hlsl-preprocessor.js';
import { HlslFile, fileSystemHost } from '../src/index.js';
import { note, runCase, timed, type Contender } from './lib/harness.js';

const HEADERS = 160;
const dir = mkdtempSync(join(tmpdir(), 'dxbin-bench-pp-'));
process.on("exit", () => (process.env.DXBIN_BENCH_KEEP ? console.error(dir) : rmSync(dir, { recursive: true, force: true })));

/** A small deterministic generator (the tree is the same every run). */
let state = 0x9e3779b9;
const rand = (n: number) => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) % n;
};

const headerPath = (h: number) => `inc/d${h % 8}/h${h}.hlsli`;

/** One header: guard or #pragma once, includes of later headers, macros, conditionals and text. */
function header(h: number): string {
  const out: string[] = [`// header ${h}: generated for the hlsl-preprocess bench`];
  const once = h % 3 === 0;
  out.push(once ? '#pragma once' : `#ifndef H${h}_INCLUDED\n#define H${h}_INCLUDED`);
  // main includes every eighth header, each the next seven in a chain, and two more at random (guarded: read once)
  const includes = [h % 8 !== 7 ? h + 1 : -1, h + 1 + rand(20), h + 1 + rand(20)].filter((to) => to >= 0 && to < HEADERS);
  for (const to of includes) out.push(`#include "${path.posix.relative(path.posix.dirname(headerPath(h)), headerPath(to))}"`);
  out.push(`#define SCALE_${h} (${rand(16) + 1} * CONFIG_LEVEL)`, `#define MUL_${h}(a, b) ((a) * (b) + SCALE_${h})`, `#define NAME_${h}(x) x ## _${h}`, `#define STR_${h}(x) #x`);
  for (let block = 0; block < 14; block++) {
    const level = rand(4);
    out.push(`#if CONFIG_LEVEL > ${level} && defined(FEATURE_${rand(6)})`);
    out.push(`/* level ${level}: the detailed path,`, `   with #if-looking text inside the comment */`);
    out.push(`struct NAME_${h}(S${block}) { float4 a; float3 b; uint flags; };`);
    out.push(`float4 NAME_${h}(f${block})(float4 x, float y) {`, `  return x * MUL_${h}(y, ${rand(100)}) + float4(1, 2, 3, SCALE_${h}); // scaled`, '}');
    out.push(`#elif CONFIG_LEVEL == ${level} || FEATURE_${rand(6)} + 0`);
    out.push(`static const uint k${block} = MUL_${h}(${rand(50)}, \\`, `  ${rand(50)});`);
    out.push(`#else`);
    out.push(`#ifdef FEATURE_${rand(6)}`, `static const char* s${block} = STR_${h}(block ${block} of header ${h});`, '#else', `cbuffer NAME_${h}(cb${block}) : register(b${block}) { float4x4 m; float4 v[4]; };`, '#endif');
    out.push('#endif');
  }
  if (!once) out.push('#endif');
  return `${out.join('\n')}\n`;
}

const files: Record<string, string> = {};
for (let h = 0; h < HEADERS; h++) files[headerPath(h)] = header(h);
files['main.hlsl'] = `#define CONFIG_LEVEL 2\n#define FEATURE_1\n#define FEATURE_3 1\n${Array.from({ length: HEADERS / 8 }, (_, i) => `#include "${headerPath(i * 8)}"`).join('\n')}\nfloat4 main() : SV_Target { return 0; }\n`;
for (const [name, text] of Object.entries(files)) {
  mkdirSync(dirname(join(dir, name)), { recursive: true });
  writeFileSync(join(dir, name), text);
}
writeFileSync(join(dir, 'empty.hlsl'), '');
const main = join(dir, 'main.hlsl');
const treeBytes = Object.values(files).reduce((n, s) => n + s.length, 0);

const dxbinText = () => new HlslFile(readFileSync(main, 'utf8'), main, {}, {}, { host: fileSystemHost({ fs, path }) }).preprocessedText();

/** cpp -P with DXC's predefined macros (the same input dxbin sees). */
const PREDEFINES = [...HLSL_PREDEFINES, ...profileMacros(ROOTSIG_PROFILE)!].flatMap((m) => ['-D', `${m.name}=${m.value}`]);
const cpp = (file: string) => spawnSync('cpp', ['-P', '-undef', '-nostdinc', ...PREDEFINES, file], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** The tokens of preprocessed text, without line markers and pragmas (their spelling differs between the two). */
const tokens = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n')
    .match(/"(?:\\.|[^"\\\n])*"|\w+|\S/g) ?? [];

const first = dxbinText();
const read = new HlslFile(readFileSync(main, 'utf8'), main, {}, {}, { host: fileSystemHost({ fs, path }) }).files.length;
note(`hlsl-preprocess: ${HEADERS + 1} files (${read} reached from main.hlsl), ${(treeBytes / 1e6).toFixed(2)} MB of source, ${(first.length / 1e6).toFixed(2)} MB preprocessed`);
if (read !== HEADERS + 1) throw new Error(`the tree should reach every file, reached ${read}`);
let sink = 0;
const contenders: Contender[] = [
  { impl: 'dxbin', records: 1, bytes: treeBytes, pass: timed(() => (sink += dxbinText().length)) },
];
const probe = spawnSync('cpp', ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) note('hlsl-preprocess cpp: skipped (GNU cpp is not installed; Debian: apt-get install cpp)');
else {
  contenders.push({
    impl: 'cpp',
    records: 1,
    bytes: treeBytes,
    pass(reps) {
      let ns = 0;
      for (let r = 0; r < reps; r++) {
        const t0 = process.hrtime.bigint();
        cpp(main);
        const t1 = process.hrtime.bigint();
        cpp(join(dir, 'empty.hlsl'));
        const t2 = process.hrtime.bigint();
        ns += Math.max(0, Number(t1 - t0) - Number(t2 - t1));
      }
      return ns;
    },
    check() {
      const r = cpp(main);
      if (r.status !== 0) return `cpp exited ${r.status}: ${r.stderr.split('\n')[0]}`;
      const want = tokens(r.stdout);
      const got = tokens(first);
      const at = want.findIndex((t, i) => got[i] !== t);
      if (at >= 0 || want.length !== got.length) return `token ${at < 0 ? Math.min(want.length, got.length) : at} differs: cpp ${JSON.stringify(want.slice(at, at + 8))}, dxbin ${JSON.stringify(got.slice(at, at + 8))}`;
      return sink < 0 ? 'never' : undefined;
    },
  });
}
await runCase('hlsl-preprocess', contenders);
