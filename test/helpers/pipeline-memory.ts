/**
 * Run as a child process by test/pipeline-memory.test.ts, under a --max-old-space-size the test
 * picks: `make DIR N` writes a pipeline description with an InputLayout of N elements (each its
 * own semantic name) to DIR/pipeline.json, its shaders beside it, and its x64 stream image to
 * DIR/stream.bin; `PATH DIR` runs one path over them and prints `ok` and a count, so a path whose
 * live memory outgrows the limit dies out of memory instead:
 * - `verify`: the JSON text parsed, pipelineFromJson, verifyPipeline (what `verify --pipeline` does)
 * - `encode`: the JSON text parsed, pipelineFromJson, encodeStream (`pipeline encode`)
 * - `decode`: decodeStream of the image, verifyPipeline of its subobjects
 * - `tojson`: decodeStream of the image, streamToJson (`pipeline decode`)
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeStream, encodeStream, parseJsonText, pipelineFromJson, streamToJson, verifyPipeline } from '../../src/index.js';
import { CORPUS } from './corpus.js';

const [mode, dir, count] = process.argv.slice(2) as [string, string, string?];
const read = (p: string) => readFileSync(join(dir, p));
const description = () => pipelineFromJson(parseJsonText(readFileSync(join(dir, 'pipeline.json'), 'utf8'), 'pipeline.json'), { read });
let n = 0;
if (mode === 'make') {
  copyFileSync(join(CORPUS, 'shaders/dxtk12/BasicEffect_VSBasic.dxbc'), join(dir, 'vs.dxbc'));
  copyFileSync(join(CORPUS, 'shaders/dxtk12/BasicEffect_PSBasic.dxbc'), join(dir, 'ps.dxbc'));
  const elements: string[] = [];
  for (let i = 0; i < Number(count); i++) elements.push(`{"SemanticName":"N${i}","Format":"R32G32B32_FLOAT","AlignedByteOffset":${i % 1024}}`);
  writeFileSync(join(dir, 'pipeline.json'), `{"VS":"vs.dxbc","PS":"ps.dxbc","PrimitiveTopologyType":"TRIANGLE","RTVFormats":["R8G8B8A8_UNORM"],"InputLayout":[${elements.join(',')}]}`);
  writeFileSync(join(dir, 'stream.bin'), encodeStream(description().subobjects, 'x64'));
} else if (mode === 'verify') n = verifyPipeline(description()).violations.length;
else if (mode === 'encode') n = encodeStream(description().subobjects, 'x64').byteLength;
else if (mode === 'decode') n = verifyPipeline({ kind: 'graphics', subobjects: decodeStream(read('stream.bin'), 'x64'), files: {} }).violations.length;
else if (mode === 'tojson') n = streamToJson(decodeStream(read('stream.bin'), 'x64')).length;
else throw new Error(`no mode ${mode}`);
process.stdout.write(`ok ${n}\n`);
