// Writes schemas/run-result.schema.json from the zod schema it documents (src/compose/run-result.ts),
// so the file in the repository is generated, never edited by hand; a unit test fails when it is stale.
//   node --import=tsx scripts/write-schemas.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runResultJsonSchema } from '../test/support/run-result-schema.js';

const file = path.resolve(__dirname, '..', 'schemas', 'run-result.schema.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(runResultJsonSchema(), null, 2)}\n`);
process.stdout.write(`${file}\n`);
