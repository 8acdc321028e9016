/** Writes schema/root-signature.schema.json and schema/pipeline.schema.json from the codecs/ tables (`npm run schema`). */
import { writeFileSync } from 'node:fs';
import { rootSignatureJsonSchema } from '../src/root-signature/schema.js';
import { pipelineJsonSchema } from '../src/pipeline/schema.js';

writeFileSync(new URL('../schema/root-signature.schema.json', import.meta.url), `${JSON.stringify(rootSignatureJsonSchema(), null, 2)}\n`);
writeFileSync(new URL('../schema/pipeline.schema.json', import.meta.url), `${JSON.stringify(pipelineJsonSchema(), null, 2)}\n`);
