// The JSON Schema of Keel's run result, derived from its zod schema: what scripts/write-schemas.ts
// writes to schemas/run-result.schema.json and what the tests compare that file with.
import { z } from 'zod';
import { RunResultSchema } from '../../src/compose/index.js';

export function runResultJsonSchema(): Record<string, unknown> {
  return {
    title: 'Keel run result',
    ...z.toJSONSchema(RunResultSchema, { target: 'draft-2020-12' }),
  };
}
