/** Writes schema/root-signature.schema.json from the codecs/ tables (`npm run schema`). */
import { writeFileSync } from 'node:fs';
import { rootSignatureJsonSchema } from '../src/root-signature/schema.js';

writeFileSync(new URL('../schema/root-signature.schema.json', import.meta.url), `${JSON.stringify(rootSignatureJsonSchema(), null, 2)}\n`);
