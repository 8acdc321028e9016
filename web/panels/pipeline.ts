/** The pipeline box: a pipeline description and the files it names, verified as CreateGraphicsPipelineState would. */
import { parseJsonText, pipelineFromJson, verifyPipeline } from '../../src/index.js';
import { setText } from '../virtual.js';
import { $, h } from '../dom.js';

/**
 * Verifies the pipeline description among `files`; the files it names are found among the others
 * by their last path component (a page cannot read folders).
 */
export async function verifyPipelineFiles(files: readonly File[]): Promise<void> {
  const list = $('pipeline-violations');
  list.replaceChildren();
  const json = files.find((f) => f.name.toLowerCase().endsWith('.json'));
  if (!json) throw new Error('choose the pipeline description (.json) with the files it names');
  const bytes = new Map<string, Uint8Array>();
  for (const f of files) if (f !== json) bytes.set(f.name, new Uint8Array(await f.arrayBuffer()));
  const description = parseJsonText(new TextDecoder().decode(await json.arrayBuffer()), json.name);
  const pipeline = pipelineFromJson(description, {
    read: (path) => {
      const hit = bytes.get(path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1));
      if (!hit) throw new Error(`${path} was not chosen with the description`);
      return hit;
    },
  });
  const r = verifyPipeline(pipeline);
  const stages = r.stages.map((s) => s.key).join(', ') || 'no shaders';
  setText($('pipeline-verdict'), `${json.name}: ${r.kind} pipeline ${r.verdict === 'fits' ? 'fits' : 'does not fit'} (${stages}; root signature ${r.rootSignature ? `from ${r.rootSignature}` : 'missing'}; signatures ${r.signatures.replace('-', ' ')})`);
  $('pipeline-verdict').classList.toggle('warn', r.verdict !== 'fits');
  for (const v of r.violations) list.append(h('li', `${v.severity} ${v.code}${v.path ? ` ${v.path}` : ''}: ${v.message}`, v.severity === 'error' ? 'warn' : undefined));
}
